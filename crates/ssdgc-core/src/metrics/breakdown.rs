//! Where response time goes: the five-part breakdown of the PaGC paper (§IV) and plane utilisation
//! (§VII, Fig. 10).
//!
//! Every die keeps a clock of what it has been doing — idle, a host operation (flagged *late* or
//! not), or GC on a set of its planes — as cumulative nanoseconds per category. A page transaction
//! takes a snapshot of its die's clock when it is queued; when it starts, the difference between the
//! clock then and the snapshot is exactly the time it waited, split by what kept the die busy:
//!
//! - **CsGC**: the die was doing GC that involved the transaction's own plane;
//! - **CoGC**: the die was doing GC on other planes only;
//! - **LC** (late conflict): the die was serving a host operation that was itself delayed by GC, or
//!   by a late operation (the conflict exists only because GC pushed that operation later);
//! - **CnGC**: the die was serving a host operation not delayed by GC, or was idle; plus, after the
//!   transaction starts, any wait for the channel bus, and the request's wait for a device-queue slot.
//!
//! **ST** is the transaction's own flash time (command, transfer and array time). A host operation is
//! *late* when its own wait contained any CsGC, CoGC or LC. A request's breakdown is that of its
//! last-completing transaction plus its device-queue wait (as CnGC), so the five parts sum exactly to
//! its response time.

use serde::Serialize;

use crate::units::SimTime;

/// What a die is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Busy {
    Idle,
    /// A host operation on plane `plane` (index in the die); `late` if GC delayed it.
    Host {
        plane: u32,
        late: bool,
    },
    /// GC on the planes in the bit mask (bit `i` = plane `i` of the die).
    Gc {
        planes: u64,
    },
    /// A host multi-plane command on the planes in the bit mask; `late` if GC delayed it.
    HostPlanes {
        planes: u64,
        late: bool,
    },
}

/// Cumulative time of one die per category. The time it spent idle or on host operations not
/// delayed by GC is not kept: a wait's CnGC part is what is left of it once the other parts are
/// counted.
#[derive(Clone, Debug)]
pub struct DieClock {
    busy: Busy,
    since: SimTime,
    gc_by_plane: Vec<SimTime>,
    host_by_plane: Vec<SimTime>,
    gc_total: SimTime,
    late: SimTime,
}

/// A transaction's view of its die's clock when it was queued.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    at: SimTime,
    gc_plane: SimTime,
    gc_total: SimTime,
    late: SimTime,
}

impl Snapshot {
    /// When it was taken (the transaction was queued).
    #[inline]
    pub fn at(&self) -> SimTime {
        self.at
    }
}

/// Response time split into the five parts, in nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    pub st: SimTime,
    pub csgc: SimTime,
    pub cogc: SimTime,
    pub lc: SimTime,
    pub cngc: SimTime,
}

impl Breakdown {
    /// Sum of the parts.
    pub fn total(&self) -> SimTime {
        self.st + self.csgc + self.cogc + self.lc + self.cngc
    }
    /// True when waiting included GC, directly or through a late operation.
    pub fn delayed_by_gc(&self) -> bool {
        self.csgc + self.cogc + self.lc > 0
    }
}

impl DieClock {
    pub fn new(planes_per_die: u32) -> Self {
        DieClock {
            busy: Busy::Idle,
            since: 0,
            gc_by_plane: vec![0; planes_per_die as usize],
            host_by_plane: vec![0; planes_per_die as usize],
            gc_total: 0,
            late: 0,
        }
    }

    #[inline(always)]
    fn credit(&mut self, busy: Busy, dt: SimTime) {
        match busy {
            Busy::Idle => {}
            Busy::Host { plane, late } => {
                self.host_by_plane[plane as usize] += dt;
                // Whether GC delayed a host operation is as random as the workload: no branch.
                self.late += std::hint::select_unpredictable(late, dt, 0);
            }
            Busy::Gc { planes } => {
                self.gc_total += dt;
                for (p, t) in self.gc_by_plane.iter_mut().enumerate() {
                    if planes >> p & 1 == 1 {
                        *t += dt;
                    }
                }
            }
            Busy::HostPlanes { planes, late } => self.credit_planes(planes, late, dt),
        }
    }

