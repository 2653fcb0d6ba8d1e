//! The log-block engine behind L-FTL ([`super::lftl`]) and H-FTL ([`super::hftl`]): block-mapped
//! data blocks and page-mapped update (log) blocks, shared by the logical blocks of a *group* —
//! the hybrid mapping of the AGC/DGC paper's §2.1 ("hybrid mapping FTLs manage a logical block by
//! composing n data block(s) and m update block(s)"), the FTLs it cites as \[8\] and \[12\].
//!
//! **Logical blocks.** Logical pages are statically allocated to planes as under page mapping
//! ([`crate::flash::StaticAllocator`]); the logical pages of one plane, numbered densely by
//! `index = lpn / planes` (the allocation depends only on `lpn mod planes`), are cut into logical
//! blocks of `pages_per_block` pages: logical block `index / pages_per_block`, page offset
//! `index mod pages_per_block`. With the default `CWDP` order a sequential host stream fills every
//! plane's logical blocks in offset order. Logical blocks `n·g … n·g + n − 1` of a plane form group
//! `g`.
//!
//! **Data and update blocks.** A logical block has at most one *data block*, in which a page sits
//! at its own offset. A host write goes to the group's current update block, at its next free page
//! (any logical page of the group, any order), opening a fresh one from the plane's free pool when
//! it is full; the old copy is invalidated. A group may hold `m` update blocks (its shape, n:m).
//!
//! **When a plane needs GC** ([`FtlView::needs_gc`]): its free blocks are below the threshold
//! (free-block reclaiming, §2.2), or the plane holds `ftl.log_blocks` update blocks (when set), or
//! one of its groups has used up its update space — `m` update blocks, the last full (update-block
//! reclaiming, §2.2). The last case is marked when the group's last page is written, so that the
//! plane's next write (or idle time) merges it: the triggers decide per plane, and a merge's
//! content is fixed once the group is full, so its cost does not depend on which write waits for
//! it. A write the trigger lets through anyway (a preemptible trigger serving writes above its hard
//! threshold) opens one more update block — counted as an overflow — and the merge takes every
//! update block of the group.
//!
//! **Merges** ([`super::merge`]): the group chosen is one whose update space is used up, the oldest
//! first; else one by the merge victim policy ([`MergeVictim`]). Its kind is a switch or partial
//! merge when each of its update blocks holds the pages 0 … k−1 of its own logical block in order,
//! a full merge otherwise. [`FtlMechanism::plan_merge`] re-points the group at its new data blocks and detaches
//! the blocks to erase (state `Victim`); the GC mechanism then copies page by page
//! ([`FtlMechanism::merge_copy`]) and erases, as it does any job.
//!
//! Block states: a free block is `Free`; an update block `Open` while it has free pages, then
//! `Full`; a data block `Full` (its unwritten offsets are never programmed); a detached block
//! `Victim`, then `Erasing`. Memory: as the page-mapped FTL (4 bytes per logical page and per
//! physical page: the page-level tables serve lookups and checks), plus per block its role, owner
//! group and next page, per logical block its data block and written pages, and per group its
//! update blocks.

mod ahead;
mod check;
mod plan;

use std::sync::Arc;

use super::candidates::CandidateIndexKind;
use super::merge::{LogStats, MergePlan, PageCopy};
use super::params::{FtlParams, GroupShape, MappingKind, MergeVictim};
use super::pool::{FreePool, Take};
use super::seam::{BlockMoves, FtlMechanism, FtlView, GcAhead};
use super::streams::Stream;
use super::{BlockState, FtlError};
use crate::flash::{Geometry, StaticAllocator};
use crate::rng::SimRng;
use crate::units::{Lpn, Ppn, NO_PAGE};

/// No block.
const NO_BLOCK: u32 = u32::MAX;

/// What a block is used for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Role {
    /// In the free pool (or being erased).
    Free,
    /// The data block of a logical block.
    Data,
    /// An update block of a group.
    Update,
    /// Left by a merge in progress, to be erased.
    Detached,
}

/// One logical group.
#[derive(Clone, Debug, Default)]
struct Group {
    /// Its update blocks (plane-local), in the order they were opened; the last takes writes.
    updates: Vec<u32>,
    /// Its update space is used up: a merge is due.
    due: bool,
    /// Erases of its merge in progress not yet dispatched (0: no merge in progress).
    pending: u32,
}

