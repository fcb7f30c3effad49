"""Chapter 07 — a vision pipeline: a decoder's frame to a classification, without a copy.

* wrap: the decoder owns a pitched NV12 frame (each row padded to 384 bytes); the tensor
  views it in place, with the pitch as its row stride;
* weights: a small convolutional network's safetensors file is mapped, not read;
* pipeline: NV12 -> RGB, an antialiased bilinear resize of the uint8 frame to 64x64, a
  fused normalize to float32 NCHW, three convolutions, pooling, a linear layer, softmax;
* the answer is compared with PyTorch's for the same frame (examples/compute/data/
  make_vision_net.py wrote both the weights and PyTorch's answers);
* frame 2 is decoded into the same buffer: the same tensor sees it, and the pool serves the
  whole second frame from the blocks the first one gave back.
"""
from pathlib import Path

import numpy as np

import clika_runtime as crt

DATA = Path(__file__).resolve().parent.parent / "data"
W, H, PITCH, SIDE = 320, 240, 384, 64
MEAN, STD = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
CLASSES = ["plane", "car", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]


def yes(b: bool) -> str:
    return "yes" if b else "no"


def decode(buf: np.ndarray, k: int) -> None:
    """The 'decoder': writes frame k into its own buffer (rows of PITCH bytes)."""
    r, c = np.mgrid[0:H, 0:W]
    buf[:H, :W] = 16 + (r * (5 + 2 * k) + c * (3 + 4 * k) + 17 * k) % 200
    r, c = np.mgrid[0 : H // 2, 0 : W // 2]
    buf[H:, 0:W:2] = 96 + (r * 5 + c * 3 + 31 * k) % 64
    buf[H:, 1:W:2] = 96 + (r * 2 + c * 7 + 13 * k) % 64


def classify(frame: crt.Tensor, w: dict) -> crt.Tensor:
    rgb = crt.cvt_color(frame, "YUV2RGB_NV12")  # (H, W, 3) uint8
    small = crt.interpolate(rgb.permute(2, 0, 1).unsqueeze(0), size=(SIDE, SIDE), mode="bilinear", antialias=True)
    x = crt.normalize_image(small.permute(0, 2, 3, 1), MEAN, STD)  # (1, 3, 64, 64) float32
    x = crt.max_pool2d(crt.conv2d(x, w["conv1.weight"], w["conv1.bias"], padding=1).relu(), 2)
    x = crt.max_pool2d(crt.conv2d(x, w["conv2.weight"], w["conv2.bias"], padding=1).relu(), 2)
    x = crt.conv2d(x, w["conv3.weight"], w["conv3.bias"], stride=2, padding=1).relu()
    x = crt.adaptive_avg_pool2d(x, (1, 1)).flatten(1)
    return crt.linear(x, w["fc.weight"], w["fc.bias"]).softmax(1)[0]


def report(k: int, probs: crt.Tensor, reference: dict) -> None:
    values, indices = probs.topk(5)
    top = list(zip(indices.tolist(), values.tolist()))
    print("top-5: " + ", ".join(f"{CLASSES[i]} {p:.3f}" for i, p in top))
    ref = reference[k]
    agree = [i for i, _ in top] == [i for i, _ in ref] and all(abs(p - q) < 5e-3 for (_, p), (_, q) in zip(top, ref))
    print(f"same classes as PyTorch, probabilities within 0.005: {yes(agree)}")


def main() -> None:
    reference = {}
    for line in (DATA / "vision_net_reference.txt").read_text().splitlines():
        head, rest = line.split(": ")
        reference[int(head.split()[1])] = [(int(a), float(b)) for a, b in (p.split(":") for p in rest.split())]

    print(f"-- wrap: a pitched NV12 frame ({W}x{H}, row pitch {PITCH}) that the decoder owns")
    buf = np.zeros((H * 3 // 2, PITCH), np.uint8)  # the decoder's buffer
    frame = crt.from_dlpack(buf[:, :W])  # a strided numpy view enters through DLPack
    print(f"frame tensor {list(frame.shape)} uint8, strides {list(frame.strides)}, "
          f"data is the decoder's buffer: {yes(frame.data_ptr() == buf.ctypes.data)}")

    print("-- weights: mapped from vision_net.safetensors")
    before = crt.memory_stats().active_bytes
    weights = crt.load_safetensors(DATA / "vision_net.safetensors")
    params = sum(t.numel() for t in weights.values())
    print(f"{len(weights)} tensors, {params} parameters, pool memory taken: {crt.memory_stats().active_bytes - before} bytes")

    for k in (1, 2):
        if k == 1:
            print("-- frame 1")
        else:
            print("-- frame 2, decoded into the same buffer")
            s1 = crt.memory_stats()
        decode(buf, k)
        probs = classify(frame, weights)
        report(k, probs, reference)
        del probs
    s2 = crt.memory_stats()
    allocs = s2.allocation_count - s1.allocation_count
    print(f"frame 2: new memory reserved from the system: {s2.os_reserve_count - s1.os_reserve_count}, "
          f"every allocation served from the pool's cache: {yes(allocs > 0 and s2.cache_hit_count - s1.cache_hit_count == allocs)}")


if __name__ == "__main__":
    main()
