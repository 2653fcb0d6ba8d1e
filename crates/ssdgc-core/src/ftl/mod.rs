//! The flash translation layer: pure page-level mapping (L2P and P2L), the block table (valid counts,
//! erase counts, states), per-plane free-block pools and write points.
//!
//! Logical pages are statically allocated to planes ([`crate::flash::StaticAllocator`]); inside a plane
//! each write stream (host data, GC data) has its own write point in an open block. A block goes
//! free → open → full → victim → erasing → free. Full blocks are the victim policy's candidates.
//!
//! Memory: 4 bytes per logical page (L2P) and 4 bytes per physical page (P2L; `NO_PAGE` marks an
//! invalid or free page, so no separate valid bitmap is needed), plus 15 bytes per block.
//!
//! This module changes mapping state only through a few primitives ([`Ftl::host_write`],
//! [`Ftl::relocate`], [`Ftl::begin_erase`] / [`Ftl::finish_erase`]); the GC mechanism in
//! [`crate::gc`] is their only caller for GC data.

pub mod precondition;

use std::collections::VecDeque;

use crate::config::Config;
use crate::flash::{AllocationOrder, Geometry, StaticAllocator};
use crate::gc::victim::{PlaneView, VictimKind, VictimPolicy};
use crate::rng::SimRng;
use crate::units::{Lpn, Ppn, NO_PAGE};

/// Write streams: each has its own write point per plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stream {
    /// Data written by the host.
    Host = 0,
    /// Valid data moved by GC.
    Gc = 1,
    /// GC data written with multi-plane programs: the write points of this stream are kept at the
    /// same page offset across the planes of a die (PaGC's aligned active block, §V-A).
    Aligned = 2,
}

/// Number of write streams.
const STREAMS: usize = 3;

/// Marks an L2P entry whose data sits in the controller's DRAM buffer rather than in flash.
const BUFFERED: u32 = 1 << 31;

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

const NO_BLOCK: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct WritePoint {
    /// Plane-local block, or `NO_BLOCK`.
    block: u32,
    /// Next page to program in it.
    next: u32,
}

struct PlaneState {
    free: VecDeque<u32>,
    wp: [WritePoint; STREAMS],
    victim: Box<dyn VictimPolicy>,
    /// Logical pages held in the DRAM buffer, oldest first (may hold stale entries, skipped when
    /// committed).
    buffered: VecDeque<Lpn>,
    /// Live entries of `buffered`.
    buffered_live: u32,
}

/// Counters of flash work done by the FTL.
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

/// The page-mapping FTL of one drive.
pub struct Ftl {
    geo: Geometry,
    alloc: StaticAllocator,
    l2p: Vec<Ppn>,
    p2l: Vec<Lpn>,
    valid: Vec<u16>,
    erase_count: Vec<u32>,
    last_modified: Vec<u64>,
    state: Vec<BlockState>,
    planes: Vec<PlaneState>,
    /// Logical clock: page programs so far.
    clock: u64,
    threshold_blocks: u32,
    /// With the free-page trigger: free pages below which a plane collects.
    threshold_pages: Option<u64>,
    victim_kind: VictimKind,
    /// Work counters; reset after preconditioning.
    pub counters: FtlCounters,
}

impl Ftl {
    /// An empty (freshly erased) drive.
    pub fn new(cfg: &Config, geo: &Geometry) -> Result<Ftl, String> {
        let order = AllocationOrder::parse(&cfg.ftl.allocation)?;
        let victim_kind: VictimKind = cfg.gc.victim.parse()?;
        let nblocks = geo.blocks() as usize;
        let planes = (0..geo.planes)
            .map(|_| PlaneState {
                free: (0..geo.blocks_per_plane).collect(),
                wp: [WritePoint {
                    block: NO_BLOCK,
                    next: 0,
                }; STREAMS],
                victim: victim_kind.build(geo.blocks_per_plane, geo.pages_per_block),
                buffered: VecDeque::new(),
                buffered_live: 0,
            })
            .collect();
        Ok(Ftl {
            geo: geo.clone(),
            alloc: StaticAllocator::new(order, geo),
            l2p: vec![NO_PAGE; geo.logical_pages as usize],
            p2l: vec![NO_PAGE; geo.physical_pages as usize],
            valid: vec![0; nblocks],
            erase_count: vec![0; nblocks],
            last_modified: vec![0; nblocks],
            state: vec![BlockState::Free; nblocks],
            planes,
            clock: 0,
            threshold_blocks: cfg.gc_threshold_blocks(),
            threshold_pages: (cfg.gc.trigger == "pages")
                .then(|| (cfg.gc.threshold * geo.pages_per_plane as f64).ceil() as u64),
            victim_kind,
            counters: FtlCounters::default(),
        })
    }

