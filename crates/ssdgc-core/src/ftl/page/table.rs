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
}
