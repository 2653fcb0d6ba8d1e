//! The log-block FTLs (L-FTL, H-FTL) through the shared GC mechanism and the simulator: each kind
//! of merge costs the flash operations its definition says (a switch merge one erase and no copy, a
//! partial merge the rest of a block and one erase, a full merge a block and two erases); a
//! sequential stream only switches, a random one thrashes; every *when* value runs over both
//! mappings with the invariants checked.

mod common;

use ssdgc_core::flash::{Geometry, Timing};
use ssdgc_core::ftl::{Ftl, MergeKind};
use ssdgc_core::gc::{self, GcOp};
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::rng::rng_for;
use ssdgc_core::{Config, ConfigBuilder, Report, RunOptions, Simulator};
use ssdgc_workload::{IoRecord, Op};

/// One plane of 32 blocks of 8 pages holding 24 logical blocks (logical page = plane index),
/// 1 µs command cycles; `sets` on top.
fn one_plane(sets: &[&str]) -> (Config, Ftl) {
    let mut b = ConfigBuilder::preset("default").unwrap();
    for s in [
        "geometry.channels=1",
        "geometry.chips_per_channel=1",
        "geometry.dies_per_chip=1",
        "geometry.planes_per_die=1",
        "geometry.blocks_per_plane=32",
        "geometry.pages_per_block=8",
        "geometry.overprovision=0.248",
        "gc.threshold=0.1",
        "timing.command=\"1us\"",
    ]
    .iter()
    .chain(sets)
    {
        b.set(s).unwrap();
    }
    let cfg = b.build().unwrap();
    let geo = Geometry::new(&cfg);
    assert_eq!(geo.logical_pages, 24 * 8);
    let ftl = Ftl::new(&cfg, &geo).unwrap();
    (cfg, ftl)
}

/// Runs the next merge of plane 0 through the GC mechanism; returns its kind, its operations and
/// its die time.
fn merge(cfg: &Config, ftl: &mut Ftl) -> (MergeKind, Vec<GcOp>, u64) {
    let t = Timing::new(cfg);
    let mut job = gc::start_job(ftl, 0, &mut rng_for(1, 0), 0).expect("a group to merge");
    let kind = job.merge_kind().expect("a log-block FTL's job is a merge");
    let mut ops = Vec::new();
    let mut time = 0;
    while let Some(op) = gc::dispatch_next(ftl, &mut job).unwrap() {
        let f = op.flash_op(&t, cfg.gc.copyback, 1);
        time += f.before + f.transfers as u64 * t.transfer + f.after;
        gc::complete(ftl, op);
        ops.push(op);
    }
    assert!(job.erase_issued() || ops.is_empty());
    ftl.check().unwrap();
    (kind, ops, time)
}

fn write(ftl: &mut Ftl, pages: impl IntoIterator<Item = u32>) {
    for p in pages {
        ftl.host_write(p).unwrap();
    }
}

fn moves_and_erases(ops: &[GcOp]) -> (usize, usize) {
    let moves = ops
        .iter()
        .filter(|o| matches!(o, GcOp::Move { .. }))
        .count();
    let erases = ops.iter().filter(|o| o.is_erase()).count();
    assert_eq!(moves + erases, ops.len(), "a merge is moves and erases");
    (moves, erases)
}

#[test]
fn each_merge_kind_costs_its_flash_operations() {
    for copyback in [true, false] {
        let (cfg, mut ftl) = one_plane(&["ftl.mapping=lftl", &format!("gc.copyback={copyback}")]);
        let t = Timing::new(&cfg);
        let (cmd, read, prog, erase) = (t.command, t.read, t.program, t.erase);
        let mv = if copyback {
            2 * cmd + read + prog
        } else {
            2 * cmd + read + prog + 2 * t.transfer
        };
        // Logical block 0 written in order, for the first time: its log block becomes its data
        // block with nothing to do, when the merge is planned: no job.
        write(&mut ftl, 0..8);
        assert!(ftl.needs_gc(0));
        assert!(gc::start_job(&mut ftl, 0, &mut rng_for(1, 0), 0).is_none());
        assert!(!ftl.needs_gc(0));
        assert_eq!(ftl.counters.merges[MergeKind::Switch as usize].count, 1);
        // Rewritten in order: a switch merge erases the old data block and copies nothing.
        write(&mut ftl, 0..8);
        let (kind, ops, time) = merge(&cfg, &mut ftl);
        assert_eq!((kind, moves_and_erases(&ops)), (MergeKind::Switch, (0, 1)));
        assert_eq!(time, cmd + erase, "one erase");
        // Pages 0..3 in order: a partial merge copies pages 3..8 and erases the old data block.
        write(&mut ftl, 0..3);
        let (kind, ops, time) = merge(&cfg, &mut ftl);
        assert_eq!((kind, moves_and_erases(&ops)), (MergeKind::Partial, (5, 1)));
        assert_eq!(time, 5 * mv + cmd + erase);
        // Out of order: a full merge copies the whole block and erases two.
        write(&mut ftl, [5, 1]);
        let (kind, ops, time) = merge(&cfg, &mut ftl);
        assert_eq!((kind, moves_and_erases(&ops)), (MergeKind::Full, (8, 2)));
        assert_eq!(time, 8 * mv + 2 * (cmd + erase));
        // The seam counted each kind.
        let m = ftl.counters.merges;
        let got: Vec<(u64, u64, u64)> = m
            .iter()
            .map(|k| (k.count, k.pages_copied, k.blocks_erased))
            .collect();
        assert_eq!(got, [(2, 0, 1), (1, 5, 1), (1, 8, 2)]);
        assert_eq!(ftl.counters.gc_pages_moved, 13);
        assert_eq!(ftl.counters.blocks_erased, 4);
        assert_eq!(ftl.counters.victims, 4, "each merge is one GC invocation");
    }
}

