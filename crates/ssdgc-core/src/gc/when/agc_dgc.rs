//! AGC and DGC together — Jung, Prabhakar, Kandemir, "Taking Garbage Collection Overheads off the
//! Critical Path in SSDs", Middleware 2012 (`agc-dgc-idle-time-gc.txt`), §5.3 and Algorithm 1
//! (`IssueCommands`), decided per die:
//!
//! ```text
//! a request is queued at the die:
//!     a write whose GC is due → DGC: update block replacement (a delay block), the plane on the
//!                                    DGC list; the reserve used up → on-demand GC (held)
//!     a GC job in progress    → it waits (a checkpoint with a request: incremental GC)
//!     serve the request
//! nothing is queued at the die (an idle period of the die):
//!     a job in progress       → its next step (resumed)
//!     DGC: retroactive block compaction of the die's planes on the DGC list
//!     AGC: short idle (the next command announced) → look-ahead GC if eq. 2 fits
//!          long idle (device idle ≥ gc.long_idle)   → proactive block compaction
//! ```
//!
//! "The SSD just forwards I/O requests to the underlying FTL without performing any GC during the
//! busy periods" — unless a write's GC is due and DGC has no delay block left. [`algorithm1`] is
//! that decision with either half absent, which gives `agc` ([`super::agc`]) and `dgc`
//! ([`super::dgc`]) alone.
//!
//! When not to use it: with a closed-loop workload with no idle time (nothing to move GC into).

use super::agc::Ahead;
use super::dgc::Delay;
use super::jobs::Books;
use super::Trigger;
use crate::config::Config;
use crate::gc::compose::Axes;
use crate::gc::scheme::{Action, DieContext, QueuedTxn, SchemeStats};

/// Algorithm 1 for one die, with AGC's deciders `ahead` and DGC's `delay` when present; `one`:
/// AGC's on-demand GC collects one victim per write (`gc.collect = "one"`).
pub fn algorithm1(
    cx: &mut DieContext<'_>,
    gc: &mut Axes,
    books: &mut Books,
    one: bool,
    ahead: Option<&mut Ahead>,
    delay: Option<&mut Delay>,
) -> Action {
    let die = cx.die as usize;
    books.reach(die);
    if let Some(&head) = cx.queue().front() {
        let owed = books.take_owed(die);
        if head.write {
            books.wrote(die);
            let ftl = cx.ftl();
            let served = owed && ftl.free_blocks(head.plane) >= ftl.reserve_blocks();
            if !served && ftl.write_needs_gc(head.lpn) {
                let (deferred, fallback) = match delay {
                    Some(d) => (d.defer(cx, &head, books), true),
                    None => (false, false),
                };
                if !deferred {
                    let one = one && !fallback;
                    if let Some(a) = books.on_demand(cx, gc, head.plane, one, fallback) {
                        return a;
                    }
                }
            }
        }
        if !cx.jobs().is_empty() {
            books.pause(die);
            books.preemptions += 1;
            if let Some(a) = gc.merge(cx, 0, 0) {
                return a;
            }
        }
        return Action::Host(0);
    }
    if !cx.jobs().is_empty() {
        books.resume(die);
        return gc.run(0);
    }
    if let Some(d) = delay {
        if let Some(a) = d.retroactive(cx, gc, books) {
            return a;
        }
    }
    if let Some(a) = ahead {
        if let Some(x) = a.look_ahead(cx, gc, books) {
            return x;
        }
        if let Some(x) = a.proactive(cx, gc, books) {
            return x;
        }
    }
    Action::Idle
}

/// The `agc-dgc` trigger.
#[derive(Clone, Debug)]
pub struct AgcDgc {
    ahead: Ahead,
    delay: Delay,
    books: Books,
}

impl AgcDgc {
    /// AGC and DGC for the drive of `cfg`.
    pub fn new(cfg: &Config) -> AgcDgc {
        AgcDgc {
            ahead: Ahead::new(cfg),
            delay: Delay::new(cfg),
            books: Books::default(),
        }
    }
}

impl Trigger for AgcDgc {
    fn next(&mut self, cx: &mut DieContext<'_>, gc: &mut Axes) -> Action {
        algorithm1(
            cx,
            gc,
            &mut self.books,
            false,
            Some(&mut self.ahead),
            Some(&mut self.delay),
        )
    }

    fn may_preempt(&self, cx: &DieContext<'_>, t: &QueuedTxn) -> bool {
        !(t.write && cx.ftl().write_needs_gc(t.lpn) && self.delay.exhausted(cx, t))
    }

    fn stats(&self) -> SchemeStats {
        self.books.scheme_stats()
    }

    fn idle_gc(&self) -> super::jobs::IdleGcStats {
        self.books.stats
    }
}

