//! Choosing the group to merge and planning its merge ([`super::super::merge`]).
//!
//! **Which group.** A group whose update space is used up (*due*) is merged first, the one listed
//! longest first. Otherwise the merge victim policy chooses among the plane's groups with update
//! blocks ([`MergeVictim`]): `greedy` the fewest pages copied per update block released, `fifo` the
//! group whose first update block is the oldest, `random` any, uniformly. A group whose full merge
//! needs more fresh blocks than the plane has free, or would leave it fewer than n free blocks, is
//! passed over (its switch or partial merge needs none); so is, while the plane is short of free
//! blocks, one whose merge returns no block to the pool (an update block written in order
//! becoming the first data block of its logical block).
//!
//! **Which kind.** A switch merge when each of the group's update blocks holds all pages of its own
//! logical block at their offsets (L-FTL: its one log block was written in order from its first
//! page to its last), a partial merge when each holds pages 0 … k−1 of its own logical block at
//! their offsets and one or more have k < pages per block, a full merge otherwise.

use rand::Rng;

use super::{LogBlockFtl, Role, NO_BLOCK};
use crate::ftl::merge::{MergeKind, MergePlan, PageCopy};
use crate::ftl::params::MergeVictim;
use crate::ftl::pool::Take;
use crate::ftl::BlockState;
use crate::rng::SimRng;
use crate::units::NO_PAGE;

impl LogBlockFtl {
    /// The kind of group `g`'s merge, were it merged now: switch when every update block holds
    /// all pages of its own logical block in order, partial when they hold pages 0 … of distinct
    /// logical blocks in order (one or more only partly), full otherwise. Update blocks whose pages
    /// have all been superseded are left out: they are only erased.
    pub(super) fn kind_of(&self, plane: u32, g: u32) -> MergeKind {
        let grp = &self.groups[self.gi(plane, g)];
        let ppb = self.geo.pages_per_block;
        let mut seen = 0u64;
        let mut whole = true;
        for &u in &grp.updates {
            let gb = self.gb(plane, u);
            if self.valid[gb] == 0 {
                continue; // every page superseded: it is only erased
            }
            let lbn = self.seq[gb];
            if lbn == NO_BLOCK || seen & (1 << lbn) != 0 {
                return MergeKind::Full;
            }
            seen |= 1 << lbn;
            whole &= self.next[gb] == ppb;
        }
        if whole {
            MergeKind::Switch
        } else {
            MergeKind::Partial
        }
    }

    /// Pages group `g`'s merge would copy.
    pub(super) fn copies_of(&self, plane: u32, g: u32) -> u32 {
        match self.kind_of(plane, g) {
            MergeKind::Switch => 0,
            // Each update block holds pages 0 … k−1 of its logical block: the data block's valid
            // pages are exactly its written pages k … last, copied into the update block.
            MergeKind::Partial => self.groups[self.gi(plane, g)]
                .updates
                .iter()
                .filter(|&&u| self.valid[self.gb(plane, u)] > 0)
                .map(|&u| {
                    let lbn = g * self.shape.data + self.seq[self.gb(plane, u)];
                    match self.data[self.li(plane, lbn)] {
                        NO_BLOCK => 0,
                        d => self.valid[self.gb(plane, d)] as u32,
                    }
                })
                .sum(),
            MergeKind::Full => self
                .lbns_of(g)
                .map(|l| self.written[self.li(plane, l)] as u32)
                .sum(),
        }
    }

    /// Fresh blocks group `g`'s full merge takes: one per logical block with a written page.
    fn fresh_needed(&self, plane: u32, g: u32) -> u32 {
        self.lbns_of(g)
            .filter(|&l| self.written[self.li(plane, l)] > 0)
            .count() as u32
    }

    /// Blocks group `g`'s merge returns to the free pool, net: the blocks it erases less the
    /// fresh blocks it takes. Whatever its kind this is the group's update blocks plus its data
    /// blocks less its logical blocks with a written page (a switched update block replaces its
    /// old data block, if any; a full merge takes one fresh block per such logical block).
    fn net_gain(&self, plane: u32, g: u32) -> i64 {
        let (mut data, mut live) = (0i64, 0i64);
        for l in self.lbns_of(g) {
            let li = self.li(plane, l);
            data += i64::from(self.data[li] != NO_BLOCK);
            live += i64::from(self.written[li] > 0);
        }
        self.groups[self.gi(plane, g)].updates.len() as i64 + data - live
    }

