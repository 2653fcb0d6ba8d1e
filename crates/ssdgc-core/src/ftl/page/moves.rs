//! A victim's moves at once ([`FtlMechanism::relocate_block`](crate::ftl::FtlMechanism::relocate_block)):
//! its valid pages go to the plane's GC write point in page order, exactly as one
//! [`relocate_to`](crate::ftl::FtlMechanism::relocate_to) after another would move them, with the
//! tables borrowed once per destination block instead of once per access (a huge-page table's view
//! is checked each time it is taken: `table.rs`) and the L2P entries of the moves
//! [`LOOKAHEAD`] pages ahead fetched into the cache.

use super::table::ViewMut;
use super::{PageFtl, NO_BLOCK};
use crate::ftl::seam::{relocate_each, BlockMoves};
use crate::ftl::streams::Stream;
use crate::ftl::{BlockState, FtlError};
use crate::units::NO_PAGE;
use std::hint::select_unpredictable;

/// Pages of the victim ahead of the move whose L2P entry is fetched into the cache (a hint that
/// changes no result).
const LOOKAHEAD: u32 = 8;

impl PageFtl {
    /// [`FtlMechanism::relocate_block`](crate::ftl::FtlMechanism::relocate_block).
    pub(super) fn move_block(&mut self, plane: u32, block: u32, from: u32) -> BlockMoves {
        let ppb = self.geo.pages_per_block;
        let bpp = self.geo.blocks_per_plane;
        let src_gb = (plane * bpp + block) as usize;
        if self.hc.is_on() || self.blocks[src_gb].state != BlockState::Victim {
            // With hot/cold separation each page's stream is its own; a block that is not a
            // victim has its invalidations told to the victim index: one page at a time.
            return relocate_each(self, plane, block, from);
        }
        let base = self.geo.ppn(plane, block, 0);
        let slot = self.streams.slot(Stream::Gc);
        {
            let (l2p, p2l) = (self.l2p.view(), self.p2l.view());
            let ahead = (from + LOOKAHEAD).min(ppb).max(from);
            for lpn in p2l.run((base + from) as usize, (base + ahead) as usize) {
                if lpn != NO_PAGE {
                    l2p.prefetch(lpn as usize);
                }
            }
        }
        let mut moved = 0;
        let mut page = from;
        loop {
            let p2l = self.p2l.view();
            let Some(i) = p2l
                .run((base + page.min(ppb)) as usize, (base + ppb) as usize)
                .position(|lpn| lpn != NO_PAGE)
            else {
                break;
            };
            page += i as u32;
            // The destination block: the GC write point's, opened for this move if it has none.
            if self.planes[plane as usize].wp[slot].block == NO_BLOCK {
                if let Err(e) = self.open_block(plane, Stream::Gc) {
                    return BlockMoves {
                        moved,
                        next: page,
                        error: Some(e),
                    };
                }
            }
            let wp = self.planes[plane as usize].wp[slot];
            let dst_gb = (plane * bpp + wp.block) as usize;
            let dst_base = self.geo.ppn(plane, wp.block, 0);
            let first = wp.next;
            let next = {
                // The two blocks' P2L entries, `ppb` each.
                let (victim, dest) =
                    self.p2l
                        .view_mut()
                        .two_ranges(base as usize, dst_base as usize, ppb as usize);
                // The two blocks' valid counts and clocks are written once the run ends (nothing
                // reads them during it).
                let l2p = self.l2p.view_mut();
                let (p, n) = move_run(victim, dest, l2p, dst_base, page as usize, first as usize);
                page = p as u32;
                n as u32
            };
            let n = next - first;
            // One program per move.
            let clock = self.clock + u64::from(n);
            if n > 0 {
                // As each move left them: the victim's clock is the one of its last
                // invalidation, before the last program.
                self.blocks[src_gb].valid -= n as u16;
                self.blocks[src_gb].last_modified = clock - 1;
                self.blocks[dst_gb].valid += n as u16;
                self.blocks[dst_gb].last_modified = clock;
                moved += n;
            }
            self.clock = clock;
            let wp = &mut self.planes[plane as usize].wp[slot];
            wp.next = next;
            if next == ppb {
                wp.block = NO_BLOCK;
                self.close_block(dst_gb);
            }
        }
        BlockMoves {
            moved,
            next: ppb,
            error: None,
        }
    }

