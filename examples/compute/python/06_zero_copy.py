"""Chapter 06 — zero copy: numpy arrays and tensors share memory both ways.

* from_numpy views the array's memory (writes are seen both ways) and keeps the array alive
  for as long as any tensor or view uses it — dropping your last reference is safe;
* from_numpy takes C-contiguous arrays (the spec's contract; a refusal names the fix); a
  non-contiguous numpy view, such as a region of a pitched image, enters through DLPack
  with its strides, still without a copy;
* t.numpy() and np.asarray(t) view the tensor's memory; DLPack exchanges it with any library
  that speaks the protocol (numpy, PyTorch, JAX, CuPy);
* processes: a producer puts frames in a shared segment (share_memory_) and a consumer
  process receives them through a multiprocessing queue as the segment's descriptor: it
  maps the same pages, and what it writes the producer sees (docs/processes.md);
* Ray: ray.put writes a frame once into Ray's object store; ray.get and a task's argument
  wrap the store's memory read-only, without a copy (skipped where Ray is not installed).
"""
import multiprocessing as mp

import numpy as np

import clika_runtime as crt


def yes(b: bool) -> str:
    return "yes" if b else "no"


def main() -> None:
    print("-- borrow: a numpy array, viewed in place")
    frame = np.array([[1, 2, 3], [4, 5, 6]], dtype=np.float32)
    t = crt.from_numpy(frame)
    print(f"tensor data is the array's: {yes(t.data_ptr() == frame.ctypes.data)}")
    print(f"sum = {t.sum().item():g}")
    t[0, 0].fill_(100)  # a write through a view of the tensor lands in the array
    print(f"after writing through the tensor, frame[0, 0] = {frame[0, 0]:g}")

    print("-- keepalive: the tensor holds the array, not a copy")
    address = frame.ctypes.data
    del frame  # our last reference: the tensor keeps the memory alive
    print(f"array dropped, same memory: {yes(t.data_ptr() == address)}, {t}")

    print("-- strided: a region of a pitched image, in place")
    image = (np.arange(4)[:, None] * 10 + np.arange(6)[None, :]).astype(np.float32)
    region = image[1:3, 2:5]  # numpy's view has the image's row pitch as its row stride
    try:
        crt.from_numpy(region)
    except crt.LayoutError:
        print("from_numpy(region): refused, not C-contiguous (the error names the fix)")
    roi = crt.from_dlpack(region)  # DLPack carries strides: viewed in place
    print(f"from_dlpack(region) shares memory: {yes(roi.data_ptr() == region.ctypes.data)}")
    print(f"roi = {roi}")
    print(f"roi strides {list(roi.strides)}, contiguous {yes(roi.is_contiguous())}, "
          f"sum = {roi.sum().item():g}")

    print("-- tensor to numpy, and DLPack")
    r = crt.arange(0, 6, dtype=crt.int32).reshape(3, 2)
    a = r.numpy()
    print(f"r.numpy() shares memory: {yes(a.ctypes.data == r.data_ptr())}, {a.tolist()}")
    d = np.from_dlpack(r)
    print(f"np.from_dlpack(r) shares memory: {yes(d.ctypes.data == r.data_ptr())}")
    back = crt.from_dlpack(d)
    print(f"crt.from_dlpack(array) shares memory: {yes(back.data_ptr() == r.data_ptr())}")

    processes()
    through_ray()


FRAMES = 3


def make_frames() -> np.ndarray:
    """Frame k of 2x3 float32 holds 10k + 0..5."""
    return np.stack([np.arange(6, dtype=np.float32).reshape(2, 3) + 10 * k for k in range(FRAMES)])


def consumer(frames: "mp.Queue", results: "mp.Queue") -> None:
    for k in range(FRAMES):
        frame = frames.get()  # maps the producer's segment: the descriptor came, not the bytes
        total, mean = frame.sum().item(), frame.mean().item()
        frame[0, 0] = total  # lands in the producer's pages
        results.put((k, total, mean, frame.is_shared()))


def processes() -> None:
    print("-- processes: a producer hands frames to a consumer process, zero copy")
    frames = crt.tensor(make_frames()).share_memory_()
    print(f"producer: {FRAMES} frames of 2x3 float32 in one shared segment")
    ctx = mp.get_context("spawn")
    queue, results = ctx.Queue(), ctx.Queue()
    child = ctx.Process(target=consumer, args=(queue, results))
    child.start()
    seen = []
    for k in range(FRAMES):
        queue.put(frames[k])  # a view: travels as the segment's descriptor and an offset
        # The producer stays alive (and waits) until the consumer has the frame.
        seen.append(results.get(timeout=120))
    child.join(timeout=120)
    for k, total, mean, shared in seen:
        print(f"consumer: frame {k} sum = {total:g}, mean = {mean:g}")
    written = [frames[k, 0, 0].item() for k in range(FRAMES)]
    print("producer: frame[0, 0] after the consumer wrote each sum there: "
          + ", ".join(f"{v:g}" for v in written))
    same = all(s for *_, s in seen) and written == [total for _, total, _, _ in seen]
    print(f"same pages, nothing copied: {yes(same and child.exitcode == 0)}")


def frame_stats(frame: "crt.Tensor") -> tuple:
    """A Ray task: the frame it receives wraps the object store's memory."""
    total, mean = frame.sum().item(), frame.mean().item()
    try:
        frame[0, 0] = 0
        read_only = False
    except crt.ReadOnlyError:
        read_only = True
    return total, mean, read_only


def through_ray() -> None:
    try:
        import ray
    except ImportError:
        print("-- ray: not installed here (pip install ray), skipped")
        return
    print("-- ray: the same frames through Ray's object store")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False,
             object_store_memory=80 * 1024 * 1024, configure_logging=False)
    try:
        frames = crt.tensor(make_frames())
        ref = ray.put(frames[0])  # the bytes are written once, into the store
        a, b = ray.get(ref, timeout=120), ray.get(ref, timeout=120)
        # Both gets wrap the store's one copy: the same address, not the frame's.
        wraps = a.data_ptr() == b.data_ptr() != frames[0].data_ptr()
        print(f"ray.get wraps the store's memory, no copy: {yes(wraps)}")
        stats = ray.remote(frame_stats)
        out = ray.get([stats.remote(ray.put(frames[k])) for k in range(FRAMES)], timeout=120)
        for k, (total, mean, _) in enumerate(out):
            print(f"task: frame {k} sum = {total:g}, mean = {mean:g}")
        print(f"the task's frames were read-only views of the store: "
              f"{yes(all(ro for *_, ro in out))}")
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
