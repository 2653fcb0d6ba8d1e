//! Suspension and resumption of GC operations (preemptible-GC paper §IV, F-PGC).
//!
//! When host work arrives at a die busy with a preemptible GC operation (one started by
//! [`Action::Gc`](crate::gc::scheme::Action::Gc)), the die's scheme is asked whether to interrupt
//! it ([`GcScheme::interrupts`](crate::gc::scheme::GcScheme::interrupts)); on
//! [`Interrupt::Suspend`] the die spends `timing.suspend` suspending (unless the operation is
//! within that time of its end), then serves host work; the operation keeps what is left of it.
//!
//! While an operation is suspended the die runs only host transactions; when its scheme asks for
//! anything else the operation resumes with its remaining time. A die suspends one operation at a
//! time, and one operation at most [`MAX_SUSPENDS`] times, so GC always progresses. The suspended
//! operation's original completion event still fires and is recognised as stale (the die's
//! reservation ends at another time).

use super::{Drive, Running};
use crate::engine::EventQueue;
use crate::flash::FlashOp;
use crate::gc::scheme::Interrupt;
use crate::gc::GcOp;
use crate::metrics::breakdown::Busy;
use crate::units::SimTime;

/// Times one GC operation may be suspended; then it runs to its end, so GC always progresses.
pub const MAX_SUSPENDS: u8 = 4;

/// A GC operation suspended for host requests: what is left of it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Suspended {
    job: usize,
    op: GcOp,
    remaining: SimTime,
}

#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    /// The running operation is a preemptible GC operation.
    armed: bool,
    /// Suspensions of the current GC operation so far.
    count: u8,
    /// The GC operation suspended on the die, if any.
    held: Option<Suspended>,
}

/// The suspension state of a drive's dies, and its counters.
#[derive(Clone, Debug)]
pub(super) struct Suspension {
    slots: Vec<Slot>,
    suspensions: u64,
}

impl Suspension {
    pub(super) fn new(dies: u32) -> Self {
        Suspension {
            slots: vec![Slot::default(); dies as usize],
            suspensions: 0,
        }
    }

    /// Die `d` started a preemptible GC operation.
    #[inline]
    pub(super) fn started(&mut self, d: u32) {
        let s = &mut self.slots[d as usize];
        s.armed = true;
        s.count = 0;
    }

    /// The operation running on die `d` ended.
    #[inline]
    pub(super) fn ended(&mut self, d: u32) {
        self.slots[d as usize].armed = false;
    }

    /// True when the operation running on die `d` may be suspended now.
    #[inline]
    pub(super) fn may_suspend(&self, d: u32) -> bool {
        let s = &self.slots[d as usize];
        s.armed && s.held.is_none() && s.count < MAX_SUSPENDS
    }

    /// True when die `d` holds a suspended operation.
    #[inline]
    pub(super) fn holds(&self, d: u32) -> bool {
        self.slots[d as usize].held.is_some()
    }

    /// GC operations suspended so far.
    pub(super) fn suspensions(&self) -> u64 {
        self.suspensions
    }
}

impl Drive {
    /// Suspends the preemptible GC operation running on die `d` when its scheme lets a queued host
    /// transaction in.
    pub(super) fn try_suspend(&mut self, ev: &mut EventQueue, d: u32) {
        let now = self.now;
        let die = &mut self.dies[d as usize];
        let Running::Gc {
            job,
            op,
            hold: false,
        } = die.running
        else {
            return;
        };
        let done_at = self.res.die_until(d);
        let cx = die_context!(self, die, d, now, false);
        let Some(Interrupt::Suspend) = self.scheme.interrupts(&cx, &op) else {
            return;
        };
        let remaining = done_at.saturating_sub(now);
        if remaining <= self.timing.suspend {
            // Nearly done: suspending would not help.
            return;
        }
        self.suspension.suspensions += 1;
        self.counters.gc_time += self.timing.suspend;
        let at = now + self.timing.suspend;
        let s = &mut self.suspension.slots[d as usize];
        s.held = Some(Suspended { job, op, remaining });
        s.count += 1;
        s.armed = false;
        self.dies[d as usize].running = Running::Suspending;
        self.gc_releases(ev, d);
        let planes = self.res.die_planes(d);
        self.res
            .reserve(d, now, &FlashOp::die_time(at - now, planes));
        self.pipeline.other(d);
        self.schedule_die_done(ev, d, at);
    }

    /// Resumes the GC operation suspended on die `d` with its remaining time.
    #[inline(never)]
    pub(super) fn resume(&mut self, ev: &mut EventQueue, d: u32) {
        let now = self.now;
        let s = &mut self.suspension.slots[d as usize];
        let Some(held) = s.held.take() else {
            return;
        };
        s.armed = true;
        self.gc_holds(d);
        let planes = held.op.plane_mask(&self.geo);
        let die = &mut self.dies[d as usize];
        die.clock.switch(now, Busy::Gc { planes });
        die.running = Running::Gc {
            job: held.job,
            op: held.op,
            hold: false,
        };
        self.res
            .reserve(d, now, &FlashOp::die_time(held.remaining, planes));
        self.pipeline.other(d);
        self.schedule_die_done(ev, d, now + held.remaining);
    }
}
