//! CUDA C source for each (op, dtypes), and launch shapes: pure functions, tested without a
//! GPU. Every kernel is `extern "C" __global__ void k(...)` whose last parameter is a
//! [`Meta`] passed by value (shapes, strides and offsets in elements, as 64-bit integers).
//!
//! Elementwise `meta`: `[n, nd, shape[nd], (offset, strides[nd]) per operand]`, operand 0
//! being the output, so results may be strided views. Reduction `meta`: `[n_out, count, nk,
//! nr, offset, slices, chunk, den, kept shape[nk], kept strides[nk], reduced shape[nr],
//! reduced strides[nr]]`.

use crate::ops::{BinaryOp, ReduceOp, UnaryOp};
use crate::DType;

/// Entries of the by-value parameter block (2 KiB of the 4 KiB CUDA allows): enough for the
/// elementwise layout of three operands over 64 dims.
pub(super) const META_LEN: usize = 264;

/// The kernel parameter block.
#[repr(C)]
#[derive(Debug, Clone)]
pub(super) struct Meta(pub(super) [i64; META_LEN]);

impl Meta {
    /// A block holding `values` (zero-padded); `None` if they do not fit.
    pub(super) fn new(values: &[i64]) -> Option<Meta> {
        let mut m = [0i64; META_LEN];
        m.get_mut(..values.len())?.copy_from_slice(values);
        Some(Meta(m))
    }
}

/// Threads per block for every kernel.
pub(super) const THREADS: u32 = 256;

/// The storage type of `d` in CUDA C, for the dtypes the backend has kernels for.
pub(super) fn storage_type(d: DType) -> Option<&'static str> {
    Some(match d {
        DType::Float32 => "float",
        DType::Float64 => "double",
        DType::Int8 => "signed char",
        DType::Int16 => "short",
        DType::Int32 => "int",
        DType::Int64 => "long long",
        DType::UInt8 | DType::Bool => "unsigned char",
        DType::UInt16 => "unsigned short",
        DType::UInt32 => "unsigned int",
        DType::UInt64 => "unsigned long long",
        // Bits; values convert through float at load and store (`h2f`, `f2h`, …).
        DType::Float16 | DType::BFloat16 => "unsigned short",
    })
}

/// The dtype values of `d` are held in: half types compute in `Float32`.
fn held(d: DType) -> DType {
    match d {
        DType::Float16 | DType::BFloat16 => DType::Float32,
        d => d,
    }
}

/// The type values of `d` are computed in (`bool` for `Bool`).
pub(super) fn value_type(d: DType) -> &'static str {
    match held(d) {
        DType::Bool => "bool",
        d => storage_type(d).unwrap_or("float"),
    }
}

/// The integer range of `d` as C literals.
fn int_range(d: DType) -> (&'static str, &'static str) {
    match d {
        DType::Int8 => ("-128", "127"),
        DType::Int16 => ("-32768", "32767"),
        DType::Int32 => ("(-2147483647 - 1)", "2147483647"),
        DType::Int64 => ("(-9223372036854775807LL - 1)", "9223372036854775807LL"),
        DType::UInt16 => ("0", "65535"),
        DType::UInt32 => ("0", "4294967295u"),
        DType::UInt64 => ("0", "18446744073709551615ULL"),
        _ => ("0", "255"),
    }
}

