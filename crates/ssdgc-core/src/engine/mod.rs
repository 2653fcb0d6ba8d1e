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

use crate::units::SimTime;

mod errors;

pub use errors::{ErrorFlag, ErrorSlot};

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

/// An event in the heap, ordered by `(time, seq)` alone ([`Pending::key`]): sequence numbers are
/// unique, so the event itself never decides, and one 128-bit comparison orders two entries.
#[derive(Clone, Copy, Debug)]
struct Pending {
    time: SimTime,
    seq: u64,
    ev: Event,
}

impl Pending {
    #[inline(always)]
    fn key(&self) -> u128 {
        (u128::from(self.time) << 64) | u128::from(self.seq)
    }
}

/// A binary min-heap of pending events by [`Pending::key`].
///
/// What `std::collections::BinaryHeap` does, written out so that the entry being pushed or
/// moved down stays in registers: the standard heap writes a pushed entry to its slot and reads
/// it straight back in its sift, a load wider than the stores before it that the CPU cannot
/// forward (a stall of the store's full latency on every schedule). Keys are unique, so any
/// correct heap pops the same sequence.
///
/// Most events schedule exactly one successor, so [`MinHeap::take_top`] leaves the entry it
/// returns in place as a *hole* at the root: the next push ([`MinHeap::fill_hole`]) overwrites it and
/// moves down from the root once (one sift instead of a pop's sift down and a push's sift up),
/// and only when another entry is needed first ([`MinHeap::settle`]) is the hole removed as a
/// pop would. The hole is never counted ([`MinHeap::len`]).
#[derive(Debug)]
struct MinHeap {
    v: Vec<Pending>,
    /// The root `v[0]` was taken and no longer counts.
    hole: bool,
}

impl MinHeap {
    fn with_capacity(n: usize) -> MinHeap {
        MinHeap {
            v: Vec::with_capacity(n),
            hole: false,
        }
    }

    /// Entries waiting (the hole not counted).
    #[inline]
    fn len(&self) -> usize {
        self.v.len() - usize::from(self.hole)
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The earliest entry. Call [`MinHeap::settle`] first: with a hole the root is stale.
    #[inline]
    fn peek(&self) -> Option<&Pending> {
        debug_assert!(!self.hole, "peek at a hole");
        self.v.first()
    }

    /// Adds `e`: into the hole when there is one, else at the end.
    #[cfg(test)]
    fn push(&mut self, e: Pending) {
        if self.hole {
            self.fill_hole(e);
        } else {
            self.push_new(e);
        }
    }

    /// Puts `e` in the taken root's place, from where it moves down. The heap must have a hole.
    #[inline]
    fn fill_hole(&mut self, e: Pending) {
        debug_assert!(self.hole, "no hole to fill");
        self.hole = false;
        sift_down(&mut self.v[..], e);
    }

    /// Adds `e` at the end, from where it moves up. The heap must have no hole.
    #[inline]
    fn push_new(&mut self, e: Pending) {
        debug_assert!(!self.hole, "a hole left behind");
        let key = e.key();
        self.v.push(e);
        // On a slice: its length and address stay in registers through the loop (the vector's
        // are read again after every store into it, and each index checked against the length
        // read).
        let v = &mut self.v[..];
        let mut i = v.len() - 1;
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = v[parent];
            if p.key() <= key {
                break;
            }
            v[i] = p;
            i = parent;
        }
        v[i] = e;
    }

    /// Removes the hole, if any, so that the root is the earliest entry: the last entry moves
    /// down from the root.
    #[inline]
    fn settle(&mut self) {
        if !self.hole {
            return;
        }
        self.hole = false;
        let Some(last) = self.v.pop() else {
            return;
        };
        if !self.v.is_empty() {
            sift_down(&mut self.v[..], last);
        }
    }

    /// The earliest entry, left in place as the hole. Call [`MinHeap::settle`] first.
    #[inline]
    fn take_top(&mut self) -> Option<Pending> {
        debug_assert!(!self.hole, "take at a hole");
        let &top = self.v.first()?;
        self.hole = true;
        Some(top)
    }

    /// Removes and returns the earliest entry.
    #[cfg(test)]
    fn pop(&mut self) -> Option<Pending> {
        self.settle();
        let top = self.take_top();
        self.settle();
        top
    }
}

