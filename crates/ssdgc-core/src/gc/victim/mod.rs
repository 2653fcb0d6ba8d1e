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
//!
//! Notifications (`on_full`, `on_invalidate`) are O(1) for every policy and nothing allocates after
//! construction. A new policy is a new module implementing [`VictimPolicy`], a [`VictimKind`]
//! variant, and an entry in [`list`].

pub use crate::ftl::candidates::PlaneView;

/// A victim-selection policy for one plane: the FTL's per-plane candidate index
/// ([`crate::ftl::CandidateIndex`]), which the FTL notifies and the mechanism asks for a victim.
pub use crate::ftl::candidates::CandidateIndex as VictimPolicy;

mod set;

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

pub use cat::Cat;
pub use cost_benefit::CostBenefit;
pub use fifo::Fifo;
pub use greedy::Greedy;
pub use random::Random;
pub use random_plus::RandomPlus;
pub use rga::Rga;
pub use wear_aware::WearAware;

/// The number of choices of a bare `rga` (no `:D`).
pub const RGA_DEFAULT_D: u32 = 8;

/// A victim policy by name, as selected in configurations and on the command line.
///
/// New policies are added as new variants (with a matching entry in [`list`] and in
/// [`VictimKind::from_str`](std::str::FromStr)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VictimKind {
    /// Fewest valid pages ([`Greedy`]).
    Greedy,
    /// Random Greedy Algorithm with `D` choices ([`Rga`]).
    Rga(u32),
    /// Uniformly random candidate ([`Random`]).
    Random,
    /// Uniformly random candidate with at least one invalid page ([`RandomPlus`]).
    RandomPlus,
    /// Oldest full block first ([`Fifo`]).
    Fifo,
    /// LFS / Kawaguchi cost-benefit ([`CostBenefit`]).
    CostBenefit,
    /// Cost-Age-Times ([`Cat`]).
    Cat,
    /// Greedy among blocks no more worn than the average ([`WearAware`]).
    WearAware,
}

/// `(name, one-line description)` of every victim policy, for `ssdgc list victims`.
pub fn list() -> &'static [(&'static str, &'static str)] {
    &[
        ("greedy", "fewest valid pages first; O(1) amortised (bucket lists)"),
        (
            "rga:D",
            "Random Greedy Algorithm: fewest valid among D uniform samples (Li, Lee & Lui, \
             SIGMETRICS 2013); bare `rga` = rga:8",
        ),
        ("random", "uniformly random full block"),
        ("random+", "uniformly random full block with at least one invalid page"),
        ("fifo", "oldest full block first (LRW / circular log)"),
        (
            "cost-benefit",
            "maximise (1-u)*age/(2u) (Rosenblum & Ousterhout 1992; Kawaguchi et al. 1995); O(n) scan",
        ),
        (
            "cat",
            "Cost-Age-Times: minimise u/(1-u)*(erases+1)/(age+1) (Chiang, Lee & Chang 1999); O(n) scan",
        ),
        (
            "wear-aware",
            "fewest valid pages among blocks erased at most the plane's mean + 1 times, else greedy \
             (wear-aware GC of the preemptible-GC paper, §V); O(n) scan",
        ),
    ]
}

impl VictimKind {
    /// The canonical name (parses back to the same kind), e.g. `"greedy"`, `"rga:8"`.
    pub fn name(&self) -> String {
        match self {
            VictimKind::Greedy => "greedy".to_string(),
            VictimKind::Rga(d) => format!("rga:{d}"),
            VictimKind::Random => "random".to_string(),
            VictimKind::RandomPlus => "random+".to_string(),
            VictimKind::Fifo => "fifo".to_string(),
            VictimKind::CostBenefit => "cost-benefit".to_string(),
            VictimKind::Cat => "cat".to_string(),
            VictimKind::WearAware => "wear-aware".to_string(),
        }
    }

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
}

impl std::fmt::Display for VictimKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl std::str::FromStr for VictimKind {
    type Err = String;

    /// Parses `greedy`, `rga:D` (`D >= 1`; bare `rga` means `rga:8`), `random`, `random+`, `fifo`,
    /// `cost-benefit`, `cat`, `wear-aware`. Names are case-insensitive and surrounding whitespace is ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        let kind = match t.as_str() {
            "greedy" => VictimKind::Greedy,
            "rga" => VictimKind::Rga(RGA_DEFAULT_D),
            "random" => VictimKind::Random,
            "random+" => VictimKind::RandomPlus,
            "fifo" => VictimKind::Fifo,
            "cost-benefit" => VictimKind::CostBenefit,
            "cat" => VictimKind::Cat,
            "wear-aware" => VictimKind::WearAware,
            _ => {
                if let Some(d) = t.strip_prefix("rga:") {
                    return match d.trim().parse::<u32>() {
                        Ok(d) if d >= 1 => Ok(VictimKind::Rga(d)),
                        _ => Err(format!(
                            "invalid victim policy `{s}`: rga:D needs an integer D >= 1 (e.g. rga:8)"
                        )),
                    };
                }
                let names: Vec<&str> = list().iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "unknown victim policy `{s}`; valid names: {}",
                    names.join(", ")
                ));
            }
        };
        Ok(kind)
    }
}