#[cfg(test)]
mod tests {
    use crate::ftl::Ftl;
    use crate::gc::scheme::testing::{decide_at, fill_plane0, scheme, small_die};
    use crate::gc::scheme::{Action, Command, GcScheme, QueuedTxn, Wake};
    use crate::gc::{self, GcJob};
    use crate::units::{Lpn, MS, SEC};

    /// A logical page of plane 0.
    fn page_of_plane0(ftl: &Ftl) -> Lpn {
        (0..ftl.geometry().logical_pages)
            .find(|&l| ftl.plane_of(l) == 0)
            .unwrap()
    }

    fn write0(ftl: &Ftl) -> QueuedTxn {
        QueuedTxn {
            plane: 0,
            write: true,
            lpn: page_of_plane0(ftl),
            id: 0,
        }
    }

    /// Runs every operation of `jobs[0]` at once and retires it.
    fn finish(ftl: &mut Ftl, jobs: &mut Vec<GcJob>) {
        let mut job = jobs.remove(0);
        while let Ok(Some(op)) = gc::dispatch_next(ftl, &mut job) {
            gc::complete(ftl, op);
        }
    }

    /// Writes to plane 0 until its host write point is full (the next write opens a block).
    fn close_host_block(ftl: &mut Ftl) {
        let l = page_of_plane0(ftl);
        while !ftl.write_opens_block(l) {
            ftl.host_write(l).unwrap();
        }
    }

    #[test]
    fn dgc_defers_a_due_write_onto_a_delay_block_then_collects_on_demand() {
        // Threshold 7 blocks: due at 6 free, two kept for GC: four delay blocks per plane.
        let (cfg, mut ftl) = small_die(&["gc.when=\"dgc\"", "gc.preempt=\"ops\""]);
        assert_eq!(cfg.dgc_delay_blocks(), 4);
        fill_plane0(&mut ftl, 6);
        close_host_block(&mut ftl);
        let mut s = scheme("dgc", &cfg);
        let mut jobs = Vec::new();
        let w = write0(&ftl);
        assert!(ftl.write_needs_gc(w.lpn));
        // Below the threshold with delay blocks left: the write goes, taking one.
        let (a, _) = decide_at(s.as_mut(), &mut ftl, &[w], &mut jobs, 0, None, None);
        assert_eq!(a, Action::Host(0));
        assert!(jobs.is_empty());
        assert_eq!(s.idle_gc().delayed, 1);
        // Down to the floor (2 free blocks): the reserve is used up, GC runs on demand.
        fill_plane0(&mut ftl, 2);
        close_host_block(&mut ftl);
        let (a, _) = decide_at(s.as_mut(), &mut ftl, &[w], &mut jobs, 0, None, None);
        assert_eq!(a, Action::GcJob(0));
        let st = s.idle_gc();
        assert_eq!((st.on_demand, st.fallbacks), (1, 1));
        // Nothing queued: retroactive compaction of the plane on the DGC list.
        finish(&mut ftl, &mut jobs);
        let (a, _) = decide_at(s.as_mut(), &mut ftl, &[], &mut jobs, 0, None, None);
        assert_eq!(a, Action::Gc(0));
        assert_eq!(s.idle_gc().retroactive, 1);
        // A request at the die: it goes first (a checkpoint); the job resumes later.
        let r = QueuedTxn { write: false, ..w };
        let (a, _) = decide_at(s.as_mut(), &mut ftl, &[r], &mut jobs, 0, None, None);
        assert_eq!(a, Action::Host(0));
        let (a, _) = decide_at(s.as_mut(), &mut ftl, &[], &mut jobs, 0, None, None);
        assert_eq!(a, Action::Gc(0));
        assert_eq!(s.idle_gc().resumed, 1);
    }

    #[test]
    fn dgc_stops_retroactive_compaction_at_the_threshold() {
        let (cfg, mut ftl) = small_die(&[]);
        fill_plane0(&mut ftl, 5);
        close_host_block(&mut ftl);
        let mut s = scheme("dgc", &cfg);
        let mut jobs = Vec::new();
        let w = write0(&ftl);
        let (a, _) = decide_at(s.as_mut(), &mut ftl, &[w], &mut jobs, 0, None, None);
        assert_eq!(a, Action::Host(0));
        // Collect in idle time until the plane is back at the threshold: then nothing more.
        let mut rounds = 0;
        loop {
            let (a, _) = decide_at(s.as_mut(), &mut ftl, &[], &mut jobs, 0, Some(0), None);
            if a == Action::Idle {
                break;
            }
            assert_eq!(a, Action::Gc(0));
            finish(&mut ftl, &mut jobs);
            rounds += 1;
            assert!(rounds < 20, "retroactive compaction ends");
        }
        assert!(!ftl.needs_gc(0));
        assert_eq!(s.idle_gc().retroactive, rounds);
    }

    /// The announced next command: one page written to `lpn`, arriving at `at`.
    fn announce(lpn: Lpn, at: u64) -> Option<Command> {
        Some(Command {
            write: true,
            first: lpn,
            pages: 1,
            arrival: at,
            seq: 1,
        })
    }

