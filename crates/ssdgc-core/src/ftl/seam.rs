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
use super::streams::Stream;
use super::{BlockState, FtlError};
use crate::flash::Geometry;
use crate::rng::SimRng;
use crate::units::{Lpn, Ppn};

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
    /// True when a host write of `lpn` now would find its GC due: under on-demand collection it
    /// waits for GC (AGC/DGC paper §2.2, an "update block reclaiming" GC). The default: the
    /// page's plane is below the trigger.
    fn write_needs_gc(&self, lpn: Lpn) -> bool {
        self.needs_gc(self.plane_of(lpn))
    }
    /// How many of the host writes `lpns`, written in this order with no GC in between, go before
    /// one finds its GC due (`lpns.len()` when none does): what AGC's look-ahead GC asks of a
    /// previewed command (AGC/DGC paper §5.1). The default looks at the FTL as it is now, so it
    /// only sees a GC already due; a mapping scheme that can tell when its writes will make one
    /// due overrides it.
    fn writes_before_gc(&self, lpns: &[Lpn]) -> usize {
        lpns.iter()
            .position(|&l| self.write_needs_gc(l))
            .unwrap_or(lpns.len())
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
    /// Chooses a victim in `plane` (the candidate index decides) and marks it. Returns the
    /// plane-local block, or `None` when the plane has no candidate.
    fn choose_victim(&mut self, plane: u32, rng: &mut SimRng) -> Option<u32>;
    /// Puts back a victim [`FtlView::choose_victim`] returned and nothing collected: it is a
    /// candidate again (the candidate index is told as when a block fills).
    fn return_victim(&mut self, plane: u32, block: u32);
    /// Moves the valid page `src` (holding `lpn`) to its plane's write point of `stream`. Returns the
    /// new page.
    fn relocate_to(&mut self, src: Ppn, lpn: Lpn, stream: Stream) -> Result<Ppn, FtlError>;
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
}
