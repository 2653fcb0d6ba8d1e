//! The optional host write buffer (preemptible-GC paper §V, Fig. 16): bookkeeping only.
//!
//! The buffer holds logical pages of the host's space (the array's, in an array of drives). A page is *dirty* while its newest data is only in the buffer,
//! and *in flight* while flushes of it to flash are queued or programming. It occupies one slot
//! from its first write until it is neither: a flushed page leaves the buffer when its program
//! completes, unless it was written again meanwhile (then it stays dirty and is flushed again).
//! Ordered maps keep every iteration deterministic.

use std::collections::BTreeMap;

/// A page of the host's logical space.
type Page = u64;

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    dirty: bool,
    in_flight: u32,
}

/// Pages held in the write buffer.
#[derive(Clone, Debug, Default)]
pub struct WriteBuffer {
    capacity: u64,
    pages: BTreeMap<Page, Entry>,
    /// Dirty pages.
    dirty: usize,
    /// Reads served from the buffer (pages).
    pub hits_read: u64,
    /// Host write requests acknowledged by the buffer.
    pub writes_absorbed: u64,
    /// Host write requests that did not fit and went to flash directly.
    pub writes_bypassed: u64,
    /// Pages written to flash by flushes.
    pub pages_flushed: u64,
}

impl WriteBuffer {
    /// A buffer of `capacity` pages (0: no buffer).
    pub fn new(capacity: u64) -> Self {
        WriteBuffer {
            capacity,
            ..WriteBuffer::default()
        }
    }

    /// True when the drive has a buffer.
    pub fn enabled(&self) -> bool {
        self.capacity > 0
    }

    /// Capacity in pages.
    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Pages occupying the buffer.
    pub fn len(&self) -> usize {
        self.pages.len()
    }

    /// True when the buffer holds nothing.
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }

    /// True when the page's data is in the buffer (dirty or being flushed).
    pub fn contains(&self, lpn: Page) -> bool {
        self.pages.contains_key(&lpn)
    }

    /// True when some page waits to be flushed.
    pub fn has_dirty(&self) -> bool {
        self.dirty > 0
    }

    /// Takes the pages `lpns` when they all fit (pages already held take no extra slot); false,
    /// and nothing changed, when they do not.
    pub fn try_insert(&mut self, lpns: impl Iterator<Item = Page> + Clone) -> bool {
        let mut new: Vec<Page> = lpns
            .clone()
            .filter(|l| !self.pages.contains_key(l))
            .collect();
        new.sort_unstable();
        new.dedup();
        if self.pages.len() as u64 + new.len() as u64 > self.capacity {
            return false;
        }
        for l in lpns {
            let e = self.pages.entry(l).or_default();
            if !e.dirty {
                e.dirty = true;
                self.dirty += 1;
            }
        }
        true
    }

    /// A write of `lpn` goes to flash directly: the buffered copy is superseded and no longer
    /// needs flushing (a flush already in flight completes, and the direct write lands after it).
    pub fn supersede(&mut self, lpn: Page) {
        if let Some(e) = self.pages.get_mut(&lpn) {
            if e.dirty {
                e.dirty = false;
                self.dirty -= 1;
            }
            if e.in_flight == 0 {
                self.pages.remove(&lpn);
            }
        }
    }

    /// Marks every dirty page in flight and returns them, in page order.
    pub fn take_dirty(&mut self) -> Vec<Page> {
        let mut out = Vec::with_capacity(self.dirty);
        self.dirty = 0;
        for (&l, e) in self.pages.iter_mut() {
            if e.dirty {
                e.dirty = false;
                e.in_flight += 1;
                out.push(l);
            }
        }
        out
    }

    /// A flush of `lpn` has been programmed; the page leaves the buffer unless written again.
    pub fn flushed(&mut self, lpn: Page) {
        self.pages_flushed += 1;
        if let Some(e) = self.pages.get_mut(&lpn) {
            e.in_flight = e.in_flight.saturating_sub(1);
            if e.in_flight == 0 && !e.dirty {
                self.pages.remove(&lpn);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overwrites_take_no_space_and_flushes_free_it() {
        let mut b = WriteBuffer::new(2);
        assert!(b.try_insert([1, 2].into_iter()));
        assert!(b.try_insert([2, 1].into_iter()));
        assert!(!b.try_insert([3].into_iter()));
        assert_eq!(b.len(), 2);
        assert_eq!(b.take_dirty(), vec![1, 2]);
        assert!(!b.has_dirty());
        // Written again while in flight: stays, dirty.
        assert!(b.try_insert([2].into_iter()));
        b.flushed(1);
        b.flushed(2);
        assert_eq!(b.len(), 1);
        assert!(b.contains(2) && !b.contains(1));
        assert_eq!(b.take_dirty(), vec![2]);
        b.flushed(2);
        assert!(b.is_empty());
        assert_eq!(b.pages_flushed, 3);
    }

    #[test]
    fn superseded_pages_leave_unless_in_flight() {
        let mut b = WriteBuffer::new(4);
        assert!(b.try_insert([1, 2].into_iter()));
        assert_eq!(b.take_dirty(), vec![1, 2]);
        assert!(b.try_insert([3].into_iter()));
        b.supersede(3);
        b.supersede(1);
        assert!(!b.contains(3) && b.contains(1));
        b.flushed(1);
        b.flushed(2);
        assert!(b.is_empty());
    }
}
