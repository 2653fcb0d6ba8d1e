//! Reading a workload ahead: the next few records held in order, so that the front end can ask a
//! drive to fetch the mapping entries they will touch before they are served.
//!
//! On a drive whose L2P and P2L tables are far larger than the CPU's caches, a host write's first
//! access to its L2P entry, and then to the P2L entry and block counts of the page it supersedes,
//! are memory misses one after the other; when the write's die is idle they are taken as soon as
//! the write is queued, with nothing to overlap them. Held [`READ_AHEAD`] records ahead, the L2P
//! entry of a record is requested when it enters the window, and half a window later the entries
//! of the page it supersedes (its P2L entry, its block's counts and the block's victim-index
//! entry), so all are in the cache when the record is served. Only drives of at least
//! [`READ_AHEAD_MIN_PAGES`] logical pages read ahead: on smaller ones the tables stay in the cache.
//! (Not to be confused with the AGC/DGC schemes' look-ahead, which tells a drive of the next
//! command's arrival and does change results.)
//!
//! The records, their order, and the point where a malformed record's error surfaces are those of
//! the workload read without it: [`Ahead::next`] returns exactly what the source would have, one
//! call after another (an error is held until the records before it have been returned). Only
//! the time at which the source is read changes.

use ssdgc_workload::{IoRecord, Op, WorkloadError};

/// Records held ahead of the one being issued.
pub(crate) const READ_AHEAD: usize = 8;

/// Logical pages from which a drive's workload is read ahead: an L2P table of 1 MiB (4-byte
/// entries), which with its P2L table is beyond a core's own (L2) cache. On a smaller drive the
/// tables stay in that cache and the window would only add instructions. Above it the window
/// costs about 80 instructions a request (the 16-plane benchmark drive), and its hints save more
/// than that whenever the tables' cache lines come from the shared cache or memory.
pub(crate) const READ_AHEAD_MIN_PAGES: u64 = 1 << 18;

/// Slots of the window's buffer: eight times [`READ_AHEAD`], so that a generator refills it in
/// batches of at least seven times [`READ_AHEAD`] records (each batch moves the held records to
/// the buffer's front first).
const SLOTS: usize = 8 * READ_AHEAD;

const EMPTY: IoRecord = IoRecord {
    time_ns: 0,
    op: Op::Read,
    offset: 0,
    len: 0,
};

/// The window of records read ahead of a workload's consumer.
pub(crate) struct Ahead {
    /// Records read from the source and not yet returned: `buf[head..head + len]`, oldest first.
    buf: [IoRecord; SLOTS],
    head: usize,
    len: usize,
    /// Records to hold ahead (0: off, every call reads the source).
    depth: usize,
    /// What the source returned after the last record held, when it returned no record:
    /// `Some(None)` at its end, `Some(Some(e))` for a malformed record; returned once every held
    /// record has been.
    end: Option<Option<WorkloadError>>,
}

impl Default for Ahead {
    fn default() -> Ahead {
        Ahead::new(0)
    }
}

impl Ahead {
    /// A window of `depth` records (0: off; at most [`READ_AHEAD`]).
    pub(crate) fn new(depth: usize) -> Ahead {
        assert!(depth <= READ_AHEAD, "read-ahead window");
        Ahead {
            buf: [EMPTY; SLOTS],
            head: 0,
            len: 0,
            depth,
            end: None,
        }
    }

    /// True when records are read ahead.
    #[inline(always)]
    pub(crate) fn on(&self) -> bool {
        self.depth > 0
    }

    /// Holds `depth` records ahead from now on (at most [`READ_AHEAD`]), keeping those held.
    pub(crate) fn deepen(&mut self, depth: usize) {
        assert!(depth <= READ_AHEAD, "read-ahead window");
        self.depth = self.depth.max(depth);
    }

    /// The oldest held record when the window holds more than its depth, so that no top-up is
    /// due: what [`Ahead::next`] and [`Ahead::next_filled`] would return, without asking the
    /// source (`None`: ask them).
    #[inline(always)]
    pub(crate) fn pop_held(&mut self) -> Option<IoRecord> {
        if self.len > self.depth {
            self.pop()
        } else {
            None
        }
    }

    /// True when the window holds no more than its depth and the source has more to give.
    #[inline(always)]
    fn short(&self) -> bool {
        self.len <= self.depth && self.end.is_none()
    }

    /// Moves the held records to the front of the buffer, making room behind them.
    #[inline(always)]
    fn compact(&mut self) {
        self.buf.copy_within(self.head..self.head + self.len, 0);
        self.head = 0;
    }

