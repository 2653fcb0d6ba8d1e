//! The run report: a stable, versioned JSON object (documented in `docs/report-schema.md`) and a
//! human-readable table. Key names are fixed; new keys may be added in a compatible schema version,
//! none is renamed or removed without a new major version.

use serde::Serialize;

use super::breakdown::{self, BreakdownReport, DieClock, PlaneUtil};
use super::figures::{DriveWork, HostPath, MappingInfo, MigrationSettings, RunFigures};
use super::{
    CdfPoint, LatencyCdfs, LatencyClass, LatencySummary, Responses, SeriesPoint, EXCESS_STEPS_MS,
};
use crate::gc::preempt::{PreemptMode, Suspend};
use crate::gc::schemes::GcAxes;
use crate::gc::when::When;
use crate::units::{ns_to_us, SimTime};

mod schemes;

pub use schemes::*;

/// Schema identifier of a single-run report.
pub const SCHEMA: &str = "ssdgc-report/2";
/// Schema identifier of a comparison.
pub const COMPARE_SCHEMA: &str = "ssdgc-compare/1";

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Report {
    pub schema: String,
    pub scheme: String,
    /// The GC axes the run used: the named scheme's, with the `[gc]` axis keys' overrides.
    pub gc_axes: GcAxesReport,
    pub victim: String,
    pub seed: u64,
    pub workload: WorkloadInfo,
    pub drive: DriveInfo,
    pub requests: Requests,
    /// Requests that waited on the host for a device-queue slot, and whether the run is
    /// saturated.
    pub host_queue: HostQueue,
    pub latency_us: Latencies,
    /// Mean response time per request split into service time (ST), waiting on GC of the same plane
    /// (CsGC), on GC of another plane of the die (CoGC), late conflicts (LC) and conflicts with
    /// non-GC work (CnGC); the five sum to `latency_us.all.mean`.
    pub breakdown_us: BreakdownReport,
    /// Mean share of time a plane spends serving host I/O, collecting, idle while another plane of
    /// its die collects, and idle.
    pub plane_util: PlaneUtil,
    pub excess: Excess,
    pub flash: Flash,
    pub gc: Gc,
    /// The counters of the GC capabilities the run uses, one keyed sub-object per capability,
    /// present only when the run uses it.
    pub schemes: Schemes,
    /// The log-block FTL's merges and update blocks; only with a log-block mapping
    /// (`ftl.mapping` = `lftl` or `hftl`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ftl: Option<FtlReport>,
    /// The host write buffer (`buffer.size`); only with one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer: Option<BufferReport>,
    pub wear: Wear,
    pub sim: Sim,
    /// Latency over time and over the request sequence, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series: Option<SeriesReport>,
    /// In an array of several drives: one full report per drive, in drive order, whose requests
    /// are the pieces of the array's requests that drive served.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drives: Option<Vec<Report>>,
    /// With several seeds (`--seeds N`): the headline figures' mean and 95 % confidence interval
    /// over the seeds, with each seed's value ([`super::seeds`]); this report is the first seed's.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seeds: Option<super::seeds::SeedsReport>,
    /// The distribution of the response times as CDFs (all, reads, writes); not part of the JSON
    /// report ([`Report::latency_cdf`]).
    #[serde(skip)]
    pub cdf: LatencyCdfs,
}

/// Latency series.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SeriesReport {
    /// Interval of simulated arrival time per point of `by_time`, in seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interval_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_time: Option<Vec<SeriesPoint>>,
    /// Consecutive requests per point of `by_request`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_request: Option<Vec<SeriesPoint>>,
    /// Consecutive write requests per point of `by_write` (with `schemes.critical_path`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write_window: Option<u64>,
    /// Response time along the sequence of write requests (AGC/DGC paper Figs. 8, 9): `start` is
    /// the index of the point's first write request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub by_write: Option<Vec<SeriesPoint>>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct WorkloadInfo {
    pub name: String,
    pub format: String,
    /// What became of the trace's lines.
    pub source: SourceStats,
}

