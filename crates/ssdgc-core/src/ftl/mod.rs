//! The flash translation layer: the seam every mapping scheme implements, the page-mapped scheme,
//! and the policies inside an FTL (free-pool order, write streams, the victim candidate index).
//!
//! | module | contents |
//! |---|---|
//! | [`seam`] | [`FtlView`] (what a GC scheme may read) and [`FtlMechanism`] (what the host path and the GC mechanism may do) |
//! | [`page`] | [`PageFtl`]: pure page-level mapping, the block table, pools and write points |
//! | [`pool`] | free-pool order: `fifo`, `youngest`, `oldest` (`ftl.pool`) |
//! | [`streams`] | write streams (host, GC, aligned, hot, cold) and their write points (`ftl.hot_to`) |
//! | [`candidates`] | [`CandidateIndex`]: the per-plane victim index the FTL notifies; the GC layer's victim policies implement it |
//! | [`params`] | [`FtlParams`]: what an FTL is built from |
//!
//! The drive holds its FTL as an [`Ftl`]: a mapping scheme behind an enum, with `#[inline]`
//! forwarding methods (no dynamic dispatch on the hot path) and the work counters, counted here at
//! the seam so that every scheme is counted alike.
//!
//! Layering: this module and [`crate::flash`] are built from plain values and know nothing of the
//! configuration, the GC schemes, the simulator or the metrics (`tests/layering.rs` checks it). The
//! GC mechanism is the only caller of the GC primitives ([`Ftl::relocate`], [`Ftl::begin_erase`] /
//! [`Ftl::finish_erase`], …); the host path calls [`Ftl::host_write`].

pub mod candidates;
pub mod page;
pub mod params;
pub mod pool;
pub mod seam;
pub mod streams;

pub use candidates::{CandidateIndex, CandidateIndexKind, PlaneView};
pub use page::PageFtl;
pub use params::{FtlParams, Trigger};
pub use pool::{PoolOrder, Take};
pub use seam::{FtlMechanism, FtlView};
pub use streams::{HotTo, Stream, StreamLayout};

use crate::flash::Geometry;
use crate::rng::SimRng;
use crate::units::{Lpn, Ppn};

/// Block life cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum BlockState {
    Free = 0,
    Open = 1,
    Full = 2,
    Victim = 3,
    Erasing = 4,
}

/// Counters of flash work done through the FTL.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FtlCounters {
    /// Pages programmed with host data.
    pub host_pages_written: u64,
    /// Valid pages moved by GC.
    pub gc_pages_moved: u64,
    /// Blocks erased.
    pub blocks_erased: u64,
    /// Victims chosen.
    pub victims: u64,
    /// Valid pages the victims held when chosen.
    pub victim_valid_pages: u64,
    /// Pages left unprogrammed to align write points.
    pub pages_skipped: u64,
    /// Pages read out into the DRAM buffer by GC.
    pub pages_buffered: u64,
    /// PaGC: pages moved per class (PaRD-PaWR, SrRD-PaWR, SrRD-SrWR).
    pub moves_by_class: [u64; 3],
    /// PaGC: victims collected by planes that joined another plane's GC.
    pub pagc_joined: u64,
}

/// An FTL failure that the scheduling should have made impossible: reported, never a panic.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FtlError {
    #[error("plane {plane} has no free block for a write point (GC did not keep up)")]
    OutOfBlocks { plane: u32 },
}

/// The mapping schemes a drive can use.
enum Mapping {
    Page(PageFtl),
}

/// Runs `$body` with `$f` bound to the mapping scheme behind `$self.map`.
macro_rules! with_map {
    ($self:expr, $f:ident => $body:expr) => {
        match $self.map {
            Mapping::Page(ref $f) => $body,
        }
    };
    (mut $self:expr, $f:ident => $body:expr) => {
        match $self.map {
            Mapping::Page(ref mut $f) => $body,
        }
    };
}

/// The FTL of one drive: its mapping scheme and the work counters.
pub struct Ftl {
    map: Mapping,
    /// Work counters; reset after preconditioning.
    pub counters: FtlCounters,
}

impl Ftl {
    /// An empty (freshly erased) drive with the page-mapped FTL, built from its parameters or from
    /// anything that converts into them (a configuration: `Ftl::new(&cfg, &geo)`).
    pub fn new<P>(params: P, geo: &Geometry) -> Result<Ftl, String>
    where
        P: TryInto<FtlParams>,
        P::Error: std::fmt::Display,
    {
        let params = params.try_into().map_err(|e| e.to_string())?;
        Ok(Ftl::page(&params, geo))
    }

