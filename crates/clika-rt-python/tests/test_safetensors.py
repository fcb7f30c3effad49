"""Zero-copy weights from mapped files: crt.load_safetensors and crt.from_file.

Files are written by the safetensors package's numpy API; every dtype the runtime shares
with numpy is compared with numpy's values. Hazards: one shared mapping that outlives the
dict, lazy paging (RSS), files larger than the pool limit, read-only tensors, hostile files.
"""

from __future__ import annotations

import gc
import json
import os
from pathlib import Path
from typing import Dict

import numpy as np
import pytest
from safetensors.numpy import save_file

import clika_runtime as crt

DTYPES = [np.float32, np.float64, np.float16, np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_,
          np.uint16, np.uint32, np.uint64]


def arrays() -> Dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    out: Dict[str, np.ndarray] = {}
    for i, dt in enumerate(DTYPES):
        shape = (3, 5) if i % 2 else (7,)
        if dt == np.bool_:
            out[np.dtype(dt).name] = rng.integers(0, 2, shape).astype(np.bool_)
        elif np.issubdtype(dt, np.integer):
            info = np.iinfo(dt)
            out[np.dtype(dt).name] = rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
        else:
            out[np.dtype(dt).name] = rng.standard_normal(shape).astype(dt)
    out["empty"] = np.zeros((0, 4), np.float32)
    out["scalar"] = np.array(2.5, np.float64)
    return out


def test_every_dtype_matches_numpy(tmp_path: Path) -> None:
    src = arrays()
    path = tmp_path / "w.safetensors"
    save_file(src, str(path))
    loaded = crt.load_safetensors(path)
    assert set(loaded) == set(src)
    for name, a in src.items():
        t = loaded[name]
        assert t.shape == a.shape, name
        got = t.numpy()
        assert got.dtype == a.dtype, name
        np.testing.assert_array_equal(got, a, err_msg=name)
        assert not got.flags.writeable, "mapped tensors are read-only"


def test_one_mapping_shared_and_outliving_the_dict(tmp_path: Path) -> None:
    src = {"a": np.arange(1000, dtype=np.float32), "b": np.arange(10, dtype=np.int64)}
    path = tmp_path / "w.safetensors"
    save_file(src, str(path))
    size = path.stat().st_size
    loaded = crt.load_safetensors(str(path))
    ptrs = sorted(t.data_ptr() for t in loaded.values())
    assert ptrs[-1] - ptrs[0] < size, "every tensor lies in one mapping of the file"
    kept = loaded["b"][2:5]
    del loaded
    gc.collect()
    np.testing.assert_array_equal(kept.numpy(), [2, 3, 4])
    with pytest.raises(crt.ReadOnlyError):
        kept += 1


def resident_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def write_big(path: Path, small: np.ndarray, big_bytes: int) -> None:
    """A safetensors file with a small F32 tensor and a big sparse U8 one (no disk used)."""
    nb = small.nbytes
    header = (
        '{"small":{"dtype":"F32","shape":[%d],"data_offsets":[0,%d]},'
        '"big":{"dtype":"U8","shape":[%d],"data_offsets":[%d,%d]}}' % (small.size, nb, big_bytes, nb, nb + big_bytes)
    ).encode()
    header += b" " * (-len(header) % 8)
    with open(path, "wb") as f:
        f.write(len(header).to_bytes(8, "little"))
        f.write(header)
        f.write(small.tobytes())
        f.truncate(8 + len(header) + nb + big_bytes)


def test_only_touched_pages_become_resident(tmp_path: Path) -> None:
    path = tmp_path / "big.safetensors"
    write_big(path, np.full(16, 2.5, np.float32), 512 << 20)
    before = resident_bytes()
    loaded = crt.load_safetensors(path)
    assert float(loaded["small"].sum().item()) == 40.0
    grown = resident_bytes() - before
    assert grown < 32 << 20, f"RSS grew by {grown} bytes to read 64 bytes"
    assert loaded["big"].numel() == 512 << 20


def test_a_file_larger_than_the_pool_limit_loads(tmp_path: Path) -> None:
    path = tmp_path / "big.safetensors"
    write_big(path, np.ones(4 << 20, np.float32), 64)
    crt.set_memory_limit(4 << 20)
    try:
        crt.release_cached_memory()  # earlier tests may have left a big block cached
        with pytest.raises(crt.OutOfMemoryError):
            crt.zeros(4 << 20)
        loaded = crt.load_safetensors(path)
        assert loaded["small"].sum().item() == 4 << 20
    finally:
        crt.set_memory_limit(None)


def test_hostile_files_raise_clear_errors(tmp_path: Path) -> None:
    good = tmp_path / "good.safetensors"
    save_file({"x": np.ones(4, np.float32)}, str(good))
    data = good.read_bytes()
    cases = {
        "empty": b"",
        "short": b"\x01\x02",
        "truncated": data[:-3],
        "huge header": (1 << 40).to_bytes(8, "little") + data[8:],
        "not json": data[:8] + b"!" + data[9:],
        "trailing bytes": data + b"\0" * 8,
    }
    for name, content in cases.items():
        p = tmp_path / name
        p.write_bytes(content)
        with pytest.raises(crt.InvalidArgumentError, match="not a valid safetensors file"):
            crt.load_safetensors(p)
    with pytest.raises(crt.InvalidArgumentError, match="cannot open"):
        crt.load_safetensors(tmp_path / "missing.safetensors")
    f8 = tmp_path / "f8.safetensors"
    header = json.dumps({"x": {"dtype": "F8_E4M3", "shape": [2], "data_offsets": [0, 2]}}).encode()
    f8.write_bytes(len(header).to_bytes(8, "little") + header + b"\0\0")
    with pytest.raises(crt.DTypeError, match="F8_E4M3"):
        crt.load_safetensors(f8)


def test_unsigned_dtypes_load_without_copy(tmp_path: Path) -> None:
    arrays = {
        "u16": np.array([0, 40000, 65535], np.uint16),
        "u32": np.array([[1, 2**32 - 1]], np.uint32),
        "u64": np.array([2**64 - 1, 2**63, 5], np.uint64),
    }
    path = tmp_path / "u.safetensors"
    save_file(arrays, str(path))
    loaded = crt.load_safetensors(path)
    for name, a in arrays.items():
        t = loaded[name]
        assert t.dtype == a.dtype
        np.testing.assert_array_equal(t.numpy(), a)
    assert int(loaded["u64"].max().item()) == 2**64 - 1


def test_from_file_maps_raw_binary(tmp_path: Path) -> None:
    a = np.arange(12, dtype=np.float32)
    path = tmp_path / "raw.bin"
    path.write_bytes(b"\0" * 8 + a.tobytes())
    t = crt.from_file(path, crt.float32, (3, 4), offset=8)
    np.testing.assert_array_equal(t.numpy(), a.reshape(3, 4))
    t2 = crt.Tensor.from_file(str(path), "float32", 12, 8)
    assert t2.shape == (12,)
    with pytest.raises(crt.ShapeError, match="do not fit in the file"):
        crt.from_file(path, np.float32, (4, 4), offset=8)
    with pytest.raises(crt.InvalidArgumentError, match="multiple of the dtype"):
        crt.from_file(path, np.float32, (2,), offset=2)
