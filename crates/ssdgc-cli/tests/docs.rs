//! The commands shown in README.md and docs/ still work, and the outputs shown are still what they
//! print: the docs cannot drift from the binary.
//!
//! Every fenced code block of those files that shows an `ssdgc` command carries a marker after its
//! language (README.md, "Commands in the docs are tested"):
//!
//! - `sh docs-test`: the block is a shell script, run with `sh -e` (every command must succeed);
//! - `console docs-test`: a transcript: each `$ command` (continued over lines ending in `\`) is
//!   run and its standard output must match the lines after it, where a line `...` stands for any
//!   number of lines and `...` inside a line for any text;
//! - `docs-check` instead of `docs-test`: the commands are too slow for the test suite; they run
//!   with `SSDGC_DRY_RUN=1`, so every argument, setting, scheme and trace they name is checked
//!   and nothing is simulated (outputs shown are not compared).
//!
//! Blocks run in a scratch directory beside a link to the shared traces (`../shared/traces/…`
//! resolves as from the repository), with the built `ssdgc` first on `PATH` and
//! `cargo run --release -p ssdgc-cli -- ARGS` standing for `ssdgc ARGS`. A block that shows an
//! `ssdgc` command with no marker is a failure that names its file and line.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    Test,
    Check,
}

#[derive(Debug)]
struct Block {
    file: PathBuf,
    line: usize,
    lang: String,
    mode: Option<Mode>,
    body: Vec<String>,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the repository root")
}

fn markdown_files() -> Vec<PathBuf> {
    let root = repo();
    let mut files = vec![root.join("README.md")];
    let mut stack = vec![root.join("docs")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("docs/ is readable") {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "md") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

fn blocks(file: &Path) -> Vec<Block> {
    let text = std::fs::read_to_string(file).expect("readable markdown");
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().strip_prefix("```");
        match (fence, open.take()) {
            (Some(_), Some(b)) => out.push(b),
            (Some(info), None) => {
                let mut words = info.split_whitespace();
                let lang = words.next().unwrap_or("").to_string();
                let mode = words.find_map(|w| match w {
                    "docs-test" => Some(Mode::Test),
                    "docs-check" => Some(Mode::Check),
                    _ => None,
                });
                open = Some(Block {
                    file: file.to_path_buf(),
                    line: i + 1,
                    lang,
                    mode,
                    body: Vec::new(),
                });
            }
            (None, Some(mut b)) => {
                b.body.push(line.to_string());
                open = Some(b);
            }
            (None, None) => {}
        }
    }
    out
}

/// True when a line invokes ssdgc (directly, through `cargo run`, after a `$ ` prompt).
fn invokes_ssdgc(line: &str) -> bool {
    let l = line.trim_start();
    let l = l.strip_prefix("$ ").unwrap_or(l);
    l.starts_with("ssdgc ") || l.starts_with("cargo run --release -p ssdgc-cli --")
}

/// A scratch directory with `../shared` beside it, and a `bin/` whose `ssdgc` is the built one.
fn sandbox(n: usize) -> (PathBuf, PathBuf) {
    let base =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("docs-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&base);
    let work = base.join("repo");
    let bin = base.join("bin");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&bin).unwrap();
    let shared = repo().join("../shared");
    if shared.exists() {
        std::os::unix::fs::symlink(&shared, base.join("shared")).unwrap();
    }
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_ssdgc"), bin.join("ssdgc")).unwrap();
    (work, bin)
}

/// `cargo run --release -p ssdgc-cli -- ARGS` stands for `ssdgc ARGS`.
const PRELUDE: &str = r#"cargo() {
  if [ "$1 $2 $3 $4 $5" = "run --release -p ssdgc-cli --" ]; then shift 5; ssdgc "$@"; else command cargo "$@"; fi
}
"#;

fn shell(script: &str, work: &Path, bin: &Path, mode: Mode) -> std::process::Output {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = Command::new("sh");
    cmd.arg("-ec")
        .arg(format!("{PRELUDE}{script}"))
        .current_dir(work)
        .env("PATH", path)
        .stdin(std::process::Stdio::null());
    if mode == Mode::Check {
        cmd.env("SSDGC_DRY_RUN", "1");
    }
    cmd.output().expect("sh runs")
}

