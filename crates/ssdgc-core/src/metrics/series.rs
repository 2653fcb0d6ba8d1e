//! Latency as a time series: per interval of simulated arrival time, and per window of consecutive
//! requests in arrival order. Each point holds the count, mean and maximum response time of the
//! requests that fall in it. Off unless asked for (`--series-interval`, `--series-window`).

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

/// Accumulates one series with fixed-width buckets.
#[derive(Clone, Debug)]
pub struct Series {
    width: u64,
    buckets: Vec<Acc>,
}

impl Series {
    /// A series with buckets of `width` (nanoseconds of arrival time, or requests).
    pub fn new(width: u64) -> Self {
        assert!(width > 0, "series bucket width must be positive");
        Series {
            width,
            buckets: Vec::new(),
        }
    }

    /// Adds one response time at position `key` (arrival time, or request index).
    pub fn add(&mut self, key: u64, latency: SimTime) {
        let i = (key / self.width) as usize;
        if i >= self.buckets.len() {
            self.buckets.resize(i + 1, Acc::default());
        }
        let b = &mut self.buckets[i];
        b.count += 1;
        b.sum += latency as u128;
        b.max = b.max.max(latency);
    }

    /// The points; `scale` converts a bucket start to its reported unit.
    pub fn points(&self, scale: f64) -> Vec<SeriesPoint> {
        self.buckets
            .iter()
            .enumerate()
            .map(|(i, b)| SeriesPoint {
                start: (i as u64 * self.width) as f64 * scale,
                requests: b.count,
                mean_us: if b.count == 0 {
                    0.0
                } else {
                    b.sum as f64 / b.count as f64 / 1e3
                },
                max_us: b.max as f64 / 1e3,
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
}
