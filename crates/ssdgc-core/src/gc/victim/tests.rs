//! Shared checks for every victim policy: a naive reference model of the candidate set driven in
//! lockstep with a policy by random notification sequences.

use std::collections::{BTreeSet, VecDeque};

use proptest::prelude::*;

use super::{PlaneView, VictimKind};
use crate::ftl::{BlockInfo, BlockState};
use crate::rng::{rng_for, SimRng};

/// A plane as the GC mechanism would see it, plus the naive candidate set.
struct RefPlane {
    ppb: u32,
    blocks: Vec<BlockInfo>,
    erase_count: Vec<u32>,
    now: u64,
    candidates: BTreeSet<u32>,
    fill_order: VecDeque<u32>,
    /// When each candidate last entered its valid count (by filling or by an invalidation), on
    /// a counter of such entries: greedy's ties go to the latest.
    entered: Vec<u64>,
    entries: u64,
}

impl RefPlane {
    fn new(blocks: u32, ppb: u32) -> Self {
        Self {
            ppb,
            blocks: vec![BlockInfo::FREE; blocks as usize],
            erase_count: vec![0; blocks as usize],
            now: 0,
            candidates: BTreeSet::new(),
            fill_order: VecDeque::new(),
            entered: vec![0; blocks as usize],
            entries: 0,
        }
    }

    /// Candidate `b` has just entered its valid count.
    fn enter(&mut self, b: u32) {
        self.entries += 1;
        self.entered[b as usize] = self.entries;
    }

    fn view(&self) -> PlaneView<'_> {
        PlaneView {
            blocks: &self.blocks,
            erase_count: &self.erase_count,
            now: self.now,
            pages_per_block: self.ppb,
        }
    }

    fn age(&self, b: u32) -> u64 {
        self.now - self.blocks[b as usize].last_modified
    }

    /// Brute-force cost-benefit score, straight from the formula.
    fn cb_score(&self, b: u32) -> f64 {
        let u = self.blocks[b as usize].valid as f64 / self.ppb as f64;
        if u == 0.0 {
            f64::INFINITY
        } else {
            (1.0 - u) * self.age(b) as f64 / (2.0 * u)
        }
    }

    /// Brute-force CAT score, straight from the formula.
    fn cat_score(&self, b: u32) -> f64 {
        let u = self.blocks[b as usize].valid as f64 / self.ppb as f64;
        if u >= 1.0 {
            f64::INFINITY
        } else {
            u / (1.0 - u) * (self.erase_count[b as usize] as f64 + 1.0) / (self.age(b) as f64 + 1.0)
        }
    }
}

/// One step of a random notification sequence; indices are reduced modulo whatever is eligible.
#[derive(Clone, Debug)]
pub(super) enum Op {
    /// A non-candidate block fills with `valid % (ppb + 1)` valid pages.
    Full { which: u32, valid: u32, wear: u32 },
    /// A candidate with a valid page loses one.
    Invalidate { which: u32 },
    /// The mechanism asks for a victim.
    Pick,
    /// Logical time advances.
    Tick(u64),
}

pub(super) fn op_strategy() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (any::<u32>(), any::<u32>(), 0u32..3)
            .prop_map(|(which, valid, wear)| Op::Full { which, valid, wear }),
        5 => any::<u32>().prop_map(|which| Op::Invalidate { which }),
        2 => Just(Op::Pick),
        2 => (1u64..40).prop_map(Op::Tick),
    ]
}