/// One plane.
struct PlaneLog {
    free: FreePool,
    /// Groups with update blocks and no merge in progress (the merge candidates), in the order
    /// their first update block was opened.
    listed: Vec<u32>,
    /// Groups whose merge is due.
    due: u32,
    /// Update blocks held.
    updates: u32,
    /// Free pages left in its update blocks.
    room: u64,
}

/// A log-block FTL of one drive (L-FTL or H-FTL, by its group shape).
pub struct LogBlockFtl {
    geo: Geometry,
    alloc: StaticAllocator,
    kind: MappingKind,
    shape: GroupShape,
    /// Per plane: its lowest logical page (`lpn = first[plane] + index · planes`).
    first: Vec<Lpn>,
    lbns_per_plane: u32,
    groups_per_plane: u32,
    l2p: Vec<Ppn>,
    p2l: Vec<Lpn>,
    valid: Vec<u16>,
    erase_count: Vec<u32>,
    state: Vec<BlockState>,
    /// Per block: the next page to program (pages below it are programmed or were skipped).
    next: Vec<u32>,
    role: Vec<Role>,
    /// Per block: the plane-local group of a data, update or detached block.
    owner: Vec<u32>,
    /// Per update block: the logical block of its group (0 … n−1) whose pages 0, 1, … it holds in
    /// order, every page it has programmed being the next of them; `NO_BLOCK` when it holds
    /// anything else. A group whose update blocks are all such, for distinct logical blocks, is
    /// merged by switching them (and completing the partly written one).
    seq: Vec<u32>,
    /// Per logical block (`plane · lbns_per_plane + lbn`): its data block, or `NO_BLOCK`.
    data: Vec<u32>,
    /// Per logical block: its logical pages ever written (valid, since nothing is trimmed).
    written: Vec<u16>,
    groups: Vec<Group>,
    planes: Vec<PlaneLog>,
    threshold: u32,
    log_cap: u32,
    victim: MergeVictim,
    victim_kind: Arc<dyn CandidateIndexKind>,
    mapped: u64,
    stats: LogStats,
    /// The fewest free blocks a plane's pool held right after a take, since the last
    /// `take_free_low_water` (`u32::MAX`: none).
    free_low: u32,
}

impl LogBlockFtl {
    /// An empty (freshly erased) drive of the log-block mapping `params.mapping`, whose groups have
    /// the shape `params.log.shape`.
    pub fn new(params: &FtlParams, geo: &Geometry) -> LogBlockFtl {
        let alloc = StaticAllocator::new(params.allocation, geo);
        let mut first = vec![0; geo.planes as usize];
        for r in 0..geo.planes {
            first[alloc.plane_of(r) as usize] = r;
        }
        let ppb = geo.pages_per_block;
        let per_plane = geo.logical_pages.div_ceil(geo.planes);
        let lbns_per_plane = per_plane.div_ceil(ppb);
        let shape = params.log.shape;
        let groups_per_plane = lbns_per_plane.div_ceil(shape.data);
        let nblocks = geo.blocks() as usize;
        LogBlockFtl {
            alloc,
            kind: params.mapping,
            shape,
            first,
            lbns_per_plane,
            groups_per_plane,
            l2p: vec![NO_PAGE; geo.logical_pages as usize],
            p2l: vec![NO_PAGE; geo.physical_pages as usize],
            valid: vec![0; nblocks],
            erase_count: vec![0; nblocks],
            state: vec![BlockState::Free; nblocks],
            next: vec![0; nblocks],
            role: vec![Role::Free; nblocks],
            owner: vec![NO_BLOCK; nblocks],
            seq: vec![NO_BLOCK; nblocks],
            data: vec![NO_BLOCK; (geo.planes * lbns_per_plane) as usize],
            written: vec![0; (geo.planes * lbns_per_plane) as usize],
            groups: vec![Group::default(); (geo.planes * groups_per_plane) as usize],
            planes: (0..geo.planes)
                .map(|_| PlaneLog {
                    free: FreePool::new(params.pool, geo.blocks_per_plane),
                    listed: Vec::new(),
                    due: 0,
                    updates: 0,
                    room: 0,
                })
                .collect(),
            free_low: u32::MAX,
            threshold: params.trigger.blocks,
            log_cap: params.log.log_blocks,
            victim: params.log.victim,
            victim_kind: params.candidates.clone(),
            mapped: 0,
            stats: LogStats::default(),
            geo: geo.clone(),
        }
    }

