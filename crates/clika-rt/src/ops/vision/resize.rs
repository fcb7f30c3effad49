//! `interpolate` (PyTorch's `torch.nn.functional.interpolate`). Every mode — nearest,
//! nearest-exact, linear (bilinear, trilinear), bicubic, area, with or without antialiasing —
//! is a separable filter: each output position of a resized dim reads a few input positions
//! of that dim with fixed weights. The plan computes those taps once per dim, here, for every
//! backend; a backend applies them one dim at a time (the dim that shrinks most first).

use super::taps::taps;
pub(crate) use super::taps::Taps;
use super::{run, VisionPlan};
use crate::{DType, Error, Result, Tensor};

/// How [`interpolate`] computes each output value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InterpolateMode {
    /// The input element at `floor(dst * scale)` (PyTorch's `"nearest"`).
    Nearest,
    /// The input element whose centre is nearest: `floor((dst + 0.5) * scale)` (PyTorch's
    /// `"nearest-exact"`, which matches scikit-image and PIL).
    NearestExact,
    /// Linear interpolation along every spatial dim (PyTorch's `"linear"`, `"bilinear"` and
    /// `"trilinear"` for one, two and three spatial dims).
    Linear,
    /// Cubic convolution (Keys, `a = -0.75`; `-0.5` with antialiasing, as PyTorch), edge
    /// elements repeated (PyTorch's `"bicubic"`).
    Bicubic,
    /// The mean of each output element's window (PyTorch's `"area"`, an adaptive average
    /// pooling).
    Area,
}

impl InterpolateMode {
    /// The mode PyTorch names `name`, and the number of spatial dims the name implies
    /// (`"bilinear"` → 2; `None` when any number goes).
    pub fn from_name(name: &str) -> Option<(InterpolateMode, Option<usize>)> {
        Some(match name {
            "nearest" => (InterpolateMode::Nearest, None),
            "nearest-exact" => (InterpolateMode::NearestExact, None),
            "linear" => (InterpolateMode::Linear, Some(1)),
            "bilinear" => (InterpolateMode::Linear, Some(2)),
            "trilinear" => (InterpolateMode::Linear, Some(3)),
            "bicubic" => (InterpolateMode::Bicubic, Some(2)),
            "area" => (InterpolateMode::Area, None),
            _ => return None,
        })
    }

    /// The mode PyTorch names `name`, checked against an input of `ndim` dims as PyTorch
    /// does (`"bilinear"` and `"bicubic"` need `[N, C, H, W]`, `"linear"` `[N, C, L]`,
    /// `"trilinear"` `[N, C, D, H, W]`); the error lists the names.
    pub fn for_input(name: &str, ndim: usize) -> Result<InterpolateMode> {
        let Some((mode, spatial)) = InterpolateMode::from_name(name) else {
            return Err(Error::InvalidArgument {
                what: format!(
                    "interpolate: unknown mode '{name}'; use 'nearest', 'nearest-exact', \
                     'linear', 'bilinear', 'bicubic', 'trilinear' or 'area'"
                ),
            });
        };
        match spatial {
            Some(s) if s + 2 != ndim => Err(Error::InvalidArgument {
                what: format!(
                    "interpolate: mode '{name}' needs a {}-D input, got {ndim}-D; use \
                     'linear', 'bilinear' or 'trilinear' for 3-, 4- or 5-D inputs",
                    s + 2
                ),
            }),
            _ => Ok(mode),
        }
    }

    /// The mode's name (`"linear"` for every linear form).
    pub fn name(self) -> &'static str {
        match self {
            InterpolateMode::Nearest => "nearest",
            InterpolateMode::NearestExact => "nearest-exact",
            InterpolateMode::Linear => "linear",
            InterpolateMode::Bicubic => "bicubic",
            InterpolateMode::Area => "area",
        }
    }

    /// Whether `align_corners` and `antialias` apply (the interpolating modes).
    fn interpolates(self) -> bool {
        matches!(self, InterpolateMode::Linear | InterpolateMode::Bicubic)
    }
}

