//! The simulator: a host front end and one or more drives (a RAID-0 array), one workload, one run.
//!
//! The run loop pops events from one `(time, sequence)` queue and hands each to its owner: arrivals
//! and write-buffer acknowledgements to the front end (`host/frontend.rs`), die completions
//! and merged reads to the drive named in the event ([`crate::drive::Drive`]). A finished host page
//! goes back to the front end before its die is kicked again, so a completion that admits more
//! work queues it first.
//!
//! Nothing here reads the wall clock except to report the run's own duration; the simulator owns
//! all of its state, so several can run in one process at once.

use crate::ageing::{AgedState, AgeingKey, Precondition};
use crate::config::Config;
use crate::drive::{Drive, Finished};
use crate::engine::{ErrorFlag, Event, EventQueue};
use crate::flash::Geometry;
use crate::ftl::{Ftl, FtlError};
use crate::gc::scheme;
use crate::host::array::Stripe;
use crate::host::frontend::{FrontEnd, Io};
use crate::host::Workload;
use crate::metrics::figures::{
    DriveFigures, DriveWork, HostFigures, MappingInfo, MergeWork, MigrationSettings, Peak,
    RunFigures,
};
use crate::metrics::report::{self, ArrayInfo, BufferReport, DriveInfo, Report, WorkloadInfo};
use crate::metrics::request_log::RequestSink;
use crate::units::SimTime;
use ssdgc_workload::WorkloadError;

pub use crate::drive::MAX_SUSPENDS;
pub use crate::metrics::MARGINAL_RESPONSE;

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
    #[error("{0}")]
    NoProgress(String),
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
        let p = Precondition::parse(cfg.precondition.mode.name(), cfg.precondition.overwrites)?;
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

/// A front end and its drives replaying one workload.
pub struct Simulator {
    /// The configuration of one drive, as its scheme sees it ([`scheme::drive_for`]).
    cfg: Config,
    geo: Geometry,
    scheme_name: String,
    events: EventQueue,
    /// Raised when the front end or a drive has stored an error.
    errors: ErrorFlag,
    front: FrontEnd,
    drives: Vec<Drive>,
    now: SimTime,
    opts: RunOptions,
    /// Wall time of preconditioning; `None` until it has run.
    precondition_wall: Option<f64>,
    /// With a series by time: the interval whose free-block minimum is being watched, and the
    /// fewest free blocks of any plane when it began.
    free_watch: Option<(u64, u32)>,
}

impl Simulator {
    /// The workload read ahead with the drive's cache hints whatever its size ([`crate::host`]'s
    /// `lookahead`; tests: no result may depend on it).
    /// True when it does (one drive, no write buffer, no per-disk traces).
    #[cfg(test)]
    pub(crate) fn force_read_ahead(&mut self) -> bool {
        self.front.force_read_ahead()
    }

