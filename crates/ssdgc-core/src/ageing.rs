//! Ageing (preconditioning): bring the drive to a used state before measuring, without simulating
//! time.
//!
//! A driver above the FTL and the GC mechanism: it writes through [`Ftl::host_write`] and collects
//! with [`gc::collect_now`], as the host and an instant GC would, so the FTL itself needs to know
//! nothing of GC.
//!
//! `fill` writes every logical page once, sequentially. `steady` then overwrites uniformly random
//! single pages, `overwrites` × the logical capacity of them, collecting instantly (the shared GC
//! mechanism with no time) whenever a plane falls below the GC threshold, so the free pools, the
//! victims' validity and the wear reach the state the measured run would have reached after that much
//! writing. The default of 2× capacity brings greedy to its steady-state write amplification on the
//! drives of the presets (the fidelity tests in `tests/fidelity.rs` measure it). Work counters
//! (pages written and moved, blocks erased, victims) are reset afterwards, so the report's flash and
//! GC statistics cover the measured run only; erase counts per block are physical wear and keep the
//! preconditioning's erases.

use rand::Rng;

use crate::ftl::{Ftl, FtlError};
use crate::gc;
use crate::rng::SimRng;

/// How to precondition.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Precondition {
    /// Start from an empty drive.
    None,
    /// Write every logical page once, in order.
    Fill,
    /// Fill, then random single-page overwrites, as a multiple of the logical capacity.
    Steady(f64),
}

impl Precondition {
    /// Parses `none`, `fill`, `steady` or `steady:N`.
    pub fn parse(s: &str, default_overwrites: f64) -> Result<Self, String> {
        match s {
            "none" => Ok(Precondition::None),
            "fill" => Ok(Precondition::Fill),
            "steady" => Ok(Precondition::Steady(default_overwrites)),
            _ => match s.strip_prefix("steady:").map(str::parse::<f64>) {
                Some(Ok(n)) if (0.0..=1000.0).contains(&n) => Ok(Precondition::Steady(n)),
                _ => Err(format!(
                    "'{s}' is not a precondition: use none, fill, steady or steady:N (N = overwrites as a multiple of capacity)"
                )),
            },
        }
    }
}

/// Writes `lpn` with host data, collecting instantly first while its plane is short of free blocks.
///
/// A victim with an invalid page gains free space; a fully valid one (which `random`, `fifo`,
/// `rga` or `wear-aware` may pick) moves its pages into exactly one block of the GC write point and
/// gains nothing, but loses nothing either. The minimum-spare rule of validation guarantees that
/// a victim with an invalid page exists whenever a plane is below its threshold, so collection goes
/// on until the plane is above it; it gives up only when no candidate is left or after
/// `64 × blocks_per_plane` fruitless victims in a row (for a uniform random choice among at most
/// `blocks_per_plane` candidates, a chance below e^-64).
pub fn write_instant(ftl: &mut Ftl, lpn: u32, rng: &mut SimRng) -> Result<(), FtlError> {
    let plane = ftl.plane_of(lpn);
    let ppb = ftl.geometry().pages_per_block;
    let futile_limit = 64 * u64::from(ftl.geometry().blocks_per_plane);
    let mut futile = 0u64;
    while ftl.needs_gc(plane) {
        let Some(job) = gc::collect_now(ftl, plane, rng, 0)? else {
            break;
        };
        if job.valid_at_pick >= ppb {
            futile += 1;
            if futile >= futile_limit {
                break;
            }
        } else {
            futile = 0;
        }
    }
    ftl.host_write(lpn).map(|_| ())
}

/// Runs the preconditioning and resets the counters; `progress(done, total)` is called every
/// 2^20 page writes.
pub fn run(
    ftl: &mut Ftl,
    how: Precondition,
    rng: &mut SimRng,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(), FtlError> {
    let logical = ftl.geometry().logical_pages;
    let overwrites = match how {
        Precondition::Steady(n) => (n * logical as f64).round() as u64,
        _ => 0,
    };
    let total = if how == Precondition::None {
        0
    } else {
        logical as u64 + overwrites
    };
    let mut done = 0u64;
    let mut tick = |done: u64| {
        if done & 0xF_FFFF == 0 {
            progress(done, total);
        }
    };
    if how != Precondition::None {
        for lpn in 0..logical {
            write_instant(ftl, lpn, rng)?;
            done += 1;
            tick(done);
        }
    }
    for _ in 0..overwrites {
        let lpn = rng.gen_range(0..logical);
        write_instant(ftl, lpn, rng)?;
        done += 1;
        tick(done);
    }
    ftl.reset_counters();
    Ok(())
}
