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
//!
//! Several runs ([`job`], [`run_each`]) go through [`crate::batch`]: on every core, runs whose
//! ageing inputs are equal ageing the drive once, each report the one its run gives alone.

use std::path::PathBuf;

use ssdgc_workload::synthetic::{SyntheticSpec, MAX_SPAN_NS};
use ssdgc_workload::{BlkparseEvent, Format, TimeUnit, TraceOptions};

use crate::ageing::{AgeingKey, Precondition};
use crate::batch::{self, Job};
use crate::config::{Config, ConfigBuilder};
use crate::host::array::Stripe;
use crate::host::{ReplayMode, Workload};
use crate::metrics::report::Report;
use crate::sim::{Progress, RunOptions, SimError, Simulator};

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

impl KeyOptions {
    /// Drops the option that stands for configuration key `key` (`host.queue_depth`, say), so
    /// that the layers' value of it stands: for a front end that sets that key itself for one run
    /// (a varied setting). Returns whether there was one.
    pub fn yield_to(&mut self, key: &str) -> bool {
        match key {
            "gc.scheme" => self.scheme.take().is_some(),
            "gc.victim" => self.victim.take().is_some(),
            "host.time_scale" => self.time_scale.take().is_some(),
            "host.fold" => self.fold.take().is_some(),
            "host.queue_depth" => self.queue_depth.take().is_some(),
            _ => false,
        }
    }
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

/// Checks a run of `workload` on `cfg` (its options, its workload: a trace is opened, a synthetic
/// spec parsed) without running it, and returns what its ageing depends on.
pub fn check(
    cfg: &Config,
    workload: &WorkloadSpec,
    settings: &RunSettings,
    seed: u64,
) -> Result<AgeingKey, String> {
    let opts = settings.options(cfg, seed)?;
    let wl = workload.build(cfg, seed)?;
    Job::key_of(cfg, &opts, &wl).map_err(|e| e.to_string())
}

/// One run of a batch ([`crate::batch::run`]): checked now ([`check`]); its simulator is built
/// by [`simulator`] on the thread that runs it, and `attach` called with it first (to set a
/// per-request log, say); `progress` hears the run.
pub fn job<'a>(
    cfg: &'a Config,
    workload: &'a WorkloadSpec,
    settings: &'a RunSettings,
    seed: u64,
    attach: impl Fn(&mut Simulator) -> Result<(), String> + Send + Sync + 'a,
    progress: Option<Box<dyn FnMut(Progress) + Send + 'a>>,
) -> Result<Job<'a>, String> {
    let key = check(cfg, workload, settings, seed)?;
    Ok(Job {
        key,
        build: Box::new(move || {
            let mut sim = simulator(cfg, workload, settings, seed).map_err(SimError::Config)?;
            attach(&mut sim).map_err(SimError::Config)?;
            Ok(sim)
        }),
        progress,
    })
}

/// Runs one simulation per configuration, all on the same workload, settings and seed, side by
/// side ([`crate::batch`]: on every core, configurations whose drives age alike aged once).
/// `progress(i)` makes the progress callback of the i-th; `attach(i, sim)` is called with its
/// simulator before it runs (to set a per-request log, say). The results come in the
/// configurations' order, each the report the configuration gives run alone.
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
    let mut results: Vec<Option<Result<Report, String>>> = Vec::with_capacity(configs.len());
    let mut jobs = Vec::new();
    let mut index = Vec::new();
    for (i, cfg) in configs.iter().enumerate() {
        let p = progress(i);
        match job(
            cfg,
            workload,
            settings,
            seed,
            move |sim| attach(i, sim),
            Some(Box::new(p)),
        ) {
            Ok(j) => {
                jobs.push(j);
                index.push(i);
                results.push(None);
            }
            Err(e) => results.push(Some(Err(e))),
        }
    }
    for (i, r) in index.into_iter().zip(batch::run(jobs, None)) {
        results[i] = Some(r.map_err(|e| e.to_string()));
    }
    results
        .into_iter()
        .map(|r| r.expect("every configuration has a result"))
        .collect()
}