    /// Which log-block mapping this is (`lftl` or `hftl`).
    pub fn kind(&self) -> MappingKind {
        self.kind
    }

    /// The group shape (n data : m update blocks).
    pub fn shape(&self) -> GroupShape {
        self.shape
    }

    /// Update blocks held, their peak and the overflows since the last reset.
    pub fn stats(&self) -> LogStats {
        self.stats
    }

    /// Starts the peak and the overflow count afresh (after preconditioning).
    pub fn reset_stats(&mut self) {
        self.stats.update_blocks_peak = self.stats.update_blocks;
        self.stats.overflow_blocks = 0;
    }

    /// Drive-wide block index.
    #[inline]
    fn gb(&self, plane: u32, block: u32) -> usize {
        (plane * self.geo.blocks_per_plane + block) as usize
    }

    /// Drive-wide group index.
    #[inline]
    fn gi(&self, plane: u32, group: u32) -> usize {
        (plane * self.groups_per_plane + group) as usize
    }

    /// Drive-wide logical-block index.
    #[inline]
    fn li(&self, plane: u32, lbn: u32) -> usize {
        (plane * self.lbns_per_plane + lbn) as usize
    }

    /// The plane, plane-local logical block and page offset of a logical page.
    #[inline]
    fn locate(&self, lpn: Lpn) -> (u32, u32, u32) {
        let idx = lpn / self.geo.planes;
        let ppb = self.geo.pages_per_block;
        (self.alloc.plane_of(lpn), idx / ppb, idx % ppb)
    }

    /// The logical page at offset `off` of logical block `lbn` of `plane`, if the drive has it.
    #[inline]
    fn lpn_of(&self, plane: u32, lbn: u32, off: u32) -> Option<Lpn> {
        let idx = lbn as u64 * self.geo.pages_per_block as u64 + off as u64;
        let lpn = self.first[plane as usize] as u64 + idx * self.geo.planes as u64;
        (lpn < self.geo.logical_pages as u64).then_some(lpn as Lpn)
    }

    /// The logical blocks of group `g` of `plane` (the last group may have fewer than n).
    #[inline]
    fn lbns_of(&self, g: u32) -> std::ops::Range<u32> {
        let n = self.shape.data;
        g * n..((g + 1) * n).min(self.lbns_per_plane)
    }

    /// Marks `ppn` invalid.
    #[inline]
    fn invalidate(&mut self, ppn: Ppn) {
        let gb = (ppn / self.geo.pages_per_block) as usize;
        debug_assert_ne!(self.p2l[ppn as usize], NO_PAGE);
        self.p2l[ppn as usize] = NO_PAGE;
        debug_assert!(self.valid[gb] > 0);
        self.valid[gb] -= 1;
    }

    /// Programs `ppn` with `lpn` and maps it. A page below its block's next page has been
    /// programmed (or skipped) already: programming it is an invariant violation.
    #[inline]
    fn program(&mut self, ppn: Ppn, lpn: Lpn) {
        let ppb = self.geo.pages_per_block;
        let gb = (ppn / ppb) as usize;
        let page = ppn % ppb;
        assert!(
            page >= self.next[gb] && self.p2l[ppn as usize] == NO_PAGE,
            "programming page {page} of block {gb}, which is not free"
        );
        self.next[gb] = page + 1;
        self.p2l[ppn as usize] = lpn;
        self.l2p[lpn as usize] = ppn;
        self.valid[gb] += 1;
    }

    /// Whether group `g` of `plane` has used up its update space: more update blocks than its
    /// shape, or as many with the last one full.
    fn is_due(&self, plane: u32, g: u32) -> bool {
        let grp = &self.groups[self.gi(plane, g)];
        let m = self.shape.update as usize;
        match grp.updates.last() {
            None => false,
            Some(&b) => {
                grp.updates.len() > m
                    || (grp.updates.len() == m
                        && self.next[self.gb(plane, b)] == self.geo.pages_per_block)
            }
        }
    }

    /// Brings group `g`'s due mark and its plane's count of due groups up to date.
    fn refresh_due(&mut self, plane: u32, g: u32) {
        let due = self.is_due(plane, g);
        let gi = self.gi(plane, g);
        if due != self.groups[gi].due {
            self.groups[gi].due = due;
            let ps = &mut self.planes[plane as usize];
            if due {
                ps.due += 1;
            } else {
                ps.due -= 1;
            }
        }
    }

