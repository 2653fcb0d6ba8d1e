//! End-to-end runs of the simulator on in-memory workloads.

use ssdgc_core::ageing::Precondition;
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::{Config, ConfigBuilder, RunOptions, Simulator};
use ssdgc_workload::IoRecord;

mod common;

fn random_writes(n: usize, logical_bytes: u64, seed: u64, gap_ns: u64) -> Vec<IoRecord> {
    common::random_records(n, logical_bytes, seed, gap_ns, 0.3, 3)
}

fn run(cfg: &Config, mode: ReplayMode, n: usize, check: bool) -> ssdgc_core::Report {
    let geo = ssdgc_core::flash::Geometry::new(cfg);
    let recs = random_writes(n, geo.logical_bytes(), 7, 200_000);
    let mut opts = RunOptions::from_config(cfg, 42).unwrap();
    opts.check = check;
    opts.check_every = 5_000;
    Simulator::new(cfg, Workload::from_records(recs, mode, "test"), opts)
        .unwrap()
        .run()
        .unwrap()
}

#[test]
fn closed_loop_run_completes_every_request_with_checks() {
    let cfg = Config::default();
    let r = run(&cfg, ReplayMode::ClosedLoop(32), 30_000, true);
    assert_eq!(r.requests.total, 30_000);
    assert_eq!(r.requests.reads + r.requests.writes, 30_000);
    assert!(r.flash.waf > 1.0, "{}", r.flash.waf);
    assert!(r.gc.invocations > 0);
    assert!(r.latency_us.write.mean > r.latency_us.read.mean);
}

#[test]
fn open_loop_run_completes_every_request_with_checks() {
    let cfg = Config::default();
    let r = run(&cfg, ReplayMode::OpenLoop, 20_000, true);
    assert_eq!(r.requests.total, 20_000);
    assert!(r.sim.simulated_s >= 20_000.0 * 200e-6 * 0.99);
}

#[test]
fn same_seed_same_report() {
    let cfg = Config::default();
    let mut a = run(&cfg, ReplayMode::ClosedLoop(16), 10_000, false);
    let mut b = run(&cfg, ReplayMode::ClosedLoop(16), 10_000, false);
    a.sim.wall_s = 0.0;
    b.sim.wall_s = 0.0;
    assert_eq!(a.to_json(), b.to_json());
}

#[test]
fn zero_gc_is_a_lower_bound() {
    let cfg = Config::default();
    let base = run(&cfg, ReplayMode::OpenLoop, 20_000, false);
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.set("gc.scheme=zero").unwrap();
    let zero = run(&b.build().unwrap(), ReplayMode::OpenLoop, 20_000, true);
    assert_eq!(zero.gc.total_time_us, 0.0);
    assert!(zero.gc.invocations > 0);
    assert!(zero.latency_us.all.mean < base.latency_us.all.mean);
    assert!(zero.latency_us.all.max <= base.latency_us.all.max);
}

#[test]
fn precondition_none_and_fill_work() {
    let cfg = Config::default();
    for p in [Precondition::None, Precondition::Fill] {
        let geo = ssdgc_core::flash::Geometry::new(&cfg);
        let recs = random_writes(5_000, geo.logical_bytes(), 3, 100_000);
        let mut opts = RunOptions::from_config(&cfg, 1).unwrap();
        opts.precondition = p;
        opts.check = true;
        let r = Simulator::new(
            &cfg,
            Workload::from_records(recs, ReplayMode::OpenLoop, "t"),
            opts,
        )
        .unwrap()
        .run()
        .unwrap();
        assert_eq!(r.requests.total, 5_000);
        if p == Precondition::None {
            assert!(r.requests.unmapped_page_reads > 0);
        }
    }
}

#[test]
fn every_scheme_and_victim_policy_completes_with_checks() {
    for scheme in ssdgc_core::gc::schemes::PRESETS.iter().map(|(n, _, _)| *n) {
        for victim in [
            "greedy",
            "rga:4",
            "random",
            "random+",
            "fifo",
            "cost-benefit",
            "cat",
        ] {
            let mut b = ConfigBuilder::preset("default").unwrap();
            b.set("geometry.blocks_per_plane=64").unwrap();
            b.set(&format!("gc.scheme=\"{scheme}\"")).unwrap();
            b.set(&format!("gc.victim=\"{victim}\"")).unwrap();
            let cfg = b.build().unwrap();
            let geo = ssdgc_core::flash::Geometry::new(&cfg);
            // Bursts of arrivals at the same instant, then gaps: the device queue fills and drains.
            let mut recs = random_writes(6_000, geo.logical_bytes(), 5, 0);
            for (i, r) in recs.iter_mut().enumerate() {
                r.time_ns = (i as u64 / 100) * 5_000_000;
            }
            let r = common::run_checked(&cfg, recs, 9, 500)
                .unwrap_or_else(|e| panic!("{scheme}/{victim}: {e}"));
            assert_eq!(r.requests.total, 6_000, "{scheme}/{victim}");
            assert!(r.gc.invocations > 0, "{scheme}/{victim}");
        }
    }
}

