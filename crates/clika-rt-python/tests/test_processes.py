"""Tensors between processes: share_memory_(), multiprocessing queues and process arguments
under spawn, fork and forkserver (the receiver maps the same pages: its writes are seen by the
sender), from_fd over a segment a C program made, and no leaked segment when a consumer is killed."""

from __future__ import annotations

import multiprocessing as mp
import os
import pickle
import signal
import subprocess
import textwrap
from pathlib import Path

import numpy as np
import pytest

import clika_runtime as crt

from test_pickle import DTYPES, LAYOUTS, make, values

TIMEOUT = 120
METHODS = ["spawn", "fork", "forkserver"]


def _child_write_back(q_in, q_out):
    import clika_runtime  # noqa: F401  (registers the reducer in a spawned child)

    t = q_in.get(timeout=TIMEOUT)
    ok = t.is_shared()
    t[(0,) * t.ndim] = 42
    q_out.put((ok, t.shape, t.strides))


def _child_arg_write(t, q_out):
    t[0] = 7
    q_out.put(t.is_shared())


def _child_echo(q_in, q_out):
    import clika_runtime  # noqa: F401

    items = q_in.get(timeout=TIMEOUT)
    q_out.put([(t, t.is_shared()) for t in items])
    # A sender stays alive until its shared tensors are received: the receiver fetches each
    # descriptor from the sender's resource sharer while unpickling.
    q_in.get(timeout=TIMEOUT)


def _child_hold(q_in, q_out):
    import clika_runtime  # noqa: F401

    t = q_in.get(timeout=TIMEOUT)
    q_out.put(t[0].item())
    signal.pause()


def _start(ctx, target, *args):
    p = ctx.Process(target=target, args=args, daemon=True)
    p.start()
    return p


def test_share_memory_moves_values_into_a_shared_segment():
    t = crt.arange(12, dtype=crt.float32).reshape(3, 4).T
    s = t.share_memory_()
    assert s.is_shared() and not t.is_shared()
    np.testing.assert_array_equal(np.asarray(s), np.asarray(t))
    assert s.share_memory_().data_ptr() == s.data_ptr()  # already shared: itself
    fd, length, offset, read_only = s._shared_region()
    assert length >= 48 and offset == 0 and not read_only
    assert os.readlink(f"/proc/self/fd/{fd}").startswith("/memfd:clika-rt-shared")
    assert s.T._shared_region()[2] == 0 and s[1]._shared_region()[2] == 12


@pytest.mark.parametrize("method", METHODS)
def test_queue_passes_the_segment_and_the_receiver_writes_the_same_pages(method):
    ctx = mp.get_context(method)
    q_in, q_out = ctx.Queue(), ctx.Queue()
    t = crt.zeros(4, 5, dtype=crt.int32).share_memory_()
    p = _start(ctx, _child_write_back, q_in, q_out)
    q_in.put(t.T)
    shared, shape, strides = q_out.get(timeout=TIMEOUT)
    p.join(TIMEOUT)
    assert shared and shape == (5, 4) and strides == (1, 5)
    assert t[0, 0].item() == 42  # the child's write is in our memory: no copy was made


@pytest.mark.parametrize("method", METHODS)
def test_process_arguments_share_the_segment(method):
    ctx = mp.get_context(method)
    q_out = ctx.Queue()
    t = crt.zeros(3, dtype=crt.float64).share_memory_()
    p = _start(ctx, _child_arg_write, t, q_out)
    assert q_out.get(timeout=TIMEOUT) is True
    p.join(TIMEOUT)
    assert t[0].item() == 7


@pytest.mark.parametrize("method", METHODS)
def test_every_dtype_and_layout_round_trips_through_a_child(method):
    ctx = mp.get_context(method)
    q_in, q_out = ctx.Queue(), ctx.Queue()
    sent = []
    for dtype in DTYPES:
        base = make(dtype).share_memory_()
        sent += [LAYOUTS[name](base) for name in ("contiguous", "transposed", "stepped", "0-d")]
        sent.append(make(dtype))  # not shared: pickled in-band
    p = _start(ctx, _child_echo, q_in, q_out)
    q_in.put(sent)
    got = q_out.get(timeout=TIMEOUT)
    q_in.put("received")
    p.join(TIMEOUT)
    assert len(got) == len(sent)
    for t, (back, child_saw_shared) in zip(sent, got):
        assert child_saw_shared == t.is_shared()
        assert back.dtype == t.dtype and back.shape == t.shape and back.strides == t.strides
        np.testing.assert_array_equal(values(back), values(t))


def _segment_id(fd):
    """The segment's file identity: (device, inode). An inode number alone is not unique: a
    mapped library on the root file system can carry the same number as the memfd."""
    st = os.fstat(fd)
    return st.st_dev, st.st_ino


