//! From arguments to a run: the configuration (preset, file, overrides, flags, a varied setting's
//! value), the run's options, and its workload.

use ssdgc_core::ageing::Precondition;
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::{Config, ConfigBuilder, RunOptions};
use ssdgc_workload::synthetic::{SyntheticSpec, MAX_SPAN_NS};
use ssdgc_workload::{BlkparseEvent, Format, TimeUnit, TraceOptions};

use crate::args::Common;
use crate::UserError;

/// One point's values of the varied settings, applied after everything else.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    /// `--gc` (or a varied `gc`).
    pub gc: Option<String>,
    /// A varied `preset`.
    pub preset: Option<String>,
    /// A varied `victim`.
    pub victim: Option<String>,
    /// A varied `precondition`.
    pub precondition: Option<String>,
    /// Varied configuration keys: `section.key=value`.
    pub sets: Vec<String>,
}

/// The configuration from preset, file, overrides and flags, in that order, then a point's
/// varied values.
pub fn build_config(c: &Common, o: &Overrides) -> Result<Config, UserError> {
    let preset = o.preset.as_deref().unwrap_or(&c.preset);
    let mut b = ConfigBuilder::preset(preset)?;
    if let Some(path) = &c.config {
        b.merge_file(path)?;
    }
    for s in &c.sets {
        b.set(s)?;
    }
    let mut flag = |key: &str, v: String| b.set(&format!("{key}={v}"));
    if let Some(g) = &o.gc {
        ssdgc_core::gc::schemes::preset(g)
            .map_err(|e| UserError(format!("gc.scheme (--gc): {e}")))?;
        flag("gc.scheme", format!("\"{g}\""))?;
    }
    if let Some(v) = o.victim.as_ref().or(c.victim.as_ref()) {
        let kind = v
            .parse::<ssdgc_core::gc::victim::VictimKind>()
            .map_err(|e| UserError(format!("--victim: {e}")))?;
        flag("gc.victim", format!("\"{kind}\""))?;
    }
    if let Some(v) = c.time_scale {
        flag("host.time_scale", format!("{v:?}"))?;
    }
    if let Some(v) = &c.fold {
        flag("host.fold", format!("\"{v}\""))?;
    }
    if let Some(v) = c.queue_depth {
        flag("host.queue_depth", v.to_string())?;
    }
    for s in &o.sets {
        b.set(s)?;
    }
    let cfg = b.build()?;
    ssdgc_core::gc::scheme::build(&cfg.gc.scheme, &cfg)
        .map_err(|e| UserError(format!("gc.scheme (--gc): {e}")))?;
    Ok(cfg)
}

/// The options of a run of `cfg` with `seed`.
pub fn run_options(
    c: &Common,
    o: &Overrides,
    cfg: &Config,
    seed: u64,
) -> Result<RunOptions, UserError> {
    let mut opts = RunOptions::from_config(cfg, seed)?;
    if let Some(p) = o.precondition.as_ref().or(c.precondition.as_ref()) {
        opts.precondition = Precondition::parse(p, cfg.precondition.overwrites)
            .map_err(|e| UserError(format!("--precondition: {e}")))?;
    }
    opts.check = c.check;
    if let Some(d) = &c.series_interval {
        let ns = ssdgc_core::config::parse_duration(d)
            .map_err(|e| UserError(format!("--series-interval: {e}")))?;
        if ns == 0 {
            return Err(UserError("--series-interval must be positive".into()));
        }
        opts.series_interval = Some(ns);
    }
    if let Some(w) = c.series_window {
        if w == 0 {
            return Err(UserError("--series-window must be positive".into()));
        }
        opts.series_window = Some(w);
    }
    Ok(opts)
}

/// The workload of a run of `cfg` with `seed` (a trace is opened anew for each run).
pub fn workload(c: &Common, cfg: &Config, seed: u64) -> Result<Workload, UserError> {
    // The synthetic workload spans the array's logical space (one drive's, without an array).
    let logical_bytes = ssdgc_core::host::array::Stripe::from_config(cfg).logical_bytes();
    // Checked even without a trace, so that a bad value is never silently ignored.
    let format: Format = c
        .format
        .parse()
        .map_err(|e| UserError(format!("--format: {e}")))?;
    let replay = c
        .replay
        .as_deref()
        .map(ReplayMode::parse)
        .transpose()
        .map_err(|e| UserError(format!("--replay: {e}")))?;
    let disksim_time = c
        .disksim_time
        .parse::<TimeUnit>()
        .map_err(|e| UserError(format!("--disksim-time: {e}")))?;
    let blkparse_event = c
        .blkparse_event
        .parse::<BlkparseEvent>()
        .map_err(|e| UserError(format!("--blkparse-event: {e}")))?;
    if let Some(path) = &c.trace {
        let opts = TraceOptions {
            format,
            volume: c.volume,
            // Scaled arrival times stay within the simulator's span.
            max_time_ns: (ssdgc_workload::MAX_ARRIVAL_NS as f64 / cfg.host.time_scale)
                .min(ssdgc_workload::MAX_ARRIVAL_NS as f64) as u64,
            disksim_time,
            blkparse_event,
            ..TraceOptions::default()
        };
        let mode = replay.unwrap_or(ReplayMode::OpenLoop);
        return Ok(Workload::from_trace(path, &opts, mode)?);
    }
    if replay.is_some() {
        return Err(UserError(
            "--replay applies to traces; a synthetic workload is closed loop with interarrival=0 (at qd=N) and open loop otherwise".into(),
        ));
    }
    if let Some(v) = c.volume {
        return Err(UserError(format!(
            "--volume {v} applies to traces with volumes or devices, not to a synthetic workload"
        )));
    }
    let spec = c.synthetic.as_deref().unwrap_or(Workload::DEFAULT_SPEC);
    let parsed: SyntheticSpec = spec
        .parse()
        .map_err(|e| UserError(format!("--synthetic: {e}")))?;
    let scaled = parsed.arrival_span_ns() as f64 * cfg.host.time_scale;
    if scaled > MAX_SPAN_NS as f64 {
        return Err(UserError(format!(
            "--synthetic: interarrival: count × interarrival × host.time_scale = {:.3e} s exceeds \
             the longest supported arrival span of {:.3e} s (2^54 ns)",
            scaled / 1e9,
            MAX_SPAN_NS as f64 / 1e9
        )));
    }
    Workload::synthetic(spec, logical_bytes, seed)
        .map_err(|e| UserError(format!("--synthetic: {e}")))
}

/// The configuration as TOML (what `--config` reads back), each derived setting — a 0 that means
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
