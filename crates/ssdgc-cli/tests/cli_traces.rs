//! Replaying the shared real traces (`/work/shared/traces`, used in place, never copied): every
//! trace is detected, replayed with invariant checks on a filled drive, and accounted for line by
//! line, with the request counts and read shares given in the traces' README.

mod common;

use std::path::Path;

use common::{at, f64_at, json, shared_trace, traces_dir, u64_at};
use serde_json::Value;

/// What the traces' README says: file, detected format, requests (for Tencent: over all volumes),
/// read share in percent by count (rounded; `None` where it is per volume).
const KNOWN: &[(&str, &str, u64, Option<f64>)] = &[
    ("msr_hm0_snia_sample.csv", "msr", 1_000, Some(51.0)),
    (
        "heimdall_msr_cut10k_rw_20_80_105.trace",
        "flashnet",
        10_000,
        Some(20.0),
    ),
    (
        "heimdall_msr_cut10k_rw_40_60_1370.trace",
        "flashnet",
        10_000,
        Some(41.0),
    ),
    ("mqsim_tpcc_small.trace", "disksim", 6_999, Some(63.0)),
    ("ssdsim_example.ascii", "disksim", 10_000, Some(41.0)),
    (
        "blkreplay_1and1_linux_mysql.load",
        "blkreplay",
        80_794,
        Some(9.0),
    ),
    (
        "blkreplay_1and1_windows_mssql.load",
        "blkreplay",
        42_976,
        Some(6.0),
    ),
    (
        "blkreplay_1and1_windows_shared_server.load",
        "blkreplay",
        1_371,
        Some(0.0),
    ),
    (
        "fiu_mail_cheetah_first10k.blkparse",
        "fiu",
        9_998,
        Some(89.0),
    ),
    ("systor17_vdi_snia_sample.csv", "systor", 999, Some(83.0)),
    ("tencent_cbs_snia_sample.csv", "tencent", 50_000, None),
];

fn replay(path: &Path, extra: &[&str]) -> Value {
    let mut args = vec![
        path.to_str().expect("UTF-8 path"),
        "--check",
        "--json",
        "--precondition",
        "fill",
        "-q",
    ];
    args.extend_from_slice(extra);
    let mut all = vec!["run"];
    all.extend(args);
    json(&all)
}

/// Checks that nothing was dropped silently: every request produced was simulated, and every line
/// is a record, a skipped line or a filtered record.
fn check_accounting(name: &str, r: &Value) {
    let total = u64_at(r, &["requests", "total"]);
    let records = u64_at(r, &["workload", "source", "records"]);
    let lines = u64_at(r, &["workload", "source", "lines"]);
    let skipped = u64_at(r, &["workload", "source", "skipped_lines"]);
    let filtered = u64_at(r, &["workload", "source", "filtered_records"]);
    assert_eq!(total, records, "{name}: requests.total != source.records");
    assert!(total > 0, "{name}: no request replayed");
    assert_eq!(
        lines,
        records + skipped + filtered,
        "{name}: lines != records + skipped + filtered"
    );
    assert_eq!(
        total,
        u64_at(r, &["requests", "reads"]) + u64_at(r, &["requests", "writes"]),
        "{name}"
    );
    let waf = f64_at(r, &["flash", "waf"]);
    if u64_at(r, &["requests", "writes"]) > 0 {
        assert!(waf >= 1.0, "{name}: waf {waf}");
    }
}

#[test]
fn every_shared_trace_replays_with_checks_and_loses_nothing() {
    let Some(dir) = traces_dir() else { return };
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("read traces dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no traces in {}", dir.display());
    let mut seen = 0;
    for path in &files {
        let name = path.file_name().unwrap().to_str().unwrap();
        let started = std::time::Instant::now();
        let r = replay(path, &[]);
        eprintln!("{name}: {:.2} s", started.elapsed().as_secs_f64());
        check_accounting(name, &r);
        assert_eq!(at(&r, &["workload", "name"]), path.to_str().unwrap());
        let Some((_, format, requests, read_pct)) = KNOWN.iter().find(|k| k.0 == name) else {
            eprintln!("note: {name} is not in the README table; checked for accounting only");
            continue;
        };
        seen += 1;
        assert_eq!(
            at(&r, &["workload", "format"]),
            *format,
            "{name}: detected format"
        );
        let records = u64_at(&r, &["workload", "source", "records"]);
        let filtered = u64_at(&r, &["workload", "source", "filtered_records"]);
        assert_eq!(
            records + filtered,
            *requests,
            "{name}: records + filtered_records vs the README's request count"
        );
        if let Some(pct) = read_pct {
            assert_eq!(filtered, 0, "{name}: nothing filtered without --volume");
            let reads = u64_at(&r, &["requests", "reads"]) as f64;
            let actual = 100.0 * reads / records as f64;
            assert!(
                (actual - pct).abs() <= 0.5 + 1e-9,
                "{name}: {actual:.2}% reads, README says {pct}%"
            );
        }
    }
    eprintln!("{seen} of {} traces matched the README table", files.len());
}

/// The volumes of the Tencent sample, in order of first appearance, with their record counts.
fn tencent_volumes(path: &Path) -> Vec<(u64, u64)> {
    let text = std::fs::read_to_string(path).expect("read tencent sample");
    let mut vols: Vec<(u64, u64)> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: u64 = line
            .rsplit(',')
            .next()
            .and_then(|f| f.trim().parse().ok())
            .unwrap_or_else(|| panic!("bad tencent line {line}"));
        match vols.iter_mut().find(|(id, _)| *id == v) {
            Some((_, n)) => *n += 1,
            None => vols.push((v, 1)),
        }
    }
    vols
}

