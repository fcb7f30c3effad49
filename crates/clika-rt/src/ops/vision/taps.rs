//! The taps of a resized dim: for each output position, the input positions it reads and
//! their weights, by PyTorch's formulas for every `interpolate` mode.

use super::resize::{InterpolateMode, InterpolateOptions};

/// The taps of one resized dim: output position `j` reads input positions
/// `index[j * per..][..per]` with weights `weight[j * per..][..per]` (unused taps have weight
/// 0 and a valid index).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Taps {
    pub(crate) per: usize,
    pub(crate) index: Vec<usize>,
    pub(crate) weight: Vec<f64>,
}

impl Taps {
    /// The number of output positions.
    pub(crate) fn len(&self) -> usize {
        self.index.len() / self.per
    }

    /// Whether the taps copy the dim unchanged.
    pub(super) fn is_identity(&self, input: usize) -> bool {
        self.len() == input
            && (0..input).all(|j| {
                let r = j * self.per..(j + 1) * self.per;
                let taps = self.index[r.clone()].iter().zip(&self.weight[r]);
                let mut one = false;
                taps.into_iter().all(|(&i, &w)| {
                    one |= i == j && w == 1.0;
                    w == 0.0 || (i == j && w == 1.0)
                }) && one
            })
    }

    /// Builds taps from one list of `(index, weight)` per output position.
    fn from_lists(lists: Vec<Vec<(usize, f64)>>) -> Taps {
        let per = lists.iter().map(Vec::len).max().unwrap_or(1).max(1);
        let mut t = Taps {
            per,
            index: Vec::with_capacity(lists.len() * per),
            weight: Vec::with_capacity(lists.len() * per),
        };
        for l in lists {
            let first = l.first().map_or(0, |p| p.0);
            for k in 0..per {
                let (i, w) = l.get(k).copied().unwrap_or((first, 0.0));
                t.index.push(i);
                t.weight.push(w);
            }
        }
        t
    }
}

/// PyTorch's `area_pixel_compute_scale`: the input step per output step.
fn step(input: usize, output: usize, align_corners: bool, given: Option<f64>) -> f64 {
    if align_corners {
        if output > 1 {
            (input - 1) as f64 / (output - 1) as f64
        } else {
            0.0
        }
    } else {
        match given {
            Some(s) => 1.0 / s,
            None => input as f64 / output as f64,
        }
    }
}

/// PyTorch's `area_pixel_compute_source_index`: where output `j` samples the input.
fn source(step: f64, j: usize, align_corners: bool, cubic: bool) -> f64 {
    if align_corners {
        step * j as f64
    } else {
        let s = step * (j as f64 + 0.5) - 0.5;
        if !cubic && s < 0.0 {
            0.0
        } else {
            s
        }
    }
}

/// Keys' cubic convolution kernel with parameter `a`.
fn cubic(x: f64, a: f64) -> f64 {
    let x = x.abs();
    if x < 1.0 {
        ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
    } else if x < 2.0 {
        ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a
    } else {
        0.0
    }
}

/// The taps of one dim resized from `input` to `output` elements.
pub(super) fn taps(
    mode: InterpolateMode,
    input: usize,
    output: usize,
    opts: &InterpolateOptions,
    given: Option<f64>,
    shortcuts: bool,
) -> Taps {
    let align = opts.align_corners;
    let last = input - 1;
    if input == output && (mode == InterpolateMode::Linear || opts.antialias) {
        // PyTorch's CPU kernels copy a linear or antialiased dim that keeps its size, even
        // when a scale factor other than 1 was given.
        return Taps::from_lists((0..input).map(|i| vec![(i, 1.0)]).collect());
    }
    let lists = (0..output).map(|j| -> Vec<(usize, f64)> {
        match mode {
            InterpolateMode::Nearest | InterpolateMode::NearestExact => {
                // PyTorch computes these in `f32`; so do we, to pick the same elements.
                // PyTorch's 2-D nearest kernel (only) maps sizes that stay or double
                // directly, whatever the scale factor given.
                let exact = mode == InterpolateMode::NearestExact;
                let i = if shortcuts && !exact && output == input {
                    j
                } else if shortcuts && !exact && output == 2 * input {
                    j >> 1
                } else {
                    let s = match given {
                        Some(f) => (1.0 / f) as f32,
                        None => input as f32 / output as f32,
                    };
                    let at = if exact { j as f32 + 0.5 } else { j as f32 };
                    ((at * s).floor() as usize).min(last)
                };
                vec![(i, 1.0)]
            }
            InterpolateMode::Area => {
                let (lo, hi) = (j * input / output, ((j + 1) * input).div_ceil(output));
                let w = 1.0 / (hi - lo) as f64;
                (lo..hi).map(|i| (i, w)).collect()
            }
            _ if opts.antialias => {
                // PyTorch's antialiased kernel (`_compute_indices_min_size_weights_aa`): the
                // filter widened by the scale when shrinking, taps outside the input dropped
                // and the rest renormalised; bicubic uses PIL's `a = -0.5` here.
                let (half, a) = match mode {
                    InterpolateMode::Linear => (1.0, 0.0),
                    _ => (2.0, -0.5),
                };
                let filter = |x: f64| {
                    if mode == InterpolateMode::Linear {
                        (1.0 - x.abs()).max(0.0)
                    } else {
                        cubic(x, a)
                    }
                };
                let s = step(input, output, align, given);
                // Shrinking widens the filter by the scale; at most `most` taps.
                let (support, inv) = if s >= 1.0 {
                    (half * s, 1.0 / s)
                } else {
                    (half, 1.0)
                };
                let most = support.ceil() as i64 * 2 + 1;
                let center = s * (j as f64 + 0.5);
                // PyTorch truncates these towards zero.
                let lo = ((center - support + 0.5) as i64).max(0);
                let hi = ((center + support + 0.5) as i64).min(input as i64);
                let n = (hi - lo).clamp(0, most);
                let lo = lo.min(last as i64) as usize;
                let mut l: Vec<(usize, f64)> = (lo..lo + n as usize)
                    .map(|i| (i, filter((i as f64 - center + 0.5) * inv)))
                    .collect();
                let total: f64 = l.iter().map(|p| p.1).sum();
                if total != 0.0 {
                    l.iter_mut().for_each(|p| p.1 /= total);
                }
                if l.is_empty() {
                    l.push((lo, 0.0));
                }
                l
            }
            InterpolateMode::Linear => {
                let s = step(input, output, align, given);
                let real = source(s, j, align, false);
                let i0 = (real.floor() as usize).min(last);
                let lambda = (real - i0 as f64).clamp(0.0, 1.0);
                let i1 = if i0 < last { i0 + 1 } else { i0 };
                vec![(i0, 1.0 - lambda), (i1, lambda)]
            }
            InterpolateMode::Bicubic => {
                let s = step(input, output, align, given);
                let real = source(s, j, align, true);
                let i = (real.floor() as i64).min(last as i64);
                let t = (real - i as f64).clamp(0.0, 1.0);
                let w = [
                    cubic(t + 1.0, -0.75),
                    cubic(t, -0.75),
                    cubic(1.0 - t, -0.75),
                    cubic(2.0 - t, -0.75),
                ];
                (0..4)
                    .map(|k| ((i - 1 + k as i64).clamp(0, last as i64) as usize, w[k]))
                    .collect()
            }
        }
    });
    Taps::from_lists(lists.collect())
}
