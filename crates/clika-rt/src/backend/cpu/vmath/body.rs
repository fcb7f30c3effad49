// The lane functions, written once for the lane type `T` (with `U`/`I` its unsigned and
// signed integers of the same width) and included by the `f32` and `f64` modules, which
// define the type aliases and the constants this code names.
//
// Every function is branch-free per element (selects, not jumps), so that the loops over
// `LANES` elements in the `*_chunk` functions vectorise; `F` says whether fused
// multiply-add is available (it is in every AVX2/AVX-512 dispatch; the portable fallback
// multiplies and adds, which stays fast without a software `fma`).

/// `a * b + c`, fused when the dispatch has FMA.
#[inline(always)]
pub(crate) fn fma<const F: bool>(a: T, b: T, c: T) -> T {
    if F {
        a.mul_add(b, c)
    } else {
        a * b + c
    }
}

/// A polynomial in `x` with coefficients highest power first.
#[inline(always)]
pub(crate) fn horner<const F: bool>(x: T, c: &[T]) -> T {
    let mut acc = c[0];
    for &k in &c[1..] {
        acc = fma::<F>(acc, x, k);
    }
    acc
}

/// `if c { a } else { b }`, as a select.
#[inline(always)]
fn sel(c: bool, a: T, b: T) -> T {
    if c {
        a
    } else {
        b
    }
}

/// `2^n` for `n` in the normal exponent range.
#[inline(always)]
fn pow2(n: I) -> T {
    T::from_bits(((n + BIAS) as U) << MANT)
}

/// `x` rounded to the nearest integer, as a float and as an integer (`|x| < 2^(MANT-1)`):
/// adding 1.5·2^MANT leaves the integer in the low mantissa bits.
#[inline(always)]
fn round_int<const F: bool>(x: T, scale: T) -> (T, I) {
    let t = fma::<F>(x, scale, SHIFTER);
    let n = t - SHIFTER;
    let ni = (t.to_bits() as I).wrapping_sub(SHIFTER.to_bits() as I);
    (n, ni)
}

/// `x * x` as an unevaluated sum `hi + lo` (exact unless it overflows or underflows).
#[inline(always)]
pub(crate) fn square2<const F: bool>(x: T) -> (T, T) {
    let hi = x * x;
    let lo = if F {
        x.mul_add(x, -hi)
    } else {
        // Veltkamp split of x into two halves whose products are exact.
        let c = SPLIT * x;
        let xh = c - (c - x);
        let xl = x - xh;
        ((xh * xh - hi) + 2.0 * xh * xl) + xl * xl
    };
    (hi, lo)
}

/// `x = n·ln2 + r` with `|r| ≤ ln2/2` (Cody–Waite: ln2 in two parts, the first short so
/// `n·LN2_HI` is exact): `(n, r)` with `n` as an integer.
#[inline(always)]
fn reduce_ln2<const F: bool>(x: T) -> (I, T) {
    let (n, ni) = round_int::<F>(x, std::f64::consts::LOG2_E as T);
    (ni, fma::<F>(-n, LN2_LO, fma::<F>(-n, LN2_HI, x)))
}

/// `e^x · 2^k` (0 below `lo`, +inf above `EXP_HI`). Cody–Waite reduction
/// `x = n·ln2 + r`, `|r| ≤ ln2/2`, a Taylor polynomial for `e^r`, and `2^(n+k)` applied in
/// two halves so results in the subnormal range and just below overflow come out right.
#[inline(always)]
fn exp_scaled<const F: bool>(x: T, k: I, lo: T) -> T {
    let xc = sel(x > EXP_HI, EXP_HI, sel(x < lo, lo, x));
    let (ni, r) = reduce_ln2::<F>(xc);
    let p = horner::<F>(r, &EXP);
    let ni = ni + k;
    let n1 = ni >> 1;
    let v = p * pow2(n1) * pow2(ni - n1);
    sel(x > EXP_HI, T::INFINITY, sel(x < lo, 0.0, v))
}

