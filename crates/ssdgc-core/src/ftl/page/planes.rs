//! One plane of the page-mapped FTL as an FTL of its own, and back: for preconditioning the planes
//! of a drive independently and in parallel.
//!
//! Under static allocation a plane holds a fixed, dense share of the logical space (the logical
//! pages `k × P + r`, `k = 0, 1, …`, for the plane's residue `r` modulo the `P` planes: the
//! allocation order decides the plane from `lpn mod P` alone), and GC moves pages only inside
//! their plane, so the pages, blocks, free pool, write points and victim index of one plane never
//! meet another plane's. [`PageFtl::split_plane`] lends a plane of a fresh drive to a one-plane
//! `PageFtl` whose logical page `k` is the drive's `k × P + r`, with tables a plane's size;
//! [`PageFtl::join_planes`] moves a group of them back, translating their addresses.
//!
//! Only the logical clock is shared by the planes: a plane's program `t` (its own clock) is placed
//! at the drive's clock `(t − 1) × P + r + 1`, where a round-robin interleaving of the planes'
//! programs would put it, and the drive's clock ends at the latest such time of any plane
//! ([`PageFtl::join_planes`]). For a sequential fill of the drive in logical order (no GC) this is
//! exactly the drive's own clock.
//!
//! The L2P entries of one plane are `P` entries apart in the drive's table; a group of planes of
//! consecutive residues is joined together, `k` by `k`, so that each cache line of the drive's L2P
//! is written once by one group rather than once by each of its planes.

use std::collections::VecDeque;

use super::table::PageTable;
use super::{PageFtl, PlaneState, WritePoint, BUFFERED, NO_BLOCK};
use crate::flash::{AllocationOrder, StaticAllocator};
use crate::ftl::streams::STREAMS;
use crate::ftl::{BlockInfo, BlockState};
use crate::units::NO_PAGE;

/// Logical pages `k × planes + residue` below `logical`.
pub fn plane_share(logical: u32, planes: u32, residue: u32) -> u32 {
    if residue >= logical {
        0
    } else {
        (logical - 1 - residue) / planes + 1
    }
}

/// The drive's clock of a plane's program `t` ([module docs](self)).
fn drive_clock(t: u64, planes: u64, residue: u64) -> u64 {
    if t == 0 {
        0
    } else {
        (t - 1) * planes + residue + 1
    }
}

impl PageFtl {
    /// True when nothing has been written yet, no plane is lent out and pages are not classified
    /// hot or cold (the HC table is indexed by the drive's logical pages): the planes can be split
    /// off.
    pub(crate) fn is_fresh(&self) -> bool {
        self.clock == 0
            && !self.hc.is_on()
            && self.blocks.iter().all(|b| b.state == BlockState::Free)
            && self
                .planes
                .iter()
                .all(|p| p.wp.iter().all(|w| w.block == NO_BLOCK) && p.buffered.is_empty())
    }

    /// The residue modulo the plane count of the logical pages each plane holds.
    pub(crate) fn plane_residues(&self) -> Vec<u32> {
        let mut r = vec![0; self.geo.planes as usize];
        for lpn in 0..self.geo.planes {
            r[self.alloc.plane_of(lpn) as usize] = lpn;
        }
        r
    }

    /// A plane's state as a fresh drive has it (a placeholder while the plane is lent out).
    fn fresh_plane(&self, like: &PlaneState) -> PlaneState {
        PlaneState {
            free: like.free.clone(),
            free_len: like.free_len,
            wp: [WritePoint {
                block: NO_BLOCK,
                next: 0,
            }; STREAMS],
            victim: self
                .victim_kind
                .build_plane(self.geo.blocks_per_plane, self.geo.pages_per_block),
            buffered: VecDeque::new(),
            buffered_live: 0,
        }
    }

