//! The seam between a mapping scheme and the rest of the drive.
//!
//! [`FtlView`] is what a GC scheme may read to decide (free space, the trigger, write offsets,
//! validity, wear); [`FtlMechanism`] is what the shared GC mechanism and the host path may do
//! (write, choose a victim, move, buffer, erase). A mapping scheme implements both; the drive holds
//! it through [`super::Ftl`], which forwards to it without dynamic dispatch and counts the work
//! done at the seam ([`super::FtlCounters`]), so every scheme is counted alike.
//!
//! Addresses: planes are dense drive-wide numbers, blocks inside a plane are plane-local
//! (`0..blocks_per_plane`) unless a method says *drive-wide* (`plane * blocks_per_plane + block`),
//! pages are physical page numbers ([`crate::units::Ppn`]) or offsets inside a block.

use super::candidates::CandidateIndexKind;
use super::merge::{MergePlan, PageCopy};
use super::streams::Stream;
use super::{BlockState, FtlError};
use crate::flash::Geometry;
use crate::rng::SimRng;
use crate::units::{Lpn, Ppn};

/// What [`FtlMechanism::relocate_block`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockMoves {
    /// Pages moved.
    pub moved: u32,
    /// The page the scan stopped at: the block's page count when every valid page moved, else the
    /// page whose move failed (still valid, where it was).
    pub next: u32,
    /// The failure that stopped the moves, if any.
    pub error: Option<FtlError>,
}

/// The GC a previewed sequence of host writes will find due ([`FtlView::gc_ahead`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GcAhead {
    /// Index of the first write that finds its GC due.
    pub write: usize,
    /// The plane that must collect first.
    pub plane: u32,
    /// Under a log-block mapping, a logical page whose group an earlier write of the sequence
    /// fills (its update space used up): that group's merge is the GC due. `None` when the GC due
    /// is the plane's (its free blocks, or a group already due).
    pub group: Option<Lpn>,
}

