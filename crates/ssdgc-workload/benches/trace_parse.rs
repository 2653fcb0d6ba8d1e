//! Trace readers' speed: lines per second of a reader parsing one of the largest sample traces of
//! its format, from memory (the bytes read once, untimed; each iteration parses all of them).
//!
//! - `trace_parse/blkreplay`: `blkreplay_1and1_linux_mysql.load` (4.5 MB);
//! - `trace_parse/tencent`: `tencent_cbs_snia_sample.csv` (1.5 MB);
//! - `trace_parse/disksim`: `ssdsim_example.ascii` (0.26 MB).
//!
//! The traces are the shared samples ([`ssdgc_workload::shared_traces_dir`]: `SSDGC_TRACES`, else
//! `../shared/traces` beside the repository); a missing one stops the benchmark naming it. Run with `cargo bench -p ssdgc-workload --bench
//! trace_parse`.

use std::hint::black_box;
use std::io::Cursor;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use ssdgc_workload::{Format, TraceOptions, TraceReader};

const SAMPLES: &[(&str, &str, Format)] = &[
    (
        "blkreplay",
        "blkreplay_1and1_linux_mysql.load",
        Format::Blkreplay,
    ),
    ("tencent", "tencent_cbs_snia_sample.csv", Format::Tencent),
    ("disksim", "ssdsim_example.ascii", Format::Disksim),
];

/// The bytes of shared sample trace `name`.
fn sample(name: &str) -> Vec<u8> {
    let path = ssdgc_workload::shared_trace(name).unwrap_or_else(|e| panic!("{e}"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Parses all of `bytes` as `format`; the reader's count of lines.
fn parse(name: &str, bytes: Vec<u8>, opts: &TraceOptions) -> u64 {
    let mut rd = TraceReader::from_reader(name, Box::new(Cursor::new(bytes)), opts)
        .expect("a readable sample");
    for r in &mut rd {
        black_box(r.expect("a valid record"));
    }
    rd.stats().lines
}

fn trace_parse(c: &mut Criterion) {
    let mut g = c.benchmark_group("trace_parse");
    for (key, name, format) in SAMPLES {
        let bytes = sample(name);
        let opts = TraceOptions {
            format: format.clone(),
            ..TraceOptions::default()
        };
        let lines = parse(name, bytes.clone(), &opts);
        assert!(lines > 0, "{name}: no lines");
        g.throughput(Throughput::Elements(lines));
        g.bench_function(*key, |b| {
            b.iter_batched(
                || bytes.clone(),
                |v| parse(name, v, &opts),
                BatchSize::LargeInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, trace_parse);
criterion_main!(benches);