/// The prelude every kernel starts with: the parameter block and the saturating
/// float → integer conversions (NaN → 0, out of range → the nearest bound, as the CPU's
/// `cast`).
pub(super) fn prelude() -> String {
    let mut s = format!("typedef long long i64;\nstruct Meta {{ i64 v[{META_LEN}]; }};\n");
    // Half conversions by PTX instruction (no headers needed under NVRTC; bf16 needs sm_80).
    s += "__device__ __forceinline__ float h2f(unsigned short h) { float f; \
          asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h)); return f; }\n\
          __device__ __forceinline__ unsigned short f2h(float f) { unsigned short h; \
          asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h; }\n\
          __device__ __forceinline__ float b2f(unsigned short b) { \
          return __int_as_float(((unsigned)b) << 16); }\n\
          __device__ __forceinline__ unsigned short f2b(float f) { unsigned short h; \
          asm(\"cvt.rn.bf16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f)); return h; }\n";
    for d in [
        DType::Int8,
        DType::Int16,
        DType::Int32,
        DType::Int64,
        DType::UInt8,
        DType::UInt16,
        DType::UInt32,
        DType::UInt64,
    ] {
        let (t, (lo, hi)) = (value_type(d), int_range(d));
        let name = sat_name(d);
        s += &format!(
            "__device__ __forceinline__ {t} {name}(double v) {{ return v != v ? ({t})0 : \
             v <= (double){lo} ? ({t}){lo} : v >= (double){hi} ? ({t}){hi} : ({t})v; }}\n"
        );
    }
    s
}

fn sat_name(d: DType) -> &'static str {
    match d {
        DType::Int8 => "sat_i8",
        DType::Int16 => "sat_i16",
        DType::Int32 => "sat_i32",
        DType::Int64 => "sat_i64",
        DType::UInt16 => "sat_u16",
        DType::UInt32 => "sat_u32",
        DType::UInt64 => "sat_u64",
        _ => "sat_u8",
    }
}

/// C expression converting value `v` of value type `from` to value type `to`, following
/// the CPU's `cast`: to `Bool` is `!= 0`; float → integer saturates; integer → integer
/// wraps.
pub(super) fn convert(from: DType, to: DType, v: &str) -> String {
    let (from, to) = (held(from), held(to));
    if from == to {
        v.to_string()
    } else if to == DType::Bool {
        format!("(({v}) != 0)")
    } else if from.is_float() && !to.is_float() {
        format!("{}((double)({v}))", sat_name(to))
    } else {
        format!("(({})({v}))", value_type(to))
    }
}

/// C expression loading element `p` of operand `a` of storage dtype `d` as value type `ct`
/// (a `Bool` byte reads as `!= 0`, whatever its bits).
pub(super) fn load(a: &str, d: DType, ct: DType, p: &str) -> String {
    match d {
        DType::Bool => convert(DType::Bool, ct, &format!("({a}[{p}] != 0)")),
        DType::Float16 => convert(DType::Float32, ct, &format!("h2f({a}[{p}])")),
        DType::BFloat16 => convert(DType::Float32, ct, &format!("b2f({a}[{p}])")),
        _ => convert(d, ct, &format!("{a}[{p}]")),
    }
}

/// C expression storing value `v` of value type `from` as dtype `d`.
pub(super) fn store(from: DType, d: DType, v: &str) -> String {
    match d {
        DType::Float16 => format!("f2h({})", convert(from, DType::Float32, v)),
        DType::BFloat16 => format!("f2b({})", convert(from, DType::Float32, v)),
        _ => convert(from, d, v),
    }
}

/// The math function `f` for value type `ct` (`expf` for `Float32`).
fn math(f: &str, ct: DType) -> String {
    if held(ct) == DType::Float32 {
        format!("{f}f")
    } else {
        f.to_string()
    }
}

