//! Baseline on-demand serial GC — the "NPGC" of the preemptible-GC paper (§V-A) and the "baseline"
//! of the PaGC paper (§III, §VII-A).
//!
//! A plane collects when its free blocks fall below `gc.threshold` and a host write is about to
//! consume its space; the job runs before that write and, once started, holds the die until the
//! victim is erased: no host operation on any plane of the die runs in between (non-preemptible,
//! serial). Reads do not trigger GC.
//!
//! When not to use it: as a model of a modern drive with background or preemptible GC; it is the
//! worst case the other schemes are measured against.

use super::{Action, DieContext, GcScheme};

/// On-demand, non-preemptible GC that holds the die.
#[derive(Clone, Copy, Debug, Default)]
pub struct Baseline;

impl GcScheme for Baseline {
    fn next(&mut self, cx: &mut DieContext<'_>) -> Action {
        if !cx.jobs().is_empty() {
            return Action::GcJob(0);
        }
        let Some(&head) = cx.queue().front() else {
            return Action::Idle;
        };
        if head.write && cx.ftl().needs_gc(head.plane) {
            if let Some(j) = cx.start_job(head.plane) {
                return Action::GcJob(j);
            }
        }
        Action::Host(0)
    }
}
