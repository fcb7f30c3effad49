//! Printing: `Tensor(shape=[2, 3], dtype=Float32, device=CPU, numel=6, data=[…])`, numbers
//! as C's `%g` prints them.

use std::fmt;

use super::Tensor;
use crate::dtype::Element;
use crate::ops::strided::for_each_offset;
use crate::DType;

/// Tensors with more elements than this print only their first and last `EDGE_ITEMS`.
const PRINT_ALL_UP_TO: usize = 32;
/// Elements printed at each end of an abbreviated tensor.
const EDGE_ITEMS: usize = 8;

/// Formats `v` exactly as C's `printf("%g", v)` does (6 significant digits, trailing zeros
/// removed, exponent form below 1e-4 or from 1e6).
pub fn format_g(v: f64) -> String {
    const P: i32 = 6;
    if v.is_nan() {
        return if v.is_sign_negative() { "-nan" } else { "nan" }.to_string();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-inf" } else { "inf" }.to_string();
    }
    if v == 0.0 {
        return if v.is_sign_negative() { "-0" } else { "0" }.to_string();
    }
    let sci = format!("{:.*e}", (P - 1) as usize, v);
    let (mantissa, exp) = sci.split_once('e').expect("exponent format has an 'e'");
    let x: i32 = exp.parse().expect("exponent is an integer");
    if !(-4..P).contains(&x) {
        let sign = if x < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", strip_zeros(mantissa), x.abs())
    } else {
        strip_zeros(&format!("{:.*}", (P - 1 - x) as usize, v)).to_string()
    }
}

fn strip_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

fn format_elem<T: Element>(v: T) -> String {
    match T::DTYPE {
        DType::Bool => (v.to_i64() != 0).to_string(),
        d if d.is_float() => format_g(v.to_f64()),
        _ => crate::dtype::int_value(v).to_string(),
    }
}

impl Tensor {
    /// The printed elements, abbreviated with `...` past `PRINT_ALL_UP_TO`.
    fn data_strings(&self) -> Vec<String> {
        let n = self.numel();
        let mut out = Vec::with_capacity(n.min(2 * EDGE_ITEMS + 1));
        let mut i = 0usize;
        crate::dispatch_dtype!(self.dtype(), T => {
            for_each_offset(self.layout(), |off| {
                let keep = n <= PRINT_ALL_UP_TO || i < EDGE_ITEMS || i >= n - EDGE_ITEMS;
                if keep {
                    // SAFETY: `off` is reachable, so in bounds by L3; the storage is host
                    // memory (checked by the caller) of dtype `T`.
                    out.push(format_elem(unsafe { self.load::<T>(off) }));
                } else if i == EDGE_ITEMS {
                    out.push("...".to_string());
                }
                i += 1;
            });
        });
        out
    }
}

/// `{}` is the one-line form above; `{:#}` the multi-line one of
/// [`Tensor::to_pretty_string`] with the default [`PrintOptions`](crate::PrintOptions).
impl fmt::Display for Tensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return f.write_str(&self.to_pretty_string(&Default::default()));
        }
        let shape: Vec<String> = self.shape().iter().map(ToString::to_string).collect();
        write!(
            f,
            "Tensor(shape=[{}], dtype={}, device={}, numel={}, data=",
            shape.join(", "),
            self.dtype(),
            self.device(),
            self.numel()
        )?;
        if self.device().is_cpu() {
            write!(f, "[{}])", self.data_strings().join(", "))
        } else {
            // A device tensor is synchronised and read back to print.
            match crate::backend::host(self) {
                Ok(host) => write!(f, "[{}])", host.data_strings().join(", ")),
                Err(e) => write!(f, "<unreadable on {}: {e}>)", self.device()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::format_g;

    #[test]
    fn matches_printf_g() {
        let cases = [
            (0.0, "0"),
            (1.0, "1"),
            (3.5, "3.5"),
            (108.0, "108"),
            (0.1, "0.1"),
            (1e-4, "0.0001"),
            (1e-5, "1e-05"),
            (123456.0, "123456"),
            (1234567.0, "1.23457e+06"),
            (1e100, "1e+100"),
            (-2.5e-7, "-2.5e-07"),
            (0.3333333333, "0.333333"),
            (999999.5, "1e+06"),
            (f64::INFINITY, "inf"),
            (f64::NAN, "nan"),
            (100.0f32 as f64 + 7.0, "107"),
        ];
        for (v, want) in cases {
            assert_eq!(format_g(v), want, "format_g({v})");
        }
    }
}
