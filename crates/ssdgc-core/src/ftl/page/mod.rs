//! The page-mapped FTL: pure page-level mapping (L2P and P2L), the block table (valid counts, erase
//! counts, last-modified clock, states), per-plane free pools and write points.
//!
//! Logical pages are statically allocated to planes ([`crate::flash::StaticAllocator`]); inside a
//! plane each write stream writes at its write point in an open block ([`super::streams`]), which
//! takes a fresh block from the plane's free pool ([`super::pool`]) when it needs one. A block goes
//! free → open → full → victim → erasing → free. Full blocks are the candidates of the plane's
//! victim index ([`super::candidates`]).
//!
//! Memory: 4 bytes per logical page (L2P) and 4 bytes per physical page (P2L; `NO_PAGE` marks an
//! invalid or free page, so no separate valid bitmap is needed), plus 20 bytes per block. The two
//! tables of a large drive are on transparent huge pages where the system offers them (`table.rs`).
//!
//! When not to use it: to study a drive whose DRAM cannot hold a page-level map (hybrid log-block
//! FTLs, AGC/DGC paper §6), or mapping-cache effects (DFTL-like map paging is not modelled).

mod check;
mod hc;
mod moves;
mod planes;
mod snapshot;
mod table;

pub use hc::HcTable;
pub use planes::plane_share;
pub use snapshot::{PageSnapshot, PlaneSnapshot};
use table::PageTable;

use std::collections::VecDeque;
use std::hint::select_unpredictable;

use prefetch_index::prefetch_index;

use super::candidates::{BlockInfo, CandidateIndex, CandidateIndexKind, PlaneIndex, PlaneView};
use super::params::{FtlParams, Trigger};
use super::pool::FreePool;
use super::seam::{BlockMoves, FtlMechanism, FtlView, GcAhead};
use super::streams::{Stream, StreamLayout, STREAMS};
use super::{BlockState, FtlError};
use crate::flash::{Geometry, StaticAllocator};
use crate::rng::SimRng;
use crate::units::{Lpn, Ppn, NO_PAGE};

/// Marks an L2P entry whose data sits in the controller's DRAM buffer rather than in flash.
const BUFFERED: u32 = 1 << 31;

const NO_BLOCK: u32 = u32::MAX;

/// A page taken at a write point ([`PageFtl::allocate_at`]).
#[derive(Clone, Copy, Debug)]
struct Allocated {
    ppn: Ppn,
    /// Its block, drive-wide.
    gb: u32,
    /// It is its block's last page.
    last: bool,
}

#[derive(Clone, Copy, Debug)]
struct WritePoint {
    /// Plane-local block, or `NO_BLOCK`.
    block: u32,
    /// Next page to program in it.
    next: u32,
}

impl WritePoint {
    /// Takes the next page of the write point's open block (it has one) in `plane`; the write
    /// point lets the block go once its last page is taken.
    #[inline(always)]
    fn take(&mut self, plane: u32, geo: &Geometry) -> Allocated {
        let ppb = geo.pages_per_block;
        let page = self.next;
        let gb = plane * geo.blocks_per_plane + self.block;
        self.next += 1;
        let last = self.next == ppb;
        if last {
            // The block turns full once its last page is mapped: see `fill_page`.
            self.block = NO_BLOCK;
        }
        Allocated {
            ppn: gb * ppb + page,
            gb,
            last,
        }
    }
}

struct PlaneState {
    free: FreePool,
    /// Blocks in `free`, kept beside it: read by every GC decision ([`FtlView::free_blocks`])
    /// without the pool's dispatch on its order.
    free_len: u32,
    /// Write points, indexed by the layout's slot of each stream.
    wp: [WritePoint; STREAMS],
    victim: PlaneIndex,
    /// Logical pages held in the DRAM buffer, oldest first (may hold stale entries, skipped when
    /// committed).
    buffered: VecDeque<Lpn>,
    /// Live entries of `buffered`.
    buffered_live: u32,
}

