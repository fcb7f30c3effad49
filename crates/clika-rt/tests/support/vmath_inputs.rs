//! Inputs and measures shared by the lane-kernel accuracy tests (`vmath_ulp.rs`,
//! `vmath_binary.rs`).

/// A simple deterministic generator (xorshift).
pub fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// The special values every sweep includes (both signs): zeros, infinities, NaN, the
/// subnormal and overflow edges of both types, and the kernels' range boundaries.
fn specials() -> Vec<f64> {
    let mut v = vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1.0,
        -1.0,
        0.5,
        f64::MIN_POSITIVE,
        f64::from(f32::MIN_POSITIVE),
        1e-40,
        -1e-40,
        5e-324,
        88.72,
        88.73,
        89.0,
        -87.3,
        -103.0,
        -103.9,
        -104.5,
        709.7,
        709.8,
        -708.5,
        -745.0,
        -745.2,
        f64::from(f32::MAX),
        f64::MAX,
        -f64::MAX,
        1e10,
        -1e10,
        1e30,
        6000.0,
        6500.0,
        1.6e6,
        1.7e6,
        0.875,
        -0.875,
        3.9,
        4.0,
        5.9,
        6.0,
        8.0,
        9.0,
        -14.0,
        -15.0,
        -39.0,
        -40.0,
    ];
    let w: Vec<f64> = v.iter().map(|x| -x).collect();
    v.extend(w);
    v
}

/// `f32` inputs: a stride through every bit pattern (all binades, both signs, subnormals,
/// infinities and NaNs), a dense grid over [-20, 20], and the specials.
pub fn inputs_f32() -> Vec<f32> {
    let mut v: Vec<f32> = (0..=u32::MAX).step_by(2311).map(f32::from_bits).collect();
    v.extend((-40_000..=40_000).map(|i| i as f32 * 5e-4));
    v.extend(specials().into_iter().map(|x| x as f32));
    v
}

/// `f64` inputs: random bit patterns, random values in [-40, 40], a dense grid, specials.
pub fn inputs_f64() -> Vec<f64> {
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut v: Vec<f64> = (0..400_000)
        .map(|_| f64::from_bits(xorshift(&mut s)))
        .collect();
    v.extend(
        (0..400_000).map(|_| (xorshift(&mut s) >> 11) as f64 / (1u64 << 53) as f64 * 80.0 - 40.0),
    );
    v.extend((-40_000..=40_000).map(|i| i as f64 * 5e-4));
    v.extend(specials());
    v
}

/// `|got - want|` in ulps of the type with `mant` explicit mantissa bits and minimum normal
/// exponent `emin`, at `want`'s magnitude.
pub fn ulps(got: f64, want: f64, mant: i32, emin: i32) -> f64 {
    let e = ((want.abs().to_bits() >> 52) as i32 - 1023).max(emin);
    // 2^(e - mant) from its bits (powi underflows to 0 near the bottom of f64's range).
    let k = e - mant;
    let ulp = if k >= -1022 {
        f64::from_bits(((k + 1023) as u64) << 52)
    } else {
        f64::from_bits(1u64 << (k + 1074))
    };
    (got - want).abs() / ulp
}

/// Bitwise equality, NaN included.
pub fn same_bits<T: Copy + Into<f64>>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(&x, &y)| {
            x.into().to_bits() == y.into().to_bits() || x.into().is_nan() && y.into().is_nan()
        })
}