    /// A block was just taken from `plane`'s pool: its free count joins the low-water mark.
    fn note_free(&mut self, plane: u32) {
        let n = self.planes[plane as usize].free.len() as u32;
        self.free_low = self.free_low.min(n);
    }

    /// Opens a fresh update block for group `g` of `plane`.
    fn open_update(&mut self, plane: u32, g: u32) -> Result<u32, FtlError> {
        let b = self.planes[plane as usize]
            .free
            .take(Take::Pool)
            .ok_or(FtlError::OutOfBlocks { plane })?;
        self.note_free(plane);
        let gb = self.gb(plane, b);
        debug_assert_eq!(self.state[gb], BlockState::Free);
        self.state[gb] = BlockState::Open;
        self.role[gb] = Role::Update;
        self.owner[gb] = g;
        self.next[gb] = 0;
        let gi = self.gi(plane, g);
        let ps = &mut self.planes[plane as usize];
        let grp = &mut self.groups[gi];
        if grp.updates.len() >= self.shape.update as usize
            || (self.log_cap > 0 && ps.updates >= self.log_cap)
        {
            self.stats.overflow_blocks += 1;
        }
        if grp.updates.is_empty() && grp.pending == 0 {
            ps.listed.push(g);
        }
        grp.updates.push(b);
        ps.updates += 1;
        ps.room += self.geo.pages_per_block as u64;
        self.stats.update_blocks += 1;
        self.stats.update_blocks_peak = self.stats.update_blocks_peak.max(self.stats.update_blocks);
        self.refresh_due(plane, g);
        Ok(b)
    }

    /// Block `block` of `plane` leaves its role for a merge: it is erased once the merge's copies
    /// are dispatched.
    fn detach(&mut self, plane: u32, block: u32) {
        let gb = self.gb(plane, block);
        self.role[gb] = Role::Detached;
        self.state[gb] = BlockState::Victim;
    }
}

// The drive's `Ftl` forwards every call to its mapping with a `match` that the compiler inlines into
// the page-mapped FTL's hot path; the log-block arm stays a call (`#[inline(never)]`), so that it
// does not make the forwarders too large to inline.
impl FtlView for LogBlockFtl {
    #[cold]
    #[inline(never)]
    fn geometry(&self) -> &Geometry {
        &self.geo
    }

    #[cold]
    #[inline(never)]
    fn victim_kind(&self) -> &dyn CandidateIndexKind {
        self.victim_kind.as_ref()
    }

    #[cold]
    #[inline(never)]
    fn plane_of(&self, lpn: Lpn) -> u32 {
        self.alloc.plane_of(lpn)
    }

    #[cold]
    #[inline(never)]
    fn lookup(&self, lpn: Lpn) -> Option<Ppn> {
        let p = self.l2p[lpn as usize];
        (p != NO_PAGE).then_some(p)
    }

    #[cold]
    #[inline(never)]
    fn is_buffered(&self, _lpn: Lpn) -> bool {
        false
    }

    #[cold]
    #[inline(never)]
    fn buffered_pages(&self, _plane: u32) -> u32 {
        0
    }

    #[cold]
    #[inline(never)]
    fn reverse(&self, ppn: Ppn) -> Option<Lpn> {
        let l = self.p2l[ppn as usize];
        (l != NO_PAGE).then_some(l)
    }

    #[cold]
    #[inline(never)]
    fn free_blocks(&self, plane: u32) -> u32 {
        self.planes[plane as usize].free.len() as u32
    }

    #[cold]
    #[inline(never)]
    fn free_pages(&self, plane: u32) -> u64 {
        let ps = &self.planes[plane as usize];
        ps.free.len() as u64 * self.geo.pages_per_block as u64 + ps.room
    }

    /// A full merge takes a fresh block for each logical block of its group, and a host write may
    /// open an update block: n + 1.
    #[cold]
    #[inline(never)]
    fn reserve_blocks(&self) -> u32 {
        self.shape.data + 1
    }

    #[cold]
    #[inline(never)]
    fn threshold_blocks(&self) -> u32 {
        self.threshold
    }

    /// Free blocks below the threshold, update blocks at the plane's cap, or a group whose update
    /// space is used up.
    #[cold]
    #[inline(never)]
    fn needs_gc(&self, plane: u32) -> bool {
        let ps = &self.planes[plane as usize];
        (ps.free.len() as u32) < self.threshold
            || ps.due > 0
            || (self.log_cap > 0 && ps.updates >= self.log_cap)
    }

