//! `ssdgc trace info FILE`: what a trace holds, in one streaming pass with the simulator's own
//! readers (`ssdgc_workload`): the format, what became of its lines, reads and writes, request
//! sizes, the address span, the duration and idle time, and its volumes or devices with their
//! record counts. Memory does not grow with the trace: sizes and gaps go into HDR histograms (3
//! significant digits) and at most 4,096 volumes are counted one by one.

use hdrhistogram::Histogram;
use serde::Serialize;
use ssdgc_workload::{BlkparseEvent, Format, Op, TimeUnit, TraceOptions};

use crate::args::TraceInfoArgs;
use crate::UserError;

/// Records held to re-sort unsorted traces with every volume kept (a replay of one volume holds
/// 4,096).
const INFO_REORDER_WINDOW: usize = 1 << 16;

/// Volumes listed in the text summary (the JSON lists every one counted).
const TEXT_VOLUMES: usize = 12;

#[derive(Serialize)]
struct Quantiles {
    min: u64,
    mean: f64,
    p50: u64,
    p90: u64,
    p99: u64,
    max: u64,
}

#[derive(Serialize)]
struct Volume {
    volume: u64,
    records: u64,
}

/// The summary, as `--json` prints it.
#[derive(Serialize)]
struct Info {
    file: String,
    format: String,
    lines: u64,
    records: u64,
    skipped_lines: u64,
    filtered_records: u64,
    error_lines: u64,
    first_error: Option<String>,
    reads: u64,
    writes: u64,
    read_bytes: u64,
    write_bytes: u64,
    /// Request sizes, bytes.
    size_bytes: Option<Quantiles>,
    /// Requests per size class: `(upper bound in bytes, requests)`, powers of two from 512 B.
    size_classes: Vec<(u64, u64)>,
    /// Requests whose offset and length are multiples of 4 KiB.
    aligned_4k: u64,
    lowest_offset: Option<u64>,
    highest_end: Option<u64>,
    duration_s: f64,
    /// Gaps between consecutive arrivals, ns.
    interarrival_ns: Option<Quantiles>,
    idle_gap_s: f64,
    idle_gaps: u64,
    idle_s: f64,
    /// Busiest first; empty for formats without volumes or devices.
    volumes: Vec<Volume>,
    /// Records of volumes beyond the 4,096 counted one by one.
    other_volume_records: u64,
    /// The volume a replay without `--volume` keeps (Tencent: the first record's); `None` when
    /// it keeps every record or `--volume` was given.
    default_volume: Option<u64>,
}

/// A distribution: exact minimum, mean and maximum, quantiles from an HDR histogram (the lowest
/// value of their bucket, within 0.1 %).
struct Dist {
    hist: Histogram<u64>,
    min: u64,
    max: u64,
    sum: u128,
    n: u64,
}

impl Dist {
    fn new(highest: u64) -> Dist {
        Dist {
            hist: Histogram::new_with_bounds(1, highest, 3).expect("valid bounds"),
            min: u64::MAX,
            max: 0,
            sum: 0,
            n: 0,
        }
    }

    fn record(&mut self, v: u64) {
        self.hist.saturating_record(v);
        self.min = self.min.min(v);
        self.max = self.max.max(v);
        self.sum += u128::from(v);
        self.n += 1;
    }

    fn quantiles(&self) -> Option<Quantiles> {
        let q = |p: f64| {
            self.hist
                .lowest_equivalent(self.hist.value_at_quantile(p))
                .clamp(self.min, self.max)
        };
        (self.n > 0).then(|| Quantiles {
            min: self.min,
            mean: self.sum as f64 / self.n as f64,
            p50: q(0.5),
            p90: q(0.9),
            p99: q(0.99),
            max: self.max,
        })
    }
}

/// Bytes in binary units: `512 B`, `4 KiB`, `1.5 GiB`.
fn bytes(b: f64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = b;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 || v.fract() == 0.0 {
        format!("{v:.0} {}", UNITS[u])
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}

/// Seconds in a readable unit.
fn secs(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.3} s")
    } else if s >= 1e-3 {
        format!("{:.3} ms", s * 1e3)
    } else if s > 0.0 {
        format!("{:.3} us", s * 1e6)
    } else {
        "0 s".into()
    }
}

