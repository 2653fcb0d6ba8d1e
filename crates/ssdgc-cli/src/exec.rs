//! Running a command's runs: every point with every seed, each set up by `ssdgc_core::setup`
//! (`setup::job`) and run by `ssdgc_core::batch` (on every core, each distinct drive aged once),
//! with the per-request logs, the aged-state files and the progress bars the options ask for.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use ssdgc_core::ageing::AgedState;
use ssdgc_core::batch;
use ssdgc_core::metrics::request_log::{CsvLog, SharedSink};
use ssdgc_core::setup::{self as core_setup, RunSettings};
use ssdgc_core::{Report, Simulator};

use crate::args::Common;
use crate::plan::{Point, MAX_RUNS};
use crate::progress::Bar;
use crate::setup::{run_settings, workload_spec};
use crate::UserError;

/// A per-request log written to a file, shared with the run that fills it.
type FileLog = SharedSink<CsvLog<std::io::BufWriter<std::fs::File>>>;

/// One run: a point and a seed.
#[derive(Clone, Copy, Debug)]
pub struct RunRef {
    pub point: usize,
    pub seed: u64,
}

/// The runs of `points`, each with `c.seeds` seeds from `c.seed`, points first.
pub fn runs(c: &Common, points: &[Point]) -> Result<Vec<RunRef>, UserError> {
    if c.seeds == 0 {
        return Err(UserError("--seeds must be at least 1".into()));
    }
    let total = (points.len() as u64).saturating_mul(c.seeds);
    if total > MAX_RUNS as u64 {
        return Err(UserError(format!(
            "{} points × {} seeds = {total} runs, more than {MAX_RUNS}",
            points.len(),
            c.seeds
        )));
    }
    if c.seed.checked_add(c.seeds - 1).is_none() {
        return Err(UserError(format!(
            "--seed {} with --seeds {}: the last seed overflows 64 bits",
            c.seed, c.seeds
        )));
    }
    Ok((0..points.len())
        .flat_map(|p| {
            (0..c.seeds).map(move |s| RunRef {
                point: p,
                seed: c.seed + s,
            })
        })
        .collect())
}

/// Where run `r` writes its per-request log: `FILE` for a lone run, otherwise FILE's stem with
/// the run's label (characters other than letters, digits, `.`, `-` and `_` as `_`) and, with
/// several seeds, `seed-N`, joined by `.`: `lat.csv` → `lat.gc=zero_victim=fifo.seed-2.csv`
/// (`=` kept).
pub fn log_path(file: &Path, label: &str, seed: Option<u64>) -> PathBuf {
    let clean: String = label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-=".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name = format!("{stem}.{clean}");
    if let Some(s) = seed {
        name.push_str(&format!(".seed-{s}"));
    }
    if let Some(ext) = file.extension() {
        name.push('.');
        name.push_str(&ext.to_string_lossy());
    }
    file.with_file_name(name)
}

/// Reads an aged state kept by `--save-state`.
fn load_state(path: &Path, sim: &Simulator) -> Result<AgedState, UserError> {
    let err = |m: String| UserError(format!("--load-state {}: {m}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| err(format!("cannot open: {e}")))?;
    let key = sim.ageing_key()?;
    AgedState::read_from(std::io::BufReader::new(file), &key, sim.drive_config()).map_err(err)
}

/// Writes an aged state to `path` (through a temporary file beside it, renamed when complete).
fn save_state(path: &Path, state: &AgedState) -> Result<(), UserError> {
    let err = |m: String| UserError(format!("--save-state {}: {m}", path.display()));
    let tmp = path.with_extension("partial");
    let file = std::fs::File::create(&tmp).map_err(|e| err(format!("cannot create: {e}")))?;
    state
        .write_to(std::io::BufWriter::new(file))
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            err(format!("cannot write: {e}"))
        })
}

