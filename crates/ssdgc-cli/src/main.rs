//! `ssdgc`: the command-line front of the ssdgc simulator. A thin layer: it parses arguments, builds
//! the configuration and the workload, runs the core, and prints reports.
//!
//! | module | role |
//! |---|---|
//! | [`args`] | the arguments (clap) |
//! | [`setup`] | a point's configuration layers, run settings and workload, for `ssdgc_core::setup` |
//! | [`plan`] | the points of a command: `--gc` and `--vary` as a grid |
//! | [`exec`] | running points × seeds on every core with shared ageing, logs, aged-state files |
//! | [`progress`] | the progress bars |
//! | [`output`] | the comparison table, the seeds summary, CSV, the latency distribution |
//! | [`trace_info`] | `ssdgc trace info` |

mod args;
mod exec;
mod output;
mod plan;
mod progress;
mod setup;
mod trace_info;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;
use ssdgc_core::metrics::report::COMPARE_SCHEMA;
use ssdgc_core::Report;

use args::{Cli, Command, Common, CompareArgs, ListWhat, ReproduceArgs, RunArgs, TraceCommand};
use plan::{Axis, Point};

/// An error for the user: one line, exit status 2.
#[derive(Debug)]
pub struct UserError(pub String);

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
        Command::Trace {
            command: TraceCommand::Info(a),
        } => print_out(&trace_info::info(&a)?),
    }
}

fn reproduce(a: ReproduceArgs) -> Result<(), UserError> {
    // Checked before anything runs, so that a typo costs nothing.
    ssdgc_repro::load(&a.paper)?;
    if a.dry_run || args::dry_run_env() {
        return print_out(&ssdgc_repro::dry_run(&a.paper, a.quick)?);
    }
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

/// With `--dry-run`: what would run, each run's configuration and workload checked.
fn dry_run(c: &Common, points: &[Point], runs: &[exec::RunRef]) -> Result<(), UserError> {
    let workload = setup::workload_spec(c);
    for r in runs {
        let p = &points[r.point];
        let settings = setup::run_settings(c, &p.overrides);
        ssdgc_core::setup::check(&p.cfg, &workload, &settings, r.seed)?;
    }
    let mut out = format!(
        "{} run{} ({} point{} × {} seed{}):\n",
        runs.len(),
        if runs.len() == 1 { "" } else { "s" },
        points.len(),
        if points.len() == 1 { "" } else { "s" },
        c.seeds,
        if c.seeds == 1 { "" } else { "s" }
    );
    for p in points {
        out.push_str(&format!("  {}\n", p.label));
    }
    print_out(&out)
}

/// The reports of every point, each point's first seed first, with the `seeds` section when
/// there are several.
fn run_points(c: &Common, points: &[Point]) -> Result<Vec<Vec<Report>>, UserError> {
    let runs = exec::runs(c, points)?;
    if c.dry_run || args::dry_run_env() {
        dry_run(c, points, &runs)?;
        return Ok(Vec::new());
    }
    let reports = exec::execute(c, points, &runs)?;
    let mut per_point: Vec<Vec<Report>> = (0..points.len()).map(|_| Vec::new()).collect();
    for (r, rep) in runs.iter().zip(reports) {
        per_point[r.point].push(rep);
    }
    if c.seeds > 1 {
        for reports in &mut per_point {
            reports[0].seeds = Some(ssdgc_core::metrics::seeds::summarise(reports));
        }
    }
    Ok(per_point)
}

/// The CDF and CSV outputs common to `run` and `compare`.
fn tool_outputs(
    c: &Common,
    points: &[Point],
    per_point: &[Vec<Report>],
    labelled: bool,
) -> Result<Option<String>, UserError> {
    let rows: Vec<(String, &Report)> = points
        .iter()
        .zip(per_point)
        .flat_map(|(p, reps)| {
            reps.iter().map(move |r| {
                let label = if reps.len() > 1 {
                    format!("{} seed {}", p.label, r.seed)
                } else {
                    p.label.clone()
                };
                (label, r)
            })
        })
        .collect();
    let rows: Vec<(&str, &Report)> = rows.iter().map(|(l, r)| (l.as_str(), *r)).collect();
    if let Some(path) = &c.cdf {
        output::write_cdf(path, &rows, labelled || rows.len() > 1)?;
    }
    Ok(c.csv.then(|| output::csv(&rows)))
}

fn run(a: RunArgs) -> Result<(), UserError> {
    let c = &a.common;
    let gc = a.gc.as_deref().map(str::trim);
    let points = plan::points(c, gc, &[])?;
    if c.dump_config {
        return print_out(&ssdgc_core::setup::dump_config(&points[0].cfg));
    }
    let per_point = run_points(c, &points)?;
    if per_point.is_empty() {
        return Ok(());
    }
    if let Some(csv) = tool_outputs(c, &points, &per_point, false)? {
        return print_out(&csv);
    }
    let report = &per_point[0][0];
    if c.json {
        print_out(&format!("{}\n", report.to_json()))
    } else {
        let mut text = report.to_table();
        if let Some(s) = &report.seeds {
            text.push_str(&output::seeds_text(s));
        }
        print_out(&text)
    }
}

fn compare(a: CompareArgs) -> Result<(), UserError> {
    let c = &a.common;
    if a.gc.is_empty() && a.vary.is_empty() {
        return Err(UserError(
            "compare needs what to compare: --gc A,B,... or --vary KEY=V1,V2,...".into(),
        ));
    }
    let axes: Vec<Axis> = plan::axes(&a.gc, &a.vary)?;
    let points = plan::points(c, None, &axes)?;
    if c.dump_config {
        return print_out(&ssdgc_core::setup::dump_config(&points[0].cfg));
    }
    let per_point = run_points(c, &points)?;
    if per_point.is_empty() {
        return Ok(());
    }
    if let Some(csv) = tool_outputs(c, &points, &per_point, true)? {
        return print_out(&csv);
    }
    if c.json {
        #[derive(serde::Serialize)]
        struct AxisJson<'a> {
            key: &'a str,
            values: &'a [String],
        }
        #[derive(serde::Serialize)]
        struct Comparison<'a> {
            schema: &'a str,
            runs: Vec<&'a Report>,
            labels: Vec<&'a str>,
            axes: Vec<AxisJson<'a>>,
        }
        let out = Comparison {
            schema: COMPARE_SCHEMA,
            runs: per_point.iter().map(|r| &r[0]).collect(),
            labels: points.iter().map(|p| p.label.as_str()).collect(),
            axes: axes
                .iter()
                .map(|a| AxisJson {
                    key: &a.key,
                    values: &a.values,
                })
                .collect(),
        };
        return print_out(&format!(
            "{}\n",
            serde_json::to_string_pretty(&out).expect("reports serialise")
        ));
    }
    let runs: Vec<output::Run> = points
        .iter()
        .zip(&per_point)
        .map(|(p, reps)| output::Run {
            label: &p.label,
            reports: reps,
        })
        .collect();
    print_out(&output::compare_table(&runs))
}
