//! The latency series (`--series-interval`, `--series-window`): shown in the text report, with
//! p50/p99 per point, bytes per point and the fewest free blocks per interval, agreeing with the
//! per-request log.

mod common;

use common::{f64_at, json, ok, scratch_dir, u64_at, SMALL};

#[test]
fn the_text_report_shows_the_series() {
    let out = ok(&[
        "run",
        "-q",
        "--synthetic",
        SMALL,
        "--series-interval",
        "500ms",
        "--series-window",
        "500",
    ]);
    assert!(
        out.contains("series by time: ") && out.contains(" points of 0.5 s"),
        "{out}"
    );
    assert!(
        out.contains("series by request: 4 points of 500 requests"),
        "{out}"
    );
    let header = out
        .lines()
        .find(|l| l.contains("start s"))
        .expect("a header for the points");
    for col in [
        "requests", "mean us", "p50 us", "p99 us", "max us", "min free",
    ] {
        assert!(header.contains(col), "{col}: {header}");
    }
    assert!(
        out.lines().any(|l| l.trim_start().starts_with("1.5 ")),
        "{out}"
    );
}

#[test]
fn the_text_report_says_what_its_labels_mean() {
    let out = ok(&["run", "-q", "--synthetic", "count=300"]);
    for words in [
        "(ST service time; waiting on GC of the same plane (CsGC) or of another plane of the",
        "die (CoGC), behind I/O that GC delayed (LC), behind other I/O or for a slot (CnGC))",
        "plane time (share per plane): host ",
    ] {
        assert!(out.contains(words), "{words:?} missing:\n{out}");
    }
}

#[test]
fn a_long_series_is_drawn_compactly() {
    let out = ok(&[
        "run",
        "-q",
        "--synthetic",
        SMALL,
        "--series-interval",
        "1ms",
    ]);
    assert!(out.contains("each character: 75 points"), "{out}");
    let series = &out[out.find("series by time").unwrap()..];
    assert!(series.lines().all(|l| l.chars().count() <= 100), "{out}");
    assert!(
        out.lines()
            .filter(|l| l.contains('▁') || l.contains('█'))
            .count()
            >= 5,
        "{out}"
    );
}

#[test]
fn series_points_agree_with_the_request_log() {
    let dir = scratch_dir("series-log");
    let log = dir.join("lat.csv");
    let v = json(&[
        "run",
        "--json",
        "-q",
        "--synthetic",
        SMALL,
        "--series-interval",
        "100ms",
        "--series-window",
        "300",
        "--latency-log",
        log.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&log).unwrap();
    let (mut read, mut write) = (0u64, 0u64);
    let mut done_by_interval = std::collections::BTreeMap::<u64, (u64, u64)>::new();
    for l in text.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        let bytes: u64 = f[4].parse().unwrap();
        let completion_us: f64 = f[1].parse().unwrap();
        let e = done_by_interval
            .entry((completion_us / 100_000.0) as u64)
            .or_default();
        if f[2] == "read" {
            read += bytes;
            e.0 += bytes;
        } else {
            write += bytes;
            e.1 += bytes;
        }
    }
    let blocks = u64_at(&v, &["drive", "blocks_per_plane"]);
    for (name, key) in [("by_time", "interval_s"), ("by_request", "window")] {
        let pts = v["series"][name].as_array().unwrap();
        assert!(v["series"][key].is_number());
        let sum = |k: &str| pts.iter().map(|p| p[k].as_u64().unwrap()).sum::<u64>();
        assert_eq!(sum("read_bytes"), read, "{name}");
        assert_eq!(sum("write_bytes"), write, "{name}");
        assert_eq!(
            sum("requests"),
            u64_at(&v, &["requests", "total"]),
            "{name}"
        );
        for p in pts.iter().filter(|p| p["requests"].as_u64() > Some(0)) {
            let (p50, p99, max) = (
                p["p50_us"].as_f64().unwrap(),
                p["p99_us"].as_f64().unwrap(),
                p["max_us"].as_f64().unwrap(),
            );
            assert!(0.0 < p50 && p50 <= p99 && p99 <= max, "{p}");
        }
        let has_free = pts.iter().all(|p| p.get("min_free_blocks").is_some());
        assert_eq!(has_free, name == "by_time", "{name}");
    }
    // Bytes by time: those of the requests completed in the interval.
    let pts = v["series"]["by_time"].as_array().unwrap();
    for (i, p) in pts.iter().enumerate() {
        let want = done_by_interval
            .get(&(i as u64))
            .copied()
            .unwrap_or_default();
        assert_eq!(
            (
                p["read_bytes"].as_u64().unwrap(),
                p["write_bytes"].as_u64().unwrap()
            ),
            want,
            "interval {i}"
        );
        let free = p["min_free_blocks"].as_u64().unwrap();
        assert!(free <= blocks, "{free}");
        // Exact starts: i × 0.1 s, no float noise.
        assert_eq!(
            p["start"].as_f64().unwrap().to_string(),
            format!("{}", i as f64 / 10.0)
        );
    }
    // The drive collects: some interval dips to the GC threshold's few free blocks.
    let threshold = (f64_at(&v, &["drive", "gc_threshold"]) * blocks as f64).ceil() as u64;
    let lowest = pts
        .iter()
        .map(|p| p["min_free_blocks"].as_u64().unwrap())
        .min()
        .unwrap();
    assert!(
        lowest <= threshold,
        "lowest {lowest}, threshold {threshold}"
    );
}