    #[test]
    fn agc_collects_ahead_of_a_previewed_write_when_eq2_fits() {
        let (cfg, mut ftl) = small_die(&["gc.when=\"agc\"", "gc.preempt=\"ops\""]);
        fill_plane0(&mut ftl, 6);
        let mut s: Box<dyn GcScheme> = scheme("agc", &cfg);
        assert!(s.looks_ahead());
        let mut jobs = Vec::new();
        let l = page_of_plane0(&ftl);
        // The next write will find its GC due. Eq. 2 for a victim of v valid 8-page-block
        // pages: v × (50 + 600) us + (3 ms + 600 us) — at most 8.8 ms.
        let (a, _) = decide_at(
            s.as_mut(),
            &mut ftl,
            &[],
            &mut jobs,
            0,
            None,
            announce(l, MS),
        );
        assert_eq!(a, Action::Idle, "1 ms is too short for any GC");
        assert_eq!(s.idle_gc().unfit, 1);
        assert!(jobs.is_empty(), "the weighed victim is given back");
        let (a, _) = decide_at(
            s.as_mut(),
            &mut ftl,
            &[],
            &mut jobs,
            0,
            None,
            announce(l, 20 * MS),
        );
        assert_eq!(a, Action::Gc(0));
        assert_eq!(s.idle_gc().look_ahead, 1);
        // A write to another plane, or a read, triggers nothing.
        finish(&mut ftl, &mut jobs);
        let other = (0..ftl.geometry().logical_pages)
            .find(|&x| ftl.plane_of(x) == 1)
            .unwrap();
        let (a, _) = decide_at(
            s.as_mut(),
            &mut ftl,
            &[],
            &mut jobs,
            0,
            None,
            announce(other, 20 * MS),
        );
        assert_eq!(a, Action::Idle);
        // Across a long idle period (beyond 1 s) too: the next write's GC, done at its start.
        fill_plane0(&mut ftl, 6);
        let (a, _) = decide_at(
            s.as_mut(),
            &mut ftl,
            &[],
            &mut jobs,
            0,
            None,
            announce(l, 2 * SEC),
        );
        assert_eq!(a, Action::Gc(0));
        assert_eq!(s.idle_gc().look_ahead, 2);
    }

    #[test]
    fn agc_compacts_proactively_after_a_long_idle_period() {
        let (cfg, mut ftl) = small_die(&["gc.agc_threshold=0.4"]);
        // Threshold 7 blocks; AGC's threshold ceil(7 × 1.4) = 10: at 8 free blocks no on-demand
        // GC is due, but proactive compaction wants the plane.
        assert_eq!(cfg.agc_threshold_blocks(), 10);
        let (dflt, _) = small_die(&[]);
        assert_eq!(
            dflt.agc_threshold_blocks(),
            7,
            "by default the GC threshold"
        );
        fill_plane0(&mut ftl, 8);
        let mut s = scheme("agc", &cfg);
        let mut jobs = Vec::new();
        // Idle since 5 s, now 5.5 s: not long yet; a wake-up at 6 s.
        let (a, w) = decide_at(
            s.as_mut(),
            &mut ftl,
            &[],
            &mut jobs,
            5_500 * MS,
            Some(5 * SEC),
            None,
        );
        assert_eq!(a, Action::Idle);
        assert_eq!(w, Some(Wake::At(6 * SEC)));
        // At 6 s: compaction.
        let (a, _) = decide_at(
            s.as_mut(),
            &mut ftl,
            &[],
            &mut jobs,
            6 * SEC,
            Some(5 * SEC),
            None,
        );
        assert_eq!(a, Action::Gc(0));
        assert_eq!(s.idle_gc().proactive, 1);
        // Not while the device is busy elsewhere.
        finish(&mut ftl, &mut jobs);
        let (a, _) = decide_at(s.as_mut(), &mut ftl, &[], &mut jobs, 7 * SEC, None, None);
        assert_eq!(a, Action::Idle);
    }

    #[test]
    fn agc_dgc_defers_then_compacts_retroactively_before_looking_ahead() {
        let (cfg, mut ftl) = small_die(&[]);
        fill_plane0(&mut ftl, 5);
        close_host_block(&mut ftl);
        let mut s = scheme("agc-dgc", &cfg);
        let mut jobs = Vec::new();
        let w = write0(&ftl);
        let (a, _) = decide_at(s.as_mut(), &mut ftl, &[w], &mut jobs, 0, None, None);
        assert_eq!(a, Action::Host(0), "deferred");
        let (a, _) = decide_at(
            s.as_mut(),
            &mut ftl,
            &[],
            &mut jobs,
            0,
            None,
            announce(w.lpn, 50 * MS),
        );
        assert_eq!(a, Action::Gc(0));
        let st = s.idle_gc();
        assert_eq!((st.retroactive, st.look_ahead, st.on_demand), (1, 0, 0));
    }
}
