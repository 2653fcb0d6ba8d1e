//! A run set up from what a user hands a front end: the configuration's layers and the options
//! that stand for configuration keys, the workload (a trace with its reading options, or a
//! synthetic spec) and the run's own options.
//!
//! The `ssdgc` command and the Python package build every run here, so both apply settings in the
//! same order, check the same things and report a bad value with the same one-line message. The
//! messages name an option by its command-line spelling (`--synthetic: …`, `--victim: …`), which
//! the Python package's keyword arguments mirror (`synthetic=`, `victim=`).
//!
//! Order of the layers: a preset, TOML files, `section.key=value` overrides (all merged into a
//! [`ConfigBuilder`] by the caller), then the [`KeyOptions`] (`--gc`, `--victim`, `--time-scale`,
//! `--fold`, `--queue-depth`), which are shorthands for keys and so win over the layers below.

use std::path::PathBuf;

use ssdgc_workload::synthetic::{SyntheticSpec, MAX_SPAN_NS};
use ssdgc_workload::{BlkparseEvent, Format, TimeUnit, TraceOptions};

use crate::ageing::Precondition;
use crate::config::{Config, ConfigBuilder};
use crate::host::array::Stripe;
use crate::host::{ReplayMode, Workload};
use crate::metrics::report::Report;
use crate::sim::{Progress, RunOptions, Simulator};

/// Options that are shorthands for configuration keys, applied over the configuration's layers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KeyOptions {
    /// `gc.scheme` (`--gc`): a named scheme.
    pub scheme: Option<String>,
    /// `gc.victim` (`--victim`), string form (`greedy`, `rga:8`).
    pub victim: Option<String>,
    /// `host.time_scale` (`--time-scale`).
    pub time_scale: Option<f64>,
    /// `host.fold` (`--fold`): `wrap` or `reject`.
    pub fold: Option<String>,
    /// `host.queue_depth` (`--queue-depth`).
    pub queue_depth: Option<u32>,
}

/// The configuration: the layers merged into `b`, then the key options; checks that the scheme
/// can be built from it.
pub fn config(mut b: ConfigBuilder, keys: &KeyOptions) -> Result<Config, String> {
    let mut flag = |key: &str, v: String| b.set(&format!("{key}={v}")).map_err(|e| e.to_string());
    if let Some(g) = &keys.scheme {
        crate::gc::schemes::preset(g).map_err(|e| format!("gc.scheme (--gc): {e}"))?;
        flag("gc.scheme", format!("\"{g}\""))?;
    }
    if let Some(v) = &keys.victim {
        let kind = v
            .parse::<crate::gc::victim::VictimKind>()
            .map_err(|e| format!("--victim: {e}"))?;
        flag("gc.victim", format!("\"{kind}\""))?;
    }
    if let Some(v) = keys.time_scale {
        flag("host.time_scale", format!("{v:?}"))?;
    }
    if let Some(v) = &keys.fold {
        flag("host.fold", format!("\"{v}\""))?;
    }
    if let Some(v) = keys.queue_depth {
        flag("host.queue_depth", v.to_string())?;
    }
    let cfg = b.build().map_err(|e| e.to_string())?;
    crate::gc::scheme::build(&cfg.gc.scheme, &cfg).map_err(|e| format!("gc.scheme (--gc): {e}"))?;
    Ok(cfg)
}

/// What to replay: a trace file and how to read it, or a synthetic spec (the built-in default
/// workload, [`Workload::DEFAULT_SPEC`], when neither is given).
#[derive(Clone, Debug, PartialEq)]
pub struct WorkloadSpec {
    /// Trace file to replay (gzip and zstd are read transparently).
    pub trace: Option<PathBuf>,
    /// Synthetic workload spec (`count=…,read=…`).
    pub synthetic: Option<String>,
    /// Trace format name, or `auto` to detect it from the content.
    pub format: String,
    /// Volume (Tencent) or device number to replay.
    pub volume: Option<u64>,
    /// Time unit of DiskSim ASCII traces: `ns` or `ms`.
    pub disksim_time: String,
    /// blkparse event to replay: `D` or `Q`.
    pub blkparse_event: String,
    /// Trace replay mode: `open` or `closed:QD` (open when not given).
    pub replay: Option<String>,
}

