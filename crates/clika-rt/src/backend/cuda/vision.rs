//! The image kernels on a CUDA device, the same set and results as the wgpu backend's
//! (`normalize_image`, `cvt_color`, `interpolate`): each output element reads a few input
//! elements through the input's strides, so a pitched, cropped, channels-last or broadcast
//! frame is never copied. Per-call tables (normalize's lookup table, a resize pass's taps)
//! are uploaded as small device tensors; shapes and strides travel in `Meta`. Convolutions,
//! pooling and normalization layers refuse, naming the CPU.

use super::codegen::{self, map_blocks};
use super::driver::Cuda;
use crate::backend::unsupported;
use crate::error::Result;
use crate::ops::vision::{
    pass_in_memory_order, ColorConversion, ColorPlan, NormalizePlan, ResizePlan, Taps, VisionPlan,
};
use crate::{DType, Device, Tensor};

/// Runs `plan` on the device, or refuses the kinds without a kernel here.
pub(super) fn vision(cuda: &Cuda, plan: &VisionPlan) -> Result<Tensor> {
    match plan {
        VisionPlan::Normalize(p) => normalize(cuda, p),
        VisionPlan::Color(p) => color(cuda, p),
        VisionPlan::Resize(p) => resize(cuda, p),
        _ => Err(unsupported(
            plan.name(),
            plan.device(),
            "any input (CUDA runs interpolate, cvt_color and normalize_image; convolutions, \
             pooling and normalization layers run on the CPU)",
        )),
    }
}

/// The device address of `t`'s storage.
fn addr(t: &Tensor) -> u64 {
    t.storage().as_ptr() as usize as u64
}

/// A host table as a device tensor (kept by the caller until the kernel is queued; its free
/// waits for the stream).
fn table<T: crate::Element>(values: Vec<T>, device: Device) -> Result<Tensor> {
    let n = values.len();
    Tensor::from_vec(values, &[n])?.to(device)
}

/// The grid-stride loop head over `n = m.v[0]` outputs (index `e`).
const LOOP: &str = "  for (i64 e = (i64)blockIdx.x * blockDim.x + threadIdx.x; e < m.v[0]; \
                    e += (i64)gridDim.x * blockDim.x) {\n";

/// `normalize_image`: `o[n, c, h, w] = lut[c][x[n, h, w, c]]`.
/// `meta = [numel, H, W, C, offset, sn, sh, sw, sc]`.
pub(super) fn normalize_source() -> String {
    codegen::prelude()
        + "extern \"C\" __global__ void k(float* __restrict__ o, const unsigned char* x, \
           const float* lut, Meta m) {\n\
           \x20 const i64 H = m.v[1], W = m.v[2], C = m.v[3];\n"
        + LOOP
        + "    const i64 xi = e % W, r = e / W, yi = r % H, r2 = r / H, ci = r2 % C, ni = r2 / C;\n\
           \x20   o[e] = lut[ci * 256 + x[m.v[4] + ni * m.v[5] + yi * m.v[6] + xi * m.v[7] + \
           ci * m.v[8]]];\n  }\n}\n"
}

fn normalize(cuda: &Cuda, p: &NormalizePlan) -> Result<Tensor> {
    let (x, dev) = (&p.x, p.x.device());
    let s = x.shape();
    let out = Tensor::alloc(&[s[0], s[3], s[1], s[2]], DType::Float32, dev, false)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let lut = table(p.lut.clone(), dev)?;
    let mut meta = vec![out.numel() as i64];
    meta.extend(s[1..].iter().map(|&d| d as i64));
    meta.push(x.storage_offset() as i64);
    meta.extend(x.strides().iter().map(|&st| st as i64));
    let f = cuda.kernel("normalize_image", &normalize_source())?;
    let blocks = (map_blocks(out.numel()), 1);
    cuda.launch(f, blocks, &[addr(&out), addr(x), addr(&lut)], &meta)?;
    Ok(out)
}

