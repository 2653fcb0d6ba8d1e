//! On-demand GC: a plane collects when its free space is below `gc.threshold` (free blocks, or free
//! pages with `gc.trigger = "pages"`) and a host write is about to consume it — the "NPGC" of the
//! preemptible-GC paper (§V-A) and the baseline of the PaGC paper (§III, §VII-A). Reads never
//! trigger GC.
//!
//! `gc.collect` says how much one trigger collects: `restore` (victim after victim while the
//! triggering write's plane is below the threshold, the write waiting throughout) or `one` (one
//! victim, then the write is served — unless the plane is down to its reserve of free blocks (2, or 3 with `ftl.hot_cold`) — and the
//! next write to a plane below the threshold triggers again).
//!
//! With an on-demand trigger the write that triggered a job waits for all of it, so the job runs
//! held to its erase: preemption needs a trigger that starts GC before it is needed (`idle`,
//! `states`).
//!
//! When not to use it: to model a drive that collects in the background.

use super::{Collect, Trigger};
use crate::gc::compose::Axes;
use crate::gc::migration::{instant, Migration};
use crate::gc::scheme::{Action, DieContext, QueuedTxn};

/// The on-demand trigger.
#[derive(Clone, Debug)]
pub struct OnDemand {
    collect: Collect,
    /// Per die: a job triggered by the head write has run; serve that write next (`collect = one`).
    owed: Vec<bool>,
}

impl OnDemand {
    /// An on-demand trigger collecting `collect` per invocation.
    pub fn new(collect: Collect) -> Self {
        OnDemand {
            collect,
            owed: Vec::new(),
        }
    }
}

impl Trigger for OnDemand {
    #[inline(always)]
    fn next(&mut self, cx: &mut DieContext<'_>, gc: &mut Axes) -> Action {
        if !cx.jobs().is_empty() {
            return gc.run(0);
        }
        let Some(&head) = cx.queue().front() else {
            return Action::Idle;
        };
        let die = cx.die as usize;
        if self.owed.len() <= die {
            self.owed.resize(die + 1, false);
        }
        // One victim per trigger: the write that triggered it goes next — unless the plane is down
        // to its last free blocks (a victim full of valid pages gains nothing), when it collects
        // again so that its write points can always open a block.
        if std::mem::take(&mut self.owed[die])
            && cx.ftl().free_blocks(head.plane) >= cx.ftl().reserve_blocks()
        {
            return Action::Host(0);
        }
        if head.write && cx.ftl().needs_gc(head.plane) {
            if gc.migration == Migration::Instant {
                instant::collect(cx, head.plane, self.collect);
                return Action::Host(0);
            }
            if let Some(j) = gc.start(cx, head.plane) {
                self.owed[die] = self.collect == Collect::One;
                return gc.run(j);
            }
        }
        Action::Host(0)
    }

    fn may_preempt(&self, cx: &DieContext<'_>, t: &QueuedTxn) -> bool {
        !(t.write && cx.ftl().needs_gc(t.plane))
    }
}
