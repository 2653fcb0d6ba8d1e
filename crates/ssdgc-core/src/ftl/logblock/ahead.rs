//! What AGC and DGC ask of a log-block FTL (AGC/DGC paper §5.1, §5.2, Fig. 5): which GC a
//! previewed command's writes will find due, which group a merge would take and what it would
//! cost (eq. 2's `n_valid` and κ), and whether a write opens an update block (DGC's delay block).
//! Queries only: nothing here changes the FTL.

use super::LogBlockFtl;
use crate::ftl::seam::GcAhead;
use crate::rng::SimRng;
use crate::units::Lpn;

/// A plane as [`LogBlockFtl::ahead`] replays writes on it.
struct PlaneAhead {
    plane: u32,
    free: u32,
    updates: u32,
    due: u32,
    /// The first page whose write used up its group's update space in the replay.
    filled: Option<Lpn>,
}

/// A group as [`LogBlockFtl::ahead`] replays writes on it.
struct GroupAhead {
    /// Drive-wide group index.
    gi: usize,
    /// Update blocks held.
    held: u32,
    /// Free pages left in its last update block.
    rest: u32,
    due: bool,
}

impl LogBlockFtl {
    /// Replays the host writes `lpns` on counts of free blocks, update blocks and due groups per
    /// plane, and update blocks and free pages per group, with [`crate::ftl::FtlView::needs_gc`]'s
    /// rule: the first write that finds its plane needing GC, and the group an earlier write of
    /// the replay filled, if one did (Fig. 5: "the logical block corresponding to that request
    /// has only one free page").
    pub(super) fn ahead(&self, lpns: &[Lpn]) -> Option<GcAhead> {
        let ppb = self.geo.pages_per_block;
        let m = self.shape.update;
        let mut planes: Vec<PlaneAhead> = Vec::new();
        let mut groups: Vec<GroupAhead> = Vec::new();
        for (i, &lpn) in lpns.iter().enumerate() {
            let (plane, lbn, _) = self.locate(lpn);
            let k = match planes.iter().position(|p| p.plane == plane) {
                Some(k) => k,
                None => {
                    let ps = &self.planes[plane as usize];
                    planes.push(PlaneAhead {
                        plane,
                        free: ps.free.len() as u32,
                        updates: ps.updates,
                        due: ps.due,
                        filled: None,
                    });
                    planes.len() - 1
                }
            };
            let p = &mut planes[k];
            if p.free < self.threshold
                || p.due > 0
                || (self.log_cap > 0 && p.updates >= self.log_cap)
            {
                return Some(GcAhead {
                    write: i,
                    plane,
                    group: p.filled,
                });
            }
            let gi = self.gi(plane, lbn / self.shape.data);
            let q = match groups.iter().position(|g| g.gi == gi) {
                Some(q) => q,
                None => {
                    let grp = &self.groups[gi];
                    let rest = grp
                        .updates
                        .last()
                        .map_or(0, |&b| ppb - self.next[self.gb(plane, b)]);
                    groups.push(GroupAhead {
                        gi,
                        held: grp.updates.len() as u32,
                        rest,
                        due: grp.due,
                    });
                    groups.len() - 1
                }
            };
            let g = &mut groups[q];
            if g.rest == 0 {
                g.held += 1;
                g.rest = ppb;
                p.free = p.free.saturating_sub(1);
                p.updates += 1;
            }
            g.rest -= 1;
            if !g.due && (g.held > m || (g.held == m && g.rest == 0)) {
                g.due = true;
                p.due += 1;
                p.filled.get_or_insert(lpn);
            }
        }
        None
    }

    /// True when a host write of `lpn` now opens an update block: its group has none, or its last
    /// is full.
    pub(super) fn opens_block(&self, lpn: Lpn) -> bool {
        let (plane, lbn, _) = self.locate(lpn);
        let grp = &self.groups[self.gi(plane, lbn / self.shape.data)];
        grp.updates
            .last()
            .is_none_or(|&b| self.next[self.gb(plane, b)] == self.geo.pages_per_block)
    }

    /// The group a merge of `plane` would take now: `of`'s, if it is a candidate that may be
    /// merged now, else (with `of = None`) the group [`LogBlockFtl::pick`] would take.
    pub(super) fn candidate(&self, plane: u32, of: Option<Lpn>, rng: &mut SimRng) -> Option<u32> {
        let ps = &self.planes[plane as usize];
        match of {
            Some(lpn) => {
                let (p, lbn, _) = self.locate(lpn);
                let g = lbn / self.shape.data;
                (p == plane && ps.listed.contains(&g) && self.may_merge(plane, g)).then_some(g)
            }
            None => self.pick_pos(plane, rng).map(|pos| ps.listed[pos]),
        }
    }
}
