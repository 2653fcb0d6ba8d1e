//! `run` and `compare`: simulations set up by `ssdgc_core::setup`, run with the interpreter
//! released.
//!
//! The simulations run on threads of their own while the calling thread, released from the
//! interpreter, waits for them; every 100 ms it takes the interpreter back briefly to check for
//! signals (Ctrl-C) and to hand the latest progress to the Python callback, so Python callbacks
//! only ever run on the caller's thread. An interrupted run is abandoned: its progress callback
//! unwinds out of the simulation with a private payload, and the caller raises the interrupt.
//!
//! The per-request log (`record_requests=`) comes to the caller in batches of columns
//! ([`Columns`], [`BATCH`] requests each) over a bounded channel: a run that outpaces its Python
//! consumer waits for it rather than filling memory.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::{Duration, Instant};

use pyo3::prelude::*;
use pyo3::types::PyDict;
use ssdgc_core::metrics::request_log::{Op, RequestRecord};
use ssdgc_core::setup::{self, KeyOptions, RunSettings, WorkloadSpec};
use ssdgc_core::sim::Progress;
use ssdgc_core::units::ns_to_us;

use crate::config::Config;
use crate::error;
use crate::report::NativeReport;

/// The options that stand for configuration keys (`None` where not given).
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Keys {
    scheme: Option<String>,
    victim: Option<String>,
    time_scale: Option<f64>,
    fold: Option<String>,
    queue_depth: Option<u32>,
}

impl From<Keys> for KeyOptions {
    fn from(k: Keys) -> Self {
        KeyOptions {
            scheme: k.scheme,
            victim: k.victim,
            time_scale: k.time_scale,
            fold: k.fold,
            queue_depth: k.queue_depth,
        }
    }
}

/// The workload: a trace and its reading options, or a synthetic spec.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Load {
    trace: Option<std::path::PathBuf>,
    synthetic: Option<String>,
    format: String,
    volume: Option<u64>,
    disksim_time: String,
    blkparse_event: String,
    replay: Option<String>,
}

impl From<Load> for WorkloadSpec {
    fn from(w: Load) -> Self {
        WorkloadSpec {
            trace: w.trace,
            synthetic: w.synthetic,
            format: w.format,
            volume: w.volume,
            disksim_time: w.disksim_time,
            blkparse_event: w.blkparse_event,
            replay: w.replay,
        }
    }
}

/// The run's options.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct Settings {
    precondition: Option<String>,
    check: bool,
    series_interval: Option<String>,
    series_window: Option<u64>,
}

impl From<Settings> for RunSettings {
    fn from(s: Settings) -> Self {
        RunSettings {
            precondition: s.precondition,
            check: s.check,
            series_interval: s.series_interval,
            series_window: s.series_window,
        }
    }
}

/// The payload an abandoned run unwinds with.
struct Abandoned;

/// Requests per batch of the per-request log.
pub const BATCH: usize = 1 << 16;

/// A batch of the per-request log as columns (the CSV log's, docs/report-schema.md).
#[derive(Default)]
pub struct Columns {
    arrival_us: Vec<f64>,
    completion_us: Vec<f64>,
    op: Vec<&'static str>,
    offset: Vec<u64>,
    bytes: Vec<u64>,
    response_us: Vec<f64>,
    st_us: Vec<f64>,
    csgc_us: Vec<f64>,
    cogc_us: Vec<f64>,
    lc_us: Vec<f64>,
    cngc_us: Vec<f64>,
    index: Vec<u64>,
}

impl Columns {
    fn push(&mut self, r: &RequestRecord) {
        let b = &r.breakdown;
        self.arrival_us.push(ns_to_us(r.arrival));
        self.completion_us.push(ns_to_us(r.completion));
        self.op.push(match r.op {
            Op::Read => "read",
            Op::Write => "write",
        });
        self.offset.push(r.offset);
        self.bytes.push(r.bytes);
        self.response_us.push(ns_to_us(r.response()));
        self.st_us.push(ns_to_us(b.st));
        self.csgc_us.push(ns_to_us(b.csgc));
        self.cogc_us.push(ns_to_us(b.cogc));
        self.lc_us.push(ns_to_us(b.lc));
        self.cngc_us.push(ns_to_us(b.cngc));
        self.index.push(r.index);
    }

    fn len(&self) -> usize {
        self.index.len()
    }

    fn into_dict(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("arrival_us", self.arrival_us)?;
        d.set_item("completion_us", self.completion_us)?;
        d.set_item("op", self.op)?;
        d.set_item("offset", self.offset)?;
        d.set_item("bytes", self.bytes)?;
        d.set_item("response_us", self.response_us)?;
        d.set_item("st_us", self.st_us)?;
        d.set_item("csgc_us", self.csgc_us)?;
        d.set_item("cogc_us", self.cogc_us)?;
        d.set_item("lc_us", self.lc_us)?;
        d.set_item("cngc_us", self.cngc_us)?;
        d.set_item("index", self.index)?;
        Ok(d)
    }
}

