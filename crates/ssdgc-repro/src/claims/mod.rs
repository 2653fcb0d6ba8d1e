//! From reports to claims: which runs a claim compares, ssdgc's figure, and how it stands against
//! the paper's.
//!
//! - A claim's runs are those of every runnable experiment that lists it.
//! - Each side (`baseline.ssdgc`, `scheme.ssdgc`) selects schemes by label (or by scheme name and
//!   its own overrides), may fix the experiment's `vary` value (`gc.hard_threshold = 0.04`) and may
//!   pick synthetic workloads by parameter (`read = 0.2`). The claim's `workload.ssdgc` narrows the
//!   experiment's workloads to those it names.
//! - A relative claim pairs a scheme run with the baseline run of the same seed (and workload and
//!   vary value unless a side fixes them) and takes the ratio scheme / baseline of the metric; a
//!   claim comparing two quantities of one run (`metric = "A versus B"`) takes B-side / A-side of
//!   each run; an absolute claim takes the metric of each run.
//! - Per seed, the figures of every group (scheme label, workload, vary value, experiment) are
//!   aggregated: the extreme in the claim's direction when the paper gives a maximum ("up to"),
//!   else the mean. Across seeds: the mean and a 95% Student-t confidence interval.
//! - A run in which no GC ran (absolute), or a pair in which neither run did (relative), cannot
//!   test a claim about GC: it is left out (and counted in the detail); a claim left with none is
//!   *not measured*, saying so.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;
use serde_json::Value;

use crate::paper::{Claim, Direction, Experiment, Kind};
use crate::runner::RunRef;

mod series;
pub use series::{SeriesAgg, SeriesField, SeriesStat};

/// How close an `equal` claim must be: |ratio − 1| (relative) or |value / paper − 1| (absolute).
pub const EQUAL_TOLERANCE: f64 = 0.05;
/// How close an absolute figure must be to the paper's to agree.
pub const ABSOLUTE_TOLERANCE: f64 = 0.25;

/// A metric as an expression on a report's JSON: (sum of `num`) / (sum of `den`), squared when
/// `square` (variance from std); or, when `series` is set, a statistic over the points of the
/// report's time series (`num` and `den` are then empty).
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub num: Vec<String>,
    pub den: Vec<String>,
    pub square: bool,
    pub series: Option<SeriesStat>,
    pub text: String,
}

impl Expr {
    fn path(p: &str) -> Expr {
        Expr {
            num: vec![p.to_string()],
            den: vec![],
            square: false,
            series: None,
            text: p.to_string(),
        }
    }

    /// The value on one report, or `None` when a field is missing or the denominator is zero.
    pub fn eval(&self, report: &Value) -> Option<f64> {
        if let Some(s) = &self.series {
            return s.eval(report);
        }
        let sum = |paths: &[String]| -> Option<f64> {
            paths.iter().map(|p| lookup(report, p)).sum::<Option<f64>>()
        };
        let mut v = sum(&self.num)?;
        if !self.den.is_empty() {
            let d = sum(&self.den)?;
            if d == 0.0 {
                return None;
            }
            v /= d;
        }
        Some(if self.square { v * v } else { v })
    }
}

/// `a.b.c` in a JSON value, as a number.
pub fn lookup(v: &Value, path: &str) -> Option<f64> {
    let mut cur = v;
    for k in path.split('.') {
        cur = cur.get(k)?;
    }
    cur.as_f64()
}

/// Report sections whose fields a metric may name.
const SECTIONS: &[&str] = &[
    "latency_us",
    "breakdown_us",
    "plane_util",
    "excess",
    "flash",
    "gc",
    "schemes",
    "buffer",
    "wear",
    "requests",
    "ftl",
    "sim",
    "series",
];

