//! The log-block FTLs (L-FTL, H-FTL) and the shared GC mechanism against a naive reference model,
//! as `reference_model.rs` does for the page-mapped FTL.
//!
//! Random operation sequences — host writes (collecting first while the plane needs GC, as the
//! on-demand trigger does, or written through as a preemptible trigger may let them), sequential
//! rewrites of whole logical blocks (switch and partial merges), whole instant merges, and merges
//! advanced one operation at a time with host writes landing in between (so writes supersede pages
//! a merge has still to copy) — run on a small drive under every mapping and group shape, every
//! merge victim policy, every free-pool order, with and without a cap on update blocks. A shadow of
//! every physical page's content (which logical page, which version) is updated from what the FTL
//! reports (the page a host write programmed, the source and destination of every copy). After
//! every step: every logical page ever written is mapped to a page holding its latest version,
//! nothing else is mapped, and the FTL's own invariants hold (`Ftl::check`: mapping both ways, data
//! blocks at their offsets, roles and states, groups, pools).

use proptest::prelude::*;
use ssdgc_core::flash::Geometry;
use ssdgc_core::ftl::{Ftl, FtlError, MergeKind};
use ssdgc_core::gc::{self, GcJob, GcOp};
use ssdgc_core::rng::rng_for;
use ssdgc_core::ConfigBuilder;

/// One FTL set-up.
#[derive(Clone, Copy, Debug)]
struct Setup {
    /// `lftl`, or `hftl` with its group shape.
    mapping: &'static str,
    shape: (u32, u32),
    victim: &'static str,
    pool: &'static str,
    log_blocks: u32,
}

fn setups() -> impl Iterator<Item = Setup> {
    let mappings = [
        ("lftl", (2, 8)),
        ("hftl", (2, 8)),
        ("hftl", (2, 2)),
        ("hftl", (3, 1)),
    ];
    mappings.into_iter().flat_map(|(mapping, shape)| {
        ["greedy", "fifo", "random"]
            .into_iter()
            .flat_map(move |victim| {
                ["fifo", "youngest", "oldest"]
                    .into_iter()
                    .zip([0, 3, 0])
                    .map(move |(pool, log_blocks)| Setup {
                        mapping,
                        shape,
                        victim,
                        pool,
                        log_blocks,
                    })
            })
    })
}

#[derive(Clone, Debug)]
enum Step {
    /// Host write of a logical page (index reduced modulo the logical space), collecting first
    /// while its plane needs GC.
    Write(u32),
    /// Host write with no collection first (while the plane keeps its reserve of free blocks).
    WriteThrough(u32),
    /// Rewrite the logical block of a logical page from its first page to its last, in order.
    Sequential(u32),
    /// Merge in a plane at once, if it has a group to merge.
    Collect(u32),
    /// Start a merge in a plane (kept open across steps), or advance the open one by one operation.
    Advance(u32),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        8 => any::<u32>().prop_map(Step::Write),
        2 => any::<u32>().prop_map(Step::WriteThrough),
        1 => any::<u32>().prop_map(Step::Sequential),
        1 => any::<u32>().prop_map(Step::Collect),
        3 => any::<u32>().prop_map(Step::Advance),
    ]
}

struct Model {
    /// Latest version written per logical page (0 = never written).
    latest: Vec<u64>,
    /// Content per physical page: (lpn, version).
    shadow: Vec<Option<(u32, u64)>>,
    version: u64,
}

fn small_drive(s: Setup) -> (Ftl, Geometry) {
    let mut b = ConfigBuilder::preset("default").unwrap();
    for set in [
        "geometry.channels=1",
        "geometry.chips_per_channel=1",
        "geometry.dies_per_chip=1",
        "geometry.planes_per_die=2",
        "geometry.blocks_per_plane=32",
        "geometry.pages_per_block=8",
        "geometry.overprovision=0.3",
        "gc.threshold=0.1",
    ] {
        b.set(set).unwrap();
    }
    b.set(&format!("ftl.mapping={}", s.mapping)).unwrap();
    if s.mapping == "hftl" {
        b.set(&format!("ftl.group_data_blocks={}", s.shape.0))
            .unwrap();
        b.set(&format!("ftl.group_update_blocks={}", s.shape.1))
            .unwrap();
    }
    b.set(&format!("ftl.log_blocks={}", s.log_blocks)).unwrap();
    b.set(&format!("gc.victim=\"{}\"", s.victim)).unwrap();
    b.set(&format!("ftl.pool={}", s.pool)).unwrap();
    let cfg = b.build().unwrap();
    let geo = Geometry::new(&cfg);
    (Ftl::new(&cfg, &geo).unwrap(), geo)
}

fn apply(model: &mut Model, op: GcOp) -> Result<(), TestCaseError> {
    match op {
        GcOp::Move { src, dst } => {
            let content = model.shadow[src as usize];
            prop_assert!(content.is_some(), "a merge copied an empty page {}", src);
            prop_assert!(
                model.shadow[dst as usize].is_none(),
                "a merge programmed page {} twice",
                dst
            );
            model.shadow[dst as usize] = content;
        }
        GcOp::Erase { plane: _, block: _ } => {}
        other => prop_assert!(false, "a merge issued {other:?}"),
    }
    Ok(())
}

/// Forgets the content of the pages of an erased block.
fn erased(model: &mut Model, geo: &Geometry, op: GcOp) {
    if let GcOp::Erase { plane, block } = op {
        for p in 0..geo.pages_per_block {
            model.shadow[geo.ppn(plane, block, p) as usize] = None;
        }
    }
}

