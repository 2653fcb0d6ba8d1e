//! `claims.md`, `claims.json` and the per-experiment CSVs.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use crate::{ClaimResult, Outcome, RunRow};

fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn yes_no(a: Option<bool>) -> &'static str {
    match a {
        Some(true) => "yes",
        Some(false) => "**no**",
        None => "—",
    }
}

fn margin(m: Option<f64>) -> String {
    m.map_or("—".into(), |m| format!("{:+.1}%", m * 100.0))
}

/// The Markdown table of claims, and the list of experiments not yet reproducible.
pub fn table(o: &Outcome) -> String {
    let mut t = String::new();
    t.push_str(
        "| claim id | claim | source | paper | ssdgc | agrees in direction? | margin | GC jobs |\n",
    );
    t.push_str("|---|---|---|---|---|---|---|---:|\n");
    for c in &o.claims {
        let id = if c.headline {
            format!("**{}**", c.id)
        } else {
            c.id.clone()
        };
        let ssdgc = if c.status == "measured" {
            c.ssdgc.clone()
        } else {
            format!("{}: {}", c.status, c.detail)
        };
        let _ = writeln!(
            t,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&id),
            cell(&c.claim),
            cell(&c.source),
            cell(&c.paper),
            cell(&ssdgc),
            yes_no(c.agrees),
            margin(c.margin),
            c.gc_jobs.map_or("—".into(), |g| g.to_string())
        );
    }
    let measured: Vec<&ClaimResult> = o.claims.iter().filter(|c| c.agrees.is_some()).collect();
    let agree = measured.iter().filter(|c| c.agrees == Some(true)).count();
    let _ = writeln!(
        t,
        "\n{} claims: {} compared, {} agree in direction, {} disagree; {} simulations in {:.1} s{}.",
        o.claims.len(),
        measured.len(),
        agree,
        measured.len() - agree,
        o.runs,
        o.wall_s,
        if o.quick { " (quick)" } else { "" }
    );
    if !o.skipped.is_empty() {
        t.push_str("\nNot yet reproducible:\n\n");
        for (e, needs) in &o.skipped {
            let _ = writeln!(t, "- experiment `{}`: needs {}", e.id, needs.join("; "));
        }
    }
    t
}

fn setup(o: &Outcome) -> String {
    let p = &o.paper;
    let mut t = String::new();
    let _ = writeln!(t, "## Setup\n\n{}\n", p.setup.summary);
    t.push_str("### What the paper states\n\n| id | topic | fact | value | source | ssdgc |\n|---|---|---|---|---|---|\n");
    for i in &p.setup.items {
        let _ = writeln!(
            t,
            "| {} | {} | {} | {} | {} | {} |",
            cell(&i.id),
            cell(&i.topic),
            cell(&i.fact),
            cell(i.value.as_deref().unwrap_or("")),
            cell(&i.source),
            cell(&i.ssdgc)
        );
    }
    t.push_str("\n### What the paper leaves unsaid (`silent`): the choices made\n\n| id | question | choice | why | ssdgc |\n|---|---|---|---|---|\n");
    for s in &p.setup.silent {
        let _ = writeln!(
            t,
            "| {} | {} | {} | {} | {} |",
            cell(&s.id),
            cell(&s.question),
            cell(&s.suggestion),
            cell(&s.reason),
            cell(&s.ssdgc)
        );
    }
    if !p.setup.simulator_defaults.is_empty() {
        t.push_str("\n### Defaults of the paper's simulator (not the paper's words)\n\n| id | simulator | fact | evidence | ssdgc |\n|---|---|---|---|---|\n");
        for d in &p.setup.simulator_defaults {
            let _ = writeln!(
                t,
                "| {} | {} | {} | {} | {} |",
                cell(&d.id),
                cell(&d.simulator),
                cell(&d.fact),
                cell(&d.evidence),
                cell(&d.ssdgc)
            );
        }
    }
    if !p.contradictions.is_empty() {
        t.push_str(
            "\n### Contradictions in the paper\n\n| id | readings | choice |\n|---|---|---|\n",
        );
        for c in &p.contradictions {
            let readings: Vec<String> = c
                .readings
                .iter()
                .map(|r| format!("{}: {}", r.source, r.reading))
                .collect();
            let _ = writeln!(
                t,
                "| {} | {} | {} |",
                cell(&c.id),
                cell(&readings.join("; ")),
                cell(&c.choice)
            );
        }
    }
    t
}

