//! Fixtures for the schemes' unit tests: a small die, a way to bring a plane to a given number of
//! free blocks, and one scheme decision on that die.

use std::collections::VecDeque;

use super::{Action, DieContext, GcScheme, QueuedTxn};
use crate::config::Config;
use crate::flash::Geometry;
use crate::ftl::Ftl;
use crate::gc::GcJob;
use crate::rng::rng_for;
use crate::ConfigBuilder;

/// One die of two planes, 32 blocks of 8 pages, half the space spare, GC threshold 20 % (7 blocks),
/// with `extra` settings on top.
pub(crate) fn small_die(extra: &[&str]) -> (Config, Ftl) {
    let mut b = ConfigBuilder::preset("default").expect("default preset");
    for s in [
        "geometry.channels=1",
        "geometry.chips_per_channel=1",
        "geometry.dies_per_chip=1",
        "geometry.blocks_per_plane=32",
        "geometry.pages_per_block=8",
        "geometry.overprovision=0.5",
        "gc.threshold=0.2",
    ]
    .iter()
    .chain(extra)
    {
        b.set(s).expect("a valid setting");
    }
    let cfg = b.build().expect("a valid drive");
    let ftl = Ftl::new(&cfg, &Geometry::new(&cfg)).expect("an FTL");
    (cfg, ftl)
}

/// Overwrites plane 0's logical pages until it has `free` free blocks.
pub(crate) fn fill_plane0(ftl: &mut Ftl, free: u32) {
    let lpns: Vec<u32> = (0..ftl.geometry().logical_pages)
        .filter(|&l| ftl.plane_of(l) == 0)
        .collect();
    let mut i = 0;
    while ftl.free_blocks(0) > free {
        ftl.host_write(lpns[i % lpns.len()]).expect("a write");
        i += 1;
    }
}

/// The scheme `name` for the drive of `cfg`.
pub(crate) fn scheme(name: &str, cfg: &Config) -> Box<dyn GcScheme> {
    super::build(name, cfg).expect("a known scheme")
}

/// One decision of `scheme` for die 0 with `queue` waiting and `jobs` in progress.
pub(crate) fn decide(
    scheme: &mut dyn GcScheme,
    ftl: &mut Ftl,
    queue: &[QueuedTxn],
    jobs: &mut Vec<GcJob>,
    device_idle: bool,
) -> Action {
    decide_with_commands(scheme, ftl, queue, jobs, device_idle, 0)
}

/// [`decide`] with `commands` host commands in the drive's device queue.
pub(crate) fn decide_with_commands(
    scheme: &mut dyn GcScheme,
    ftl: &mut Ftl,
    queue: &[QueuedTxn],
    jobs: &mut Vec<GcJob>,
    device_idle: bool,
    commands: u32,
) -> Action {
    let mut rng = rng_for(1, 1);
    let q: VecDeque<QueuedTxn> = queue.iter().copied().collect();
    let mut error = crate::engine::ErrorSlot::new(&Default::default());
    let mut view = super::DriveView::default();
    for id in 0..commands {
        view.commands.insert(
            id,
            super::Command {
                write: true,
                first: id,
                pages: 1,
                arrival: 0,
                seq: u64::from(id),
            },
        );
    }
    let mut cx = DieContext {
        now: 0,
        die: 0,
        device_idle,
        woken: false,
        view: &view,
        wake: None,
        ftl,
        rng: &mut rng,
        queue: &q,
        jobs,
        error: &mut error,
    };
    scheme.next(&mut cx)
}

/// A decision of `scheme` for die 0 at time `now`, with the device idle since `idle_since`
/// (`None`: busy) and `announced` the next command's pre-information. Returns the action and what
/// the scheme asked of the timer.
#[allow(clippy::too_many_arguments)]
pub(crate) fn decide_at(
    scheme: &mut dyn GcScheme,
    ftl: &mut Ftl,
    queue: &[QueuedTxn],
    jobs: &mut Vec<GcJob>,
    now: crate::units::SimTime,
    idle_since: Option<crate::units::SimTime>,
    announced: Option<super::Command>,
) -> (Action, Option<super::Wake>) {
    let mut rng = rng_for(1, 1);
    let q: VecDeque<QueuedTxn> = queue.iter().copied().collect();
    let mut error = crate::engine::ErrorSlot::new(&Default::default());
    let view = super::DriveView {
        idle_since: idle_since.unwrap_or(0),
        timer: None,
        commands: super::DeviceQueue::default(),
        announced,
    };
    let mut cx = DieContext {
        now,
        die: 0,
        device_idle: idle_since.is_some(),
        woken: false,
        view: &view,
        wake: None,
        ftl,
        rng: &mut rng,
        queue: &q,
        jobs,
        error: &mut error,
    };
    let a = scheme.next(&mut cx);
    let wake = cx.wake;
    assert!(error.is_none(), "the FTL failed: {error:?}");
    (a, wake)
}
