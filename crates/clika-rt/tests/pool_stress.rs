//! Two threads hammer one private pool with random allocations and frees (log-uniform sizes
//! from 1 B to 64 MiB, random lifetimes). Every block is stamped with its own pattern at its
//! start, middle and end and checked before it is freed, so any overlap or reuse of live
//! memory shows; zeroed blocks are checked to be zero. Afterwards the stats reconcile.

use std::sync::Arc;

use clika_rt::memory::{Block, CpuAllocator, Pool};
use clika_rt::Device;

#[cfg(not(miri))]
const OPS_PER_THREAD: usize = 200_000;
#[cfg(miri)]
const OPS_PER_THREAD: usize = 300;
#[cfg(not(miri))]
const MAX_LOG2: f64 = 26.0; // 64 MiB
#[cfg(miri)]
const MAX_LOG2: f64 = 16.0;
const SLOTS: usize = 16;

/// SplitMix64: a small, good-enough generator with no dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Log-uniform in `1 ..= 2^MAX_LOG2`.
    fn size(&mut self) -> usize {
        (self.unit() * MAX_LOG2).exp2() as usize
    }
}

/// The byte a block stamped with `pattern` holds at offset `i`.
fn stamp_byte(pattern: u64, i: usize) -> u8 {
    (pattern >> ((i % 8) * 8)) as u8 ^ (i as u8)
}

/// Start, middle and end ranges of a block of `n` bytes (up to 8 bytes each).
fn stamp_ranges(n: usize) -> [std::ops::Range<usize>; 3] {
    let k = n.min(8);
    [0..k, n / 2..(n / 2 + 8).min(n), n - k..n]
}

fn stamp(block: &Block, pattern: u64) {
    for range in stamp_ranges(block.nbytes()) {
        for i in range {
            // SAFETY: `i < nbytes` and the block is exclusively ours.
            unsafe { block.as_ptr().add(i).write(stamp_byte(pattern, i)) };
        }
    }
}

fn check_bytes(block: &Block, expect: impl Fn(usize) -> u8) {
    for range in stamp_ranges(block.nbytes()) {
        for i in range {
            // SAFETY: `i < nbytes`, the bytes are initialised and the block is ours.
            let got = unsafe { block.as_ptr().add(i).read() };
            assert_eq!(
                got,
                expect(i),
                "byte {i} of a {}-byte block",
                block.nbytes()
            );
        }
    }
}

fn hammer(pool: Arc<Pool>, seed: u64) -> u64 {
    let mut rng = Rng(seed);
    let mut slots: Vec<Option<(Block, u64)>> = (0..SLOTS).map(|_| None).collect();
    let mut allocations = 0;
    for op in 0..OPS_PER_THREAD {
        let slot = (rng.next() % SLOTS as u64) as usize;
        match slots[slot].take() {
            Some((block, pattern)) => check_bytes(&block, |i| stamp_byte(pattern, i)),
            None => {
                let n = rng.size();
                let zeroed = (n <= 1 << 20 && rng.next().is_multiple_of(4))
                    || rng.next().is_multiple_of(1024);
                let block = pool.allocate(n, zeroed).expect("no limit is set");
                allocations += 1;
                if zeroed {
                    check_bytes(&block, |_| 0);
                }
                let pattern = rng.next();
                stamp(&block, pattern);
                slots[slot] = Some((block, pattern));
            }
        }
        if op % 20_000 == 19_999 {
            pool.release_cached(); // races the other thread's allocations
        }
    }
    allocations
}

#[test]
fn two_threads_random_alloc_free() {
    let pool = Pool::new(Device::cpu(), Arc::new(CpuAllocator::default()));
    let threads: Vec<_> = (0..2u64)
        .map(|t| {
            let pool = Arc::clone(&pool);
            std::thread::spawn(move || hammer(pool, 0x5EED + t))
        })
        .collect();
    let allocations: u64 = threads.into_iter().map(|t| t.join().unwrap()).sum();

    let s = pool.stats();
    assert_eq!(
        (s.active_bytes, s.requested_bytes, s.deferred_bytes),
        (0, 0, 0)
    );
    assert_eq!(s.cached_bytes, s.reserved_bytes);
    assert_eq!(s.allocation_count, allocations);
    assert!(s.cache_hit_count > allocations / 2, "{s}");
    assert_eq!(pool.release_cached(), s.reserved_bytes);
    let s = pool.stats();
    assert_eq!(
        (s.reserved_bytes, s.cached_bytes, s.largest_free_block),
        (0, 0, 0)
    );
    assert_eq!(s.os_reserve_count, s.os_release_count);
}
