//! Research questions as one command: `compare` along any axis (`--vary`, grids), seeds with
//! confidence (`--seeds`), CSV for tools, the comparison table, dry runs and `--dump-config`.

mod common;

use common::{f64_at, json, ok, scratch_dir, u64_at, user_error, without_wall_time, SMALL};
use serde_json::Value;

/// A small run that collects on the default drive in a fraction of a second.
const TINY: &str = "count=600,read=0.3,size=exp:8KiB,interarrival=exp:400us";

#[test]
fn every_point_of_a_grid_reports_what_it_reports_alone() {
    let v = json(&[
        "compare",
        "--json",
        "-q",
        "--gc",
        "baseline,pgc",
        "--vary",
        "victim=greedy,fifo",
        "--vary",
        "gc.threshold=0.05,0.1",
        "--synthetic",
        TINY,
    ]);
    let runs = v["runs"].as_array().unwrap();
    let labels = v["labels"].as_array().unwrap();
    assert_eq!(runs.len(), 8);
    assert_eq!(labels[0], "gc=baseline victim=greedy gc.threshold=0.05");
    assert_eq!(labels[7], "gc=pgc victim=fifo gc.threshold=0.1");
    assert_eq!(v["axes"][1]["key"], "victim");
    let mut i = 0;
    for gc in ["baseline", "pgc"] {
        for victim in ["greedy", "fifo"] {
            for t in ["0.05", "0.1"] {
                let alone = json(&[
                    "run",
                    "--json",
                    "-q",
                    "--gc",
                    gc,
                    "--victim",
                    victim,
                    "--set",
                    &format!("gc.threshold={t}"),
                    "--synthetic",
                    TINY,
                ]);
                assert_eq!(
                    without_wall_time(runs[i].clone()),
                    without_wall_time(alone),
                    "{}",
                    labels[i]
                );
                i += 1;
            }
        }
    }
}

#[test]
fn vary_covers_presets_and_preconditioning() {
    let v = json(&[
        "compare",
        "--json",
        "-q",
        "--vary",
        "precondition=fill,steady:1",
        "--synthetic",
        TINY,
    ]);
    let runs = v["runs"].as_array().unwrap();
    assert_eq!(v["labels"], serde_json::json!(["fill", "steady:1"]));
    // Filled once, the drive has its spare left: less GC than at steady state.
    assert!(
        u64_at(&runs[0], &["gc", "invocations"]) < u64_at(&runs[1], &["gc", "invocations"]),
        "{runs:?}"
    );
    let dry = ok(&[
        "compare",
        "--vary",
        "preset=default,pagc-small",
        "--gc",
        "baseline,zero",
        "--dry-run",
    ]);
    assert!(dry.starts_with("4 runs (4 points × 1 seed):"), "{dry}");
    assert!(dry.contains("gc=zero preset=pagc-small"), "{dry}");
}

#[test]
fn scheme_lists_may_hold_spaces_and_bad_axes_are_one_line_errors() {
    let a = json(&[
        "compare",
        "--json",
        "-q",
        "--gc",
        "baseline, zero",
        "--synthetic",
        TINY,
    ]);
    assert_eq!(a["labels"], serde_json::json!(["baseline", "zero"]));
    let e = user_error(&[
        "compare",
        "--vary",
        "victim=greedy,nope",
        "--synthetic",
        TINY,
    ]);
    common::assert_mentions(&e, &["nope", "victim"]);
    let e = user_error(&["compare", "--vary", "gc.nope=1,2", "--synthetic", TINY]);
    common::assert_mentions(&e, &["gc.nope=1", "nope"]);
    let e = user_error(&["compare", "--vary", "threshold=1,2"]);
    common::assert_mentions(&e, &["--vary threshold", "not a setting"]);
    let e = user_error(&["compare", "--seeds", "0", "--gc", "baseline,zero"]);
    common::assert_mentions(&e, &["--seeds"]);
}