/// A sum of report paths (`breakdown_us.csgc + cogc + lc`: bare names inherit the previous
/// path's section), ignoring parenthesised remarks and a trailing `under …`.
fn parse_sum(text: &str) -> Option<Vec<String>> {
    let mut t = text.to_string();
    while let (Some(a), Some(b)) = (t.find('('), t.find(')')) {
        if b < a {
            break;
        }
        let inner = &t[a + 1..b];
        // Keep parentheses that group paths: `(a + b) / c`.
        if inner.contains('.') && inner.contains('+') {
            t = format!("{} {} {}", &t[..a], inner, &t[b + 1..]);
        } else {
            t = format!("{} {}", &t[..a], &t[b + 1..]);
        }
    }
    if let Some(i) = t.find(" under ") {
        t.truncate(i);
    }
    let mut out: Vec<String> = Vec::new();
    for part in t.split('+') {
        let p = part.trim();
        if p.is_empty()
            || !p
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        {
            return None;
        }
        if p.contains('.') {
            let section = p.split('.').next().unwrap_or("");
            if !SECTIONS.contains(&section) {
                return None;
            }
            out.push(p.to_string());
        } else {
            let prev = out.last()?;
            let prefix = &prev[..prev.rfind('.')?];
            out.push(format!("{prefix}.{p}"));
        }
    }
    (!out.is_empty()).then_some(out)
}

/// A path expression: `A`, `A + B`, `(A + B) / C`.
pub fn parse_expr(text: &str) -> Option<Expr> {
    let (num, den) = match text.split_once(" / ") {
        Some((a, b)) => (a, Some(b)),
        None => (text, None),
    };
    let num = parse_sum(num)?;
    let den = match den {
        Some(d) => parse_sum(d)?,
        None => vec![],
    };
    Some(Expr {
        num,
        den,
        square: false,
        series: None,
        text: text.trim().to_string(),
    })
}

/// The first parenthesised report field path of a metric's text (`a.b` or deeper, lowercase
/// letters, digits and underscores), if any.
fn parenthesised_path(metric: &str) -> Option<&str> {
    metric.split('(').skip(1).find_map(|rest| {
        let inner = rest.split(')').next()?.trim();
        let is_path = inner.contains('.')
            && inner.split('.').all(|part| {
                !part.is_empty()
                    && part
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
            });
        is_path.then_some(inner)
    })
}

/// The report expression for a claim's `metric`, or why it cannot be measured.
pub fn metric_expr(metric: &str) -> Result<Expr, String> {
    if metric.contains("(series.by_time.") {
        let Some(stat) = SeriesStat::parse(metric) else {
            return Err(format!(
                "metric '{metric}': a series statistic is min, max, mean or cv of \
                 series.by_time.FIELD (FIELD one of {})",
                SeriesField::ALL.map(|(n, _)| n).join(", ")
            ));
        };
        let at = metric.find("(series.by_time.").unwrap_or(0);
        let start = metric[..at]
            .rfind(|c: char| !c.is_ascii_alphabetic())
            .map_or(0, |i| i + 1);
        let end = at + metric[at..].find(')').map_or(0, |i| i + 1);
        return Ok(Expr {
            num: vec![],
            den: vec![],
            square: false,
            series: Some(stat),
            text: metric[start..end].to_string(),
        });
    }
    if let Some(e) = parse_expr(metric) {
        return Ok(e);
    }
    // A report field named in parentheses ("erase-count spread (wear.erase_std)") is the metric,
    // whatever words stand around it.
    if let Some(path) = parenthesised_path(metric) {
        return Ok(Expr::path(path));
    }
    let m = metric.to_lowercase();
    let missing = [
        (
            "single-page",
            "the report has no response time by request size",
        ),
        (
            "coefficient of variation of bandwidth",
            "name the series statistic: cv(series.by_time.bandwidth)",
        ),
        (
            "minimum free blocks",
            "name the series statistic: min(series.by_time.min_free_blocks)",
        ),
    ];
    for (needle, why) in missing {
        if m.contains(needle) {
            return Err(why.to_string());
        }
    }
    let std = "latency_us.all.std";
    let e = if m.contains("variance of") || m.starts_with("variance") {
        Expr {
            square: true,
            text: "latency_us.all.std²".into(),
            ..Expr::path(std)
        }
    } else if m.contains("std") {
        Expr::path(std)
    } else if m.contains("maximum response time") {
        Expr::path("latency_us.all.max")
    } else if m.contains("p99.9") {
        Expr::path("latency_us.all.p999")
    } else if m.contains("p99") {
        Expr::path("latency_us.all.p99")
    } else if m.contains("read") && m.contains("mean response time") {
        Expr::path("latency_us.read.mean")
    } else if m.contains("mean response time") || m.starts_with("response time") {
        Expr::path("latency_us.all.mean")
    } else if m.contains("waf") || m.contains("write amplification") {
        Expr::path("flash.waf")
    } else if m.contains("gc time") {
        Expr::path("gc.total_time_us")
    } else {
        return Err(format!("metric '{metric}' has no report field"));
    };
    Ok(e)
}

