//! Multi-line printing, nested and summarised like numpy's and PyTorch's: `format!("{t:#}")`
//! or [`Tensor::to_pretty_string`] with [`PrintOptions`]. The one-line `Display` form
//! (`{}`, `to_string()`) is unchanged: the specification's programs print it.
//!
//! ```
//! use clika_rt::Tensor;
//! let t = Tensor::try_from([[1.5f32, 2.0, -3.25], [4.0, 5.0, 6.0]])?;
//! assert_eq!(
//!     format!("{t:#}"),
//!     "Tensor([[ 1.5 ,  2.  , -3.25],\n        [ 4.  ,  5.  ,  6.  ]], dtype=Float32, device=CPU)"
//! );
//! # Ok::<(), clika_rt::Error>(())
//! ```

use std::fmt::Write as _;

use super::Tensor;
use crate::dtype::Element;
use crate::DType;

/// How [`Tensor::to_pretty_string`] prints (numpy's `set_printoptions` names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PrintOptions {
    /// Digits after the decimal point for floats (default 4).
    pub precision: usize,
    /// Tensors with more elements than this are summarised with `...` (default 1000).
    pub threshold: usize,
    /// Items printed at each end of a summarised dimension (default 3).
    pub edgeitems: usize,
}

impl Default for PrintOptions {
    fn default() -> Self {
        PrintOptions {
            precision: 4,
            threshold: 1000,
            edgeitems: 3,
        }
    }
}

/// The indices shown along one dimension: `None` marks the `...` of a summarised dimension.
fn shown(n: usize, summarise: bool, edge: usize) -> Vec<Option<usize>> {
    if summarise && n > 2 * edge {
        (0..edge)
            .map(Some)
            .chain(std::iter::once(None))
            .chain((n - edge..n).map(Some))
            .collect()
    } else {
        (0..n).map(Some).collect()
    }
}

enum Values {
    Float(Vec<f64>),
    Int(Vec<i128>),
    Bool(Vec<bool>),
}

/// Trims a fixed-point number's trailing zeros, keeping the point (`2.500` → `2.5`, `2.000` →
/// `2.`), as numpy does.
fn trim(s: String) -> String {
    if s.contains('.') && !s.contains('e') {
        let t = s.trim_end_matches('0');
        t.to_string()
    } else {
        s
    }
}

fn float_strings(v: &[f64], precision: usize) -> Vec<String> {
    let finite: Vec<f64> = v.iter().copied().filter(|x| x.is_finite()).collect();
    let max = finite.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let min_nonzero = finite
        .iter()
        .filter(|x| **x != 0.0)
        .fold(f64::INFINITY, |m, x| m.min(x.abs()));
    let sci = max >= 1e8 || (min_nonzero.is_finite() && min_nonzero < 1e-4);
    let fmt = |x: f64| -> String {
        if x.is_nan() {
            "nan".to_string()
        } else if x.is_infinite() {
            if x > 0.0 { "inf" } else { "-inf" }.to_string()
        } else if sci {
            format!("{x:.precision$e}")
        } else {
            trim(format!("{x:.precision$}"))
        }
    };
    let strs: Vec<String> = v.iter().map(|&x| fmt(x)).collect();
    if sci {
        return strs;
    }
    // Pad the fractional parts to one width so the points line up (numpy's "unique" mode).
    let frac = strs
        .iter()
        .filter_map(|s| s.split_once('.').map(|(_, f)| f.len()))
        .max()
        .unwrap_or(0);
    strs.into_iter()
        .map(|s| match s.split_once('.') {
            Some((_, f)) => {
                let pad = frac - f.len();
                s + &" ".repeat(pad)
            }
            None => s,
        })
        .collect()
}

impl Tensor {
    /// The tensor printed over several lines, nested by dimension and summarised past
    /// `options.threshold` elements; `format!("{t:#}")` is this with the default options.
    /// A device tensor is read back first.
    pub fn to_pretty_string(&self, options: &PrintOptions) -> String {
        let host = match self.to(crate::Device::cpu()) {
            Ok(h) => h,
            Err(e) => return format!("Tensor(<unreadable on {}: {e}>)", self.device()),
        };
        let summarise = host.numel() > options.threshold;
        let dims: Vec<Vec<Option<usize>>> = host
            .shape()
            .iter()
            .map(|&n| shown(n, summarise, options.edgeitems))
            .collect();
        let offsets = host.shown_offsets(&dims);
        let values = crate::dispatch_dtype!(host.dtype(), T => {
            // SAFETY: every offset comes from in-range indices, so it is reachable, in
            // bounds by L3; host memory of dtype `T`.
            let read = |o: &usize| unsafe { host.load::<T>(*o) };
            match T::DTYPE {
                DType::Bool => Values::Bool(offsets.iter().map(|o| read(o).to_i64() != 0).collect()),
                d if d.is_float() => Values::Float(offsets.iter().map(|o| read(o).to_f64()).collect()),
                _ => Values::Int(offsets.iter().map(|o| crate::dtype::int_value(read(o))).collect()),
            }
        });
        let strs: Vec<String> = match values {
            Values::Float(v) => float_strings(&v, options.precision),
            Values::Int(v) => v.iter().map(ToString::to_string).collect(),
            Values::Bool(v) => v.iter().map(ToString::to_string).collect(),
        };
        let width = strs.iter().map(String::len).max().unwrap_or(0);
        let prefix = "Tensor(";
        let mut out = String::from(prefix);
        if host.numel() == 0 {
            let _ = write!(out, "[], shape={:?}", host.shape());
        } else {
            let mut items = strs.iter();
            nest(&mut out, &dims, 0, prefix.len(), width, &mut items);
        }
        let _ = write!(out, ", dtype={}, device={})", host.dtype(), self.device());
        out
    }

    /// Absolute offsets of the shown elements, row-major.
    fn shown_offsets(&self, dims: &[Vec<Option<usize>>]) -> Vec<usize> {
        let mut out = Vec::new();
        fn walk(
            t: &Tensor,
            dims: &[Vec<Option<usize>>],
            d: usize,
            base: isize,
            out: &mut Vec<usize>,
        ) {
            if d == dims.len() {
                out.push(base as usize);
                return;
            }
            for i in dims[d].iter().flatten() {
                walk(t, dims, d + 1, base + *i as isize * t.strides()[d], out);
            }
        }
        walk(self, dims, 0, self.storage_offset() as isize, &mut out);
        out
    }
}

/// Writes dimension `d` (and below) of the shown elements.
fn nest<'a>(
    out: &mut String,
    dims: &[Vec<Option<usize>>],
    d: usize,
    indent: usize,
    width: usize,
    items: &mut impl Iterator<Item = &'a String>,
) {
    if d == dims.len() {
        let s = items.next().map_or("", String::as_str);
        let _ = write!(out, "{s:>width$}");
        return;
    }
    out.push('[');
    let last = d + 1 == dims.len();
    let sep = if last {
        ", ".to_string()
    } else {
        let blank = "\n".repeat(dims.len() - d - 1);
        format!(",{blank}{}", " ".repeat(indent + d + 1))
    };
    for (k, i) in dims[d].iter().enumerate() {
        if k > 0 {
            out.push_str(&sep);
        }
        match i {
            Some(_) => nest(out, dims, d + 1, indent, width, items),
            None => out.push_str("..."),
        }
    }
    out.push(']');
}
