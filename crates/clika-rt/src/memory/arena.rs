//! The bookkeeping of a pool's segments and blocks: best-fit search, splitting and
//! coalescing. It is address arithmetic only and never touches the memory it describes.
//!
//! Invariants (cited as `A1`…`A4`):
//! 1. The blocks of a segment tile it exactly, in address order, linked by `prev`/`next`.
//! 2. A block is in a free set iff its state is `Free`; no two `Free` blocks are adjacent
//!    (freeing coalesces).
//! 3. Every byte of a segment at or after its `zero_from` offset has never been handed out
//!    since the segment came from the system zeroed, so it is still zero. Blocks are carved
//!    from the low end of free blocks, so this frontier stays low and most fresh memory
//!    needs no memset.
//! 4. A segment is empty iff its first block is `Free` and spans the whole segment.
//! 5. A `Kept` block is free space held whole for the next request of its exact size: it is
//!    in no free set, never merged, and listed once in `kept` under its size. Flushing it
//!    ([`Arena::flush_kept`]) frees it (coalescing, A2); [`Arena::largest_free`] counts the
//!    run of `Free` and `Kept` blocks around it, which is what a flush would make.

use std::collections::BTreeSet;
use std::ptr::NonNull;

/// Index of a block in the arena.
pub(super) type NodeId = usize;

/// Size class: small requests live in their own segments so they never fragment large ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
    Small = 0,
    Large = 1,
}

/// Where a block is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    /// Idle and in the cache, ready to be handed out.
    Free,
    /// Handed out.
    Active,
    /// Given back behind an event that has not completed: neither reused nor released.
    Deferred,
    /// Idle, held whole for the next request of its exact size (A5).
    Kept,
}

#[derive(Debug)]
struct Node {
    seg: usize,
    offset: usize,
    size: usize,
    prev: Option<NodeId>,
    next: Option<NodeId>,
    state: State,
}

/// A segment reserved from the raw allocator.
#[derive(Debug)]
pub(super) struct Segment {
    pub base: NonNull<u8>,
    pub nbytes: usize,
    pub align: usize,
    class: Class,
    head: NodeId,
    zero_from: usize,
}

/// A block just handed out.
#[derive(Debug, Clone, Copy)]
pub(super) struct Grant {
    pub id: NodeId,
    pub ptr: NonNull<u8>,
    pub size: usize,
    /// How many leading bytes of the block may be non-zero; the rest are zero (A3).
    pub dirty: usize,
}

/// Key of a free block in the best-fit sets: smallest size first, then lowest address.
type FreeKey = (usize, usize, NodeId);

#[derive(Debug, Default)]
pub(super) struct Arena {
    nodes: Vec<Node>,
    spare_nodes: Vec<NodeId>,
    segments: Vec<Option<Segment>>,
    spare_segments: Vec<usize>,
    free: [BTreeSet<FreeKey>; 2],
    /// Kept blocks by size slot (A5).
    kept: Vec<Vec<NodeId>>,
}

// SAFETY: the arena stores segment base pointers only to derive block pointers from them; it
// never dereferences them, and the memory is owned by the pool that owns the arena.
unsafe impl Send for Arena {}

impl Arena {
    fn seg(&self, id: NodeId) -> &Segment {
        match &self.segments[self.nodes[id].seg] {
            Some(s) => s,
            None => unreachable!("a live block's segment is live (A1)"),
        }
    }

    fn key(&self, id: NodeId) -> FreeKey {
        let n = &self.nodes[id];
        (n.size, self.seg(id).base.as_ptr().addr() + n.offset, id)
    }

    fn class(&self, id: NodeId) -> Class {
        self.seg(id).class
    }

    fn new_node(&mut self, node: Node) -> NodeId {
        match self.spare_nodes.pop() {
            Some(id) => {
                self.nodes[id] = node;
                id
            }
            None => {
                self.nodes.push(node);
                self.nodes.len() - 1
            }
        }
    }

    fn insert_free(&mut self, id: NodeId) {
        let key = self.key(id);
        self.free[self.class(id) as usize].insert(key);
    }

    fn remove_free(&mut self, id: NodeId) {
        let key = self.key(id);
        self.free[self.class(id) as usize].remove(&key);
    }

