//! Snapshots of the page-mapped FTL's state: what preconditioning leaves behind, as plain data,
//! and a drive rebuilt from it that behaves exactly as the one it was taken from.
//!
//! A snapshot holds what cannot be derived: the L2P table (the P2L table and the valid counts
//! follow from it), per block its erase count, last-modified clock and state, per plane the free
//! pool in hand-out order, the write points and the victim candidates in their policy's
//! [`CandidateIndex::rebuild_order`], the FTL's clock and, with hot/cold separation, the HC
//! values. Work counters are not part of it (preconditioning resets them).
//!
//! [`PageFtl::restore`] checks a snapshot completely before it builds anything from it (lengths,
//! ranges, each block's state against the pool, the write points and the candidates, no valid page
//! where a block has not been written yet), then runs the FTL's invariant check: a snapshot read
//! from a damaged or hand-made file is an error, never a panic or a silently wrong drive.

use super::{BlockState, PageFtl, WritePoint, BUFFERED, NO_BLOCK};
use crate::flash::Geometry;
use crate::ftl::candidates::{BlockInfo, CandidateIndex};
use crate::ftl::params::FtlParams;
use crate::ftl::pool::FreePool;
use crate::ftl::streams::STREAMS;
use crate::units::NO_PAGE;

/// One plane's part of a [`PageSnapshot`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlaneSnapshot {
    /// The free pool's blocks (plane-local), in the order they are handed out; erase-ordered
    /// pools list the youngest group first, each group first-freed first.
    pub free: Vec<u32>,
    /// Each write point's block (plane-local, or `u32::MAX` when it has none) and next page.
    pub write_points: [(u32, u32); STREAMS],
    /// The victim candidates in their policy's rebuild order.
    pub candidates: Vec<u32>,
}

/// The state of a [`PageFtl`] as plain data (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PageSnapshot {
    /// Logical page → physical page, `NO_PAGE` when never written.
    pub l2p: Vec<u32>,
    /// Per block (global index): erase count.
    pub erase_count: Vec<u32>,
    /// Per block: the FTL clock at its last change.
    pub last_modified: Vec<u64>,
    /// Per block: `BlockState` as its `u8` value (`Free` 0, `Open` 1, `Full` 2).
    pub state: Vec<u8>,
    /// Per plane.
    pub planes: Vec<PlaneSnapshot>,
    /// The FTL's logical clock (page programs so far).
    pub clock: u64,
    /// HC values per logical page, empty without hot/cold separation.
    pub hc: Vec<u64>,
    /// The HC clock (host page updates so far).
    pub hc_clock: u64,
}

impl PageFtl {
    /// The FTL's state as a snapshot, or why it cannot be taken: a GC job in progress (a victim
    /// or an erasing block), pages in the DRAM buffer, or a victim policy that cannot list its
    /// candidates in a rebuild order.
    pub fn snapshot(&self) -> Result<PageSnapshot, String> {
        if let Some(gb) = self
            .blocks
            .iter()
            .position(|b| matches!(b.state, BlockState::Victim | BlockState::Erasing))
        {
            return Err(format!("block {gb} is being collected"));
        }
        if self.planes.iter().any(|p| p.buffered_live > 0) {
            return Err("pages are held in the DRAM buffer".into());
        }
        let mut planes = Vec::with_capacity(self.planes.len());
        for ps in &self.planes {
            let free = match &ps.free {
                FreePool::Fifo(f) => f.blocks().collect(),
                FreePool::ByAge { pool, .. } => pool.blocks().into_iter().map(|(b, _)| b).collect(),
            };
            let candidates = ps.victim.rebuild_order().ok_or_else(|| {
                format!(
                    "victim policy {} cannot list its candidates",
                    self.victim_kind.name()
                )
            })?;
            planes.push(PlaneSnapshot {
                free,
                write_points: ps.wp.map(|w| (w.block, w.next)),
                candidates,
            });
        }
        Ok(PageSnapshot {
            l2p: self.l2p.to_vec(),
            erase_count: self.erase_count.clone(),
            last_modified: self.blocks.iter().map(|b| b.last_modified).collect(),
            state: self.blocks.iter().map(|b| b.state as u8).collect(),
            planes,
            clock: self.clock,
            hc: self.hc.values().to_vec(),
            hc_clock: self.hc.clock(),
        })
    }