/// What the simulation thread tells the waiting caller.
enum Event<T> {
    /// A batch of the per-request log.
    Batch(Box<Columns>),
    /// The work is over (or panicked).
    Done(std::thread::Result<T>),
}

/// The per-request log's sink: fills batches and sends them to the caller; the last, partial
/// batch goes when the simulator drops it at the end of its run.
struct BatchSink<T: Send> {
    batch: Columns,
    tx: mpsc::SyncSender<Event<T>>,
}

impl<T: Send> ssdgc_core::metrics::request_log::RequestSink for BatchSink<T> {
    fn record(&mut self, r: &RequestRecord) {
        self.batch.push(r);
        if self.batch.len() >= BATCH {
            let full = std::mem::take(&mut self.batch);
            let _ = self.tx.send(Event::Batch(Box::new(full)));
        }
    }
}

impl<T: Send> Drop for BatchSink<T> {
    fn drop(&mut self) {
        if self.batch.len() > 0 {
            let _ = self
                .tx
                .send(Event::Batch(Box::new(std::mem::take(&mut self.batch))));
        }
    }
}

/// What the simulations share with the waiting caller.
struct Shared<T: Send> {
    /// The latest progress of each simulation, taken by the caller.
    latest: Mutex<Vec<Option<Progress>>>,
    /// Set by the caller to abandon the simulations.
    abandon: AtomicBool,
    /// Where batches of the per-request log go, when the caller wants them.
    requests: Option<mpsc::SyncSender<Event<T>>>,
}

impl<T: Send> Shared<T> {
    /// The progress callback of simulation `i`.
    fn progress(&self, i: usize) -> impl FnMut(Progress) + Send + '_ {
        move |p: Progress| {
            if self.abandon.load(Ordering::Relaxed) {
                resume_unwind(Box::new(Abandoned));
            }
            if let Ok(mut l) = self.latest.lock() {
                l[i] = Some(p);
            }
        }
    }

    /// Attaches the per-request log to `sim`, when the caller wants it.
    fn attach(&self, sim: &mut ssdgc_core::Simulator)
    where
        T: 'static,
    {
        if let Some(tx) = &self.requests {
            sim.set_request_sink(Box::new(BatchSink {
                batch: Columns::default(),
                tx: tx.clone(),
            }));
        }
    }
}

/// Runs `work` on a thread of its own with the interpreter released. Every 100 ms, and for each
/// batch of the per-request log, the calling thread takes the interpreter back to check for
/// signals, report progress (`callback(i, preconditioning, completed, expected, simulated_s)`)
/// and hand the batch to `requests(dict of columns)`.
fn supervise<T: Send + 'static>(
    py: Python<'_>,
    n: usize,
    callback: Option<Py<PyAny>>,
    requests: Option<Py<PyAny>>,
    work: impl FnOnce(&Shared<T>) -> T + Send,
) -> PyResult<T> {
    let (tx, rx) = mpsc::sync_channel::<Event<T>>(4);
    let shared = Shared {
        latest: Mutex::new(vec![None; n]),
        abandon: AtomicBool::new(false),
        requests: requests.as_ref().map(|_| tx.clone()),
    };
    let (outcome, failed) = py.detach(move || {
        std::thread::scope(|s| {
            let shared = &shared;
            s.spawn(move || {
                let r = catch_unwind(AssertUnwindSafe(|| work(shared)));
                let _ = tx.send(Event::Done(r));
            });
            let mut failed: Option<PyErr> = None;
            let mut last = Instant::now();
            loop {
                let (batch, timed_out) = match rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(Event::Done(r)) => {
                        // The run's last progress reaches the callback even when the run took
                        // less than one tick.
                        if failed.is_none() && callback.is_some() && r.is_ok() {
                            let taken = take_latest(&shared.latest, n);
                            if let Err(e) =
                                Python::attach(|py| report_progress(py, &callback, &taken))
                            {
                                failed = Some(e);
                            }
                        }
                        return (Some(r), failed);
                    }
                    Ok(Event::Batch(b)) => (Some(b), false),
                    Err(mpsc::RecvTimeoutError::Disconnected) => return (None, failed),
                    Err(mpsc::RecvTimeoutError::Timeout) => (None, true),
                };
                if failed.is_some() {
                    continue; // draining until the abandoned work ends
                }
                let tick = timed_out || last.elapsed() >= Duration::from_millis(100);
                if !tick && batch.is_none() {
                    continue;
                }
                let taken: Vec<Option<Progress>> = if tick {
                    last = Instant::now();
                    take_latest(&shared.latest, n)
                } else {
                    vec![None; n]
                };
                let r = Python::attach(|py| -> PyResult<()> {
                    if let (Some(b), Some(f)) = (batch, &requests) {
                        f.call1(py, ((*b).into_dict(py)?,))?;
                    }
                    if !tick {
                        return Ok(());
                    }
                    py.check_signals()?;
                    report_progress(py, &callback, &taken)
                });
                if let Err(e) = r {
                    shared.abandon.store(true, Ordering::Relaxed);
                    failed = Some(e);
                }
            }
        })
    });
    if let Some(e) = failed {
        return Err(e);
    }
    match outcome {
        Some(Ok(v)) => Ok(v),
        Some(Err(payload)) => resume_unwind(payload),
        None => Err(error("a run failed unexpectedly")),
    }
}