    /// An empty drive with the page-mapped FTL.
    pub fn page(params: &FtlParams, geo: &Geometry) -> Ftl {
        Ftl {
            map: Mapping::Page(PageFtl::new(params, geo)),
            counters: FtlCounters::default(),
        }
    }

    // --- what a scheme may read (`FtlView`) ---

    /// The geometry.
    #[inline]
    pub fn geometry(&self) -> &Geometry {
        with_map!(self, f => f.geometry())
    }

    /// The victim policy in use.
    pub fn victim_kind(&self) -> &dyn CandidateIndexKind {
        with_map!(self, f => f.victim_kind())
    }

    /// The plane holding a logical page.
    #[inline]
    pub fn plane_of(&self, lpn: Lpn) -> u32 {
        with_map!(self, f => f.plane_of(lpn))
    }

    /// Where a logical page is in flash, or `None` if it was never written or is held in the DRAM
    /// buffer ([`Ftl::is_buffered`]).
    #[inline]
    pub fn lookup(&self, lpn: Lpn) -> Option<Ppn> {
        with_map!(self, f => f.lookup(lpn))
    }

    /// True when the logical page's data is in the DRAM buffer, waiting to be committed to flash.
    #[inline]
    pub fn is_buffered(&self, lpn: Lpn) -> bool {
        with_map!(self, f => f.is_buffered(lpn))
    }

    /// Pages of a plane held in the DRAM buffer.
    #[inline]
    pub fn buffered_pages(&self, plane: u32) -> u32 {
        with_map!(self, f => f.buffered_pages(plane))
    }

    /// The logical page stored at a physical page, if that page is valid.
    #[inline]
    pub fn reverse(&self, ppn: Ppn) -> Option<Lpn> {
        with_map!(self, f => f.reverse(ppn))
    }

    /// Free blocks in a plane's pool.
    #[inline]
    pub fn free_blocks(&self, plane: u32) -> u32 {
        with_map!(self, f => f.free_blocks(plane))
    }

    /// Free blocks a plane needs so that a host write and a GC job can each open a block
    /// ([`FtlView::reserve_blocks`]).
    #[inline]
    pub fn reserve_blocks(&self) -> u32 {
        with_map!(self, f => f.reserve_blocks())
    }

    /// Free pages in a plane: free blocks plus what is left in the open write points.
    #[inline]
    pub fn free_pages(&self, plane: u32) -> u64 {
        with_map!(self, f => f.free_pages(plane))
    }

    /// Free blocks below which a plane collects.
    #[inline]
    pub fn threshold_blocks(&self) -> u32 {
        with_map!(self, f => f.threshold_blocks())
    }

    /// True when a plane is below the GC threshold: free blocks below `threshold_blocks` or, with the
    /// free-page trigger, free pages below the threshold share (and never fewer than two free blocks).
    #[inline]
    pub fn needs_gc(&self, plane: u32) -> bool {
        with_map!(self, f => f.needs_gc(plane))
    }

    /// True when a host write of `lpn` now would find its GC due ([`FtlView::write_needs_gc`]).
    #[inline]
    pub fn write_needs_gc(&self, lpn: Lpn) -> bool {
        with_map!(self, f => f.write_needs_gc(lpn))
    }

    /// How many of the host writes `lpns` go before one finds its GC due
    /// ([`FtlView::writes_before_gc`]).
    pub fn writes_before_gc(&self, lpns: &[Lpn]) -> usize {
        with_map!(self, f => f.writes_before_gc(lpns))
    }

    /// True when a host write of `lpn` now would open a fresh block
    /// ([`FtlView::write_opens_block`]).
    #[inline]
    pub fn write_opens_block(&self, lpn: Lpn) -> bool {
        with_map!(self, f => f.write_opens_block(lpn))
    }

    /// Share of a plane's pages that are free (free blocks and the open write points' rest).
    #[inline]
    pub fn free_share(&self, plane: u32) -> f64 {
        with_map!(self, f => f.free_share(plane))
    }

    /// The page offset the next write of `stream` in `plane` lands on (0 when a fresh block will be
    /// opened).
    #[inline]
    pub fn write_offset(&self, plane: u32, stream: Stream) -> u32 {
        with_map!(self, f => f.write_offset(plane, stream))
    }

    /// Valid pages in a drive-wide block.
    #[inline]
    pub fn valid_pages(&self, global_block: u32) -> u32 {
        with_map!(self, f => f.valid_pages(global_block))
    }

    /// State of a drive-wide block.
    pub fn block_state(&self, global_block: u32) -> BlockState {
        with_map!(self, f => f.block_state(global_block))
    }

    /// Erase counts of every block.
    pub fn erase_counts(&self) -> &[u32] {
        with_map!(self, f => f.erase_counts())
    }

