//! `cat` — Cost-Age-Times: minimise `u / (1 − u) · 1 / age · erase_count`.
//!
//! Source: M.-L. Chiang, P. C. H. Lee, R.-C. Chang, "Using data clustering to improve cleaning
//! performance for flash memory", Software: Practice and Experience 29(3), 1999. The policy weighs the
//! copy cost per reclaimed page (`u / (1 − u)`, `u = valid / pages_per_block`) against the block's age
//! (older data is colder and less likely to be invalidated soon) and its erase count (wear levelling).
//!
//! # Variant used here
//!
//! The score is `u / (1 − u) · (erase_count + 1) / (age + 1)`, with `age = now − last_modified`
//! on the drive's logical clock: the `+ 1`s make never-erased blocks comparable with each other and
//! give just-modified blocks a finite score. A fully valid block (`u = 1`) scores `+∞` and is chosen
//! only when every candidate is fully valid; an empty block (`u = 0`) scores `0` and is chosen at once.
//!
//! # Exact arithmetic
//!
//! With `P = pages_per_block` and `v = valid` the score is the fraction
//! `v · (erase_count + 1) / ((P − v) · (age + 1))`; scores are compared by cross-multiplication in
//! `u128` (each product is below 2^128), so choices are exact and platform independent. Ties go to the
//! first candidate in the scan order of the candidate vector (deterministic).
//!
//! # Cost
//!
//! `on_full` / `on_invalidate` are O(1). `pick` scans every candidate: **O(n) per pick**, a tight
//! loop over a dense `Vec<u32>` with no allocation, stopping early at a block with no valid page.
//! As for `cost-benefit`, prefer `greedy` or `rga:D` for very large planes in GC-heavy runs when
//! simulator throughput matters.

use super::set::{candidates_in_set, IndexedSet};
use super::{PlaneView, VictimPolicy};
use crate::rng::SimRng;

/// Cost-Age-Times victim selection (Chiang, Lee & Chang).
#[derive(Clone, Debug)]
pub struct Cat {
    pages_per_block: u32,
    set: IndexedSet,
}

impl Cat {
    /// A policy for a plane of `blocks_per_plane` blocks of `pages_per_block` pages.
    pub fn new(blocks_per_plane: u32, pages_per_block: u32) -> Self {
        Self {
            pages_per_block,
            set: IndexedSet::new(blocks_per_plane),
        }
    }
}

/// The CAT score `u / (1 − u) · (erase_count + 1) / (age + 1)` of a block, as a float (for reports;
/// the policy itself compares exactly). `+∞` when the block is fully valid.
pub fn cat_score(valid: u32, pages_per_block: u32, erase_count: u32, age: u64) -> f64 {
    if valid >= pages_per_block {
        return f64::INFINITY;
    }
    let u = valid as f64 / pages_per_block as f64;
    u / (1.0 - u) * (erase_count as f64 + 1.0) / (age as f64 + 1.0)
}

impl VictimPolicy for Cat {
    candidates_in_set!();

    fn pick(&mut self, view: &PlaneView<'_>, _rng: &mut SimRng) -> Option<u32> {
        let p = u128::from(self.pages_per_block);
        // The lowest score `v · (erase_count + 1) / ((P − v) · (age + 1))`; a fully valid block's
        // denominator is 0 (+∞), a block with no valid page is chosen at once.
        self.set.take_best(true, |b| {
            let v = u128::from(view.valid(b));
            if v == 0 {
                return None;
            }
            let age1 = u128::from(view.now.saturating_sub(view.last_modified(b))) + 1;
            let num = v * (u128::from(view.erase_count[b]) + 1);
            Some((num, p.saturating_sub(v) * age1))
        })
    }
}
