//! `cost-benefit` — maximise the benefit/cost ratio `(1 − u) · age / (2u)`.
//!
//! Sources: M. Rosenblum, J. K. Ousterhout, "The design and implementation of a log-structured file
//! system", ACM TOCS 10(1), 1992 (the LFS cost-benefit cleaner); A. Kawaguchi, S. Nishioka, H. Motoda,
//! "A flash-memory based file system", USENIX Winter 1995 (the same rule applied to flash).
//! Here `u = valid / pages_per_block` is the block's utilisation and
//! `age = now − last_modified[block]` is measured on the drive's logical clock (page programs). The
//! numerator is the space reclaimed times how long it is likely to stay reclaimed; the denominator is
//! the cost of reading the block and writing back its valid pages. A block with `u = 0` has infinite
//! benefit and is chosen at once.
//!
//! # Exact arithmetic
//!
//! With `P = pages_per_block` and `v = valid`, the score is `(P − v) · age / (2v)`. Scores are compared
//! as fractions `(P − v) · age / v` by cross-multiplication in `u128` (at most 2^96 per product), so
//! the choice is exact and platform independent. Ties go to the first candidate in the scan order of
//! the candidate vector (deterministic: it depends only on the sequence of notifications).
//!
//! # Cost
//!
//! `on_full` / `on_invalidate` are O(1). `pick` scans every candidate: **O(n) per pick** for `n`
//! candidates, a tight loop over a dense `Vec<u32>` with no allocation, stopping early at a block
//! with no valid page. Ages change continuously, so no static index can serve the exact rule. At a few
//! thousand blocks per plane this is cheap next to the simulated copies it triggers; for planes with
//! tens of thousands of candidates and GC-heavy runs prefer `greedy` or `rga:D` when throughput
//! of the simulator matters.

use super::set::{candidates_in_set, IndexedSet};
use super::{PlaneView, VictimPolicy};
use crate::rng::SimRng;

/// Cost-benefit victim selection (LFS / Kawaguchi et al.).
#[derive(Clone, Debug)]
pub struct CostBenefit {
    pages_per_block: u32,
    set: IndexedSet,
}

impl CostBenefit {
    /// A policy for a plane of `blocks_per_plane` blocks of `pages_per_block` pages.
    pub fn new(blocks_per_plane: u32, pages_per_block: u32) -> Self {
        Self {
            pages_per_block,
            set: IndexedSet::new(blocks_per_plane),
        }
    }
}

/// The cost-benefit score `(1 − u) · age / (2u)` of a block, as a float (for reports; the policy
/// itself compares exactly). `+∞` when `valid == 0`.
pub fn cost_benefit_score(valid: u32, pages_per_block: u32, age: u64) -> f64 {
    if valid == 0 {
        return f64::INFINITY;
    }
    let u = valid as f64 / pages_per_block as f64;
    (1.0 - u) * age as f64 / (2.0 * u)
}

impl VictimPolicy for CostBenefit {
    candidates_in_set!();

    fn pick(&mut self, view: &PlaneView<'_>, _rng: &mut SimRng) -> Option<u32> {
        let p = u128::from(self.pages_per_block);
        // The highest score `(P − v) · age / v`; a block with no valid page is chosen at once.
        self.set.take_best(false, |b| {
            let v = u128::from(view.valid(b));
            if v == 0 {
                return None;
            }
            let age = u128::from(view.now.saturating_sub(view.last_modified(b)));
            Some((p.saturating_sub(v) * age, v))
        })
    }
}
