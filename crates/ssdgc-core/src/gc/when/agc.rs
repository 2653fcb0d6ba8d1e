//! Advanced GC (AGC) — Jung, Prabhakar, Kandemir, "Taking Garbage Collection Overheads off the
//! Critical Path in SSDs", Middleware 2012 (`agc-dgc-idle-time-gc.txt`), §4.1 and §5.1: GC moved
//! into idle periods *ahead* of the writes that would trigger it.
//!
//! - **Look-ahead GC** (short idle periods). The device knows the next command before it arrives
//!   (its pre-information, [`DieContext::next_command`]: AGC "exploits just two entries", the
//!   command in service and the next). A die with nothing queued asks the FTL whether that
//!   command's writes to its planes will find their GC due ([`crate::ftl::FtlView::gc_ahead`]):
//!   if one will, the die does that GC now, provided eq. 2's estimate of the job
//!   ([`super::jobs::Eq2`]) fits the idle time before the command arrives (eq. 1: its arrival
//!   less now). Under the page-mapped FTL the job collects a victim of the plane that will need
//!   GC (chosen, weighed, given back if it does not fit); under a log-block FTL it merges the
//!   group the command's writes will fill (Fig. 5), or the group the FTL would merge in a plane
//!   short of free blocks, weighed before it is planned. The command is announced at
//!   the arrival of the one before it, whatever the gap: look-ahead GC also does the GC the next
//!   write needs at the start of a long idle period (in the paper the queue is empty then and
//!   only proactive compaction runs; see `docs/schemes/agc-dgc.md`).
//! - **Proactive block compaction** (long idle periods). Once the device has been idle for
//!   `gc.long_idle` (a wake-up, [`DieContext::wake_at`]), a plane whose free blocks are below
//!   AGC's free-block threshold (`gc.agc_threshold` above the GC threshold,
//!   [`crate::config::Config::agc_threshold_blocks`]) compacts full blocks until it reaches it.
//!   At the default `gc.agc_threshold = 0` these are only planes whose GC is due (DGC's deferred
//!   planes), so the GCs are rescheduled, not added (the paper's "no extra P/E cycles"); above 0
//!   AGC secures free blocks further ahead, at the cost of GCs whose victims had less time to be
//!   invalidated (§6.5, Fig. 15(b)). In the page-mapped FTL every candidate is a full block (the
//!   paper's "fully occupied" blocks).
//! - **Incremental GC**: with `gc.preempt = "ops"` (the `agc` preset) a job runs one flash
//!   operation at a time, with a checkpoint after each: a host request queued at the die goes
//!   first, and the job resumes in the next idle period of the die.
//!
//! A victim that would gain nothing (all its pages valid) is given back and the die starts no
//! more idle-time GC until it serves a host write, so idle-time GC always ends. A write whose GC
//! is due when it reaches its die still collects on demand, held, as much as `gc.collect` says.
//!
//! When not to use it: without idle time (it degenerates to on-demand GC), or with a closed-loop
//! workload (no command is announced ahead, so there is no look-ahead GC).

use super::agc_dgc::algorithm1;
use super::jobs::{Books, Eq2, Kind};
use super::{Collect, Trigger};
use crate::config::Config;
use crate::gc::compose::Axes;
use crate::gc::scheme::{Action, Command, DieContext, QueuedTxn, SchemeStats};
use crate::units::{Lpn, SimTime};

/// Most pages of a previewed command that look-ahead GC examines.
pub const MAX_PREVIEW_PAGES: u32 = 4096;

/// AGC's two deciders: look-ahead GC and proactive block compaction.
#[derive(Clone, Debug)]
pub struct Ahead {
    long_idle: SimTime,
    agc_blocks: u32,
    pages_per_block: u32,
    cost: Eq2,
}

impl Ahead {
    /// AGC for the drive of `cfg`.
    pub fn new(cfg: &Config) -> Ahead {
        Ahead {
            long_idle: cfg.gc.long_idle.0,
            agc_blocks: cfg.agc_threshold_blocks(),
            pages_per_block: cfg.geometry.pages_per_block,
            cost: Eq2::new(cfg),
        }
    }

    /// True when job `j` would gain nothing: its victims hold only valid pages (never a merge,
    /// which the FTL plans only where it gains space).
    fn gains_nothing(&self, cx: &DieContext<'_>, j: usize) -> bool {
        gains_nothing(cx, j, self.pages_per_block)
    }