/// The configuration as TOML (what a configuration file holds; `ssdgc run --dump-config` and the
/// Python package's `Config.to_toml` print it), each derived setting — a 0 that means
/// "derive from another setting" — followed by a comment with the value in effect.
pub fn dump_config(cfg: &Config) -> String {
    let (soft, hard) = cfg.pgc_threshold_blocks();
    let derived: [(&str, f64, String); 4] = [
        (
            "gc.pagc_threshold",
            cfg.gc.pagc_threshold,
            format!("{} (gc.threshold by gc.pagc_margin)", cfg.pagc_threshold()),
        ),
        (
            "gc.idle_threshold",
            cfg.gc.idle_threshold,
            format!("{} (2 × gc.threshold)", cfg.idle_threshold()),
        ),
        (
            "gc.soft_threshold",
            cfg.gc.soft_threshold,
            format!("{soft} free blocks per plane (gc.threshold)"),
        ),
        (
            "gc.hard_threshold",
            cfg.gc.hard_threshold,
            format!("{hard} free blocks per plane (half the soft threshold)"),
        ),
    ];
    let mut out = String::new();
    let mut section = String::new();
    for line in cfg.to_toml().lines() {
        if let Some(s) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            section = s.to_string();
        }
        out.push_str(line);
        if let Some((key, _)) = line.split_once(" = ") {
            let full = format!("{section}.{key}");
            if let Some((_, _, how)) = derived.iter().find(|(k, v, _)| *k == full && *v == 0.0) {
                out.push_str(&format!(" # 0 derives it: {how} in effect"));
            }
        }
        out.push('\n');
    }
    out
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
    fn a_key_option_yields_to_a_key_set_in_the_layers() {
        let mut keys = KeyOptions {
            queue_depth: Some(4),
            time_scale: Some(0.5),
            ..KeyOptions::default()
        };
        assert!(keys.yield_to("host.queue_depth"));
        assert!(!keys.yield_to("host.queue_depth"));
        assert!(!keys.yield_to("gc.threshold"));
        let mut b = small();
        b.set("host.queue_depth=16").unwrap();
        let cfg = config(b, &keys).unwrap();
        assert_eq!(cfg.host.queue_depth, 16);
        assert_eq!(cfg.host.time_scale, 0.5);
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
    fn the_dumped_configuration_names_derived_values_and_reads_back() {
        let cfg = config(small(), &KeyOptions::default()).unwrap();
        let text = dump_config(&cfg);
        let (soft, hard) = cfg.pgc_threshold_blocks();
        assert!(text.contains(&format!(
            "soft_threshold = 0.0 # 0 derives it: {soft} free blocks per plane"
        )));
        assert!(text.contains(&format!(
            "hard_threshold = 0.0 # 0 derives it: {hard} free blocks per plane"
        )));
        assert!(text.contains(&format!(
            "idle_threshold = 0.0 # 0 derives it: {} (2 × gc.threshold) in effect",
            cfg.idle_threshold()
        )));
        // A value set is not annotated; the text reads back to the same configuration.
        let mut b = small();
        b.set("gc.idle_threshold=0.2").unwrap();
        let set = config(b, &KeyOptions::default()).unwrap();
        let text = dump_config(&set);
        assert!(text.lines().any(|l| l == "idle_threshold = 0.2"), "{text}");
        let mut back = ConfigBuilder::preset("default").unwrap();
        back.merge_text(&text, "dump").unwrap();
        assert_eq!(back.build().unwrap(), set);
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
        let get = |key: &str| h.iter().find(|(k, _)| *k == key).unwrap().1;
        assert_eq!(h[0], ("mean_us", r.latency_us.all.mean));
        assert_eq!(get("p50_us"), r.latency_us.all.p50);
        assert_eq!(get("read_p999_us"), r.latency_us.read.p999);
        assert_eq!(get("waf"), r.flash.waf);
        assert_eq!(get("gc_time_ms"), r.gc.total_time_us / 1e3);
        assert_eq!(get("pages_moved"), r.flash.gc_pages_moved as f64);
        assert_eq!(get("erase_max"), r.wear.erase_max as f64);
        assert_eq!(get("excess_requests"), r.excess.requests as f64);
    }
}