/// The progress each simulation reported since it was last taken.
fn take_latest(latest: &Mutex<Vec<Option<Progress>>>, n: usize) -> Vec<Option<Progress>> {
    match latest.lock() {
        Ok(mut l) => l.iter_mut().map(Option::take).collect(),
        Err(_) => vec![None; n],
    }
}

/// Hands `taken` to the progress callback:
/// `callback(i, preconditioning, completed, expected, simulated_s)` per simulation that reported.
fn report_progress(
    py: Python<'_>,
    callback: &Option<Py<PyAny>>,
    taken: &[Option<Progress>],
) -> PyResult<()> {
    if let Some(cb) = callback {
        for (i, p) in taken.iter().enumerate() {
            if let Some(p) = p {
                cb.call1(
                    py,
                    (
                        i,
                        p.preconditioning,
                        p.completed,
                        p.expected,
                        p.now as f64 / 1e9,
                    ),
                )?;
            }
        }
    }
    Ok(())
}

/// The effective configuration of a run as TOML: `config` with the key options applied (what
/// `ssdgc run --dump-config` prints for the same options).
#[pyfunction]
pub fn resolve(config: &Config, keys: Keys) -> PyResult<String> {
    Ok(setup::config(config.builder.clone(), &keys.into())
        .map_err(error)?
        .to_toml())
}

/// Runs one simulation; see `ssdgc.run` for the arguments. With `requests`, every completed
/// request goes to it, in batches of columns (`requests(dict)`).
#[pyfunction]
#[allow(clippy::too_many_arguments)] // `run`'s groups of arguments, the seed and two callbacks
#[pyo3(signature = (config, keys, workload, settings, seed, progress = None, requests = None))]
pub fn run(
    py: Python<'_>,
    config: &Config,
    keys: Keys,
    workload: Load,
    settings: Settings,
    seed: u64,
    progress: Option<Py<PyAny>>,
    requests: Option<Py<PyAny>>,
) -> PyResult<NativeReport> {
    let cfg = setup::config(config.builder.clone(), &keys.into()).map_err(error)?;
    let workload: WorkloadSpec = workload.into();
    let settings: RunSettings = settings.into();
    let report = supervise(py, 1, progress, requests, |shared| {
        let mut sim = setup::simulator(&cfg, &workload, &settings, seed)?;
        shared.attach(&mut sim);
        sim.run_with_progress(&mut shared.progress(0))
            .map_err(|e| e.to_string())
    })?
    .map_err(error)?;
    Ok(NativeReport::new(report, cfg))
}

/// Runs one simulation per scheme on the same drive, workload and seed, side by side; see
/// `ssdgc.compare`.
#[pyfunction]
#[allow(clippy::too_many_arguments)] // the arguments of `run` and the schemes
#[pyo3(signature = (config, schemes, keys, workload, settings, seed, progress = None))]
pub fn compare(
    py: Python<'_>,
    config: &Config,
    schemes: Vec<String>,
    keys: Keys,
    workload: Load,
    settings: Settings,
    seed: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<NativeReport>> {
    if schemes.is_empty() {
        return Err(error("compare needs at least one scheme"));
    }
    let keys: KeyOptions = keys.into();
    let mut configs = Vec::new();
    for s in &schemes {
        let k = KeyOptions {
            scheme: Some(s.clone()),
            ..keys.clone()
        };
        configs.push(setup::config(config.builder.clone(), &k).map_err(error)?);
    }
    let workload: WorkloadSpec = workload.into();
    let settings: RunSettings = settings.into();
    let results = supervise(py, configs.len(), progress, None, |shared| {
        setup::run_each(
            &configs,
            &workload,
            &settings,
            seed,
            |i| shared.progress(i),
            |_, _| Ok(()),
        )
    })?;
    let mut reports = Vec::new();
    for (r, cfg) in results.into_iter().zip(configs) {
        reports.push(NativeReport::new(r.map_err(error)?, cfg));
    }
    Ok(reports)
}
