//! `bench/compare.py`, the side-by-side with MQSim and SSDSim: its `--dry-run` writes every
//! simulator's input files, and they parse (ssdgc loads its configuration and trace; the MQSim XML
//! is well formed with the matched values; the SSDSim parameter file holds only keys SSDSim
//! reads); ssdgc's side runs end to end alone and prints no ratio; the ratio is refused when WAF or
//! GC counts disagree. No other simulator is run or imitated: the script is only ever given the
//! ssdgc binary here.
//!
//! These tests need `python3` (3.8 or newer) on the PATH, as the script does.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::{f64_at, ok, scratch_dir, u64_at};
use serde_json::Value;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/compare.py")
}

/// Runs `python3 bench/compare.py ARGS --ssdgc <this build's binary>`; returns (status, stdout,
/// stderr).
fn compare(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new("python3")
        .arg(script())
        .args(args)
        .arg("--ssdgc")
        .arg(env!("CARGO_BIN_EXE_ssdgc"))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("python3 runs (bench/compare.py needs Python 3.8 or newer on the PATH)");
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
        String::from_utf8(out.stderr).expect("UTF-8 stderr"),
    )
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Checks that `xml` is well formed in the shape MQSim's parameter files have (a declaration,
/// then nested elements, leaves on one line as `<Name>value</Name>`) and returns its leaves.
fn xml_leaves(xml: &str) -> Vec<(String, String)> {
    let mut stack: Vec<String> = Vec::new();
    let mut leaves = Vec::new();
    for (i, line) in xml.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || (i == 0 && t.starts_with("<?xml")) {
            continue;
        }
        assert!(
            t.starts_with('<') && t.ends_with('>'),
            "line {}: {t}",
            i + 1
        );
        if let Some(name) = t.strip_prefix("</") {
            let name = name.trim_end_matches('>');
            assert_eq!(stack.pop().as_deref(), Some(name), "line {}: {t}", i + 1);
        } else if let Some(close) = t.find("</") {
            let open = &t[1..t.find('>').unwrap()];
            assert_eq!(&t[close + 2..t.len() - 1], open, "line {}: {t}", i + 1);
            let value = &t[open.len() + 2..close];
            assert!(
                !value.contains('<') && !value.is_empty(),
                "line {}: {t}",
                i + 1
            );
            leaves.push((open.to_string(), value.to_string()));
        } else {
            stack.push(t[1..t.len() - 1].to_string());
        }
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    leaves
}

fn leaf<'a>(leaves: &'a [(String, String)], name: &str) -> &'a str {
    let found: Vec<&str> = leaves
        .iter()
        .filter(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
        .collect();
    assert_eq!(found.len(), 1, "{name} appears once: {found:?}");
    found[0]
}

/// A DiskSim-style trace: records of five integers, times increasing, 4 KiB writes (and reads),
/// no newline after the last record. Returns (writes, reads, largest sector).
fn check_trace(p: &Path) -> (u64, u64, u64) {
    let text = read(p);
    assert!(
        !text.ends_with('\n'),
        "{}: no newline after the last record",
        p.display()
    );
    let (mut writes, mut reads, mut last_time, mut max_sector) = (0u64, 0u64, 0u64, 0u64);
    for (i, line) in text.split('\n').enumerate() {
        let f: Vec<u64> = line
            .split(' ')
            .map(|x| {
                x.parse()
                    .unwrap_or_else(|_| panic!("{}:{}: {line}", p.display(), i + 1))
            })
            .collect();
        assert_eq!(f.len(), 5, "{}:{}: {line}", p.display(), i + 1);
        assert!(
            f[0] > last_time,
            "{}:{}: time goes forward",
            p.display(),
            i + 1
        );
        last_time = f[0];
        assert_eq!(
            (f[1], f[2] % 8, f[3]),
            (0, 0, 8),
            "{}:{}: {line}",
            p.display(),
            i + 1
        );
        max_sector = max_sector.max(f[2]);
        match f[4] {
            0 => writes += 1,
            1 => reads += 1,
            _ => panic!("{}:{}: type {}", p.display(), i + 1, f[4]),
        }
    }
    (writes, reads, max_sector)
}

