//! GC axes from the command line: a named scheme is a preset of axis values, axis keys override
//! it, an override that reproduces another preset gives that preset's results, and meaningless
//! combinations are one-line errors.

mod common;

use common::{assert_mentions, json, ok, u64_at, user_error, SMALL};
use serde_json::Value;

/// The report of `run --json --check` with `args`, without its wall time and scheme name.
fn report(args: &[&str]) -> Value {
    let mut a = vec![
        "run",
        "--json",
        "-q",
        "--check",
        "--seed",
        "4",
        "--synthetic",
        SMALL,
    ];
    a.extend_from_slice(args);
    let mut v = json(&a);
    v["sim"]["wall_s"] = Value::from(0.0);
    v["scheme"] = Value::Null;
    if let Some(o) = v.as_object_mut() {
        o.remove("gc_axes");
    }
    v
}

#[test]
fn overriding_axes_reproduces_the_other_presets() {
    // baseline with paired planes is T-PaGC.
    assert_eq!(
        report(&["--gc", "baseline", "--set", "gc.planes=pagc-threshold"]),
        report(&["--gc", "pagc-threshold"])
    );
    // pgc-none with merging, pipelining and suspension of everything is F-PGC.
    assert_eq!(
        report(&[
            "--gc",
            "pgc-none",
            "--set",
            "gc.merge=true",
            "--set",
            "gc.pipeline=on",
            "--set",
            "gc.suspend=all"
        ]),
        report(&["--gc", "fpgc"])
    );
    // baseline with instant migration is the zero-latency oracle.
    assert_eq!(
        report(&["--set", "gc.migration=instant"]),
        report(&["--gc", "zero"])
    );
}

#[test]
fn pagc_combines_with_preemptible_states_and_suspension() {
    let v = report(&[
        "--gc",
        "pagc-threshold",
        "--set",
        "gc.when=states",
        "--set",
        "gc.preempt=ops",
        "--set",
        "gc.suspend=all",
    ]);
    assert_eq!(u64_at(&v, &["requests", "total"]), 2000);
    assert!(
        u64_at(&v, &["schemes", "pagc", "joined"]) > 0,
        "planes paired: {v}"
    );
    assert!(
        u64_at(&v, &["schemes", "suspend", "suspensions"]) > 0,
        "operations suspended: {v}"
    );
    // Not the same run as either parent scheme.
    assert_ne!(v, report(&["--gc", "pagc-threshold"]));
    assert_ne!(v, report(&["--gc", "fpgc"]));
}

#[test]
fn one_victim_per_trigger_serves_the_write_between_jobs() {
    let restore = report(&[]);
    let one = report(&["--set", "gc.collect=one"]);
    assert_ne!(restore, one);
    assert!(u64_at(&one, &["gc", "invocations"]) > 0);
}

#[test]
fn meaningless_combinations_are_one_line_errors() {
    let e = user_error(&["run", "--gc", "pagc-threshold", "--set", "gc.suspend=all"]);
    assert_mentions(&e, &["gc.suspend", "gc.preempt"]);
    let e = user_error(&["run", "--set", "gc.preempt=ops"]);
    assert_mentions(&e, &["gc.when", "on-demand"]);
    let e = user_error(&["run", "--gc", "zero", "--set", "gc.planes=pagc-blind"]);
    assert_mentions(&e, &["gc.migration", "gc.planes"]);
    let e = user_error(&["run", "--set", "gc.when=sometimes"]);
    assert_mentions(&e, &["gc.when", "sometimes", "on-demand, idle, states"]);
    let e = user_error(&["run", "--set", "gc.merge=3"]);
    assert_mentions(&e, &["gc.merge"]);
}

#[test]
fn list_schemes_shows_each_presets_axes() {
    let out = ok(&["list", "schemes"]);
    assert!(out.contains(
        "axes: when=states collect=restore preempt=ops merge=on pipeline=on suspend=all planes=serial migration=serial"
    ));
    assert!(out.contains(
        "axes: when=on-demand collect=restore preempt=none merge=off pipeline=off suspend=none planes=serial migration=parallel"
    ));
    assert_eq!(out.matches("axes: ").count(), 19, "{out}");
}

/// The keys of `schemes` in a report.
fn capabilities(v: &Value) -> Vec<String> {
    v["schemes"]
        .as_object()
        .expect("schemes is an object")
        .keys()
        .cloned()
        .collect()
}

#[test]
fn the_report_has_a_section_for_each_capability_the_run_uses_only() {
    let base = report(&["--gc", "baseline"]);
    assert_eq!(capabilities(&base), Vec::<String>::new(), "{base}");
    assert!(
        base.get("buffer").is_none(),
        "no buffer section without a buffer"
    );
    let fpgc = report(&["--gc", "fpgc"]);
    assert_eq!(
        capabilities(&fpgc),
        ["merge", "pipeline", "preempt", "states", "suspend"]
    );
    let idle = report(&["--gc", "idle"]);
    assert_eq!(capabilities(&idle), ["idle", "preempt"]);
    // An axis override adds its capability's section to the preset's.
    let mixed = report(&[
        "--gc",
        "pagc-threshold",
        "--set",
        "gc.when=states",
        "--set",
        "gc.preempt=ops",
        "--set",
        "gc.suspend=erase",
        "--set",
        "buffer.size=\"64KiB\"",
    ]);
    assert_eq!(
        capabilities(&mixed),
        ["pagc", "preempt", "states", "suspend"]
    );
    assert_eq!(u64_at(&mixed, &["buffer", "size_bytes"]), 64 * 1024);
    // The table prints the sections the report has.
    let table = ok::<&str>(&[
        "run",
        "-q",
        "--seed",
        "4",
        "--synthetic",
        SMALL,
        "--gc",
        "fpgc",
    ]);
    for line in ["\nstates: per die S0", "\npreempt: ", " suspensions"] {
        assert!(table.contains(line), "table lacks {line:?}:\n{table}");
    }
    assert!(!table.contains("\npagc:"), "{table}");
    let table = ok::<&str>(&["run", "-q", "--seed", "4", "--synthetic", SMALL]);
    for line in ["\nstates:", "\npreempt:", "\npagc:", "\nidle:", "\nbuffer:"] {
        assert!(
            !table.contains(line),
            "baseline table has {line:?}:\n{table}"
        );
    }
}
