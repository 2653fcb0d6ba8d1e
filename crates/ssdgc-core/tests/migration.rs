//! Parallel page migration, IPPBE and the copyback parity restriction (parallel-page-migration
//! paper, §IV; IPPBE, its ref. [15]) through the real FTL, the shared GC mechanism and the resource
//! model: the job-time formula, the paper's Fig. 4a pairing as the mechanism moves it, two victims
//! erased for one erase latency, and whole runs with invariant checking.

use ssdgc_core::flash::{GcScope, Geometry, RegisterSharing, ResourceParams, Resources, Timing};
use ssdgc_core::ftl::Ftl;
use ssdgc_core::gc::migration::{InPlane, Parity};
use ssdgc_core::gc::{self, GcJob, GcOp};
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::rng::rng_for;
use ssdgc_core::units::SimTime;
use ssdgc_core::{ConfigBuilder, Report, RunOptions, Simulator};
use ssdgc_workload::{IoRecord, Op};

const PPB: u32 = 16;

/// One plane of 32 blocks of 16 pages (every logical page lives on it), with a command time so
/// that the command sharing shows.
fn one_plane() -> (Ftl, Geometry, Timing) {
    let mut b = ConfigBuilder::preset("default").unwrap();
    for s in [
        "geometry.channels=1",
        "geometry.chips_per_channel=1",
        "geometry.dies_per_chip=1",
        "geometry.planes_per_die=1",
        "geometry.blocks_per_plane=32",
        "geometry.pages_per_block=16",
        "geometry.overprovision=0.5",
        "geometry.registers_per_plane=8",
        "gc.threshold=0.1",
        "timing.command=1us",
        "timing.read=25us",
        "timing.program=200us",
        "timing.erase=1500us",
    ] {
        b.set(s).unwrap();
    }
    let cfg = b.build().unwrap();
    let geo = Geometry::new(&cfg);
    (
        Ftl::new(&cfg, &geo).unwrap(),
        geo.clone(),
        Timing::new(&cfg),
    )
}

/// Fills blocks 0, 1, … of a fresh plane with logical pages `16·b..16·b + 16` and then leaves valid
/// only the page offsets `keep[b]` of block `b`, by overwriting the others (into later blocks).
fn victims(ftl: &mut Ftl, keep: &[&[u32]]) {
    for b in 0..keep.len() as u32 {
        for i in 0..PPB {
            ftl.host_write(b * PPB + i).unwrap();
        }
    }
    for (b, k) in keep.iter().enumerate() {
        for i in 0..PPB {
            if !k.contains(&i) {
                ftl.host_write(b as u32 * PPB + i).unwrap();
            }
        }
    }
}

/// Runs `job` to its end as a job held to its erase would: every operation reserved on die 0 right
/// after the previous one. Returns the operations and the job's duration.
fn run_held(
    ftl: &mut Ftl,
    job: &mut GcJob,
    res: &mut Resources,
    t: &Timing,
) -> (Vec<GcOp>, SimTime) {
    let mut ops = Vec::new();
    let mut now = 0;
    while let Some(op) = gc::dispatch_next(ftl, job).unwrap() {
        now = res.reserve(0, now, &op.flash_op(t, true, 1)).end;
        gc::complete(ftl, op);
        ops.push(op);
    }
    (ops, now)
}

fn resources(geo: &Geometry, t: &Timing, sharing: RegisterSharing) -> Resources {
    Resources::new(geo, t.transfer).with_params(ResourceParams {
        registers_per_plane: 8,
        sharing,
        scope: GcScope::Die,
    })
}