/// `e^x · 2^k` for `x ≤ 0` (0 below `lo`), where the caller's `k` and `lo` keep `2^(n+k)`
/// normal for every `n = round(x/ln2)` down to `lo`: [`exp_scaled`] without its clamp at the
/// top and its power of two in two halves, for kernels that only take `e^-|x|`.
#[inline(always)]
fn exp_neg_scaled<const F: bool>(x: T, k: I, lo: T) -> T {
    let xc = sel(x < lo, lo, x);
    let (ni, r) = reduce_ln2::<F>(xc);
    sel(x < lo, 0.0, horner::<F>(r, &EXP) * pow2(ni + k))
}

/// `e^x`.
#[inline(always)]
pub(crate) fn exp<const F: bool>(x: T) -> T {
    exp_scaled::<F>(x, 0, EXP_LO)
}

/// `e^x - 1` for `0 ≤ x ≤ 2·TANH_CLAMP` (no overflow handling), accurate near 0.
#[inline(always)]
fn expm1_pos<const F: bool>(x: T) -> T {
    let (ni, r) = reduce_ln2::<F>(x);
    // r + r²(1/2 + r/6 + …): the Taylor terms from 1/2! up.
    let q = fma::<F>(r * r, horner::<F>(r, &EXP[..EXP.len() - 2]), r);
    let s = pow2(ni);
    fma::<F>(s, q, s - 1.0)
}

/// `ln x`: `x = 2^e·m` with `m ∈ [√½, √2)` (subnormals scaled up first), then
/// `ln m = f - f²/2 + s(f²/2 + R(s²))` with `f = m - 1`, `s = f/(2+f)` and `R` the atanh
/// series, and `e·ln2` added in two parts.
#[inline(always)]
pub(crate) fn log<const F: bool>(x: T) -> T {
    let tiny = x < T::MIN_POSITIVE;
    let xs = sel(tiny, x * DENORM_SCALE, x);
    let u = xs.to_bits();
    let e = ((u >> MANT) as I) - BIAS - if tiny { DENORM_SCALE_EXP } else { 0 };
    let m = T::from_bits((u & ((1 << MANT) - 1)) | (1.0 as T).to_bits());
    let big = m > std::f64::consts::SQRT_2 as T;
    let m = sel(big, m * 0.5, m);
    let e = e + big as I;
    let f = m - 1.0;
    let s = f / (2.0 + f);
    let z = s * s;
    let r = z * horner::<F>(z, &LOG);
    let hfsq = 0.5 * f * f;
    let ef = e as T;
    let v = fma::<F>(ef, LN2_HI, f - (hfsq - fma::<F>(s, hfsq + r, ef * LN2_LO)));
    let v = sel(x == T::INFINITY, x, v);
    let v = sel(x == 0.0, T::NEG_INFINITY, v);
    sel((x < 0.0) | x.is_nan(), T::NAN, v)
}

/// `ln(1 + x)` as `ln u · x / (u - 1)` with `u = 1 + x`: the quotient cancels the rounding
/// of `u` (Goldberg's correction); `x` itself where `u` rounds to 1 (`-0.0` stays) or to ∞.
#[inline(always)]
pub(crate) fn log1p<const F: bool>(x: T) -> T {
    let u = 1.0 + x;
    let d = u - 1.0;
    let v = log::<F>(u) * (x / d);
    sel((d == 0.0) | (u == T::INFINITY), x, v)
}

/// `e^x - 1` as `(u - 1) · x / ln u` with `u = e^x` (Kahan's correction of the rounding of
/// `u`); `x` itself where `u` rounds to 1, `-1` and `∞` at the ends.
#[inline(always)]
pub(crate) fn expm1<const F: bool>(x: T) -> T {
    let u = exp::<F>(x);
    let d = u - 1.0;
    let v = d * (x / log::<F>(u));
    let v = sel(d == -1.0, -1.0, v);
    let v = sel(u == T::INFINITY, u, v);
    sel(u == 1.0, x, v)
}

/// `tanh x = sign(x)·e/(e + 2)` with `e = expm1(2|x|)`; `±1` past the point where that
/// rounds to 1.
#[inline(always)]
pub(crate) fn tanh<const F: bool>(x: T) -> T {
    let a = x.abs();
    let e = expm1_pos::<F>(2.0 * sel(a > TANH_CLAMP, TANH_CLAMP, a));
    let t = (e / (e + 2.0)).copysign(x);
    sel(x.is_nan(), x, t)
}