/// A side's selection of runs in one experiment.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Selection {
    labels: BTreeSet<String>,
    vary: Option<String>,
    /// Synthetic parameters the workload must have (`read=0.2`).
    params: Vec<String>,
}

/// Removes whitespace around `=` (`gc.preempt = none` → `gc.preempt=none`).
fn squash(s: &str) -> String {
    let mut out = String::new();
    for part in s.split('=') {
        if !out.is_empty() {
            while out.ends_with(char::is_whitespace) {
                out.pop();
            }
            out.push('=');
            out.push_str(part.trim_start());
        } else {
            out.push_str(part);
        }
    }
    out
}

fn tokens(s: &str) -> Vec<String> {
    s.split(|c: char| !(c.is_ascii_alphanumeric() || "_.:-".contains(c)))
        .filter(|t| !t.is_empty())
        .map(|t| t.trim_end_matches('.').to_string())
        .collect()
}

/// True when `needle` occurs in `hay` not followed by a digit or a point (so `=1` is not `=1.5`).
fn contains_value(hay: &str, needle: &str) -> bool {
    let mut from = 0;
    while let Some(i) = hay[from..].find(needle) {
        let end = from + i + needle.len();
        let next = hay[end..].chars().next();
        let prev = hay[..from + i].chars().next_back();
        let prev_ok = prev.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'));
        if prev_ok && next.is_none_or(|c| !(c.is_ascii_digit() || c == '.')) {
            return true;
        }
        from += i + 1;
    }
    false
}

const SYNTHETIC_KEYS: &[&str] = &["read", "seq", "size", "interarrival", "qd", "span", "count"];

fn select(side: &str, e: &Experiment) -> Selection {
    let toks = tokens(side);
    let flat = squash(side);
    let mut labels = BTreeSet::new();
    // Labelled schemes matched by scheme name and overrides: keep the most specific per name.
    let mut by_scheme: BTreeMap<&str, (usize, Vec<&str>)> = BTreeMap::new();
    for s in &e.schemes {
        if toks.iter().any(|t| t == s.label()) {
            labels.insert(s.label().to_string());
            continue;
        }
        if s.label() != s.scheme()
            && toks.iter().any(|t| t == s.scheme())
            && s.sets().iter().all(|x| flat.contains(&squash(x)))
        {
            let n = s.sets().len();
            let entry = by_scheme.entry(s.scheme()).or_insert((n, vec![]));
            if n > entry.0 {
                *entry = (n, vec![]);
            }
            if n == entry.0 {
                entry.1.push(s.label());
            }
        }
    }
    // A variant whose own overrides the side names wins over the plain scheme; a variant with
    // no overrides stands for the scheme only when no plain label does.
    for (name, (score, ls)) in by_scheme {
        if score > 0 {
            labels.remove(name);
            labels.extend(ls.into_iter().map(String::from));
        } else if !labels.contains(name) {
            labels.extend(ls.into_iter().map(String::from));
        }
    }
    let vary = e.vary.as_ref().and_then(|v| {
        v.values
            .iter()
            .find(|val| contains_value(&flat, &format!("{}={}", v.set, val)))
            .cloned()
    });
    let mut params = Vec::new();
    for k in SYNTHETIC_KEYS {
        let pat = format!("{k}=");
        let mut from = 0;
        while let Some(i) = flat[from..].find(&pat) {
            let at = from + i;
            let prev = flat[..at].chars().next_back();
            if prev.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '.')) {
                let val: String = flat[at + pat.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || ".:".contains(*c))
                    .collect();
                if !val.is_empty() {
                    params.push(format!("{k}={val}"));
                }
            }
            from = at + 1;
        }
    }
    Selection {
        labels,
        vary,
        params,
    }
}

