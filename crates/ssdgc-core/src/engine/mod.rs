//! The discrete-event engine: a priority queue of events keyed by `(time, sequence)`.
//!
//! Events at the same instant run in the order they were scheduled, so a run is reproducible from its
//! configuration and seed alone. One queue serves every drive of an array: the events of a drive's
//! dies and transactions carry the drive's index. The queue is bounded by the simulation's own
//! structure (one pending arrival; per die of every drive one pending completion, one merged read,
//! and the stale completions of suspended operations; per device-queue slot one write-buffer
//! acknowledgement), which [`EventQueue::schedule`] asserts.
//!
//! Beside the events, each drive may have one wake-up timer ([`EventQueue::set_timer`]): setting it
//! again replaces the pending one, which then never fires, and cancelling removes it. A timer takes
//! its sequence number when it is set, so it runs among the events of its instant in the order they
//! were scheduled, and pops as [`Event::Wake`]. Timers alone do not keep a run going: when only
//! timers are left, [`EventQueue::pop`] returns `None` (and [`EventQueue::is_empty`] is true).

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
    /// The wake-up timer of drive `drive` fires ([`EventQueue::set_timer`]).
    Wake { drive: u16 },
}

/// A `(time, sequence)`-ordered event queue.
#[derive(Debug)]
pub struct EventQueue {
    heap: BinaryHeap<Reverse<(SimTime, u64, Event)>>,
    seq: u64,
    limit: usize,
    processed: u64,
    /// Per drive: its wake-up timer as `(time, sequence)`, when set.
    timers: Vec<Option<(SimTime, u64)>>,
    /// The earliest timer, as `(time, sequence, drive)`.
    next_timer: Option<(SimTime, u64, u16)>,
}

impl EventQueue {
    /// A queue that never holds more than `limit` events.
    pub fn new(limit: usize) -> Self {
        EventQueue {
            heap: BinaryHeap::with_capacity(limit.min(1 << 16)),
            seq: 0,
            limit,
            processed: 0,
            timers: Vec::new(),
            next_timer: None,
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

    /// Sets the wake-up timer of drive `drive` to `at`, replacing its pending one.
    pub fn set_timer(&mut self, drive: u16, at: SimTime) {
        let d = drive as usize;
        if self.timers.len() <= d {
            self.timers.resize(d + 1, None);
        }
        self.timers[d] = Some((at, self.seq));
        self.seq += 1;
        self.update_next_timer();
    }

    /// Removes the wake-up timer of drive `drive`, if set.
    pub fn cancel_timer(&mut self, drive: u16) {
        if let Some(t) = self.timers.get_mut(drive as usize) {
            if t.take().is_some() {
                self.update_next_timer();
            }
        }
    }

    /// When the wake-up timer of drive `drive` fires, if set.
    pub fn timer(&self, drive: u16) -> Option<SimTime> {
        self.timers
            .get(drive as usize)
            .copied()
            .flatten()
            .map(|(t, _)| t)
    }

    fn update_next_timer(&mut self) {
        self.next_timer = self
            .timers
            .iter()
            .enumerate()
            .filter_map(|(d, t)| t.map(|(at, seq)| (at, seq, d as u16)))
            .min_by_key(|&(at, seq, _)| (at, seq));
    }

    /// Removes the earliest event, or the earliest timer when it comes first (as [`Event::Wake`]).
    /// `None` when no event waits, whatever the timers.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, Event)> {
        if let Some((at, seq, drive)) = self.next_timer {
            let Reverse((t, s, _)) = self.heap.peek()?;
            if (at, seq) < (*t, *s) {
                self.timers[drive as usize] = None;
                self.update_next_timer();
                self.processed += 1;
                return Some((at, Event::Wake { drive }));
            }
        }
        let Reverse((t, _, ev)) = self.heap.pop()?;
        self.processed += 1;
        Some((t, ev))
    }

    /// Events processed so far.
    pub fn processed(&self) -> u64 {
        self.processed
    }

    /// Events waiting (timers not counted).
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// True when no event waits (timers not counted).
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
    fn timers_run_in_order_with_events_and_a_replaced_timer_never_fires() {
        let die = |die| Event::DieDone { drive: 0, die };
        let mut q = EventQueue::new(16);
        q.schedule(10, die(0));
        q.set_timer(1, 10); // after die(0) at the same instant: set later
        q.set_timer(0, 4);
        q.set_timer(0, 7); // replaces the timer at 4
        q.schedule(10, die(1));
        q.schedule(20, die(2));
        q.set_timer(2, 30);
        q.cancel_timer(2);
        assert_eq!(q.timer(0), Some(7));
        assert_eq!(q.timer(2), None);
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![
                (7, Event::Wake { drive: 0 }),
                (10, die(0)),
                (10, Event::Wake { drive: 1 }),
                (10, die(1)),
                (20, die(2)),
            ]
        );
        assert_eq!(q.timer(0), None);
    }

    #[test]
    fn timers_alone_do_not_keep_the_queue_going() {
        let mut q = EventQueue::new(4);
        q.set_timer(0, 5);
        assert!(q.is_empty());
        assert_eq!(q.pop(), None);
        q.schedule(9, Event::Arrival);
        assert_eq!(q.pop(), Some((5, Event::Wake { drive: 0 })));
        assert_eq!(q.pop(), Some((9, Event::Arrival)));
        assert_eq!(q.pop(), None);
    }

    #[test]
    fn events_stay_small() {
        // The heap holds (time, seq, event): a drive index must not grow an event.
        assert_eq!(std::mem::size_of::<Event>(), 8);
    }
}
