//! Latency as a time series: per interval of simulated time, and per window of consecutive
//! requests in arrival order. Off unless asked for (`--series-interval`, `--series-window`).
//!
//! Each point holds, for the requests that fall in it, their count, mean and maximum response time
//! and the p50 and p99 from a compact quantile sketch ([`super::series_sketch`], at most 512 bytes,
//! relative error ≤ 1.6 % while a point's values fit its 64 counters, clamped to the point's exact
//! minimum and maximum), and the bytes they read and
//! wrote. Per interval of time the requests counted are those that *arrived* in it, the bytes
//! those of requests that *completed* in it (so that bytes ÷ interval is the bandwidth the drive
//! delivered, as the preemptible-GC paper measures it every second for Table II), and the point
//! also holds the fewest free blocks any plane of any drive had during the interval (the paper's
//! Fig. 13), as the FTL sees them: a GC job's page moves take their destination blocks when the
//! job is dispatched.
//!
//! Memory is bounded: only non-empty points are stored, at most [`MAX_SERIES_POINTS`] of them (the
//! point width doubles, merging neighbours, when more would be needed), each at most ~600 bytes.

use std::collections::BTreeMap;

use serde::Serialize;

use super::series_sketch::Sketch;
use crate::units::SimTime;

/// One point of a series.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SeriesPoint {
    /// Start of the interval in seconds (by time) or index of the first request (by request).
    pub start: f64,
    /// Requests in the point.
    pub requests: u64,
    /// Mean response time in microseconds.
    pub mean_us: f64,
    /// Maximum response time in microseconds.
    pub max_us: f64,
    /// Median response time in microseconds, from the point's sketch.
    pub p50_us: f64,
    /// 99th percentile of the response time in microseconds, from the point's sketch.
    pub p99_us: f64,
    /// Bytes read by the requests of the point (by time: that completed in the interval).
    pub read_bytes: u64,
    /// Bytes written by the requests of the point (by time: that completed in the interval).
    pub write_bytes: u64,
    /// By time only: the fewest free blocks any plane held during the interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min_free_blocks: Option<u32>,
}

/// Free-block samples of one point: the lowest value seen, and the value when it closed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Free {
    min: u32,
    end: u32,
}

#[derive(Clone, Debug, Default)]
struct Acc {
    count: u64,
    sum: u128,
    /// The smallest response time, when `count > 0`.
    min: SimTime,
    max: SimTime,
    sketch: Sketch,
    read_bytes: u64,
    write_bytes: u64,
    free: Option<Free>,
}

impl Acc {
    fn merge(&mut self, o: &Acc) {
        if o.count > 0 {
            self.min = if self.count > 0 {
                self.min.min(o.min)
            } else {
                o.min
            };
        }
        self.count += o.count;
        self.sum += o.sum;
        self.max = self.max.max(o.max);
        self.sketch.merge(&o.sketch);
        self.read_bytes += o.read_bytes;
        self.write_bytes += o.write_bytes;
        // `o` is the later point.
        self.free = match (self.free, o.free) {
            (Some(a), Some(b)) => Some(Free {
                min: a.min.min(b.min),
                end: b.end,
            }),
            (a, b) => b.or(a),
        };
    }
}

/// Most points a series reports. A series whose points would run past it has its point width
/// doubled (neighbouring points merged) as often as needed; the report gives the width used.
pub const MAX_SERIES_POINTS: u64 = 100_000;

/// Accumulates one series with fixed-width buckets, stored sparsely: memory grows with the
/// non-empty buckets only, and never beyond `MAX_SERIES_POINTS` of them.
#[derive(Clone, Debug)]
pub struct Series {
    width: u64,
    buckets: BTreeMap<u64, Acc>,
}

impl Series {
    /// A series with buckets of `width` (nanoseconds of simulated time, or requests).
    pub fn new(width: u64) -> Self {
        assert!(width > 0, "series bucket width must be positive");
        Series {
            width,
            buckets: BTreeMap::new(),
        }
    }

