//! AGC and DGC (AGC/DGC paper §5) in whole simulations: look-ahead GC runs before the write that
//! would have triggered GC, which then waits for none; DGC's reserve running out falls back to
//! on-demand GC and loses nothing; AGC+DGC erases no more blocks than the baseline on the same
//! workload; and every scheme of the family keeps the FTL's invariants.

use ssdgc_core::ageing::Precondition;
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

fn run(cfg: &Config, recs: Vec<IoRecord>, pre: Precondition) -> Report {
    let mut opts = RunOptions::from_config(cfg, 3).unwrap();
    opts.check = true;
    opts.check_every = 5_000;
    opts.precondition = pre;
    Simulator::new(
        cfg,
        Workload::from_records(recs, ReplayMode::OpenLoop, "test"),
        opts,
    )
    .unwrap()
    .run()
    .unwrap()
}

/// Single-page writes at uniformly random pages, one every `gap_ns`.
fn writes(n: usize, cfg: &Config, gap_ns: u64, seed: u64) -> Vec<IoRecord> {
    let logical = ssdgc_core::flash::Geometry::new(cfg).logical_bytes();
    common::random_records(n, logical, seed, gap_ns, 0.0, 1)
}

#[test]
fn look_ahead_gc_runs_before_the_write_that_would_trigger_it() {
    // Writes 400 ms apart (short idle periods: under gc.long_idle = 1 s). A GC of a 64-page
    // victim takes at most 64 × 0.65 ms + 3.6 ms (eq. 2), so the jobs a write needs fit before
    // it arrives.
    let base = config(&[]);
    let recs = writes(3_000, &base, 400_000_000, 5);
    let b = run(&base, recs.clone(), Precondition::Steady(1.0));
    assert!(b.gc.invocations > 50, "the baseline collects on demand");
    let cp = config(&["host.critical_path=true"]);
    let b2 = run(&cp, recs.clone(), Precondition::Steady(1.0));
    let waited = b2
        .schemes
        .critical_path
        .as_ref()
        .unwrap()
        .gc_overhead
        .total_us;
    assert!(waited > 0.0, "baseline writes wait for GC");
    assert!(
        b.latency_us.write.max > 10_000.0,
        "{}",
        b.latency_us.write.max
    );

    let a = run(&config(&["gc.scheme=agc"]), recs, Precondition::Steady(1.0));
    let s = a.schemes.agc.as_ref().expect("the agc section");
    assert!(s.look_ahead > 50, "{s:?}");
    assert_eq!(s.on_demand, 0, "no write found its GC due: {s:?}");
    assert_eq!(s.proactive, 0, "no long idle period");
    let cp = a.schemes.critical_path.as_ref().expect("always for agc");
    assert_eq!(cp.gc_overhead.total_us, 0.0, "no write waited for GC");
    assert_eq!(cp.idle.short, 2_999, "every gap is a short idle period");
    // Every write took its service time alone: one program and its transfer.
    assert!(
        a.latency_us.write.max < 1_000.0,
        "{}",
        a.latency_us.write.max
    );
    assert_eq!(a.requests.total, 3_000);
}

#[test]
fn dgc_reserve_running_out_falls_back_to_on_demand_gc_and_loses_nothing() {
    // Every request arrives at once: the dies are rarely idle, so little is compacted
    // retroactively and the delay blocks run out. No ageing, so the pages mapped at the end are
    // exactly those written. A 10% threshold: due below 7 free blocks, 4 delay blocks.
    let cfg = config(&["gc.scheme=dgc", "gc.threshold=0.1"]);
    assert_eq!(cfg.dgc_delay_blocks(), 4);
    let geo = ssdgc_core::flash::Geometry::new(&cfg);
    let recs = writes(3 * geo.logical_pages as usize, &cfg, 0, 8);
    let distinct: std::collections::BTreeSet<u64> = recs.iter().map(|r| r.offset / 4096).collect();
    let mut opts = RunOptions::from_config(&cfg, 3).unwrap();
    opts.check = true;
    opts.check_every = 20_000;
    opts.precondition = Precondition::None;
    let (r, ftl) = Simulator::new(
        &cfg,
        Workload::from_records(recs.clone(), ReplayMode::OpenLoop, "burst"),
        opts,
    )
    .unwrap()
    .run_into_ftl()
    .unwrap();
    let s = r.schemes.agc.as_ref().unwrap();
    assert!(s.delayed > 0, "{s:?}");
    assert!(s.dgc_fallbacks > 0, "{s:?}");
    assert_eq!(
        s.on_demand, s.dgc_fallbacks,
        "on demand only when the reserve is gone"
    );
    assert_eq!(r.requests.total, recs.len() as u64);
    assert_eq!(r.flash.host_pages_written, recs.len() as u64);
    assert_eq!(ftl.mapped_pages(), distinct.len() as u64, "no page lost");
    ftl.check().unwrap();
}

