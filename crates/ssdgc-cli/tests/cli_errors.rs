//! User errors: every one exits with status 2 and prints exactly one line on stderr,
//! `ssdgc: error: ...`, naming where the problem is (the override, FILE:LINE, the flag or the
//! request), never a panic or a backtrace.

mod common;

use common::{assert_mentions, scratch_dir, user_error, write_file, SMALL};

/// A valid MSR Cambridge CSV of `n` alternating reads and writes; `bad` replaces line `bad.0`
/// (1-based) with `bad.1`.
fn msr_csv(n: usize, bad: Option<(usize, &str)>) -> String {
    let mut out = String::new();
    for i in 0..n {
        let line = format!(
            "{},hm,0,{},{},4096,100",
            128_166_372_003_061_629u64 + i as u64 * 10_000,
            if i % 2 == 0 { "Write" } else { "Read" },
            i * 8192
        );
        match bad {
            Some((l, text)) if l == i + 1 => out.push_str(text),
            _ => out.push_str(&line),
        }
        out.push('\n');
    }
    out
}

// ---- configuration: --set, --preset, --config ---------------------------------------------

#[test]
fn unknown_set_key() {
    let e = user_error(&["run", "--set", "geometry.nosuch=1"]);
    assert_mentions(
        &e,
        &[
            "--set geometry.nosuch=1",
            "unknown key 'geometry.nosuch'",
            "channels",
        ],
    );
}

#[test]
fn unknown_set_section() {
    let e = user_error(&["run", "--set", "nosuch.key=1"]);
    assert_mentions(
        &e,
        &["--set nosuch.key=1", "unknown section 'nosuch'", "geometry"],
    );
}

#[test]
fn set_without_section_or_value() {
    for bad in ["nodot", "geometry.channels", "channels=2"] {
        let e = user_error(&["run", "--set", bad]);
        assert_mentions(&e, &[bad, "section.key=value"]);
    }
}

#[test]
fn set_with_the_wrong_type() {
    let e = user_error(&["run", "--set", "gc.threshold=true"]);
    assert_mentions(
        &e,
        &[
            "--set gc.threshold=true",
            "gc.threshold",
            "must be a number",
        ],
    );
    let e = user_error(&["run", "--set", "gc.copyback=1"]);
    assert_mentions(&e, &["gc.copyback", "true or false"]);
    let e = user_error(&["run", "--set", "timing.read=fast"]);
    assert_mentions(&e, &["timing.read", "fast"]);
    let e = user_error(&["run", "--set", "geometry.page_size=abc"]);
    assert_mentions(&e, &["geometry.page_size", "abc"]);
}

#[test]
fn set_a_string_for_an_integer_key_names_the_key() {
    let e = user_error(&["run", "--set", "geometry.channels=abc"]);
    assert_mentions(&e, &["--set geometry.channels=abc", "geometry.channels"]);
}

#[test]
fn set_an_integer_for_a_string_key_names_the_key() {
    let e = user_error(&["run", "--set", "gc.scheme=1"]);
    assert_mentions(&e, &["--set gc.scheme=1", "gc.scheme"]);
}

#[test]
fn set_with_an_invalid_value() {
    let e = user_error(&["run", "--set", "host.fold=sideways"]);
    assert_mentions(&e, &["host.fold", "sideways", "wrap", "reject"]);
    let e = user_error(&["run", "--set", "gc.threshold=0.7"]);
    assert_mentions(&e, &["gc.threshold"]);
    let e = user_error(&["run", "--set", "geometry.channels=0"]);
    assert_mentions(&e, &["geometry.channels", "at least 1"]);
    let e = user_error(&["run", "--set", "ftl.allocation=CWDX"]);
    assert_mentions(&e, &["ftl.allocation"]);
    let e = user_error(&["run", "--set", "precondition.mode=hot"]);
    assert_mentions(&e, &["precondition.mode", "hot"]);
    let e = user_error(&["run", "--precondition", "trace:x"]);
    assert_mentions(&e, &["trace:x", "trace:N"]);
}

