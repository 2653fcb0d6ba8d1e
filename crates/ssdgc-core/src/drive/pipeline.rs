//! Pipelining of host commands with GC operations through the cache register (preemptible-GC
//! paper, Lee et al., IEEE TCAD 32(2), 2013, §III-A and §III-C, Fig. 6, Table IX).
//!
//! A die with a cache register overlaps a page's channel transfer with the array operation of the
//! next command of the same type ("read after read, or write after write"). The paper inserts an
//! incoming host request into a GC job this way; two cases exist, and both are modelled:
//!
//! - **write at preemption point A**: a GC move has read its page and programs it; a host write
//!   queued meanwhile sends its command and data into the cache register while the GC program
//!   runs, and programs as soon as the GC program ends. A host write that starts the instant the
//!   die's GC move ends therefore costs only its `program` when its `cmd + xfer` fit inside that
//!   move's program after the write arrived, and the die's channel was free for the transfer then
//!   (the channel's last reservation ended at least `xfer` before: no other transfer overlaps);
//! - **read at preemption point B**: a host read runs between two GC moves; while its page goes out
//!   over the channel from the cache register, the next GC move's array read proceeds. A GC move
//!   that starts the instant the die's host read ended has its `read` shortened by the time the
//!   host read's data spent in the register (waiting for and crossing the channel), at most its
//!   whole read.
//!
//! Only single-page GC moves take part (multi-plane moves, buffer reads, commits and erases are of
//! another type); each pipelined host command is counted (`schemes.pipeline.host_reads`,
//! `host_writes`: the paper's `P_r`, `P_w`). Schemes ask for it through
//! [`GcScheme::pipelined`](crate::gc::scheme::GcScheme::pipelined).
//!
//! Before this model, `gc.pipeline` overlapped a GC move's array read with the previous GC move's
//! program in the same plane and stopped a move between read and program so that a host write ran
//! first; a plane's array does one operation at a time and its one data register holds the GC page
//! at point A, so neither is physically possible and both were replaced.

use crate::flash::{FlashOp, Timing};
use crate::gc::GcOp;
use crate::units::SimTime;

/// What a die last did, as far as pipelining is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Last {
    Other,
    /// A single-page GC move whose program ran from `program_start` to `end`.
    GcMove {
        program_start: SimTime,
        end: SimTime,
    },
    /// A host read whose data left the array at `in_register` and crossed the channel by `end`.
    HostRead {
        in_register: SimTime,
        end: SimTime,
    },
}

/// The pipelining state of a drive's dies, and its counters. With pipelining off, what the dies
/// last did is neither read nor kept.
#[derive(Clone, Debug)]
pub(super) struct Pipeline {
    enabled: bool,
    last: Vec<Last>,
    /// Host reads pipelined with a GC move's read.
    reads: u64,
    /// Host writes pipelined with a GC move's program.
    writes: u64,
}

impl Pipeline {
    /// Pipelining for `dies` dies; off unless `enabled`.
    pub(super) fn new(enabled: bool, dies: u32) -> Self {
        Pipeline {
            enabled,
            last: vec![Last::Other; dies as usize],
            reads: 0,
            writes: 0,
        }
    }

    /// True when pipelining is on.
    #[inline]
    pub(super) fn enabled(&self) -> bool {
        self.enabled
    }

    /// Host reads pipelined with GC so far.
    pub(super) fn reads(&self) -> u64 {
        self.reads
    }

    /// Host writes pipelined with GC so far.
    pub(super) fn writes(&self) -> u64 {
        self.writes
    }

    /// The timing of GC operation `op` starting at `start` on die `d`: `base`, or, for a move that
    /// follows a host read of the die without a gap, `base` with the read shortened by the part
    /// that overlapped the host read's transfer (counting the host read as pipelined).
    #[inline]
    pub(super) fn gc_timing(&mut self, d: u32, start: SimTime, op: &GcOp, base: &Timing) -> Timing {
        if !self.enabled || !matches!(op, GcOp::Move { .. }) {
            return *base;
        }
        match self.last[d as usize] {
            Last::HostRead { in_register, end } if end == start => {
                self.reads += 1;
                Timing {
                    read: base.read - base.read.min(end - in_register),
                    ..*base
                }
            }
            _ => *base,
        }
    }

    /// GC operation `op` started on die `d` and ends at `end`, its last `cmd + program` of `t`
    /// being its program.
    #[inline]
    pub(super) fn gc_started(&mut self, d: u32, op: &GcOp, end: SimTime, t: &Timing) {
        if !self.enabled {
            // Nothing reads what the dies last did.
            return;
        }
        self.last[d as usize] = match op {
            GcOp::Move { .. } => Last::GcMove {
                program_start: end.saturating_sub(t.command + t.program),
                end,
            },
            _ => Last::Other,
        };
    }