/// Bursts of writes and reads with idle gaps between them, some long.
fn bursty(cfg: &Config, seed: u64) -> Vec<IoRecord> {
    bursts(cfg, seed, 200, 50_000_000)
}

/// 8,000 requests (30% reads, 4 pages) in bursts of `burst` requests 0.5 ms apart, then an idle
/// gap of `gap_ns`, or 2 s every fifth burst.
fn bursts(cfg: &Config, seed: u64, burst: usize, gap_ns: u64) -> Vec<IoRecord> {
    let logical = ssdgc_core::flash::Geometry::new(cfg).logical_bytes();
    let mut recs = common::random_records(8_000, logical, seed, 0, 0.3, 4);
    let mut t = 0;
    for (i, r) in recs.iter_mut().enumerate() {
        t += if i % burst != 0 {
            500_000
        } else if i % (5 * burst) == 0 {
            2_000_000_000
        } else {
            gap_ns
        };
        r.time_ns = t;
    }
    recs
}

#[test]
fn agc_dgc_erases_no_more_than_the_baseline() {
    for seed in [1, 2, 3] {
        let base = config(&[]);
        let recs = bursty(&base, seed);
        let b = run(&base, recs.clone(), Precondition::Steady(1.0));
        let a = run(
            &config(&["gc.scheme=agc-dgc"]),
            recs,
            Precondition::Steady(1.0),
        );
        assert!(b.gc.invocations > 100, "seed {seed}: the baseline collects");
        assert!(
            a.flash.blocks_erased <= b.flash.blocks_erased,
            "seed {seed}: agc-dgc erased {} blocks, the baseline {}",
            a.flash.blocks_erased,
            b.flash.blocks_erased
        );
        let s = a.schemes.agc.as_ref().unwrap();
        assert!(s.hidden_share > 0.5, "seed {seed}: {s:?}");
        assert!(
            a.latency_us.all.max < b.latency_us.all.max,
            "seed {seed}: worst case {} vs {}",
            a.latency_us.all.max,
            b.latency_us.all.max
        );
    }
}

#[test]
fn every_scheme_of_the_family_keeps_the_invariants() {
    for scheme in ["agc", "dgc", "agc-dgc", "pftl"] {
        // Over the log-block FTLs (the paper's setting) with the settings they accept.
        for mapping in ["lftl", "hftl"] {
            for sets in [
                &[][..],
                &["gc.preempt=\"none\""][..],
                &["gc.suspend=\"all\"", "gc.long_idle=\"10ms\""][..],
                &["buffer.size=\"256KiB\"", "gc.collect=\"one\""][..],
            ] {
                let mut all = vec![
                    format!("gc.scheme=\"{scheme}\""),
                    format!("ftl.mapping={mapping}"),
                ];
                all.extend(sets.iter().map(|s| s.to_string()));
                let refs: Vec<&str> = all.iter().map(String::as_str).collect();
                let cfg = config(&refs);
                let recs = bursty(&cfg, 4);
                let r = run(&cfg, recs, Precondition::Steady(0.1));
                assert_eq!(r.requests.total, 8_000, "{mapping} {scheme} {sets:?}");
                assert!(r.gc.invocations > 0, "{mapping} {scheme} {sets:?}");
            }
        }
        for sets in [
            &[][..],
            &["gc.preempt=\"none\""][..],
            &["gc.planes=\"pagc-threshold\""][..],
            // Planned jobs: parallel migration and IPPBE (a job weighed and given up returns
            // every victim it chose).
            &["gc.migration=\"parallel\"", "gc.erase_blocks=2"][..],
            &["gc.suspend=\"all\"", "gc.long_idle=\"10ms\""][..],
            &["buffer.size=\"256KiB\"", "gc.collect=\"one\""][..],
        ] {
            let mut all = vec![format!("gc.scheme=\"{scheme}\"")];
            all.extend(sets.iter().map(|s| s.to_string()));
            let refs: Vec<&str> = all.iter().map(String::as_str).collect();
            let cfg = config(&refs);
            let recs = bursty(&cfg, 4);
            let r = run(&cfg, recs, Precondition::Steady(0.5));
            assert_eq!(r.requests.total, 8_000, "{scheme} {sets:?}");
            assert!(r.gc.invocations > 0, "{scheme} {sets:?}");
        }
    }
}

// The paper's setting (§6): AGC and DGC act on the on-demand GC of a log-block FTL, whose GC is a
// merge of a logical group.