    /// The next record: the oldest held one, after topping the window up from `pull` (the
    /// source's own next, one record at a time), or what the source returned after its last
    /// record.
    pub(crate) fn next(
        &mut self,
        mut pull: impl FnMut() -> Option<Result<IoRecord, WorkloadError>>,
    ) -> Option<Result<IoRecord, WorkloadError>> {
        while self.short() {
            match pull() {
                Some(Ok(r)) => {
                    if self.head + self.len == SLOTS {
                        self.compact();
                    }
                    self.buf[self.head + self.len] = r;
                    self.len += 1;
                }
                Some(Err(e)) => self.end = Some(Some(e)),
                None => self.end = Some(None),
            }
        }
        match self.pop() {
            Some(r) => Some(Ok(r)),
            // After an error the source is read again, as it would have been without the window.
            None => self.end.take().and_then(|e| e.map(Err)),
        }
    }

    /// [`Ahead::next`] for a source that cannot fail and fills a slice at once (a generator,
    /// [`ssdgc_workload::synthetic::Synthetic::fill`]): when the window runs short, the buffer
    /// behind the held records is filled in one call. (With a depth of 0 too: the generator is
    /// then read in batches, not ahead.)
    pub(crate) fn next_filled(
        &mut self,
        fill: impl FnOnce(&mut [IoRecord]) -> usize,
    ) -> Option<Result<IoRecord, WorkloadError>> {
        if self.short() {
            self.compact();
            let room = &mut self.buf[self.len..];
            let n = fill(room);
            if n < room.len() {
                self.end = Some(None);
            }
            self.len += n;
        }
        self.pop().map(Ok)
    }

    #[inline(always)]
    fn pop(&mut self) -> Option<IoRecord> {
        (self.len > 0).then(|| {
            // (`head` is below `SLOTS`: the remainder is `head`, and no bounds check is needed.)
            let r = self.buf[self.head % SLOTS];
            self.head += 1;
            self.len -= 1;
            r
        })
    }