impl Default for WorkloadSpec {
    fn default() -> Self {
        WorkloadSpec {
            trace: None,
            synthetic: None,
            format: "auto".into(),
            volume: None,
            disksim_time: "ns".into(),
            blkparse_event: "D".into(),
            replay: None,
        }
    }
}

impl WorkloadSpec {
    /// The workload on the drive (or array) of `cfg`; `seed` seeds a synthetic generator. Every
    /// option is checked, also those that do not apply, so that a bad value is never silently
    /// ignored.
    pub fn build(&self, cfg: &Config, seed: u64) -> Result<Workload, String> {
        // The synthetic workload spans the array's logical space (one drive's, without an array).
        let logical_bytes = Stripe::from_config(cfg).logical_bytes();
        let format: Format = self.format.parse().map_err(|e| format!("--format: {e}"))?;
        let replay = self
            .replay
            .as_deref()
            .map(ReplayMode::parse)
            .transpose()
            .map_err(|e| format!("--replay: {e}"))?;
        let disksim_time = self
            .disksim_time
            .parse::<TimeUnit>()
            .map_err(|e| format!("--disksim-time: {e}"))?;
        let blkparse_event = self
            .blkparse_event
            .parse::<BlkparseEvent>()
            .map_err(|e| format!("--blkparse-event: {e}"))?;
        if let Some(path) = &self.trace {
            if self.synthetic.is_some() {
                return Err(
                    "--synthetic: a synthetic workload replaces the trace; give one or the other"
                        .into(),
                );
            }
            let opts = TraceOptions {
                format,
                volume: self.volume,
                // Scaled arrival times stay within the simulator's span.
                max_time_ns: (ssdgc_workload::MAX_ARRIVAL_NS as f64 / cfg.host.time_scale)
                    .min(ssdgc_workload::MAX_ARRIVAL_NS as f64) as u64,
                disksim_time,
                blkparse_event,
                ..TraceOptions::default()
            };
            let mode = replay.unwrap_or(ReplayMode::OpenLoop);
            if !cfg.array.disks.is_empty() {
                // Per-disk traces: each listed disk's records, read from the trace.
                if let Some(v) = self.volume {
                    return Err(format!(
                        "--volume {v} selects one volume, but array.disks replays the disks it lists; leave out one of them"
                    ));
                }
                return Workload::for_disks(cfg, path, &opts, mode).map_err(|e| e.to_string());
            }
            return Workload::from_trace(path, &opts, mode).map_err(|e| e.to_string());
        }
        if replay.is_some() {
            return Err(
                "--replay applies to traces; a synthetic workload is closed loop with interarrival=0 (at qd=N) and open loop otherwise".into(),
            );
        }
        if let Some(v) = self.volume {
            return Err(format!(
                "--volume {v} applies to traces with volumes or devices, not to a synthetic workload"
            ));
        }
        if !cfg.array.disks.is_empty() {
            return Err(
                "array.disks maps the disks of a trace to drives: give a trace whose records carry disk or volume numbers (--trace), not a synthetic workload".into(),
            );
        }
        let spec = self.synthetic.as_deref().unwrap_or(Workload::DEFAULT_SPEC);
        let parsed: SyntheticSpec = spec.parse().map_err(|e| format!("--synthetic: {e}"))?;
        let scaled = parsed.arrival_span_ns() as f64 * cfg.host.time_scale;
        if scaled > MAX_SPAN_NS as f64 {
            return Err(format!(
                "--synthetic: interarrival: count × interarrival × host.time_scale = {:.3e} s exceeds \
                 the longest supported arrival span of {:.3e} s (2^54 ns)",
                scaled / 1e9,
                MAX_SPAN_NS as f64 / 1e9
            ));
        }
        Workload::synthetic(spec, logical_bytes, seed).map_err(|e| format!("--synthetic: {e}"))
    }
}

