//! Tests of claim metrics, series statistics and claim evaluation.

use super::*;

#[test]
fn paths_and_sums() {
    let e = parse_expr("breakdown_us.cngc / latency_us.all.mean").unwrap();
    assert_eq!(e.num, vec!["breakdown_us.cngc"]);
    assert_eq!(e.den, vec!["latency_us.all.mean"]);
    let e = parse_expr("(breakdown_us.csgc + cogc + lc) / latency_us.all.mean").unwrap();
    assert_eq!(
        e.num,
        vec!["breakdown_us.csgc", "breakdown_us.cogc", "breakdown_us.lc"]
    );
    let e = parse_expr("breakdown_us.csgc + breakdown_us.cogc (baseline)").unwrap();
    assert_eq!(e.num.len(), 2);
    assert!(parse_expr("mean response time").is_none());
}

#[test]
fn metrics_map() {
    assert_eq!(
        metric_expr("mean response time (latency_us.all.mean)")
            .unwrap()
            .num,
        vec!["latency_us.all.mean"]
    );
    assert!(
        metric_expr("variance of response time (latency_us.all.std^2)")
            .unwrap()
            .square
    );
    assert_eq!(
        metric_expr("maximum response time").unwrap().num,
        vec!["latency_us.all.max"]
    );
    // A field named in parentheses wins over the words around it ("spread" is not latency std).
    assert_eq!(
        metric_expr("erase-count spread (wear.erase_std) at similar copy-back counts")
            .unwrap()
            .num,
        vec!["wear.erase_std"]
    );
    assert_eq!(
        metric_expr("total GC time (gc.total_time_us)").unwrap().num,
        vec!["gc.total_time_us"]
    );
    // Without the statistic named, the bandwidth wording is not guessed at.
    assert!(metric_expr("coefficient of variation of bandwidth sampled every second").is_err());
}

fn series_report(interval_s: f64, points: &[(u64, u64, u64, Option<u32>)]) -> Value {
    let points: Vec<Value> = points
        .iter()
        .enumerate()
        .map(|(i, &(requests, read, write, free))| {
            let mut p = serde_json::json!({
                "start": i as f64 * interval_s,
                "requests": requests,
                "mean_us": requests as f64 * 10.0,
                "read_bytes": read,
                "write_bytes": write,
            });
            if let Some(f) = free {
                p["min_free_blocks"] = f.into();
            }
            p
        })
        .collect();
    serde_json::json!({ "series": { "interval_s": interval_s, "by_time": points } })
}

#[test]
fn series_statistics_parse_from_the_metric_text() {
    let e = metric_expr(
        "coefficient of variation of bandwidth sampled every second: \
         cv(series.by_time.bandwidth), per full interval",
    )
    .unwrap();
    assert_eq!(
        e.series,
        Some(SeriesStat {
            agg: SeriesAgg::Cv,
            field: SeriesField::Bandwidth
        })
    );
    assert_eq!(e.text, "cv(series.by_time.bandwidth)");
    let e = metric_expr("min(series.by_time.min_free_blocks): the fewest").unwrap();
    assert_eq!(e.series.unwrap().agg, SeriesAgg::Min);
    assert_eq!(e.series.unwrap().field, SeriesField::MinFreeBlocks);
    // An unknown field or statistic is an error naming the fields, not a silent miss.
    let err = metric_expr("min(series.by_time.free)").unwrap_err();
    assert!(err.contains("min_free_blocks"), "{err}");
    assert!(metric_expr("median(series.by_time.bandwidth)").is_err());
    // The old wordings point at the statistic to name.
    let err = metric_expr("minimum free blocks of a plane").unwrap_err();
    assert!(err.contains("min(series.by_time.min_free_blocks)"), "{err}");
}

#[test]
fn minimum_free_blocks_over_every_point_that_carries_it() {
    // The last point is partial, and its minimum counts; a point without the field (none
    // before the first sample) does not.
    let r = series_report(
        0.01,
        &[
            (1, 0, 4096, None),
            (2, 0, 8192, Some(9)),
            (0, 0, 0, Some(7)),
            (1, 0, 4096, Some(3)),
        ],
    );
    let min = SeriesStat::parse("min(series.by_time.min_free_blocks)").unwrap();
    assert_eq!(min.eval(&r), Some(3.0));
    let max = SeriesStat::parse("max(series.by_time.min_free_blocks)").unwrap();
    assert_eq!(max.eval(&r), Some(9.0));
    // No series: no figure.
    assert_eq!(min.eval(&serde_json::json!({ "latency_us": {} })), None);
}

