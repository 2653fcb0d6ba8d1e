//! A merge of a log-block FTL, as the FTL plans it and the shared GC mechanism carries it out.
//!
//! A log-block FTL (L-FTL, H-FTL; AGC/DGC paper §2.1, §6) reclaims space by *merging* a logical
//! group: the valid pages of its data and update blocks end up in data blocks again, and the blocks
//! they leave are erased. The FTL decides the merge — which group, of which kind, which page goes
//! where, which blocks are erased — and returns it as a [`MergePlan`] (`FtlMechanism::plan_merge`);
//! the GC mechanism (`gc/mod.rs`) executes it one flash operation at a time: each [`PageCopy`] is a
//! page move inside the plane (`FtlMechanism::merge_copy`, copyback or read and write back), then
//! each block of [`MergePlan::erase`] is erased. The mapping changes with each operation as it is
//! dispatched, as for any GC job.
//!
//! The three kinds (Kim et al.'s and Lee et al.'s log-block FTLs, the papers \[8\] and \[12\] of the
//! AGC/DGC paper):
//!
//! | kind | when | copies | erases |
//! |---|---|---|---|
//! | switch | each update block of the group holds its own logical block's pages 0 … last in order (L-FTL: the log block was written in order); update blocks whose pages were all superseded do not count | none: each update block becomes its logical block's data block | the old data blocks (if any) and the superseded update blocks |
//! | partial | as switch, but in one or more update blocks only pages 0 … k−1 are written | the old data block's valid pages k … last, into the update block's pages k … last | the old data blocks (if any) |
//! | full | otherwise | every valid page of the group, into fresh blocks at its offset | every old data block and every update block of the group |

use crate::units::{Lpn, Ppn};

/// The kind of a merge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MergeKind {
    /// The update block becomes the data block; nothing is copied.
    Switch = 0,
    /// The update block, written in order up to a page, is completed from the data block and
    /// becomes the data block.
    Partial = 1,
    /// Every valid page of the group is copied into fresh data blocks.
    Full = 2,
}

impl MergeKind {
    /// Every kind, in index order.
    pub const ALL: [MergeKind; 3] = [MergeKind::Switch, MergeKind::Partial, MergeKind::Full];

    /// The kind's name in reports (`switch`, `partial`, `full`).
    pub fn name(self) -> &'static str {
        match self {
            MergeKind::Switch => "switch",
            MergeKind::Partial => "partial",
            MergeKind::Full => "full",
        }
    }
}

/// One page copy of a merge: the valid page `src` holding `lpn` goes to `dst`, a page of the same
/// plane. Skipped when `lpn` no longer lives at `src` by the time the copy is dispatched (a host
/// write superseded it during the merge): `dst` is then left unprogrammed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageCopy {
    pub src: Ppn,
    pub dst: Ppn,
    pub lpn: Lpn,
}

/// A merge as the FTL planned it: its copies in order, then its erases. When the plan is made the
/// FTL has already re-pointed the group's logical blocks at their new data blocks and detached the
/// blocks to erase; a host write to the group during the merge goes to a fresh update block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergePlan {
    pub kind: MergeKind,
    /// The plane of the group (every page and block of the plan is in it).
    pub plane: u32,
    /// The merged group, plane-local.
    pub group: u32,
    /// Page copies, dispatched in this order (each data block's pages in ascending order).
    pub copies: Vec<PageCopy>,
    /// Plane-local blocks erased after the copies, in this order.
    pub erase: Vec<u32>,
}

/// Counters of one kind of merge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeCounts {
    /// Merges planned.
    pub count: u64,
    /// Pages copied (copies skipped because a host write superseded the page are not counted).
    pub pages_copied: u64,
    /// Blocks erased (counted when the erase is dispatched).
    pub blocks_erased: u64,
}

/// What a log-block FTL holds in update blocks, and how often a write went beyond its group's
/// shape or its plane's cap (a trigger let a write through while a merge was due).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LogStats {
    /// Update blocks held now, drive-wide.
    pub update_blocks: u32,
    /// The most update blocks held at once since the counters were reset.
    pub update_blocks_peak: u32,
    /// Update blocks opened beyond a group's shape (more than m) or the plane's cap
    /// (`ftl.log_blocks`), since the counters were reset.
    pub overflow_blocks: u64,
}