/// Drives `kind` through `ops` on a `blocks` x `ppb` plane, checking every pick against the
/// reference. Returns the sequence of picks.
pub(super) fn drive(
    kind: VictimKind,
    blocks: u32,
    ppb: u32,
    ops: &[Op],
    seed: u64,
) -> Vec<Option<u32>> {
    let mut plane = RefPlane::new(blocks, ppb);
    let mut policy = kind.build(blocks, ppb);
    let mut rng: SimRng = rng_for(seed, 7);
    let mut picks = Vec::new();
    for op in ops {
        match *op {
            Op::Full { which, valid, wear } => {
                let free: Vec<u32> = (0..blocks)
                    .filter(|b| !plane.candidates.contains(b))
                    .collect();
                if free.is_empty() {
                    continue;
                }
                let b = free[which as usize % free.len()];
                plane.blocks[b as usize].valid = (valid % (ppb + 1)) as u16;
                plane.erase_count[b as usize] += wear;
                plane.blocks[b as usize].last_modified = plane.now;
                plane.candidates.insert(b);
                plane.fill_order.push_back(b);
                plane.enter(b);
                policy.on_full(b, &plane.view());
            }
            Op::Invalidate { which } => {
                let eligible: Vec<u32> = plane
                    .candidates
                    .iter()
                    .copied()
                    .filter(|&b| plane.blocks[b as usize].valid > 0)
                    .collect();
                if eligible.is_empty() {
                    continue;
                }
                let b = eligible[which as usize % eligible.len()];
                let old = plane.blocks[b as usize].valid;
                plane.blocks[b as usize].valid = old - 1;
                plane.blocks[b as usize].last_modified = plane.now;
                plane.enter(b);
                policy.on_invalidate(b, old, &plane.view());
            }
            Op::Tick(dt) => plane.now += dt,
            Op::Pick => {
                let got = policy.pick(&plane.view(), &mut rng);
                check_pick(kind, &mut plane, got);
                if let Some(b) = got {
                    // The mechanism erases the victim.
                    plane.candidates.remove(&b);
                    plane.blocks[b as usize].valid = 0;
                    plane.erase_count[b as usize] += 1;
                    plane.blocks[b as usize].last_modified = plane.now;
                }
                picks.push(got);
            }
        }
        assert_eq!(policy.len(), plane.candidates.len(), "{kind}: len mismatch");
        assert_eq!(policy.is_empty(), plane.candidates.is_empty());
        // The fewest valid pages of any candidate: exact where the index keeps it (greedy,
        // alpha), else not answered.
        let fewest = plane
            .candidates
            .iter()
            .map(|&c| plane.blocks[c as usize].valid)
            .min();
        let got = policy.fewest_valid(&plane.view());
        match kind {
            VictimKind::Greedy | VictimKind::Alpha(_) => {
                assert_eq!(got, fewest, "{kind}: fewest_valid")
            }
            _ => assert_eq!(got, None, "{kind}: fewest_valid without an index"),
        }
    }
    picks
}

/// Drives `kind` through `ops[..split]`, rebuilds a second index from the first's
/// [`super::VictimPolicy::rebuild_order`] (what an FTL snapshot does), then drives both through
/// the rest with identical RNG streams: every pick must agree.
fn drive_rebuilt(kind: VictimKind, blocks: u32, ppb: u32, ops: &[Op], split: usize, seed: u64) {
    let mut plane = RefPlane::new(blocks, ppb);
    let mut first = kind.build(blocks, ppb);
    let mut rng: SimRng = rng_for(seed, 7);
    let mut second: Option<(Box<dyn super::VictimPolicy>, SimRng)> = None;
    for (i, op) in ops.iter().enumerate() {
        if i == split.min(ops.len()) {
            let order = first.rebuild_order().expect("every policy can be rebuilt");
            assert_eq!(
                order.len(),
                first.len(),
                "{kind}: order lists every candidate"
            );
            let mut fresh = kind.build(blocks, ppb);
            for &b in &order {
                fresh.on_full(b, &plane.view());
            }
            second = Some((fresh, rng.clone()));
        }
        match *op {
            Op::Full { which, valid, wear } => {
                let free: Vec<u32> = (0..blocks)
                    .filter(|b| !plane.candidates.contains(b))
                    .collect();
                if free.is_empty() {
                    continue;
                }
                let b = free[which as usize % free.len()];
                plane.blocks[b as usize].valid = (valid % (ppb + 1)) as u16;
                plane.erase_count[b as usize] += wear;
                plane.blocks[b as usize].last_modified = plane.now;
                plane.candidates.insert(b);
                first.on_full(b, &plane.view());
                if let Some((p, _)) = second.as_mut() {
                    p.on_full(b, &plane.view());
                }
            }
            Op::Invalidate { which } => {
                let eligible: Vec<u32> = plane
                    .candidates
                    .iter()
                    .copied()
                    .filter(|&b| plane.blocks[b as usize].valid > 0)
                    .collect();
                if eligible.is_empty() {
                    continue;
                }
                let b = eligible[which as usize % eligible.len()];
                let old = plane.blocks[b as usize].valid;
                plane.blocks[b as usize].valid = old - 1;
                plane.blocks[b as usize].last_modified = plane.now;
                first.on_invalidate(b, old, &plane.view());
                if let Some((p, _)) = second.as_mut() {
                    p.on_invalidate(b, old, &plane.view());
                }
            }
            Op::Tick(dt) => plane.now += dt,
            Op::Pick => {
                let got = first.pick(&plane.view(), &mut rng);
                if let Some((p, r)) = second.as_mut() {
                    let again = p.pick(&plane.view(), r);
                    assert_eq!(got, again, "{kind}: the rebuilt index picks differently");
                }
                if let Some(b) = got {
                    plane.candidates.remove(&b);
                    plane.blocks[b as usize].valid = 0;
                    plane.erase_count[b as usize] += 1;
                    plane.blocks[b as usize].last_modified = plane.now;
                }
            }
        }
    }
}