#[test]
fn an_h_ftl_merge_rewrites_its_group_into_fresh_blocks() {
    let (cfg, mut ftl) = one_plane(&[
        "ftl.mapping=hftl",
        "ftl.group_data_blocks=2",
        "ftl.group_update_blocks=2",
    ]);
    // Group 0 = logical blocks 0 and 1: give both a data block, then two update blocks' worth.
    write(&mut ftl, 0..16);
    // Each in order in an update block of its own: both switch at once, with no flash operation
    // and so no job.
    assert!(gc::start_job(&mut ftl, 0, &mut rng_for(1, 0), 0).is_none());
    assert_eq!(ftl.candidates(0), 0);
    assert_eq!(ftl.counters.merges[MergeKind::Switch as usize].count, 1);
    write(&mut ftl, (0..16).map(|i| (i % 2) * 8 + i / 2));
    assert!(ftl.needs_gc(0), "two full update blocks: the group is due");
    let (kind, ops, _) = merge(&cfg, &mut ftl);
    assert_eq!(kind, MergeKind::Full);
    assert_eq!(
        moves_and_erases(&ops),
        (16, 4),
        "both logical blocks copied; two data and two update blocks erased"
    );
}

/// Writes of `pages` 4 KiB pages each, one every `gap` ns, at the page offsets `offsets`.
fn writes(offsets: impl Iterator<Item = u64>, gap: u64) -> Vec<IoRecord> {
    offsets
        .enumerate()
        .map(|(i, page)| IoRecord {
            time_ns: i as u64 * gap,
            op: Op::Write,
            offset: page * 4096,
            len: 16 * 4096,
        })
        .collect()
}

fn run(cfg: &Config, recs: Vec<IoRecord>, precondition: &str) -> Report {
    let mut opts = RunOptions::from_config(cfg, 1).unwrap();
    opts.precondition = ssdgc_core::ageing::Precondition::parse(precondition, 2.0).unwrap();
    opts.check = true;
    opts.check_every = 5_000;
    Simulator::new(
        cfg,
        Workload::from_records(recs, ReplayMode::OpenLoop, "test"),
        opts,
    )
    .unwrap()
    .run()
    .unwrap()
}

fn config(sets: &[&str]) -> Config {
    let mut b = ConfigBuilder::preset("default").unwrap();
    for s in sets {
        b.set(s).unwrap();
    }
    b.build().unwrap()
}

#[test]
fn a_sequential_stream_only_switches_and_its_gc_time_is_its_erases() {
    let cfg = config(&["ftl.mapping=lftl", "timing.command=\"1us\""]);
    let g = Geometry::new(&cfg);
    // Every whole logical block rewritten in order, 16 pages per request, after a fill. (The last
    // logical block of each plane is only partly in the logical space: its log block, written in
    // order by the fill, is left alone.)
    let whole =
        (g.logical_pages / g.planes / g.pages_per_block * g.pages_per_block * g.planes) as u64;
    let recs = writes((0..whole / 16).map(|i| i * 16), 200_000);
    let r = run(&cfg, recs, "fill");
    let f = r.ftl.as_ref().expect("an ftl section under L-FTL");
    assert_eq!(f.mapping, "lftl");
    assert_eq!((f.merges.partial.count, f.merges.full.count), (0, 0));
    assert!(f.merges.switch.count > 1000, "{:?}", f.merges);
    assert_eq!(f.merges.switch.pages_copied, 0);
    assert_eq!(r.flash.gc_pages_moved, 0);
    assert_eq!(r.flash.blocks_erased, f.merges.switch.blocks_erased);
    let t = Timing::new(&cfg);
    let per_erase = (t.command + t.erase) as f64 / 1e3;
    assert!(
        (r.gc.total_time_us - f.merges.switch.blocks_erased as f64 * per_erase).abs() < 1e-6,
        "GC time {} µs, {} erases",
        r.gc.total_time_us,
        f.merges.switch.blocks_erased
    );
}

