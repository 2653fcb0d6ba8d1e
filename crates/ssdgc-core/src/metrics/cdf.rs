//! The latency distribution as a cumulative distribution function: one point per non-empty bucket
//! of a run's HDR histogram (3 significant digits), with the share of requests at or below it.
//!
//! Every report carries the CDF of its requests' response times for all requests, reads and
//! writes ([`crate::Report::latency_cdf`]); it is not part of the JSON report (`ssdgc run --cdf
//! FILE` writes it as CSV). The last point of a non-empty class is its exact maximum with share 1.

use super::LatencyStats;
use crate::units::ns_to_us;

/// One point of a CDF: `share` of the requests took at most `value_us`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CdfPoint {
    /// Response time, µs: the highest value of one histogram bucket (values in the bucket are
    /// within 0.1 % of it), the last point clamped to the exact maximum.
    pub value_us: f64,
    /// Share of the requests whose response time is at most `value_us`, in (0, 1].
    pub share: f64,
}

/// Which requests a CDF describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LatencyClass {
    All,
    Read,
    Write,
}

impl LatencyClass {
    /// The three classes, in report order.
    pub const ALL: [LatencyClass; 3] = [LatencyClass::All, LatencyClass::Read, LatencyClass::Write];

    /// `all`, `read` or `write`, as in the report's `latency_us`.
    pub fn name(self) -> &'static str {
        match self {
            LatencyClass::All => "all",
            LatencyClass::Read => "read",
            LatencyClass::Write => "write",
        }
    }
}

/// The CDFs of a run's response times, per class.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LatencyCdfs {
    pub all: Vec<CdfPoint>,
    pub read: Vec<CdfPoint>,
    pub write: Vec<CdfPoint>,
}

impl LatencyCdfs {
    /// The CDF of one class.
    pub fn get(&self, class: LatencyClass) -> &[CdfPoint] {
        match class {
            LatencyClass::All => &self.all,
            LatencyClass::Read => &self.read,
            LatencyClass::Write => &self.write,
        }
    }
}

impl LatencyStats {
    /// The distribution as a CDF, one point per non-empty histogram bucket in increasing value;
    /// empty when nothing was recorded.
    pub fn cdf(&self) -> Vec<CdfPoint> {
        if self.count() == 0 {
            return Vec::new();
        }
        let hist = self.hist.histogram();
        let total = hist.len();
        let mut below = 0u64;
        let mut points = Vec::new();
        for v in hist.iter_recorded() {
            below += v.count_since_last_iteration();
            points.push(CdfPoint {
                value_us: ns_to_us(v.value_iterated_to().min(self.max)),
                share: below as f64 / total as f64,
            });
        }
        points
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdf_is_increasing_and_ends_at_the_maximum() {
        let mut s = LatencyStats::default();
        for i in 1..=10_000u64 {
            s.record(i * 1_000 + i % 7);
        }
        let c = s.cdf();
        assert!(!c.is_empty());
        assert!(c
            .windows(2)
            .all(|w| w[0].value_us < w[1].value_us && w[0].share < w[1].share));
        let last = c.last().unwrap();
        assert_eq!(last.share, 1.0);
        assert_eq!(last.value_us, s.summary().max);
        // The median: half the requests are at or below ~5,000 µs (0.1 % relative error).
        let med = c.iter().find(|p| p.share >= 0.5).unwrap();
        assert!((med.value_us - 5_000.0).abs() <= 5.0 + 1.0, "{med:?}");
        assert_eq!(med.value_us, s.summary().p50);
    }

    #[test]
    fn equal_values_are_one_point() {
        let mut s = LatencyStats::default();
        for _ in 0..5 {
            s.record(25_000);
        }
        assert_eq!(
            s.cdf(),
            vec![CdfPoint {
                value_us: 25.0,
                share: 1.0
            }]
        );
        assert!(LatencyStats::default().cdf().is_empty());
    }
}
