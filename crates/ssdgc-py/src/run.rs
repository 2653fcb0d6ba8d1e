//! `run` and `compare`: simulations set up by `ssdgc_core::setup`, run with the interpreter
//! released.
//!
//! The simulations run on threads of their own while the calling thread, released from the
//! interpreter, waits for them; every 100 ms it takes the interpreter back briefly to check for
//! signals (Ctrl-C) and to hand the latest progress to the Python callback, so Python callbacks
//! only ever run on the caller's thread. An interrupted run is abandoned: its progress callback
//! unwinds out of the simulation with a private payload, and the caller raises the interrupt.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};
use std::time::Duration;

use pyo3::prelude::*;
use ssdgc_core::setup::{self, KeyOptions, RunSettings, WorkloadSpec};
use ssdgc_core::sim::Progress;

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

/// What the simulations share with the waiting caller.
struct Shared {
    /// The latest progress of each simulation, taken by the caller.
    latest: Mutex<Vec<Option<Progress>>>,
    /// Set by the caller to abandon the simulations.
    abandon: AtomicBool,
}

impl Shared {
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
}

/// Runs `work` on a thread of its own with the interpreter released, checking for signals and
/// reporting progress (`callback(i, preconditioning, completed, expected, simulated_s)`) every
/// 100 ms from the calling thread.
fn supervise<T: Send>(
    py: Python<'_>,
    n: usize,
    callback: Option<Py<PyAny>>,
    work: impl FnOnce(&Shared) -> T + Send,
) -> PyResult<T> {
    let shared = Shared {
        latest: Mutex::new(vec![None; n]),
        abandon: AtomicBool::new(false),
    };
    let (outcome, interrupted) = py.detach(|| {
        std::thread::scope(|s| {
            let (tx, rx) = mpsc::channel();
            let shared = &shared;
            s.spawn(move || {
                let r = catch_unwind(AssertUnwindSafe(|| work(shared)));
                let _ = tx.send(r);
            });
            let mut interrupted: Option<PyErr> = None;
            loop {
                match rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(r) => return (Some(r), interrupted),
                    Err(mpsc::RecvTimeoutError::Disconnected) => return (None, interrupted),
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                }
                if interrupted.is_some() {
                    continue;
                }
                let taken: Vec<Option<Progress>> = match shared.latest.lock() {
                    Ok(mut l) => l.iter_mut().map(Option::take).collect(),
                    Err(_) => vec![None; n],
                };
                let r = Python::attach(|py| -> PyResult<()> {
                    py.check_signals()?;
                    if let Some(cb) = &callback {
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
                });
                if let Err(e) = r {
                    shared.abandon.store(true, Ordering::Relaxed);
                    interrupted = Some(e);
                }
            }
        })
    });
    if let Some(e) = interrupted {
        return Err(e);
    }
    match outcome {
        Some(Ok(v)) => Ok(v),
        Some(Err(payload)) => resume_unwind(payload),
        None => Err(error("a run failed unexpectedly")),
    }
}

/// The effective configuration of a run as TOML: `config` with the key options applied (what
/// `ssdgc run --dump-config` prints for the same options).
#[pyfunction]
pub fn resolve(config: &Config, keys: Keys) -> PyResult<String> {
    Ok(setup::config(config.builder.clone(), &keys.into())
        .map_err(error)?
        .to_toml())
}

/// Runs one simulation; see `ssdgc.run` for the arguments.
#[pyfunction]
#[pyo3(signature = (config, keys, workload, settings, seed, progress = None))]
pub fn run(
    py: Python<'_>,
    config: &Config,
    keys: Keys,
    workload: Load,
    settings: Settings,
    seed: u64,
    progress: Option<Py<PyAny>>,
) -> PyResult<NativeReport> {
    let cfg = setup::config(config.builder.clone(), &keys.into()).map_err(error)?;
    let workload: WorkloadSpec = workload.into();
    let settings: RunSettings = settings.into();
    let report = supervise(py, 1, progress, |shared| {
        setup::run(&cfg, &workload, &settings, seed, &mut shared.progress(0))
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
    let results = supervise(py, configs.len(), progress, |shared| {
        setup::run_each(&configs, &workload, &settings, seed, |i| shared.progress(i))
    })?;
    let mut reports = Vec::new();
    for (r, cfg) in results.into_iter().zip(configs) {
        reports.push(NativeReport::new(r.map_err(error)?, cfg));
    }
    Ok(reports)
}
