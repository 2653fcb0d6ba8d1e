//! `ssdgc`: the command-line front of the ssdgc simulator. A thin layer: it parses arguments, builds
//! the configuration and the workload, runs the core, and prints reports.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ssdgc_core::ageing::Precondition;
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::metrics::report::COMPARE_SCHEMA;
use ssdgc_core::{Config, ConfigBuilder, Report, RunOptions, Simulator};
use ssdgc_workload::synthetic::{SyntheticSpec, MAX_SPAN_NS};
use ssdgc_workload::{BlkparseEvent, Format, TimeUnit, TraceOptions};

#[derive(Parser)]
#[command(
    name = "ssdgc",
    version,
    about = "A fast, deterministic SSD simulator for studying garbage collection",
    long_about = "A fast, deterministic SSD simulator for studying garbage collection.\n\n\
                  With no trace and no --synthetic spec, runs a built-in workload: 200,000 uniformly \
                  random 4 KiB writes, closed loop at queue depth 32, on a preconditioned drive."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run one GC scheme on one drive and workload.
    Run(RunArgs),
    /// Run several GC schemes on the same drive and workload, side by side, normalised to the first.
    Compare(CompareArgs),
    /// Run a paper's experiments and compare ssdgc's figures with the paper's claims.
    Reproduce(ReproduceArgs),
    /// List presets, schemes, victim policies or trace formats.
    List {
        #[arg(value_enum)]
        what: ListWhat,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum ListWhat {
    Presets,
    Schemes,
    Victims,
    Formats,
}

#[derive(Args, Clone)]
struct Common {
    /// Trace file to replay (gzip and zstd are read transparently).
    trace: Option<PathBuf>,
    /// Drive preset (`ssdgc list presets`).
    #[arg(long, default_value = "default")]
    preset: String,
    /// TOML configuration file applied over the preset.
    #[arg(long, value_name = "FILE.toml")]
    config: Option<PathBuf>,
    /// Override one setting, e.g. `--set geometry.channels=4` (repeatable).
    #[arg(long = "set", value_name = "SECTION.KEY=VALUE")]
    sets: Vec<String>,
    /// Victim policy and its parameters, string form (`greedy`, `rga:8`; `ssdgc list victims`).
    #[arg(long)]
    victim: Option<String>,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Check the FTL's invariants while running (slow).
    #[arg(long)]
    check: bool,
    /// Print the report as JSON.
    #[arg(long)]
    json: bool,
    /// Synthetic workload, e.g. `count=100000,read=0.4,size=exp:32KiB,seq=0.4,interarrival=exp:3ms`.
    #[arg(long, value_name = "KEY=VAL,...", conflicts_with = "trace")]
    synthetic: Option<String>,
    /// Trace format (`ssdgc list formats`); detected from the content by default.
    #[arg(long, default_value = "auto")]
    format: String,
    /// Volume (Tencent) or device number to replay.
    #[arg(long)]
    volume: Option<u64>,
    /// Time unit of DiskSim ASCII traces: ns (MQSim/SSDSim files) or ms (DiskSim).
    #[arg(long, default_value = "ns")]
    disksim_time: String,
    /// blkparse event to replay: D (issued to the device) or Q (queued).
    #[arg(long, default_value = "D")]
    blkparse_event: String,
    /// Preconditioning: none, fill, steady, or steady:N (N x capacity of random overwrites).
    #[arg(long)]
    precondition: Option<String>,
    /// Trace replay: open (arrivals at trace time, the default) or closed:QD.
    #[arg(long)]
    replay: Option<String>,
    /// Multiply trace inter-arrival times by this factor (0.5 = twice as fast).
    #[arg(long)]
    time_scale: Option<f64>,
    /// Addresses beyond the drive: wrap (fold onto the logical space) or reject.
    #[arg(long)]
    fold: Option<String>,
    /// Device queue depth.
    #[arg(long)]
    queue_depth: Option<u32>,
    /// Add latency per interval of simulated arrival time to the report, e.g. `100ms`.
    #[arg(long, value_name = "DURATION")]
    series_interval: Option<String>,
    /// Add latency per window of this many consecutive requests to the report.
    #[arg(long, value_name = "N")]
    series_window: Option<u64>,
    /// Print the effective configuration as TOML and exit.
    #[arg(long)]
    dump_config: bool,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args)]