    /// Size of block `id` in bytes.
    pub fn size(&self, id: NodeId) -> usize {
        self.nodes[id].size
    }

    /// State of block `id`.
    pub fn state(&self, id: NodeId) -> State {
        self.nodes[id].state
    }

    /// The smallest free block of `class` with at least `size` bytes (lowest address first).
    pub fn best_fit(&self, class: Class, size: usize) -> Option<NodeId> {
        self.free[class as usize]
            .range((size, 0, 0)..)
            .next()
            .map(|&(_, _, id)| id)
    }

    /// The largest free block of either class, counting each run of free and kept blocks
    /// as the one block a flush of the kept blocks would coalesce it into (A5).
    pub fn largest_free(&self) -> usize {
        let idle = |n: Option<NodeId>| {
            n.filter(|&n| matches!(self.nodes[n].state, State::Free | State::Kept))
        };
        let run = |id: NodeId| {
            let mut first = id;
            while let Some(p) = idle(self.nodes[first].prev) {
                first = p;
            }
            let mut size = self.nodes[first].size;
            let mut at = first;
            while let Some(n) = idle(self.nodes[at].next) {
                size += self.nodes[n].size;
                at = n;
            }
            size
        };
        let free = self
            .free
            .iter()
            .filter_map(|set| set.last().map(|&(size, _, _)| size));
        let kept = self.kept.iter().flatten().map(|&id| run(id));
        free.chain(kept).max().unwrap_or(0)
    }

    /// Holds the active block `id` whole in size slot `slot` for the next request of its
    /// size (A5), unless `per_slot` blocks already wait there; whether it did.
    pub fn keep(&mut self, id: NodeId, slot: usize, per_slot: usize) -> bool {
        debug_assert_eq!(self.nodes[id].state, State::Active);
        if self.kept.len() <= slot {
            self.kept.resize_with(slot + 1, Vec::new);
        }
        if self.kept[slot].len() >= per_slot {
            return false;
        }
        self.nodes[id].state = State::Kept;
        self.kept[slot].push(id);
        true
    }

    /// A kept block of slot `slot`, handed out again whole; all of it counts as dirty.
    pub fn take_kept(&mut self, slot: usize) -> Option<Grant> {
        let id = self.kept.get_mut(slot)?.pop()?;
        debug_assert_eq!(self.nodes[id].state, State::Kept);
        self.nodes[id].state = State::Active;
        let (offset, size) = (self.nodes[id].offset, self.nodes[id].size);
        let base = self.seg(id).base;
        Some(Grant {
            id,
            // As in `carve`.
            ptr: NonNull::new(base.as_ptr().wrapping_add(offset)).unwrap_or(base),
            size,
            dirty: size,
        })
    }

    /// Frees every kept block (coalescing, A2); whether there was any.
    pub fn flush_kept(&mut self) -> bool {
        let kept: Vec<NodeId> = self.kept.iter_mut().flat_map(std::mem::take).collect();
        for &id in &kept {
            self.free(id);
        }
        !kept.is_empty()
    }

    /// Registers a segment fresh from the system as one free block and returns that block.
    pub fn add_segment(
        &mut self,
        class: Class,
        base: NonNull<u8>,
        nbytes: usize,
        align: usize,
        zero: bool,
    ) -> NodeId {
        let seg = self.spare_segments.pop().unwrap_or_else(|| {
            self.segments.push(None);
            self.segments.len() - 1
        });
        let id = self.new_node(Node {
            seg,
            offset: 0,
            size: nbytes,
            prev: None,
            next: None,
            state: State::Free,
        });
        self.segments[seg] = Some(Segment {
            base,
            nbytes,
            align,
            class,
            head: id,
            zero_from: if zero { 0 } else { nbytes },
        });
        self.insert_free(id);
        id
    }