#[test]
fn look_ahead_merges_before_the_write_that_would_trigger_them_under_log_block_ftls() {
    // As `look_ahead_gc_runs_before_the_write_that_would_trigger_it`: writes 400 ms apart, each
    // merge (at most a block's copies and n + m erases) fits before the next write arrives.
    for mapping in ["lftl", "hftl"] {
        let m = format!("ftl.mapping={mapping}");
        let base = config(&[&m]);
        let recs = writes(3_000, &base, 400_000_000, 5);
        let b = run(&base, recs.clone(), Precondition::Steady(1.0));
        assert!(
            b.gc.invocations > 50,
            "{mapping}: the baseline merges on demand"
        );
        assert!(
            b.latency_us.write.max > 10_000.0,
            "{mapping}: {}",
            b.latency_us.write.max
        );
        let a = run(
            &config(&[&m, "gc.scheme=agc"]),
            recs,
            Precondition::Steady(1.0),
        );
        let s = a.schemes.agc.as_ref().expect("the agc section");
        assert_eq!(
            s.on_demand, 0,
            "{mapping}: no write found its merge due: {s:?}"
        );
        assert_eq!(
            s.look_ahead, b.gc.invocations,
            "{mapping}: every merge the baseline did on demand is done ahead: {s:?}"
        );
        let cp = a.schemes.critical_path.as_ref().unwrap();
        assert_eq!(cp.gc_overhead.total_us, 0.0, "{mapping}: no write waited");
        assert!(
            a.latency_us.write.max < 1_000.0,
            "{mapping}: {}",
            a.latency_us.write.max
        );
        let f = a.ftl.as_ref().expect("the ftl section");
        let merges = f.merges.switch.count + f.merges.partial.count + f.merges.full.count;
        assert_eq!(merges, a.gc.invocations, "{mapping}: every job is a merge");
    }
}

#[test]
fn dgc_under_log_block_ftls_defers_merges_then_falls_back_losing_nothing() {
    // Every request at once, as in the page-mapped test: the delay blocks run out. A 10%
    // threshold: 4 delay blocks per plane under L-FTL (reserve 2), 3 under H-FTL (n + 1 = 3).
    for (mapping, delay) in [("lftl", 4), ("hftl", 3)] {
        let m = format!("ftl.mapping={mapping}");
        let cfg = config(&[&m, "gc.scheme=dgc", "gc.threshold=0.1"]);
        assert_eq!(cfg.dgc_delay_blocks(), delay, "{mapping}");
        let geo = ssdgc_core::flash::Geometry::new(&cfg);
        let recs = writes(geo.logical_pages as usize, &cfg, 0, 8);
        let distinct: std::collections::BTreeSet<u64> =
            recs.iter().map(|r| r.offset / 4096).collect();
        let mut opts = RunOptions::from_config(&cfg, 3).unwrap();
        opts.check = true;
        opts.check_every = 20_000;
        opts.precondition = Precondition::None;
        let (r, ftl) = Simulator::new(
            &cfg,
            Workload::from_records(recs.clone(), ReplayMode::OpenLoop, "burst"),
            opts,
        )
        .unwrap()
        .run_into_ftl()
        .unwrap();
        let s = r.schemes.agc.as_ref().unwrap();
        assert!(s.delayed > 0, "{mapping}: {s:?}");
        assert!(s.dgc_fallbacks > 0, "{mapping}: {s:?}");
        assert_eq!(s.on_demand, s.dgc_fallbacks, "{mapping}: {s:?}");
        assert_eq!(r.requests.total, recs.len() as u64);
        assert_eq!(r.flash.host_pages_written, recs.len() as u64);
        assert_eq!(
            ftl.mapped_pages(),
            distinct.len() as u64,
            "{mapping}: no page lost"
        );
        ftl.check().unwrap();
    }
}

#[test]
fn agc_dgc_erases_no_more_than_the_baseline_under_log_block_ftls() {
    // Every write to a group without room costs a merge (up to a block's copies), so the bursts
    // are shorter and the gaps longer than `bursty`'s; a 10% threshold leaves DGC 4 (L-FTL) or 3
    // (H-FTL) delay blocks per plane.
    for mapping in ["lftl", "hftl"] {
        let m = format!("ftl.mapping={mapping}");
        for seed in [1, 2] {
            let base = config(&[&m, "gc.threshold=0.1"]);
            let recs = bursts(&base, seed, 20, 500_000_000);
            let b = run(&base, recs.clone(), Precondition::Steady(0.2));
            let a = run(
                &config(&[&m, "gc.threshold=0.1", "gc.scheme=agc-dgc"]),
                recs,
                Precondition::Steady(0.2),
            );
            assert!(
                b.gc.invocations > 100,
                "{mapping} seed {seed}: the baseline merges"
            );
            assert!(
                a.flash.blocks_erased <= b.flash.blocks_erased,
                "{mapping} seed {seed}: agc-dgc erased {} blocks, the baseline {}",
                a.flash.blocks_erased,
                b.flash.blocks_erased
            );
            let s = a.schemes.agc.as_ref().unwrap();
            assert!(s.hidden_share > 0.5, "{mapping} seed {seed}: {s:?}");
            assert!(
                a.latency_us.all.max < b.latency_us.all.max,
                "{mapping} seed {seed}: worst case {} vs {}",
                a.latency_us.all.max,
                b.latency_us.all.max
            );
        }
    }
}