/// With `k` workers and nothing shared, a job of `v` valid pages takes exactly
/// `⌈v/k⌉·(2·cmd + read + program) + cmd + erase`; sharing the command cycles adds `2·cmd` per
/// further page of a wave; sharing the array takes as long as moving the pages one by one.
#[test]
fn job_time_is_ceil_v_over_k_moves_and_one_erase() {
    for v in [0u32, 1, 2, 3, 5, 8, 13, 16] {
        for k in 1..=8u8 {
            for sharing in [
                RegisterSharing::None,
                RegisterSharing::Command,
                RegisterSharing::Array,
            ] {
                let (mut ftl, geo, t) = one_plane();
                let keep: Vec<u32> = (0..v).map(|i| (i * 7) % PPB).collect();
                let mut keep_sorted = keep.clone();
                keep_sorted.sort_unstable();
                keep_sorted.dedup();
                assert_eq!(keep_sorted.len() as u32, v);
                victims(&mut ftl, &[&keep_sorted]);
                let mut rng = rng_for(1, 0);
                let how = InPlane {
                    workers: k,
                    erase_blocks: 1,
                    parity: Parity::None,
                };
                let mut job = gc::start_planned_job(&mut ftl, 0, &mut rng, 0, how).unwrap();
                assert_eq!((job.block, job.valid_at_pick), (0, v));
                let mut res = resources(&geo, &t, sharing);
                let (ops, took) = run_held(&mut ftl, &mut job, &mut res, &t);
                let one = 2 * t.command + t.read + t.program;
                let waves = v.div_ceil(k as u32) as SimTime;
                let want = match sharing {
                    RegisterSharing::None => waves * one,
                    // Every page's two command cycles, one at a time; the array work of a wave once.
                    RegisterSharing::Command => {
                        v as SimTime * 2 * t.command + waves * (t.read + t.program)
                    }
                    RegisterSharing::Array => v as SimTime * one,
                } + t.command
                    + t.erase;
                assert_eq!(took, want, "v {v} k {k} {sharing}");
                assert_eq!(ops.len() as SimTime, waves + 1, "v {v} k {k}");
                assert!(ops.last().unwrap().is_erase());
                ftl.check().unwrap();
            }
        }
    }
}

/// The parallel-page-migration paper's Fig. 4a: valid pages 1, 2 and 4 of the victim, an active
/// block with every page free. With the paper's pairing the workers move <1,1>, <2,0>, <4,2> (page 0
/// programmed after page 1: one pair out of order); in program order the same pairs are legal.
#[test]
fn figure_4a_pairs_as_the_mechanism_moves_them() {
    for (parity, workers, want, out_of_order) in [
        // ssdgc places a job's pages in program order (where a page lands inside its block is not
        // modelled): the paper's pairs <1,1>, <2,0>, <4,2> in its workers' order, one counted out
        // of order.
        (Parity::Paper, 1u8, vec![(1u32, 0u32), (2, 1), (4, 2)], 1u64),
        (Parity::InOrder, 1, vec![(2, 0), (1, 1), (4, 2)], 0),
        (Parity::InOrder, 3, vec![(2, 0), (1, 1), (4, 2)], 0),
    ] {
        let (mut ftl, geo, _) = one_plane();
        victims(&mut ftl, &[&[1, 2, 4]]);
        let mut rng = rng_for(1, 0);
        let how = InPlane {
            workers,
            erase_blocks: 1,
            parity,
        };
        let mut job = gc::start_planned_job(&mut ftl, 0, &mut rng, 0, how).unwrap();
        let mut moved = Vec::new();
        let mut dst_block = None;
        while let Some(op) = gc::dispatch_next(&mut ftl, &mut job).unwrap() {
            let mut pairs = Vec::new();
            match op {
                GcOp::Move { src, dst } => pairs.push((src, dst)),
                GcOp::Wave { n, src, dst } => {
                    assert_eq!(n, workers);
                    pairs.extend((0..n as usize).map(|i| (src[i], dst[i])));
                }
                GcOp::Erase { .. } => {}
                other => panic!("unexpected {other:?}"),
            }
            for (s, d) in pairs {
                let (s, d) = (geo.addr(s), geo.addr(d));
                assert_eq!(*dst_block.get_or_insert(d.block), d.block);
                moved.push((s.page, d.page));
            }
            gc::complete(&mut ftl, op);
        }
        assert_eq!(moved, want, "{parity}");
        if parity == Parity::InOrder {
            // Every copyback keeps its parity, on a fresh block programmed in order.
            for &(s, d) in &moved {
                assert_eq!(s % 2, d % 2);
            }
        }
        assert_eq!(ftl.counters.out_of_order_pairs, out_of_order, "{parity}");
        assert_eq!(ftl.counters.parity_skipped, 0, "{parity}");
        ftl.check().unwrap();
    }
}

