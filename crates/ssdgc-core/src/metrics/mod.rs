//! Measurements: latency distributions and the run report.

pub mod breakdown;
pub mod cdf;
pub mod figures;
mod hdr;
pub mod headline;
pub mod idle;
pub mod report;
pub mod request_log;
mod responses;
pub mod seeds;
mod series;
pub mod series_sketch;
mod table;

pub use cdf::{CdfPoint, LatencyCdfs, LatencyClass};
pub use responses::{Responses, EXCESS_STEPS_MS, MARGINAL_RESPONSE};
pub use series::{Series, SeriesPoint};

/// True when a run of `cfg` reports `schemes.critical_path` (idle periods, GC overhead, the excess
/// waiting time's distribution, the write requests' series): asked for with
/// `host.critical_path`, and always for the AGC/DGC family (`gc.when` = `agc`, `dgc`, `agc-dgc`).
pub fn critical_path_on(cfg: &crate::config::Config) -> bool {
    cfg.host.critical_path || cfg.gc_axes().is_ok_and(|a| a.when.is_agc_family())
}

use serde::Serialize;

use hdr::HdrCounts;

use crate::units::{ns_to_us, SimTime};

/// A latency distribution: exact count, mean, standard deviation and maximum, and percentiles from
/// an HDR histogram with 3 significant digits (relative error ≤ 0.1%), whose counts are kept
/// apart (`metrics/hdr.rs`).
#[derive(Clone, Debug)]
pub struct LatencyStats {
    hist: HdrCounts,
    count: u64,
    sum: u128,
    mean: f64,
    m2: f64,
    max: SimTime,
}

impl Default for LatencyStats {
    fn default() -> Self {
        LatencyStats {
            // 1 ns to ~2.8 hours at 3 significant digits; longer times saturate (the exact
            // maximum is kept separately).
            hist: HdrCounts::default(),
            count: 0,
            sum: 0,
            mean: 0.0,
            m2: 0.0,
            max: 0,
        }
    }
}

/// A latency summary in microseconds, as reported.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LatencySummary {
    pub count: u64,
    pub mean: f64,
    pub std: f64,
    /// Coefficient of variation: std / mean.
    pub cv: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub p999: f64,
    pub p9999: f64,
    pub max: f64,
}

impl LatencyStats {
    /// Records one response time in nanoseconds.
    #[inline]
    pub fn record(&mut self, ns: SimTime) {
        self.hist.record(ns);
        self.count += 1;
        self.sum += ns as u128;
        // Welford's update: numerically stable, and deterministic for a given order.
        let x = exact_f64(ns);
        let d = x - self.mean;
        // (A count of records stays below 2^63: converted as a signed integer, with no test.)
        self.mean += d / self.count as i64 as f64;
        self.m2 += d * (x - self.mean);
        self.max = self.max.max(ns);
    }

    /// Number recorded.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// Exact mean in nanoseconds.
    pub fn mean_ns(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum as f64 / self.count as f64
        }
    }

    /// The summary in microseconds.
    pub fn summary(&self) -> LatencySummary {
        if self.count == 0 {
            return LatencySummary::default();
        }
        let hist = self.hist.histogram();
        let q = |p: f64| ns_to_us(hist.value_at_quantile(p).min(self.max));
        let mean = self.mean_ns() / 1e3;
        let std = (self.m2 / self.count as f64).sqrt() / 1e3;
        LatencySummary {
            count: self.count,
            mean,
            std,
            cv: if mean > 0.0 { std / mean } else { 0.0 },
            p50: q(0.5),
            p90: q(0.9),
            p99: q(0.99),
            p999: q(0.999),
            p9999: q(0.9999),
            max: ns_to_us(self.max),
        }
    }
}

/// `x as f64`, the same value, converted as a signed integer: x86-64 converts an `i64` in one
/// instruction and a `u64` in six (no unsigned conversion before AVX-512). Counts and response
/// times stay below 2^63; above, half of `x` with its lost bit kept as a sticky bit rounds the
/// same, doubled exactly (written so, LLVM does not fold the two paths back into the six).
#[inline(always)]
fn exact_f64(x: u64) -> f64 {
    if x >> 63 == 0 {
        x as i64 as f64
    } else {
        ((x >> 1 | x & 1) as i64 as f64) * 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_f64_is_the_unsigned_conversion() {
        let mut xs = vec![0, 1, 2, 1 << 52, (1 << 53) + 1, i64::MAX as u64, 1 << 63];
        xs.extend([
            u64::MAX - 1,
            u64::MAX,
            (1 << 63) + 1,
            (1 << 63) + 1025,
            (1 << 63) + 3073,
        ]);
        xs.extend((0..64).flat_map(|k| [(1u64 << k) - 1, (1u64 << k) + 1]));
        let mut rng = crate::rng::rng_for(1, 0);
        xs.extend((0..100_000).map(|_| rand::Rng::gen::<u64>(&mut rng)));
        for x in xs {
            assert_eq!(exact_f64(x).to_bits(), (x as f64).to_bits(), "{x}");
        }
    }

    #[test]
    fn summary_matches_direct_computation() {
        let mut s = LatencyStats::default();
        let xs: Vec<u64> = (1..=1000).map(|i| i * 1000).collect();
        for &x in &xs {
            s.record(x);
        }
        let sum = s.summary();
        assert_eq!(sum.count, 1000);
        assert!((sum.mean - 500.5).abs() < 1e-9);
        let var: f64 = xs
            .iter()
            .map(|&x| (x as f64 / 1e3 - 500.5).powi(2))
            .sum::<f64>()
            / 1000.0;
        assert!((sum.std - var.sqrt()).abs() < 1e-6);
        // Percentiles carry the histogram's 0.1% relative error.
        assert!((sum.p50 - 500.0).abs() <= 0.5 + 500.0 * 1e-3, "{}", sum.p50);
        assert!((sum.p99 - 990.0).abs() <= 1.0 + 990.0 * 1e-3, "{}", sum.p99);
        assert_eq!(sum.max, 1000.0);
    }

    #[test]
    fn empty_summary_is_zero() {
        assert_eq!(LatencyStats::default().summary(), LatencySummary::default());
    }
}
