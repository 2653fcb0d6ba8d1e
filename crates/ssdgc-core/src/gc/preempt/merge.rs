//! Merging (preemptible-GC paper §III-B, Table III): a preempting host read of a page that the GC
//! job in progress still has to move is served from that move's page register — the page moves
//! next, out of order, and the read takes its data from the register with no flash read of its own
//! ([`Action::Merge`]). A host write to such a page cancels the move (the mechanism skips pages that
//! are no longer valid; `gc.cancelled_moves` counts them under every scheme).
//!
//! This module decides; the drive carries a merge out (read into the register, transfer to the
//! host, program into the GC write point).

use crate::gc::scheme::{Action, DieContext};

/// The merge of queued read `txn` into job `job`, when merging is on and the read's page is one
/// the job still has to move.
pub fn action(enabled: bool, cx: &DieContext<'_>, txn: usize, job: usize) -> Option<Action> {
    (enabled && cx.can_merge(txn, job)).then_some(Action::Merge { txn, job })
}
