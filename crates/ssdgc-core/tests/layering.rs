//! Layering: dependencies inside `ssdgc-core` point one way, down.
//!
//! ```text
//! cli, py ─▶ setup ─▶ batch ─▶ sim / drive / host / metrics / ageing ─▶ gc ─▶ ftl ─▶ flash ─▶ units, rng, engine
//!                               config (typed settings; converts into the lower layers' parameters)
//! ```
//!
//! The bottom layers — `units.rs`, `rng.rs`, `engine/`, `flash/` and `ftl/` — are built from plain
//! values (`GeometryParams`, `TimingParams`, `FtlParams`) and know nothing of the configuration,
//! the GC schemes and victim policies, the simulator and drive, the host front end, preconditioning
//! or the metrics. Where the FTL needs something from above (a victim policy per plane), it defines
//! the trait (`ftl::CandidateIndex`) and the upper layer implements it. `config` sits beside the
//! stack: it may name every layer to build them, none of the bottom layers may name it.
//!
//! This test reads the bottom layers' source files and fails on any path that reaches an upper
//! module: `crate::gc…`, `crate::{config, …}`, `super::super::sim…` climbing to the crate root, the
//! crate-root re-exports of upper items (`crate::Config`), or the workload crate. Doc links count
//! too, so the bottom layers' documentation does not point up either.
//!
//! `metrics/` is assembled from plain data handed to it (`metrics::figures`): it may name the GC
//! axes and the layers below, never the simulator, the drive, the host front end or ageing, which
//! produce that data ([`metrics_does_not_reach_the_simulator`]).

use std::path::{Path, PathBuf};

/// Modules above the bottom layers.
const UPPER: &[&str] = &[
    "config", "gc", "sim", "drive", "array", "host", "metrics", "ageing", "batch", "setup",
];

/// Crate-root re-exports of upper items.
const UPPER_REEXPORTS: &[&str] = &[
    "Config",
    "ConfigBuilder",
    "ConfigError",
    "Report",
    "RunOptions",
    "SimError",
    "Simulator",
];

/// Modules the report may not name: they hand it plain data.
const ABOVE_METRICS: &[&str] = &["sim", "drive", "host", "ageing", "batch", "setup"];

/// Crate-root re-exports of those modules' items.
const ABOVE_METRICS_REEXPORTS: &[&str] = &["RunOptions", "SimError", "Simulator"];

