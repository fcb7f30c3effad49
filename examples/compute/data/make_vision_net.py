"""Writes chapter 07's network and PyTorch's answers for it (run once; the outputs are
committed, so neither the chapter nor `make test` needs PyTorch):

    .venv/bin/python examples/compute/data/make_vision_net.py

- vision_net.safetensors: a small convolutional classifier (3 conv layers, 10 classes,
  float32, about 100 KB) with seeded random weights; the chapter maps it without a copy.
- vision_net_reference.txt: for each of the chapter's two frames, PyTorch's top-5 classes and
  probabilities through the same pipeline (NV12 -> RGB, bilinear antialiased resize of the
  uint8 frame to 64x64, normalize, network, softmax). The chapter compares its own answer
  with these lines.

The frames are a formula of (row, column, frame number) that every edition of the chapter
computes the same way; the colour conversion here is BT.601 limited range in float64,
rounded (ClikaRT uses OpenCV's fixed point, which differs by at most one level).
"""

from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from safetensors.torch import save_file

HERE = Path(__file__).resolve().parent
W, H, PITCH, SIDE = 320, 240, 384, 64
MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)
CLASSES = ["plane", "car", "bird", "cat", "deer", "dog", "frog", "horse", "ship", "truck"]


def nv12_frame(k):
    """Frame k as the decoder writes it: (H * 3 / 2) rows of PITCH bytes; the bytes past W
    in each row are padding (left 0)."""
    buf = np.zeros((H * 3 // 2, PITCH), np.uint8)
    r, c = np.mgrid[0:H, 0:W]
    buf[:H, :W] = 16 + (r * (5 + 2 * k) + c * (3 + 4 * k) + 17 * k) % 200
    r, c = np.mgrid[0 : H // 2, 0 : W // 2]
    buf[H:, 0:W:2] = 96 + (r * 5 + c * 3 + 31 * k) % 64  # U
    buf[H:, 1:W:2] = 96 + (r * 2 + c * 7 + 13 * k) % 64  # V
    return buf


def nv12_to_rgb(buf):
    y = buf[:H, :W].astype(np.float64)
    u = np.repeat(np.repeat(buf[H:, 0:W:2], 2, 0), 2, 1).astype(np.float64) - 128
    v = np.repeat(np.repeat(buf[H:, 1:W:2], 2, 0), 2, 1).astype(np.float64) - 128
    yy = 1.164 * (y - 16)
    rgb = np.stack([yy + 1.596 * v, yy - 0.391 * u - 0.813 * v, yy + 2.018 * u], -1)
    return np.clip(np.rint(rgb), 0, 255).astype(np.uint8)


def net():
    g = torch.Generator().manual_seed(7)

    def uniform(*shape, fan_in):
        bound = 1.0 / fan_in**0.5
        return (torch.rand(*shape, generator=g) * 2 - 1) * bound

    w = {
        "conv1.weight": uniform(16, 3, 3, 3, fan_in=27) * 2,
        "conv1.bias": uniform(16, fan_in=27),
        "conv2.weight": uniform(32, 16, 3, 3, fan_in=144) * 2,
        "conv2.bias": uniform(32, fan_in=144),
        "conv3.weight": uniform(64, 32, 3, 3, fan_in=288) * 2,
        "conv3.bias": uniform(64, fan_in=288),
        # Scaled so the softmax is decisive: the top-5's probabilities are well apart.
        "fc.weight": uniform(10, 64, fan_in=64) * 4,
        "fc.bias": uniform(10, fan_in=64),
    }
    return {k: v.contiguous() for k, v in w.items()}


def forward(w, rgb):
    x = torch.from_numpy(rgb).permute(2, 0, 1)[None]  # a channels-last view, as the chapter
    x = F.interpolate(x, size=(SIDE, SIDE), mode="bilinear", align_corners=False, antialias=True)
    x = x.float() / 255
    x = (x - torch.tensor(MEAN)[:, None, None]) / torch.tensor(STD)[:, None, None]
    x = F.max_pool2d(F.relu(F.conv2d(x, w["conv1.weight"], w["conv1.bias"], padding=1)), 2)
    x = F.max_pool2d(F.relu(F.conv2d(x, w["conv2.weight"], w["conv2.bias"], padding=1)), 2)
    x = F.relu(F.conv2d(x, w["conv3.weight"], w["conv3.bias"], stride=2, padding=1))
    x = F.adaptive_avg_pool2d(x, (1, 1)).flatten(1)
    return F.softmax(F.linear(x, w["fc.weight"], w["fc.bias"]), dim=1)[0]


def main():
    w = net()
    save_file(w, str(HERE / "vision_net.safetensors"))
    lines = []
    for k in (1, 2):
        p = forward(w, nv12_to_rgb(nv12_frame(k)))
        top = torch.topk(p, 5)
        vals = top.values.tolist()
        gaps = [a - b for a, b in zip(vals, vals[1:])]
        assert min(gaps) > 0.009, f"frame {k}: top-5 probabilities too close to order reliably: {vals}"
        lines.append(f"frame {k}: " + " ".join(f"{int(i)}:{v:.4f}" for i, v in zip(top.indices, vals)))
        print(lines[-1], "|", ", ".join(f"{CLASSES[int(i)]} {v:.3f}" for i, v in zip(top.indices, vals)))
    (HERE / "vision_net_reference.txt").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