/// What became of a trace's lines, for the report: nothing is dropped silently.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SourceStats {
    /// Lines read (0 for synthetic workloads).
    pub lines: u64,
    /// Requests produced.
    pub records: u64,
    /// Blank lines, headers, comments and events that are neither reads nor writes.
    pub skipped_lines: u64,
    /// Records of other volumes or devices, left out by the volume selection.
    pub filtered_records: u64,
    /// The volume replayed, when the format has volumes.
    pub volume: Option<u64>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct DriveInfo {
    pub channels: u32,
    pub chips_per_channel: u32,
    pub dies_per_chip: u32,
    pub planes_per_die: u32,
    pub blocks_per_plane: u32,
    pub pages_per_block: u32,
    pub page_size: u64,
    pub physical_pages: u64,
    pub logical_pages: u64,
    pub overprovision: f64,
    pub gc_threshold: f64,
    pub allocation: String,
    /// The RAID-0 array the drive belongs to, when it has several drives (every drive is as
    /// described above).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub array: Option<ArrayInfo>,
}

/// One line: `2ch 2chips 1dies 2planes, 256 blocks of 64 x 4096 B pages, op 0.20, gc at 0.03, CWDP`
/// (the array, if any, is not part of it).
impl std::fmt::Display for DriveInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}ch {}chips {}dies {}planes, {} blocks of {} x {} B pages, op {:.2}, gc at {:.2}, {}",
            self.channels,
            self.chips_per_channel,
            self.dies_per_chip,
            self.planes_per_die,
            self.blocks_per_plane,
            self.pages_per_block,
            self.page_size,
            self.overprovision,
            self.gc_threshold,
            self.allocation
        )
    }
}

/// A RAID-0 array of identical drives.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ArrayInfo {
    pub drives: u32,
    /// Stripe unit in bytes.
    pub chunk_bytes: u64,
    /// The array's logical pages: drives × one drive's.
    pub logical_pages: u64,
    /// The array's physical pages: drives × one drive's.
    pub physical_pages: u64,
    /// Per-disk traces: the disks each drive replaces (`array.disks`); absent for one striped
    /// volume.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub disks: Vec<Vec<u64>>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Requests {
    pub total: u64,
    pub reads: u64,
    pub writes: u64,
    /// Reads of never-written pages, answered without flash access.
    pub unmapped_page_reads: u64,
}

/// Requests waiting on the host for a device-queue slot.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct HostQueue {
    /// Requests that found the device queue full (`host.queue_depth` requests in it) and waited
    /// on the host for a slot.
    pub waited: u64,
    /// More than [`SATURATED_SHARE`] of the requests waited: the offered load exceeds what the
    /// drive serves, and response times grow with the backlog.
    pub saturated: bool,
}

/// A run in which more than this share of the requests waited for a device-queue slot is
/// saturated.
pub const SATURATED_SHARE: f64 = 0.5;

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Latencies {
    pub all: LatencySummary,
    pub read: LatencySummary,
    pub write: LatencySummary,
}

/// Requests slower than the marginal response time, and by how much in total.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Excess {
    pub marginal_us: f64,
    pub requests: u64,
    pub total_us: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Flash {
    pub host_pages_written: u64,
    pub host_pages_read: u64,
    pub gc_pages_moved: u64,
    pub blocks_erased: u64,
    pub waf: f64,
    /// `ftl.rmw`: pages read for read-modify-writes of partly written pages (not in
    /// `host_pages_read`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rmw_reads: Option<u64>,
    /// `ftl.multiplane` other than `off`: host multi-plane commands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_multiplane: Option<HostMultiplaneReport>,
}

/// Host multi-plane commands (`ftl.multiplane`).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct HostMultiplaneReport {
    /// Multi-plane host reads and writes issued (each carries two or more pages).
    pub reads: u64,
    pub writes: u64,
    /// Host pages they carried.
    pub pages: u64,
    /// Pages left unprogrammed to bring the host write points of a command's planes to one
    /// offset (`greedy`).
    pub skipped_pages: u64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Gc {
    pub invocations: u64,
    pub total_time_us: f64,
    pub mean_valid_pages_per_victim: f64,
    pub mean_valid_share_per_victim: f64,
    /// Host writes to a page a GC job was about to move: the move is skipped (any scheme).
    pub cancelled_moves: u64,
}

