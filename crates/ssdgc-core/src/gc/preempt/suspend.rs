//! Suspension of GC operations in progress (preemptible-GC paper §IV): PGC+SE suspends erases,
//! F-PGC every GC operation — an erase, or a page move in its read or program.
//!
//! A preempting request suspends the operation at a cost of `timing.suspend` (T_suspend, default
//! 20 µs) of die time; the host work queued on the die is served, and the operation resumes with
//! its remaining time when the die has no host work the trigger lets in. One operation per die is
//! suspended at a time (the paper allows one per plane, §IV-B: with one job per die this is the
//! same), an operation is suspended at most [`crate::sim::MAX_SUSPENDS`] times, and one within
//! `T_suspend` of its end is not. This module decides; the drive suspends and resumes.

use crate::gc::axis::axis_enum;
use crate::gc::GcOp;

axis_enum!(
    /// Which GC operations in progress a preempting request suspends (`gc.suspend`).
    Suspend, "gc.suspend", {
        /// None: a request waits for the operation in progress (PGC).
        None = "none",
        /// Erases only (PGC+SE).
        Erase = "erase",
        /// Erases and page moves (F-PGC).
        All = "all",
    }
);

impl Suspend {
    /// True when a preempting request suspends `op`.
    pub fn applies(self, op: &GcOp) -> bool {
        match self {
            Suspend::None => false,
            Suspend::Erase => op.is_erase(),
            Suspend::All => true,
        }
    }
}
