"""`copy=True` loads read files into runtime memory instead of mapping them (issue 21): a
file truncated afterwards cannot raise SIGBUS in the reader. A mapped load of the same
truncated file kills the process (checked in a child process, which must die by SIGBUS:
this is what `copy=True` protects from)."""

from __future__ import annotations

import os
import signal
import struct
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np

import clika_runtime as crt

N = 1 << 16  # 256 KiB of float32: many pages, so truncation removes mapped pages


def write_file(p: Path) -> None:
    entry = '{"w": {"dtype": "F32", "shape": [%d], "data_offsets": [0, %d]}}' % (N, 4 * N)
    h = entry.encode()
    h += b" " * (-len(h) % 8)
    p.write_bytes(struct.pack("<Q", len(h)) + h + np.arange(N, dtype=np.float32).tobytes())


def test_copied_loads_survive_truncation(tmp_path: Path) -> None:
    st = tmp_path / "w.safetensors"
    write_file(st)
    w = crt.load_safetensors(st, copy=True)["w"]
    raw = tmp_path / "raw.bin"
    np.arange(N, dtype=np.float32).tofile(raw)
    r = crt.from_file(raw, crt.float32, (N,), copy=True)
    os.truncate(st, 16)
    os.truncate(raw, 0)
    expected = float(np.arange(N, dtype=np.float64).sum())
    assert w.sum().item() == expected and r.sum().item() == expected
    assert w.numpy()[-1] == N - 1 and r[N - 1].item() == N - 1
    before = crt.memory_stats().active_bytes
    del w, r
    assert crt.memory_stats().active_bytes < before  # the copies were pool memory


def test_mapped_load_of_a_truncated_file_dies_by_sigbus(tmp_path: Path) -> None:
    st = tmp_path / "w.safetensors"
    write_file(st)
    script = tmp_path / "s.py"
    script.write_text(textwrap.dedent(f"""
        import os, clika_runtime as crt
        w = crt.load_safetensors({str(st)!r})["w"]
        os.truncate({str(st)!r}, 16)
        print(w.sum().item())
    """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, timeout=120)
    assert done.returncode == -signal.SIGBUS


def test_copy_refuses_a_range_past_the_end(tmp_path: Path) -> None:
    raw = tmp_path / "raw.bin"
    raw.write_bytes(b"\0" * 8)
    try:
        crt.from_file(raw, crt.float32, (4,), copy=True)
    except crt.ShapeError as e:
        assert "8" in str(e)
    else:
        raise AssertionError("a range past the end must be refused")