/// The page-mapping FTL of one drive.
pub struct PageFtl {
    geo: Geometry,
    alloc: StaticAllocator,
    /// Logical to physical (on huge pages when large: `table.rs`).
    l2p: PageTable,
    /// Physical to logical.
    p2l: PageTable,
    /// Each block's valid count, clock and state, in one record: a host write updates all it
    /// needs of a block in one place.
    blocks: Vec<BlockInfo>,
    erase_count: Vec<u32>,
    planes: Vec<PlaneState>,
    /// Logical clock: page programs so far.
    clock: u64,
    trigger: Trigger,
    streams: StreamLayout,
    victim_kind: std::sync::Arc<dyn CandidateIndexKind>,
    /// HC values of the logical pages (empty when GC does not separate hot and cold pages).
    hc: HcTable,
    /// The fewest free blocks a pool held after a take since the last
    /// `take_free_low_water` (`u32::MAX`: none).
    free_low: u32,
}

impl PageFtl {
    /// An empty (freshly erased) drive.
    pub fn new(params: &FtlParams, geo: &Geometry) -> PageFtl {
        let nblocks = geo.blocks() as usize;
        let planes = (0..geo.planes)
            .map(|_| PlaneState {
                free: FreePool::new(params.pool, geo.blocks_per_plane),
                free_len: geo.blocks_per_plane,
                wp: [WritePoint {
                    block: NO_BLOCK,
                    next: 0,
                }; STREAMS],
                victim: params
                    .candidates
                    .build_plane(geo.blocks_per_plane, geo.pages_per_block),
                buffered: VecDeque::new(),
                buffered_live: 0,
            })
            .collect();
        PageFtl {
            geo: geo.clone(),
            alloc: StaticAllocator::new(params.allocation, geo),
            l2p: PageTable::filled(geo.logical_pages as usize, NO_PAGE),
            p2l: PageTable::filled(geo.physical_pages as usize, NO_PAGE),
            blocks: vec![BlockInfo::FREE; nblocks],
            erase_count: vec![0; nblocks],
            planes,
            clock: 0,
            trigger: params.trigger,
            streams: params.streams,
            victim_kind: params.candidates.clone(),
            hc: HcTable::new(params.hot_cold, geo.logical_pages),
            free_low: u32::MAX,
        }
    }

    /// Marks `ppn` invalid, telling the victim index when its block is a candidate.
    #[inline(always)]
    fn invalidate(&mut self, ppn: Ppn) {
        debug_assert!(self.p2l[ppn as usize] != NO_PAGE);
        self.p2l[ppn as usize] = NO_PAGE;
        self.invalidated(ppn);
    }

    /// [`Self::invalidate`] beyond the P2L entry (already cleared): `ppn`'s block loses a valid
    /// page.
    #[inline(always)]
    fn invalidated(&mut self, ppn: Ppn) {
        let gb = self.geo.global_block(ppn);
        let (plane, local) = self.geo.split_block(gb);
        self.invalidated_block(gb as usize, plane, local);
    }

    /// [`Self::invalidated`] of a page of block `gb` (drive-wide), block `local` of `plane`.
    #[inline(always)]
    fn invalidated_block(&mut self, gb: usize, plane: u32, local: u32) {
        let Self {
            planes,
            blocks,
            erase_count,
            geo,
            clock,
            ..
        } = self;
        let victim = &mut planes[plane as usize].victim;
        block_lost_page(victim, blocks, erase_count, geo, *clock, plane, gb, local);
    }

    /// The stream GC data of `lpn` asked for `stream` goes to: with hot/cold separation, the `Gc`
    /// stream becomes `Hot` or `Cold` by the page's HC value; every other stream is kept.
    #[inline(always)]
    fn gc_stream(&self, lpn: Lpn, stream: Stream) -> Stream {
        if self.hc.is_on() {
            self.classify(lpn, stream)
        } else {
            stream
        }
    }

    /// [`Self::gc_stream`] with hot/cold separation on (kept out of the hot path).
    #[cold]
    #[inline(never)]
    fn classify(&self, lpn: Lpn, stream: Stream) -> Stream {
        match stream {
            Stream::Gc if self.hc.is_hot(lpn) => Stream::Hot,
            Stream::Gc => Stream::Cold,
            other => other,
        }
    }