    /// Opens a block from the plane's free pool at `stream`'s write point, which has none.
    #[inline(always)]
    pub(super) fn open_block(&mut self, plane: u32, stream: Stream) -> Result<(), FtlError> {
        let bpp = self.geo.blocks_per_plane;
        let ps = &mut self.planes[plane as usize];
        let b = ps
            .free
            .take(self.streams.take(stream))
            .ok_or(FtlError::OutOfBlocks { plane })?;
        ps.free_len -= 1;
        self.free_low = self.free_low.min(ps.free_len);
        let gb = (plane * bpp + b) as usize;
        debug_assert_eq!(self.blocks[gb].state, BlockState::Free);
        self.blocks[gb].state = BlockState::Open;
        let wp = &mut ps.wp[self.streams.slot(stream)];
        wp.block = b;
        wp.next = 0;
        Ok(())
    }
}

/// One run of a victim's moves: its valid pages from page `page` of `victim` (the victim's P2L
/// entries) go to the free pages of `dest` (the destination block's, whose first page is
/// `dst_base`) from page `next` on, in page order, until the victim or the destination runs out.
/// Each moved page's victim entry is cleared, its destination entry and its L2P entry in `l2p`
/// written; the L2P entries of the moves [`LOOKAHEAD`] pages ahead are fetched into the cache.
/// Returns the victim page and the destination page where it stopped.
///
/// Out of line, with the slices' own bounds as the loop's: the loop keeps its pointers in
/// registers and needs no bounds check but the L2P entry's. Which of a victim's pages are valid
/// is as random as the overwrites that left them, so the loop does not branch on it (a branch
/// would be mispredicted about once per invalid page, twice with the look-ahead's): an invalid
/// page writes what is already there instead — `NO_PAGE` over its own victim entry and over the
/// destination's free entry, and the last L2P entry written over itself.
#[inline(never)]
fn move_run(
    mut victim: ViewMut<'_>,
    mut dest: ViewMut<'_>,
    mut l2p: ViewMut<'_>,
    dst_base: u32,
    mut page: usize,
    mut next: usize,
) -> (usize, usize) {
    // The L2P entry an invalid page rewrites, and the value it holds: the last one the run wrote,
    // entry 0 before the first (only this loop writes the L2P while it runs).
    let Some(held) = l2p.get(0) else {
        // No L2P entry, so no valid page to move.
        return (page, next);
    };
    let mut last = (0usize, held);
    while page < victim.len() && next < dest.len() {
        if let Some(ahead) = victim.get(page + LOOKAHEAD as usize) {
            // An invalid page has no L2P entry: entry 0 is fetched instead (a hint).
            l2p.prefetch(select_unpredictable(ahead != NO_PAGE, ahead as usize, 0));
        }
        let lpn = victim.at(page);
        let valid = lpn != NO_PAGE;
        // The victim's copy is invalid (a victim is no candidate: no index to tell), the new
        // copy mapped.
        victim.set(page, NO_PAGE);
        debug_assert_eq!(dest.at(next), NO_PAGE);
        dest.set(next, lpn);
        last = select_unpredictable(valid, (lpn as usize, dst_base + next as u32), last);
        l2p.set(last.0, last.1);
        next += usize::from(valid);
        page += 1;
    }
    (page, next)
}

#[cfg(test)]
mod tests {
    use super::move_run;
    use crate::ftl::page::table::ViewMut;
    use crate::units::NO_PAGE;

    #[test]
    fn a_run_moves_the_valid_pages_in_order_until_either_block_runs_out() {
        // Victim pages 1, 2, 4 and 5 valid; the destination has room for 3 from page 1.
        let mut victim = [NO_PAGE, 11, 12, NO_PAGE, 14, 15];
        let mut dest = [7, NO_PAGE, NO_PAGE, NO_PAGE];
        let mut l2p = vec![NO_PAGE; 16];
        let (page, next) = move_run(
            ViewMut::of(&mut victim),
            ViewMut::of(&mut dest),
            ViewMut::of(&mut l2p),
            100,
            0,
            1,
        );
        assert_eq!(
            (page, next),
            (5, 4),
            "stopped after the destination's last page"
        );
        assert_eq!(victim, [NO_PAGE, NO_PAGE, NO_PAGE, NO_PAGE, NO_PAGE, 15]);
        assert_eq!(dest, [7, 11, 12, 14]);
        assert_eq!(
            (l2p[11], l2p[12], l2p[14], l2p[15]),
            (101, 102, 103, NO_PAGE)
        );
        // The rest: the victim runs out first.
        let mut dest = [NO_PAGE; 4];
        let (page, next) = move_run(
            ViewMut::of(&mut victim),
            ViewMut::of(&mut dest),
            ViewMut::of(&mut l2p),
            200,
            page,
            0,
        );
        assert_eq!((page, next), (6, 1));
        assert_eq!(dest, [15, NO_PAGE, NO_PAGE, NO_PAGE]);
        assert_eq!(l2p[15], 200);
        assert!(victim.iter().all(|&v| v == NO_PAGE));
    }
}
