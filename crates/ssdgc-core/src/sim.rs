//! The simulator: one drive, one workload, one run.
//!
//! Host requests are split into page transactions queued at the die of their plane. Each die runs one
//! command at a time; whenever a die is free its GC scheme decides whether it serves a queued host
//! transaction or the next operation of a GC job ([`crate::gc::scheme`]). Channel transfers are
//! reserved on the channel bus in dispatch order (a channel carries one transfer at a time).
//!
//! Command timing (`cmd` = command/address cycles, `xfer` = one page over the channel):
//! - host read: die `cmd + read`, then the page goes out over the channel; the die stays busy until
//!   the transfer ends (its register holds the data);
//! - host write: `cmd`, then the page comes in over the channel (once the channel is free), then
//!   `program` on the die;
//! - GC move with copyback: `cmd + read + cmd + program`, no channel; without copyback the page also
//!   goes out and back over the channel;
//! - erase: `cmd + erase`.
//!
//! Nothing here reads the wall clock; the simulator owns all of its state, so several can run in one
//! process at once.

use std::collections::VecDeque;

use crate::ageing::{self as precondition, Precondition};
use crate::config::Config;
use crate::engine::{Event, EventQueue};
use crate::flash::{Geometry, Timing};
use crate::ftl::{Ftl, FtlError};
use crate::gc::scheme::{self, Action, DieContext, GcScheme, Interrupt, QueuedTxn};
use crate::gc::{self, GcJob, GcOp};
use crate::host::buffer::WriteBuffer;
use crate::host::{ReplayMode, Workload};
use crate::metrics::breakdown::{Breakdown, BreakdownSums, Busy, DieClock, Snapshot};
use crate::metrics::report::{self, Report};
use crate::metrics::{LatencyStats, Series};
use crate::rng::{rng_for, SimRng};
use crate::units::{Lpn, SimTime};
use ssdgc_workload::{IoRecord, Op, WorkloadError};

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("{0}")]
    Config(String),
    #[error("{0}")]
    Workload(#[from] WorkloadError),
    #[error("{source_name}: request {index}: {msg}")]
    Address {
        source_name: String,
        index: u64,
        msg: String,
    },
    #[error("the drive failed: {0}")]
    Ftl(#[from] FtlError),
    #[error("invariant violated at {time_ns} ns: {msg}")]
    Invariant { time_ns: SimTime, msg: String },
    #[error("the run stalled with {0} requests never completed")]
    Stalled(u64),
}

/// Options of a run that are not drive settings.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Seed of every random choice.
    pub seed: u64,
    /// Check the FTL's invariants while running (every `check_every` events and at the end).
    pub check: bool,
    /// Events between checks in checking mode.
    pub check_every: u64,
    /// Preconditioning.
    pub precondition: Precondition,
    /// Report latency per interval of simulated arrival time of this length.
    pub series_interval: Option<SimTime>,
    /// Report latency per window of this many consecutive requests.
    pub series_window: Option<u64>,
}

impl RunOptions {
    /// Options from a configuration's defaults.
    pub fn from_config(cfg: &Config, seed: u64) -> Result<Self, String> {
        let p = Precondition::parse(&cfg.precondition.mode, cfg.precondition.overwrites)?;
        let p = match p {
            Precondition::Steady(_) => Precondition::Steady(cfg.precondition.overwrites),
            other => other,
        };
        Ok(RunOptions {
            seed,
            check: false,
            check_every: 100_000,
            precondition: p,
            series_interval: None,
            series_window: None,
        })
    }
}

/// Progress of a run, for display.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// True while preconditioning (then `completed`/`expected` count page writes).
    pub preconditioning: bool,
    /// Requests completed (page writes while preconditioning).
    pub completed: u64,
    /// Requests expected, when known.
    pub expected: Option<u64>,
    /// Simulated time so far.
    pub now: SimTime,
}

/// The request of a transaction that flushes a write-buffer page (no host request waits on it).
const FLUSH: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Txn {
    /// Its request, or [`FLUSH`].
    req: u32,
    lpn: Lpn,
    /// The plane of `lpn`, found once when the transaction is queued.
    plane: u32,
    write: bool,
    /// The die's clock when the transaction was queued.
    snap: Snapshot,
    /// Where its time went (filled when it starts).
    bd: Breakdown,
}

#[derive(Clone, Copy, Debug)]
struct Req {
    arrival: SimTime,
    /// When it entered the device queue.
    admitted: SimTime,
    /// Position in arrival order.
    index: u64,
    /// First logical page, before folding.
    first: u64,
    /// Pages touched; transactions still to complete once admitted.
    pending: u32,
    write: bool,
}

#[derive(Clone, Copy, Debug)]
enum Running {
    Nothing,
    Host(u32),
    /// A GC operation; `hold` keeps the die on the job until its erase (no scheme decision between
    /// its operations).
    Gc {
        job: usize,
        op: GcOp,
        hold: bool,
    },
    /// Committing buffered pages (no job).
    Flush,
    /// Suspending a GC operation for a host request (`timing.suspend`, F-PGC §IV), or finishing
    /// a page move's read before stopping at preemption point A (§III-A).
    Suspending,
}

