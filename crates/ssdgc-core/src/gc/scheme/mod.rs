//! The interface between a GC scheme and the drive's per-die scheduler.
//!
//! The per-die scheduler asks the die's scheme what to do each time the die is free
//! ([`GcScheme::next`]); the scheme answers with an [`Action`] and may start jobs through the
//! [`DieContext`], which carries out every decision with the shared mechanism in [`crate::gc`].
//! Schemes never touch the mapping themselves. Every scheme is built from its axes
//! ([`crate::gc::schemes`], [`crate::gc::compose::Composed`]).

pub mod preview;
#[cfg(test)]
pub(crate) mod testing;

pub use preview::{Command, DeviceQueue, DriveView};

use std::collections::VecDeque;

use super::GcJob;
use crate::ftl::{Ftl, FtlError};
use crate::rng::SimRng;
use crate::units::SimTime;

/// What a free die does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Serve the host transaction at this index of the die's queue.
    Host(usize),
    /// Run the next operation of the die's GC job at this index.
    Gc(usize),
    /// Run all remaining operations of the die's GC job at this index, holding the die until the
    /// victim is erased: no scheme decision, and no host operation on the die, in between. (With
    /// copyback the simulator carries the operations out back to back under one completion event,
    /// which times them exactly as issuing them one by one would.)
    GcJob(usize),
    /// Merge the host transaction at index `txn` of the die's queue into job `job`'s move of the
    /// same page (merging, preemptible-GC paper §III-B, Table III): a read takes its data from the
    /// move's page register (the job moves that page now, out of order, with no flash read of the
    /// host's own); a write puts its data into the page buffer instead, programmed once at the GC
    /// write point as a host page (the move is not made).
    Merge { txn: usize, job: usize },
    /// Commit pages held in the DRAM buffer (TC-PaGC) with one program operation.
    Flush,
    /// Nothing to do until something arrives.
    Idle,
}

/// A queued host transaction as a scheme sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuedTxn {
    /// Target plane.
    pub plane: u32,
    /// A write (consumes free pages) rather than a read.
    pub write: bool,
    /// Its logical page.
    pub lpn: crate::units::Lpn,
    /// The drive's number for it (opaque to schemes): kept in the entry, so that a die has one
    /// queue.
    pub id: u32,
}

/// What a scheme may see and do while deciding for one die.
pub struct DieContext<'a> {
    /// Current simulated time.
    pub now: SimTime,
    /// The die.
    pub die: u32,
    /// No host request is in the device queue (admitted and not yet completed) on any die.
    pub device_idle: bool,
    /// This decision is the drive's wake-up ([`DieContext::wake_at`]) firing.
    pub woken: bool,
    /// The drive's idle time, wake-up and device queue.
    pub(crate) view: &'a DriveView,
    /// What the scheme asked of the timer during this decision.
    pub(crate) wake: Option<Wake>,
    pub(crate) ftl: &'a mut Ftl,
    pub(crate) rng: &'a mut SimRng,
    pub(crate) queue: &'a VecDeque<QueuedTxn>,
    pub(crate) jobs: &'a mut Vec<GcJob>,
    pub(crate) error: &'a mut crate::engine::ErrorSlot<FtlError>,
}

/// A change of a drive's wake-up timer asked by its scheme ([`DieContext::wake_at`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wake {
    /// Call the scheme back at this time.
    At(SimTime),
    /// No call back.
    Cancel,
}