    /// Calls `f` with a plane's victim index and the view of the plane's blocks it decides on.
    #[inline(always)]
    fn with_victim_index<R>(
        &mut self,
        plane: u32,
        f: impl FnOnce(&mut PlaneIndex, &PlaneView<'_>) -> R,
    ) -> R {
        let view = plane_view(
            &self.blocks,
            &self.erase_count,
            &self.geo,
            self.clock,
            plane,
        );
        f(&mut self.planes[plane as usize].victim, &view)
    }

    #[inline]
    fn plane_range(&self, plane: u32) -> std::ops::Range<usize> {
        block_range(&self.geo, plane)
    }

    /// Takes the next free page of a plane's write point for `stream`, opening a block if needed.
    #[inline(always)]
    fn allocate(&mut self, plane: u32, stream: Stream) -> Result<Ppn, FtlError> {
        self.allocate_at(plane, stream).map(|a| a.ppn)
    }

    /// [`Self::allocate`], with where the page is, as the write point knew it.
    #[inline(always)]
    fn allocate_at(&mut self, plane: u32, stream: Stream) -> Result<Allocated, FtlError> {
        let slot = self.streams.slot(stream);
        if self.planes[plane as usize].wp[slot].block == NO_BLOCK {
            self.open_block(plane, stream)?;
        }
        Ok(self.planes[plane as usize].wp[slot].take(plane, &self.geo))
    }

    /// Maps `lpn` to the freshly allocated `ppn`, completing the block if it is now full.
    #[inline(always)]
    fn fill_page(&mut self, lpn: Lpn, ppn: Ppn) {
        debug_assert_eq!(self.p2l[ppn as usize], NO_PAGE);
        self.p2l[ppn as usize] = lpn;
        self.l2p[lpn as usize] = ppn;
        self.filled(ppn);
    }

    /// [`Self::fill_page`] beyond the two table entries (already written): `ppn`'s block gains a
    /// valid page, and is complete when `ppn` is its last.
    #[inline(always)]
    fn filled(&mut self, ppn: Ppn) {
        let gb = self.geo.global_block(ppn);
        let last = self.geo.page_in_block(ppn) + 1 == self.geo.pages_per_block;
        self.filled_in(gb, last);
    }

    /// [`Self::filled`] of a page of block `gb` (drive-wide), its last page when `last`.
    #[inline(always)]
    fn filled_in(&mut self, gb: u32, last: bool) {
        block_gained_page(&mut self.blocks, &mut self.clock, gb as usize);
        if last {
            self.close_block(gb as usize);
        }
    }

    /// Asks the CPU to fetch `lpn`'s L2P entry into the cache (a hint: no state changes): for a
    /// host write queued now and served later.
    #[inline(always)]
    pub fn prefetch_lpn(&self, lpn: Lpn) {
        self.l2p.view().prefetch(lpn as usize);
    }

    /// A host write of `lpn` in `plane` ([`FtlMechanism::host_write_in`]), then a cache hint for
    /// the write of `ahead` served next, if any (else for this write's own page): the CPU fetches
    /// what that write will update of the page it supersedes (its P2L entry, its block's valid
    /// count, clock and state), found from `ahead`'s L2P entry ([`Self::prefetch_lpn`] fetched it
    /// when the write was queued) with the tables' views this write took. The hint changes
    /// nothing.
    #[inline(always)]
    pub fn host_write_ahead(
        &mut self,
        plane: u32,
        lpn: Lpn,
        ahead: Option<Lpn>,
    ) -> Result<Ppn, FtlError> {
        debug_assert_eq!(plane, self.plane_of(lpn));
        let slot = self.streams.slot(Stream::Host);
        if self.planes[plane as usize].wp[slot].block == NO_BLOCK {
            self.open_block(plane, Stream::Host)?;
        }
        // The fields borrowed apart, the plane's state indexed once for the write point, the
        // superseded copy and the victim index (each index of `self.planes` is checked anew
        // after a table write).
        let Self {
            planes,
            l2p,
            p2l,
            blocks,
            erase_count,
            geo,
            clock,
            hc,
            ..
        } = self;
        let ps = &mut planes[plane as usize];
        let at = ps.wp[slot].take(plane, geo);
        let ppn = at.ppn;
        // The table entries first, each table viewed once (`table.rs`); then the blocks' counts,
        // in the order of `invalidate` and `fill_page` (the victim index sees the counts, never
        // the tables).
        let (old, ahead_old) = {
            let (mut l2p, mut p2l) = (l2p.view_mut(), p2l.view_mut());
            let old = l2p.replace(lpn as usize, ppn);
            if old & BUFFERED == 0 {
                debug_assert!(p2l.at(old as usize) != NO_PAGE);
                p2l.set(old as usize, NO_PAGE);
            }
            debug_assert_eq!(p2l.at(ppn as usize), NO_PAGE);
            p2l.set(ppn as usize, lpn);
            // `NO_PAGE` has the `BUFFERED` bit set: neither has a flash page to prefetch. Whether
            // the die has a write queued next is as random as the workload, so the hint takes no
            // branch: without one it fetches this write's own page, already in the cache.
            let o = l2p.get(ahead.unwrap_or(lpn) as usize).unwrap_or(ppn);
            let ahead_old = select_unpredictable(o & BUFFERED == 0, o, ppn);
            p2l.prefetch(ahead_old as usize);
            (old, ahead_old)
        };
        if hc.is_on() {
            hc_update(hc, lpn, old != NO_PAGE);
        }
        if old & BUFFERED != 0 && old != NO_PAGE {
            // The buffered copy is superseded; its queue entry is skipped when committed.
            ps.buffered_live -= 1;
        } else if old != NO_PAGE {
            // A logical page stays in its statically allocated plane
            // (`check_all`), so its block's place in the plane needs no division.
            let gb = geo.global_block(old);
            debug_assert_eq!(
                geo.split_block(gb).0,
                plane,
                "page {old} outside plane {plane}"
            );
            let local = gb - plane * geo.blocks_per_plane;
            let victim = &mut ps.victim;
            block_lost_page(
                victim,
                blocks,
                erase_count,
                geo,
                *clock,
                plane,
                gb as usize,
                local,
            );
        }
        // As `filled_in`, its block closed (rarely) once the borrows end.
        block_gained_page(blocks, clock, at.gb as usize);
        if at.last {
            self.close_block(at.gb as usize);
        }
        prefetch_index(&self.blocks, self.geo.global_block(ahead_old) as usize);
        Ok(ppn)
    }

    /// Asks the CPU to fetch what a host write of `lpn` a few requests from now will update of the
    /// page it supersedes: its P2L entry, its block's valid count, clock and state, and the
    /// block's victim-index entry (which the write moves to a bucket of one page fewer). Reads
    /// `lpn`'s L2P entry (fetched by [`Self::prefetch_lpn`] a few requests earlier); changes
    /// nothing.
    #[inline(always)]
    pub fn prefetch_overwrite_ahead(&self, lpn: Lpn) {
        let Some(old) = self.l2p.view().get(lpn as usize) else {
            return;
        };
        if old & BUFFERED != 0 {
            return;
        }
        self.p2l.view().prefetch(old as usize);
        let gb = self.geo.global_block(old);
        prefetch_index(&self.blocks, gb as usize);
        let (plane, local) = self.geo.split_block(gb);
        if let Some(p) = self.planes.get(plane as usize) {
            p.victim.prefetch(local);
        }
    }

    /// Asks the CPU to fetch the L2P entry of the logical page stored at `ppn`, if the page is
    /// valid: for a GC move of it a few moves later (the move rewrites that entry). Changes nothing.
    #[inline(always)]
    pub fn prefetch_relocation(&self, ppn: Ppn) {
        if let Some(lpn) = self.p2l.view().get(ppn as usize) {
            if lpn != NO_PAGE {
                self.l2p.view().prefetch(lpn as usize);
            }
        }
    }

    /// A block whose last page has been written (or skipped) becomes a victim candidate.
    fn close_block(&mut self, gb: usize) {
        debug_assert_eq!(self.blocks[gb].state, BlockState::Open);
        self.blocks[gb].state = BlockState::Full;
        let (plane, local) = self.geo.split_block(gb as u32);
        self.with_victim_index(plane, |index, view| index.on_full(local, view));
    }
}

impl FtlView for PageFtl {
    #[inline]
    fn geometry(&self) -> &Geometry {
        &self.geo
    }

