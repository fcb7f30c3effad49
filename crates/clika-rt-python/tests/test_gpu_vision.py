"""The GPU's image kernels (interpolate, cvt_color, normalize_image) against the CPU's, which
the other suites check against PyTorch, OpenCV and numpy. Each input is the same view of the
same memory on both devices (contiguous, strided crop, permuted, broadcast, empty), so the GPU
reads every layout in place; convolution and pooling still refuse, naming the CPU. Skips
where no GPU adapter starts (Mesa's software driver counts as one)."""

import numpy as np
import pytest

import clika_runtime as crt


@pytest.fixture(scope="module")
def gpu():
    try:
        crt.memory_stats("gpu:0")
    except crt.DeviceError as e:
        pytest.skip(f"no GPU adapter: {e}")
    return "gpu:0"


# Each layout: the base array's shape from the frame's (N, H, W, C), and the view of it.
LAYOUTS = {
    "contiguous": (lambda s: s, lambda t: t),
    "strided": (lambda s: (s[0], s[1] * 2, s[2] + 5, s[3]), lambda t: t[:, ::2, 2:-3]),
    "permuted": (lambda s: (s[0], s[3], s[1], s[2]), lambda t: t.permute(0, 2, 3, 1)),
    "broadcast": (lambda s: (1,) + s[1:], lambda t: t.expand(3, -1, -1, -1)),
    "empty": (lambda s: s, lambda t: t[:0]),
}


def both(base, view, gpu):
    """The same view of `base` on the CPU and on the GPU (the base uploaded, then viewed)."""
    t = crt.tensor(base)
    return view(t), view(t.to(gpu))


def back(t, gpu):
    assert t.device == gpu
    return t.to("cpu").numpy()


@pytest.mark.parametrize("layout", LAYOUTS)
def test_normalize_image_gives_the_cpus_values(gpu, layout):
    shape, view = LAYOUTS[layout]
    base = np.random.default_rng(1).integers(0, 256, shape((2, 6, 9, 3)), dtype=np.uint8)
    c, g = both(base, view, gpu)
    mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
    want = crt.normalize_image(c, mean, std).numpy()
    np.testing.assert_array_equal(back(crt.normalize_image(g, mean, std), gpu), want)


@pytest.mark.parametrize("code", ["RGB2BGR", "RGB2GRAY", "BGR2GRAY"])
@pytest.mark.parametrize("layout", ["contiguous", "strided", "permuted"])
def test_cvt_color_rgb_gives_the_cpus_bytes(gpu, code, layout):
    shape, view = LAYOUTS[layout]
    base = np.random.default_rng(2).integers(0, 256, shape((1, 6, 10, 3)), dtype=np.uint8)
    c, g = both(base, view, gpu)
    want = crt.cvt_color(c[0], code).numpy()
    np.testing.assert_array_equal(back(crt.cvt_color(g[0], code), gpu), want)


@pytest.mark.parametrize("code", ["YUV2RGB_NV12", "YUV2BGR_I420", "YUV2RGB_YUYV"])
@pytest.mark.parametrize("matrix,full", [("bt601", False), ("bt709", True)])
def test_cvt_color_yuv_gives_the_cpus_bytes_on_a_pitched_frame(gpu, code, matrix, full):
    h, w = 8, 12
    rng = np.random.default_rng(3)
    shape = (h, w + 6, 2) if code.endswith("YUYV") else (h * 3 // 2, w + 6)
    base = rng.integers(0, 256, shape, dtype=np.uint8)
    c, g = both(base, lambda t: t[:, 2:2 + w], gpu)
    want = crt.cvt_color(c, code, matrix, full).numpy()
    np.testing.assert_array_equal(back(crt.cvt_color(g, code, matrix, full), gpu), want)


CASES = [
    dict(size=(7, 13), mode="nearest"),
    dict(size=(3, 4), mode="nearest-exact"),
    dict(size=(8, 5), mode="bilinear"),
    dict(size=(8, 5), mode="bilinear", align_corners=True),
    dict(size=(2, 3), mode="bilinear", antialias=True),
    dict(size=(9, 4), mode="bicubic"),
    dict(size=(3, 2), mode="bicubic", antialias=True),
    dict(size=(3, 4), mode="area"),
]


@pytest.mark.parametrize("dtype", [np.float32, np.uint8, np.float16])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_interpolate_matches_the_cpu(gpu, layout, dtype):
    shape, view = LAYOUTS[layout]
    base = np.random.default_rng(4).integers(0, 256, shape((2, 6, 9, 3))).astype(dtype)
    c, g = both(base, view, gpu)
    # NCHW views of the NHWC frame (channels-last memory).
    c, g = c.permute(0, 3, 1, 2), g.permute(0, 3, 1, 2)
    for kw in CASES:
        want, got = crt.interpolate(c, **kw), crt.interpolate(g, **kw)
        assert got.strides == want.strides  # channels-last stays channels-last
        want, got = want.numpy(), back(got, gpu)
        assert got.dtype == want.dtype and got.shape == want.shape
        atol = {np.float32: 1e-3, np.uint8: 1, np.float16: 0.25}[dtype]
        np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), atol=atol,
                                   err_msg=str(kw))


def test_what_the_gpu_lacks_names_the_cpu(gpu):
    x = crt.zeros((1, 1, 4, 4)).to(gpu)
    with pytest.raises(crt.DeviceError, match="cpu"):
        crt.max_pool2d(x, 2)
    with pytest.raises(crt.DeviceError, match="cpu"):
        crt.conv2d(x, crt.zeros((1, 1, 3, 3)).to(gpu))
