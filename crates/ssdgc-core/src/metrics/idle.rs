//! Idle-period classification — Jung, Prabhakar, Kandemir, "Taking Garbage Collection Overheads
//! off the Critical Path in SSDs", Middleware 2012 (`agc-dgc-idle-time-gc.txt`), §4.1 and §6
//! ("Workloads"): the gap before each request a drive receives is one of
//!
//! - *back-to-back*: the request arrives while the drive still has work (or the instant it ends):
//!   no idle time in between;
//! - a *short* idle period: the drive is idle for at most `gc.long_idle` before it;
//! - a *long* idle period: idle for longer than `gc.long_idle` (1 s in the paper).
//!
//! The paper's traces have "34.6% of idle intervals … long (larger than 1 sec) and less than
//! 29.5% … short, and 35.9% of the requests … back-to-back": three classes of the gap that
//! follows each request, which is what is counted here, per drive. (§4.1 defines short idle
//! periods as gaps between successive commands the device queue holds, computed from their
//! pre-information with eq. 1; for a replayed trace that is the gap before the next command,
//! known from its pre-information — the gap classified here.)
//!
//! A drive's idle time starts when its last outstanding request completes; the first request of a
//! run follows nothing and is not classified.

use crate::units::SimTime;

/// The idle periods of one drive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IdlePeriods {
    /// Idle periods longer than this are long.
    long: SimTime,
    /// Requests received.
    pub requests: u64,
    /// Requests that arrived with the drive busy (or at the instant it became idle).
    pub back_to_back: u64,
    /// Short idle periods, and their total length.
    pub short: u64,
    pub short_ns: SimTime,
    /// Long idle periods, and their total length.
    pub long_periods: u64,
    pub long_ns: SimTime,
}

impl IdlePeriods {
    /// A classifier with long idle periods longer than `long`.
    pub fn new(long: SimTime) -> IdlePeriods {
        IdlePeriods {
            long,
            ..IdlePeriods::default()
        }
    }

    /// A request arrives at `at`; `busy`: the drive has work outstanding; `idle_since`: when it
    /// last became idle.
    #[inline]
    pub fn arrival(&mut self, at: SimTime, busy: bool, idle_since: SimTime) {
        self.requests += 1;
        if self.requests == 1 {
            return;
        }
        if busy || at <= idle_since {
            self.back_to_back += 1;
            return;
        }
        let gap = at - idle_since;
        if gap > self.long {
            self.long_periods += 1;
            self.long_ns += gap;
        } else {
            self.short += 1;
            self.short_ns += gap;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::{MS, SEC};

    /// Replays hand-built arrivals on a drive that serves each request in `service` (one at a
    /// time, in arrival order), classifying each arrival the way the drive does.
    fn classify(arrivals: &[SimTime], service: SimTime, long: SimTime) -> IdlePeriods {
        let mut p = IdlePeriods::new(long);
        let mut free_at: SimTime = 0;
        for &a in arrivals {
            let busy = a < free_at;
            p.arrival(a, busy, free_at);
            free_at = free_at.max(a) + service;
        }
        p
    }

    #[test]
    fn gaps_are_back_to_back_short_or_long() {
        // Service 1 ms. 0: first (unclassified); 0.5 ms: busy (back-to-back); 2 ms: the drive
        // became idle at 2 ms, so no gap (back-to-back); 10 ms: idle 7 ms (short); 1.5 s: idle
        // ~1.49 s (long); 2.7 s: idle ~1.2 s (long); 2.7005 s: busy (back-to-back).
        let arrivals = [
            0,
            MS / 2,
            2 * MS,
            10 * MS,
            1_500 * MS,
            2_700 * MS,
            2_700 * MS + MS / 2,
        ];
        let p = classify(&arrivals, MS, SEC);
        assert_eq!(p.requests, 7);
        assert_eq!(p.back_to_back, 3);
        assert_eq!((p.short, p.short_ns), (1, 7 * MS));
        assert_eq!(p.long_periods, 2);
        assert_eq!(p.long_ns, (1_500 - 11) * MS + (2_700 - 1_501) * MS);
        // Every request after the first is followed by exactly one class.
        assert_eq!(p.back_to_back + p.short + p.long_periods, p.requests - 1);
    }

    #[test]
    fn the_threshold_separates_short_from_long() {
        // Gaps of exactly the threshold are short; one nanosecond more is long.
        let arrivals = [0, MS + SEC, 2 * MS + 2 * SEC + 1];
        let p = classify(&arrivals, MS, SEC);
        assert_eq!((p.short, p.long_periods), (1, 1));
        assert_eq!(p.short_ns, SEC);
        assert_eq!(p.long_ns, SEC + 1);
        // A lower threshold makes both long.
        let p = classify(&arrivals, MS, SEC / 2);
        assert_eq!((p.short, p.long_periods), (0, 2));
    }

    #[test]
    fn a_saturated_drive_has_no_idle_period() {
        let arrivals: Vec<SimTime> = (0..100).map(|i| i * MS / 2).collect();
        let p = classify(&arrivals, MS, SEC);
        assert_eq!(p.back_to_back, 99);
        assert_eq!(p.short + p.long_periods, 0);
    }
}