fn experiments(o: &Outcome) -> String {
    let mut t = String::from("## Experiments run\n\n");
    for e in &o.experiments {
        let schemes: Vec<&str> = e.schemes.iter().map(|s| s.label()).collect();
        let _ = writeln!(
            t,
            "- `{}`: preset `{}`, sets `{}`{}, schemes {}, {} workload(s), precondition `{}`, seeds {:?}{} → `{}.csv`",
            e.id,
            e.preset,
            e.sets.join(" "),
            e.vary
                .as_ref()
                .map(|v| format!(", vary `{}` over {}", v.set, v.values.join(", ")))
                .unwrap_or_default(),
            schemes.join(", "),
            e.workload.list().len(),
            e.precondition,
            e.seeds,
            e.series_interval
                .as_ref()
                .map(|w| format!(", a series point every {w} (`{}-time-series.csv`)", e.id))
                .unwrap_or_default(),
            e.id
        );
    }
    t
}

fn details(o: &Outcome) -> String {
    let mut t = String::from("## How each figure was computed\n\n");
    for c in &o.claims {
        let _ = writeln!(t, "- `{}` ({}): {}", c.id, c.status, c.detail);
    }
    t
}

#[derive(Serialize)]
struct JsonClaim<'a> {
    id: &'a str,
    claim: &'a str,
    source: &'a str,
    headline: bool,
    paper: &'a str,
    paper_ratio: Option<f64>,
    ssdgc: &'a str,
    value: Option<f64>,
    ci95: Option<f64>,
    agrees: Option<bool>,
    margin: Option<f64>,
    gc_jobs: Option<u64>,
    status: &'a str,
    detail: &'a str,
}

#[derive(Serialize)]
struct JsonSkipped<'a> {
    experiment: &'a str,
    needs: &'a [String],
}

#[derive(Serialize)]
struct JsonOut<'a> {
    paper: &'a str,
    quick: bool,
    claims: Vec<JsonClaim<'a>>,
    not_yet_reproducible: Vec<JsonSkipped<'a>>,
}

/// The columns naming a run, first in every per-run CSV.
const RUN_COLUMNS: &str = "experiment,scheme,seed,workload,vary";