/// Page registers, parallel workers, IPPBE, the copyback parity restriction, what GC holds and the
/// die queue's order: a meaningless or impossible setting is one line naming the keys.
#[test]
fn migration_and_scheduling_settings_are_one_line_errors() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &["--gc", "parallel", "--set", "gc.workers=4"],
            &["gc.workers = 4", "geometry.registers_per_plane = 1"],
        ),
        (
            &["--set", "geometry.registers_per_plane=16"],
            &["geometry.registers_per_plane = 16"],
        ),
        (
            &["--gc", "pagc-blind", "--set", "gc.erase_blocks=2"],
            &["gc.erase_blocks", "gc.planes"],
        ),
        (
            &["--gc", "zero", "--set", "gc.erase_blocks=2"],
            &["gc.erase_blocks", "instant"],
        ),
        (
            &["--set", "gc.copyback_parity=paper"],
            &["gc.copyback_parity", "gc.migration"],
        ),
        (
            &["--set", "gc.copyback_parity=odd"],
            &["gc.copyback_parity", "in-order"],
        ),
        (&["--set", "gc.blocking=chip"], &["gc.blocking", "channel"]),
        (
            &["--set", "host.priority=writes"],
            &["host.priority", "reads-first"],
        ),
    ];
    for (args, words) in cases {
        let mut all = vec!["run"];
        all.extend_from_slice(args);
        let e = user_error(&all);
        assert_mentions(&e, words);
    }
}

#[test]
fn impossible_geometry() {
    let e = user_error(&["run", "--set", "geometry.overprovision=0"]);
    assert_mentions(&e, &["impossible geometry", "overprovision"]);
    let e = user_error(&["run", "--set", "geometry.overprovision=0.97"]);
    assert_mentions(&e, &["geometry.overprovision"]);
    // The same in compare, before any run starts.
    let e = user_error(&[
        "compare",
        "--gc",
        "baseline,zero",
        "--set",
        "geometry.overprovision=0",
    ]);
    assert_mentions(&e, &["impossible geometry"]);
}

#[test]
fn config_file_with_an_unknown_key_names_file_and_line() {
    let path = write_file(
        "unknown-key",
        "drive.toml",
        "# drive\n[geometry]\nchannels = 4\n\nplanez = 2\n",
    );
    let e = user_error(&["run", "--config", path.to_str().unwrap()]);
    assert_mentions(
        &e,
        &[
            &format!("{}:5:", path.display()),
            "unknown key 'geometry.planez'",
        ],
    );
}

#[test]
fn config_file_with_an_unknown_section_names_file_and_line() {
    let path = write_file(
        "unknown-section",
        "drive.toml",
        "[geometry]\nchannels = 2\n\n[nosuch]\nx = 1\n",
    );
    let e = user_error(&["run", "--config", path.to_str().unwrap()]);
    assert_mentions(
        &e,
        &[
            &format!("{}:4:", path.display()),
            "unknown section '[nosuch]'",
        ],
    );
}

#[test]
fn config_file_with_a_wrongly_typed_value_names_file_and_line() {
    let path = write_file(
        "wrong-type",
        "drive.toml",
        "[geometry]\nchannels = 2\n[gc]\nthreshold = \"abc\"\n",
    );
    let e = user_error(&["run", "--config", path.to_str().unwrap()]);
    assert_mentions(
        &e,
        &[
            &format!("{}:4:", path.display()),
            "gc.threshold",
            "must be a number",
        ],
    );
}

#[test]
fn config_file_with_a_string_for_an_integer_names_file_and_line() {
    let path = write_file(
        "string-for-int",
        "drive.toml",
        "[geometry]\nchannels = \"abc\"\n",
    );
    let e = user_error(&["run", "--config", path.to_str().unwrap()]);
    assert_mentions(
        &e,
        &[&format!("{}:2:", path.display()), "geometry.channels"],
    );
}

#[test]
fn config_file_with_a_duplicate_key_names_file_and_line() {
    let path = write_file(
        "duplicate",
        "drive.toml",
        "[geometry]\nchannels = 2\nchannels = 3\n",
    );
    let e = user_error(&["run", "--config", path.to_str().unwrap()]);
    assert_mentions(&e, &[&path.display().to_string(), "channels"]);
}