/// What may be read about an FTL. Every method is a query: it changes nothing.
pub trait FtlView {
    /// The drive's geometry.
    fn geometry(&self) -> &Geometry;
    /// The victim policy that indexes each plane's candidates.
    fn victim_kind(&self) -> &dyn CandidateIndexKind;
    /// The plane holding a logical page (static allocation).
    fn plane_of(&self, lpn: Lpn) -> u32;
    /// Where a logical page is in flash, or `None` if it was never written or is held in the DRAM
    /// buffer ([`FtlView::is_buffered`]).
    fn lookup(&self, lpn: Lpn) -> Option<Ppn>;
    /// True when the logical page's data is in the DRAM buffer, waiting to be committed to flash.
    fn is_buffered(&self, lpn: Lpn) -> bool;
    /// Pages of a plane held in the DRAM buffer.
    fn buffered_pages(&self, plane: u32) -> u32;
    /// The logical page stored at a physical page, if that page is valid.
    fn reverse(&self, ppn: Ppn) -> Option<Lpn>;
    /// Free blocks in a plane's pool.
    fn free_blocks(&self, plane: u32) -> u32;
    /// Free pages in a plane: free blocks plus what is left in the open write points.
    fn free_pages(&self, plane: u32) -> u64;
    /// Free blocks a plane needs so that a host write and a GC job can each open a block: 2, or 3
    /// when GC writes hot and cold pages to separate write points.
    fn reserve_blocks(&self) -> u32 {
        2
    }
    /// Share of a plane's pages that are free.
    fn free_share(&self, plane: u32) -> f64 {
        self.free_pages(plane) as f64 / self.geometry().pages_per_plane as f64
    }
    /// Free blocks below which a plane collects.
    fn threshold_blocks(&self) -> u32;
    /// True when a plane is below the GC trigger.
    fn needs_gc(&self, plane: u32) -> bool;
    /// True when a host write of `lpn`, served now, would first need GC (a merge, under a log-block
    /// mapping): the on-demand trigger collects before exactly such a write. A look-ahead scheme
    /// asks it of the writes waiting in the device queue, to do that GC ahead of them.
    ///
    /// Every mapping so far answers by the write's plane ([`FtlView::needs_gc`]): the page-mapped
    /// FTL's trigger is per plane, and the log-block FTLs mark their plane as needing GC as soon as
    /// one of its groups has used up its update blocks (or the plane its free blocks or its cap of
    /// update blocks), so that no write to the plane can find its group without space.
    fn write_needs_gc(&self, lpn: Lpn) -> bool {
        self.needs_gc(self.plane_of(lpn))
    }
    /// Host pages the logical group of `lpn` can still take before it needs a merge — what is left
    /// of its update blocks and the update blocks it may still open — or `None` when the mapping
    /// has no per-group space (page-mapped: space is per plane). A look-ahead scheme compares it
    /// with a queued request's pages of that group (AGC/DGC paper §5.1, Fig. 5: "the logical block
    /// corresponding to that request has only one free page"). The plane's own limits (free
    /// blocks, `ftl.log_blocks`) are [`FtlView::needs_gc`]'s.
    fn update_room(&self, _lpn: Lpn) -> Option<u32> {
        None
    }
    /// The GC that the host writes `lpns`, written in this order with no GC in between, will
    /// find due first (`None` when none will): what AGC's look-ahead GC asks of a previewed
    /// command (AGC/DGC paper §5.1). The default looks at the FTL as it is now, so it only sees a
    /// GC already due; a mapping scheme that can tell when its writes will make one due overrides
    /// it.
    fn gc_ahead(&self, lpns: &[Lpn]) -> Option<GcAhead> {
        let write = lpns.iter().position(|&l| self.write_needs_gc(l))?;
        Some(GcAhead {
            write,
            plane: self.plane_of(lpns[write]),
            group: None,
        })
    }
    /// The group a merge of `plane` would take now (log-block mappings): the logical group of
    /// `of` if it may be merged now, or with `of = None` the group
    /// [`FtlMechanism::plan_merge`] would choose, drawing from `rng` as it would. Changes nothing
    /// in the FTL. `None` when there is no such group, or the mapping does not merge.
    fn merge_candidate(&self, _plane: u32, _of: Option<Lpn>, _rng: &mut SimRng) -> Option<u32> {
        None
    }
    /// The pages group `group` of `plane`'s merge would copy and the blocks it would erase, were
    /// it planned now (the `n_valid` and κ of the AGC/DGC paper's eq. 2); `(0, 0)` when the
    /// mapping does not merge.
    fn merge_cost(&self, _plane: u32, _group: u32) -> (u32, u32) {
        (0, 0)
    }
    /// True when a host write of `lpn` now would open a fresh block for its write point (the
    /// delay block of DGC's update block replacement, AGC/DGC paper §5.2, when its GC is due and
    /// is deferred).
    fn write_opens_block(&self, lpn: Lpn) -> bool;
    /// The page offset the next write of `stream` in `plane` lands on (0 when a fresh block will be
    /// opened).
    fn write_offset(&self, plane: u32, stream: Stream) -> u32;
    /// Valid pages in a drive-wide block.
    fn valid_pages(&self, global_block: u32) -> u32;
    /// State of a drive-wide block.
    fn block_state(&self, global_block: u32) -> BlockState;
    /// Erase counts of every block, drive-wide.
    fn erase_counts(&self) -> &[u32];
    /// Victim candidates of a plane (its full blocks).
    fn candidates(&self, plane: u32) -> usize;
    /// The fewest valid pages of any victim candidate (full block) of a plane, `None` when it has
    /// none. By default a scan of the plane's blocks; a mapping whose victim index keeps valid
    /// counts answers from it.
    fn fewest_valid(&self, plane: u32) -> Option<u32> {
        let bpp = self.geometry().blocks_per_plane;
        (plane * bpp..(plane + 1) * bpp)
            .filter(|&gb| self.block_state(gb) == BlockState::Full)
            .map(|gb| self.valid_pages(gb))
            .min()
    }
    /// Next valid page of block `block` of `plane` at or after page offset `from`, as (offset, lpn).
    fn next_valid_in_block(&self, plane: u32, block: u32, from: u32) -> Option<(u32, Lpn)>;
    /// Number of logical pages currently mapped (in flash or in the DRAM buffer).
    fn mapped_pages(&self) -> u64;
    /// Checks every invariant of the mapping and the block table; returns the first violation.
    /// Costs a pass over all pages: for tests and `--check`.
    fn check(&self) -> Result<(), String>;
}

