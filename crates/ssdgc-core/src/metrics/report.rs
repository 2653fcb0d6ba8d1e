//! The run report: a stable, versioned JSON object (documented in `docs/report-schema.md`) and a
//! human-readable table. Key names are fixed; new keys may be added in a compatible schema version,
//! none is renamed or removed without a new major version.

use serde::Serialize;

use super::breakdown::{BreakdownReport, PlaneUtil};
use super::{LatencySummary, SeriesPoint};
use crate::config::Config;
use crate::flash::Geometry;
use crate::ftl::Ftl;
use crate::host::{SourceStats, Workload};
use crate::sim::{RunStats, MARGINAL_RESPONSE};
use crate::units::{ns_to_us, SimTime};

/// Schema identifier of a single-run report.
pub const SCHEMA: &str = "ssdgc-report/1";
/// Schema identifier of a comparison.
pub const COMPARE_SCHEMA: &str = "ssdgc-compare/1";

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Report {
    pub schema: String,
    pub scheme: String,
    pub victim: String,
    pub seed: u64,
    pub workload: WorkloadInfo,
    pub drive: DriveInfo,
    pub requests: Requests,
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
    /// Parallel-GC (PaGC) counters; zero under other schemes.
    pub pagc: Pagc,
    /// Idle-time and preemptible-GC counters; zero under other schemes (except `cancelled_moves`,
    /// which any scheme can see).
    pub pgc: Pgc,
    /// The host write buffer (`buffer.size`); zero counters without one.
    pub buffer: BufferReport,
    pub wear: Wear,
    pub sim: Sim,
    /// Latency over time and over the request sequence, when asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series: Option<SeriesReport>,
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
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct WorkloadInfo {
    pub name: String,
    pub format: String,
    /// What became of the trace's lines.
    pub source: SourceStats,
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
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Requests {
    pub total: u64,
    pub reads: u64,
    pub writes: u64,
    /// Reads of never-written pages, answered without flash access.
    pub unmapped_page_reads: u64,
}

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
}

#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Gc {
    pub invocations: u64,
    pub total_time_us: f64,
    pub mean_valid_pages_per_victim: f64,
    pub mean_valid_share_per_victim: f64,
}

/// Page moves per PaGC class, and the work around them.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Pagc {
    /// Pages moved by multi-plane read + multi-plane program.
    pub pard_pawr: u64,
    /// Pages moved by single-plane reads + a multi-plane program.
    pub srrd_pawr: u64,
    /// Pages moved by a single-plane read and program (or, with TC-PaGC, read into the buffer).
    pub srrd_srwr: u64,
    /// Victims collected by planes that joined another plane's GC.
    pub joined: u64,
    /// Pages read into the DRAM buffer (TC-PaGC).
    pub buffered_pages: u64,
    /// Pages left unprogrammed to keep aligned write points at one offset.
    pub skipped_pages: u64,
}

/// Die time per preemptible-GC state (§III-D of the preemptible-GC paper), mean per die, in seconds.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StateTime {
    /// Free blocks at or above the soft threshold: no GC.
    pub s0: f64,
    /// Below the soft threshold: GC runs, every request may preempt it.
    pub s1: f64,
    /// Below the hard threshold: only requests that consume no free block (reads) preempt.
    pub s2: f64,
    /// A write waits on a plane below the hard threshold: GC runs to its erase, nothing preempts.
    pub s3: f64,
}

/// Idle-time and preemptible-GC counters.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Pgc {
    /// Time per state (preemptible-GC schemes only).
    pub state_time_s: StateTime,
    /// Host transactions served while a GC job of their die was in progress.
    pub preemptions: u64,
    /// Times a write made GC run to its erase with nothing preempting (entries into S3).
    pub s3_holds: u64,
    /// GC jobs started in device idle time (`idle`).
    pub idle_jobs: u64,
    /// Host writes to a page a GC job was about to move: the move is skipped (§III-B).
    pub cancelled_moves: u64,
    /// Host reads served from the page register of a GC move of the same page, with no flash read
    /// of their own (`pgc-merge`, `pgc`; §III-B).
    pub merged_reads: u64,
    /// GC operations (program, erase, or a whole move) suspended for host requests (`pgc-se`,
    /// `fpgc`; §IV).
    pub suspensions: u64,
    /// GC page moves stopped between their read and their program for a host write (preemption
    /// point A, `pgc-pipeline` and the schemes built on it; §III-A).
    pub point_a: u64,
}

/// The host write buffer (preemptible-GC paper §V, Fig. 16).
#[derive(Clone, Debug, Serialize, PartialEq)]
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

pub(crate) struct ReportInput<'a> {
    pub cfg: &'a Config,
    pub geo: &'a Geometry,
    pub scheme: &'a str,
    pub victim: String,
    pub seed: u64,
    pub workload: &'a Workload,
    pub ftl: &'a Ftl,
    pub stats: &'a RunStats,
    pub simulated: SimTime,
    pub wall_s: f64,
    pub events: u64,
    pub series_interval: Option<SimTime>,
    pub series_window: Option<u64>,
    pub plane_util: PlaneUtil,
    pub scheme_stats: crate::gc::scheme::SchemeStats,
    pub buffer: &'a crate::host::buffer::WriteBuffer,
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

