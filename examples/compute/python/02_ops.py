"""Chapter 02 — ops: elementwise with broadcasting, type promotion, reductions, matmul.

Every op reads its inputs in place whatever their strides (a transposed or broadcast input is
never copied first) and writes a fresh result from the runtime's memory pool.
"""
import clika_runtime as crt


def main() -> None:
    x = crt.tensor([[1, 2, 3], [4, 5, 6]], dtype=crt.float32)
    print(f"x = {x}")

    print("-- elementwise, broadcasting like numpy")
    row = crt.tensor([10, 20, 30], dtype=crt.float32)
    col = crt.tensor([[100], [200]], dtype=crt.float32)
    print(f"x + [10, 20, 30] = {x + row}")
    print(f"x + [[100], [200]] = {x + col}")
    print(f"x * 2 - 1 = {x * 2.0 - 1.0}")
    print(f"sigmoid(x - 3) = {(x - 3.0).sigmoid()}")
    print(f"x > 3 = {x > 3.0}")
    print(f"where(x > 3, x, 0) = {crt.where(x > 3.0, x, crt.zeros([], dtype=crt.float32))}")

    print("-- type promotion (numpy/PyTorch rules; numbers are weak scalars)")
    small = crt.tensor([1, 2, 3], dtype=crt.int8)
    print(f"int8 + 1 = {small + 1}")
    print(f"int8 / 2 = {small / 2}")
    print(f"int8 + int32 = {small + crt.tensor([1000], dtype=crt.int32)}")
    print(f"to Float16 = {x.to(crt.float16)}")

    print("-- reductions")
    print(f"sum = {x.sum().item():g}")
    print(f"sum over dim 0 = {x.sum(0)}")
    print(f"mean over dim 1, keepdim = {x.mean(1, keepdim=True)}")
    print(f"max = {x.max().item():g}, argmax over dim 1 = {x.argmax(1)}")
    print(f"std over dim 0 = {x.std(0)}")
    print(f"softmax(x, dim 1) row sums = {x.softmax(1).sum(1)}")

    print("-- matmul, cat, stack")
    w = crt.tensor([[1, 0, 0], [1, 1, -1]], dtype=crt.float32)
    # x @ w.T reads the transposed view in place.
    print(f"x @ w.t() = {x @ w.T}")
    batch = crt.stack([x, x * 10.0], 0)
    print(f"stack([x, 10x]) shape {list(batch.shape)}, batched @ w.t() = {batch @ w.T}")
    print(f"cat([x, x], dim 1) = {crt.cat([x, x], 1)}")


if __name__ == "__main__":
    main()