    fn victim_kind(&self) -> &dyn CandidateIndexKind {
        self.victim_kind.as_ref()
    }

    #[inline]
    fn plane_of(&self, lpn: Lpn) -> u32 {
        self.alloc.plane_of(lpn)
    }

    #[inline]
    fn lookup(&self, lpn: Lpn) -> Option<Ppn> {
        let p = self.l2p[lpn as usize];
        (p != NO_PAGE && p & BUFFERED == 0).then_some(p)
    }

    #[inline]
    fn is_buffered(&self, lpn: Lpn) -> bool {
        let p = self.l2p[lpn as usize];
        p != NO_PAGE && p & BUFFERED != 0
    }

    fn buffered_pages(&self, plane: u32) -> u32 {
        self.planes[plane as usize].buffered_live
    }

    #[inline]
    fn reverse(&self, ppn: Ppn) -> Option<Lpn> {
        let l = self.p2l[ppn as usize];
        (l != NO_PAGE).then_some(l)
    }

    #[inline(always)]
    fn free_blocks(&self, plane: u32) -> u32 {
        self.planes[plane as usize].free_len
    }

    fn free_pages(&self, plane: u32) -> u64 {
        let ps = &self.planes[plane as usize];
        let ppb = self.geo.pages_per_block as u64;
        let open: u64 = ps
            .wp
            .iter()
            .filter(|w| w.block != NO_BLOCK)
            .map(|w| ppb - w.next as u64)
            .sum();
        u64::from(ps.free_len) * ppb + open
    }

