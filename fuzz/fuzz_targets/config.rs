//! Configuration parsing over arbitrary text: the input is a TOML file's text, then (after a NUL
//! byte) `--set` assignments separated by SOH bytes, layered over two presets. Every error is one
//! line; a configuration that builds validates, derives its geometry without overflow and
//! round-trips through TOML.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ssdgc_core::ConfigBuilder;

fn one_line(e: &impl std::fmt::Display) {
    let s = e.to_string();
    assert!(!s.contains('\n') && !s.contains('\r'), "multi-line error: {s:?}");
}

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    let (file, sets) = s.split_once('\0').unwrap_or((s, ""));
    for preset in ["default", "pgc"] {
        let mut b = ConfigBuilder::preset(preset).expect("presets are valid");
        if let Err(e) = b.merge_text(file, "fuzz.toml") {
            one_line(&e);
        }
        for a in sets.split('\u{1}').filter(|a| !a.is_empty()) {
            if let Err(e) = b.set(a) {
                one_line(&e);
            }
        }
        match b.build() {
            Ok(cfg) => {
                cfg.validate().expect("a built configuration validates");
                let g = ssdgc_core::flash::Geometry::new(&cfg);
                assert!(g.logical_pages >= 1 && g.logical_pages <= g.physical_pages);
                let mut again = ConfigBuilder::preset("default").unwrap();
                again.merge_text(&cfg.to_toml(), "dump").expect("a dump reads back");
                assert_eq!(again.build().expect("a dump builds"), cfg);
            }
            Err(e) => one_line(&e),
        }
    }
});
