//! The host write buffer (`[buffer]`): acknowledgement and read-hit latency, flushing, and that no
//! write is lost.

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use ssdgc_core::ageing::Precondition;
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::{Config, ConfigBuilder, RunOptions, Simulator};
use ssdgc_workload::{IoRecord, Op};

fn cfg_with(sets: &[&str]) -> Config {
    let mut b = ConfigBuilder::preset("default").unwrap();
    for s in sets {
        b.set(s).unwrap();
    }
    b.build().unwrap()
}

fn mixed(n: usize, logical_pages: u64, gap_ns: u64, seed: u64) -> Vec<IoRecord> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..n)
        .map(|i| IoRecord {
            time_ns: i as u64 * gap_ns,
            op: if rng.gen_bool(0.4) {
                Op::Read
            } else {
                Op::Write
            },
            // A small hot range, so that reads hit buffered pages and writes overwrite them.
            offset: rng.gen_range(0..logical_pages.min(4096)) * 4096,
            len: 4096 * rng.gen_range(1..9),
        })
        .collect()
}

fn written_pages(recs: &[IoRecord], logical_pages: u64) -> BTreeSet<u32> {
    let mut w = BTreeSet::new();
    for r in recs.iter().filter(|r| r.op == Op::Write) {
        let first = r.offset / 4096;
        let last = (r.offset + r.len - 1) / 4096;
        for p in first..=last {
            w.insert((p % logical_pages) as u32);
        }
    }
    w
}

fn run(
    cfg: &Config,
    recs: Vec<IoRecord>,
    mode: ReplayMode,
) -> (ssdgc_core::Report, ssdgc_core::ftl::Ftl) {
    let mut opts = RunOptions::from_config(cfg, 42).unwrap();
    opts.precondition = Precondition::None;
    opts.check = true;
    opts.check_every = 2_000;
    Simulator::new(cfg, Workload::from_records(recs, mode, "test"), opts)
        .unwrap()
        .run_into_ftl()
        .unwrap()
}

#[test]
fn every_request_completes_and_no_write_is_lost() {
    for (size, mode, gap) in [
        ("\"64KiB\"", ReplayMode::ClosedLoop(16), 0),
        ("\"1MiB\"", ReplayMode::OpenLoop, 300_000),
        ("\"1MiB\"", ReplayMode::OpenLoop, 3_000_000),
    ] {
        let cfg = cfg_with(&[&format!("buffer.size={size}")]);
        let geo = ssdgc_core::flash::Geometry::new(&cfg);
        let logical = geo.logical_pages as u64;
        let recs = mixed(6_000, logical, gap, 5);
        let written = written_pages(&recs, logical);
        let (r, ftl) = run(&cfg, recs, mode);
        assert_eq!(r.requests.total, 6_000, "{size} {mode:?}");
        let buffer = r.buffer.as_ref().expect("a buffer section");
        assert!(buffer.writes_absorbed > 0, "{size} {mode:?}");
        if gap == 0 {
            // With no idle time pages stay buffered long enough for reads to find them.
            assert!(buffer.hits_read > 0, "{size} {mode:?}");
        }
        assert!(buffer.pages_flushed > 0, "{size} {mode:?}");
        ftl.check().unwrap();
        assert_eq!(ftl.mapped_pages(), written.len() as u64, "{size} {mode:?}");
        for &l in &written {
            assert!(ftl.lookup(l).is_some(), "page {l} lost ({size} {mode:?})");
        }
    }
}

#[test]
fn small_buffer_sends_writes_that_do_not_fit_to_flash() {
    let cfg = cfg_with(&["buffer.size=\"16KiB\""]);
    let geo = ssdgc_core::flash::Geometry::new(&cfg);
    let logical = geo.logical_pages as u64;
    let recs = mixed(3_000, logical, 0, 9);
    let written = written_pages(&recs, logical);
    let (r, ftl) = run(&cfg, recs, ReplayMode::ClosedLoop(8));
    assert_eq!(r.requests.total, 3_000);
    let buffer = r.buffer.as_ref().expect("a buffer section");
    assert!(buffer.writes_bypassed > 0);
    assert!(buffer.writes_absorbed > 0);
    assert_eq!(ftl.mapped_pages(), written.len() as u64);
}

#[test]
fn buffered_writes_and_reads_take_the_buffer_latency() {
    let cfg = cfg_with(&["buffer.size=\"1MiB\"", "buffer.latency=\"50ns\""]);
    // Writes 5 ms apart (each flushed in the idle time after it); each read follows its write by
    // 10 ns, while the page is still buffered.
    let mut recs = Vec::new();
    for i in 0..200u64 {
        let t = i * 5_000_000;
        let offset = (i * 7 % 500) * 4096;
        recs.push(IoRecord {
            time_ns: t,
            op: Op::Write,
            offset,
            len: 4096 * (1 + i % 4),
        });
        recs.push(IoRecord {
            time_ns: t + 10,
            op: Op::Read,
            offset,
            len: 4096,
        });
    }
    let (r, _) = run(&cfg, recs, ReplayMode::OpenLoop);
    assert_eq!(r.requests.total, 400);
    let buffer = r.buffer.as_ref().expect("a buffer section");
    assert_eq!(buffer.writes_absorbed, 200);
    assert_eq!(buffer.hits_read, 200);
    assert_eq!(r.latency_us.write.max, 0.05);
    assert_eq!(r.latency_us.read.max, 0.05);
    assert_eq!(buffer.size_bytes, 1 << 20);
    assert_eq!(
        buffer.pages_flushed,
        (0..200u64).map(|i| 1 + i % 4).sum::<u64>()
    );
    // The flushes are host page writes to flash.
    assert_eq!(r.flash.host_pages_written, buffer.pages_flushed);
}

#[test]
fn without_a_buffer_the_report_is_unchanged() {
    let base = Config::default();
    assert_eq!(base.buffer.size.0, 0);
    let other = cfg_with(&["buffer.latency=\"50ns\""]);
    let geo = ssdgc_core::flash::Geometry::new(&base);
    let recs = mixed(4_000, geo.logical_pages as u64, 100_000, 3);
    let (mut a, _) = run(&base, recs.clone(), ReplayMode::OpenLoop);
    let (mut b, _) = run(&other, recs, ReplayMode::OpenLoop);
    a.sim.wall_s = 0.0;
    b.sim.wall_s = 0.0;
    assert_eq!(a, b);
    assert_eq!(a.buffer, None, "no buffer section without a buffer");
}

#[test]
fn buffer_settings_are_validated() {
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.set("buffer.size=\"1KiB\"").unwrap();
    assert!(b.build().is_err());
    let mut b = ConfigBuilder::preset("default").unwrap();
    assert!(b.set("buffer.latency=\"fast\"").is_err());
    assert!(b.set("buffer.colour=1").is_err());
}
