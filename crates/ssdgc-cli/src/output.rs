//! What a command prints or writes: the comparison table, the seeds summary, CSV rows and the
//! latency distribution.

use std::io::Write;
use std::path::Path;

use serde_json::Value;
use ssdgc_core::metrics::headline::HEADLINE;
use ssdgc_core::metrics::seeds::SeedsReport;
use ssdgc_core::metrics::LatencyClass;
use ssdgc_core::Report;

use crate::UserError;

/// Widest table the comparison aims at: past it, runs become rows.
pub const MAX_WIDTH: usize = 100;

/// The figures of the transposed table (runs as rows), by key.
const COMPACT: &[&str] = &[
    "mean_us",
    "p99_us",
    "p999_us",
    "read_p99_us",
    "write_p99_us",
    "waf",
    "gc_invocations",
];

/// One run of the comparison: its label and its reports (one per seed, the first first).
pub struct Run<'a> {
    pub label: &'a str,
    pub reports: &'a [Report],
}

impl Run<'_> {
    /// Each headline figure ([`HEADLINE`] order): the first report's, or the mean over seeds with
    /// the 95 % half-width.
    fn values(&self) -> Vec<(f64, Option<f64>)> {
        let per_seed: Vec<Vec<(&str, f64)>> = self.reports.iter().map(Report::headline).collect();
        (0..HEADLINE.len())
            .map(|i| {
                if per_seed.len() == 1 {
                    return (per_seed[0][i].1, None);
                }
                let f =
                    ssdgc_core::metrics::seeds::figure(per_seed.iter().map(|v| v[i].1).collect());
                (f.mean, Some(f.ci95_high - f.mean))
            })
            .collect()
    }
}

/// A value as a table shows it: with `decimals` (0: a count), ± the half-width over seeds when
/// the seeds differ (a count then with one decimal).
fn cell(decimals: usize, (v, half): (f64, Option<f64>)) -> String {
    // Every seed gave the same value.
    let half = half.filter(|&h| h != 0.0);
    let decimals = if half.is_some() {
        decimals.max(1)
    } else {
        decimals
    };
    let s = if decimals == 0 {
        format!("{}", v.round() as u64)
    } else {
        format!("{v:.decimals$}")
    };
    match half {
        Some(h) => format!("{s}±{h:.decimals$}"),
        None => s,
    }
}

fn ratio(v: f64, base: f64) -> String {
    if base != 0.0 {
        format!("{:.3}", v / base)
    } else if v == 0.0 {
        "1".into()
    } else {
        "-".into()
    }
}

/// The drive of a report, in one short line.
fn drive_line(r: &Report) -> String {
    let d = &r.drive;
    let mut s = d.to_string();
    if let Some(a) = &d.array {
        s.push_str(&format!(", RAID-0 of {}", a.drives));
    }
    s
}

