//! The flash translation layer: the seam every mapping scheme implements, the page-mapped scheme,
//! and the policies inside an FTL (free-pool order, write streams, the victim candidate index).
//!
//! | module | contents |
//! |---|---|
//! | [`seam`] | [`FtlView`] (what a GC scheme may read) and [`FtlMechanism`] (what the host path and the GC mechanism may do) |
//! | [`page`] | [`PageFtl`]: pure page-level mapping, the block table, pools and write points |
//! | [`lftl`] | L-FTL: block-mapped data blocks, one page-mapped log block per logical block (AGC/DGC paper §6, §6.5) |
//! | [`hftl`] | H-FTL: n:m hybrid log-block mapping, 2:8 by default (AGC/DGC paper §2.1, §6) |
//! | [`logblock`] | [`LogBlockFtl`]: the log-block engine of L-FTL and H-FTL (groups, update blocks, merge planning) |
//! | [`merge`] | [`MergePlan`]: a merge (switch, partial, full) as a log-block FTL plans it for the GC mechanism |
//! | [`pool`] | free-pool order: `fifo`, `youngest`, `oldest` (`ftl.pool`) |
//! | [`streams`] | write streams (host, GC, aligned, hot, cold) and their write points (`ftl.hot_to`) |
//! | [`candidates`] | [`CandidateIndex`]: the per-plane victim index the FTL notifies; the GC layer's victim policies implement it |
//! | [`params`] | [`FtlParams`]: what an FTL is built from |
//!
//! The drive holds its FTL as an [`Ftl`]: a mapping scheme behind an enum, with inlined
//! forwarding methods (no dynamic dispatch on the hot path: the hot ones are `#[inline(always)]`,
//! and the log-block FTL's methods are never inlined into them, so that the page-mapped arm of
//! each `match` is inlined as the page-mapped FTL alone was) and the work counters, counted here
//! at the seam so that every scheme is counted alike.
//!
//! Layering: this module and [`crate::flash`] are built from plain values and know nothing of the
//! configuration, the GC schemes, the simulator or the metrics (`tests/layering.rs` checks it). The
//! GC mechanism is the only caller of the GC primitives ([`Ftl::relocate`], [`Ftl::begin_erase`] /
//! [`Ftl::finish_erase`], [`Ftl::plan_merge`], [`Ftl::merge_copy`], …); the host path calls
//! [`Ftl::host_write`].

pub mod candidates;
pub mod greedy;
pub mod hftl;
pub mod lftl;
pub mod logblock;
pub mod merge;
pub mod page;
pub mod params;
pub mod pool;
pub mod seam;
pub mod streams;

pub use candidates::{BlockInfo, CandidateIndex, CandidateIndexKind, PlaneView};
pub use logblock::LogBlockFtl;
pub use merge::{LogStats, MergeCounts, MergeKind, MergePlan, PageCopy};
pub use page::PageFtl;
pub use params::{FtlParams, GroupShape, LogParams, MappingKind, MergeVictim, Trigger};
pub use pool::{PoolOrder, Take};
pub use seam::{BlockMoves, FtlMechanism, FtlView, GcAhead};
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
    /// Log-block mappings: merges, pages copied and blocks erased, per kind ([`MergeKind`] as
    /// index: switch, partial, full).
    pub merges: [MergeCounts; 3],
    /// Pages left unprogrammed to keep a copyback destination's parity (`gc.copyback_parity =
    /// "in-order"`).
    pub parity_skipped: u64,
    /// Pages moved to a destination before one already programmed in their block, as the
    /// parallel-page-migration paper's pairing does (`gc.copyback_parity = "paper"`).
    pub out_of_order_pairs: u64,
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
    /// L-FTL or H-FTL.
    LogBlock(LogBlockFtl),
}

/// Runs `$body` with `$f` bound to the mapping scheme behind `$self.map`.
macro_rules! with_map {
    ($self:expr, $f:ident => $body:expr) => {
        match $self.map {
            Mapping::Page(ref $f) => $body,
            Mapping::LogBlock(ref $f) => $body,
        }
    };
    (mut $self:expr, $f:ident => $body:expr) => {
        match $self.map {
            Mapping::Page(ref mut $f) => $body,
            Mapping::LogBlock(ref mut $f) => $body,
        }
    };
}

