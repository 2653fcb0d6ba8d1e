//! The storage of the page-mapped FTL's two big tables (L2P and P2L): one `u32` per page, accessed
//! at random on every host write and every GC move.
//!
//! On a large drive nearly every access misses the cache, and with 4 KiB memory pages the TLB as
//! well: a 64-plane drive of 33.5 M pages has 256 MiB of tables, 65,536 memory pages, far beyond
//! any TLB. A table of at least [`HUGE_MIN_BYTES`] is therefore an anonymous memory mapping
//! advised for transparent huge pages (`madvise(MADV_HUGEPAGE)`, Linux): with 2 MiB pages the same
//! tables span 128 pages, which the second-level TLB holds. Where that is not available (another
//! system, a small table, a mapping that fails) the table is an ordinary vector. Either way it is a
//! plain `[u32]` to the FTL, and its contents are the same: only where the memory comes from
//! differs, never a result.

use std::ops::{Deref, DerefMut};

use prefetch_index::prefetch_index;

/// Tables smaller than this stay on the heap (a huge page is 2 MiB).
pub const HUGE_MIN_BYTES: usize = 2 << 20;

/// A table of `u32` entries, on huge pages when it is large ([`PageTable::filled`]).
pub enum PageTable {
    Heap(Vec<u32>),
    #[cfg(target_os = "linux")]
    Mapped(memmap2::MmapMut),
}

impl PageTable {
    /// A table of `len` entries, each `value`.
    pub fn filled(len: usize, value: u32) -> PageTable {
        #[cfg(target_os = "linux")]
        if len.saturating_mul(4) >= HUGE_MIN_BYTES {
            if let Some(t) = Self::mapped(len, value) {
                return t;
            }
        }
        PageTable::Heap(vec![value; len])
    }

    /// An anonymous mapping of `len` entries advised for huge pages, each `value`; `None` when
    /// the mapping cannot be made (the caller falls back to the heap). The advice is a hint: a
    /// kernel that declines it leaves 4 KiB pages.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, value: u32) -> Option<PageTable> {
        let m = memmap2::MmapMut::map_anon(len.checked_mul(4)?).ok()?;
        // Advised before the first touch, so that the pages are faulted in as huge pages.
        let _ = m.advise(memmap2::Advice::HugePage);
        let mut t = PageTable::Mapped(m);
        t.fill(value);
        Some(t)
    }

    /// True when the table lives in a mapping advised for huge pages.
    pub fn is_mapped(&self) -> bool {
        !matches!(self, PageTable::Heap(_))
    }
}

/// One entry as the hot paths view it ([`PageTable::view`]): its `u32` value in native byte
/// order, as 4 bytes. Bytes need no alignment, so a mapping viewed as entries of this type costs no
/// check but the division of its length, where a `[u32]` view of it checks the alignment and the
/// length each time it is taken.
type Raw = [u8; 4];

/// The entries of a table, read-only, for a hot path ([`PageTable::view`]); each index is checked
/// as a slice's.
#[derive(Clone, Copy)]
pub struct View<'a>(&'a [Raw]);

/// The entries of a table, for a hot path that writes them ([`PageTable::view_mut`]); each index
/// is checked as a slice's.
pub struct ViewMut<'a>(&'a mut [Raw]);

impl<'a> View<'a> {
    /// Entry `i`, or `None` beyond the table.
    #[inline(always)]
    pub fn get(self, i: usize) -> Option<u32> {
        self.0.get(i).map(|&r| u32::from_ne_bytes(r))
    }

    /// Asks the CPU to fetch entry `i` into the cache (a hint: nothing changes).
    #[inline(always)]
    pub fn prefetch(self, i: usize) {
        prefetch_index(self.0, i);
    }

    /// Entries `from..to` in order (panics beyond the table): the run's bounds checked once, not
    /// each entry's.
    #[inline(always)]
    pub fn run(self, from: usize, to: usize) -> impl Iterator<Item = u32> + 'a {
        self.0[from..to].iter().map(|&r| u32::from_ne_bytes(r))
    }
}