#[test]
fn seeds_add_means_and_confidence_intervals_from_each_seeds_run() {
    let v = json(&[
        "run",
        "--json",
        "-q",
        "--seeds",
        "3",
        "--seed",
        "5",
        "--synthetic",
        TINY,
    ]);
    assert_eq!(u64_at(&v, &["seed"]), 5, "the report is the first seed's");
    let s = &v["seeds"];
    assert_eq!(s["seeds"], serde_json::json!([5, 6, 7]));
    let mut values = Vec::new();
    for seed in ["5", "6", "7"] {
        let r = json(&["run", "--json", "-q", "--seed", seed, "--synthetic", TINY]);
        values.push(f64_at(&r, &["latency_us", "all", "p99"]));
        if seed == "5" {
            let mut first = v.clone();
            first.as_object_mut().unwrap().remove("seeds");
            assert_eq!(without_wall_time(first), without_wall_time(r));
        }
    }
    let f = &s["figures"]["p99_us"];
    let got: Vec<f64> = f["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(got, values);
    let mean = values.iter().sum::<f64>() / 3.0;
    let sd = (values.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / 2.0).sqrt();
    let half = 4.302653 * sd / 3f64.sqrt();
    assert!((f["mean"].as_f64().unwrap() - mean).abs() < 1e-6 * mean);
    assert!((f["ci95_high"].as_f64().unwrap() - (mean + half)).abs() < 1e-6 * mean);
    assert!((f["ci95_low"].as_f64().unwrap() - (mean - half)).abs() < 1e-6 * mean);
    // Every headline figure, by its column name; a figure's values are the seeds' own.
    let names: Vec<&String> = s["figures"].as_object().unwrap().keys().collect();
    assert_eq!(names.len(), 21, "{names:?}");
    for key in ["waf", "gc_invocations", "write_mean_us", "excess_requests"] {
        assert!(s["figures"][key]["mean"].is_number(), "{key}");
    }
    let gc_ms = &s["figures"]["gc_time_ms"]["values"][0];
    assert_eq!(
        gc_ms.as_f64().unwrap(),
        f64_at(&v, &["gc", "total_time_us"]) / 1e3
    );
    // In text: the figures after the report.
    let text = ok(&[
        "run",
        "-q",
        "--seeds",
        "3",
        "--seed",
        "5",
        "--synthetic",
        TINY,
    ]);
    assert!(
        text.contains("over 3 seeds (5..7): mean [95% confidence interval]"),
        "{text}"
    );
    // Compare: every point with its seeds, the table showing the means.
    let c = json(&[
        "compare",
        "--json",
        "-q",
        "--gc",
        "baseline,zero",
        "--seeds",
        "2",
        "--synthetic",
        TINY,
    ]);
    for r in c["runs"].as_array().unwrap() {
        assert_eq!(r["seeds"]["seeds"], serde_json::json!([1, 2]));
    }
    let t = ok(&[
        "compare",
        "-q",
        "--gc",
        "baseline,zero",
        "--seeds",
        "2",
        "--synthetic",
        TINY,
    ]);
    assert!(t.contains("means over 2 seeds (1..2)"), "{t}");
    assert!(t.contains('±'), "{t}");
}

#[test]
fn the_comparison_table_shows_counts_as_integers_tails_and_fits_100_columns() {
    let out = ok(&[
        "compare",
        "-q",
        "--gc",
        "baseline,zero",
        "--synthetic",
        SMALL,
    ]);
    assert!(out.starts_with("drive: 2ch 2chips 1dies 2planes"), "{out}");
    for row in ["read p99 us", "write p99.9 us", "p50 us", "p90 us"] {
        assert!(out.lines().any(|l| l.starts_with(row)), "{row}:\n{out}");
    }
    let gc = out
        .lines()
        .find(|l| l.starts_with("GC invocations"))
        .unwrap();
    let cells: Vec<&str> = gc.split_whitespace().collect();
    assert!(cells[2].parse::<u64>().is_ok(), "{gc}");
    assert!(cells[4].parse::<u64>().is_ok(), "{gc}");
    // Seven schemes: runs become rows, and every line fits.
    let wide = ok(&[
        "compare",
        "-q",
        "--gc",
        "baseline,pagc-blind,pagc-threshold,pgc,fpgc,idle,zero",
        "--synthetic",
        TINY,
    ]);
    assert!(wide.lines().all(|l| l.chars().count() <= 100), "{wide}");
    let head = wide
        .lines()
        .find(|l| l.starts_with("run "))
        .expect("a header row");
    for col in [
        "mean us",
        "p99 us",
        "read p99 us",
        "write p99 us",
        "WAF",
        "GC invocations",
    ] {
        assert!(head.contains(col), "{col}: {head}");
    }
    for scheme in ["pagc-blind", "fpgc", "zero"] {
        assert!(
            wide.lines().any(|l| l.starts_with(scheme)),
            "{scheme}:\n{wide}"
        );
    }
}

#[test]
fn csv_has_a_header_and_a_row_per_run() {
    let out = ok(&[
        "compare",
        "-q",
        "--csv",
        "--gc",
        "baseline,zero",
        "--seeds",
        "2",
        "--synthetic",
        TINY,
    ]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    let head: Vec<&str> = lines[0].split(',').collect();
    assert_eq!(head[0], "run");
    let col = |k: &str| {
        head.iter()
            .position(|h| *h == k)
            .unwrap_or_else(|| panic!("{k}"))
    };
    let (p99, seed, scheme) = (col("latency_us.all.p99"), col("seed"), col("scheme"));
    assert!(!head
        .iter()
        .any(|h| h.starts_with("series") || h.starts_with("seeds")));
    let rows: Vec<Vec<String>> = lines[1..].iter().map(|l| fields(l)).collect();
    assert_eq!(rows[0][0], "baseline seed 1");
    assert_eq!(rows[3][0], "zero seed 2");
    assert_eq!(
        (rows[1][seed].as_str(), rows[1][scheme].as_str()),
        ("2", "baseline")
    );
    let name = col("workload.name");
    assert_eq!(rows[0][name], format!("synthetic:{TINY}"));
    for r in &rows {
        assert_eq!(r.len(), head.len(), "{r:?}");
    }
    let single = json(&[
        "run",
        "--json",
        "-q",
        "--gc",
        "zero",
        "--seed",
        "2",
        "--synthetic",
        TINY,
    ]);
    assert_eq!(
        rows[3][p99].parse::<f64>().unwrap(),
        f64_at(&single, &["latency_us", "all", "p99"])
    );
    let run = ok(&["run", "-q", "--csv", "--synthetic", TINY]);
    assert_eq!(run.lines().count(), 2);
    assert!(run.lines().nth(1).unwrap().starts_with("baseline,"));
}

/// The fields of one CSV line (quoted fields may hold commas and doubled quotes).
fn fields(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(String::new()),
            (c, _) => out.last_mut().unwrap().push(c),
        }
    }
    out
}