    #[inline]
    fn reserve_blocks(&self) -> u32 {
        2 + u32::from(self.hc.is_on())
    }

    #[inline]
    fn threshold_blocks(&self) -> u32 {
        self.trigger.blocks
    }

    /// Free blocks below `threshold_blocks` or, with the free-page trigger, free pages below the
    /// threshold (and never fewer than [`FtlView::reserve_blocks`] free blocks).
    #[inline(always)]
    fn needs_gc(&self, plane: u32) -> bool {
        match self.trigger.pages {
            None => self.free_blocks(plane) < self.trigger.blocks,
            Some(t) => {
                self.free_blocks(plane) < self.reserve_blocks() || self.free_pages(plane) < t
            }
        }
    }

    /// Replays the writes on per-plane counts of free blocks, room in the host write point and free
    /// pages, with [`FtlView::needs_gc`]'s rule.
    fn gc_ahead(&self, lpns: &[Lpn]) -> Option<GcAhead> {
        let ppb = self.geo.pages_per_block as u64;
        // (plane, free blocks, pages left in the host write point, free pages)
        let mut planes: Vec<(u32, u64, u64, u64)> = Vec::new();
        for (i, &lpn) in lpns.iter().enumerate() {
            let plane = self.plane_of(lpn);
            let k = match planes.iter().position(|x| x.0 == plane) {
                Some(k) => k,
                None => {
                    let off = self.write_offset(plane, Stream::Host) as u64;
                    let left = if off == 0 { 0 } else { ppb - off };
                    planes.push((
                        plane,
                        self.free_blocks(plane) as u64,
                        left,
                        self.free_pages(plane),
                    ));
                    planes.len() - 1
                }
            };
            let (_, free, left, pages) = &mut planes[k];
            let due = match self.trigger.pages {
                None => *free < self.trigger.blocks as u64,
                Some(t) => *free < self.reserve_blocks() as u64 || *pages < t,
            };
            if due {
                return Some(GcAhead {
                    write: i,
                    plane,
                    group: None,
                });
            }
            if *left == 0 {
                *free = free.saturating_sub(1);
                *left = ppb;
            }
            *left -= 1;
            *pages = pages.saturating_sub(1);
        }
        None
    }

    fn write_opens_block(&self, lpn: Lpn) -> bool {
        let plane = self.plane_of(lpn);
        self.planes[plane as usize].wp[self.streams.slot(Stream::Host)].block == NO_BLOCK
    }

    fn write_offset(&self, plane: u32, stream: Stream) -> u32 {
        let wp = self.planes[plane as usize].wp[self.streams.slot(stream)];
        if wp.block == NO_BLOCK {
            0
        } else {
            wp.next
        }
    }

    #[inline]
    fn valid_pages(&self, global_block: u32) -> u32 {
        self.blocks[global_block as usize].valid as u32
    }

    fn block_state(&self, global_block: u32) -> BlockState {
        self.blocks[global_block as usize].state
    }

    fn erase_counts(&self) -> &[u32] {
        &self.erase_count
    }

    fn candidates(&self, plane: u32) -> usize {
        self.planes[plane as usize].victim.len()
    }

    /// From the victim index when it keeps valid counts (`greedy`, `alpha`), else a scan of the
    /// plane's blocks.
    fn fewest_valid(&self, plane: u32) -> Option<u32> {
        let ps = &self.planes[plane as usize];
        if ps.victim.is_empty() {
            return None;
        }
        let r = self.plane_range(plane);
        let view = PlaneView {
            blocks: &self.blocks[r.clone()],
            erase_count: &self.erase_count[r.clone()],
            now: self.clock,
            pages_per_block: self.geo.pages_per_block,
        };
        match ps.victim.fewest_valid(&view) {
            Some(v) => Some(u32::from(v)),
            None => r
                .filter(|&gb| self.blocks[gb].state == BlockState::Full)
                .map(|gb| u32::from(self.blocks[gb].valid))
                .min(),
        }
    }

