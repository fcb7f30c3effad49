//! WGSL sources, generated per (op, dtypes). Every buffer is bound as `array<u32>`; elements
//! narrower than a word are packed little-endian, so 1- and 2-byte dtypes are read with
//! shifts and written a whole output word (2 or 4 elements) per invocation, which keeps
//! writes race-free without atomics. Shapes, strides and offsets travel in a `meta` buffer.

use crate::DType;

/// The type a kernel computes in (`Raw` copies bits unchanged).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Ct {
    F32,
    I32,
    Bool,
    Raw,
}

impl Ct {
    fn wgsl(self) -> &'static str {
        match self {
            Ct::F32 => "f32",
            Ct::I32 => "i32",
            Ct::Bool => "bool",
            Ct::Raw => "u32",
        }
    }
}

/// The compute type for values of `d`, if kernels can load and store `d` (everything but
/// the 8-byte dtypes and `UInt32`, whose values above `i32::MAX` no compute type holds;
/// `UInt16` computes in `i32` like the other narrow integers and wraps when stored).
pub(super) fn compute_type(d: DType) -> Option<Ct> {
    match d {
        DType::Float32 | DType::Float16 | DType::BFloat16 => Some(Ct::F32),
        DType::Int32 | DType::Int16 | DType::Int8 | DType::UInt8 | DType::UInt16 | DType::Bool => {
            Some(Ct::I32)
        }
        DType::Float64 | DType::Int64 | DType::UInt32 | DType::UInt64 => None,
    }
}

/// Bindings, and `index_offset`: the element offset of row-major index `e` over `nd` dims
/// whose sizes start at `info[shape_at]` and strides (two's complement) at `info[stride_at]`.
pub(super) fn prelude(inputs: usize) -> String {
    let mut s = String::from(
        "@group(0) @binding(0) var<storage, read> info: array<u32>;\n\
         @group(0) @binding(1) var<storage, read_write> dst: array<u32>;\n",
    );
    // Inputs are declared read_write although only read: wgpu tracks usage per buffer,
    // not per range, and an input often shares a pool segment (one buffer) with the
    // output; a read-only and a read-write binding of one buffer conflict in a dispatch.
    for k in 0..inputs {
        s += &format!(
            "@group(0) @binding({}) var<storage, read_write> src{k}: array<u32>;\n",
            k + 2
        );
    }
    s += "fn index_offset(e: u32, nd: u32, shape_at: u32, stride_at: u32) -> u32 {\n\
          \x20   var rem = e;\n    var off = 0u;\n    var d = nd;\n\
          \x20   loop {\n        if (d == 0u) { break; }\n        d = d - 1u;\n\
          \x20       let size = info[shape_at + d];\n\
          \x20       off = off + (rem % size) * info[stride_at + d];\n\
          \x20       rem = rem / size;\n    }\n    return off;\n}\n";
    s
}

/// `fn load{k}(o: u32) -> T`: element `o` of `src{k}` (dtype `d`) as compute type `ct`.
pub(super) fn load_fn(k: usize, d: DType, ct: Ct) -> String {
    let raw = match d.size() {
        4 => format!("src{k}[o]"),
        2 => format!("(src{k}[o >> 1u] >> ((o & 1u) * 16u)) & 0xffffu"),
        _ => format!("(src{k}[o >> 2u] >> ((o & 3u) * 8u)) & 0xffu"),
    };
    // The value in its natural WGSL type: f32 for floats, i32 for integers and bool.
    let (natural, is_float) = match d {
        DType::Float32 => ("bitcast<f32>(r)", true),
        DType::Float16 => ("unpack2x16float(r).x", true),
        DType::BFloat16 => ("bitcast<f32>(r << 16u)", true),
        DType::Int32 => ("bitcast<i32>(r)", false),
        DType::Int16 => ("(bitcast<i32>(r << 16u) >> 16u)", false),
        DType::Int8 => ("(bitcast<i32>(r << 24u) >> 24u)", false),
        DType::UInt8 | DType::UInt16 => ("i32(r)", false),
        _ => ("i32(r != 0u)", false),
    };
    let value = match (ct, is_float) {
        (Ct::Raw, _) => "r".to_string(),
        (Ct::F32, true) | (Ct::I32, false) => natural.to_string(),
        (Ct::F32, false) => format!("f32({natural})"),
        (Ct::I32, true) => format!("i32({natural})"),
        (Ct::Bool, true) => format!("{natural} != 0.0"),
        (Ct::Bool, false) => format!("{natural} != 0"),
    };
    format!(
        "fn load{k}(o: u32) -> {} {{\n    let r = {raw};\n    return {value};\n}}\n",
        ct.wgsl()
    )
}