    /// The geometry.
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The victim policy in use.
    pub fn victim_kind(&self) -> &VictimKind {
        &self.victim_kind
    }

    /// The plane holding a logical page.
    #[inline]
    pub fn plane_of(&self, lpn: Lpn) -> u32 {
        self.alloc.plane_of(lpn)
    }

    /// Where a logical page is in flash, or `None` if it was never written or is held in the DRAM
    /// buffer ([`Ftl::is_buffered`]).
    #[inline]
    pub fn lookup(&self, lpn: Lpn) -> Option<Ppn> {
        let p = self.l2p[lpn as usize];
        (p != NO_PAGE && p & BUFFERED == 0).then_some(p)
    }

    /// True when the logical page's data is in the DRAM buffer, waiting to be committed to flash.
    #[inline]
    pub fn is_buffered(&self, lpn: Lpn) -> bool {
        let p = self.l2p[lpn as usize];
        p != NO_PAGE && p & BUFFERED != 0
    }

    /// Pages of a plane held in the DRAM buffer.
    pub fn buffered_pages(&self, plane: u32) -> u32 {
        self.planes[plane as usize].buffered_live
    }

    /// The logical page stored at a physical page, if that page is valid.
    #[inline]
    pub fn reverse(&self, ppn: Ppn) -> Option<Lpn> {
        let l = self.p2l[ppn as usize];
        (l != NO_PAGE).then_some(l)
    }

    /// Free blocks in a plane's pool.
    #[inline]
    pub fn free_blocks(&self, plane: u32) -> u32 {
        self.planes[plane as usize].free.len() as u32
    }

    /// Free pages in a plane: free blocks plus what is left in the open write points.
    pub fn free_pages(&self, plane: u32) -> u64 {
        let ps = &self.planes[plane as usize];
        let ppb = self.geo.pages_per_block as u64;
        let open: u64 = ps
            .wp
            .iter()
            .filter(|w| w.block != NO_BLOCK)
            .map(|w| ppb - w.next as u64)
            .sum();
        ps.free.len() as u64 * ppb + open
    }

    /// Free blocks below which a plane collects.
    #[inline]
    pub fn threshold_blocks(&self) -> u32 {
        self.threshold_blocks
    }

    /// True when a plane is below the GC threshold: free blocks below `threshold_blocks` or, with the
    /// free-page trigger, free pages below the threshold share (and never fewer than two free blocks).
    #[inline]
    pub fn needs_gc(&self, plane: u32) -> bool {
        match self.threshold_pages {
            None => self.free_blocks(plane) < self.threshold_blocks,
            Some(t) => self.free_blocks(plane) < 2 || self.free_pages(plane) < t,
        }
    }

    /// Share of a plane's pages that are free (free blocks and the open write points' rest).
    pub fn free_share(&self, plane: u32) -> f64 {
        self.free_pages(plane) as f64 / self.geo.pages_per_plane as f64
    }

    /// The page offset the next write of `stream` in `plane` lands on (0 when a fresh block will be
    /// opened).
    pub fn write_offset(&self, plane: u32, stream: Stream) -> u32 {
        let wp = self.planes[plane as usize].wp[stream as usize];
        if wp.block == NO_BLOCK {
            0
        } else {
            wp.next
        }
    }

    /// Valid pages in a drive-wide block.
    #[inline]
    pub fn valid_pages(&self, global_block: u32) -> u32 {
        self.valid[global_block as usize] as u32
    }

    /// State of a drive-wide block.
    pub fn block_state(&self, global_block: u32) -> BlockState {
        self.state[global_block as usize]
    }

    /// Erase counts of every block.
    pub fn erase_counts(&self) -> &[u32] {
        &self.erase_count
    }

