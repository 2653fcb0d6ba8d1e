//! The host side: where requests come from and how they are offered to the drives.
//!
//! A [`Workload`] is a stream of [`IoRecord`]s (from a trace reader or a synthetic generator, both in
//! `ssdgc-workload`) and a replay mode: open loop (each request arrives at its timestamp, scaled by
//! `host.time_scale`) or closed loop (a fixed number of requests outstanding; a new one is issued when
//! one completes; with on/off bursts, a burst's requests are issued so, and the next burst starts
//! an idle time after the last one completed). The front end (`host/frontend.rs`) admits requests to the device queue
//! (`host.queue_depth`) in arrival order; the rest wait on the host, and their wait counts in their
//! response time. Admitted requests go through the write buffer ([`buffer`]) and are striped over the
//! drives of the array ([`array`](mod@array)).

pub mod array;
pub mod buffer;
pub(crate) mod frontend;
mod lookahead;

use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    /// A trace being read, and how to open it again from its start.
    Trace(Box<TraceReader>, PathBuf, Box<TraceOptions>),
    /// A generator, and how it was made: its spec, the logical space and its seed.
    Synthetic(Box<Synthetic>, Box<(SyntheticSpec, u64, u64)>),
    /// Records in memory, and the next one.
    Records(Arc<[IoRecord]>, usize),
    /// Per-disk traces merged by time, and how to open them again: the `(disk, file)` pairs and
    /// the options.
    Disks(
        Box<array::DiskTraces>,
        Box<(Vec<(u64, PathBuf)>, TraceOptions)>,
    ),
    /// Records tagged with their disk in memory, the next one, and the disk of the last one.
    Tagged(Arc<[(u64, IoRecord)]>, usize, Option<u64>),
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
    /// Closed loop in on/off bursts: requests per burst and the host's idle time (ns, before
    /// `host.time_scale`) between the last completion of a burst and the next burst.
    pub bursts: Option<(u64, u64)>,
    /// Records read ahead of the front end ([`Workload::read_ahead`]).
    ahead: lookahead::Ahead,
}

impl Workload {
    /// A workload from records already in memory (tests, the Python side).
    pub fn from_records(records: Vec<IoRecord>, mode: ReplayMode, name: &str) -> Workload {
        let n = records.len() as u64;
        Workload {
            ahead: lookahead::Ahead::default(),
            source: Source::Records(records.into(), 0),
            produced: 0,
            mode,
            name: name.to_string(),
            format: "records".into(),
            expected: Some(n),
            bursts: None,
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
            ahead: lookahead::Ahead::default(),
            format: reader.format().name().to_string(),
            source: Source::Trace(Box::new(reader), path.to_path_buf(), Box::new(opts.clone())),
            produced: 0,
            mode,
            name: path.display().to_string(),
            expected: None,
            bursts: None,
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
            ahead: lookahead::Ahead::default(),
            format: t.format(),
            source: Source::Disks(Box::new(t), Box::new((sources.to_vec(), opts.clone()))),
            produced: 0,
            mode,
            name,
            expected: None,
            bursts: None,
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
            ahead: lookahead::Ahead::default(),
            source: Source::Tagged(records.into(), 0, None),
            produced: 0,
            mode,
            name: name.to_string(),
            format: "records".into(),
            expected: Some(n),
            bursts: None,
        }
    }

    /// True when every record carries the disk it belongs to (per-disk traces).
    pub fn has_disks(&self) -> bool {
        matches!(self.source, Source::Disks(..) | Source::Tagged(..))
    }