#[test]
fn dry_run_writes_inputs_that_parse_and_runs_nothing() {
    let work = scratch_dir("bench-dry");
    let w = work.to_str().unwrap();
    let (code, stdout, stderr) = compare(&[
        "--dry-run",
        "--work",
        w,
        "--requests",
        "200",
        "--blocks-per-plane",
        "64",
    ]);
    assert_eq!(code, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");

    // The drive: 16 planes x 64 blocks x 64 pages, spare 0.10 + 3 held-back blocks per plane.
    let drive: Value = serde_json::from_str(&read(&work.join("drive.json"))).unwrap();
    assert_eq!(u64_at(&drive, &["physical_pages"]), 16 * 64 * 64);
    let logical = u64_at(&drive, &["logical_pages"]);
    assert_eq!(logical, (65536.0 * (1.0 - (0.1 + 3.0 / 64.0))) as u64);
    assert_eq!(u64_at(&drive, &["settle_requests"]), 20);

    // The commands: ssdgc as matched to each simulator, and the others' with a placeholder
    // binary, marked as not run.
    for needle in [
        "# ssdgc (as MQSim), full",
        "# ssdgc (as SSDSim), base",
        "--format disksim --disksim-time ns --fold reject",
        "# MQSim, full (not run: no --mqsim)",
        "MQSim -i ssdconfig.xml -w workload-full.xml < /dev/null",
        "# SSDSim, base (not run: no --ssdsim)",
        "ssd <<< trace.ascii",
    ] {
        assert!(stdout.contains(needle), "{needle:?} in:\n{stdout}");
    }
    assert!(
        !work.join("logs").exists() && !work.join("results.json").exists(),
        "nothing ran"
    );

    // The shared trace: two pins, the settling window, the measured window; it fits the drive.
    let full = work.join("traces/full.disksim");
    let base = work.join("traces/base.disksim");
    assert_eq!(check_trace(&full), (222, 0, (logical - 1) * 8));
    assert_eq!(check_trace(&base).0, 22);
    assert!(
        read(&full).starts_with(&read(&base)),
        "base is a prefix of full"
    );

    // ssdgc: both configurations load and check with the trace (the trace reader, the drive and
    // --fold reject), and say what was matched.
    for (variant, trigger) in [("mqsim", "blocks"), ("ssdsim", "pages")] {
        let toml = work.join(format!("ssdgc/as-{variant}.toml"));
        let toml = toml.to_str().unwrap();
        let dump = ok(&["run", "--config", toml, "--dump-config"]);
        for needle in [
            "blocks_per_plane = 64".to_string(),
            format!("trigger = \"{trigger}\""),
            "copyback = false".to_string(),
            "victim = \"greedy\"".to_string(),
            "mode = \"steady\"".to_string(),
        ] {
            assert!(dump.contains(&needle), "{variant}: {needle} in:\n{dump}");
        }
        let info = ok(&[
            "run",
            "--config",
            toml,
            "--format",
            "disksim",
            "--disksim-time",
            "ns",
            "--fold",
            "reject",
            "--dry-run",
            full.to_str().unwrap(),
        ]);
        assert!(!info.is_empty());
        let r = common::json(&[
            "run",
            "--config",
            toml,
            "--synthetic",
            "count=1",
            "--json",
            "-q",
        ]);
        assert_eq!(
            u64_at(&r, &["drive", "logical_pages"]),
            logical,
            "{variant}"
        );
    }

    // MQSim: well-formed XML with the matched values.
    let cfg = xml_leaves(&read(&work.join("mqsim/ssdconfig.xml")));
    for (k, v) in [
        ("Enabled_Preconditioning", "true"),
        ("Ideal_Mapping_Table", "true"),
        ("GC_Block_Selection_Policy", "GREEDY"),
        ("Use_Copyback_for_GC", "false"),
        ("Preemptible_GC_Enabled", "false"),
        ("Plane_Allocation_Scheme", "CWDP"),
        ("Flash_Channel_Count", "4"),
        ("Chip_No_Per_Channel", "2"),
        ("Die_No_Per_Chip", "1"),
        ("Plane_No_Per_Die", "2"),
        ("Block_No_Per_Plane", "64"),
        ("Page_No_Per_Block", "64"),
        ("Page_Capacity", "4096"),
        ("Page_Read_Latency_LSB", "50000"),
        ("Page_Program_Latency_LSB", "600000"),
        ("Block_Erase_Latency", "3000000"),
        ("GC_Exec_Threshold", "0.046875"),
    ] {
        assert_eq!(leaf(&cfg, k), v, "{k}");
    }
    let op: f64 = leaf(&cfg, "Overprovisioning_Ratio").parse().unwrap();
    assert_eq!(
        (65536.0 * (1.0 - op)) as u64,
        logical,
        "MQSim's logical pages"
    );
    for which in ["full", "base"] {
        let wl = xml_leaves(&read(&work.join(format!("mqsim/workload-{which}.xml"))));
        assert_eq!(leaf(&wl, "Initial_Occupancy_Percentage"), "100");
        assert_eq!(leaf(&wl, "Device_Level_Data_Caching_Mode"), "TURNED_OFF");
        assert_eq!(leaf(&wl, "Time_Unit"), "NANOSECOND");
        assert_eq!(leaf(&wl, "Channel_IDs"), "0,1,2,3");
        let path = PathBuf::from(leaf(&wl, "File_Path"));
        assert_eq!(path, work.join(format!("traces/{which}.disksim")));
    }

    // SSDSim: only keys its load_parameters reads (initialize.c), each once, and its own trace:
    // the fill, 2 x logical pages of overwrites, one read, then the shared records.
    let known: BTreeSet<&str> = [
        "dram capacity",
        "channel number",
        "chip number",
        "die number",
        "plane number",
        "block number",
        "page number",
        "subpage page",
        "page capacity",
        "subpage capacity",
        "t_PROG",
        "t_DBSY",
        "t_BERS",
        "t_CLS",
        "t_CLH",
        "t_CS",
        "t_CH",
        "t_WP",
        "t_ALS",
        "t_ALH",
        "t_DS",
        "t_DH",
        "t_WC",
        "t_WH",
        "t_ADL",
        "t_R",
        "t_AR",
        "t_CLR",
        "t_RR",
        "t_RP",
        "t_WB",
        "t_RC",
        "t_REA",
        "t_CEA",
        "t_RHZ",
        "t_CHZ",
        "t_RHOH",
        "t_RLOH",
        "t_COH",
        "t_REH",
        "t_IR",
        "t_RHW",
        "t_WHR",
        "t_RST",
        "erase limit",
        "flash operating current",
        "flash supply voltage",
        "dram active current",
        "dram standby current",
        "dram refresh current",
        "dram voltage",
        "address mapping",
        "wear leveling",
        "gc",
        "overprovide",
        "gc threshold",
        "buffer management",
        "scheduling algorithm",
        "gc hard threshold",
        "allocation",
        "static_allocation",
        "dynamic_allocation",
        "advanced command",
        "advanced command priority",
        "greed CB command",
        "greed MPW command",
        "aged",
        "aged ratio",
        "queue_length",
    ]
    .into_iter()
    .collect();
    for which in ["full", "base"] {
        let dir = work.join(format!("ssdsim/{which}"));
        let params = read(&dir.join("page.parameters"));
        let mut seen = BTreeSet::new();
        let mut values = std::collections::BTreeMap::new();
        for line in params.lines() {
            if line.starts_with('#') || line.starts_with(' ') || !line.contains('=') {
                continue;
            }
            let (k, v) = line.split_once('=').unwrap();
            let k = k.trim_end();
            let v = v.trim().split(';').next().unwrap().trim();
            let key = if k.starts_with("chip number[") {
                "chip number[i]"
            } else {
                k
            };
            assert!(
                key == "chip number[i]" || known.contains(key),
                "{which}: SSDSim reads no key {k:?}"
            );
            assert!(v.parse::<f64>().is_ok(), "{which}: {k} = {v:?} is a number");
            if key != "chip number[i]" {
                assert!(seen.insert(k.to_string()), "{which}: {k} twice");
            }
            values.insert(k.to_string(), v.to_string());
        }
        for (k, v) in [
            ("channel number", "4"),
            ("chip number", "8"),
            ("chip number[3]", "2"),
            ("block number", "64"),
            ("page number", "64"),
            ("subpage page", "8"),
            ("dram capacity", "0"),
            ("allocation", "1"),
            ("static_allocation", "1"),
            ("advanced command", "0"),
            ("aged", "0"),
            ("gc hard threshold", "0.046875"),
            ("queue_length", "32"),
        ] {
            assert_eq!(values.get(k).map(String::as_str), Some(v), "{which}: {k}");
        }
        let (writes, reads, _) = check_trace(&dir.join("trace.ascii"));
        let shared = if which == "full" { 222 } else { 22 };
        assert_eq!((writes, reads), (3 * logical + shared, 1), "{which}");
    }
}

#[test]
fn ssdgc_side_runs_alone_and_prints_no_ratio() {
    let work = scratch_dir("bench-run");
    let (code, stdout, stderr) = compare(&[
        "--work",
        work.to_str().unwrap(),
        "--requests",
        "4000",
        "--blocks-per-plane",
        "64",
    ]);
    assert_eq!(code, Some(0), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(stdout.contains("ssdgc (as MQSim)") && stdout.contains("ssdgc (as SSDSim)"));
    assert!(stdout.contains("ssdgc's side only, no ratio"), "{stdout}");
    assert!(
        !stdout.contains("ssdgc / "),
        "no ratio without another simulator:\n{stdout}"
    );

    let results: Value = serde_json::from_str(&read(&work.join("results.json"))).unwrap();
    let runs = results["results"].as_array().unwrap();
    assert_eq!(runs.len(), 2, "two ssdgc runs and nothing else");
    assert!(results["ratios"].as_array().unwrap().is_empty());
    for r in runs {
        assert_eq!(r["simulator"], "ssdgc");
        assert_eq!(u64_at(r, &["requests"]), 4000, "the measured window");
        let waf = f64_at(r, &["waf"]);
        assert!(waf > 1.5 && waf < 10.0, "steady-state WAF {waf}");
        assert!(u64_at(r, &["gc"]) > 0);
        assert!(f64_at(r, &["cpu_s_full"]) > 0.0);
    }
}

#[test]
fn bad_arguments_are_refused_before_running() {
    let work = scratch_dir("bench-bad");
    let w = work.to_str().unwrap();
    let missing = work.join("no-such-mqsim");
    let (code, _, stderr) = compare(&["--work", w, "--mqsim", missing.to_str().unwrap()]);
    assert_ne!(code, Some(0));
    assert!(stderr.contains("not an executable file"), "{stderr}");
    let (code, _, stderr) = compare(&["--dry-run", "--work", w, "--blocks-per-plane", "100"]);
    assert_ne!(code, Some(0));
    assert!(stderr.contains("power of two"), "{stderr}");
    assert!(!work.join("logs").exists());
}

/// The match check on results built by hand (no simulator involved): a ratio within the
/// tolerance, none outside it.
#[test]
fn ratio_is_refused_when_the_work_differs() {
    let code = r#"
import sys
sys.path.insert(0, sys.argv[1])
import compare
def r(sim, matches, rate, waf, gc):
    return {"simulator": sim, "matches": matches, "requests": 1000, "cpu_s": 1000 / rate,
            "requests_per_cpu_s": rate, "waf": waf, "gc": gc, "gc_per_1k_writes": gc,
            "saturated": False}
matched = [r("ssdgc", "MQSim", 1e6, 4.80, 75.0), r("MQSim", None, 4e4, 4.90, 76.0)]
ok, ratios = compare.report(matched, 0.05, 1000)
assert ratios[0]["ratio"] == 25.0, ratios
assert "ssdgc / MQSim: 25.0x" in ok, ok
short, ratios = compare.report(matched, 0.05, 2000)
assert ratios[0]["ratio"] is None and "different number of requests" in short, short
bad, ratios = compare.report([r("ssdgc", "SSDSim", 1e6, 4.80, 75.0), r("SSDSim", None, 1e5, 3.90, 60.0)], 0.05, 1000)
assert ratios[0]["ratio"] is None, ratios
assert "ssdgc / SSDSim: no ratio" in bad and "tolerance" in bad, bad
print("checked")
"#;
    let bench = script().parent().unwrap().to_path_buf();
    let out = Command::new("python3")
        .args(["-c", code])
        .arg(bench)
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "checked");
}
