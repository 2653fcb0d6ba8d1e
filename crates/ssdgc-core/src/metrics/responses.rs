//! Response-time statistics of a set of requests: latency distributions (all, reads, writes), the
//! breakdown sums, the excess over the marginal response time, and reads of never-written pages.
//! The front end keeps one for the array's requests and, in an array of several drives, one per
//! drive for the pieces of requests that drive serves.

use super::breakdown::{Breakdown, BreakdownSums};
use super::LatencyStats;
use crate::units::SimTime;

/// Response time above which the excess is reported.
pub const MARGINAL_RESPONSE: SimTime = 30 * crate::units::MS;

/// Response times of requests (or of request pieces).
#[derive(Clone, Debug, Default)]
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
}

impl Responses {
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
        if lat > MARGINAL_RESPONSE {
            self.excess_requests += 1;
            self.excess_ns += (lat - MARGINAL_RESPONSE) as u128;
        }
    }
}