#[test]
fn latency_logs_of_several_runs_go_to_one_file_each() {
    let dir = scratch_dir("compare-logs");
    let file = dir.join("lat.csv");
    ok(&[
        "compare",
        "-q",
        "--gc",
        "baseline,zero",
        "--seeds",
        "2",
        "--synthetic",
        TINY,
        "--latency-log",
        file.to_str().unwrap(),
    ]);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "lat.baseline.seed-1.csv",
            "lat.baseline.seed-2.csv",
            "lat.zero.seed-1.csv",
            "lat.zero.seed-2.csv"
        ]
    );
    for n in &names {
        let text = std::fs::read_to_string(dir.join(n)).unwrap();
        assert_eq!(text.lines().count(), 601, "{n}");
    }
}

#[test]
fn dump_config_shows_derived_values_and_reads_back_to_the_same_run() {
    let dir = scratch_dir("dump");
    let text = ok(&["run", "--gc", "pgc", "--dump-config"]);
    assert!(
        text.contains("pagc_threshold = 0.0 # 0 derives it: 0.0315"),
        "{text}"
    );
    assert!(
        text.contains("soft_threshold = 0.0 # 0 derives it: 8 free blocks per plane"),
        "{text}"
    );
    assert!(
        text.contains("hard_threshold = 0.0 # 0 derives it: 4 free blocks per plane"),
        "{text}"
    );
    let path = dir.join("dumped.toml");
    std::fs::write(&path, &text).unwrap();
    let a = json(&["run", "--json", "-q", "--gc", "pgc", "--synthetic", TINY]);
    let b = json(&[
        "run",
        "--json",
        "-q",
        "--config",
        path.to_str().unwrap(),
        "--synthetic",
        TINY,
    ]);
    assert_eq!(without_wall_time(a), without_wall_time(b));
}

#[test]
fn a_dry_run_checks_and_lists_without_running() {
    let dir = scratch_dir("dry");
    let log = dir.join("lat.csv");
    let out = ok(&[
        "run",
        "--dry-run",
        "--seeds",
        "2",
        "--latency-log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(out, "2 runs (1 point × 2 seeds):\n  baseline\n");
    assert!(!log.exists());
    let e = user_error(&["run", "--dry-run", "--synthetic", "count=x"]);
    common::assert_mentions(&e, &["--synthetic"]);
    let e = user_error(&["run", "--dry-run", "/no/such/trace.csv"]);
    common::assert_mentions(&e, &["/no/such/trace.csv"]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ssdgc"))
        .args(["compare", "--gc", "baseline,zero"])
        .env("SSDGC_DRY_RUN", "1")
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "2 runs (2 points × 1 seed):\n  baseline\n  zero\n"
    );
}

#[test]
fn a_saturated_run_says_so_in_one_line() {
    let out = ok(&["run", "-q", "--synthetic", SMALL]);
    let line = out
        .lines()
        .find(|l| l.starts_with("saturated: "))
        .unwrap_or_else(|| panic!("no saturation line:\n{out}"));
    assert!(
        line.ends_with(
            "of the requests waited for a device-queue slot: the load exceeds the drive"
        ),
        "{line}"
    );
    let v = json(&["run", "--json", "-q", "--synthetic", SMALL]);
    assert_eq!(v["host_queue"]["saturated"], Value::Bool(true));
    assert!(u64_at(&v, &["host_queue", "waited"]) > 1000);
    let light = ok(&[
        "run",
        "-q",
        "--synthetic",
        "count=500,interarrival=exp:20ms",
    ]);
    assert!(!light.contains("saturated"), "{light}");
    // The real trace of the issue: the default drive cannot keep up with it.
    if let Some(t) = common::shared_trace("blkreplay_1and1_windows_mssql.load") {
        let out = ok(&["run", "-q", t.to_str().unwrap()]);
        assert!(out.contains("\nsaturated: 88% of the requests"), "{out}");
    }
}