struct RunArgs {
    /// GC scheme (`ssdgc list schemes`).
    #[arg(long)]
    gc: Option<String>,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct CompareArgs {
    /// Comma-separated GC schemes; results are normalised to the first.
    #[arg(long, value_delimiter = ',', required = true)]
    gc: Vec<String>,
    #[command(flatten)]
    common: Common,
}

#[derive(Args)]
struct ReproduceArgs {
    /// Paper id (pagc, pgc, practical).
    paper: String,
    /// Run the quick variant of every experiment (smaller drives, fewer requests, one seed).
    #[arg(long)]
    quick: bool,
    /// Output directory (default `reproduce-<paper>`).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// No progress notes on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// An error for the user: one line, exit status 2.
struct UserError(String);

impl<E: std::fmt::Display> From<E> for UserError {
    fn from(e: E) -> Self {
        UserError(e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion)
                || matches!(
                    e.kind(),
                    ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                )
            {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
            }
            // clap's message spans lines (a list of missing arguments, a usage block): keep what
            // precedes the usage, on one line.
            let text = e.to_string();
            let parts: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|l| !l.starts_with("Usage:"))
                .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
                .collect();
            let msg = parts.join(" ");
            let msg = msg.trim_start_matches("error: ");
            let msg = if msg.is_empty() {
                "invalid arguments"
            } else {
                msg
            };
            eprintln!("ssdgc: error: {msg} (see ssdgc --help)");
            return ExitCode::from(2);
        }
    };
    match dispatch(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(UserError(msg)) => {
            eprintln!("ssdgc: error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Writes `text` to standard output and flushes it. A reader that went away (a closed pipe, as
/// with `| head`) ends the program quietly with status 0; any other failure (a full disk) is a user
/// error.
fn print_out(text: &str) -> Result<(), UserError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(UserError(format!("cannot write to standard output: {e}"))),
    }
}

fn dispatch(cli: Cli) -> Result<(), UserError> {
    match cli.command {
        Command::List { what } => list(what),
        Command::Run(a) => run(a),
        Command::Compare(a) => compare(a),
        Command::Reproduce(a) => reproduce(a),
    }
}

fn reproduce(a: ReproduceArgs) -> Result<(), UserError> {
    // Checked before anything runs, so that a typo costs nothing.
    ssdgc_repro::load(&a.paper)?;
    let quiet = a.quiet;
    let note = |m: &str| {
        if !quiet {
            eprintln!("ssdgc: {m}");
        }
    };
    let outcome = ssdgc_repro::reproduce(&a.paper, a.quick, &note)?;
    let dir = a
        .out
        .clone()
        .unwrap_or_else(|| ssdgc_repro::default_out(&a.paper));
    let table = ssdgc_repro::write(&outcome, &dir)?;
    print_out(&table)?;
    note(&format!("wrote {}", dir.display()));
    Ok(())
}

fn list(what: ListWhat) -> Result<(), UserError> {
    let rows: Vec<(String, String)> = match what {
        ListWhat::Presets => ssdgc_core::config::presets()
            .map(|(n, d)| (n.to_string(), d.to_string()))
            .collect(),
        ListWhat::Schemes => ssdgc_core::gc::schemes::PRESETS
            .iter()
            .map(|(n, d, axes)| (n.to_string(), format!("{d}\n    axes: {axes}")))
            .collect(),
        ListWhat::Victims => ssdgc_core::gc::victim::list()
            .into_iter()
            .map(|(n, d)| (n, d.to_string()))
            .collect(),
        ListWhat::Formats => ssdgc_workload::formats()
            .iter()
            .map(|(n, d)| (n.to_string(), d.to_string()))
            .collect(),
    };
    let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (n, d) in rows {
        out.push_str(&format!("{n:<width$}  {d}\n"));
    }
    print_out(&out)
}

/// The configuration from preset, file, overrides and flags, in that order.
fn build_config(c: &Common, gc: Option<&str>) -> Result<Config, UserError> {
    let mut b = ConfigBuilder::preset(&c.preset)?;
    if let Some(path) = &c.config {
        b.merge_file(path)?;
    }
    for s in &c.sets {
        b.set(s)?;
    }
    let mut flag = |key: &str, v: String| b.set(&format!("{key}={v}"));
    if let Some(g) = gc {
        ssdgc_core::gc::schemes::preset(g)
            .map_err(|e| UserError(format!("gc.scheme (--gc): {e}")))?;
        flag("gc.scheme", format!("\"{g}\""))?;
    }
    if let Some(v) = &c.victim {
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
    let cfg = b.build()?;
    ssdgc_core::gc::scheme::build(&cfg.gc.scheme, &cfg)
        .map_err(|e| UserError(format!("gc.scheme (--gc): {e}")))?;
    Ok(cfg)
}

fn run_options(c: &Common, cfg: &Config) -> Result<RunOptions, UserError> {
    let mut opts = RunOptions::from_config(cfg, c.seed)?;
    if let Some(p) = &c.precondition {
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

fn workload(c: &Common, cfg: &Config) -> Result<Workload, UserError> {
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
    if let Some(path) = &c.trace {
        let opts = TraceOptions {
            format,
            volume: c.volume,
            // Scaled arrival times stay within the simulator's span.
            max_time_ns: (ssdgc_workload::MAX_ARRIVAL_NS as f64 / cfg.host.time_scale)
                .min(ssdgc_workload::MAX_ARRIVAL_NS as f64) as u64,
            disksim_time: c
                .disksim_time
                .parse::<TimeUnit>()
                .map_err(|e| UserError(format!("--disksim-time: {e}")))?,
            blkparse_event: c
                .blkparse_event
                .parse::<BlkparseEvent>()
                .map_err(|e| UserError(format!("--blkparse-event: {e}")))?,
            ..TraceOptions::default()
        };
        let mode = replay.unwrap_or(ReplayMode::OpenLoop);
        if !cfg.array.disks.is_empty() {
            // Per-disk traces: each listed disk's records, read from the trace.
            if let Some(v) = c.volume {
                return Err(UserError(format!(
                    "--volume {v} selects one volume, but array.disks replays the disks it lists; leave out one of them"
                )));
            }
            return Ok(Workload::for_disks(cfg, path, &opts, mode)?);
        }
        return Ok(Workload::from_trace(path, &opts, mode)?);
    }
    c.disksim_time
        .parse::<TimeUnit>()
        .map_err(|e| UserError(format!("--disksim-time: {e}")))?;
    c.blkparse_event
        .parse::<BlkparseEvent>()
        .map_err(|e| UserError(format!("--blkparse-event: {e}")))?;
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
    if !cfg.array.disks.is_empty() {
        return Err(UserError(
            "array.disks maps the disks of a trace to drives: give a trace whose records carry disk or volume numbers (--trace), not a synthetic workload".into(),
        ));
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
    Workload::synthetic(spec, logical_bytes, c.seed)
        .map_err(|e| UserError(format!("--synthetic: {e}")))
}

/// Runs one simulation, with a progress bar on a terminal once it has taken a second.
fn simulate(
    c: &Common,
    cfg: &Config,
    label: &str,
    bar: Option<ProgressBar>,
) -> Result<Report, UserError> {
    let opts = run_options(c, cfg)?;
    let wl = workload(c, cfg)?;
    let sim = Simulator::new(cfg, wl, opts)?;
    let started = Instant::now();
    let mut shown = false;
    let mut progress = |p: ssdgc_core::sim::Progress| {
        let Some(bar) = &bar else { return };
        if !shown && started.elapsed() > Duration::from_secs(1) {
            shown = true;
            bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        if let Some(n) = p.expected {
            bar.set_length(n);
        }
        bar.set_position(p.completed);
        if p.preconditioning {
            bar.set_message(format!("{label}: preconditioning (page writes)"));
        } else {
            bar.set_message(format!("{label}: {:.2} s simulated", p.now as f64 / 1e9));
        }
    };
    let report = sim.run_with_progress(&mut progress)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(report)
}

fn progress_bar(c: &Common, multi: &indicatif::MultiProgress) -> Option<ProgressBar> {
    if c.quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = multi.add(ProgressBar::with_draw_target(
        None,
        ProgressDrawTarget::hidden(),
    ));
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} · {msg} · {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(bar)
}

fn run(a: RunArgs) -> Result<(), UserError> {
    let c = &a.common;
    let cfg = build_config(c, a.gc.as_deref())?;
    if c.dump_config {
        return print_out(&cfg.to_toml());
    }
    let multi = indicatif::MultiProgress::new();
    let report = simulate(c, &cfg, &cfg.gc.scheme, progress_bar(c, &multi))?;
    if c.json {
        print_out(&format!("{}\n", report.to_json()))
    } else {
        print_out(&report.to_table())
    }
}

fn compare(a: CompareArgs) -> Result<(), UserError> {
    let c = &a.common;
    let mut configs = Vec::new();
    for g in &a.gc {
        configs.push(build_config(c, Some(g))?);
    }
    if c.dump_config {
        return print_out(&configs[0].to_toml());
    }
    let multi = indicatif::MultiProgress::new();
    let results: Vec<Result<Report, UserError>> = std::thread::scope(|s| {
        let handles: Vec<_> = configs
            .iter()
            .map(|cfg| {
                let bar = progress_bar(c, &multi);
                s.spawn(move || simulate(c, cfg, &cfg.gc.scheme, bar))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(UserError("a run failed unexpectedly".into())))
            })
            .collect()
    });
    let mut reports = Vec::new();
    for r in results {
        reports.push(r?);
    }
    if c.json {
        #[derive(serde::Serialize)]
        struct Comparison<'a> {
            schema: &'a str,
            runs: &'a [Report],
        }
        let out = Comparison {
            schema: COMPARE_SCHEMA,
            runs: &reports,
        };
        print_out(&format!(
            "{}\n",
            serde_json::to_string_pretty(&out).expect("reports serialise")
        ))
    } else {
        print_out(&compare_table(&reports))
    }
}

fn compare_table(reports: &[Report]) -> String {
    let base = &reports[0];
    let mut out = format!(
        "workload: {} ({}), {} requests; each value beside its ratio to {}\n\n{:<16}",
        base.workload.name, base.workload.format, base.requests.total, base.scheme, ""
    );
    for r in reports {
        out.push_str(&format!(" {:>12} {:>7}", r.scheme, "ratio"));
    }
    out.push('\n');
    type Metric = fn(&Report) -> f64;
    let rows: [(&str, Metric); 13] = [
        ("mean us", |r| r.latency_us.all.mean),
        ("std us", |r| r.latency_us.all.std),
        ("p99 us", |r| r.latency_us.all.p99),
        ("p99.9 us", |r| r.latency_us.all.p999),
        ("p99.99 us", |r| r.latency_us.all.p9999),
        ("max us", |r| r.latency_us.all.max),
        ("read mean us", |r| r.latency_us.read.mean),
        ("write mean us", |r| r.latency_us.write.mean),
        ("WAF", |r| r.flash.waf),
        ("GC invocations", |r| r.gc.invocations as f64),
        ("GC time ms", |r| r.gc.total_time_us / 1e3),
        ("blocks erased", |r| r.flash.blocks_erased as f64),
        ("erase max", |r| r.wear.erase_max as f64),
    ];
    for (name, f) in rows {
        out.push_str(&format!("{name:<16}"));
        let b = f(base);
        for r in reports {
            let v = f(r);
            if b != 0.0 {
                out.push_str(&format!(" {:>12.3} {:>7.3}", v, v / b));
            } else {
                out.push_str(&format!(" {:>12.3} {:>7}", v, "-"));
            }
        }
        out.push('\n');
    }
    out
}
