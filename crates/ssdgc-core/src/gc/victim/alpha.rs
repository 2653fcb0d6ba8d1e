//! `alpha:A` — the candidate with the smallest `α·V + (1 − α)·E` (valid pages `V`, erase count `E`).
//!
//! The victim rule of the practical-GC paper (Nam and Kim, `practical-gc-design.txt`, §III-A,
//! eq. 1): α weighs efficiency (few valid pages to copy) against longevity (few erases so far).
//! α = 1 is greedy, α = 0 picks the least-erased candidate; α ∈ [0, 1], checked where `gc.victim`
//! is read.
//!
//! # Scale
//!
//! Like the paper, the two terms are mixed **unscaled**: `V` counts pages (0..=pages per block) and
//! `E` counts erases (0 up to the endurance). Only differences between candidates matter, so the
//! effective weight of wear is `(1 − α)·ΔE` against `α·ΔV`. Early in a drive's life erase counts
//! differ by a few units while valid counts differ by tens of pages, and the rule behaves nearly as
//! greedy for any α well above 0; as wear spreads, `ΔE` grows and the same α leans towards wear
//! levelling. With 128 pages per block, α = 0.1 values one erase as much as nine valid pages,
//! which is why the paper sees almost uniform erase counts at α = 0.1 (Fig. 7). The rule is not
//! invariant under a change of geometry: doubling the pages per block doubles the weight of `V`.
//!
//! # Index
//!
//! A candidate's erase count cannot change while it is a candidate (only victims are erased), and
//! its valid count only falls, so its key only ever decreases. The candidates sit in an indexed
//! binary min-heap (positions per block, no allocation after construction): `on_full` inserts and
//! `on_invalidate` sifts up, both O(log n); `pick` pops the minimum in O(log n). A count of
//! candidates per valid-page count (one `u32` per page of a block) answers
//! [`VictimPolicy::fewest_valid`] without a scan of the plane (NCQ-aware timing asks it in idle
//! time), kept in O(1) per notification.
//!
//! # Ties
//!
//! Among equal keys the block that entered its key most recently (by filling or by an
//! invalidation) wins — greedy's LIFO rule within a bucket — so α = 1 picks exactly the victims
//! [`super::Greedy`] picks.

use super::set::NIL;
use super::{PlaneView, VictimPolicy};
use crate::rng::SimRng;

/// The α-cost policy for one plane.
#[derive(Clone, Debug)]
pub struct Alpha {
    alpha: f64,
    /// Heap of candidate blocks, ordered by `(key, Reverse(stamp))`.
    heap: Vec<u32>,
    /// Slot of each block in `heap`, or `NIL`.
    pos: Vec<u32>,
    /// Current key of each candidate.
    key: Vec<f64>,
    /// When each candidate last entered its key (larger is more recent).
    stamp: Vec<u64>,
    clock: u64,
    /// Candidates per valid-page count (sized on the first candidate, one more than the pages
    /// per block).
    by_valid: Vec<u32>,
}

impl Alpha {
    /// A policy with weight `alpha` (in `[0, 1]`) for a plane of `blocks_per_plane` blocks.
    pub fn new(alpha: f64, blocks_per_plane: u32) -> Self {
        debug_assert!((0.0..=1.0).contains(&alpha));
        let n = blocks_per_plane as usize;
        Self {
            alpha,
            heap: Vec::with_capacity(n),
            pos: vec![NIL; n],
            key: vec![0.0; n],
            stamp: vec![0; n],
            clock: 0,
            by_valid: Vec::new(),
        }
    }

    /// `α·V + (1 − α)·E` of a block.
    #[inline]
    pub fn cost(alpha: f64, valid: u16, erases: u32) -> f64 {
        alpha * f64::from(valid) + (1.0 - alpha) * f64::from(erases)
    }