/// `cvt_color` in OpenCV's integer fixed point, term for term the CPU's
/// (`backend::cpu::image`) and the wgpu kernel's. `meta = [numel, h, w, out channels,
/// offset, s0, s1, s2, conversion, bgr, coef (5), y offset]`; a planar input has `s2 = 0`.
pub(super) fn color_source() -> String {
    codegen::prelude()
        + "__device__ __forceinline__ int px(const unsigned char* x, const Meta& m, i64 r, i64 c, \
           i64 j) { return x[m.v[4] + r * m.v[5] + c * m.v[6] + j * m.v[7]]; }\n\
           extern \"C\" __global__ void k(unsigned char* __restrict__ o, const unsigned char* x, \
           Meta m) {\n\
           \x20 const i64 h = m.v[1], w = m.v[2], oc = m.v[3]; const int conv = (int)m.v[8];\n"
        + LOOP
        + "    const i64 p = e / oc, ch = e % oc, y = p / w, xx = p % w;\n\
           \x20   int out;\n\
           \x20   if (conv == 0) {\n\
           \x20     out = px(x, m, y, xx, 2 - ch);\n\
           \x20   } else if (conv <= 2) {\n\
           \x20     const int rc = conv == 2 ? 2 : 0, bc = conv == 2 ? 0 : 2;\n\
           \x20     const int v = px(x, m, y, xx, rc) * 4899 + px(x, m, y, xx, 1) * 9617 + \
           px(x, m, y, xx, bc) * 1868;\n\
           \x20     out = (v + 8192) >> 14;\n\
           \x20   } else {\n\
           \x20     const i64 x0 = xx & ~(i64)1;\n\
           \x20     const int yv = px(x, m, y, xx, 0);\n\
           \x20     int u, v;\n\
           \x20     if (conv == 3) {\n\
           \x20       u = px(x, m, h + y / 2, x0, 0); v = px(x, m, h + y / 2, x0 + 1, 0);\n\
           \x20     } else if (conv == 4) {\n\
           \x20       const i64 ku = y / 2, kv = h / 2 + y / 2;\n\
           \x20       u = px(x, m, h + ku / 2, (ku % 2) * (w / 2) + xx / 2, 0);\n\
           \x20       v = px(x, m, h + kv / 2, (kv % 2) * (w / 2) + xx / 2, 0);\n\
           \x20     } else {\n\
           \x20       u = px(x, m, y, x0, 1); v = px(x, m, y, x0 + 1, 1);\n\
           \x20     }\n\
           \x20     u -= 128; v -= 128;\n\
           \x20     const int cy = (int)m.v[10], cvr = (int)m.v[11], cug = (int)m.v[12];\n\
           \x20     const int cvg = (int)m.v[13], cub = (int)m.v[14], yoff = (int)m.v[15];\n\
           \x20     const int yy = max(yv - yoff, 0) * cy;\n\
           \x20     const i64 lc = m.v[9] != 0 ? 2 - ch : ch;\n\
           \x20     int t = yy + cub * u;\n\
           \x20     if (lc == 0) { t = yy + cvr * v; } else if (lc == 1) { t = yy + cug * u + cvg * v; }\n\
           \x20     out = min(max((t + 524288) >> 20, 0), 255);\n\
           \x20   }\n\
           \x20   o[e] = (unsigned char)out;\n  }\n}\n"
}

fn color(cuda: &Cuda, p: &ColorPlan) -> Result<Tensor> {
    use ColorConversion as C;
    let (x, dev) = (&p.x, p.x.device());
    let [h, w] = p.hw;
    let gray = matches!(p.conversion, C::RgbToGray | C::BgrToGray);
    let oc = if gray { 1 } else { 3 };
    let out = Tensor::alloc(
        &[h, w, oc][..if gray { 2 } else { 3 }],
        DType::UInt8,
        dev,
        false,
    )?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let code = match p.conversion {
        C::RgbToBgr => 0,
        C::RgbToGray => 1,
        C::BgrToGray => 2,
        C::Nv12ToRgb | C::Nv12ToBgr => 3,
        C::I420ToRgb | C::I420ToBgr => 4,
        C::YuyvToRgb | C::YuyvToBgr => 5,
    };
    let bgr = matches!(p.conversion, C::Nv12ToBgr | C::I420ToBgr | C::YuyvToBgr);
    let st = x.strides();
    let mut meta = vec![out.numel() as i64, h as i64, w as i64, oc as i64];
    meta.push(x.storage_offset() as i64);
    meta.extend([st[0], st[1], st.get(2).copied().unwrap_or(0)].map(|s| s as i64));
    meta.extend([code, i64::from(bgr)]);
    meta.extend(p.coef.iter().map(|&c| i64::from(c)));
    meta.push(i64::from(p.y_offset));
    let f = cuda.kernel("cvt_color", &color_source())?;
    cuda.launch(
        f,
        (map_blocks(out.numel()), 1),
        &[addr(&out), addr(x)],
        &meta,
    )
    .map(|()| out)
}

