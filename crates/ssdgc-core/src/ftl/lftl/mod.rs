//! L-FTL (`ftl.mapping = "lftl"`): the AGC/DGC paper's "log-structured FTL" (Jung, Prabhakar and
//! Kandemir, "Taking Garbage Collection Overheads off the Critical Path in SSDs", Middleware 2012,
//! `agc-dgc-idle-time-gc.txt`, §6 "FTL implementation", citing \[12\] and \[8\]), whose behaviour the
//! paper describes as that of a log-block FTL: "preparing free blocks using fully-occupied blocks in
//! advance helps to prevent the log block thrashing problem (in L-FTL)" (§6.5). ssdgc builds it
//! as the block-mapping FTL of §2.1, "one data and one update block (1:1 mapping)" per logical
//! block, with a page-mapped update (log) block — BAST, Kim et al.'s log-block scheme.
//!
//! Each logical block (`pages_per_block` consecutive logical pages of a plane, see
//! [`super::logblock`]) has at most one data block, where its pages sit at their offsets, and at
//! most one log block, which takes its writes in any order. The plane's log blocks come from its
//! free pool, as many as its free blocks allow above the GC threshold (or `ftl.log_blocks`). When
//! a log block is full, or the plane runs short of free blocks (or of log blocks), a log block is
//! merged with its data block ([`super::merge`]): a *switch* merge when the log block was written
//! sequentially from its first page to its last (it becomes the data block: one erase, no copy), a
//! *partial* merge when it was written sequentially up to a page (the rest is copied from the data
//! block: one erase), a *full* merge otherwise (every valid page is copied into a fresh block: two
//! erases).
//!
//! **Log-block thrashing.** Random writes spread over more logical blocks than the plane has log
//! blocks: nearly every write opens a log block for a logical block that has none, and takes the
//! place of another log block that holds a page or two, whose full merge copies a whole block.
//! The merge counters (`ftl.merges.full`) show it.
//!
//! When not to use it: to study a drive whose controller keeps a page-level map (most SSDs since
//! the paper: use `page`); to study log-block FTLs that associate a log block with several data
//! blocks (FAST, or H-FTL: [`super::hftl`]).

use super::logblock::LogBlockFtl;
use super::params::{FtlParams, GroupShape, LogParams};
use crate::flash::Geometry;

/// L-FTL's group: one data block and one log block per logical block.
pub const SHAPE: GroupShape = GroupShape { data: 1, update: 1 };

/// An empty L-FTL (the group shape of `params` is replaced by [`SHAPE`]).
pub fn new(params: &FtlParams, geo: &Geometry) -> LogBlockFtl {
    let params = FtlParams {
        log: LogParams {
            shape: SHAPE,
            ..params.log
        },
        ..params.clone()
    };
    LogBlockFtl::new(&params, geo)
}

#[cfg(test)]
mod tests;