fn check_pick(kind: VictimKind, plane: &mut RefPlane, got: Option<u32>) {
    let ppb = plane.ppb;
    let cands: Vec<u32> = plane.candidates.iter().copied().collect();
    let qualifies = |b: &u32| u32::from(plane.blocks[*b as usize].valid) < ppb;
    let Some(b) = got else {
        match kind {
            VictimKind::RandomPlus => assert!(
                !cands.iter().any(qualifies),
                "random+ returned None with a qualifying candidate"
            ),
            _ => assert!(
                cands.is_empty(),
                "{kind} returned None with candidates {cands:?}"
            ),
        }
        return;
    };
    assert!(
        plane.candidates.contains(&b),
        "{kind} picked non-candidate {b}"
    );
    let v = plane.blocks[b as usize].valid;
    let min_valid = cands
        .iter()
        .map(|&c| plane.blocks[c as usize].valid)
        .min()
        .unwrap();
    match kind {
        VictimKind::Greedy => {
            assert_eq!(v, min_valid, "greedy: not the minimum");
            // Ties: the candidate that entered the fewest valid pages last (LIFO).
            let latest = cands
                .iter()
                .copied()
                .filter(|&c| plane.blocks[c as usize].valid == min_valid)
                .max_by_key(|&c| plane.entered[c as usize]);
            assert_eq!(Some(b), latest, "greedy: not the latest of its ties");
        }
        // With D far above the candidate count, missing the minimum has probability < 1e-25.
        VictimKind::Rga(d) if d >= 1000 => assert_eq!(v, min_valid, "rga:{d}: not the minimum"),
        VictimKind::Rga(_) | VictimKind::Random => {}
        VictimKind::RandomPlus => assert!(qualifies(&b), "random+ picked a fully valid block"),
        VictimKind::Fifo => {
            assert_eq!(
                plane.fill_order.pop_front(),
                Some(b),
                "fifo: out of fill order"
            );
        }
        VictimKind::CostBenefit => {
            let best = cands
                .iter()
                .map(|&c| plane.cb_score(c))
                .fold(f64::NEG_INFINITY, f64::max);
            let s = plane.cb_score(b);
            assert!(
                s == best || s >= best * (1.0 - 1e-12),
                "cost-benefit: {s} < max {best}"
            );
        }
        VictimKind::WearAware => {
            let ok = |c: u32| {
                super::wear_aware::within_mean(plane.erase_count[c as usize], &plane.erase_count)
            };
            let pool: Vec<u32> = if cands.iter().any(|&c| ok(c)) {
                cands.iter().copied().filter(|&c| ok(c)).collect()
            } else {
                cands.clone()
            };
            assert!(pool.contains(&b), "wear-aware: picked a worn block {b}");
            let best = pool
                .iter()
                .map(|&c| plane.blocks[c as usize].valid)
                .min()
                .unwrap();
            assert_eq!(
                v, best,
                "wear-aware: not the fewest valid among the eligible"
            );
        }
        VictimKind::Alpha(a) => {
            let cost = |c: u32| {
                super::Alpha::cost(
                    a,
                    plane.blocks[c as usize].valid,
                    plane.erase_count[c as usize],
                )
            };
            let best = cands.iter().map(|&c| cost(c)).fold(f64::INFINITY, f64::min);
            assert_eq!(cost(b), best, "alpha:{a}: not the minimum cost");
            if a == 0.0 {
                let least = cands.iter().map(|&c| plane.erase_count[c as usize]).min();
                assert_eq!(
                    Some(plane.erase_count[b as usize]),
                    least,
                    "alpha:0: not least erased"
                );
            }
        }
        VictimKind::Cat => {
            let best = cands
                .iter()
                .map(|&c| plane.cat_score(c))
                .fold(f64::INFINITY, f64::min);
            let s = plane.cat_score(b);
            assert!(
                s == best || s <= best * (1.0 + 1e-12),
                "cat: {s} > min {best}"
            );
        }
    }
}

