//! Free-pool order: which free block of a plane a write point gets when it opens a new block
//! (`ftl.pool`).
//!
//! | value | order | file |
//! |---|---|---|
//! | `fifo` (default) | the block freed longest ago | [`fifo`] |
//! | `youngest` | fewest erases first (ties: freed first) | [`by_age`] |
//! | `oldest` | most erases first (ties: freed first) | [`by_age`] |
//!
//! Each write stream also says which end of the pool its blocks come from ([`Take`]): the pool's own
//! order, or explicitly the youngest or the oldest block (the practical-GC paper's hot and cold
//! streams, §III-C). An erase-ordered pool serves both ends in O(1); the FIFO pool has no ends and
//! serves every stream from its front.

pub mod by_age;
pub mod fifo;

pub use by_age::ByAge;
pub use fifo::Fifo;

crate::keyword::keyword_enum!(
    /// The order in which a plane's free pool hands out blocks (`ftl.pool`).
    #[derive(Default)]
    PoolOrder, "ftl.pool", {
        /// First freed, first out.
        #[default]
        Fifo = "fifo",
        /// Fewest erases first.
        Youngest = "youngest",
        /// Most erases first.
        Oldest = "oldest",
    }
);

/// Which block a stream takes from its plane's free pool when its write point opens a block.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Take {
    /// The next block in the pool's order (`ftl.pool`).
    #[default]
    Pool,
    /// The youngest block (fewest erases), whatever the pool's order; the front of a FIFO pool.
    Youngest,
    /// The oldest block (most erases), whatever the pool's order; the front of a FIFO pool.
    Oldest,
}

/// One plane's free blocks, in the configured order.
#[derive(Clone, Debug)]
pub enum FreePool {
    /// `fifo`.
    Fifo(Fifo),
    /// `youngest` (`oldest == false`) or `oldest`.
    ByAge { pool: ByAge, oldest: bool },
}

impl FreePool {
    /// A pool of the given order holding every block of a fresh plane (`0..blocks_per_plane`, all
    /// with no erase), handed out in block order.
    pub fn new(order: PoolOrder, blocks_per_plane: u32) -> FreePool {
        match order {
            PoolOrder::Fifo => FreePool::Fifo(Fifo::new(0..blocks_per_plane)),
            PoolOrder::Youngest | PoolOrder::Oldest => {
                let mut pool = ByAge::new(blocks_per_plane);
                for b in 0..blocks_per_plane {
                    pool.put(b, 0);
                }
                FreePool::ByAge {
                    pool,
                    oldest: order == PoolOrder::Oldest,
                }
            }
        }
    }

    /// Takes a block for a stream that takes `take`.
    #[inline]
    pub fn take(&mut self, take: Take) -> Option<u32> {
        match self {
            FreePool::Fifo(f) => f.take(),
            FreePool::ByAge { pool, oldest } => match take {
                Take::Youngest => pool.take_youngest(),
                Take::Oldest => pool.take_oldest(),
                Take::Pool if *oldest => pool.take_oldest(),
                Take::Pool => pool.take_youngest(),
            },
        }
    }

    /// Returns an erased block that has now been erased `erase_count` times.
    #[inline]
    pub fn put(&mut self, block: u32, erase_count: u32) {
        match self {
            FreePool::Fifo(f) => f.put(block),
            FreePool::ByAge { pool, .. } => pool.put(block, erase_count),
        }
    }

    /// Blocks in the pool.
    #[inline]
    pub fn len(&self) -> usize {
        match self {
            FreePool::Fifo(f) => f.len(),
            FreePool::ByAge { pool, .. } => pool.len(),
        }
    }

    /// True when the pool is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Checks the pool against the plane's erase counts: each block at most once, and (erase-ordered
    /// pools) filed under its erase count. Returns the blocks.
    pub fn check(&self, erase_count: &[u32]) -> Result<Vec<u32>, String> {
        let listed: Vec<(u32, Option<u32>)> = match self {
            FreePool::Fifo(f) => f.blocks().map(|b| (b, None)).collect(),
            FreePool::ByAge { pool, .. } => pool
                .blocks()
                .into_iter()
                .map(|(b, e)| (b, Some(e)))
                .collect(),
        };
        if listed.len() != self.len() {
            return Err(format!(
                "the free pool lists {} blocks but counts {}",
                listed.len(),
                self.len()
            ));
        }
        let mut seen = vec![false; erase_count.len()];
        for &(b, filed) in &listed {
            let Some(s) = seen.get_mut(b as usize) else {
                return Err(format!("the free pool holds out-of-range block {b}"));
            };
            if std::mem::replace(s, true) {
                return Err(format!("block {b} is in the free pool twice"));
            }
            if let Some(e) = filed.filter(|&e| e != erase_count[b as usize]) {
                return Err(format!(
                    "block {b} is filed under {e} erases but has {}",
                    erase_count[b as usize]
                ));
            }
        }
        Ok(listed.into_iter().map(|(b, _)| b).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_parse_and_print() {
        for &o in PoolOrder::ALL {
            assert_eq!(o.name().parse::<PoolOrder>(), Ok(o));
        }
        assert!("lifo"
            .parse::<PoolOrder>()
            .unwrap_err()
            .contains("fifo, youngest, oldest"));
    }

    #[test]
    fn a_fresh_pool_hands_out_blocks_in_order_whatever_its_order() {
        for &o in PoolOrder::ALL {
            let mut p = FreePool::new(o, 4);
            let got: Vec<_> = std::iter::from_fn(|| p.take(Take::Pool)).collect();
            assert_eq!(got, [0, 1, 2, 3], "{o}");
        }
    }

    #[test]
    fn streams_take_their_end_of_an_erase_ordered_pool() {
        let mut p = FreePool::ByAge {
            pool: ByAge::new(3),
            oldest: false,
        };
        let erases = [4, 1, 7];
        for (b, &e) in erases.iter().enumerate() {
            p.put(b as u32, e);
        }
        assert_eq!(p.check(&erases).map(|v| v.len()), Ok(3));
        assert_eq!(p.take(Take::Oldest), Some(2));
        assert_eq!(p.take(Take::Pool), Some(1));
        assert_eq!(p.take(Take::Youngest), Some(0));
        let mut f = FreePool::new(PoolOrder::Fifo, 2);
        assert_eq!(f.take(Take::Oldest), Some(0));
    }
}