#[test]
fn config_file_with_a_syntax_error_is_one_line_naming_file_and_line() {
    let path = write_file(
        "syntax",
        "drive.toml",
        "[geometry]\nchannels = 2\nplanes_per_die = [\n",
    );
    let e = user_error(&["run", "--config", path.to_str().unwrap()]);
    assert_mentions(&e, &[&format!("{}:3:", path.display())]);
    let path = write_file("syntax2", "drive.toml", "garbage = = =\n");
    let e = user_error(&["run", "--config", path.to_str().unwrap()]);
    assert_mentions(&e, &[&format!("{}:1:", path.display())]);
}

#[test]
fn config_file_with_a_syntax_error_names_file_and_line() {
    // The part of the contract that holds today: status 2, FILE:LINE on the first line, no panic.
    let path = write_file(
        "syntax-first-line",
        "drive.toml",
        "[geometry]\nchannels = 2\n[gc\n",
    );
    let out = common::ssdgc(&["run", "--config", path.to_str().unwrap()]);
    assert_eq!(out.code, Some(2), "{out:?}");
    let first = out.stderr.lines().next().unwrap_or_default();
    assert!(first.starts_with("ssdgc: error: "), "{out:?}");
    assert!(first.contains(&format!("{}:3:", path.display())), "{out:?}");
    assert!(!out.stderr.contains("panicked"), "{out:?}");
}

#[test]
fn missing_config_file() {
    let dir = scratch_dir("missing-config");
    let path = dir.join("nope.toml");
    let e = user_error(&["run", "--config", path.to_str().unwrap()]);
    assert_mentions(&e, &[&path.display().to_string(), "cannot read"]);
    // A directory is not a config file either.
    let e = user_error(&["run", "--config", dir.to_str().unwrap()]);
    assert_mentions(&e, &[&dir.display().to_string(), "cannot read"]);
}

#[test]
fn unknown_preset() {
    let e = user_error(&["run", "--preset", "nope"]);
    assert_mentions(
        &e,
        &["--preset", "unknown preset 'nope'", "default", "pagc"],
    );
}

#[test]
fn unknown_gc_scheme() {
    let e = user_error(&["run", "--gc", "nope"]);
    assert_mentions(&e, &["--gc", "nope", "baseline", "zero"]);
    let e = user_error(&["compare", "--gc", "baseline,nope"]);
    assert_mentions(&e, &["--gc", "nope"]);
}

#[test]
fn unknown_victim_policy() {
    let e = user_error(&["run", "--victim", "nope"]);
    assert_mentions(&e, &["--victim", "nope", "greedy", "cost-benefit"]);
    for bad in ["rga:0", "rga:x", "rga:", "greedy:2"] {
        let e = user_error(&["run", "--victim", bad]);
        assert_mentions(&e, &["--victim", bad]);
    }
    // The table form's parameters are checked, naming the file's line.
    let f = write_file(
        "unknown_victim_policy",
        "victim.toml",
        "[gc]\nthreshold = 0.05\nvictim = { policy = \"rga\", d = 0 }\n",
    );
    let e = user_error(&["run", "--config", f.to_str().unwrap()]);
    assert_mentions(&e, &["victim.toml:3", "'gc.victim.d' = 0", "1..="]);
    let f = write_file(
        "unknown_victim_policy",
        "param.toml",
        "[gc.victim]\npolicy = \"greedy\"\nd = 8\n",
    );
    let e = user_error(&["run", "--config", f.to_str().unwrap()]);
    assert_mentions(
        &e,
        &["param.toml:1", "'gc.victim.d' is not a parameter of greedy"],
    );
}

#[test]
fn invalid_run_options() {
    let e = user_error(&["run", "--precondition", "bogus"]);
    assert_mentions(&e, &["--precondition", "bogus"]);
    let e = user_error(&["run", "--queue-depth", "0"]);
    assert_mentions(&e, &["host.queue_depth"]);
    let e = user_error(&["run", "--time-scale=-1"]);
    assert_mentions(&e, &["host.time_scale"]);
    let e = user_error(&["run", "--fold", "sideways"]);
    assert_mentions(&e, &["host.fold", "sideways"]);
}