/// Options of a run that are not drive settings, as a user spells them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunSettings {
    /// Preconditioning: `none`, `fill`, `steady` or `steady:N` (the configuration's when not
    /// given).
    pub precondition: Option<String>,
    /// Check the FTL's invariants while running.
    pub check: bool,
    /// Latency per interval of simulated arrival time (a duration, `100ms`).
    pub series_interval: Option<String>,
    /// Latency per window of this many consecutive requests.
    pub series_window: Option<u64>,
}

impl RunSettings {
    /// The run's options on `cfg` with `seed`.
    pub fn options(&self, cfg: &Config, seed: u64) -> Result<RunOptions, String> {
        let mut opts = RunOptions::from_config(cfg, seed)?;
        if let Some(p) = &self.precondition {
            opts.precondition = Precondition::parse(p, cfg.precondition.overwrites)
                .map_err(|e| format!("--precondition: {e}"))?;
        }
        opts.check = self.check;
        if let Some(d) = &self.series_interval {
            let ns =
                crate::config::parse_duration(d).map_err(|e| format!("--series-interval: {e}"))?;
            if ns == 0 {
                return Err("--series-interval must be positive".into());
            }
            opts.series_interval = Some(ns);
        }
        if let Some(w) = self.series_window {
            if w == 0 {
                return Err("--series-window must be positive".into());
            }
            opts.series_window = Some(w);
        }
        Ok(opts)
    }
}

/// The simulator of one run of `workload` on `cfg`, ready to run; a caller attaches what it
/// needs first (a per-request log: [`Simulator::set_request_sink`]).
pub fn simulator(
    cfg: &Config,
    workload: &WorkloadSpec,
    settings: &RunSettings,
    seed: u64,
) -> Result<Simulator, String> {
    let opts = settings.options(cfg, seed)?;
    let wl = workload.build(cfg, seed)?;
    Simulator::new(cfg, wl, opts).map_err(|e| e.to_string())
}

/// Runs one simulation of `workload` on `cfg`, calling `progress` now and then.
pub fn run(
    cfg: &Config,
    workload: &WorkloadSpec,
    settings: &RunSettings,
    seed: u64,
    progress: &mut dyn FnMut(Progress),
) -> Result<Report, String> {
    simulator(cfg, workload, settings, seed)?
        .run_with_progress(progress)
        .map_err(|e| e.to_string())
}