    /// Candidates held by a plane's victim policy.
    pub fn candidates(&self, plane: u32) -> usize {
        self.planes[plane as usize].victim.len()
    }

    /// Marks `ppn` invalid, telling the victim policy when its block is a candidate.
    #[inline]
    fn invalidate(&mut self, ppn: Ppn) {
        let gb = (ppn / self.geo.pages_per_block) as usize;
        debug_assert!(self.p2l[ppn as usize] != NO_PAGE);
        self.p2l[ppn as usize] = NO_PAGE;
        let old = self.valid[gb];
        debug_assert!(old > 0);
        self.valid[gb] = old - 1;
        self.last_modified[gb] = self.clock;
        if self.state[gb] == BlockState::Full {
            let plane = gb as u32 / self.geo.blocks_per_plane;
            let local = gb as u32 % self.geo.blocks_per_plane;
            self.with_victim_policy(plane, |policy, view| policy.on_invalidate(local, old, view));
        }
    }

    /// Calls `f` with a plane's victim policy and the view of the plane's blocks it decides on.
    #[inline]
    fn with_victim_policy<R>(
        &mut self,
        plane: u32,
        f: impl FnOnce(&mut dyn VictimPolicy, &PlaneView<'_>) -> R,
    ) -> R {
        let r = self.plane_range(plane);
        let view = PlaneView {
            valid: &self.valid[r.clone()],
            erase_count: &self.erase_count[r.clone()],
            last_modified: &self.last_modified[r],
            now: self.clock,
            pages_per_block: self.geo.pages_per_block,
        };
        f(self.planes[plane as usize].victim.as_mut(), &view)
    }

    #[inline]
    fn plane_range(&self, plane: u32) -> std::ops::Range<usize> {
        let b = self.geo.blocks_per_plane as usize;
        plane as usize * b..(plane as usize + 1) * b
    }

    /// Takes the next free page of a plane's write point for `stream`, opening a block if needed.
    #[inline]
    fn allocate(&mut self, plane: u32, stream: Stream) -> Result<Ppn, FtlError> {
        let ppb = self.geo.pages_per_block;
        let bpp = self.geo.blocks_per_plane;
        let ps = &mut self.planes[plane as usize];
        let wp = &mut ps.wp[stream as usize];
        if wp.block == NO_BLOCK {
            let b = ps.free.pop_front().ok_or(FtlError::OutOfBlocks { plane })?;
            let gb = (plane * bpp + b) as usize;
            debug_assert_eq!(self.state[gb], BlockState::Free);
            self.state[gb] = BlockState::Open;
            wp.block = b;
            wp.next = 0;
        }
        let block = wp.block;
        let page = wp.next;
        wp.next += 1;
        if wp.next == ppb {
            // The block turns full once its last page is mapped: see `fill_page`.
            wp.block = NO_BLOCK;
        }
        Ok((plane * bpp + block) * ppb + page)
    }

    /// Maps `lpn` to the freshly allocated `ppn`, completing the block if it is now full.
    #[inline]
    fn fill_page(&mut self, lpn: Lpn, ppn: Ppn) {
        debug_assert_eq!(self.p2l[ppn as usize], NO_PAGE);
        self.p2l[ppn as usize] = lpn;
        self.l2p[lpn as usize] = ppn;
        let gb = (ppn / self.geo.pages_per_block) as usize;
        self.valid[gb] += 1;
        self.clock += 1;
        self.last_modified[gb] = self.clock;
        if ppn % self.geo.pages_per_block + 1 == self.geo.pages_per_block {
            self.close_block(gb);
        }
    }

    /// Leaves the next page of a write point unprogrammed (to bring aligned write points to the same
    /// offset). Returns the page skipped.
    pub fn skip_page(&mut self, plane: u32, stream: Stream) -> Result<Ppn, FtlError> {
        let ppn = self.allocate(plane, stream)?;
        if ppn % self.geo.pages_per_block + 1 == self.geo.pages_per_block {
            self.close_block((ppn / self.geo.pages_per_block) as usize);
        }
        self.counters.pages_skipped += 1;
        Ok(ppn)
    }

    /// A block whose last page has been written (or skipped) becomes a victim candidate.
    fn close_block(&mut self, gb: usize) {
        debug_assert_eq!(self.state[gb], BlockState::Open);
        self.state[gb] = BlockState::Full;
        let plane = gb as u32 / self.geo.blocks_per_plane;
        let local = gb as u32 % self.geo.blocks_per_plane;
        self.with_victim_policy(plane, |policy, view| policy.on_full(local, view));
    }

    /// Writes host data for `lpn`: invalidates the old copy, programs a new page at the plane's host
    /// write point and maps it. Returns the new physical page.
    pub fn host_write(&mut self, lpn: Lpn) -> Result<Ppn, FtlError> {
        let plane = self.plane_of(lpn);
        let ppn = self.allocate(plane, Stream::Host)?;
        let old = self.l2p[lpn as usize];
        if old & BUFFERED != 0 && old != NO_PAGE {
            // The buffered copy is superseded; its queue entry is skipped when committed.
            self.planes[plane as usize].buffered_live -= 1;
        } else if old != NO_PAGE {
            self.invalidate(old);
        }
        self.fill_page(lpn, ppn);
        self.counters.host_pages_written += 1;
        Ok(ppn)
    }

    /// Chooses a victim in `plane` (the policy decides) and marks it. Returns the plane-local block.
    pub fn choose_victim(&mut self, plane: u32, rng: &mut SimRng) -> Option<u32> {
        let b = self.with_victim_policy(plane, |policy, view| policy.pick(view, rng))?;
        let gb = (plane * self.geo.blocks_per_plane + b) as usize;
        assert_eq!(
            self.state[gb],
            BlockState::Full,
            "victim policy returned a block that is not a candidate"
        );
        self.state[gb] = BlockState::Victim;
        self.counters.victims += 1;
        self.counters.victim_valid_pages += self.valid[gb] as u64;
        Some(b)
    }

    /// Next valid page of a victim at or after page `from`, as (page index, lpn).
    #[inline]
    pub fn next_valid_in_block(&self, plane: u32, block: u32, from: u32) -> Option<(u32, Lpn)> {
        let base = self.geo.ppn(plane, block, 0);
        (from..self.geo.pages_per_block).find_map(|p| {
            let l = self.p2l[(base + p) as usize];
            (l != NO_PAGE).then_some((p, l))
        })
    }

    /// Moves the valid page `src` (holding `lpn`) to the plane's GC write point. Returns the new page.
    pub fn relocate(&mut self, src: Ppn, lpn: Lpn) -> Result<Ppn, FtlError> {
        self.relocate_to(src, lpn, Stream::Gc)
    }

    /// Moves the valid page `src` (holding `lpn`) to the plane's write point of `stream`.
    pub fn relocate_to(&mut self, src: Ppn, lpn: Lpn, stream: Stream) -> Result<Ppn, FtlError> {
        assert_eq!(
            self.p2l[src as usize], lpn,
            "relocating a page that does not hold the logical page"
        );
        let plane = self.geo.addr(src).plane;
        let dst = self.allocate(plane, stream)?;
        self.invalidate(src);
        self.fill_page(lpn, dst);
        self.counters.gc_pages_moved += 1;
        Ok(dst)
    }

    /// Reads the valid page `src` (holding `lpn`) out into the DRAM buffer: the flash copy becomes
    /// invalid and the logical page is served from the buffer until [`Ftl::commit_buffered`].
    pub fn buffer_out(&mut self, src: Ppn, lpn: Lpn) {
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
        self.counters.pages_buffered += 1;
    }

    /// Writes the oldest live buffered page of `plane` to its write point of `stream`. Returns the
    /// logical page and where it went, or `None` when nothing is buffered.
    pub fn commit_buffered(
        &mut self,
        plane: u32,
        stream: Stream,
    ) -> Result<Option<(Lpn, Ppn)>, FtlError> {
        while let Some(lpn) = self.planes[plane as usize].buffered.pop_front() {
            if self.l2p[lpn as usize] != BUFFERED {
                continue; // superseded by a host write
            }
            let dst = self.allocate(plane, stream)?;
            self.fill_page(lpn, dst);
            self.planes[plane as usize].buffered_live -= 1;
            self.counters.gc_pages_moved += 1;
            return Ok(Some((lpn, dst)));
        }
        Ok(None)
    }

    /// Starts erasing a victim that holds no valid page.
    pub fn begin_erase(&mut self, plane: u32, block: u32) {
        let gb = (plane * self.geo.blocks_per_plane + block) as usize;
        assert_eq!(
            self.state[gb],
            BlockState::Victim,
            "erasing a block that is not a victim"
        );
        assert_eq!(self.valid[gb], 0, "erasing a block that holds valid data");
        self.state[gb] = BlockState::Erasing;
    }

    /// Completes an erase: the block returns to its plane's free pool.
    pub fn finish_erase(&mut self, plane: u32, block: u32) {
        let gb = (plane * self.geo.blocks_per_plane + block) as usize;
        assert_eq!(self.state[gb], BlockState::Erasing);
        self.state[gb] = BlockState::Free;
        self.erase_count[gb] += 1;
        self.counters.blocks_erased += 1;
        self.planes[plane as usize].free.push_back(block);
    }

    /// Checks every invariant of the mapping and the block table; returns the first violation.
    /// Costs a pass over all pages: for tests and `--check`.
    pub fn check(&self) -> Result<(), String> {
        let g = &self.geo;
        let mut valid = vec![0u32; g.blocks() as usize];
        for (ppn, &lpn) in self.p2l.iter().enumerate() {
            if lpn == NO_PAGE {
                continue;
            }
            if lpn >= g.logical_pages {
                return Err(format!(
                    "physical page {ppn} maps to out-of-range lpn {lpn}"
                ));
            }
            if self.l2p[lpn as usize] != ppn as u32 {
                return Err(format!(
                    "physical page {ppn} claims lpn {lpn}, which maps to {}",
                    self.l2p[lpn as usize]
                ));
            }
            valid[ppn / g.pages_per_block as usize] += 1;
        }
        let mut buffered = vec![0u32; g.planes as usize];
        for (lpn, &ppn) in self.l2p.iter().enumerate() {
            if ppn == NO_PAGE {
                continue;
            }
            if ppn == BUFFERED {
                buffered[self.plane_of(lpn as u32) as usize] += 1;
                continue;
            }
            if self.p2l[ppn as usize] != lpn as u32 {
                return Err(format!("lpn {lpn} maps to {ppn}, which does not map back"));
            }
            if self.geo.addr(ppn).plane != self.plane_of(lpn as u32) {
                return Err(format!(
                    "lpn {lpn} is outside its statically allocated plane"
                ));
            }
        }
        for (gb, &counted) in valid.iter().enumerate() {
            if counted != self.valid[gb] as u32 {
                return Err(format!(
                    "block {gb}: valid count {} but {counted} valid pages",
                    self.valid[gb]
                ));
            }
            if matches!(self.state[gb], BlockState::Free | BlockState::Erasing) && counted != 0 {
                return Err(format!("free or erasing block {gb} holds valid pages"));
            }
        }
        for (p, ps) in self.planes.iter().enumerate() {
            let (mut free, mut full, mut open) = (0usize, 0usize, 0usize);
            for b in 0..g.blocks_per_plane {
                match self.state[(p as u32 * g.blocks_per_plane + b) as usize] {
                    BlockState::Free => free += 1,
                    BlockState::Full => full += 1,
                    BlockState::Open => open += 1,
                    _ => {}
                }
            }
            if free != ps.free.len() {
                return Err(format!(
                    "plane {p}: {free} free blocks but the pool holds {}",
                    ps.free.len()
                ));
            }
            if full != ps.victim.len() {
                return Err(format!(
                    "plane {p}: {full} full blocks but the victim policy holds {}",
                    ps.victim.len()
                ));
            }
            if buffered[p] != ps.buffered_live {
                return Err(format!(
                    "plane {p}: {} logical pages buffered but {} counted",
                    buffered[p], ps.buffered_live
                ));
            }
            let wps = ps.wp.iter().filter(|w| w.block != NO_BLOCK).count();
            if open != wps {
                return Err(format!(
                    "plane {p}: {open} open blocks but {wps} write points"
                ));
            }
        }
        Ok(())
    }

    /// Number of logical pages currently mapped.
    pub fn mapped_pages(&self) -> u64 {
        self.l2p.iter().filter(|&&p| p != NO_PAGE).count() as u64
    }
}
