//! Value goldens: the JSON report of every GC scheme, and of the settings that change how the
//! mechanism works (victim policies, copyback, the free-page trigger, the write buffer, allocation
//! order, parallel migration, IPPBE, the parity restriction, what GC holds, the die's priority,
//! trace preconditioning), on fixed small runs — synthetic workloads and shared real traces.
//!
//! Each golden is stored as the report it was pinned from (`tests/goldens/NAME.json`). The check
//! compares *values*, not bytes: both reports are flattened to `dotted.key = value` and every key of
//! the golden must be present in the current report (through [`RENAMED`] when the schema moved it)
//! with an equal value. Keys the current report adds are allowed. `sim.wall_s` is ignored. A key of
//! an optional section (a capability of `schemes`, `ftl`, or `buffer`) that the current report
//! leaves out entirely must be zero in the golden: nothing that was counted disappears.
//!
//! A change of results on purpose re-pins the goldens (`SSDGC_BLESS=1 cargo test -p ssdgc-cli
//! --test goldens`) and names the change in docs/CHANGELOG.md.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

/// One pinned run: its name and its `ssdgc run` arguments (after `run --json -q`).
struct Case {
    name: &'static str,
    args: &'static [&'static str],
    /// A shared trace replayed by the run (by name), if any.
    trace: Option<&'static str>,
}

const SYN: &str = "count=3000,read=0.3,size=exp:16KiB,interarrival=exp:200us";
const TRACE: &str = "heimdall_msr_cut10k_rw_40_60_1370.trace";
const MSR: &str = "msr_hm0_snia_sample.csv";

/// Every scheme, on the synthetic workload and on a real trace.
const SCHEMES: &[&str] = &[
    "baseline",
    "idle",
    "pagc-blind",
    "pagc-threshold",
    "pagc-cache",
    "superblock",
    "pgc-none",
    "pgc-merge",
    "pgc-pipeline",
    "pgc",
    "pgc-se",
    "fpgc",
    "agc",
    "dgc",
    "agc-dgc",
    "pftl",
    "zero",
    "parallel",
];

fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for &s in SCHEMES {
        let syn: &'static [&'static str] = leak(&["--seed", "7", "--synthetic", SYN, "--gc", s]);
        v.push(Case {
            name: leak_str(format!("syn-{s}")),
            args: syn,
            trace: None,
        });
        // The trace on a drive of 4 planes per die and 128 blocks per plane, 4x faster than
        // recorded, so that GC runs often.
        let tr: &'static [&'static str] = leak(&[
            "--seed",
            "3",
            "--gc",
            s,
            "--set",
            "geometry.planes_per_die=4",
            "--set",
            "geometry.blocks_per_plane=128",
            "--time-scale",
            "0.25",
        ]);
        v.push(Case {
            name: leak_str(format!("trace-{s}")),
            args: tr,
            trace: Some(TRACE),
        });
    }
    for victim in [
        "rga:8",
        "random",
        "random+",
        "fifo",
        "cost-benefit",
        "cat",
        "wear-aware",
    ] {
        v.push(Case {
            name: leak_str(format!("victim-{}", victim.replace(':', ""))),
            args: leak(&["--seed", "5", "--synthetic", SYN, "--victim", victim]),
            trace: None,
        });
    }
    let extra: &[(&str, &[&str])] = &[
        (
            "nocopyback-baseline",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--set",
                "gc.copyback=false",
            ],
        ),
        (
            "nocopyback-fpgc",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--gc",
                "fpgc",
                "--set",
                "gc.copyback=false",
            ],
        ),
        (
            "pages-trigger-pagc-threshold",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--gc",
                "pagc-threshold",
                "--set",
                "gc.trigger=pages",
                "--set",
                "gc.threshold=0.05",
            ],
        ),
        (
            "pcwd-pagc-cache",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--gc",
                "pagc-cache",
                "--set",
                "ftl.allocation=PCWD",
            ],
        ),
        (
            "buffer-pgc",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--gc",
                "pgc",
                "--set",
                "buffer.size=\"256KiB\"",
            ],
        ),
        (
            "buffer-baseline",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--set",
                "buffer.size=\"256KiB\"",
            ],
        ),
        (
            "closed-loop-pgc",
            &[
                "--seed",
                "9",
                "--synthetic",
                "count=3000,read=0.5,size=4KiB,interarrival=0,qd=8",
                "--gc",
                "pgc",
            ],
        ),
        (
            "pgc-preset-fpgc",
            &[
                "--seed",
                "1",
                "--preset",
                "pgc",
                "--set",
                "geometry.blocks_per_plane=64",
                "--synthetic",
                "count=4000,size=exp:32KiB,interarrival=exp:3ms,seq=0.4,read=0.4",
                "--gc",
                "fpgc",
            ],
        ),
        (
            "series-idle",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--gc",
                "idle",
                "--series-interval",
                "100ms",
                "--series-window",
                "500",
            ],
        ),
        (
            "fill-baseline",
            &["--seed", "7", "--synthetic", SYN, "--precondition", "fill"],
        ),
        (
            "critical-path-baseline",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--set",
                "host.critical_path=true",
                "--set",
                "host.excess_bound=\"5ms\"",
                "--series-window",
                "500",
            ],
        ),
        (
            "buffer-pftl",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--gc",
                "pftl",
                "--set",
                "buffer.size=\"2MiB\"",
                "--set",
                "buffer.latency=\"600us\"",
            ],
        ),
        (
            "parallel-4-workers",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--gc",
                "parallel",
                "--set",
                "geometry.registers_per_plane=4",
                "--set",
                "geometry.register_sharing=none",
            ],
        ),
        (
            "parallel-paper-parity",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--gc",
                "parallel",
                "--set",
                "geometry.registers_per_plane=2",
                "--set",
                "geometry.register_sharing=command",
                "--set",
                "timing.command=2us",
                "--set",
                "gc.copyback_parity=paper",
            ],
        ),
        (
            "nocopyback-parallel",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--gc",
                "parallel",
                "--set",
                "geometry.registers_per_plane=4",
                "--set",
                "geometry.register_sharing=none",
                "--set",
                "gc.copyback=false",
            ],
        ),
        (
            "ippbe-baseline",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--set",
                "gc.erase_blocks=2",
            ],
        ),
        (
            "ippbe-parallel-pgc",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--gc",
                "pgc",
                "--set",
                "gc.migration=parallel",
                "--set",
                "geometry.registers_per_plane=2",
                "--set",
                "gc.erase_blocks=2",
            ],
        ),
        (
            "parity-in-order-baseline",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--set",
                "gc.copyback_parity=in-order",
            ],
        ),
        (
            "blocking-plane-baseline",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--set",
                "gc.blocking=plane",
            ],
        ),
        (
            "blocking-channel-baseline",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--set",
                "geometry.chips_per_channel=2",
                "--set",
                "geometry.channels=1",
                "--set",
                "gc.blocking=channel",
            ],
        ),
        (
            "reads-first-baseline",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--set",
                "host.priority=reads-first",
            ],
        ),
        (
            "trace-precondition-baseline",
            &[
                "--seed",
                "7",
                "--synthetic",
                SYN,
                "--precondition",
                "trace:0.5",
            ],
        ),
    ];
    for (name, args) in extra {
        v.push(Case {
            name,
            args,
            trace: None,
        });
    }
    for s in ["baseline", "pagc-threshold", "pgc", "agc-dgc"] {
        v.push(Case {
            name: leak_str(format!("msr-{s}")),
            args: leak(&["--seed", "2", "--gc", s]),
            trace: Some(MSR),
        });
    }
    // The log-block mappings (L-FTL, H-FTL 2:8), on the synthetic workload and on the trace (the
    // drive of the trace cases above), and L-FTL under idle-time GC on a light workload.
    for m in ["lftl", "hftl"] {
        let mapping = leak_str(format!("ftl.mapping={m}"));
        v.push(Case {
            name: leak_str(format!("syn-{m}")),
            args: leak(&["--seed", "7", "--synthetic", SYN, "--set", mapping]),
            trace: None,
        });
        v.push(Case {
            name: leak_str(format!("trace-{m}")),
            args: leak(&[
                "--seed",
                "3",
                "--set",
                mapping,
                "--set",
                "geometry.planes_per_die=4",
                "--set",
                "geometry.blocks_per_plane=128",
                "--time-scale",
                "0.25",
            ]),
            trace: Some(TRACE),
        });
    }
    // Idle-time merges need idle time: L-FTL thrashes under SYN's random writes and never idles.
    v.push(Case {
        name: "syn-lftl-idle",
        args: &[
            "--seed",
            "7",
            "--synthetic",
            "count=600,read=0.3,size=exp:16KiB,interarrival=exp:300ms",
            "--gc",
            "idle",
            "--set",
            "ftl.mapping=lftl",
        ],
        trace: None,
    });
    // The parallel-page-migration paper's drive (Table 1, 128 blocks per plane), preconditioned
    // from the trace itself, with four workers and with IPPBE.
    for (name, sets) in [
        (
            "ppm-slc-parallel",
            &["gc.migration=parallel", "gc.workers=4"][..],
        ),
        ("ppm-slc-ippbe", &["gc.erase_blocks=2"][..]),
    ] {
        let mut args = vec![
            "--seed",
            "2",
            "--preset",
            "ppm-slc",
            "--set",
            "geometry.blocks_per_plane=128",
        ];
        for s in sets {
            args.extend(["--set", s]);
        }
        v.push(Case {
            name,
            args: leak(&args),
            trace: Some(TRACE),
        });
    }
    v
}