/// A GC operation suspended for host requests (F-PGC, preemptible-GC paper §IV): what is left of it.
#[derive(Clone, Copy, Debug)]
struct Suspended {
    job: usize,
    op: GcOp,
    remaining: SimTime,
}

/// Times one GC operation may be suspended; then it runs to its end, so GC always progresses.
pub const MAX_SUSPENDS: u8 = 4;

struct Die {
    queue: VecDeque<QueuedTxn>,
    ids: VecDeque<u32>,
    jobs: Vec<GcJob>,
    running: Running,
    clock: DieClock,
    /// When the die's last GC page move ends (pipelining: the next one may overlap it).
    move_end: SimTime,
    /// When the operation running on the die ends; a `DieDone` at another time is stale (its
    /// operation was suspended) and ignored.
    done_at: SimTime,
    /// The running operation is a preemptible GC operation (started by [`Action::Gc`]).
    suspendable: bool,
    /// Suspensions of the current GC operation so far.
    suspends: u8,
    /// The GC operation suspended on this die, if any (one at a time).
    suspended: Option<Suspended>,
}

/// Counters of a run, beyond the FTL's.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunStats {
    pub lat_all: LatencyStats,
    pub lat_read: LatencyStats,
    pub lat_write: LatencyStats,
    pub host_pages_read: u64,
    pub unmapped_reads: u64,
    pub gc_time: SimTime,
    pub excess_requests: u64,
    pub excess_ns: u128,
    pub requests_seen: u64,
    pub by_time: Option<Series>,
    pub by_request: Option<Series>,
    pub breakdown: BreakdownSums,
    /// Host writes to a page that a GC job in progress had still to move.
    pub cancelled_moves: u64,
    /// Host reads served from a GC job's page register.
    pub merged_reads: u64,
    /// GC operations suspended for host requests.
    pub suspensions: u64,
    /// GC page moves stopped between read and program for host requests (point A).
    pub point_a: u64,
}

/// Response time above which the excess is reported.
pub const MARGINAL_RESPONSE: SimTime = 30 * crate::units::MS;

/// One drive replaying one workload.
pub struct Simulator {
    cfg: Config,
    geo: Geometry,
    timing: Timing,
    ftl: Ftl,
    scheme: Box<dyn GcScheme>,
    scheme_name: String,
    /// The scheme pipelines back-to-back GC moves ([`GcScheme::pipelined`]).
    pipelined: bool,
    rng: SimRng,
    events: EventQueue,
    dies: Vec<Die>,
    channel_free: Vec<SimTime>,
    txns: Vec<Txn>,
    free_txns: Vec<u32>,
    reqs: Vec<Req>,
    free_reqs: Vec<u32>,
    waiting: VecDeque<u32>,
    /// Host reads served from a GC register (merged) whose page is still on its way.
    merging: u32,
    in_device: u32,
    outstanding: u64,
    workload: Workload,
    next_arrival: Option<IoRecord>,
    first_time: Option<u64>,
    exhausted: bool,
    now: SimTime,
    error: Option<SimError>,
    ftl_error: Option<FtlError>,
    stats: RunStats,
    /// The host write buffer (empty and unused when `buffer.size` is 0).
    buffer: WriteBuffer,
    buffer_latency: SimTime,
    opts: RunOptions,
    /// Wall time of preconditioning; `None` until it has run.
    precondition_wall: Option<f64>,
}

impl Simulator {
    /// Builds the drive and readies the workload; the drive is preconditioned by
    /// [`Simulator::precondition`], or when the run starts.
    pub fn new(cfg: &Config, workload: Workload, opts: RunOptions) -> Result<Simulator, SimError> {
        cfg.validate()
            .map_err(|e| SimError::Config(e.to_string()))?;
        // Some schemes simulate a transformed drive (the plane-level superblock).
        let drive = scheme::drive_for(cfg);
        let cfg = &drive;
        cfg.validate()
            .map_err(|e| SimError::Config(e.to_string()))?;
        let geo = Geometry::new(cfg);
        let timing = Timing::new(cfg);
        let ftl = Ftl::new(cfg, &geo).map_err(SimError::Config)?;
        let scheme = scheme::build(&cfg.gc.scheme, cfg).map_err(SimError::Config)?;
        let dies = (0..geo.dies)
            .map(|_| Die {
                queue: VecDeque::new(),
                ids: VecDeque::new(),
                jobs: Vec::new(),
                running: Running::Nothing,
                clock: DieClock::new(geo.planes_per_die),
                move_end: SimTime::MAX,
                done_at: SimTime::MAX,
                suspendable: false,
                suspends: 0,
                suspended: None,
            })
            .collect();
        Ok(Simulator {
            cfg: cfg.clone(),
            channel_free: vec![0; geo.channels as usize],
            // Per die: one completion, one merged read, and a stale completion per suspension; per
            // device-queue slot one write-buffer acknowledgement.
            events: EventQueue::new(
                (3 + MAX_SUSPENDS as usize) * geo.dies as usize
                    + 4
                    + if cfg.buffer.size.0 > 0 {
                        cfg.host.queue_depth as usize
                    } else {
                        0
                    },
            ),
            timing,
            ftl,
            pipelined: scheme.pipelined(),
            scheme,
            scheme_name: cfg.gc.scheme.clone(),
            rng: rng_for(opts.seed, 2),
            dies,
            txns: Vec::new(),
            free_txns: Vec::new(),
            reqs: Vec::new(),
            free_reqs: Vec::new(),
            waiting: VecDeque::new(),
            merging: 0,
            in_device: 0,
            outstanding: 0,
            workload,
            next_arrival: None,
            first_time: None,
            exhausted: false,
            now: 0,
            error: None,
            ftl_error: None,
            stats: RunStats {
                by_time: opts.series_interval.map(Series::new),
                by_request: opts.series_window.map(Series::new),
                ..RunStats::default()
            },
            buffer: WriteBuffer::new(cfg.buffer.size.0 / geo.page_size),
            buffer_latency: cfg.buffer.latency.0,
            opts,
            precondition_wall: None,
            geo,
        })
    }

