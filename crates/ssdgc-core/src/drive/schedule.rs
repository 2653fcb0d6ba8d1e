//! Per-die scheduling: when a die is free its GC scheme decides what it does next
//! ([`GcScheme::next`](crate::gc::scheme::GcScheme::next)), and the drive starts that operation —
//! a host page transaction, one operation of a GC job, or a whole GC job — reserving its resources
//! through the resource model and scheduling the die's completion.
//!
//! Command timing (`cmd` = command/address cycles, `xfer` = one page over the channel; see
//! [`crate::flash::resources`]):
//! - host read: die `cmd + read`, then the page goes out over the channel; the die stays busy until
//!   the transfer ends (its register holds the data);
//! - host write: `cmd`, then the page comes in over the channel (once the channel is free), then
//!   `program` on the die;
//! - GC move with copyback: `cmd + read + cmd + program`, no channel; without copyback the page also
//!   goes out and back over the channel;
//! - erase: `cmd + erase`.

use super::{Drive, Running};
use crate::engine::EventQueue;
use crate::flash::{FlashOp, GcScope};
use crate::gc::scheme::Action;
use crate::gc::{self, GcOp};
use crate::metrics::breakdown::Busy;
use crate::units::SimTime;

/// Rounds of one decision of a die ([`Drive::decide`]).
const DECIDE_ROUNDS: u32 = 64;

impl Drive {
    /// Lets free die `d` start its next operation, as its scheme decides. A busy die running a
    /// preemptible GC operation may instead be suspended for the host work queued there.
    #[inline]
    pub(super) fn kick_die(&mut self, ev: &mut EventQueue, d: u32) {
        let free = matches!(self.dies[d as usize].running, Running::Nothing);
        self.kick_die_free(ev, d, free);
    }

    /// [`Drive::kick_die`] of die `d`, which runs nothing when `free`.
    #[inline(always)]
    pub(super) fn kick_die_free(&mut self, ev: &mut EventQueue, d: u32, free: bool) {
        if !free {
            if self.suspension.may_suspend(d) {
                self.try_suspend(ev, d);
            }
            return;
        }
        self.decide(ev, d, false);
    }

    /// Free die `d` starts its next operation, as its scheme decides; `woken`: the drive's wake-up
    /// is firing.
    ///
    /// Each round either starts an operation (and returns) or retires a finished job; a die has few
    /// jobs, so the bound of [`DECIDE_ROUNDS`] is never reached in a correct run. The usual
    /// decision, a host transaction with no GC due or nothing to do (the scheme's
    /// `GcScheme::quick_next`), is taken here; any other goes through the rounds, out of line. (So
    /// it is short: inlined into its callers, it adds no frame of its own.)
    #[inline]
    pub(super) fn decide(&mut self, ev: &mut EventQueue, d: u32, woken: bool) {
        if self.quick_decision_applies(d) && self.quick_decision(ev, d) {
            return;
        }
        // (The rounds take this case again from the start: what was tested changes nothing.)
        self.decide_again(ev, d, woken);
    }

    /// True when die `d` runs nothing, its channel is not held by another die's GC, it holds no
    /// plane for a job and it has no GC job: its next decision may be the quick one
    /// ([`Drive::quick_decision`], or a queued page's start in `Drive::queue`).
    #[inline(always)]
    pub(super) fn quick_decision_applies(&self, d: u32) -> bool {
        let die = &self.dies[d as usize];
        matches!(die.running, Running::Nothing)
            && !self.res.blocked(d)
            && die.plane_hold.is_none()
            && die.jobs.is_empty()
    }

    /// The usual decisions of free die `d`, which has no GC job, taken without the scheme's
    /// context: a host transaction with no GC due is started, or nothing is to be done
    /// (`GcScheme::quick_next`). True when the decision is over.
    #[inline(always)]
    fn quick_decision(&mut self, ev: &mut EventQueue, d: u32) -> bool {
        let die = &mut self.dies[d as usize];
        debug_assert!(die.jobs.is_empty());
        match self.scheme.quick_next(d, die.queue.front(), &self.ftl) {
            Some(Action::Host(0)) => {
                if let Some(t) = die.take_queued(0) {
                    self.start_host(ev, d, t, None);
                }
                true
            }
            Some(Action::Idle) => true,
            _ => false,
        }
    }