/// `fn store_bits(v: T) -> u32`: value `v` of compute type `ct` as the bits of dtype `d`
/// (in the low `d.size()` bytes). Floats → integers truncate and saturate, integers narrow
/// by wrapping, anything → bool is "non-zero", as on the CPU.
pub(super) fn store_fn(d: DType, ct: Ct) -> String {
    let as_f32 = match ct {
        Ct::F32 => "v",
        Ct::I32 => "f32(v)",
        Ct::Bool => "select(0.0, 1.0, v)",
        Ct::Raw => "bitcast<f32>(v)",
    };
    let int_from_float = |lo: &str, hi: &str| format!("bitcast<u32>(i32(clamp(v, {lo}, {hi})))");
    let body = match (d, ct) {
        (_, Ct::Raw) => "v".to_string(),
        (DType::Bool, Ct::Bool) => "u32(v)".to_string(),
        (DType::Bool, Ct::F32) => "u32(v != 0.0)".to_string(),
        (DType::Bool, _) => "u32(v != 0)".to_string(),
        (DType::Float32, _) => format!("bitcast<u32>({as_f32})"),
        (DType::Float16, _) => format!("pack2x16float(vec2<f32>({as_f32}, 0.0)) & 0xffffu"),
        (DType::BFloat16, _) => format!(
            "(bitcast<u32>({as_f32}) + 0x7fffu + ((bitcast<u32>({as_f32}) >> 16u) & 1u)) >> 16u"
        ),
        (DType::Int32, Ct::F32) => "bitcast<u32>(i32(v))".to_string(),
        (DType::Int16, Ct::F32) => int_from_float("-32768.0", "32767.0"),
        (DType::Int8, Ct::F32) => int_from_float("-128.0", "127.0"),
        (DType::UInt8, Ct::F32) => int_from_float("0.0", "255.0"),
        (DType::UInt16, Ct::F32) => int_from_float("0.0", "65535.0"),
        (_, Ct::Bool) => "u32(v)".to_string(),
        _ => "bitcast<u32>(v)".to_string(),
    };
    let mask = match d.size() {
        4 => "0xffffffffu",
        2 => "0xffffu",
        _ => "0xffu",
    };
    format!(
        "fn store_bits(v: {}) -> u32 {{\n    return ({body}) & {mask};\n}}\n",
        ct.wgsl()
    )
}

/// An elementwise kernel over `n_in` strided inputs: `meta = [numel, ndim, shape..,
/// (offset, strides..) per input, output word offset]`; each invocation writes one output word (`4 / size`
/// elements of the contiguous output). `expr` combines `x0`, `x1`… into the result. When
/// `flat`, every input is contiguous in the output's shape, and element `e` is at
/// `offset + e` (no index arithmetic: several times faster on lavapipe).
pub(super) fn map_kernel(loads: &str, n_in: usize, out: DType, expr: &str, flat: bool) -> String {
    let per_word = 4 / out.size();
    let bits = out.size() * 8;
    let mut operands = String::new();
    for k in 0..n_in {
        operands += &format!(
            "            let base{k} = 2u + nd + {k}u * (nd + 1u);\n\
             \x20           let x{k} = load{k}(info[base{k}] + {});\n",
            if flat {
                "e".to_string()
            } else {
                format!("index_offset(e, nd, 2u, base{k} + 1u)")
            }
        );
    }
    format!(
        "{loads}\n@compute @workgroup_size(256)\n\
         fn main(@builtin(global_invocation_id) gid: vec3<u32>, \
         @builtin(num_workgroups) nwg: vec3<u32>) {{\n\
         \x20   let w = gid.x + gid.y * nwg.x * 256u;\n\
         \x20   let numel = info[0];\n    let nd = info[1];\n\
         \x20   if (w * {per_word}u >= numel) {{ return; }}\n\
         \x20   var word = 0u;\n\
         \x20   for (var j = 0u; j < {per_word}u; j = j + 1u) {{\n\
         \x20       let e = w * {per_word}u + j;\n\
         \x20       if (e < numel) {{\n{operands}\
         \x20           word = word | (store_bits({expr}) << (j * {bits}u));\n\
         \x20       }}\n    }}\n    dst[info[2u + nd + {n_in}u * (nd + 1u)] + w] = word;\n}}\n"
    )
}

/// A kernel that writes one word of a contiguous `out` per invocation from
/// `fn value(e: u32) -> T`, the value of output element `e` (`store_bits` converts it):
/// `meta` starts `[numel, output word offset, ..]`, and the rest is the kernel's own. `funcs`
/// holds the prelude, loads, `store_bits` and `value`.
pub(super) fn word_kernel(funcs: &str, out: DType) -> String {
    let per_word = 4 / out.size();
    let bits = out.size() * 8;
    format!(
        "{funcs}\n@compute @workgroup_size(256)\n\
         fn main(@builtin(global_invocation_id) gid: vec3<u32>, \
         @builtin(num_workgroups) nwg: vec3<u32>) {{\n\
         \x20   let w = gid.x + gid.y * nwg.x * 256u;\n\
         \x20   let numel = info[0];\n\
         \x20   if (w * {per_word}u >= numel) {{ return; }}\n\
         \x20   var word = 0u;\n\
         \x20   for (var j = 0u; j < {per_word}u; j = j + 1u) {{\n\
         \x20       let e = w * {per_word}u + j;\n\
         \x20       if (e < numel) {{ word = word | (store_bits(value(e)) << (j * {bits}u)); }}\n\
         \x20   }}\n\
         \x20   dst[info[1] + w] = word;\n}}\n"
    )
}