    /// The disk of the record returned last, for per-disk traces.
    #[inline]
    pub fn last_disk(&self) -> Option<u64> {
        match &self.source {
            Source::Disks(t, _) => t.last_disk(),
            Source::Tagged(_, _, d) => *d,
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
        // A stream of its own, separate from the simulator's random choices.
        let seed = rand_core::RngCore::next_u64(&mut crate::rng::rng_for(seed, 3));
        let generator = Box::new(Synthetic::new(&spec, logical_bytes, seed));
        // In open loop the arrival times carry the gaps between bursts.
        let bursts = spec.bursts().filter(|_| spec.is_closed_loop());
        Ok(Workload {
            ahead: lookahead::Ahead::default(),
            expected: Some(spec.count),
            source: Source::Synthetic(generator, Box::new((spec, logical_bytes, seed))),
            produced: 0,
            mode,
            name: format!("synthetic:{spec_text}"),
            format: "synthetic".into(),
            bursts,
        })
    }

    /// The built-in default workload: 200,000 uniformly random 4 KiB writes over the whole logical
    /// space, closed loop at queue depth 32.
    pub const DEFAULT_SPEC: &'static str = "count=200000,read=0,size=4KiB,interarrival=0,qd=32";

    /// Reads `depth` records ahead of the consumer from now on (0: not ahead), so that
    /// [`Workload::peek`] can show them ([`lookahead`]); what [`Workload::next_record`] returns is
    /// unchanged. Not for per-disk traces, whose records carry their disk: they are not read ahead.
    pub(crate) fn read_ahead(&mut self, depth: usize) {
        if !self.has_disks() {
            self.ahead.deepen(depth);
        }
    }

    /// The record `k + 1` calls of [`Workload::next_record`] from now will return, when records
    /// are read ahead ([`Workload::read_ahead`]) and it is held.
    #[inline(always)]
    pub(crate) fn peek(&self, k: usize) -> Option<&IoRecord> {
        self.ahead.peek(k)
    }

    /// The next request. A generator is read in batches into the window of
    /// `lookahead::Ahead` (whatever its depth), so that most calls take a record held there
    /// (inlined into the caller, the record in registers).
    #[inline(always)]
    pub fn next_record(&mut self) -> Option<Result<IoRecord, WorkloadError>> {
        if let Some(r) = self.ahead.pop_held() {
            self.produced += 1;
            return Some(Ok(r));
        }
        self.next_from_source()
    }

    /// [`Workload::next_record`] when it takes a record held in the window (`None`: ask
    /// `next_record`, which reads the source). Apart, so that a caller keeps the record in
    /// registers rather than in the memory of `next_record`'s answer.
    #[inline(always)]
    pub(crate) fn next_held(&mut self) -> Option<IoRecord> {
        let r = self.ahead.pop_held()?;
        self.produced += 1;
        Some(r)
    }

    /// [`Workload::next_record`] when the window holds no record beyond its depth: a generator
    /// fills the window in a batch; other sources are read one record at a time, through the
    /// window when it is on.
    #[inline(never)]
    fn next_from_source(&mut self) -> Option<Result<IoRecord, WorkloadError>> {
        let r = match &mut self.source {
            Source::Synthetic(s, _) => self.ahead.next_filled(|out| s.fill(out)),
            source if self.ahead.on() => self.ahead.next(|| Self::pull(source)),
            source => Self::pull(source),
        };
        if let Some(Ok(_)) = r {
            self.produced += 1;
        }
        r
    }

    /// The next request of a source other than a generator (which
    /// [`Workload::next_from_source`] asks itself).
    #[inline(always)]
    fn pull(source: &mut Source) -> Option<Result<IoRecord, WorkloadError>> {
        match source {
            Source::Trace(t, ..) => t.next(),
            // Asked by `next_from_source` itself.
            Source::Synthetic(..) => None,
            Source::Records(r, next) => {
                let rec = r.get(*next).copied();
                *next += 1;
                rec.map(Ok)
            }
            Source::Disks(t, _) => t.next(),
            Source::Tagged(r, next, last) => {
                let rec = r.get(*next).copied();
                *next += 1;
                rec.map(|(d, rec)| {
                    *last = Some(d);
                    Ok(rec)
                })
            }
        }
    }

    /// What the workload is, as far as preconditioning with it ([`crate::ageing::trace`]) can
    /// tell: a trace's path, size and reading options; a generator's spec, logical space and seed;
    /// records' count and a hash of them. Two workloads with the same identity replay the same
    /// requests (a trace file rewritten in place at the same size excepted).
    pub fn identity(&self) -> String {
        match &self.source {
            Source::Trace(_, path, opts) => {
                let size = std::fs::metadata(path)
                    .map(|m| format!("{} bytes", m.len()))
                    .unwrap_or_else(|_| "size unknown".into());
                format!("trace {} ({size}) {opts:?}", path.display())
            }
            Source::Synthetic(_, how) => {
                let (spec, logical_bytes, seed) = how.as_ref();
                format!("synthetic {spec:?} over {logical_bytes} bytes, seed {seed}")
            }
            Source::Records(records, _) => {
                let h = records_hash(records.iter().map(|r| (None, r)));
                format!("{} records {:016x}", records.len(), h)
            }
            Source::Disks(_, made) => {
                let (files, opts) = made.as_ref();
                let files: Vec<String> = files
                    .iter()
                    .map(|(disk, path)| {
                        let size = std::fs::metadata(path)
                            .map(|m| format!("{} bytes", m.len()))
                            .unwrap_or_else(|_| "size unknown".into());
                        format!("disk {disk}: {} ({size})", path.display())
                    })
                    .collect();
                format!("per-disk traces [{}] {opts:?}", files.join(", "))
            }
            Source::Tagged(records, _, _) => {
                let h = records_hash(records.iter().map(|(disk, r)| (Some(*disk), r)));
                format!("{} disk-tagged records {:016x}", records.len(), h)
            }
        }
    }

    /// True when [`Workload::replay`] gives a new sample for every `sample` (a synthetic
    /// workload), false when it gives the same requests every time (a trace, records).
    pub fn samples(&self) -> bool {
        matches!(self.source, Source::Synthetic(..))
    }

    /// The same workload again from its start (a trace is opened again): for preconditioning with
    /// the workload itself. A synthetic workload gives its own requests for `sample` 0 and, for
    /// `sample` k > 0, as many new requests of the same generator (another seed).
    pub fn replay(&self, sample: u64) -> Result<Workload, WorkloadError> {
        let source = match &self.source {
            Source::Trace(_, path, opts) => Source::Trace(
                Box::new(ssdgc_workload::open_trace(path, opts)?),
                path.clone(),
                opts.clone(),
            ),
            Source::Synthetic(_, made) => {
                let (spec, logical_bytes, seed) = made.as_ref();
                let seed = match sample {
                    0 => *seed,
                    k => rand_core::RngCore::next_u64(&mut crate::rng::rng_for(*seed, k)),
                };
                Source::Synthetic(
                    Box::new(Synthetic::new(spec, *logical_bytes, seed)),
                    made.clone(),
                )
            }
            Source::Records(r, _) => Source::Records(r.clone(), 0),
            Source::Disks(_, made) => Source::Disks(
                Box::new(array::DiskTraces::open(&made.0, &made.1)?),
                made.clone(),
            ),
            Source::Tagged(r, _, _) => Source::Tagged(r.clone(), 0, None),
        };
        Ok(Workload {
            ahead: lookahead::Ahead::default(),
            source,
            produced: 0,
            mode: self.mode,
            name: self.name.clone(),
            format: self.format.clone(),
            expected: self.expected,
            bursts: self.bursts,
        })
    }

    /// What became of the input so far.
    pub fn stats(&self) -> SourceStats {
        match &self.source {
            Source::Trace(t, ..) => {
                let s = t.stats();
                SourceStats {
                    lines: s.lines,
                    records: self.produced,
                    skipped_lines: s.blank + s.skipped,
                    filtered_records: s.filtered,
                    volume: t.selected_volume(),
                }
            }
            Source::Disks(t, _) => {
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

/// FNV-1a over every field of every record and its disk, if tagged ([`Workload::identity`]).
fn records_hash<'a>(records: impl Iterator<Item = (Option<u64>, &'a IoRecord)>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (disk, r) in records {
        let op = u64::from(r.op == ssdgc_workload::Op::Write);
        for v in disk.into_iter().chain([r.time_ns, op, r.offset, r.len]) {
            for b in v.to_le_bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    h
}
