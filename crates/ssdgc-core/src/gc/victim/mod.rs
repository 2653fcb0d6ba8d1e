//! Victim-selection policies.
//!
//! A policy only *decides* which block of a plane to collect next; the shared GC mechanism
//! (`crate::gc`) carries the decision out. One instance serves one plane and keeps whatever index it
//! needs, kept current through the notifications below, so that a choice costs no scan of the plane
//! where the policy allows it (greedy is O(1) amortised).
//!
//! Candidates are the plane's *full* blocks: written to the last page and not yet chosen as victims.
//! The mechanism calls [`VictimPolicy::on_full`] when a block becomes a candidate, and
//! [`VictimPolicy::on_invalidate`] when one of a candidate's valid pages becomes invalid. Open blocks,
//! free blocks and blocks already being collected are never candidates.

use crate::rng::SimRng;

/// What a policy may read about the blocks of its plane. Slices are indexed by the block's index
/// within the plane (`0..blocks_per_plane`).
#[derive(Clone, Copy)]
pub struct PlaneView<'a> {
    /// Valid pages per block.
    pub valid: &'a [u16],
    /// Erase count per block.
    pub erase_count: &'a [u32],
    /// Logical time of the block's last change (program or invalidation), in page programs of the
    /// drive. Ages are measured on this clock, so they are meaningful during preconditioning, which
    /// does not advance simulated time.
    pub last_modified: &'a [u64],
    /// The current logical time (page programs of the drive so far).
    pub now: u64,
    /// Pages per block.
    pub pages_per_block: u32,
}

/// A victim-selection policy for one plane.
pub trait VictimPolicy: Send {
    /// Block `block` has become a candidate (it was just filled).
    fn on_full(&mut self, block: u32, view: &PlaneView<'_>);
    /// A page of candidate `block` was invalidated; it had `old_valid` valid pages before, and
    /// `view.valid[block] == old_valid - 1` now.
    fn on_invalidate(&mut self, block: u32, old_valid: u16, view: &PlaneView<'_>);
    /// Chooses a victim among the candidates and removes it from them. `None` when there is no
    /// candidate (or, for policies that require it, none that qualifies).
    fn pick(&mut self, view: &PlaneView<'_>, rng: &mut SimRng) -> Option<u32>;
    /// Number of candidates currently held.
    fn len(&self) -> usize;
    /// True when no candidate is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
