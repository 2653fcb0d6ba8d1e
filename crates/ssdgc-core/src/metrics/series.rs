//! Latency as a time series: per interval of simulated arrival time, and per window of consecutive
//! requests in arrival order. Each point holds the count, mean and maximum response time of the
//! requests that fall in it. Off unless asked for (`--series-interval`, `--series-window`).

use std::collections::BTreeMap;

use serde::Serialize;

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
}

#[derive(Clone, Copy, Debug, Default)]
struct Acc {
    count: u64,
    sum: u128,
    max: SimTime,
}

/// Most points a series reports. A series whose points would run past it has its point width
/// doubled (neighbouring points merged) as often as needed; the report gives the width used.
pub const MAX_SERIES_POINTS: u64 = 100_000;

/// Accumulates one series with fixed-width buckets, stored sparsely: memory grows with the
/// non-empty buckets only, and never beyond [`MAX_SERIES_POINTS`] of them.
#[derive(Clone, Debug)]
pub struct Series {
    width: u64,
    buckets: BTreeMap<u64, Acc>,
}

impl Series {
    /// A series with buckets of `width` (nanoseconds of arrival time, or requests).
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

    /// Adds one response time at position `key` (arrival time, or request index).
    pub fn add(&mut self, key: u64, latency: SimTime) {
        while key / self.width >= MAX_SERIES_POINTS {
            self.coarsen();
        }
        let b = self.buckets.entry(key / self.width).or_default();
        b.count += 1;
        b.sum += latency as u128;
        b.max = b.max.max(latency);
    }

    /// Doubles the width, merging buckets `2i` and `2i + 1` into `i`.
    fn coarsen(&mut self) {
        self.width = self.width.saturating_mul(2);
        let old = std::mem::take(&mut self.buckets);
        for (i, a) in old {
            let b = self.buckets.entry(i / 2).or_default();
            b.count += a.count;
            b.sum += a.sum;
            b.max = b.max.max(a.max);
        }
    }

    /// The points, one per bucket from the first to the last non-empty one (empty ones in
    /// between included); `scale` converts a bucket start to its reported unit.
    pub fn points(&self, scale: f64) -> Vec<SeriesPoint> {
        let Some((&last, _)) = self.buckets.last_key_value() else {
            return Vec::new();
        };
        (0..=last)
            .map(|i| {
                let b = self.buckets.get(&i).copied().unwrap_or_default();
                SeriesPoint {
                    start: i.saturating_mul(self.width) as f64 * scale,
                    requests: b.count,
                    mean_us: if b.count == 0 {
                        0.0
                    } else {
                        b.sum as f64 / b.count as f64 / 1e3
                    },
                    max_us: b.max as f64 / 1e3,
                }
            })
            .collect()
    }
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
        }
        for (i, k) in keys.iter().enumerate().rev() {
            b.add(*k, i as u64 * 1000);
        }
        assert_eq!(a.width(), b.width());
        assert_eq!(a.points(1.0), b.points(1.0));
    }
}