/// A log-block FTL (L-FTL, H-FTL; AGC/DGC paper §6): its group shape, its merges by kind and its
/// update blocks.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct FtlReport {
    /// `lftl` or `hftl` (`ftl.mapping`).
    pub mapping: String,
    /// Logical blocks per group (n of n:m): 1 for L-FTL.
    pub data_blocks_per_group: u32,
    /// Update blocks a group may hold (m of n:m): 1 for L-FTL.
    pub update_blocks_per_group: u32,
    /// `ftl.log_blocks`: most update blocks per plane (0: as many as the free blocks allow).
    pub log_blocks: u32,
    /// Merges per kind.
    pub merges: Merges,
    /// Update blocks held at the end of the run.
    pub update_blocks: u64,
    /// The most update blocks held at once during the measured run (one drive; in an array the
    /// largest over its drives).
    pub update_blocks_peak: u64,
    /// Update blocks opened beyond a group's shape or the plane's cap: writes a trigger let
    /// through while their group's merge was due.
    pub overflow_blocks: u64,
}

/// Merges of a log-block FTL, per kind.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Merges {
    /// The update block becomes the data block: no copy.
    pub switch: MergeReport,
    /// The update block is completed from the data block.
    pub partial: MergeReport,
    /// Every valid page of the group is copied into fresh data blocks.
    pub full: MergeReport,
}

/// One kind of merge.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct MergeReport {
    /// Merges carried out (planned; a merge in progress at the end of the run counts).
    pub count: u64,
    /// Pages copied.
    pub pages_copied: u64,
    /// Blocks erased.
    pub blocks_erased: u64,
}

/// The host write buffer (preemptible-GC paper §V, Fig. 16).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct BufferReport {
    /// Capacity in bytes (whole pages); 0 without a buffer.
    pub size_bytes: u64,
    /// Host write requests acknowledged by the buffer.
    pub writes_absorbed: u64,
    /// Host write requests that did not fit and were written to flash directly.
    pub writes_bypassed: u64,
    /// Host read pages served from the buffer.
    pub hits_read: u64,
    /// Buffered pages written to flash.
    pub pages_flushed: u64,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Wear {
    pub erase_min: u32,
    pub erase_max: u32,
    pub erase_mean: f64,
    pub erase_std: f64,
    /// Blocks per erase count: `histogram[i]` blocks were erased `histogram_start + i` times
    /// (or, when the spread is wide, fall in bin `i` of width `histogram_bin`).
    pub histogram_start: u32,
    pub histogram_bin: u32,
    pub histogram: Vec<u64>,
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Sim {
    pub simulated_s: f64,
    pub wall_s: f64,
    pub events: u64,
}

/// The GC axes of a run, by name ([`crate::gc::schemes::GcAxes`]).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GcAxesReport {
    pub when: String,
    pub collect: String,
    pub preempt: String,
    pub merge: bool,
    pub pipeline: bool,
    pub suspend: String,
    pub planes: String,
    pub migration: String,
    /// True when an axis key overrides the named scheme's value.
    pub overridden: bool,
}

impl GcAxesReport {
    /// The report of `axes`, run under the scheme named `scheme`.
    pub fn new(axes: &GcAxes, scheme: &str) -> GcAxesReport {
        GcAxesReport {
            when: axes.when.to_string(),
            collect: axes.collect.to_string(),
            preempt: axes.preempt.mode.to_string(),
            merge: axes.preempt.merge,
            pipeline: axes.preempt.pipeline,
            suspend: axes.preempt.suspend.to_string(),
            planes: axes.planes.to_string(),
            migration: axes.migration.to_string(),
            overridden: crate::gc::schemes::preset(scheme).ok().as_ref() != Some(axes),
        }
    }

