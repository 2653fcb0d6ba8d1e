//! Response-time statistics of a set of requests: latency distributions (all, reads, writes), the
//! breakdown sums, the excess over the marginal response time, and reads of never-written pages.
//! The front end keeps one for the array's requests and, in an array of several drives, one per
//! drive for the pieces of requests that drive serves.

use super::breakdown::{Breakdown, BreakdownSums};
use super::LatencyStats;
use crate::units::SimTime;

/// Response time above which the excess is reported by default (`host.excess_bound`).
pub const MARGINAL_RESPONSE: SimTime = 30 * crate::units::MS;

/// The steps of the excess waiting time's distribution, in ms: [`Responses::excess_over`] counts
/// the requests whose excess exceeds each (AGC/DGC paper Figs. 12 and 14 plot the excess against
/// such a bound).
pub const EXCESS_STEPS_MS: [u64; 8] = [0, 1, 3, 10, 30, 100, 300, 1000];

/// Response times of requests (or of request pieces).
#[derive(Clone, Debug)]
pub struct Responses {
    pub all: LatencyStats,
    pub read: LatencyStats,
    pub write: LatencyStats,
    pub breakdown: BreakdownSums,
    /// Requests slower than [`MARGINAL_RESPONSE`].
    pub excess_requests: u64,
    /// Their time beyond it, summed.
    pub excess_ns: u128,
    /// Page reads of never-written pages, answered without flash access.
    pub unmapped_reads: u64,
    /// The marginal response time (`host.excess_bound`).
    pub bound: SimTime,
    /// Requests whose excess over `bound` exceeds `EXCESS_STEPS_MS[i]` ms.
    pub excess_over: [u64; EXCESS_STEPS_MS.len()],
}

impl Default for Responses {
    fn default() -> Self {
        Responses {
            all: LatencyStats::default(),
            read: LatencyStats::default(),
            write: LatencyStats::default(),
            breakdown: BreakdownSums::default(),
            excess_requests: 0,
            excess_ns: 0,
            unmapped_reads: 0,
            bound: MARGINAL_RESPONSE,
            excess_over: [0; EXCESS_STEPS_MS.len()],
        }
    }
}

impl Responses {
    /// Statistics with the marginal response time `bound`.
    pub fn with_bound(bound: SimTime) -> Responses {
        Responses {
            bound,
            ..Responses::default()
        }
    }

    /// A request exceeded the bound by `e`.
    #[cold]
    fn excess(&mut self, e: SimTime) {
        self.excess_requests += 1;
        self.excess_ns += e as u128;
        for (n, &step) in self.excess_over.iter_mut().zip(&EXCESS_STEPS_MS) {
            if e <= step * crate::units::MS {
                break;
            }
            *n += 1;
        }
    }

    /// Records one completion: response time `lat`, split as `bd` (whose parts sum to `lat`).
    #[inline(always)]
    pub fn record(&mut self, lat: SimTime, write: bool, bd: &Breakdown) {
        debug_assert_eq!(bd.total(), lat, "response time not fully attributed");
        self.breakdown.add(bd);
        self.all.record(lat);
        if write {
            self.write.record(lat);
        } else {
            self.read.record(lat);
        }
        if lat > self.bound {
            self.excess(lat - self.bound);
        }
    }
}