/// One of each policy, with several parameter values (shared with `kind.rs`'s tests).
pub(super) fn all_kinds() -> Vec<VictimKind> {
    vec![
        VictimKind::Greedy,
        VictimKind::Rga(1),
        VictimKind::Rga(2),
        VictimKind::Rga(1000),
        VictimKind::Random,
        VictimKind::RandomPlus,
        VictimKind::Fifo,
        VictimKind::CostBenefit,
        VictimKind::Cat,
        VictimKind::WearAware,
        VictimKind::Alpha(0.0),
        VictimKind::Alpha(0.3),
        VictimKind::Alpha(1.0),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn policies_agree_with_reference(
        blocks in 1u32..20,
        ppb in 1u32..10,
        ops in prop::collection::vec(op_strategy(), 0..400),
        seed in any::<u64>(),
    ) {
        for kind in all_kinds() {
            drive(kind, blocks, ppb, &ops, seed);
        }
    }

    #[test]
    fn alpha_one_picks_as_greedy(
        blocks in 1u32..20,
        ppb in 1u32..10,
        ops in prop::collection::vec(op_strategy(), 0..400),
        seed in any::<u64>(),
    ) {
        let greedy = drive(VictimKind::Greedy, blocks, ppb, &ops, seed);
        let alpha = drive(VictimKind::Alpha(1.0), blocks, ppb, &ops, seed);
        prop_assert_eq!(greedy, alpha);
    }

    #[test]
    fn a_rebuilt_index_picks_as_the_original(
        blocks in 1u32..20,
        ppb in 1u32..10,
        ops in prop::collection::vec(op_strategy(), 0..400),
        split in 0usize..400,
        seed in any::<u64>(),
    ) {
        for kind in all_kinds() {
            drive_rebuilt(kind, blocks, ppb, &ops, split, seed);
        }
    }

    #[test]
    fn same_seed_same_picks(
        ops in prop::collection::vec(op_strategy(), 0..300),
        seed in any::<u64>(),
    ) {
        for kind in all_kinds() {
            let a = drive(kind, 12, 6, &ops, seed);
            let b = drive(kind, 12, 6, &ops, seed);
            prop_assert_eq!(a, b);
        }
    }
}

/// A long deterministic sequence with a geometry like a real plane (large buckets).
#[test]
fn long_sequence_realistic_geometry() {
    let mut rng = rng_for(42, 1);
    let ops: Vec<Op> = (0..20_000)
        .map(|_| {
            use rand::Rng;
            match rng.gen_range(0..10) {
                0..=2 => Op::Full {
                    which: rng.gen(),
                    valid: rng.gen(),
                    wear: rng.gen_range(0..3),
                },
                3..=7 => Op::Invalidate { which: rng.gen() },
                8 => Op::Pick,
                _ => Op::Tick(rng.gen_range(1..100)),
            }
        })
        .collect();
    for kind in all_kinds() {
        drive(kind, 64, 256, &ops, 9);
    }
}

#[test]
fn different_seeds_change_random_choices() {
    let ops: Vec<Op> = (0..32)
        .map(|i| Op::Full {
            which: 0,
            valid: i,
            wear: 0,
        })
        .chain((0..32).map(|_| Op::Pick))
        .collect();
    let a = drive(VictimKind::Random, 32, 64, &ops, 1);
    let b = drive(VictimKind::Random, 32, 64, &ops, 2);
    assert_ne!(a, b);
}

/// A plane's blocks from their valid counts, erase counts and clocks, for [`TestPlane::view`].
fn plane(valid: &[u16], erase: &[u32], lm: &[u64], now: u64, ppb: u32) -> TestPlane {
    TestPlane {
        blocks: valid
            .iter()
            .zip(lm)
            .map(|(&valid, &last_modified)| BlockInfo {
                last_modified,
                valid,
                state: BlockState::Full,
            })
            .collect(),
        erase: erase.to_vec(),
        now,
        ppb,
    }
}

struct TestPlane {
    blocks: Vec<BlockInfo>,
    erase: Vec<u32>,
    now: u64,
    ppb: u32,
}

impl TestPlane {
    fn view(&self) -> PlaneView<'_> {
        PlaneView {
            blocks: &self.blocks,
            erase_count: &self.erase,
            now: self.now,
            pages_per_block: self.ppb,
        }
    }
}

