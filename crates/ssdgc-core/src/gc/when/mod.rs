//! The *when* axis: when GC runs relative to host I/O on a die, and how much one invocation
//! collects.
//!
//! A trigger owns the die's scheduling decision ([`Trigger::next`]): it looks at the die's queue,
//! its jobs and its planes' free space, starts jobs through the planes axis
//! ([`super::compose::Axes::start`]) and answers with an [`Action`]. The other axes shape what it
//! does: whether a job runs held or one operation at a time (preemption), which planes collect
//! together (planes), how pages move (migration).
//!
//! | value | trigger | file |
//! |---|---|---|
//! | `on-demand` | a host write to a plane below `gc.threshold` collects first (baseline, PaGC) | [`on_demand`] |
//! | `idle` | in idle time (device queue empty) below `gc.idle_threshold`, on demand at the threshold | [`idle`] |
//! | `ncq` | by the device queue: collect to `gc.idle_threshold` when it is empty (skipping low-gain victims), as late as possible when it holds `gc.ncq_busy` commands, on demand in between (practical-GC paper §III-D) | [`ncq`] |
//! | `states` | soft/hard thresholds and states S0–S3 of the preemptible-GC paper (§III-D) | [`states`] |
//! | `agc` | AGC/DGC paper §5.1: look-ahead GC in short idle periods (from the next command's pre-information), proactive block compaction in long ones, incremental; on demand otherwise | [`agc`] |
//! | `dgc` | AGC/DGC paper §5.2: an on-demand GC is deferred onto a delay block and done by retroactive compaction in idle time; on demand once the reserve is used up | [`dgc`] |
//! | `agc-dgc` | AGC/DGC paper §5.3, Algorithm 1: both | [`agc_dgc`] |
//!
//! The AGC/DGC family shares the bookkeeping of [`jobs`] (what kind of GC each die's job is,
//! the counts by kind).

pub mod agc;
pub mod agc_dgc;
pub mod dgc;
pub mod idle;
pub mod jobs;
pub mod ncq;
pub mod on_demand;
pub mod states;

use super::axis::axis_enum;
use super::compose::Axes;
use super::scheme::{Action, DieContext, QueuedTxn, SchemeStats};

axis_enum!(
    /// When GC runs (`gc.when`).
    When, "gc.when", {
        /// A write about to use a plane below the threshold collects first.
        OnDemand = "on-demand",
        /// In idle time, and on demand at the threshold.
        Idle = "idle",
        /// Soft and hard thresholds, states S0–S3.
        States = "states",
        /// By the device queue's occupancy (NCQ-aware, practical-GC paper §III-D).
        Ncq = "ncq",
        /// Advanced GC: look-ahead GC and proactive block compaction in idle periods (AGC/DGC
        /// paper §5.1).
        Agc = "agc",
        /// Delayed GC: on-demand GC deferred to idle periods (AGC/DGC paper §5.2).
        Dgc = "dgc",
        /// AGC and DGC together (AGC/DGC paper §5.3, Algorithm 1).
        AgcDgc = "agc-dgc",
    }
);

impl When {
    /// True for the AGC/DGC family (`agc`, `dgc`, `agc-dgc`).
    pub fn is_agc_family(self) -> bool {
        matches!(self, When::Agc | When::Dgc | When::AgcDgc)
    }
}

axis_enum!(
    /// How much one on-demand invocation collects (`gc.collect`): the invocation semantics of the
    /// GC firmware. `on-demand` and `idle`'s on-demand fallback follow it; `states` starts one job
    /// (one victim) per decision whatever its value, so `one` describes it exactly.
    ///
    /// The papers' simulators collect one victim per invocation: SSDsim (the PaGC paper's) queues
    /// one GC node — one victim — for each page write that leaves its plane below the threshold
    /// (`get_ppn` in `pagemap.c`), and the MSR SSD extension of DiskSim (the preemptible-GC paper's)
    /// cleans one block per plane per cleaning call (`ssd_clean_element_copyback`), called again on
    /// the element's next activation. The papers' drive presets set `one`.
    Collect, "gc.collect", {
        /// Victim after victim while the triggering write's plane is below the threshold.
        Restore = "restore",
        /// One victim; the write that triggered it is served before the plane collects again.
        One = "one",
    }
);

/// A value of the *when* axis: decides what a free die does next.
pub trait Trigger: Send {
    /// Decides the die's next action, using the other axes in `gc`.
    fn next(&mut self, cx: &mut DieContext<'_>, gc: &mut Axes) -> Action;

    /// [`crate::gc::scheme::GcScheme::quick_next`] for this trigger: `Some(action)` only when
    /// [`Trigger::next`] on die `die`, free with no job and `head` first in its queue (`None`:
    /// empty), would answer `action` (`Action::Host(0)` or `Action::Idle`) and change nothing.
    /// `None` by default.
    fn quick_next(
        &self,
        _die: u32,
        _head: Option<&QueuedTxn>,
        _ftl: &crate::ftl::Ftl,
    ) -> Option<Action> {
        None
    }

    /// Whether queued transaction `t` may run ahead of a preemptible GC job on its die (and so may
    /// suspend its operation in progress, where suspension is on).
    fn may_preempt(&self, cx: &DieContext<'_>, t: &QueuedTxn) -> bool;

    /// Counters the trigger keeps about its decisions.
    fn stats(&self) -> SchemeStats {
        SchemeStats::default()
    }

    /// The AGC/DGC family's counters.
    fn idle_gc(&self) -> jobs::IdleGcStats {
        jobs::IdleGcStats::default()
    }
}

/// Idle-time collection, shared by the triggers that collect while the device is idle (`idle`,
/// `ncq`): on a busy device nothing; else the job in progress goes on; else a job starts in the
/// plane with the fewest free pages among those `wanted`. A job that gains nothing
/// ([`crate::gc::GcJob::gains_nothing`]: a whole block of valid pages at its pick) sets `quiet`, which ends idle collection until the trigger
/// clears it (on the next host write), so idle collection always ends. Returns the action and
/// whether it started a job.
pub(super) fn collect_while_idle(
    cx: &mut DieContext<'_>,
    gc: &mut Axes,
    quiet: &mut bool,
    pages_per_block: u32,
    wanted: impl Fn(&DieContext<'_>, u32) -> bool,
) -> (Action, bool) {
    if !cx.device_idle {
        return (Action::Idle, false);
    }
    if !cx.jobs().is_empty() {
        return (gc.run(0), false);
    }
    if *quiet {
        return (Action::Idle, false);
    }
    // The wanted planes as a bit mask (at most 64 planes per die), tried by fewest free pages
    // (then lowest plane): no allocation per idle decision.
    let first = cx.planes().start;
    let mut left = cx
        .planes()
        .filter(|&p| wanted(cx, p))
        .fold(0u64, |m, p| m | 1 << (p - first));
    while left != 0 {
        let mut best: Option<(u64, u32)> = None;
        let mut m = left;
        while m != 0 {
            let p = first + m.trailing_zeros();
            m &= m - 1;
            let key = (cx.ftl().free_pages(p), p);
            if best.is_none_or(|b| key < b) {
                best = Some(key);
            }
        }
        let (_, p) = best.expect("a plane is left");
        left &= !(1 << (p - first));
        if let Some(j) = gc.start(cx, p) {
            if cx.jobs()[j].gains_nothing(pages_per_block) {
                *quiet = true;
            }
            return (gc.run(j), true);
        }
    }
    (Action::Idle, false)
}