/// The FTL of one drive: its mapping scheme and the work counters.
pub struct Ftl {
    map: Mapping,
    /// The geometry and the static allocation every mapping shares, kept here so that the two
    /// most frequent queries ([`Ftl::geometry`], [`Ftl::plane_of`]) need no `match`.
    geo: Geometry,
    alloc: crate::flash::StaticAllocator,
    /// Work counters; reset after preconditioning.
    pub counters: FtlCounters,
}

impl Ftl {
    /// An empty (freshly erased) drive with the FTL of `params.mapping`, built from its parameters
    /// or from anything that converts into them (a configuration: `Ftl::new(&cfg, &geo)`).
    pub fn new<P>(params: P, geo: &Geometry) -> Result<Ftl, String>
    where
        P: TryInto<FtlParams>,
        P::Error: std::fmt::Display,
    {
        let params = params.try_into().map_err(|e| e.to_string())?;
        Ok(match params.mapping {
            MappingKind::Page => Ftl::page(&params, geo),
            MappingKind::Lftl | MappingKind::Hftl => Ftl::log_block(&params, geo),
        })
    }

    /// An empty drive with the page-mapped FTL.
    pub fn page(params: &FtlParams, geo: &Geometry) -> Ftl {
        Ftl {
            map: Mapping::Page(PageFtl::new(params, geo)),
            geo: geo.clone(),
            alloc: crate::flash::StaticAllocator::new(params.allocation, geo),
            counters: FtlCounters::default(),
        }
    }

    /// An empty drive with the log-block FTL `params.mapping` (L-FTL or H-FTL).
    pub fn log_block(params: &FtlParams, geo: &Geometry) -> Ftl {
        let f = match params.mapping {
            MappingKind::Hftl => hftl::new(params, geo),
            _ => lftl::new(params, geo),
        };
        Ftl {
            map: Mapping::LogBlock(f),
            geo: geo.clone(),
            alloc: crate::flash::StaticAllocator::new(params.allocation, geo),
            counters: FtlCounters::default(),
        }
    }

    /// The mapping scheme.
    pub fn mapping(&self) -> MappingKind {
        match self.map {
            Mapping::Page(_) => MappingKind::Page,
            Mapping::LogBlock(ref f) => f.kind(),
        }
    }

    /// True when GC merges logical groups ([`Ftl::plan_merge`]) rather than collecting victim
    /// blocks ([`Ftl::choose_victim`]).
    #[inline(always)]
    pub fn plans_merges(&self) -> bool {
        matches!(self.map, Mapping::LogBlock(_))
    }

    /// The log-block mapping's group shape and update-block figures; `None` under page mapping.
    pub fn log_stats(&self) -> Option<(GroupShape, LogStats)> {
        match self.map {
            Mapping::Page(_) => None,
            Mapping::LogBlock(ref f) => Some((f.shape(), f.stats())),
        }
    }

    /// Resets the work counters (and the log-block mapping's peak and overflow figures): after
    /// preconditioning.
    pub fn reset_counters(&mut self) {
        self.counters = FtlCounters::default();
        if let Mapping::LogBlock(ref mut f) = self.map {
            f.reset_stats();
        }
    }

    // --- what a scheme may read (`FtlView`) ---

    /// The geometry.
    #[inline(always)]
    pub fn geometry(&self) -> &Geometry {
        debug_assert_eq!(&self.geo, with_map!(self, f => f.geometry()));
        &self.geo
    }

    /// The victim policy in use.
    pub fn victim_kind(&self) -> &dyn CandidateIndexKind {
        with_map!(self, f => f.victim_kind())
    }

    /// The plane holding a logical page.
    #[inline(always)]
    pub fn plane_of(&self, lpn: Lpn) -> u32 {
        debug_assert_eq!(
            self.alloc.plane_of(lpn),
            with_map!(self, f => f.plane_of(lpn))
        );
        self.alloc.plane_of(lpn)
    }

