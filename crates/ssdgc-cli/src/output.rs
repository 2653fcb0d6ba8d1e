//! What a command prints or writes: the comparison table, the seeds summary, CSV rows and the
//! latency distribution.

use std::io::Write;
use std::path::Path;

use serde_json::Value;
use ssdgc_core::metrics::seeds::SeedsReport;
use ssdgc_core::metrics::LatencyClass;
use ssdgc_core::Report;

use crate::UserError;

/// Widest table the comparison aims at: past it, runs become rows.
pub const MAX_WIDTH: usize = 100;

/// How a figure is printed.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// A count.
    Int,
    /// One decimal.
    F1,
    /// Three decimals.
    F3,
}

type Get = fn(&Report) -> f64;

/// The comparison's figures: name, kind, value.
const FIGURES: &[(&str, Kind, Get)] = &[
    ("requests", Kind::Int, |r| r.requests.total as f64),
    ("mean us", Kind::F1, |r| r.latency_us.all.mean),
    ("p50 us", Kind::F1, |r| r.latency_us.all.p50),
    ("p90 us", Kind::F1, |r| r.latency_us.all.p90),
    ("p99 us", Kind::F1, |r| r.latency_us.all.p99),
    ("p99.9 us", Kind::F1, |r| r.latency_us.all.p999),
    ("p99.99 us", Kind::F1, |r| r.latency_us.all.p9999),
    ("max us", Kind::F1, |r| r.latency_us.all.max),
    ("read mean us", Kind::F1, |r| r.latency_us.read.mean),
    ("read p99 us", Kind::F1, |r| r.latency_us.read.p99),
    ("read p99.9 us", Kind::F1, |r| r.latency_us.read.p999),
    ("write mean us", Kind::F1, |r| r.latency_us.write.mean),
    ("write p99 us", Kind::F1, |r| r.latency_us.write.p99),
    ("write p99.9 us", Kind::F1, |r| r.latency_us.write.p999),
    ("WAF", Kind::F3, |r| r.flash.waf),
    ("GC jobs", Kind::Int, |r| r.gc.invocations as f64),
    ("GC time ms", Kind::F1, |r| r.gc.total_time_us / 1e3),
    ("pages moved", Kind::Int, |r| r.flash.gc_pages_moved as f64),
    ("blocks erased", Kind::Int, |r| r.flash.blocks_erased as f64),
    ("erase max", Kind::Int, |r| r.wear.erase_max as f64),
    ("over 30 ms", Kind::Int, |r| r.excess.requests as f64),
];

/// The figures of the transposed table (runs as rows), by name.
const COMPACT: &[&str] = &[
    "mean us",
    "p99 us",
    "p99.9 us",
    "read p99 us",
    "write p99 us",
    "WAF",
    "GC jobs",
];

/// One run of the comparison: its label and its reports (one per seed, the first first).
pub struct Run<'a> {
    pub label: &'a str,
    pub reports: &'a [Report],
}

impl Run<'_> {
    /// The figure's value: the first report's, or the mean over seeds with the 95 % half-width.
    fn value(&self, get: Get) -> (f64, Option<f64>) {
        if self.reports.len() == 1 {
            return (get(&self.reports[0]), None);
        }
        let f = ssdgc_core::metrics::seeds::figure(self.reports.iter().map(get).collect());
        (f.mean, Some(f.ci95_high - f.mean))
    }
}

