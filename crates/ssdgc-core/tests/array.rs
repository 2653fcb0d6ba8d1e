//! RAID-0 arrays: a one-drive array is the lone drive; drive 0 of an array keeps the lone drive's
//! random streams (a workload confined to drive 0 reproduces the lone drive's run there exactly);
//! every scheme loses nothing on an array under invariant checking; arrays run side by side; the
//! simulator puts every byte of a request on the drive and at the offset RAID-0 striping says; and
//! per-disk traces go to the drives that replace their disks (`array.disks`).

use ssdgc_core::host::array::Stripe;
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::{Config, ConfigBuilder, Report, RunOptions, Simulator};
use ssdgc_workload::{IoRecord, Op};

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
        "agc-dgc",
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

/// Drive and drive byte offset of array byte `b` under RAID-0 with `n` drives of `drive_bytes`
/// (a multiple of `chunk`) and chunks of `chunk` bytes, written out from the definition.
fn raid0(b: u64, n: u64, chunk: u64) -> (u64, u64) {
    let k = b / chunk;
    (k % n, (k / n) * chunk + b % chunk)
}

/// A run of `cfg` on `recs` with no ageing, returning its report and drive 0's FTL.
fn run_fresh(cfg: &Config, wl: Workload) -> (Report, ssdgc_core::ftl::Ftl) {
    let mut opts = RunOptions::from_config(cfg, 1).unwrap();
    opts.precondition = ssdgc_core::ageing::Precondition::None;
    opts.check = true;
    Simulator::new(cfg, wl, opts)
        .unwrap()
        .run_into_ftl()
        .unwrap()
}

#[test]
fn striping_puts_every_byte_on_its_drive_and_offset() {
    // 3 drives, 12 KiB chunks (3 pages of 4 KiB); unaligned requests of up to 40 KiB that cross
    // chunks and stripe rows. A page is written where its bytes lie; the drives' logical pages
    // are multiples of the chunk here, so every byte follows the plain RAID-0 formula.
    let cfg = config(&["array.drives=3", "array.chunk=\"12KiB\""]);
    let stripe = Stripe::from_config(&cfg);
    let drive_bytes = stripe.logical_bytes() / 3;
    assert_eq!(drive_bytes % (12 << 10), 0);
    let mut rng_state = 7u64;
    let mut next = || {
        rng_state = rng_state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        rng_state >> 33
    };
    let recs: Vec<IoRecord> = (0..400)
        .map(|i| IoRecord {
            time_ns: i * 1_000_000,
            op: Op::Write,
            offset: next() % (stripe.logical_bytes() / 4),
            len: 1 + next() % (40 << 10),
        })
        .collect();
    // Pages each drive must hold: those any written byte falls in.
    let mut want: Vec<std::collections::BTreeSet<u64>> = vec![Default::default(); 3];
    let mut per_drive_pages = [0u64; 3];
    for r in &recs {
        let first = r.offset / 4096;
        let last = (r.offset + r.len - 1) / 4096;
        for p in first..=last {
            let (d, off) = raid0(p * 4096, 3, 12 << 10);
            // Every byte of the page lies on the same drive, at the same page.
            let (d2, off2) = raid0(p * 4096 + 4095, 3, 12 << 10);
            assert_eq!((d, off / 4096), (d2, off2 / 4096));
            want[d as usize].insert(off / 4096);
            per_drive_pages[d as usize] += 1;
        }
    }
    let (r, ftl0) = run_fresh(
        &cfg,
        Workload::from_records(recs, ReplayMode::OpenLoop, "stripes"),
    );
    let drives = r.drives.as_ref().unwrap();
    for d in 0..3 {
        assert_eq!(
            drives[d].flash.host_pages_written, per_drive_pages[d],
            "drive {d}"
        );
    }
    let mapped: std::collections::BTreeSet<u64> = (0..ftl0.geometry().logical_pages)
        .filter(|&l| ftl0.lookup(l).is_some())
        .map(u64::from)
        .collect();
    assert_eq!(
        mapped, want[0],
        "drive 0 holds exactly the pages striped to it"
    );
}

