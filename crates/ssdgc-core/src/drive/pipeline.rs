//! Pipelining of GC page moves (preemptible-GC paper §III-C).
//!
//! With a cache register, a die can read the next page of a GC job into the data register while the
//! cache register's page is being programmed: back-to-back moves overlap. A move that starts the
//! instant the die's previous GC move ended therefore costs its read only where the read outlasts
//! the program, `max(0, read − program)`; every other move pays its full read. Only single-page
//! moves issued as GC operations pipeline (a read merged into a move does not start or continue a
//! pipeline). Schemes ask for it through
//! [`GcScheme::pipelined`](crate::gc::scheme::GcScheme::pipelined).

use crate::flash::Timing;
use crate::gc::GcOp;
use crate::units::SimTime;

/// The pipelining state of a drive's dies.
#[derive(Clone, Debug)]
pub(super) struct Pipeline {
    enabled: bool,
    /// The timing of a move whose read hides behind the previous move's program.
    overlapped: Timing,
    /// Per die: when its last GC page move ends.
    move_end: Vec<SimTime>,
}

impl Pipeline {
    /// Pipelining for `dies` dies of timing `t`; off unless `enabled`.
    pub(super) fn new(enabled: bool, dies: u32, t: &Timing) -> Self {
        Pipeline {
            enabled,
            overlapped: Timing {
                read: t.read.saturating_sub(t.program),
                ..*t
            },
            move_end: vec![SimTime::MAX; dies as usize],
        }
    }

    /// The timing of GC operation `op` starting at `start` on die `d`: `base`, or the overlapped
    /// timing for a move that follows the die's previous move without a gap.
    #[inline]
    pub(super) fn timing<'a>(
        &'a self,
        d: u32,
        start: SimTime,
        op: &GcOp,
        base: &'a Timing,
    ) -> &'a Timing {
        if self.enabled && matches!(op, GcOp::Move { .. }) && self.move_end[d as usize] == start {
            &self.overlapped
        } else {
            base
        }
    }

    /// GC operation `op` on die `d` ends at `end`.
    #[inline]
    pub(super) fn ended(&mut self, d: u32, op: &GcOp, end: SimTime) {
        if matches!(op, GcOp::Move { .. }) {
            self.move_end[d as usize] = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    #[test]
    fn only_back_to_back_moves_overlap() {
        let t = Timing::new(&Config::default());
        let mut p = Pipeline::new(true, 2, &t);
        let mv = GcOp::Move { src: 0, dst: 1 };
        let erase = GcOp::Erase { plane: 0, block: 0 };
        assert_eq!(p.timing(0, 0, &mv, &t).read, t.read, "no previous move");
        p.ended(0, &mv, 100);
        assert_eq!(
            p.timing(0, 100, &mv, &t).read,
            t.read.saturating_sub(t.program)
        );
        assert_eq!(p.timing(0, 101, &mv, &t).read, t.read, "a gap breaks it");
        assert_eq!(p.timing(1, 100, &mv, &t).read, t.read, "another die");
        assert_eq!(p.timing(0, 100, &erase, &t), &t, "erases do not pipeline");
        let off = Pipeline::new(false, 1, &t);
        assert_eq!(off.timing(0, SimTime::MAX, &mv, &t), &t);
    }
}