    /// The bucket width in use: the one asked for, doubled once per merge of neighbouring points.
    pub fn width(&self) -> u64 {
        self.width
    }

    fn at(&mut self, key: u64) -> &mut Acc {
        while key / self.width >= MAX_SERIES_POINTS {
            self.coarsen();
        }
        self.buckets.entry(key / self.width).or_default()
    }

    /// Adds one response time at position `key` (arrival time, or request index).
    pub fn add(&mut self, key: u64, latency: SimTime) {
        let b = self.at(key);
        b.min = if b.count == 0 {
            latency
        } else {
            b.min.min(latency)
        };
        b.count += 1;
        b.sum += latency as u128;
        b.max = b.max.max(latency);
        b.sketch.add(latency);
    }

    /// Adds the bytes of a request at position `key` (completion time, or request index).
    pub fn add_bytes(&mut self, key: u64, write: bool, bytes: u64) {
        let b = self.at(key);
        if write {
            b.write_bytes = b.write_bytes.saturating_add(bytes);
        } else {
            b.read_bytes = b.read_bytes.saturating_add(bytes);
        }
    }

    /// The interval starting at `key` saw at least `min` free blocks in every plane and ended with
    /// `end`; intervals with no sample carry the end of the last one before them.
    pub fn add_free(&mut self, key: u64, min: u32, end: u32) {
        let b = self.at(key);
        b.free = Some(match b.free {
            Some(f) => Free {
                min: f.min.min(min),
                end,
            },
            None => Free { min, end },
        });
    }

    /// Doubles the width, merging buckets `2i` and `2i + 1` into `i`.
    fn coarsen(&mut self) {
        self.width = self.width.saturating_mul(2);
        let old = std::mem::take(&mut self.buckets);
        for (i, a) in old {
            self.buckets.entry(i / 2).or_default().merge(&a);
        }
    }

    /// The points, one per bucket from the first to the last non-empty one (empty ones in
    /// between included); a bucket's start is its index × width ÷ `divisor` (1e9 for seconds).
    pub fn points(&self, divisor: f64) -> Vec<SeriesPoint> {
        let Some((&last, _)) = self.buckets.last_key_value() else {
            return Vec::new();
        };
        let empty = Acc::default();
        let mut carried: Option<u32> = None;
        (0..=last)
            .map(|i| {
                let b = self.buckets.get(&i).unwrap_or(&empty);
                let min_free = match b.free {
                    Some(f) => {
                        carried = Some(f.end);
                        Some(f.min)
                    }
                    None => carried,
                };
                let q = |p: f64| {
                    b.sketch
                        .quantile(p)
                        .map_or(0.0, |v| v.clamp(b.min as f64, b.max as f64) / 1e3)
                };
                SeriesPoint {
                    start: i.saturating_mul(self.width) as f64 / divisor,
                    requests: b.count,
                    mean_us: if b.count == 0 {
                        0.0
                    } else {
                        b.sum as f64 / b.count as f64 / 1e3
                    },
                    max_us: b.max as f64 / 1e3,
                    p50_us: q(0.5),
                    p99_us: q(0.99),
                    read_bytes: b.read_bytes,
                    write_bytes: b.write_bytes,
                    min_free_blocks: min_free,
                }
            })
            .collect()
    }
}

/// Points shown one per line in the text report; a longer series is drawn as sparklines.
const TABLE_POINTS: usize = 24;
/// Characters of a sparkline.
const SPARK_WIDTH: usize = 56;

impl super::report::SeriesReport {
    /// The series as text: one line per point when there are few, otherwise one sparkline per
    /// figure (each character summarising a run of neighbouring points); `--json` has every point.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        if let (Some(points), Some(w)) = (&self.by_time, self.interval_s) {
            out.push_str(&format!(
                "\nseries by time: {} points of {} s; requests by arrival, bytes by completion,\n\
                 min free = the fewest free blocks of any plane in the interval\n",
                points.len(),
                w
            ));
            out.push_str(&series_text(points, Some(w)));
        }
        if let (Some(points), Some(w)) = (&self.by_request, self.window) {
            out.push_str(&format!(
                "\nseries by request: {} points of {w} requests in arrival order\n",
                points.len()
            ));
            out.push_str(&series_text(points, None));
        }
        out
    }
}

