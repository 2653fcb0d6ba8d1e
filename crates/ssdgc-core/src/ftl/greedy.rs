//! Greedy victim selection: the candidate with the fewest valid pages. The GC layer's victim
//! policy `greedy`; its index lives in the FTL, which keeps it inline
//! ([`super::candidates::PlaneIndex`]) and notifies it without dynamic dispatch.
//!
//! The "greedy" cleaner of log-structured storage (Rosenblum & Ousterhout, "The design and
//! implementation of a log-structured file system", ACM TOCS 10(1), 1992) and of flash FTLs since
//! (Kawaguchi, Nishioka, Motoda, "A flash-memory based file system", USENIX Winter 1995). It
//! minimises the copy cost of the next collection. Its write amplification under uniform random
//! traffic is modelled by Desnoyers, SYSTOR 2012 (see [`crate::analytic::waf_greedy`]).
//!
//! # Index
//!
//! Candidates sit in buckets indexed by valid count (`0..=pages_per_block`). Each bucket is an
//! intrusive doubly linked list threaded through per-block nodes (`prev`, `next` and the block's
//! bucket side by side, one cache line for the three; `NIL = u32::MAX`), so moving a block between
//! buckets on invalidation is O(1). A `min_bucket` hint is a lower bound
//! on the smallest non-empty bucket: invalidation and `on_full` can only lower it, `pick` scans it
//! upward.
//!
//! # Cost
//!
//! `on_invalidate` is O(1), `on_full` is O(1). `pick` is O(1) amortised: each step of its upward scan
//! is paid for by an earlier decrease of the hint, and an invalidation lowers it by at most one; an
//! `on_full` of a block with few valid pages may lower it by up to `pages_per_block` (a constant of
//! the geometry). Nothing allocates after construction.
//!
//! # Ties
//!
//! Within a bucket the order is LIFO: among the blocks with the minimum valid count, the one that
//! entered that bucket (by filling or by an invalidation) most recently is chosen. This is
//! deterministic and needs no RNG.

use prefetch_index::prefetch_index;

use super::candidates::{CandidateIndex as VictimPolicy, PlaneView};
use crate::rng::SimRng;

/// No block; as an index, beyond the nodes of any plane (a plane has at most `u32::MAX` blocks),
/// so `nodes.get(NIL)` is `None`.
const NIL: u32 = u32::MAX;

/// A block's place in the buckets.
#[derive(Clone, Copy, Debug)]
struct Node {
    prev: u32,
    next: u32,
    /// The block's bucket, or `NIL` when the block is not a candidate.
    bucket: u32,
}

const UNLINKED: Node = Node {
    prev: NIL,
    next: NIL,
    bucket: NIL,
};

/// Greedy policy: fewest valid pages first, O(1) amortised per operation.
#[derive(Clone, Debug)]
pub struct Greedy {
    /// First block of each bucket (by valid count), or `NIL`.
    head: Vec<u32>,
    /// Per block.
    nodes: Vec<Node>,
    /// No non-empty bucket lies below this index.
    min_bucket: usize,
    len: usize,
}

