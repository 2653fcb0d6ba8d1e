//! Golden reports: the full JSON report of a fixed seed and workload on the default preset, for
//! the baseline and zero-latency schemes. `sim.wall_s`, the only non-deterministic value, is set
//! to 0 before comparison. Any change to the simulator's results shows up here.

mod common;

use common::{json, without_wall_time};

const GOLDEN_SPEC: &str = "count=3000,read=0.3,size=exp:16KiB,interarrival=exp:200us";

fn golden(extra: &[&str]) -> serde_json::Value {
    let mut args = vec![
        "run",
        "--json",
        "-q",
        "--seed",
        "7",
        "--synthetic",
        GOLDEN_SPEC,
    ];
    args.extend_from_slice(extra);
    without_wall_time(json(&args))
}

#[test]
fn golden_default_preset_baseline() {
    insta::assert_json_snapshot!("run_seed7_baseline", golden(&[]));
}

#[test]
fn golden_default_preset_zero() {
    insta::assert_json_snapshot!("run_seed7_zero", golden(&["--gc", "zero"]));
}