/// Gathers 8-byte elements (two words each): `meta` as for [`map_kernel`] with one input,
/// the output offset in words.
pub(super) const GATHER64: &str = "
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
    let e = gid.x + gid.y * nwg.x * 256u;
    let numel = info[0];
    let nd = info[1];
    if (e >= numel) { return; }
    let o = info[2u + nd] + index_offset(e, nd, 2u, 3u + nd);
    let d = info[3u + 2u * nd] + 2u * e;
    dst[d] = src0[2u * o];
    dst[d + 1u] = src0[2u * o + 1u];
}
";

/// A reduction: one workgroup of 64 per (output element, slice of the reduced elements).
/// `meta = [n_out, n_red, nk, nr, offset, n_slices, slice_len, dst_base, kept shape..,
/// kept strides.., reduced shape.., reduced strides..]`; workgroup `g` reduces slice
/// `g % n_slices` of output `g / n_slices` into `dst[dst_base + g]`. Slices bound each thread's loop: Mesa's software
/// driver (lavapipe) gives an invocation a budget of about 65 thousand loop iterations in
/// all and silently stops it after, which truncated reductions of more than ~1 Mi elements.
pub(super) fn reduce_kernel(
    loads: &str,
    ct: Ct,
    init: &str,
    combine: &str,
    finish: &str,
) -> String {
    let t = ct.wgsl();
    format!(
        "{loads}\nvar<workgroup> part: array<{t}, 64>;\n\
         fn combine(a: {t}, b: {t}) -> {t} {{ return {combine}; }}\n\
         @compute @workgroup_size(64)\n\
         fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>, \
         @builtin(local_invocation_index) li: u32) {{\n\
         \x20   let g = wid.x + wid.y * nwg.x;\n\
         \x20   let n_out = info[0];\n    let n_red = info[1];\n\
         \x20   let nk = info[2];\n    let nr = info[3];\n\
         \x20   let n_slices = info[5];\n    let slice_len = info[6];\n\
         \x20   let k = g / n_slices;\n\
         \x20   let valid = k < n_out;\n\
         \x20   var acc: {t} = {init};\n\
         \x20   if (valid) {{\n\
         \x20       let base = info[4] + index_offset(k, nk, 8u, 8u + nk);\n\
         \x20       let r0 = (g % n_slices) * slice_len;\n\
         \x20       let r1 = min(n_red, r0 + slice_len);\n\
         \x20       for (var r = r0 + li; r < r1; r = r + 64u) {{\n\
         \x20           acc = combine(acc, load0(base + index_offset(r, nr, 8u + 2u * nk, 8u + 2u * nk + nr)));\n\
         \x20       }}\n    }}\n\
         \x20   part[li] = acc;\n    workgroupBarrier();\n\
         \x20   for (var s = 32u; s > 0u; s = s >> 1u) {{\n\
         \x20       if (li < s) {{ part[li] = combine(part[li], part[li + s]); }}\n\
         \x20       workgroupBarrier();\n    }}\n\
         \x20   if (valid && li == 0u) {{\n        let v = part[0];\n        dst[info[7] + g] = store_bits({finish});\n    }}\n}}\n"
    )
}

/// Tiled `f32` matrix product, 16×16 tiles in workgroup memory; `z` indexes the batch.
/// `meta = [m, n, k]`; operands and result are contiguous.
pub(super) const MATMUL: &str = "
var<workgroup> ta: array<f32, 256>;
var<workgroup> tb: array<f32, 256>;
@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let m = info[0];
    let n = info[1];
    let kk = info[2];
    let row = wid.y * 16u + lid.y;
    let col = wid.x * 16u + lid.x;
    let a0 = wid.z * m * kk;
    let b0 = wid.z * kk * n;
    var acc = 0.0;
    let tiles = (kk + 15u) / 16u;
    for (var t = 0u; t < tiles; t = t + 1u) {
        let ka = t * 16u + lid.x;
        var va = 0.0;
        if (row < m && ka < kk) { va = bitcast<f32>(src0[a0 + row * kk + ka]); }
        ta[lid.y * 16u + lid.x] = va;
        let kb = t * 16u + lid.y;
        var vb = 0.0;
        if (kb < kk && col < n) { vb = bitcast<f32>(src1[b0 + kb * n + col]); }
        tb[lid.y * 16u + lid.x] = vb;
        workgroupBarrier();
        for (var i = 0u; i < 16u; i = i + 1u) {
            acc = acc + ta[lid.y * 16u + i] * tb[i * 16u + lid.x];
        }
        workgroupBarrier();
    }
    if (row < m && col < n) {
        dst[wid.z * m * n + row * n + col] = bitcast<u32>(acc);
    }
}
";
