//! The `states` trigger: semi-preemptible GC with soft and hard thresholds (the schemes `pgc-none`,
//! `pgc-merge`, `pgc-pipeline`, `pgc`, `pgc-se`, `fpgc`): Lee, Kim, Shipman, Oral, Kim,
//! "Preemptible I/O Scheduling of Garbage Collection for Solid State Drives", IEEE TCAD 32(2), 2013
//! (`preemptible-gc.txt`), §III-A (preemption point B), §III-B (merging), §III-C (pipelining) and
//! §III-D (states S0–S3).
//!
//! A GC job is the same sequence of page moves and an erase as the baseline's, but the die is not
//! held: the job runs one operation at a time ([`Action::Gc`]) and, between two operations
//! (preemption point B, §III-A), a pending host transaction of the die is served first. An operation
//! in progress is never interrupted (that is F-PGC's suspend/resume, §IV).
//!
//! Each plane is in one of the states of Fig. 7, by its free blocks `N_free`:
//!
//! - **S0** `N_free ≥ T_soft`: no GC;
//! - **S1** `T_hard ≤ N_free < T_soft`: GC runs (it starts even while host work is queued, and
//!   continues whenever the die has nothing else to do); every request preempts it;
//! - **S2** `N_free < T_hard`: only requests that consume no free block preempt — reads, and writes
//!   to planes of the die that are not in S2 themselves;
//! - **S3** a write waits for a plane in S2: the current job runs to its erase with nothing
//!   preempting, then that write is served (once), and the plane returns to S1 or S2.
//!
//! `T_soft` is `gc.soft_threshold` (default `gc.threshold`, the conventional trigger — the paper
//! uses 5 %, Table VI) and `T_hard` is `gc.hard_threshold` (default half of `T_soft`; the paper
//! studies 20 % and 80 % of `T_soft`, Fig. 13–14); both are shares of a plane's blocks, at least two
//! blocks. Since writes to a plane below `T_hard` wait for GC, and every job gains the victim's
//! invalid pages, the plane never runs out of free blocks.
//!
//! The preemption axis ([`crate::gc::preempt`]) gives the variants; with `gc.preempt = "none"` a
//! job started below `T_soft` runs held to its erase (early, non-preemptible GC). The named schemes:
//!
//! - `pgc-none`: preemption point B only;
//! - `pgc-merge` (§III-B): a preempting read of a page the job still has to move is *merged*: that
//!   page moves next, out of order, and the read takes its data from the move's page register with
//!   no flash read of its own ([`Action::Merge`]); a preempting write to such a page is merged into
//!   the move's page buffer: programmed once, at the GC write point, as a host page (without
//!   merging it cancels the move: the mechanism skips invalid pages; `gc.cancelled_moves` counts
//!   them under every scheme);
//! - `pgc-pipeline` (§III-C, Fig. 6): host commands are pipelined with GC commands of the same
//!   type through the cache register: a host write that starts as a GC move's program ends has
//!   sent its command and data during that program and costs `t_PROG` alone; a GC move that starts
//!   as a host read's transfer ends has read its page meanwhile (its `t_R` shrinks by the time the
//!   host page spent in the register and on the channel);
//! - `pgc`: merging and pipelining;
//! - `pgc-se` (§IV, "PGC+SE"): `pgc`, and a request that may preempt suspends an *erase* in progress;
//! - `fpgc` (§IV, F-PGC): `pgc`, and a request that may preempt suspends any GC operation in
//!   progress — an erase, or a page move in its read or program.
//!
//! Suspension (§IV-A) costs `timing.suspend` (T_suspend, default 20 µs) of die time; the host work
//! queued on the die is then served, and the operation resumes with its remaining time when the
//! die has no host work the state lets in. One operation per die is suspended at a time (the paper
//! allows one per plane, §IV-B: with one job per die this is the same), an operation is suspended
//! at most [`crate::sim::MAX_SUSPENDS`] times, and one within `T_suspend` of its end is not. In S1
//! a request then waits at most `T_suspend` plus one page read or write of its own: Table V's
//! F-PGC bound, against PGC's `T_er + max(U(e_r), U(e_w))`.
//!
//! Preemption point A (§III-A) comes with pipelining: a host write queued while a page move runs
//! sends its data into the cache register during the move's program and programs right after it
//! (§III-C, the drive's pipelining mechanism); a host read served between moves overlaps its
//! transfer with the next move's read. Without pipelining a request waits for the move in progress
//! (point B only).
//!
//! A die runs at most one job at a time. The die's state (its worst plane's) is sampled at each of
//! its scheduling decisions and its time is reported per state (`schemes.states.state_time_s`).
//!
//! When not to use it: to model a drive whose GC cannot be interrupted (use `baseline`), or a flash
//! part without suspend commands (use `pgc` rather than `pgc-se` / `fpgc`).

