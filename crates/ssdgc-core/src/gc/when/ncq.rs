//! NCQ-aware GC timing — the practical-GC paper (Nam and Kim, `practical-gc-design.txt`, §III-D):
//! when GC runs depends on how full the host interface's command queue (NCQ) is.
//!
//! - **Queue empty** (no host command in the device queue): a plane whose free-block share is below
//!   the "enough" level (`gc.idle_threshold`, default twice `gc.threshold`) collects, victim after
//!   victim, one operation at a time so that an arriving command goes first; a plane whose best
//!   candidate would gain little — fewer than `gc.ncq_min_gain` × pages-per-block invalid pages —
//!   is skipped (at least one page; "if a victim block has few invalid pages, the gain … would be small").
//! - **Queue busy** (at least `gc.ncq_busy` commands in the device queue): GC is deferred as late as
//!   possible — a write collects first only when its plane is down to its last
//!   [`LATE_FLOOR`] free blocks (one for each write point a move or the write may open: host, hot and
//!   cold GC data, plus one spare).
//! - **In between**: on demand, as the baseline — a write to a plane below `gc.threshold` collects
//!   first.
//! - **No free space**: whatever the queue, a write to a plane below the floor collects first.
//!
//! A job started in idle time is preempted between operations by host commands (as `idle`), and
//! finished held only when a write needs its plane's space. The device queue's length comes from
//! the drive's preview ([`crate::gc::scheme::DeviceQueue`]), so the scheme previews.
//!
//! When not to use it: to model a drive without a command queue (SAS/NVMe queues behave alike, but
//! a drive with a single outstanding command never sees a busy queue: use `on-demand` or `idle`).

use super::{collect_while_idle, Trigger};
use crate::gc::compose::Axes;
use crate::gc::scheme::{Action, DieContext, QueuedTxn};

/// Free blocks below which a write collects first even when the queue is busy.
pub const LATE_FLOOR: u32 = 4;

/// The NCQ-aware trigger.
#[derive(Clone, Debug)]
pub struct Ncq {
    /// Free-block share up to which a plane collects while the queue is empty.
    enough: f64,
    /// Device-queue commands from which the queue counts as busy.
    busy: usize,
    /// Fewest invalid pages the best candidate must have for an idle collection.
    min_gain: u32,
    /// Free blocks below which a write collects first whatever the queue.
    floor: u32,
    pages_per_block: u32,
    /// Per die: the last idle job gained no free page; no more until a host write.
    quiet: Vec<bool>,
}

impl Ncq {
    /// A trigger collecting in idle time up to the free share `enough`, deferring GC when the device
    /// queue holds `busy` commands or more, and skipping idle victims with fewer than `min_gain` ×
    /// `pages_per_block` invalid pages.
    pub fn new(
        enough: f64,
        busy: u32,
        min_gain: f64,
        pages_per_block: u32,
        threshold: u32,
    ) -> Self {
        Ncq {
            enough,
            busy: busy.max(1) as usize,
            min_gain: ((min_gain * f64::from(pages_per_block)).ceil() as u32).max(1),
            floor: LATE_FLOOR.min(threshold),
            pages_per_block,
            quiet: Vec::new(),
        }
    }

    /// True when a write to `plane` must be preceded by GC: below the floor always, below the
    /// on-demand threshold unless the queue is busy.
    fn must_collect(&self, cx: &DieContext<'_>, plane: u32, busy: bool) -> bool {
        let ftl = cx.ftl();
        ftl.free_blocks(plane) < self.floor || (!busy && ftl.needs_gc(plane))
    }
}

/// True when `plane`'s best candidate has at least `min_gain` invalid pages, answered from the
/// victim index ([`crate::ftl::Ftl::fewest_valid`]; `greedy` and `alpha` keep valid counts, other
/// policies fall back to a scan of the plane's blocks).
fn worth_collecting(cx: &DieContext<'_>, plane: u32, min_gain: u32) -> bool {
    let ftl = cx.ftl();
    let ppb = ftl.geometry().pages_per_block;
    ftl.fewest_valid(plane).is_some_and(|v| ppb - v >= min_gain)
}

impl Trigger for Ncq {
    fn next(&mut self, cx: &mut DieContext<'_>, gc: &mut Axes) -> Action {
        let busy = cx.device_queue().len() >= self.busy;
        let die = cx.die as usize;
        if self.quiet.len() <= die {
            self.quiet.resize(die + 1, false);
        }
        if let Some(&head) = cx.queue().front() {
            if head.write {
                self.quiet[die] = false;
            }
            if head.write && self.must_collect(cx, head.plane, busy) {
                if !cx.jobs().is_empty() {
                    return Action::GcJob(0);
                }
                if let Some(j) = gc.start(cx, head.plane) {
                    return Action::GcJob(j);
                }
            }
            if !cx.jobs().is_empty() {
                if let Some(a) = gc.merge(cx, 0, 0) {
                    return a;
                }
            }
            return Action::Host(0);
        }
        let (enough, min_gain) = (self.enough, self.min_gain);
        let wanted = |cx: &DieContext<'_>, p: u32| {
            (cx.ftl().free_share(p) < enough || cx.ftl().needs_gc(p))
                && worth_collecting(cx, p, min_gain)
        };
        collect_while_idle(cx, gc, &mut self.quiet[die], self.pages_per_block, wanted).0
    }

    fn may_preempt(&self, cx: &DieContext<'_>, t: &QueuedTxn) -> bool {
        !(t.write && cx.ftl().free_blocks(t.plane) < self.floor)
    }
}