fn run_job(
    ftl: &mut Ftl,
    model: &mut Model,
    geo: &Geometry,
    job: &mut GcJob,
) -> Result<(), TestCaseError> {
    while let Some(op) =
        gc::dispatch_next(ftl, job).map_err(|e| TestCaseError::fail(e.to_string()))?
    {
        apply(model, op)?;
        gc::complete(ftl, op);
        erased(model, geo, op);
    }
    Ok(())
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

/// Runs `steps`; returns the merges per kind.
fn run_sequence(setup: Setup, steps: &[Step], seed: u64) -> Result<[u64; 3], TestCaseError> {
    let (mut ftl, geo) = small_drive(setup);
    let mut rng = rng_for(seed, 0);
    let mut model = Model {
        latest: vec![0; geo.logical_pages as usize],
        shadow: vec![None; geo.physical_pages as usize],
        version: 0,
    };
    let mut open: Option<GcJob> = None;
    let logical = geo.logical_pages;
    for s in steps {
        let writes: Vec<(u32, bool)> = match *s {
            Step::Write(x) => vec![(x % logical, true)],
            Step::WriteThrough(x) => vec![(x % logical, false)],
            Step::Sequential(x) => {
                // The pages of x's logical block in its plane: plane-local index i·planes + r.
                let lpn = x % logical;
                let (planes, ppb) = (geo.planes, geo.pages_per_block);
                let first = (lpn / planes) / ppb * ppb;
                (first..first + ppb)
                    .map(|i| i * planes + lpn % planes)
                    .filter(|&l| l < logical)
                    .map(|l| (l, true))
                    .collect()
            }
            _ => Vec::new(),
        };
        for (lpn, collect) in writes {
            let plane = ftl.plane_of(lpn);
            if collect && ftl.needs_gc(plane) {
                // The on-demand trigger's rule: collect before the write while the plane needs GC
                // (finishing the open merge first).
                if let Some(mut job) = open.take() {
                    run_job(&mut ftl, &mut model, &geo, &mut job)?;
                }
                for _ in 0..geo.blocks_per_plane {
                    if !ftl.needs_gc(plane) {
                        break;
                    }
                    let Some(mut job) = gc::start_job(&mut ftl, plane, &mut rng, 0) else {
                        break;
                    };
                    run_job(&mut ftl, &mut model, &geo, &mut job)?;
                }
            }
            if !collect && ftl.free_blocks(plane) < ftl.reserve_blocks() {
                continue;
            }
            match ftl.host_write(lpn) {
                Ok(ppn) => {
                    model.version += 1;
                    model.latest[lpn as usize] = model.version;
                    prop_assert!(
                        model.shadow[ppn as usize].is_none(),
                        "page {} programmed twice",
                        ppn
                    );
                    model.shadow[ppn as usize] = Some((lpn, model.version));
                }
                Err(FtlError::OutOfBlocks { .. }) => {
                    // Only when the plane could not merge (its groups all merging, or none).
                    prop_assert!(
                        ftl.candidates(plane) == 0 || open.is_some(),
                        "out of blocks with {} candidates",
                        ftl.candidates(plane)
                    );
                    return Ok(ftl.counters.merges.map(|m| m.count));
                }
            }
        }
        match *s {
            Step::Collect(x) if open.is_none() => {
                if let Some(mut job) = gc::start_job(&mut ftl, x % geo.planes, &mut rng, 0) {
                    prop_assert!(
                        job.merge_kind().is_some(),
                        "a log-block FTL's job is a merge"
                    );
                    run_job(&mut ftl, &mut model, &geo, &mut job)?;
                }
            }
            Step::Advance(x) => match open.as_mut() {
                None => open = gc::start_job(&mut ftl, x % geo.planes, &mut rng, 0),
                Some(job) => match gc::dispatch_next(&mut ftl, job) {
                    Ok(Some(op)) => {
                        apply(&mut model, op)?;
                        gc::complete(&mut ftl, op);
                        erased(&mut model, &geo, op);
                    }
                    Ok(None) => open = None,
                    Err(e) => return Err(TestCaseError::fail(e.to_string())),
                },
            },
            _ => {}
        }
        verify(&ftl, &model, &geo)?;
    }
    let c = ftl.counters;
    let merges = c.merges.map(|m| m.count);
    // The merge counters add up to the mechanism's.
    prop_assert_eq!(merges.iter().sum::<u64>(), c.victims);
    prop_assert_eq!(
        c.merges.iter().map(|m| m.pages_copied).sum::<u64>(),
        c.gc_pages_moved
    );
    // Every erase is completed as soon as it is dispatched here.
    prop_assert_eq!(
        c.merges.iter().map(|m| m.blocks_erased).sum::<u64>(),
        c.blocks_erased
    );
    Ok(merges)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn no_page_lost_or_duplicated_under_every_log_block_setup(
        steps in proptest::collection::vec(step(), 1..500),
        seed in any::<u64>(),
    ) {
        for setup in setups() {
            run_sequence(setup, &steps, seed)?;
        }
    }
}

#[test]
fn long_random_sequences_hold_and_merge_every_way() {
    use rand::{Rng, SeedableRng};
    for (i, setup) in setups().enumerate() {
        let mut r = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(i as u64);
        let steps: Vec<Step> = (0..6_000)
            .map(|_| match r.gen_range(0..16) {
                0 => Step::Collect(r.gen()),
                1..=3 => Step::Advance(r.gen()),
                4 | 5 => Step::Sequential(r.gen()),
                6 => Step::WriteThrough(r.gen()),
                _ => Step::Write(r.gen()),
            })
            .collect();
        let merges =
            run_sequence(setup, &steps, i as u64).unwrap_or_else(|e| panic!("{setup:?}: {e}"));
        for kind in MergeKind::ALL {
            assert!(
                merges[kind as usize] > 0,
                "{setup:?}: no {} merge in {merges:?}",
                kind.name()
            );
        }
    }
}
