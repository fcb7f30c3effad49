//! The vision kernels a GPU runs: the element-wise-style ones, where each output element
//! reads a few input elements in place (`normalize_image`, `cvt_color`, `interpolate`). The
//! rest (convolutions, pooling, normalization layers) refuse, naming the move to the CPU.
//!
//! Each kernel writes whole words of a fresh contiguous output ([`shaders::word_kernel`]) and
//! reads its input through its strides, so a pitched or transposed frame is never copied. The
//! small per-call tables (normalize's lookup table, a resize pass's taps) travel in `meta`.

use super::launch::{grid, launch, pipeline, u32_of};
use super::shaders::{self, compute_type, Ct};
use super::transfer::alloc;
use super::Gpu;
use crate::backend::unsupported;
use crate::error::Result;
use crate::ops::vision::{
    pass_in_memory_order, ColorConversion, ColorPlan, NormalizePlan, ResizePlan, Taps, VisionPlan,
};
use crate::{DType, Device, Tensor};

/// Runs `plan` on the GPU, or refuses the kinds without a kernel here.
pub(super) fn vision(gpu: &Gpu, plan: &VisionPlan) -> Result<Tensor> {
    match plan {
        VisionPlan::Normalize(p) => normalize(gpu, p),
        VisionPlan::Color(p) => color(gpu, p),
        VisionPlan::Resize(p) => resize(gpu, p),
        _ => Err(unsupported(
            plan.name(),
            plan.device(),
            "any input (the GPU runs interpolate, cvt_color and normalize_image; \
             convolutions, pooling and normalization layers run on the CPU)",
        )),
    }
}

/// A stride as the kernels' two's-complement `u32`.
fn stride(op: &str, device: Device, s: isize) -> Result<u32> {
    i32::try_from(s)
        .map(|s| s as u32)
        .map_err(|_| unsupported(op, device, "strides over 2^31"))
}

/// `[numel, output word offset]`: the head of every word kernel's `meta`.
fn head(op: &str, out: &Tensor) -> Result<Vec<u32>> {
    let dev = out.device();
    Ok(vec![
        u32_of(op, dev, out.numel())?,
        u32_of(op, dev, out.storage_offset() * out.dtype().size() / 4)?,
    ])
}

/// Dispatches a word kernel over `out` (one invocation per output word).
fn run_words(
    gpu: &Gpu,
    op: &str,
    pipe: &wgpu::ComputePipeline,
    meta: &[u32],
    out: &Tensor,
    x: &Tensor,
) -> Result<()> {
    let words = out.numel().div_ceil(4 / out.dtype().size());
    let (gx, gy) = grid(words.div_ceil(256))?;
    launch(gpu, op, pipe, meta, out, &[x], (gx, gy, 1))
}

/// The source of a word kernel over a uint8 frame: `value` (of type `ct`) reads it with
/// `load0` (as `i32`) and is stored as `out`.
fn frame_kernel(value: &str, out: DType, ct: Ct) -> String {
    let funcs = shaders::prelude(1)
        + &shaders::load_fn(0, DType::UInt8, Ct::I32)
        + &shaders::store_fn(out, ct)
        + value;
    shaders::word_kernel(&funcs, out)
}

/// `normalize_image`: `out[n, c, h, w] = lut[c][x[n, h, w, c]]`, read through `x`'s strides.
/// `meta = [numel, out word, H, W, C, offset, sn, sh, sw, sc, lut (C × 256 f32)..]`.
fn normalize(gpu: &Gpu, p: &NormalizePlan) -> Result<Tensor> {
    const OP: &str = "normalize_image";
    let (x, dev) = (&p.x, p.x.device());
    let s = x.shape();
    let out = alloc(gpu, &[s[0], s[3], s[1], s[2]], DType::Float32)?;
    if out.numel() == 0 {
        return Ok(out);
    }
    let mut meta = head(OP, &out)?;
    for &d in &s[1..] {
        meta.push(u32_of(OP, dev, d)?);
    }
    meta.push(u32_of(OP, dev, x.storage_offset())?);
    for &st in x.strides() {
        meta.push(stride(OP, dev, st)?);
    }
    meta.extend(p.lut.iter().map(|v| v.to_bits()));
    let pipe = pipeline(gpu, "vision/normalize", || {
        let body = "fn value(e: u32) -> f32 {\n\
             \x20   let h = info[2]; let w = info[3]; let c = info[4];\n\
             \x20   let xi = e % w; let r = e / w; let yi = r % h; let r2 = r / h;\n\
             \x20   let ci = r2 % c; let ni = r2 / c;\n\
             \x20   let o = info[5] + ni * info[6] + yi * info[7] + xi * info[8] + ci * info[9];\n\
             \x20   return bitcast<f32>(info[10u + ci * 256u + u32(load0(o))]);\n}\n";
        frame_kernel(body, DType::Float32, Ct::F32)
    })?;
    run_words(gpu, OP, &pipe, &meta, &out, x)?;
    Ok(out)
}

