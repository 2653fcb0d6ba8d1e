//! The FTL and the shared GC mechanism against a naive reference model.
//!
//! Random operation sequences — host writes, whole instant collections, and GC jobs advanced one
//! operation at a time with host writes landing in between (so writes hit pages of victims being
//! collected), planned jobs (parallel migration waves, IPPBE's several victims per erase, the
//! copyback parity restriction) among them — run on a small drive under every victim policy and every free-pool order; under the
//! erase-ordered pools valid pages of open jobs are also moved to the hot and cold streams. A shadow of every physical page's
//! content (which logical page, which version) is updated from what the FTL reports (the page a host
//! write programmed, the source and destination of every move). After every step: every logical page
//! ever written is mapped to a page holding its latest version, nothing else is mapped, and the
//! FTL's own invariants hold (`Ftl::check`: mapping both ways, valid counts, block states, pools).

use proptest::prelude::*;
use ssdgc_core::flash::Geometry;
use ssdgc_core::ftl::{Ftl, FtlError, Stream};
use ssdgc_core::gc::migration::{InPlane, Parity};
use ssdgc_core::gc::{self, GcJob, GcOp};
use ssdgc_core::rng::rng_for;
use ssdgc_core::ConfigBuilder;

const VICTIMS: &[&str] = &[
    "greedy",
    "rga:2",
    "random",
    "random+",
    "fifo",
    "cost-benefit",
    "cat",
    "wear-aware",
];

/// Free-pool orders, each with the `ftl.hot_to` it runs with and whether hot/cold moves are made.
const POOLS: &[(&str, &str, bool)] = &[
    ("fifo", "young", false),
    ("youngest", "young", true),
    ("oldest", "old", true),
];

/// One FTL set-up: victim policy, pool order, hot-data end, hot/cold moves on or off.
#[derive(Clone, Copy, Debug)]
struct Setup {
    victim: &'static str,
    pool: &'static str,
    hot_to: &'static str,
    hot_cold: bool,
}

/// Every victim policy under every pool order.
fn setups() -> impl Iterator<Item = Setup> {
    VICTIMS.iter().flat_map(|&victim| {
        POOLS.iter().map(move |&(pool, hot_to, hot_cold)| Setup {
            victim,
            pool,
            hot_to,
            hot_cold,
        })
    })
}

#[derive(Clone, Debug)]
enum Step {
    /// Host write of a logical page (index reduced modulo the logical space).
    Write(u32),
    /// Collect a plane at once, if it has a candidate.
    Collect(u32),
    /// Start a GC job in a plane (kept open across steps), or advance the open one by one operation.
    Advance(u32),
    /// Start a parallel job over both planes (kept open like `Advance`), through the DRAM buffer
    /// when the flag is set.
    Parallel(u32, bool),
    /// Commit buffered pages.
    Flush,
    /// Move one valid page of the open job's victim out of order, as merging a read does (the page
    /// at or after the offset given, modulo the block).
    MovePage(u32),
    /// Move one valid page of the open job's victim (as `MovePage` picks it) to the hot (`true`) or
    /// cold stream, as a hot/cold classification would; only in set-ups with hot/cold moves.
    MoveHotCold(u32, bool),
    /// Start a planned job in a plane (kept open like `Advance`): workers, victims per erase
    /// (IPPBE), parity restriction (0 none, 1 paper, 2 in-order; the last two without hot/cold).
    Planned(u32, u8, u8, u8),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        8 => any::<u32>().prop_map(Step::Write),
        1 => any::<u32>().prop_map(Step::Collect),
        3 => any::<u32>().prop_map(Step::Advance),
        1 => (any::<u32>(), any::<bool>()).prop_map(|(p, c)| Step::Parallel(p, c)),
        1 => Just(Step::Flush),
        2 => any::<u32>().prop_map(Step::MovePage),
        2 => (any::<u32>(), any::<bool>()).prop_map(|(x, h)| Step::MoveHotCold(x, h)),
        2 => (any::<u32>(), 1..=4u8, 1..=3u8, 0..3u8).prop_map(|(p, w, k, q)| Step::Planned(p, w, k, q)),
    ]
}

struct Model {
    /// Latest version written per logical page (0 = never written).
    latest: Vec<u64>,
    /// Content per physical page: (lpn, version).
    shadow: Vec<Option<(u32, u64)>>,
    /// Content of pages held in the DRAM buffer, by logical page.
    buffer: std::collections::BTreeMap<u32, (u32, u64)>,
    version: u64,
}