// ---- workloads: traces and --synthetic ------------------------------------------------------

#[test]
fn malformed_trace_line_names_file_and_line() {
    let bad = "128166372003081629,hm,0,Wrte,16384,4096,100";
    let path = write_file("malformed", "bad.csv", &msr_csv(12, Some((3, bad))));
    // Auto-detected (one bad line in twelve still reads as MSR) ...
    let e = user_error(&["run", path.to_str().unwrap(), "-q"]);
    assert_mentions(&e, &[&format!("{}:3:", path.display()), "field 4", "Wrte"]);
    // ... and with the format given.
    let e = user_error(&["run", path.to_str().unwrap(), "--format", "msr", "-q"]);
    assert_mentions(&e, &[&format!("{}:3:", path.display()), "Wrte"]);
}

#[test]
fn malformed_trace_line_after_the_detection_window_names_its_line() {
    let bad = "128166372003061629,hm,0,Write,notanumber,4096,100";
    let path = write_file(
        "malformed-late",
        "late.csv",
        &msr_csv(200, Some((150, bad))),
    );
    let e = user_error(&["run", path.to_str().unwrap(), "-q"]);
    assert_mentions(&e, &[&format!("{}:150:", path.display()), "notanumber"]);
}

#[test]
fn trace_going_back_in_time_names_the_line() {
    let mut text = msr_csv(10, None);
    text.push_str("128166372003000000,hm,0,Write,0,4096,100\n");
    let path = write_file("backwards", "back.csv", &text);
    let e = user_error(&["run", path.to_str().unwrap(), "--format", "msr", "-q"]);
    assert_mentions(&e, &[&format!("{}:11:", path.display())]);
}

#[test]
fn missing_trace_file() {
    let path = scratch_dir("missing-trace").join("nope.csv");
    let e = user_error(&["run", path.to_str().unwrap(), "-q"]);
    assert_mentions(&e, &[&path.display().to_string(), "cannot open"]);
}

#[test]
fn unreadable_trace_file() {
    let dir = scratch_dir("dir-trace");
    let e = user_error(&["run", dir.to_str().unwrap(), "-q"]);
    assert_mentions(&e, &[&dir.display().to_string()]);
}

#[test]
fn undetectable_or_empty_trace() {
    let path = write_file("garbage", "junk.txt", "hello world\nthis is not a trace\n");
    let e = user_error(&["run", path.to_str().unwrap(), "-q"]);
    assert_mentions(&e, &[&path.display().to_string(), "--format"]);
    let path = write_file("empty", "empty.csv", "");
    let e = user_error(&["run", path.to_str().unwrap(), "-q"]);
    assert_mentions(&e, &[&path.display().to_string(), "--format"]);
}

#[test]
fn unknown_trace_format() {
    let path = write_file("format", "ok.csv", &msr_csv(4, None));
    let e = user_error(&["run", path.to_str().unwrap(), "--format", "nope"]);
    assert_mentions(&e, &["--format", "unknown trace format 'nope'", "msr"]);
    let e = user_error(&["run", path.to_str().unwrap(), "--format", "columns"]);
    assert_mentions(&e, &["--format", "columns"]);
    let e = user_error(&["run", path.to_str().unwrap(), "--format", "columns:time=1"]);
    assert_mentions(&e, &["--format"]);
}

#[test]
fn invalid_trace_options() {
    let path = write_file("trace-opts", "ok.csv", &msr_csv(4, None));
    let p = path.to_str().unwrap();
    let e = user_error(&["run", p, "--replay", "bogus"]);
    assert_mentions(&e, &["--replay", "bogus"]);
    let e = user_error(&["run", p, "--replay", "closed:0"]);
    assert_mentions(&e, &["--replay", "closed:0"]);
    let e = user_error(&["run", p, "--disksim-time", "xx"]);
    assert_mentions(&e, &["--disksim-time", "xx"]);
    let e = user_error(&["run", p, "--blkparse-event", "Z"]);
    assert_mentions(&e, &["--blkparse-event"]);
}