/// One `interpolate` pass along `meta`'s `dim`: `o[e]` is the taps' weighted sum of the input
/// along that dim (or, `nearest`, the one tapped element moved unchanged). `meta = [numel,
/// nd, dim, per, out shape.., offset, strides..]`; `idx` (`i64`) and `wt` (`f32`) hold
/// `per` taps per output position.
pub(super) fn resize_source(input: DType, out: DType, nearest: bool) -> Option<String> {
    let (it, ot) = (codegen::storage_type(input)?, codegen::storage_type(out)?);
    let value = if nearest {
        "    o[e] = x[base + idx[j] * sd];\n".to_string()
    } else {
        let load = codegen::load("x", input, DType::Float32, "base + idx[t] * sd");
        let stored = if out == DType::UInt8 {
            // The CPU's `round_u8`: clamped (NaN to 0), then half away from zero.
            "(unsigned char)floorf((acc >= 0.0f ? fminf(acc, 255.0f) : 0.0f) + 0.5f)".to_string()
        } else {
            codegen::store(DType::Float32, out, "acc")
        };
        format!(
            "    float acc = 0.0f;\n\
             \x20   for (i64 k = 0; k < per; ++k) {{\n\
             \x20     const i64 t = j * per + k;\n\
             \x20     acc += wt[t] * {load};\n\
             \x20   }}\n\
             \x20   o[e] = {stored};\n"
        )
    };
    Some(
        codegen::prelude()
            + &format!(
                "extern \"C\" __global__ void k({ot}* __restrict__ o, const {it}* x, \
                 const i64* idx, const float* wt, Meta m) {{\n\
                 \x20 const int nd = (int)m.v[1], dim = (int)m.v[2]; const i64 per = m.v[3];\n"
            )
            + LOOP
            + "    i64 rem = e, base = m.v[4 + nd], j = 0;\n\
               \x20   for (int d = nd - 1; d >= 0; --d) {\n\
               \x20     const i64 size = m.v[4 + d], i = rem % size;\n\
               \x20     rem /= size;\n\
               \x20     if (d == dim) { j = i; } else { base += i * m.v[5 + nd + d]; }\n\
               \x20   }\n\
               \x20   const i64 sd = m.v[5 + nd + dim];\n"
            + &value
            + "  }\n}\n",
    )
}

/// `interpolate`: one pass per resized dim, each into a fresh tensor dense in its input's
/// memory order (`Float32` between passes; the last in the input's dtype). The nearest modes
/// move elements unchanged in any dtype; the others compute in `f32` for float16, bfloat16,
/// float32 and uint8 inputs, as the wgpu backend does.
fn resize(cuda: &Cuda, p: &ResizePlan) -> Result<Tensor> {
    let floats = matches!(
        p.x.dtype(),
        DType::Float32 | DType::Float16 | DType::BFloat16 | DType::UInt8
    );
    p.run_passes(
        |nearest| nearest || floats,
        |x, dim, taps, od, nearest| resize_pass(cuda, x, dim, taps, od, nearest),
    )
}

/// One pass of [`resize`]: over `x` permuted into memory order, written contiguously, so the
/// result keeps `x`'s memory order (a channels-last input stays channels-last).
fn resize_pass(
    cuda: &Cuda,
    x: &Tensor,
    dim: usize,
    taps: &Taps,
    od: DType,
    nearest: bool,
) -> Result<Tensor> {
    let (x, dim, shape, inverse) = pass_in_memory_order(x, dim, taps.len())?;
    let (x, dev) = (&x, x.device());
    let out = Tensor::alloc(&shape, od, dev, false)?;
    if out.numel() == 0 {
        return out.permute(&inverse);
    }
    let idx = table(taps.index.iter().map(|&i| i as i64).collect(), dev)?;
    let wt = table(taps.weight.iter().map(|&w| w as f32).collect(), dev)?;
    let mut meta = vec![
        out.numel() as i64,
        shape.len() as i64,
        dim as i64,
        taps.per as i64,
    ];
    meta.extend(shape.iter().map(|&d| d as i64));
    meta.push(x.storage_offset() as i64);
    meta.extend(x.strides().iter().map(|&s| s as i64));
    let src = resize_source(x.dtype(), od, nearest)
        .ok_or_else(|| unsupported("interpolate", dev, format!("{} inputs", x.dtype())))?;
    let f = cuda.kernel("interpolate", &src)?;
    let ptrs = [addr(&out), addr(x), addr(&idx), addr(&wt)];
    cuda.launch(f, (map_blocks(out.numel()), 1), &ptrs, &meta)?;
    out.permute(&inverse)
}