    #[cold]
    #[inline(never)]
    fn update_room(&self, lpn: Lpn) -> Option<u32> {
        let (plane, lbn, _) = self.locate(lpn);
        let g = lbn / self.shape.data;
        let grp = &self.groups[self.gi(plane, g)];
        let ppb = self.geo.pages_per_block;
        let m = self.shape.update;
        let held = grp.updates.len() as u32;
        if held > m {
            return Some(0);
        }
        let rest = grp
            .updates
            .last()
            .map_or(0, |&b| ppb - self.next[self.gb(plane, b)]);
        Some((m - held) * ppb + rest)
    }

    #[cold]
    #[inline(never)]
    fn gc_ahead(&self, lpns: &[Lpn]) -> Option<GcAhead> {
        self.ahead(lpns)
    }

    #[cold]
    #[inline(never)]
    fn merge_candidate(&self, plane: u32, of: Option<Lpn>, rng: &mut SimRng) -> Option<u32> {
        self.candidate(plane, of, rng)
    }

    #[cold]
    #[inline(never)]
    fn merge_cost(&self, plane: u32, group: u32) -> (u32, u32) {
        (self.copies_of(plane, group), self.erases_of(plane, group))
    }

    #[cold]
    #[inline(never)]
    fn write_opens_block(&self, lpn: Lpn) -> bool {
        self.opens_block(lpn)
    }

    #[cold]
    #[inline(never)]
    fn write_offset(&self, _plane: u32, _stream: Stream) -> u32 {
        0
    }

    #[cold]
    #[inline(never)]
    fn valid_pages(&self, global_block: u32) -> u32 {
        self.valid[global_block as usize] as u32
    }

    #[cold]
    #[inline(never)]
    fn block_state(&self, global_block: u32) -> BlockState {
        self.state[global_block as usize]
    }

    #[cold]
    #[inline(never)]
    fn erase_counts(&self) -> &[u32] {
        &self.erase_count
    }

    #[cold]
    #[inline(never)]
    fn candidates(&self, plane: u32) -> usize {
        self.planes[plane as usize].listed.len()
    }

    #[cold]
    #[inline(never)]
    fn next_valid_in_block(&self, plane: u32, block: u32, from: u32) -> Option<(u32, Lpn)> {
        let base = self.geo.ppn(plane, block, 0);
        (from..self.geo.pages_per_block).find_map(|p| {
            let l = self.p2l[(base + p) as usize];
            (l != NO_PAGE).then_some((p, l))
        })
    }

    #[cold]
    #[inline(never)]
    fn mapped_pages(&self) -> u64 {
        self.mapped
    }

    #[cold]
    #[inline(never)]
    fn check(&self) -> Result<(), String> {
        self.check_all()
    }
}

/// The page-mapped FTL's GC primitives that a log-block FTL does not have: validation rejects
/// every setting that would call them (PaGC, TC-PaGC, hot/cold streams, merging of reads into GC
/// moves), and GC jobs over a log-block FTL are merges ([`FtlMechanism::plan_merge`]).
const NOT_A_MERGE: &str = "a log-block FTL moves pages only in planned merges";

impl FtlMechanism for LogBlockFtl {
    fn take_free_low_water(&mut self) -> u32 {
        std::mem::replace(&mut self.free_low, u32::MAX)
    }

    #[cold]
    #[inline(never)]
    fn host_write(&mut self, lpn: Lpn) -> Result<Ppn, FtlError> {
        let (plane, lbn, off) = self.locate(lpn);
        let ppb = self.geo.pages_per_block;
        let g = lbn / self.shape.data;
        let gi = self.gi(plane, g);
        let current = self.groups[gi]
            .updates
            .last()
            .copied()
            .filter(|&b| self.next[self.gb(plane, b)] < ppb);
        let block = match current {
            Some(b) => b,
            None => self.open_update(plane, g)?,
        };
        let gb = self.gb(plane, block);
        let page = self.next[gb];
        let ppn = gb as u32 * ppb + page;
        let old = self.l2p[lpn as usize];
        if old == NO_PAGE {
            let li = self.li(plane, lbn);
            self.written[li] += 1;
            self.mapped += 1;
        } else {
            self.invalidate(old);
        }
        self.program(ppn, lpn);
        self.planes[plane as usize].room -= 1;
        let local_lbn = lbn % self.shape.data;
        self.seq[gb] = if page == off && (page == 0 || self.seq[gb] == local_lbn) {
            local_lbn
        } else {
            NO_BLOCK
        };
        if page + 1 == ppb {
            self.state[gb] = BlockState::Full;
            self.refresh_due(plane, g);
        }
        Ok(ppn)
    }