impl Greedy {
    /// A policy for a plane of `blocks_per_plane` blocks of `pages_per_block` pages.
    pub fn new(blocks_per_plane: u32, pages_per_block: u32) -> Self {
        let n = blocks_per_plane as usize;
        let buckets = pages_per_block as usize + 1;
        Self {
            head: vec![NIL; buckets],
            nodes: vec![UNLINKED; n],
            min_bucket: buckets,
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, block: u32, b: usize) {
        let i = block as usize;
        let h = self.head[b];
        self.nodes[i] = Node {
            prev: NIL,
            next: h,
            bucket: b as u32,
        };
        // `NIL`, beyond the nodes, finds none (an empty bucket).
        if let Some(first) = self.nodes.get_mut(h as usize) {
            first.prev = block;
        }
        self.head[b] = block;
        if b < self.min_bucket {
            self.min_bucket = b;
        }
    }

    /// A page of candidate `block`, which had `old_valid` valid pages, was invalidated: the block
    /// moves down one bucket ([`VictimPolicy::on_invalidate`], which needs no view).
    #[inline(always)]
    pub fn invalidated(&mut self, block: u32, old_valid: u16) {
        debug_assert!(
            self.nodes[block as usize].bucket != NIL,
            "on_invalidate for non-candidate block {block}"
        );
        self.page_invalidated(block, old_valid);
    }

    /// A page of `block`, which had `old_valid` valid pages, was invalidated, `block` a candidate
    /// or not: a candidate moves down one bucket ([`Greedy::invalidated`]); any other block is in
    /// no bucket, and nothing changes. The candidates are exactly the FTL's full blocks, so the
    /// FTL need not read the block's state first.
    #[inline(always)]
    pub fn page_invalidated(&mut self, block: u32, old_valid: u16) {
        let b = self.nodes[block as usize].bucket;
        if b == NIL || b == 0 {
            return;
        }
        debug_assert_eq!(b, old_valid as u32);
        self.move_down(block);
    }

    /// Candidate `block` leaves its bucket for the head of the one below, its node read once
    /// and written once (by [`Greedy::push`]).
    #[inline(always)]
    fn move_down(&mut self, block: u32) {
        let node = self.nodes[block as usize];
        self.detach(node);
        self.push(block, node.bucket as usize - 1);
    }

    /// Takes `block` out of its bucket; its node is left unlinked.
    #[inline(always)]
    fn unlink(&mut self, block: u32) {
        let i = block as usize;
        self.detach(self.nodes[i]);
        self.nodes[i] = UNLINKED;
    }

    /// Links `node`'s neighbours (or its bucket's head) past it; the node itself is not written.
    #[inline(always)]
    fn detach(&mut self, node: Node) {
        let Node {
            prev: p,
            next: n,
            bucket,
        } = node;
        // A neighbour `NIL`, beyond the nodes, finds none: one look-up tests and checks it.
        match self.nodes.get_mut(p as usize) {
            Some(prev) => prev.next = n,
            None => {
                debug_assert_eq!(p, NIL);
                self.head[bucket as usize] = n;
            }
        }
        if let Some(next) = self.nodes.get_mut(n as usize) {
            next.prev = p;
        }
    }
}

impl VictimPolicy for Greedy {
    fn on_full(&mut self, block: u32, view: &PlaneView<'_>) {
        debug_assert_eq!(
            self.nodes[block as usize].bucket, NIL,
            "block {block} already a candidate"
        );
        if self.nodes[block as usize].bucket != NIL {
            return;
        }
        let v = view.valid(block as usize) as usize;
        debug_assert!(v < self.head.len(), "valid count above pages_per_block");
        self.push(block, v);
        self.len += 1;
    }

    fn prefetch(&self, block: u32) {
        prefetch_index(&self.nodes, block as usize);
    }

    fn on_invalidate(&mut self, block: u32, old_valid: u16, _view: &PlaneView<'_>) {
        self.invalidated(block, old_valid);
    }

    fn pick(&mut self, _view: &PlaneView<'_>, _rng: &mut SimRng) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        while self.head[self.min_bucket] == NIL {
            self.min_bucket += 1;
        }
        let block = self.head[self.min_bucket];
        self.unlink(block);
        self.len -= 1;
        if self.len == 0 {
            self.min_bucket = self.head.len();
        }
        Some(block)
    }

    fn fewest_valid(&self, _view: &PlaneView<'_>) -> Option<u16> {
        // The first non-empty bucket at or above the hint: O(pages per block) at worst.
        (self.len > 0)
            .then(|| (self.min_bucket..self.head.len()).find(|&b| self.head[b] != NIL))
            .flatten()
            .map(|b| b as u16)
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Each bucket from its tail to its head: `on_full` pushes at the head, so the buckets (one per
    /// valid count, which the view gives) come back in the same LIFO order.
    fn rebuild_order(&self) -> Option<Vec<u32>> {
        let mut order = Vec::with_capacity(self.len);
        let mut bucket = Vec::new();
        for &head in &self.head {
            bucket.clear();
            let mut b = head;
            while b != NIL && bucket.len() < self.nodes.len() {
                bucket.push(b);
                b = self.nodes[b as usize].next;
            }
            order.extend(bucket.iter().rev());
        }
        Some(order)
    }
}