/// The expression of unary `op` on `x0` of value type `ct`, or `None` without a kernel.
pub(super) fn unary_expr(op: UnaryOp, ct: DType) -> Option<String> {
    let float = ct.is_float();
    let one = if held(ct) == DType::Float32 {
        "1.0f"
    } else {
        "1.0"
    };
    let m = |f: &str| math(f, ct);
    Some(match op {
        UnaryOp::Neg if ct == DType::Bool => return None,
        UnaryOp::Neg => "-x0".to_string(),
        UnaryOp::Abs if float => format!("{}(x0)", m("fabs")),
        UnaryOp::Abs if ct.is_unsigned() || ct == DType::Bool => "x0".to_string(),
        UnaryOp::Abs => "(x0 < 0 ? -x0 : x0)".to_string(),
        // NaN stays NaN (x0 < 0 is false for it).
        UnaryOp::Relu if ct == DType::Bool => "x0".to_string(),
        UnaryOp::Relu => "(x0 < 0 ? 0 : x0)".to_string(),
        // The predicates compute in another dtype than their result: not generated yet.
        op if op.is_predicate() => return None,
        UnaryOp::Round | UnaryOp::Floor | UnaryOp::Ceil | UnaryOp::Trunc if !float => {
            "x0".to_string()
        }
        UnaryOp::BitwiseNot if ct == DType::Bool => "!x0".to_string(),
        UnaryOp::BitwiseNot if !float => "~x0".to_string(),
        UnaryOp::Sign if ct == DType::Bool => "x0".to_string(),
        UnaryOp::Sign if !float => "(x0 > 0) - (x0 < 0)".to_string(),
        _ if !float => return None,
        UnaryOp::Exp => format!("{}(x0)", m("exp")),
        UnaryOp::Log => format!("{}(x0)", m("log")),
        UnaryOp::Sqrt => format!("{}(x0)", m("sqrt")),
        UnaryOp::Rsqrt => format!("{one} / {}(x0)", m("sqrt")),
        UnaryOp::Sin => format!("{}(x0)", m("sin")),
        UnaryOp::Cos => format!("{}(x0)", m("cos")),
        UnaryOp::Tanh => format!("{}(x0)", m("tanh")),
        UnaryOp::Sigmoid => format!("{one} / ({one} + {}(-x0))", m("exp")),
        UnaryOp::Silu => format!("x0 / ({one} + {}(-x0))", m("exp")),
        UnaryOp::Gelu => format!(
            "x0 * 0.5 * ({one} + {}(x0 * 0.70710678118654752440))",
            m("erf")
        ),
        UnaryOp::Erf => format!("{}(x0)", m("erf")),
        // rint rounds half to even in the default rounding mode.
        UnaryOp::Round => format!("{}(x0)", m("rint")),
        UnaryOp::Floor => format!("{}(x0)", m("floor")),
        UnaryOp::Ceil => format!("{}(x0)", m("ceil")),
        UnaryOp::Trunc => format!("{}(x0)", m("trunc")),
        UnaryOp::Log1p => format!("{}(x0)", m("log1p")),
        UnaryOp::Expm1 => format!("{}(x0)", m("expm1")),
        UnaryOp::Log2 => format!("{}(x0)", m("log2")),
        UnaryOp::Log10 => format!("{}(x0)", m("log10")),
        UnaryOp::Exp2 => format!("{}(x0)", m("exp2")),
        UnaryOp::Tan => format!("{}(x0)", m("tan")),
        UnaryOp::Atan => format!("{}(x0)", m("atan")),
        UnaryOp::Asin => format!("{}(x0)", m("asin")),
        UnaryOp::Acos => format!("{}(x0)", m("acos")),
        UnaryOp::Sinh => format!("{}(x0)", m("sinh")),
        UnaryOp::Cosh => format!("{}(x0)", m("cosh")),
        UnaryOp::Sign => "(x0 > 0 ? 1 : (x0 < 0 ? -1 : x0))".to_string(),
        UnaryOp::BitwiseNot => return None,
        UnaryOp::IsNan | UnaryOp::IsInf | UnaryOp::IsFinite | UnaryOp::LogicalNot => return None,
    })
}

