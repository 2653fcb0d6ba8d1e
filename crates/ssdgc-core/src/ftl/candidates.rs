//! The per-plane index of victim candidates, as the FTL needs it.
//!
//! The FTL keeps, for every plane, an index of its *full* blocks (written to the last page and not yet
//! chosen as victims) and tells it when a block becomes a candidate ([`CandidateIndex::on_full`]) and
//! when one of a candidate's pages becomes invalid ([`CandidateIndex::on_invalidate`]); the GC
//! mechanism asks it for a victim ([`CandidateIndex::pick`]). The FTL defines this interface and
//! never knows which policy sits behind it: the victim policies of the GC layer implement it, and the
//! drive hands the FTL a [`CandidateIndexKind`] that builds one instance per plane.

use super::greedy::Greedy;
use super::BlockState;
use crate::rng::SimRng;

/// One block's record in a block table: what a host write or an allocation updates of the block,
/// kept together so that an update touches one record (one bounds check, one cache line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockInfo {
    /// Logical time of the block's last change (program or invalidation), in page programs of the
    /// drive. Ages are measured on this clock, so they are meaningful during preconditioning, which
    /// does not advance simulated time.
    pub last_modified: u64,
    /// Valid pages.
    pub valid: u16,
    /// Where the block is in its life cycle.
    pub state: BlockState,
}

impl BlockInfo {
    /// A free block, never written.
    pub const FREE: BlockInfo = BlockInfo {
        last_modified: 0,
        valid: 0,
        state: BlockState::Free,
    };
}

/// What a candidate index may read about the blocks of its plane. Slices are indexed by the block's
/// index within the plane (`0..blocks_per_plane`).
#[derive(Clone, Copy)]
pub struct PlaneView<'a> {
    /// Each block's record (valid pages, clock of its last change: [`BlockInfo`]).
    pub blocks: &'a [BlockInfo],
    /// Erase count per block.
    pub erase_count: &'a [u32],
    /// The current logical time (page programs of the drive so far).
    pub now: u64,
    /// Pages per block.
    pub pages_per_block: u32,
}

impl PlaneView<'_> {
    /// Valid pages of block `b` (panics beyond the plane).
    #[inline(always)]
    pub fn valid(&self, b: usize) -> u16 {
        self.blocks[b].valid
    }

    /// [`BlockInfo::last_modified`] of block `b` (panics beyond the plane).
    #[inline(always)]
    pub fn last_modified(&self, b: usize) -> u64 {
        self.blocks[b].last_modified
    }
}

/// An index of one plane's victim candidates, kept current by the FTL's notifications; it decides
/// which candidate is collected next.
pub trait CandidateIndex: Send {
    /// Block `block` has become a candidate (it was just filled).
    fn on_full(&mut self, block: u32, view: &PlaneView<'_>);
    /// A page of candidate `block` was invalidated; it had `old_valid` valid pages before, and
    /// `view.valid[block] == old_valid - 1` now.
    fn on_invalidate(&mut self, block: u32, old_valid: u16, view: &PlaneView<'_>);
    /// Chooses a victim among the candidates and removes it from them. `None` when there is no
    /// candidate (or, for policies that require it, none that qualifies).
    fn pick(&mut self, view: &PlaneView<'_>, rng: &mut SimRng) -> Option<u32>;
    /// The fewest valid pages of any candidate, when the index can tell without a scan (`greedy`
    /// and `alpha` keep it); `None` when it has no candidate or does not index valid counts, in
    /// which case the FTL scans the plane's full blocks. A query: it changes nothing.
    fn fewest_valid(&self, _view: &PlaneView<'_>) -> Option<u16> {
        None
    }
    /// Cache hint: `block` will soon lose a valid page ([`CandidateIndex::on_invalidate`]); an
    /// index may ask the CPU to fetch what that will touch. Changes nothing; by default nothing.
    fn prefetch(&self, _block: u32) {}
    /// Number of candidates currently held.
    fn len(&self) -> usize;
    /// True when no candidate is held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The candidates, in an order in which [`CandidateIndex::on_full`] on a fresh index of the
    /// same policy, given the plane's view as it stands, rebuilds an index that picks exactly as
    /// this one does from then on (the FTL's snapshots of an aged drive rely on it). `None` when
    /// the policy cannot say so, which makes the FTL's state impossible to snapshot.
    fn rebuild_order(&self) -> Option<Vec<u32>> {
        None
    }
}

/// Builds the candidate index of each plane, and names the policy it implements (for reports).
pub trait CandidateIndexKind: Send + Sync + std::fmt::Debug {
    /// The policy's canonical name, e.g. `"greedy"`.
    fn name(&self) -> String;
    /// A fresh, empty index for one plane of `blocks_per_plane` blocks of `pages_per_block` pages.
    fn build(&self, blocks_per_plane: u32, pages_per_block: u32) -> Box<dyn CandidateIndex>;
    /// The index as the FTL keeps it: by default [`CandidateIndexKind::build`]'s, behind the
    /// trait; a greedy policy answers with the FTL's own greedy index, kept inline.
    fn build_plane(&self, blocks_per_plane: u32, pages_per_block: u32) -> PlaneIndex {
        PlaneIndex::Policy(self.build(blocks_per_plane, pages_per_block))
    }
}

/// A plane's candidate index as the FTL keeps it: greedy's ([`Greedy`], the usual policy, whose
/// index hears of every host write) inline and called without dynamic dispatch, any other
/// policy's behind the trait. Either way it is a [`CandidateIndex`].
pub enum PlaneIndex {
    Greedy(Greedy),
    Policy(Box<dyn CandidateIndex>),
}

/// Runs `$body` with `$i` bound to the index behind `$self` (a `PlaneIndex`).
macro_rules! with_index {
    ($self:expr, $i:ident => $body:expr) => {
        match $self {
            PlaneIndex::Greedy($i) => $body,
            PlaneIndex::Policy($i) => $body,
        }
    };
}

impl CandidateIndex for PlaneIndex {
    #[inline]
    fn on_full(&mut self, block: u32, view: &PlaneView<'_>) {
        with_index!(self, i => i.on_full(block, view))
    }
    #[inline]
    fn on_invalidate(&mut self, block: u32, old_valid: u16, view: &PlaneView<'_>) {
        with_index!(self, i => i.on_invalidate(block, old_valid, view))
    }
    #[inline]
    fn pick(&mut self, view: &PlaneView<'_>, rng: &mut SimRng) -> Option<u32> {
        with_index!(self, i => i.pick(view, rng))
    }
    fn fewest_valid(&self, view: &PlaneView<'_>) -> Option<u16> {
        with_index!(self, i => i.fewest_valid(view))
    }
    #[inline]
    fn prefetch(&self, block: u32) {
        with_index!(self, i => i.prefetch(block))
    }
    #[inline]
    fn len(&self) -> usize {
        with_index!(self, i => i.len())
    }
    #[inline]
    fn is_empty(&self) -> bool {
        with_index!(self, i => i.is_empty())
    }
    fn rebuild_order(&self) -> Option<Vec<u32>> {
        with_index!(self, i => i.rebuild_order())
    }
}
