//! The log-block FTL's invariant check ([`FtlView::check`]): a pass over every page, block,
//! logical block and group, for tests and `--check`.

use super::{LogBlockFtl, Role, NO_BLOCK};
use crate::ftl::merge::MergeKind;
use crate::ftl::BlockState;
use crate::units::NO_PAGE;

impl LogBlockFtl {
    /// Every invariant of the mapping, the block roles, the logical blocks, the groups and the
    /// pools; the first violation.
    ///
    /// - every valid physical page holds an in-range logical page that maps back to it, in its
    ///   statically allocated plane, in a block of its own group: its logical block's data block at
    ///   its own offset, one of its group's update blocks, or a block detached by its group's merge
    ///   in progress; and below its block's next page (no page above it was programmed);
    /// - every mapped logical page maps to a page that maps back; the mapped count is right;
    /// - valid counts per block, written pages per logical block;
    /// - roles and states agree (free: `Free` and in the pool; data: `Full`; update: `Open` with
    ///   free pages, else `Full`; detached: `Victim` or `Erasing`), and every data and update block
    ///   belongs to exactly one logical block or group;
    /// - per plane: update blocks, free pages left in them, due groups and merge candidates as
    ///   counted; per group: its due mark, and the erases its merge has still to dispatch.
    pub(super) fn check_all(&self) -> Result<(), String> {
        let g = &self.geo;
        let ppb = g.pages_per_block;
        let bpp = g.blocks_per_plane;
        let nblocks = g.blocks() as usize;
        let mut valid = vec![0u32; nblocks];
        let mut written = vec![0u32; self.written.len()];
        for (ppn, &lpn) in self.p2l.iter().enumerate() {
            if lpn == NO_PAGE {
                continue;
            }
            let ppn = ppn as u32;
            if lpn >= g.logical_pages {
                return Err(format!(
                    "physical page {ppn} maps to out-of-range lpn {lpn}"
                ));
            }
            if self.l2p[lpn as usize] != ppn {
                return Err(format!(
                    "physical page {ppn} claims lpn {lpn}, which maps to {}",
                    self.l2p[lpn as usize]
                ));
            }
            let a = g.addr(ppn);
            let gb = (ppn / ppb) as usize;
            valid[gb] += 1;
            let (plane, lbn, off) = self.locate(lpn);
            if a.plane != plane {
                return Err(format!(
                    "lpn {lpn} is outside its statically allocated plane"
                ));
            }
            if a.page >= self.next[gb] {
                return Err(format!(
                    "lpn {lpn} lies in page {} of block {gb}, at or above its next page {}",
                    a.page, self.next[gb]
                ));
            }
            let group = lbn / self.shape.data;
            if self.owner[gb] != group {
                return Err(format!(
                    "lpn {lpn} of group {group} lies in block {gb} of group {}",
                    self.owner[gb]
                ));
            }
            match self.role[gb] {
                Role::Data => {
                    if self.data[self.li(plane, lbn)] != a.block || a.page != off {
                        return Err(format!(
                            "lpn {lpn} (logical block {lbn}, offset {off}) lies in page {} of \
                             data block {}, not its own",
                            a.page, a.block
                        ));
                    }
                }
                Role::Update => {}
                Role::Detached => {
                    if self.groups[self.gi(plane, group)].pending == 0 {
                        return Err(format!(
                            "lpn {lpn} lies in detached block {gb} but group {group} is not merging"
                        ));
                    }
                }
                Role::Free => {
                    return Err(format!("lpn {lpn} lies in free block {gb}"));
                }
            }
        }
        let mut mapped = 0u64;
        for (lpn, &ppn) in self.l2p.iter().enumerate() {
            if ppn == NO_PAGE {
                continue;
            }
            mapped += 1;
            if self.p2l[ppn as usize] != lpn as u32 {
                return Err(format!("lpn {lpn} maps to {ppn}, which does not map back"));
            }
            let (plane, lbn, _) = self.locate(lpn as u32);
            written[self.li(plane, lbn)] += 1;
        }
        if mapped != self.mapped {
            return Err(format!(
                "{mapped} logical pages mapped but {} counted",
                self.mapped
            ));
        }
        for (li, (&w, &counted)) in self.written.iter().zip(&written).enumerate() {
            if w as u32 != counted {
                return Err(format!(
                    "logical block {li}: {w} pages counted as written but {counted} mapped"
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
            let (role, state) = (self.role[gb], self.state[gb]);
            let agree = match role {
                Role::Free => state == BlockState::Free,
                Role::Data => state == BlockState::Full,
                Role::Update if self.next[gb] < ppb => state == BlockState::Open,
                Role::Update => state == BlockState::Full,
                Role::Detached => matches!(state, BlockState::Victim | BlockState::Erasing),
            };
            if !agree {
                return Err(format!("block {gb}: role {role:?} but state {state:?}"));
            }
            if matches!(state, BlockState::Free | BlockState::Erasing) && counted != 0 {
                return Err(format!("free or erasing block {gb} holds valid pages"));
            }
            if role == Role::Free && self.next[gb] != 0 {
                return Err(format!("free block {gb} has programmed pages"));
            }
            let seq = self.seq[gb];
            if seq != NO_BLOCK {
                let plane = gb as u32 / bpp;
                let lbn = self.owner[gb] * self.shape.data + seq;
                let base = gb as u32 * ppb;
                // A page may have been superseded since, by a write into a later update block of
                // the group (which then rules out a switch or partial merge): invalid, or in order.
                let superseded_or_in_order = |p: u32| {
                    let l = self.p2l[(base + p) as usize];
                    l == NO_PAGE || Some(l) == self.lpn_of(plane, lbn, p)
                };
                let switchable = self.kind_of(plane, self.owner[gb]) != MergeKind::Full;
                let in_order = role == Role::Update
                    && (0..self.next[gb]).all(|p| {
                        superseded_or_in_order(p)
                            && !(switchable
                                && self.valid[gb] > 0
                                && self.p2l[(base + p) as usize] == NO_PAGE)
                    });
                if !in_order {
                    return Err(format!(
                        "block {gb} ({role:?}) is marked as holding logical block {lbn}'s pages in \
                         order, and does not (or a switch or partial merge would lose a page)"
                    ));
                }
            }
        }
        // Data blocks: one logical block each.
        let mut refs = vec![0u32; nblocks];
        for plane in 0..g.planes {
            for lbn in 0..self.lbns_per_plane {
                let b = self.data[self.li(plane, lbn)];
                if b == NO_BLOCK {
                    continue;
                }
                let gb = self.gb(plane, b);
                refs[gb] += 1;
                if self.role[gb] != Role::Data || self.owner[gb] != lbn / self.shape.data {
                    return Err(format!(
                        "logical block {lbn} of plane {plane} has data block {b}, which is {:?} \
                         of group {}",
                        self.role[gb], self.owner[gb]
                    ));
                }
            }
        }
        // Blocks detached by a merge and not yet being erased, per group.
        let mut detached = vec![0u32; self.groups.len()];
        for gb in 0..nblocks {
            if self.role[gb] == Role::Detached && self.state[gb] == BlockState::Victim {
                let plane = gb as u32 / bpp;
                detached[self.gi(plane, self.owner[gb])] += 1;
            }
        }
        // Update blocks: one group each.
        let mut total_updates = 0u32;
        for plane in 0..g.planes {
            let ps = &self.planes[plane as usize];
            let (mut updates, mut room, mut due) = (0u32, 0u64, 0u32);
            let mut candidates = 0usize;
            for grp_id in 0..self.groups_per_plane {
                let grp = &self.groups[self.gi(plane, grp_id)];
                for &u in &grp.updates {
                    let gb = self.gb(plane, u);
                    refs[gb] += 1;
                    if self.role[gb] != Role::Update || self.owner[gb] != grp_id {
                        return Err(format!(
                            "group {grp_id} of plane {plane} lists update block {u}, which is {:?} \
                             of group {}",
                            self.role[gb], self.owner[gb]
                        ));
                    }
                    room += (ppb - self.next[gb]) as u64;
                }
                updates += grp.updates.len() as u32;
                if grp.due != self.is_due(plane, grp_id) {
                    return Err(format!(
                        "group {grp_id} of plane {plane}: due mark {} is wrong",
                        grp.due
                    ));
                }
                due += grp.due as u32;
                let listed = ps.listed.iter().filter(|&&x| x == grp_id).count();
                let want = usize::from(!grp.updates.is_empty() && grp.pending == 0);
                if listed != want {
                    return Err(format!(
                        "group {grp_id} of plane {plane} is listed {listed} times as a merge \
                         candidate, should be {want}"
                    ));
                }
                candidates += want;
                let detached = detached[self.gi(plane, grp_id)];
                if detached != grp.pending {
                    return Err(format!(
                        "group {grp_id} of plane {plane}: {} erases pending but {detached} \
                         detached blocks",
                        grp.pending
                    ));
                }
            }
            if (updates, room, due, candidates) != (ps.updates, ps.room, ps.due, ps.listed.len()) {
                return Err(format!(
                    "plane {plane}: {updates} update blocks, {room} free pages in them, {due} due \
                     groups and {candidates} candidates, but {}, {}, {} and {} counted",
                    ps.updates,
                    ps.room,
                    ps.due,
                    ps.listed.len()
                ));
            }
            total_updates += updates;
            let range = self.gb(plane, 0)..self.gb(plane, 0) + bpp as usize;
            let pooled = ps
                .free
                .check(&self.erase_count[range.clone()])
                .map_err(|e| format!("plane {plane}: {e}"))?;
            let free = self.role[range.clone()]
                .iter()
                .filter(|&&r| r == Role::Free)
                .count();
            if free != pooled.len() {
                return Err(format!(
                    "plane {plane}: {free} free blocks but the pool holds {}",
                    pooled.len()
                ));
            }
            if let Some(b) = pooled
                .iter()
                .find(|&&b| self.role[self.gb(plane, b)] != Role::Free)
            {
                return Err(format!(
                    "plane {plane}: block {b} is in the free pool but {:?}",
                    self.role[self.gb(plane, *b)]
                ));
            }
        }
        for (gb, &r) in refs.iter().enumerate() {
            let want = u32::from(matches!(self.role[gb], Role::Data | Role::Update));
            if r != want {
                return Err(format!(
                    "block {gb} ({:?}) belongs to {r} logical blocks or groups",
                    self.role[gb]
                ));
            }
        }
        if total_updates != self.stats.update_blocks {
            return Err(format!(
                "{total_updates} update blocks but {} counted",
                self.stats.update_blocks
            ));
        }
        Ok(())
    }
}