pub(crate) fn build(i: &ReportInput<'_>) -> Report {
    let c = i.ftl.counters;
    let s = i.stats;
    let g = i.geo;
    let waf = if c.host_pages_written == 0 {
        0.0
    } else {
        (c.host_pages_written + c.gc_pages_moved) as f64 / c.host_pages_written as f64
    };
    let mean_valid = if c.victims == 0 {
        0.0
    } else {
        c.victim_valid_pages as f64 / c.victims as f64
    };
    Report {
        schema: SCHEMA.into(),
        scheme: i.scheme.into(),
        victim: i.victim.clone(),
        seed: i.seed,
        workload: WorkloadInfo {
            name: i.workload.name.clone(),
            format: i.workload.format.clone(),
            source: i.workload.stats(),
        },
        drive: DriveInfo {
            channels: g.channels,
            chips_per_channel: g.chips_per_channel,
            dies_per_chip: g.dies_per_chip,
            planes_per_die: g.planes_per_die,
            blocks_per_plane: g.blocks_per_plane,
            pages_per_block: g.pages_per_block,
            page_size: g.page_size,
            physical_pages: g.physical_pages as u64,
            logical_pages: g.logical_pages as u64,
            overprovision: i.cfg.geometry.overprovision,
            gc_threshold: i.cfg.gc.threshold,
            allocation: i.cfg.ftl.allocation.to_ascii_uppercase(),
        },
        requests: Requests {
            total: s.lat_all.count(),
            reads: s.lat_read.count(),
            writes: s.lat_write.count(),
            unmapped_page_reads: s.unmapped_reads,
        },
        latency_us: Latencies {
            all: s.lat_all.summary(),
            read: s.lat_read.summary(),
            write: s.lat_write.summary(),
        },
        breakdown_us: s.breakdown.report(),
        plane_util: i.plane_util.clone(),
        excess: Excess {
            marginal_us: ns_to_us(MARGINAL_RESPONSE),
            requests: s.excess_requests,
            total_us: s.excess_ns as f64 / 1e3,
        },
        flash: Flash {
            host_pages_written: c.host_pages_written,
            host_pages_read: s.host_pages_read,
            gc_pages_moved: c.gc_pages_moved,
            blocks_erased: c.blocks_erased,
            waf,
        },
        gc: Gc {
            invocations: c.victims,
            total_time_us: ns_to_us(s.gc_time),
            mean_valid_pages_per_victim: mean_valid,
            mean_valid_share_per_victim: mean_valid / g.pages_per_block as f64,
        },
        pagc: Pagc {
            pard_pawr: c.moves_by_class[0],
            srrd_pawr: c.moves_by_class[1],
            srrd_srwr: c.moves_by_class[2],
            joined: c.pagc_joined,
            buffered_pages: c.pages_buffered,
            skipped_pages: c.pages_skipped,
        },
        pgc: {
            let ss = &i.scheme_stats;
            let per_die = |t: SimTime| t as f64 / 1e9 / g.dies.max(1) as f64;
            Pgc {
                state_time_s: StateTime {
                    s0: per_die(ss.state_time[0]),
                    s1: per_die(ss.state_time[1]),
                    s2: per_die(ss.state_time[2]),
                    s3: per_die(ss.state_time[3]),
                },
                preemptions: ss.preemptions,
                s3_holds: ss.s3_holds,
                idle_jobs: ss.idle_jobs,
                cancelled_moves: s.cancelled_moves,
                merged_reads: s.merged_reads,
                suspensions: s.suspensions,
                point_a: s.point_a,
            }
        },
        buffer: BufferReport {
            size_bytes: i.buffer.capacity() * g.page_size,
            writes_absorbed: i.buffer.writes_absorbed,
            writes_bypassed: i.buffer.writes_bypassed,
            hits_read: i.buffer.hits_read,
            pages_flushed: i.buffer.pages_flushed,
        },
        wear: wear(i.ftl.erase_counts()),
        sim: Sim {
            simulated_s: i.simulated as f64 / 1e9,
            wall_s: i.wall_s,
            events: i.events,
        },
        series: (s.by_time.is_some() || s.by_request.is_some()).then(|| SeriesReport {
            // The width in use: wider than asked when points were merged to stay under the cap.
            interval_s: s
                .by_time
                .as_ref()
                .map(|x| x.width())
                .or(i.series_interval)
                .map(|t| t as f64 / 1e9),
            by_time: s.by_time.as_ref().map(|x| x.points(1e-9)),
            window: s.by_request.as_ref().map(|x| x.width()).or(i.series_window),
            by_request: s.by_request.as_ref().map(|x| x.points(1.0)),
        }),
    }
}

