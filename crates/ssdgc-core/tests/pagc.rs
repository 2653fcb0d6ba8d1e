//! PaGC through the real FTL and GC mechanism: the paper's Figure 6 example (§V-A), the cost formula,
//! and dies of 2, 4 and 8 planes under every PaGC scheme with invariant checking.

use ssdgc_core::flash::{Geometry, Timing};
use ssdgc_core::ftl::Ftl;
use ssdgc_core::gc::pagc_plan::MoveClass;
use ssdgc_core::gc::{self, GcOp};
use ssdgc_core::host::Workload;
use ssdgc_core::rng::rng_for;
use ssdgc_core::{ConfigBuilder, RunOptions, Simulator};

fn figure6_drive() -> (Ftl, Geometry, Timing) {
    let mut b = ConfigBuilder::preset("default").unwrap();
    for s in [
        "geometry.channels=1",
        "geometry.chips_per_channel=1",
        "geometry.dies_per_chip=1",
        "geometry.planes_per_die=2",
        "geometry.blocks_per_plane=16",
        "geometry.pages_per_block=8",
        "geometry.overprovision=0.5",
        "gc.threshold=0.1",
        "timing.command=0ns",
        "timing.read=75us",
        "timing.program=1500us",
        "timing.erase=3800us",
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

/// Figure 6: victim A (plane 0) holds valid pages at offsets {1,2,3,4}, victim B (plane 1) at
/// {1,4,5}. PaGC moves offsets 1 and 4 with multi-plane reads and programs (PaRD-PaWR, Ka = 2), pairs
/// one of A's {2,3} with B's 5 (SrRD-PaWR, Kb = 1), moves A's last page alone (SrRD-SrWR, Kc = 1), and
/// erases both victims at once: 5 reads, 4 programs and one erase.
#[test]
fn figure_6_example() {
    let (mut ftl, geo, tm) = figure6_drive();
    // One die of two planes: logical page l lives on plane l % 2, so plane 0 holds 0, 2, 4, ... and
    // plane 1 holds 1, 3, 5, ....
    for lpn in 0..16 {
        ftl.host_write(lpn).unwrap();
    }
    // Block 0 of plane 0 holds lpn 2k at offset k; keep offsets 1..=4 valid.
    for k in [0u32, 5, 6, 7] {
        ftl.host_write(2 * k).unwrap();
    }
    // Block 0 of plane 1 holds lpn 2k + 1 at offset k; keep offsets 1, 4, 5 valid.
    for k in [0u32, 2, 3, 6, 7] {
        ftl.host_write(2 * k + 1).unwrap();
    }
    let mut rng = rng_for(1, 0);
    let mut job = gc::start_parallel_job(&mut ftl, &[0, 1], &mut rng, 0, false).unwrap();
    assert_eq!((job.plane, job.block), (0, 0));
    assert_eq!(job.valid_at_pick, 7);
    let mut ops = Vec::new();
    while let Some(op) = gc::dispatch_next(&mut ftl, &mut job).unwrap() {
        ops.push(op);
        gc::complete(&mut ftl, op);
    }
    ftl.check().unwrap();
    let off = |p: u32| geo.addr(p).page;
    let plane = |p: u32| geo.addr(p).plane;
    assert_eq!(ops.len(), 5, "{ops:?}");
    match ops[0] {
        GcOp::MultiMove {
            class: MoveClass::PardPawr,
            n: 2,
            reads: 1,
            moved: 2,
            src,
            dst,
        } => {
            assert_eq!((off(src[0]), off(src[1])), (1, 1));
            assert_eq!((plane(dst[0]), plane(dst[1])), (0, 1));
            assert_eq!(off(dst[0]), off(dst[1]), "aligned write points");
        }
        ref other => panic!("step 1: {other:?}"),
    }
    match ops[1] {
        GcOp::MultiMove {
            class: MoveClass::PardPawr,
            n: 2,
            reads: 1,
            src,
            dst,
            ..
        } => {
            assert_eq!((off(src[0]), off(src[1])), (4, 4));
            assert_eq!(off(dst[0]), off(dst[1]));
        }
        ref other => panic!("step 2: {other:?}"),
    }
    match ops[2] {
        GcOp::MultiMove {
            class: MoveClass::SrrdPawr,
            n: 2,
            reads: 2,
            src,
            dst,
            ..
        } => {
            assert_eq!((off(src[0]), off(src[1])), (2, 5));
            assert_eq!(off(dst[0]), off(dst[1]));
        }
        ref other => panic!("step 3: {other:?}"),
    }
    match ops[3] {
        GcOp::Move { src, .. } => assert_eq!((plane(src), off(src)), (0, 3)),
        ref other => panic!("step 4: {other:?}"),
    }
    assert!(matches!(ops[4], GcOp::MultiErase { n: 2, .. }));
    assert_eq!(ftl.counters.moves_by_class, [4, 2, 1]);
    assert_eq!(ftl.counters.pagc_joined, 1);
    // Cost_PaGC = Ka(T_RD + T_WR) + Kb(2 T_RD + T_WR) + Kc(T_RD + T_WR), plus one erase.
    let total: u64 = ops
        .iter()
        .map(|op| {
            let f = op.flash_op(&tm, true, 0);
            assert_eq!(f.transfers, 0, "copyback moves use no channel");
            f.before + f.after
        })
        .sum();
    assert_eq!(total, 5 * tm.read + 4 * tm.program + tm.erase);
    // Serial GC of the same two victims: 7 moves and two erases.
    assert!(total < 7 * (tm.read + tm.program) + 2 * tm.erase);
}

mod common;

#[test]
fn every_pagc_scheme_on_dies_of_2_4_and_8_planes_loses_nothing() {
    for planes in [2, 4, 8] {
        for scheme in ["pagc-blind", "pagc-threshold", "pagc-cache"] {
            let mut b = ConfigBuilder::preset("default").unwrap();
            b.set("geometry.channels=1").unwrap();
            b.set(&format!("geometry.planes_per_die={planes}")).unwrap();
            b.set("geometry.blocks_per_plane=64").unwrap();
            b.set(&format!("gc.scheme=\"{scheme}\"")).unwrap();
            b.set("gc.threshold=0.08").unwrap();
            // Join level 0.13 (threshold + 5 points), so that T-PaGC's paired planes join often
            // enough to exercise the parallel mechanism on every die shape.
            b.set("gc.pagc_margin=points").unwrap();
            let cfg = b.build().unwrap();
            let geo = Geometry::new(&cfg);
            let recs =
                common::random_records(8_000, geo.logical_bytes(), planes as u64, 400_000, 0.25, 2);
            let r = common::run_checked(&cfg, recs, 5, 1_000)
                .unwrap_or_else(|e| panic!("{scheme} with {planes} planes: {e}"));
            assert_eq!(r.requests.total, 8_000);
            let p = r.schemes.pagc.as_ref().expect("a pagc section");
            assert!(
                p.joined > 0,
                "{scheme} with {planes} planes never ran in parallel"
            );
            assert!(p.pard_pawr > 0);
            if scheme == "pagc-cache" {
                assert!(p.buffered_pages > 0);
            }
        }
    }
}

#[test]
fn parallel_gc_beats_serial_gc_on_a_write_heavy_load() {
    let run = |scheme: &str| {
        let mut b = ConfigBuilder::preset("pagc-small").unwrap();
        b.set(&format!("gc.scheme=\"{scheme}\"")).unwrap();
        // Fewer dies than Table I, to keep the test quick.
        b.set("geometry.channels=4").unwrap();
        b.set("geometry.chips_per_channel=2").unwrap();
        let cfg = b.build().unwrap();
        let geo = Geometry::new(&cfg);
        let wl = Workload::synthetic(
            "count=10000,size=8KiB,interarrival=exp:4ms,read=0.2",
            geo.logical_bytes(),
            3,
        )
        .unwrap();
        Simulator::new(&cfg, wl, RunOptions::from_config(&cfg, 3).unwrap())
            .unwrap()
            .run()
            .unwrap()
    };
    let serial = run("baseline");
    let parallel = run("pagc-threshold");
    assert!(parallel.latency_us.all.mean < serial.latency_us.all.mean);
    assert!(parallel.gc.total_time_us < serial.gc.total_time_us);
    // Serial GC stalls the paired plane: time waiting on another plane's GC shrinks under PaGC.
    assert!(parallel.plane_util.wait_other_gc < serial.plane_util.wait_other_gc);
}

/// T-PaGC's join level: 5% larger than the GC threshold by default (`gc.pagc_margin =
/// "relative"`), 5 points more with `"points"`; the higher level lets more paired planes join.
#[test]
fn pagc_margin_sets_how_often_paired_planes_join() {
    let run = |margin: &str| {
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set("geometry.channels=1").unwrap();
        b.set("geometry.blocks_per_plane=64").unwrap();
        b.set("gc.scheme=\"pagc-threshold\"").unwrap();
        b.set("gc.threshold=0.08").unwrap();
        b.set(&format!("gc.pagc_margin={margin}")).unwrap();
        let cfg = b.build().unwrap();
        let expected = if margin == "points" { 0.13 } else { 0.084 };
        assert!((cfg.pagc_threshold() - expected).abs() < 1e-12, "{margin}");
        let geo = Geometry::new(&cfg);
        let recs = common::random_records(8_000, geo.logical_bytes(), 2, 400_000, 0.25, 2);
        common::run_checked(&cfg, recs, 5, 1_000).unwrap()
    };
    let (relative, points) = (run("relative"), run("points"));
    let joined = |r: &ssdgc_core::Report| r.schemes.pagc.as_ref().expect("a pagc section").joined;
    assert!(
        joined(&points) > joined(&relative),
        "points {} vs relative {}",
        joined(&points),
        joined(&relative)
    );
}