/// In program order, odd valid pages only on a fresh block: the even pages between them are
/// skipped, counted as wasted, and every copy keeps its parity.
#[test]
fn in_order_parity_skips_the_imbalance() {
    let (mut ftl, geo, _) = one_plane();
    victims(&mut ftl, &[&[1, 3, 5]]);
    let mut rng = rng_for(1, 0);
    let how = InPlane {
        workers: 2,
        erase_blocks: 1,
        parity: Parity::InOrder,
    };
    let mut job = gc::start_planned_job(&mut ftl, 0, &mut rng, 0, how).unwrap();
    while let Some(op) = gc::dispatch_next(&mut ftl, &mut job).unwrap() {
        if let GcOp::Wave { n, src, dst } = op {
            for i in 0..n as usize {
                assert_eq!(geo.addr(src[i]).page % 2, geo.addr(dst[i]).page % 2);
            }
        }
        gc::complete(&mut ftl, op);
    }
    assert_eq!(ftl.counters.parity_skipped, 3);
    assert_eq!(ftl.counters.gc_pages_moved, 3);
    ftl.check().unwrap();
}

/// IPPBE: a job of two victims moves the valid pages of both, then erases both with one command
/// taking one erase latency; no page is lost and both blocks return to the pool.
#[test]
fn ippbe_erases_two_blocks_for_one_erase_latency() {
    let (mut ftl, geo, t) = one_plane();
    victims(&mut ftl, &[&[0, 5, 9], &[2, 3, 4, 11, 15]]);
    let free_before = ftl.free_blocks(0);
    let mut rng = rng_for(1, 0);
    let how = InPlane {
        workers: 1,
        erase_blocks: 2,
        parity: Parity::None,
    };
    let mut job = gc::start_planned_job(&mut ftl, 0, &mut rng, 0, how).unwrap();
    assert_eq!((job.victims(), job.valid_at_pick), (2, 8));
    let mut res = resources(&geo, &t, RegisterSharing::None);
    let (ops, took) = run_held(&mut ftl, &mut job, &mut res, &t);
    let erase = *ops.last().unwrap();
    let GcOp::EraseBlocks { plane, n, blocks } = erase else {
        panic!("not a multi-block erase: {erase:?}");
    };
    assert_eq!((plane, n), (0, 2));
    let mut erased = blocks[..2].to_vec();
    erased.sort_unstable();
    assert_eq!(erased, vec![0, 1]);
    let f = erase.flash_op(&t, true, 1);
    assert_eq!(
        (f.erase_blocks, f.duration(t.transfer)),
        (2, t.command + t.erase)
    );
    assert_eq!(
        took,
        8 * (2 * t.command + t.read + t.program) + t.command + t.erase
    );
    // Both victims erased and back in the pool; every logical page still mapped.
    assert_eq!(ftl.counters.blocks_erased, 2);
    assert!(ftl.free_blocks(0) > free_before);
    for lpn in 0..2 * PPB {
        assert!(ftl.lookup(lpn).is_some(), "lpn {lpn} lost");
    }
    ftl.check().unwrap();
}

/// Further IPPBE victims: the victim policy's next ones, with room to spare (here the two with the
/// fewest valid pages and two full of them, up to `erase_blocks`); on a plane that cannot spend two
/// blocks of pages beyond what the job needs, none.
#[test]
fn ippbe_takes_further_victims_while_the_plane_can_spend_their_pages() {
    let how = InPlane {
        workers: 1,
        erase_blocks: 4,
        parity: Parity::None,
    };
    let (mut ftl, _, _) = one_plane();
    victims(&mut ftl, &[&[0], &(0..PPB).collect::<Vec<_>>(), &[3, 4]]);
    let mut rng = rng_for(1, 0);
    let job = gc::start_planned_job(&mut ftl, 0, &mut rng, 0, how).unwrap();
    // Blocks 0 (one valid page) and 2 (two), then two full blocks (block 1 and the overwrites').
    assert_eq!((job.victims(), job.valid_at_pick), (4, 3 + 2 * PPB));
    assert!(job.collects(0, 0) && job.collects(0, 2));
    ftl.check().unwrap();
    // A plane down to its reserve of free blocks: one victim.
    let (mut ftl, _, _) = one_plane();
    victims(&mut ftl, &[&[0, 1], &[0, 1, 2]]);
    let logical = ftl.geometry().logical_pages;
    let mut lpn = 2 * PPB;
    while ftl.free_blocks(0) > ftl.reserve_blocks() + 1 {
        ftl.host_write(lpn).unwrap();
        lpn = if lpn + 1 < logical { lpn + 1 } else { 2 * PPB };
    }
    assert!(gc::migration::ippbe::room(&ftl, 0) < 2 * PPB as u64);
    let job = gc::start_planned_job(&mut ftl, 0, &mut rng, 0, how).unwrap();
    assert_eq!(job.victims(), 1);
    ftl.check().unwrap();
}

