//! Pipelining (preemptible-GC paper §III-C) and preemption point A (§III-A).
//!
//! Consecutive page moves of a die overlap through the cache register: a move that starts the
//! instant the die's previous move ended costs its read only where the read outlasts the program
//! (the drive applies this timing when the scheme reports [`crate::gc::scheme::GcScheme::pipelined`]).
//! With pipelining, a write that may preempt, arriving while a page move is still reading, stops
//! the move after its read: the page waits in the register while host work runs, and the move's
//! program follows ([`Interrupt::AfterRead`]). Without pipelining a request waits for the move in
//! progress (point B only).

use crate::gc::scheme::{DieContext, Interrupt, QueuedTxn};
use crate::gc::GcOp;

/// Point A for GC operation `op`: when pipelining is on, the operation is a page move, and a queued
/// write may preempt (`may_preempt`).
pub fn point_a(
    enabled: bool,
    cx: &DieContext<'_>,
    op: &GcOp,
    may_preempt: impl Fn(&QueuedTxn) -> bool,
) -> Option<Interrupt> {
    let write_waits = cx.queue().iter().any(|t| t.write && may_preempt(t));
    (enabled && write_waits && !op.is_erase()).then_some(Interrupt::AfterRead)
}