/// The expression of binary `op` on `x0`, `x1` of value type `ct` and the value type of
/// its result, or `None` without a kernel.
pub(super) fn binary_expr(op: BinaryOp, ct: DType) -> Option<(String, DType)> {
    let float = ct.is_float();
    let boolean = ct == DType::Bool;
    let cmp = |o: &str| Some((format!("x0 {o} x1"), DType::Bool));
    let e = match op {
        BinaryOp::Add if boolean => "x0 || x1".to_string(),
        BinaryOp::Mul if boolean => "x0 && x1".to_string(),
        BinaryOp::Sub if boolean => return None,
        BinaryOp::Add => "x0 + x1".to_string(),
        BinaryOp::Sub => "x0 - x1".to_string(),
        BinaryOp::Mul => "x0 * x1".to_string(),
        BinaryOp::Div if float => "x0 / x1".to_string(),
        BinaryOp::Pow if float => format!("{}(x0, x1)", math("pow", ct)),
        BinaryOp::Div | BinaryOp::Pow => return None,
        // NaN-propagating, as numpy's maximum/minimum.
        BinaryOp::Maximum if float => "(x0 != x0 || x0 > x1) ? x0 : x1".to_string(),
        BinaryOp::Minimum if float => "(x0 != x0 || x0 < x1) ? x0 : x1".to_string(),
        BinaryOp::Maximum => "(x0 > x1) ? x0 : x1".to_string(),
        BinaryOp::Minimum => "(x0 < x1) ? x0 : x1".to_string(),
        BinaryOp::Eq => return cmp("=="),
        BinaryOp::Ne => return cmp("!="),
        BinaryOp::Lt => return cmp("<"),
        BinaryOp::Le => return cmp("<="),
        BinaryOp::Gt => return cmp(">"),
        BinaryOp::Ge => return cmp(">="),
        BinaryOp::Atan2 if float => format!("{}(x0, x1)", math("atan2", ct)),
        BinaryOp::Hypot if float => format!("{}(x0, x1)", math("hypot", ct)),
        BinaryOp::Fmod if float => format!("{}(x0, x1)", math("fmod", ct)),
        BinaryOp::BitwiseAnd if boolean => "x0 && x1".to_string(),
        BinaryOp::BitwiseOr if boolean => "x0 || x1".to_string(),
        BinaryOp::BitwiseXor if boolean => "x0 != x1".to_string(),
        BinaryOp::BitwiseAnd if !float => "x0 & x1".to_string(),
        BinaryOp::BitwiseOr if !float => "x0 | x1".to_string(),
        BinaryOp::BitwiseXor if !float => "x0 ^ x1".to_string(),
        BinaryOp::LogicalAnd if boolean => "x0 && x1".to_string(),
        BinaryOp::LogicalOr if boolean => "x0 || x1".to_string(),
        BinaryOp::LogicalXor if boolean => "x0 != x1".to_string(),
        // Integer division ops need the divisor check and Python's signs; shifts need the
        // out-of-range rule: CPU only for now.
        BinaryOp::Atan2
        | BinaryOp::Hypot
        | BinaryOp::Fmod
        | BinaryOp::Remainder
        | BinaryOp::FloorDivide
        | BinaryOp::BitwiseAnd
        | BinaryOp::BitwiseOr
        | BinaryOp::BitwiseXor
        | BinaryOp::BitwiseLeftShift
        | BinaryOp::BitwiseRightShift
        | BinaryOp::LogicalAnd
        | BinaryOp::LogicalOr
        | BinaryOp::LogicalXor => return None,
    };
    Some((e, ct))
}