/// Runs one simulation per configuration, all on the same workload, settings and seed, side by
/// side on scoped threads. `progress(i)` makes the progress callback of the i-th; `attach(i, sim)`
/// is called with its simulator before it runs (to set a per-request log, say). The results come
/// in the configurations' order.
pub fn run_each<P, F, A>(
    configs: &[Config],
    workload: &WorkloadSpec,
    settings: &RunSettings,
    seed: u64,
    progress: F,
    attach: A,
) -> Vec<Result<Report, String>>
where
    P: FnMut(Progress) + Send,
    F: Fn(usize) -> P,
    A: Fn(usize, &mut Simulator) -> Result<(), String> + Sync,
{
    let attach = &attach;
    std::thread::scope(|s| {
        let handles: Vec<_> = configs
            .iter()
            .enumerate()
            .map(|(i, cfg)| {
                let mut p = progress(i);
                s.spawn(move || {
                    let mut sim = simulator(cfg, workload, settings, seed)?;
                    attach(i, &mut sim)?;
                    sim.run_with_progress(&mut p).map_err(|e| e.to_string())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a run failed unexpectedly".into()))
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> ConfigBuilder {
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set("geometry.blocks_per_plane=64").unwrap();
        b
    }

    #[test]
    fn key_options_win_over_the_layers() {
        let mut b = small();
        b.set("gc.victim=\"fifo\"").unwrap();
        b.set("host.queue_depth=8").unwrap();
        let keys = KeyOptions {
            scheme: Some("zero".into()),
            victim: Some("rga:4".into()),
            queue_depth: Some(4),
            fold: Some("reject".into()),
            time_scale: Some(0.5),
        };
        let cfg = config(b, &keys).unwrap();
        assert_eq!(cfg.gc.scheme, "zero");
        assert_eq!(cfg.gc.victim.to_string(), "rga:4");
        assert_eq!(cfg.host.queue_depth, 4);
        assert_eq!(cfg.host.time_scale, 0.5);
        assert_eq!(cfg.host.fold.name(), "reject");
    }

    #[test]
    fn bad_values_name_their_option() {
        let keys = |scheme: &str| KeyOptions {
            scheme: Some(scheme.into()),
            ..KeyOptions::default()
        };
        let e = config(small(), &keys("nope")).unwrap_err();
        assert!(e.starts_with("gc.scheme (--gc): "), "{e}");
        let e = config(
            small(),
            &KeyOptions {
                victim: Some("rga:0".into()),
                ..KeyOptions::default()
            },
        )
        .unwrap_err();
        assert!(e.starts_with("--victim: "), "{e}");
        let cfg = config(small(), &KeyOptions::default()).unwrap();
        let w = WorkloadSpec {
            synthetic: Some("count=0x".into()),
            ..WorkloadSpec::default()
        };
        let e = w.build(&cfg, 1).err().unwrap();
        assert!(e.starts_with("--synthetic: "), "{e}");
        let w = WorkloadSpec {
            replay: Some("closed:4".into()),
            ..WorkloadSpec::default()
        };
        assert!(w
            .build(&cfg, 1)
            .err()
            .unwrap()
            .starts_with("--replay applies"));
        let w = WorkloadSpec {
            trace: Some("x.csv".into()),
            synthetic: Some("count=10".into()),
            ..WorkloadSpec::default()
        };
        assert!(w.build(&cfg, 1).err().unwrap().starts_with("--synthetic: "));
        let s = RunSettings {
            series_window: Some(0),
            ..RunSettings::default()
        };
        assert_eq!(
            s.options(&cfg, 1).unwrap_err(),
            "--series-window must be positive"
        );
        let s = RunSettings {
            precondition: Some("soon".into()),
            ..RunSettings::default()
        };
        assert!(s
            .options(&cfg, 1)
            .unwrap_err()
            .starts_with("--precondition: "));
    }

    #[test]
    fn run_each_equals_runs_one_by_one() {
        let schemes = ["baseline", "zero"];
        let configs: Vec<Config> = schemes
            .iter()
            .map(|s| {
                config(
                    small(),
                    &KeyOptions {
                        scheme: Some(s.to_string()),
                        ..KeyOptions::default()
                    },
                )
                .unwrap()
            })
            .collect();
        let w = WorkloadSpec {
            synthetic: Some("count=3000".into()),
            ..WorkloadSpec::default()
        };
        let s = RunSettings::default();
        let together = run_each(&configs, &w, &s, 7, |_| |_: Progress| {}, |_, _| Ok(()));
        for (cfg, r) in configs.iter().zip(together) {
            let mut r = r.unwrap();
            let mut alone = run(cfg, &w, &s, 7, &mut |_| {}).unwrap();
            r.sim.wall_s = 0.0;
            alone.sim.wall_s = 0.0;
            assert_eq!(r, alone);
            assert_eq!(r.seed, 7);
        }
    }

    #[test]
    fn every_headline_figure_is_a_number_of_the_report() {
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set("geometry.blocks_per_plane=64").unwrap();
        let cfg = config(b, &KeyOptions::default()).unwrap();
        let w = WorkloadSpec {
            synthetic: Some("count=2000,read=0.3".into()),
            ..WorkloadSpec::default()
        };
        let r = run(&cfg, &w, &RunSettings::default(), 1, &mut |_| {}).unwrap();
        let h = r.headline();
        assert_eq!(h.len(), crate::metrics::headline::HEADLINE.len());
        for (k, v) in &h {
            assert!(v.is_finite(), "{k} = {v}");
        }
        assert_eq!(h[0], ("mean_us", r.latency_us.all.mean));
        assert_eq!(h[8], ("waf", r.flash.waf));
        assert_eq!(h[10], ("gc_time_ms", r.gc.total_time_us / 1e3));
        assert_eq!(h[12], ("erase_max", r.wear.erase_max as f64));
    }
}