    /// A log-block FTL has no victim blocks: GC merges groups ([`FtlMechanism::plan_merge`]).
    #[cold]
    #[inline(never)]
    fn choose_victim(&mut self, _plane: u32, _rng: &mut SimRng) -> Option<u32> {
        None
    }

    #[cold]
    #[inline(never)]
    fn return_victim(&mut self, _plane: u32, _block: u32) {
        unreachable!("{NOT_A_MERGE}: no victim to return");
    }

    #[cold]
    #[inline(never)]
    fn relocate_to(&mut self, _src: Ppn, _lpn: Lpn, _stream: Stream) -> Result<Ppn, FtlError> {
        unreachable!("{NOT_A_MERGE}: no relocation to a write point");
    }

    #[cold]
    #[inline(never)]
    fn relocate_block(&mut self, _plane: u32, _block: u32, _from: u32) -> BlockMoves {
        unreachable!("{NOT_A_MERGE}: no relocation to a write point");
    }

    #[cold]
    #[inline(never)]
    fn buffer_out(&mut self, _src: Ppn, _lpn: Lpn) {
        unreachable!("{NOT_A_MERGE}: no DRAM-buffered GC pages");
    }

    #[cold]
    #[inline(never)]
    fn commit_buffered(
        &mut self,
        _plane: u32,
        _stream: Stream,
    ) -> Result<Option<(Lpn, Ppn)>, FtlError> {
        Ok(None)
    }

    #[cold]
    #[inline(never)]
    fn skip_page(&mut self, _plane: u32, _stream: Stream) -> Result<Ppn, FtlError> {
        unreachable!("{NOT_A_MERGE}: no aligned write points");
    }

    /// Starts erasing a block a merge detached, once every valid page has left it.
    #[cold]
    #[inline(never)]
    fn begin_erase(&mut self, plane: u32, block: u32) {
        let gb = self.gb(plane, block);
        assert!(
            self.role[gb] == Role::Detached && self.state[gb] == BlockState::Victim,
            "erasing block {block} of plane {plane}, which no merge detached"
        );
        assert_eq!(self.valid[gb], 0, "erasing a block that holds valid data");
        self.state[gb] = BlockState::Erasing;
        let g = self.owner[gb];
        let gi = self.gi(plane, g);
        let grp = &mut self.groups[gi];
        grp.pending -= 1;
        if grp.pending == 0 && !grp.updates.is_empty() {
            // Written during its merge: a candidate again.
            self.planes[plane as usize].listed.push(g);
        }
    }

    #[cold]
    #[inline(never)]
    fn finish_erase(&mut self, plane: u32, block: u32) {
        let gb = self.gb(plane, block);
        assert_eq!(self.state[gb], BlockState::Erasing);
        self.state[gb] = BlockState::Free;
        self.role[gb] = Role::Free;
        self.owner[gb] = NO_BLOCK;
        self.next[gb] = 0;
        self.seq[gb] = NO_BLOCK;
        self.erase_count[gb] += 1;
        self.planes[plane as usize]
            .free
            .put(block, self.erase_count[gb]);
    }

    #[cold]
    #[inline(never)]
    fn plan_merge(&mut self, plane: u32, rng: &mut SimRng) -> Option<MergePlan> {
        let g = self.pick(plane, rng)?;
        Some(self.plan(plane, g))
    }

    #[cold]
    #[inline(never)]
    fn plan_group_merge(&mut self, plane: u32, group: u32) -> Option<MergePlan> {
        let listed = &mut self.planes[plane as usize].listed;
        let pos = listed.iter().position(|&g| g == group)?;
        listed.remove(pos);
        Some(self.plan(plane, group))
    }

    #[cold]
    #[inline(never)]
    fn merge_copy(&mut self, c: PageCopy) -> bool {
        if self.l2p[c.lpn as usize] != c.src {
            return false;
        }
        debug_assert_eq!(self.p2l[c.src as usize], c.lpn);
        let gb = (c.dst / self.geo.pages_per_block) as usize;
        debug_assert_eq!(
            self.role[gb],
            Role::Data,
            "a merge copies into a data block"
        );
        self.invalidate(c.src);
        self.program(c.dst, c.lpn);
        true
    }
}

#[cfg(test)]
pub(crate) mod tests;
