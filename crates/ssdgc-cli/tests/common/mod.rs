//! Helpers shared by the command-line integration tests: running the `ssdgc` binary, parsing its
//! JSON reports, checking the one-line error contract, temporary files and the shared traces.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

/// A small open-loop synthetic workload that makes the default drive collect garbage.
pub const SMALL: &str = "count=2000,read=0.3,size=exp:16KiB,interarrival=exp:200us";

/// What one invocation of the binary produced.
#[derive(Debug)]
pub struct Output {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Output {
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
}

/// Runs `ssdgc ARGS`, with stdin closed and no terminal (so no progress bar).
pub fn ssdgc<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_ssdgc"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the ssdgc binary runs");
    Output {
        code: out.status.code(),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// Runs `ssdgc ARGS`, asserts success and returns stdout.
pub fn ok<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> String {
    let out = ssdgc(args);
    assert!(
        out.success(),
        "ssdgc {args:?} failed with {:?}\nstderr:\n{}",
        out.code,
        out.stderr
    );
    out.stdout
}

/// Runs `ssdgc ARGS` (which should include `--json`), asserts success and parses stdout as one
/// JSON value (and nothing else).
pub fn json<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> Value {
    let stdout = ok(args);
    serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("ssdgc {args:?}: stdout is not one JSON value: {e}\n{stdout}"))
}

/// Asserts the user-error contract: exit status 2, nothing on stdout, exactly one line on stderr
/// starting `ssdgc: error: `, no panic or backtrace. Returns that line.
pub fn user_error<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> String {
    let out = ssdgc(args);
    let ctx = format!(
        "ssdgc {args:?}\nexit: {:?}\nstdout:\n{}\nstderr:\n{}",
        out.code, out.stdout, out.stderr
    );
    assert_eq!(out.code, Some(2), "exit status must be 2: {ctx}");
    assert!(
        !out.stderr.contains("panicked")
            && !out.stderr.contains("RUST_BACKTRACE")
            && !out.stderr.contains("stack backtrace"),
        "a user error must not panic: {ctx}"
    );
    assert!(
        out.stderr.ends_with('\n'),
        "stderr must end with a newline: {ctx}"
    );
    let lines: Vec<&str> = out.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "stderr must be exactly one line: {ctx}");
    assert!(
        lines[0].starts_with("ssdgc: error: "),
        "stderr must start with 'ssdgc: error: ': {ctx}"
    );
    assert!(out.stdout.is_empty(), "nothing on stdout on error: {ctx}");
    lines[0].to_string()
}

/// Asserts that `line` contains every needle.
pub fn assert_mentions(line: &str, needles: &[&str]) {
    for n in needles {
        assert!(
            line.contains(n),
            "error message should mention {n:?}: {line}"
        );
    }
}

/// A fresh, empty directory for one test's files, under Cargo's per-target temporary directory.
pub fn scratch_dir(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "cli-{name}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// Writes `text` to `name` in a fresh scratch directory and returns its path.
pub fn write_file(test: &str, name: &str, text: &str) -> PathBuf {
    let path = scratch_dir(test).join(name);
    std::fs::write(&path, text).expect("write scratch file");
    path
}

/// True under continuous integration (`CI` set and not `false`/`0`), where a missing input is a
/// failure, never a skip.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// The shared real traces directory, or `None` (with a note on stderr) when it is absent outside CI.
/// Under CI a missing directory fails the test: CI's clean clone has `../shared` beside it.
pub fn traces_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/traces"
    ));
    if dir.is_dir() {
        Some(dir)
    } else {
        assert!(
            !under_ci(),
            "shared traces not found at {} (CI must have ../shared beside the clone)",
            dir.display()
        );
        eprintln!(
            "note: shared traces not found at {}; skipping",
            dir.display()
        );
        None
    }
}

/// One shared trace by name, or `None` (with a note) when it is absent outside CI; under CI a
/// missing trace fails the test.
pub fn shared_trace(name: &str) -> Option<PathBuf> {
    let path = traces_dir()?.join(name);
    if path.is_file() {
        Some(path)
    } else {
        assert!(!under_ci(), "shared trace {} not found", path.display());
        eprintln!("note: shared trace {} not found; skipping", path.display());
        None
    }
}

/// `v[a][b]...` as u64, panicking with the path when absent or not an unsigned integer.
pub fn u64_at(v: &Value, path: &[&str]) -> u64 {
    at(v, path)
        .as_u64()
        .unwrap_or_else(|| panic!("{path:?} is not an unsigned integer in {v}"))
}

/// `v[a][b]...` as f64, panicking with the path when absent or not a number.
pub fn f64_at(v: &Value, path: &[&str]) -> f64 {
    at(v, path)
        .as_f64()
        .unwrap_or_else(|| panic!("{path:?} is not a number in {v}"))
}

/// `v[a][b]...`, panicking with the path when absent.
pub fn at<'a>(v: &'a Value, path: &[&str]) -> &'a Value {
    let mut cur = v;
    for (i, k) in path.iter().enumerate() {
        cur = cur
            .get(k)
            .unwrap_or_else(|| panic!("missing key {:?} in report", &path[..=i]));
    }
    cur
}

/// A report with `sim.wall_s` (the only non-deterministic value) set to 0.
pub fn without_wall_time(mut v: Value) -> Value {
    v["sim"]["wall_s"] = Value::from(0.0);
    v
}

/// An `ssdgc` command line built up from its parts: `Cmd::run().sets(&["geometry.channels=1"])
/// .args(&["--victim", "fifo"]).json()`. Settings are written `section.key=value` and passed as
/// `--set` each.
#[derive(Clone, Debug, Default)]
pub struct Cmd {
    args: Vec<String>,
}

impl Cmd {
    /// `ssdgc run --json`.
    pub fn run() -> Cmd {
        Cmd::default().args(&["run", "--json"])
    }

    /// Appends arguments as they are.
    pub fn args(mut self, args: &[&str]) -> Cmd {
        self.args.extend(args.iter().map(|a| a.to_string()));
        self
    }

    /// Appends one `--set` per `section.key=value`.
    pub fn sets(mut self, settings: &[&str]) -> Cmd {
        for s in settings {
            self.args.push("--set".into());
            self.args.push(s.to_string());
        }
        self
    }

    /// Runs it, asserts success and parses the JSON report.
    pub fn json(&self) -> Value {
        json(&self.args)
    }

    /// Runs it and asserts a user error (exit 2, one line); returns the line.
    pub fn user_error(&self) -> String {
        user_error(&self.args)
    }
}