#[test]
fn per_disk_traces_go_to_the_drives_that_replace_their_disks() {
    // The AGC/DGC paper's 3-drive array: disks 0+1 -> drive 0, 2+5 -> drive 1, 3+4 -> drive 2.
    let cfg = config(&["array.drives=3", "array.disks=[[0, 1], [2, 5], [3, 4]]"]);
    let geo = ssdgc_core::flash::Geometry::new(&cfg);
    let region = geo.logical_pages as u64 / 2;
    // Disk k writes pages k, k + 10, k + 20 of its own space (and one past its region, folded).
    let mut recs = Vec::new();
    let mut t = 0;
    for k in 0..6u64 {
        for p in [k, k + 10, k + 20, region + k + 30] {
            recs.push((
                k,
                IoRecord {
                    time_ns: t,
                    op: Op::Write,
                    offset: p * 4096,
                    len: 4096,
                },
            ));
            t += 1_000_000;
        }
    }
    // Then each reads back what it wrote (all mapped) and a page it never wrote (unmapped).
    for k in 0..6u64 {
        for p in [k, k + 30, k + 40] {
            recs.push((
                k,
                IoRecord {
                    time_ns: t,
                    op: Op::Read,
                    offset: p * 4096,
                    len: 4096,
                },
            ));
            t += 1_000_000;
        }
    }
    let (r, ftl0) = run_fresh(
        &cfg,
        Workload::from_disk_records(recs, ReplayMode::OpenLoop, "disks"),
    );
    assert_eq!(r.requests.total, 24 + 18);
    assert_eq!(
        r.requests.unmapped_page_reads, 6,
        "one unwritten page per disk"
    );
    let drives = r.drives.as_ref().unwrap();
    for d in drives {
        assert_eq!(d.flash.host_pages_written, 8, "two disks of 4 writes each");
        assert_eq!(d.requests.total, 14, "two disks of 7 requests each");
    }
    // Drive 0: disk 0 in its first half, disk 1 in its second.
    let mut want: Vec<u64> = [0u64, 10, 20, 30]
        .iter()
        .chain(&[1, 11, 21, 31])
        .enumerate()
        .map(|(i, &p)| if i < 4 { p } else { region + p })
        .collect();
    want.sort_unstable();
    let mapped: Vec<u64> = (0..geo.logical_pages)
        .filter(|&l| ftl0.lookup(l).is_some())
        .map(u64::from)
        .collect();
    assert_eq!(mapped, want);
    assert_eq!(
        r.drive.array.as_ref().unwrap().disks,
        vec![vec![0, 1], vec![2, 5], vec![3, 4]]
    );
}

#[test]
fn per_disk_settings_and_workloads_must_agree() {
    let cfg = config(&["array.drives=2", "array.disks=[[0], [1]]"]);
    let recs = common::random_records(10, 1 << 20, 1, 1_000, 0.0, 1);
    let opts = RunOptions::from_config(&cfg, 1).unwrap();
    let e = Simulator::new(
        &cfg,
        Workload::from_records(recs, ReplayMode::OpenLoop, "plain"),
        opts.clone(),
    )
    .err()
    .expect("records without disks are rejected");
    assert!(e.to_string().contains("array.disks"), "{e}");
    // A disk not in the list is an error naming it.
    let rec = IoRecord {
        time_ns: 0,
        op: Op::Write,
        offset: 0,
        len: 4096,
    };
    let e = Simulator::new(
        &cfg,
        Workload::from_disk_records(vec![(7, rec)], ReplayMode::OpenLoop, "seven"),
        opts,
    )
    .unwrap()
    .run()
    .unwrap_err();
    assert!(
        e.to_string().contains("disk 7 is not in array.disks"),
        "{e}"
    );
    // Invalid lists are rejected with the key.
    for (sets, why) in [
        (
            &["array.drives=2", "array.disks=[[0], [1], [2]]"][..],
            "one list per drive",
        ),
        (
            &["array.drives=2", "array.disks=[[0, 1], [1]]"][..],
            "listed twice",
        ),
        (
            &["array.drives=2", "array.disks=[[0], []]"][..],
            "replaces no disk",
        ),
    ] {
        let mut b = ConfigBuilder::preset("default").unwrap();
        for s in sets {
            b.set(s).unwrap();
        }
        let e = b.build().unwrap_err();
        assert!(e.to_string().contains(why), "{e}");
    }
    let mut b = ConfigBuilder::preset("default").unwrap();
    let e = b.set("array.disks=[1, 2]").unwrap_err();
    assert!(e.to_string().contains("array.disks"), "{e}");
}