/// The source files of the bottom layers, relative to `src/`.
fn bottom_layer_files(src: &Path) -> Vec<PathBuf> {
    let mut files = vec![src.join("units.rs"), src.join("rng.rs")];
    for dir in ["engine", "flash", "ftl"] {
        collect_rs(&src.join(dir), &mut files);
    }
    files.sort();
    files
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            collect_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Depth of a source file's module below the crate root: `ftl/mod.rs` → 1, `ftl/page/check.rs` → 3.
fn module_depth(rel: &Path) -> usize {
    let parts: Vec<_> = rel.components().collect();
    let is_mod = rel.file_name().is_some_and(|n| n == "mod.rs");
    if is_mod {
        parts.len() - 1
    } else {
        parts.len()
    }
}

fn ident_at(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The first path segment of each item of a `{ … }` group starting at `s` (just after the `{`).
fn group_heads(s: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0usize;
    let mut at_item_start = true;
    for (i, c) in s.char_indices() {
        match c {
            '{' => {
                depth += 1;
                at_item_start = false;
            }
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => at_item_start = true,
            c if at_item_start && !c.is_whitespace() => {
                heads.push(ident_at(&s[i..]).to_string());
                at_item_start = false;
            }
            _ => {}
        }
    }
    heads
}

/// Every top-level module (or crate-root item) a file's text names through `crate::` or through
/// `super::` chains that climb to the crate root, with the line it is on.
fn root_references(text: &str, depth: usize) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut rest = line;
        while let Some(i) = rest.find(['c', 's']) {
            let at = &rest[i..];
            let boundary = rest[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
            let after = if !boundary {
                None
            } else if let Some(a) = at.strip_prefix("crate::") {
                Some(a)
            } else if at.starts_with("super::") {
                let mut a = at;
                let mut ups = 0;
                while let Some(b) = a.strip_prefix("super::") {
                    a = b;
                    ups += 1;
                }
                (ups >= depth).then_some(a)
            } else {
                None
            };
            if let Some(a) = after {
                if let Some(g) = a.strip_prefix('{') {
                    out.extend(group_heads(g).into_iter().map(|h| (n + 1, h)));
                } else {
                    out.push((n + 1, ident_at(a).to_string()));
                }
            }
            rest = &rest[i + 1..];
        }
    }
    out
}

fn violations(text: &str, depth: usize) -> Vec<String> {
    let mut v = references_to(text, depth, UPPER, UPPER_REEXPORTS);
    for (n, line) in text.lines().enumerate() {
        if line.contains("ssdgc_workload") {
            v.push(format!("line {}: reaches the workload crate", n + 1));
        }
    }
    v
}

/// The lines of `text` that name one of `modules` or `reexports` at the crate root.
fn references_to(text: &str, depth: usize, modules: &[&str], reexports: &[&str]) -> Vec<String> {
    root_references(text, depth)
        .into_iter()
        .filter(|(_, m)| modules.contains(&m.as_str()) || reexports.contains(&m.as_str()))
        .map(|(line, m)| format!("line {line}: reaches `{m}`"))
        .collect()
}

#[test]
fn metrics_does_not_reach_the_simulator() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect_rs(&src.join("metrics"), &mut files);
    files.sort();
    assert!(
        files.iter().any(|f| f.ends_with("metrics/report/mod.rs")),
        "the metrics files were not found under {}",
        src.display()
    );
    let mut failures = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).expect("under src");
        let text = std::fs::read_to_string(f).expect("readable source");
        let found = references_to(
            &text,
            module_depth(rel),
            ABOVE_METRICS,
            ABOVE_METRICS_REEXPORTS,
        );
        for v in found {
            failures.push(format!("src/{}: {v}", rel.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "metrics is built from plain data and must not name the simulator, drive, host or ageing:\n{}",
        failures.join("\n")
    );
    // The rule catches what it is meant to.
    let bad = "use crate::drive::{Drive, DriveCounters};\nuse crate::host::frontend::FrontEnd;\n\
               use super::super::sim::Simulator;\nuse crate::gc::schemes::GcAxes;\n";
    assert_eq!(
        references_to(bad, 2, ABOVE_METRICS, ABOVE_METRICS_REEXPORTS).len(),
        3
    );
}

#[test]
fn bottom_layers_do_not_reach_up() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = bottom_layer_files(&src);
    assert!(
        files.iter().any(|f| f.ends_with("ftl/page/mod.rs"))
            && files.iter().any(|f| f.ends_with("flash/mod.rs")),
        "the layer's files were not found under {}",
        src.display()
    );
    let mut failures = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&src).expect("under src");
        let text = std::fs::read_to_string(f).expect("readable source");
        for v in violations(&text, module_depth(rel)) {
            failures.push(format!("src/{}: {v}", rel.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "the bottom layers (units, rng, engine, flash, ftl) must not name upper modules:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_scanner_finds_upward_paths() {
    // From a file at depth 2 (e.g. `ftl/seam.rs`).
    let bad = "use crate::gc::victim::VictimKind;\n\
               use crate::{units::Lpn, config::Config};\n\
               fn f(c: &crate::Config) {}\n\
               use super::super::sim::Simulator;\n\
               /// See [`crate::metrics`].\n\
               use ssdgc_workload::IoRecord;\n";
    let v = violations(bad, 2);
    assert_eq!(v.len(), 6, "{v:?}");
    for want in [
        "`gc`",
        "`config`",
        "`Config`",
        "`sim`",
        "`metrics`",
        "workload",
    ] {
        assert!(
            v.iter().any(|x| x.contains(want)),
            "{want} not flagged: {v:?}"
        );
    }
    let fine = "use crate::units::{Lpn, Ppn};\n\
                use crate::flash::Geometry;\n\
                use super::pool::Take;\n\
                use super::super::flash::Geometry;\n\
                let gc = my_crate::gc::x; // not the crate root\n";
    // `super::pool` stays inside `ftl`; `super::super::flash` reaches the root but a lower layer.
    assert_eq!(violations(fine, 2), Vec::<String>::new());
    assert_eq!(module_depth(Path::new("ftl/mod.rs")), 1);
    assert_eq!(module_depth(Path::new("ftl/page/check.rs")), 3);
    assert_eq!(module_depth(Path::new("units.rs")), 1);
}
