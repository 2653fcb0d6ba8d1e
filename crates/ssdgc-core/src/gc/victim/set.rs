//! An indexable set of plane-local block indices with O(1) insert, remove and uniform sampling.
//!
//! The members live densely in a `Vec<u32>`; a position array maps each block to its slot (or
//! [`NIL`] when absent). Removal is a `swap_remove` that patches the position of the moved member.
//! Both arrays are sized once for the plane, so no operation allocates.

use rand::Rng;

use crate::rng::SimRng;

/// "No slot" / "no block" sentinel.
pub(crate) const NIL: u32 = u32::MAX;

/// The candidate bookkeeping of a policy that keeps its candidates in an [`IndexedSet`] field named
/// `set` and decides from the plane's view only when it picks: `on_full` adds the block,
/// `on_invalidate` has nothing to update, `len` counts the set.
macro_rules! candidates_in_set {
    () => {
        fn on_full(&mut self, block: u32, _view: &PlaneView<'_>) {
            let fresh = self.set.insert(block);
            debug_assert!(fresh, "block {block} already a candidate");
        }

        fn on_invalidate(&mut self, block: u32, _old_valid: u16, _view: &PlaneView<'_>) {
            debug_assert!(
                self.set.contains(block),
                "on_invalidate for non-candidate {block}"
            );
        }

        fn len(&self) -> usize {
            self.set.len()
        }

        /// The set's slot order: re-inserting in it rebuilds the same slots.
        fn rebuild_order(&self) -> Option<Vec<u32>> {
            Some(self.set.as_slice().to_vec())
        }
    };
}
pub(crate) use candidates_in_set;

/// A set of block indices `0..blocks` supporting O(1) insert, remove, membership and uniform
/// random choice.
#[derive(Clone, Debug)]
pub(crate) struct IndexedSet {
    items: Vec<u32>,
    pos: Vec<u32>,
}

impl IndexedSet {
    /// An empty set able to hold blocks `0..blocks`.
    pub(crate) fn new(blocks: u32) -> Self {
        Self {
            items: Vec::with_capacity(blocks as usize),
            pos: vec![NIL; blocks as usize],
        }
    }

    /// Number of members.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// True when there is no member.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// True when `block` is a member.
    #[inline]
    pub(crate) fn contains(&self, block: u32) -> bool {
        self.pos[block as usize] != NIL
    }

    /// The members, in slot order (insertion order perturbed by removals).
    #[inline]
    pub(crate) fn as_slice(&self) -> &[u32] {
        &self.items
    }

    /// The member in slot `slot`.
    #[inline]
    pub(crate) fn get(&self, slot: usize) -> u32 {
        self.items[slot]
    }

    /// Adds `block`; returns false (and changes nothing) when it was already a member.
    #[inline]
    pub(crate) fn insert(&mut self, block: u32) -> bool {
        if self.contains(block) {
            return false;
        }
        self.pos[block as usize] = self.items.len() as u32;
        self.items.push(block);
        true
    }

    /// Removes `block`; returns false when it was not a member.
    #[inline]
    pub(crate) fn remove(&mut self, block: u32) -> bool {
        let slot = self.pos[block as usize];
        if slot == NIL {
            return false;
        }
        self.remove_slot(slot as usize);
        true
    }

    /// Removes and returns the member in slot `slot`.
    #[inline]
    pub(crate) fn remove_slot(&mut self, slot: usize) -> u32 {
        let block = self.items.swap_remove(slot);
        self.pos[block as usize] = NIL;
        if let Some(&moved) = self.items.get(slot) {
            self.pos[moved as usize] = slot as u32;
        }
        block
    }

    /// Removes and returns the member with the best score, `None` when the set is empty. A score is
    /// the exact fraction `num / den` that `score(block)` gives (`den == 0` is `+∞`), compared by
    /// cross-multiplication; the lowest wins when `lowest`, else the highest. A block whose score
    /// is `None` is best outright and ends the scan. Ties go to the first member in slot order.
    pub(crate) fn take_best(
        &mut self,
        lowest: bool,
        mut score: impl FnMut(usize) -> Option<(u128, u128)>,
    ) -> Option<u32> {
        if self.items.is_empty() {
            return None;
        }
        let mut best_slot = usize::MAX;
        let (mut best_num, mut best_den) = (0u128, 1u128);
        for (slot, &block) in self.items.iter().enumerate() {
            let Some((num, den)) = score(block as usize) else {
                best_slot = slot;
                break;
            };
            let better = if lowest {
                num * best_den < best_num * den
            } else {
                num * best_den > best_num * den
            };
            if best_slot == usize::MAX || better {
                best_slot = slot;
                best_num = num;
                best_den = den;
            }
        }
        Some(self.remove_slot(best_slot))
    }

    /// A uniformly random slot; the set must not be empty.
    #[inline]
    pub(crate) fn random_slot(&self, rng: &mut SimRng) -> usize {
        debug_assert!(!self.items.is_empty());
        rng.gen_range(0..self.items.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::rng_for;

    #[test]
    fn insert_remove_keeps_positions_consistent() {
        let mut s = IndexedSet::new(10);
        for b in [3, 1, 4, 9, 5] {
            assert!(s.insert(b));
        }
        assert!(!s.insert(4));
        assert!(s.remove(1));
        assert!(!s.remove(1));
        assert!(!s.contains(1));
        for (slot, &b) in s.as_slice().iter().enumerate() {
            assert_eq!(s.pos[b as usize] as usize, slot);
        }
        let mut rng = rng_for(1, 2);
        while !s.is_empty() {
            let slot = s.random_slot(&mut rng);
            let b = s.remove_slot(slot);
            assert!(!s.contains(b));
        }
        assert_eq!(s.len(), 0);
    }
}
