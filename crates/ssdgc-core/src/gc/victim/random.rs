//! `random` — a uniformly random candidate.
//!
//! The baseline of the analytic literature: Desnoyers, "Analytic modeling of SSD write
//! performance", SYSTOR 2012, §3 (random victim selection gives write amplification `1/Sf` under
//! uniform traffic, [`crate::analytic::waf_random`]); also `rga:1` of Li, Lee & Lui, SIGMETRICS 2013.
//! It ignores valid counts entirely, so it may pick fully valid blocks.
//!
//! # Cost
//!
//! Indexable candidate set (dense `Vec` plus position array, `swap_remove`): every operation is
//! O(1), one RNG draw per pick, no allocation after construction.

use super::set::{candidates_in_set, IndexedSet};
use super::{PlaneView, VictimPolicy};
use crate::rng::SimRng;

/// Uniform random victim selection.
#[derive(Clone, Debug)]
pub struct Random {
    set: IndexedSet,
}

impl Random {
    /// A policy for a plane of `blocks_per_plane` blocks.
    pub fn new(blocks_per_plane: u32) -> Self {
        Self {
            set: IndexedSet::new(blocks_per_plane),
        }
    }
}

impl VictimPolicy for Random {
    candidates_in_set!();

    fn pick(&mut self, _view: &PlaneView<'_>, rng: &mut SimRng) -> Option<u32> {
        if self.set.is_empty() {
            return None;
        }
        let slot = self.set.random_slot(rng);
        Some(self.set.remove_slot(slot))
    }
}
