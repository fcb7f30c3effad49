//! Random sequences of allocate / free / deferred free / event completion / release on a
//! private pool with a limit; after every step: no two live blocks overlap, active + cached
//! = reserved, reserved <= limit, and the raw allocator holds exactly what the pool reserved.

use std::sync::Arc;

use clika_rt::memory::{Block, HeapAllocator, ManualEvent, Pool};
use clika_rt::{Device, ErrorKind};
use proptest::prelude::*;

#[cfg(not(miri))]
const MAX_LOG2: u32 = 23; // 8 MiB
#[cfg(miri)]
const MAX_LOG2: u32 = 15;

#[derive(Debug, Clone)]
enum Op {
    Alloc { log2: u32, frac: u32, zeroed: bool },
    Free(usize),
    FreeAfter(usize),
    Complete(usize),
    Release,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..=MAX_LOG2, 0..1024u32, any::<bool>())
            .prop_map(|(log2, frac, zeroed)| Op::Alloc { log2, frac, zeroed }),
        2 => any::<usize>().prop_map(Op::Free),
        1 => any::<usize>().prop_map(Op::FreeAfter),
        1 => any::<usize>().prop_map(Op::Complete),
        1 => Just(Op::Release),
    ]
}

fn first_byte(b: &Block) -> u8 {
    // SAFETY: blocks hold at least one initialised byte (size 0 is served as 512).
    unsafe { b.as_ptr().read() }
}

struct Model {
    raw: Arc<HeapAllocator>,
    pool: Arc<Pool>,
    limit: usize,
    live: Vec<(Block, u8)>,
    events: Vec<Arc<ManualEvent>>,
    ooms: u64,
}

impl Model {
    fn step(&mut self, op: Op) {
        match op {
            Op::Alloc { log2, frac, zeroed } => {
                let n = (1usize << log2) + (((1usize << log2) * frac as usize) >> 10);
                match self.pool.allocate(n, zeroed) {
                    Ok(b) => {
                        if zeroed {
                            assert_eq!(first_byte(&b), 0);
                        }
                        let tag = self.live.len() as u8 | 1;
                        // SAFETY: the block is fresh and ours; `nbytes` may be 0, so only
                        // the first byte (always present) is stamped.
                        unsafe { b.as_ptr().write(tag) };
                        self.live.push((b, tag));
                    }
                    Err(e) => {
                        assert_eq!(e.kind(), ErrorKind::OutOfMemory);
                        self.ooms += 1;
                    }
                }
            }
            Op::Free(i) | Op::FreeAfter(i) if self.live.is_empty() => {
                let _ = i;
            }
            Op::Free(i) => {
                let (b, tag) = self.live.swap_remove(i % self.live.len());
                assert_eq!(first_byte(&b), tag);
                drop(b);
            }
            Op::FreeAfter(i) => {
                let (b, tag) = self.live.swap_remove(i % self.live.len());
                assert_eq!(first_byte(&b), tag);
                let event = Arc::new(ManualEvent::new());
                self.events.push(event.clone());
                b.free_after(event);
            }
            Op::Complete(i) => {
                if !self.events.is_empty() {
                    self.events.swap_remove(i % self.events.len()).complete();
                }
            }
            Op::Release => {
                let before = self.pool.stats().reserved_bytes;
                let released = self.pool.release_cached();
                assert_eq!(self.pool.stats().reserved_bytes, before - released);
            }
        }
        self.check();
    }

    fn check(&self) {
        let s = self.pool.stats();
        assert_eq!(s.active_bytes + s.cached_bytes, s.reserved_bytes);
        assert!(s.reserved_bytes <= self.limit);
        assert_eq!(self.raw.live_bytes(), s.reserved_bytes);
        assert!(s.deferred_bytes <= s.cached_bytes);
        assert_eq!(s.oom_count, self.ooms);
        let requested: usize = self.live.iter().map(|(b, _)| b.nbytes()).sum();
        assert_eq!(s.requested_bytes, requested);
        assert!(s.active_bytes >= requested);
        let mut spans: Vec<_> = self
            .live
            .iter()
            .map(|(b, _)| (b.as_ptr() as usize, b.nbytes().max(1)))
            .collect();
        spans.sort_unstable();
        for w in spans.windows(2) {
            assert!(w[0].0 + w[0].1 <= w[1].0, "live blocks overlap: {w:?}");
        }
    }
}

proptest! {
    // Under Miri: few cases, and no regression file (Miri isolates the file system).
    #![proptest_config(ProptestConfig {
        cases: if cfg!(miri) { 4 } else { 256 },
        failure_persistence: if cfg!(miri) {
            None
        } else {
            ProptestConfig::default().failure_persistence
        },
        ..ProptestConfig::default()
    })]

    #[test]
    fn pool_invariants_hold_after_every_step(
        limit_mib in 2usize..48,
        ops in prop::collection::vec(op(), 1..if cfg!(miri) { 16 } else { 96 }),
    ) {
        let raw = Arc::new(HeapAllocator::new());
        let pool = Pool::new(Device::cpu(), raw.clone());
        let limit = limit_mib << 20;
        pool.set_limit(Some(limit));
        let mut model = Model { raw, pool, limit, live: Vec::new(), events: Vec::new(), ooms: 0 };
        for op in ops {
            model.step(op);
        }
        model.live.clear();
        model.events.iter().for_each(|e| e.complete());
        model.pool.release_cached();
        prop_assert_eq!(model.pool.stats().reserved_bytes, 0);
        prop_assert_eq!(model.raw.live_bytes(), 0);
    }
}