    /// The FTL of `params` and `geo` in the state `snap` describes, or the first reason the
    /// snapshot does not describe a valid state of such an FTL.
    pub fn restore(
        params: &FtlParams,
        geo: &Geometry,
        snap: &PageSnapshot,
    ) -> Result<PageFtl, String> {
        check_shape(params, geo, snap)?;
        let mut f = PageFtl::new(params, geo);
        let ppb = geo.pages_per_block;
        let bpp = geo.blocks_per_plane;
        // Valid counts from the mapping, below.
        f.blocks = snap
            .state
            .iter()
            .zip(&snap.last_modified)
            .map(|(&s, &last_modified)| BlockInfo {
                last_modified,
                valid: 0,
                state: match s {
                    0 => BlockState::Free,
                    1 => BlockState::Open,
                    _ => BlockState::Full,
                },
            })
            .collect();
        f.erase_count.clone_from(&snap.erase_count);
        f.clock = snap.clock;
        // The mapping, and the valid counts and P2L from it.
        for (lpn, &ppn) in snap.l2p.iter().enumerate() {
            if ppn == NO_PAGE {
                continue;
            }
            if ppn >= geo.physical_pages {
                return Err(format!(
                    "logical page {lpn} maps to out-of-range page {ppn}"
                ));
            }
            if f.p2l[ppn as usize] != NO_PAGE {
                return Err(format!(
                    "physical page {ppn} is mapped by logical pages {} and {lpn}",
                    f.p2l[ppn as usize]
                ));
            }
            f.p2l[ppn as usize] = lpn as u32;
            f.blocks[(ppn / ppb) as usize].valid += 1;
        }
        f.l2p.copy_from_slice(&snap.l2p);
        for (p, (ps, s)) in f.planes.iter_mut().zip(&snap.planes).enumerate() {
            let base = p as u32 * bpp;
            // Each block of the plane must be in exactly the place its state says.
            let mut place = vec![0u8; bpp as usize];
            let mut mark = |b: u32, want: BlockState, what: &str| -> Result<(), String> {
                let gb = (base + b) as usize;
                if f.blocks[gb].state != want {
                    return Err(format!(
                        "plane {p}: block {b} is in the {what} but is {:?}",
                        f.blocks[gb].state
                    ));
                }
                if std::mem::replace(&mut place[b as usize], 1) != 0 {
                    return Err(format!("plane {p}: block {b} is listed twice"));
                }
                Ok(())
            };
            for &b in &s.free {
                mark(b, BlockState::Free, "free pool")?;
            }
            for &(b, next) in s.write_points.iter().filter(|w| w.0 != NO_BLOCK) {
                mark(b, BlockState::Open, "write points")?;
                // Nothing is written at or after the write point's next page.
                let first = (base + b) * ppb;
                if let Some(off) = (next..ppb).find(|&o| f.p2l[(first + o) as usize] != NO_PAGE) {
                    return Err(format!(
                        "plane {p}: open block {b} holds a valid page at {off}, beyond its next page {next}"
                    ));
                }
            }
            for &b in &s.candidates {
                mark(b, BlockState::Full, "victim candidates")?;
            }
            if let Some(b) = place.iter().position(|&x| x == 0) {
                return Err(format!(
                    "plane {p}: block {b} ({:?}) is in no pool, write point or candidate list",
                    f.blocks[(base + b as u32) as usize].state
                ));
            }
            for &b in &s.free {
                if f.blocks[(base + b) as usize].valid != 0 {
                    return Err(format!("plane {p}: free block {b} holds valid pages"));
                }
            }
            ps.free = match params.pool {
                crate::ftl::PoolOrder::Fifo => {
                    FreePool::Fifo(crate::ftl::pool::Fifo::new(s.free.iter().copied()))
                }
                order => {
                    let mut pool = crate::ftl::pool::ByAge::new(bpp);
                    for &b in &s.free {
                        pool.put(b, f.erase_count[(base + b) as usize]);
                    }
                    FreePool::ByAge {
                        pool,
                        oldest: order == crate::ftl::PoolOrder::Oldest,
                    }
                }
            };
            ps.free_len = ps.free.len() as u32;
            ps.wp = s
                .write_points
                .map(|(block, next)| WritePoint { block, next });
        }
        // The candidates, through the policy's own notifications.
        for (p, s) in snap.planes.iter().enumerate() {
            let r = f.plane_range(p as u32);
            let view = crate::ftl::PlaneView {
                blocks: &f.blocks[r.clone()],
                erase_count: &f.erase_count[r],
                now: f.clock,
                pages_per_block: ppb,
            };
            let index: &mut dyn CandidateIndex = &mut f.planes[p].victim;
            for &b in &s.candidates {
                index.on_full(b, &view);
            }
        }
        f.hc = super::HcTable::restore(&snap.hc, snap.hc_clock, &snap.l2p)?;
        f.check_all()?;
        Ok(f)
    }
}