/// The comparison table: figures as rows and runs as columns (each value beside its ratio to the
/// first run) when that fits in [`MAX_WIDTH`] columns, runs as rows otherwise.
pub fn compare_table(runs: &[Run<'_>]) -> String {
    let base = &runs[0];
    let first = &base.reports[0];
    let mut out = String::new();
    // One line per distinct drive; when they differ, the runs of each.
    let drives: Vec<String> = runs.iter().map(|r| drive_line(&r.reports[0])).collect();
    let mut distinct: Vec<&String> = Vec::new();
    for d in &drives {
        if !distinct.contains(&d) {
            distinct.push(d);
        }
    }
    for d in &distinct {
        out.push_str(&format!("drive: {d}\n"));
        if distinct.len() > 1 {
            let of: Vec<&str> = runs
                .iter()
                .zip(&drives)
                .filter(|(_, x)| x == d)
                .map(|(r, _)| r.label)
                .collect();
            out.push_str(&format!("  for {}\n", of.join(", ")));
        }
    }
    out.push_str(&format!(
        "workload: {} ({})\n{} requests; ",
        first.workload.name, first.workload.format, first.requests.total
    ));
    let seeds = base.reports.len();
    if seeds > 1 {
        out.push_str(&format!(
            "values: means over {seeds} seeds ({}..{}), ± the 95% confidence half-width; ratios to {}\n",
            first.seed,
            base.reports[seeds - 1].seed,
            base.label
        ));
    } else {
        out.push_str(&format!("ratios to {}\n", base.label));
    }
    let any = |f: fn(&Report) -> u64| runs.iter().any(|r| r.reports.iter().any(|x| f(x) > 0));
    let (reads, writes) = (any(|r| r.requests.reads), any(|r| r.requests.writes));
    // The figures shown (a class of requests no run has is left out), as indices into HEADLINE.
    let figures: Vec<usize> = (0..HEADLINE.len())
        .filter(|&i| match HEADLINE[i].class() {
            Some("read") => reads,
            Some("write") => writes,
            _ => true,
        })
        .collect();
    let values: Vec<Vec<(f64, Option<f64>)>> = runs.iter().map(Run::values).collect();
    // Runs as columns: the widest value of each column.
    let cells: Vec<Vec<(String, String)>> = figures
        .iter()
        .map(|&i| {
            let b = values[0][i].0;
            values
                .iter()
                .map(|v| (cell(HEADLINE[i].decimals, v[i]), ratio(v[i].0, b)))
                .collect()
        })
        .collect();
    let name_w = figures
        .iter()
        .map(|&i| HEADLINE[i].label.len())
        .max()
        .unwrap_or(0);
    let widths: Vec<usize> = (0..runs.len())
        .map(|j| {
            cells
                .iter()
                .map(|row| row[j].0.chars().count())
                .chain([runs[j].label.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let ratio_w = 6;
    let total: usize = name_w + widths.iter().map(|w| w + 2 + ratio_w).sum::<usize>();
    out.push('\n');
    if total <= MAX_WIDTH {
        out.push_str(&format!("{:<name_w$}", ""));
        for (r, w) in runs.iter().zip(&widths) {
            out.push_str(&format!(" {:>w$} {:>ratio_w$}", r.label, "ratio"));
        }
        out.push('\n');
        for (&i, row) in figures.iter().zip(&cells) {
            out.push_str(&format!("{:<name_w$}", HEADLINE[i].label));
            for ((v, q), w) in row.iter().zip(&widths) {
                out.push_str(&format!(" {v:>w$} {q:>ratio_w$}"));
            }
            out.push('\n');
        }
        return out;
    }
    // Runs as rows: the compact figures and the ratio of the tail to the first run.
    let compact: Vec<usize> = figures
        .iter()
        .copied()
        .filter(|&i| COMPACT.contains(&HEADLINE[i].key))
        .collect();
    let tail = HEADLINE
        .iter()
        .position(|f| f.key == "p999_us")
        .expect("p99.9 is a headline figure");
    let mut rows: Vec<Vec<String>> = runs
        .iter()
        .zip(&values)
        .map(|(r, v)| {
            let mut row = vec![r.label.to_string()];
            row.extend(compact.iter().map(|&i| cell(HEADLINE[i].decimals, v[i])));
            row.push(ratio(v[tail].0, values[0][tail].0));
            row
        })
        .collect();
    let mut head = vec!["run".to_string()];
    head.extend(compact.iter().map(|&i| HEADLINE[i].label.to_string()));
    head.push("p99.9 ratio".into());
    rows.insert(0, head);
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|j| rows.iter().map(|r| r[j].chars().count()).max().unwrap_or(0))
        .collect();
    for row in &rows {
        let mut line = format!("{:<w$}", row[0], w = widths[0]);
        for (v, w) in row.iter().zip(&widths).skip(1) {
            line.push_str(&format!(" {v:>w$}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The seeds section as text, after a run's report: the headline figures in table order (a
/// class of requests the workload does not have left out).
pub fn seeds_text(s: &SeedsReport) -> String {
    let (lo, hi) = (s.seeds[0], s.seeds[s.seeds.len() - 1]);
    let mut out = format!(
        "\nover {} seeds ({lo}..{hi}): mean [95% confidence interval]\n",
        s.seeds.len()
    );
    let w = HEADLINE.iter().map(|f| f.label.len()).max().unwrap_or(0);
    for fig in &HEADLINE {
        let Some(f) = s.figures.get(fig.key) else {
            continue;
        };
        if fig.class().is_some() && f.values.iter().all(|&v| v == 0.0) {
            continue;
        }
        let d = fig.decimals.max(1);
        out.push_str(&format!(
            "  {:<w$} {:>14.d$} [{:.d$}, {:.d$}]\n",
            fig.label, f.mean, f.ci95_low, f.ci95_high
        ));
    }
    out
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Keys left out of the CSV rows: arrays and nested reports.
const CSV_SKIP: &[&str] = &["drives", "series", "seeds"];

fn flatten(v: &Value, prefix: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let key = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                if prefix.is_empty() && CSV_SKIP.contains(&k.as_str()) {
                    continue;
                }
                flatten(x, &key, out);
            }
        }
        Value::Array(_) => {}
        Value::Null => out.push((prefix.to_string(), String::new())),
        Value::String(s) => out.push((prefix.to_string(), s.clone())),
        other => out.push((prefix.to_string(), other.to_string())),
    }
}

/// The reports as CSV: a header (`run`, then every scalar key of the reports, dotted, in the
/// order of their first appearance), then one row per report; a key a report lacks is empty.
pub fn csv(rows: &[(&str, &Report)]) -> String {
    let flat: Vec<Vec<(String, String)>> = rows
        .iter()
        .map(|(_, r)| {
            let mut f = Vec::new();
            flatten(
                &serde_json::to_value(r).expect("a report serialises"),
                "",
                &mut f,
            );
            f
        })
        .collect();
    let mut keys: Vec<&str> = Vec::new();
    for f in &flat {
        for (k, _) in f {
            if !keys.contains(&k.as_str()) {
                keys.push(k);
            }
        }
    }
    let mut out = String::from("run");
    for k in &keys {
        out.push(',');
        out.push_str(&csv_field(k));
    }
    out.push('\n');
    for ((label, _), f) in rows.iter().zip(&flat) {
        out.push_str(&csv_field(label));
        for k in &keys {
            out.push(',');
            if let Some((_, v)) = f.iter().find(|(x, _)| x == k) {
                out.push_str(&csv_field(v));
            }
        }
        out.push('\n');
    }
    out
}

/// Writes the CDFs of `runs` to `path` as CSV: `class,value_us,share`, with a leading `run`
/// column (the run's label) when `labelled`.
pub fn write_cdf(path: &Path, runs: &[(&str, &Report)], labelled: bool) -> Result<(), UserError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_print_counts_as_integers() {
        assert_eq!(cell(0, (1635.0, None)), "1635");
        assert_eq!(cell(1, (12.345, None)), "12.3");
        assert_eq!(cell(3, (2.5, Some(0.01))), "2.500±0.010");
        assert_eq!(cell(0, (10.5, Some(1.25))), "10.5±1.2");
        assert_eq!(cell(0, (1000.0, Some(0.0))), "1000");
        assert_eq!(ratio(5.0, 10.0), "0.500");
        assert_eq!(ratio(0.0, 0.0), "1");
        assert_eq!(ratio(3.0, 0.0), "-");
    }

    #[test]
    fn csv_fields_are_quoted_when_needed() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
