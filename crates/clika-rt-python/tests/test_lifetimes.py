"""Lifetimes across threads and interpreter exit."""

import gc
import subprocess
import sys
import textwrap
import threading
import weakref

import numpy as np

import clika_runtime as crt


def test_last_reference_dropped_on_another_thread():
    for _ in range(20):
        a = np.arange(1000, dtype=np.float32)
        wr = weakref.ref(a)
        box = [crt.from_numpy(a)[10:], np.from_dlpack(crt.ones(8))]
        del a

        def drop():
            assert box[0].sum().item() == sum(range(10, 1000))
            box.clear()
            gc.collect()

        th = threading.Thread(target=drop)
        th.start()
        th.join()
        gc.collect()
        assert wr() is None


def test_threads_race_to_drop_views():
    a = np.ones(4096, dtype=np.float64)
    base = sys.getrefcount(a)
    t = crt.from_numpy(a)
    views = [t[i:] for i in range(64)]
    del t
    barrier = threading.Barrier(4)

    def worker(chunk):
        barrier.wait()
        for v in chunk:
            assert v.sum().item() > 0
        chunk.clear()

    chunks = [views[i::4] for i in range(4)]
    del views
    threads = [threading.Thread(target=worker, args=(c,)) for c in chunks]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    del chunks
    gc.collect()
    assert sys.getrefcount(a) == base


def test_no_crash_at_exit_with_tensors_in_globals():
    code = textwrap.dedent(
        """
        import numpy as np
        import clika_runtime as crt
        A = np.arange(10, dtype=np.float32)
        T = crt.from_numpy(A)
        V = T.numpy()
        D = crt.from_dlpack(np.ones(3))
        C = crt.ones(4).__dlpack__(max_version=(1, 0))
        E = np.from_dlpack(crt.ones(2))
        class Holder:
            pass
        H = Holder()
        H.t = T[2:]
        H.self = H  # a cycle, collected late at shutdown
        print("ok", T.sum().item())
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok 45.0"