    /// [`Self::credit`] of a host multi-plane command (kept out of the common path).
    #[cold]
    #[inline(never)]
    fn credit_planes(&mut self, planes: u64, late: bool, dt: SimTime) {
        for (p, t) in self.host_by_plane.iter_mut().enumerate() {
            if planes >> p & 1 == 1 {
                *t += dt;
            }
        }
        if late {
            self.late += dt;
        }
    }

    /// The die turns to `busy` at `now`.
    #[inline]
    pub fn switch(&mut self, now: SimTime, busy: Busy) {
        debug_assert!(now >= self.since);
        self.credit(self.busy, now - self.since);
        self.busy = busy;
        self.since = now;
    }

    /// A snapshot for a transaction of plane `plane` queued at `now`.
    #[inline]
    pub fn snapshot(&self, now: SimTime, plane: u32) -> Snapshot {
        let mut s = Snapshot {
            at: now,
            gc_plane: self.gc_by_plane[plane as usize],
            gc_total: self.gc_total,
            late: self.late,
        };
        let dt = now - self.since;
        match self.busy {
            Busy::Idle | Busy::Host { late: false, .. } | Busy::HostPlanes { late: false, .. } => {}
            Busy::Host { late: true, .. } | Busy::HostPlanes { late: true, .. } => s.late += dt,
            Busy::Gc { planes } => {
                s.gc_total += dt;
                if planes >> plane & 1 == 1 {
                    s.gc_plane += dt;
                }
            }
        }
        s
    }

    /// The waiting part of a breakdown for a transaction that starts now (the die is idle and has
    /// just been switched away from idle at `now`, or is about to be).
    #[inline]
    pub fn waited(&self, now: SimTime, plane: u32, snap: &Snapshot) -> Breakdown {
        let cur = self.snapshot(now, plane);
        let csgc = cur.gc_plane - snap.gc_plane;
        let cogc = cur.gc_total - snap.gc_total - csgc;
        let lc = cur.late - snap.late;
        // The rest of the wait: the die was idle or on host operations not delayed by GC.
        Breakdown {
            st: 0,
            csgc,
            cogc,
            lc,
            cngc: now - snap.at - csgc - cogc - lc,
        }
    }

    /// Per plane of the die: time busy with host I/O, busy with GC, and idle while another plane of
    /// the die was collecting, up to `now`.
    pub fn plane_times(&self, now: SimTime) -> Vec<(SimTime, SimTime, SimTime)> {
        let mut c = self.clone();
        c.switch(now, Busy::Idle);
        (0..c.gc_by_plane.len())
            .map(|p| {
                (
                    c.host_by_plane[p],
                    c.gc_by_plane[p],
                    c.gc_total - c.gc_by_plane[p],
                )
            })
            .collect()
    }
}

/// Sums of breakdowns over requests.
#[derive(Clone, Debug, Default)]
pub struct BreakdownSums {
    count: u64,
    st: u128,
    csgc: u128,
    cogc: u128,
    lc: u128,
    cngc: u128,
}

/// Mean breakdown per request, in microseconds, as reported.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BreakdownReport {
    pub st: f64,
    pub csgc: f64,
    pub cogc: f64,
    pub lc: f64,
    pub cngc: f64,
}

impl BreakdownSums {
    pub fn add(&mut self, b: &Breakdown) {
        self.count += 1;
        self.st += b.st as u128;
        self.csgc += b.csgc as u128;
        self.cogc += b.cogc as u128;
        self.lc += b.lc as u128;
        self.cngc += b.cngc as u128;
    }

    /// Time the requests spent waiting on GC, summed, ns: CsGC + CoGC + LC (the GC overhead the
    /// critical-path figures report).
    pub fn gc_wait_ns(&self) -> u128 {
        self.csgc + self.cogc + self.lc
    }