    /// Where a logical page is in flash, or `None` if it was never written or is held in the DRAM
    /// buffer ([`Ftl::is_buffered`]).
    #[inline(always)]
    pub fn lookup(&self, lpn: Lpn) -> Option<Ppn> {
        with_map!(self, f => f.lookup(lpn))
    }

    /// True when the logical page's data is in the DRAM buffer, waiting to be committed to flash.
    #[inline(always)]
    pub fn is_buffered(&self, lpn: Lpn) -> bool {
        with_map!(self, f => f.is_buffered(lpn))
    }

    /// Pages of a plane held in the DRAM buffer.
    #[inline(always)]
    pub fn buffered_pages(&self, plane: u32) -> u32 {
        with_map!(self, f => f.buffered_pages(plane))
    }

    /// The logical page stored at a physical page, if that page is valid.
    #[inline(always)]
    pub fn reverse(&self, ppn: Ppn) -> Option<Lpn> {
        with_map!(self, f => f.reverse(ppn))
    }

    /// Free blocks in a plane's pool.
    #[inline(always)]
    pub fn free_blocks(&self, plane: u32) -> u32 {
        with_map!(self, f => f.free_blocks(plane))
    }

    /// Free blocks a plane needs so that a host write and a GC job can each open a block
    /// ([`FtlView::reserve_blocks`]).
    #[inline(always)]
    pub fn reserve_blocks(&self) -> u32 {
        with_map!(self, f => f.reserve_blocks())
    }

    /// Free pages in a plane: free blocks plus what is left in the open write points.
    #[inline(always)]
    pub fn free_pages(&self, plane: u32) -> u64 {
        with_map!(self, f => f.free_pages(plane))
    }

    /// Free blocks below which a plane collects.
    #[inline(always)]
    pub fn threshold_blocks(&self) -> u32 {
        with_map!(self, f => f.threshold_blocks())
    }

    /// True when a plane is below the GC threshold: free blocks below `threshold_blocks` or, with the
    /// free-page trigger, free pages below the threshold share (and never fewer than two free blocks).
    #[inline(always)]
    pub fn needs_gc(&self, plane: u32) -> bool {
        with_map!(self, f => f.needs_gc(plane))
    }

    /// True when a host write of `lpn`, served now, would first need GC ([`FtlView::write_needs_gc`]).
    #[inline(always)]
    pub fn write_needs_gc(&self, lpn: Lpn) -> bool {
        with_map!(self, f => f.write_needs_gc(lpn))
    }

    /// The GC the host writes `lpns` will find due first ([`FtlView::gc_ahead`]).
    pub fn gc_ahead(&self, lpns: &[Lpn]) -> Option<GcAhead> {
        with_map!(self, f => f.gc_ahead(lpns))
    }

    /// The group a merge of `plane` would take now ([`FtlView::merge_candidate`]).
    pub fn merge_candidate(&self, plane: u32, of: Option<Lpn>, rng: &mut SimRng) -> Option<u32> {
        with_map!(self, f => f.merge_candidate(plane, of, rng))
    }

    /// Pages copied and blocks erased by group `group`'s merge, were it planned now
    /// ([`FtlView::merge_cost`]).
    pub fn merge_cost(&self, plane: u32, group: u32) -> (u32, u32) {
        with_map!(self, f => f.merge_cost(plane, group))
    }

    /// True when a host write of `lpn` now would open a fresh block
    /// ([`FtlView::write_opens_block`]).
    #[inline]
    pub fn write_opens_block(&self, lpn: Lpn) -> bool {
        with_map!(self, f => f.write_opens_block(lpn))
    }

    /// Host pages `lpn`'s logical group can take before it needs a merge; `None` under page mapping
    /// ([`FtlView::update_room`]).
    pub fn update_room(&self, lpn: Lpn) -> Option<u32> {
        with_map!(self, f => f.update_room(lpn))
    }

