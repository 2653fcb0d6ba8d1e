//! Parallel GC across the planes of a die (PaGC): Shahidi et al., "Exploring the Potentials of
//! Parallel Garbage Collection in SSDs for Enterprise Storage Systems", SC 2016
//! (`pagc-parallel-gc-planes.txt`), §V.
//!
//! Serial GC leaves the other planes of a die idle while one collects, because a die executes one
//! command at a time (§III-F). PaGC makes them collect too, each with its own victim, moving pages with
//! multi-plane commands and erasing the victims with one multi-plane erase (§V-A; the migration is
//! planned by [`crate::gc::pagc_plan`] and carried out by the shared mechanism). Which planes join
//! (§V-B):
//!
//! - **B-PaGC** (`pagc-blind`): every plane of the die, always;
//! - **T-PaGC** (`pagc-threshold`): a paired plane joins only if its free-page share is below
//!   `gc.pagc_threshold` (default `gc.threshold + 0.05`), so planes far from needing GC are left alone;
//! - **TC-PaGC** (`pagc-cache`): as T-PaGC, and the pages that would need single-plane writes
//!   (SrRD-SrWR) are read into the DRAM buffer instead and committed later — when the die has no host
//!   work, or before serving host work once a block's worth per plane is buffered — with
//!   multi-plane programs where two or more planes have buffered pages.
//!
//! Otherwise it behaves as the baseline: the trigger is the plane's own threshold, GC runs before the
//! host write that needs it, and a job holds the die until its erase.
//!
//! When not to use it: on dies with one plane (nothing to pair), or to model GC that is preemptible
//! or runs in idle time.

use super::{Action, DieContext, GcScheme};
use crate::config::Config;

/// Which planes join a parallel GC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Join {
    /// Every plane of the die (B-PaGC).
    Blind,
    /// Planes whose free-page share is below the PaGC threshold (T-PaGC).
    Threshold,
    /// As `Threshold`, with single-plane moves through the DRAM buffer (TC-PaGC).
    Cache,
}

/// Parallel GC across the planes of a die.
#[derive(Clone, Debug)]
pub struct Pagc {
    join: Join,
    threshold: f64,
    /// Buffered pages per die above which the buffer is committed before host work.
    buffer_cap: u32,
    planes: Vec<u32>,
}

impl Pagc {
    /// A PaGC scheme for the drive of `cfg`.
    pub fn new(join: Join, cfg: &Config) -> Self {
        Pagc {
            join,
            threshold: cfg.pagc_threshold(),
            buffer_cap: cfg.geometry.pages_per_block * cfg.geometry.planes_per_die,
            planes: Vec::with_capacity(cfg.geometry.planes_per_die as usize),
        }
    }
}

impl GcScheme for Pagc {
    fn next(&mut self, cx: &mut DieContext<'_>) -> Action {
        if !cx.jobs().is_empty() {
            return Action::GcJob(0);
        }
        let cache = self.join == Join::Cache;
        let Some(&head) = cx.queue().front() else {
            return if cache && cx.can_flush() {
                Action::Flush
            } else {
                Action::Idle
            };
        };
        if cache && cx.buffered_pages() >= self.buffer_cap && cx.can_flush() {
            return Action::Flush;
        }
        if head.write && cx.ftl().needs_gc(head.plane) {
            self.planes.clear();
            self.planes.push(head.plane);
            for p in cx.planes() {
                if p != head.plane
                    && (self.join == Join::Blind || cx.ftl().free_share(p) < self.threshold)
                {
                    self.planes.push(p);
                }
            }
            let planes = std::mem::take(&mut self.planes);
            let started = cx.start_parallel_job(&planes, cache);
            self.planes = planes;
            if let Some(j) = started {
                return Action::GcJob(j);
            }
        }
        Action::Host(0)
    }
}
