//! Test helpers: reading strings and the shared sample traces.

use std::path::{Path, PathBuf};

use crate::{
    open_trace, Format, IoRecord, Op, TraceOptions, TraceReader, TraceStats, WorkloadError,
};

pub(crate) fn rec(r: &IoRecord) -> (u64, Op, u64, u64) {
    (r.time_ns, r.op, r.offset, r.len)
}

pub(crate) fn read_str(text: &str, format: Format) -> (Vec<IoRecord>, Vec<WorkloadError>) {
    let (r, e, _) = read_str_stats(text, format, None);
    (r, e)
}

pub(crate) fn read_str_stats(
    text: &str,
    format: Format,
    volume: Option<u64>,
) -> (Vec<IoRecord>, Vec<WorkloadError>, TraceStats) {
    let opts = TraceOptions {
        format,
        volume,
        ..TraceOptions::default()
    };
    let input = Box::new(std::io::Cursor::new(text.as_bytes().to_vec()));
    let mut rd = TraceReader::from_reader("<bytes>", input, &opts).unwrap();
    let (mut recs, mut errs) = (Vec::new(), Vec::new());
    for r in &mut rd {
        match r {
            Ok(x) => recs.push(x),
            Err(e) => errs.push(e),
        }
    }
    let st = rd.stats();
    assert_eq!(
        st.lines,
        st.blank + st.skipped + st.filtered + st.errors + st.records,
        "{st:?}"
    );
    assert_eq!(st.records as usize, recs.len());
    assert_eq!(st.errors as usize, errs.len());
    (recs, errs, st)
}

/// The shared sample trace `name`, or `None` (with a note) when it is absent.
pub(crate) fn sample_path(name: &str) -> Option<PathBuf> {
    let p = Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/traces"
    ))
    .join(name);
    if p.exists() {
        Some(p)
    } else {
        // Under CI the clean clone has `../shared` beside it: a missing trace is a failure.
        let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        assert!(!ci, "sample trace {} absent under CI", p.display());
        eprintln!("note: sample trace {} absent, test skipped", p.display());
        None
    }
}

pub(crate) fn collect_ok(rd: &mut TraceReader) -> Vec<IoRecord> {
    let mut v = Vec::new();
    for r in rd {
        match r {
            Ok(x) => v.push(x),
            Err(e) => panic!("unexpected error: {e}"),
        }
    }
    v
}

pub(crate) fn read_path(path: &Path, format: Format) -> Vec<IoRecord> {
    let opts = TraceOptions {
        format,
        ..TraceOptions::default()
    };
    collect_ok(&mut open_trace(path, &opts).unwrap())
}

pub(crate) fn assert_sorted(recs: &[IoRecord]) {
    assert_eq!(recs.first().map(|r| r.time_ns), Some(0));
    assert!(recs.windows(2).all(|w| w[0].time_ns <= w[1].time_ns));
}

/// Reads a sample with the explicit format and with detection; checks the record count, that
/// both agree, that times start at 0 and never decrease, and that every line is accounted for.
pub(crate) fn check_sample(name: &str, format: Format, count: usize) {
    let Some(path) = sample_path(name) else {
        return;
    };
    let explicit = read_path(&path, format.clone());
    assert_eq!(explicit.len(), count, "{name}");
    assert_sorted(&explicit);
    let mut rd = open_trace(&path, &TraceOptions::default()).unwrap();
    assert_eq!(rd.format(), &format, "{name}: detected format");
    let auto = collect_ok(&mut rd);
    assert_eq!(auto, explicit, "{name}");
    let st = rd.stats();
    assert_eq!(st.records as usize, count);
    assert_eq!(st.errors, 0);
    assert_eq!(st.lines, st.blank + st.skipped + st.filtered + st.records);
}