impl Report {
    /// The report as one JSON object.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serialises")
    }

    /// A human-readable table.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        let d = &self.drive;
        out.push_str(&format!(
            "ssdgc: scheme {} · victim {} · seed {}\n",
            self.scheme, self.victim, self.seed
        ));
        out.push_str(&format!(
            "drive: {}ch x {}chips x {}dies x {}planes x {}blocks x {}pages x {}B, op {:.2}, gc threshold {:.2}, {}\n",
            d.channels,
            d.chips_per_channel,
            d.dies_per_chip,
            d.planes_per_die,
            d.blocks_per_plane,
            d.pages_per_block,
            d.page_size,
            d.overprovision,
            d.gc_threshold,
            d.allocation
        ));
        out.push_str(&format!(
            "workload: {} ({})\n",
            self.workload.name, self.workload.format
        ));
        out.push_str(&format!(
            "requests: {} ({} reads, {} writes)\n\n",
            self.requests.total, self.requests.reads, self.requests.writes
        ));
        out.push_str(&format!(
            "{:<6} {:>10} {:>10} {:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>11}\n",
            "us", "mean", "std", "cv", "p50", "p90", "p99", "p99.9", "p99.99", "max"
        ));
        for (name, l) in [
            ("all", &self.latency_us.all),
            ("read", &self.latency_us.read),
            ("write", &self.latency_us.write),
        ] {
            out.push_str(&format!(
                "{:<6} {:>10.1} {:>10.1} {:>6.2} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>11.1}\n",
                name, l.mean, l.std, l.cv, l.p50, l.p90, l.p99, l.p999, l.p9999, l.max
            ));
        }
        let b = &self.breakdown_us;
        out.push_str(&format!(
            "\nbreakdown (mean us): ST {:.1}  CsGC {:.1}  CoGC {:.1}  LC {:.1}  CnGC {:.1}\n",
            b.st, b.csgc, b.cogc, b.lc, b.cngc
        ));
        let u = &self.plane_util;
        out.push_str(&format!(
            "plane time: host {:.1}%  GC {:.1}%  waiting on another plane's GC {:.1}%  idle {:.1}%\n",
            100.0 * u.host,
            100.0 * u.gc,
            100.0 * u.wait_other_gc,
            100.0 * u.idle
        ));
        let f = &self.flash;
        out.push_str(&format!(
            "flash: {} host pages written, {} read, {} moved by GC, {} blocks erased, WAF {:.3}\n",
            f.host_pages_written, f.host_pages_read, f.gc_pages_moved, f.blocks_erased, f.waf
        ));
        let g = &self.gc;
        out.push_str(&format!(
            "gc: {} invocations, {:.1} ms total, {:.1} valid pages per victim ({:.1}%)\n",
            g.invocations,
            g.total_time_us / 1e3,
            g.mean_valid_pages_per_victim,
            100.0 * g.mean_valid_share_per_victim
        ));
        let p = &self.pagc;
        if p.joined > 0 {
            out.push_str(&format!(
                "pagc: moves PaRD-PaWR {} SrRD-PaWR {} SrRD-SrWR {}; {} victims joined; {} pages buffered, {} skipped\n",
                p.pard_pawr, p.srrd_pawr, p.srrd_srwr, p.joined, p.buffered_pages, p.skipped_pages
            ));
        }
        let q = &self.pgc;
        if q.preemptions + q.s3_holds + q.idle_jobs > 0 {
            let t = &q.state_time_s;
            out.push_str(&format!(
                "pgc: {} preemptions, {} S3 holds, {} idle jobs, {} moves cancelled, {} reads merged; per die S0 {:.3} s S1 {:.3} s S2 {:.3} s S3 {:.3} s\n",
                q.preemptions, q.s3_holds, q.idle_jobs, q.cancelled_moves, q.merged_reads, t.s0, t.s1, t.s2, t.s3
            ));
        }
        let b = &self.buffer;
        if b.size_bytes > 0 {
            out.push_str(&format!(
                "buffer: {} B, {} writes absorbed, {} bypassed, {} read pages hit, {} pages flushed\n",
                b.size_bytes, b.writes_absorbed, b.writes_bypassed, b.hits_read, b.pages_flushed
            ));
        }
        let w = &self.wear;
        out.push_str(&format!(
            "wear: erases per block min {} max {} mean {:.2} std {:.2}\n",
            w.erase_min, w.erase_max, w.erase_mean, w.erase_std
        ));
        out.push_str(&format!(
            "over {:.0} ms: {} requests, {:.1} ms excess in total\n",
            self.excess.marginal_us / 1e3,
            self.excess.requests,
            self.excess.total_us / 1e3
        ));
        out.push_str(&format!(
            "sim: {:.3} s simulated, {:.3} s wall, {} events\n",
            self.sim.simulated_s, self.sim.wall_s, self.sim.events
        ));
        out
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