const MIB: f64 = 1024.0 * 1024.0;

/// One series' points as text; `interval_s` for a series by time (bandwidth per second).
fn series_text(points: &[SeriesPoint], interval_s: Option<f64>) -> String {
    let mut out = String::new();
    let rate = |bytes: u64| match interval_s {
        Some(w) => bytes as f64 / MIB / w,
        None => bytes as f64 / MIB,
    };
    let unit = if interval_s.is_some() { "MiB/s" } else { "MiB" };
    if points.len() <= TABLE_POINTS {
        out.push_str(&format!(
            "{:>12} {:>8} {:>11} {:>11} {:>11} {:>11} {:>11} {:>11}{}\n",
            if interval_s.is_some() {
                "start s"
            } else {
                "first req"
            },
            "requests",
            "mean us",
            "p50 us",
            "p99 us",
            "max us",
            format!("read {unit}"),
            format!("write {unit}"),
            if interval_s.is_some() {
                "  min free"
            } else {
                ""
            }
        ));
        for p in points {
            out.push_str(&format!(
                "{:>12} {:>8} {:>11.1} {:>11.1} {:>11.1} {:>11.1} {:>11.1} {:>11.1}",
                p.start,
                p.requests,
                p.mean_us,
                p.p50_us,
                p.p99_us,
                p.max_us,
                rate(p.read_bytes),
                rate(p.write_bytes)
            ));
            if interval_s.is_some() {
                match p.min_free_blocks {
                    Some(f) => out.push_str(&format!(" {f:>9}")),
                    None => out.push_str(&format!(" {:>9}", "-")),
                }
            }
            out.push('\n');
        }
        return out;
    }
    let per = points.len().div_ceil(SPARK_WIDTH);
    if per == 1 {
        out.push_str("  (one character per point; --json lists every point)\n");
    } else {
        out.push_str(&format!(
            "  (each character: {per} points; --json lists every point)\n"
        ));
    }
    let groups: Vec<&[SeriesPoint]> = points.chunks(per).collect();
    let mean = |g: &[SeriesPoint]| {
        let n: u64 = g.iter().map(|p| p.requests).sum();
        (n > 0).then(|| g.iter().map(|p| p.mean_us * p.requests as f64).sum::<f64>() / n as f64)
    };
    let max_of = |g: &[SeriesPoint], f: fn(&SeriesPoint) -> f64| {
        g.iter()
            .filter(|p| p.requests > 0)
            .map(f)
            .fold(None, |m: Option<f64>, v| Some(m.map_or(v, |m| m.max(v))))
    };
    let rows: Vec<(&str, Vec<Option<f64>>)> = vec![
        (
            "requests",
            groups
                .iter()
                .map(|g| Some(g.iter().map(|p| p.requests).sum::<u64>() as f64))
                .collect(),
        ),
        ("mean us", groups.iter().map(|g| mean(g)).collect()),
        (
            "p99 us",
            groups.iter().map(|g| max_of(g, |p| p.p99_us)).collect(),
        ),
        (
            "max us",
            groups.iter().map(|g| max_of(g, |p| p.max_us)).collect(),
        ),
        (
            if interval_s.is_some() {
                "read MiB/s"
            } else {
                "read MiB"
            },
            groups
                .iter()
                .map(|g| Some(rate(g.iter().map(|p| p.read_bytes).sum::<u64>()) / g.len() as f64))
                .collect(),
        ),
        (
            if interval_s.is_some() {
                "write MiB/s"
            } else {
                "write MiB"
            },
            groups
                .iter()
                .map(|g| Some(rate(g.iter().map(|p| p.write_bytes).sum::<u64>()) / g.len() as f64))
                .collect(),
        ),
    ];
    let mut rows = rows;
    if interval_s.is_some() {
        rows.push((
            "min free",
            groups
                .iter()
                .map(|g| {
                    g.iter()
                        .filter_map(|p| p.min_free_blocks)
                        .min()
                        .map(f64::from)
                })
                .collect(),
        ));
    }
    for (name, values) in rows {
        out.push_str(&format!("  {name:<12} {}", sparkline(&values)));
        let known: Vec<f64> = values.iter().flatten().copied().collect();
        if let (Some(lo), Some(hi)) = (
            known.iter().copied().reduce(f64::min),
            known.iter().copied().reduce(f64::max),
        ) {
            out.push_str(&format!("  {lo:.1}..{hi:.1}"));
        }
        out.push('\n');
    }
    out
}