/// An elementwise kernel: `out = convert(expr(load(in_k) as ct))`, where `expr` (over
/// `x0`, `x1`, …) has value type `rt`. `flat`: every operand contiguous in the output's
/// shape, so element `i` of each is at its offset plus `i` (no index arithmetic).
pub(super) fn map_source(
    inputs: &[DType],
    ct: DType,
    (expr, rt): (&str, DType),
    out: DType,
    flat: bool,
) -> Option<String> {
    let mut s = prelude();
    let mut params = format!("{}* __restrict__ o", storage_type(out)?);
    for (k, &d) in inputs.iter().enumerate() {
        params += &format!(", const {}* a{k}", storage_type(d)?);
    }
    let nops = inputs.len() + 1;
    s += &format!("extern \"C\" __global__ void k({params}, Meta m) {{\n");
    s += "  const i64 n = m.v[0]; const int nd = (int)m.v[1];\n";
    s += "  for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < n; \
          i += (i64)gridDim.x * blockDim.x) {\n";
    for k in 0..nops {
        // Operand k's block starts at 2 + nd + k * (nd + 1): its offset, then its strides.
        s += &format!("    i64 p{k} = m.v[2 + nd + {k} * (nd + 1)];\n");
    }
    if flat {
        for k in 0..nops {
            s += &format!("    p{k} += i;\n");
        }
    } else {
        s += "    i64 r = i;\n    for (int d = nd - 1; d >= 0; --d) {\n";
        s += "      const i64 c = r % m.v[2 + d]; r /= m.v[2 + d];\n";
        for k in 0..nops {
            s += &format!("      p{k} += c * m.v[3 + nd + {k} * (nd + 1) + d];\n");
        }
        s += "    }\n";
    }
    let vt = value_type(ct);
    for (k, &d) in inputs.iter().enumerate() {
        s += &format!(
            "    const {vt} x{k} = {};\n",
            load(&format!("a{k}"), d, ct, &format!("p{}", k + 1))
        );
    }
    s += &format!(
        "    const {} r_ = ({})({expr});\n",
        value_type(rt),
        value_type(rt)
    );
    s += &format!("    o[p0] = {};\n  }}\n}}\n", store(rt, out, "r_"));
    Some(s)
}

/// `meta` for an elementwise kernel over `shape`: operand 0 the output, then the inputs,
/// each `(element offset, strides)` already broadcast to `shape`.
pub(super) fn map_meta(shape: &[usize], operands: &[(usize, &[isize])]) -> Vec<i64> {
    let mut v = vec![shape.iter().product::<usize>() as i64, shape.len() as i64];
    v.extend(shape.iter().map(|&d| d as i64));
    for (offset, strides) in operands {
        v.push(*offset as i64);
        v.extend(strides.iter().map(|&s| s as i64));
    }
    v
}

/// Blocks for an elementwise kernel over `n` elements (grid-stride loops cover the rest).
pub(super) fn map_blocks(n: usize) -> u32 {
    n.div_ceil(THREADS as usize).clamp(1, 1 << 16) as u32
}

/// Merges adjacent dims that step through memory as one (`stride[d] == stride[d+1] *
/// shape[d+1]`) and drops size-1 dims: fewer divisions per element, same elements.
pub(super) fn coalesce(shape: &[usize], strides: &[isize]) -> (Vec<usize>, Vec<isize>) {
    let (mut sh, mut st): (Vec<usize>, Vec<isize>) = (Vec::new(), Vec::new());
    for (&n, &s) in shape.iter().zip(strides) {
        if n == 1 {
            continue;
        }
        match (sh.last_mut(), st.last_mut()) {
            (Some(pn), Some(ps)) if *ps == s * n as isize => {
                *pn *= n;
                *ps = s;
            }
            _ => {
                sh.push(n);
                st.push(s);
            }
        }
    }
    (sh, st)
}

/// How a reduction is split: `slices` blocks per output, each reducing `chunk` elements
/// (a second pass reduces the slices when more than one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ReduceLaunch {
    pub(super) slices: usize,
    pub(super) chunk: usize,
}

/// Few outputs over many elements are split into slices so that about `8 × sms` blocks
/// run; many outputs get one block each.
pub(super) fn reduce_launch(n_out: usize, count: usize, sms: usize) -> ReduceLaunch {
    let whole = ReduceLaunch {
        slices: 1,
        chunk: count.max(1),
    };
    let target = 8 * sms.max(1);
    if n_out >= target || count <= 4 * THREADS as usize {
        return whole;
    }
    let slices = target
        .div_ceil(n_out.max(1))
        .min(count.div_ceil(THREADS as usize))
        .clamp(1, 65535);
    let chunk = count.div_ceil(slices);
    ReduceLaunch {
        slices: count.div_ceil(chunk),
        chunk,
    }
}