/// A synthetic spec without its `count=` (quick variants shorten runs).
fn workload_key(w: &str) -> String {
    match w.strip_prefix("synthetic:") {
        Some(s) => s
            .split(',')
            .filter(|p| !p.starts_with("count="))
            .collect::<Vec<_>>()
            .join(","),
        None => w.to_string(),
    }
}

/// Does this word name a workload (a trace file or a `synthetic:` spec)?
fn is_workload_name(w: &str) -> bool {
    const EXT: &[&str] = &[
        "trace", "load", "csv", "blkparse", "ascii", "gz", "zst", "txt",
    ];
    w.starts_with("synthetic:")
        || w.rsplit_once('.')
            .is_some_and(|(stem, ext)| !stem.is_empty() && EXT.contains(&ext))
}

/// The workloads of `e` that the claim's `workload.ssdgc` names: all of them when it names none,
/// `None` when it names workloads but none of this experiment's.
fn claim_workloads(text: &str, e: &Experiment) -> Option<BTreeSet<String>> {
    let all = e.workload.list();
    let (keep, except) = match text.split_once("except") {
        Some((a, b)) => (a, Some(b)),
        None => (text, None),
    };
    let names = |t: &str| -> BTreeSet<String> {
        t.split_whitespace()
            .map(|w| w.trim_matches(|c| ",;()".contains(c)))
            .filter(|w| is_workload_name(w))
            .map(workload_key)
            .collect()
    };
    let named = names(keep);
    let mut chosen: BTreeSet<String> = if named.is_empty() {
        all.iter().cloned().collect()
    } else {
        all.iter()
            .filter(|w| named.contains(&workload_key(w)))
            .cloned()
            .collect()
    };
    if let Some(ex) = except {
        let ex = names(ex);
        chosen.retain(|w| !ex.contains(&workload_key(w)));
    }
    (!chosen.is_empty()).then_some(chosen)
}

fn has_params(workload: &str, params: &[String]) -> bool {
    let Some(spec) = workload.strip_prefix("synthetic:") else {
        return params.is_empty();
    };
    let parts: Vec<&str> = spec.split(',').collect();
    params.iter().all(|p| parts.contains(&p.as_str()))
}

/// Mean and half-width of the 95% Student-t confidence interval.
pub fn mean_ci(xs: &[f64]) -> (f64, Option<f64>) {
    let n = xs.len();
    let mean = xs.iter().sum::<f64>() / n as f64;
    if n < 2 {
        return (mean, None);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
    Some(t95(n - 1) * (var / n as f64).sqrt()).map_or((mean, None), |h| (mean, Some(h)))
}

/// Two-sided 95% quantile of Student's t with `df` degrees of freedom.
pub fn t95(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    match df {
        0 => f64::NAN,
        d if d <= 30 => T[d - 1],
        _ => 1.96,
    }
}

/// What became of one claim.
#[derive(Debug, Clone, Serialize)]
pub struct ClaimResult {
    pub id: String,
    pub claim: String,
    pub source: String,
    pub headline: bool,
    /// The paper's figure as printed.
    pub paper: String,
    pub paper_ratio: Option<f64>,
    /// ssdgc's figure, as text.
    pub ssdgc: String,
    /// ssdgc's figure (ratio for relative claims, value for absolute ones).
    pub value: Option<f64>,
    /// Half-width of the 95% confidence interval across seeds.
    pub ci95: Option<f64>,
    /// Whether ssdgc agrees in direction (`None`: not measured, or nothing to compare).
    pub agrees: Option<bool>,
    /// ssdgc's figure / the paper's − 1.
    pub margin: Option<f64>,
    /// GC jobs (`gc.invocations`) of every run behind the figure.
    pub gc_jobs: Option<u64>,
    /// `measured`, `not measured` or `not yet reproducible`.
    pub status: String,
    /// How the figure was computed, or why there is none.
    pub detail: String,
}

/// One report as the claims see it.
pub struct RunData<'a> {
    pub json: &'a Value,
    pub gc_jobs: u64,
}