    /// The record `k + 1` calls of [`Ahead::next`] from now will return, if it is held.
    #[inline(always)]
    pub(crate) fn peek(&self, k: usize) -> Option<&IoRecord> {
        (k < self.len).then(|| &self.buf[self.head + k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(i: u64) -> IoRecord {
        IoRecord {
            time_ns: i,
            op: Op::Write,
            offset: i * 4096,
            len: 4096,
        }
    }

    /// A source of `n` records, an error in place of each index in `bad`.
    fn source(n: u64, bad: &[u64]) -> impl FnMut() -> Option<Result<IoRecord, WorkloadError>> {
        let bad = bad.to_vec();
        let mut i = 0;
        move || {
            if i >= n {
                return None;
            }
            i += 1;
            Some(if bad.contains(&(i - 1)) {
                Err(WorkloadError::new("t.csv", i, "bad"))
            } else {
                Ok(rec(i - 1))
            })
        }
    }

    fn drain(
        mut next: impl FnMut() -> Option<Result<IoRecord, WorkloadError>>,
        calls: usize,
    ) -> Vec<Option<Result<IoRecord, String>>> {
        (0..calls)
            .map(|_| next().map(|r| r.map_err(|e| e.to_string())))
            .collect()
    }

    #[test]
    fn returns_what_the_source_returns_in_order() {
        for depth in [0, 1, 3, READ_AHEAD] {
            for (n, bad) in [
                (0, vec![]),
                (5, vec![]),
                (30, vec![]),
                (30, vec![0]),
                (30, vec![7, 8, 29]),
            ] {
                let mut src = source(n, &bad);
                let plain = drain(&mut src, 40);
                let mut a = Ahead::new(depth);
                let mut src = source(n, &bad);
                let ahead = drain(|| a.next(&mut src), 40);
                assert_eq!(plain, ahead, "depth {depth}, {n} records, bad {bad:?}");
            }
        }
    }

    #[test]
    fn a_generator_read_ahead_gives_its_records_in_order() {
        for depth in [1, 3, READ_AHEAD] {
            for n in [0u64, 1, 7, 8, 9, 16, 17, 100] {
                let mut a = Ahead::new(depth);
                let mut i = 0u64;
                let mut got = Vec::new();
                for _ in 0..n + 3 {
                    let r = a.next_filled(|out: &mut [IoRecord]| {
                        let k = out.len().min((n - i) as usize);
                        for slot in &mut out[..k] {
                            *slot = rec(i);
                            i += 1;
                        }
                        k
                    });
                    if r.is_some() && i < n {
                        assert!(a.len >= depth, "the window holds its depth");
                    }
                    got.push(r.map(|r| r.unwrap()));
                }
                let want: Vec<_> = (0..n + 3).map(|i| (i < n).then(|| rec(i))).collect();
                assert_eq!(got, want, "depth {depth}, {n} records");
            }
        }
    }

    #[test]
    fn peek_is_a_later_record() {
        let mut a = Ahead::new(READ_AHEAD);
        let mut src = source(100, &[]);
        let mut seen = Vec::new();
        let mut peeked = Vec::new();
        while let Some(Ok(r)) = a.next(&mut src) {
            seen.push(r);
            peeked.push(a.peek(READ_AHEAD - 1).copied());
        }
        for (i, p) in peeked.iter().enumerate() {
            assert_eq!(*p, seen.get(i + READ_AHEAD).copied(), "after record {i}");
        }
        assert_eq!(seen.len(), 100);
    }

    /// A generator read through its workload, in batches and (from some record on) ahead: the
    /// generator's records in order, then the end; the records peeked are the later ones.
    #[test]
    fn a_workload_gives_its_generators_records_in_batches() {
        use crate::host::Workload;
        use ssdgc_workload::synthetic::Synthetic;

        let logical = 1u64 << 30;
        for spec in [
            "count=100,read=0.3,size=4KiB",
            "count=100,read=0.5,size=exp:16KiB,interarrival=exp:1ms,seq=0.3",
            "count=3",
        ] {
            let seed = rand_core::RngCore::next_u64(&mut crate::rng::rng_for(9, 3));
            let want: Vec<IoRecord> =
                Synthetic::new(&spec.parse().unwrap(), logical, seed).collect();
            for ahead_from in [None, Some(0), Some(1), Some(17), Some(95)] {
                let mut w = Workload::synthetic(spec, logical, 9).unwrap();
                let mut got = Vec::new();
                for i in 0..want.len() + 3 {
                    if ahead_from == Some(i) {
                        w.read_ahead(READ_AHEAD);
                    }
                    if ahead_from.is_some_and(|a| i > a) {
                        for k in 0..READ_AHEAD {
                            if let Some(r) = w.peek(k) {
                                assert_eq!(Some(r), want.get(i + k), "{spec}: peek {k} at {i}");
                            }
                        }
                    }
                    if let Some(r) = w.next_record() {
                        got.push(r.unwrap());
                    }
                }
                assert_eq!(got, want, "{spec}, ahead from {ahead_from:?}");
                assert_eq!(w.stats().records, want.len() as u64);
            }
        }
    }

    /// A run's report is the same with the workload read ahead and without (closed and open
    /// loop, writes and reads, a generator and records in memory), on a drive with GC at work.
    #[test]
    fn a_run_reads_ahead_without_changing_its_report() {
        use crate::config::ConfigBuilder;
        use crate::host::{ReplayMode, Workload};
        use crate::sim::{RunOptions, Simulator};

        let mut b = ConfigBuilder::preset("default").unwrap();
        for s in [
            "geometry.channels=2",
            "geometry.chips_per_channel=1",
            "geometry.planes_per_die=2",
            "geometry.blocks_per_plane=64",
            "geometry.pages_per_block=32",
            "precondition.mode=steady",
        ] {
            b.set(s).unwrap();
        }
        let cfg = b.build().unwrap();
        let logical = crate::flash::Geometry::new(&cfg).logical_bytes();
        let mut source = Workload::synthetic(
            "count=3000,read=0.3,size=4KiB,interarrival=50us",
            logical,
            7,
        )
        .unwrap();
        let records: Vec<IoRecord> =
            std::iter::from_fn(|| source.next_record().map(Result::unwrap)).collect();
        assert_eq!(records.len(), 3000);
        let workloads: Vec<Box<dyn Fn() -> Workload>> = vec![
            Box::new(|| {
                Workload::synthetic(
                    "count=20000,read=0.2,size=4KiB,interarrival=0,qd=32",
                    logical,
                    3,
                )
                .unwrap()
            }),
            Box::new(|| {
                Workload::synthetic(
                    "count=5000,read=0.5,size=8KiB,interarrival=20us",
                    logical,
                    5,
                )
                .unwrap()
            }),
            Box::new(move || {
                Workload::from_records(records.clone(), ReplayMode::ClosedLoop(8), "records")
            }),
        ];
        for (i, make) in workloads.iter().enumerate() {
            let run = |ahead: bool| {
                let opts = RunOptions::from_config(&cfg, 11).unwrap();
                let mut sim = Simulator::new(&cfg, make(), opts).unwrap();
                if ahead {
                    assert!(sim.force_read_ahead(), "the direct path reads ahead");
                }
                let mut r = sim.run().unwrap();
                r.sim.wall_s = 0.0;
                r
            };
            let (plain, ahead) = (run(false), run(true));
            assert!(plain.gc.invocations > 0, "workload {i}: GC at work");
            assert_eq!(plain.to_json(), ahead.to_json(), "workload {i}");
        }
    }
}