    /// Lends plane `plane` (whose logical pages have residue `residue`) of a fresh drive
    /// ([`Self::is_fresh`]) to a one-plane FTL; the drive's plane stays fresh until
    /// [`Self::join_planes`] moves the state back.
    pub(crate) fn split_plane(&mut self, plane: u32, residue: u32) -> PageFtl {
        let g = &self.geo;
        let share = plane_share(g.logical_pages, g.planes, residue);
        let geo = g.one_plane(share);
        let bpp = g.blocks_per_plane as usize;
        let ppp = g.pages_per_plane as usize;
        let fresh = self.fresh_plane(&self.planes[plane as usize]);
        let state = std::mem::replace(&mut self.planes[plane as usize], fresh);
        // One plane is plane 0 whatever the allocation order.
        let order = AllocationOrder::parse("CWDP").expect("a valid order");
        PageFtl {
            alloc: StaticAllocator::new(order, &geo),
            l2p: PageTable::filled(share as usize, NO_PAGE),
            p2l: PageTable::filled(ppp, NO_PAGE),
            blocks: vec![BlockInfo::FREE; bpp],
            erase_count: vec![0; bpp],
            planes: vec![state],
            clock: 0,
            trigger: self.trigger,
            streams: self.streams,
            victim_kind: self.victim_kind.clone(),
            hc: super::HcTable::new(false, 0),
            free_low: u32::MAX,
            geo,
        }
    }

    /// Moves the state of planes lent out with [`Self::split_plane`] back, each given as (plane,
    /// residue, its one-plane FTL), translating their pages, blocks and clocks into the drive's.
    /// The drive's clock becomes the latest program of any plane joined so far.
    pub(crate) fn join_planes(&mut self, mut subs: Vec<(u32, u32, PageFtl)>) {
        let p = self.geo.planes;
        let ppp = self.geo.pages_per_plane;
        let mut clock = 0;
        for (plane, residue, sub) in &mut subs {
            let base = *plane * ppp;
            let dst = &mut self.p2l[base as usize..(base + ppp) as usize];
            for (d, &local) in dst.iter_mut().zip(sub.p2l.iter()) {
                *d = if local == NO_PAGE {
                    NO_PAGE
                } else {
                    local * p + *residue
                };
            }
            let r = self.plane_range(*plane);
            self.erase_count[r.clone()].copy_from_slice(&sub.erase_count);
            let (pl, res) = (u64::from(p), u64::from(*residue));
            for (g, s) in self.blocks[r].iter_mut().zip(&sub.blocks) {
                *g = BlockInfo {
                    last_modified: drive_clock(s.last_modified, pl, res),
                    ..*s
                };
            }
            let state = sub.planes.pop().expect("a one-plane FTL");
            self.planes[*plane as usize] = state;
            self.free_low = self.free_low.min(sub.free_low);
            clock = clock.max(drive_clock(sub.clock, pl, res));
        }
        // The L2P, entry k of every plane of the group at once (consecutive residues share lines).
        subs.sort_by_key(|s| s.1);
        let longest = subs.iter().map(|s| s.2.l2p.len()).max().unwrap_or(0);
        for k in 0..longest {
            let row = k as u32 * p;
            for (plane, residue, sub) in &subs {
                if let Some(&ppn) = sub.l2p.get(k) {
                    debug_assert!(
                        ppn == NO_PAGE || ppn & BUFFERED == 0,
                        "no page is buffered while ageing"
                    );
                    self.l2p[(row + residue) as usize] = if ppn == NO_PAGE {
                        NO_PAGE
                    } else {
                        plane * ppp + ppn
                    };
                }
            }
        }
        self.clock = self.clock.max(clock);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_cover_the_logical_space() {
        for (logical, planes) in [(10, 4), (8, 4), (3, 4), (0, 2), (1000, 7)] {
            let sum: u32 = (0..planes).map(|r| plane_share(logical, planes, r)).sum();
            assert_eq!(sum, logical);
        }
        assert_eq!(plane_share(10, 4, 1), 3); // 1, 5, 9
        assert_eq!(plane_share(10, 4, 3), 2); // 3, 7
    }

    #[test]
    fn the_fill_order_maps_onto_the_drive_clock() {
        // Logical page k × P + r is the drive's program k × P + r + 1 in a fill in logical order,
        // and the plane's program k + 1.
        for (k, r) in [(0u64, 0u64), (0, 3), (5, 2)] {
            assert_eq!(drive_clock(k + 1, 4, r), k * 4 + r + 1);
        }
        assert_eq!(drive_clock(0, 4, 3), 0);
    }
}