/// Does `got` match `want`, where a `...` line matches any lines and `...` in a line any text?
fn matches(want: &[&str], got: &[&str]) -> bool {
    match want.split_first() {
        None => got.is_empty(),
        Some((&"...", rest)) => (0..=got.len()).any(|k| matches(rest, &got[k..])),
        Some((w, rest)) => !got.is_empty() && line_matches(w, got[0]) && matches(rest, &got[1..]),
    }
}

fn line_matches(want: &str, got: &str) -> bool {
    let (want, got) = (want.trim_end(), got.trim_end());
    let parts: Vec<&str> = want.split("...").collect();
    if parts.len() == 1 {
        return want == got;
    }
    let mut rest = got;
    for (i, p) in parts.iter().enumerate() {
        if i == 0 {
            let Some(r) = rest.strip_prefix(p) else {
                return false;
            };
            rest = r;
        } else if i == parts.len() - 1 {
            return rest.ends_with(p);
        } else {
            let Some(at) = rest.find(p) else {
                return false;
            };
            rest = &rest[at + p.len()..];
        }
    }
    true
}

/// The `$ ` commands of a transcript with the output lines after each.
fn transcript(body: &[String]) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    let mut continuing = false;
    for line in body {
        if let Some(cmd) = line.strip_prefix("$ ") {
            out.push((cmd.to_string(), Vec::new()));
            continuing = cmd.ends_with('\\');
        } else if continuing {
            let last = out.last_mut().expect("a command before");
            last.0.push('\n');
            last.0.push_str(line);
            continuing = line.ends_with('\\');
        } else if let Some(last) = out.last_mut() {
            last.1.push(line.clone());
        }
    }
    for (_, want) in &mut out {
        while want.last().is_some_and(|l| l.trim().is_empty()) {
            want.pop();
        }
    }
    out
}