/// Everything `evaluate` needs about the runs.
pub struct Context<'a> {
    /// Runnable experiments (the variant that ran).
    pub experiments: &'a [Experiment],
    /// Skipped experiments and what they need.
    pub skipped: &'a [(Experiment, Vec<String>)],
    pub refs: &'a [RunRef],
    pub runs: &'a [RunData<'a>],
}

fn wants_extreme(c: &Claim) -> bool {
    let t = format!("{} {} {}", c.paper_value, c.claim, c.workload.ssdgc).to_lowercase();
    ["up to", "maximum", "as much as"]
        .iter()
        .any(|n| t.contains(n))
}

fn parse_bound(b: &str) -> Option<(String, f64)> {
    let t: Vec<&str> = b.split_whitespace().collect();
    if t.len() != 3 {
        return None;
    }
    Some((t[1].to_string(), t[2].parse().ok()?))
}

/// One comparison group's figure per seed.
type Groups = BTreeMap<String, BTreeMap<u64, f64>>;

fn base(c: &Claim, status: &str, detail: String) -> ClaimResult {
    ClaimResult {
        id: c.id.clone(),
        claim: c.claim.clone(),
        source: c.source.clone(),
        headline: c.headline,
        paper: c.paper_value.clone(),
        paper_ratio: c.paper_ratio,
        ssdgc: status.to_string(),
        value: None,
        ci95: None,
        agrees: None,
        margin: None,
        gc_jobs: None,
        status: status.to_string(),
        detail,
    }
}

/// Is this side a comparison of two reductions (`pgc / baseline`)?
fn ratio_of_ratios(side: &str, e: &Experiment) -> bool {
    side.split(" / ").count() > 1
        && side.split(" / ").skip(1).all(|p| {
            tokens(p)
                .first()
                .is_some_and(|t| e.schemes.iter().any(|s| s.label() == t))
        })
}