    /// Builds the drives and readies the workload; the drives are preconditioned by
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
        let n = cfg.array.drives;
        let errors = ErrorFlag::default();
        let drives = (0..n)
            .map(|d| Drive::new(cfg, d, n, opts.seed, &errors))
            .collect::<Result<Vec<_>, _>>()?;
        let per_disk = !cfg.array.disks.is_empty();
        if per_disk != workload.has_disks() {
            return Err(SimError::Config(if per_disk {
                format!(
                    "array.disks maps disks to drives, but the workload {} has no disk numbers: replay a trace whose records carry a disk or volume number",
                    workload.name
                )
            } else {
                "the workload's records carry disks, but array.disks is empty".to_string()
            }));
        }
        // Per-disk traces: the drives' logical spaces one after the other (a chunk per drive).
        let chunk = if per_disk {
            geo.logical_pages as u64 * geo.page_size
        } else {
            cfg.array.chunk.0
        };
        let stripe = Stripe::new(n, chunk, geo.page_size, geo.logical_pages as u64);
        // Per drive its dies' events; one pending arrival and slack; per device-queue slot one
        // write-buffer acknowledgement.
        let limit = drives.iter().map(Drive::max_events).sum::<usize>()
            + 4
            + if cfg.buffer.size.0 > 0 {
                cfg.host.queue_depth as usize
            } else {
                0
            };
        Ok(Simulator {
            front: FrontEnd::new(
                cfg,
                stripe,
                workload,
                opts.series_interval,
                opts.series_window,
                &errors,
            ),
            events: EventQueue::new(limit),
            errors,
            scheme_name: cfg.gc.scheme.clone(),
            cfg: cfg.clone(),
            geo,
            drives,
            now: 0,
            opts,
            precondition_wall: None,
            free_watch: None,
        })
    }

    /// The FTL of the (first) drive (for tests and inspection).
    pub fn ftl(&self) -> &Ftl {
        self.drives[0].ftl()
    }

    /// The drives of the array.
    pub fn drives(&self) -> &[Drive] {
        &self.drives
    }

    /// Replaces the GC scheme of drive `drive` with `scheme` (a scheme of one's own, for tests or
    /// experiments), before the run; see [`Drive::set_scheme`]. Panics when the array has no drive
    /// `drive`.
    pub fn set_scheme(&mut self, drive: usize, scheme: Box<dyn scheme::GcScheme>) {
        self.drives[drive].set_scheme(scheme);
    }

    /// Hands every completed request to `sink` (the per-request log, [`crate::metrics::request_log`]);
    /// replaces any sink set before. Set it before the run starts.
    ///
    /// ```
    /// use ssdgc_core::host::Workload;
    /// use ssdgc_core::metrics::request_log::RequestRecord;
    /// use ssdgc_core::{ConfigBuilder, RunOptions, Simulator};
    ///
    /// let cfg = ConfigBuilder::preset("default").unwrap().build().unwrap();
    /// let wl = Workload::synthetic("count=100", 1 << 30, 1).unwrap();
    /// let mut opts = RunOptions::from_config(&cfg, 1).unwrap();
    /// opts.precondition = ssdgc_core::ageing::Precondition::None;
    /// let mut sim = Simulator::new(&cfg, wl, opts).unwrap();
    /// let (tx, rx) = std::sync::mpsc::channel::<RequestRecord>();
    /// sim.set_request_sink(Box::new(tx));
    /// let report = sim.run().unwrap();
    /// let records: Vec<RequestRecord> = rx.try_iter().collect();
    /// assert_eq!(records.len() as u64, report.requests.total);
    /// assert!(records.iter().all(|r| r.breakdown.total() == r.response()));
    /// ```
    pub fn set_request_sink(&mut self, sink: Box<dyn RequestSink>) {
        self.front.request_sink = Some(sink);
    }

    /// Preconditions the drives as the options say, once (later calls do nothing), with no
    /// simulated time; `progress` hears about it every 2^20 page writes.
    #[inline(never)]
    pub fn precondition(&mut self, progress: &mut dyn FnMut(Progress)) -> Result<(), SimError> {
        if self.precondition_wall.is_some() {
            return Ok(());
        }
        let started = std::time::Instant::now();
        if let Precondition::Trace(overwrites) = self.opts.precondition {
            self.precondition_from_trace(overwrites)?;
            self.precondition_wall = Some(started.elapsed().as_secs_f64());
            if self.opts.check {
                for d in &self.drives {
                    d.check(0)?;
                }
            }
            return Ok(());
        }
        let n = self.drives.len() as u64;
        for (i, drive) in self.drives.iter_mut().enumerate() {
            let i = i as u64;
            drive.precondition(
                self.opts.precondition,
                self.opts.seed,
                &mut |done, total| {
                    progress(Progress {
                        preconditioning: true,
                        completed: i * total + done,
                        expected: Some(n * total),
                        now: 0,
                    })
                },
            )?;
        }
        self.precondition_wall = Some(started.elapsed().as_secs_f64());
        if self.opts.check {
            for d in &self.drives {
                d.check(0)?;
            }
        }
        Ok(())
    }

    /// The inputs the drives' ageing depends on: runs with equal keys age to the same state
    /// ([`AgeingKey`]).
    pub fn ageing_key(&self) -> Result<AgeingKey, SimError> {
        AgeingKey::new(
            &self.cfg,
            self.opts.precondition,
            self.opts.seed,
            &self.front.workload.identity(),
        )
        .map_err(SimError::Config)
    }

    /// The drives' state after preconditioning ([`Simulator::precondition`] must have run, and
    /// the run not started), to be installed in other simulators with the same
    /// [`Simulator::ageing_key`] instead of ageing them again.
    pub fn aged_state(&self) -> Result<AgedState, SimError> {
        if self.precondition_wall.is_none() || self.events.processed() > 0 {
            return Err(SimError::Config(
                "the aged state exists between preconditioning and the run".into(),
            ));
        }
        let drives = self
            .drives
            .iter()
            .map(|d| d.ftl().snapshot())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| SimError::Config(format!("the aged drive cannot be kept: {e}")))?;
        Ok(AgedState {
            key: self.ageing_key()?,
            drives,
        })
    }

    /// Installs an aged state (from [`Simulator::aged_state`] or a file) in place of
    /// preconditioning; the report is then the one this simulator would have produced ageing its
    /// drives itself. An error when the state was aged under another key, or is not a valid state
    /// of these drives.
    pub fn restore_aged(&mut self, state: &AgedState) -> Result<(), SimError> {
        let key = self.ageing_key()?;
        if let Some(why) = state.key.mismatch(&key) {
            return Err(SimError::Config(format!(
                "the aged state does not fit this run: {why}"
            )));
        }
        if state.drives.len() != self.drives.len() {
            return Err(SimError::Config(format!(
                "the aged state holds {} drives, the run has {}",
                state.drives.len(),
                self.drives.len()
            )));
        }
        let started = std::time::Instant::now();
        for (d, s) in self.drives.iter_mut().zip(&state.drives) {
            d.restore_ftl(&self.cfg, s)?;
        }
        self.precondition_wall = Some(started.elapsed().as_secs_f64());
        if self.opts.check {
            for d in &self.drives {
                d.check(0)?;
            }
        }
        Ok(())
    }

    /// Preconditions the drives with the workload itself ([`crate::ageing::trace`]): its pages go
    /// through the array's layout to the drives, each collecting instantly with its own
    /// preconditioning stream.
    #[inline(never)]
    fn precondition_from_trace(&mut self, overwrites: f64) -> Result<(), SimError> {
        use crate::ageing::{PageSink, Pages};
        use crate::host::array::Stripe;
        struct Sink<'a> {
            drives: &'a mut [Drive],
            stripe: &'a Stripe,
            rngs: Vec<crate::rng::SimRng>,
        }
        impl PageSink for Sink<'_> {
            fn write(&mut self, page: u64) -> Result<(), FtlError> {
                let (d, lpn) = self.stripe.page(page);
                self.drives[d].write_instant(lpn, &mut self.rngs[d])
            }
            fn is_mapped(&self, page: u64) -> bool {
                let (d, lpn) = self.stripe.page(page);
                self.drives[d].is_mapped(lpn)
            }
        }
        let seed = self.opts.seed;
        let Simulator { front, drives, .. } = self;
        let stripe = front.stripe().clone();
        let ps = stripe.page_size();
        let logical = stripe.logical_pages();
        let source = &front.workload;
        let samples = source.samples();
        let mut replay = |sample: u64, visit: &mut dyn FnMut(Pages)| -> Result<(), SimError> {
            let mut w = source.replay(sample)?;
            while let Some(r) = w.next_record() {
                let r = r?;
                let first = r.offset / ps;
                let last = (r.offset + r.len.max(1) - 1) / ps;
                visit(Pages {
                    write: r.op == ssdgc_workload::Op::Write,
                    first,
                    count: last - first + 1,
                });
            }
            Ok(())
        };
        let rngs = drives.iter().map(|d| d.precondition_rng(seed)).collect();
        let mut sink = Sink {
            drives: &mut drives[..],
            stripe: &stripe,
            rngs,
        };
        crate::ageing::trace(&mut replay, samples, &mut sink, logical, overwrites)?;
        for d in drives.iter_mut() {
            d.preconditioned();
        }
        Ok(())
    }

    /// The configuration of one drive as the scheme sees it ([`scheme::drive_for`]): what an aged
    /// state is read against ([`AgedState::read_from`]).
    pub fn drive_config(&self) -> &Config {
        &self.cfg
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

    /// Runs to the end and returns the report with the (first) drive's final FTL (for
    /// inspection).
    pub fn run_into_ftl(mut self) -> Result<(Report, Ftl), SimError> {
        let r = self.execute(&mut |_| {})?;
        let drive = self.drives.swap_remove(0);
        Ok((r, drive.into_ftl()))
    }

    fn execute(&mut self, progress: &mut dyn FnMut(Progress)) -> Result<Report, SimError> {
        self.precondition(progress)?;
        let started = std::time::Instant::now();
        let Simulator {
            front,
            drives,
            events,
            ..
        } = self;
        if self.opts.series_interval.is_some() {
            let start = drives
                .iter_mut()
                .map(|d| d.take_free_blocks().1)
                .min()
                .unwrap_or(0);
            self.free_watch = Some((0, start));
        }
        front.start(&mut Io {
            drives,
            events,
            now: 0,
        })?;
        // The first requests are queued before any event: their errors too.
        if self.errors.is_raised() {
            return Err(self.take_error());
        }
        loop {
            let Some((t, ev)) = self.events.pop() else {
                // The run ends only once the write buffer is on flash.
                let mut io = Io {
                    drives: &mut self.drives,
                    events: &mut self.events,
                    now: self.now,
                };
                if self.front.drain(&mut io) {
                    continue;
                }
                break;
            };
            debug_assert!(t >= self.now, "time went backwards");
            if let Some((interval, _)) = self.free_watch {
                if t / self.opts.series_interval.unwrap_or(1) != interval {
                    self.watch_free_blocks(t);
                }
            }
            self.now = t;
            self.dispatch(t, ev)?;
            if self.errors.is_raised() {
                return Err(self.take_error());
            }
            let n = self.events.processed();
            if self.opts.check && n.is_multiple_of(self.opts.check_every) {
                self.check()?;
            }
            if n & 0xFFFF == 0 {
                progress(Progress {
                    preconditioning: false,
                    completed: self.front.completed(),
                    expected: self.front.workload.expected,
                    now: self.now,
                });
            }
        }
        // Errors stored outside an event: by the final drain of the write buffer.
        if self.errors.is_raised() {
            return Err(self.take_error());
        }
        if self.front.outstanding() > 0 {
            return Err(SimError::Stalled(self.front.outstanding()));
        }
        if !self.front.buffer.is_empty() {
            return Err(SimError::Invariant {
                time_ns: self.now,
                msg: format!(
                    "the run ended with {} pages in the write buffer",
                    self.front.buffer.len()
                ),
            });
        }
        if self.opts.check {
            self.check()?;
        }
        if self.free_watch.is_some() {
            self.watch_free_blocks(self.now.saturating_add(1));
        }
        progress(Progress {
            preconditioning: false,
            completed: self.front.completed(),
            expected: self.front.workload.expected,
            now: self.now,
        });
        let wall = started.elapsed().as_secs_f64() + self.precondition_wall.unwrap_or(0.0);
        Ok(report::build(&self.figures(wall)))
    }

    /// The plain figures of the finished run, for the report.
    fn figures(&self, wall_s: f64) -> RunFigures<'_> {
        let front = &self.front;
        let g = &self.geo;
        let size_bytes = front.buffer.capacity() * g.page_size;
        let several = self.drives.len() > 1;
        let stripe = front.stripe();
        let drive = DriveInfo {
            channels: g.channels,
            chips_per_channel: g.chips_per_channel,
            dies_per_chip: g.dies_per_chip,
            planes_per_die: g.planes_per_die,
            blocks_per_plane: g.blocks_per_plane,
            pages_per_block: g.pages_per_block,
            page_size: g.page_size,
            physical_pages: g.physical_pages as u64,
            logical_pages: g.logical_pages as u64,
            overprovision: self.cfg.geometry.overprovision,
            gc_threshold: self.cfg.gc.threshold,
            allocation: self.cfg.ftl.allocation.name(),
            array: several.then(|| ArrayInfo {
                drives: stripe.drives(),
                chunk_bytes: stripe.chunk_bytes(),
                logical_pages: stripe.logical_pages(),
                physical_pages: self.drives.len() as u64 * g.physical_pages as u64,
                disks: self.cfg.array.disks.clone(),
            }),
        };
        let b = &front.buffer;
        RunFigures {
            scheme: &self.scheme_name,
            axes: self
                .cfg
                .gc_axes()
                .expect("a running drive's GC axes were validated"),
            migration: self.migration_settings(),
            victim: self.cfg.gc.victim.name(),
            seed: self.opts.seed,
            workload: WorkloadInfo {
                name: front.workload.name.clone(),
                format: front.workload.format.clone(),
                source: front.workload.stats(),
            },
            drive,
            host: HostFigures {
                requests: &front.stats.requests,
                buffer: BufferReport {
                    size_bytes,
                    writes_absorbed: b.writes_absorbed,
                    writes_bypassed: b.writes_bypassed,
                    hits_read: b.hits_read,
                    pages_flushed: b.pages_flushed,
                },
            },
            by_time: front.stats.by_time.as_ref(),
            by_request: front.stats.by_request.as_ref(),
            by_write: front.stats.by_write.as_ref(),
            critical_path: crate::metrics::critical_path_on(&self.cfg),
            long_idle: self.cfg.gc.long_idle.0,
            series_interval: self.opts.series_interval,
            series_window: self.opts.series_window,
            drives: self
                .drives
                .iter()
                .enumerate()
                .map(|(i, d)| DriveFigures {
                    work: drive_work(d),
                    clocks: d.clocks().cloned().collect(),
                    erase_counts: d.ftl().erase_counts(),
                    host: front
                        .per_drive
                        .get(i)
                        .filter(|_| several)
                        .map(|p| HostFigures {
                            requests: &p.pieces,
                            buffer: BufferReport {
                                size_bytes,
                                writes_absorbed: p.writes_absorbed,
                                writes_bypassed: p.writes_bypassed,
                                hits_read: p.hits_read,
                                pages_flushed: p.pages_flushed,
                            },
                        }),
                })
                .collect(),
            simulated: self.now,
            queued_on_host: front.stats.queued_on_host,
            wall_s,
            events: self.events.processed(),
            mapping: self.drives[0]
                .ftl()
                .log_stats()
                .map(|(shape, _)| MappingInfo {
                    mapping: self.drives[0].ftl().mapping().to_string(),
                    data_blocks_per_group: shape.data,
                    update_blocks_per_group: shape.update,
                    log_blocks: self.cfg.ftl.log_blocks,
                }),
            host_path: crate::metrics::figures::HostPath {
                rmw: self.cfg.ftl.rmw,
                multiplane: self.cfg.ftl.multiplane != crate::config::HostMultiplane::Off
                    && self.cfg.geometry.planes_per_die > 1,
            },
        }
    }

    /// The series' interval of free-block watching ends before time `t` (which lies in a later
    /// interval, or ends the run): its fewest free blocks go to the series, and watching goes on
    /// in `t`'s interval.
    #[cold]
    fn watch_free_blocks(&mut self, t: SimTime) {
        let (Some((interval, start)), Some(width)) = (self.free_watch, self.opts.series_interval)
        else {
            return;
        };
        let (mut low, mut now) = (start, u32::MAX);
        for d in &mut self.drives {
            let (l, n) = d.take_free_blocks();
            low = low.min(l);
            now = now.min(n);
        }
        if let Some(s) = self.front.stats.by_time.as_mut() {
            s.add_free(interval.saturating_mul(width), low, now);
        }
        self.free_watch = Some((t / width, now));
    }

    /// The settings of planned jobs, when the run plans them.
    fn migration_settings(&self) -> Option<MigrationSettings> {
        let c = &self.cfg;
        let axes = c.gc_axes().ok()?;
        let how = crate::gc::migration::InPlane::new(
            axes.migration,
            c.gc.workers,
            c.geometry.registers_per_plane,
            c.gc.erase_blocks,
            c.gc.copyback_parity,
        )?;
        Some(MigrationSettings {
            workers: how.workers as u32,
            registers_per_plane: c.geometry.registers_per_plane,
            register_sharing: c.geometry.register_sharing.to_string(),
            erase_blocks: how.erase_blocks as u32,
            copyback_parity: how.parity.to_string(),
        })
    }

    /// Hands event `ev` at time `t` to its owner.
    #[inline(always)]
    fn dispatch(&mut self, t: SimTime, ev: Event) -> Result<(), SimError> {
        let mut io = Io {
            drives: &mut self.drives,
            events: &mut self.events,
            now: t,
        };
        match ev {
            Event::Arrival => self.front.on_arrival(&mut io)?,
            Event::DieDone { drive, die } => {
                let d = drive as usize;
                match io.drives[d].on_die_done(io.events, t, die) {
                    Finished::Busy => {}
                    Finished::Free => io.drives[d].kick(io.events, t, die),
                    Finished::Page(p) => {
                        self.front.page_finished(&mut io, d, p);
                        io.drives[d].kick(io.events, t, die);
                    }
                }
            }
            Event::TxnDone { drive, txn } => {
                let d = drive as usize;
                let p = io.drives[d].on_txn_done(t, txn);
                self.front.page_finished(&mut io, d, p);
            }
            Event::BufferDone(r) => self.front.on_buffer_done(&mut io, r),
            Event::Wake { drive } => io.drives[drive as usize].on_wake(io.events, t),
        }
        Ok(())
    }

    /// The error stored during the run (its flag is raised): the front end's, else the first
    /// drive's that has one.
    #[cold]
    #[inline(never)]
    fn take_error(&mut self) -> SimError {
        self.front
            .take_error()
            .or_else(|| self.drives.iter_mut().find_map(Drive::take_error))
            .expect("an error was stored")
    }

    fn check(&self) -> Result<(), SimError> {
        for d in &self.drives {
            d.check(self.now)?;
        }
        self.front.check(self.now)
    }
}