#[test]
fn invalid_trace_options_are_rejected_without_a_trace() {
    let e = user_error(&["run", "--synthetic", "count=10", "--replay", "bogus"]);
    assert_mentions(&e, &["--replay", "bogus"]);
    let e = user_error(&["run", "--synthetic", "count=10", "--format", "nope"]);
    assert_mentions(&e, &["--format", "nope"]);
}

#[test]
fn bad_synthetic_spec() {
    let e = user_error(&["run", "--synthetic", "count=10,bogus=1"]);
    assert_mentions(&e, &["--synthetic", "unknown key 'bogus'", "count"]);
    let e = user_error(&["run", "--synthetic", "count=abc"]);
    assert_mentions(&e, &["--synthetic", "count", "abc"]);
    let e = user_error(&["run", "--synthetic", "read=1.5"]);
    assert_mentions(&e, &["--synthetic", "read"]);
    let e = user_error(&["run", "--synthetic", "size=exp:lots"]);
    assert_mentions(&e, &["--synthetic", "size"]);
    let e = user_error(&["compare", "--gc", "baseline,zero", "--synthetic", "qd=0"]);
    assert_mentions(&e, &["--synthetic", "qd"]);
}

#[test]
fn trace_beyond_the_drive_with_fold_reject_names_file_and_request() {
    let mut text = msr_csv(3, None);
    text.push_str("128166372003161629,hm,0,Write,99999999999999,4096,100\n");
    let path = write_file("reject", "big.csv", &text);
    let e = user_error(&["run", path.to_str().unwrap(), "--fold", "reject", "-q"]);
    assert_mentions(
        &e,
        &[
            &path.display().to_string(),
            "request 4",
            "99999999999999",
            "host.fold",
        ],
    );
    // The same through the configuration rather than the flag.
    let e = user_error(&[
        "run",
        path.to_str().unwrap(),
        "--set",
        "host.fold=\"reject\"",
        "-q",
    ]);
    assert_mentions(&e, &[&path.display().to_string(), "request 4"]);
}

#[test]
fn trace_beyond_the_drive_is_folded_by_default() {
    let mut text = msr_csv(3, None);
    text.push_str("128166372003161629,hm,0,Write,99999999999999,4096,100\n");
    let path = write_file("wrap", "big.csv", &text);
    let r = common::json(&["run", path.to_str().unwrap(), "--json", "-q"]);
    assert_eq!(common::u64_at(&r, &["requests", "total"]), 4);
}

// ---- command line (clap) ----------------------------------------------------------------------

#[test]
fn unknown_subcommand() {
    let e = user_error(&["frobnicate"]);
    assert_mentions(&e, &["frobnicate"]);
}

#[test]
fn unknown_flag() {
    let e = user_error(&["run", "--frobnicate"]);
    assert_mentions(&e, &["--frobnicate"]);
    let e = user_error(&["compare", "--gc", "baseline", "--frobnicate"]);
    assert_mentions(&e, &["--frobnicate"]);
}

#[test]
fn bad_flag_values() {
    let e = user_error(&["run", "--seed", "abc"]);
    assert_mentions(&e, &["--seed", "abc"]);
    let e = user_error(&["run", "--gc"]);
    assert_mentions(&e, &["--gc"]);
    let e = user_error(&["list", "bogus"]);
    assert_mentions(&e, &["bogus"]);
    let e = user_error(&["run", "--synthetic", SMALL, "trace.csv"]);
    assert_mentions(&e, &["--synthetic"]);
}

#[test]
fn missing_required_argument_is_named() {
    let e = user_error(&["compare"]);
    assert_mentions(&e, &["--gc"]);
}

#[test]
fn missing_required_argument_is_a_one_line_error() {
    user_error(&["compare"]);
    user_error(&["compare", "--json"]);
}

#[test]
fn no_subcommand_prints_usage_and_exits_2() {
    let out = common::ssdgc::<&str>(&[]);
    assert_eq!(out.code, Some(2), "{out:?}");
    assert!(out.stderr.contains("Usage"), "{out:?}");
    assert!(!out.stderr.contains("panicked"), "{out:?}");
}