/// The options of [`interpolate`]: exactly one of `size` and `scale_factor` is given, with
/// one value for every spatial dim or one per dim.
#[derive(Clone, Debug, PartialEq)]
pub struct InterpolateOptions {
    /// The output's spatial size.
    pub size: Vec<usize>,
    /// The output's spatial size as a multiple of the input's (rounded down).
    pub scale_factor: Vec<f64>,
    /// How output values are computed.
    pub mode: InterpolateMode,
    /// Linear and bicubic: the corner elements' centres line up (source `= dst * (in - 1) /
    /// (out - 1)`) rather than the corners' edges. Refused for the other modes.
    pub align_corners: bool,
    /// Linear and bicubic: when shrinking, widen the filter by the scale so every input
    /// element contributes (PyTorch's and PIL's antialiasing). Refused for the other modes.
    pub antialias: bool,
    /// With `scale_factor`: compute the taps from the sizes (`in / out`) instead of from the
    /// factor given (PyTorch's `recompute_scale_factor`).
    pub recompute_scale_factor: bool,
}

impl InterpolateOptions {
    /// Resizes to `size` (one value for all spatial dims or one per dim) in `mode`.
    pub fn size(size: &[usize], mode: InterpolateMode) -> InterpolateOptions {
        InterpolateOptions {
            size: size.to_vec(),
            scale_factor: Vec::new(),
            mode,
            align_corners: false,
            antialias: false,
            recompute_scale_factor: false,
        }
    }

    /// Resizes by `factor` (one value for all spatial dims or one per dim) in `mode`.
    pub fn scale(factor: &[f64], mode: InterpolateMode) -> InterpolateOptions {
        InterpolateOptions {
            scale_factor: factor.to_vec(),
            ..InterpolateOptions::size(&[], mode)
        }
    }
}

/// How much more a tap costs when a pass gathers it element by element than when it adds a
/// whole contiguous row of taps in vector lanes.
const GATHER_COST: usize = 8;

/// Fewer elements than this after a dim in memory and its pass gathers (about one vector).
const SHORT_RUN: usize = 16;

