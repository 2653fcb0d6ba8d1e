//! H-FTL (`ftl.mapping = "hftl"`): the AGC/DGC paper's "2:8 hybrid mapped FTL" (Jung, Prabhakar and
//! Kandemir, Middleware 2012, `agc-dgc-idle-time-gc.txt`, §6 "FTL implementation", citing \[12\] and
//! \[8\]).
//!
//! **Reading of "2:8".** §2.1: "Hybrid mapping FTLs manage a logical block by composing n data
//! block(s) and m update block(s) (n : m mapping)"; §5.1: with "a 2:8 hybrid mapping scheme, κ [the
//! physical blocks per logical block] can be up to ten"; §6.3: "H-FTL had to merge up to ten blocks
//! into two logical blocks". So a *logical group* of n = 2 logical blocks (two data blocks) shares
//! up to m = 8 update blocks, page-mapped within the group (any page of either logical block goes to
//! the group's current update block), and merging the group rewrites its two logical blocks and
//! erases up to ten blocks. `ftl.group_data_blocks` (n, default 2) and `ftl.group_update_blocks`
//! (m, default 8) set the shape; `ftl.log_blocks` caps a plane's update blocks.
//!
//! A group is merged when its m-th update block is full (its update space is used up), or when its
//! plane runs short of free blocks (or of update blocks) and the merge victim policy chooses it.
//! The kinds are L-FTL's ([`super::merge`]): switch or partial when the group has one update block
//! holding one logical block's pages from the first in order, full otherwise — every valid page of
//! both logical blocks copied into two fresh blocks, the old data blocks and every update block
//! erased.
//!
//! Compared with L-FTL ([`super::lftl`]), a group absorbs up to m blocks of writes to its logical
//! blocks before a merge, so workloads with block-level locality merge less often (§6.3: H-FTL
//! "significantly cuts down the GCs by maximizing the block-level locality"), and each merge costs
//! more (up to n blocks of copies, n + m erases).
//!
//! When not to use it: as L-FTL; and with random writes over the whole drive, where each group
//! holds one nearly empty update block and every merge copies two blocks (thrashing, worse than
//! L-FTL's).

use super::logblock::LogBlockFtl;
use super::params::{FtlParams, GroupShape};
use crate::flash::Geometry;

/// The paper's shape: two data blocks and up to eight update blocks per group.
pub const PAPER_SHAPE: GroupShape = GroupShape { data: 2, update: 8 };

/// An empty H-FTL whose groups have the shape of `params.log.shape`.
pub fn new(params: &FtlParams, geo: &Geometry) -> LogBlockFtl {
    LogBlockFtl::new(params, geo)
}

#[cfg(test)]
mod tests;