impl DieContext<'_> {
    /// Asks the drive to call the scheme back at time `at` (at once, after the events already
    /// due now, if `at` is not in the future): every free die of the drive then decides with
    /// [`DieContext::woken`] set. A drive has one timer: this replaces the pending wake-up, which
    /// will not fire, and the last request of a decision holds. A wake-up never keeps a run going
    /// on its own; one still pending when the last event is done is dropped.
    pub fn wake_at(&mut self, at: SimTime) {
        self.wake = Some(Wake::At(at));
    }

    /// Cancels the drive's pending wake-up, if any.
    pub fn cancel_wake(&mut self) {
        self.wake = Some(Wake::Cancel);
    }

    /// When the drive's pending wake-up fires, if one is set (as of this decision, with its own
    /// requests applied).
    pub fn wake_pending(&self) -> Option<SimTime> {
        match self.wake {
            None => self.view.timer,
            Some(Wake::At(t)) => Some(t.max(self.now)),
            Some(Wake::Cancel) => None,
        }
    }

    /// The host commands in the drive's device queue: arrived, admitted and not completed, each
    /// with its operation, its logical pages on the drive and its arrival time
    /// ([`preview`]). Requests that have not arrived are never in it. Kept only for a scheme whose
    /// [`GcScheme::previews`] is true (empty otherwise).
    pub fn device_queue(&self) -> &DeviceQueue {
        &self.view.commands
    }

    /// The next command of the workload, announced before its arrival time (`arrival`, in the
    /// future), when the scheme looks ahead ([`GcScheme::looks_ahead`]) and the workload is replayed
    /// open loop: its pre-information (AGC/DGC paper §4.1). `None` otherwise, and between its
    /// arrival and the next announcement.
    pub fn next_command(&self) -> Option<&Command> {
        self.view.announced.as_ref()
    }

    /// Since when the device has been idle (no host request with work on the drive); `None` while
    /// it is not. 0 before the first request.
    pub fn idle_since(&self) -> Option<SimTime> {
        self.device_idle.then_some(self.view.idle_since)
    }

    /// The FTL, read-only.
    pub fn ftl(&self) -> &Ftl {
        self.ftl
    }
    /// Host transactions waiting for this die, oldest first.
    pub fn queue(&self) -> &VecDeque<QueuedTxn> {
        self.queue
    }
    /// GC jobs in progress on this die.
    pub fn jobs(&self) -> &[GcJob] {
        self.jobs
    }
    /// The planes of this die.
    pub fn planes(&self) -> std::ops::Range<u32> {
        let n = self.ftl.geometry().planes_per_die;
        self.die * n..(self.die + 1) * n
    }

    /// Pages of this die's planes waiting in the DRAM buffer.
    pub fn buffered_pages(&self) -> u32 {
        self.planes().map(|p| self.ftl.buffered_pages(p)).sum()
    }

    /// True when some plane of this die can commit buffered pages now ([`crate::gc::can_commit`]).
    pub fn can_flush(&self) -> bool {
        self.planes().any(|p| super::can_commit(self.ftl, p))
    }

    /// Starts a parallel job (PaGC) over `planes` of this die, the first being the plane that asked
    /// for GC; returns its index. `cache`: single-plane moves go to the DRAM buffer (TC-PaGC).
    pub fn start_parallel_job(&mut self, planes: &[u32], cache: bool) -> Option<usize> {
        let job = super::start_parallel_job(self.ftl, planes, self.rng, self.now, cache)?;
        self.jobs.push(job);
        Some(self.jobs.len() - 1)
    }

    /// True when queued host transaction `txn` is a read or a write of a page that job `job` still
    /// has to move, so the two can be merged ([`Action::Merge`]).
    pub fn can_merge(&self, txn: usize, job: usize) -> bool {
        let (Some(t), Some(j)) = (self.queue.get(txn), self.jobs.get(job)) else {
            return false;
        };
        !j.is_parallel()
            && self.ftl.lookup(t.lpn).is_some_and(|p| {
                let a = self.ftl.geometry().addr(p);
                j.collects(a.plane, a.block)
            })
    }

    /// Starts a job in `plane` (the victim policy chooses the block); returns its index.
    pub fn start_job(&mut self, plane: u32) -> Option<usize> {
        let job = super::start_job(self.ftl, plane, self.rng, self.now)?;
        self.jobs.push(job);
        Some(self.jobs.len() - 1)
    }
    /// The group a merge of `plane` would take now ([`Ftl::merge_candidate`]): `of`'s, or the
    /// one the FTL would choose; `None` without a log-block mapping.
    pub fn merge_candidate(&mut self, plane: u32, of: Option<crate::units::Lpn>) -> Option<u32> {
        self.ftl.merge_candidate(plane, of, self.rng)
    }

    /// Starts the merge of group `group` of `plane`, which [`DieContext::merge_candidate`]
    /// returned; returns its index.
    pub fn start_group_merge(&mut self, plane: u32, group: u32) -> Option<usize> {
        let job = super::start_group_merge(self.ftl, plane, group, self.now)?;
        self.jobs.push(job);
        Some(self.jobs.len() - 1)
    }

    /// Starts a planned job in `plane` (parallel migration, IPPBE, copyback parity: `how`); returns
    /// its index.
    pub fn start_planned_job(
        &mut self,
        plane: u32,
        how: super::migration::InPlane,
    ) -> Option<usize> {
        let job = super::start_planned_job(self.ftl, plane, self.rng, self.now, how)?;
        self.jobs.push(job);
        Some(self.jobs.len() - 1)
    }

    /// Gives up job `j` before any of its operations ran: its victims are candidates again
    /// ([`crate::gc::abandon`]).
    pub fn abandon_job(&mut self, j: usize) {
        let job = self.jobs.remove(j);
        super::abandon(self.ftl, job);
    }

    /// Runs a whole job in `plane` with no simulated time (the zero-latency oracle). Returns false
    /// when the plane had no candidate or the FTL failed.
    pub fn collect_now(&mut self, plane: u32) -> bool {
        match super::collect_now(self.ftl, plane, self.rng, self.now) {
            Ok(Some(_)) => true,
            Ok(None) => false,
            Err(e) => {
                self.error.replace(e);
                false
            }
        }
    }
}

