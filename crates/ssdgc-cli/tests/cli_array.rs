//! A RAID-0 array of three drives replaying a shared real trace under invariant checking: the JSON
//! report shows the array and each drive; each drive served exactly the request pieces the striping
//! sends it (computed here from the trace itself); the array's flash, GC and wear figures are the
//! sums of the drives'.

mod common;

use common::{at, f64_at, shared_trace, u64_at};
use serde_json::Value;
use ssdgc_workload::{open_trace, Op, TraceOptions};

const TRACE: &str = "heimdall_msr_cut10k_rw_40_60_1370.trace";
const DRIVES: u64 = 3;
const CHUNK: u64 = 64 << 10;

/// Request pieces per drive (total, reads, writes) the trace makes on an array of `DRIVES`
/// drives of `drive_pages` logical pages of `page` bytes, striped by `CHUNK`: chunk `k` on drive
/// `k mod N`, and a shorter last row when a drive is not a whole number of chunks.
fn expected_pieces(trace: &std::path::Path, page: u64, drive_pages: u64) -> Vec<[u64; 3]> {
    let chunk = CHUNK / page;
    let array_pages = DRIVES * drive_pages;
    let full = (drive_pages / chunk) * chunk * DRIVES;
    let tail = drive_pages % chunk;
    let drive_of = |a: u64| {
        if a < full {
            (a / chunk) % DRIVES
        } else {
            (a - full) / tail
        }
    };
    let mut pieces = vec![[0u64; 3]; DRIVES as usize];
    let reader = open_trace(trace, &TraceOptions::default()).expect("trace opens");
    for rec in reader {
        let rec = rec.expect("trace parses");
        let first = rec.offset / page;
        let last = (rec.offset + rec.len.max(1) - 1) / page;
        let mut touched = [false; DRIVES as usize];
        for p in first..=last {
            touched[drive_of(p % array_pages) as usize] = true;
        }
        for (d, _) in touched.iter().enumerate().filter(|(_, &t)| t) {
            pieces[d][0] += 1;
            pieces[d][if rec.op == Op::Read { 1 } else { 2 }] += 1;
        }
    }
    pieces
}

fn sum(drives: &[Value], path: &[&str]) -> u64 {
    drives.iter().map(|d| u64_at(d, path)).sum()
}

