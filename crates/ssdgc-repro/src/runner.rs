//! Turning experiments into runs, and running them in parallel.

use std::collections::HashMap;

use ssdgc_core::ageing::Precondition;
use ssdgc_core::batch::{self, Job};
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::{Config, ConfigBuilder, Report, RunOptions, SimError, Simulator};
use ssdgc_workload::TraceOptions;

use crate::paper::Experiment;

/// One simulation: a preset, its overrides, a scheme, a workload and a seed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RunSpec {
    pub preset: String,
    /// Every override, in order: the experiment's `sets`, the `vary` value, the scheme's own.
    pub sets: Vec<String>,
    pub scheme: String,
    pub workload: String,
    pub volume: Option<u64>,
    pub precondition: String,
    pub seed: u64,
    /// Width of a `series.by_time` point, as the experiment spells it (`1s`, `10ms`); `None`: no
    /// time series. The series only observes: a run with one gives the same figures as without.
    pub series_interval: Option<String>,
}

impl RunSpec {
    /// The simulation this spec runs, whatever series it reports: runs of the same simulation
    /// share one.
    fn simulation(&self) -> RunSpec {
        RunSpec {
            series_interval: None,
            ..self.clone()
        }
    }
}

/// A run as one experiment sees it.
#[derive(Debug, Clone)]
pub struct RunRef {
    pub experiment: String,
    /// The scheme's label in the experiment.
    pub label: String,
    /// The value of the experiment's `vary` setting, if it has one.
    pub vary: Option<String>,
    pub workload: String,
    pub seed: u64,
    /// Index into the list of unique runs.
    pub run: usize,
}

/// The unique runs of a set of experiments, and every experiment's view of them.
#[derive(Debug, Default)]
pub struct Plan {
    pub runs: Vec<RunSpec>,
    pub refs: Vec<RunRef>,
}

/// The runs of each simulation (`RunSpec::simulation`): one, or one per series interval asked for.
pub type RunIndex = HashMap<RunSpec, Vec<usize>>;

/// A series interval in nanoseconds: a positive duration.
pub fn series_interval_ns(text: &str) -> Result<u64, String> {
    let ns = ssdgc_core::config::parse_duration(text)
        .map_err(|e| format!("series_interval '{text}': {e}"))?;
    if ns == 0 {
        return Err(format!("series_interval '{text}': must be positive"));
    }
    Ok(ns)
}

fn sanitise_set(s: &str) -> String {
    s.split_once('=')
        .map(|(k, v)| format!("{}={}", k.trim(), v.trim()))
        .unwrap_or_else(|| s.trim().to_string())
}

/// The overrides for one `vary` value: `precondition.overwrites=2`, quoted when the value is not a
/// TOML literal is left to `ConfigBuilder::set`, which reads bare words as strings.
fn vary_set(key: &str, value: &str) -> String {
    format!("{key}={value}")
}

/// Options per trace file (`--volume N`).
fn volume_of(e: &Experiment, workload: &str) -> Result<Option<u64>, String> {
    let Some(opts) = e.workload_options.get(workload) else {
        return Ok(None);
    };
    let mut volume = None;
    let mut it = opts.iter();
    while let Some(o) = it.next() {
        match o.as_str() {
            "--volume" => {
                let v = it
                    .next()
                    .ok_or_else(|| format!("experiment {}: --volume needs a value", e.id))?;
                volume = Some(
                    v.parse::<u64>()
                        .map_err(|err| format!("experiment {}: --volume {v}: {err}", e.id))?,
                );
            }
            other => {
                return Err(format!(
                    "experiment {}: unsupported workload option '{other}' for {workload}",
                    e.id
                ))
            }
        }
    }
    Ok(volume)
}

