//! The page-mapped FTL on its own (no GC layer): pool order and write streams reach the blocks the
//! write points open.

use std::collections::VecDeque;
use std::sync::Arc;

use rand::Rng;

use super::PageFtl;
use crate::flash::{AllocationOrder, Geometry, GeometryParams};
use crate::ftl::{
    BlockState, CandidateIndex, CandidateIndexKind, FtlMechanism, FtlParams, FtlView, HotTo,
    PlaneView, PoolOrder, Stream, StreamLayout, Trigger,
};
use crate::rng::{rng_for, SimRng};

/// Full blocks, collected in the order they filled.
#[derive(Debug, Default)]
struct Oldest(VecDeque<u32>);

impl CandidateIndex for Oldest {
    fn on_full(&mut self, block: u32, _: &PlaneView<'_>) {
        self.0.push_back(block);
    }
    fn on_invalidate(&mut self, _: u32, _: u16, _: &PlaneView<'_>) {}
    fn pick(&mut self, _: &PlaneView<'_>, _: &mut SimRng) -> Option<u32> {
        self.0.pop_front()
    }
    fn len(&self) -> usize {
        self.0.len()
    }
    fn rebuild_order(&self) -> Option<Vec<u32>> {
        Some(self.0.iter().copied().collect())
    }
}

#[derive(Debug)]
struct OldestKind;

impl CandidateIndexKind for OldestKind {
    fn name(&self) -> String {
        "oldest-full".into()
    }
    fn build(&self, _: u32, _: u32) -> Box<dyn CandidateIndex> {
        Box::new(Oldest::default())
    }
}

/// One plane of 24 blocks of 4 pages, a third of it spare.
fn one_plane(pool: PoolOrder, hot_to: HotTo, hot_cold: bool) -> PageFtl {
    plane_ftl(24, 4, 0.34, 4, pool, hot_to, hot_cold)
}

/// One plane of `blocks` blocks of `pages` pages, CWDP allocation, oldest-full victims, GC due at
/// `trigger` free blocks.
fn plane_ftl(
    blocks: u32,
    pages: u32,
    overprovision: f64,
    trigger: u32,
    pool: PoolOrder,
    hot_to: HotTo,
    hot_cold: bool,
) -> PageFtl {
    let geo = Geometry::new(GeometryParams {
        channels: 1,
        chips_per_channel: 1,
        dies_per_chip: 1,
        planes_per_die: 1,
        blocks_per_plane: blocks,
        pages_per_block: pages,
        page_size: 4096,
        overprovision,
    });
    let params = FtlParams {
        allocation: AllocationOrder::parse("CWDP").expect("an order"),
        trigger: Trigger {
            blocks: trigger,
            pages: None,
        },
        pool,
        streams: StreamLayout::new(hot_to),
        hot_cold,
        candidates: Arc::new(OldestKind),
        mapping: Default::default(),
        log: Default::default(),
    };
    PageFtl::new(&params, &geo)
}

/// One plane of `blocks` blocks of `pages` pages, CWDP allocation, FIFO pool, one GC stream,
/// victims chosen by `candidates`, GC due at `trigger` free blocks.
fn plane_ftl_choosing(
    candidates: Arc<dyn CandidateIndexKind>,
    blocks: u32,
    pages: u32,
    overprovision: f64,
    trigger: u32,
) -> PageFtl {
    let geo = plane_ftl(
        blocks,
        pages,
        overprovision,
        trigger,
        PoolOrder::Fifo,
        HotTo::default(),
        false,
    )
    .geometry()
    .clone();
    let params = FtlParams {
        allocation: AllocationOrder::parse("CWDP").expect("an order"),
        trigger: Trigger {
            blocks: trigger,
            pages: None,
        },
        pool: PoolOrder::Fifo,
        streams: StreamLayout::new(HotTo::default()),
        hot_cold: false,
        candidates,
        mapping: Default::default(),
        log: Default::default(),
    };
    PageFtl::new(&params, &geo)
}

/// Erase counts of the free blocks.
fn free_erase_counts(ftl: &PageFtl) -> Vec<u32> {
    (0..ftl.geometry().blocks())
        .filter(|&b| ftl.block_state(b) == BlockState::Free)
        .map(|b| ftl.erase_counts()[b as usize])
        .collect()
}

/// A block a write point opened: its stream, its erase count and the free blocks' erase counts just
/// before.
type Opened = (Stream, u32, Vec<u32>);

/// Collects one victim, moving its valid pages to `stream`.
fn collect(ftl: &mut PageFtl, rng: &mut SimRng, stream: Stream) -> Vec<Opened> {
    let mut opened = Vec::new();
    let Some(b) = ftl.choose_victim(0, rng) else {
        return opened;
    };
    while let Some((page, lpn)) = ftl.next_valid_in_block(0, b, 0) {
        let free = free_erase_counts(ftl);
        let dst = ftl
            .relocate_to(ftl.geometry().ppn(0, b, page), lpn, stream)
            .expect("room for a move");
        if dst % 4 == 0 {
            opened.push((stream, ftl.erase_counts()[(dst / 4) as usize], free));
        }
    }
    ftl.begin_erase(0, b);
    ftl.finish_erase(0, b);
    ftl.check().expect("consistent");
    opened
}

/// Random overwrites with collection below the trigger; GC data alternates between `streams`.
/// Returns every block a write point opened.
fn churn(ftl: &mut PageFtl, writes: u32, streams: &[Stream]) -> Vec<Opened> {
    let mut rng = rng_for(5, 0);
    let logical = ftl.geometry().logical_pages;
    let mut opened = Vec::new();
    for i in 0..writes {
        while ftl.needs_gc(0) {
            let s = streams[i as usize % streams.len()];
            let more = collect(ftl, &mut rng, s);
            if more.is_empty() && ftl.candidates(0) == 0 {
                break;
            }
            opened.extend(more);
        }
        let free = free_erase_counts(ftl);
        let lpn = if i < logical {
            i
        } else {
            rng.gen_range(0..logical)
        };
        let ppn = ftl.host_write(lpn).expect("a write");
        if ppn % 4 == 0 {
            opened.push((Stream::Host, ftl.erase_counts()[(ppn / 4) as usize], free));
        }
    }
    opened
}

#[test]
fn write_points_open_the_block_the_pool_order_names() {
    for pool in [PoolOrder::Youngest, PoolOrder::Oldest] {
        let mut ftl = one_plane(pool, HotTo::Young, false);
        let opened = churn(&mut ftl, 3_000, &[Stream::Gc]);
        let mut spread = 0;
        for (stream, ec, free) in opened {
            let (min, max) = (free.iter().min(), free.iter().max());
            spread += (min != max) as u32;
            let want = if pool == PoolOrder::Oldest { max } else { min };
            assert_eq!(
                Some(&ec),
                want,
                "{pool}: {stream:?} opened a block, free {free:?}"
            );
        }
        assert!(
            spread > 10,
            "{pool}: erase counts never differed ({spread})"
        );
    }
}

#[test]
fn hot_and_cold_streams_take_opposite_ends() {
    for hot_to in [HotTo::Young, HotTo::Old] {
        let mut ftl = one_plane(PoolOrder::Youngest, hot_to, false);
        let opened = churn(&mut ftl, 3_000, &[Stream::Hot, Stream::Cold, Stream::Gc]);
        let mut spread = [0u32; 2];
        for (stream, ec, free) in opened {
            let (min, max) = (free.iter().min(), free.iter().max());
            let young = match stream {
                Stream::Hot => hot_to == HotTo::Young,
                Stream::Cold => hot_to == HotTo::Old,
                _ => true,
            };
            let want = if young { min } else { max };
            assert_eq!(
                Some(&ec),
                want,
                "{hot_to}: {stream:?} opened a block, free {free:?}"
            );
            if min != max && matches!(stream, Stream::Hot | Stream::Cold) {
                spread[(stream == Stream::Cold) as usize] += 1;
            }
        }
        assert!(
            spread[0] > 0 && spread[1] > 0,
            "{hot_to}: never chose between ages {spread:?}"
        );
    }
}

/// With hot/cold separation, a GC move asked for the `Gc` stream goes to the `Hot` write point when
/// the page's HC value is above the mean over valid pages and to the `Cold` one otherwise.
#[test]
fn gc_moves_follow_the_hc_classification() {
    let mut ftl = one_plane(PoolOrder::Youngest, HotTo::Young, true);
    let mut rng = rng_for(8, 0);
    let logical = ftl.geometry().logical_pages;
    let ppb = ftl.geometry().pages_per_block;
    let mut moves = [0u32; 2];
    for i in 0..4_000u32 {
        while ftl.needs_gc(0) {
            let Some(b) = ftl.choose_victim(0, &mut rng) else {
                break;
            };
            while let Some((page, lpn)) = ftl.next_valid_in_block(0, b, 0) {
                let hot = ftl.hc.is_hot(lpn);
                let (s, other) = if hot {
                    (Stream::Hot, Stream::Cold)
                } else {
                    (Stream::Cold, Stream::Hot)
                };
                let (before, other_before) = (ftl.write_offset(0, s), ftl.write_offset(0, other));
                ftl.relocate_to(ftl.geometry().ppn(0, b, page), lpn, Stream::Gc)
                    .expect("room for a move");
                assert_eq!(ftl.write_offset(0, s), (before + 1) % ppb, "hot {hot}");
                assert_eq!(ftl.write_offset(0, other), other_before);
                assert_eq!(
                    ftl.write_offset(0, Stream::Gc),
                    0,
                    "the Gc stream is unused"
                );
                moves[hot as usize] += 1;
            }
            ftl.begin_erase(0, b);
            ftl.finish_erase(0, b);
        }
        // A small hot set takes half the writes.
        let lpn = if i < logical {
            i
        } else if rng.gen_bool(0.5) {
            rng.gen_range(0..4)
        } else {
            rng.gen_range(0..logical)
        };
        ftl.host_write(lpn).expect("a write");
    }
    ftl.check().expect("consistent");
    assert!(moves[0] > 50 && moves[1] > 50, "moves cold/hot {moves:?}");
}

#[test]
fn a_returned_victim_is_a_candidate_again() {
    let mut ftl = one_plane(PoolOrder::Fifo, HotTo::Young, false);
    // Fill two blocks: both become candidates, the first filled first.
    for lpn in 0..8 {
        ftl.host_write(lpn).expect("a write");
    }
    let mut rng = rng_for(1, 0);
    assert_eq!(ftl.candidates(0), 2);
    let b = ftl.choose_victim(0, &mut rng).expect("a candidate");
    assert_eq!(ftl.block_state(b), BlockState::Victim);
    assert_eq!(ftl.candidates(0), 1);
    ftl.return_victim(0, b);
    assert_eq!(ftl.block_state(b), BlockState::Full);
    assert_eq!(ftl.candidates(0), 2);
    ftl.check().expect("consistent");
    // The index was told as when a block fills: the returned block comes after the other.
    let next = ftl.choose_victim(0, &mut rng).expect("a candidate");
    assert_ne!(next, b);
    assert_eq!(ftl.choose_victim(0, &mut rng), Some(b));
}

/// The fewest valid pages of a plane's full blocks, by a scan of the block table.
fn fewest_by_scan(ftl: &PageFtl) -> Option<u32> {
    (0..ftl.geometry().blocks())
        .filter(|&b| ftl.block_state(b) == BlockState::Full)
        .map(|b| ftl.valid_pages(b))
        .min()
}

#[test]
fn fewest_valid_falls_back_to_a_scan_without_an_indexed_count() {
    // The oldest-first index keeps no valid counts: the FTL scans its full blocks.
    let mut ftl = one_plane(PoolOrder::Fifo, HotTo::Young, false);
    assert_eq!(ftl.fewest_valid(0), None);
    let logical = ftl.geometry().logical_pages;
    let mut rng = rng_for(3, 0);
    for i in 0..3 * logical {
        while ftl.needs_gc(0) && ftl.candidates(0) > 0 {
            collect(&mut ftl, &mut rng, Stream::Gc);
        }
        let lpn = if i < logical {
            i
        } else {
            rng.gen_range(0..logical)
        };
        ftl.host_write(lpn).expect("room for a write");
        assert_eq!(ftl.fewest_valid(0), fewest_by_scan(&ftl), "write {i}");
    }
}

#[test]
fn a_host_write_to_the_gc_stream_lands_at_the_gc_write_point() {
    let mut ftl = one_plane(PoolOrder::Fifo, HotTo::Young, false);
    let old = ftl.host_write(0).expect("room");
    assert_eq!(ftl.write_offset(0, Stream::Gc), 0);
    let gc_before = ftl.write_offset(0, Stream::Host);
    let new = ftl.host_write_to(0, Stream::Gc).expect("room");
    // A fresh GC block was opened and the page is its first; the host write point did not move.
    assert_eq!(new % 4, 0);
    assert_ne!(new / 4, old / 4);
    assert_eq!(ftl.write_offset(0, Stream::Gc), 1);
    assert_eq!(ftl.write_offset(0, Stream::Host), gc_before);
    assert_eq!(ftl.lookup(0), Some(new));
    assert_eq!(ftl.reverse(old), None);
    ftl.check().expect("consistent");
}

/// One plane of 40 blocks of 16 pages, a quarter of it spare, oldest-full victims.
fn plane_of_16_page_blocks() -> PageFtl {
    plane_ftl(40, 16, 0.25, 3, PoolOrder::Fifo, HotTo::default(), false)
}

#[test]
fn a_block_moved_at_once_ends_as_moved_page_by_page() {
    let mut batch = plane_of_16_page_blocks();
    let mut single = plane_of_16_page_blocks();
    let logical = batch.geometry().logical_pages;
    let mut rng = rng_for(9, 0);
    let (mut vb, mut vs) = (rng_for(3, 1), rng_for(3, 1));
    let mut collections = 0;
    for i in 0..6000u32 {
        while batch.needs_gc(0) {
            let a = batch.choose_victim(0, &mut vb).expect("a candidate");
            let b = single.choose_victim(0, &mut vs).expect("a candidate");
            assert_eq!(a, b);
            // Sometimes from part-way through the block, the first pages one by one.
            let from = if collections % 3 == 1 { 5 } else { 0 };
            for ftl in [&mut batch, &mut single] {
                for p in 0..from {
                    if let Some((page, lpn)) = ftl.next_valid_in_block(0, a, p) {
                        if page == p {
                            let src = ftl.geometry().ppn(0, a, page);
                            ftl.relocate_to(src, lpn, Stream::Gc).expect("room");
                        }
                    }
                }
            }
            let m = batch.relocate_block(0, a, from);
            let s = crate::ftl::seam::relocate_each(&mut single, 0, a, from);
            assert_eq!(m, s);
            assert_eq!(m.next, 16);
            assert!(m.error.is_none());
            for ftl in [&mut batch, &mut single] {
                ftl.begin_erase(0, a);
                ftl.finish_erase(0, a);
            }
            batch.check().expect("consistent");
            let snap = batch.snapshot().expect("a snapshot");
            assert_eq!(Ok(snap), single.snapshot());
            collections += 1;
        }
        let lpn = if i < logical {
            i
        } else {
            rng.gen_range(0..logical)
        };
        assert_eq!(batch.host_write(lpn), single.host_write(lpn));
    }
    assert!(collections > 200, "{collections} collections");
}

/// Greedy's index, kept inline by the FTL (`inline`, as the greedy policy asks) or behind the
/// trait (as every other policy's).
#[derive(Debug)]
struct GreedyKind {
    inline: bool,
}

impl CandidateIndexKind for GreedyKind {
    fn name(&self) -> String {
        "greedy".into()
    }
    fn build(&self, blocks: u32, pages: u32) -> Box<dyn CandidateIndex> {
        Box::new(crate::ftl::greedy::Greedy::new(blocks, pages))
    }
    fn build_plane(&self, blocks: u32, pages: u32) -> super::PlaneIndex {
        if self.inline {
            super::PlaneIndex::Greedy(crate::ftl::greedy::Greedy::new(blocks, pages))
        } else {
            super::PlaneIndex::Policy(self.build(blocks, pages))
        }
    }
}

#[test]
fn greedy_inline_collects_as_greedy_behind_the_trait() {
    let kind = |inline| -> Arc<dyn CandidateIndexKind> { Arc::new(GreedyKind { inline }) };
    let mut a = plane_ftl_choosing(kind(true), 24, 4, 0.34, 4);
    let mut b = plane_ftl_choosing(kind(false), 24, 4, 0.34, 4);
    assert!(matches!(a.planes[0].victim, super::PlaneIndex::Greedy(_)));
    assert!(matches!(b.planes[0].victim, super::PlaneIndex::Policy(_)));
    let opened_a = churn(&mut a, 6_000, &[Stream::Gc]);
    let opened_b = churn(&mut b, 6_000, &[Stream::Gc]);
    assert!(opened_a.len() > 100, "the churn collected");
    assert_eq!(opened_a, opened_b);
    for lpn in 0..a.geometry().logical_pages {
        assert_eq!(a.lookup(lpn), b.lookup(lpn), "page {lpn}");
    }
    assert_eq!(a.erase_counts(), b.erase_counts());
    assert_eq!(a.candidates(0), b.candidates(0));
}