    /// `when=… collect=… …`, as `ssdgc list schemes` prints a preset.
    pub fn summary(&self) -> String {
        let on = |b: bool| if b { "on" } else { "off" };
        format!(
            "when={} collect={} preempt={} merge={} pipeline={} suspend={} planes={} migration={}",
            self.when,
            self.collect,
            self.preempt,
            on(self.merge),
            on(self.pipeline),
            self.suspend,
            self.planes,
            self.migration
        )
    }
}

fn wear(counts: &[u32]) -> Wear {
    let n = counts.len().max(1) as f64;
    let min = counts.iter().copied().min().unwrap_or(0);
    let max = counts.iter().copied().max().unwrap_or(0);
    let mean = counts.iter().map(|&c| c as f64).sum::<f64>() / n;
    let var = counts
        .iter()
        .map(|&c| (c as f64 - mean).powi(2))
        .sum::<f64>()
        / n;
    let span = max - min + 1;
    let bin = span.div_ceil(64).max(1);
    let mut histogram = vec![0u64; span.div_ceil(bin) as usize];
    for &c in counts {
        histogram[((c - min) / bin) as usize] += 1;
    }
    Wear {
        erase_min: min,
        erase_max: max,
        erase_mean: mean,
        erase_std: var.sqrt(),
        histogram_start: min,
        histogram_bin: bin,
        histogram,
    }
}

/// The report's sections from one drive's counters, or from their sum over an array's drives.
impl DriveWork {
    fn flash(&self, host: HostPath) -> Flash {
        let c = self;
        let waf = if c.host_pages_written == 0 {
            0.0
        } else {
            (c.host_pages_written + c.gc_pages_moved) as f64 / c.host_pages_written as f64
        };
        Flash {
            host_pages_written: c.host_pages_written,
            host_pages_read: c.host_pages_read,
            gc_pages_moved: c.gc_pages_moved,
            blocks_erased: c.blocks_erased,
            waf,
            rmw_reads: section(host.rmw, c.rmw_reads),
            host_multiplane: section(
                host.multiplane,
                HostMultiplaneReport {
                    reads: c.multiplane_reads,
                    writes: c.multiplane_writes,
                    pages: c.multiplane_pages,
                    skipped_pages: c.multiplane_skipped,
                },
            ),
        }
    }

    fn gc(&self, pages_per_block: u32) -> Gc {
        let c = self;
        let mean_valid = if c.victims == 0 {
            0.0
        } else {
            c.victim_valid_pages as f64 / c.victims as f64
        };
        Gc {
            invocations: c.victims,
            total_time_us: ns_to_us(c.gc_time),
            mean_valid_pages_per_victim: mean_valid,
            mean_valid_share_per_victim: mean_valid / pages_per_block as f64,
            cancelled_moves: c.cancelled_moves,
        }
    }

    /// The section of planned jobs, when the run plans them (`settings`).
    fn migration(&self, settings: Option<&MigrationSettings>) -> Option<Migration> {
        let c = self;
        let Some(m) = settings else {
            debug_assert!(
                c.gc_jobs == 0
                    && c.waves == 0
                    && c.parity_skipped == 0
                    && c.out_of_order_pairs == 0
                    && c.multi_erases == 0,
                "counters of planned jobs in a run that plans none"
            );
            return None;
        };
        let per = |x: f64, n: u64| if n == 0 { 0.0 } else { x / n as f64 };
        Some(Migration {
            workers: m.workers,
            registers_per_plane: m.registers_per_plane,
            register_sharing: m.register_sharing.clone(),
            erase_blocks: m.erase_blocks,
            copyback_parity: m.copyback_parity.clone(),
            jobs: c.gc_jobs,
            job_time_us: ns_to_us(c.gc_job_time),
            mean_job_time_us: per(ns_to_us(c.gc_job_time), c.gc_jobs),
            victims_per_job: per(c.victims as f64, c.gc_jobs),
            valid_pages_per_victim: per(c.victim_valid_pages as f64, c.victims),
            pages_migrated: c.gc_pages_moved,
            waves: c.waves,
            wasted_pages: c.parity_skipped,
            out_of_order_pairs: c.out_of_order_pairs,
            multi_block_erases: c.multi_erases,
            register_utilisation: c.worker_busy.0[..m.workers as usize]
                .iter()
                .map(|&b| b as f64 / c.gc_job_time.max(1) as f64)
                .collect(),
        })
    }

