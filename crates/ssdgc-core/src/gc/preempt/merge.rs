//! Merging (preemptible-GC paper §III-B, Fig. 5, Table III): a preempting host command on a page
//! that the GC job in progress still has to move is merged into that move ([`Action::Merge`]).
//! A read is served from the move's page register — the page moves next, out of order, and the
//! read takes its data from the register with no flash read of its own. A write updates the page
//! buffer — its data is programmed once, at the GC write point where the move would have put the
//! page, as a host page, and the move is not made ("the write request can be merged by updating
//! data in the page buffers"). Moves are reordered for it: any page of the victim may be next.
//!
//! Without merging, a host write to such a page is programmed at the host write point and the move
//! skipped (the mechanism skips pages that are no longer valid; `gc.cancelled_moves` counts them
//! under every scheme). Table III's cases with an operation in progress (a read discarded, a
//! program invalidated) belong to suspension (F-PGC, §IV-C); between operations (point B) the
//! merge above covers both directions.
//!
//! This module decides; the drive carries a merge out (`drive/merge.rs`).

use crate::gc::scheme::{Action, DieContext};

/// The merge of queued transaction `txn` (a read or a write) into job `job`, when merging is on
/// and its page is one the job still has to move.
pub fn action(enabled: bool, cx: &DieContext<'_>, txn: usize, job: usize) -> Option<Action> {
    (enabled && cx.can_merge(txn, job)).then_some(Action::Merge { txn, job })
}