fn leak(a: &[&'static str]) -> &'static [&'static str] {
    Box::leak(a.to_vec().into_boxed_slice())
}

fn leak_str(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Keys of the pinned reports that a later schema moved: (old dotted prefix, new dotted prefix).
/// A golden key starting with an old prefix is looked up under the new one (also inside
/// `drives.N.` of an array).
const RENAMED: &[(&str, &str)] = &[
    // ssdgc-report/1 → /2: scheme counters in one keyed section, one sub-object per capability.
    ("pagc.", "schemes.pagc."),
    ("pgc.state_time_s.", "schemes.states.state_time_s."),
    ("pgc.s3_holds", "schemes.states.s3_holds"),
    ("pgc.idle_jobs", "schemes.idle.idle_jobs"),
    ("pgc.preemptions", "schemes.preempt.preemptions"),
    ("pgc.merged_reads", "schemes.merge.merged_reads"),
    ("pgc.point_a", "schemes.pipeline.point_a"),
    ("pgc.suspensions", "schemes.suspend.suspensions"),
    ("pgc.cancelled_moves", "gc.cancelled_moves"),
];

/// Sections a report has only when the run uses them (`schemes.X`, `ftl`, `buffer`): the section of
/// `key`, if it is in one.
fn optional_section(key: &str) -> Option<String> {
    let (rest, drive) = split_drive(key);
    let parts: Vec<&str> = rest.split('.').collect();
    let section = match parts.as_slice() {
        ["schemes", cap, _, ..] => format!("schemes.{cap}"),
        ["buffer", _, ..] => "buffer".to_string(),
        ["ftl", _, ..] => "ftl".to_string(),
        _ => return None,
    };
    Some(format!("{drive}{section}"))
}

/// `drives.N.rest` → (`rest`, `drives.N.`); any other key → (key, "").
fn split_drive(key: &str) -> (&str, &str) {
    if let Some(r) = key.strip_prefix("drives.") {
        if let Some((n, rest)) = r.split_once('.') {
            if n.chars().all(|c| c.is_ascii_digit()) {
                return (rest, &key[..key.len() - rest.len()]);
            }
        }
    }
    (key, "")
}

/// True for a JSON number equal to 0.
fn is_zero(v: &Value) -> bool {
    v.as_f64() == Some(0.0)
}

fn goldens_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/goldens"))
}

/// `v` flattened to `dotted.key → value` (array elements keyed by index).
fn flatten(v: &Value, prefix: &str, out: &mut BTreeMap<String, Value>) {
    let key = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                flatten(x, &key(k), out);
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                flatten(x, &key(&i.to_string()), out);
            }
        }
        other => {
            out.insert(prefix.to_string(), other.clone());
        }
    }
}

fn renamed(key: &str) -> String {
    let (key, drive) = split_drive(key);
    for (old, new) in RENAMED {
        if let Some(rest) = key.strip_prefix(old) {
            return format!("{drive}{new}{rest}");
        }
    }
    format!("{drive}{key}")
}

/// The differences between a golden and a current report, both flattened.
fn differences(want: &BTreeMap<String, Value>, got: &BTreeMap<String, Value>) -> Vec<String> {
    let mut diffs = Vec::new();
    for (k, w) in want {
        if ignored(k) {
            continue;
        }
        let nk = renamed(k);
        match got.get(&nk) {
            None => {
                // A section left out of the current report must have counted nothing.
                let absent = optional_section(&nk).filter(|sec| {
                    let p = format!("{sec}.");
                    !got.keys().any(|g| g.starts_with(&p))
                });
                match absent {
                    Some(_) if is_zero(w) => {}
                    Some(sec) => diffs.push(format!(
                        "{k}: golden {w}, but the report has no section {sec} (looked up as {nk})"
                    )),
                    None => diffs.push(format!("{k}: missing (looked up as {nk})")),
                }
            }
            Some(g) if g != w => diffs.push(format!("{k}: golden {w}, now {g}")),
            Some(_) => {}
        }
    }
    diffs
}

/// Keys whose value is not a result of the simulation.
fn ignored(key: &str) -> bool {
    key == "sim.wall_s" || key == "schema"
}

