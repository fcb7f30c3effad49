"""Chapter 01 — tensors: create them, inspect them, take views, print them.

A tensor is a shape and strides (in elements) over a block of storage. Views (transpose,
indexing, slicing, reshape) make a new shape and strides over the *same* storage: nothing is
copied until you ask for it with contiguous().
"""
import clika_runtime as crt


def yes(b: bool) -> str:
    return "yes" if b else "no"


def main() -> None:
    print("-- create")
    a = crt.arange(0, 6, dtype=crt.float32).reshape(2, 3)
    print(f"a = arange(6).reshape(2, 3): {a}")
    print(f"zeros([2, 2], Int32): {crt.zeros(2, 2, dtype=crt.int32)}")
    print(f"full([3], 0.5): {crt.full([3], 0.5, dtype=crt.float32)}")
    # crt.tensor copies your values into memory the runtime owns.
    d = crt.tensor([1.5, -2.0, 3.25], dtype=crt.float64)
    print(f"from_data([1.5, -2, 3.25]): {d}")

    print("-- inspect")
    print(f"a: shape {list(a.shape)}, strides {list(a.strides)}, numel {a.numel()}, "
          f"contiguous {yes(a.is_contiguous())}")

    print("-- views share memory")
    at = a.T
    print(f"a.t(): {at}")
    print(f"a.t(): shape {list(at.shape)}, strides {list(at.strides)}, "
          f"contiguous {yes(at.is_contiguous())}, same memory as a {yes(at.data_ptr() == a.data_ptr())}")
    print(f"a[1] (select): {a[1]}")
    print(f"a[:, 1:] (narrow): {a[:, 1:]}")
    print(f"a.reshape(3, 2): {a.reshape(3, 2)}")

    print("-- contiguous() copies only when it must")
    c1 = a.contiguous()
    c2 = at.contiguous()
    print(f"a.contiguous() is a: {yes(c1.data_ptr() == a.data_ptr())}")
    print(f"a.t().contiguous() is a copy: {yes(c2.data_ptr() != a.data_ptr())}, "
          f"strides {list(c2.strides)}: {c2}")

    print("-- scalars and long tensors")
    print(f"a.sum().item() = {a.sum().item():g}")
    print(f"arange(100): {crt.arange(0, 100, dtype=crt.int64)}")


if __name__ == "__main__":
    main()