#[test]
fn greedy_ties_are_lifo() {
    let valid = [3u16, 3, 3, 1];
    let (erase, lm) = ([0u32; 4], [0u64; 4]);
    let blocks = plane(&valid, &erase, &lm, 0, 4);
    let v = blocks.view();
    let mut g = VictimKind::Greedy.build(4, 4);
    let mut rng = rng_for(0, 0);
    for b in 0..3 {
        g.on_full(b, &v);
    }
    assert_eq!(g.pick(&v, &mut rng), Some(2));
    assert_eq!(g.pick(&v, &mut rng), Some(1));
    g.on_full(3, &v);
    assert_eq!(g.pick(&v, &mut rng), Some(3));
    assert_eq!(g.pick(&v, &mut rng), Some(0));
    assert_eq!(g.pick(&v, &mut rng), None);
}

#[test]
fn greedy_follows_invalidations() {
    let mut valid = [4u16, 4, 4];
    let (erase, lm) = ([0u32; 3], [0u64; 3]);
    let mut g = VictimKind::Greedy.build(3, 4);
    let mut rng = rng_for(0, 0);
    for b in 0..3 {
        g.on_full(b, &plane(&valid, &erase, &lm, 0, 4).view());
    }
    for _ in 0..3 {
        valid[1] -= 1;
        g.on_invalidate(1, valid[1] + 1, &plane(&valid, &erase, &lm, 0, 4).view());
    }
    valid[2] -= 1;
    g.on_invalidate(2, valid[2] + 1, &plane(&valid, &erase, &lm, 0, 4).view());
    let blocks = plane(&valid, &erase, &lm, 0, 4);
    let v = blocks.view();
    assert_eq!(g.pick(&v, &mut rng), Some(1));
    assert_eq!(g.pick(&v, &mut rng), Some(2));
    assert_eq!(g.pick(&v, &mut rng), Some(0));
}

#[test]
fn random_plus_waits_for_an_invalid_page() {
    let mut valid = [4u16, 4];
    let (erase, lm) = ([0u32; 2], [0u64; 2]);
    let mut p = VictimKind::RandomPlus.build(2, 4);
    let mut rng = rng_for(3, 3);
    p.on_full(0, &plane(&valid, &erase, &lm, 0, 4).view());
    p.on_full(1, &plane(&valid, &erase, &lm, 0, 4).view());
    assert_eq!(
        p.pick(&plane(&valid, &erase, &lm, 0, 4).view(), &mut rng),
        None
    );
    assert_eq!(p.len(), 2);
    valid[1] = 3;
    p.on_invalidate(1, 4, &plane(&valid, &erase, &lm, 0, 4).view());
    assert_eq!(
        p.pick(&plane(&valid, &erase, &lm, 0, 4).view(), &mut rng),
        Some(1)
    );
    assert_eq!(
        p.pick(&plane(&valid, &erase, &lm, 0, 4).view(), &mut rng),
        None
    );
    assert_eq!(p.len(), 1);
}

#[test]
fn cost_benefit_prefers_old_cold_blocks() {
    // Block 0: u = 1/2, age 10 -> 5. Block 1: u = 3/4, age 100 -> 16.7. Block 2: u = 1/4, age 1 -> 1.5.
    let valid = [2u16, 3, 1];
    let erase = [0u32; 3];
    let lm = [90u64, 0, 99];
    let blocks = plane(&valid, &erase, &lm, 100, 4);
    let v = blocks.view();
    let mut p = VictimKind::CostBenefit.build(3, 4);
    let mut rng = rng_for(0, 0);
    for b in 0..3 {
        p.on_full(b, &v);
    }
    assert_eq!(p.pick(&v, &mut rng), Some(1));
    assert_eq!(p.pick(&v, &mut rng), Some(0));
    assert_eq!(p.pick(&v, &mut rng), Some(2));
    let s = super::cost_benefit::cost_benefit_score(3, 4, 100);
    assert!((s - 100.0 / 6.0).abs() < 1e-12);
}