/// One write-heavy run of `sets` on a small drive of 2 channels x 2 dies x 2 planes, checked.
fn run(sets: &[&str]) -> Report {
    let mut b = ConfigBuilder::preset("default").unwrap();
    for s in [
        "geometry.channels=2",
        "geometry.chips_per_channel=1",
        "geometry.dies_per_chip=2",
        "geometry.blocks_per_plane=64",
        "geometry.pages_per_block=32",
        "geometry.registers_per_plane=4",
        "geometry.register_sharing=\"none\"",
        "gc.threshold=0.1",
    ]
    .iter()
    .chain(sets)
    {
        b.set(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    }
    let cfg = b.build().unwrap_or_else(|e| panic!("{sets:?}: {e}"));
    let mut opts = RunOptions::from_config(&cfg, 3).unwrap();
    opts.check = true;
    opts.check_every = 5_000;
    let records: Vec<IoRecord> = (0..6000u64)
        .map(|i| IoRecord {
            time_ns: i * 150_000,
            op: if i % 5 == 0 { Op::Read } else { Op::Write },
            offset: (i * 7919 % 20_000) * 4096,
            len: 4096 * (1 + i % 3),
        })
        .collect();
    let wl = Workload::from_records(records, ReplayMode::OpenLoop, "mix");
    Simulator::new(&cfg, wl, opts).unwrap().run().unwrap()
}

/// Whole runs: parallel migration moves the same pages as serial migration in less GC time, and
/// its report section adds up; IPPBE and the parity modes run checked and lose nothing.
#[test]
fn runs_with_workers_ippbe_and_parity() {
    let serial = run(&[]);
    assert!(serial.schemes.migration.is_none());
    let par = run(&["gc.migration=\"parallel\"", "gc.workers=4"]);
    assert_eq!(par.flash.gc_pages_moved, serial.flash.gc_pages_moved);
    assert!(par.gc.invocations > 100, "{}", par.gc.invocations);
    assert!(par.gc.total_time_us < 0.6 * serial.gc.total_time_us);
    assert!(par.latency_us.all.mean < serial.latency_us.all.mean);
    let m = par.schemes.migration.as_ref().expect("a migration section");
    assert_eq!(
        (m.workers, m.registers_per_plane, m.erase_blocks),
        (4, 4, 1)
    );
    assert_eq!(m.jobs, par.gc.invocations);
    // Held jobs: the sum of their durations is the die time spent on GC.
    assert!((m.job_time_us - par.gc.total_time_us).abs() < 1e-6);
    assert_eq!(m.pages_migrated, par.flash.gc_pages_moved);
    assert_eq!(m.register_utilisation.len(), 4);
    assert!(m
        .register_utilisation
        .windows(2)
        .all(|w| w[0] >= w[1] && w[1] > 0.0));
    assert!(m.register_utilisation[0] < 1.0);
    // Four workers, nothing shared: as fast as with the whole plane to themselves.
    let array = run(&[
        "gc.migration=\"parallel\"",
        "gc.workers=4",
        "geometry.register_sharing=\"array\"",
    ]);
    assert!((array.gc.total_time_us - serial.gc.total_time_us).abs() < 1e-6);
    let ippbe = run(&["gc.erase_blocks=2"]);
    let m = ippbe.schemes.migration.as_ref().unwrap();
    assert!(m.multi_block_erases > 0 && m.victims_per_job > 1.0);
    assert_eq!(ippbe.gc.invocations, ippbe.flash.blocks_erased);
    let both = run(&[
        "gc.migration=\"parallel\"",
        "gc.workers=4",
        "gc.erase_blocks=2",
        "gc.copyback_parity=\"in-order\"",
    ]);
    let m = both.schemes.migration.as_ref().unwrap();
    assert!(m.wasted_pages > 0 && m.multi_block_erases > 0);
    let paper = run(&[
        "gc.migration=\"parallel\"",
        "gc.workers=2",
        "gc.copyback_parity=\"paper\"",
    ]);
    let m = paper.schemes.migration.as_ref().unwrap();
    assert!(m.out_of_order_pairs > 0 && m.wasted_pages == 0);
    assert_eq!(paper.flash.gc_pages_moved, serial.flash.gc_pages_moved);
}

/// What a GC job holds: with plane scope the die serves host work of its other planes between the
/// job's operations (requests wait less on GC of another plane); with channel scope the other dies
/// of the channel wait too (requests wait more). The same GC work either way.
#[test]
fn gc_blocking_scope() {
    let die = run(&[]);
    let plane = run(&["gc.blocking=\"plane\""]);
    let channel = run(&["gc.blocking=\"channel\""]);
    assert!(plane.latency_us.all.mean < die.latency_us.all.mean);
    assert!(plane.breakdown_us.cogc < die.breakdown_us.cogc);
    assert!(channel.latency_us.all.mean > die.latency_us.all.mean);
    for r in [&plane, &channel] {
        assert!(r.gc.invocations > 100);
    }
}

/// Reads first: reads no longer wait behind queued writes, so they are faster; writes pay for it.
#[test]
fn reads_first_priority() {
    let fifo = run(&[]);
    let reads = run(&["host.priority=\"reads-first\""]);
    assert!(reads.latency_us.read.mean < fifo.latency_us.read.mean);
    assert_eq!(reads.requests.total, fifo.requests.total);
}

/// Trace preconditioning maps every logical page of every drive of an array before the run, and
/// the run then collects.
#[test]
fn trace_preconditioning_fills_the_drive() {
    let mut b = ConfigBuilder::preset("default").unwrap();
    for s in [
        "geometry.blocks_per_plane=64",
        "array.drives=2",
        "precondition.mode=\"trace\"",
        "precondition.overwrites=0.5",
    ] {
        b.set(s).unwrap();
    }
    let cfg = b.build().unwrap();
    let opts = RunOptions::from_config(&cfg, 1).unwrap();
    let records: Vec<IoRecord> = (0..500u64)
        .map(|i| IoRecord {
            time_ns: i * 100_000,
            op: if i % 2 == 0 { Op::Read } else { Op::Write },
            offset: (i * 104_729 % 3000) * 4096,
            len: 8192,
        })
        .collect();
    let wl = Workload::from_records(records, ReplayMode::OpenLoop, "trace");
    let mut sim = Simulator::new(&cfg, wl, opts).unwrap();
    sim.precondition(&mut |_| {}).unwrap();
    for d in sim.drives() {
        let logical = d.geometry().logical_pages as u64;
        assert_eq!(d.ftl().mapped_pages(), logical);
        d.check(0).unwrap();
    }
    let r = sim.run().unwrap();
    assert!(r.gc.invocations > 0);
}

/// A held job's operations reserved as the resource model says: a wave's pages combined.
#[test]
fn a_wave_combines_its_pages_by_the_sharing() {
    let (_, geo, t) = one_plane();
    let wave = GcOp::Wave {
        n: 3,
        src: [0; 8],
        dst: [1; 8],
    };
    let f = wave.flash_op(&t, true, 1);
    assert_eq!(f.registers, 3);
    for (sharing, want) in [
        (RegisterSharing::None, 2 * t.command + t.read + t.program),
        (RegisterSharing::Command, 6 * t.command + t.read + t.program),
        (
            RegisterSharing::Array,
            3 * (2 * t.command + t.read + t.program),
        ),
    ] {
        let mut res = resources(&geo, &t, sharing);
        assert_eq!(res.reserve(0, 0, &f).end, want, "{sharing}");
    }
    // Without copyback: reads together, six transfers, programs together.
    let f = wave.flash_op(&t, false, 1);
    let mut res = resources(&geo, &t, RegisterSharing::None);
    let r = res.reserve(0, 0, &f);
    assert_eq!(r.transfer_end - r.transfer_start, 6 * t.transfer);
    assert_eq!(
        r.end,
        t.command + t.read + 6 * t.transfer + t.command + t.program
    );
}