    /// The capability sections of a run with GC axes `axes` (and planned jobs' `settings`).
    fn schemes(&self, axes: &GcAxes, settings: Option<&MigrationSettings>) -> Schemes {
        let c = self;
        let per_die = |t: SimTime| t as f64 / 1e9 / c.dies.max(1) as f64;
        let p = &axes.preempt;
        Schemes {
            states: section(
                axes.when == When::States,
                States {
                    state_time_s: StateTime {
                        s0: per_die(c.s0_time),
                        s1: per_die(c.s1_time),
                        s2: per_die(c.s2_time),
                        s3: per_die(c.s3_time),
                    },
                    s3_holds: c.s3_holds,
                },
            ),
            idle: section(
                axes.when == When::Idle,
                IdleGc {
                    idle_jobs: c.idle_jobs,
                },
            ),
            preempt: section(
                p.mode == PreemptMode::Ops,
                Preempt {
                    preemptions: c.preemptions,
                },
            ),
            merge: section(
                p.merge,
                Merge {
                    merged_reads: c.merged_reads,
                    merged_writes: c.merged_writes,
                },
            ),
            pipeline: section(
                p.pipeline,
                Pipeline {
                    point_a: 0,
                    host_reads: c.pipelined_reads,
                    host_writes: c.pipelined_writes,
                },
            ),
            suspend: section(
                p.suspend != Suspend::None,
                SuspendGc {
                    suspensions: c.suspensions,
                },
            ),
            pagc: section(
                axes.planes.is_pagc(),
                Pagc {
                    pard_pawr: c.pard_pawr,
                    srrd_pawr: c.srrd_pawr,
                    srrd_srwr: c.srrd_srwr,
                    joined: c.pagc_joined,
                    buffered_pages: c.pages_buffered,
                    skipped_pages: c.pages_skipped,
                },
            ),
            agc: section(axes.when.is_agc_family(), self.agc()),
            critical_path: None,
            migration: self.migration(settings),
        }
    }

    /// The AGC/DGC family's counters.
    fn agc(&self) -> AgcGc {
        let c = self;
        let idle = c.agc_look_ahead + c.agc_proactive + c.agc_retroactive;
        let all = idle + c.agc_on_demand;
        let share = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        AgcGc {
            on_demand: c.agc_on_demand,
            look_ahead: c.agc_look_ahead,
            proactive: c.agc_proactive,
            retroactive: c.agc_retroactive,
            delayed: c.agc_delayed,
            dgc_fallbacks: c.agc_fallbacks,
            resumed: c.agc_resumed,
            unfit: c.agc_unfit,
            hidden_share: share(idle, all),
            dgc_share: share(c.agc_retroactive, idle),
        }
    }

    /// The idle periods of the drive(s).
    fn idle(&self, long_idle: SimTime) -> IdleReport {
        let c = self;
        let share = |a: u64| {
            if c.idle_requests == 0 {
                0.0
            } else {
                a as f64 / c.idle_requests as f64
            }
        };
        IdleReport {
            long_idle_s: long_idle as f64 / 1e9,
            requests: c.idle_requests,
            back_to_back: c.back_to_back,
            short: c.short_idle,
            short_s: c.short_idle_ns as f64 / 1e9,
            long: c.long_idle,
            long_s: c.long_idle_ns as f64 / 1e9,
            share_back_to_back: share(c.back_to_back),
            share_short: share(c.short_idle),
            share_long: share(c.long_idle),
        }
    }

