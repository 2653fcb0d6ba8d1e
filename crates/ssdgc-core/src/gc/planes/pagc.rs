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
//!   `gc.pagc_threshold` (default `gc.threshold × 1.05`, the paper's "5% larger"; `gc.pagc_margin =
//!   "points"` gives `gc.threshold + 0.05`), so planes far from needing GC are left alone;
//! - **TC-PaGC** (`pagc-cache`): as T-PaGC, and the pages that would need single-plane writes
//!   (SrRD-SrWR) are read into the DRAM buffer instead and committed later — when the die has no host
//!   work, or before serving host work once a block's worth per plane is buffered — with
//!   multi-plane programs where two or more planes have buffered pages.
//!
//! This is the *planes* axis: it decides which planes collect together when one plane starts a job.
//! When GC runs is the trigger's (the paper's schemes are on demand, before the host write that needs
//! it, a job holding the die until its erase); PaGC combines with the other triggers and with
//! preemption too.
//!
//! When not to use it: on dies with one plane (nothing to pair).

use crate::gc::scheme::DieContext;

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
    /// Free-page share below which a paired plane joins (T-PaGC, TC-PaGC).
    threshold: f64,
    /// Buffered pages per die above which the buffer is committed before host work.
    buffer_cap: u32,
    /// Scratch list of the planes of a job.
    planes: Vec<u32>,
}

impl Pagc {
    /// Joining by `join`, paired planes joining below the free-page share `threshold`, on dies of
    /// `planes_per_die` planes of `pages_per_block`-page blocks.
    pub fn new(join: Join, threshold: f64, planes_per_die: u32, pages_per_block: u32) -> Self {
        Pagc {
            join,
            threshold,
            buffer_cap: pages_per_block * planes_per_die,
            planes: Vec::with_capacity(planes_per_die as usize),
        }
    }

    /// Starts a parallel job for `plane` and the planes of its die that join; returns its index.
    pub fn start(&mut self, cx: &mut DieContext<'_>, plane: u32) -> Option<usize> {
        self.planes.clear();
        self.planes.push(plane);
        for p in cx.planes() {
            if p != plane && (self.join == Join::Blind || cx.ftl().free_share(p) < self.threshold) {
                self.planes.push(p);
            }
        }
        let planes = std::mem::take(&mut self.planes);
        let started = cx.start_parallel_job(&planes, self.join == Join::Cache);
        self.planes = planes;
        started
    }

    /// TC-PaGC: the die commits its buffered pages now — when it has no host work, or before host
    /// work once a block's worth per plane is buffered — if some plane can.
    pub fn wants_flush(&self, cx: &DieContext<'_>) -> bool {
        self.join == Join::Cache
            && (cx.queue().is_empty() || cx.buffered_pages() >= self.buffer_cap)
            && cx.can_flush()
    }
}
