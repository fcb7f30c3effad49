"""Chapter 05 — a custom operator: your kernel, called by name like a built-in op.

An operator is a *rule* (the output's shape and dtype, from the inputs') and a *kernel*. A
Python kernel receives read-only numpy views of its inputs (no copy; a borrowed input cannot
be written) and returns a numpy array, which becomes the output without a copy: the tensor
keeps the array alive and releases it exactly once, when the last tensor or view over it
drops. See docs/custom-operators.md.
"""
import weakref

import numpy as np

import clika_runtime as crt

released = 0


def one_f32(specs):
    if len(specs) != 1 or specs[0][1] != crt.float32:
        raise crt.InvalidArgumentError("takes one Float32 tensor")
    return specs[0]


def softsign(x):
    return x / (1 + np.abs(x))


def cumsum(x):
    global released
    out = np.cumsum(x, dtype=np.float32)

    def count():
        global released
        released += 1

    weakref.finalize(out, count)  # runs when the runtime lets go of the array
    return out


def main() -> None:
    print("-- register: a rule and a kernel under a name")
    crt.ops.register("demo.softsign", one_f32, softsign)
    crt.ops.register("demo.cumsum", one_f32, cumsum)
    print(f"registered: {', '.join(n for n in crt.ops.registered() if n.startswith('demo.'))}")

    print("-- call by name")
    frame = np.array([-1.0, 0.0, 3.0, 1.0], dtype=np.float32)
    before = frame.copy()
    x = crt.from_numpy(frame)
    print(f"softsign(x) = {crt.ops.call('demo.softsign', x)}")
    c = crt.ops.call("demo.cumsum", x)
    print(f"cumsum(x) = {c} (adopted: the kernel's own buffer)")
    tail = c[2:]
    del c
    print(f"output dropped, a view lives: deleter calls = {released}")
    del tail
    print(f"last view dropped: deleter calls = {released}")
    del x
    print(f"the borrowed input is unchanged: {'yes' if (frame == before).all() else 'no'}")

    print("-- errors are ordinary errors")
    t = crt.zeros(2)
    try:
        crt.ops.call("demo.softsign", t, t)
        print("unexpected: two inputs accepted")
    except crt.ClikaError:
        print("two inputs: refused by the rule")
    try:
        crt.ops.call("demo.nope", t)
        print("unexpected: an unknown name ran")
    except crt.ClikaError:
        print("unknown name: refused")
    crt.ops.unregister("demo.softsign")
    crt.ops.unregister("demo.cumsum")
    print(f"unregistered: {sum(n.startswith('demo.') for n in crt.ops.registered())} left")


if __name__ == "__main__":
    main()
