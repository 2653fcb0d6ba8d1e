//! Idle-time GC — the "idle-based" baseline of the preemptible-GC paper: Lee et al., "Preemptible I/O
//! Scheduling of Garbage Collection for Solid State Drives", IEEE TCAD 32(2), 2013
//! (`preemptible-gc.txt`), §V and Fig. 15.
//!
//! GC runs in the background only while the device queue is empty (no host request admitted and
//! outstanding on any die): a plane whose free-block share is below a *background* level
//! (`gc.idle_threshold`, default twice `gc.threshold`) collects, one job at a time, one operation at
//! a time, so a request arriving in the middle is served before the job's next operation (the job
//! is suspended between page moves, never inside one) — with `gc.preempt = "ops"`, the scheme's
//! default; with `gc.preempt = "none"` an idle job runs to its erase once started. When idle time is too short and a plane
//! still reaches the normal threshold, a write to it collects on demand first, holding the die, as
//! the baseline does — as much as `gc.collect` says (`restore`: until the plane is above the
//! threshold; `one`: one victim, then the write).
//!
//! A victim that turns out to hold only valid pages gains nothing; after one such job the die starts
//! no more idle jobs until it serves a host write, so idle GC always ends.
//!
//! When not to use it: for sustained workloads with no idle time (it degenerates to the baseline),
//! or to study GC that competes with host I/O while requests are queued.

use super::{collect_while_idle, Collect, Trigger};
use crate::gc::compose::Axes;
use crate::gc::scheme::{Action, DieContext, QueuedTxn, SchemeStats};

/// GC in device idle time, plus on-demand GC at the threshold.
#[derive(Clone, Debug)]
pub struct Idle {
    /// Free-page share below which a plane collects in idle time.
    background: f64,
    pages_per_block: u32,
    /// How much an on-demand collection takes.
    collect: Collect,
    /// Per die: an on-demand job of `collect = one` has run; serve the write that triggered it.
    owed: Vec<bool>,
    /// Per die: the last idle job gained no free page; no more until a host write.
    quiet: Vec<bool>,
    stats: SchemeStats,
}

impl Idle {
    /// An idle-time trigger collecting below the free share `background` (`gc.idle_threshold`), and
    /// `collect` per on-demand invocation.
    pub fn new(background: f64, pages_per_block: u32, collect: Collect) -> Self {
        Idle {
            background,
            pages_per_block,
            collect,
            owed: Vec::new(),
            quiet: Vec::new(),
            stats: SchemeStats::default(),
        }
    }
}