/// What drive `d` did, as the report's plain counters.
fn drive_work(d: &Drive) -> DriveWork {
    let f = d.ftl().counters;
    let c = d.counters();
    let s = d.scheme_stats();
    let idle = d.idle_periods().copied().unwrap_or_default();
    let a = d.idle_gc_stats();
    let log = d.ftl().log_stats().map(|(_, l)| l).unwrap_or_default();
    DriveWork {
        dies: d.geometry().dies as u64,
        host_pages_written: f.host_pages_written,
        host_pages_read: c.host_pages_read,
        gc_pages_moved: f.gc_pages_moved,
        blocks_erased: f.blocks_erased,
        victims: f.victims,
        victim_valid_pages: f.victim_valid_pages,
        gc_time: c.gc_time,
        cancelled_moves: c.cancelled_moves,
        events: c.events,
        pard_pawr: f.moves_by_class[0],
        srrd_pawr: f.moves_by_class[1],
        srrd_srwr: f.moves_by_class[2],
        pagc_joined: f.pagc_joined,
        pages_buffered: f.pages_buffered,
        // The FTL counts every page skipped; those of host multi-plane writes are reported
        // apart (`flash.host_multiplane.skipped_pages`).
        pages_skipped: f.pages_skipped - c.multiplane.skipped_pages,
        s0_time: s.state_time[0],
        s1_time: s.state_time[1],
        s2_time: s.state_time[2],
        s3_time: s.state_time[3],
        preemptions: s.preemptions,
        s3_holds: s.s3_holds,
        idle_jobs: s.idle_jobs,
        merged_reads: c.merged_reads,
        merged_writes: c.merged_writes,
        suspensions: c.suspensions,
        pipelined_reads: c.pipelined_reads,
        pipelined_writes: c.pipelined_writes,
        idle_requests: idle.requests,
        back_to_back: idle.back_to_back,
        short_idle: idle.short,
        short_idle_ns: idle.short_ns,
        long_idle: idle.long_periods,
        long_idle_ns: idle.long_ns,
        agc_on_demand: a.on_demand,
        agc_look_ahead: a.look_ahead,
        agc_proactive: a.proactive,
        agc_retroactive: a.retroactive,
        agc_delayed: a.delayed,
        agc_fallbacks: a.fallbacks,
        agc_resumed: a.resumed,
        agc_unfit: a.unfit,
        merges: MergeWork {
            count: f.merges.map(|m| m.count),
            pages_copied: f.merges.map(|m| m.pages_copied),
            blocks_erased: f.merges.map(|m| m.blocks_erased),
        },
        update_blocks: log.update_blocks as u64,
        update_blocks_peak: Peak(log.update_blocks_peak as u64),
        overflow_blocks: log.overflow_blocks,
        gc_jobs: c.gc_jobs,
        gc_job_time: c.gc_job_time,
        waves: c.waves,
        worker_busy: crate::metrics::figures::PerWorker(c.worker_busy),
        parity_skipped: f.parity_skipped,
        out_of_order_pairs: f.out_of_order_pairs,
        multi_erases: c.multi_erases,
        rmw_reads: c.rmw_reads,
        multiplane_reads: c.multiplane.reads,
        multiplane_writes: c.multiplane.writes,
        multiplane_pages: c.multiplane.pages,
        multiplane_skipped: c.multiplane.skipped_pages,
    }
}

#[cfg(test)]
mod tests;
