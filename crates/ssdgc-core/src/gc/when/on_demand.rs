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
use crate::ftl::Ftl;
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

    /// An empty queue: idle. Else, with no job owed to `head` (a job it triggered has not just
    /// run) and no GC due for it, `next` would serve it.
    #[inline(always)]
    fn quick_next(&self, die: u32, head: Option<&QueuedTxn>, ftl: &Ftl) -> Option<Action> {
        let Some(head) = head else {
            return Some(Action::Idle);
        };
        if self.owed.get(die as usize).copied().unwrap_or(false)
            || (head.write && ftl.needs_gc(head.plane))
        {
            return None;
        }
        Some(Action::Host(0))
    }

    fn may_preempt(&self, cx: &DieContext<'_>, t: &QueuedTxn) -> bool {
        !(t.write && cx.ftl().needs_gc(t.plane))
    }
}

#[cfg(test)]
mod tests {
    use crate::gc::scheme::testing::{self, fill_plane0, small_die};
    use crate::gc::scheme::{Action, QueuedTxn};

    /// Wherever the shortcut answers, the full decision answers the same and starts nothing; it
    /// answers for an empty queue, reads and writes with space, never for a write that needs GC.
    #[test]
    fn quick_next_only_where_next_decides_the_same() {
        for collect in ["one", "restore"] {
            let (cfg, mut ftl) = small_die(&[&format!("gc.collect={collect}")]);
            let mut s = testing::scheme("baseline", &cfg);
            let lpn_of = |ftl: &crate::ftl::Ftl, plane: u32| {
                (0..ftl.geometry().logical_pages)
                    .find(|&l| ftl.plane_of(l) == plane)
                    .expect("a page of the plane")
            };
            let (mut served, mut declined) = (0, 0);
            // The threshold is 7 free blocks.
            for free in [12, 8, 7, 6, 4] {
                fill_plane0(&mut ftl, free);
                let mut jobs = Vec::new();
                assert_eq!(s.quick_next(0, None, &ftl), Some(Action::Idle));
                let a = testing::decide(s.as_mut(), &mut ftl, &[], &mut jobs, false);
                assert_eq!(a, Action::Idle);
                assert!(jobs.is_empty());
                for plane in [0, 1] {
                    for write in [false, true] {
                        let head = QueuedTxn {
                            plane,
                            write,
                            lpn: lpn_of(&ftl, plane),
                            id: 0,
                        };
                        let quick = s.quick_next(0, Some(&head), &ftl);
                        let a = testing::decide(s.as_mut(), &mut ftl, &[head], &mut jobs, false);
                        if let Some(q) = quick {
                            assert_eq!(q, Action::Host(0));
                            assert_eq!(a, q, "{collect}, {free} free, {head:?}");
                            assert!(jobs.is_empty());
                            assert_eq!(s.quick_next(0, Some(&head), &ftl), quick, "no change");
                            served += 1;
                        } else {
                            declined += 1;
                            jobs.clear();
                        }
                        if write && plane == 0 && free < 7 {
                            assert_eq!(quick, None, "a write that needs GC");
                        }
                    }
                }
            }
            assert!(served > 0 && declined > 0);
        }
    }
}