/// Evaluates one claim.
pub fn evaluate(c: &Claim, ctx: &Context) -> ClaimResult {
    let exps: Vec<&Experiment> = ctx
        .experiments
        .iter()
        .filter(|e| e.claims.contains(&c.id))
        .collect();
    if exps.is_empty() {
        let needs: Vec<String> = ctx
            .skipped
            .iter()
            .filter(|(e, _)| e.claims.contains(&c.id))
            .flat_map(|(_, n)| n.clone())
            .collect();
        if !needs.is_empty() {
            return base(
                c,
                "not yet reproducible",
                format!("needs: {}", needs.join("; ")),
            );
        }
        let why = if c.no_experiment {
            "a claim about hardware no simulation addresses".to_string()
        } else {
            "no experiment lists this claim".to_string()
        };
        return base(c, "not measured", why);
    }
    let versus = c.metric.contains(" versus ");
    let (b_expr, s_expr) = if versus {
        match (parse_expr(&c.baseline.ssdgc), parse_expr(&c.scheme.ssdgc)) {
            (Some(b), Some(s)) => (b, s),
            _ => {
                return base(
                    c,
                    "not measured",
                    format!("cannot map the quantities of '{}'", c.metric),
                )
            }
        }
    } else {
        match metric_expr(&c.metric) {
            Ok(e) => (e.clone(), e),
            Err(why) => return base(c, "not measured", why),
        }
    };
    let mut groups: Groups = BTreeMap::new();
    let mut used: BTreeSet<usize> = BTreeSet::new();
    let mut notes: Vec<String> = Vec::new();
    // Runs (absolute) or pairs (relative) in which no GC ran: they cannot test a claim about GC.
    let mut gc_free = 0usize;
    for e in &exps {
        let refs: Vec<&RunRef> = ctx.refs.iter().filter(|r| r.experiment == e.id).collect();
        let Some(wls) = claim_workloads(&c.workload.ssdgc, e) else {
            notes.push(format!("{}: runs none of the claim's workloads", e.id));
            continue;
        };
        let in_claim = |r: &RunRef| wls.contains(&r.workload);
        if versus || c.kind == Kind::Absolute {
            // One run at a time: the metric (absolute) or scheme-side / baseline-side (versus).
            let side = if versus {
                format!("{} {}", c.metric, c.scheme.ssdgc)
            } else {
                c.scheme.ssdgc.clone()
            };
            let mut sel = select(&side, e);
            if sel.labels.is_empty() {
                sel.labels = e.schemes.iter().map(|s| s.label().to_string()).collect();
                if versus {
                    notes.push(format!("{}: every scheme", e.id));
                }
            }
            for r in refs.iter().filter(|r| {
                in_claim(r)
                    && sel.labels.contains(&r.label)
                    && sel.vary.as_ref().is_none_or(|v| r.vary.as_ref() == Some(v))
                    && has_params(&r.workload, &sel.params)
            }) {
                if ctx.runs[r.run].gc_jobs == 0 {
                    gc_free += 1;
                    continue;
                }
                let rep = ctx.runs[r.run].json;
                let v = if versus {
                    match (s_expr.eval(rep), b_expr.eval(rep)) {
                        (Some(s), Some(b)) if b != 0.0 => Some(s / b),
                        _ => None,
                    }
                } else {
                    s_expr.eval(rep)
                };
                if let Some(v) = v {
                    used.insert(r.run);
                    let key = format!(
                        "{}|{}|{}|{}",
                        e.id,
                        r.label,
                        r.workload,
                        r.vary.clone().unwrap_or_default()
                    );
                    groups.entry(key).or_default().insert(r.seed, v);
                }
            }
            continue;
        }
        if ratio_of_ratios(&c.baseline.ssdgc, e) || ratio_of_ratios(&c.scheme.ssdgc, e) {
            return base(
                c,
                "not measured",
                "a comparison of two reductions: read it from the experiment's CSV".into(),
            );
        }
        let bs = select(&c.baseline.ssdgc, e);
        let ss = select(&c.scheme.ssdgc, e);
        if bs.labels.is_empty() || ss.labels.is_empty() {
            notes.push(format!(
                "{}: a side names no scheme of the experiment",
                e.id
            ));
            continue;
        }
        let same_ends = bs.vary == ss.vary && bs.params == ss.params;
        if c.kind == Kind::Trend && same_ends {
            return base(
                c,
                "not measured",
                "a trend along a sweep: read it from the experiment's CSV".into(),
            );
        }
        if same_ends && bs.labels == ss.labels {
            notes.push(format!("{}: both sides select the same runs", e.id));
            continue;
        }
        let same_wl = bs.params.is_empty() && ss.params.is_empty();
        let same_vary = bs.vary.is_none() && ss.vary.is_none();
        let pick = |sel: &Selection, r: &RunRef| {
            in_claim(r)
                && sel.labels.contains(&r.label)
                && sel.vary.as_ref().is_none_or(|v| r.vary.as_ref() == Some(v))
                && has_params(&r.workload, &sel.params)
        };
        for s in refs.iter().filter(|r| pick(&ss, r)) {
            for b in refs.iter().filter(|r| pick(&bs, r)) {
                if b.seed != s.seed
                    || (same_wl && b.workload != s.workload)
                    || (same_vary && b.vary != s.vary)
                    || b.run == s.run
                {
                    continue;
                }
                if ctx.runs[s.run].gc_jobs == 0 && ctx.runs[b.run].gc_jobs == 0 {
                    gc_free += 1;
                    continue;
                }
                let (Some(sv), Some(bv)) = (
                    s_expr.eval(ctx.runs[s.run].json),
                    b_expr.eval(ctx.runs[b.run].json),
                ) else {
                    continue;
                };
                if bv == 0.0 {
                    continue;
                }
                used.insert(s.run);
                used.insert(b.run);
                let key = format!(
                    "{}|{}/{}|{}/{}|{}/{}",
                    e.id,
                    s.label,
                    b.label,
                    s.workload,
                    b.workload,
                    s.vary.clone().unwrap_or_default(),
                    b.vary.clone().unwrap_or_default()
                );
                groups.entry(key).or_default().insert(s.seed, sv / bv);
            }
        }
    }
    if groups.is_empty() && gc_free > 0 {
        let mut why = format!(
            "no GC ran in any of the {gc_free} matching run(s) or pair(s): they cannot test a claim about GC"
        );
        if !notes.is_empty() {
            why = format!("{why} ({})", notes.join("; "));
        }
        return base(c, "not measured", why);
    }
    if groups.is_empty() {
        let mut why = "no run matches both sides of the claim".to_string();
        if !notes.is_empty() {
            why = format!("{why} ({})", notes.join("; "));
        }
        return base(c, "not measured", why);
    }
    let extreme = wants_extreme(c);
    let dir_min = c.direction == Direction::Lower;
    let seeds: BTreeSet<u64> = groups.values().flat_map(|m| m.keys().copied()).collect();
    let per_seed: Vec<f64> = seeds
        .iter()
        .map(|s| {
            let vs: Vec<f64> = groups.values().filter_map(|m| m.get(s).copied()).collect();
            if extreme {
                if dir_min {
                    vs.iter().copied().fold(f64::INFINITY, f64::min)
                } else {
                    vs.iter().copied().fold(f64::NEG_INFINITY, f64::max)
                }
            } else {
                vs.iter().sum::<f64>() / vs.len() as f64
            }
        })
        .collect();
    let (value, ci) = mean_ci(&per_seed);
    let all: Vec<f64> = groups.values().flat_map(|m| m.values().copied()).collect();
    let lo = all.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = all.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let relative = c.kind != Kind::Absolute;
    let margin = c.paper_ratio.filter(|p| *p != 0.0).map(|p| value / p - 1.0);
    let agrees = if relative {
        Some(match c.direction {
            Direction::Lower => value < 1.0,
            Direction::Higher => value > 1.0,
            Direction::Equal => (value - 1.0).abs() <= EQUAL_TOLERANCE,
        })
    } else if let Some((op, x)) = c.bound.as_deref().and_then(parse_bound) {
        match op.as_str() {
            "<" => Some(value < x),
            "<=" => Some(value <= x),
            ">" => Some(value > x),
            ">=" => Some(value >= x),
            _ => None,
        }
    } else {
        margin.map(|m| m.abs() <= ABSOLUTE_TOLERANCE)
    };
    let gc_jobs: u64 = used.iter().map(|&i| ctx.runs[i].gc_jobs).sum();
    let what = if relative {
        if versus {
            format!("{} / {}", s_expr.text, b_expr.text)
        } else {
            format!("{} scheme / baseline", s_expr.text)
        }
    } else {
        s_expr.text.clone()
    };
    let agg = if extreme { "extreme" } else { "mean" };
    let mut text = format!("{value:.4}");
    if let Some(h) = ci {
        text.push_str(&format!(" ± {h:.4}"));
    }
    if relative && value.is_finite() {
        text.push_str(&format!(" ({:+.1}%)", (value - 1.0) * 100.0));
    }
    if groups.len() > 1 {
        text.push_str(&format!(
            " [{} of {} groups, range {lo:.3}–{hi:.3}]",
            agg,
            groups.len()
        ));
    }
    let mut detail = format!(
        "{what}; {} comparison group(s), {} seed(s); groups: {}",
        groups.len(),
        seeds.len(),
        groups.keys().cloned().collect::<Vec<_>>().join(", ")
    );
    if gc_free > 0 {
        detail.push_str(&format!(
            "; {gc_free} run(s) or pair(s) without GC left out"
        ));
    }
    if !notes.is_empty() {
        detail.push_str(&format!("; {}", notes.join("; ")));
    }
    ClaimResult {
        ssdgc: text,
        value: Some(value),
        ci95: ci,
        agrees,
        margin,
        gc_jobs: Some(gc_jobs),
        status: "measured".into(),
        detail,
        ..base(c, "measured", String::new())
    }
}

#[cfg(test)]
mod tests;
