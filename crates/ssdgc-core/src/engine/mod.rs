//! The discrete-event engine: a priority queue of events keyed by `(time, sequence)`.
//!
//! Events at the same instant run in the order they were scheduled, so a run is reproducible from its
//! configuration and seed alone. One queue serves every drive of an array: the events of a drive's
//! dies and transactions carry the drive's index. The queue is bounded by the simulation's own
//! structure (one pending arrival; per die of every drive one pending completion, one merged read,
//! and the stale completions of suspended operations; per device-queue slot one write-buffer
//! acknowledgement), which [`EventQueue::schedule`] asserts.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::units::SimTime;

/// What happens at an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Event {
    /// The next host request arrives.
    Arrival,
    /// The operation running on die `die` of drive `drive` ends.
    DieDone { drive: u16, die: u32 },
    /// A host read served from a GC job's page register (merging) on drive `drive` has delivered
    /// its page (transaction `txn` of that drive).
    TxnDone { drive: u16, txn: u32 },
    /// A host request served by the write buffer is acknowledged. The buffer belongs to the front
    /// end, in front of every drive, so this event names the request only.
    BufferDone(u32),
}

/// A `(time, sequence)`-ordered event queue.
#[derive(Debug)]
pub struct EventQueue {
    heap: BinaryHeap<Reverse<(SimTime, u64, Event)>>,
    seq: u64,
    limit: usize,
    processed: u64,
}

impl EventQueue {
    /// A queue that never holds more than `limit` events.
    pub fn new(limit: usize) -> Self {
        EventQueue {
            heap: BinaryHeap::with_capacity(limit.min(1 << 16)),
            seq: 0,
            limit,
            processed: 0,
        }
    }

    /// Schedules `ev` at `time`.
    #[inline]
    pub fn schedule(&mut self, time: SimTime, ev: Event) {
        assert!(
            self.heap.len() < self.limit,
            "event queue over its bound of {}",
            self.limit
        );
        self.heap.push(Reverse((time, self.seq, ev)));
        self.seq += 1;
    }

    /// Removes the earliest event.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, Event)> {
        let Reverse((t, _, ev)) = self.heap.pop()?;
        self.processed += 1;
        Some((t, ev))
    }

    /// Events processed so far.
    pub fn processed(&self) -> u64 {
        self.processed
    }

    /// Events waiting.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// True when no event waits.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_instant_runs_in_schedule_order() {
        let die = |drive, die| Event::DieDone { drive, die };
        let mut q = EventQueue::new(16);
        q.schedule(10, die(1, 3));
        q.schedule(5, die(0, 9));
        q.schedule(10, Event::Arrival);
        q.schedule(10, die(0, 1));
        q.schedule(10, Event::TxnDone { drive: 0, txn: 2 });
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (5, die(0, 9)),
                (10, die(1, 3)),
                (10, Event::Arrival),
                (10, die(0, 1)),
                (10, Event::TxnDone { drive: 0, txn: 2 }),
            ]
        );
        assert_eq!(q.processed(), 5);
    }

    #[test]
    fn events_stay_small() {
        // The heap holds (time, seq, event): a drive index must not grow an event.
        assert_eq!(std::mem::size_of::<Event>(), 8);
    }
}