#[test]
fn two_drives_run_in_parallel_in_one_process() {
    let cfg = Config::default();
    let reports: Vec<_> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..2)
            .map(|_| s.spawn(|| run(&cfg, ReplayMode::ClosedLoop(8), 5_000, false)))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut a = reports[0].clone();
    let mut b = reports[1].clone();
    a.sim.wall_s = 0.0;
    b.sim.wall_s = 0.0;
    assert_eq!(a, b);
}

#[test]
fn latency_series_account_for_every_request() {
    let cfg = Config::default();
    let geo = ssdgc_core::flash::Geometry::new(&cfg);
    let recs = random_writes(4_000, geo.logical_bytes(), 2, 250_000);
    let bytes: u64 = recs.iter().map(|r| r.len).sum();
    let mut opts = RunOptions::from_config(&cfg, 3).unwrap();
    opts.series_interval = Some(100_000_000);
    opts.series_window = Some(1_000);
    let r = Simulator::new(
        &cfg,
        Workload::from_records(recs, ReplayMode::OpenLoop, "t"),
        opts,
    )
    .unwrap()
    .run()
    .unwrap();
    let s = r.series.expect("series were asked for");
    let by_time = s.by_time.unwrap();
    let by_req = s.by_request.unwrap();
    assert_eq!(by_time.iter().map(|p| p.requests).sum::<u64>(), 4_000);
    assert_eq!(by_req.len(), 4);
    assert!(by_req.iter().all(|p| p.requests == 1_000));
    // Arrivals span 4,000 x 250 us = 1 s: the requests fall in ten 100 ms intervals. The series
    // goes on to the interval of the last completion, where bytes are booked and free blocks
    // watched (docs/report-schema.md, "series").
    assert!(by_time[..10].iter().all(|p| p.requests > 0));
    assert!(by_time[10..].iter().all(|p| p.requests == 0));
    let last = by_time.last().unwrap().start;
    let end = r.sim.simulated_s;
    assert!(last <= end && end < last + 0.1 + 1e-9, "{last} {end}");
    assert_eq!(
        by_time
            .iter()
            .map(|p| p.read_bytes + p.write_bytes)
            .sum::<u64>(),
        bytes
    );
    assert!(by_time.iter().all(|p| p.min_free_blocks.is_some()));
    let max = by_req.iter().map(|p| p.max_us).fold(0.0, f64::max);
    assert_eq!(max, r.latency_us.all.max);
}

#[test]
fn gc_without_copyback_holds_the_die_and_uses_the_channel() {
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.set("gc.copyback=false").unwrap();
    let no_cb = run(&b.build().unwrap(), ReplayMode::OpenLoop, 15_000, true);
    let cb = run(&Config::default(), ReplayMode::OpenLoop, 15_000, true);
    assert_eq!(no_cb.requests.total, 15_000);
    // The same pages move either way; without copyback each move also crosses the channel twice.
    assert!(no_cb.gc.total_time_us > cb.gc.total_time_us);
    assert!(no_cb.latency_us.all.mean > cb.latency_us.all.mean);
}

#[test]
fn breakdown_parts_sum_to_the_mean_response_time() {
    for scheme in ["baseline", "zero"] {
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set(&format!("gc.scheme=\"{scheme}\"")).unwrap();
        b.set("host.queue_depth=4").unwrap();
        let r = run(&b.build().unwrap(), ReplayMode::OpenLoop, 20_000, false);
        let bd = &r.breakdown_us;
        let sum = bd.st + bd.csgc + bd.cogc + bd.lc + bd.cngc;
        assert!(
            (sum - r.latency_us.all.mean).abs() < 1e-6 * r.latency_us.all.mean,
            "{scheme}: {bd:?} sums to {sum}, mean {}",
            r.latency_us.all.mean
        );
        let u = &r.plane_util;
        assert!((u.host + u.gc + u.wait_other_gc + u.idle - 1.0).abs() < 1e-9);
        if scheme == "zero" {
            assert_eq!(bd.csgc + bd.cogc + bd.lc, 0.0);
            assert_eq!(u.gc + u.wait_other_gc, 0.0);
        } else {
            assert!(bd.csgc > 0.0 && bd.cogc > 0.0 && bd.lc > 0.0, "{bd:?}");
            assert!(u.gc > 0.0 && u.wait_other_gc > 0.0);
        }
    }
}