/// Runs `runs` of `points`; the reports in the order of `runs`.
pub fn execute(c: &Common, points: &[Point], runs: &[RunRef]) -> Result<Vec<Report>, UserError> {
    let several = runs.len() > 1;
    let multi = (!c.quiet && std::io::stderr().is_terminal()).then(indicatif::MultiProgress::new);
    let logs: Vec<Option<(PathBuf, FileLog)>> = runs
        .iter()
        .map(|r| {
            let Some(file) = &c.latency_log else {
                return Ok(None);
            };
            let path = if several {
                let label = &points[r.point].label;
                log_path(file, label, (c.seeds > 1).then_some(r.seed))
            } else {
                file.clone()
            };
            let f = std::fs::File::create(&path).map_err(|e| {
                UserError(format!(
                    "--latency-log {}: cannot create: {e}",
                    path.display()
                ))
            })?;
            Ok(Some((
                path,
                SharedSink::new(CsvLog::new(std::io::BufWriter::new(f))),
            )))
        })
        .collect::<Result<_, UserError>>()?;
    let workload = workload_spec(c);
    let settings: Vec<RunSettings> = points
        .iter()
        .map(|p| run_settings(c, &p.overrides))
        .collect();
    // An aged state to start from, or to keep: all runs must age alike.
    let mut preloaded = None;
    if c.load_state.is_some() || c.save_state.is_some() {
        let p0 = runs[0].point;
        let first = core_setup::simulator(&points[p0].cfg, &workload, &settings[p0], runs[0].seed)?;
        let key = first.ageing_key()?;
        for r in &runs[1..] {
            let p = &points[r.point];
            let k = core_setup::check(&p.cfg, &workload, &settings[r.point], r.seed)?;
            if let Some(why) = k.mismatch(&key) {
                let what = if c.load_state.is_some() {
                    "--load-state"
                } else {
                    "--save-state"
                };
                return Err(UserError(format!(
                    "{what} needs runs that age alike, but {} differs from {}: {why}",
                    p.label, points[p0].label
                )));
            }
        }
        let state = match &c.load_state {
            Some(path) => load_state(path, &first)?,
            None => {
                let mut sim = first;
                let mut bar = Bar::new(multi.as_ref(), "ageing");
                sim.precondition(&mut |p| bar.update(p))?;
                bar.finish();
                sim.aged_state()?
            }
        };
        if let Some(path) = &c.save_state {
            save_state(path, &state)?;
        }
        preloaded = Some(state);
    }
    let jobs = runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let p = &points[r.point];
            let sink = logs[i].as_ref().map(|(_, s)| s.clone());
            let label = if c.seeds > 1 {
                format!("{} seed {}", p.label, r.seed)
            } else {
                p.label.clone()
            };
            let mut bar = Some(Bar::new(multi.as_ref(), &label));
            core_setup::job(
                &p.cfg,
                &workload,
                &settings[r.point],
                r.seed,
                move |sim: &mut Simulator| {
                    if let Some(s) = &sink {
                        sim.set_request_sink(Box::new(s.clone()));
                    }
                    Ok(())
                },
                Some(Box::new(move |p| {
                    if let Some(b) = bar.as_mut() {
                        b.update(p);
                    }
                })),
            )
            .map_err(UserError)
        })
        .collect::<Result<Vec<_>, UserError>>()?;
    let results = batch::run(jobs, preloaded.as_ref());
    let mut reports = Vec::with_capacity(results.len());
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Ok(rep) => reports.push(rep),
            Err(e) => {
                let msg = e.to_string();
                return Err(UserError(if several {
                    format!("{}: {msg}", points[runs[i].point].label)
                } else {
                    msg
                }));
            }
        }
    }
    for (path, shared) in logs.into_iter().flatten() {
        let log = shared
            .into_inner()
            .expect("every simulator has dropped its handle to the log");
        log.finish().map_err(|e| {
            UserError(format!(
                "--latency-log {}: cannot write: {e}",
                path.display()
            ))
        })?;
    }
    Ok(reports)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_paths_name_the_run() {
        let f = Path::new("out/lat.csv");
        assert_eq!(
            log_path(f, "gc=zero victim=rga:8", Some(3)),
            Path::new("out/lat.gc=zero_victim=rga_8.seed-3.csv")
        );
        assert_eq!(
            log_path(f, "baseline", None),
            Path::new("out/lat.baseline.csv")
        );
        assert_eq!(
            log_path(Path::new("log"), "pgc", None),
            Path::new("log.pgc")
        );
    }
}
