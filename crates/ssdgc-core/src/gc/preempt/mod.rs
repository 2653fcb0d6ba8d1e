//! The *preemption* axis: whether host requests may run while a GC job is in progress on their
//! die, and the capabilities that make preemption cheaper — after the preemptible-GC paper (Lee et
//! al., IEEE TCAD 32(2), 2013, `preemptible-gc.txt`, §III–IV).
//!
//! | setting | values | meaning | file |
//! |---|---|---|---|
//! | `gc.preempt` | `none`, `ops` | a job runs held to its erase, or one operation at a time with host work admitted between operations (point B, §III-A) | this file |
//! | `gc.merge` | on/off | a preempting read of a page the job still has to move is served from the move's register, a preempting write goes into its page buffer and is programmed once at the GC write point (§III-B) | [`merge`] |
//! | `gc.pipeline` | on/off | a host command is pipelined with a GC command of the same type through the cache register: a write at point A with the move's program, a read at point B with the next move's read (§III-A, §III-C) | [`pipeline`] |
//! | `gc.suspend` | `none`, `erase`, `all` | a preempting request suspends the GC operation in progress (PGC+SE, F-PGC, §IV) | [`suspend`] |
//!
//! Which requests may preempt is the trigger's rule ([`crate::gc::when::Trigger::may_preempt`]):
//! any request in idle-time GC; reads and writes to planes not below `T_hard` in the states of
//! §III-D. Merging, pipelining and suspension need `gc.preempt = "ops"`.

pub mod merge;
pub mod pipeline;
pub mod suspend;

use crate::gc::axis::axis_enum;
pub use suspend::Suspend;

axis_enum!(
    /// Whether a GC job can be preempted (`gc.preempt`).
    PreemptMode, "gc.preempt", {
        /// The job holds its die until its erase.
        None = "none",
        /// One operation at a time; host work the trigger admits runs between operations.
        Ops = "ops",
    }
);

/// The preemption axis, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preemption {
    /// Held jobs, or preemptible between operations.
    pub mode: PreemptMode,
    /// Merging of preempting reads into the job's moves.
    pub merge: bool,
    /// Pipelining of host commands with GC commands (§III-C).
    pub pipeline: bool,
    /// Suspension of operations in progress.
    pub suspend: Suspend,
}

impl Preemption {
    /// No preemption at all.
    pub const NONE: Preemption = Preemption {
        mode: PreemptMode::None,
        merge: false,
        pipeline: false,
        suspend: Suspend::None,
    };

    /// Preemptible between operations, with the given capabilities.
    pub const fn ops(merge: bool, pipeline: bool, suspend: Suspend) -> Preemption {
        Preemption {
            mode: PreemptMode::Ops,
            merge,
            pipeline,
            suspend,
        }
    }

    /// Why this combination means nothing, if it does not.
    pub fn check(&self) -> Result<(), String> {
        if self.mode == PreemptMode::None {
            for (on, key) in [
                (self.merge, "gc.merge"),
                (self.pipeline, "gc.pipeline"),
                (self.suspend != Suspend::None, "gc.suspend"),
            ] {
                if on {
                    return Err(format!(
                        "{key} needs preemptible GC (gc.preempt = \"ops\"): a job that holds its die has no request to merge, pipeline or suspend for"
                    ));
                }
            }
        }
        Ok(())
    }
}