/// `e^-|x|·2^SIG_K` and `1/(1 + e^-|x|)`: the parts of `sigmoid` and `silu`. The scaled
/// exponential stays normal where `e^-|x|` itself would be subnormal, so results that are
/// normal (silu's `x·e^x`) or subnormal are rounded once, at the end.
#[inline(always)]
fn sigmoid_parts<const F: bool>(x: T) -> (T, T) {
    // With e scaled by 2^SIG_K, every 2^(n + SIG_K) down to the lower limit is normal.
    let e = exp_neg_scaled::<F>(-x.abs(), SIG_K, EXP_LO - SIG_LO_EXTRA);
    (e, 1.0 / fma::<F>(e, pow2(-SIG_K), 1.0))
}

/// `1/(1 + e^-x)`, through `e^-|x|` so it neither overflows nor loses the subnormal tail
/// for very negative `x`.
#[inline(always)]
pub(crate) fn sigmoid<const F: bool>(x: T) -> T {
    let (e, s) = sigmoid_parts::<F>(x);
    sel(x >= 0.0, s, sel(x.is_nan(), x, e * s * pow2(-SIG_K)))
}

/// `x·sigmoid(x)` (`-0` at `-inf`, the limit).
#[inline(always)]
pub(crate) fn silu<const F: bool>(x: T) -> T {
    let (e, s) = sigmoid_parts::<F>(x);
    let neg = x * (e * s) * pow2(-SIG_K);
    let v = sel(x >= 0.0, x * s, sel(x.is_nan(), x, neg));
    sel(x == T::NEG_INFINITY, -0.0, v)
}

/// `√x`.
#[inline(always)]
pub(crate) fn sqrt<const F: bool>(x: T) -> T {
    x.sqrt()
}

/// `1/√x`.
#[inline(always)]
pub(crate) fn rsqrt<const F: bool>(x: T) -> T {
    1.0 / x.sqrt()
}

/// `sin x` (`IS_COS = false`) or `cos x` (`IS_COS = true`) for `|x| ≤ TRIG_LIMIT`: `x = n·π/2 + r`
/// with π/2 in four parts (the first three short, so their products with `n` are exact),
/// Taylor polynomials for `sin r`/`cos r` on `|r| ≤ π/4`, and the quadrant picking one and
/// its sign.
#[inline(always)]
fn sin_cos<const F: bool, const IS_COS: bool>(x: T) -> T {
    let (n, ni) = round_int::<F>(x, std::f64::consts::FRAC_2_PI as T);
    let mut r = x;
    for p in PIO2 {
        r = fma::<F>(-n, p, r);
    }
    let r2 = r * r;
    let s = fma::<F>(r * r2, horner::<F>(r2, &SIN), r);
    let c = fma::<F>(r2 * r2, horner::<F>(r2, &COS), fma::<F>(r2, -0.5, 1.0));
    let q = ni + IS_COS as I;
    let v = sel((q & 1) == 1, c, s);
    let v = sel((q & 2) == 2, -v, v);
    // sin(±0) = ±0 (the polynomial's sum would round -0 to +0).
    if IS_COS {
        v
    } else {
        sel(x == 0.0, x, v)
    }
}

/// `erf x / x` for `|x| < ERF_SPLIT`: its Taylor series in `x²`.
#[inline(always)]
fn erf_small<const F: bool>(x: T) -> T {
    x * horner::<F>(x * x, &ERF)
}