#[test]
fn tencent_replays_the_first_volume_by_default_and_any_volume_on_request() {
    let Some(path) = shared_trace("tencent_cbs_snia_sample.csv") else {
        return;
    };
    let vols = tencent_volumes(&path);
    assert!(vols.len() > 1);
    assert_eq!(vols.iter().map(|(_, n)| n).sum::<u64>(), 50_000);

    let auto = replay(&path, &[]);
    let (first, first_n) = vols[0];
    assert_eq!(u64_at(&auto, &["workload", "source", "volume"]), first);
    assert_eq!(u64_at(&auto, &["requests", "total"]), first_n);

    // The busiest volume, chosen explicitly with the format given.
    let (busiest, busiest_n) = *vols.iter().max_by_key(|(id, n)| (*n, *id)).unwrap();
    let vol = busiest.to_string();
    let r = replay(&path, &["--format", "tencent", "--volume", &vol]);
    check_accounting("tencent --volume", &r);
    assert_eq!(at(&r, &["workload", "format"]), "tencent");
    assert_eq!(u64_at(&r, &["workload", "source", "volume"]), busiest);
    assert_eq!(u64_at(&r, &["requests", "total"]), busiest_n);
    assert_eq!(
        u64_at(&r, &["workload", "source", "filtered_records"]),
        50_000 - busiest_n
    );
}

#[test]
fn a_shared_trace_replays_closed_loop_and_in_compare() {
    let Some(path) = shared_trace("msr_hm0_snia_sample.csv") else {
        return;
    };
    let p = path.to_str().unwrap();
    let r = json(&["run", p, "--json", "-q", "--replay", "closed:4"]);
    check_accounting("msr closed:4", &r);
    assert_eq!(u64_at(&r, &["requests", "total"]), 1000);

    let v = json(&["compare", p, "--gc", "baseline,zero", "--json", "-q"]);
    let runs = at(&v, &["runs"]).as_array().unwrap();
    assert_eq!(runs.len(), 2);
    for run in runs {
        check_accounting("msr compare", run);
        assert_eq!(u64_at(run, &["requests", "total"]), 1000);
    }
    assert_eq!(f64_at(&runs[1], &["gc", "total_time_us"]), 0.0);
}

#[test]
fn a_shared_trace_replays_the_same_twice() {
    let Some(path) = shared_trace("mqsim_tpcc_small.trace") else {
        return;
    };
    let a = common::without_wall_time(replay(&path, &[]));
    let b = common::without_wall_time(replay(&path, &[]));
    assert_eq!(a, b);
}

/// A small MSR CSV written by the test: `n` records alternating write and read.
fn small_msr(n: u64) -> String {
    (0..n)
        .map(|i| {
            format!(
                "{},hm,0,{},{},4096,100\n",
                128_166_372_003_061_629u64 + i * 20_000,
                if i % 2 == 0 { "Write" } else { "Read" },
                i * 8192
            )
        })
        .collect()
}

#[test]
fn a_gzip_compressed_trace_replays_like_the_plain_one() {
    let plain = common::write_file("gzip", "t.csv", &small_msr(300));
    let status = std::process::Command::new("gzip")
        .arg("-k")
        .arg(&plain)
        .status();
    if !matches!(status, Ok(s) if s.success()) {
        eprintln!("note: gzip not available; skipping");
        return;
    }
    let gz = plain.with_extension("csv.gz");
    // The name does not matter: compression is recognised by its magic bytes.
    let renamed = plain.with_extension("trace");
    std::fs::rename(&gz, &renamed).expect("rename");
    let a = json(&["run", plain.to_str().unwrap(), "--json", "-q"]);
    let b = json(&["run", renamed.to_str().unwrap(), "--json", "-q"]);
    check_accounting("plain", &a);
    check_accounting("gzip", &b);
    assert_eq!(at(&b, &["workload", "format"]), "msr");
    assert_eq!(u64_at(&b, &["requests", "total"]), 300);
    for key in ["requests", "latency_us", "flash", "gc", "wear"] {
        assert_eq!(at(&a, &[key]), at(&b, &[key]), "{key}");
    }
}

#[test]
fn a_column_spec_reads_a_custom_layout() {
    let mut text = String::from("time_ms;op;sector;bytes\n");
    for i in 0..200u64 {
        text.push_str(&format!(
            "{}.5;{};{};4096\n",
            i,
            if i % 4 == 0 { "R" } else { "W" },
            i * 16
        ));
    }
    let path = common::write_file("columns", "custom.txt", &text);
    let r = json(&[
        "run",
        path.to_str().unwrap(),
        "--format",
        "columns:time=1:ms,op=2,offset=3:sectors,len=4,sep=semicolon,skip=1,read=R",
        "--check",
        "--json",
        "-q",
    ]);
    check_accounting("columns", &r);
    assert_eq!(at(&r, &["workload", "format"]), "columns");
    assert_eq!(u64_at(&r, &["requests", "total"]), 200);
    assert_eq!(u64_at(&r, &["requests", "reads"]), 50);
    assert_eq!(u64_at(&r, &["workload", "source", "skipped_lines"]), 1);
}