    /// Look-ahead GC on a die with nothing queued: the GC the announced command's writes will
    /// find due on this die, if eq. 2 says it fits before the command arrives.
    pub fn look_ahead(
        &mut self,
        cx: &mut DieContext<'_>,
        gc: &mut Axes,
        books: &mut Books,
    ) -> Option<Action> {
        let next = *cx.next_command()?;
        if !next.write || next.arrival <= cx.now {
            return None;
        }
        let gap = next.arrival - cx.now;
        let die = cx.die as usize;
        if books.is_quiet(die) {
            return None;
        }
        let lpns = pages_on_die(cx, &next);
        let due = cx.ftl().gc_ahead(&lpns)?;
        if cx.ftl().plans_merges() {
            // A merge is committed when planned: weigh it first. The group the write fills, or
            // the one the FTL would merge in the plane.
            let g = cx.merge_candidate(due.plane, due.group)?;
            let (copies, erases) = cx.ftl().merge_cost(due.plane, g);
            if self.cost.estimate(copies, erases) > gap {
                books.stats.unfit += 1;
                return None;
            }
            let j = cx.start_group_merge(due.plane, g)?;
            books.started(die, Kind::LookAhead);
            return Some(gc.run(j));
        }
        let j = gc.start(cx, due.plane)?;
        if self.gains_nothing(cx, j) {
            cx.abandon_job(j);
            books.hush(die);
            return None;
        }
        if self.cost.of(&cx.jobs()[j]) > gap {
            cx.abandon_job(j);
            books.stats.unfit += 1;
            return None;
        }
        books.started(die, Kind::LookAhead);
        Some(gc.run(j))
    }

    /// Proactive block compaction on a die with nothing queued: once the device has been idle for
    /// `gc.long_idle`, the plane of the die with the fewest free blocks below AGC's threshold
    /// collects; before then, a wake-up at the end of the short part of the idle period.
    pub fn proactive(
        &mut self,
        cx: &mut DieContext<'_>,
        gc: &mut Axes,
        books: &mut Books,
    ) -> Option<Action> {
        let since = cx.idle_since()?;
        let die = cx.die as usize;
        if books.is_quiet(die) {
            return None;
        }
        let target = self.agc_blocks;
        let plane = cx
            .planes()
            .filter(|&p| cx.ftl().free_blocks(p) < target)
            .min_by_key(|&p| (cx.ftl().free_blocks(p), p))?;
        let due = since.saturating_add(self.long_idle);
        if cx.now < due {
            if cx.wake_pending() != Some(due) {
                cx.wake_at(due);
            }
            return None;
        }
        let j = gc.start(cx, plane)?;
        if self.gains_nothing(cx, j) {
            cx.abandon_job(j);
            books.hush(die);
            return None;
        }
        books.started(die, Kind::Proactive);
        Some(gc.run(j))
    }
}

/// True when job `j` would gain nothing: its victims hold only valid pages (a planned job: its
/// moves, parity skips included, fill as many pages as its victims hold). A merge always gains
/// (the FTL plans one only where it returns a block or relieves a group whose update space is
/// used up).
pub fn gains_nothing(cx: &DieContext<'_>, j: usize, pages_per_block: u32) -> bool {
    let job = &cx.jobs()[j];
    if job.merge_kind().is_some() {
        return false;
    }
    if job.is_planned() {
        return job.gains_nothing(pages_per_block);
    }
    job.valid_at_pick >= pages_per_block * job.victims()
}

/// The logical pages of command `c` on the die's planes, in order (at most
/// [`MAX_PREVIEW_PAGES`] of the command's pages are examined).
fn pages_on_die(cx: &DieContext<'_>, c: &Command) -> Vec<Lpn> {
    let ftl = cx.ftl();
    let logical = ftl.geometry().logical_pages as u64;
    let planes = cx.planes();
    (0..c.pages.min(MAX_PREVIEW_PAGES) as u64)
        .map(|i| ((c.first as u64 + i) % logical) as Lpn)
        .filter(|&l| planes.contains(&ftl.plane_of(l)))
        .collect()
}

/// The `agc` trigger: AGC alone (Algorithm 1 without DGC).
#[derive(Clone, Debug)]
pub struct Agc {
    ahead: Ahead,
    books: Books,
    one: bool,
}

impl Agc {
    /// AGC for the drive of `cfg`, collecting `collect` per on-demand invocation.
    pub fn new(cfg: &Config, collect: Collect) -> Agc {
        Agc {
            ahead: Ahead::new(cfg),
            books: Books::default(),
            one: collect == Collect::One,
        }
    }
}

impl Trigger for Agc {
    fn next(&mut self, cx: &mut DieContext<'_>, gc: &mut Axes) -> Action {
        algorithm1(
            cx,
            gc,
            &mut self.books,
            self.one,
            Some(&mut self.ahead),
            None,
        )
    }

    fn may_preempt(&self, cx: &DieContext<'_>, t: &QueuedTxn) -> bool {
        !(t.write && cx.ftl().write_needs_gc(t.lpn))
    }

    fn stats(&self) -> SchemeStats {
        self.books.scheme_stats()
    }

    fn idle_gc(&self) -> super::jobs::IdleGcStats {
        self.books.stats
    }
}