    /// The FTL (for tests and inspection).
    pub fn ftl(&self) -> &Ftl {
        &self.ftl
    }

    /// Preconditions the drive as the options say, once (later calls do nothing), with no simulated
    /// time; `progress` hears about it every 2^20 page writes.
    pub fn precondition(&mut self, progress: &mut dyn FnMut(Progress)) -> Result<(), SimError> {
        if self.precondition_wall.is_some() {
            return Ok(());
        }
        let started = std::time::Instant::now();
        let mut rng = rng_for(self.opts.seed, 1);
        precondition::run(
            &mut self.ftl,
            self.opts.precondition,
            &mut rng,
            &mut |done, total| {
                progress(Progress {
                    preconditioning: true,
                    completed: done,
                    expected: Some(total),
                    now: 0,
                })
            },
        )?;
        self.precondition_wall = Some(started.elapsed().as_secs_f64());
        if self.opts.check {
            self.ftl
                .check()
                .map_err(|msg| SimError::Invariant { time_ns: 0, msg })?;
        }
        Ok(())
    }

    /// Runs to the end of the workload and returns the report.
    pub fn run(self) -> Result<Report, SimError> {
        self.run_with_progress(&mut |_| {})
    }

    /// Runs to the end, calling `progress` now and then.
    pub fn run_with_progress(
        mut self,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Report, SimError> {
        self.execute(progress)
    }

    /// Runs to the end and returns the report with the drive's final FTL (for inspection).
    pub fn run_into_ftl(mut self) -> Result<(Report, Ftl), SimError> {
        let r = self.execute(&mut |_| {})?;
        Ok((r, self.ftl))
    }

    fn execute(&mut self, progress: &mut dyn FnMut(Progress)) -> Result<Report, SimError> {
        self.precondition(progress)?;
        let started = std::time::Instant::now();
        match self.workload.mode {
            ReplayMode::OpenLoop => self.schedule_next_arrival()?,
            ReplayMode::ClosedLoop(qd) => {
                for _ in 0..qd {
                    if !self.issue_closed_loop()? {
                        break;
                    }
                }
            }
        }
        loop {
            let Some((t, ev)) = self.events.pop() else {
                // The run ends only once the write buffer is on flash.
                if self.buffer.has_dirty() {
                    self.flush_buffer();
                    if !self.events.is_empty() {
                        continue;
                    }
                }
                break;
            };
            debug_assert!(t >= self.now, "time went backwards");
            self.now = t;
            match ev {
                Event::Arrival => self.on_arrival()?,
                Event::DieDone(d) => self.on_die_done(d)?,
                Event::TxnDone(t) => self.on_merged_done(t),
                Event::BufferDone(r) => self.page_done(
                    r,
                    Breakdown {
                        st: self.buffer_latency,
                        ..Breakdown::default()
                    },
                ),
            }
            if let Some(e) = self.error.take() {
                return Err(e);
            }
            if let Some(e) = self.ftl_error.take() {
                return Err(e.into());
            }
            let n = self.events.processed();
            if self.opts.check && n.is_multiple_of(self.opts.check_every) {
                self.check()?;
            }
            if n & 0xFFFF == 0 {
                progress(Progress {
                    preconditioning: false,
                    completed: self.stats.lat_all.count(),
                    expected: self.workload.expected,
                    now: self.now,
                });
            }
        }
        if self.outstanding > 0 {
            return Err(SimError::Stalled(self.outstanding));
        }
        if !self.buffer.is_empty() {
            return Err(SimError::Invariant {
                time_ns: self.now,
                msg: format!(
                    "the run ended with {} pages in the write buffer",
                    self.buffer.len()
                ),
            });
        }
        if self.opts.check {
            self.check()?;
        }
        progress(Progress {
            preconditioning: false,
            completed: self.stats.lat_all.count(),
            expected: self.workload.expected,
            now: self.now,
        });
        let wall = started.elapsed().as_secs_f64() + self.precondition_wall.unwrap_or(0.0);
        Ok(report::build(&report::ReportInput {
            cfg: &self.cfg,
            geo: &self.geo,
            scheme: &self.scheme_name,
            victim: self.ftl.victim_kind().name(),
            seed: self.opts.seed,
            workload: &self.workload,
            ftl: &self.ftl,
            stats: &self.stats,
            simulated: self.now,
            wall_s: wall,
            events: self.events.processed(),
            series_interval: self.opts.series_interval,
            series_window: self.opts.series_window,
            plane_util: crate::metrics::breakdown::plane_util(
                &self
                    .dies
                    .iter()
                    .map(|d| d.clock.clone())
                    .collect::<Vec<_>>(),
                self.now,
            ),
            scheme_stats: self.scheme.stats(),
            buffer: &self.buffer,
        }))
    }

    fn check(&self) -> Result<(), SimError> {
        self.ftl.check().map_err(|msg| SimError::Invariant {
            time_ns: self.now,
            msg,
        })?;
        let queued: usize = self.dies.iter().map(|d| d.ids.len()).sum();
        let running = self
            .dies
            .iter()
            .filter(|d| matches!(d.running, Running::Host(_)))
            .count();
        let running = running + self.merging as usize;
        let live_txns = self.txns.len() - self.free_txns.len();
        if self.buffer.len() as u64 > self.buffer.capacity() {
            return Err(SimError::Invariant {
                time_ns: self.now,
                msg: format!(
                    "the write buffer holds {} pages, over its {}",
                    self.buffer.len(),
                    self.buffer.capacity()
                ),
            });
        }
        if queued + running != live_txns {
            return Err(SimError::Invariant {
                time_ns: self.now,
                msg: format!(
                    "{live_txns} live transactions but {queued} queued and {running} running"
                ),
            });
        }
        Ok(())
    }

    fn next_record(&mut self) -> Result<Option<IoRecord>, SimError> {
        if self.exhausted {
            return Ok(None);
        }
        match self.workload.next_record() {
            Some(Ok(r)) => {
                self.stats.requests_seen += 1;
                Ok(Some(r))
            }
            Some(Err(e)) => Err(e.into()),
            None => {
                self.exhausted = true;
                Ok(None)
            }
        }
    }

    fn schedule_next_arrival(&mut self) -> Result<(), SimError> {
        if let Some(rec) = self.next_record()? {
            let first = *self.first_time.get_or_insert(rec.time_ns);
            let rel = rec.time_ns.saturating_sub(first);
            let scale = self.cfg.host.time_scale;
            let t = if scale == 1.0 {
                rel
            } else {
                (rel as f64 * scale).round() as SimTime
            };
            self.next_arrival = Some(rec);
            self.events.schedule(t.max(self.now), Event::Arrival);
        }
        Ok(())
    }

    fn on_arrival(&mut self) -> Result<(), SimError> {
        let rec = self
            .next_arrival
            .take()
            .expect("an arrival event always has its record");
        self.submit(rec, self.now)?;
        self.schedule_next_arrival()
    }

    fn issue_closed_loop(&mut self) -> Result<bool, SimError> {
        match self.next_record()? {
            Some(rec) => {
                self.submit(rec, self.now)?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Logical page range of a record, folded or rejected as configured.
    fn pages_of(&self, rec: &IoRecord) -> Result<(u64, u64), SimError> {
        let ps = self.geo.page_size;
        let first = rec.offset / ps;
        let last = (rec.offset + rec.len.max(1) - 1) / ps;
        let logical = self.geo.logical_pages as u64;
        if last >= logical && self.cfg.host.fold == "reject" {
            return Err(SimError::Address {
                source_name: self.workload.name.clone(),
                // 1-based: `requests_seen` already counts this request.
                index: self.stats.requests_seen,
                msg: format!(
                    "bytes {}..{} lie beyond the drive's logical space of {} bytes (set host.fold=wrap to fold addresses)",
                    rec.offset,
                    rec.offset + rec.len,
                    logical * ps
                ),
            });
        }
        Ok((first, last - first + 1))
    }

    fn submit(&mut self, rec: IoRecord, arrival: SimTime) -> Result<(), SimError> {
        let (first, npages) = self.pages_of(&rec)?;
        let write = rec.op == Op::Write;
        let req = Req {
            arrival,
            admitted: arrival,
            // `requests_seen` already counts this request.
            index: self.stats.requests_seen - 1,
            first,
            pending: npages as u32,
            write,
        };
        let id = match self.free_reqs.pop() {
            Some(i) => {
                self.reqs[i as usize] = req;
                i
            }
            None => {
                self.reqs.push(req);
                self.reqs.len() as u32 - 1
            }
        };
        self.outstanding += 1;
        if self.in_device < self.cfg.host.queue_depth && self.waiting.is_empty() {
            self.admit(id);
        } else {
            self.waiting.push_back(id);
        }
        Ok(())
    }

    /// Moves a request into the device queue: one transaction per page, queued at its die.
    fn admit(&mut self, id: u32) {
        self.in_device += 1;
        self.reqs[id as usize].admitted = self.now;
        let Req {
            first,
            pending,
            write,
            ..
        } = self.reqs[id as usize];
        let logical = self.geo.logical_pages as u64;
        let lpns = (0..pending as u64).map(|i| ((first + i) % logical) as Lpn);
        if write && self.buffer.enabled() {
            if self.buffer.try_insert(lpns.clone()) {
                // Acknowledged by the buffer; its pages are flushed later.
                self.buffer.writes_absorbed += 1;
                self.ack_from_buffer(id);
                return;
            }
            // It does not fit: it goes to flash as an ordinary write, behind a flush of everything
            // buffered (which frees the buffer for the writes after it). Its pages' buffered
            // copies are superseded.
            self.buffer.writes_bypassed += 1;
            for lpn in lpns.clone() {
                self.buffer.supersede(lpn);
            }
            self.flush_buffer();
        }
        let mut immediate = 0;
        let mut from_buffer = 0;
        for lpn in lpns {
            if !write && self.buffer.contains(lpn) {
                // Served from the write buffer.
                self.buffer.hits_read += 1;
                from_buffer += 1;
                continue;
            }
            if !write && self.ftl.lookup(lpn).is_none() {
                // Never written: the FTL answers without touching flash.
                self.stats.unmapped_reads += 1;
                immediate += 1;
                continue;
            }
            self.queue_txn(id, lpn, write);
        }
        if from_buffer > 0 && immediate + from_buffer == pending {
            // Nothing to read from flash: the buffer answers.
            self.ack_from_buffer(id);
            return;
        }
        // Pages served at once (unmapped, or from the buffer in far less than a flash read).
        for _ in 0..immediate + from_buffer {
            self.page_done(id, Breakdown::default());
        }
    }

    /// Queues a page transaction of request `req` (or [`FLUSH`]) at the die of its plane.
    fn queue_txn(&mut self, req: u32, lpn: Lpn, write: bool) {
        let plane = self.ftl.plane_of(lpn);
        let d = self.geo.die_of_plane(plane);
        let txn = Txn {
            req,
            lpn,
            plane,
            write,
            snap: self.dies[d as usize]
                .clock
                .snapshot(self.now, self.geo.plane_in_die(plane)),
            bd: Breakdown::default(),
        };
        let t = match self.free_txns.pop() {
            Some(t) => {
                self.txns[t as usize] = txn;
                t
            }
            None => {
                self.txns.push(txn);
                self.txns.len() as u32 - 1
            }
        };
        let die = &mut self.dies[d as usize];
        die.queue.push_back(QueuedTxn { plane, write, lpn });
        die.ids.push_back(t);
        self.kick(d);
    }

    /// Request `id` is served by the write buffer: it completes after `buffer.latency`.
    fn ack_from_buffer(&mut self, id: u32) {
        self.reqs[id as usize].pending = 1;
        self.events
            .schedule(self.now + self.buffer_latency, Event::BufferDone(id));
    }

    /// Queues every dirty buffered page as a host page write to flash.
    fn flush_buffer(&mut self) {
        for lpn in self.buffer.take_dirty() {
            self.queue_txn(FLUSH, lpn, true);
        }
    }

    /// One page of request `id` is done, its time spent as `bd`; completes the request when it was
    /// the last.
    fn page_done(&mut self, id: u32, mut bd: Breakdown) {
        let r = &mut self.reqs[id as usize];
        r.pending -= 1;
        if r.pending > 0 {
            return;
        }
        let lat = self.now - r.arrival;
        // The request's parts: its last page's, plus its wait for a device-queue slot.
        bd.cngc += r.admitted - r.arrival;
        debug_assert_eq!(bd.total(), lat, "response time not fully attributed");
        self.stats.breakdown.add(&bd);
        let write = r.write;
        if let Some(s) = self.stats.by_time.as_mut() {
            s.add(r.arrival, lat);
        }
        if let Some(s) = self.stats.by_request.as_mut() {
            s.add(r.index, lat);
        }
        self.stats.lat_all.record(lat);
        if write {
            self.stats.lat_write.record(lat);
        } else {
            self.stats.lat_read.record(lat);
        }
        if lat > MARGINAL_RESPONSE {
            self.stats.excess_requests += 1;
            self.stats.excess_ns += (lat - MARGINAL_RESPONSE) as u128;
        }
        self.free_reqs.push(id);
        self.in_device -= 1;
        self.outstanding -= 1;
        if let Some(next) = self.waiting.pop_front() {
            self.admit(next);
        }
        if let ReplayMode::ClosedLoop(_) = self.workload.mode {
            if let Err(e) = self.issue_closed_loop() {
                self.error.get_or_insert(e);
            }
        }
        if self.in_device == 0 {
            // The device queue emptied: the write buffer is flushed, and free dies may start
            // idle-time work.
            self.flush_buffer();
            for die in 0..self.geo.dies {
                self.kick(die);
            }
        }
    }

    /// Lets a free die start its next operation, as its scheme decides.
    fn kick(&mut self, d: u32) {
        // Each round either starts an operation (and returns) or retires a finished job; a die has
        // few jobs, so this bound is never reached in a correct run.
        for _ in 0..64 {
            let die = &mut self.dies[d as usize];
            if !matches!(die.running, Running::Nothing) {
                if die.suspendable && die.suspended.is_none() && die.suspends < MAX_SUSPENDS {
                    self.try_suspend(d);
                }
                return;
            }
            let mut cx = DieContext {
                now: self.now,
                die: d,
                device_idle: self.in_device == 0,
                ftl: &mut self.ftl,
                rng: &mut self.rng,
                queue: &die.queue,
                jobs: &mut die.jobs,
                error: &mut self.ftl_error,
            };
            let action = self.scheme.next(&mut cx);
            let action = match (die.suspended.is_some(), action) {
                (false, a) => a,
                // With an operation suspended, only host transactions run before it resumes.
                (true, Action::Host(i) | Action::Merge { txn: i, .. }) => Action::Host(i),
                (true, _) => {
                    self.resume(d);
                    return;
                }
            };
            match action {
                Action::Idle => return,
                Action::Flush => {
                    self.start_flush(d);
                    return;
                }
                Action::Merge { txn, job } => {
                    let (Some(_), Some(t)) = (die.queue.remove(txn), die.ids.remove(txn)) else {
                        self.invariant(format!(
                            "scheme merged host transaction {txn} of an empty slot"
                        ));
                        return;
                    };
                    if !self.start_merge(d, t, job) {
                        // Not mergeable after all: an ordinary read.
                        self.start_host(d, t);
                    }
                    return;
                }
                Action::Host(i) => {
                    let (Some(_), Some(t)) = (die.queue.remove(i), die.ids.remove(i)) else {
                        self.invariant(format!(
                            "scheme chose host transaction {i} of an empty slot"
                        ));
                        return;
                    };
                    self.start_host(d, t);
                    return;
                }
                Action::GcJob(j) => {
                    if j >= die.jobs.len() {
                        self.invariant(format!("scheme chose GC job {j}, which does not exist"));
                        return;
                    }
                    if self.start_gc_job(d, j) {
                        return;
                    }
                    // The job had nothing left: it is retired; decide again.
                }
                Action::Gc(j) => {
                    let Some(job) = die.jobs.get_mut(j) else {
                        self.invariant(format!("scheme chose GC job {j}, which does not exist"));
                        return;
                    };
                    match gc::dispatch_next(&mut self.ftl, job) {
                        Ok(Some(op)) => {
                            let dur = self.start_gc_op(d, j, op, false);
                            self.stats.gc_time += dur;
                            let die = &mut self.dies[d as usize];
                            die.suspendable = true;
                            die.suspends = 0;
                            return;
                        }
                        Ok(None) => {
                            die.jobs.remove(j);
                        }
                        Err(e) => {
                            self.ftl_error.get_or_insert(e);
                            return;
                        }
                    }
                }
            }
        }
        self.invariant(format!("die {d}: its scheme made no progress"));
    }

    /// Schedules the end of the operation die `d` is starting.
    fn schedule_die_done(&mut self, d: u32, at: SimTime) {
        self.dies[d as usize].done_at = at;
        self.events.schedule(at, Event::DieDone(d));
    }

    /// Suspends the preemptible GC operation running on die `d` when its scheme lets a queued host
    /// transaction in (F-PGC, §IV-A): the die spends `timing.suspend` suspending, then its scheme
    /// serves host work, and the operation resumes with its remaining time once the scheme has no
    /// host work for the die.
    fn try_suspend(&mut self, d: u32) {
        let die = &mut self.dies[d as usize];
        let Running::Gc {
            job,
            op,
            hold: false,
        } = die.running
        else {
            return;
        };
        let cx = DieContext {
            now: self.now,
            die: d,
            device_idle: self.in_device == 0,
            ftl: &mut self.ftl,
            rng: &mut self.rng,
            queue: &die.queue,
            jobs: &mut die.jobs,
            error: &mut self.ftl_error,
        };
        let (at, remaining) = match self.scheme.interrupts(&cx, &op) {
            None => return,
            Some(Interrupt::Suspend) => {
                let remaining = die.done_at.saturating_sub(self.now);
                if remaining <= self.timing.suspend {
                    // Nearly done: suspending would not help.
                    return;
                }
                self.stats.suspensions += 1;
                self.stats.gc_time += self.timing.suspend;
                (self.now + self.timing.suspend, remaining)
            }
            Some(Interrupt::AfterRead) => {
                // A move ends with its program (`cmd + program`); stop just before it.
                if !matches!(op, GcOp::Move { .. }) {
                    return;
                }
                let program = self.timing.command + self.timing.program;
                let point = die.done_at.saturating_sub(program);
                if self.now >= point {
                    return;
                }
                self.stats.point_a += 1;
                (point, program)
            }
        };
        die.suspended = Some(Suspended { job, op, remaining });
        die.suspends += 1;
        die.suspendable = false;
        die.running = Running::Suspending;
        self.schedule_die_done(d, at);
    }

    /// Resumes the GC operation suspended on die `d`.
    fn resume(&mut self, d: u32) {
        let now = self.now;
        let die = &mut self.dies[d as usize];
        let Some(s) = die.suspended.take() else {
            return;
        };
        die.clock.switch(
            now,
            Busy::Gc {
                planes: s.op.plane_mask(&self.geo),
            },
        );
        die.running = Running::Gc {
            job: s.job,
            op: s.op,
            hold: false,
        };
        die.suspendable = true;
        self.schedule_die_done(d, now + s.remaining);
    }

    fn invariant(&mut self, msg: String) {
        self.error.get_or_insert(SimError::Invariant {
            time_ns: self.now,
            msg,
        });
    }

    /// Starts host transaction `t` on die `d`.
    fn start_host(&mut self, d: u32, t: u32) {
        let txn = self.txns[t as usize];
        let tm = self.timing;
        let ch = self.geo.channel_of_die(d) as usize;
        let now = self.now;
        let (finish, channel_wait) = if txn.write {
            // Only a die with a GC job in progress can have a move to cancel.
            let old = if self.dies[d as usize].jobs.is_empty() {
                None
            } else {
                self.ftl.lookup(txn.lpn)
            };
            if let Some(old) = old {
                let a = self.geo.addr(old);
                if self.dies[d as usize]
                    .jobs
                    .iter()
                    .any(|j| j.collects(a.plane, a.block))
                {
                    self.stats.cancelled_moves += 1;
                }
            }
            if let Err(e) = self.ftl.host_write(txn.lpn) {
                self.ftl_error.get_or_insert(e);
                return;
            }
            let xs = (now + tm.command).max(self.channel_free[ch]);
            self.channel_free[ch] = xs + tm.transfer;
            (xs + tm.transfer + tm.program, xs - (now + tm.command))
        } else {
            self.stats.host_pages_read += 1;
            let ready = now + tm.command + tm.read;
            let xs = ready.max(self.channel_free[ch]);
            self.channel_free[ch] = xs + tm.transfer;
            (xs + tm.transfer, xs - ready)
        };
        let plane = self.geo.plane_in_die(txn.plane);
        let die = &mut self.dies[d as usize];
        let mut bd = die.clock.waited(now, plane, &txn.snap);
        let late = bd.delayed_by_gc();
        bd.cngc += channel_wait;
        bd.st = finish - now - channel_wait;
        die.clock.switch(now, Busy::Host { plane, late });
        self.txns[t as usize].bd = bd;
        die.running = Running::Host(t);
        self.schedule_die_done(d, finish);
    }

    /// Serves host read `t` from the register of GC job `j` (merging): the job moves the read's page
    /// now — read into the register, the page goes out over the channel to the host, then the
    /// register is programmed into the GC write point (out and back in over the channel without
    /// copyback) — and the read is done when its transfer ends. False when the page is not one the
    /// job still has to move.
    fn start_merge(&mut self, d: u32, t: u32, j: usize) -> bool {
        let txn = self.txns[t as usize];
        let Some(src) = self.ftl.lookup(txn.lpn) else {
            return false;
        };
        let Some(job) = self.dies[d as usize].jobs.get_mut(j) else {
            return false;
        };
        let op = match gc::dispatch_page(&mut self.ftl, job, src) {
            Ok(Some(op)) => op,
            Ok(None) => return false,
            Err(e) => {
                self.ftl_error.get_or_insert(e);
                return true;
            }
        };
        let tm = self.timing;
        let ch = self.geo.channel_of_die(d) as usize;
        let now = self.now;
        let ready = now + tm.command + tm.read;
        let xs = ready.max(self.channel_free[ch]);
        let delivered = xs + tm.transfer;
        self.channel_free[ch] = delivered;
        let programmed = if self.cfg.gc.copyback {
            delivered
        } else {
            let xi = delivered.max(self.channel_free[ch]);
            self.channel_free[ch] = xi + tm.transfer;
            xi + tm.transfer
        };
        let end = programmed + tm.command + tm.program;
        self.stats.host_pages_read += 1;
        self.stats.merged_reads += 1;
        self.stats.gc_time += end - now;
        let plane = self.geo.plane_in_die(txn.plane);
        let planes = op.plane_mask(&self.geo);
        let die = &mut self.dies[d as usize];
        let mut bd = die.clock.waited(now, plane, &txn.snap);
        bd.cngc += xs - ready;
        bd.st = delivered - now - (xs - ready);
        die.clock.switch(now, Busy::Gc { planes });
        die.running = Running::Gc {
            job: j,
            op,
            hold: false,
        };
        self.txns[t as usize].bd = bd;
        self.merging += 1;
        self.events.schedule(delivered, Event::TxnDone(t));
        self.schedule_die_done(d, end);
        true
    }

    /// A merged read has delivered its page.
    fn on_merged_done(&mut self, t: u32) {
        let Txn { req, bd, .. } = self.txns[t as usize];
        self.merging -= 1;
        self.free_txns.push(t);
        self.page_done(req, bd);
    }

    /// Holds die `d` for every remaining operation of job `j`. With copyback the operations touch no
    /// shared resource, so they are carried out back to back with one completion event at the end;
    /// otherwise they are issued one at a time (their channel transfers interleave with other dies')
    /// and the die stays on the job between them. Returns false when the job had nothing left.
    fn start_gc_job(&mut self, d: u32, j: usize) -> bool {
        if !self.cfg.gc.copyback || self.dies[d as usize].jobs[j].uses_channel() {
            return self.step_held_job(d, j);
        }
        let start = self.now;
        let mut t = start;
        let mut last = None;
        let pipe = self.pipe_timing();
        let die = &mut self.dies[d as usize];
        let job = &mut die.jobs[j];
        let planes = job.plane_mask(&self.geo);
        loop {
            match gc::dispatch_next(&mut self.ftl, job) {
                Ok(Some(op)) => {
                    let moving = matches!(op, GcOp::Move { .. });
                    let tm = match pipe {
                        Some(p) if moving && die.move_end == t => p,
                        _ => self.timing,
                    };
                    t = gc_op_end(&tm, true, &mut self.channel_free, 0, t, op);
                    if moving {
                        die.move_end = t;
                    }
                    // A job ends with its erase: the only operation to keep for completion.
                    if op.is_erase() {
                        last = Some(op);
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    self.ftl_error.get_or_insert(e);
                    return true;
                }
            }
        }
        let Some(op) = last else {
            self.dies[d as usize].jobs.remove(j);
            return false;
        };
        self.stats.gc_time += t - start;
        let die = &mut self.dies[d as usize];
        die.clock.switch(start, Busy::Gc { planes });
        die.running = Running::Gc {
            job: j,
            op,
            hold: false,
        };
        self.schedule_die_done(d, t);
        true
    }

    /// Issues the next operation of held job `j`; false (and the job retired) when none is left.
    fn step_held_job(&mut self, d: u32, j: usize) -> bool {
        match gc::dispatch_next(&mut self.ftl, &mut self.dies[d as usize].jobs[j]) {
            Ok(Some(op)) => {
                let dur = self.start_gc_op(d, j, op, true);
                self.stats.gc_time += dur;
                true
            }
            Ok(None) => {
                self.dies[d as usize].jobs.remove(j);
                false
            }
            Err(e) => {
                self.ftl_error.get_or_insert(e);
                true
            }
        }
    }

    /// Commits buffered pages of die `d` with one program operation.
    fn start_flush(&mut self, d: u32) {
        let n = self.geo.planes_per_die;
        let planes: Vec<u32> = (d * n..(d + 1) * n).collect();
        match gc::commit_buffered(&mut self.ftl, &planes) {
            Ok(Some(op)) => {
                let ch = self.geo.channel_of_die(d) as usize;
                let now = self.now;
                let copyback = self.cfg.gc.copyback;
                let finish = gc_op_end(&self.timing, copyback, &mut self.channel_free, ch, now, op);
                self.stats.gc_time += finish - now;
                let die = &mut self.dies[d as usize];
                die.clock.switch(
                    now,
                    Busy::Gc {
                        planes: op.plane_mask(&self.geo),
                    },
                );
                die.running = Running::Flush;
                self.schedule_die_done(d, finish);
            }
            Ok(None) => self.invariant(format!("die {d}: flush with nothing buffered")),
            Err(e) => {
                self.ftl_error.get_or_insert(e);
            }
        }
    }

    /// The timing of a pipelined GC move (its read hidden behind the previous move's program), when
    /// the scheme pipelines.
    fn pipe_timing(&self) -> Option<Timing> {
        self.pipelined.then(|| Timing {
            read: self.timing.read.saturating_sub(self.timing.program),
            ..self.timing
        })
    }

    /// Starts GC operation `op` of job `j` on die `d`; returns its duration.
    fn start_gc_op(&mut self, d: u32, j: usize, op: GcOp, hold: bool) -> SimTime {
        let now = self.now;
        let ch = self.geo.channel_of_die(d) as usize;
        let moving = matches!(op, GcOp::Move { .. });
        let tm = match self.pipe_timing() {
            Some(p) if moving && self.dies[d as usize].move_end == now => p,
            _ => self.timing,
        };
        let finish = gc_op_end(
            &tm,
            self.cfg.gc.copyback,
            &mut self.channel_free,
            ch,
            now,
            op,
        );
        let planes = op.plane_mask(&self.geo);
        let die = &mut self.dies[d as usize];
        if moving {
            die.move_end = finish;
        }
        die.clock.switch(now, Busy::Gc { planes });
        die.running = Running::Gc { job: j, op, hold };
        self.schedule_die_done(d, finish);
        finish - now
    }

    fn on_die_done(&mut self, d: u32) -> Result<(), SimError> {
        let die = &mut self.dies[d as usize];
        if die.done_at != self.now {
            // The completion of an operation that was suspended: it resumed and ends later.
            return Ok(());
        }
        die.done_at = SimTime::MAX;
        die.suspendable = false;
        let running = std::mem::replace(&mut die.running, Running::Nothing);
        die.clock.switch(self.now, Busy::Idle);
        match running {
            Running::Nothing => {
                return Err(SimError::Invariant {
                    time_ns: self.now,
                    msg: format!("die {d} finished an operation it was not running"),
                })
            }
            Running::Host(t) => {
                let Txn { req, bd, lpn, .. } = self.txns[t as usize];
                self.free_txns.push(t);
                if req == FLUSH {
                    self.buffer.flushed(lpn);
                    if self.in_device == 0 {
                        // Pages written again while in flight.
                        self.flush_buffer();
                    }
                } else {
                    self.page_done(req, bd);
                }
            }
            Running::Flush | Running::Suspending => {}
            Running::Gc { job, op, hold } => {
                gc::complete(&mut self.ftl, op);
                if op.is_erase() {
                    self.dies[d as usize].jobs.remove(job);
                } else if hold && self.step_held_job(d, job) {
                    return Ok(());
                }
            }
        }
        self.kick(d);
        Ok(())
    }
}

/// When a GC operation started at `now` on a die of channel `ch` ends, reserving the channel for
/// its transfers when it has any.
fn gc_op_end(
    tm: &Timing,
    copyback: bool,
    channel_free: &mut [SimTime],
    ch: usize,
    now: SimTime,
    op: GcOp,
) -> SimTime {
    let (before, pages, after) = op.cost(tm, copyback);
    if pages == 0 {
        return now + before + after;
    }
    let xs = (now + before).max(channel_free[ch]);
    channel_free[ch] = xs + pages * tm.transfer;
    xs + pages * tm.transfer + after
}