/// The summary of `a.trace`, as text or JSON.
pub fn info(a: &TraceInfoArgs) -> Result<String, UserError> {
    let format: Format = a
        .format
        .parse()
        .map_err(|e| UserError(format!("--format: {e}")))?;
    let idle_gap = ssdgc_core::config::parse_duration(&a.idle_gap)
        .map_err(|e| UserError(format!("--idle-gap: {e}")))?;
    let opts = TraceOptions {
        format,
        volume: a.volume,
        disksim_time: a
            .disksim_time
            .parse::<TimeUnit>()
            .map_err(|e| UserError(format!("--disksim-time: {e}")))?,
        blkparse_event: a
            .blkparse_event
            .parse::<BlkparseEvent>()
            .map_err(|e| UserError(format!("--blkparse-event: {e}")))?,
        all_volumes: true,
        // Volumes interleave: unsorted traces (Tencent) are re-sorted over a wider window than a
        // replay of one volume needs.
        reorder_window: INFO_REORDER_WINDOW,
        ..TraceOptions::default()
    };
    let mut reader = ssdgc_workload::open_trace(&a.trace, &opts)?;
    // The volume a replay would pick: the reader as a replay opens it (it looks ahead only).
    let default_volume = if a.volume.is_none() {
        let replay = TraceOptions {
            all_volumes: false,
            reorder_window: TraceOptions::default().reorder_window,
            format: reader.format().clone(),
            ..opts.clone()
        };
        ssdgc_workload::open_trace(&a.trace, &replay)?.selected_volume()
    } else {
        None
    };
    let format = reader.format().name().to_string();
    // Requests are at most 4 GiB, arrivals at most 2^60 ns apart (the readers' limits).
    let mut sizes = Dist::new(1 << 33);
    let mut gaps = Dist::new(1 << 61);
    let mut classes = [0u64; 24];
    let (mut reads, mut writes, mut read_bytes, mut write_bytes, mut aligned) = (0, 0, 0, 0, 0);
    let (mut lowest, mut highest): (Option<u64>, Option<u64>) = (None, None);
    let (mut first_time, mut last_time) = (None, 0u64);
    let (mut idle_gaps, mut idle_ns) = (0u64, 0u128);
    let mut first_error = None;
    for rec in reader.by_ref() {
        let r = match rec {
            Ok(r) => r,
            Err(e) => {
                first_error.get_or_insert_with(|| e.to_string());
                continue;
            }
        };
        match r.op {
            Op::Read => {
                reads += 1;
                read_bytes += r.len;
            }
            Op::Write => {
                writes += 1;
                write_bytes += r.len;
            }
        }
        sizes.record(r.len);
        let class = (r.len.max(512).next_power_of_two().trailing_zeros() as usize)
            .saturating_sub(9)
            .min(classes.len() - 1);
        classes[class] += 1;
        aligned += u64::from(r.offset % 4096 == 0 && r.len % 4096 == 0);
        lowest = Some(lowest.map_or(r.offset, |l| l.min(r.offset)));
        let end = r.offset.saturating_add(r.len);
        highest = Some(highest.map_or(end, |h| h.max(end)));
        if first_time.is_some() {
            let gap = r.time_ns.saturating_sub(last_time);
            gaps.record(gap);
            if gap >= idle_gap {
                idle_gaps += 1;
                idle_ns += u128::from(gap);
            }
        }
        first_time.get_or_insert(r.time_ns);
        last_time = r.time_ns;
    }
    let stats = reader.stats();
    let mut volumes: Vec<Volume> = Vec::new();
    let mut other = 0;
    if let Some((counts, beyond)) = reader.volumes() {
        volumes = counts
            .iter()
            .map(|(&volume, &records)| Volume { volume, records })
            .collect();
        volumes.sort_by(|a, b| b.records.cmp(&a.records).then(a.volume.cmp(&b.volume)));
        other = beyond;
    }
    let duration_ns = last_time.saturating_sub(first_time.unwrap_or(0));
    let last_class = classes.iter().rposition(|&n| n > 0);
    let info = Info {
        file: a.trace.display().to_string(),
        format,
        lines: stats.lines,
        records: stats.records,
        skipped_lines: stats.blank + stats.skipped,
        filtered_records: stats.filtered,
        error_lines: stats.errors,
        first_error,
        reads,
        writes,
        read_bytes,
        write_bytes,
        size_bytes: sizes.quantiles(),
        size_classes: classes
            .iter()
            .enumerate()
            .take(last_class.map_or(0, |c| c + 1))
            .map(|(i, &n)| (512u64 << i, n))
            .collect(),
        aligned_4k: aligned,
        lowest_offset: lowest,
        highest_end: highest,
        duration_s: duration_ns as f64 / 1e9,
        interarrival_ns: gaps.quantiles(),
        idle_gap_s: idle_gap as f64 / 1e9,
        idle_gaps,
        idle_s: idle_ns as f64 / 1e9,
        volumes,
        other_volume_records: other,
        default_volume,
    };
    if a.json {
        return Ok(format!(
            "{}\n",
            serde_json::to_string_pretty(&info).expect("the summary serialises")
        ));
    }
    Ok(text(&info, a.volume))
}

fn pct(n: u64, of: u64) -> f64 {
    100.0 * n as f64 / of.max(1) as f64
}