/// What the host path and the GC mechanism may do to an FTL. Each call is one step of the block life
/// cycle `free → open → full → victim → erasing → free`, and asserts that its block is in the state
/// the step starts from.
pub trait FtlMechanism: FtlView {
    /// Writes host data for `lpn`: invalidates the old copy, programs a page at the host write point
    /// of its plane and maps it. Returns the new page.
    fn host_write(&mut self, lpn: Lpn) -> Result<Ppn, FtlError>;
    /// [`FtlMechanism::host_write`] of `lpn` in `plane`, its plane ([`FtlView::plane_of`]), which
    /// the caller already knows.
    fn host_write_in(&mut self, plane: u32, lpn: Lpn) -> Result<Ppn, FtlError> {
        debug_assert_eq!(plane, self.plane_of(lpn));
        self.host_write(lpn)
    }
    /// The fewest free blocks a plane's pool held right after one of its write points took a block,
    /// over every plane, since the last call (which starts a new period); `u32::MAX` when no block
    /// was taken, or when the scheme does not keep the figure. For the latency series' free-block
    /// minimum per interval.
    fn take_free_low_water(&mut self) -> u32 {
        u32::MAX
    }
    /// Writes host data for `lpn` at its plane's write point of `stream` rather than the host
    /// one: a host write merged into the page buffer of a GC move of `lpn` lands where the move
    /// would have (preemptible-GC paper §III-B). By default a plain [`FtlMechanism::host_write`]
    /// (a mapping without separate GC write points).
    fn host_write_to(&mut self, lpn: Lpn, stream: Stream) -> Result<Ppn, FtlError> {
        let _ = stream;
        self.host_write(lpn)
    }
    /// Chooses a victim in `plane` (the candidate index decides) and marks it. Returns the
    /// plane-local block, or `None` when the plane has no candidate.
    fn choose_victim(&mut self, plane: u32, rng: &mut SimRng) -> Option<u32>;
    /// Puts back a victim [`FtlMechanism::choose_victim`] returned and nothing collected: it is a
    /// candidate again (the candidate index is told as when a block fills).
    fn return_victim(&mut self, plane: u32, block: u32);
    /// Moves the valid page `src` (holding `lpn`) to its plane's write point of `stream`. Returns the
    /// new page.
    fn relocate_to(&mut self, src: Ppn, lpn: Lpn, stream: Stream) -> Result<Ppn, FtlError>;
    /// Moves every valid page of plane-local `block` of `plane` from page `from` on, in page order,
    /// to the plane's GC write point: what [`FtlMechanism::relocate_to`] with [`Stream::Gc`] does
    /// to each of them in turn, at once (a GC job whose moves nothing can come between). Stops at
    /// the first move that fails.
    fn relocate_block(&mut self, plane: u32, block: u32, from: u32) -> BlockMoves
    where
        Self: Sized,
    {
        relocate_each(self, plane, block, from)
    }
    /// Reads the valid page `src` (holding `lpn`) out into the DRAM buffer: the flash copy becomes
    /// invalid and the logical page is served from the buffer until it is committed.
    fn buffer_out(&mut self, src: Ppn, lpn: Lpn);
    /// Writes the oldest live buffered page of `plane` to its write point of `stream`. Returns the
    /// logical page and where it went, or `None` when nothing is buffered.
    fn commit_buffered(
        &mut self,
        plane: u32,
        stream: Stream,
    ) -> Result<Option<(Lpn, Ppn)>, FtlError>;
    /// Leaves the next page of a write point unprogrammed (to bring aligned write points to one
    /// offset). Returns the page skipped.
    fn skip_page(&mut self, plane: u32, stream: Stream) -> Result<Ppn, FtlError>;
    /// Starts erasing a victim that holds no valid page.
    fn begin_erase(&mut self, plane: u32, block: u32);
    /// Completes an erase: the block's erase count grows by one and it returns to its plane's free
    /// pool.
    fn finish_erase(&mut self, plane: u32, block: u32);
    /// Plans a merge in `plane` (log-block mappings): chooses the group (one whose update space is
    /// used up first, else by the merge victim policy), decides its kind, re-points its logical
    /// blocks at their new data blocks and detaches the blocks the merge will erase. `None` when
    /// the plane has no group to merge, or the mapping does not merge (page-mapped: GC collects
    /// victim blocks, [`FtlMechanism::choose_victim`]).
    fn plan_merge(&mut self, _plane: u32, _rng: &mut SimRng) -> Option<MergePlan> {
        None
    }
    /// Carries out one page copy of a planned merge: programs `c.dst` with `c.lpn`'s data,
    /// invalidates `c.src` and remaps. False (and nothing programmed) when `c.lpn` no longer lives
    /// at `c.src`. Only called with the copies of a plan this mapping returned.
    fn merge_copy(&mut self, _c: PageCopy) -> bool {
        false
    }
    /// Plans the merge of group `group` of `plane`, a group [`FtlView::merge_candidate`]
    /// returned with nothing changed since: as [`FtlMechanism::plan_merge`] does for the group it
    /// chooses. `None` when the mapping does not merge.
    fn plan_group_merge(&mut self, _plane: u32, _group: u32) -> Option<MergePlan> {
        None
    }
}

/// [`FtlMechanism::relocate_block`] one page at a time, through [`FtlView::next_valid_in_block`]
/// and [`FtlMechanism::relocate_to`].
pub fn relocate_each<F: FtlMechanism>(f: &mut F, plane: u32, block: u32, from: u32) -> BlockMoves {
    let mut moved = 0;
    let mut page = from;
    while let Some((p, lpn)) = f.next_valid_in_block(plane, block, page) {
        let src = f.geometry().ppn(plane, block, p);
        if let Err(e) = f.relocate_to(src, lpn, Stream::Gc) {
            return BlockMoves {
                moved,
                next: p,
                error: Some(e),
            };
        }
        moved += 1;
        page = p + 1;
    }
    BlockMoves {
        moved,
        next: f.geometry().pages_per_block,
        error: None,
    }
}