#[test]
fn random_writes_thrash_the_log_block_ftls() {
    let logical = Geometry::new(&config(&[])).logical_pages;
    let recs = common::random_records(3000, logical as u64 * 4096, 5, 300_000, 0.0, 1);
    let waf = |sets: &[&str]| run(&config(sets), recs.clone(), "steady:0.2");
    let page = waf(&[]);
    let l = waf(&["ftl.mapping=lftl"]);
    let h = waf(&["ftl.mapping=hftl"]);
    assert!(page.ftl.is_none(), "no ftl section under page mapping");
    // Nearly every write opens a log block and forces the merge of another holding a page or two.
    for (r, name) in [(&l, "lftl"), (&h, "hftl")] {
        let m = &r.ftl.as_ref().unwrap().merges;
        assert!(
            m.full.count * 10 >= (m.switch.count + m.partial.count + m.full.count) * 8,
            "{name}: {m:?}"
        );
        assert!(
            r.flash.waf > 10.0 * page.flash.waf,
            "{name}: WAF {} against the page-mapped FTL's {}",
            r.flash.waf,
            page.flash.waf
        );
    }
    // An H-FTL full merge rewrites both logical blocks of its group.
    let ppb = l.drive.pages_per_block as u64;
    let hf = &h.ftl.as_ref().unwrap().merges.full;
    assert!(hf.pages_copied > hf.count * ppb, "{hf:?}");
    let lf = &l.ftl.as_ref().unwrap().merges.full;
    assert!(lf.pages_copied <= lf.count * ppb, "{lf:?}");
}

#[test]
fn every_when_value_runs_over_both_mappings() {
    let logical = Geometry::new(&config(&[])).logical_pages;
    // Bursts of writes and reads with idle gaps between them.
    let mut recs = common::random_records(2500, logical as u64 * 4096, 9, 0, 0.3, 4);
    for (i, r) in recs.iter_mut().enumerate() {
        r.time_ns = (i as u64 / 50) * 40_000_000 + (i as u64 % 50) * 100_000;
    }
    for mapping in ["lftl", "hftl"] {
        for (scheme, extra) in [
            ("baseline", ""),
            ("baseline", "gc.collect=one"),
            ("idle", ""),
            ("pgc-none", ""),
            ("pgc-pipeline", ""),
            ("fpgc", "gc.merge=false"),
            ("practical", ""),
            ("zero", ""),
            ("agc", ""),
            ("dgc", ""),
            ("agc-dgc", ""),
            ("agc-dgc", "gc.agc_threshold=0.5"),
            ("pftl", ""),
        ] {
            let mut sets = vec![
                format!("ftl.mapping={mapping}"),
                format!("gc.scheme={scheme}"),
                "precondition.overwrites=0.3".to_string(),
            ];
            if !extra.is_empty() {
                sets.push(extra.to_string());
            }
            let sets: Vec<&str> = sets.iter().map(String::as_str).collect();
            let cfg = config(&sets);
            let r = common::run_checked(&cfg, recs.clone(), 1, 2_000)
                .unwrap_or_else(|e| panic!("{mapping} {scheme} {extra}: {e}"));
            assert_eq!(r.requests.total, recs.len() as u64);
            let f = r.ftl.as_ref().unwrap();
            let merges = f.merges.switch.count + f.merges.partial.count + f.merges.full.count;
            assert!(merges > 0, "{mapping} {scheme} {extra}: no merge");
            assert_eq!(merges, r.gc.invocations);
            if scheme == "idle" {
                let idle = r.schemes.idle.as_ref().unwrap().idle_jobs;
                assert!(idle > 0, "{mapping}: no merge in idle time");
            }
            if scheme == "zero" {
                assert_eq!(r.gc.total_time_us, 0.0);
            }
            if let Some(a) = r.schemes.agc.as_ref() {
                // Every merge is counted by its kind (tests/agc.rs checks which kinds run).
                let by_kind = a.on_demand + a.look_ahead + a.proactive + a.retroactive;
                assert_eq!(
                    by_kind, r.gc.invocations,
                    "{mapping} {scheme} {extra}: {a:?}"
                );
            }
        }
    }
}
