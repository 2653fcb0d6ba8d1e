//! What a GC job holds between its operations (`gc.blocking`; the resource model's
//! [`GcScope`]), and the order of a die's host transactions (`host.priority`).
//!
//! Every GC operation occupies its die while it runs (a die executes one command at a time). A job
//! held to its erase (`Action::GcJob`, non-preemptible GC) holds, between its operations:
//!
//! - `die` (the default): its die, from its first move to its erase — the "serial GC" the PaGC
//!   paper measures, and Algorithm 2 (line 7) of the parallel-page-migration paper;
//! - `plane`: only the planes it collects: after each of its operations the die serves at most one
//!   queued host transaction of another plane (the oldest, in the die's priority order), then the
//!   job's next operation — the scheme is not asked in between, the job is still held to its
//!   erase. A write to a plane that itself needs GC waits for the job;
//! - `channel`: its die, and no other die of its channel starts an operation until the die's GC
//!   stops (the preemptible-GC paper's simulator cleans per channel, §V-A: "GC operates per
//!   channel basis"). Operations already running on the other dies finish. This holds for
//!   preemptible GC too, one operation at a time.
//!
//! `host.priority = "reads-first"` queues a read ahead of every queued write of its die (after the
//! reads already ahead of them), except a write of its own page: the parallel-page-migration
//! paper's scheduler (§V-A: "GC the highest priority, reads have the second highest priority, and
//! writes have the lowest priority"); GC goes first or not as the GC trigger decides.

use std::collections::VecDeque;

use super::Drive;
use crate::engine::EventQueue;
use crate::gc::scheme::QueuedTxn;
use crate::units::Lpn;

/// Queues read transaction `q` in a die's `queue` ahead of its writes
/// (`host.priority = "reads-first"`).
#[inline(never)]
pub(super) fn queue_read_first(queue: &mut VecDeque<QueuedTxn>, q: QueuedTxn) {
    let at = read_position(queue, q.lpn);
    queue.insert(at, q);
}

impl Drive {
    /// Die `d` starts a GC operation (or a job held to its erase): with channel scope it holds its
    /// channel.
    #[inline]
    pub(super) fn gc_holds(&mut self, d: u32) {
        self.res.hold_channel(d);
    }

    /// Die `d` has stopped running GC: the other dies of its channel, if it held them back, decide
    /// again.
    #[inline]
    pub(super) fn gc_releases(&mut self, ev: &mut EventQueue, d: u32) {
        for o in self.res.release_channel(d) {
            if o != d {
                self.kick_die(ev, o);
            }
        }
    }

    /// Plane scope: the queued host transaction die `d` serves before the next operation of job
    /// `j`, if it is the host's turn — the first (in queue order) of a plane the job does not
    /// collect, unless it is a write to a plane that needs GC itself.
    pub(super) fn host_between(&mut self, d: u32, j: usize) -> Option<usize> {
        let die = &mut self.dies[d as usize];
        if !std::mem::take(&mut die.host_turn) {
            return None;
        }
        let held = die.jobs.get(j)?.plane_mask(&self.geo);
        die.queue.iter().position(|t| {
            held >> self.geo.plane_in_die(t.plane) & 1 == 0
                && !(t.write && self.ftl.needs_gc(t.plane))
        })
    }
}

/// Where a read of `lpn` goes in a die queue served reads first: after the reads ahead of every
/// write, and after the last queued write of its own page.
pub(super) fn read_position(queue: &VecDeque<QueuedTxn>, lpn: Lpn) -> usize {
    let first_write = queue.iter().position(|t| t.write).unwrap_or(queue.len());
    let own = queue
        .iter()
        .rposition(|t| t.write && t.lpn == lpn)
        .map_or(0, |i| i + 1);
    first_write.max(own)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(list: &[(bool, Lpn)]) -> VecDeque<QueuedTxn> {
        list.iter()
            .map(|&(write, lpn)| QueuedTxn {
                plane: 0,
                write,
                lpn,
                id: 0,
            })
            .collect()
    }

    #[test]
    fn reads_pass_writes_but_not_a_write_of_their_page() {
        // R1 W2 W3: a read of page 9 goes after R1, before the writes.
        let queue = q(&[(false, 1), (true, 2), (true, 3)]);
        assert_eq!(read_position(&queue, 9), 1);
        // A read of page 3 stays behind the write of page 3.
        assert_eq!(read_position(&queue, 3), 3);
        assert_eq!(read_position(&queue, 2), 2);
        // No write: at the back.
        assert_eq!(read_position(&q(&[(false, 1)]), 5), 1);
        assert_eq!(read_position(&q(&[]), 5), 0);
    }
}
