//! `youngest` and `oldest`: free blocks kept in erase-count order, handed out youngest-first or
//! oldest-first.
//!
//! The practical-GC paper (§III-C, Fig. 3) keeps a plane's free blocks "grouped by erase count":
//! one list per erase count, the lists in ascending order, so that the youngest block (fewest
//! erases) and the oldest (most) are both at hand — GC copies hot pages to one end and cold pages to
//! the other to even out wear. This pool is that structure: one bucket per erase count between the
//! youngest and the oldest free block, each bucket a first-in first-out list threaded through the
//! plane's blocks (`next`), the buckets in a deque so that the first and the last are non-empty.
//!
//! Cost: the youngest and the oldest block are at the head of the first and last bucket, O(1).
//! Taking the last block of an end bucket drops the empty buckets behind it, and returning a block
//! younger or older than every free block adds the empty buckets in between: both are bounded by the
//! spread of erase counts among the free blocks, small when wear is level (the paper's argument for
//! the lists, §III-C). Within one erase count blocks leave in the order they came (FIFO), so the
//! choice is deterministic. Nothing allocates once the deque has grown to the spread.
//!
//! When not to use it: to reproduce a simulator or paper that hands out free blocks in plain FIFO
//! order (the PaGC, preemptible-GC and AGC/DGC set-ups do not order free blocks by wear): use
//! [`super::fifo`]. `youngest` evens wear at allocation; `oldest` is the opposite and mostly useful
//! as the other end for a stream (`ftl.hot_to`).

use std::collections::VecDeque;

const NONE: u32 = u32::MAX;

/// One erase count's free blocks, oldest-freed at the head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bucket {
    head: u32,
    tail: u32,
}

const EMPTY: Bucket = Bucket {
    head: NONE,
    tail: NONE,
};

/// Free blocks bucketed by erase count.
#[derive(Clone, Debug)]
pub struct ByAge {
    /// Next block in the same bucket, per plane-local block.
    next: Vec<u32>,
    /// Buckets for erase counts `lo, lo + 1, …`; the first and the last are non-empty unless the
    /// pool is empty (then there are none).
    buckets: VecDeque<Bucket>,
    /// Erase count of `buckets[0]`.
    lo: u32,
    len: usize,
}

impl ByAge {
    /// An empty pool for a plane of `blocks_per_plane` blocks.
    pub fn new(blocks_per_plane: u32) -> ByAge {
        ByAge {
            next: vec![NONE; blocks_per_plane as usize],
            buckets: VecDeque::new(),
            lo: 0,
            len: 0,
        }
    }

    /// Adds a free block with `erase_count` erases, behind the blocks of the same erase count.
    pub fn put(&mut self, block: u32, erase_count: u32) {
        if self.buckets.is_empty() {
            self.lo = erase_count;
            self.buckets.push_back(EMPTY);
        }
        while erase_count < self.lo {
            self.buckets.push_front(EMPTY);
            self.lo -= 1;
        }
        let i = (erase_count - self.lo) as usize;
        while self.buckets.len() <= i {
            self.buckets.push_back(EMPTY);
        }
        self.next[block as usize] = NONE;
        let b = &mut self.buckets[i];
        if b.head == NONE {
            *b = Bucket {
                head: block,
                tail: block,
            };
        } else {
            self.next[b.tail as usize] = block;
            b.tail = block;
        }
        self.len += 1;
    }

    /// Takes a block with the fewest erases (the one freed first among them).
    #[inline]
    pub fn take_youngest(&mut self) -> Option<u32> {
        let b = self.pop_head(0)?;
        while self.buckets.front().is_some_and(|b| b.head == NONE) {
            self.buckets.pop_front();
            self.lo += 1;
        }
        Some(b)
    }

    /// Takes a block with the most erases (the one freed first among them).
    #[inline]
    pub fn take_oldest(&mut self) -> Option<u32> {
        let last = self.buckets.len().checked_sub(1)?;
        let b = self.pop_head(last)?;
        while self.buckets.back().is_some_and(|b| b.head == NONE) {
            self.buckets.pop_back();
        }
        Some(b)
    }

