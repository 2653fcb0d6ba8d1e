//! The host side: where requests come from and how they are offered to the drive.
//!
//! A [`Workload`] is a stream of [`IoRecord`]s (from a trace reader or a synthetic generator, both in
//! `ssdgc-workload`) and a replay mode: open loop (each request arrives at its timestamp, scaled by
//! `host.time_scale`) or closed loop (a fixed number of requests outstanding; a new one is issued when
//! one completes). The drive's device queue (`host.queue_depth`) admits requests in arrival order;
//! the rest wait on the host, and their wait counts in their response time.

use ssdgc_workload::{IoRecord, WorkloadError};

/// How requests are offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayMode {
    /// Each request arrives at its (scaled) timestamp.
    OpenLoop,
    /// This many requests are kept outstanding; timestamps are ignored.
    ClosedLoop(u32),
}

/// A stream of requests and how to replay it.
pub struct Workload {
    /// The records, in arrival order.
    pub records: Box<dyn Iterator<Item = Result<IoRecord, WorkloadError>> + Send>,
    /// Replay mode.
    pub mode: ReplayMode,
    /// What it is, for the report (`synthetic:...`, or the trace's path).
    pub name: String,
    /// The trace format, or `synthetic`.
    pub format: String,
    /// Number of requests when known in advance (for progress display).
    pub expected: Option<u64>,
    /// Source name used in error messages about addresses.
    pub source: String,
}

impl Workload {
    /// A workload from records already in memory (tests, the Python side).
    pub fn from_records(records: Vec<IoRecord>, mode: ReplayMode, name: &str) -> Workload {
        let n = records.len() as u64;
        Workload {
            records: Box::new(records.into_iter().map(Ok)),
            mode,
            name: name.to_string(),
            format: "records".into(),
            expected: Some(n),
            source: name.to_string(),
        }
    }

    /// The built-in default workload: 200,000 uniformly random 4 KiB writes over the whole logical
    /// space, closed loop at queue depth 32.
    pub fn default_spec() -> &'static str {
        "count=200000,read=0,size=4KiB,interarrival=0,qd=32"
    }
}