/// A run's values of [`RUN_COLUMNS`].
fn run_key(r: &RunRow) -> String {
    format!(
        "{},{},{},{},{}",
        csv_field(&r.experiment),
        csv_field(&r.label),
        r.seed,
        csv_field(&r.workload),
        csv_field(r.vary.as_deref().unwrap_or(""))
    )
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The CSV of one experiment: one row per run.
pub fn csv(o: &Outcome, experiment: &str) -> String {
    let mut t = format!(
        "{RUN_COLUMNS},requests,mean_us,std_us,p99_us,p999_us,max_us,read_mean_us,write_mean_us,waf,gc_invocations,gc_time_ms,gc_pages_moved,blocks_erased,st_us,csgc_us,cogc_us,lc_us,cngc_us,plane_gc,plane_wait_other_gc,erase_min,erase_max,erase_std\n",
    );
    for r in o.rows.iter().filter(|r| r.experiment == experiment) {
        let p = &r.report;
        let l = &p.latency_us;
        let b = &p.breakdown_us;
        let _ = writeln!(
            t,
            "{},{},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.3},{:.4},{},{:.3},{},{},{:.3},{:.3},{:.3},{:.3},{:.3},{:.5},{:.5},{},{},{:.4}",
            run_key(r),
            p.requests.total,
            l.all.mean,
            l.all.std,
            l.all.p99,
            l.all.p999,
            l.all.max,
            l.read.mean,
            l.write.mean,
            p.flash.waf,
            p.gc.invocations,
            p.gc.total_time_us / 1e3,
            p.flash.gc_pages_moved,
            p.flash.blocks_erased,
            b.st,
            b.csgc,
            b.cogc,
            b.lc,
            b.cngc,
            p.plane_util.gc,
            p.plane_util.wait_other_gc,
            p.wear.erase_min,
            p.wear.erase_max,
            p.wear.erase_std,
        );
    }
    t
}

/// The critical-path figures of one experiment's runs that report them (`host.critical_path`):
/// one row per run and, in an array, per drive (`drive` = `all` for the array). `None` when no
/// run has them.
pub fn critical_path_csv(o: &Outcome, experiment: &str) -> Option<String> {
    use ssdgc_core::metrics::EXCESS_STEPS_MS;
    let mut t = format!(
        "{RUN_COLUMNS},drive,requests,wcrt_us,write_wcrt_us,gc_overhead_us,gc_overhead_share,excess_requests,excess_us",
    );
    for s in EXCESS_STEPS_MS {
        let _ = write!(t, ",excess_over_{s}ms");
    }
    t.push_str(",back_to_back,short_idle,short_idle_s,long_idle,long_idle_s,gc_jobs,blocks_erased,on_demand,look_ahead,proactive,retroactive,delayed,dgc_fallbacks\n");
    let mut any = false;
    for r in o.rows.iter().filter(|r| r.experiment == experiment) {
        let whole = std::iter::once(("all".to_string(), r.report.as_ref()));
        let drives = r
            .report
            .drives
            .iter()
            .flatten()
            .enumerate()
            .map(|(i, d)| (i.to_string(), d));
        for (drive, p) in whole.chain(drives) {
            let Some(c) = &p.schemes.critical_path else {
                continue;
            };
            any = true;
            let a = p.schemes.agc.clone().unwrap_or_default();
            let _ = write!(
                t,
                "{},{},{},{:.3},{:.3},{:.3},{:.6},{},{:.3}",
                run_key(r),
                drive,
                p.requests.total,
                p.latency_us.all.max,
                p.latency_us.write.max,
                c.gc_overhead.total_us,
                c.gc_overhead.share,
                p.excess.requests,
                p.excess.total_us,
            );
            for e in &c.excess_over {
                let _ = write!(t, ",{}", e.requests);
            }
            let i = &c.idle;
            let _ = writeln!(
                t,
                ",{},{},{:.6},{},{:.6},{},{},{},{},{},{},{},{}",
                i.back_to_back,
                i.short,
                i.short_s,
                i.long,
                i.long_s,
                p.gc.invocations,
                p.flash.blocks_erased,
                a.on_demand,
                a.look_ahead,
                a.proactive,
                a.retroactive,
                a.delayed,
                a.dgc_fallbacks,
            );
        }
    }
    any.then_some(t)
}

/// The response time along the write requests of one experiment's runs (`series.by_write`, AGC/DGC
/// paper Figs. 8, 9): one row per point. `None` when no run has the series.
pub fn write_series_csv(o: &Outcome, experiment: &str) -> Option<String> {
    let mut t = format!("{RUN_COLUMNS},first_write,writes,mean_us,max_us\n");
    let mut any = false;
    for r in o.rows.iter().filter(|r| r.experiment == experiment) {
        let Some(points) = r.report.series.as_ref().and_then(|s| s.by_write.as_ref()) else {
            continue;
        };
        any = true;
        for p in points {
            let _ = writeln!(
                t,
                "{},{},{},{:.3},{:.3}",
                run_key(r),
                p.start,
                p.requests,
                p.mean_us,
                p.max_us
            );
        }
    }
    any.then_some(t)
}

/// The time series of one experiment's runs (`series.by_time`), when the experiment asks for one
/// (`series_interval`): one row per point (the preemptible-GC paper's Fig. 13 free blocks and
/// Fig. 1 bandwidth over time). `bandwidth_mib_s` is the point's completed bytes over its width;
/// `min_free_blocks` is empty before the first sample.
pub fn time_series_csv(o: &Outcome, experiment: &str) -> Option<String> {
    o.experiments
        .iter()
        .find(|e| e.id == experiment)?
        .series_interval
        .as_ref()?;
    let mut t = format!(
        "{RUN_COLUMNS},interval_s,start_s,requests,mean_us,max_us,p99_us,read_bytes,write_bytes,bandwidth_mib_s,min_free_blocks\n",
    );
    for r in o.rows.iter().filter(|r| r.experiment == experiment) {
        let Some(s) = r.report.series.as_ref() else {
            continue;
        };
        let (Some(points), Some(w)) = (s.by_time.as_ref(), s.interval_s) else {
            continue;
        };
        for p in points {
            let _ = writeln!(
                t,
                "{},{},{},{},{:.3},{:.3},{:.3},{},{},{:.3},{}",
                run_key(r),
                w,
                p.start,
                p.requests,
                p.mean_us,
                p.max_us,
                p.p99_us,
                p.read_bytes,
                p.write_bytes,
                (p.read_bytes + p.write_bytes) as f64 / w / (1024.0 * 1024.0),
                p.min_free_blocks.map_or(String::new(), |f| f.to_string()),
            );
        }
    }
    Some(t)
}

/// Writes every output file into `dir`; returns the Markdown table.
pub fn write(o: &Outcome, dir: &Path) -> Result<String, String> {
    let err = |p: &Path, e: std::io::Error| format!("{}: {e}", p.display());
    std::fs::create_dir_all(dir).map_err(|e| err(dir, e))?;
    let p = &o.paper.paper;
    let table = table(o);
    let mut md = format!(
        "# Reproduction of `{}`: {}\n\n{}\n\nSimulator of the paper: {}. Run with `ssdgc reproduce {}{}`.\n\n",
        p.id,
        p.title,
        p.citation,
        p.simulator,
        p.id,
        if o.quick { " --quick" } else { "" }
    );
    md.push_str(
        "ssdgc is the ratio scheme / baseline for relative and trend claims (mean over the comparison \
         groups, or the extreme in the claim's direction when the paper gives a maximum; ± the 95% \
         confidence interval across seeds), the value itself for absolute claims. Margin is \
         ssdgc / paper − 1. GC jobs are the GC invocations of every run behind the figure.\n\n## Claims\n\n",
    );
    md.push_str(&table);
    md.push('\n');
    md.push_str(&experiments(o));
    md.push('\n');
    md.push_str(&setup(o));
    md.push('\n');
    md.push_str(&details(o));
    let path = dir.join("claims.md");
    std::fs::write(&path, md).map_err(|e| err(&path, e))?;
    let json = JsonOut {
        paper: &p.id,
        quick: o.quick,
        claims: o
            .claims
            .iter()
            .map(|c| JsonClaim {
                id: &c.id,
                claim: &c.claim,
                source: &c.source,
                headline: c.headline,
                paper: &c.paper,
                paper_ratio: c.paper_ratio,
                ssdgc: &c.ssdgc,
                value: c.value.filter(|v| v.is_finite()),
                ci95: c.ci95.filter(|v| v.is_finite()),
                agrees: c.agrees,
                margin: c.margin.filter(|v| v.is_finite()),
                gc_jobs: c.gc_jobs,
                status: &c.status,
                detail: &c.detail,
            })
            .collect(),
        not_yet_reproducible: o
            .skipped
            .iter()
            .map(|(e, n)| JsonSkipped {
                experiment: &e.id,
                needs: n,
            })
            .collect(),
    };
    let path = dir.join("claims.json");
    let text = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
    std::fs::write(&path, text + "\n").map_err(|e| err(&path, e))?;
    for e in &o.experiments {
        let path = dir.join(format!("{}.csv", e.id));
        std::fs::write(&path, csv(o, &e.id)).map_err(|e| err(&path, e))?;
        for (suffix, text) in [
            ("critical-path", critical_path_csv(o, &e.id)),
            ("write-series", write_series_csv(o, &e.id)),
            ("time-series", time_series_csv(o, &e.id)),
        ] {
            if let Some(text) = text {
                let path = dir.join(format!("{}-{suffix}.csv", e.id));
                std::fs::write(&path, text).map_err(|e| err(&path, e))?;
            }
        }
    }
    Ok(table)
}