/// The accumulator's identity and combine expression (of `a` and `x`) for `op` over value
/// type `acc`.
fn reduce_ops(op: ReduceOp, acc: DType) -> Option<(String, String)> {
    let float = acc.is_float();
    let inf = match held(acc) {
        DType::Float32 => "__int_as_float(0x7f800000)",
        _ => "__longlong_as_double(0x7ff0000000000000LL)",
    };
    let (lo, hi) = int_range(acc);
    Some(match op {
        ReduceOp::Sum | ReduceOp::Mean if acc != DType::Bool => ("0".into(), "a + x".into()),
        ReduceOp::Prod if acc != DType::Bool => ("1".into(), "a * x".into()),
        ReduceOp::Max if acc == DType::Bool => ("false".into(), "a || x".into()),
        ReduceOp::Min if acc == DType::Bool => ("true".into(), "a && x".into()),
        ReduceOp::Max if float => (
            format!("-{inf}"),
            "(a != a) ? a : ((x != x || x > a) ? x : a)".into(),
        ),
        ReduceOp::Min if float => (
            inf.to_string(),
            "(a != a) ? a : ((x != x || x < a) ? x : a)".into(),
        ),
        ReduceOp::Max => (lo.to_string(), "(x > a) ? x : a".into()),
        ReduceOp::Min => (hi.to_string(), "(x < a) ? x : a".into()),
        _ => return None,
    })
}

/// A reduction kernel: block `(g, s)` reduces slice `s` (elements `s·chunk ..`) of output
/// `g` (grid-stride over outputs) with a shared-memory tree, in the accumulator type `acc`,
/// and writes `o[g · slices + s]`; when `den ≥ 0` the result is divided by it (a mean).
pub(super) fn reduce_source(op: ReduceOp, input: DType, acc: DType, out: DType) -> Option<String> {
    let (id, comb) = reduce_ops(op, acc)?;
    let (it, ot, at) = (storage_type(input)?, storage_type(out)?, value_type(acc));
    let mut s = prelude();
    s += &format!(
        "__device__ __forceinline__ {at} comb({at} a, {at} x) {{ return {comb}; }}\n\
         extern \"C\" __global__ void k({ot}* __restrict__ o, const {it}* a, Meta m) {{\n\
         \x20 __shared__ {at} sh[{THREADS}];\n\
         \x20 const i64 n_out = m.v[0], count = m.v[1];\n\
         \x20 const int nk = (int)m.v[2], nr = (int)m.v[3];\n\
         \x20 const i64 off = m.v[4], slices = m.v[5], chunk = m.v[6], den = m.v[7];\n\
         \x20 const i64 lo = (i64)blockIdx.y * chunk;\n\
         \x20 const i64 hi = lo + chunk < count ? lo + chunk : count;\n\
         \x20 for (i64 g = blockIdx.x; g < n_out; g += gridDim.x) {{\n\
         \x20   i64 base = off, r = g;\n\
         \x20   for (int d = nk - 1; d >= 0; --d) {{\n\
         \x20     const i64 c = r % m.v[8 + d]; r /= m.v[8 + d]; base += c * m.v[8 + nk + d];\n\
         \x20   }}\n\
         \x20   {at} acc = {id};\n\
         \x20   for (i64 j = lo + threadIdx.x; j < hi; j += blockDim.x) {{\n\
         \x20     i64 p = base;\n\
         \x20     if (nr == 1) {{ p += j * m.v[8 + 2 * nk + 1]; }} else {{\n\
         \x20       i64 q = j;\n\
         \x20       for (int d = nr - 1; d >= 0; --d) {{\n\
         \x20         const i64 c = q % m.v[8 + 2 * nk + d]; q /= m.v[8 + 2 * nk + d];\n\
         \x20         p += c * m.v[8 + 2 * nk + nr + d];\n\
         \x20       }}\n\
         \x20     }}\n\
         \x20     acc = comb(acc, {});\n\
         \x20   }}\n\
         \x20   sh[threadIdx.x] = acc;\n\
         \x20   __syncthreads();\n\
         \x20   for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) {{\n\
         \x20     if (threadIdx.x < w) sh[threadIdx.x] = comb(sh[threadIdx.x], sh[threadIdx.x + w]);\n\
         \x20     __syncthreads();\n\
         \x20   }}\n\
         \x20   if (threadIdx.x == 0) {{\n\
         \x20     {at} v = sh[0];\n\
         \x20     if (den >= 0) v = v / ({at})den;\n\
         \x20     o[g * slices + blockIdx.y] = {};\n\
         \x20   }}\n\
         \x20   __syncthreads();\n\
         \x20 }}\n\
         }}\n",
        load("a", input, acc, "p"),
        store(acc, out, "v"),
    );
    Some(s)
}

