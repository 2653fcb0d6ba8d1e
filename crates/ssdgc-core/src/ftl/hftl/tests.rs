//! H-FTL's 2:8 groups: a group absorbs eight update blocks of writes to its two logical blocks, and
//! its merge rewrites both into two fresh blocks and erases up to ten (AGC/DGC paper §5.1, §6.3).

use super::PAPER_SHAPE;
use crate::ftl::logblock::tests::{carry_out, lpn, one_plane, write, PPB};
use crate::ftl::merge::MergeKind;
use crate::ftl::params::MergeVictim;
use crate::ftl::{FtlMechanism, FtlView};
use crate::rng::rng_for;

#[test]
fn a_group_takes_eight_update_blocks_then_merges_ten_blocks_into_two() {
    // 8 logical blocks (4 groups), 40 blocks.
    let mut f = one_plane(PAPER_SHAPE, 40, 8, 3, MergeVictim::Greedy, 0);
    let mut rng = rng_for(1, 0);
    // Give both logical blocks of group 0 a data block.
    write(&mut f, &(0..2 * PPB).collect::<Vec<_>>());
    while f.candidates(0) > 0 {
        let plan = f.plan_merge(0, &mut rng).unwrap();
        carry_out(&mut f, &plan);
    }
    // Eight update blocks' worth of writes alternating between its logical blocks.
    let pages: Vec<u32> = (0..8 * PPB).map(|i| lpn(i % 2, (i / 2) % PPB)).collect();
    for (i, &p) in pages.iter().enumerate() {
        assert!(
            !f.needs_gc(0),
            "write {i}: not due before the eighth block is full"
        );
        write(&mut f, &[p]);
    }
    assert!(f.needs_gc(0), "eight full update blocks: due");
    assert_eq!(f.stats().update_blocks, 8);
    let plan = f.plan_merge(0, &mut rng).unwrap();
    assert_eq!(plan.kind, MergeKind::Full);
    assert_eq!(
        plan.erase.len(),
        10,
        "two data blocks and eight update blocks"
    );
    assert_eq!(
        plan.copies.len(),
        2 * PPB as usize,
        "both logical blocks, every page"
    );
    let fresh: std::collections::BTreeSet<u32> = plan
        .copies
        .iter()
        .map(|c| f.geometry().addr(c.dst).block)
        .collect();
    assert_eq!(fresh.len(), 2, "two fresh data blocks");
    let free = f.free_blocks(0);
    assert_eq!(carry_out(&mut f, &plan), 2 * PPB);
    assert_eq!(f.free_blocks(0), free + 10);
    assert!(!f.needs_gc(0));
}

#[test]
fn update_blocks_written_in_order_for_distinct_logical_blocks_switch() {
    let mut f = one_plane(PAPER_SHAPE, 40, 8, 3, MergeVictim::Greedy, 0);
    let mut rng = rng_for(1, 0);
    // Logical blocks 0 and 1 (one group), each written in order into an update block of its own.
    write(&mut f, &(0..2 * PPB).collect::<Vec<_>>());
    let plan = f.plan_merge(0, &mut rng).unwrap();
    assert_eq!(
        (plan.kind, plan.copies.len(), plan.erase.len()),
        (MergeKind::Switch, 0, 0),
        "both update blocks become data blocks"
    );
    carry_out(&mut f, &plan);
    // Logical block 1 rewritten whole, logical block 0 up to its third page: switch one, complete
    // the other from its data block.
    write(&mut f, &(PPB..2 * PPB).chain(0..2).collect::<Vec<_>>());
    let plan = f.plan_merge(0, &mut rng).unwrap();
    assert_eq!(plan.kind, MergeKind::Partial);
    assert_eq!(plan.copies.len(), (PPB - 2) as usize);
    assert_eq!(plan.erase.len(), 2, "both old data blocks");
    assert_eq!(carry_out(&mut f, &plan), PPB - 2);
    // Out of order in one of them: a full merge.
    write(&mut f, &[lpn(0, 1), lpn(1, 0)]);
    assert_eq!(f.plan_merge(0, &mut rng).unwrap().kind, MergeKind::Full);
}

#[test]
fn an_update_block_superseded_in_order_is_only_erased() {
    let mut f = one_plane(PAPER_SHAPE, 40, 8, 3, MergeVictim::Greedy, 0);
    // Logical block 0 written in order twice: the second update block supersedes the first.
    write(&mut f, &(0..PPB).chain(0..PPB).collect::<Vec<_>>());
    let plan = f.plan_merge(0, &mut rng_for(1, 0)).unwrap();
    assert_eq!(
        (plan.kind, plan.copies.len(), plan.erase.len()),
        (MergeKind::Switch, 0, 1),
        "the second becomes the data block, the first is erased"
    );
    carry_out(&mut f, &plan);
    assert_eq!(f.stats().update_blocks, 0);
}
