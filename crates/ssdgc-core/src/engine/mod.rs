//! The discrete-event engine: a priority queue of events keyed by `(time, sequence)`.
//!
//! Events at the same instant run in the order they were scheduled, so a run is reproducible from its
//! configuration and seed alone. The queue is bounded by the simulation's own structure (one pending
//! arrival; per die one pending completion, one merged read, and the stale completions of suspended
//! operations; per device-queue slot one write-buffer acknowledgement), which
//! [`EventQueue::schedule`] asserts.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::units::SimTime;

/// What happens at an instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Event {
    /// The next host request arrives.
    Arrival,
    /// The operation running on this die ends.
    DieDone(u32),
    /// A host read served from a GC job's page register (merging) has delivered its page.
    TxnDone(u32),
    /// A host request served by the write buffer is acknowledged.
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
        let mut q = EventQueue::new(16);
        q.schedule(10, Event::DieDone(3));
        q.schedule(5, Event::DieDone(9));
        q.schedule(10, Event::Arrival);
        q.schedule(10, Event::DieDone(1));
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (5, Event::DieDone(9)),
                (10, Event::DieDone(3)),
                (10, Event::Arrival),
                (10, Event::DieDone(1)),
            ]
        );
        assert_eq!(q.processed(), 4);
    }
}
