//! `ssdgc`: the command-line front of the ssdgc simulator. A thin layer: it parses arguments, builds
//! the configuration and the workload, runs the core, and prints reports.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use ssdgc_core::metrics::headline::HEADLINE;
use ssdgc_core::metrics::report::COMPARE_SCHEMA;
use ssdgc_core::metrics::request_log::{CsvLog, SharedSink};
use ssdgc_core::setup::{self, KeyOptions, RunSettings, WorkloadSpec};
use ssdgc_core::{Config, ConfigBuilder, Report, Simulator};

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
    /// Preconditioning: none, fill, steady, steady:N (N x capacity of random overwrites), trace or
    /// trace:N (the workload itself, then N x capacity of its writes).
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
    /// Write every completed request to FILE as CSV (arrival, completion, op, offset, bytes,
    /// response time and its breakdown; docs/report-schema.md "Per-request log").
    #[arg(long, value_name = "FILE")]
    latency_log: Option<PathBuf>,
    /// Write the distribution of response times to FILE as CSV: per class (all, read, write) one
    /// line per histogram bucket with its value in µs and the share of requests at or below it.
    #[arg(long, value_name = "FILE")]
    cdf: Option<PathBuf>,
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
    /// Paper id (pagc, pgc, practical, ppm).
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
    let keys = KeyOptions {
        scheme: gc.map(str::to_string),
        victim: c.victim.clone(),
        time_scale: c.time_scale,
        fold: c.fold.clone(),
        queue_depth: c.queue_depth,
    };
    Ok(setup::config(b, &keys)?)
}

fn run_settings(c: &Common) -> RunSettings {
    RunSettings {
        precondition: c.precondition.clone(),
        check: c.check,
        series_interval: c.series_interval.clone(),
        series_window: c.series_window,
    }
}

fn workload_spec(c: &Common) -> WorkloadSpec {
    WorkloadSpec {
        trace: c.trace.clone(),
        synthetic: c.synthetic.clone(),
        format: c.format.clone(),
        volume: c.volume,
        disksim_time: c.disksim_time.clone(),
        blkparse_event: c.blkparse_event.clone(),
        replay: c.replay.clone(),
    }
}

/// A progress callback drawing on `bar` once the run has taken a second.
fn progress_to(
    bar: Option<ProgressBar>,
    label: String,
) -> impl FnMut(ssdgc_core::sim::Progress) + Send {
    let started = Instant::now();
    let mut shown = false;
    move |p: ssdgc_core::sim::Progress| {
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
    }
}

/// The per-request log of a run (`--latency-log FILE`), attached to its simulator.
type Log = (
    PathBuf,
    SharedSink<CsvLog<std::io::BufWriter<std::fs::File>>>,
);

/// Creates the `--latency-log` file, if asked for, and attaches it to `sim`.
fn attach_log(c: &Common, sim: &mut Simulator) -> Result<Option<Log>, UserError> {
    let Some(path) = &c.latency_log else {
        return Ok(None);
    };
    let file = std::fs::File::create(path).map_err(|e| {
        UserError(format!(
            "--latency-log {}: cannot create: {e}",
            path.display()
        ))
    })?;
    let shared = SharedSink::new(CsvLog::new(std::io::BufWriter::new(file)));
    sim.set_request_sink(Box::new(shared.clone()));
    Ok(Some((path.clone(), shared)))
}

/// Writes out a finished run's per-request log.
fn finish_log(log: Option<Log>) -> Result<(), UserError> {
    if let Some((path, shared)) = log {
        let log = shared
            .into_inner()
            .expect("the simulator has dropped its handle to the log");
        log.finish().map_err(|e| {
            UserError(format!(
                "--latency-log {}: cannot write: {e}",
                path.display()
            ))
        })?;
    }
    Ok(())
}

/// Runs one simulation, with a progress bar on a terminal once it has taken a second.
fn simulate(
    c: &Common,
    cfg: &Config,
    label: &str,
    bar: Option<ProgressBar>,
) -> Result<Report, UserError> {
    let mut sim = setup::simulator(cfg, &workload_spec(c), &run_settings(c), c.seed)?;
    let log = attach_log(c, &mut sim)?;
    let mut progress = progress_to(bar.clone(), label.to_string());
    let report = sim.run_with_progress(&mut progress)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    finish_log(log)?;
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
    if let Some(path) = &c.cdf {
        write_cdf(path, &[(report.scheme.as_str(), &report)], false)?;
    }
    if c.json {
        print_out(&format!("{}\n", report.to_json()))
    } else {
        print_out(&report.to_table())
    }
}

fn compare(a: CompareArgs) -> Result<(), UserError> {
    let c = &a.common;
    if c.latency_log.is_some() && a.gc.len() > 1 {
        return Err(UserError(
            "--latency-log writes the log of one run: use it with run, or with compare of one scheme".into(),
        ));
    }
    let mut configs = Vec::new();
    for g in &a.gc {
        configs.push(build_config(c, Some(g))?);
    }
    if c.dump_config {
        return print_out(&configs[0].to_toml());
    }
    let multi = indicatif::MultiProgress::new();
    let bars: Vec<Option<ProgressBar>> = configs.iter().map(|_| progress_bar(c, &multi)).collect();
    let logs: Vec<std::sync::Mutex<Option<Log>>> = configs
        .iter()
        .map(|_| std::sync::Mutex::new(None))
        .collect();
    let results = setup::run_each(
        &configs,
        &workload_spec(c),
        &run_settings(c),
        c.seed,
        |i| progress_to(bars[i].clone(), configs[i].gc.scheme.clone()),
        |i, sim| {
            let log = attach_log(c, sim).map_err(|UserError(m)| m)?;
            *logs[i].lock().unwrap_or_else(|e| e.into_inner()) = log;
            Ok(())
        },
    );
    for bar in bars.into_iter().flatten() {
        bar.finish_and_clear();
    }
    for log in logs {
        finish_log(log.into_inner().unwrap_or_else(|e| e.into_inner()))?;
    }
    let mut reports = Vec::new();
    for r in results {
        reports.push(r?);
    }
    if let Some(path) = &c.cdf {
        let runs: Vec<(&str, &Report)> = reports.iter().map(|r| (r.scheme.as_str(), r)).collect();
        write_cdf(path, &runs, true)?;
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

/// Writes the CDFs of `runs` to `path` as CSV: `class,value_us,share`, with a leading `run`
/// column (the run's label) when `labelled`.
fn write_cdf(
    path: &std::path::Path,
    runs: &[(&str, &Report)],
    labelled: bool,
) -> Result<(), UserError> {
    use ssdgc_core::metrics::LatencyClass;
    let err = |e: std::io::Error| UserError(format!("--cdf {}: {e}", path.display()));
    let file = std::fs::File::create(path).map_err(err)?;
    let mut out = std::io::BufWriter::new(file);
    let head = if labelled { "run," } else { "" };
    writeln!(out, "{head}class,value_us,share").map_err(err)?;
    for (label, r) in runs {
        for class in LatencyClass::ALL {
            for p in r.latency_cdf(class) {
                if labelled {
                    write!(out, "{},", csv_field(label)).map_err(err)?;
                }
                writeln!(out, "{},{},{}", class.name(), p.value_us, p.share).map_err(err)?;
            }
        }
    }
    out.flush().map_err(err)
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
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
    let values: Vec<Vec<(&str, f64)>> = reports.iter().map(Report::headline).collect();
    for (row, fig) in HEADLINE.iter().enumerate() {
        out.push_str(&format!("{:<16}", fig.label));
        let b = values[0][row].1;
        for v in &values {
            let v = v[row].1;
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
