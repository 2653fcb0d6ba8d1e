//! `wear-aware` — greedy among the candidates that are not more worn than the plane's average.
//!
//! The wear-aware GC baseline of the preemptible-GC paper (Lee et al., IEEE TCAD 32(2), 2013,
//! `preemptible-gc.txt`, §V and its ref. \[19\]): a block whose erase count exceeds the plane's
//! average is kept out of collection so that erases spread evenly. Among the candidates with
//! `erase_count ≤ mean + WEAR_SLACK` (mean over every block of the plane, compared exactly as
//! `erase_count · n ≤ Σ erase_count + WEAR_SLACK · n`) the one with the fewest valid pages is chosen;
//! ties go to the less worn block, then to the first in the candidate vector's scan order. When no
//! candidate qualifies the choice falls back to plain greedy over all candidates, so a plane with a
//! candidate always gets a victim.
//!
//! # Cost
//!
//! `on_full` / `on_invalidate` are O(1). `pick` is **O(blocks per plane)**: one pass over the erase
//! counts for the mean, one over the candidates. Prefer `greedy` when simulator throughput matters
//! more than wear.

use super::set::{candidates_in_set, IndexedSet};
use super::{PlaneView, VictimPolicy};
use crate::rng::SimRng;

/// Erases above the plane's mean a block may have and still be chosen first.
pub const WEAR_SLACK: u64 = 1;

/// Greedy restricted to blocks no more worn than the average (plus [`WEAR_SLACK`]).
#[derive(Clone, Debug)]
pub struct WearAware {
    set: IndexedSet,
}

impl WearAware {
    /// A policy for a plane of `blocks_per_plane` blocks.
    pub fn new(blocks_per_plane: u32) -> Self {
        Self {
            set: IndexedSet::new(blocks_per_plane),
        }
    }
}

/// True when `erases` is within [`WEAR_SLACK`] of the mean of `counts`.
pub fn within_mean(erases: u32, counts: &[u32]) -> bool {
    let n = counts.len().max(1) as u64;
    let sum: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    u64::from(erases) * n <= sum + WEAR_SLACK * n
}

impl VictimPolicy for WearAware {
    candidates_in_set!();

    fn pick(&mut self, view: &PlaneView<'_>, _rng: &mut SimRng) -> Option<u32> {
        if self.set.is_empty() {
            return None;
        }
        let n = view.erase_count.len().max(1) as u64;
        let sum: u64 = view.erase_count.iter().map(|&c| u64::from(c)).sum();
        let limit = sum + WEAR_SLACK * n;
        // (not worn, valid, erases) ordered so that the smallest key wins: qualifying blocks first.
        let mut best: Option<((bool, u16, u32), usize)> = None;
        for (slot, &block) in self.set.as_slice().iter().enumerate() {
            let b = block as usize;
            let worn = u64::from(view.erase_count[b]) * n > limit;
            let key = (worn, view.valid(b), view.erase_count[b]);
            if best.is_none_or(|(k, _)| key < k) {
                best = Some((key, slot));
            }
        }
        best.map(|(_, slot)| self.set.remove_slot(slot))
    }
}
