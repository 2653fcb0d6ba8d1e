//! `ssdgc trace info FILE`: what a trace holds, from the simulator's own readers.

mod common;

use common::{json, ok, user_error, write_file};

/// Three MSR records: a 4 KiB write, 10 ms later an 8 KiB read, 1 s later a 512 B write on disk 1;
/// and a malformed line.
const MSR: &str = "\
128166372000000000,hm,0,Write,0,4096,10
128166372000100000,hm,0,Read,8192,8192,10
128166372010100000,hm,1,Write,1048576,512,10
128166372010100001,hm,1,Wrte,0,512,10
";

#[test]
fn info_counts_what_the_trace_holds() {
    let path = write_file("info", "t.csv", MSR);
    let v = json(&[
        "trace",
        "info",
        "--json",
        "--format",
        "msr",
        path.to_str().unwrap(),
    ]);
    assert_eq!(v["format"], "msr");
    assert_eq!(
        (v["lines"].as_u64(), v["records"].as_u64()),
        (Some(4), Some(3))
    );
    assert_eq!(v["error_lines"].as_u64(), Some(1));
    assert!(
        v["first_error"].as_str().unwrap().contains("t.csv:4:"),
        "{v}"
    );
    assert_eq!(
        (v["reads"].as_u64(), v["writes"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(
        (v["read_bytes"].as_u64(), v["write_bytes"].as_u64()),
        (Some(8192), Some(4608))
    );
    let s = &v["size_bytes"];
    assert_eq!(
        (s["min"].as_u64(), s["max"].as_u64(), s["p50"].as_u64()),
        (Some(512), Some(8192), Some(4096))
    );
    assert_eq!(
        v["size_classes"],
        serde_json::json!([[512, 1], [1024, 0], [2048, 0], [4096, 1], [8192, 1]])
    );
    assert_eq!(v["aligned_4k"].as_u64(), Some(2));
    assert_eq!(
        (v["lowest_offset"].as_u64(), v["highest_end"].as_u64()),
        (Some(0), Some(1049088))
    );
    assert_eq!(v["duration_s"].as_f64(), Some(1.01));
    assert_eq!(
        (v["idle_gaps"].as_u64(), v["idle_s"].as_f64()),
        (Some(2), Some(1.01))
    );
    assert_eq!(
        v["volumes"],
        serde_json::json!([{"volume": 0, "records": 2}, {"volume": 1, "records": 1}])
    );
    // A replay of an MSR trace keeps every device's records.
    assert_eq!(v["default_volume"], serde_json::Value::Null);
    // A longer idle gap leaves the 10 ms one out; one volume only.
    let v = json(&[
        "trace",
        "info",
        "--json",
        "--idle-gap",
        "20ms",
        "--volume",
        "1",
        "--format",
        "msr",
        path.to_str().unwrap(),
    ]);
    assert_eq!(
        (v["records"].as_u64(), v["filtered_records"].as_u64()),
        (Some(1), Some(2))
    );
    assert_eq!(v["idle_gaps"].as_u64(), Some(0));
    let text = ok(&["trace", "info", "--format", "msr", path.to_str().unwrap()]);
    for line in [
        "format: msr",
        "lines: 4 (3 records, 0 skipped, 0 of other volumes, 1 with errors)",
        "requests: 1 reads (33.3%, 8 KiB), 2 writes (66.7%, 4.5 KiB)",
        "idle: 2 gaps of at least 10.000 ms between arrivals, 1.010 s in all (100.0% of the duration)",
        "volumes: 2, busiest first (records):",
        "  0 (2), 1 (1)",
    ] {
        assert!(text.lines().any(|l| l == line), "{line:?} missing:\n{text}");
    }
}

#[test]
fn info_lists_the_volumes_of_a_multi_volume_trace() {
    let Some(t) = common::shared_trace("tencent_cbs_snia_sample.csv") else {
        return;
    };
    let v = json(&["trace", "info", "--json", t.to_str().unwrap()]);
    assert_eq!(v["format"], "tencent");
    assert_eq!(v["records"].as_u64(), Some(50_000));
    assert_eq!(v["error_lines"].as_u64(), Some(0));
    let vols = v["volumes"].as_array().unwrap();
    assert_eq!(vols.len(), 2038);
    let total: u64 = vols.iter().map(|x| x["records"].as_u64().unwrap()).sum();
    assert_eq!(total, 50_000);
    // The volume a replay picks by default (the first record's) has 41 records.
    let first = vols.iter().find(|x| x["volume"] == 1058).unwrap();
    assert_eq!(first["records"].as_u64(), Some(41));
    assert_eq!(v["default_volume"].as_u64(), Some(1058));
    let text = ok(&["trace", "info", t.to_str().unwrap()]);
    assert!(text.contains("volumes: 2038, busiest first"), "{text}");
    assert!(
        text.contains(
            "a replay without --volume keeps the first record's, 1058 (41 records, 0.1%); \
             replay another with --volume N"
        ),
        "{text}"
    );
    // With a volume asked for, nothing is picked.
    let v = json(&[
        "trace",
        "info",
        "--json",
        "--volume",
        "1125",
        t.to_str().unwrap(),
    ]);
    assert_eq!(v["default_volume"], serde_json::Value::Null);
    assert_eq!(v["records"].as_u64(), Some(1225));
}

#[test]
fn info_errors_are_one_line() {
    let e = user_error(&["trace", "info", "/no/such/trace.csv"]);
    common::assert_mentions(&e, &["/no/such/trace.csv", "cannot open"]);
    let path = write_file("info-bad", "x.txt", "hello world\nnot a trace\n");
    let e = user_error(&["trace", "info", path.to_str().unwrap()]);
    common::assert_mentions(&e, &["x.txt", "--format"]);
    let e = user_error(&[
        "trace",
        "info",
        "--idle-gap",
        "soon",
        path.to_str().unwrap(),
    ]);
    common::assert_mentions(&e, &["--idle-gap"]);
}