    /// The operation of a host write to `planes` of die `d` starting at `now`, queued at `arrived`,
    /// whose channel's last reservation ends at `channel_free()` (asked only when it may pipeline):
    /// its program alone when it pipelines with the GC move that just ended (counting it), `None`
    /// otherwise.
    #[inline]
    pub(super) fn host_write(
        &mut self,
        d: u32,
        now: SimTime,
        arrived: SimTime,
        channel_free: impl FnOnce() -> SimTime,
        t: &Timing,
        planes: u64,
    ) -> Option<FlashOp> {
        if !self.enabled {
            return None;
        }
        let Last::GcMove { program_start, end } = self.last[d as usize] else {
            return None;
        };
        let fits = end == now
            && program_start.max(arrived) + t.command + t.transfer <= now
            && channel_free() + t.transfer <= now;
        if !fits {
            return None;
        }
        self.writes += 1;
        self.last[d as usize] = Last::Other;
        Some(FlashOp::new(0, 0, t.program, planes))
    }

    /// A host read on die `d` whose data reached the register at `in_register` and was delivered
    /// at `end`.
    #[inline]
    pub(super) fn host_read(&mut self, d: u32, in_register: SimTime, end: SimTime) {
        if self.enabled {
            self.last[d as usize] = Last::HostRead { in_register, end };
        }
    }

    /// Die `d` started something that pipelines with nothing.
    #[inline]
    pub(super) fn other(&mut self, d: u32) {
        if self.enabled {
            self.last[d as usize] = Last::Other;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    fn timing() -> Timing {
        Timing::new(&Config::default())
    }

    #[test]
    fn a_write_queued_during_a_gc_program_pipelines_with_it() {
        let t = timing();
        let mut p = Pipeline::new(true, 2);
        let mv = GcOp::Move { src: 0, dst: 1 };
        let end = 1_000_000;
        p.gc_started(0, &mv, end, &t);
        let op = p.host_write(0, end, 0, || 0, &t, 1).expect("pipelined");
        assert_eq!(op, FlashOp::new(0, 0, t.program, 1));
        assert_eq!(p.writes(), 1);
        // Once only: the next write pays in full.
        assert_eq!(p.host_write(0, end, 0, || 0, &t, 1), None);
        // A gap, another die, a late arrival, a busy channel: no pipelining.
        p.gc_started(0, &mv, end, &t);
        assert_eq!(p.host_write(0, end + 1, 0, || 0, &t, 1), None, "gap");
        assert_eq!(p.host_write(1, end, 0, || 0, &t, 1), None, "other die");
        assert_eq!(
            p.host_write(0, end, end - 1, || 0, &t, 1),
            None,
            "arrived late"
        );
        assert_eq!(p.host_write(0, end, 0, || end, &t, 1), None, "channel busy");
        assert_eq!(p.writes(), 1);
        let erase = GcOp::Erase { plane: 0, block: 0 };
        p.gc_started(0, &erase, end, &t);
        assert_eq!(p.host_write(0, end, 0, || 0, &t, 1), None, "after an erase");
    }

    #[test]
    fn a_gc_move_after_a_host_read_overlaps_its_transfer() {
        let t = timing();
        let mut p = Pipeline::new(true, 1);
        let mv = GcOp::Move { src: 0, dst: 1 };
        p.host_read(0, 100, 100 + t.transfer);
        let tm = p.gc_timing(0, 100 + t.transfer, &mv, &t);
        assert_eq!(tm.read, t.read - t.read.min(t.transfer));
        assert_eq!(tm.program, t.program);
        assert_eq!(p.reads(), 1);
        p.host_read(0, 100, 100 + t.transfer);
        assert_eq!(p.gc_timing(0, 101 + t.transfer, &mv, &t), t, "a gap");
        let erase = GcOp::Erase { plane: 0, block: 0 };
        assert_eq!(p.gc_timing(0, 100 + t.transfer, &erase, &t), t);
        // The overlap never exceeds the read.
        p.host_read(0, 0, 10 * t.read);
        assert_eq!(p.gc_timing(0, 10 * t.read, &mv, &t).read, 0);
        assert_eq!(p.reads(), 2);
    }

    #[test]
    fn off_pipelines_nothing() {
        let t = timing();
        let mut p = Pipeline::new(false, 1);
        let mv = GcOp::Move { src: 0, dst: 1 };
        p.gc_started(0, &mv, 1_000_000, &t);
        assert_eq!(p.host_write(0, 1_000_000, 0, || 0, &t, 1), None);
        p.host_read(0, 0, 50_000);
        assert_eq!(p.gc_timing(0, 50_000, &mv, &t), t);
        assert_eq!((p.reads(), p.writes()), (0, 0));
    }
}