impl Plan {
    /// Adds the runs of one experiment (already the variant to run), sharing identical runs.
    ///
    /// A run that asks for no series shares any run of its simulation; a run that asks for one
    /// shares a run with the same interval, or gives its interval to a run that had none.
    pub fn add(&mut self, e: &Experiment, index: &mut RunIndex) -> Result<(), String> {
        if let Some(w) = &e.series_interval {
            series_interval_ns(w).map_err(|err| format!("experiment {}: {err}", e.id))?;
        }
        let vary: Vec<Option<String>> = match &e.vary {
            Some(v) => v.values.iter().cloned().map(Some).collect(),
            None => vec![None],
        };
        for workload in e.workload.list() {
            let volume = volume_of(e, &workload)?;
            for v in &vary {
                for s in &e.schemes {
                    for &seed in &e.seeds {
                        let mut sets: Vec<String> =
                            e.sets.iter().map(|s| sanitise_set(s)).collect();
                        if let (Some(vary), Some(value)) = (&e.vary, v) {
                            sets.push(vary_set(&vary.set, value));
                        }
                        sets.extend(s.sets().iter().map(|s| sanitise_set(s)));
                        let spec = RunSpec {
                            preset: e.preset.clone(),
                            sets,
                            scheme: s.scheme().to_string(),
                            workload: workload.clone(),
                            volume,
                            precondition: e.precondition.clone(),
                            seed,
                            series_interval: e.series_interval.clone(),
                        };
                        let runs = index.entry(spec.simulation()).or_default();
                        let want = &spec.series_interval;
                        let shared = runs
                            .iter()
                            .copied()
                            .find(|&i| want.is_none() || self.runs[i].series_interval == *want)
                            .or_else(|| {
                                runs.iter()
                                    .copied()
                                    .find(|&i| self.runs[i].series_interval.is_none())
                            });
                        let run = match shared {
                            Some(i) => {
                                if want.is_some() {
                                    self.runs[i].series_interval = want.clone();
                                }
                                i
                            }
                            None => {
                                self.runs.push(spec);
                                runs.push(self.runs.len() - 1);
                                self.runs.len() - 1
                            }
                        };
                        self.refs.push(RunRef {
                            experiment: e.id.clone(),
                            label: s.label().to_string(),
                            vary: v.clone(),
                            workload: workload.clone(),
                            seed,
                            run,
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

/// The configuration of a run: preset, scheme, then the overrides in order.
pub fn config(spec: &RunSpec) -> Result<Config, String> {
    let mut b = ConfigBuilder::preset(&spec.preset).map_err(|e| e.to_string())?;
    ssdgc_core::gc::schemes::preset(&spec.scheme)
        .map_err(|e| format!("gc.scheme '{}': {e}", spec.scheme))?;
    b.set(&format!("gc.scheme=\"{}\"", spec.scheme))
        .map_err(|e| e.to_string())?;
    for s in &spec.sets {
        b.set(s).map_err(|e| e.to_string())?;
    }
    let cfg = b.build().map_err(|e| e.to_string())?;
    ssdgc_core::gc::scheme::build(&cfg.gc.scheme, &cfg)
        .map_err(|e| format!("gc.scheme '{}': {e}", spec.scheme))?;
    Ok(cfg)
}

/// A shared trace by file name, or a clear error ([`ssdgc_workload::shared_trace`]).
pub use ssdgc_workload::shared_trace as trace_path;

/// The workload of a run.
pub fn workload(spec: &RunSpec, cfg: &Config) -> Result<Workload, String> {
    if let Some(s) = spec.workload.strip_prefix("synthetic:") {
        let geo = ssdgc_core::flash::Geometry::new(cfg);
        return Workload::synthetic(s, geo.logical_bytes(), spec.seed)
            .map_err(|e| format!("synthetic:{s}: {e}"));
    }
    let path = trace_path(&spec.workload)?;
    let opts = TraceOptions {
        volume: spec.volume,
        ..TraceOptions::default()
    };
    let wl = if cfg.array.disks.is_empty() {
        Workload::from_trace(&path, &opts, ReplayMode::OpenLoop)
    } else {
        // Per-disk traces: each disk of `array.disks` read from the trace.
        Workload::for_disks(cfg, &path, &opts, ReplayMode::OpenLoop)
    };
    wl.map_err(|e| format!("{}: {e}", spec.workload))
}

/// Requests per point of the series of runs that report the critical-path figures
/// (`host.critical_path`): `series.by_request` and `series.by_write`.
pub const WRITE_SERIES_WINDOW: u64 = 100;

/// A run's error with the run named.
fn in_context(spec: &RunSpec, e: String) -> String {
    format!(
        "{} on {} ({}, seed {}): {e}",
        spec.scheme, spec.workload, spec.preset, spec.seed
    )
}

/// The configuration and options of a run.
fn prepare(spec: &RunSpec) -> Result<(Config, RunOptions), String> {
    let cfg = config(spec)?;
    let mut opts = RunOptions::from_config(&cfg, spec.seed)?;
    opts.precondition = Precondition::parse(&spec.precondition, cfg.precondition.overwrites)
        .map_err(|e| format!("precondition: {e}"))?;
    if cfg.host.critical_path {
        // The response time along the write requests (AGC/DGC paper Figs. 8, 9).
        opts.series_window = Some(WRITE_SERIES_WINDOW);
    }
    if let Some(w) = &spec.series_interval {
        // Free blocks and bandwidth over time (the preemptible-GC paper's Fig. 13, Table II).
        opts.series_interval = Some(series_interval_ns(w)?);
    }
    Ok((cfg, opts))
}

/// Runs one simulation.
pub fn run(spec: &RunSpec) -> Result<Report, String> {
    let ctx = |e: String| in_context(spec, e);
    let (cfg, opts) = prepare(spec).map_err(ctx)?;
    let wl = workload(spec, &cfg).map_err(ctx)?;
    let sim = Simulator::new(&cfg, wl, opts).map_err(|e| ctx(e.to_string()))?;
    sim.run().map_err(|e| ctx(e.to_string()))
}

/// Runs every spec on every core, ageing each distinct drive once (`ssdgc_core::batch`); results
/// in the specs' order, each exactly what [`run`] gives.
pub fn run_all(specs: &[RunSpec]) -> Result<Vec<Report>, String> {
    let jobs = specs
        .iter()
        .map(|spec| {
            let (cfg, opts) = prepare(spec).map_err(|e| in_context(spec, e))?;
            let wl = workload(spec, &cfg).map_err(|e| in_context(spec, e))?;
            let key = Job::key_of(&cfg, &opts, &wl).map_err(|e| in_context(spec, e.to_string()))?;
            Ok(Job {
                key,
                build: Box::new(move || {
                    let wl = workload(spec, &cfg).map_err(SimError::Config)?;
                    Simulator::new(&cfg, wl, opts.clone())
                }),
                progress: None,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    batch::run(jobs, None)
        .into_iter()
        .zip(specs)
        .map(|(r, spec)| r.map_err(|e| in_context(spec, e.to_string())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn experiment(id: &str, series: Option<&str>) -> Experiment {
        let series = series.map_or(String::new(), |s| format!("series_interval = \"{s}\"\n"));
        toml::from_str(&format!(
            "id = \"{id}\"\nclaims = []\npreset = \"pgc\"\nsets = []\nschemes = [\"pgc\"]\n\
             workload = \"synthetic:count=10\"\nprecondition = \"none\"\nseeds = [1]\n{series}"
        ))
        .unwrap()
    }

    #[test]
    fn runs_share_a_simulation_whatever_series_they_ask_for() {
        let mut plan = Plan::default();
        let mut index = RunIndex::new();
        for (id, series) in [
            ("plain", None),
            ("fine", Some("10ms")),
            ("coarse", Some("1s")),
            ("plain-again", None),
            ("fine-again", Some("10ms")),
        ] {
            plan.add(&experiment(id, series), &mut index).unwrap();
        }
        // The plain run takes the first interval asked for; another interval is another run.
        assert_eq!(plan.runs.len(), 2);
        assert_eq!(plan.runs[0].series_interval.as_deref(), Some("10ms"));
        assert_eq!(plan.runs[1].series_interval.as_deref(), Some("1s"));
        let run_of = |id: &str| plan.refs.iter().find(|r| r.experiment == id).unwrap().run;
        assert_eq!(run_of("plain"), 0);
        assert_eq!(run_of("fine"), 0);
        assert_eq!(run_of("coarse"), 1);
        assert_eq!(run_of("plain-again"), 0);
        assert_eq!(run_of("fine-again"), 0);
    }

    #[test]
    fn the_series_interval_reaches_the_run_options() {
        let mut plan = Plan::default();
        plan.add(&experiment("e", Some("10ms")), &mut RunIndex::new())
            .unwrap();
        let (_, opts) = prepare(&plan.runs[0]).unwrap();
        assert_eq!(opts.series_interval, Some(10_000_000));
        let mut plain = plan.runs[0].clone();
        plain.series_interval = None;
        assert_eq!(prepare(&plain).unwrap().1.series_interval, None);
    }

    #[test]
    fn a_bad_series_interval_is_an_error_naming_the_experiment() {
        for bad in ["0s", "fast", "-1ms"] {
            let err = Plan::default()
                .add(&experiment("bad", Some(bad)), &mut RunIndex::new())
                .unwrap_err();
            assert!(
                err.contains("experiment bad") && err.contains("series_interval"),
                "{err}"
            );
        }
    }
}