/// Puts `e` at the root of the non-empty heap `v` (whose root is free) and moves it down to where
/// it belongs.
#[inline(always)]
fn sift_down(v: &mut [Pending], e: Pending) {
    let key = e.key();
    let n = v.len();
    let mut i = 0;
    loop {
        let l = 2 * i + 1;
        if l >= n {
            break;
        }
        // The earlier child, chosen by its key alone: only it is read whole. Which child is
        // earlier is random, so no branch: a missing right child is the left one compared with
        // itself.
        let r = (l + 1).min(n - 1);
        let c = l + usize::from(v[r].key() < v[l].key());
        let child = v[c];
        if key <= child.key() {
            break;
        }
        v[i] = child;
        i = c;
    }
    v[i] = e;
}

/// A `(time, sequence)`-ordered event queue.
#[derive(Debug)]
pub struct EventQueue {
    heap: MinHeap,
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
            heap: MinHeap::with_capacity(limit.min(1 << 16)),
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
        let e = Pending {
            time,
            seq: self.seq,
            ev,
        };
        if self.heap.hole {
            // Into the place of the entry taken last: the count stays what it was when that entry
            // was scheduled, within the bound.
            self.heap.fill_hole(e);
        } else {
            assert!(
                self.heap.len() < self.limit,
                "event queue over its bound of {}",
                self.limit
            );
            self.heap.push_new(e);
        }
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
        self.heap.settle();
        if let Some((at, seq, drive)) = self.next_timer {
            let top = self.heap.peek()?;
            if (at, seq) < (top.time, top.seq) {
                self.timers[drive as usize] = None;
                self.update_next_timer();
                self.processed += 1;
                return Some((at, Event::Wake { drive }));
            }
        }
        let Pending { time, ev, .. } = self.heap.take_top()?;
        self.processed += 1;
        Some((time, ev))
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

    /// Random streams of schedules, pops and timers, many at equal instants: the queue pops in
    /// `(time, order of scheduling)` order, as a sorted reference list does.
    #[test]
    fn pops_in_time_then_schedule_order_on_random_streams() {
        use crate::rng::rng_for;
        use rand::Rng;
        for seed in 0..20 {
            let mut rng = rng_for(seed, 0);
            let mut q = EventQueue::new(1 << 12);
            // (time, seq, event) of the events waiting, and the timers' (time, seq) per drive.
            let mut reference: Vec<(SimTime, u64, Event)> = Vec::new();
            let mut timers: Vec<Option<(SimTime, u64)>> = vec![None; 3];
            let mut seq = 0u64;
            let mut now = 0;
            for _ in 0..3000 {
                match rng.gen_range(0..10) {
                    0..=4 => {
                        // Few distinct instants: many ties.
                        let t = now + rng.gen_range(0..4) * 10;
                        let ev = match rng.gen_range(0..4) {
                            0 => Event::Arrival,
                            1 => Event::DieDone {
                                drive: rng.gen_range(0..3),
                                die: rng.gen_range(0..8),
                            },
                            2 => Event::TxnDone {
                                drive: rng.gen_range(0..3),
                                txn: rng.gen_range(0..100),
                            },
                            _ => Event::BufferDone(rng.gen_range(0..100)),
                        };
                        q.schedule(t, ev);
                        reference.push((t, seq, ev));
                        seq += 1;
                    }
                    5 => {
                        let d = rng.gen_range(0..3u16);
                        let t = now + rng.gen_range(0..4) * 10;
                        q.set_timer(d, t);
                        timers[d as usize] = Some((t, seq));
                        seq += 1;
                    }
                    6 => {
                        let d = rng.gen_range(0..3u16);
                        q.cancel_timer(d);
                        timers[d as usize] = None;
                    }
                    _ => {
                        let got = q.pop();
                        let first = reference.iter().map(|&(t, s, _)| (t, s)).min();
                        let want = first.map(|(t, s)| {
                            let timer = timers
                                .iter()
                                .enumerate()
                                .filter_map(|(d, x)| x.map(|(at, sq)| (at, sq, d)))
                                .min();
                            match timer {
                                Some((at, sq, d)) if (at, sq) < (t, s) => {
                                    timers[d] = None;
                                    (at, Event::Wake { drive: d as u16 })
                                }
                                _ => {
                                    let i = reference
                                        .iter()
                                        .position(|&(rt, rs, _)| (rt, rs) == (t, s))
                                        .expect("present");
                                    let (rt, _, ev) = reference.remove(i);
                                    (rt, ev)
                                }
                            }
                        });
                        assert_eq!(got, want, "seed {seed}");
                        if let Some((t, _)) = got {
                            now = t;
                        }
                    }
                }
                assert_eq!(q.len(), reference.len());
            }
        }
    }