impl<'a> ViewMut<'a> {
    /// The entries of `s` as a view (for tests of the paths that take views).
    #[cfg(test)]
    pub fn of(s: &'a mut [u32]) -> ViewMut<'a> {
        ViewMut(bytemuck::cast_slice_mut(s))
    }

    /// Number of entries.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The `n` entries from `a` and the `n` from `b`, two ranges that must not overlap (two
    /// blocks' P2L entries), both writable (panics when they overlap or pass the table's end).
    #[inline(always)]
    pub fn two_ranges(self, a: usize, b: usize, n: usize) -> (ViewMut<'a>, ViewMut<'a>) {
        if a < b {
            let (lo, hi) = self.0.split_at_mut(b);
            (ViewMut(&mut lo[a..a + n]), ViewMut(&mut hi[..n]))
        } else {
            let (lo, hi) = self.0.split_at_mut(a);
            (ViewMut(&mut hi[..n]), ViewMut(&mut lo[b..b + n]))
        }
    }

    /// Entry `i`, or `None` beyond the table.
    #[inline(always)]
    pub fn get(&self, i: usize) -> Option<u32> {
        self.0.get(i).map(|&r| u32::from_ne_bytes(r))
    }

    /// Entry `i` (panics beyond the table, as indexing does).
    #[inline(always)]
    pub fn at(&self, i: usize) -> u32 {
        u32::from_ne_bytes(self.0[i])
    }

    /// Writes `v` to entry `i` (panics beyond the table).
    #[inline(always)]
    pub fn set(&mut self, i: usize, v: u32) {
        self.0[i] = v.to_ne_bytes();
    }

    /// Writes `v` to entry `i` and returns what it held (panics beyond the table).
    #[inline(always)]
    pub fn replace(&mut self, i: usize, v: u32) -> u32 {
        u32::from_ne_bytes(std::mem::replace(&mut self.0[i], v.to_ne_bytes()))
    }

    /// Asks the CPU to fetch entry `i` into the cache (a hint: nothing changes).
    #[inline(always)]
    pub fn prefetch(&self, i: usize) {
        prefetch_index(&*self.0, i);
    }
}

impl PageTable {
    /// The entries as [`View`] reads them: cheaper to take than the `[u32]` of `Deref` for a
    /// mapping (no alignment or length check), for the paths that take a view per operation.
    #[inline(always)]
    pub fn view(&self) -> View<'_> {
        View(match self {
            // `u32` to 4 bytes: same size, no alignment to meet, so no check at run time.
            PageTable::Heap(v) => bytemuck::cast_slice(v),
            #[cfg(target_os = "linux")]
            PageTable::Mapped(m) => m.as_chunks().0,
        })
    }

    /// [`PageTable::view`], to write entries.
    #[inline(always)]
    pub fn view_mut(&mut self) -> ViewMut<'_> {
        ViewMut(match self {
            PageTable::Heap(v) => bytemuck::cast_slice_mut(v),
            #[cfg(target_os = "linux")]
            PageTable::Mapped(m) => m.as_chunks_mut().0,
        })
    }
}

impl Deref for PageTable {
    type Target = [u32];

    #[inline(always)]
    fn deref(&self) -> &[u32] {
        match self {
            PageTable::Heap(v) => v,
            #[cfg(target_os = "linux")]
            PageTable::Mapped(m) => bytemuck::cast_slice(m),
        }
    }
}

impl DerefMut for PageTable {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [u32] {
        match self {
            PageTable::Heap(v) => v,
            #[cfg(target_os = "linux")]
            PageTable::Mapped(m) => bytemuck::cast_slice_mut(m),
        }
    }
}

impl std::fmt::Debug for PageTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageTable")
            .field("len", &self.len())
            .field("mapped", &self.is_mapped())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_tables_stay_on_the_heap_and_large_ones_are_mapped() {
        let small = PageTable::filled(1000, 7);
        assert!(!small.is_mapped());
        assert_eq!(small.len(), 1000);
        assert!(small.iter().all(|&v| v == 7));
        let n = HUGE_MIN_BYTES / 4 + 3;
        let mut large = PageTable::filled(n, u32::MAX);
        #[cfg(target_os = "linux")]
        assert!(large.is_mapped(), "an anonymous mapping on Linux");
        assert_eq!(large.len(), n);
        assert!(large.iter().all(|&v| v == u32::MAX));
        large[n - 1] = 5;
        large[0] = 9;
        assert_eq!((large[0], large[1], large[n - 1]), (9, u32::MAX, 5));
    }

    #[test]
    fn the_views_read_and_write_the_entries_of_either_storage() {
        for n in [1000, HUGE_MIN_BYTES / 4 + 3] {
            let mut t = PageTable::filled(n, 7);
            t[3] = 0x0102_0304;
            let mut v = t.view_mut();
            assert_eq!(
                (v.at(3), v.get(n - 1), v.get(n)),
                (0x0102_0304, Some(7), None)
            );
            assert_eq!(v.replace(n - 1, 11), 7);
            v.set(0, u32::MAX - 1);
            assert_eq!((t[0], t[n - 1]), (u32::MAX - 1, 11));
            let v = t.view();
            assert_eq!(
                (v.get(0), v.get(3), v.get(n)),
                (Some(u32::MAX - 1), Some(0x0102_0304), None)
            );
            assert_eq!(v.run(n - 2, n).collect::<Vec<_>>(), [7, 11]);
        }
    }

    #[test]
    fn two_ranges_are_the_ranges_asked_for_in_either_order() {
        let mut t: Vec<u32> = (0..40).collect();
        for (a, b) in [(8, 24), (24, 8), (0, 32), (32, 0), (8, 16), (16, 8)] {
            let (x, y) = ViewMut::of(&mut t).two_ranges(a, b, 8);
            assert_eq!((x.len(), y.len()), (8, 8));
            for i in 0..8 {
                assert_eq!((x.at(i), y.at(i)), ((a + i) as u32, (b + i) as u32));
            }
        }
    }
}