/// A GC scheme: decides what a free die does next.
pub trait GcScheme: Send {
    /// Decides the die's next action.
    fn next(&mut self, cx: &mut DieContext<'_>) -> Action;

    /// A shortcut of [`GcScheme::next`] for a free die `die` with no GC job in progress whose
    /// queue holds `head` first (`None`: an empty queue): `Some(action)` only when `next` would
    /// answer that action — [`Action::Host`]`(0)` or [`Action::Idle`] — and change nothing else
    /// (no job, no wake-up, no counter), so that the drive acts without building the
    /// [`DieContext`]. Asked before each such decision; `None` (the default) sends the die
    /// through `next`, which decides as it always does.
    fn quick_next(&self, _die: u32, _head: Option<&QueuedTxn>, _ftl: &Ftl) -> Option<Action> {
        None
    }

    /// True when host commands are pipelined with GC commands of the same type through the cache
    /// register (preemptible-GC paper §III-C): a host write that starts as a GC move ends costs its
    /// program alone, and a GC move that starts as a host read ends has its read shortened by the
    /// host page's time in the register and on the channel (`drive/pipeline.rs`).
    fn pipelined(&self) -> bool {
        false
    }

    /// True when the scheme reads the drive's device queue ([`DieContext::device_queue`]); the
    /// drive keeps it only then (it costs a little on every request).
    fn previews(&self) -> bool {
        false
    }

    /// True when the scheme reads the next command's pre-information
    /// ([`DieContext::next_command`]): the drive then keeps it, and the dies it touches decide
    /// when it is announced.
    fn looks_ahead(&self) -> bool {
        false
    }

    /// Whether, and how, the preemptible GC operation `op` running on the die is interrupted for
    /// the host work queued there. Asked when host work arrives at a die busy with an operation of
    /// an [`Action::Gc`]; the simulator then stops the operation as answered, lets the scheme serve
    /// host transactions, and resumes the operation when the scheme asks for anything else.
    fn interrupts(&mut self, _cx: &DieContext<'_>, _op: &super::GcOp) -> Option<Interrupt> {
        None
    }

    /// Counters the scheme keeps about its own decisions; zero unless it keeps any.
    fn stats(&self) -> SchemeStats {
        SchemeStats::default()
    }

    /// The AGC/DGC family's counters (GC jobs by kind, deferrals); zero for other schemes.
    fn idle_gc(&self) -> crate::gc::when::jobs::IdleGcStats {
        Default::default()
    }
}

/// How a GC operation in progress is interrupted for host work ([`GcScheme::interrupts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// Suspend it now, at a cost of `timing.suspend` (F-PGC, preemptible-GC paper §IV).
    Suspend,
}

/// Counters a scheme keeps about its decisions (idle-time and preemptible GC).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SchemeStats {
    /// Die time spent in each state S0–S3 of preemptible GC (§III-D), summed over dies, in ns. A
    /// die's state is its worst plane's, sampled at each of its scheduling decisions.
    pub state_time: [SimTime; 4],
    /// Host transactions served while a GC job of their die was in progress (preemptions).
    pub preemptions: u64,
    /// Times a queued write made GC run to its erase with nothing preempting (state S3).
    pub s3_holds: u64,
    /// GC jobs started in idle time (no host request in the device).
    pub idle_jobs: u64,
}

/// The drive a scheme simulates: the configured one, except with the plane-level superblock
/// ([`crate::gc::planes::superblock::superblock_drive`]). An invalid GC configuration leaves the
/// drive as configured (building the scheme reports the error).
pub fn drive_for(cfg: &crate::config::Config) -> crate::config::Config {
    match crate::gc::schemes::GcAxes::resolve(&cfg.gc) {
        Ok(a) if a.planes == crate::gc::planes::Planes::Superblock => {
            crate::gc::planes::superblock::superblock_drive(cfg)
        }
        _ => cfg.clone(),
    }
}

/// Builds the scheme `name` for the drive of `cfg`, with `cfg`'s axis overrides.
pub fn build(name: &str, cfg: &crate::config::Config) -> Result<Box<dyn GcScheme>, String> {
    Ok(Box::new(build_composed(name, cfg)?))
}

/// [`build`], as the concrete scheme (which the drive calls without dynamic dispatch).
pub fn build_composed(
    name: &str,
    cfg: &crate::config::Config,
) -> Result<crate::gc::compose::Composed, String> {
    let mut gc = cfg.gc.clone();
    gc.scheme = name.to_string();
    let axes = crate::gc::schemes::GcAxes::resolve(&gc)?;
    Ok(crate::gc::compose::Composed::new(axes, cfg))
}