    #[test]
    fn a_taken_root_is_not_counted_against_the_bound() {
        let mut q = EventQueue::new(2);
        q.schedule(1, Event::Arrival);
        q.schedule(2, Event::BufferDone(0));
        assert_eq!(q.pop(), Some((1, Event::Arrival)));
        assert_eq!(q.len(), 1);
        q.schedule(3, Event::BufferDone(1));
        assert_eq!(q.len(), 2);
        assert!(std::panic::catch_unwind(move || q.schedule(4, Event::Arrival)).is_err());
    }

    #[derive(Clone, Debug)]
    enum HeapOp {
        Push(SimTime),
        Pop,
        Peek,
    }

    fn heap_op() -> impl proptest::strategy::Strategy<Value = HeapOp> {
        use proptest::prelude::*;
        prop_oneof![
            3 => (0..6u64).prop_map(HeapOp::Push),
            2 => Just(HeapOp::Pop),
            1 => Just(HeapOp::Peek),
        ]
    }

    proptest::proptest! {
        /// Against `BinaryHeap`: any interleaving of pushes, pops and peeks (the pops leaving a
        /// hole that the next push fills or the next peek or pop removes) yields the same entries
        /// and the same count.
        #[test]
        fn heap_matches_binary_heap(ops in proptest::collection::vec(heap_op(), 0..300)) {
            use std::cmp::Reverse;
            use std::collections::BinaryHeap;
            let mut h = MinHeap::with_capacity(4);
            let mut reference = BinaryHeap::new();
            for (seq, op) in (0u64..).zip(ops) {
                match op {
                    HeapOp::Push(time) => {
                        h.push(Pending { time, seq, ev: Event::BufferDone(seq as u32) });
                        reference.push(Reverse((time, seq)));
                    }
                    HeapOp::Pop => {
                        h.settle();
                        let got = h.take_top().map(|p| (p.time, p.seq, p.ev));
                        let want = reference
                            .pop()
                            .map(|Reverse((t, s))| (t, s, Event::BufferDone(s as u32)));
                        proptest::prop_assert_eq!(got, want);
                    }
                    HeapOp::Peek => {
                        h.settle();
                        let got = h.peek().map(|p| (p.time, p.seq));
                        let want = reference.peek().map(|&Reverse(k)| k);
                        proptest::prop_assert_eq!(got, want);
                    }
                }
                proptest::prop_assert_eq!(h.len(), reference.len());
                proptest::prop_assert_eq!(h.is_empty(), reference.is_empty());
            }
            // What is left drains in order.
            let rest: Vec<_> = std::iter::from_fn(|| h.pop()).map(|p| (p.time, p.seq)).collect();
            let want: Vec<_> = reference.into_sorted_vec().into_iter().rev().map(|Reverse(k)| k).collect();
            proptest::prop_assert_eq!(rest, want);
        }

        /// The queue over the same interleavings: pops in `(time, seq)` order, `len` and
        /// `is_empty` counting only the events still waiting.
        #[test]
        fn queue_matches_binary_heap(ops in proptest::collection::vec(heap_op(), 0..300)) {
            use std::cmp::Reverse;
            use std::collections::BinaryHeap;
            let mut q = EventQueue::new(1 << 10);
            let mut reference = BinaryHeap::new();
            for (seq, op) in (0u64..).zip(ops) {
                match op {
                    HeapOp::Push(time) => {
                        q.schedule(time, Event::BufferDone(seq as u32));
                        reference.push(Reverse((time, seq)));
                    }
                    HeapOp::Pop | HeapOp::Peek => {
                        let want = reference
                            .pop()
                            .map(|Reverse((t, s))| (t, Event::BufferDone(s as u32)));
                        proptest::prop_assert_eq!(q.pop(), want);
                    }
                }
                proptest::prop_assert_eq!(q.len(), reference.len());
                proptest::prop_assert_eq!(q.is_empty(), reference.is_empty());
            }
        }
    }

    #[test]
    fn events_stay_small() {
        // The heap holds (time, seq, event): a drive index must not grow an event.
        assert_eq!(std::mem::size_of::<Event>(), 8);
    }
}
