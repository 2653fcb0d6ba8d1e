//! `rga:D` — the Random Greedy Algorithm (d-choices victim selection).
//!
//! Source: Y. Li, P. P. C. Lee, J. C. S. Lui, "Stochastic modeling of large-scale solid-state
//! storage systems: analysis, design tradeoffs and optimization", ACM SIGMETRICS 2013. The policy
//! samples `D` candidates uniformly at random and collects the one with the fewest valid pages.
//! `D = 1` is [`super::random::Random`]; as `D` grows it approaches [`super::greedy::Greedy`] while
//! spreading erasures more evenly (the wear/performance knob studied in the paper).
//!
//! # Sampling
//!
//! The `D` samples are drawn **with replacement** (independent uniform slots), as in the paper's
//! model; with few candidates the same block may be drawn more than once. Among the sampled blocks
//! the first drawn with the minimum valid count wins. Exactly `D` RNG draws are made per pick (none
//! when there is no candidate).
//!
//! # Cost
//!
//! Candidates live in an indexable set (dense `Vec` plus position array, `swap_remove`):
//! `on_full` and `on_invalidate` are O(1), `pick` is O(D). Nothing allocates after construction.

use super::set::{candidates_in_set, IndexedSet};
use super::{PlaneView, VictimPolicy};
use crate::rng::SimRng;

/// Random Greedy Algorithm with `d` choices.
#[derive(Clone, Debug)]
pub struct Rga {
    d: u32,
    set: IndexedSet,
}

impl Rga {
    /// A policy sampling `d` (at least 1) candidates per pick.
    pub fn new(d: u32, blocks_per_plane: u32) -> Self {
        assert!(d >= 1, "rga needs d >= 1");
        Self {
            d,
            set: IndexedSet::new(blocks_per_plane),
        }
    }

    /// The number of choices per pick.
    pub fn d(&self) -> u32 {
        self.d
    }
}

impl VictimPolicy for Rga {
    candidates_in_set!();

    fn pick(&mut self, view: &PlaneView<'_>, rng: &mut SimRng) -> Option<u32> {
        if self.set.is_empty() {
            return None;
        }
        let mut best_slot = self.set.random_slot(rng);
        let mut best_valid = view.valid(self.set.get(best_slot) as usize);
        for _ in 1..self.d {
            let slot = self.set.random_slot(rng);
            let v = view.valid(self.set.get(slot) as usize);
            if v < best_valid {
                best_slot = slot;
                best_valid = v;
            }
        }
        Some(self.set.remove_slot(best_slot))
    }
}
