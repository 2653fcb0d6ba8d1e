//! Configuration parsing over arbitrary text: the input is a TOML file's text, then (after a NUL
//! byte) `--set` assignments separated by SOH bytes, layered over two presets. Every error is one
//! line; a configuration that builds validates, derives its geometry without overflow and
//! round-trips through TOML.
//!
//! What does not depend on the input is done once per process: the presets are parsed once and
//! cloned for each input (a builder is a pure function of its preset's name, so the clone is the
//! builder `ConfigBuilder::preset` returns), and the presets' own configurations are round-tripped
//! once, so that an input that leaves a preset as it is (most mutations break the file) skips only
//! a repetition of that same deterministic check. Both used to take most of an execution.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use ssdgc_core::{Config, ConfigBuilder};

/// The presets the input is layered over; the first, `default`, also reads the dumps back.
const PRESETS: [&str; 2] = ["default", "pgc"];

struct Preset {
    builder: ConfigBuilder,
    /// The preset's own configuration, already round-tripped.
    config: Config,
}

fn presets() -> &'static [Preset; 2] {
    static BUILT: OnceLock<[Preset; 2]> = OnceLock::new();
    BUILT.get_or_init(|| {
        PRESETS.map(|p| {
            let builder = ConfigBuilder::preset(p).expect("presets are valid");
            let config = builder.clone().build().expect("presets build");
            round_trip(&builder, &config);
            Preset { builder, config }
        })
    })
}

/// A built configuration validates, has a sound geometry and reads back from its TOML dump
/// (over the `default` preset, as `ssdgc run --config DUMP` reads it).
fn round_trip(default: &ConfigBuilder, cfg: &Config) {
    cfg.validate().expect("a built configuration validates");
    let g = ssdgc_core::flash::Geometry::new(cfg);
    assert!(g.logical_pages >= 1 && g.logical_pages <= g.physical_pages);
    let mut again = default.clone();
    again
        .merge_text(&cfg.to_toml(), "dump")
        .expect("a dump reads back");
    assert_eq!(&again.build().expect("a dump builds"), cfg);
}

fn one_line(e: &impl std::fmt::Display) {
    let s = e.to_string();
    assert!(
        !s.contains('\n') && !s.contains('\r'),
        "multi-line error: {s:?}"
    );
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let (file, sets) = s.split_once('\0').unwrap_or((s, ""));
    let presets = presets();
    for preset in presets {
        let mut b = preset.builder.clone();
        if let Err(e) = b.merge_text(file, "fuzz.toml") {
            one_line(&e);
        }
        for a in sets.split('\u{1}').filter(|a| !a.is_empty()) {
            if let Err(e) = b.set(a) {
                one_line(&e);
            }
        }
        match b.build() {
            // Checked once, in `presets`: the same configuration gives the same dump.
            Ok(cfg) if presets.iter().any(|p| p.config == cfg) => {}
            Ok(cfg) => round_trip(&presets[0].builder, &cfg),
            Err(e) => one_line(&e),
        }
    }
});