    /// Their whole response time, summed, ns.
    pub fn total_ns(&self) -> u128 {
        self.st + self.csgc + self.cogc + self.lc + self.cngc
    }

    pub fn report(&self) -> BreakdownReport {
        let n = self.count.max(1) as f64 * 1e3;
        BreakdownReport {
            st: self.st as f64 / n,
            csgc: self.csgc as f64 / n,
            cogc: self.cogc as f64 / n,
            lc: self.lc as f64 / n,
            cngc: self.cngc as f64 / n,
        }
    }
}

/// Drive-wide mean shares of time per plane.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct PlaneUtil {
    pub host: f64,
    pub gc: f64,
    pub wait_other_gc: f64,
    pub idle: f64,
}

/// Plane utilisation over `[0, now)` from every die's clock.
pub fn plane_util(clocks: &[DieClock], now: SimTime) -> PlaneUtil {
    let mut u = PlaneUtil::default();
    let mut planes = 0u64;
    if now == 0 {
        return PlaneUtil {
            idle: 1.0,
            ..PlaneUtil::default()
        };
    }
    for c in clocks {
        for (host, gc, other) in c.plane_times(now) {
            planes += 1;
            let t = now as f64;
            u.host += host as f64 / t;
            u.gc += gc as f64 / t;
            u.wait_other_gc += other as f64 / t;
        }
    }
    let n = planes.max(1) as f64;
    u.host /= n;
    u.gc /= n;
    u.wait_other_gc /= n;
    u.idle = (1.0 - u.host - u.gc - u.wait_other_gc).max(0.0);
    u
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_is_split_by_what_the_die_did() {
        let mut c = DieClock::new(2);
        // t=0: a transaction for plane 1 is queued while the die is idle.
        let snap = c.snapshot(0, 1);
        c.switch(10, Busy::Gc { planes: 0b01 }); // GC on plane 0 from 10 to 40: CoGC for plane 1
        c.switch(40, Busy::Gc { planes: 0b11 }); // GC on both planes 40..60: CsGC
        c.switch(
            60,
            Busy::Host {
                plane: 0,
                late: true,
            },
        ); // a late host op 60..75: LC
        c.switch(
            75,
            Busy::Host {
                plane: 0,
                late: false,
            },
        ); // a normal host op 75..80: CnGC
        c.switch(80, Busy::Idle);
        let w = c.waited(80, 1, &snap);
        assert_eq!(
            w,
            Breakdown {
                st: 0,
                csgc: 20,
                cogc: 30,
                lc: 15,
                cngc: 15
            }
        );
        assert!(w.delayed_by_gc());
    }

    #[test]
    fn snapshot_mid_operation_counts_only_the_rest() {
        let mut c = DieClock::new(2);
        c.switch(0, Busy::Gc { planes: 0b10 });
        let snap = c.snapshot(25, 1); // queued halfway through a GC of its own plane
        c.switch(50, Busy::Idle);
        let w = c.waited(50, 1, &snap);
        assert_eq!(w.csgc, 25);
        assert_eq!(w.total(), 25);
    }

    #[test]
    fn plane_utilisation_shares_sum_to_one() {
        let mut c = DieClock::new(2);
        c.switch(
            0,
            Busy::Host {
                plane: 0,
                late: false,
            },
        );
        c.switch(10, Busy::Gc { planes: 0b10 });
        c.switch(30, Busy::Idle);
        let u = plane_util(&[c], 40);
        // plane 0: host 10, waits on plane 1's GC 20, idle 10; plane 1: GC 20, idle 20.
        assert!((u.host - 0.125).abs() < 1e-12);
        assert!((u.gc - 0.25).abs() < 1e-12);
        assert!((u.wait_other_gc - 0.25).abs() < 1e-12);
        assert!((u.host + u.gc + u.wait_other_gc + u.idle - 1.0).abs() < 1e-12);
    }
}
