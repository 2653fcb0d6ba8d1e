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

/// The classes of requests, as bits of [`Responses::classes`].
const READ: u8 = 1;
const WRITE: u8 = 2;
const BOTH: u8 = READ | WRITE;

/// Response times of requests (or of request pieces).
///
/// The distribution of all requests is kept apart only once both reads and writes have been
/// recorded: until then it is the one of the class recorded so far (the same records in the same
/// order), so a workload of one class records each response time once, not twice
/// ([`Responses::all`]).
#[derive(Clone, Debug)]
pub struct Responses {
    /// All requests, once both classes have been recorded; before that, unused.
    all: LatencyStats,
    /// The classes recorded: none, [`READ`], [`WRITE`], or [`BOTH`].
    classes: u8,
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
            classes: 0,
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

    /// The response times of all requests, reads and writes.
    #[inline]
    pub fn all(&self) -> &LatencyStats {
        if self.classes == BOTH {
            &self.all
        } else if self.read.count() > 0 {
            &self.read
        } else {
            &self.write
        }
    }

    /// The first record of class `class` (response time `lat`): the first record of all, or
    /// the first of a class when the other one has records, from which on all requests are kept
    /// apart, starting from those of the other class.
    #[cold]
    #[inline(never)]
    fn first_of(&mut self, class: u8, lat: SimTime) {
        if self.classes == 0 {
            self.classes = class;
            return;
        }
        self.all = if class == WRITE {
            self.read.clone()
        } else {
            self.write.clone()
        };
        self.classes = BOTH;
        self.all.record(lat);
    }

    /// Records one completion: response time `lat`, split as `bd` (whose parts sum to `lat`).
    #[inline(always)]
    pub fn record(&mut self, lat: SimTime, write: bool, bd: &Breakdown) {
        debug_assert_eq!(bd.total(), lat, "response time not fully attributed");
        self.breakdown.add(bd);
        let class = if write { WRITE } else { READ };
        // (One test while all records so far are of this class.)
        if self.classes != class {
            if self.classes == BOTH {
                self.all.record(lat);
            } else {
                self.first_of(class, lat);
            }
        }
        // (One copy of the update, on the class's statistics.)
        let stats = if write {
            &mut self.write
        } else {
            &mut self.read
        };
        stats.record(lat);
        if lat > self.bound {
            self.excess(lat - self.bound);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for;
    use rand::Rng;

    /// `all()` against a distribution every response time was recorded in, in order: the same
    /// count, moments, quantiles, maximum and CDF, whatever the mix of classes.
    #[test]
    fn all_is_every_record_in_order_for_any_mix_of_classes() {
        for (seed, read_share, first_read_at) in [
            (1, 0.0, None),
            (2, 1.0, None),
            (3, 0.3, None),
            (4, 0.0, Some(500)),
            (5, 1.0, Some(700)),
        ] {
            let mut rng = rng_for(seed, 0);
            let mut r = Responses::default();
            let mut reference = LatencyStats::default();
            for i in 0..2000 {
                let lat = rng.gen_range(1..50_000_000);
                let mut write = !rng.gen_bool(read_share);
                if let Some(at) = first_read_at {
                    // One request of the other class part-way through.
                    if i == at {
                        write = !write;
                    }
                }
                let bd = Breakdown {
                    st: lat,
                    ..Breakdown::default()
                };
                r.record(lat, write, &bd);
                reference.record(lat);
                assert_eq!(r.all().count(), reference.count());
            }
            assert_eq!(r.read.count() + r.write.count(), 2000);
            assert_eq!(r.all().summary(), reference.summary(), "seed {seed}");
            assert_eq!(r.all().cdf(), reference.cdf(), "seed {seed}");
            assert_eq!(r.all().mean_ns().to_bits(), reference.mean_ns().to_bits());
        }
    }
}
