//! The page-mapped FTL's invariant check ([`super::FtlView::check`]).

use super::{BlockState, PageFtl, BUFFERED, NO_BLOCK};
use crate::ftl::candidates::CandidateIndex;
use crate::ftl::seam::FtlView;
use crate::units::NO_PAGE;

impl PageFtl {
    /// Every invariant of the mapping, the block table, the pools and the write points; the first
    /// violation.
    pub(super) fn check_all(&self) -> Result<(), String> {
        let g = &self.geo;
        let mut valid = vec![0u32; g.blocks() as usize];
        for (ppn, &lpn) in self.p2l.iter().enumerate() {
            if lpn == NO_PAGE {
                continue;
            }
            if lpn >= g.logical_pages {
                return Err(format!(
                    "physical page {ppn} maps to out-of-range lpn {lpn}"
                ));
            }
            if self.l2p[lpn as usize] != ppn as u32 {
                return Err(format!(
                    "physical page {ppn} claims lpn {lpn}, which maps to {}",
                    self.l2p[lpn as usize]
                ));
            }
            valid[ppn / g.pages_per_block as usize] += 1;
        }
        let mut buffered = vec![0u32; g.planes as usize];
        for (lpn, &ppn) in self.l2p.iter().enumerate() {
            if ppn == NO_PAGE {
                continue;
            }
            if ppn == BUFFERED {
                buffered[self.plane_of(lpn as u32) as usize] += 1;
                continue;
            }
            if self.p2l[ppn as usize] != lpn as u32 {
                return Err(format!("lpn {lpn} maps to {ppn}, which does not map back"));
            }
            if self.geo.addr(ppn).plane != self.plane_of(lpn as u32) {
                return Err(format!(
                    "lpn {lpn} is outside its statically allocated plane"
                ));
            }
        }
        for (gb, &counted) in valid.iter().enumerate() {
            if counted != self.blocks[gb].valid as u32 {
                return Err(format!(
                    "block {gb}: valid count {} but {counted} valid pages",
                    self.blocks[gb].valid
                ));
            }
            if matches!(
                self.blocks[gb].state,
                BlockState::Free | BlockState::Erasing
            ) && counted != 0
            {
                return Err(format!("free or erasing block {gb} holds valid pages"));
            }
        }
        for (p, ps) in self.planes.iter().enumerate() {
            let range = self.plane_range(p as u32);
            let states: Vec<BlockState> =
                self.blocks[range.clone()].iter().map(|b| b.state).collect();
            let (mut free, mut full, mut open) = (0usize, 0usize, 0usize);
            for s in &states {
                match s {
                    BlockState::Free => free += 1,
                    BlockState::Full => full += 1,
                    BlockState::Open => open += 1,
                    _ => {}
                }
            }
            let pooled = ps
                .free
                .check(&self.erase_count[range])
                .map_err(|e| format!("plane {p}: {e}"))?;
            if ps.free_len as usize != pooled.len() {
                return Err(format!(
                    "plane {p}: the pool holds {} blocks but counts {}",
                    pooled.len(),
                    ps.free_len
                ));
            }
            if free != pooled.len() {
                return Err(format!(
                    "plane {p}: {free} free blocks but the pool holds {}",
                    pooled.len()
                ));
            }
            if let Some(b) = pooled
                .iter()
                .find(|&&b| states[b as usize] != BlockState::Free)
            {
                return Err(format!(
                    "plane {p}: block {b} is in the free pool but {:?}",
                    states[*b as usize]
                ));
            }
            if full != ps.victim.len() {
                return Err(format!(
                    "plane {p}: {full} full blocks but the victim policy holds {}",
                    ps.victim.len()
                ));
            }
            if buffered[p] != ps.buffered_live {
                return Err(format!(
                    "plane {p}: {} logical pages buffered but {} counted",
                    buffered[p], ps.buffered_live
                ));
            }
            let wps: Vec<u32> = ps
                .wp
                .iter()
                .map(|w| w.block)
                .filter(|&b| b != NO_BLOCK)
                .collect();
            if open != wps.len() {
                return Err(format!(
                    "plane {p}: {open} open blocks but {} write points",
                    wps.len()
                ));
            }
            if let Some(b) = wps
                .iter()
                .find(|&&b| states[b as usize] != BlockState::Open)
            {
                return Err(format!(
                    "plane {p}: write point in block {b}, which is {:?}",
                    states[*b as usize]
                ));
            }
        }
        Ok(())
    }
}