#[test]
fn bandwidth_counts_full_intervals_of_host_activity() {
    // Interval 0.5 s. Points: 100 B, nothing (a stall: 0), 300 B, 50 B (the last with bytes:
    // partial, left out), then a point with only a free-block sample (GC after the last
    // completion: left out).
    let r = series_report(
        0.5,
        &[
            (3, 60, 40, Some(5)),
            (0, 0, 0, Some(5)),
            (2, 100, 200, Some(4)),
            (1, 50, 0, Some(4)),
            (0, 0, 0, Some(6)),
        ],
    );
    let bw = SeriesStat::parse("mean(series.by_time.bandwidth)").unwrap();
    assert_eq!(bw.values(&r).unwrap(), vec![200.0, 0.0, 600.0]);
    let mean = 800.0 / 3.0;
    assert!((bw.eval(&r).unwrap() - mean).abs() < 1e-9);
    let cv = SeriesStat::parse("cv(series.by_time.bandwidth)").unwrap();
    let var = [200.0f64, 0.0, 600.0]
        .iter()
        .map(|x| (x - mean).powi(2))
        .sum::<f64>()
        / 3.0;
    assert!((cv.eval(&r).unwrap() - var.sqrt() / mean).abs() < 1e-12);
    let wr = SeriesStat::parse("max(series.by_time.write_bytes)").unwrap();
    assert_eq!(wr.values(&r).unwrap(), vec![40.0, 0.0, 200.0]);
    // Fewer than two full intervals: no coefficient of variation.
    let short = series_report(1.0, &[(1, 10, 0, None), (1, 10, 0, None)]);
    assert_eq!(cv.values(&short).unwrap(), vec![10.0]);
    assert_eq!(cv.eval(&short), None);
    // Nothing delivered: no coefficient of variation (its mean is zero).
    let idle = series_report(1.0, &[(0, 0, 0, None), (0, 0, 0, None), (0, 0, 0, None)]);
    assert_eq!(cv.eval(&idle), None);
}

#[test]
fn latency_fields_count_points_with_requests() {
    let r = series_report(1.0, &[(2, 0, 0, None), (0, 0, 0, None), (5, 0, 0, None)]);
    let m = SeriesStat::parse("min(series.by_time.mean_us)").unwrap();
    assert_eq!(m.values(&r).unwrap(), vec![20.0, 50.0]);
    assert_eq!(m.eval(&r), Some(20.0));
}

#[test]
fn confidence_interval() {
    let (m, h) = mean_ci(&[1.0, 2.0, 3.0]);
    assert!((m - 2.0).abs() < 1e-12);
    assert!((h.unwrap() - 4.303 / 3f64.sqrt()).abs() < 1e-9);
    assert_eq!(mean_ci(&[5.0]), (5.0, None));
}

#[test]
fn values_do_not_match_prefixes() {
    assert!(contains_value("host.time_scale=1,", "host.time_scale=1"));
    assert!(!contains_value("host.time_scale=1.5", "host.time_scale=1"));
    assert!(!contains_value(
        "x.gc.hard_threshold=0.01",
        "hard_threshold=0.01"
    ));
}

/// A relative claim (mean response time, pgc against baseline) on one experiment of two seeds.
fn gc_claim_and_experiment() -> (Claim, Experiment) {
    let claim: Claim = toml::from_str(
        r#"id = "c"
kind = "relative"
claim = "PGC cuts mean response time."
source = "§V"
metric = "mean response time"
baseline = { paper = "NPGC", ssdgc = "baseline" }
scheme = { paper = "PGC", ssdgc = "pgc" }
paper_value = "-50%"
paper_ratio = 0.5
direction = "lower"
workload = { paper = "w", ssdgc = "synthetic:count=10", why = "" }
notes = """#,
    )
    .unwrap();
    let e: Experiment = toml::from_str(
        "id = \"e\"\nclaims = [\"c\"]\npreset = \"pgc\"\nsets = []\nschemes = [\"baseline\", \"pgc\"]\n\
         workload = \"synthetic:count=10\"\nprecondition = \"none\"\nseeds = [1, 2]\n",
    )
    .unwrap();
    (claim, e)
}

fn run_ref(label: &str, seed: u64, run: usize) -> RunRef {
    RunRef {
        experiment: "e".into(),
        label: label.into(),
        vary: None,
        workload: "synthetic:count=10".into(),
        seed,
        run,
    }
}

#[test]
fn pairs_without_gc_cannot_test_a_gc_claim() {
    let (claim, e) = gc_claim_and_experiment();
    let exps = [e];
    let mean = |m: f64| serde_json::json!({ "latency_us": { "all": { "mean": m } } });
    // Seed 1: neither run collected (the ratio would be 1.0); seed 2: both did.
    let jsons = [mean(100.0), mean(100.0), mean(400.0), mean(200.0)];
    let jobs = [0, 0, 30, 12];
    let runs: Vec<RunData> = jsons
        .iter()
        .zip(jobs)
        .map(|(json, gc_jobs)| RunData { json, gc_jobs })
        .collect();
    let refs = [
        run_ref("baseline", 1, 0),
        run_ref("pgc", 1, 1),
        run_ref("baseline", 2, 2),
        run_ref("pgc", 2, 3),
    ];
    let ctx = Context {
        experiments: &exps,
        skipped: &[],
        refs: &refs,
        runs: &runs,
    };
    let r = evaluate(&claim, &ctx);
    assert_eq!(r.status, "measured");
    assert_eq!(r.value, Some(0.5), "only seed 2's pair counts");
    assert_eq!(r.gc_jobs, Some(42));
    assert!(
        r.detail.contains("1 run(s) or pair(s) without GC left out"),
        "{}",
        r.detail
    );
    // With no GC in any pair, the claim is not measured rather than a ratio of 1.
    let none: Vec<RunData> = jsons
        .iter()
        .map(|json| RunData { json, gc_jobs: 0 })
        .collect();
    let ctx = Context { runs: &none, ..ctx };
    let r = evaluate(&claim, &ctx);
    assert_eq!(r.status, "not measured");
    assert_eq!(r.value, None);
    assert!(
        r.detail.starts_with("no GC ran in any of the 2"),
        "{}",
        r.detail
    );
}