    /// Share of a plane's pages that are free (free blocks and the open write points' rest).
    #[inline(always)]
    pub fn free_share(&self, plane: u32) -> f64 {
        with_map!(self, f => f.free_share(plane))
    }

    /// The page offset the next write of `stream` in `plane` lands on (0 when a fresh block will be
    /// opened).
    #[inline(always)]
    pub fn write_offset(&self, plane: u32, stream: Stream) -> u32 {
        with_map!(self, f => f.write_offset(plane, stream))
    }

    /// Valid pages in a drive-wide block.
    #[inline(always)]
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

    /// The fewest valid pages of any victim candidate of a plane ([`FtlView::fewest_valid`]).
    pub fn fewest_valid(&self, plane: u32) -> Option<u32> {
        with_map!(self, f => f.fewest_valid(plane))
    }

    /// Cache hint for a host write of `lpn` served later: its L2P entry ([`PageFtl::prefetch_lpn`]).
    /// Changes nothing; nothing under a log-block mapping.
    #[inline(always)]
    pub fn prefetch_lpn(&self, lpn: Lpn) {
        if let Mapping::Page(ref f) = self.map {
            f.prefetch_lpn(lpn);
        }
    }

    /// Cache hint for a host write of `lpn` a few requests from now: the entries of the page it
    /// supersedes and its block's victim-index entry ([`PageFtl::prefetch_overwrite_ahead`]).
    /// Changes nothing; nothing under a log-block mapping.
    #[inline(always)]
    pub fn prefetch_overwrite_ahead(&self, lpn: Lpn) {
        if let Mapping::Page(ref f) = self.map {
            f.prefetch_overwrite_ahead(lpn);
        }
    }

    /// Cache hint for a GC move of the page at `ppn` a few moves later: its logical page's L2P
    /// entry ([`PageFtl::prefetch_relocation`]). Changes nothing; nothing under a log-block mapping.
    #[inline(always)]
    pub fn prefetch_relocation(&self, ppn: Ppn) {
        if let Mapping::Page(ref f) = self.map {
            f.prefetch_relocation(ppn);
        }
    }

    /// Next valid page of a victim at or after page `from`, as (page index, lpn).
    #[inline(always)]
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
    #[inline(always)]
    pub fn host_write(&mut self, lpn: Lpn) -> Result<Ppn, FtlError> {
        let ppn = with_map!(mut self, f => f.host_write(lpn))?;
        self.counters.host_pages_written += 1;
        Ok(ppn)
    }

    /// [`Ftl::host_write`] of `lpn` in `plane`, its plane ([`Ftl::plane_of`]), which the caller
    /// already knows (a queued transaction keeps it).
    #[inline(always)]
    pub fn host_write_in(&mut self, plane: u32, lpn: Lpn) -> Result<Ppn, FtlError> {
        self.host_write_ahead(plane, lpn, None)
    }

    /// [`Ftl::host_write_in`], then a cache hint for the write of `ahead` served next, if any: the
    /// entries of the page it will supersede, from the tables' views the write took
    /// ([`PageFtl::host_write_ahead`]; nothing under a log-block mapping).
    #[inline(always)]
    pub fn host_write_ahead(
        &mut self,
        plane: u32,
        lpn: Lpn,
        ahead: Option<Lpn>,
    ) -> Result<Ppn, FtlError> {
        debug_assert_eq!(plane, self.plane_of(lpn));
        let ppn = match self.map {
            Mapping::Page(ref mut f) => f.host_write_ahead(plane, lpn, ahead),
            Mapping::LogBlock(ref mut f) => f.host_write_in(plane, lpn),
        }?;
        self.counters.host_pages_written += 1;
        Ok(ppn)
    }