    /// True when block `a` must be picked before block `b`.
    #[inline]
    fn before(&self, a: u32, b: u32) -> bool {
        let (a, b) = (a as usize, b as usize);
        match self.key[a].total_cmp(&self.key[b]) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => self.stamp[a] > self.stamp[b],
        }
    }

    #[inline]
    fn place(&mut self, slot: usize, block: u32) {
        self.heap[slot] = block;
        self.pos[block as usize] = slot as u32;
    }

    fn sift_up(&mut self, mut slot: usize) {
        let block = self.heap[slot];
        while slot > 0 {
            let parent = (slot - 1) / 2;
            let p = self.heap[parent];
            if !self.before(block, p) {
                break;
            }
            self.place(slot, p);
            slot = parent;
        }
        self.place(slot, block);
    }

    fn sift_down(&mut self, mut slot: usize) {
        let block = self.heap[slot];
        let n = self.heap.len();
        loop {
            let l = 2 * slot + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && self.before(self.heap[r], self.heap[l]) {
                r
            } else {
                l
            };
            if !self.before(self.heap[c], block) {
                break;
            }
            self.place(slot, self.heap[c]);
            slot = c;
        }
        self.place(slot, block);
    }

    fn set_key(&mut self, block: u32, valid: u16, erases: u32) {
        let i = block as usize;
        self.key[i] = Self::cost(self.alpha, valid, erases);
        self.clock += 1;
        self.stamp[i] = self.clock;
    }
}

impl VictimPolicy for Alpha {
    fn on_full(&mut self, block: u32, view: &PlaneView<'_>) {
        let i = block as usize;
        debug_assert_eq!(self.pos[i], NIL, "block {block} already a candidate");
        if self.pos[i] != NIL {
            return;
        }
        self.set_key(block, view.valid(i), view.erase_count[i]);
        if self.by_valid.is_empty() {
            self.by_valid = vec![0; view.pages_per_block as usize + 1];
        }
        self.by_valid[view.valid(i) as usize] += 1;
        self.heap.push(block);
        self.pos[i] = (self.heap.len() - 1) as u32;
        self.sift_up(self.heap.len() - 1);
    }

    fn on_invalidate(&mut self, block: u32, old_valid: u16, view: &PlaneView<'_>) {
        let i = block as usize;
        let slot = self.pos[i];
        if slot == NIL {
            debug_assert!(false, "on_invalidate for non-candidate block {block}");
            return;
        }
        if old_valid == 0 {
            return;
        }
        // The key falls by α (or stays, α = 0) and the stamp becomes the newest: the block can
        // only move towards the top.
        self.set_key(block, old_valid - 1, view.erase_count[i]);
        self.by_valid[old_valid as usize] -= 1;
        self.by_valid[old_valid as usize - 1] += 1;
        self.sift_up(slot as usize);
    }

    fn pick(&mut self, view: &PlaneView<'_>, _rng: &mut SimRng) -> Option<u32> {
        let top = *self.heap.first()?;
        self.by_valid[view.valid(top as usize) as usize] -= 1;
        let last = self.heap.pop().expect("heap is not empty");
        self.pos[top as usize] = NIL;
        if last != top {
            self.place(0, last);
            self.sift_down(0);
        }
        Some(top)
    }

    fn fewest_valid(&self, _view: &PlaneView<'_>) -> Option<u16> {
        self.by_valid.iter().position(|&n| n > 0).map(|v| v as u16)
    }

    fn len(&self) -> usize {
        self.heap.len()
    }

    /// Oldest stamp first: re-added in that order the candidates get new stamps in the same
    /// relative order, and their keys (the view's valid and erase counts) are unchanged, so the
    /// strict order `(key, newest stamp first)` that decides every pick is the same.
    fn rebuild_order(&self) -> Option<Vec<u32>> {
        let mut v = self.heap.clone();
        v.sort_by_key(|&b| self.stamp[b as usize]);
        Some(v)
    }
}