fn run_case(case: &Case) -> Option<Value> {
    let mut args: Vec<String> = vec!["run".into(), "--json".into(), "-q".into()];
    args.extend(case.args.iter().map(|s| s.to_string()));
    if let Some(t) = case.trace {
        args.push(common::shared_trace(t)?.to_string_lossy().into_owned());
    }
    let mut v = common::json(&args);
    v["sim"]["wall_s"] = Value::from(0.0);
    Some(v)
}

/// The paths in a report that name files on this machine, made relative so goldens are portable.
fn portable(mut v: Value) -> Value {
    for ptr in ["/workload/source/name", "/workload/name"] {
        if let Some(src) = v.pointer_mut(ptr) {
            if let Some(s) = src.as_str() {
                let name = s.rsplit('/').next().unwrap_or(s).to_string();
                *src = Value::from(name);
            }
        }
    }
    v
}

fn check(case: &Case) {
    let Some(current) = run_case(case) else {
        return;
    };
    let current = portable(current);
    let path = goldens_dir().join(format!("{}.json", case.name));
    if std::env::var_os("SSDGC_BLESS").is_some() {
        std::fs::create_dir_all(goldens_dir()).unwrap();
        let mut text = serde_json::to_string_pretty(&current).unwrap();
        text.push('\n');
        std::fs::write(&path, text).unwrap();
        return;
    }
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("golden {} unreadable: {e}", path.display()));
    let golden: Value = serde_json::from_str(&text).unwrap();
    let (mut want, mut got) = (BTreeMap::new(), BTreeMap::new());
    flatten(&golden, "", &mut want);
    flatten(&current, "", &mut got);
    let diffs = differences(&want, &got);
    assert!(
        diffs.is_empty(),
        "golden {} differs in {} values:\n{}",
        case.name,
        diffs.len(),
        diffs.join("\n")
    );
}

#[test]
fn every_scheme_and_mechanism_setting_matches_its_golden() {
    let cases = cases();
    // Names are unique (one file each).
    let mut names: Vec<&str> = cases.iter().map(|c| c.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), cases.len());
    std::thread::scope(|s| {
        let chunks: Vec<&[Case]> = cases.chunks(cases.len().div_ceil(4)).collect();
        for chunk in chunks {
            s.spawn(move || {
                for c in chunk {
                    check(c);
                }
            });
        }
    });
}

#[test]
fn flattening_and_renaming_compare_values_not_layout() {
    let v: Value = serde_json::json!({"a": {"b": 1, "c": [2, 3]}, "schema": "x"});
    let mut m = BTreeMap::new();
    flatten(&v, "", &mut m);
    assert_eq!(m.get("a.b"), Some(&Value::from(1)));
    assert_eq!(m.get("a.c.1"), Some(&Value::from(3)));
    assert_eq!(m.len(), 4);
    assert_eq!(renamed("unmoved.key"), "unmoved.key");
    assert_eq!(renamed("pgc.point_a"), "schemes.pipeline.point_a");
    assert_eq!(
        renamed("drives.2.pgc.state_time_s.s1"),
        "drives.2.schemes.states.state_time_s.s1"
    );
    assert_eq!(
        renamed("drives.0.pagc.joined"),
        "drives.0.schemes.pagc.joined"
    );
}

#[test]
fn an_absent_section_must_have_counted_nothing() {
    let flat = |v: Value| {
        let mut m = BTreeMap::new();
        flatten(&v, "", &mut m);
        m
    };
    let now = flat(serde_json::json!({
        "gc": {"cancelled_moves": 3},
        "schemes": {"preempt": {"preemptions": 5}},
    }));
    // Moved keys are found; zero counters of sections now left out are fine.
    let old = flat(serde_json::json!({
        "pgc": {"cancelled_moves": 3, "preemptions": 5, "merged_reads": 0,
                "state_time_s": {"s0": 0.0}},
        "pagc": {"joined": 0},
        "buffer": {"size_bytes": 0},
    }));
    assert_eq!(differences(&old, &now), Vec::<String>::new());
    // A non-zero counter whose section disappeared is a difference.
    let old = flat(serde_json::json!({"pgc": {"merged_reads": 2}, "buffer": {"hits_read": 1}}));
    let d = differences(&old, &now);
    assert_eq!(d.len(), 2, "{d:?}");
    assert!(d[0].contains("no section buffer"), "{d:?}");
    assert!(d[1].contains("no section schemes.merge"), "{d:?}");
    // A key missing from a section that is present is a difference, zero or not.
    let old = flat(serde_json::json!({"pgc": {"preemptions": 5}, "gc": {"invocations": 0}}));
    let d = differences(&old, &now);
    assert_eq!(d.len(), 1, "{d:?}");
    assert!(d[0].contains("gc.invocations: missing"), "{d:?}");
}