/// Largest FTL clock a snapshot may carry (page programs: 2^62).
const MAX_CLOCK: u64 = 1 << 62;
/// Most erases a block of a snapshot may have.
const MAX_ERASES: u32 = 1 << 30;
/// Widest span of erase counts among one plane's free blocks in an erase-ordered pool.
const MAX_POOL_SPAN: u32 = 1 << 20;

/// The snapshot's sizes and ranges against the FTL it is to rebuild.
fn check_shape(params: &FtlParams, geo: &Geometry, s: &PageSnapshot) -> Result<(), String> {
    let blocks = geo.blocks() as usize;
    let want = |what: &str, got: usize, want: usize| {
        if got == want {
            Ok(())
        } else {
            Err(format!("{what}: {got} entries, the drive has {want}"))
        }
    };
    want("mapping", s.l2p.len(), geo.logical_pages as usize)?;
    want("erase counts", s.erase_count.len(), blocks)?;
    want("block clocks", s.last_modified.len(), blocks)?;
    want("block states", s.state.len(), blocks)?;
    want("planes", s.planes.len(), geo.planes as usize)?;
    let hc = if params.hot_cold {
        geo.logical_pages as usize
    } else {
        0
    };
    want("HC values", s.hc.len(), hc)?;
    if let Some(gb) = s.state.iter().position(|&x| x > 2) {
        return Err(format!(
            "block {gb} has state {} (only free, open and full blocks are saved)",
            s.state[gb]
        ));
    }
    // Bounds that keep the rebuilt drive's arithmetic and memory in range: counters far beyond
    // any simulation's, and an erase-ordered pool's span of erase counts (one bucket each).
    if s.clock > MAX_CLOCK {
        return Err(format!("the FTL clock {} is out of range", s.clock));
    }
    if let Some(gb) = s.last_modified.iter().position(|&t| t > s.clock) {
        return Err(format!(
            "block {gb} was last changed at {}, after the FTL clock {}",
            s.last_modified[gb], s.clock
        ));
    }
    if let Some(gb) = s.erase_count.iter().position(|&e| e > MAX_ERASES) {
        return Err(format!(
            "block {gb} has {} erases, beyond {MAX_ERASES}",
            s.erase_count[gb]
        ));
    }
    if let Some(lpn) = s
        .l2p
        .iter()
        .position(|&p| p != NO_PAGE && p & BUFFERED != 0)
    {
        return Err(format!("logical page {lpn} is in the DRAM buffer"));
    }
    let bpp = geo.blocks_per_plane;
    for (p, ps) in s.planes.iter().enumerate() {
        for (what, list) in [
            ("free pool", &ps.free),
            ("victim candidates", &ps.candidates),
        ] {
            if list.len() > bpp as usize {
                return Err(format!("plane {p}: the {what} lists {} blocks", list.len()));
            }
            if let Some(b) = list.iter().find(|&&b| b >= bpp) {
                return Err(format!(
                    "plane {p}: the {what} holds out-of-range block {b}"
                ));
            }
        }
        if params.pool != crate::ftl::PoolOrder::Fifo {
            let base = p * bpp as usize;
            let counts = ps.free.iter().map(|&b| s.erase_count[base + b as usize]);
            if let (Some(lo), Some(hi)) = (counts.clone().min(), counts.max()) {
                if hi - lo > MAX_POOL_SPAN {
                    return Err(format!(
                        "plane {p}: free blocks' erase counts span {lo}..{hi}, more than {MAX_POOL_SPAN}"
                    ));
                }
            }
        }
        for &(b, next) in &ps.write_points {
            if b != NO_BLOCK && (b >= bpp || next >= geo.pages_per_block) {
                return Err(format!(
                    "plane {p}: write point at block {b} page {next} is out of range"
                ));
            }
        }
        // Two write points never share a block (streams that share a write point share its slot).
        for (i, a) in ps.write_points.iter().enumerate() {
            for b in &ps.write_points[i + 1..] {
                if a.0 != NO_BLOCK && a.0 == b.0 {
                    return Err(format!("plane {p}: two write points share block {}", a.0));
                }
            }
        }
    }
    Ok(())
}