    #[inline]
    fn pop_head(&mut self, i: usize) -> Option<u32> {
        let b = self.buckets.get_mut(i)?;
        let block = b.head;
        debug_assert_ne!(block, NONE, "an end bucket is never empty");
        b.head = self.next[block as usize];
        if b.head == NONE {
            b.tail = NONE;
        }
        self.len -= 1;
        Some(block)
    }

    /// Blocks in the pool.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the pool is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Erase counts of the youngest and the oldest free block.
    pub fn span(&self) -> Option<(u32, u32)> {
        (!self.buckets.is_empty()).then(|| (self.lo, self.lo + self.buckets.len() as u32 - 1))
    }

    /// Every free block with the erase count of its bucket, youngest bucket first.
    pub fn blocks(&self) -> Vec<(u32, u32)> {
        let mut out = Vec::with_capacity(self.len);
        for (i, b) in self.buckets.iter().enumerate() {
            let mut x = b.head;
            while x != NONE && out.len() <= self.len {
                out.push((x, self.lo + i as u32));
                x = self.next[x as usize];
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ends_are_youngest_and_oldest_with_fifo_ties() {
        let mut p = ByAge::new(8);
        for (b, ec) in [(0, 3), (1, 1), (2, 5), (3, 1), (4, 5)] {
            p.put(b, ec);
        }
        assert_eq!(p.span(), Some((1, 5)));
        assert_eq!(p.take_youngest(), Some(1));
        assert_eq!(p.take_oldest(), Some(2));
        assert_eq!(p.take_oldest(), Some(4));
        assert_eq!(p.span(), Some((1, 3)));
        assert_eq!(p.take_oldest(), Some(0));
        assert_eq!(p.take_oldest(), Some(3));
        assert_eq!(
            (p.take_youngest(), p.take_oldest(), p.span()),
            (None, None, None)
        );
        p.put(5, 9);
        assert_eq!(p.blocks(), [(5, 9)]);
    }

    #[derive(Clone, Debug)]
    enum Op {
        /// Put the `n`-th block not in the pool, with this erase count.
        Put(usize, u32),
        Youngest,
        Oldest,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            3 => (any::<usize>(), 0u32..40).prop_map(|(n, e)| Op::Put(n, e)),
            1 => Just(Op::Youngest),
            1 => Just(Op::Oldest),
        ]
    }

    proptest! {
        /// Against a sorted reference: the pool always hands out the youngest (or oldest) block,
        /// the one freed first among equals.
        #[test]
        fn always_hands_out_the_youngest_or_oldest(ops in proptest::collection::vec(op(), 1..400)) {
            const BLOCKS: u32 = 16;
            let mut pool = ByAge::new(BLOCKS);
            // (erase count, arrival sequence, block), kept sorted.
            let mut model: Vec<(u32, u64, u32)> = Vec::new();
            let mut seq = 0u64;
            for op in ops {
                match op {
                    Op::Put(n, ec) => {
                        let out: Vec<u32> = (0..BLOCKS)
                            .filter(|b| !model.iter().any(|m| m.2 == *b))
                            .collect();
                        if out.is_empty() {
                            continue;
                        }
                        let b = out[n % out.len()];
                        pool.put(b, ec);
                        seq += 1;
                        model.push((ec, seq, b));
                        model.sort_unstable();
                    }
                    Op::Youngest => {
                        let want = (!model.is_empty()).then(|| model.remove(0).2);
                        prop_assert_eq!(pool.take_youngest(), want);
                    }
                    Op::Oldest => {
                        let oldest = model.last().map(|m| m.0);
                        let want = oldest.map(|ec| {
                            let i = model.iter().position(|m| m.0 == ec).expect("present");
                            model.remove(i).2
                        });
                        prop_assert_eq!(pool.take_oldest(), want);
                    }
                }
                prop_assert_eq!(pool.len(), model.len());
                let span = (!model.is_empty())
                    .then(|| (model[0].0, model[model.len() - 1].0));
                prop_assert_eq!(pool.span(), span);
                let mut listed = pool.blocks();
                listed.sort_unstable_by_key(|&(b, ec)| (ec, b));
                let mut expected: Vec<(u32, u32)> = model.iter().map(|m| (m.2, m.0)).collect();
                expected.sort_unstable_by_key(|&(b, ec)| (ec, b));
                prop_assert_eq!(listed, expected);
            }
        }
    }
}