def _maps_segment(pid, segment):
    dev, inode = segment
    try:
        lines = Path(f"/proc/{pid}/maps").read_text().splitlines()
    except FileNotFoundError:
        return False
    for line in lines:
        f = line.split()
        if len(f) > 4 and f[4] == str(inode):
            major, minor = (int(x, 16) for x in f[3].split(":"))
            if (major, minor) == (os.major(dev), os.minor(dev)):
                return True
    return False


def _fds_segment(pid, segment):
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            st = os.stat(f"/proc/{pid}/fd/{fd}")
        except FileNotFoundError:
            continue
        n += (st.st_dev, st.st_ino) == segment
    return n


@pytest.mark.parametrize("method", METHODS)
def test_a_killed_consumer_leaks_no_segment(method):
    ctx = mp.get_context(method)
    q_in, q_out = ctx.Queue(), ctx.Queue()
    t = crt.arange(1000, dtype=crt.int64).share_memory_()
    segment = _segment_id(t._shared_region()[0])
    p = _start(ctx, _child_hold, q_in, q_out)
    q_in.put(t)
    assert q_out.get(timeout=TIMEOUT) == 0
    assert _maps_segment(p.pid, segment), "the consumer maps the very segment"
    os.kill(p.pid, signal.SIGKILL)
    p.join(TIMEOUT)
    assert p.exitcode == -signal.SIGKILL
    del t
    # Nobody maps or holds the segment any more: the kernel has freed it (a memfd has no
    # name to leak under /dev/shm).
    assert not _maps_segment(os.getpid(), segment)
    assert _fds_segment(os.getpid(), segment) == 0


def test_plain_pickle_of_a_shared_tensor_is_an_ordinary_pickle():
    t = crt.arange(5).share_memory_()
    back = pickle.loads(pickle.dumps(t))
    assert not back.is_shared()
    np.testing.assert_array_equal(np.asarray(back), np.arange(5))


def test_from_fd_reads_and_writes_a_segment_and_checks_bounds(tmp_path):
    fd = os.memfd_create("test")
    try:
        os.ftruncate(fd, 64)
        os.pwrite(fd, np.arange(8, dtype=np.float64).tobytes(), 0)
        t = crt.from_fd(fd, crt.float64, (2, 3), offset=16)
        np.testing.assert_array_equal(np.asarray(t), np.arange(2, 8).reshape(2, 3))
        t[0, 0] = -1
        assert np.frombuffer(os.pread(fd, 8, 16), np.float64)[0] == -1
        assert t.is_shared()
        s = crt.from_fd(fd, crt.float64, (2, 2), strides=(1, 2), read_only=True)
        np.testing.assert_array_equal(np.asarray(s), [[0, -1], [1, 3]])  # sees the write above
        with pytest.raises(crt.ReadOnlyError):
            s[0, 0] = 1
        with pytest.raises(crt.ShapeError, match="too small"):
            crt.from_fd(fd, crt.float64, 9)
        with pytest.raises(crt.AlignmentError):
            crt.from_fd(fd, crt.float64, 2, offset=3)
    finally:
        os.close(fd)
    with pytest.raises(crt.InvalidArgumentError, match="open file descriptor"):
        crt.from_fd(fd, crt.float64, 1)
    path = tmp_path / "ro.bin"
    path.write_bytes(bytes(8))
    ro = os.open(path, os.O_RDONLY)
    try:
        with pytest.raises(crt.ClikaError, match="read_only"):
            crt.from_fd(ro, crt.uint8, 8)
        assert crt.from_fd(ro, crt.uint8, 8, read_only=True).numel() == 8
    finally:
        os.close(ro)


C_PRODUCER = r"""
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int fd = shm_open(argv[1], O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0 || ftruncate(fd, 4096) != 0) return 1;
    float *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) return 2;
    for (int i = 0; i < 1024; i++) p[i] = (float)i * 0.5f;
    munmap(p, 4096);
    close(fd);
    return 0;
}
"""


def test_a_segment_a_c_program_produced_is_consumed_without_a_copy(tmp_path):
    cc = os.environ.get("CC", "cc")
    src = tmp_path / "producer.c"
    src.write_text(textwrap.dedent(C_PRODUCER))
    exe = tmp_path / "producer"
    try:
        subprocess.run([cc, str(src), "-o", str(exe), "-lrt"], check=True, capture_output=True, timeout=TIMEOUT)
    except (OSError, subprocess.CalledProcessError) as e:
        pytest.skip(f"no C compiler to build the producer: {e}")
    name = f"/clika-rt-test-{os.getpid()}"
    subprocess.run([str(exe), name], check=True, timeout=TIMEOUT)
    fd = os.open(f"/dev/shm{name}", os.O_RDWR)
    try:
        os.unlink(f"/dev/shm{name}")  # the mapping keeps the pages; nothing is left behind
        t = crt.from_fd(fd, crt.float32, (32, 32))
    finally:
        os.close(fd)
    np.testing.assert_array_equal(np.asarray(t), (np.arange(1024, dtype=np.float32) * 0.5).reshape(32, 32))
    region = t._shared_region()
    assert region is not None and region[1] == 4096
