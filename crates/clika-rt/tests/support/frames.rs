//! Deterministic image bytes for the image-op suites (`#[path]`-included).

/// `n` deterministic bytes from `seed` (an LCG's top byte).
pub fn bytes(n: usize, seed: u64) -> Vec<u8> {
    let mut s = seed.wrapping_mul(6364136223846793005) | 1;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (s >> 56) as u8
        })
        .collect()
}
