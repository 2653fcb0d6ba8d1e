//! The host side: where requests come from and how they are offered to the drives.
//!
//! A [`Workload`] is a stream of [`IoRecord`]s (from a trace reader or a synthetic generator, both in
//! `ssdgc-workload`) and a replay mode: open loop (each request arrives at its timestamp, scaled by
//! `host.time_scale`) or closed loop (a fixed number of requests outstanding; a new one is issued when
//! one completes). The front end ([`frontend`]) admits requests to the device queue
//! (`host.queue_depth`) in arrival order; the rest wait on the host, and their wait counts in their
//! response time. Admitted requests go through the write buffer ([`buffer`]) and are striped over the
//! drives of the array ([`array`]).

pub mod array;
pub mod buffer;
pub(crate) mod frontend;

use std::path::Path;

pub use crate::metrics::report::SourceStats;
use ssdgc_workload::synthetic::{Synthetic, SyntheticSpec};
use ssdgc_workload::{IoRecord, TraceOptions, TraceReader, WorkloadError};

/// How requests are offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayMode {
    /// Each request arrives at its (scaled) timestamp.
    OpenLoop,
    /// This many requests are kept outstanding; timestamps are ignored.
    ClosedLoop(u32),
}

impl ReplayMode {
    /// Parses `open` or `closed:QD`.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "open" => Ok(ReplayMode::OpenLoop),
            _ => match s.strip_prefix("closed:").map(str::parse::<u32>) {
                Some(Ok(q)) if q > 0 => Ok(ReplayMode::ClosedLoop(q)),
                _ => Err(format!(
                    "'{s}' is not a replay mode: use open or closed:QD (QD >= 1)"
                )),
            },
        }
    }
}

enum Source {
    Trace(Box<TraceReader>),
    Disks(Box<array::DiskTraces>),
    Tagged(std::vec::IntoIter<(u64, IoRecord)>, Option<u64>),
    Synthetic(Box<Synthetic>),
    Records(std::vec::IntoIter<IoRecord>),
}

/// A stream of requests and how to replay it.
pub struct Workload {
    source: Source,
    produced: u64,
    /// Replay mode.
    pub mode: ReplayMode,
    /// What it is, for the report (`synthetic:...`, or the trace's path).
    pub name: String,
    /// The trace format, or `synthetic`.
    pub format: String,
    /// Number of requests when known in advance (for progress display).
    pub expected: Option<u64>,
}

impl Workload {
    /// A workload from records already in memory (tests, the Python side).
    pub fn from_records(records: Vec<IoRecord>, mode: ReplayMode, name: &str) -> Workload {
        let n = records.len() as u64;
        Workload {
            source: Source::Records(records.into_iter()),
            produced: 0,
            mode,
            name: name.to_string(),
            format: "records".into(),
            expected: Some(n),
        }
    }

    /// A trace file, streamed.
    pub fn from_trace(
        path: &Path,
        opts: &TraceOptions,
        mode: ReplayMode,
    ) -> Result<Workload, WorkloadError> {
        let reader = ssdgc_workload::open_trace(path, opts)?;
        Ok(Workload {
            format: reader.format().name().to_string(),
            source: Source::Trace(Box::new(reader)),
            produced: 0,
            mode,
            name: path.display().to_string(),
            expected: None,
        })
    }

    /// Per-disk traces for an array that replaces disks by drives (`array.disks`): the records of
    /// each `(disk, file)` pair — a trace whose records carry disk or volume numbers, read once
    /// per disk — merged in time order, each tagged with its disk ([`Workload::last_disk`]).
    pub fn from_disk_traces(
        sources: &[(u64, std::path::PathBuf)],
        opts: &TraceOptions,
        mode: ReplayMode,
    ) -> Result<Workload, WorkloadError> {
        let t = array::DiskTraces::open(sources, opts)?;
        let name = sources
            .first()
            .map(|(_, p)| p.display().to_string())
            .unwrap_or_default();
        Ok(Workload {
            format: t.format(),
            source: Source::Disks(Box::new(t)),
            produced: 0,
            mode,
            name,
            expected: None,
        })
    }