/// `erfc a` for `a ≥ ERF_SPLIT`, given `a² = a2.0 + a2.1`: `e^{-a²}·g(a)` with `g` the
/// scaled complementary error function, a Chebyshev series up to `ERFCX_B` and its
/// asymptotic series beyond. `any_far` says whether any lane reaches the asymptotic range.
#[inline(always)]
fn erfc_tail<const F: bool>(a: T, a2: (T, T), any_far: bool) -> T {
    let ex = exp::<F>(-a2.0);
    let ex = fma::<F>(-ex, a2.1, ex);
    // Clenshaw's recurrence for Σ c_k T_k(u), u mapping [ERF_SPLIT, ERFCX_B] to [-1, 1].
    let u = fma::<F>(
        a,
        2.0 / (ERFCX_B - ERF_SPLIT),
        -(ERFCX_B + ERF_SPLIT) / (ERFCX_B - ERF_SPLIT),
    );
    let (mut b1, mut b2): (T, T) = (0.0, 0.0);
    for &c in ERFCX_CHEB[1..].iter().rev() {
        let b0 = fma::<F>(2.0 * u, b1, c - b2);
        b2 = b1;
        b1 = b0;
    }
    let mut g = fma::<F>(u, b1, ERFCX_CHEB[0] - b2);
    if any_far {
        let w = 1.0 / (a * a);
        let far = horner::<F>(w, &ERFCX_ASYM) / (a * std::f64::consts::PI.sqrt() as T);
        g = sel(a >= ERFCX_B, far, g);
    }
    ex * g
}

/// `atan u` for `|u| ≤ tan(π/8)`: `u + u·s·P(s)` with `s = u²`.
#[inline(always)]
fn atan_reduced<const F: bool>(u: T) -> T {
    let s = u * u;
    fma::<F>(u * s, horner::<F>(s, &ATAN), u)
}

/// `atan2(y, x)`, the angle of the point `(x, y)` in `[-π, π]`, with C's special values:
/// `t = min(|x|, |y|) / max(|x|, |y|)` in `[0, 1]` (`0/0 → 0`, `∞/∞ → 1`), `atan t` as
/// `π/4 + atan((t - 1)/(t + 1))` above `tan(π/8)`, then reflected into the octant of `(x, y)`
/// with π in two parts.
#[inline(always)]
pub(crate) fn atan2<const F: bool>(y: T, x: T) -> T {
    let (ax, ay) = (x.abs(), y.abs());
    let swap = ay > ax;
    let (num, den) = (sel(swap, ax, ay), sel(swap, ay, ax));
    let t = sel(den == 0.0, 0.0, sel(num == T::INFINITY, 1.0, num / den));
    let big = t > TAN_PI_8;
    let u = sel(big, (t - 1.0) / (t + 1.0), t);
    let a = sel(big, PI_HI * 0.25, 0.0) + (atan_reduced::<F>(u) + sel(big, PI_LO * 0.25, 0.0));
    let a = sel(swap, PI_HI * 0.5 + (PI_LO * 0.5 - a), a);
    let a = sel(x.is_sign_negative(), PI_HI + (PI_LO - a), a);
    sel(x.is_nan() | y.is_nan(), x + y, a.copysign(y))
}

/// `atan x`.
#[inline(always)]
pub(crate) fn atan<const F: bool>(x: T) -> T {
    atan2::<F>(x, 1.0)
}

/// `asin x = atan2(x, √(1 - x²))`, with `1 - x² = (1 - x)(1 + x)` (exact factors near
/// `|x| = 1`); NaN outside `[-1, 1]`.
#[inline(always)]
pub(crate) fn asin<const F: bool>(x: T) -> T {
    atan2::<F>(x, ((1.0 - x) * (1.0 + x)).sqrt())
}

/// `acos x = atan2(√(1 - x²), x)`; NaN outside `[-1, 1]`.
#[inline(always)]
pub(crate) fn acos<const F: bool>(x: T) -> T {
    atan2::<F>(((1.0 - x) * (1.0 + x)).sqrt(), x)
}

/// `atan2` of two chunks, lane by lane.
#[inline(always)]
pub(crate) fn atan2_chunk<const F: bool>(y: &[T; LANES], x: &[T; LANES]) -> [T; LANES] {
    let mut o = [0.0; LANES];
    for ((o, &a), &b) in o.iter_mut().zip(y).zip(x) {
        *o = atan2::<F>(a, b);
    }
    o
}

