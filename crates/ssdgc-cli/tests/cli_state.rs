//! Aged drives kept across runs (`--save-state`, `--load-state`): the same reports as ageing
//! anew, refused with a one-line error when the ageing inputs differ or the file is damaged.

mod common;

use common::{json, ok, scratch_dir, user_error, without_wall_time};

const TINY: &str = "count=600,read=0.3,size=exp:8KiB,interarrival=exp:400us";

fn path_str(p: &std::path::Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn a_saved_drive_gives_the_reports_of_ageing_anew() {
    let dir = scratch_dir("state");
    let state = dir.join("aged.state");
    let saved = json(&[
        "run",
        "--json",
        "-q",
        "--seed",
        "3",
        "--synthetic",
        TINY,
        "--save-state",
        path_str(&state),
    ]);
    assert!(state.is_file());
    let plain = json(&["run", "--json", "-q", "--seed", "3", "--synthetic", TINY]);
    assert_eq!(
        without_wall_time(saved.clone()),
        without_wall_time(plain.clone())
    );
    let loaded = json(&[
        "run",
        "--json",
        "-q",
        "--seed",
        "3",
        "--synthetic",
        TINY,
        "--load-state",
        path_str(&state),
    ]);
    assert_eq!(without_wall_time(loaded), without_wall_time(plain));
    // Schemes, timing and the workload are not ageing inputs: one state serves them all.
    let cmp = json(&[
        "compare",
        "--json",
        "-q",
        "--seed",
        "3",
        "--gc",
        "pgc,zero,pagc-threshold",
        "--set",
        "timing.program=\"800us\"",
        "--synthetic",
        "count=300,read=0.5",
        "--load-state",
        path_str(&state),
    ]);
    for (i, scheme) in ["pgc", "zero", "pagc-threshold"].iter().enumerate() {
        let alone = json(&[
            "run",
            "--json",
            "-q",
            "--seed",
            "3",
            "--gc",
            scheme,
            "--set",
            "timing.program=\"800us\"",
            "--synthetic",
            "count=300,read=0.5",
        ]);
        assert_eq!(
            without_wall_time(cmp["runs"][i].clone()),
            without_wall_time(alone),
            "{scheme}"
        );
    }
}

#[test]
fn a_state_of_other_inputs_or_a_damaged_file_is_a_one_line_error() {
    let dir = scratch_dir("state-bad");
    let state = dir.join("aged.state");
    ok(&[
        "run",
        "-q",
        "--synthetic",
        TINY,
        "--save-state",
        path_str(&state),
    ]);
    for (args, needles) in [
        (&["--seed", "2"][..], &["seed = 1", "seed = 2"][..]),
        (&["--victim", "fifo"], &["victim = greedy", "victim = fifo"]),
        (&["--set", "gc.threshold=0.1"], &["trigger"]),
        (
            &["--precondition", "fill"],
            &["precondition = steady:2", "precondition = fill"],
        ),
        (&["--set", "geometry.blocks_per_plane=300"], &["geometry"]),
    ] {
        let mut a = vec![
            "run",
            "-q",
            "--synthetic",
            TINY,
            "--load-state",
            path_str(&state),
        ];
        a.extend_from_slice(args);
        let e = user_error(&a);
        common::assert_mentions(&e, &["--load-state", "aged.state", "it was aged with"]);
        common::assert_mentions(&e, needles);
    }
    let bytes = std::fs::read(&state).unwrap();
    let damaged = [
        ("truncated", bytes[..bytes.len() / 2].to_vec(), "truncated"),
        (
            "flipped",
            {
                let mut b = bytes.clone();
                let i = b.len() - 100;
                b[i] ^= 1;
                b
            },
            "corrupt",
        ),
        (
            "text",
            b"[geometry]\nchannels = 2\n".to_vec(),
            "not an ssdgc aged-state file",
        ),
        ("empty", Vec::new(), "not an ssdgc aged-state file"),
    ];
    for (name, content, want) in damaged {
        let p = dir.join(name);
        std::fs::write(&p, content).unwrap();
        let e = user_error(&[
            "run",
            "-q",
            "--synthetic",
            TINY,
            "--load-state",
            path_str(&p),
        ]);
        common::assert_mentions(&e, &["--load-state", want]);
    }
    let e = user_error(&["run", "-q", "--load-state", "/no/such/file"]);
    common::assert_mentions(&e, &["--load-state /no/such/file", "cannot open"]);
    // Several drives aged differently cannot share one file.
    let e = user_error(&[
        "run",
        "-q",
        "--seeds",
        "2",
        "--synthetic",
        TINY,
        "--save-state",
        path_str(&dir.join("x")),
    ]);
    common::assert_mentions(&e, &["--save-state", "age alike", "seed"]);
    let e = user_error(&[
        "compare",
        "--vary",
        "victim=greedy,fifo",
        "--synthetic",
        TINY,
        "--load-state",
        path_str(&state),
    ]);
    common::assert_mentions(&e, &["--load-state", "fifo", "victim"]);
}

#[test]
fn trace_preconditioning_keys_the_workload_and_log_block_drives_are_not_kept() {
    let dir = scratch_dir("state-trace");
    let state = dir.join("aged.state");
    let run = |spec: &str, extra: &[&str]| {
        let mut a = vec![
            "run",
            "--json",
            "-q",
            "--precondition",
            "trace:0.5",
            "--synthetic",
            spec,
        ];
        a.extend_from_slice(extra);
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let saved = json(&run(TINY, &["--save-state", path_str(&state)]));
    let loaded = json(&run(TINY, &["--load-state", path_str(&state)]));
    assert_eq!(without_wall_time(saved), without_wall_time(loaded));
    // Aged with another workload's pages: refused, naming the workload.
    let mut other = run(
        "count=600,read=0.3,size=16KiB",
        &["--load-state", path_str(&state)],
    );
    other.retain(|a| a != "--json");
    let e = user_error(&other);
    common::assert_mentions(
        &e,
        &["--load-state", "it was aged with workload = synthetic"],
    );
    // A log-block drive has no snapshot to keep.
    let e = user_error(&[
        "run",
        "-q",
        "--set",
        "ftl.mapping=\"lftl\"",
        "--synthetic",
        TINY,
        "--save-state",
        path_str(&dir.join("lftl.state")),
    ]);
    common::assert_mentions(&e, &["cannot be kept", "mapping"]);
    assert!(!dir.join("lftl.state").exists());
}