fn small_drive(setup: Setup) -> (Ftl, Geometry) {
    let mut b = ConfigBuilder::preset("default").unwrap();
    for s in [
        "geometry.channels=1",
        "geometry.chips_per_channel=1",
        "geometry.dies_per_chip=1",
        "geometry.planes_per_die=2",
        "geometry.blocks_per_plane=32",
        "geometry.pages_per_block=8",
        "geometry.overprovision=0.3",
        "gc.threshold=0.1",
    ] {
        b.set(s).unwrap();
    }
    b.set(&format!("gc.victim=\"{}\"", setup.victim)).unwrap();
    b.set(&format!("ftl.pool={}", setup.pool)).unwrap();
    b.set(&format!("ftl.hot_to={}", setup.hot_to)).unwrap();
    if setup.hot_cold {
        // Two more write points per plane.
        b.set("geometry.overprovision=0.4").unwrap();
    }
    let cfg = b.build().unwrap();
    let geo = Geometry::new(&cfg);
    (Ftl::new(&cfg, &geo).unwrap(), geo)
}

fn apply_move(model: &mut Model, ftl: &Ftl, op: GcOp) {
    let mut copy = |src: u32, dst: u32| {
        let content = model.shadow[src as usize];
        assert!(content.is_some(), "GC moved an empty page {src}");
        model.shadow[dst as usize] = content;
    };
    match op {
        GcOp::Move { src, dst } => copy(src, dst),
        GcOp::MultiMove { n, src, dst, .. } => {
            for i in 0..n as usize {
                if src[i] != ssdgc_core::units::NO_PAGE {
                    copy(src[i], dst[i]);
                }
            }
        }
        GcOp::BufferRead { src } => {
            let content = model.shadow[src as usize].expect("buffered an empty page");
            model.buffer.insert(content.0, content);
        }
        GcOp::Commit { n, dst } => {
            for &d in &dst[..n as usize] {
                let lpn = ftl.reverse(d).expect("a committed page is mapped");
                let content = model
                    .buffer
                    .remove(&lpn)
                    .expect("committed a page never buffered");
                model.shadow[d as usize] = Some(content);
            }
        }
        GcOp::Wave { n, src, dst } => {
            for i in 0..n as usize {
                copy(src[i], dst[i]);
            }
        }
        GcOp::Erase { .. } | GcOp::MultiErase { .. } | GcOp::EraseBlocks { .. } => {}
    }
}

fn verify(ftl: &Ftl, model: &Model, geo: &Geometry) -> Result<(), TestCaseError> {
    if let Err(e) = ftl.check() {
        return Err(TestCaseError::fail(e));
    }
    let mut mapped = 0u64;
    for lpn in 0..geo.logical_pages {
        let v = model.latest[lpn as usize];
        match (v, ftl.lookup(lpn)) {
            (0, None) => {}
            (0, Some(p)) => prop_assert!(false, "lpn {lpn} never written but mapped to {p}"),
            (_, None) if ftl.is_buffered(lpn) => {
                mapped += 1;
                prop_assert_eq!(
                    model.buffer.get(&lpn).copied(),
                    Some((lpn, v)),
                    "lpn {} is buffered with stale or foreign data",
                    lpn
                );
            }
            (_, None) => prop_assert!(false, "lpn {lpn} (version {v}) was lost"),
            (_, Some(p)) => {
                mapped += 1;
                prop_assert_eq!(
                    model.shadow[p as usize],
                    Some((lpn, v)),
                    "lpn {} maps to page {} holding stale or foreign data",
                    lpn,
                    p
                );
            }
        }
    }
    prop_assert_eq!(mapped, ftl.mapped_pages());
    Ok(())
}

