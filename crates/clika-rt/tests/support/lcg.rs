//! A seeded linear congruential generator (Knuth's MMIX constants) for deterministic test
//! data, the same sequence on every platform and run (`#[path]`-included).
#![allow(dead_code)] // each suite uses what it needs

pub struct Lcg(u64);

impl Lcg {
    /// The generator whose first step starts from `seed`.
    pub fn new(seed: u64) -> Self {
        Lcg(seed)
    }

    /// The next state.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0
    }

    /// A value in `0..m` from the state's high bits (the low bits of an LCG cycle).
    pub fn below(&mut self, m: u64) -> u64 {
        (self.next_u64() >> 33) % m
    }

    /// A value in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}