fn cell(kind: Kind, (v, half): (f64, Option<f64>)) -> String {
    // Every seed gave the same value.
    let half = half.filter(|&h| h != 0.0);
    let kind = if half.is_some() && kind == Kind::Int {
        Kind::F1
    } else {
        kind
    };
    let s = match kind {
        Kind::Int => format!("{}", v.round() as u64),
        Kind::F1 => format!("{v:.1}"),
        Kind::F3 => format!("{v:.3}"),
    };
    match (half, kind) {
        (Some(h), Kind::F3) => format!("{s}±{h:.3}"),
        (Some(h), _) => format!("{s}±{h:.1}"),
        (None, _) => s,
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
    let mut s = format!(
        "{}ch {}chips {}dies {}planes, {} blocks of {} x {} B pages, op {:.2}, gc at {:.2}, {}",
        d.channels,
        d.chips_per_channel,
        d.dies_per_chip,
        d.planes_per_die,
        d.blocks_per_plane,
        d.pages_per_block,
        d.page_size,
        d.overprovision,
        d.gc_threshold,
        d.allocation
    );
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
        "workload: {} ({})\n",
        first.workload.name, first.workload.format
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
    let figures: Vec<&(&str, Kind, Get)> = FIGURES
        .iter()
        .filter(|(n, _, _)| {
            (reads || !n.starts_with("read ")) && (writes || !n.starts_with("write "))
        })
        .collect();
    // Runs as columns: the widest value of each column.
    let cells: Vec<Vec<(String, String)>> = figures
        .iter()
        .map(|(_, kind, get)| {
            let b = base.value(*get).0;
            runs.iter()
                .map(|r| {
                    let v = r.value(*get);
                    (cell(*kind, v), ratio(v.0, b))
                })
                .collect()
        })
        .collect();
    let name_w = figures.iter().map(|f| f.0.len()).max().unwrap_or(0);
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
        for ((name, _, _), row) in figures.iter().zip(&cells) {
            out.push_str(&format!("{name:<name_w$}"));
            for ((v, q), w) in row.iter().zip(&widths) {
                out.push_str(&format!(" {v:>w$} {q:>ratio_w$}"));
            }
            out.push('\n');
        }
        return out;
    }
    // Runs as rows: the compact figures and the ratio of the tail to the first run.
    let compact: Vec<&(&str, Kind, Get)> = figures
        .iter()
        .copied()
        .filter(|f| COMPACT.contains(&f.0))
        .collect();
    let tail = figures
        .iter()
        .find(|f| f.0 == "p99.9 us")
        .map(|f| f.2)
        .expect("p99.9 is a figure");
    let mut rows: Vec<Vec<String>> = runs
        .iter()
        .map(|r| {
            let mut row = vec![r.label.to_string()];
            row.extend(compact.iter().map(|(_, k, g)| cell(*k, r.value(*g))));
            row.push(ratio(r.value(tail).0, base.value(tail).0));
            row
        })
        .collect();
    let mut head = vec!["run".to_string()];
    head.extend(compact.iter().map(|f| f.0.to_string()));
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

/// The seeds section as text, after a run's report.
pub fn seeds_text(s: &SeedsReport) -> String {
    let (lo, hi) = (s.seeds[0], s.seeds[s.seeds.len() - 1]);
    let mut out = format!(
        "\nover {} seeds ({lo}..{hi}): mean [95% confidence interval]\n",
        s.seeds.len()
    );
    let w = s.figures.keys().map(String::len).max().unwrap_or(0);
    for (name, f) in &s.figures {
        // A class of requests the workload does not have.
        if (name.starts_with("latency_us.read.") || name.starts_with("latency_us.write."))
            && f.values.iter().all(|&v| v == 0.0)
        {
            continue;
        }
        out.push_str(&format!(
            "  {name:<w$} {:>14.3} [{:.3}, {:.3}]\n",
            f.mean, f.ci95_low, f.ci95_high
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
        assert_eq!(cell(Kind::Int, (1635.0, None)), "1635");
        assert_eq!(cell(Kind::F1, (12.345, None)), "12.3");
        assert_eq!(cell(Kind::F3, (2.5, Some(0.01))), "2.500±0.010");
        assert_eq!(cell(Kind::Int, (10.5, Some(1.25))), "10.5±1.2");
        assert_eq!(cell(Kind::Int, (1000.0, Some(0.0))), "1000");
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
