//! Random tensors from a seedable, counter-based [`Generator`]: `rand`, `randn`, `randint`,
//! `normal`, `uniform`, `bernoulli`.
//!
//! The bits come from Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random
//! numbers: as easy as 1, 2, 3", SC 2011), a counter-based generator: block `j` of the
//! `c`-th call after seeding is a pure function of `(seed, c, j)` — the key is the seed, the
//! counter is `(j, c)` — and its 128 bits make elements `2j` and `2j + 1`. So results do not
//! depend on the thread count or on how the work is split, and every call advances the
//! generator by one.
//! Values are generated on the host and moved to the requested device.

use std::sync::{Mutex, OnceLock};

use super::Tensor;
use crate::backend::random;
use crate::{DType, Device, Element, Error, Result};

const MUL0: u32 = 0xD251_1F53;
const MUL1: u32 = 0xCD9E_8D57;
const WEYL0: u32 = 0x9E37_79B9;
const WEYL1: u32 = 0xBB67_AE85;

/// Philox4x32 with 10 rounds: four 32-bit words for counter `ctr` under `key`.
pub fn philox4x32_10(ctr: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let (mut c, mut k) = (ctr, key);
    for _ in 0..10 {
        let p0 = u64::from(MUL0) * u64::from(c[0]);
        let p1 = u64::from(MUL1) * u64::from(c[2]);
        c = [
            (p1 >> 32) as u32 ^ c[1] ^ k[0],
            p1 as u32,
            (p0 >> 32) as u32 ^ c[3] ^ k[1],
            p0 as u32,
        ];
        k = [k[0].wrapping_add(WEYL0), k[1].wrapping_add(WEYL1)];
    }
    c
}

/// [`philox4x32_10`] of the counters `(first + l, call)` for the [`random::BLOCKS`] lanes
/// `l`, word-major: each round is one 32×32→64-bit product per word pair and lane, which the
/// SIMD dispatch this is inlined into turns into vector multiplies.
#[inline(always)]
fn philox_lanes(first: u64, call: u64, key: [u32; 2]) -> random::Words {
    let mut c = [[0u32; random::BLOCKS]; 4];
    for (l, j) in (first..).take(random::BLOCKS).enumerate() {
        c[0][l] = j as u32;
        c[1][l] = (j >> 32) as u32;
    }
    c[2] = [call as u32; random::BLOCKS];
    c[3] = [(call >> 32) as u32; random::BLOCKS];
    let mut k = key;
    for _ in 0..10 {
        let [c0, c1, c2, c3] = &mut c;
        for l in 0..random::BLOCKS {
            let p0 = u64::from(MUL0) * u64::from(c0[l]);
            let p1 = u64::from(MUL1) * u64::from(c2[l]);
            (c0[l], c1[l], c2[l], c3[l]) = (
                (p1 >> 32) as u32 ^ c1[l] ^ k[0],
                p1 as u32,
                (p0 >> 32) as u32 ^ c3[l] ^ k[1],
                p0 as u32,
            );
        }
        k = [k[0].wrapping_add(WEYL0), k[1].wrapping_add(WEYL1)];
    }
    c
}

/// Group `g`'s Philox blocks of one call.
#[derive(Clone, Copy)]
struct Philox {
    first: u64,
    call: u64,
    key: [u32; 2],
}

impl Philox {
    fn group(g: usize, call: u64, key: [u32; 2]) -> Philox {
        Philox {
            first: (g * random::BLOCKS) as u64,
            call,
            key,
        }
    }
}

impl random::Draw for Philox {
    #[inline(always)]
    fn draw(&self) -> random::Words {
        philox_lanes(self.first, self.call, self.key)
    }
}

/// PyTorch's default seed, used until a generator is seeded.
pub const DEFAULT_SEED: u64 = 67_280_421_310_721;

/// A seedable source of random tensors: a seed and the number of calls made since seeding.
#[derive(Debug)]
pub struct Generator {
    state: Mutex<(u64, u64)>,
}

impl Default for Generator {
    fn default() -> Self {
        Generator::new(DEFAULT_SEED)
    }
}

impl Generator {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Generator {
        Generator {
            state: Mutex::new((seed, 0)),
        }
    }

    /// Reseeds: the next calls repeat the sequence of a fresh `Generator::new(seed)`.
    pub fn manual_seed(&self, seed: u64) {
        *self.lock() = (seed, 0);
    }

    /// The seed last set.
    pub fn initial_seed(&self) -> u64 {
        self.lock().0
    }