/// Values as a row of block characters from the lowest (`▁`) to the highest (`█`); a blank for
/// none.
fn sparkline(values: &[Option<f64>]) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let known = values.iter().flatten();
    let lo = known.clone().copied().fold(f64::INFINITY, f64::min);
    let hi = known.copied().fold(f64::NEG_INFINITY, f64::max);
    values
        .iter()
        .map(|v| match v {
            None => ' ',
            Some(_) if hi <= lo => BARS[0],
            Some(x) => BARS[(((x - lo) / (hi - lo)) * 7.0).round().clamp(0.0, 7.0) as usize],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_aggregate_and_gaps_are_empty() {
        let mut s = Series::new(10);
        s.add(0, 1000);
        s.add(9, 3000);
        s.add(35, 5000);
        let p = s.points(1.0);
        assert_eq!(p.len(), 4);
        assert_eq!(p[0].requests, 2);
        assert_eq!(p[0].mean_us, 2.0);
        assert_eq!(p[0].max_us, 3.0);
        assert_eq!(p[1].requests, 0);
        assert_eq!(p[3].start, 30.0);
    }

    #[test]
    fn starts_in_seconds_carry_no_float_noise() {
        let mut s = Series::new(100_000_000);
        s.add(2_999_999_999, 1);
        let p = s.points(1e9);
        assert_eq!(p[3].start, 0.3);
        assert_eq!(p[29].start.to_string(), "2.9");
    }

    #[test]
    fn quantiles_bytes_and_free_blocks_per_point() {
        let mut s = Series::new(1_000);
        for i in 0..100u64 {
            s.add(i, 10_000 + i * 100);
        }
        s.add_bytes(500, false, 4096);
        s.add_bytes(999, true, 8192);
        s.add_bytes(1_500, true, 512);
        s.add_free(0, 7, 9);
        s.add_free(0, 8, 6);
        s.add_free(3_000, 4, 5);
        let p = s.points(1.0);
        assert_eq!(p.len(), 4);
        assert!((p[0].p50_us - 14.9).abs() < 14.9 * 0.02, "{}", p[0].p50_us);
        assert!((p[0].p99_us - 19.8).abs() < 19.8 * 0.02, "{}", p[0].p99_us);
        assert!(p[0].p99_us <= p[0].max_us);
        assert_eq!((p[0].read_bytes, p[0].write_bytes), (4096, 8192));
        assert_eq!(
            (p[1].read_bytes, p[1].write_bytes, p[1].requests),
            (0, 512, 0)
        );
        // Interval 0 dipped to 7 and ended at 6; 1 and 2 had no sample and carry 6; 3 dipped to 4.
        let free: Vec<Option<u32>> = p.iter().map(|x| x.min_free_blocks).collect();
        assert_eq!(free, [Some(7), Some(6), Some(6), Some(4)]);
        assert_eq!(p[1].p50_us, 0.0);
    }

    #[test]
    fn memory_follows_the_non_empty_points_and_the_point_count_is_capped() {
        // Two requests far apart at a 1 ns width: no dense vector of a billion buckets.
        let mut s = Series::new(1);
        s.add(0, 1000);
        s.add(MAX_SERIES_POINTS - 1, 2000);
        assert_eq!(s.width(), 1);
        assert_eq!(s.buckets.len(), 2);
        assert_eq!(s.points(1.0).len() as u64, MAX_SERIES_POINTS);
        s.add(1_000_000_000, 3000);
        // Doubled until a billion fits under the cap: 2^14 = 16,384 > 10^9 / 10^5.
        assert_eq!(s.width(), 16_384);
        assert!(s.buckets.len() <= 3);
        let p = s.points(1.0);
        assert!(p.len() as u64 <= MAX_SERIES_POINTS);
        assert_eq!(p.iter().map(|x| x.requests).sum::<u64>(), 3);
        assert_eq!((p[0].requests, p[0].max_us), (1, 1.0));
        assert_eq!((p[6].start, p[6].requests, p[6].max_us), (98_304.0, 1, 2.0));
        let last = p.last().unwrap();
        assert_eq!(last.start, (1_000_000_000 / 16_384 * 16_384) as f64);
        assert_eq!(last.requests, 1);
    }

    #[test]
    fn merging_does_not_depend_on_the_order_of_arrival() {
        let keys = [5u64, 3_000_000, 17, 250_000, 99_999, 1 << 40, 42];
        let mut a = Series::new(3);
        let mut b = Series::new(3);
        for (i, k) in keys.iter().enumerate() {
            a.add(*k, i as u64 * 1000);
            a.add_bytes(*k, i % 2 == 0, 4096);
        }
        for (i, k) in keys.iter().enumerate().rev() {
            b.add(*k, i as u64 * 1000);
            b.add_bytes(*k, i % 2 == 0, 4096);
        }
        assert_eq!(a.width(), b.width());
        assert_eq!(a.points(1.0), b.points(1.0));
    }

    #[test]
    fn text_lists_few_points_and_draws_many() {
        use super::super::report::SeriesReport;
        let mut s = Series::new(100_000_000);
        for i in 0..5u64 {
            s.add(i * 100_000_000, 1_000_000 * (i + 1));
            s.add_bytes(i * 100_000_000, true, 1 << 20);
        }
        s.add_free(0, 3, 4);
        let few = SeriesReport {
            interval_s: Some(0.1),
            by_time: Some(s.points(1e9)),
            window: None,
            by_request: None,
            write_window: None,
            by_write: None,
        }
        .to_table();
        let lines: Vec<&str> = few.lines().collect();
        assert!(
            lines[1].starts_with("series by time: 5 points of 0.1 s"),
            "{few}"
        );
        assert!(
            lines[3].contains("p99 us") && lines[3].contains("min free"),
            "{few}"
        );
        assert_eq!(lines.len(), 9, "{few}");
        assert!(lines[5].trim_start().starts_with("0.1 "), "{few}");
        assert!(lines[5].contains(" 10.0 "), "10 MiB/s written: {few}");
        let mut s = Series::new(1_000_000);
        for i in 0..1_000u64 {
            s.add(i * 1_000_000, 1_000 * (i % 100 + 1));
        }
        let many = SeriesReport {
            interval_s: Some(0.001),
            by_time: Some(s.points(1e9)),
            window: None,
            by_request: None,
            write_window: None,
            by_write: None,
        }
        .to_table();
        assert!(many.contains("each character: 18 points"), "{many}");
        let spark = many
            .lines()
            .find(|l| l.trim_start().starts_with("p99 us"))
            .unwrap();
        assert!(spark.contains('█') && spark.contains('▁'), "{many}");
        assert!(many.lines().all(|l| l.chars().count() <= 100), "{many}");
    }

    #[test]
    fn merged_points_keep_the_lowest_free_blocks_and_the_later_end() {
        let mut s = Series::new(1);
        s.add_free(0, 5, 8);
        s.add_free(1, 6, 3);
        s.add(2 * MAX_SERIES_POINTS, 1);
        // Width 4 now: buckets 0 and 1 merged into one point.
        assert_eq!(s.width(), 4);
        let p = s.points(1.0);
        assert_eq!(p[0].min_free_blocks, Some(5));
        assert_eq!(p[1].min_free_blocks, Some(3));
    }
}
