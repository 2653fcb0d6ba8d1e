//! GC schemes: *when* GC operations run relative to host I/O.
//!
//! The per-die scheduler asks the die's scheme what to do each time the die is free
//! ([`GcScheme::next`]); the scheme answers with an [`Action`] and may start jobs through the
//! [`DieContext`], which carries out every decision with the shared mechanism in [`crate::gc`].
//! Schemes never touch the mapping themselves.

mod baseline;
mod idle;
mod pagc;
mod pgc;
mod superblock;
#[cfg(test)]
mod testing;
mod zero;

pub use baseline::Baseline;
pub use idle::Idle;
pub use pagc::{Join, Pagc};
pub use pgc::{Features, Pgc, Suspend};
pub use superblock::{superblock_drive, Superblock};
pub use zero::Zero;

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
    /// Serve the host read at index `txn` of the die's queue from the page register of job `job`:
    /// the job moves that page of its victim now, and the read takes its data from the register
    /// with no flash read of its own (merging, preemptible-GC paper §III-B).
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
}

/// What a scheme may see and do while deciding for one die.
pub struct DieContext<'a> {
    /// Current simulated time.
    pub now: SimTime,
    /// The die.
    pub die: u32,
    /// No host request is in the device queue (admitted and not yet completed) on any die.
    pub device_idle: bool,
    pub(crate) ftl: &'a mut Ftl,
    pub(crate) rng: &'a mut SimRng,
    pub(crate) queue: &'a VecDeque<QueuedTxn>,
    pub(crate) jobs: &'a mut Vec<GcJob>,
    pub(crate) error: &'a mut Option<FtlError>,
}

impl DieContext<'_> {
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

    /// True when queued host transaction `txn` is a read of a page that job `job` still has to move,
    /// so the two can be merged ([`Action::Merge`]).
    pub fn can_merge(&self, txn: usize, job: usize) -> bool {
        let (Some(t), Some(j)) = (self.queue.get(txn), self.jobs.get(job)) else {
            return false;
        };
        !t.write
            && !j.is_parallel()
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
    /// Runs a whole job in `plane` with no simulated time (the zero-latency oracle). Returns false
    /// when the plane had no candidate or the FTL failed.
    pub fn collect_now(&mut self, plane: u32) -> bool {
        match super::collect_now(self.ftl, plane, self.rng, self.now) {
            Ok(Some(_)) => true,
            Ok(None) => false,
            Err(e) => {
                *self.error = Some(e);
                false
            }
        }
    }
}

/// A GC scheme: decides what a free die does next.
pub trait GcScheme: Send {
    /// Decides the die's next action.
    fn next(&mut self, cx: &mut DieContext<'_>) -> Action;

    /// True when back-to-back GC page moves on a die overlap through the cache register
    /// (pipelining, preemptible-GC paper §III-C): a move that starts the instant the die's previous
    /// move ended costs its read only where the read outlasts the program, `max(0, t_R − t_PROG)`.
    fn pipelined(&self) -> bool {
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
}

/// How a GC operation in progress is interrupted for host work ([`GcScheme::interrupts`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interrupt {
    /// Suspend it now, at a cost of `timing.suspend` (F-PGC, preemptible-GC paper §IV).
    Suspend,
    /// A page move stops after its read, before its program (preemption point A, §III-A); the
    /// page waits in the register while host work runs. Moves already programming are not stopped.
    AfterRead,
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

/// The schemes `--gc` accepts: (name, description).
pub const SCHEMES: &[(&str, &str)] = &[
    (
        "baseline",
        "on-demand serial GC (NPGC): per-plane free-block trigger, GC before host I/O, non-preemptible, holds the die",
    ),
    (
        "idle",
        "idle-time GC: collects planes below gc.idle_threshold while the device queue is empty, preemptible between operations; on-demand at the threshold",
    ),
    (
        "pagc-blind",
        "B-PaGC: when a plane of a die collects, every plane of the die collects in parallel (multi-plane moves and erase)",
    ),
    (
        "pagc-threshold",
        "T-PaGC: a paired plane joins only if its free-page share is below gc.pagc_threshold",
    ),
    (
        "pagc-cache",
        "TC-PaGC: as T-PaGC, single-plane moves go through the DRAM buffer and are committed later with multi-plane programs",
    ),
    (
        "superblock",
        "plane-level superblock (PaGC paper §VII-E): the planes of a die read, write, map and collect as one, with multi-plane operations",
    ),
    (
        "pgc-none",
        "semi-preemptible GC: GC below gc.soft_threshold runs one page move at a time and host requests preempt it between moves; below gc.hard_threshold only reads do; a waiting write then makes the job finish first",
    ),
    (
        "pgc-merge",
        "pgc-none with merging: a preempting read of a page the GC job still has to move is served from the move's register (the page moves first)",
    ),
    (
        "pgc-pipeline",
        "pgc-none with pipelining: back-to-back GC moves overlap through the cache register (read hidden behind the previous program)",
    ),
    (
        "pgc",
        "PGC: semi-preemptible GC with merging and pipelining",
    ),
    (
        "pgc-se",
        "PGC+SE: pgc, and a preempting request suspends a GC erase in progress (timing.suspend)",
    ),
    (
        "fpgc",
        "F-PGC: pgc, and a preempting request suspends any GC operation in progress (timing.suspend)",
    ),
    (
        "zero",
        "zero-latency oracle: all GC bookkeeping, no GC time (the lower bound for every scheme)",
    ),
];

/// The drive a scheme simulates: the configured one, except for `superblock`
/// ([`superblock_drive`]).
pub fn drive_for(cfg: &crate::config::Config) -> crate::config::Config {
    if cfg.gc.scheme == "superblock" {
        superblock_drive(cfg)
    } else {
        cfg.clone()
    }
}

/// Builds a scheme by name.
pub fn build(name: &str, cfg: &crate::config::Config) -> Result<Box<dyn GcScheme>, String> {
    match name {
        "baseline" => Ok(Box::new(Baseline)),
        "zero" => Ok(Box::new(Zero)),
        "superblock" => Ok(Box::new(Superblock)),
        "idle" => Ok(Box::new(Idle::new(cfg))),
        "pgc-none" => Ok(Box::new(Pgc::new(cfg, Features::default()))),
        "pgc-merge" => Ok(Box::new(Pgc::new(
            cfg,
            Features {
                merge: true,
                ..Features::default()
            },
        ))),
        "pgc-pipeline" => Ok(Box::new(Pgc::new(
            cfg,
            Features {
                pipeline: true,
                ..Features::default()
            },
        ))),
        "pgc" => Ok(Box::new(Pgc::new(
            cfg,
            Features {
                merge: true,
                pipeline: true,
                ..Features::default()
            },
        ))),
        "pgc-se" => Ok(Box::new(Pgc::new(
            cfg,
            Features {
                merge: true,
                pipeline: true,
                suspend: Suspend::Erase,
            },
        ))),
        "fpgc" => Ok(Box::new(Pgc::new(
            cfg,
            Features {
                merge: true,
                pipeline: true,
                suspend: Suspend::All,
            },
        ))),
        "pagc-blind" => Ok(Box::new(Pagc::new(Join::Blind, cfg))),
        "pagc-threshold" => Ok(Box::new(Pagc::new(Join::Threshold, cfg))),
        "pagc-cache" => Ok(Box::new(Pagc::new(Join::Cache, cfg))),
        _ => Err(format!(
            "unknown GC scheme '{name}' (known: {})",
            SCHEMES
                .iter()
                .map(|(n, _)| *n)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}