    /// How many calls were made since seeding (the counter's high half of the next call).
    pub fn offset(&self) -> u64 {
        self.lock().1
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (u64, u64)> {
        // The state is two integers: a panic elsewhere cannot leave it half-written.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The (seed, call) pair of the next call, advancing the generator.
    fn next_call(&self) -> (u64, u64) {
        let mut s = self.lock();
        let r = *s;
        s.1 = s.1.wrapping_add(1);
        r
    }

    /// Writes `n` values to `dst`: elements `2j` and `2j + 1` are `f(words)` of the `j`-th
    /// Philox block of this call (128 random bits make two values). Blocks are drawn
    /// [`random::BLOCKS`] at a time as lanes inside the SIMD dispatch.
    ///
    /// # Safety
    /// `dst` must be valid for writes of `n` elements of `T`, aligned, and not aliased.
    unsafe fn fill<T: Copy + Default + Send>(
        &self,
        dst: *mut T,
        n: usize,
        f: impl Fn([u32; 4]) -> [T; 2] + Sync,
    ) {
        let (seed, call) = self.next_call();
        let key = [seed as u32, (seed >> 32) as u32];
        let arch = pulp::Arch::new();
        let group = |g: usize| random::map_group(arch, Philox::group(g, call, key), &f);
        // SAFETY: forwarded from this function's contract.
        unsafe { super::create::write_groups::<T, { random::GROUP }>(dst, n, group) }
    }

    /// Element pairs `f(words)` converted to `dtype`, in a tensor of `shape` on `device`.
    fn tensor(
        &self,
        shape: &[usize],
        dtype: DType,
        device: Device,
        f: impl Fn([u32; 4]) -> [f64; 2] + Sync,
    ) -> Result<Tensor> {
        checked_numel(shape)?;
        let t = Tensor::empty(shape, dtype)?;
        crate::dispatch_dtype!(dtype, T => {
            let p = t.data_ptr().cast::<T>();
            // SAFETY: `t` is a fresh, exclusively held, contiguous allocation of `numel`
            // elements of `T`.
            unsafe { self.fill(p, t.numel(), |w| f(w).map(T::from_f64)) };
        });
        t.to(device)
    }

    /// Uniform values in `[low, high)` (as the dtype rounds them): `low + (high - low) * u`
    /// with `u` carrying as many random bits as the dtype's significand.
    pub fn uniform(
        &self,
        shape: &[usize],
        low: f64,
        high: f64,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor> {
        float_only("uniform", dtype)?;
        if !low.is_finite() || !high.is_finite() || low > high {
            return Err(Error::InvalidArgument {
                what: format!("uniform: need finite low <= high, got low={low}, high={high}"),
            });
        }
        let bits = match dtype {
            DType::Float16 => 11,
            DType::BFloat16 => 8,
            DType::Float32 => 24,
            _ => 53,
        };
        self.tensor(shape, dtype, device, |w| {
            units(w, bits).map(|u| low + (high - low) * u)
        })
    }

    /// Uniform values in `[0, 1)` (PyTorch's `rand`).
    pub fn rand(&self, shape: &[usize], dtype: DType, device: Device) -> Result<Tensor> {
        self.uniform(shape, 0.0, 1.0, dtype, device)
    }

    /// Normally distributed values with `mean` and standard deviation `std` (Box–Muller
    /// over pairs of uniforms with the lane type's significand bits, 24 for `f32` and the
    /// half types and 53 for `f64`; each pair gives two values).
    pub fn normal(
        &self,
        shape: &[usize],
        mean: f64,
        std: f64,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor> {
        float_only("normal", dtype)?;
        if std.is_nan() || std < 0.0 || !std.is_finite() || !mean.is_finite() {
            return Err(Error::InvalidArgument {
                what: format!(
                    "normal: need a finite mean and std >= 0, got mean={mean}, std={std}"
                ),
            });
        }
        checked_numel(shape)?;
        let t = Tensor::empty(shape, dtype)?;
        match dtype {
            DType::Float32 => self.normal_into::<f32>(&t, mean, std),
            DType::Float64 => self.normal_into::<f64>(&t, mean, std),
            DType::Float16 => self.normal_into::<half::f16>(&t, mean, std),
            _ => self.normal_into::<half::bf16>(&t, mean, std),
        }
        t.to(device)
    }

    /// Fills the fresh contiguous host tensor `t` of `E` with normal values: Philox block
    /// `j` gives the pair of uniforms of elements `2j` and `2j + 1`, and groups of
    /// [`random::GROUP`] run Box–Muller as lane kernels.
    fn normal_into<E: random::LaneElem>(&self, t: &Tensor, mean: f64, std: f64)
    where
        E::L: random::Unit,
    {
        let (seed, call) = self.next_call();
        let key = [seed as u32, (seed >> 32) as u32];
        let arch = pulp::Arch::new();
        let group =
            |g: usize| random::normal_group::<E>(arch, Philox::group(g, call, key), mean, std);
        // SAFETY: `t` is a fresh, exclusively held, contiguous allocation of `numel`
        // elements of `E`.
        unsafe { super::create::write_groups(t.data_ptr().cast::<E>(), t.numel(), group) }
    }

    /// Standard normal values (PyTorch's `randn`).
    pub fn randn(&self, shape: &[usize], dtype: DType, device: Device) -> Result<Tensor> {
        self.normal(shape, 0.0, 1.0, dtype, device)
    }

    /// Integers uniform in `[low, high)`, in `dtype` (PyTorch's `randint`).
    pub fn randint(
        &self,
        low: i64,
        high: i64,
        shape: &[usize],
        dtype: DType,
        device: Device,
    ) -> Result<Tensor> {
        if low >= high {
            return Err(Error::InvalidArgument {
                what: format!("randint: need low < high, got low={low}, high={high}"),
            });
        }
        let range = high.wrapping_sub(low) as u64;
        checked_numel(shape)?;
        // Lemire's multiply-shift maps 64 random bits onto the range.
        let draw =
            move |x: u64| low.wrapping_add(((u128::from(x) * u128::from(range)) >> 64) as i64);
        let t = Tensor::empty(shape, dtype)?;
        crate::dispatch_dtype!(dtype, T => {
            let p = t.data_ptr().cast::<T>();
            // SAFETY: `t` is a fresh, exclusively held, contiguous allocation of `numel`
            // elements of `T`.
            unsafe { self.fill(p, t.numel(), |w| words64(w).map(|x| T::from_i64(draw(x)))) };
        });
        t.to(device)
    }

    /// Ones with probability `p[i]` and zeros otherwise, shaped and typed like `p` (values
    /// in `[0, 1]`; PyTorch's `bernoulli(input)`).
    pub fn bernoulli(&self, p: &Tensor) -> Result<Tensor> {
        let probs = crate::backend::host(p)?.to_f64_vec()?;
        if let Some(bad) = probs.iter().find(|q| !(0.0..=1.0).contains(*q)) {
            return Err(Error::InvalidArgument {
                what: format!("bernoulli: probabilities must lie in [0, 1], found {bad}"),
            });
        }
        let mut draws = vec![0.0; probs.len()];
        // SAFETY: `draws` holds `probs.len()` elements and nothing else refers to it.
        unsafe { self.fill(draws.as_mut_ptr(), probs.len(), |w| units(w, 53)) };
        let dtype = p.dtype();
        let t = crate::dispatch_dtype!(dtype, T => {
            let v: Vec<T> = draws
                .iter()
                .zip(&probs)
                .map(|(&u, &q)| T::from_f64(f64::from(u8::from(u < q))))
                .collect();
            Tensor::from_vec(v, p.shape())?
        });
        t.to(p.device())
    }

    /// Ones with probability `p` and zeros otherwise, of `shape` and `dtype`.
    pub fn bernoulli_p(
        &self,
        shape: &[usize],
        p: f64,
        dtype: DType,
        device: Device,
    ) -> Result<Tensor> {
        if !(0.0..=1.0).contains(&p) {
            return Err(Error::InvalidArgument {
                what: format!("bernoulli: p must lie in [0, 1], got {p}"),
            });
        }
        self.tensor(shape, dtype, device, |w| {
            units(w, 53).map(|u| f64::from(u8::from(u < p)))
        })
    }
}

/// A Philox block as two 64-bit words.
fn words64(w: [u32; 4]) -> [u64; 2] {
    [
        (u64::from(w[0]) << 32) | u64::from(w[1]),
        (u64::from(w[2]) << 32) | u64::from(w[3]),
    ]
}

/// Two uniform values in `[0, 1)` with `bits` (≤ 53) random bits each, from a Philox block.
fn units(w: [u32; 4], bits: u32) -> [f64; 2] {
    let scale = (-f64::from(bits)).exp2();
    words64(w).map(|x| (x >> (64 - bits)) as f64 * scale)
}

fn float_only(op: &str, dtype: DType) -> Result<()> {
    if dtype.is_float() {
        Ok(())
    } else {
        Err(Error::InvalidArgument {
            what: format!(
                "{op}: dtype {dtype} is not a float type; pass a float dtype (or use randint)"
            ),
        })
    }
}

fn checked_numel(shape: &[usize]) -> Result<usize> {
    crate::Layout::contiguous(shape, 1).map(|l| l.numel())
}

/// The process-wide generator that calls without an explicit generator use.
pub fn default_generator() -> &'static Generator {
    static DEFAULT: OnceLock<Generator> = OnceLock::new();
    DEFAULT.get_or_init(Generator::default)
}

/// The default generator's lock, held across a `fork` (taken by the prepare handler, dropped
/// by the parent and child handlers; see `crate::fork`).
pub(crate) struct ForkGuard(#[allow(dead_code)] std::sync::MutexGuard<'static, (u64, u64)>);

/// Takes the default generator's lock for a `fork`.
pub(crate) fn lock_default_for_fork() -> ForkGuard {
    ForkGuard(default_generator().lock())
}

/// Seeds the default generator (PyTorch's `torch.manual_seed`).
pub fn manual_seed(seed: u64) {
    default_generator().manual_seed(seed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn philox_lanes_are_philox_blocks() {
        for (first, call) in [
            (0u64, 0u64),
            (u64::from(u32::MAX) - 5, 3),
            (1 << 40, 1 << 33),
        ] {
            let key = [0x1234_5678, 0x9abc_def0];
            let w = philox_lanes(first, call, key);
            for (l, j) in (first..).take(random::BLOCKS).enumerate() {
                let want = philox4x32_10(
                    [j as u32, (j >> 32) as u32, call as u32, (call >> 32) as u32],
                    key,
                );
                assert_eq!(w.map(|word| word[l]), want, "block {j}");
            }
        }
    }
}