/// `cvt_color`, in OpenCV's integer fixed point as the CPU computes it (the same bytes).
/// `meta = [numel, out word, h, w, out channels, offset, s0, s1, s2, conversion, bgr,
/// coef (5), y offset]`; a 2-D (planar) input has `s2 = 0`.
fn color(gpu: &Gpu, p: &ColorPlan) -> Result<Tensor> {
    use ColorConversion as C;
    const OP: &str = "cvt_color";
    let (x, dev) = (&p.x, p.x.device());
    let [h, w] = p.hw;
    let gray = matches!(p.conversion, C::RgbToGray | C::BgrToGray);
    let oc = if gray { 1 } else { 3 };
    let out = alloc(gpu, &[h, w, oc][..if gray { 2 } else { 3 }], DType::UInt8)?;
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
    let mut meta = head(OP, &out)?;
    meta.extend([u32_of(OP, dev, h)?, u32_of(OP, dev, w)?, oc as u32]);
    meta.push(u32_of(OP, dev, x.storage_offset())?);
    for s in [st[0], st[1], st.get(2).copied().unwrap_or(0)] {
        meta.push(stride(OP, dev, s)?);
    }
    meta.extend([code, u32::from(bgr)]);
    meta.extend(p.coef.iter().map(|&c| c as u32));
    meta.push(p.y_offset as u32);
    let pipe = pipeline(gpu, "vision/cvt_color", || {
        frame_kernel(COLOR, DType::UInt8, Ct::I32)
    })?;
    run_words(gpu, OP, &pipe, &meta, &out, x)?;
    Ok(out)
}

/// One output byte of `cvt_color` (see [`color`] for `meta`); the CPU's `cvt_color` in
/// `backend::cpu::image` is the reference, term for term.
const COLOR: &str = "
fn px(r: u32, c: u32, j: u32) -> i32 {
    return load0(info[5] + r * info[6] + c * info[7] + j * info[8]);
}
fn value(e: u32) -> i32 {
    let h = info[2]; let w = info[3]; let oc = info[4]; let conv = info[9];
    let p = e / oc; let ch = e % oc; let y = p / w; let x = p % w;
    if (conv == 0u) { return px(y, x, 2u - ch); }
    if (conv <= 2u) {
        var rc = 0u; var bc = 2u;
        if (conv == 2u) { rc = 2u; bc = 0u; }
        let v = px(y, x, rc) * 4899 + px(y, x, 1u) * 9617 + px(y, x, bc) * 1868;
        return (v + 8192) >> 14u;
    }
    let x0 = x & ~1u;
    var yv = px(y, x, 0u);
    var u = 0; var v = 0;
    if (conv == 3u) {
        u = px(h + y / 2u, x0, 0u); v = px(h + y / 2u, x0 + 1u, 0u);
    } else if (conv == 4u) {
        // I420's chroma as half-rows of w / 2 (U's k-th is half-row k, V's h / 2 + k).
        let ku = y / 2u; let kv = h / 2u + y / 2u;
        u = px(h + ku / 2u, (ku % 2u) * (w / 2u) + x / 2u, 0u);
        v = px(h + kv / 2u, (kv % 2u) * (w / 2u) + x / 2u, 0u);
    } else {
        u = px(y, x0, 1u); v = px(y, x0 + 1u, 1u);
    }
    u = u - 128; v = v - 128;
    let cy = bitcast<i32>(info[11]); let cvr = bitcast<i32>(info[12]);
    let cug = bitcast<i32>(info[13]); let cvg = bitcast<i32>(info[14]);
    let cub = bitcast<i32>(info[15]); let yoff = bitcast<i32>(info[16]);
    let yy = max(yv - yoff, 0) * cy;
    var lc = ch;
    if (info[10] != 0u) { lc = 2u - ch; }
    var t = yy + cub * u;
    if (lc == 0u) { t = yy + cvr * v; } else if (lc == 1u) { t = yy + cug * u + cvg * v; }
    return clamp((t + 524288) >> 20u, 0, 255);
}
";