fn run_block(b: &Block, n: usize) -> Result<(), String> {
    let mode = b.mode.expect("a marked block");
    let (work, bin) = sandbox(n);
    let at = format!("{}:{}", b.file.display(), b.line);
    if b.lang == "console" {
        for (cmd, want) in transcript(&b.body) {
            let out = shell(&cmd, &work, &bin, mode);
            let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
            if !out.status.success() {
                return Err(format!(
                    "{at}: `{cmd}` failed ({}):\n{}",
                    out.status,
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            if mode == Mode::Test && !want.is_empty() {
                let want: Vec<&str> = want.iter().map(String::as_str).collect();
                let got: Vec<&str> = stdout.lines().collect();
                if !matches(&want, &got) {
                    return Err(format!(
                        "{at}: the output of `{cmd}` no longer matches the docs.\n--- shown:\n{}\n--- printed:\n{stdout}",
                        want.join("\n")
                    ));
                }
            }
        }
        return Ok(());
    }
    let out = shell(&b.body.join("\n"), &work, &bin, mode);
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{at}: the block failed ({}):\n{}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// A printed line as the docs show it: wall-clock times as `...`.
fn normalise(line: &str) -> String {
    let line = line.trim_end();
    if let Some(at) = line.find(" s wall") {
        let start = line[..at]
            .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map_or(0, |i| i + 1);
        return format!("{}...{}", &line[..start], &line[at..]);
    }
    let key = "\"wall_s\": ";
    if let Some(at) = line.find(key) {
        let rest = &line[at + key.len()..];
        let end = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-'))
            .unwrap_or(rest.len());
        return format!("{}...{}", &line[..at + key.len()], &rest[end..]);
    }
    line.to_string()
}

/// `SSDGC_DOCS_BLESS=1`: the transcripts' outputs rewritten from the current binary.
fn bless(blocks: &[Block]) {
    let mut by_file: std::collections::BTreeMap<&Path, Vec<(&Block, Vec<String>)>> =
        Default::default();
    for (i, b) in blocks.iter().enumerate() {
        if b.lang != "console" || b.mode != Some(Mode::Test) {
            continue;
        }
        let (work, bin) = sandbox(1000 + i);
        let mut body = Vec::new();
        for (k, (cmd, _)) in transcript(&b.body).into_iter().enumerate() {
            if k > 0 {
                body.push(String::new());
            }
            let out = shell(&cmd, &work, &bin, Mode::Test);
            assert!(
                out.status.success(),
                "{}:{}: `{cmd}` failed",
                b.file.display(),
                b.line
            );
            for (j, l) in cmd.lines().enumerate() {
                body.push(if j == 0 {
                    format!("$ {l}")
                } else {
                    l.to_string()
                });
            }
            body.extend(String::from_utf8_lossy(&out.stdout).lines().map(normalise));
        }
        by_file.entry(&b.file).or_default().push((b, body));
    }
    for (file, mut edits) in by_file {
        let text = std::fs::read_to_string(file).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        edits.sort_by_key(|(b, _)| std::cmp::Reverse(b.line));
        for (b, body) in edits {
            // The block's body: the lines after its opening fence.
            lines.splice(b.line..b.line + b.body.len(), body);
        }
        let mut out = lines.join("\n");
        out.push('\n');
        std::fs::write(file, out).unwrap();
    }
}

#[test]
fn every_command_in_the_docs_is_marked() {
    let mut unmarked = Vec::new();
    for f in markdown_files() {
        for b in blocks(&f) {
            let shell_like = matches!(b.lang.as_str(), "" | "sh" | "bash" | "shell" | "console");
            if b.mode.is_none() && shell_like && b.body.iter().any(|l| invokes_ssdgc(l)) {
                unmarked.push(format!("{}:{}", b.file.display(), b.line));
            }
        }
    }
    assert!(
        unmarked.is_empty(),
        "blocks showing ssdgc commands must be marked docs-test or docs-check (README.md, \
         \"Commands in the docs are tested\"):\n{}",
        unmarked.join("\n")
    );
}

#[test]
fn the_commands_in_the_docs_work_and_print_what_is_shown() {
    let marked: Vec<Block> = markdown_files()
        .iter()
        .flat_map(|f| blocks(f))
        .filter(|b| b.mode.is_some())
        .collect();
    assert!(
        marked.len() >= 10,
        "only {} marked blocks found",
        marked.len()
    );
    if common::traces_dir().is_none() {
        // Outside CI without the shared traces (the helper notes it); under CI it fails.
        return;
    }
    if std::env::var_os("SSDGC_DOCS_BLESS").is_some() {
        bless(&marked);
        return;
    }
    let failures: Vec<String> = marked
        .iter()
        .enumerate()
        .filter_map(|(i, b)| run_block(b, i).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn transcripts_match_with_ellipses() {
    assert!(matches(&["a", "...", "d"], &["a", "b", "c", "d"]));
    assert!(matches(&["a", "...", "d"], &["a", "d"]));
    assert!(!matches(&["a", "d"], &["a", "b", "d"]));
    assert!(line_matches(
        "sim: 1.5 s simulated, ... s wall, 7 events",
        "sim: 1.5 s simulated, 0.1 s wall, 7 events"
    ));
    assert!(!line_matches(
        "sim: 1.5 s simulated, ... s wall, 7 events",
        "sim: 1.6 s simulated, 0.1 s wall, 7 events"
    ));
    assert!(line_matches("x ...", "x anything"));
    assert_eq!(
        normalise("sim: 32.071 s simulated, 0.102 s wall, 200000 events"),
        "sim: 32.071 s simulated, ... s wall, 200000 events"
    );
    assert_eq!(normalise("    \"wall_s\": 0.0123,"), "    \"wall_s\": ...,");
    let t = transcript(&[
        "$ ssdgc run \\".to_string(),
        "  --json".to_string(),
        "out 1".to_string(),
        "".to_string(),
        "$ ssdgc list presets".to_string(),
    ]);
    assert_eq!(
        t[0],
        (
            "ssdgc run \\\n  --json".to_string(),
            vec!["out 1".to_string()]
        )
    );
    assert_eq!(t[1].1.len(), 0);
}