    /// The per-disk traces of `path` for the disks of `cfg`'s `array.disks` (every listed disk
    /// read from the one trace).
    pub fn for_disks(
        cfg: &crate::config::Config,
        path: &Path,
        opts: &TraceOptions,
        mode: ReplayMode,
    ) -> Result<Workload, WorkloadError> {
        let sources: Vec<(u64, std::path::PathBuf)> = cfg
            .array
            .disks
            .iter()
            .flatten()
            .map(|&d| (d, path.to_path_buf()))
            .collect();
        Workload::from_disk_traces(&sources, opts, mode)
    }

    /// Records tagged with their disk (tests; the disks of `array.disks`).
    pub fn from_disk_records(
        records: Vec<(u64, IoRecord)>,
        mode: ReplayMode,
        name: &str,
    ) -> Workload {
        let n = records.len() as u64;
        Workload {
            source: Source::Tagged(records.into_iter(), None),
            produced: 0,
            mode,
            name: name.to_string(),
            format: "records".into(),
            expected: Some(n),
        }
    }

    /// True when every record carries the disk it belongs to (per-disk traces).
    pub fn has_disks(&self) -> bool {
        matches!(self.source, Source::Disks(_) | Source::Tagged(..))
    }

    /// The disk of the record returned last, for per-disk traces.
    #[inline]
    pub fn last_disk(&self) -> Option<u64> {
        match &self.source {
            Source::Disks(t) => t.last_disk(),
            Source::Tagged(_, d) => *d,
            _ => None,
        }
    }

    /// A synthetic workload over a logical space of `logical_bytes`.
    pub fn synthetic(spec_text: &str, logical_bytes: u64, seed: u64) -> Result<Workload, String> {
        let spec: SyntheticSpec = spec_text.parse()?;
        let mode = if spec.is_closed_loop() {
            ReplayMode::ClosedLoop(spec.qd)
        } else {
            ReplayMode::OpenLoop
        };
        Ok(Workload {
            expected: Some(spec.count),
            // A stream of its own, separate from the simulator's random choices.
            source: Source::Synthetic(Box::new(Synthetic::new(
                &spec,
                logical_bytes,
                rand_core::RngCore::next_u64(&mut crate::rng::rng_for(seed, 3)),
            ))),
            produced: 0,
            mode,
            name: format!("synthetic:{spec_text}"),
            format: "synthetic".into(),
        })
    }

    /// The built-in default workload: 200,000 uniformly random 4 KiB writes over the whole logical
    /// space, closed loop at queue depth 32.
    pub const DEFAULT_SPEC: &'static str = "count=200000,read=0,size=4KiB,interarrival=0,qd=32";

    /// The next request.
    #[inline]
    pub fn next_record(&mut self) -> Option<Result<IoRecord, WorkloadError>> {
        let r = match &mut self.source {
            Source::Trace(t) => t.next(),
            Source::Synthetic(s) => s.next().map(Ok),
            Source::Records(r) => r.next().map(Ok),
            Source::Disks(t) => t.next(),
            Source::Tagged(r, last) => r.next().map(|(d, rec)| {
                *last = Some(d);
                Ok(rec)
            }),
        };
        if let Some(Ok(_)) = r {
            self.produced += 1;
        }
        r
    }

    /// What became of the input so far.
    pub fn stats(&self) -> SourceStats {
        match &self.source {
            Source::Trace(t) => {
                let s = t.stats();
                SourceStats {
                    lines: s.lines,
                    records: self.produced,
                    skipped_lines: s.blank + s.skipped,
                    filtered_records: s.filtered,
                    volume: t.selected_volume(),
                }
            }
            Source::Disks(t) => {
                let s = t.stats();
                SourceStats {
                    lines: s.lines,
                    records: self.produced,
                    skipped_lines: s.blank + s.skipped,
                    filtered_records: s.filtered,
                    volume: None,
                }
            }
            _ => SourceStats {
                records: self.produced,
                ..Default::default()
            },
        }
    }
}
