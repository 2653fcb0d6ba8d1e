//! `random+` — a uniformly random candidate among those with at least one invalid page.
//!
//! A refinement of the uniform random baseline (Desnoyers, "Analytic modeling of SSD write
//! performance", SYSTOR 2012; `rga:1` of Li, Lee & Lui, SIGMETRICS 2013): still a uniform choice,
//! but never a block whose collection would reclaim nothing. When every candidate is fully valid the
//! policy returns `None`, and the mechanism must wait for an invalidation.
//!
//! # Cost
//!
//! Two indexable sets (dense `Vec` plus position array, `swap_remove`): fully valid candidates and
//! the rest. A block moves from the first to the second on its first invalidation. Every operation is
//! O(1), one RNG draw per successful pick, no allocation after construction.

use super::set::IndexedSet;
use super::{PlaneView, VictimPolicy};
use crate::rng::SimRng;

/// Uniform random choice among candidates with `valid < pages_per_block`.
#[derive(Clone, Debug)]
pub struct RandomPlus {
    pages_per_block: u32,
    /// Candidates with every page valid: never chosen.
    full: IndexedSet,
    /// Candidates with at least one invalid page.
    partial: IndexedSet,
}

impl RandomPlus {
    /// A policy for a plane of `blocks_per_plane` blocks of `pages_per_block` pages.
    pub fn new(blocks_per_plane: u32, pages_per_block: u32) -> Self {
        Self {
            pages_per_block,
            full: IndexedSet::new(blocks_per_plane),
            partial: IndexedSet::new(blocks_per_plane),
        }
    }
}

impl VictimPolicy for RandomPlus {
    fn on_full(&mut self, block: u32, view: &PlaneView<'_>) {
        debug_assert!(
            !self.full.contains(block) && !self.partial.contains(block),
            "block {block} already a candidate"
        );
        if u32::from(view.valid(block as usize)) >= self.pages_per_block {
            self.full.insert(block);
        } else {
            self.partial.insert(block);
        }
    }

    fn on_invalidate(&mut self, block: u32, _old_valid: u16, _view: &PlaneView<'_>) {
        if self.full.remove(block) {
            self.partial.insert(block);
        } else {
            debug_assert!(
                self.partial.contains(block),
                "on_invalidate for non-candidate {block}"
            );
        }
    }

    fn pick(&mut self, _view: &PlaneView<'_>, rng: &mut SimRng) -> Option<u32> {
        if self.partial.is_empty() {
            return None;
        }
        let slot = self.partial.random_slot(rng);
        Some(self.partial.remove_slot(slot))
    }

    fn len(&self) -> usize {
        self.full.len() + self.partial.len()
    }

    /// Each set's slot order (a block goes back to the set its valid count says).
    fn rebuild_order(&self) -> Option<Vec<u32>> {
        let mut v = self.full.as_slice().to_vec();
        v.extend_from_slice(self.partial.as_slice());
        Some(v)
    }
}