/// `(trunc(a/b), fmod(a, b))`, both exact, from the rounded quotient `q = a/b`, for finite
/// nonzero `b` and `|q| < 2^(MANT-1)` (see [`all_in_range`]), with a fused multiply-add.
/// `trunc q` is one off where `a/b` rounded across an integer; that shows as a remainder of
/// the wrong sign or of at least `|b|`, and the corrected quotient's remainder `a - n·b`,
/// smaller than `|b|` in magnitude, is representable, so the FMA computes it exactly.
#[inline(always)]
fn trunc_divmod(a: T, b: T, q: T) -> (T, T) {
    let n = q.trunc();
    let r = (-n).mul_add(b, a);
    let s = (1.0 as T).copysign(q);
    let wrong_sign = (r != 0.0) & (r.is_sign_negative() != a.is_sign_negative());
    let n = sel(wrong_sign, n - s, sel(r.abs() >= b.abs(), n + s, n));
    let r = (-n).mul_add(b, a);
    (n, sel(r == 0.0, (0.0 as T).copysign(a), r))
}

/// Whether [`trunc_divmod`] covers every lane `(a, b)` with the rounded quotient `q`: a
/// finite nonzero `b` and `|q| < 2^(MANT-1)`. Below that numpy's and PyTorch's own formulas
/// (`(a - fmod(a, b)) / b`, rounded to an integer) are exact too, so the two agree bit for
/// bit; above it theirs can be one off, and the `any` path repeats them. Tested as integer
/// maxima of the magnitudes' bits, which vectorise (a count or an `&` of per-lane booleans
/// moves each mask bit out one by one): the bits order like the magnitudes, NaN above
/// infinity, and a zero divisor wraps to the top.
#[inline(always)]
fn all_in_range(b: &[T; LANES], q: &[T; LANES]) -> bool {
    const ABS: U = U::MAX >> 1;
    let qmax = q.iter().map(|v| v.to_bits() & ABS).fold(0, U::max);
    let bmax = b.iter().map(|v| (v.to_bits() & ABS).wrapping_sub(1)).fold(0, U::max);
    (qmax < pow2(MANT as I - 1).to_bits()) & (bmax < T::INFINITY.to_bits() - 1)
}

/// Whether Python's rules move a truncated quotient down by one: a nonzero remainder whose
/// sign differs from the divisor's.
#[inline(always)]
fn floor_adjusts(r: T, b: T) -> bool {
    (r != 0.0) & (r.is_sign_negative() != b.is_sign_negative())
}

/// Python's (numpy's) floor division of one pair from `fmod` (any inputs): the exact
/// quotient, where `floor(a / b)` can round the wrong way.
#[inline(always)]
fn floor_divide_any(a: T, b: T) -> T {
    if b == 0.0 {
        return a / b;
    }
    let m = a % b;
    let div = (a - m) / b;
    let div = sel(floor_adjusts(m, b), div - 1.0, div);
    if div == 0.0 {
        return (0.0 as T).copysign(a / b);
    }
    let f = div.floor();
    sel(div - f > 0.5, f + 1.0, f)
}

/// Python's `%` of one pair (any inputs): the remainder with the divisor's sign.
#[inline(always)]
fn remainder_any(a: T, b: T) -> T {
    let m = a % b;
    sel(floor_adjusts(m, b), m + b, sel(m == 0.0, (0.0 as T).copysign(b), m))
}

/// A division op of two chunks: `exact(a, b, trunc quotient, fmod)` per lane when FMA is
/// there and every lane is in [`trunc_divmod`]'s range (the common case: one test per
/// chunk), otherwise `any(a, b)` per lane (libm's `fmod`).
#[inline(always)]
fn divmod_chunk<const F: bool>(
    a: &[T; LANES],
    b: &[T; LANES],
    exact: impl Fn(T, T, T, T) -> T,
    any: impl Fn(T, T) -> T,
) -> [T; LANES] {
    let mut q = [0.0; LANES];
    for ((q, &x), &y) in q.iter_mut().zip(a).zip(b) {
        *q = x / y;
    }
    let mut o = [0.0; LANES];
    if F && all_in_range(b, &q) {
        for (((o, &x), &y), &q) in o.iter_mut().zip(a).zip(b).zip(&q) {
            let (n, r) = trunc_divmod(x, y, q);
            *o = exact(x, y, n, r);
        }
    } else {
        for ((o, &x), &y) in o.iter_mut().zip(a).zip(b) {
            *o = any(x, y);
        }
    }
    o
}