    /// [`Drive::decide`]'s rounds, until one is over.
    #[inline(never)]
    fn decide_again(&mut self, ev: &mut EventQueue, d: u32, woken: bool) {
        for _ in 0..DECIDE_ROUNDS {
            if self.decide_round(ev, d, woken) {
                return;
            }
        }
        self.invariant(format!("die {d}: its scheme made no progress"));
    }

    /// One round of [`Drive::decide`]: true when the decision is over (an operation started, or
    /// nothing to start), false when a job was retired and the die decides again.
    #[inline(always)]
    fn decide_round(&mut self, ev: &mut EventQueue, d: u32, woken: bool) -> bool {
        if !matches!(self.dies[d as usize].running, Running::Nothing) {
            if self.suspension.may_suspend(d) {
                self.try_suspend(ev, d);
            }
            return true;
        }
        if self.res.blocked(d) {
            // Another die of the channel runs GC and holds it (`gc.blocking = "channel"`).
            return true;
        }
        if let Some(j) = self.dies[d as usize].plane_hold {
            return self.step_plane_held(ev, d, j);
        }
        if self.dies[d as usize].jobs.is_empty() && self.quick_decision(ev, d) {
            return true;
        }
        let die = &mut self.dies[d as usize];
        let mut cx = die_context!(self, die, d, self.now, woken);
        let action = self.scheme.next(&mut cx);
        if let Some(w) = cx.wake {
            self.apply_wake(ev, w);
        }
        let action = match (self.suspension.holds(d), action) {
            (false, a) => a,
            // With an operation suspended, only host transactions run before it resumes.
            (true, Action::Host(i) | Action::Merge { txn: i, .. }) => Action::Host(i),
            (true, _) => {
                self.resume(ev, d);
                return true;
            }
        };
        let die = &mut self.dies[d as usize];
        match action {
            Action::Idle => return true,
            Action::Flush => {
                self.start_flush(ev, d);
                return true;
            }
            Action::Merge { txn, job } => {
                let Some(t) = die.take_queued(txn) else {
                    self.invariant(format!(
                        "scheme merged host transaction {txn} of an empty slot"
                    ));
                    return true;
                };
                if self.txns[t as usize].write {
                    // Into the move's page buffer, or (not mergeable after all) an ordinary
                    // write.
                    self.start_host(ev, d, t, Some(job));
                } else if !self.start_merge(ev, d, t, job) {
                    // Not mergeable after all: an ordinary read.
                    self.start_host(ev, d, t, None);
                }
                return true;
            }
            Action::Host(i) => {
                let Some(t) = die.take_queued(i) else {
                    self.invariant(format!(
                        "scheme chose host transaction {i} of an empty slot"
                    ));
                    return true;
                };
                self.start_host(ev, d, t, None);
                return true;
            }
            Action::GcJob(j) => {
                if j >= die.jobs.len() {
                    self.invariant(format!("scheme chose GC job {j}, which does not exist"));
                    return true;
                }
                if self.scope == GcScope::Plane {
                    // The job holds its planes only: the die alternates its operations with
                    // host transactions of other planes, without asking the scheme again.
                    self.dies[d as usize].plane_hold = Some(j);
                    if self.step_plane_held(ev, d, j) {
                        return true;
                    }
                    return false;
                }
                if self.start_gc_job(ev, d, j) {
                    return true;
                }
                // The job had nothing left: it is retired; decide again.
            }
            Action::Gc(j) => {
                let Some(job) = die.jobs.get_mut(j) else {
                    self.invariant(format!("scheme chose GC job {j}, which does not exist"));
                    return true;
                };
                match gc::dispatch_next(&mut self.ftl, job) {
                    Ok(Some(op)) => {
                        let dur = self.start_gc_op(ev, d, j, op, false);
                        self.counters.gc_time += dur;
                        self.suspension.started(d);
                        return true;
                    }
                    Ok(None) => {
                        die.jobs.remove(j);
                    }
                    Err(e) => {
                        self.ftl_error.keep(e);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Starts host transaction `t` on die `d`; a write with `merge = Some(j)` goes into the page
    /// buffer of job `j`'s move of its page when the job still has to move it (`drive/merge.rs`).
    /// With host multi-plane commands other queued transactions may join it (`drive/multiplane.rs`);
    /// a partial write may read its page first (`ftl.rmw`).
    pub(super) fn start_host(&mut self, ev: &mut EventQueue, d: u32, t: u32, merge: Option<usize>) {
        if self.host_extras {
            // Read-modify-write or host multi-plane commands (kept out of the common path).
            self.start_host_extras(ev, d, t, merge);
            return;
        }
        let txn = self.txns[t as usize];
        let now = self.now;
        let solo = 1u64 << txn.in_die;
        let op = if txn.write {
            // The die's next write will supersede a page: its entries are on the way while this
            // one runs.
            let ahead = self.dies[d as usize]
                .queue
                .front()
                .and_then(|next| next.write.then_some(next.lpn));
            if self
                .host_write(d, txn.plane, txn.lpn, merge, ahead)
                .is_none()
            {
                return;
            }
            self.pipeline
                .host_write(
                    d,
                    now,
                    txn.snap.at(),
                    || self.res.channel_free(d),
                    &self.timing,
                    solo,
                )
                .unwrap_or_else(|| FlashOp::host_write(&self.timing, solo))
        } else {
            self.counters.host_pages_read += 1;
            FlashOp::host_read(&self.timing, solo)
        };
        self.run_host(ev, d, t, &txn, &op);
    }

    /// [`Drive::start_host`] when read-modify-write or host multi-plane commands are on.
    #[cold]
    #[inline(never)]
    fn start_host_extras(&mut self, ev: &mut EventQueue, d: u32, t: u32, merge: Option<usize>) {
        let txn = self.txns[t as usize];
        if let Some(op) = self.host_op_extras(ev, d, t, merge) {
            self.run_host(ev, d, t, &txn, &op);
        }
    }

    /// Host transaction `t` (`txn` as it was queued) runs `op` on die `d` from now: its resources
    /// reserved, its breakdown made, the die's completion scheduled. Inlined in each caller, where
    /// `op` is known to hold one register and (in the common path) built in registers.
    #[inline(always)]
    fn run_host(&mut self, ev: &mut EventQueue, d: u32, t: u32, txn: &super::Txn, op: &FlashOp) {
        let now = self.now;
        let plane = u32::from(txn.in_die);
        let r = self.res.reserve(d, now, op);
        if txn.write {
            self.pipeline.other(d);
        } else {
            self.pipeline.host_read(d, r.ready, r.end);
        }
        let channel_wait = r.channel_wait();
        let die = &mut self.dies[d as usize];
        let mut bd = die.clock.waited(now, plane, &txn.snap);
        let late = bd.delayed_by_gc();
        bd.cngc += channel_wait;
        bd.st = r.end - now - channel_wait;
        die.clock.switch(now, Busy::Host { plane, late });
        self.txns[t as usize].bd = bd;
        die.running = Running::Host(t);
        self.schedule_die_done(ev, d, r.end);
    }

    /// The flash operation of host transaction `t` on die `d` when read-modify-write or host
    /// multi-plane commands are on: the FTL side done, its operation returned; `None` when a
    /// multi-plane command was started for it (with the transactions that joined) or the FTL
    /// failed.
    #[cold]
    #[inline(never)]
    fn host_op_extras(
        &mut self,
        ev: &mut EventQueue,
        d: u32,
        t: u32,
        merge: Option<usize>,
    ) -> Option<FlashOp> {
        let txn = self.txns[t as usize];
        let plane = u32::from(txn.in_die);
        let solo = 1u64 << plane;
        if !txn.write {
            let planes = if self.multiplane.on() {
                self.gather(d, t, plane)
            } else {
                solo
            };
            if planes != solo {
                let pages = self.read_pages(d, txn.lpn);
                self.start_multiplane(ev, d, t, planes, &pages);
                return None;
            }
            self.counters.host_pages_read += 1;
            return Some(FlashOp::host_read(&self.timing, solo));
        }
        // Read-modify-write is decided before the write remaps the page.
        let rmw = self.needs_rmw(&txn);
        let planes = if rmw || !self.multiplane.on() {
            solo
        } else {
            self.gather(d, t, plane)
        };
        let merged = self.host_write(d, txn.plane, txn.lpn, merge, None)?;
        if planes != solo {
            let Some(lead) = self.ftl.lookup(txn.lpn) else {
                self.invariant(format!("host write of page {} left it unmapped", txn.lpn));
                return None;
            };
            let mut pages = self.write_joined(d)?;
            pages.insert(0, lead);
            self.start_multiplane(ev, d, t, planes, &pages);
            return None;
        }
        if rmw {
            return Some(self.rmw_op(merged, solo));
        }
        Some(
            self.pipeline
                .host_write(
                    d,
                    self.now,
                    txn.snap.at(),
                    || self.res.channel_free(d),
                    &self.timing,
                    solo,
                )
                .unwrap_or_else(|| FlashOp::host_write(&self.timing, solo)),
        )
    }

    /// Holds die `d` for every remaining operation of job `j`. With copyback the operations touch no
    /// shared resource, so they are carried out back to back with one completion event at the end;
    /// otherwise they are issued one at a time (their channel transfers interleave with other dies')
    /// and the die stays on the job between them. Returns false when the job had nothing left.
    #[inline(never)]
    fn start_gc_job(&mut self, ev: &mut EventQueue, d: u32, j: usize) -> bool {
        if !self.copyback || self.dies[d as usize].jobs[j].uses_channel() {
            return self.step_held_job(ev, d, j);
        }
        if self.planned {
            self.run_copyback_job::<true>(ev, d, j)
        } else {
            self.run_copyback_job::<false>(ev, d, j)
        }
    }

    /// [`Drive::start_gc_job`] of a copyback job: its operations back to back under one completion
    /// event; `PLANNED` counts a planned job's waves and erases.
    #[inline(always)]
    fn run_copyback_job<const PLANNED: bool>(
        &mut self,
        ev: &mut EventQueue,
        d: u32,
        j: usize,
    ) -> bool {
        let start = self.now;
        let mut t = start;
        let mut last = None;
        let die = &mut self.dies[d as usize];
        let job = &mut die.jobs[j];
        let planes = job.plane_mask(&self.geo);
        if !PLANNED {
            // The moves of a job of one victim at once, then their timing one by one (which
            // depends on their kind only).
            let (moves, error) = gc::dispatch_moves(&mut self.ftl, job);
            let mv = GcOp::Move { src: 0, dst: 0 };
            if self.pipeline.enabled() {
                // A move may pipeline with the host read before it.
                for _ in 0..moves {
                    let tm = self.pipeline.gc_timing(d, t, &mv, &self.timing);
                    let f = mv.flash_op(&tm, true, planes);
                    debug_assert_eq!(f.transfers, 0, "a copyback job without channel use");
                    t = self.res.reserve(d, t, &f).end;
                    self.pipeline.gc_started(d, &mv, t, &self.timing);
                }
            } else {
                let f = mv.flash_op(&self.timing, true, planes);
                debug_assert_eq!(f.transfers, 0, "a copyback job without channel use");
                t = self.res.reserve_repeated(d, t, &f, moves);
                if moves > 0 {
                    self.pipeline.gc_started(d, &mv, t, &self.timing);
                }
            }
            if let Some(e) = error {
                self.ftl_error.keep(e);
                return true;
            }
        }
        loop {
            match gc::dispatch_next(&mut self.ftl, job) {
                Ok(Some(op)) => {
                    let tm = self.pipeline.gc_timing(d, t, &op, &self.timing);
                    let f = op.flash_op(&tm, true, planes);
                    debug_assert_eq!(f.transfers, 0, "a copyback job without channel use");
                    let begun = t;
                    t = self.res.reserve(d, t, &f).end;
                    if PLANNED {
                        count_planned(&mut self.counters, &op, t - begun);
                    }
                    self.pipeline.gc_started(d, &op, t, &self.timing);
                    // A job ends with its erase: the only operation to keep for completion. A
                    // merge's earlier erases (it may erase several blocks) are over by the time
                    // the next one is issued, with the die held throughout.
                    if op.is_erase() {
                        if let Some(done) = last.replace(op) {
                            gc::complete(&mut self.ftl, done);
                        }
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    self.ftl_error.keep(e);
                    return true;
                }
            }
        }
        let Some(op) = last else {
            self.dies[d as usize].jobs.remove(j);
            return false;
        };
        self.counters.gc_time += t - start;
        self.gc_holds(d);
        let die = &mut self.dies[d as usize];
        die.clock.switch(start, Busy::Gc { planes });
        die.running = Running::Gc {
            job: j,
            op,
            hold: false,
        };
        self.schedule_die_done(ev, d, t);
        true
    }

    /// `gc.blocking = "plane"`: die `d` goes on with job `j`, which holds its planes only — a host
    /// transaction of another plane if it is the host's turn, else the job's next operation.
    /// False (and the job retired) when the job had nothing left.
    fn step_plane_held(&mut self, ev: &mut EventQueue, d: u32, j: usize) -> bool {
        if let Some(i) = self.host_between(d, j) {
            let t = self.dies[d as usize]
                .take_queued(i)
                .expect("a queued transaction");
            self.start_host(ev, d, t, None);
            return true;
        }
        match gc::dispatch_next(&mut self.ftl, &mut self.dies[d as usize].jobs[j]) {
            Ok(Some(op)) => {
                let dur = self.start_gc_op(ev, d, j, op, false);
                self.counters.gc_time += dur;
                true
            }
            Ok(None) => {
                let die = &mut self.dies[d as usize];
                die.jobs.remove(j);
                die.plane_hold = None;
                false
            }
            Err(e) => {
                self.ftl_error.keep(e);
                true
            }
        }
    }

    /// Issues the next operation of held job `j`; false (and the job retired) when none is left.
    pub(super) fn step_held_job(&mut self, ev: &mut EventQueue, d: u32, j: usize) -> bool {
        match gc::dispatch_next(&mut self.ftl, &mut self.dies[d as usize].jobs[j]) {
            Ok(Some(op)) => {
                let dur = self.start_gc_op(ev, d, j, op, true);
                self.counters.gc_time += dur;
                true
            }
            Ok(None) => {
                self.dies[d as usize].jobs.remove(j);
                false
            }
            Err(e) => {
                self.ftl_error.keep(e);
                true
            }
        }
    }

    /// Starts GC operation `op` of job `j` on die `d`; returns its duration.
    #[inline(never)]
    fn start_gc_op(
        &mut self,
        ev: &mut EventQueue,
        d: u32,
        j: usize,
        op: GcOp,
        hold: bool,
    ) -> SimTime {
        let now = self.now;
        let planes = op.plane_mask(&self.geo);
        let tm = self.pipeline.gc_timing(d, now, &op, &self.timing);
        let f = op.flash_op(&tm, self.copyback, planes);
        let finish = self.res.reserve(d, now, &f).end;
        if self.planned {
            count_planned(&mut self.counters, &op, finish - now);
        }
        self.gc_holds(d);
        self.pipeline.gc_started(d, &op, finish, &self.timing);
        let die = &mut self.dies[d as usize];
        die.clock.switch(now, Busy::Gc { planes });
        die.running = Running::Gc { job: j, op, hold };
        self.schedule_die_done(ev, d, finish);
        finish - now
    }
}

/// Counts operation `op` of a planned job, which took `dur`: a wave (or one move) keeps one
/// worker's register busy per page; a multi-block erase is counted.
fn count_planned(c: &mut super::DriveCounters, op: &GcOp, dur: SimTime) {
    let workers = match *op {
        GcOp::Move { .. } => 1,
        GcOp::Wave { n, .. } => n as usize,
        GcOp::EraseBlocks { .. } => {
            c.multi_erases += 1;
            return;
        }
        _ => return,
    };
    c.waves += 1;
    for b in &mut c.worker_busy[..workers] {
        *b += dur;
    }
}