/// `interpolate`: one pass per resized dim, each into a fresh tensor dense in its input's
/// memory order (`Float32` between passes; the last in the input's dtype, `UInt8` rounded half away from zero and
/// saturated as on the CPU). The nearest modes move elements unchanged in any dtype of up to
/// 4 bytes.
fn resize(gpu: &Gpu, p: &ResizePlan) -> Result<Tensor> {
    let dtype = p.x.dtype();
    p.run_passes(
        |nearest| {
            if nearest {
                dtype.size() <= 4
            } else {
                compute_type(dtype).is_some()
            }
        },
        |x, dim, taps, od, nearest| resize_pass(gpu, x, dim, taps, od, nearest),
    )
}

/// One pass of [`resize`]: `x` resized along `dim` by `taps` into a fresh `od` tensor, dense
/// in `x`'s memory order as on the CPU (a channels-last input stays channels-last): the
/// kernel runs over `x` permuted into memory order and writes that contiguously.
/// `meta = [numel, out word, nd, dim, per, taps at, out shape.., offset, strides..,
/// index.. (u32), weight.. (f32)]`, in the permuted order.
fn resize_pass(
    gpu: &Gpu,
    x: &Tensor,
    dim: usize,
    taps: &Taps,
    od: DType,
    nearest: bool,
) -> Result<Tensor> {
    const OP: &str = "interpolate";
    let (x, dim, shape, inverse) = pass_in_memory_order(x, dim, taps.len())?;
    let (x, dev) = (&x, x.device());
    let out = alloc(gpu, &shape, od)?;
    if out.numel() == 0 {
        return out.permute(&inverse);
    }
    let nd = shape.len();
    let mut meta = head(OP, &out)?;
    meta.extend([nd as u32, dim as u32, u32_of(OP, dev, taps.per)?, 0]);
    for &d in &shape {
        meta.push(u32_of(OP, dev, d)?);
    }
    meta.push(u32_of(OP, dev, x.storage_offset())?);
    for &s in x.strides() {
        meta.push(stride(OP, dev, s)?);
    }
    meta[5] = u32_of(OP, dev, meta.len())?;
    for &i in &taps.index {
        meta.push(u32_of(OP, dev, i)?);
    }
    if !nearest {
        meta.extend(taps.weight.iter().map(|&w| (w as f32).to_bits()));
    }
    let (ct, store) = if nearest {
        (Ct::Raw, "v")
    } else if od == DType::UInt8 {
        // The CPU's `round_u8`: clamped (NaN to 0), then half away from zero.
        (Ct::F32, "floor(select(0.0, min(v, 255.0), v >= 0.0) + 0.5)")
    } else {
        (Ct::F32, "v")
    };
    let key = format!("vision/resize/{}/{od}/{nearest}", x.dtype());
    let pipe = pipeline(gpu, &key, || {
        let acc = if nearest {
            "return load0(base + info[at + j] * sd);".to_string()
        } else {
            "let n = info[6u + dim] * per;\n\
             \x20   var acc = 0.0;\n\
             \x20   for (var k = 0u; k < per; k = k + 1u) {\n\
             \x20       let t = j * per + k;\n\
             \x20       acc = acc + bitcast<f32>(info[at + n + t]) * load0(base + info[at + t] * sd);\n\
             \x20   }\n\
             \x20   let v = acc;\n\
             \x20   return "
                .to_string()
                + store
                + ";"
        };
        let t = if nearest { "u32" } else { "f32" };
        let body = format!(
            "fn value(e: u32) -> {t} {{\n\
             \x20   let nd = info[2]; let dim = info[3]; let per = info[4]; let at = info[5];\n\
             \x20   var rem = e; var base = info[6u + nd]; var j = 0u; var d = nd;\n\
             \x20   loop {{\n\
             \x20       if (d == 0u) {{ break; }}\n\
             \x20       d = d - 1u;\n\
             \x20       let size = info[6u + d];\n\
             \x20       let i = rem % size;\n\
             \x20       rem = rem / size;\n\
             \x20       if (d == dim) {{ j = i; }} else {{ base = base + i * info[7u + nd + d]; }}\n\
             \x20   }}\n\
             \x20   let sd = info[7u + nd + dim];\n\
             \x20   {acc}\n}}\n"
        );
        let funcs = shaders::prelude(1)
            + &shaders::load_fn(0, x.dtype(), ct)
            + &shaders::store_fn(od, ct)
            + &body;
        shaders::word_kernel(&funcs, od)
    })?;
    run_words(gpu, OP, &pipe, &meta, &out, x)?;
    out.permute(&inverse)
}