    #[inline]
    fn next_valid_in_block(&self, plane: u32, block: u32, from: u32) -> Option<(u32, Lpn)> {
        let base = self.geo.ppn(plane, block, 0);
        (from..self.geo.pages_per_block).find_map(|p| {
            let l = self.p2l[(base + p) as usize];
            (l != NO_PAGE).then_some((p, l))
        })
    }

    fn mapped_pages(&self) -> u64 {
        self.l2p.iter().filter(|&&p| p != NO_PAGE).count() as u64
    }

    fn check(&self) -> Result<(), String> {
        self.check_all()
    }
}

impl FtlMechanism for PageFtl {
    fn take_free_low_water(&mut self) -> u32 {
        std::mem::replace(&mut self.free_low, u32::MAX)
    }

    #[inline(always)]
    fn host_write(&mut self, lpn: Lpn) -> Result<Ppn, FtlError> {
        self.host_write_in(self.plane_of(lpn), lpn)
    }

    #[inline(always)]
    fn host_write_in(&mut self, plane: u32, lpn: Lpn) -> Result<Ppn, FtlError> {
        self.host_write_ahead(plane, lpn, None)
    }

    /// The write lands at `stream`'s write point, classified as GC data is (`Gc` becomes `Hot` or
    /// `Cold` with hot/cold separation, after the update counts in the page's HC value).
    fn host_write_to(&mut self, lpn: Lpn, stream: Stream) -> Result<Ppn, FtlError> {
        let plane = self.plane_of(lpn);
        let old = self.l2p[lpn as usize];
        if self.hc.is_on() {
            hc_update(&mut self.hc, lpn, old != NO_PAGE);
        }
        let stream = self.gc_stream(lpn, stream);
        let ppn = self.allocate(plane, stream)?;
        if old & BUFFERED != 0 && old != NO_PAGE {
            self.planes[plane as usize].buffered_live -= 1;
        } else if old != NO_PAGE {
            self.invalidate(old);
        }
        self.fill_page(lpn, ppn);
        Ok(ppn)
    }

    fn choose_victim(&mut self, plane: u32, rng: &mut SimRng) -> Option<u32> {
        let b = self.with_victim_index(plane, |index, view| index.pick(view, rng))?;
        let gb = (plane * self.geo.blocks_per_plane + b) as usize;
        assert_eq!(
            self.blocks[gb].state,
            BlockState::Full,
            "victim policy returned a block that is not a candidate"
        );
        self.blocks[gb].state = BlockState::Victim;
        Some(b)
    }

    fn return_victim(&mut self, plane: u32, block: u32) {
        let gb = (plane * self.geo.blocks_per_plane + block) as usize;
        assert_eq!(
            self.blocks[gb].state,
            BlockState::Victim,
            "returning a block that is not a victim"
        );
        self.blocks[gb].state = BlockState::Full;
        self.with_victim_index(plane, |index, view| index.on_full(block, view));
    }

    #[inline]
    fn relocate_to(&mut self, src: Ppn, lpn: Lpn, stream: Stream) -> Result<Ppn, FtlError> {
        assert_eq!(
            self.p2l[src as usize], lpn,
            "relocating a page that does not hold the logical page"
        );
        let plane = self.geo.addr(src).plane;
        let stream = self.gc_stream(lpn, stream);
        let dst = self.allocate(plane, stream)?;
        self.invalidate(src);
        self.fill_page(lpn, dst);
        Ok(dst)
    }

    fn relocate_block(&mut self, plane: u32, block: u32, from: u32) -> BlockMoves {
        self.move_block(plane, block, from)
    }

    fn buffer_out(&mut self, src: Ppn, lpn: Lpn) {
        assert_eq!(
            self.p2l[src as usize], lpn,
            "buffering a page that does not hold the logical page"
        );
        let plane = self.geo.addr(src).plane;
        self.invalidate(src);
        self.l2p[lpn as usize] = BUFFERED;
        let ps = &mut self.planes[plane as usize];
        ps.buffered.push_back(lpn);
        ps.buffered_live += 1;
    }

