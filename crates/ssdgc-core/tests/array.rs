//! RAID-0 arrays: a one-drive array is the lone drive; drive 0 of an array keeps the lone drive's
//! random streams (a workload confined to drive 0 reproduces the lone drive's run there exactly);
//! every scheme loses nothing on an array under invariant checking; arrays run side by side.

use ssdgc_core::host::array::Stripe;
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::{Config, ConfigBuilder, Report, RunOptions, Simulator};
use ssdgc_workload::IoRecord;

mod common;

fn config(sets: &[&str]) -> Config {
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.set("geometry.blocks_per_plane=64").unwrap();
    for s in sets {
        b.set(s).unwrap();
    }
    b.build().unwrap()
}

fn run(cfg: &Config, recs: Vec<IoRecord>, seed: u64) -> Report {
    let opts = RunOptions::from_config(cfg, seed).unwrap();
    Simulator::new(
        cfg,
        Workload::from_records(recs, ReplayMode::OpenLoop, "test"),
        opts,
    )
    .unwrap()
    .run()
    .unwrap()
}

/// The report with its wall times (the array's, repeated in each drive's) set to 0.
fn without_wall(mut r: Report) -> Report {
    r.sim.wall_s = 0.0;
    for d in r.drives.iter_mut().flatten() {
        d.sim.wall_s = 0.0;
    }
    r
}

#[test]
fn a_one_drive_array_is_the_lone_drive_whatever_its_chunk() {
    let lone = config(&[]);
    let recs = common::random_records(
        3_000,
        Stripe::from_config(&lone).logical_bytes(),
        4,
        150_000,
        0.3,
        4,
    );
    let a = without_wall(run(&lone, recs.clone(), 8));
    for chunk in ["\"4KiB\"", "\"1MiB\""] {
        let cfg = config(&["array.drives=1", &format!("array.chunk={chunk}")]);
        let b = without_wall(run(&cfg, recs.clone(), 8));
        assert_eq!(a, b, "chunk {chunk}");
        assert!(b.drives.is_none() && b.drive.array.is_none());
    }
}

#[test]
fn drive_zero_of_an_array_runs_as_the_lone_drive() {
    for scheme in ["baseline", "pgc"] {
        let lone = config(&[&format!("gc.scheme=\"{scheme}\"")]);
        let array = config(&[
            &format!("gc.scheme=\"{scheme}\""),
            "array.drives=3",
            "array.chunk=\"16KiB\"",
        ]);
        // Single-page requests on the lone drive, and the same pages of drive 0 addressed
        // through the array.
        let recs = common::random_records(
            4_000,
            Stripe::from_config(&lone).logical_bytes(),
            6,
            120_000,
            0.3,
            1,
        );
        let stripe = Stripe::from_config(&array);
        let mapped: Vec<IoRecord> = recs
            .iter()
            .map(|r| IoRecord {
                offset: stripe.array_page(0, (r.offset / 4096) as u32) * 4096,
                ..*r
            })
            .collect();
        let a = run(&lone, recs, 5);
        let b = run(&array, mapped, 5);
        let drives = b.drives.as_ref().expect("per-drive reports");
        let d0 = &drives[0];
        assert_eq!(d0.requests, a.requests, "{scheme}");
        assert_eq!(d0.latency_us, a.latency_us, "{scheme}");
        assert_eq!(d0.breakdown_us, a.breakdown_us, "{scheme}");
        assert_eq!(d0.flash, a.flash, "{scheme}");
        assert_eq!(d0.gc, a.gc, "{scheme}");
        assert_eq!(d0.schemes, a.schemes, "{scheme}");
        assert_eq!(d0.buffer, a.buffer, "{scheme}");
        assert_eq!(d0.wear, a.wear, "{scheme}");
        assert_eq!(d0.plane_util, a.plane_util, "{scheme}");
        // The array's requests are drive 0's pieces; the other drives did nothing.
        assert_eq!(b.latency_us, a.latency_us, "{scheme}");
        for d in &drives[1..] {
            assert_eq!(d.requests.total, 0);
            assert_eq!(d.flash.host_pages_written, 0);
        }
    }
}

#[test]
fn every_scheme_loses_nothing_on_an_array() {
    for scheme in [
        "baseline",
        "idle",
        "pagc-cache",
        "superblock",
        "pgc",
        "fpgc",
        "zero",
    ] {
        for sets in [
            &["array.drives=3", "array.chunk=\"8KiB\""][..],
            &["array.drives=2", "buffer.size=\"128KiB\""][..],
        ] {
            let mut all = vec![format!("gc.scheme=\"{scheme}\"")];
            all.extend(sets.iter().map(|s| s.to_string()));
            let refs: Vec<&str> = all.iter().map(String::as_str).collect();
            let cfg = config(&refs);
            let logical = Stripe::from_config(&cfg).logical_bytes();
            let recs = common::random_records(4_000, logical, 3, 60_000, 0.4, 6);
            let r = common::run_checked(&cfg, recs, 11, 700)
                .unwrap_or_else(|e| panic!("{scheme} {sets:?}: {e}"));
            assert_eq!(r.requests.total, 4_000, "{scheme} {sets:?}");
            let drives = r.drives.as_ref().expect("per-drive reports");
            let pieces: u64 = drives.iter().map(|d| d.requests.total).sum();
            assert!(pieces >= 4_000, "{scheme} {sets:?}");
            let written: u64 = drives.iter().map(|d| d.flash.host_pages_written).sum();
            assert_eq!(written, r.flash.host_pages_written, "{scheme} {sets:?}");
            if scheme != "zero" {
                assert!(r.gc.invocations > 0, "{scheme} {sets:?}");
            }
        }
    }
}

#[test]
fn two_arrays_run_in_parallel_in_one_process() {
    let cfg = config(&["array.drives=2", "gc.scheme=\"fpgc\""]);
    let logical = Stripe::from_config(&cfg).logical_bytes();
    let recs = common::random_records(3_000, logical, 9, 100_000, 0.3, 8);
    let reports: Vec<Report> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| s.spawn(|| without_wall(run(&cfg, recs.clone(), 2))))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(reports[0], reports[1]);
    assert_eq!(reports[0].drives.as_ref().map(Vec::len), Some(2));
}