#[test]
fn a_raid0_array_of_three_drives_replays_a_trace_and_reports_each_drive() {
    let Some(trace) = shared_trace(TRACE) else {
        return;
    };
    let r = common::json(&[
        "run",
        "--json",
        "-q",
        "--check",
        "--seed",
        "3",
        "--gc",
        "pgc",
        "--set",
        "array.drives=3",
        "--set",
        "array.chunk=\"64KiB\"",
        trace.to_str().unwrap(),
    ]);
    // The array.
    assert_eq!(u64_at(&r, &["drive", "array", "drives"]), DRIVES);
    assert_eq!(u64_at(&r, &["drive", "array", "chunk_bytes"]), CHUNK);
    let drive_pages = u64_at(&r, &["drive", "logical_pages"]);
    let page = u64_at(&r, &["drive", "page_size"]);
    assert_eq!(
        u64_at(&r, &["drive", "array", "logical_pages"]),
        DRIVES * drive_pages
    );
    assert_eq!(
        u64_at(&r, &["drive", "array", "physical_pages"]),
        DRIVES * u64_at(&r, &["drive", "physical_pages"])
    );
    let drives = at(&r, &["drives"]).as_array().expect("drives is a list");
    assert_eq!(drives.len() as u64, DRIVES);
    let records = u64_at(&r, &["workload", "source", "records"]);
    assert_eq!(u64_at(&r, &["requests", "total"]), records);

    // Each drive served exactly the pieces the striping sends it, and every piece completed.
    let want = expected_pieces(&trace, page, drive_pages);
    for (d, (report, [total, reads, writes])) in drives.iter().zip(want).enumerate() {
        assert!(report.get("drives").is_none(), "drive {d} nests no drives");
        assert!(report["drive"].get("array").is_none());
        assert_eq!(u64_at(report, &["requests", "total"]), total, "drive {d}");
        assert_eq!(u64_at(report, &["requests", "reads"]), reads, "drive {d}");
        assert_eq!(u64_at(report, &["requests", "writes"]), writes, "drive {d}");
        assert_eq!(
            u64_at(report, &["latency_us", "all", "count"]),
            total,
            "drive {d}"
        );
        assert!(total > 0, "drive {d} served part of the trace");
        // A piece is never slower than its request: the array's slowest request is the slowest
        // piece of some drive.
        assert!(
            f64_at(report, &["latency_us", "all", "max"])
                <= f64_at(&r, &["latency_us", "all", "max"])
        );
        // Its breakdown accounts for its mean response time.
        let b = at(report, &["breakdown_us"]);
        let parts: f64 = ["st", "csgc", "cogc", "lc", "cngc"]
            .iter()
            .map(|k| b[k].as_f64().unwrap())
            .sum();
        let mean = f64_at(report, &["latency_us", "all", "mean"]);
        assert!((parts - mean).abs() <= 1e-6 * mean.max(1.0), "drive {d}");
    }
    let pieces = sum(drives, &["requests", "total"]);
    assert!(pieces >= records && pieces <= DRIVES * records);
    assert_eq!(
        sum(drives, &["requests", "reads"]) + sum(drives, &["requests", "writes"]),
        pieces
    );
    let max = drives
        .iter()
        .map(|d| f64_at(d, &["latency_us", "all", "max"]))
        .fold(0.0, f64::max);
    assert_eq!(max, f64_at(&r, &["latency_us", "all", "max"]));

    // The array's counters are the sums of the drives', and its WAF follows from them.
    for path in [
        &["flash", "host_pages_written"][..],
        &["flash", "host_pages_read"],
        &["flash", "gc_pages_moved"],
        &["flash", "blocks_erased"],
        &["gc", "invocations"],
        &["gc", "cancelled_moves"],
        &["schemes", "preempt", "preemptions"],
        &["schemes", "merge", "merged_reads"],
        &["requests", "unmapped_page_reads"],
    ] {
        assert_eq!(u64_at(&r, path), sum(drives, path), "{path:?}");
    }
    let written = u64_at(&r, &["flash", "host_pages_written"]) as f64;
    let moved = u64_at(&r, &["flash", "gc_pages_moved"]) as f64;
    assert!(written > 0.0 && moved > 0.0, "the drives collected garbage");
    assert_eq!(f64_at(&r, &["flash", "waf"]), (written + moved) / written);
    for d in drives {
        let w = u64_at(d, &["flash", "host_pages_written"]) as f64;
        let m = u64_at(d, &["flash", "gc_pages_moved"]) as f64;
        assert_eq!(f64_at(d, &["flash", "waf"]), (w + m) / w);
    }
    let gc_ms: f64 = drives
        .iter()
        .map(|d| f64_at(d, &["gc", "total_time_us"]))
        .sum();
    assert!((gc_ms - f64_at(&r, &["gc", "total_time_us"])).abs() < 1e-3);
    // Wear covers every block of every drive.
    let blocks = |v: &Value| -> u64 {
        at(v, &["wear", "histogram"])
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum()
    };
    let per_drive_blocks =
        u64_at(&r, &["drive", "physical_pages"]) / u64_at(&r, &["drive", "pages_per_block"]);
    assert_eq!(blocks(&r), DRIVES * per_drive_blocks);
    assert!(drives.iter().all(|d| blocks(d) == per_drive_blocks));
    let emax = drives
        .iter()
        .map(|d| u64_at(d, &["wear", "erase_max"]))
        .max()
        .unwrap();
    assert_eq!(u64_at(&r, &["wear", "erase_max"]), emax);
    // Events: the array's include every drive's.
    assert!(sum(drives, &["sim", "events"]) <= u64_at(&r, &["sim", "events"]));
}

#[test]
fn the_table_shows_each_drive() {
    let out = common::ok(&[
        "run",
        "-q",
        "--synthetic",
        common::SMALL,
        "--set",
        "array.drives=2",
    ]);
    assert!(
        out.contains("array: RAID-0 of 2 such drives, 65536 B chunks"),
        "{out}"
    );
    assert!(out.contains("per drive:"), "{out}");
    let single = common::ok(&["run", "-q", "--synthetic", common::SMALL]);
    assert!(!single.contains("per drive") && !single.contains("array:"));
}

#[test]
fn bad_array_settings_are_one_line_errors() {
    for (set, needle) in [
        ("array.drives=0", "array.drives"),
        ("array.drives=100", "array.drives"),
        ("array.chunk=\"1000B\"", "array.chunk"),
        ("array.stripe=2", "unknown key 'array.stripe'"),
    ] {
        let line = common::user_error(&["run", "-q", "--set", set]);
        common::assert_mentions(&line, &[needle]);
    }
}
