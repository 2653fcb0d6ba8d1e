//! ssdgc-repro: reproduces published GC papers' claims with ssdgc.
//!
//! Each paper's setup, claims and experiments are data (`papers/<id>.toml`, embedded in the
//! binary). [`reproduce`] runs a paper's experiments (or their quick variants) in parallel through
//! the core's public API, computes ssdgc's figure for every claim, compares it with the paper's,
//! and writes `claims.md`, `claims.json` and one CSV per experiment.
#![forbid(unsafe_code)]

pub mod claims;
pub mod output;
pub mod paper;
pub mod runner;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub use claims::ClaimResult;
pub use paper::{load, Paper, REPRODUCIBLE};

use crate::paper::Experiment;
use crate::runner::Plan;

/// One run's identity and report, as written to the CSVs.
pub struct RunRow {
    pub experiment: String,
    pub label: String,
    pub vary: Option<String>,
    pub workload: String,
    pub seed: u64,
    pub report: std::sync::Arc<ssdgc_core::Report>,
}

/// Everything a reproduction produced.
pub struct Outcome {
    pub paper: Paper,
    pub quick: bool,
    /// Experiments that ran (the variant that ran).
    pub experiments: Vec<Experiment>,
    /// Experiments not yet reproducible, with what they need.
    pub skipped: Vec<Skipped>,
    pub claims: Vec<ClaimResult>,
    pub rows: Vec<RunRow>,
    /// Unique simulations run.
    pub runs: usize,
    pub wall_s: f64,
}

/// An experiment skipped for what it needs.
pub type Skipped = (Experiment, Vec<String>);

/// The experiments of `paper` as they will run, and those skipped for their `needs`.
pub fn plan_experiments(
    paper: &Paper,
    quick: bool,
) -> Result<(Vec<Experiment>, Vec<Skipped>), String> {
    let ids: std::collections::HashSet<&str> = paper.claims.iter().map(|c| c.id.as_str()).collect();
    let mut run = Vec::new();
    let mut skipped = Vec::new();
    for e in &paper.experiments {
        for c in &e.claims {
            if !ids.contains(c.as_str()) {
                return Err(format!(
                    "papers/{}.toml: experiment {} lists unknown claim {c}",
                    paper.paper.id, e.id
                ));
            }
        }
        let v = e.variant(quick);
        if v.needs.is_empty() {
            run.push(v);
        } else {
            let needs = v.needs.clone();
            skipped.push((v, needs));
        }
    }
    Ok((run, skipped))
}

/// A paper's experiments as runs, every configuration and trace checked.
type Prepared = (Paper, Vec<Experiment>, Vec<(Experiment, Vec<String>)>, Plan);

fn prepare(id: &str, quick: bool, progress: &dyn Fn(&str)) -> Result<Prepared, String> {
    let paper = load(id)?;
    let (experiments, skipped) = plan_experiments(&paper, quick)?;
    let mut plan = Plan::default();
    let mut index = HashMap::new();
    for e in &experiments {
        plan.add(e, &mut index)?;
    }
    for (e, needs) in &skipped {
        progress(&format!(
            "experiment {}: not yet reproducible: needs {}",
            e.id,
            needs.join("; ")
        ));
    }
    // Check every configuration and trace before the first simulation starts.
    for spec in &plan.runs {
        let cfg = runner::config(spec).map_err(|e| {
            format!(
                "{} on {} ({}): {e}",
                spec.scheme, spec.workload, spec.preset
            )
        })?;
        if !spec.workload.starts_with("synthetic:") {
            runner::trace_path(&spec.workload)?;
        }
        drop(cfg);
    }
    Ok((paper, experiments, skipped, plan))
}

/// Checks a paper's experiments (every run's configuration and trace) without running them, and
/// says what would run.
pub fn dry_run(id: &str, quick: bool) -> Result<String, String> {
    let (_, experiments, skipped, plan) = prepare(id, quick, &|_| {})?;
    Ok(format!(
        "{id}: {} experiments ({} not yet reproducible), {} simulations{}\n",
        experiments.len(),
        skipped.len(),
        plan.runs.len(),
        if quick { " (quick)" } else { "" }
    ))
}

/// Runs a paper's experiments and evaluates its claims. `progress` receives one-line notes.
pub fn reproduce(id: &str, quick: bool, progress: &dyn Fn(&str)) -> Result<Outcome, String> {
    let started = Instant::now();
    let (paper, experiments, skipped, plan) = prepare(id, quick, progress)?;
    progress(&format!(
        "{}: {} experiments, {} simulations on {} threads{}",
        id,
        experiments.len(),
        plan.runs.len(),
        rayon::current_num_threads(),
        if quick { " (quick)" } else { "" }
    ));
    let reports: Vec<std::sync::Arc<ssdgc_core::Report>> = runner::run_all(&plan.runs)?
        .into_iter()
        .map(std::sync::Arc::new)
        .collect();
    let json: Vec<serde_json::Value> = reports
        .iter()
        .map(|r| serde_json::to_value(r.as_ref()).map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()?;
    let data: Vec<claims::RunData> = json
        .iter()
        .zip(&reports)
        .map(|(j, r)| claims::RunData {
            json: j,
            gc_jobs: r.gc.invocations,
        })
        .collect();
    let ctx = claims::Context {
        experiments: &experiments,
        skipped: &skipped,
        refs: &plan.refs,
        runs: &data,
    };
    let results: Vec<ClaimResult> = paper
        .claims
        .iter()
        .map(|c| claims::evaluate(c, &ctx))
        .collect();
    let rows = plan
        .refs
        .iter()
        .map(|r| RunRow {
            experiment: r.experiment.clone(),
            label: r.label.clone(),
            vary: r.vary.clone(),
            workload: r.workload.clone(),
            seed: r.seed,
            report: reports[r.run].clone(),
        })
        .collect();
    Ok(Outcome {
        paper,
        quick,
        experiments,
        skipped,
        claims: results,
        rows,
        runs: plan.runs.len(),
        wall_s: started.elapsed().as_secs_f64(),
    })
}

/// The default output directory: `reproduce-<paper>`.
pub fn default_out(id: &str) -> PathBuf {
    PathBuf::from(format!("reproduce-{id}"))
}

/// Writes `claims.md`, `claims.json` and the CSVs into `dir`; returns the Markdown table.
pub fn write(outcome: &Outcome, dir: &Path) -> Result<String, String> {
    output::write(outcome, dir)
}
