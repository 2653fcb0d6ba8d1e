//! What an FTL is built from: plain values, no configuration types. (`Config` converts into
//! [`FtlParams`]: `Ftl::new(&cfg, &geo)`.)

use std::sync::Arc;

use super::candidates::CandidateIndexKind;
use super::pool::PoolOrder;
use super::streams::StreamLayout;
use crate::flash::AllocationOrder;

/// When a plane needs GC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trigger {
    /// Free blocks below which a plane collects (at least 2).
    pub blocks: u32,
    /// With the free-page trigger: free pages (free blocks and the rest of the open write points)
    /// below which a plane collects; it also collects below two free blocks.
    pub pages: Option<u64>,
}

/// Everything an FTL needs besides the geometry.
#[derive(Clone, Debug)]
pub struct FtlParams {
    /// Static allocation of logical pages to planes.
    pub allocation: AllocationOrder,
    /// When a plane needs GC.
    pub trigger: Trigger,
    /// The order of each plane's free pool.
    pub pool: PoolOrder,
    /// The write points of each plane and where their blocks come from.
    pub streams: StreamLayout,
    /// GC copies hot and cold valid pages to separate streams (HC classification, practical-GC
    /// paper §III-B; [`super::page::HcTable`]); off, they share the `Gc` stream.
    pub hot_cold: bool,
    /// Builds each plane's index of victim candidates (the victim policy).
    pub candidates: Arc<dyn CandidateIndexKind>,
    /// The mapping scheme.
    pub mapping: MappingKind,
    /// The log-block mappings' parameters (unused by the page-mapped FTL).
    pub log: LogParams,
}

crate::keyword::keyword_enum!(
    /// The mapping scheme of the FTL (`ftl.mapping`).
    #[derive(Default)]
    MappingKind, "ftl.mapping", {
        /// Pure page-level mapping ([`super::page`]).
        #[default]
        Page = "page",
        /// L-FTL: block-mapped data blocks, one page-mapped log block per logical block
        /// ([`super::lftl`]; AGC/DGC paper §6, §6.5).
        Lftl = "lftl",
        /// H-FTL: n:m hybrid log-block mapping, n data blocks sharing up to m update blocks per
        /// logical group ([`super::hftl`]; AGC/DGC paper §2.1, §6).
        Hftl = "hftl",
    }
);

impl MappingKind {
    /// True for the log-block mappings (L-FTL, H-FTL).
    pub fn is_log_block(self) -> bool {
        self != MappingKind::Page
    }
}

/// The shape of a log-block FTL's logical group: `data` logical blocks (each with at most one data
/// block) sharing up to `update` update (log) blocks, page-mapped within the group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupShape {
    /// Logical blocks per group (n).
    pub data: u32,
    /// Update blocks a group may hold before it must be merged (m).
    pub update: u32,
}

/// Which logical group a log-block FTL merges when none is due (`gc.victim`, as far as it applies
/// to merges).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MergeVictim {
    /// `greedy`: the cheapest merge, fewest pages copied per update block released (ties: the
    /// group whose update blocks are oldest).
    #[default]
    Greedy,
    /// `fifo`: the group whose first update block was opened longest ago (round robin over the log
    /// blocks, as BAST replaces them).
    Fifo,
    /// `random`: a uniformly random group with update blocks.
    Random,
}

/// The parameters of a log-block FTL (`ftl.mapping` = `lftl` or `hftl`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogParams {
    /// The logical group's shape (L-FTL 1:1, H-FTL n:m).
    pub shape: GroupShape,
    /// Most update blocks a plane holds (`ftl.log_blocks`); 0: as many as its free blocks allow.
    pub log_blocks: u32,
    /// Which group is merged when none is due.
    pub victim: MergeVictim,
}

impl Default for LogParams {
    /// L-FTL's 1:1 shape, no cap, greedy merges.
    fn default() -> Self {
        LogParams {
            shape: GroupShape { data: 1, update: 1 },
            log_blocks: 0,
            victim: MergeVictim::Greedy,
        }
    }
}
