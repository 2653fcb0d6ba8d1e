//! The log-block engine on hand-built states (no GC layer): each kind of merge plans the copies and
//! erases its definition says, the plan keeps every invariant while it is carried out (with host
//! writes landing in the middle), and the choice of the group follows the due mark and the victim
//! policy. A plan is carried out here as the GC mechanism does it: copies in order, then erases.

use std::sync::Arc;

use super::LogBlockFtl;
use crate::flash::{AllocationOrder, Geometry, GeometryParams};
use crate::ftl::merge::{MergeKind, MergePlan};
use crate::ftl::params::{GroupShape, LogParams, MappingKind, MergeVictim};
use crate::ftl::{
    BlockState, CandidateIndex, CandidateIndexKind, FtlMechanism, FtlParams, FtlView, PlaneView,
    PoolOrder, StreamLayout, Trigger,
};
use crate::rng::{rng_for, SimRng};
use crate::units::{Lpn, NO_PAGE};

/// The log-block FTL builds no candidate index; the parameters still name one.
#[derive(Debug)]
struct Unused;

impl CandidateIndex for Unused {
    fn on_full(&mut self, _: u32, _: &PlaneView<'_>) {}
    fn on_invalidate(&mut self, _: u32, _: u16, _: &PlaneView<'_>) {}
    fn pick(&mut self, _: &PlaneView<'_>, _: &mut SimRng) -> Option<u32> {
        None
    }
    fn len(&self) -> usize {
        0
    }
}

impl CandidateIndexKind for Unused {
    fn name(&self) -> String {
        "unused".into()
    }
    fn build(&self, _: u32, _: u32) -> Box<dyn CandidateIndex> {
        Box::new(Unused)
    }
}

/// Pages per block of the test drives.
pub(crate) const PPB: u32 = 4;

/// One plane of `blocks` blocks of 4 pages holding `lbns` logical blocks (so logical page
/// `4·lbn + off` is offset `off` of logical block `lbn`), GC below `threshold` free blocks.
pub(crate) fn one_plane(
    shape: GroupShape,
    blocks: u32,
    lbns: u32,
    threshold: u32,
    victim: MergeVictim,
    log_blocks: u32,
) -> LogBlockFtl {
    let physical = (blocks * PPB) as f64;
    let geo = Geometry::new(GeometryParams {
        channels: 1,
        chips_per_channel: 1,
        dies_per_chip: 1,
        planes_per_die: 1,
        blocks_per_plane: blocks,
        pages_per_block: PPB,
        page_size: 4096,
        // Half a page less than the logical pages' share: floor gives exactly those pages.
        overprovision: 1.0 - ((lbns * PPB) as f64 + 0.5) / physical,
    });
    assert_eq!(geo.logical_pages, lbns * PPB);
    let params = FtlParams {
        allocation: AllocationOrder::parse("CWDP").expect("an order"),
        trigger: Trigger {
            blocks: threshold,
            pages: None,
        },
        pool: PoolOrder::Fifo,
        streams: StreamLayout::new(Default::default()),
        hot_cold: false,
        candidates: Arc::new(Unused),
        mapping: if shape == (GroupShape { data: 1, update: 1 }) {
            MappingKind::Lftl
        } else {
            MappingKind::Hftl
        },
        log: LogParams {
            shape,
            log_blocks,
            victim,
        },
    };
    LogBlockFtl::new(&params, &geo)
}

pub(crate) const L: GroupShape = GroupShape { data: 1, update: 1 };

/// Logical page `off` of logical block `lbn` (one plane).
pub(crate) fn lpn(lbn: u32, off: u32) -> Lpn {
    lbn * PPB + off
}

pub(crate) fn write(f: &mut LogBlockFtl, pages: &[Lpn]) {
    for &p in pages {
        f.host_write(p).expect("a free block");
        f.check()
            .unwrap_or_else(|e| panic!("after writing {p}: {e}"));
    }
}

/// Carries out a plan as the GC mechanism does; returns the pages copied.
pub(crate) fn carry_out(f: &mut LogBlockFtl, plan: &MergePlan) -> u32 {
    let mut copied = 0;
    for &c in &plan.copies {
        copied += f.merge_copy(c) as u32;
        f.check().unwrap_or_else(|e| panic!("after a copy: {e}"));
    }
    for &b in &plan.erase {
        f.begin_erase(plan.plane, b);
        f.check()
            .unwrap_or_else(|e| panic!("after starting an erase: {e}"));
        f.finish_erase(plan.plane, b);
        f.check().unwrap_or_else(|e| panic!("after an erase: {e}"));
    }
    copied
}

fn plan(f: &mut LogBlockFtl) -> MergePlan {
    let mut rng = rng_for(1, 0);
    f.plan_merge(0, &mut rng).expect("a group to merge")
}

/// Plans the next merge and carries it out.
fn merge_next(f: &mut LogBlockFtl) {
    let p = plan(f);
    carry_out(f, &p);
}

/// The data block of a logical page's logical block, if its page is in one (its block otherwise).
fn block_of(f: &LogBlockFtl, p: Lpn) -> u32 {
    f.geo.addr(f.lookup(p).expect("mapped")).block
}

#[test]
fn a_sequentially_written_log_block_switches_with_one_erase_and_no_copy() {
    let mut f = one_plane(L, 16, 8, 2, MergeVictim::Greedy, 0);
    // First write of logical block 0, in order: its log block is full and due.
    write(&mut f, &[lpn(0, 0), lpn(0, 1), lpn(0, 2), lpn(0, 3)]);
    assert!(f.needs_gc(0), "a full log block makes its plane need GC");
    let p = plan(&mut f);
    assert_eq!(
        (p.kind, p.copies.len(), p.erase.len()),
        (MergeKind::Switch, 0, 0),
        "no data block yet: nothing to copy or erase"
    );
    assert!(!f.needs_gc(0));
    let first = block_of(&f, lpn(0, 0));
    // Rewritten in order: the log block becomes the data block, the old one is erased.
    write(&mut f, &[lpn(0, 0), lpn(0, 1), lpn(0, 2), lpn(0, 3)]);
    let p = plan(&mut f);
    assert_eq!(
        (p.kind, p.copies.len(), p.erase.as_slice()),
        (MergeKind::Switch, 0, &[first][..])
    );
    let free = f.free_blocks(0);
    assert_eq!(carry_out(&mut f, &p), 0);
    assert_eq!(f.free_blocks(0), free + 1);
    for off in 0..PPB {
        assert_eq!(f.geo.addr(f.lookup(lpn(0, off)).unwrap()).page, off);
    }
}

#[test]
fn a_log_block_written_in_order_up_to_a_page_is_completed_from_the_data_block() {
    let mut f = one_plane(L, 16, 8, 2, MergeVictim::Greedy, 0);
    write(&mut f, &[lpn(1, 0), lpn(1, 1), lpn(1, 2), lpn(1, 3)]);
    merge_next(&mut f);
    let data = block_of(&f, lpn(1, 3));
    write(&mut f, &[lpn(1, 0), lpn(1, 1)]);
    let log = block_of(&f, lpn(1, 0));
    assert!(!f.needs_gc(0), "a log block with free pages is not due");
    let p = plan(&mut f);
    assert_eq!(p.kind, MergeKind::Partial);
    assert_eq!(p.erase, [data]);
    let moved: Vec<(u32, u32)> = p
        .copies
        .iter()
        .map(|c| (f.geo.addr(c.src).page, f.geo.addr(c.dst).page))
        .collect();
    assert_eq!(
        moved,
        [(2, 2), (3, 3)],
        "the rest, from the data block, at its offsets"
    );
    assert!(p.copies.iter().all(|c| f.geo.addr(c.dst).block == log));
    assert_eq!(carry_out(&mut f, &p), 2);
    for off in 0..PPB {
        let a = f.geo.addr(f.lookup(lpn(1, off)).unwrap());
        assert_eq!((a.block, a.page), (log, off));
    }
    assert_eq!(f.block_state(log), BlockState::Full);
}

#[test]
fn an_out_of_order_log_block_is_merged_in_full_into_a_fresh_block_with_two_erases() {
    let mut f = one_plane(L, 16, 8, 2, MergeVictim::Greedy, 0);
    write(&mut f, &[lpn(2, 0), lpn(2, 1), lpn(2, 2), lpn(2, 3)]);
    merge_next(&mut f);
    let data = block_of(&f, lpn(2, 0));
    write(&mut f, &[lpn(2, 2), lpn(2, 0)]);
    let log = block_of(&f, lpn(2, 0));
    let p = plan(&mut f);
    assert_eq!(p.kind, MergeKind::Full);
    assert_eq!(p.erase, [data, log]);
    assert_eq!(p.copies.len(), 4, "every valid page of the logical block");
    let fresh = f.geo.addr(p.copies[0].dst).block;
    assert!(fresh != data && fresh != log);
    for (off, c) in p.copies.iter().enumerate() {
        assert_eq!(
            f.geo.addr(c.dst).page,
            off as u32,
            "each page at its offset"
        );
    }
    let free = f.free_blocks(0);
    assert_eq!(carry_out(&mut f, &p), 4);
    assert_eq!(f.free_blocks(0), free + 2);
    assert!((0..PPB).all(|off| block_of(&f, lpn(2, off)) == fresh));
}

#[test]
fn a_host_write_during_a_merge_supersedes_its_copy_and_opens_a_new_update_block() {
    let mut f = one_plane(L, 16, 8, 2, MergeVictim::Greedy, 0);
    write(&mut f, &[lpn(3, 0), lpn(3, 1), lpn(3, 2), lpn(3, 3)]);
    merge_next(&mut f);
    write(&mut f, &[lpn(3, 3), lpn(3, 1)]);
    let p = plan(&mut f);
    assert_eq!(p.kind, MergeKind::Full);
    let fresh = f.geo.addr(p.copies[0].dst).block;
    // Two copies done, then the host rewrites page 2 (not yet copied) and page 0 (copied).
    assert!(f.merge_copy(p.copies[0]) && f.merge_copy(p.copies[1]));
    write(&mut f, &[lpn(3, 2), lpn(3, 0)]);
    assert_eq!(f.candidates(0), 0, "a group being merged is no candidate");
    assert!(!f.merge_copy(p.copies[2]), "superseded: not copied");
    assert!(f.merge_copy(p.copies[3]));
    let rest = MergePlan {
        copies: Vec::new(),
        ..p.clone()
    };
    carry_out(&mut f, &rest);
    assert_eq!(
        f.candidates(0),
        1,
        "written during its merge: a candidate again"
    );
    assert_eq!(block_of(&f, lpn(3, 1)), fresh);
    assert_eq!(block_of(&f, lpn(3, 3)), fresh);
    assert_ne!(block_of(&f, lpn(3, 2)), fresh);
    assert_eq!(
        f.reverse(f.geo.ppn(0, fresh, 2)),
        None,
        "the superseded copy's page is left unprogrammed"
    );
    // The next merge of the group finds the hole and the new pages.
    let p = plan(&mut f);
    assert_eq!(p.kind, MergeKind::Full);
    assert_eq!(carry_out(&mut f, &p), 4);
}

#[test]
fn the_plane_needs_gc_below_its_free_blocks_at_its_cap_or_with_a_due_group() {
    // 16 blocks, 8 logical blocks: after the fill, 8 free; the threshold holds back 6.
    let mut f = one_plane(L, 16, 8, 6, MergeVictim::Fifo, 0);
    for lbn in 0..8 {
        write(&mut f, &(0..PPB).map(|o| lpn(lbn, o)).collect::<Vec<_>>());
        merge_next(&mut f);
    }
    assert_eq!(f.free_blocks(0), 8);
    write(&mut f, &[lpn(0, 1), lpn(1, 1)]);
    assert!(!f.needs_gc(0));
    write(&mut f, &[lpn(2, 1)]);
    assert!(f.needs_gc(0), "5 free blocks, below 6");
    // FIFO merges the oldest log block first.
    let p = plan(&mut f);
    assert_eq!(p.group, 0);
    carry_out(&mut f, &p);
    assert!(!f.needs_gc(0));
    // A cap of two log blocks per plane.
    let mut f = one_plane(L, 16, 8, 2, MergeVictim::Fifo, 2);
    write(&mut f, &[lpn(0, 1)]);
    assert!(!f.needs_gc(0));
    write(&mut f, &[lpn(1, 1)]);
    assert!(f.needs_gc(0), "two log blocks, the cap");
}

#[test]
fn greedy_merges_the_cheapest_group_fifo_the_oldest_random_any() {
    let build = |victim| {
        let mut f = one_plane(L, 16, 8, 2, victim, 0);
        for lbn in 0..2 {
            write(&mut f, &(0..PPB).map(|o| lpn(lbn, o)).collect::<Vec<_>>());
            merge_next(&mut f);
        }
        // Logical block 0: out of order (full merge, 4 copies); 1: pages 0..2 in order (partial
        // merge, 1 copy).
        write(&mut f, &[lpn(0, 3), lpn(1, 0), lpn(1, 1), lpn(1, 2)]);
        f
    };
    let mut f = build(MergeVictim::Greedy);
    assert_eq!((plan(&mut f).group, f.copies_of(0, 0)), (1, 4));
    let mut f = build(MergeVictim::Fifo);
    assert_eq!(plan(&mut f).group, 0);
    let mut seen = [false; 2];
    for seed in 0..32 {
        let mut f = build(MergeVictim::Random);
        let g = f.plan_merge(0, &mut rng_for(seed, 0)).unwrap().group;
        seen[g as usize] = true;
    }
    assert_eq!(seen, [true, true]);
}

#[test]
fn a_write_beyond_a_due_group_overflows_and_the_merge_takes_every_update_block() {
    let mut f = one_plane(L, 16, 8, 2, MergeVictim::Greedy, 0);
    write(&mut f, &[lpn(4, 0), lpn(4, 2), lpn(4, 1), lpn(4, 3)]);
    assert!(f.needs_gc(0));
    assert_eq!(f.update_room(lpn(4, 0)), Some(0));
    // A trigger that lets the write through: a second log block, counted as an overflow.
    write(&mut f, &[lpn(4, 0)]);
    assert_eq!(f.stats().overflow_blocks, 1);
    assert_eq!(f.stats().update_blocks, 2);
    let p = plan(&mut f);
    assert_eq!(p.kind, MergeKind::Full);
    assert_eq!(p.erase.len(), 2, "two log blocks, no data block yet");
    assert_eq!(carry_out(&mut f, &p), 4);
    assert_eq!(f.stats().update_blocks, 0);
    assert_eq!(f.stats().update_blocks_peak, 2);
}

#[test]
fn a_full_merge_without_its_fresh_blocks_is_passed_over() {
    // 5 blocks, 4 logical blocks: one block left after the fill.
    let mut f = one_plane(L, 5, 4, 1, MergeVictim::Greedy, 0);
    for lbn in 0..4 {
        write(&mut f, &(0..PPB).map(|o| lpn(lbn, o)).collect::<Vec<_>>());
        merge_next(&mut f);
    }
    write(&mut f, &[lpn(0, 2)]);
    assert_eq!(f.free_blocks(0), 0);
    assert_eq!(f.plan_merge(0, &mut rng_for(1, 0)), None);
    assert_eq!(f.candidates(0), 1, "still a candidate");
}

#[test]
fn update_room_counts_the_group_s_update_space() {
    let mut f = one_plane(
        GroupShape { data: 2, update: 3 },
        32,
        8,
        2,
        MergeVictim::Greedy,
        0,
    );
    assert_eq!(f.update_room(lpn(0, 0)), Some(3 * PPB));
    write(&mut f, &[lpn(1, 0)]);
    assert_eq!(
        f.update_room(lpn(0, 0)),
        Some(3 * PPB - 1),
        "the group's pages"
    );
    assert_eq!(f.update_room(lpn(2, 0)), Some(3 * PPB), "another group");
    assert!(!f.write_needs_gc(lpn(0, 0)));
    let mut l = one_plane(L, 16, 8, 2, MergeVictim::Greedy, 0);
    write(&mut l, &[lpn(0, 0), lpn(0, 1), lpn(0, 2)]);
    assert_eq!(l.update_room(lpn(0, 3)), Some(1));
    write(&mut l, &[lpn(0, 3)]);
    assert!(
        l.write_needs_gc(lpn(5, 0)),
        "a due group: the plane's next write merges it"
    );
}

#[test]
fn every_page_of_a_merge_moves_to_its_offset_and_nothing_is_lost() {
    // Random writes and merges on both shapes, the mapping checked against the written versions.
    use rand::Rng;
    for shape in [L, GroupShape { data: 2, update: 3 }] {
        let mut f = one_plane(shape, 40, 16, 3, MergeVictim::Greedy, 0);
        let mut r = rng_for(7, 0);
        let mut written = vec![false; 16 * PPB as usize];
        for i in 0..3000 {
            while f.needs_gc(0) {
                let p = plan(&mut f);
                carry_out(&mut f, &p);
            }
            let p = r.gen_range(0..16 * PPB);
            write(&mut f, &[p]);
            written[p as usize] = true;
            if i % 500 == 0 {
                f.check().unwrap();
            }
        }
        for (p, &w) in written.iter().enumerate() {
            assert_eq!(f.lookup(p as Lpn).is_some(), w, "{shape:?}: lpn {p}");
        }
        assert_eq!(
            f.mapped_pages(),
            written.iter().filter(|&&w| w).count() as u64
        );
        // Each data block holds its pages at their offsets (the check verifies it, and no page of
        // a free block is programmed).
        assert!(f.p2l.iter().filter(|&&l| l != NO_PAGE).count() as u64 == f.mapped_pages());
    }
}