    /// The critical-path figures of the drive(s) whose requests are `r`.
    fn critical_path(&self, r: &Responses, long_idle: SimTime) -> CriticalPath {
        let n = r.all().count();
        let wait = r.breakdown.gc_wait_ns();
        let total = r.breakdown.total_ns();
        CriticalPath {
            idle: self.idle(long_idle),
            gc_overhead: GcOverhead {
                total_us: wait as f64 / 1e3,
                mean_us: if n == 0 {
                    0.0
                } else {
                    wait as f64 / 1e3 / n as f64
                },
                share: if total == 0 {
                    0.0
                } else {
                    wait as f64 / total as f64
                },
            },
            excess_over: EXCESS_STEPS_MS
                .iter()
                .zip(&r.excess_over)
                .map(|(&above_ms, &requests)| ExcessStep { above_ms, requests })
                .collect(),
        }
    }
}

impl DriveWork {
    /// The log-block FTL section of drives whose mapping is `m`, or `None` under page mapping
    /// (which merges nothing: checked in debug builds).
    fn ftl(&self, m: Option<&MappingInfo>) -> Option<FtlReport> {
        let Some(m) = m else {
            debug_assert!(
                self.merges == Default::default() && self.update_blocks == 0,
                "merges counted under page mapping: {:?}",
                self.merges
            );
            return None;
        };
        let kind = |k: usize| MergeReport {
            count: self.merges.count[k],
            pages_copied: self.merges.pages_copied[k],
            blocks_erased: self.merges.blocks_erased[k],
        };
        Some(FtlReport {
            mapping: m.mapping.clone(),
            data_blocks_per_group: m.data_blocks_per_group,
            update_blocks_per_group: m.update_blocks_per_group,
            log_blocks: m.log_blocks,
            merges: Merges {
                switch: kind(0),
                partial: kind(1),
                full: kind(2),
            },
            update_blocks: self.update_blocks,
            update_blocks_peak: self.update_blocks_peak.0,
            overflow_blocks: self.overflow_blocks,
        })
    }
}

/// `counters` when the run uses their capability (`on`). A capability the run does not use counts
/// nothing, so leaving its section out loses no figure (checked in debug builds).
fn section<T: Default + PartialEq + std::fmt::Debug>(on: bool, counters: T) -> Option<T> {
    debug_assert!(
        on || counters == T::default(),
        "counters of a capability the run does not use: {counters:?}"
    );
    on.then_some(counters)
}

fn requests(r: &Responses) -> Requests {
    Requests {
        total: r.all().count(),
        reads: r.read.count(),
        writes: r.write.count(),
        unmapped_page_reads: r.unmapped_reads,
    }
}

fn host_queue(waited: u64, total: u64) -> HostQueue {
    HostQueue {
        waited,
        saturated: waited as f64 > SATURATED_SHARE * total as f64,
    }
}

fn latencies(r: &Responses) -> Latencies {
    Latencies {
        all: r.all().summary(),
        read: r.read.summary(),
        write: r.write.summary(),
    }
}

fn cdfs(r: &Responses) -> LatencyCdfs {
    LatencyCdfs {
        all: r.all().cdf(),
        read: r.read.cdf(),
        write: r.write.cdf(),
    }
}

fn excess(r: &Responses) -> Excess {
    Excess {
        marginal_us: ns_to_us(r.bound),
        requests: r.excess_requests,
        total_us: r.excess_ns as f64 / 1e3,
    }
}

/// The buffer section of a run with a write buffer.
fn buffer(b: &BufferReport) -> Option<BufferReport> {
    section(b.size_bytes > 0, b.clone())
}

