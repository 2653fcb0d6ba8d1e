//! The run loop's handling of errors: a drive's error ends the run at its event, with that error.

use std::sync::{Arc, Mutex};

use super::*;
use crate::ageing::Precondition;
use crate::gc::scheme::{Action, DieContext, GcScheme};
use crate::host::ReplayMode;
use crate::ConfigBuilder;
use ssdgc_workload::{IoRecord, Op};

const MS: SimTime = 1_000_000;

/// A scheme with no GC that serves its host queue until `from`, then chooses a GC job that
/// does not exist; it logs the time of each decision.
struct FailsFrom {
    from: SimTime,
    log: Arc<Mutex<Vec<SimTime>>>,
}

impl GcScheme for FailsFrom {
    fn next(&mut self, cx: &mut DieContext<'_>) -> Action {
        self.log.lock().unwrap().push(cx.now);
        if cx.now >= self.from {
            Action::Gc(7)
        } else if cx.queue().is_empty() {
            Action::Idle
        } else {
            Action::Host(0)
        }
    }
}

/// Runs `records` (replayed as `mode`, not preconditioned) on `cfg`, with drive `drive`'s scheme
/// failing from `from`: the run's error and the times of that scheme's decisions.
fn run_failing(
    cfg: &Config,
    records: Vec<IoRecord>,
    mode: ReplayMode,
    drive: usize,
    from: SimTime,
) -> (SimError, Vec<SimTime>) {
    let mut opts = RunOptions::from_config(cfg, 1).unwrap();
    opts.precondition = Precondition::None;
    let wl = Workload::from_records(records, mode, "fails");
    let mut sim = Simulator::new(cfg, wl, opts).unwrap();
    let log = Arc::new(Mutex::new(Vec::new()));
    sim.set_scheme(
        drive,
        Box::new(FailsFrom {
            from,
            log: log.clone(),
        }),
    );
    let e = sim.run().expect_err("the drive's error ends the run");
    let log = log.lock().unwrap().clone();
    (e, log)
}

/// `n` 4 KiB writes, write `i` at `i × gap` ns and at byte `i << shift`.
fn writes(n: u64, gap: SimTime, shift: u32) -> Vec<IoRecord> {
    (0..n)
        .map(|i| IoRecord {
            time_ns: i * gap,
            op: Op::Write,
            offset: i << shift,
            len: 4096,
        })
        .collect()
}

#[test]
fn a_drive_error_stops_the_run_at_its_event() {
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.set("array.drives=2").unwrap();
    let cfg = b.build().unwrap();
    // One 4 KiB write per millisecond, a stripe chunk (64 KiB) apart: the drives take turns.
    let (e, log) = run_failing(&cfg, writes(20, MS, 16), ReplayMode::OpenLoop, 1, 5 * MS);
    let failed = *log
        .iter()
        .find(|&&t| t >= 5 * MS)
        .expect("a decision from 5 ms");
    match e {
        SimError::Invariant { time_ns, msg } => {
            assert_eq!(time_ns, failed);
            assert_eq!(msg, "drive 1: scheme chose GC job 7, which does not exist");
        }
        e => panic!("another error: {e}"),
    }
    // Nothing ran after the event that failed.
    assert_eq!(log.last(), Some(&failed), "{log:?}");
}

#[test]
fn an_error_before_the_first_event_ends_the_run_with_it() {
    let cfg = ConfigBuilder::preset("default").unwrap().build().unwrap();
    // A closed loop's first requests are queued before any event runs, and the scheme's first
    // decision fails: no event is ever scheduled.
    let (e, log) = run_failing(&cfg, writes(4, 0, 12), ReplayMode::ClosedLoop(2), 0, 0);
    match e {
        SimError::Invariant { time_ns, msg } => {
            assert_eq!(time_ns, 0);
            assert_eq!(msg, "scheme chose GC job 7, which does not exist");
        }
        e => panic!("another error: {e}"),
    }
    // Both first requests were queued (and decided on) before the run loop.
    assert_eq!(log, [0, 0]);
}