#[cfg(test)]
mod tests {
    use crate::gc::scheme::testing::{decide_with_commands, fill_plane0, scheme, small_die};
    use crate::gc::scheme::{Action, QueuedTxn};

    const W0: QueuedTxn = QueuedTxn {
        plane: 0,
        write: true,
        lpn: 0,
        id: 0,
    };

    /// Threshold 7 free blocks, "enough" 14, busy from 4 commands, floor 4.
    fn drive() -> (crate::config::Config, crate::ftl::Ftl) {
        small_die(&["gc.when=\"ncq\"", "gc.preempt=\"ops\"", "gc.ncq_busy=4"])
    }

    #[test]
    fn an_empty_queue_collects_up_to_enough_free_space() {
        let (cfg, mut ftl) = drive();
        fill_plane0(&mut ftl, 10);
        let mut s = scheme("baseline", &cfg);
        assert!(s.previews(), "the scheme reads the device queue");
        let mut jobs = Vec::new();
        // Device busy elsewhere: nothing.
        let a = decide_with_commands(s.as_mut(), &mut ftl, &[], &mut jobs, false, 1);
        assert_eq!(a, Action::Idle);
        // Queue empty, plane below the enough level: a job, one operation at a time.
        let a = decide_with_commands(s.as_mut(), &mut ftl, &[], &mut jobs, true, 0);
        assert_eq!(a, Action::Gc(0));
        // A command arrives: it goes first.
        let a = decide_with_commands(s.as_mut(), &mut ftl, &[W0], &mut jobs, false, 1);
        assert_eq!(a, Action::Host(0));
    }

    #[test]
    fn a_busy_queue_defers_gc_to_the_floor() {
        let (cfg, mut ftl) = drive();
        fill_plane0(&mut ftl, 5); // below the threshold (7), above the floor (4)
        let mut s = scheme("baseline", &cfg);
        let mut jobs = Vec::new();
        // Not busy (3 commands): on demand.
        let a = decide_with_commands(s.as_mut(), &mut ftl, &[W0], &mut jobs, false, 3);
        assert_eq!(a, Action::GcJob(0));
        let (cfg, mut ftl) = drive();
        fill_plane0(&mut ftl, 5);
        let mut s = scheme("baseline", &cfg);
        let mut jobs = Vec::new();
        // Busy (4 commands): the write goes first.
        let a = decide_with_commands(s.as_mut(), &mut ftl, &[W0], &mut jobs, false, 4);
        assert_eq!(a, Action::Host(0));
        assert!(jobs.is_empty());
        // At the floor, busy or not, the write collects first.
        fill_plane0(&mut ftl, 3);
        let a = decide_with_commands(s.as_mut(), &mut ftl, &[W0], &mut jobs, false, 32);
        assert_eq!(a, Action::GcJob(0));
    }

    #[test]
    fn low_gain_planes_are_skipped_in_idle_time() {
        // A victim must free a whole block (8 of 8 pages invalid) to be worth it.
        let (cfg, mut ftl) = small_die(&["gc.when=\"ncq\"", "gc.ncq_min_gain=0.9"]);
        let lpns: Vec<u32> = (0..ftl.geometry().logical_pages)
            .filter(|&l| ftl.plane_of(l) == 0)
            .collect();
        for &l in &lpns {
            ftl.host_write(l).expect("a write");
        }
        // Every other page rewritten: each old block keeps half its pages valid.
        for &l in lpns.iter().step_by(2) {
            ftl.host_write(l).expect("a write");
        }
        assert!(ftl.free_share(0) < cfg.idle_threshold() && !ftl.needs_gc(0));
        let mut s = scheme("baseline", &cfg);
        let mut jobs = Vec::new();
        let a = decide_with_commands(s.as_mut(), &mut ftl, &[], &mut jobs, true, 0);
        assert_eq!(a, Action::Idle);
        assert!(jobs.is_empty());
        // With the default minimal gain (1 page), the same plane collects.
        let (cfg, mut ftl) = small_die(&["gc.when=\"ncq\""]);
        for &l in lpns.iter().chain(lpns.iter().step_by(2)) {
            ftl.host_write(l).expect("a write");
        }
        let mut s = scheme("baseline", &cfg);
        let a = decide_with_commands(s.as_mut(), &mut ftl, &[], &mut jobs, true, 0);
        assert_eq!(a, Action::GcJob(0));
    }
}