/// The report of one run, from the figures its drives and front end produced.
pub fn build(i: &RunFigures<'_>) -> Report {
    let work: DriveWork = i.drives.iter().map(|d| d.work).sum();
    let pages_per_block = i.drive.pages_per_block;
    let host = &i.host;
    let several = i.drives.len() > 1;
    let clocks: Vec<DieClock> = i
        .drives
        .iter()
        .flat_map(|d| d.clocks.iter().cloned())
        .collect();
    let erase_counts: Vec<u32> = i
        .drives
        .iter()
        .flat_map(|d| d.erase_counts.iter().copied())
        .collect();
    let base = Report {
        schema: SCHEMA.into(),
        scheme: i.scheme.into(),
        gc_axes: GcAxesReport::new(&i.axes, i.scheme),
        victim: i.victim.clone(),
        seed: i.seed,
        workload: i.workload.clone(),
        drive: i.drive.clone(),
        requests: requests(host.requests),
        host_queue: host_queue(i.queued_on_host, host.requests.all().count()),
        latency_us: latencies(host.requests),
        breakdown_us: host.requests.breakdown.report(),
        plane_util: breakdown::plane_util(&clocks, i.simulated),
        excess: excess(host.requests),
        flash: work.flash(i.host_path),
        gc: work.gc(pages_per_block),
        schemes: Schemes {
            critical_path: i
                .critical_path
                .then(|| work.critical_path(host.requests, i.long_idle)),
            ..work.schemes(&i.axes, i.migration.as_ref())
        },
        ftl: work.ftl(i.mapping.as_ref()),
        buffer: buffer(&host.buffer),
        wear: wear(&erase_counts),
        sim: Sim {
            simulated_s: i.simulated as f64 / 1e9,
            wall_s: i.wall_s,
            events: i.events,
        },
        series: (i.by_time.is_some() || i.by_request.is_some()).then(|| SeriesReport {
            // The width in use: wider than asked when points were merged to stay under the cap.
            interval_s: i
                .by_time
                .map(|x| x.width())
                .or(i.series_interval)
                .map(|t| t as f64 / 1e9),
            by_time: i.by_time.map(|x| x.points(1e9)),
            window: i.by_request.map(|x| x.width()).or(i.series_window),
            by_request: i.by_request.map(|x| x.points(1.0)),
            write_window: i.by_write.map(|x| x.width()),
            by_write: i.by_write.map(|x| x.points(1.0)),
        }),
        drives: None,
        seeds: None,
        cdf: cdfs(host.requests),
    };
    if !several {
        return base;
    }
    let per_drive = i
        .drives
        .iter()
        .map(|d| {
            let work = d.work;
            let pieces = d
                .host
                .as_ref()
                .expect("every drive of an array reports the pieces it served");
            Report {
                drive: DriveInfo {
                    array: None,
                    ..i.drive.clone()
                },
                requests: requests(pieces.requests),
                latency_us: latencies(pieces.requests),
                breakdown_us: pieces.requests.breakdown.report(),
                plane_util: breakdown::plane_util(&d.clocks, i.simulated),
                excess: excess(pieces.requests),
                flash: work.flash(i.host_path),
                gc: work.gc(pages_per_block),
                schemes: Schemes {
                    critical_path: i
                        .critical_path
                        .then(|| work.critical_path(pieces.requests, i.long_idle)),
                    ..work.schemes(&i.axes, i.migration.as_ref())
                },
                ftl: work.ftl(i.mapping.as_ref()),
                buffer: buffer(&pieces.buffer),
                wear: wear(d.erase_counts),
                sim: Sim {
                    events: work.events,
                    ..base.sim.clone()
                },
                series: None,
                drives: None,
                cdf: cdfs(pieces.requests),
                ..base.clone()
            }
        })
        .collect();
    Report {
        drives: Some(per_drive),
        ..base
    }
}

impl Report {
    /// The distribution of the response times of one class of requests (all, reads, writes) as
    /// a CDF: one point per non-empty bucket of the HDR histogram, value in µs and the share of
    /// requests at or below it ([`crate::metrics::cdf`]). In a drive's report of an array, of the
    /// pieces it served.
    pub fn latency_cdf(&self, class: LatencyClass) -> &[CdfPoint] {
        self.cdf.get(class)
    }

    /// The report as one JSON object.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wear_histogram_counts_every_block() {
        let counts: Vec<u32> = (0..1000).map(|i| i % 7 + 3).collect();
        let w = wear(&counts);
        assert_eq!(w.erase_min, 3);
        assert_eq!(w.erase_max, 9);
        assert_eq!(w.histogram.iter().sum::<u64>(), 1000);
        assert_eq!(w.histogram.len(), 7);
        let wide: Vec<u32> = (0..1000).collect();
        let w = wear(&wide);
        assert!(w.histogram.len() <= 64);
        assert_eq!(w.histogram.iter().sum::<u64>(), 1000);
    }
}
