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
//!
//! # Policies
//!
//! | name | module | choice | cost per pick |
//! |---|---|---|---|
//! | `greedy` | [`greedy`] | fewest valid pages (LIFO among ties) | O(1) amortised |
//! | `rga:D` | [`rga`] | fewest valid among `D` uniform samples | O(D) |
//! | `random` | [`random`] | uniform | O(1) |
//! | `random+` | [`random_plus`] | uniform among blocks with an invalid page | O(1) |
//! | `fifo` | [`fifo`] | oldest full block | O(1) |
//! | `cost-benefit` | [`cost_benefit`] | max `(1 − u)·age / (2u)` | O(n) scan |
//! | `cat` | [`cat`] | min `u/(1 − u)·(erases + 1)/(age + 1)` | O(n) scan |
//! | `wear-aware` | [`wear_aware`] | fewest valid among blocks with erases ≤ mean + 1 | O(n) scan |
//! | `alpha:A` | [`alpha`] | min `A·valid + (1 − A)·erases` | O(log n) (heap) |
//!
//! Notifications (`on_full`, `on_invalidate`) are O(1) for every policy but `alpha` (O(log n)) and nothing allocates after
//! construction. A new policy is a new module implementing [`VictimPolicy`], a [`VictimKind`]
//! variant with its entry in [`POLICIES`] (name, description, typed parameters), and its arm in
//! [`VictimKind::build`] ([`kind`] describes how `gc.victim` is written and checked).

pub use crate::ftl::candidates::PlaneView;

/// A victim-selection policy for one plane: the FTL's per-plane candidate index
/// ([`crate::ftl::CandidateIndex`]), which the FTL notifies and the mechanism asks for a victim.
pub use crate::ftl::candidates::CandidateIndex as VictimPolicy;

pub mod kind;
mod set;

pub mod alpha;
pub mod cat;
pub mod cost_benefit;
pub mod fifo;
pub mod greedy;
pub mod random;
pub mod random_plus;
pub mod rga;
pub mod wear_aware;

#[cfg(test)]
mod tests;

pub use self::kind::{
    Param, ParamType, ParamValue, Policy, TableValue, VictimKind, POLICIES, RGA_DEFAULT_D,
};
pub use alpha::Alpha;
pub use cat::Cat;
pub use cost_benefit::CostBenefit;
pub use fifo::Fifo;
pub use greedy::Greedy;
pub use random::Random;
pub use random_plus::RandomPlus;
pub use rga::Rga;
pub use wear_aware::WearAware;

/// `(synopsis, one-line description)` of every victim policy, for `ssdgc list victims`: the
/// synopsis is the string form with its parameters (`rga:D`).
pub fn list() -> Vec<(String, &'static str)> {
    POLICIES.iter().map(|p| (p.synopsis(), p.about)).collect()
}

impl VictimKind {
    /// A fresh policy instance for one plane of `blocks_per_plane` blocks of `pages_per_block` pages.
    pub fn build(&self, blocks_per_plane: u32, pages_per_block: u32) -> Box<dyn VictimPolicy> {
        match *self {
            VictimKind::Greedy => Box::new(Greedy::new(blocks_per_plane, pages_per_block)),
            VictimKind::Rga(d) => Box::new(Rga::new(d, blocks_per_plane)),
            VictimKind::Random => Box::new(Random::new(blocks_per_plane)),
            VictimKind::RandomPlus => Box::new(RandomPlus::new(blocks_per_plane, pages_per_block)),
            VictimKind::Fifo => Box::new(Fifo::new(blocks_per_plane)),
            VictimKind::CostBenefit => {
                Box::new(CostBenefit::new(blocks_per_plane, pages_per_block))
            }
            VictimKind::Cat => Box::new(Cat::new(blocks_per_plane, pages_per_block)),
            VictimKind::WearAware => Box::new(WearAware::new(blocks_per_plane)),
            VictimKind::Alpha(a) => Box::new(Alpha::new(a, blocks_per_plane)),
        }
    }
}

impl crate::ftl::CandidateIndexKind for VictimKind {
    fn name(&self) -> String {
        VictimKind::name(self)
    }

    fn build(&self, blocks_per_plane: u32, pages_per_block: u32) -> Box<dyn VictimPolicy> {
        VictimKind::build(self, blocks_per_plane, pages_per_block)
    }

    /// Greedy's index inline in the FTL; every other policy's behind the trait.
    fn build_plane(
        &self,
        blocks_per_plane: u32,
        pages_per_block: u32,
    ) -> crate::ftl::candidates::PlaneIndex {
        match *self {
            VictimKind::Greedy => crate::ftl::candidates::PlaneIndex::Greedy(Greedy::new(
                blocks_per_plane,
                pages_per_block,
            )),
            _ => crate::ftl::candidates::PlaneIndex::Policy(
                self.build(blocks_per_plane, pages_per_block),
            ),
        }
    }
}
