//! L-FTL's behaviour on its own: log-block thrashing under random writes, and none under
//! sequential writes.

use rand::Rng;

use crate::ftl::logblock::tests::{carry_out, one_plane, write, L, PPB};
use crate::ftl::merge::MergeKind;
use crate::ftl::params::MergeVictim;
use crate::ftl::{FtlMechanism, FtlView};
use crate::rng::rng_for;

/// Runs `pages` host writes, merging first while the plane needs GC; returns the merges per kind
/// and the pages they copied.
fn run(lbns: u32, blocks: u32, pages: impl Iterator<Item = u32>) -> ([u32; 3], u32) {
    let mut f = one_plane(L, blocks, lbns, 2, MergeVictim::Greedy, 0);
    let (mut kinds, mut copied) = ([0u32; 3], 0);
    let mut rng = rng_for(3, 0);
    for p in pages {
        while f.needs_gc(0) {
            let plan = f.plan_merge(0, &mut rng).expect("a group to merge");
            kinds[plan.kind as usize] += 1;
            copied += carry_out(&mut f, &plan);
        }
        write(&mut f, &[p]);
    }
    (kinds, copied)
}

#[test]
fn random_writes_over_more_logical_blocks_than_log_blocks_thrash() {
    // 64 logical blocks, 8 spare blocks (6 log blocks above the threshold of 2), after a fill.
    let lbns = 64;
    let fill = 0..lbns * PPB;
    let mut r = rng_for(11, 0);
    let random: Vec<u32> = (0..2000).map(|_| r.gen_range(0..lbns * PPB)).collect();
    let (kinds, copied) = run(lbns, lbns + 8, fill.chain(random.iter().copied()));
    // The fill switches every logical block's log block; then almost every random write opens a
    // log block for a logical block that has none and forces the merge of another, which holds a
    // page or two: a full merge, or a partial one when its first page was written first. (A write
    // finds its logical block holding a log block with a chance of about 6 in 64.)
    assert!(kinds[MergeKind::Switch as usize] >= lbns);
    let (partial, full) = (
        kinds[MergeKind::Partial as usize],
        kinds[MergeKind::Full as usize],
    );
    assert!(
        partial + full >= 1700,
        "{partial} partial and {full} full merges for 2000 writes"
    );
    assert!(full > 2 * partial, "{partial} partial, {full} full");
    assert!(
        copied >= (partial + full) * (PPB - 1),
        "each merge copies nearly a whole block: {copied} pages in {} merges",
        partial + full
    );
}

#[test]
fn sequential_rewrites_switch_without_copying() {
    let lbns = 16;
    let pages = (0..4 * lbns * PPB).map(|i| i % (lbns * PPB));
    let (kinds, copied) = run(lbns, lbns + 4, pages);
    assert_eq!(copied, 0);
    assert_eq!(kinds[MergeKind::Full as usize], 0);
    assert_eq!(kinds[MergeKind::Partial as usize], 0);
    // Each logical block's log block switches when the next write comes (the last one waits).
    assert_eq!(kinds[MergeKind::Switch as usize], 4 * lbns - 1);
}