#[test]
fn cat_weighs_wear_and_age() {
    // Scores u/(1-u)*(ec+1)/(age+1): b0 = 1*1/10 = 0.1; b1 = 1*5/10 = 0.5; b2 = 3*1/100 = 0.03;
    // b3 fully valid = inf.
    let valid = [2u16, 2, 3, 4];
    let erase = [0u32, 4, 0, 0];
    let lm = [91u64, 91, 1, 0];
    let blocks = plane(&valid, &erase, &lm, 100, 4);
    let v = blocks.view();
    let mut p = VictimKind::Cat.build(4, 4);
    let mut rng = rng_for(0, 0);
    for b in [3, 0, 1, 2] {
        p.on_full(b, &v);
    }
    assert_eq!(p.pick(&v, &mut rng), Some(2));
    assert_eq!(p.pick(&v, &mut rng), Some(0));
    assert_eq!(p.pick(&v, &mut rng), Some(1));
    assert_eq!(p.pick(&v, &mut rng), Some(3));
    assert_eq!(p.pick(&v, &mut rng), None);
    assert!((super::cat::cat_score(3, 4, 0, 99) - 0.03).abs() < 1e-15);
}

#[test]
fn rga_with_more_choices_picks_emptier_blocks() {
    // 64 candidates with valid counts 0..64; mean valid of the victim falls as D grows.
    let valid: Vec<u16> = (0..64).collect();
    let (erase, lm) = (vec![0u32; 64], vec![0u64; 64]);
    let blocks = plane(&valid, &erase, &lm, 0, 64);
    let v = blocks.view();
    let mean_first_pick = |d: u32| {
        let mut rng = rng_for(11, u64::from(d));
        let mut sum = 0u64;
        for _ in 0..2000 {
            let mut p = VictimKind::Rga(d).build(64, 64);
            for b in 0..64 {
                p.on_full(b, &v);
            }
            sum += u64::from(p.pick(&v, &mut rng).unwrap());
        }
        sum as f64 / 2000.0
    };
    let (m1, m2, m8) = (mean_first_pick(1), mean_first_pick(2), mean_first_pick(8));
    // Expected minimum of D uniform draws from 0..64: ~31.5, ~21, ~6.6.
    assert!((m1 - 31.5).abs() < 2.0, "{m1}");
    assert!((m2 - 21.0).abs() < 2.0, "{m2}");
    assert!(m8 < 9.0, "{m8}");
}

#[test]
fn wear_aware_skips_worn_blocks_and_falls_back() {
    let valid = [1u16, 3, 2];
    let wear = [9u32, 0, 0];
    let last = [0u64; 3];
    let blocks = plane(&valid, &wear, &last, 0, 4);
    let v = blocks.view();
    let mut p = VictimKind::WearAware.build(3, 4);
    for b in 0..3 {
        p.on_full(b, &v);
    }
    let mut rng = rng_for(1, 1);
    // Block 0 has the fewest valid pages but is worn far above the mean (3): skipped.
    assert_eq!(p.pick(&v, &mut rng), Some(2));
    assert_eq!(p.pick(&v, &mut rng), Some(1));
    // Only the worn block is left: greedy fallback.
    assert_eq!(p.pick(&v, &mut rng), Some(0));
    assert_eq!(p.pick(&v, &mut rng), None);
}

#[test]
fn alpha_one_is_greedy_on_a_long_sequence() {
    let mut rng = rng_for(7, 3);
    let ops: Vec<Op> = (0..20_000)
        .map(|_| {
            use rand::Rng;
            match rng.gen_range(0..10) {
                0..=2 => Op::Full {
                    which: rng.gen(),
                    valid: rng.gen(),
                    wear: rng.gen_range(0..3),
                },
                3..=7 => Op::Invalidate { which: rng.gen() },
                _ => Op::Pick,
            }
        })
        .collect();
    let greedy = drive(VictimKind::Greedy, 64, 256, &ops, 1);
    assert!(greedy.iter().filter(|p| p.is_some()).count() > 1000);
    assert_eq!(drive(VictimKind::Alpha(1.0), 64, 256, &ops, 1), greedy);
}

#[test]
fn alpha_weighs_wear_against_valid_pages() {
    // Block 0: 2 valid, 10 erases; block 1: 6 valid, 0 erases.
    let valid = [2u16, 6];
    let erases = [10u32, 0];
    let lm = [0u64; 2];
    let choose = |a: f64| {
        let mut p = VictimKind::Alpha(a).build(2, 8);
        let blocks = plane(&valid, &erases, &lm, 0, 8);
        let v = blocks.view();
        p.on_full(0, &v);
        p.on_full(1, &v);
        p.pick(&v, &mut rng_for(1, 1))
    };
    // 2a + 10(1-a) vs 6a: block 0 wins only when a > 10/14.
    assert_eq!(choose(1.0), Some(0));
    assert_eq!(choose(0.8), Some(0));
    assert_eq!(choose(0.7), Some(1));
    assert_eq!(choose(0.0), Some(1));
}
