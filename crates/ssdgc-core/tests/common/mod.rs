//! Shared pieces of the integration tests: a seeded random workload and a run under invariant
//! checking.
#![allow(dead_code)] // each test file uses a part

use rand::{Rng, SeedableRng};
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::{Config, Report, RunOptions, SimError, Simulator};
use ssdgc_workload::{IoRecord, Op};

/// `n` requests, one every `gap_ns`: a `read_share` of reads, the rest writes, each of 1 to
/// `max_pages` 4 KiB pages at a uniformly random aligned offset.
pub fn random_records(
    n: usize,
    logical_bytes: u64,
    seed: u64,
    gap_ns: u64,
    read_share: f64,
    max_pages: u64,
) -> Vec<IoRecord> {
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    (0..n)
        .map(|i| IoRecord {
            time_ns: i as u64 * gap_ns,
            op: if rng.gen_bool(read_share) {
                Op::Read
            } else {
                Op::Write
            },
            offset: rng.gen_range(0..logical_bytes / 4096) * 4096,
            len: 4096 * rng.gen_range(1..=max_pages),
        })
        .collect()
}

/// Replays `recs` open loop on `cfg` with seed `seed`, checking the FTL's invariants every
/// `check_every` events.
pub fn run_checked(
    cfg: &Config,
    recs: Vec<IoRecord>,
    seed: u64,
    check_every: u64,
) -> Result<Report, SimError> {
    let mut opts = RunOptions::from_config(cfg, seed).unwrap();
    opts.check = true;
    opts.check_every = check_every;
    Simulator::new(
        cfg,
        Workload::from_records(recs, ReplayMode::OpenLoop, "test"),
        opts,
    )?
    .run()
}
