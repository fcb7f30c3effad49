"""Chapter 06 — zero copy: numpy arrays and tensors share memory both ways.

* from_numpy views the array's memory (writes are seen both ways) and keeps the array alive
  for as long as any tensor or view uses it — dropping your last reference is safe;
* from_numpy takes C-contiguous arrays (the spec's contract; a refusal names the fix); a
  non-contiguous numpy view, such as a region of a pitched image, enters through DLPack
  with its strides, still without a copy;
* t.numpy() and np.asarray(t) view the tensor's memory; DLPack exchanges it with any library
  that speaks the protocol (numpy, PyTorch, JAX, CuPy).
"""
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


if __name__ == "__main__":
    main()