    /// True when group `g` may be merged now: the plane has the fresh blocks its merge takes, and
    /// keeps the n free blocks the next full merge may take once it is done.
    ///
    /// A full merge *costs* free blocks ([`Self::net_gain`] < 0) when the group has more logical
    /// blocks without a data block (written only into update blocks) than update blocks; it is
    /// passed over when it would leave fewer than n free blocks.
    fn feasible(&self, plane: u32, g: u32) -> bool {
        if self.kind_of(plane, g) != MergeKind::Full {
            return true; // it takes no fresh block
        }
        let free = self.planes[plane as usize].free.len() as i64;
        let fresh = self.fresh_needed(plane, g) as i64;
        fresh <= free && free + self.net_gain(plane, g) >= self.shape.data as i64
    }

    /// Chooses the group of `plane` to merge and removes it from the candidates.
    pub(super) fn pick(&mut self, plane: u32, rng: &mut SimRng) -> Option<u32> {
        let pos = self.pick_pos(plane, rng)?;
        Some(self.planes[plane as usize].listed.remove(pos))
    }

    /// True when listed group `g` of `plane` may be merged now, as [`Self::pick`] would allow: a
    /// due group when the plane has its fresh blocks, another only if it also returns a block to
    /// a plane short of free blocks.
    pub(super) fn may_merge(&self, plane: u32, g: u32) -> bool {
        if !self.feasible(plane, g) {
            return false;
        }
        let short = (self.planes[plane as usize].free.len() as u32) < self.threshold;
        self.groups[self.gi(plane, g)].due || !short || self.net_gain(plane, g) >= 1
    }

    /// Blocks group `g`'s merge would erase, were it planned now (κ of the AGC/DGC paper's eq. 2):
    /// as [`Self::plan`] decides them.
    pub(super) fn erases_of(&self, plane: u32, g: u32) -> u32 {
        let grp = &self.groups[self.gi(plane, g)];
        match self.kind_of(plane, g) {
            MergeKind::Switch | MergeKind::Partial => grp
                .updates
                .iter()
                .map(|&u| {
                    let ub = self.gb(plane, u);
                    if self.valid[ub] == 0 {
                        return 1; // superseded: erased
                    }
                    let lbn = g * self.shape.data + self.seq[ub];
                    u32::from(self.data[self.li(plane, lbn)] != NO_BLOCK)
                })
                .sum(),
            MergeKind::Full => {
                let data = self
                    .lbns_of(g)
                    .filter(|&l| {
                        let li = self.li(plane, l);
                        self.written[li] > 0 && self.data[li] != NO_BLOCK
                    })
                    .count() as u32;
                data + grp.updates.len() as u32
            }
        }
    }

    /// The position in `plane`'s candidates of the group [`Self::pick`] takes (drawing from `rng`
    /// under the `random` policy); changes nothing.
    pub(super) fn pick_pos(&self, plane: u32, rng: &mut SimRng) -> Option<usize> {
        let ps = &self.planes[plane as usize];
        let listed = &ps.listed;
        let due = if ps.due > 0 {
            listed
                .iter()
                .position(|&g| self.groups[self.gi(plane, g)].due && self.feasible(plane, g))
        } else {
            None
        };
        // Short of free blocks, only a merge that returns one helps. One always exists then:
        // summed over the groups, the net gains are the update and data blocks less the logical
        // blocks with a written page, and with fewer free blocks than the threshold the spare rule
        // (`logical blocks + threshold + 1 ≤ blocks per plane`) leaves at least one more block
        // than such logical blocks.
        let short = (ps.free.len() as u32) < self.threshold;
        let ok = |g: u32| self.feasible(plane, g) && (!short || self.net_gain(plane, g) >= 1);
        let pos = due.or_else(|| match self.victim {
            MergeVictim::Fifo => listed.iter().position(|&g| ok(g)),
            MergeVictim::Greedy => {
                // Fewest copies per update block released: a·rb < b·ra, first listed on ties.
                let mut best: Option<(usize, u64, u64)> = None;
                for (i, &g) in listed.iter().enumerate() {
                    if !ok(g) {
                        continue;
                    }
                    let c = self.copies_of(plane, g) as u64;
                    let r = self.groups[self.gi(plane, g)].updates.len() as u64;
                    if best.is_none_or(|(_, bc, br)| c * br < bc * r) {
                        best = Some((i, c, r));
                    }
                }
                best.map(|(i, _, _)| i)
            }
            MergeVictim::Random => {
                let n = listed.iter().filter(|&&g| ok(g)).count();
                if n == 0 {
                    None
                } else {
                    let k = rng.gen_range(0..n);
                    listed
                        .iter()
                        .enumerate()
                        .filter(|&(_, &g)| ok(g))
                        .nth(k)
                        .map(|(i, _)| i)
                }
            }
        })?;
        Some(pos)
    }