    fn commit_buffered(
        &mut self,
        plane: u32,
        stream: Stream,
    ) -> Result<Option<(Lpn, Ppn)>, FtlError> {
        while let Some(lpn) = self.planes[plane as usize].buffered.pop_front() {
            if self.l2p[lpn as usize] != BUFFERED {
                continue; // superseded by a host write
            }
            let stream = self.gc_stream(lpn, stream);
            let dst = self.allocate(plane, stream)?;
            self.fill_page(lpn, dst);
            self.planes[plane as usize].buffered_live -= 1;
            return Ok(Some((lpn, dst)));
        }
        Ok(None)
    }

    fn skip_page(&mut self, plane: u32, stream: Stream) -> Result<Ppn, FtlError> {
        let ppn = self.allocate(plane, stream)?;
        if self.geo.page_in_block(ppn) + 1 == self.geo.pages_per_block {
            self.close_block(self.geo.global_block(ppn) as usize);
        }
        Ok(ppn)
    }

    fn begin_erase(&mut self, plane: u32, block: u32) {
        let gb = (plane * self.geo.blocks_per_plane + block) as usize;
        assert_eq!(
            self.blocks[gb].state,
            BlockState::Victim,
            "erasing a block that is not a victim"
        );
        assert_eq!(
            self.blocks[gb].valid, 0,
            "erasing a block that holds valid data"
        );
        self.blocks[gb].state = BlockState::Erasing;
    }

    fn finish_erase(&mut self, plane: u32, block: u32) {
        let gb = (plane * self.geo.blocks_per_plane + block) as usize;
        assert_eq!(self.blocks[gb].state, BlockState::Erasing);
        self.blocks[gb].state = BlockState::Free;
        self.erase_count[gb] += 1;
        let ps = &mut self.planes[plane as usize];
        ps.free.put(block, self.erase_count[gb]);
        ps.free_len += 1;
    }
}

#[cfg(test)]
mod tests;

/// Block `gb` (drive-wide), block `local` of `plane`, lost a valid page at `clock`, telling
/// `plane`'s victim index when the block is a candidate. On the FTL's fields apart, so that the
/// host write, which holds other borrows of them, shares it ([`PageFtl::invalidated_block`]).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn block_lost_page(
    victim: &mut PlaneIndex,
    blocks: &mut [BlockInfo],
    erase_count: &[u32],
    geo: &Geometry,
    clock: u64,
    plane: u32,
    gb: usize,
    local: u32,
) {
    let b = &mut blocks[gb];
    let was = b.valid;
    debug_assert!(was > 0);
    b.valid = was - 1;
    b.last_modified = clock;
    match victim {
        // Greedy needs no view: no view built, no dynamic dispatch; and no state read, as its
        // candidates are exactly the full blocks (it ignores any other).
        PlaneIndex::Greedy(g) => g.page_invalidated(local, was),
        index => {
            if b.state == BlockState::Full {
                let view = plane_view(blocks, erase_count, geo, clock, plane);
                index.on_invalidate(local, was, &view);
            }
        }
    }
}

/// Block `gb` (drive-wide) gained a valid page: one more program on the clock (the caller closes
/// the block when the page was its last, [`PageFtl::close_block`]).
#[inline(always)]
fn block_gained_page(blocks: &mut [BlockInfo], clock: &mut u64, gb: usize) {
    let b = &mut blocks[gb];
    b.valid += 1;
    *clock += 1;
    b.last_modified = *clock;
}

/// The view of `plane`'s blocks its victim index decides on, at `clock`.
#[inline(always)]
fn plane_view<'a>(
    blocks: &'a [BlockInfo],
    erase_count: &'a [u32],
    geo: &Geometry,
    clock: u64,
    plane: u32,
) -> PlaneView<'a> {
    let r = block_range(geo, plane);
    PlaneView {
        blocks: &blocks[r.clone()],
        erase_count: &erase_count[r],
        now: clock,
        pages_per_block: geo.pages_per_block,
    }
}

/// The drive-wide indices of `plane`'s blocks.
#[inline(always)]
fn block_range(geo: &Geometry, plane: u32) -> std::ops::Range<usize> {
    let b = geo.blocks_per_plane as usize;
    plane as usize * b..(plane as usize + 1) * b
}

/// A host write of `lpn` as the HC classification `hc` counts it (kept out of the hot path).
#[cold]
#[inline(never)]
fn hc_update(hc: &mut HcTable, lpn: Lpn, was_valid: bool) {
    hc.update(lpn, was_valid);
}
