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
}