    /// Plans group `g`'s merge: re-points its logical blocks at their new data blocks, detaches the
    /// blocks to erase and returns the copies and erases for the GC mechanism to carry out.
    pub(super) fn plan(&mut self, plane: u32, g: u32) -> MergePlan {
        let kind = self.kind_of(plane, g);
        let ppb = self.geo.pages_per_block;
        let gi = self.gi(plane, g);
        let updates = std::mem::take(&mut self.groups[gi].updates);
        let mut copies = Vec::new();
        let mut erase = Vec::new();
        let mut room_left = 0u64;
        for &u in &updates {
            room_left += (ppb - self.next[self.gb(plane, u)]) as u64;
        }
        match kind {
            MergeKind::Switch | MergeKind::Partial => {
                // Each update block becomes its logical block's data block, completed from the
                // old data block (if any), which is erased.
                for &u in &updates {
                    let ub = self.gb(plane, u);
                    if self.valid[ub] == 0 {
                        // Superseded by a later update block: erased, nothing else.
                        self.detach(plane, u);
                        self.seq[ub] = NO_BLOCK;
                        erase.push(u);
                        continue;
                    }
                    let k = self.next[ub];
                    let lbn = g * self.shape.data + self.seq[ub];
                    let li = self.li(plane, lbn);
                    let old = self.data[li];
                    if old != NO_BLOCK {
                        for off in k..ppb {
                            let src = self.geo.ppn(plane, old, off);
                            let lpn = self.p2l[src as usize];
                            if lpn != NO_PAGE {
                                copies.push(PageCopy {
                                    src,
                                    dst: self.geo.ppn(plane, u, off),
                                    lpn,
                                });
                            }
                        }
                        self.detach(plane, old);
                        erase.push(old);
                    }
                    self.data[li] = u;
                    self.role[ub] = Role::Data;
                    self.state[ub] = BlockState::Full;
                    self.seq[ub] = NO_BLOCK;
                }
            }
            MergeKind::Full => {
                for lbn in self.lbns_of(g) {
                    let li = self.li(plane, lbn);
                    let old = self.data[li];
                    if self.written[li] == 0 {
                        debug_assert_eq!(old, NO_BLOCK, "a data block with no written page");
                        continue;
                    }
                    let fresh = self.planes[plane as usize]
                        .free
                        .take(Take::Pool)
                        .expect("a full merge is planned only with its fresh blocks free");
                    self.note_free(plane);
                    let fb = self.gb(plane, fresh);
                    debug_assert_eq!(self.state[fb], BlockState::Free);
                    self.state[fb] = BlockState::Full;
                    self.role[fb] = Role::Data;
                    self.owner[fb] = g;
                    self.next[fb] = 0;
                    for off in 0..ppb {
                        let Some(lpn) = self.lpn_of(plane, lbn, off) else {
                            break;
                        };
                        let src = self.l2p[lpn as usize];
                        if src != NO_PAGE {
                            copies.push(PageCopy {
                                src,
                                dst: self.geo.ppn(plane, fresh, off),
                                lpn,
                            });
                        }
                    }
                    if old != NO_BLOCK {
                        self.detach(plane, old);
                        erase.push(old);
                    }
                    self.data[li] = fresh;
                }
                for &u in &updates {
                    self.detach(plane, u);
                    let ub = self.gb(plane, u);
                    self.seq[ub] = NO_BLOCK;
                    erase.push(u);
                }
            }
        }
        let n = updates.len() as u32;
        let ps = &mut self.planes[plane as usize];
        ps.updates -= n;
        ps.room -= room_left;
        self.stats.update_blocks -= n;
        let grp = &mut self.groups[gi];
        grp.pending = erase.len() as u32;
        self.refresh_due(plane, g);
        MergePlan {
            kind,
            plane,
            group: g,
            copies,
            erase,
        }
    }
}