/// `passes` (at most three) in the order of least work. A pass reads its output's elements
/// times its taps; one over a dim with under a vector of elements after it in memory (the
/// innermost spatial dim, or one followed only by a channels-last image's channels) gathers
/// each output's taps element by element instead of summing contiguous rows in vector lanes,
/// and costs [`GATHER_COST`] times as much per tap. Shrinking the innermost dim of a frame
/// first is the most elements but the fewest taps: a 1080x1920 frame to 224x224 with
/// antialiasing reads 3x fewer taps the other way round (ties keep the given order).
fn cheapest_order(x: &Tensor, passes: Vec<(usize, Taps)>) -> Vec<(usize, Taps)> {
    let n = passes.len();
    if n < 2 {
        return passes;
    }
    let mut memory: Vec<usize> = (0..x.ndim()).collect();
    memory.sort_by_key(|&d| std::cmp::Reverse(x.strides()[d].unsigned_abs()));
    let cost = |perm: &[usize]| {
        let mut shape = x.shape().to_vec();
        let mut total = 0usize;
        for &p in perm {
            let (dim, taps) = (passes[p].0, &passes[p].1);
            shape[dim] = taps.len();
            let after: usize = memory
                .iter()
                .skip_while(|&&d| d != dim)
                .skip(1)
                .map(|&d| shape[d])
                .product();
            let per_tap = if after < SHORT_RUN { GATHER_COST } else { 1 };
            let reads = shape.iter().product::<usize>().saturating_mul(taps.per);
            total = total.saturating_add(reads.saturating_mul(per_tap));
        }
        total
    };
    // Every order (Heap's algorithm), keeping the first of the cheapest.
    let mut perm: Vec<usize> = (0..n).collect();
    let (mut best, mut best_cost) = (perm.clone(), cost(&perm));
    let mut c = vec![0usize; n];
    let mut i = 1;
    while i < n {
        if c[i] < i {
            perm.swap(if i % 2 == 0 { 0 } else { c[i] }, i);
            let k = cost(&perm);
            if k < best_cost {
                (best, best_cost) = (perm.clone(), k);
            }
            c[i] += 1;
            i = 1;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    let mut slots: Vec<Option<(usize, Taps)>> = passes.into_iter().map(Some).collect();
    best.iter().filter_map(|&p| slots[p].take()).collect()
}

/// An interpolation planned for every backend: `passes` resize one dim each, in order.
pub(crate) struct ResizePlan {
    /// The input, `[N, C, spatial..]`.
    pub(crate) x: Tensor,
    /// `(dim, taps)` per resized dim, in the order of least work ([`cheapest_order`]); empty
    /// when every dim keeps its size and values.
    pub(crate) passes: Vec<(usize, Taps)>,
    /// The result's shape.
    pub(crate) out_shape: Vec<usize>,
}

#[cfg(any(feature = "gpu", feature = "cuda"))]
impl ResizePlan {
    /// Whether every pass only picks elements (one tap of weight 1: the nearest modes), which
    /// moves elements unchanged in any dtype.
    pub(crate) fn nearest(&self) -> bool {
        self.passes
            .iter()
            .all(|(_, t)| t.per == 1 && t.weight.iter().all(|&w| w == 1.0))
    }

    /// Runs the passes on an accelerator: `pass(x, dim, taps, od, nearest)` resizes one dim
    /// into a fresh tensor of `od` — `Float32` between passes of the weighted modes, the
    /// input's dtype for the last one and for the nearest modes. `fits(nearest)` says
    /// whether the backend takes the input's dtype; otherwise the call is refused.
    pub(crate) fn run_passes(
        &self,
        fits: impl Fn(bool) -> bool,
        mut pass: impl FnMut(&Tensor, usize, &Taps, DType, bool) -> Result<Tensor>,
    ) -> Result<Tensor> {
        let dtype = self.x.dtype();
        if self.passes.is_empty() {
            return self.x.contiguous_copy();
        }
        let nearest = self.nearest();
        if !fits(nearest) {
            return Err(crate::backend::unsupported(
                "interpolate",
                self.x.device(),
                format!("{dtype} inputs"),
            ));
        }
        let mut cur = self.x.clone();
        for (k, (dim, taps)) in self.passes.iter().enumerate() {
            let od = if nearest || k + 1 == self.passes.len() {
                dtype
            } else {
                DType::Float32
            };
            cur = pass(&cur, *dim, taps, od, nearest)?;
        }
        debug_assert_eq!(cur.shape(), &self.out_shape[..]);
        Ok(cur)
    }
}

/// One accelerator pass's geometry: `x` permuted into memory order, the resized dim in that
/// order, the output's shape in that order (the dim resized to `outputs`), and the
/// permutation back. A pass that writes the permuted output contiguously and permutes it back
/// keeps `x`'s memory order (a channels-last input stays channels-last), as the CPU does.
#[cfg(any(feature = "gpu", feature = "cuda"))]
pub(crate) fn pass_in_memory_order(
    x: &Tensor,
    dim: usize,
    outputs: usize,
) -> Result<(Tensor, usize, Vec<usize>, crate::layout::DimVec<isize>)> {
    let (perm, inverse) = crate::layout::memory_order_perms(x.shape(), x.strides());
    let x = x.permute(&perm)?;
    let dim = inverse[dim] as usize;
    let mut shape = x.shape().to_vec();
    shape[dim] = outputs;
    Ok((x, dim, shape, inverse))
}

/// Resizes the spatial dims of `x` (`[N, C, L]`, `[N, C, H, W]` or `[N, C, D, H, W]`) as
/// PyTorch's `interpolate` does, with the same options and results (within float rounding).
/// Float inputs keep their dtype; `UInt8` (images) computes in `f32` and rounds back,
/// saturating; the nearest modes move elements of any dtype as they are. The result keeps the input's memory order (a channels-last input gives a
/// channels-last result), and a strided input is read in place.
pub fn interpolate(x: &Tensor, opts: &InterpolateOptions) -> Result<Tensor> {
    let op = "interpolate";
    let bad = |what: String| Error::InvalidArgument {
        what: format!("{op}: {what}"),
    };
    let nd = x.ndim();
    if !(3..=5).contains(&nd) {
        return Err(bad(format!(
            "the input must be [N, C, L], [N, C, H, W] or [N, C, D, H, W], got shape {:?}; \
             add the batch dim with unsqueeze(0)",
            x.shape()
        )));
    }
    let d = x.dtype();
    let mode = opts.mode;
    let nearest = matches!(
        mode,
        InterpolateMode::Nearest | InterpolateMode::NearestExact
    );
    if !(d.is_float() || d == DType::UInt8 || nearest) {
        return Err(bad(format!(
            "{} of a {d} input is not supported (floats and UInt8 are; the nearest modes take \
             every dtype); convert with .to_dtype(Float32) first",
            mode.name()
        )));
    }
    if !mode.interpolates() && (opts.align_corners || opts.antialias) {
        return Err(bad(format!(
            "align_corners and antialias apply to the linear and bicubic modes only, not {}",
            mode.name()
        )));
    }
    let spatial = nd - 2;
    let in_sizes = &x.shape()[2..];
    let (out_sizes, given): (Vec<usize>, Vec<Option<f64>>) =
        match (opts.size.is_empty(), opts.scale_factor.is_empty()) {
            (false, true) => (
                per_dim_list(&opts.size, spatial).ok_or_else(|| {
                    bad(format!(
                        "size has {} values; give 1 or {spatial} (one per spatial dim)",
                        opts.size.len()
                    ))
                })?,
                vec![None; spatial],
            ),
            (true, false) => {
                let f = per_dim_list(&opts.scale_factor, spatial).ok_or_else(|| {
                    bad(format!(
                        "scale_factor has {} values; give 1 or {spatial} (one per spatial dim)",
                        opts.scale_factor.len()
                    ))
                })?;
                if let Some(s) = f.iter().find(|s| !(s.is_finite() && **s > 0.0)) {
                    return Err(bad(format!(
                        "scale_factor must be positive and finite, got {s}"
                    )));
                }
                let sizes = in_sizes
                    .iter()
                    .zip(&f)
                    .map(|(&i, &s)| (i as f64 * s).floor() as usize)
                    .collect();
                let keep = !opts.recompute_scale_factor && mode != InterpolateMode::Area;
                (sizes, f.iter().map(|&s| keep.then_some(s)).collect())
            }
            _ => return Err(bad("give exactly one of size and scale_factor".to_string())),
        };
    if in_sizes.contains(&0) || out_sizes.contains(&0) {
        return Err(bad(format!(
            "input and output spatial sizes must be positive, got input {in_sizes:?} and \
             output {out_sizes:?}"
        )));
    }
    let mut out_shape = x.shape().to_vec();
    out_shape[2..].copy_from_slice(&out_sizes);
    let mut passes: Vec<(usize, Taps)> = (0..spatial)
        .map(|s| {
            let t = taps(
                mode,
                in_sizes[s],
                out_sizes[s],
                opts,
                given[s],
                spatial == 2,
            );
            (s + 2, t)
        })
        .filter(|(dim, t)| !t.is_identity(x.shape()[*dim]))
        .collect();
    // Shrink first: later passes then touch fewer elements; then the cheapest order.
    passes.sort_by(|a, b| {
        let r = |(dim, t): &(usize, Taps)| t.len() as f64 / x.shape()[*dim] as f64;
        r(a).total_cmp(&r(b))
    });
    let plan = ResizePlan {
        x: x.clone(),
        passes: cheapest_order(x, passes),
        out_shape,
    };
    run(&VisionPlan::Resize(Box::new(plan)))
}

/// `v` expanded to `n` values (one given for all, or `n`).
fn per_dim_list<T: Copy>(v: &[T], n: usize) -> Option<Vec<T>> {
    match v.len() {
        1 => Some(vec![v[0]; n]),
        l if l == n => Some(v.to_vec()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(mode: InterpolateMode) -> InterpolateOptions {
        InterpolateOptions::size(&[1], mode)
    }

    #[test]
    fn linear_taps_match_pytorch_formulas() {
        // 4 → 8, half-pixel centres: output 0 clamps to input 0, output 1 is 0.75·x0 + 0.25·x1.
        let t = taps(
            InterpolateMode::Linear,
            4,
            8,
            &opts(InterpolateMode::Linear),
            None,
            true,
        );
        assert_eq!((t.per, t.len()), (2, 8));
        assert_eq!(&t.index[..4], &[0, 1, 0, 1]);
        assert_eq!(&t.weight[..4], &[1.0, 0.0, 0.75, 0.25]);
        assert_eq!(&t.index[14..], &[3, 3]);
    }

    #[test]
    fn identity_dims_are_skipped() {
        for mode in [
            InterpolateMode::Nearest,
            InterpolateMode::Linear,
            InterpolateMode::Bicubic,
            InterpolateMode::Area,
        ] {
            assert!(
                taps(mode, 5, 5, &opts(mode), None, true).is_identity(5),
                "{mode:?}"
            );
        }
        assert!(!taps(
            InterpolateMode::Nearest,
            5,
            6,
            &opts(InterpolateMode::Nearest),
            None,
            true
        )
        .is_identity(5));
    }

    #[test]
    fn antialias_weights_sum_to_one() {
        let mut o = opts(InterpolateMode::Bicubic);
        o.antialias = true;
        let t = taps(InterpolateMode::Bicubic, 100, 7, &o, None, true);
        for j in 0..7 {
            let s: f64 = t.weight[j * t.per..][..t.per].iter().sum();
            assert!((s - 1.0).abs() < 1e-12, "{s}");
        }
        assert!(t.per >= 4 * 100 / 7);
    }

    #[test]
    fn passes_run_in_the_order_of_least_work() {
        let plan = |x: &Tensor, h: usize, w: usize, antialias: bool| {
            let mut o = opts(InterpolateMode::Linear);
            o.antialias = antialias;
            let t = |d: usize, n| taps(InterpolateMode::Linear, x.shape()[d], n, &o, None, true);
            let p = [(2, t(2, h)), (3, t(3, w))];
            cheapest_order(x, p.into_iter().collect())
                .iter()
                .map(|(d, _)| *d)
                .collect::<Vec<_>>()
        };
        // A 1080x1920 frame to 224x224: width shrinks more, but its pass gathers (width is
        // innermost in NCHW, followed only by 3 channels when channels-last), so the height
        // pass, which sums whole rows, goes first and leaves the gathers 224 rows, not 1080.
        let nchw = Tensor::zeros(&[1, 3, 1080, 1920], DType::UInt8).unwrap();
        let hwc = Tensor::zeros(&[1, 1080, 1920, 3], DType::UInt8)
            .unwrap()
            .permute(&[0, 3, 1, 2])
            .unwrap();
        assert_eq!(plan(&nchw, 224, 224, true), [2, 3]);
        assert_eq!(plan(&hwc, 224, 224, true), [2, 3]);
        // 4000x64 to 2000x1 with two taps each: the width pass first (4000 two-tap gathers)
        // beats the height pass first (2000 rows of 64 to sum before 2000 gathers).
        let tall = Tensor::zeros(&[1, 1, 4000, 64], DType::Float32).unwrap();
        assert_eq!(plan(&tall, 2000, 1, false), [3, 2]);
        // 64x64 to 32x48: halving the rows first leaves the gathers half the rows.
        let square = Tensor::zeros(&[1, 1, 64, 64], DType::Float32).unwrap();
        assert_eq!(plan(&square, 32, 48, false), [2, 3]);
    }

    #[test]
    fn area_windows_are_adaptive_pooling() {
        let t = taps(
            InterpolateMode::Area,
            5,
            3,
            &opts(InterpolateMode::Area),
            None,
            true,
        );
        // PyTorch's windows [0, 2), [1, 4), [3, 5).
        assert_eq!(t.per, 3);
        assert_eq!(&t.index[..2], &[0, 1]);
        assert_eq!(&t.index[3..6], &[1, 2, 3]);
        assert_eq!(&t.index[6..8], &[3, 4]);
    }
}
