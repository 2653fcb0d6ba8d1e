//! `fifo`: free blocks are handed out in the order they were freed (the default).
//!
//! A plane's blocks start in the pool in block order `0, 1, …`; a write point takes the block at the
//! front and an erased block joins at the back. Every block cycles through the pool in turn, which
//! levels wear only as far as victim choice lets blocks return; erase counts play no part. Nothing
//! here comes from one of the papers: it is the plain free list of most simulators.
//!
//! When not to use it: to study wear levelling through block allocation, or the practical-GC
//! paper's hot/cold placement (§III-C), which needs free blocks ordered by erase count
//! ([`super::by_age`]); with this pool every stream takes the front, whatever `ftl.hot_to` says.

use std::collections::VecDeque;

/// A first-in first-out free list.
#[derive(Clone, Debug, Default)]
pub struct Fifo {
    blocks: VecDeque<u32>,
}

impl Fifo {
    /// A pool holding `blocks` in that order.
    pub fn new(blocks: impl IntoIterator<Item = u32>) -> Fifo {
        Fifo {
            blocks: blocks.into_iter().collect(),
        }
    }

    /// Takes the block freed longest ago.
    #[inline]
    pub fn take(&mut self) -> Option<u32> {
        self.blocks.pop_front()
    }

    /// Returns a block to the pool, behind every block already there.
    #[inline]
    pub fn put(&mut self, block: u32) {
        self.blocks.push_back(block);
    }

    /// Blocks in the pool.
    #[inline]
    pub fn len(&self) -> usize {
        self.blocks.len()
    }

    /// True when the pool is empty.
    pub fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// The blocks in the order they will be handed out.
    pub fn blocks(&self) -> impl Iterator<Item = u32> + '_ {
        self.blocks.iter().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_freed_first_out() {
        let mut p = Fifo::new(0..3);
        assert_eq!(p.take(), Some(0));
        p.put(7);
        assert_eq!(p.len(), 3);
        assert_eq!(p.blocks().collect::<Vec<_>>(), [1, 2, 7]);
        assert_eq!(
            (p.take(), p.take(), p.take(), p.take()),
            (Some(1), Some(2), Some(7), None)
        );
        assert!(p.is_empty());
    }
}