    /// Writes host data for `lpn` at its plane's write point of `stream` (a host write merged into
    /// a GC move lands at the GC write point). Counted as a host page written.
    pub fn host_write_to(&mut self, lpn: Lpn, stream: Stream) -> Result<Ppn, FtlError> {
        let ppn = with_map!(mut self, f => f.host_write_to(lpn, stream))?;
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
    #[inline(always)]
    pub fn relocate(&mut self, src: Ppn, lpn: Lpn) -> Result<Ppn, FtlError> {
        self.relocate_to(src, lpn, Stream::Gc)
    }

    /// Moves the valid page `src` (holding `lpn`) to the plane's write point of `stream`.
    #[inline(always)]
    pub fn relocate_to(&mut self, src: Ppn, lpn: Lpn, stream: Stream) -> Result<Ppn, FtlError> {
        let dst = with_map!(mut self, f => f.relocate_to(src, lpn, stream))?;
        self.counters.gc_pages_moved += 1;
        Ok(dst)
    }

    /// Moves every valid page of plane-local `block` of `plane` from page `from` on to the plane's
    /// GC write point, as [`Ftl::relocate`] of each in page order would
    /// ([`FtlMechanism::relocate_block`]).
    #[inline]
    pub fn relocate_block(&mut self, plane: u32, block: u32, from: u32) -> BlockMoves {
        let m = with_map!(mut self, f => f.relocate_block(plane, block, from));
        self.counters.gc_pages_moved += u64::from(m.moved);
        m
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

    /// The fewest free blocks any plane's pool held right after a take since the last call
    /// (`u32::MAX`: none, or not kept by the mapping scheme); [`FtlMechanism::take_free_low_water`].
    pub fn take_free_low_water(&mut self) -> u32 {
        with_map!(mut self, f => f.take_free_low_water())
    }

    /// The fewest free blocks of any plane now.
    pub fn min_free_blocks(&self) -> u32 {
        (0..self.geometry().planes)
            .map(|p| self.free_blocks(p))
            .min()
            .unwrap_or(0)
    }

    /// Leaves the next page of a write point unprogrammed so that the next copyback lands on a page
    /// of its source's parity. Returns the page skipped.
    pub fn skip_for_parity(&mut self, plane: u32, stream: Stream) -> Result<Ppn, FtlError> {
        let ppn = with_map!(mut self, f => f.skip_page(plane, stream))?;
        self.counters.parity_skipped += 1;
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

    /// Plans a merge in `plane` ([`FtlMechanism::plan_merge`]): counted as a victim (the GC
    /// invocation) holding the pages it will copy, and as a merge of its kind.
    pub fn plan_merge(&mut self, plane: u32, rng: &mut SimRng) -> Option<MergePlan> {
        let plan = with_map!(mut self, f => f.plan_merge(plane, rng))?;
        self.counters.victims += 1;
        self.counters.victim_valid_pages += plan.copies.len() as u64;
        self.counters.merges[plan.kind as usize].count += 1;
        Some(plan)
    }

    /// Plans the merge of group `group` of `plane` ([`FtlMechanism::plan_group_merge`]), counted
    /// as [`Ftl::plan_merge`] counts a merge.
    pub fn plan_group_merge(&mut self, plane: u32, group: u32) -> Option<MergePlan> {
        let plan = with_map!(mut self, f => f.plan_group_merge(plane, group))?;
        self.counters.victims += 1;
        self.counters.victim_valid_pages += plan.copies.len() as u64;
        self.counters.merges[plan.kind as usize].count += 1;
        Some(plan)
    }

    /// Carries out one page copy of a merge of kind `kind` ([`FtlMechanism::merge_copy`]); false
    /// when the page was superseded and nothing was copied.
    pub fn merge_copy(&mut self, kind: MergeKind, c: PageCopy) -> bool {
        let done = with_map!(mut self, f => f.merge_copy(c));
        if done {
            self.counters.gc_pages_moved += 1;
            self.counters.merges[kind as usize].pages_copied += 1;
        }
        done
    }

    /// Starts erasing block `block` of `plane`, which a merge of kind `kind` detached.
    pub fn merge_erase(&mut self, kind: MergeKind, plane: u32, block: u32) {
        self.begin_erase(plane, block);
        self.counters.merges[kind as usize].blocks_erased += 1;
    }
}

/// An FTL's state as plain data: what preconditioning leaves behind, to be installed in other
/// drives of the same parameters ([`Ftl::snapshot`], [`Ftl::restore`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FtlSnapshot {
    /// The page-mapped FTL's ([`page::PageSnapshot`]).
    Page(page::PageSnapshot),
}

/// Snapshots (the ageing layer shares an aged drive between runs with them).
impl Ftl {
    /// The FTL's state, or why it cannot be taken (a GC job in progress, buffered pages, a
    /// mapping scheme or victim policy that cannot be snapshot). Work counters are not included.
    #[allow(unreachable_patterns)]
    pub fn snapshot(&self) -> Result<FtlSnapshot, String> {
        match &self.map {
            Mapping::Page(f) => f.snapshot().map(FtlSnapshot::Page),
            _ => Err("this mapping scheme cannot be snapshot".into()),
        }
    }

    /// An FTL of `params` and `geo` in the state of `snap` (taken from an FTL of the same
    /// parameters), its work counters at zero; the first reason the snapshot does not describe a
    /// valid state of such an FTL otherwise.
    pub fn restore(params: &FtlParams, geo: &Geometry, snap: &FtlSnapshot) -> Result<Ftl, String> {
        match snap {
            FtlSnapshot::Page(s) => {
                if params.mapping != MappingKind::Page {
                    return Err(format!(
                        "it holds a page-mapped FTL, the run's mapping is {}",
                        params.mapping
                    ));
                }
                Ok(Ftl {
                    map: Mapping::Page(PageFtl::restore(params, geo, s)?),
                    geo: geo.clone(),
                    alloc: crate::flash::StaticAllocator::new(params.allocation, geo),
                    counters: FtlCounters::default(),
                })
            }
        }
    }
}

/// Planes lent out and joined back, for preconditioning the planes of a drive apart
/// ([`page::PageFtl`]'s `planes` module).
impl Ftl {
    /// True when the drive's planes can be aged apart: the page-mapped FTL, nothing written yet,
    /// and no hot/cold classification (whose table is indexed by the drive's logical pages). The
    /// log-block FTLs are aged as one.
    pub fn planes_separable(&self) -> bool {
        match self.map {
            Mapping::Page(ref f) => f.is_fresh(),
            Mapping::LogBlock(_) => false,
        }
    }

    /// The residue modulo the plane count of the logical pages each plane holds (under page
    /// mapping; empty otherwise).
    pub fn plane_residues(&self) -> Vec<u32> {
        match self.map {
            Mapping::Page(ref f) => f.plane_residues(),
            Mapping::LogBlock(_) => Vec::new(),
        }
    }

    /// Lends plane `plane` (logical pages of residue `residue`) of a drive whose planes are
    /// separable ([`Ftl::planes_separable`]) to a one-plane drive of its own, whose logical page
    /// `k` is this drive's `k × planes + residue`; [`Ftl::join_planes`] takes it back.
    pub fn split_plane(&mut self, plane: u32, residue: u32) -> Ftl {
        let Mapping::Page(ref mut f) = self.map else {
            panic!("only the page-mapped FTL splits into planes");
        };
        let sub = f.split_plane(plane, residue);
        let geo = sub.geometry().clone();
        Ftl {
            alloc: crate::flash::StaticAllocator::new(
                crate::flash::AllocationOrder::parse("CWDP").expect("a valid order"),
                &geo,
            ),
            geo,
            map: Mapping::Page(sub),
            counters: FtlCounters::default(),
        }
    }

    /// Takes back planes lent out with [`Ftl::split_plane`], each as (plane, residue, its
    /// one-plane drive), and moves the drive's logical clock to the latest program of any plane
    /// joined so far. Their work counters are dropped.
    pub fn join_planes(&mut self, subs: Vec<(u32, u32, Ftl)>) {
        let Mapping::Page(ref mut f) = self.map else {
            panic!("only the page-mapped FTL joins planes");
        };
        let subs = subs
            .into_iter()
            .map(|(p, r, sub)| match sub.map {
                Mapping::Page(s) => (p, r, s),
                Mapping::LogBlock(_) => panic!("only the page-mapped FTL joins planes"),
            })
            .collect();
        f.join_planes(subs);
    }
}
