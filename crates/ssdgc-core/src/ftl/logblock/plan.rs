//! Choosing the group to merge and planning its merge ([`super::super::merge`]).
//!
//! **Which group.** A group whose update space is used up (*due*) is merged first, the one listed
//! longest first. Otherwise the merge victim policy chooses among the plane's groups with update
//! blocks ([`MergeVictim`]): `greedy` the fewest pages copied per update block released, `fifo` the
//! group whose first update block is the oldest, `random` any, uniformly. A group whose full merge
//! needs more fresh blocks than the plane has free, or would leave it fewer than n free blocks, is
//! passed over (its switch or partial merge needs none).
//!
//! **Which kind.** A switch merge when the group's single update block holds all pages of one
//! logical block at their offsets, a partial merge when it holds pages 0 … k−1 of one logical block
//! at their offsets (k < pages per block), a full merge otherwise.

use rand::Rng;

use super::{LogBlockFtl, Role, NO_BLOCK};
use crate::ftl::merge::{MergeKind, MergePlan, PageCopy};
use crate::ftl::params::MergeVictim;
use crate::ftl::pool::Take;
use crate::ftl::BlockState;
use crate::rng::SimRng;
use crate::units::NO_PAGE;

impl LogBlockFtl {
    /// The kind of group `g`'s merge, were it merged now.
    pub(super) fn kind_of(&self, plane: u32, g: u32) -> MergeKind {
        let grp = &self.groups[self.gi(plane, g)];
        match grp.updates.as_slice() {
            [u] if grp.seq => {
                if self.next[self.gb(plane, *u)] == self.geo.pages_per_block {
                    MergeKind::Switch
                } else {
                    MergeKind::Partial
                }
            }
            _ => MergeKind::Full,
        }
    }

    /// Pages group `g`'s merge would copy.
    pub(super) fn copies_of(&self, plane: u32, g: u32) -> u32 {
        match self.kind_of(plane, g) {
            MergeKind::Switch => 0,
            MergeKind::Partial => {
                // The update block holds pages 0 … k−1 of the logical block: the data block's
                // valid pages are exactly its written pages k … last.
                let grp = &self.groups[self.gi(plane, g)];
                let lbn = g * self.shape.data + grp.seq_lbn;
                match self.data[self.li(plane, lbn)] {
                    NO_BLOCK => 0,
                    d => self.valid[self.gb(plane, d)] as u32,
                }
            }
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

    /// True when group `g` may be merged now: the plane has the fresh blocks its merge takes, and
    /// keeps the n free blocks the next full merge may take once it is done.
    ///
    /// A full merge returns the group's old data blocks and update blocks and takes one fresh block
    /// per logical block with a written page, so it *costs* free blocks when the group has more
    /// logical blocks without a data block (written only into update blocks) than update blocks.
    /// Such a merge is passed over when it would leave fewer than n free blocks; one that costs
    /// nothing always remains while the plane is short of free blocks: were every group short of
    /// update blocks, the update blocks would number fewer than the logical blocks without data
    /// blocks, and the plane would hold more free blocks than the spare rule's threshold
    /// (`data blocks + threshold + 1 ≤ blocks per plane`).
    fn feasible(&self, plane: u32, g: u32) -> bool {
        if self.kind_of(plane, g) != MergeKind::Full {
            return true; // it takes no fresh block and returns the old data block, if any
        }
        let free = self.planes[plane as usize].free.len() as i64;
        let fresh = self.fresh_needed(plane, g) as i64;
        let returned = self
            .lbns_of(g)
            .filter(|&l| self.data[self.li(plane, l)] != NO_BLOCK)
            .count() as i64
            + self.groups[self.gi(plane, g)].updates.len() as i64;
        fresh <= free && free - fresh + returned >= self.shape.data as i64
    }

    /// Chooses the group of `plane` to merge and removes it from the candidates.
    pub(super) fn pick(&mut self, plane: u32, rng: &mut SimRng) -> Option<u32> {
        let listed = &self.planes[plane as usize].listed;
        let ok = |g: u32| self.feasible(plane, g);
        let due = if self.planes[plane as usize].due > 0 {
            listed
                .iter()
                .position(|&g| self.groups[self.gi(plane, g)].due && ok(g))
        } else {
            None
        };
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
        Some(self.planes[plane as usize].listed.remove(pos))
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
                let u = updates[0];
                let ub = self.gb(plane, u);
                let k = self.next[ub];
                let lbn = g * self.shape.data + self.groups[gi].seq_lbn;
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
        grp.seq = false;
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