    /// Hands out the free block `id` for `size` bytes, splitting off the tail as a new free
    /// block when at least `min_split` bytes would remain.
    pub fn carve(&mut self, id: NodeId, size: usize, min_split: usize) -> Grant {
        debug_assert_eq!(self.nodes[id].state, State::Free);
        self.remove_free(id);
        let rest = self.nodes[id].size - size;
        if rest >= min_split && rest > 0 {
            let n = &self.nodes[id];
            let tail = Node {
                seg: n.seg,
                offset: n.offset + size,
                size: rest,
                prev: Some(id),
                next: n.next,
                state: State::Free,
            };
            let tail_id = self.new_node(tail);
            if let Some(after) = self.nodes[tail_id].next {
                self.nodes[after].prev = Some(tail_id);
            }
            self.nodes[id].next = Some(tail_id);
            self.nodes[id].size = size;
            self.insert_free(tail_id);
        }
        let node = &mut self.nodes[id];
        node.state = State::Active;
        let (seg, offset, size) = (node.seg, node.offset, node.size);
        let Some(segment) = self.segments[seg].as_mut() else {
            unreachable!("a live block's segment is live (A1)")
        };
        let dirty = segment.zero_from.saturating_sub(offset).min(size);
        segment.zero_from = segment.zero_from.max(offset + size);
        let base = segment.base;
        Grant {
            id,
            // The offset lies inside the segment (A1); `wrapping_add` keeps the base's
            // provenance without asserting anything about the memory.
            ptr: NonNull::new(base.as_ptr().wrapping_add(offset)).unwrap_or(base),
            size,
            dirty,
        }
    }

    /// Parks the active block `id` behind an event: out of the cache until [`free`].
    ///
    /// [`free`]: Arena::free
    pub fn defer(&mut self, id: NodeId) {
        debug_assert_eq!(self.nodes[id].state, State::Active);
        self.nodes[id].state = State::Deferred;
    }

    /// Returns the active, deferred or kept block `id` to the cache, coalescing it with
    /// free neighbours (A2).
    pub fn free(&mut self, id: NodeId) {
        debug_assert_ne!(self.nodes[id].state, State::Free);
        self.nodes[id].state = State::Free;
        let mut id = id;
        if let Some(next) = self.nodes[id]
            .next
            .filter(|&n| self.nodes[n].state == State::Free)
        {
            self.absorb_next(id, next);
        }
        if let Some(prev) = self.nodes[id]
            .prev
            .filter(|&p| self.nodes[p].state == State::Free)
        {
            self.absorb_next(prev, id);
            id = prev;
        }
        self.insert_free(id);
    }

    /// Merges block `next` into its predecessor `id`; a free `id` leaves the cache while it
    /// changes size and the caller re-inserts it.
    fn absorb_next(&mut self, id: NodeId, next: NodeId) {
        if self.nodes[id].state == State::Free {
            self.remove_free(id);
        }
        self.remove_free(next);
        let (size, after) = (self.nodes[next].size, self.nodes[next].next);
        let node = &mut self.nodes[id];
        node.size += size;
        node.next = after;
        if let Some(after) = after {
            self.nodes[after].prev = Some(id);
        }
        self.spare_nodes.push(next);
    }

    /// Takes every empty segment (A4) out of the arena, its one free block out of the cache,
    /// and returns them for release to the system.
    pub fn take_empty_segments(&mut self) -> Vec<Segment> {
        let mut out = Vec::new();
        for index in 0..self.segments.len() {
            let Some(seg) = &self.segments[index] else {
                continue;
            };
            let head = &self.nodes[seg.head];
            if head.state != State::Free || head.size != seg.nbytes {
                continue;
            }
            let id = seg.head;
            self.remove_free(id);
            self.spare_nodes.push(id);
            if let Some(seg) = self.segments[index].take() {
                out.push(seg);
            }
            self.spare_segments.push(index);
        }
        out
    }

    /// Index of the segment block `id` lives in.
    pub fn segment_of(&self, id: NodeId) -> usize {
        self.nodes[id].seg
    }

    /// Takes every segment, in use or not, with its index; for a pool that is being dropped.
    pub fn take_all_segments(&mut self) -> Vec<(usize, Segment)> {
        self.free.iter_mut().for_each(BTreeSet::clear);
        self.kept.clear();
        self.nodes.clear();
        self.spare_nodes.clear();
        self.spare_segments.clear();
        let segments = std::mem::take(&mut self.segments);
        segments
            .into_iter()
            .enumerate()
            .filter_map(|(i, s)| Some((i, s?)))
            .collect()
    }
}