fn run_sequence(setup: Setup, steps: &[Step], seed: u64) -> Result<(), TestCaseError> {
    let victim = setup.victim;
    let (mut ftl, geo) = small_drive(setup);
    let mut rng = rng_for(seed, 0);
    let mut model = Model {
        latest: vec![0; geo.logical_pages as usize],
        shadow: vec![None; geo.physical_pages as usize],
        buffer: Default::default(),
        version: 0,
    };
    let mut open: Option<GcJob> = None;
    for s in steps {
        match *s {
            Step::Write(x) => {
                let lpn = x % geo.logical_pages;
                let plane = ftl.plane_of(lpn);
                // The scheduler's rule: collect before a write when the plane is short of blocks
                // (finishing the open job first if it is in that plane).
                if ftl.needs_gc(plane) {
                    if let Some(mut job) = open.take() {
                        while let Some(op) = gc::dispatch_next(&mut ftl, &mut job).unwrap() {
                            apply_move(&mut model, &ftl, op);
                            gc::complete(&mut ftl, op);
                        }
                    }
                    for _ in 0..geo.blocks_per_plane {
                        if !ftl.needs_gc(plane) {
                            break;
                        }
                        let Some(mut job) = gc::start_job(&mut ftl, plane, &mut rng, 0) else {
                            break;
                        };
                        while let Some(op) = gc::dispatch_next(&mut ftl, &mut job).unwrap() {
                            apply_move(&mut model, &ftl, op);
                            gc::complete(&mut ftl, op);
                        }
                    }
                }
                match ftl.host_write(lpn) {
                    Ok(ppn) => {
                        model.buffer.remove(&lpn);
                        model.version += 1;
                        model.latest[lpn as usize] = model.version;
                        model.shadow[ppn as usize] = Some((lpn, model.version));
                    }
                    Err(FtlError::OutOfBlocks { .. }) => {
                        // Allowed only when no GC could have freed space: every candidate fully valid.
                        prop_assert!(
                            ftl.candidates(plane) == 0 || victim == "random+",
                            "{victim}: out of blocks with {} candidates",
                            ftl.candidates(plane)
                        );
                        return Ok(());
                    }
                }
            }
            Step::Collect(x) => {
                if open.is_none() {
                    let plane = x % geo.planes;
                    if let Some(mut job) = gc::start_job(&mut ftl, plane, &mut rng, 0) {
                        while let Some(op) = gc::dispatch_next(&mut ftl, &mut job).unwrap() {
                            apply_move(&mut model, &ftl, op);
                            gc::complete(&mut ftl, op);
                        }
                    }
                }
            }
            Step::Planned(x, workers, erase_blocks, q) => {
                if open.is_none() {
                    let plane = x % geo.planes;
                    let parity = match q {
                        _ if setup.hot_cold => Parity::None,
                        1 => Parity::Paper,
                        2 => Parity::InOrder,
                        _ => Parity::None,
                    };
                    let how = InPlane {
                        workers,
                        erase_blocks,
                        parity,
                    };
                    if ftl.free_blocks(plane) >= 1 {
                        open = gc::start_planned_job(&mut ftl, plane, &mut rng, 0, how);
                    }
                }
            }
            Step::Parallel(x, cache) => {
                if open.is_none() {
                    let first = x % geo.planes;
                    let planes = [first, 1 - first];
                    open = gc::start_parallel_job(&mut ftl, &planes, &mut rng, 0, cache);
                }
            }
            Step::Flush => {
                if let Some(op) = gc::commit_buffered(&mut ftl, &[0, 1]).unwrap() {
                    apply_move(&mut model, &ftl, op);
                }
            }
            Step::MovePage(x) => {
                if let Some(job) = open.as_mut() {
                    let from = x % geo.pages_per_block;
                    if let Some((page, _)) = ftl.next_valid_in_block(job.plane, job.block, from) {
                        let src = geo.ppn(job.plane, job.block, page);
                        if let Some(op) = gc::dispatch_page(&mut ftl, job, src).unwrap() {
                            prop_assert!(!job.is_parallel());
                            apply_move(&mut model, &ftl, op);
                        }
                    }
                }
            }
            Step::MoveHotCold(x, hot) => {
                // Only where the hot and cold write points may each open a block.
                let job = open.as_ref().filter(|j| {
                    setup.hot_cold && !j.is_parallel() && ftl.free_blocks(j.plane) >= 3
                });
                if let Some(job) = job {
                    let from = x % geo.pages_per_block;
                    if let Some((page, lpn)) = ftl.next_valid_in_block(job.plane, job.block, from) {
                        let src = geo.ppn(job.plane, job.block, page);
                        let stream = if hot { Stream::Hot } else { Stream::Cold };
                        let dst = ftl
                            .relocate_to(src, lpn, stream)
                            .map_err(|e| TestCaseError::fail(e.to_string()))?;
                        apply_move(&mut model, &ftl, GcOp::Move { src, dst });
                    }
                }
            }
            Step::Advance(x) => match open.as_mut() {
                None => {
                    let plane = x % geo.planes;
                    // Only start a job where the GC write point can take a victim's pages.
                    if ftl.free_blocks(plane) >= 1 {
                        open = gc::start_job(&mut ftl, plane, &mut rng, 0);
                    }
                }
                Some(job) => match gc::dispatch_next(&mut ftl, job) {
                    Ok(Some(op)) => {
                        apply_move(&mut model, &ftl, op);
                        gc::complete(&mut ftl, op);
                    }
                    Ok(None) => open = None,
                    Err(e) => return Err(TestCaseError::fail(e.to_string())),
                },
            },
        }
        verify(&ftl, &model, &geo)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn no_page_lost_or_duplicated_under_every_victim_policy(
        steps in proptest::collection::vec(step(), 1..600),
        seed in any::<u64>(),
    ) {
        for setup in setups() {
            run_sequence(setup, &steps, seed)?;
        }
    }
}

#[test]
fn long_random_sequences_hold_under_every_policy() {
    use rand::{Rng, SeedableRng};
    for (i, setup) in setups().enumerate() {
        let mut r = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(i as u64);
        let steps: Vec<Step> = (0..20_000)
            .map(|_| match r.gen_range(0..14) {
                0 => Step::Collect(r.gen()),
                1..=2 => Step::Advance(r.gen()),
                3 => Step::Planned(
                    r.gen(),
                    r.gen_range(1..=4),
                    r.gen_range(1..=3),
                    r.gen_range(0..3),
                ),
                12 => Step::MovePage(r.gen()),
                13 => Step::MoveHotCold(r.gen(), r.gen()),
                _ => Step::Write(r.gen()),
            })
            .collect();
        run_sequence(setup, &steps, i as u64).unwrap_or_else(|e| panic!("{setup:?}: {e}"));
    }
}