fn text(i: &Info, volume: Option<u64>) -> String {
    let mut out = format!("trace: {}\nformat: {}\n", i.file, i.format);
    out.push_str(&format!(
        "lines: {} ({} records, {} skipped, {} of other volumes, {} with errors)\n",
        i.lines, i.records, i.skipped_lines, i.filtered_records, i.error_lines
    ));
    if let Some(e) = &i.first_error {
        out.push_str(&format!("first error: {e}\n"));
    }
    out.push_str(&format!(
        "requests: {} reads ({:.1}%, {}), {} writes ({:.1}%, {})\n",
        i.reads,
        pct(i.reads, i.records),
        bytes(i.read_bytes as f64),
        i.writes,
        pct(i.writes, i.records),
        bytes(i.write_bytes as f64)
    ));
    if let Some(s) = &i.size_bytes {
        out.push_str(&format!(
            "sizes: min {}, mean {}, p50 {}, p90 {}, p99 {}, max {}; {:.1}% 4 KiB-aligned\n",
            bytes(s.min as f64),
            bytes(s.mean),
            bytes(s.p50 as f64),
            bytes(s.p90 as f64),
            bytes(s.p99 as f64),
            bytes(s.max as f64),
            pct(i.aligned_4k, i.records)
        ));
        let mut line = String::from("  up to");
        for (bound, n) in i.size_classes.iter().filter(|(_, n)| *n > 0) {
            let item = format!(" {}: {:.1}%,", bytes(*bound as f64), pct(*n, i.records));
            if line.len() + item.len() > 96 {
                out.push_str(line.trim_end_matches(','));
                out.push('\n');
                line = String::from("  up to");
            }
            line.push_str(&item);
        }
        out.push_str(line.trim_end_matches(','));
        out.push('\n');
    }
    if let (Some(lo), Some(hi)) = (i.lowest_offset, i.highest_end) {
        out.push_str(&format!(
            "addresses: bytes {lo} to {hi} (span {})\n",
            bytes(hi.saturating_sub(lo) as f64)
        ));
    }
    out.push_str(&format!(
        "duration: {} ({:.1} requests/s)\n",
        secs(i.duration_s),
        if i.duration_s > 0.0 {
            i.records as f64 / i.duration_s
        } else {
            0.0
        }
    ));
    if let Some(g) = &i.interarrival_ns {
        out.push_str(&format!(
            "inter-arrival: mean {}, p50 {}, p99 {}, max {}\n",
            secs(g.mean / 1e9),
            secs(g.p50 as f64 / 1e9),
            secs(g.p99 as f64 / 1e9),
            secs(g.max as f64 / 1e9)
        ));
    }
    out.push_str(&format!(
        "idle: {} gaps of at least {} between arrivals, {} in all ({:.1}% of the duration)\n",
        i.idle_gaps,
        secs(i.idle_gap_s),
        secs(i.idle_s),
        if i.duration_s > 0.0 {
            100.0 * i.idle_s / i.duration_s
        } else {
            0.0
        }
    ));
    if !i.volumes.is_empty() {
        let n = i.volumes.len();
        out.push_str(&format!(
            "volumes: {n}{}, busiest first (records):\n",
            if i.other_volume_records > 0 {
                format!(" and more with {} records", i.other_volume_records)
            } else {
                String::new()
            }
        ));
        let shown: Vec<String> = i
            .volumes
            .iter()
            .take(TEXT_VOLUMES)
            .map(|v| format!("{} ({})", v.volume, v.records))
            .collect();
        let mut line = String::from(" ");
        for s in shown {
            if line.len() + s.len() + 2 > 96 {
                out.push_str(line.trim_end_matches(','));
                out.push('\n');
                line = String::from(" ");
            }
            line.push(' ');
            line.push_str(&s);
            line.push(',');
        }
        out.push_str(line.trim_end_matches(','));
        out.push('\n');
        if n > TEXT_VOLUMES {
            out.push_str(&format!(
                "  … {} more (--json lists them)\n",
                n - TEXT_VOLUMES
            ));
        }
        if volume.is_none() {
            match i.default_volume {
                Some(d) => {
                    let n = i
                        .volumes
                        .iter()
                        .find(|v| v.volume == d)
                        .map_or(0, |v| v.records);
                    out.push_str(&format!(
                        "  a replay without --volume keeps the first record's, {d} ({n} records, \
                         {:.1}%); replay another with --volume N\n",
                        pct(n, i.records)
                    ));
                }
                None => out.push_str("  replay one with --volume N\n"),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(bytes(512.0), "512 B");
        assert_eq!(bytes(4096.0), "4 KiB");
        assert_eq!(bytes(1536.0), "1.5 KiB");
        assert_eq!(secs(2.5), "2.500 s");
        assert_eq!(secs(0.0125), "12.500 ms");
    }
}
