//! Every trace format over arbitrary input: no panic, times start at 0 and never decrease,
//! and every line is accounted for in the statistics.
//!
//! The formats (three of them parsed from column specs) are built once per process, not for each
//! input: they do not depend on the input.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use ssdgc_workload::{BlkparseEvent, Format, TimeUnit, TraceOptions, TraceReader};

fn formats() -> &'static [Format] {
    static BUILT: OnceLock<Vec<Format>> = OnceLock::new();
    BUILT.get_or_init(all_formats)
}

fn all_formats() -> Vec<Format> {
    let mut v = vec![
        Format::Auto,
        Format::Msr,
        Format::Spc,
        Format::Disksim,
        Format::Blkparse,
        Format::Fio,
        Format::Blkreplay,
        Format::Fiu,
        Format::Systor,
        Format::Tencent,
        Format::Flashnet,
    ];
    for spec in [
        "columns:time=1:ms,op=2,offset=3,len=4,dev=5,sep=space",
        "columns:time=2:s,op=1,offset=2:sectors,len=3:kib,sep=comma,skip=1,read=1,unsorted",
        "columns:op=1,offset=2,len=3,sep=semicolon,read=R,write=W,comment=//",
    ] {
        v.push(spec.parse().expect("valid spec"));
    }
    v
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks the options, the rest is the trace.
    let Some((&sel, bytes)) = data.split_first() else {
        return;
    };
    for format in formats() {
        let opts = TraceOptions {
            format: format.clone(),
            volume: if sel & 1 == 1 {
                Some(u64::from(sel >> 4))
            } else {
                None
            },
            disksim_time: if sel & 2 == 2 {
                TimeUnit::Ms
            } else {
                TimeUnit::Ns
            },
            blkparse_event: if sel & 4 == 4 {
                BlkparseEvent::Q
            } else {
                BlkparseEvent::D
            },
            reorder_window: 1 + usize::from(sel >> 3),
            // A low time limit now and then, so the limit's error path is fuzzed too.
            max_time_ns: if sel & 8 == 8 {
                1 << 32
            } else {
                ssdgc_workload::MAX_ARRIVAL_NS
            },
            // Every volume kept and counted now and then (`ssdgc trace info`).
            all_volumes: sel & 0x80 == 0x80,
        };
        let input = Box::new(std::io::Cursor::new(bytes.to_vec()));
        let Ok(mut reader) = TraceReader::from_reader("fuzz", input, &opts) else {
            continue;
        };
        let mut last = None;
        // A bad line is an error item; reading goes on past it to the end.
        for rec in (&mut reader).flatten() {
            match last {
                None => assert_eq!(rec.time_ns, 0),
                Some(t) => assert!(rec.time_ns >= t),
            }
            last = Some(rec.time_ns);
        }
        let s = reader.stats();
        assert_eq!(s.buffered, 0);
        assert!(s.lines >= s.blank + s.skipped + s.filtered + s.records);
    }
});