    /// Candidates held by a plane's victim policy.
    pub fn candidates(&self, plane: u32) -> usize {
        with_map!(self, f => f.candidates(plane))
    }

    /// Next valid page of a victim at or after page `from`, as (page index, lpn).
    #[inline]
    pub fn next_valid_in_block(&self, plane: u32, block: u32, from: u32) -> Option<(u32, Lpn)> {
        with_map!(self, f => f.next_valid_in_block(plane, block, from))
    }

    /// Number of logical pages currently mapped.
    pub fn mapped_pages(&self) -> u64 {
        with_map!(self, f => f.mapped_pages())
    }

    /// Checks every invariant of the mapping and the block table; returns the first violation.
    /// Costs a pass over all pages: for tests and `--check`.
    pub fn check(&self) -> Result<(), String> {
        with_map!(self, f => f.check())
    }

    // --- what the host path and the GC mechanism may do (`FtlMechanism`) ---

    /// Writes host data for `lpn`: invalidates the old copy, programs a new page at the plane's host
    /// write point and maps it. Returns the new physical page.
    #[inline]
    pub fn host_write(&mut self, lpn: Lpn) -> Result<Ppn, FtlError> {
        let ppn = with_map!(mut self, f => f.host_write(lpn))?;
        self.counters.host_pages_written += 1;
        Ok(ppn)
    }

    /// Chooses a victim in `plane` (the policy decides) and marks it. Returns the plane-local block.
    pub fn choose_victim(&mut self, plane: u32, rng: &mut SimRng) -> Option<u32> {
        let b = with_map!(mut self, f => f.choose_victim(plane, rng))?;
        let gb = plane * self.geometry().blocks_per_plane + b;
        self.counters.victims += 1;
        self.counters.victim_valid_pages += self.valid_pages(gb) as u64;
        Some(b)
    }

    /// Puts back a victim [`Ftl::choose_victim`] returned and nothing collected: it is a candidate
    /// again, and not counted as a victim.
    pub fn return_victim(&mut self, plane: u32, block: u32) {
        let gb = plane * self.geometry().blocks_per_plane + block;
        self.counters.victims -= 1;
        self.counters.victim_valid_pages -= self.valid_pages(gb) as u64;
        with_map!(mut self, f => f.return_victim(plane, block));
    }

    /// Moves the valid page `src` (holding `lpn`) to the plane's GC write point. Returns the new page.
    #[inline]
    pub fn relocate(&mut self, src: Ppn, lpn: Lpn) -> Result<Ppn, FtlError> {
        self.relocate_to(src, lpn, Stream::Gc)
    }

    /// Moves the valid page `src` (holding `lpn`) to the plane's write point of `stream`.
    #[inline]
    pub fn relocate_to(&mut self, src: Ppn, lpn: Lpn, stream: Stream) -> Result<Ppn, FtlError> {
        let dst = with_map!(mut self, f => f.relocate_to(src, lpn, stream))?;
        self.counters.gc_pages_moved += 1;
        Ok(dst)
    }

    /// Reads the valid page `src` (holding `lpn`) out into the DRAM buffer: the flash copy becomes
    /// invalid and the logical page is served from the buffer until [`Ftl::commit_buffered`].
    pub fn buffer_out(&mut self, src: Ppn, lpn: Lpn) {
        with_map!(mut self, f => f.buffer_out(src, lpn));
        self.counters.pages_buffered += 1;
    }

    /// Writes the oldest live buffered page of `plane` to its write point of `stream`. Returns the
    /// logical page and where it went, or `None` when nothing is buffered.
    pub fn commit_buffered(
        &mut self,
        plane: u32,
        stream: Stream,
    ) -> Result<Option<(Lpn, Ppn)>, FtlError> {
        let done = with_map!(mut self, f => f.commit_buffered(plane, stream))?;
        if done.is_some() {
            self.counters.gc_pages_moved += 1;
        }
        Ok(done)
    }

    /// Leaves the next page of a write point unprogrammed (to bring aligned write points to the same
    /// offset). Returns the page skipped.
    pub fn skip_page(&mut self, plane: u32, stream: Stream) -> Result<Ppn, FtlError> {
        let ppn = with_map!(mut self, f => f.skip_page(plane, stream))?;
        self.counters.pages_skipped += 1;
        Ok(ppn)
    }

    /// Starts erasing a victim that holds no valid page.
    pub fn begin_erase(&mut self, plane: u32, block: u32) {
        with_map!(mut self, f => f.begin_erase(plane, block))
    }

    /// Completes an erase: the block returns to its plane's free pool.
    pub fn finish_erase(&mut self, plane: u32, block: u32) {
        with_map!(mut self, f => f.finish_erase(plane, block));
        self.counters.blocks_erased += 1;
    }
}