impl Trigger for Idle {
    fn next(&mut self, cx: &mut DieContext<'_>, gc: &mut Axes) -> Action {
        let die = cx.die as usize;
        if self.quiet.len() <= die {
            self.quiet.resize(die + 1, false);
            self.owed.resize(die + 1, false);
        }
        if let Some(&head) = cx.queue().front() {
            let owed = std::mem::take(&mut self.owed[die]);
            if head.write && cx.ftl().needs_gc(head.plane) {
                // On demand: the write needs the space now; the job runs to its erase. With
                // `collect = one` the write goes after one job (unless its plane is down to its
                // last free blocks).
                if !cx.jobs().is_empty() {
                    return Action::GcJob(0);
                }
                let served = owed && cx.ftl().free_blocks(head.plane) >= cx.ftl().reserve_blocks();
                if !served {
                    if let Some(j) = gc.start(cx, head.plane) {
                        self.owed[die] = self.collect == Collect::One;
                        return Action::GcJob(j);
                    }
                }
            }
            if head.write {
                self.quiet[die] = false;
            }
            if !cx.jobs().is_empty() {
                self.stats.preemptions += 1;
                if let Some(a) = gc.merge(cx, 0, 0) {
                    return a;
                }
            }
            return Action::Host(0);
        }
        let background = self.background;
        let wanted = |cx: &DieContext<'_>, p: u32| {
            cx.ftl().needs_gc(p) || cx.ftl().free_share(p) < background
        };
        let (action, started) =
            collect_while_idle(cx, gc, &mut self.quiet[die], self.pages_per_block, wanted);
        if started {
            self.stats.idle_jobs += 1;
        }
        action
    }

    fn may_preempt(&self, _cx: &DieContext<'_>, _t: &QueuedTxn) -> bool {
        true
    }

    fn stats(&self) -> SchemeStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use crate::ftl::Ftl;
    use crate::gc::scheme::testing::{self, fill_plane0, small_die};
    use crate::gc::scheme::{Action, GcScheme, QueuedTxn};
    use crate::gc::GcJob;

    fn drive() -> (Config, Ftl) {
        small_die(&[])
    }

    fn decide(
        s: &mut Box<dyn GcScheme>,
        ftl: &mut Ftl,
        queue: &[QueuedTxn],
        jobs: &mut Vec<GcJob>,
        device_idle: bool,
    ) -> Action {
        testing::decide(s.as_mut(), ftl, queue, jobs, device_idle)
    }

    const W0: QueuedTxn = QueuedTxn {
        plane: 0,
        write: true,
        lpn: 0,
        id: 0,
    };

    #[test]
    fn collects_only_when_the_device_is_idle_and_yields_to_host_work() {
        let (cfg, mut ftl) = drive();
        // Above the threshold (7 blocks) but below the background level.
        fill_plane0(&mut ftl, 10);
        let mut s = testing::scheme("idle", &cfg);
        let mut jobs = Vec::new();
        // Another die still has work: no GC.
        assert_eq!(
            decide(&mut s, &mut ftl, &[], &mut jobs, false),
            Action::Idle
        );
        assert!(jobs.is_empty());
        // The device is idle: one operation of a new job.
        assert_eq!(
            decide(&mut s, &mut ftl, &[], &mut jobs, true),
            Action::Gc(0)
        );
        assert_eq!(jobs.len(), 1);
        assert_eq!(s.stats().idle_jobs, 1);
        // A request arrives: it goes first, the job waits.
        assert_eq!(
            decide(&mut s, &mut ftl, &[W0], &mut jobs, false),
            Action::Host(0)
        );
        assert_eq!(s.stats().preemptions, 1);
        // Busy device, job pending, nothing queued here: wait.
        assert_eq!(
            decide(&mut s, &mut ftl, &[], &mut jobs, false),
            Action::Idle
        );
    }

    #[test]
    fn a_write_below_the_threshold_collects_on_demand() {
        let (cfg, mut ftl) = drive();
        fill_plane0(&mut ftl, 5);
        let mut s = testing::scheme("idle", &cfg);
        let mut jobs = Vec::new();
        assert_eq!(
            decide(&mut s, &mut ftl, &[W0], &mut jobs, false),
            Action::GcJob(0)
        );
        assert_eq!(s.stats().idle_jobs, 0);
    }

    #[test]
    fn with_one_victim_per_invocation_the_write_goes_after_one_job() {
        for (collect, second) in [("one", Action::Host(0)), ("restore", Action::GcJob(0))] {
            let (cfg, mut ftl) = small_die(&[&format!("gc.collect=\"{collect}\"")]);
            fill_plane0(&mut ftl, 5);
            let mut s = testing::scheme("idle", &cfg);
            let mut jobs = Vec::new();
            assert_eq!(
                decide(&mut s, &mut ftl, &[W0], &mut jobs, false),
                Action::GcJob(0)
            );
            // Run the job to its erase: the plane is still below the threshold (7 free blocks),
            // so `restore` collects again and `one` serves the write.
            let mut job = jobs.pop().unwrap();
            while let Ok(Some(_)) = crate::gc::dispatch_next(&mut ftl, &mut job) {}
            assert!(ftl.needs_gc(0), "{collect}");
            assert_eq!(
                decide(&mut s, &mut ftl, &[W0], &mut jobs, false),
                second,
                "{collect}"
            );
        }
    }
}