/// `meta` for a reduction: the kept and reduced dims (each `(shape, strides)`), the
/// input's element offset, the split and the mean's divisor (`-1`: none).
pub(super) fn reduce_meta(
    kept: (&[usize], &[isize]),
    reduced: (&[usize], &[isize]),
    offset: usize,
    launch: ReduceLaunch,
    den: i64,
) -> Vec<i64> {
    let n_out: usize = kept.0.iter().product();
    let count: usize = reduced.0.iter().product();
    let mut v = vec![
        n_out as i64,
        count as i64,
        kept.0.len() as i64,
        reduced.0.len() as i64,
        offset as i64,
        launch.slices as i64,
        launch.chunk as i64,
        den,
    ];
    v.extend(kept.0.iter().map(|&d| d as i64));
    v.extend(kept.1.iter().map(|&d| d as i64));
    v.extend(reduced.0.iter().map(|&d| d as i64));
    v.extend(reduced.1.iter().map(|&d| d as i64));
    v
}

/// A matrix product, one thread per output element (not tiled: correct first; cuBLAS is
/// the fast path later). `meta`: `[total, m, n, k, nb, a_off, b_off, a_rs, a_cs, b_rs,
/// b_cs, batch shape[nb], a batch strides[nb], b batch strides[nb]]`; the output is
/// contiguous `[batch.., m, n]`. Accumulates in `acc` (`Float32` for half and integer
/// types, as the CPU).
pub(super) fn matmul_source(input: DType, acc: DType, out: DType) -> Option<String> {
    let (it, ot, at) = (storage_type(input)?, storage_type(out)?, value_type(acc));
    let mut s = prelude();
    s += &format!(
        "extern \"C\" __global__ void k({ot}* __restrict__ o, const {it}* a, const {it}* b, Meta m) {{\n\
         \x20 const i64 total = m.v[0], M = m.v[1], N = m.v[2], K = m.v[3];\n\
         \x20 const int nb = (int)m.v[4];\n\
         \x20 for (i64 i = (i64)blockIdx.x * blockDim.x + threadIdx.x; i < total; \
         i += (i64)gridDim.x * blockDim.x) {{\n\
         \x20   const i64 col = i % N, row = (i / N) % M;\n\
         \x20   i64 r = i / (M * N), pa = m.v[5] + row * m.v[7], pb = m.v[6] + col * m.v[10];\n\
         \x20   for (int d = nb - 1; d >= 0; --d) {{\n\
         \x20     const i64 c = r % m.v[11 + d]; r /= m.v[11 + d];\n\
         \x20     pa += c * m.v[11 + nb + d]; pb += c * m.v[11 + 2 * nb + d];\n\
         \x20   }}\n\
         \x20   {at} acc = 0;\n\
         \x20   for (i64 j = 0; j < K; ++j) {{\n\
         \x20     acc += {} * {};\n\
         \x20   }}\n\
         \x20   o[i] = {};\n\
         \x20 }}\n\
         }}\n",
        load("a", input, acc, "pa + j * m.v[8]"),
        load("b", input, acc, "pb + j * m.v[9]"),
        store(acc, out, "acc"),
    );
    Some(s)
}

#[cfg(test)]
mod tests;
