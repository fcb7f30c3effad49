"""The runtime survives fork (issue 21).

Each scenario runs in a fresh interpreter (a script in tmp_path) under a timeout, so a
regression fails instead of hanging the suite: the child of a fork used to block forever in
its first multithreaded op once the parent had started the CPU thread pool.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import clika_runtime as crt

TIMEOUT = 120


def run_script(tmp_path: Path, body: str) -> str:
    script = tmp_path / "scenario.py"
    script.write_text(textwrap.dedent(body))
    try:
        done = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, timeout=TIMEOUT
        )
    except subprocess.TimeoutExpired as e:
        pytest.fail(f"the scenario hung (killed after {TIMEOUT} s); output so far: {e.stdout!r}")
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_issue_repro_finishes(tmp_path: Path) -> None:
    out = run_script(
        tmp_path,
        """
        import os, clika_runtime as crt
        assert (crt.ones(2048, 2048) * 2).sum().item() == 2 * 2048 * 2048
        pid = os.fork()
        if pid == 0:
            ok = (crt.ones(2048, 2048) * 2).sum().item() == 2 * 2048 * 2048
            m = crt.ones(256, 256)
            ok = ok and (m @ m).sum().item() == 256.0 ** 3
            os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        print("child status", os.waitstatus_to_exitcode(status))
        """,
    )
    assert "child status 0" in out


def test_multiprocessing_pools_with_fork_spawn_and_forkserver(tmp_path: Path) -> None:
    out = run_script(
        tmp_path,
        """
        import multiprocessing as mp
        import numpy as np
        import clika_runtime as crt

        def work(i):
            a = crt.full((512, 512), float(i)) * 2 + 1
            return a.sum().item(), (a @ crt.ones(512, 1)).numpy()[0, 0].item()

        if __name__ == "__main__":
            # Start the parent's thread pool first: the hazard for forked children.
            assert (crt.ones(2048, 2048) * 2).sum().item() == 2 * 2048 * 2048
            expected = [((2 * i + 1) * 512 * 512, (2 * i + 1) * 512.0) for i in range(8)]
            for method in ("fork", "spawn", "forkserver"):
                with mp.get_context(method).Pool(2) as pool:
                    got = pool.map(work, range(8), chunksize=1)
                assert got == expected, (method, got)
                print(method, "ok")
        """,
    )
    assert out.split() == ["fork", "ok", "spawn", "ok", "forkserver", "ok"]


def test_fork_while_another_thread_computes(tmp_path: Path) -> None:
    out = run_script(
        tmp_path,
        """
        import os, threading, warnings
        import numpy as np
        import clika_runtime as crt
        warnings.simplefilter("ignore", DeprecationWarning)  # fork() with threads running

        stop = threading.Event()
        def busy():
            while not stop.is_set():
                a = crt.ones(1024, 1024) * 3
                assert a.sum().item() == 3 * 1024 * 1024
                t = crt.zeros(100) + 1  # small pool allocations: the pool lock, often held
                del a, t
                crt.memory_stats()
        threads = [threading.Thread(target=busy) for _ in range(2)]
        for t in threads:
            t.start()
        bad = 0
        for _ in range(10):
            pid = os.fork()
            if pid == 0:
                ok = (crt.ones(2048, 2048) * 2).sum().item() == 2 * 2048 * 2048
                ok = ok and np.array_equal((crt.arange(10) + 1).numpy(), np.arange(1, 11))
                os._exit(0 if ok else 1)
            _, status = os.waitpid(pid, 0)
            bad += os.waitstatus_to_exitcode(status) != 0
        stop.set()
        for t in threads:
            t.join()
        print("bad children", bad)
        """,
    )
    assert "bad children 0" in out


def test_a_gpu_started_before_fork_is_refused_in_the_child_naming_spawn(tmp_path: Path) -> None:
    try:
        crt.ones(2).to("gpu:0")
    except crt.ClikaError as e:
        pytest.skip(f"no GPU: {e}")
    out = run_script(
        tmp_path,
        """
        import os, clika_runtime as crt
        crt.ones(4).to("gpu:0").sum().item()
        pid = os.fork()
        if pid == 0:
            try:
                crt.ones(4).to("gpu:0")
                os._exit(2)
            except crt.DeviceError as e:
                os._exit(0 if "spawn" in str(e) else 3)
        _, status = os.waitpid(pid, 0)
        print("child status", os.waitstatus_to_exitcode(status))
        """,
    )
    assert "child status 0" in out
