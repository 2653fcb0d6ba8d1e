//! Output for tools: the per-request log (`--latency-log`), the latency distribution (`--cdf`) and
//! CSV tables (`--csv`).

mod common;

use common::{json, ok, scratch_dir, user_error, SMALL};

#[test]
fn latency_log_has_one_line_per_request_agreeing_with_the_report() {
    let dir = scratch_dir("latency-log");
    let log = dir.join("lat.csv");
    let log_s = log.to_str().unwrap();
    let report = json(&[
        "run",
        "--json",
        "-q",
        "--synthetic",
        SMALL,
        "--latency-log",
        log_s,
    ]);
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("arrival_us,completion_us,op,offset,bytes,response_us,st_us,csgc_us,cogc_us,lc_us,cngc_us,index")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(
        rows.len() as u64,
        common::u64_at(&report, &["requests", "total"])
    );
    let mut sum = 0.0;
    let mut max: f64 = 0.0;
    let mut reads = 0;
    for r in &rows {
        assert_eq!(r.len(), 12, "{r:?}");
        let f = |i: usize| r[i].parse::<f64>().unwrap();
        let response = f(5);
        assert!((f(1) - f(0) - response).abs() < 1e-6, "{r:?}");
        let parts: f64 = (6..=10).map(f).sum();
        assert!((parts - response).abs() < 1e-6, "{r:?}");
        assert!(r[2] == "read" || r[2] == "write");
        reads += (r[2] == "read") as u64;
        sum += response;
        max = max.max(response);
    }
    let mean = sum / rows.len() as f64;
    let want = common::f64_at(&report, &["latency_us", "all", "mean"]);
    assert!((mean - want).abs() < 1e-6 * want, "{mean} vs {want}");
    assert_eq!(max, common::f64_at(&report, &["latency_us", "all", "max"]));
    assert_eq!(reads, common::u64_at(&report, &["requests", "reads"]));
}

#[test]
fn latency_log_into_a_missing_directory_is_a_one_line_error() {
    let dir = scratch_dir("latency-log-missing");
    let log = dir.join("no/such/dir/lat.csv");
    let line = user_error(&[
        "run",
        "-q",
        "--synthetic",
        "count=10",
        "--latency-log",
        log.to_str().unwrap(),
    ]);
    common::assert_mentions(&line, &["--latency-log", "cannot create"]);
}

#[test]
fn latency_log_does_not_change_the_report() {
    let dir = scratch_dir("latency-log-same");
    let log = dir.join("lat.csv");
    let a = common::without_wall_time(json(&["run", "--json", "-q", "--synthetic", SMALL]));
    let b = common::without_wall_time(json(&[
        "run",
        "--json",
        "-q",
        "--synthetic",
        SMALL,
        "--latency-log",
        log.to_str().unwrap(),
    ]));
    assert_eq!(a, b);
}

#[test]
fn cdf_file_holds_each_class_ending_at_its_maximum() {
    let dir = scratch_dir("cdf");
    let path = dir.join("cdf.csv");
    let report = json(&[
        "run",
        "--json",
        "-q",
        "--synthetic",
        SMALL,
        "--cdf",
        path.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("class,value_us,share"));
    let rows: Vec<(String, f64, f64)> = lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 3, "{l}");
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect();
    for class in ["all", "read", "write"] {
        let pts: Vec<&(String, f64, f64)> = rows.iter().filter(|r| r.0 == class).collect();
        assert!(pts.len() > 10, "{class}: {} points", pts.len());
        assert!(pts.windows(2).all(|w| w[0].1 < w[1].1 && w[0].2 < w[1].2));
        let last = pts.last().unwrap();
        assert_eq!(last.2, 1.0);
        assert_eq!(
            last.1,
            common::f64_at(&report, &["latency_us", class, "max"])
        );
        let p99 = pts.iter().find(|p| p.2 >= 0.99).unwrap().1;
        assert_eq!(p99, common::f64_at(&report, &["latency_us", class, "p99"]));
    }
}

#[test]
fn compare_cdf_labels_each_run() {
    let dir = scratch_dir("cdf-compare");
    let path = dir.join("cdf.csv");
    ok(&[
        "compare",
        "-q",
        "--gc",
        "baseline,zero",
        "--synthetic",
        "count=500",
        "--cdf",
        path.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("run,class,value_us,share\n"));
    for run in ["baseline", "zero"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(&format!("{run},write,"))),
            "{run} missing"
        );
    }
}