/// `a // b` (Python's floor division) of two chunks.
#[inline(always)]
pub(crate) fn floor_divide_chunk<const F: bool>(a: &[T; LANES], b: &[T; LANES]) -> [T; LANES] {
    let exact = |x: T, y: T, n: T, r: T| {
        let f = sel(floor_adjusts(r, y), n - 1.0, n);
        // A zero quotient has the sign of a/b: finite nonzero operands here, so that of x·y.
        sel(f == 0.0, (0.0 as T).copysign(x * y), f)
    };
    divmod_chunk::<F>(a, b, exact, floor_divide_any)
}

/// `a % b` (Python's remainder, the divisor's sign) of two chunks.
#[inline(always)]
pub(crate) fn remainder_chunk<const F: bool>(a: &[T; LANES], b: &[T; LANES]) -> [T; LANES] {
    let exact = |_: T, y: T, _: T, r: T| {
        sel(floor_adjusts(r, y), r + y, sel(r == 0.0, (0.0 as T).copysign(y), r))
    };
    divmod_chunk::<F>(a, b, exact, remainder_any)
}

/// `fmod(a, b)` (C's remainder, the dividend's sign) of two chunks.
#[inline(always)]
pub(crate) fn fmod_chunk<const F: bool>(a: &[T; LANES], b: &[T; LANES]) -> [T; LANES] {
    divmod_chunk::<F>(a, b, |_, _, _, r| r, |x, y| x % y)
}

/// Whether any lane satisfies `p`: an OR of integer lanes, which vectorises (an OR of the
/// booleans themselves moved each mask bit out one by one).
#[inline(always)]
fn any(x: &[T; LANES], p: impl Fn(T) -> bool) -> bool {
    x.iter().fold(0, |acc: U, &v| acc | U::from(p(v))) != 0
}

/// Applies `f` to each lane.
#[inline(always)]
pub(crate) fn each(x: &[T; LANES], f: impl Fn(T) -> T) -> [T; LANES] {
    let mut y = [0.0; LANES];
    for (o, &v) in y.iter_mut().zip(x) {
        *o = f(v);
    }
    y
}

/// `$y` with the lanes where `$p` holds replaced by `$f`, both written in terms of the lane
/// `$v`. A macro rather than a function taking closures, so the bodies are always inlined
/// into the SIMD dispatch: a closure LLVM declined to inline lost the dispatch's target
/// features, and `f64` erf and gelu ran their fused multiply-adds through the software
/// `fma` (about 250 ns per element instead of 3).
macro_rules! merge {
    ($x:expr, $y:expr, |$v:ident| $p:expr, $f:expr) => {{
        let mut out = *$y;
        for (o, &$v) in out.iter_mut().zip($x) {
            *o = sel($p, $f, *o);
        }
        out
    }};
}

/// `erf` of a chunk: the series below `ERF_SPLIT`, `1 - erfc` above, `±1` past `ERF_ONE`
/// (each range computed only when some lane is in it).
#[inline(always)]
pub(crate) fn erf_chunk<const F: bool>(x: &[T; LANES]) -> [T; LANES] {
    let mut y = each(x, |v| sel(v.abs() >= ERF_ONE, (1.0 as T).copysign(v), v));
    if any(x, |v| v.abs() < ERF_SPLIT) {
        y = merge!(x, &y, |v| v.abs() < ERF_SPLIT, erf_small::<F>(v));
    }
    if any(x, |v| (v.abs() >= ERF_SPLIT) & (v.abs() < ERF_ONE)) {
        let far = any(x, |v| (v.abs() >= ERFCX_B) & (v.abs() < ERF_ONE));
        y = merge!(
            x,
            &y,
            |v| (v.abs() >= ERF_SPLIT) & (v.abs() < ERF_ONE),
            (1.0 - erfc_tail::<F>(v.abs(), square2::<F>(v.abs()), far)).copysign(v)
        );
    }
    y
}

