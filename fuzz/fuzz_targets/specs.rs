//! Format and synthetic spec parsing over arbitrary strings; valid synthetic specs generate a
//! few requests that must stay within the span.
#![no_main]

use libfuzzer_sys::fuzz_target;
use ssdgc_workload::synthetic::{Synthetic, SyntheticSpec};
use ssdgc_workload::Format;

fuzz_target!(|data: &[u8]| {
    let Ok(s) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(f) = s.parse::<Format>() {
        // Display round-trips.
        assert_eq!(f.to_string().parse::<Format>().ok(), Some(f));
    }
    if let Ok(spec) = s.parse::<SyntheticSpec>() {
        let spec = SyntheticSpec {
            count: spec.count.min(64),
            ..spec
        };
        for logical in [0u64, 4096, 1 << 20, 1 << 40] {
            for r in Synthetic::new(&spec, logical, 1) {
                assert!(r.offset + r.len <= logical);
            }
        }
    }
});