use super::Trigger;
use crate::gc::compose::Axes;
use crate::gc::preempt::PreemptMode;
use crate::gc::scheme::{Action, DieContext, QueuedTxn, SchemeStats};
use crate::units::SimTime;

/// The states trigger: soft and hard thresholds, states S0–S3.
#[derive(Clone, Debug)]
pub struct States {
    soft: u32,
    hard: u32,
    pages_per_block: u32,
    dies: Vec<DieState>,
    stats: SchemeStats,
}

#[derive(Clone, Copy, Debug, Default)]
struct DieState {
    /// When the die's state was last sampled, and that state.
    since: SimTime,
    state: u8,
    /// After an S3 hold: the plane whose waiting write goes next.
    owed: Option<u32>,
    /// The last job started with no host work queued gained nothing: start no more until a write.
    quiet: bool,
}

impl States {
    /// A states trigger with `T_soft = soft` and `T_hard = hard` free blocks per plane
    /// ([`crate::config::Config::pgc_threshold_blocks`]).
    pub fn new(soft: u32, hard: u32, pages_per_block: u32) -> Self {
        States {
            soft,
            hard,
            pages_per_block,
            dies: Vec::new(),
            stats: SchemeStats::default(),
        }
    }

    /// The state (0, 1 or 2) of `plane` by its free blocks.
    fn plane_state(&self, cx: &DieContext<'_>, plane: u32) -> u8 {
        let f = cx.ftl().free_blocks(plane);
        if f >= self.soft {
            0
        } else if f >= self.hard {
            1
        } else {
            2
        }
    }

    /// The first queued transaction allowed to run before GC: reads, and writes to planes not in S2.
    fn first_preempting(&self, cx: &DieContext<'_>) -> Option<usize> {
        cx.queue().iter().position(|t| self.may_preempt(cx, t))
    }

    /// Decides with job `j` in progress.
    fn with_job(&mut self, cx: &mut DieContext<'_>, gc: &Axes, j: usize) -> (Action, u8) {
        if gc.preempt.mode == PreemptMode::None {
            return (Action::GcJob(j), self.die_state(cx));
        }
        let p = cx.jobs()[j].plane;
        if self.plane_state(cx, p) == 2 && cx.queue().iter().any(|t| t.write && t.plane == p) {
            // S3: finish this job with nothing preempting, then serve the write.
            self.stats.s3_holds += 1;
            self.dies[cx.die as usize].owed = Some(p);
            return (Action::GcJob(j), 3);
        }
        if let Some(i) = self.first_preempting(cx) {
            self.stats.preemptions += 1;
            if cx.queue()[i].write {
                self.dies[cx.die as usize].quiet = false;
            }
            if let Some(a) = gc.merge(cx, i, j) {
                return (a, self.die_state(cx));
            }
            return (Action::Host(i), self.die_state(cx));
        }
        (Action::Gc(j), self.die_state(cx))
    }

    fn die_state(&self, cx: &DieContext<'_>) -> u8 {
        cx.planes()
            .map(|p| self.plane_state(cx, p))
            .max()
            .unwrap_or(0)
    }

    fn decide(&mut self, cx: &mut DieContext<'_>, gc: &mut Axes) -> (Action, u8) {
        let die = cx.die as usize;
        if !cx.jobs().is_empty() {
            return self.with_job(cx, gc, 0);
        }
        if let Some(p) = self.dies[die].owed.take() {
            if cx.ftl().free_blocks(p) >= cx.ftl().reserve_blocks() {
                if let Some(i) = cx.queue().iter().position(|t| t.write && t.plane == p) {
                    self.dies[die].quiet = false;
                    return (Action::Host(i), self.die_state(cx));
                }
            }
        }
        if !(cx.queue().is_empty() && self.dies[die].quiet) {
            let mut below: Vec<(u32, u32)> = cx
                .planes()
                .filter(|&p| self.plane_state(cx, p) > 0)
                .map(|p| (cx.ftl().free_blocks(p), p))
                .collect();
            below.sort_unstable();
            for (_, p) in below {
                if let Some(j) = gc.start(cx, p) {
                    if cx.queue().is_empty() && cx.jobs()[j].gains_nothing(self.pages_per_block) {
                        self.dies[die].quiet = true;
                    }
                    return self.with_job(cx, gc, j);
                }
            }
        }
        match cx.queue().front() {
            Some(t) => {
                if t.write {
                    self.dies[die].quiet = false;
                }
                (Action::Host(0), self.die_state(cx))
            }
            None => (Action::Idle, self.die_state(cx)),
        }
    }
}