/// `gelu x = x·(1 + erf(x/√2))/2` by ranges (the `f64` form; `f32` has its own, see
/// `gelu.rs`), with `1 + erf(z)` taken as `erfc(-z)` for negative `z` so the
/// negative tail keeps its precision (and `x²/2` formed exactly from `x`).
#[allow(dead_code, reason = "the f32 lanes use gelu.rs")]
#[inline(always)]
pub(crate) fn gelu_ranges_chunk<const F: bool>(x: &[T; LANES]) -> [T; LANES] {
    const H: T = std::f64::consts::FRAC_1_SQRT_2 as T;
    // Saturated lanes (and NaN) first: x past GELU_HI, -0 below GELU_LO.
    let mut y = each(x, |v| sel(v > GELU_HI, v, sel(v < GELU_LO, -0.0, v)));
    let mid = |v: T| (GELU_LO..=GELU_HI).contains(&v);
    if any(x, |v| mid(v) & ((v * H).abs() < ERF_SPLIT)) {
        y = merge!(
            x,
            &y,
            |v| mid(v) & ((v * H).abs() < ERF_SPLIT),
            0.5 * v * (1.0 + erf_small::<F>(v * H))
        );
    }
    if any(x, |v| mid(v) & ((v * H).abs() >= ERF_SPLIT)) {
        let far = any(x, |v| mid(v) & ((v * H).abs() >= ERFCX_B));
        y = merge!(x, &y, |v| mid(v) & ((v * H).abs() >= ERF_SPLIT), {
            let (hi, lo) = square2::<F>(v);
            let ec = erfc_tail::<F>((v * H).abs(), (0.5 * hi, 0.5 * lo), far);
            0.5 * v * sel(v < 0.0, ec, 2.0 - ec)
        });
    }
    y
}

/// `sin`/`cos` of a chunk; lanes beyond `TRIG_LIMIT` (and `±inf`) go to the standard
/// library's argument reduction, one by one, only when some lane needs it.
#[inline(always)]
fn trig_chunk<const F: bool, const IS_COS: bool>(x: &[T; LANES]) -> [T; LANES] {
    let mut y = each(x, sin_cos::<F, IS_COS>);
    if any(x, |v| v.abs() > TRIG_LIMIT) {
        for (o, &v) in y.iter_mut().zip(x) {
            if v.abs() > TRIG_LIMIT {
                *o = if IS_COS { v.cos() } else { v.sin() };
            }
        }
    }
    y
}

/// `sin` of a chunk.
#[inline(always)]
pub(crate) fn sin_chunk<const F: bool>(x: &[T; LANES]) -> [T; LANES] {
    trig_chunk::<F, false>(x)
}

/// `cos` of a chunk.
#[inline(always)]
pub(crate) fn cos_chunk<const F: bool>(x: &[T; LANES]) -> [T; LANES] {
    trig_chunk::<F, true>(x)
}

/// `tan` of a chunk: `sin / cos` of the same reduced argument (each within 2.2 ulp, so the
/// quotient within about 5).
#[inline(always)]
pub(crate) fn tan_chunk<const F: bool>(x: &[T; LANES]) -> [T; LANES] {
    let (s, c) = (sin_chunk::<F>(x), cos_chunk::<F>(x));
    let mut y = [0.0; LANES];
    for ((o, a), b) in y.iter_mut().zip(&s).zip(&c) {
        *o = a / b;
    }
    y
}

/// `*_chunk` forms of the per-lane functions.
macro_rules! chunked {
    ($($f:ident => $c:ident),*) => {$(
        #[doc = concat!("`", stringify!($f), "` of a chunk.")]
        #[inline(always)]
        pub(crate) fn $c<const F: bool>(x: &[T; LANES]) -> [T; LANES] {
            each(x, $f::<F>)
        }
    )*};
}

chunked!(exp => exp_chunk, log => log_chunk, tanh => tanh_chunk, sigmoid => sigmoid_chunk,
    silu => silu_chunk, sqrt => sqrt_chunk, rsqrt => rsqrt_chunk, log1p => log1p_chunk,
    expm1 => expm1_chunk, atan => atan_chunk, asin => asin_chunk, acos => acos_chunk);