impl Trigger for States {
    fn next(&mut self, cx: &mut DieContext<'_>, gc: &mut Axes) -> Action {
        let die = cx.die as usize;
        if self.dies.len() <= die {
            self.dies.resize(die + 1, DieState::default());
        }
        let d = self.dies[die];
        self.stats.state_time[d.state as usize] += cx.now.saturating_sub(d.since);
        let (action, state) = self.decide(cx, gc);
        let d = &mut self.dies[die];
        d.since = cx.now;
        d.state = state;
        action
    }

    fn may_preempt(&self, cx: &DieContext<'_>, t: &QueuedTxn) -> bool {
        !t.write || self.plane_state(cx, t.plane) < 2
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

    /// One die of two planes, 32 blocks of 8 pages each; T_soft 7 blocks, T_hard 4.
    fn drive() -> (Config, Ftl) {
        small_die(&["gc.hard_threshold=0.1"])
    }

    fn decide(
        s: &mut Box<dyn GcScheme>,
        ftl: &mut Ftl,
        queue: &[QueuedTxn],
        jobs: &mut Vec<GcJob>,
    ) -> Action {
        testing::decide(s.as_mut(), ftl, queue, jobs, false)
    }

    use crate::gc::GcJob;

    const W0: QueuedTxn = QueuedTxn {
        plane: 0,
        write: true,
        lpn: 0,
        id: 0,
    };
    const R0: QueuedTxn = QueuedTxn {
        plane: 0,
        write: false,
        lpn: 0,
        id: 0,
    };
    const W1: QueuedTxn = QueuedTxn {
        plane: 1,
        write: true,
        lpn: 1,
        id: 0,
    };

    #[test]
    fn thresholds_resolve_to_blocks() {
        let (cfg, _) = drive();
        assert_eq!(cfg.pgc_threshold_blocks(), (7, 4));
    }

    #[test]
    fn s0_serves_host_and_starts_no_gc() {
        let (cfg, mut ftl) = drive();
        let mut s = testing::scheme("pgc-none", &cfg);
        let mut jobs = Vec::new();
        assert_eq!(decide(&mut s, &mut ftl, &[W0], &mut jobs), Action::Host(0));
        assert_eq!(decide(&mut s, &mut ftl, &[], &mut jobs), Action::Idle);
        assert!(jobs.is_empty());
    }

    #[test]
    fn s1_gc_starts_and_every_request_preempts_it() {
        let (cfg, mut ftl) = drive();
        fill_plane0(&mut ftl, 5);
        let mut s = testing::scheme("pgc-none", &cfg);
        let mut jobs = Vec::new();
        // A write preempts the job it starts (point B comes before its first move).
        assert_eq!(decide(&mut s, &mut ftl, &[W0], &mut jobs), Action::Host(0));
        assert_eq!(jobs.len(), 1);
        assert_eq!(decide(&mut s, &mut ftl, &[R0], &mut jobs), Action::Host(0));
        // Nothing queued: the job runs one operation, not the whole job.
        assert_eq!(decide(&mut s, &mut ftl, &[], &mut jobs), Action::Gc(0));
        assert_eq!(s.stats().preemptions, 2);
        assert_eq!(s.stats().s3_holds, 0);
    }

    #[test]
    fn s2_only_reads_and_other_planes_preempt_and_a_waiting_write_holds() {
        let (cfg, mut ftl) = drive();
        fill_plane0(&mut ftl, 3);
        let mut s = testing::scheme("pgc-none", &cfg);
        let mut jobs = Vec::new();
        // Reads of the S2 plane and writes to a plane in S0 preempt; the queue order is kept among them.
        assert_eq!(
            decide(&mut s, &mut ftl, &[R0, W1], &mut jobs),
            Action::Host(0)
        );
        assert_eq!(jobs.len(), 1);
        assert_eq!(decide(&mut s, &mut ftl, &[W1], &mut jobs), Action::Host(0));
        // A write to the S2 plane does not preempt: S3, the job runs to its erase.
        assert_eq!(
            decide(&mut s, &mut ftl, &[W0, R0], &mut jobs),
            Action::GcJob(0)
        );
        assert_eq!(s.stats().s3_holds, 1);
        // The job is done: the waiting write goes next, ahead of a new job.
        jobs.clear();
        assert_eq!(
            decide(&mut s, &mut ftl, &[R0, W0], &mut jobs),
            Action::Host(1)
        );
        assert!(jobs.is_empty());
    }
}
