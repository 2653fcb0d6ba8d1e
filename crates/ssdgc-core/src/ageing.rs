//! Ageing (preconditioning): bring the drive to a used state before measuring, without simulating
//! time.
//!
//! `trace` ([`trace`]) preconditions with the workload itself, as the parallel-page-migration paper
//! does (§V-A-3, after MQSim, its ref. \[10\]): first every page the workload reads ("the write
//! operation should be performed before reading the data"), then every page it writes; while some
//! logical page has never been written, the workload's pages again, shifted by `r × E` pages in
//! round `r` (`E` one past the highest page it touches), folded onto the logical space — "we shift
//! the LBAs of workloads to generate new write requests to fill the remaining space". The shifted
//! rounds write at most twice the logical capacity; pages still unwritten then (a workload whose
//! shifted copies keep landing on the same pages) are written in order. Then
//! `precondition.overwrites` × the logical capacity of the workload's own writes, replayed from its
//! start as often as needed (a synthetic workload draws a new sample of its generator for each
//! replay instead, so that a short run of a generator does not turn into a small hot set): the
//! paper's traces write many gigabytes and reach the GC threshold in their own run, which the short
//! shared stand-ins do not; these overwrites bring the drive there with the workload's own write
//! pattern (`overwrites = 0` is the paper's fill alone).
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
//!
//! On a page-mapped drive (without hot/cold separation) `fill` and `steady` age the planes apart,
//! in parallel (`ageing/planes.rs`): static allocation gives each plane a fixed share of the logical space
//! and GC never moves a page out of its plane, so each plane writes its own pages in order and then
//! its share of the overwrites, drawn from a random stream of its own; the aged state is the same
//! whatever the number of threads.
//!
//! [`state`] keeps an aged drive as a value ([`state::AgedState`]) with the inputs it was aged
//! under ([`state::AgeingKey`]): runs whose inputs are equal age once and share it, and a file
//! keeps it across runs.

mod planes;
pub mod state;

pub use state::{AgedState, AgeingKey};

use rand::Rng;

use crate::ftl::{Ftl, FtlError};
use crate::gc;
use crate::rng::{drive_stream, rng_for, streams, SimRng};

/// How to precondition.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Precondition {
    /// Start from an empty drive.
    None,
    /// Write every logical page once, in order.
    Fill,
    /// Fill, then random single-page overwrites, as a multiple of the logical capacity.
    Steady(f64),
    /// The workload itself ([`trace`]), then its writes again, as a multiple of the logical
    /// capacity.
    Trace(f64),
}

impl Precondition {
    /// Parses `none`, `fill`, `steady`, `steady:N`, `trace` or `trace:N`.
    pub fn parse(s: &str, default_overwrites: f64) -> Result<Self, String> {
        let n = |rest: &str| match rest.parse::<f64>() {
            Ok(n) if (0.0..=1000.0).contains(&n) => Some(n),
            _ => None,
        };
        let parsed = match s {
            "none" => Some(Precondition::None),
            "fill" => Some(Precondition::Fill),
            "steady" => Some(Precondition::Steady(default_overwrites)),
            "trace" => Some(Precondition::Trace(default_overwrites)),
            _ => match (s.strip_prefix("steady:"), s.strip_prefix("trace:")) {
                (Some(r), _) => n(r).map(Precondition::Steady),
                (_, Some(r)) => n(r).map(Precondition::Trace),
                _ => None,
            },
        };
        parsed.ok_or_else(|| {
            format!(
                "'{s}' is not a precondition: use none, fill, steady, steady:N, trace or trace:N (N = overwrites as a multiple of capacity)"
            )
        })
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

/// Runs the preconditioning of drive `drive` with the preconditioning streams of `seed` and
/// resets the counters; `progress(done, total)` hears about it now and then (every 2^20 page
/// writes when the drive is aged as one, after each group of planes when its planes are aged
/// apart).
///
/// A fresh page-mapped drive without hot/cold separation ([`Ftl::planes_separable`]) is aged
/// plane by plane, in parallel on rayon's threads (`ageing/planes.rs`): each plane writes its own logical
/// pages in order and then draws its share of the overwrites from a stream of its own, so the aged
/// state does not depend on the number of threads. Otherwise (the log-block FTLs, hot/cold
/// classification) the drive is aged as one, from the drive's preconditioning stream
/// (`drive_stream(drive, PRECONDITION)`).
pub fn run(
    ftl: &mut Ftl,
    how: Precondition,
    seed: u64,
    drive: u32,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(), FtlError> {
    let logical = ftl.geometry().logical_pages;
    let overwrites = match how {
        Precondition::None => {
            ftl.reset_counters();
            return Ok(());
        }
        Precondition::Fill => 0.0,
        Precondition::Steady(n) => n,
        Precondition::Trace(_) => {
            unreachable!("trace preconditioning needs the workload: ageing::trace")
        }
    };
    if ftl.planes_separable() {
        planes::run(ftl, overwrites, seed, drive, progress)?;
        ftl.reset_counters();
        return Ok(());
    }
    let mut rng = rng_for(seed, drive_stream(drive, streams::PRECONDITION));
    let rng = &mut rng;
    let overwrites = (overwrites * logical as f64).round() as u64;
    let total = logical as u64 + overwrites;
    let mut done = 0u64;
    let mut tick = |done: u64| {
        if done & 0xF_FFFF == 0 {
            progress(done, total);
        }
    };
    for lpn in 0..logical {
        write_instant(ftl, lpn, rng)?;
        done += 1;
        tick(done);
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

/// One request's pages, as trace preconditioning reads them: a write or a read, its first page of
/// the logical space (before folding) and its page count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pages {
    pub write: bool,
    pub first: u64,
    pub count: u64,
}

/// Most requests trace preconditioning keeps in memory to replay; a longer workload is read again
/// from its source for each pass (it then needs few passes).
pub const TRACE_KEPT: usize = 1 << 20;

/// What trace preconditioning writes through: one logical page of the drive (or array) at a time.
pub trait PageSink {
    /// Writes page `page` (below the logical space) at once, collecting first as needed.
    fn write(&mut self, page: u64) -> Result<(), FtlError>;
    /// True when page `page` holds data.
    fn is_mapped(&self, page: u64) -> bool;
}

/// The page writes of trace preconditioning, and the first FTL error (later writes are dropped).
struct Filler<'a> {
    sink: &'a mut dyn PageSink,
    logical: u64,
    /// Logical pages holding data.
    mapped: u64,
    /// Page writes done.
    written: u64,
    failed: Option<FtlError>,
}

impl Filler<'_> {
    fn put(&mut self, page: u64) {
        if self.failed.is_some() {
            return;
        }
        let p = page % self.logical;
        let new = !self.sink.is_mapped(p);
        match self.sink.write(p) {
            Ok(()) => {
                self.written += 1;
                self.mapped += u64::from(new);
            }
            Err(e) => self.failed = Some(e),
        }
    }
}

/// Calls its visitor once per request of a sample of the workload ([`trace`]).
pub type Replay<'a, E> = dyn FnMut(u64, &mut dyn FnMut(Pages)) -> Result<(), E> + 'a;

/// Trace preconditioning (module docs): `replay(k, visit)` calls `visit` once per request of sample
/// `k` of the workload, in order; sample 0 is the workload itself, and when `samples` is true the
/// overwrites take samples 1, 2, … (a synthetic workload's new requests; otherwise sample 0 again).
/// The pages go to `sink`, over a logical space of `logical` pages; `overwrites` × `logical` page
/// writes of the workload's writes follow the fill. Returns the page writes done.
pub fn trace<E>(
    replay: &mut Replay<'_, E>,
    samples: bool,
    sink: &mut dyn PageSink,
    logical: u64,
    overwrites: f64,
) -> Result<u64, E>
where
    E: From<FtlError>,
{
    if logical == 0 {
        return Ok(0);
    }
    // Keep the requests in memory when there are few (the usual short trace), else replay.
    let mut kept: Vec<Pages> = Vec::new();
    let mut too_many = false;
    let mut extent = 0u64;
    replay(0, &mut |p| {
        extent = extent.max(p.first.saturating_add(p.count));
        if kept.len() < TRACE_KEPT {
            kept.push(p);
        } else {
            too_many = true;
        }
    })?;
    // Sample `k` of the workload: the kept requests when it is the workload itself.
    let mut each = |k: u64, f: &mut dyn FnMut(Pages)| -> Result<(), E> {
        if too_many || (samples && k > 0) {
            replay(k, f)
        } else {
            kept.iter().copied().for_each(f);
            Ok(())
        }
    };
    let mapped = (0..logical).filter(|&p| sink.is_mapped(p)).count() as u64;
    let mut w = Filler {
        sink,
        logical,
        mapped,
        written: 0,
        failed: None,
    };
    // 1. The pages the workload reads, then 2. those it writes.
    for want_write in [false, true] {
        each(0, &mut |p| {
            if p.write == want_write {
                for i in 0..p.count {
                    w.put(p.first.wrapping_add(i));
                }
            }
        })?;
    }
    // 3. Shifted copies until every page is written, at most twice the capacity of page writes.
    let budget = w.written + 2 * logical;
    let mut round = 1u64;
    while w.mapped < logical && w.written < budget && extent > 0 && w.failed.is_none() {
        let before = w.mapped;
        let shift = round.saturating_mul(extent) % logical;
        each(0, &mut |p| {
            for i in 0..p.count {
                if w.mapped >= logical || w.written >= budget {
                    return;
                }
                w.put((p.first % logical) + (i % logical) + shift);
            }
        })?;
        if w.mapped == before {
            break;
        }
        round += 1;
    }
    // Pages still unwritten, in order.
    for page in 0..logical {
        if w.mapped >= logical || w.failed.is_some() {
            break;
        }
        if !w.sink.is_mapped(page) {
            w.put(page);
        }
    }
    // 4. The workload's writes again, `overwrites` × capacity of them.
    let target = w.written + (overwrites * logical as f64).round() as u64;
    let mut has_writes = false;
    each(0, &mut |p| has_writes |= p.write && p.count > 0)?;
    let mut sample = 0u64;
    while has_writes && w.written < target && w.failed.is_none() {
        sample += 1;
        each(sample, &mut |p| {
            if p.write {
                for i in 0..p.count {
                    if w.written >= target {
                        return;
                    }
                    w.put(p.first.wrapping_add(i));
                }
            }
        })?;
    }
    match w.failed {
        Some(e) => Err(e.into()),
        None => Ok(w.written),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A logical space of pages that records the order they were written in.
    struct Recorder {
        mapped: Vec<bool>,
        order: Vec<u64>,
    }

    impl PageSink for Recorder {
        fn write(&mut self, page: u64) -> Result<(), FtlError> {
            self.mapped[page as usize] = true;
            self.order.push(page);
            Ok(())
        }
        fn is_mapped(&self, page: u64) -> bool {
            self.mapped[page as usize]
        }
    }

    fn rec(write: bool, first: u64, count: u64) -> Pages {
        Pages {
            write,
            first,
            count,
        }
    }

    fn precondition(workload: &[Pages], samples: bool, logical: u64, overwrites: f64) -> Recorder {
        let mut sink = Recorder {
            mapped: vec![false; logical as usize],
            order: Vec::new(),
        };
        let mut replay = |k: u64, visit: &mut dyn FnMut(Pages)| -> Result<(), FtlError> {
            for p in workload {
                // A new sample of a "generator": the same requests moved by k pages.
                visit(Pages {
                    first: p.first + if samples { k } else { 0 },
                    ..*p
                });
            }
            Ok(())
        };
        let n = trace(&mut replay, samples, &mut sink, logical, overwrites).unwrap();
        assert_eq!(n, sink.order.len() as u64);
        sink
    }

    /// §V-A-3: the pages the workload reads first, then those it writes, then shifted copies until
    /// every page is written; then its writes again.
    #[test]
    fn reads_then_writes_then_shifted_copies_then_overwrites() {
        // Writes 2..4, reads 10 and 0..2 (the extent E is 11), on 40 logical pages.
        let w = [rec(true, 2, 2), rec(false, 10, 1), rec(false, 0, 2)];
        let r = precondition(&w, false, 40, 0.1);
        assert!(r.mapped.iter().all(|&m| m), "every page written");
        // Reads' pages, then writes' pages.
        assert_eq!(&r.order[..5], &[10, 0, 1, 2, 3]);
        // Round 1: every page of the workload (reads' and writes') shifted by 11, in trace order.
        assert_eq!(&r.order[5..10], &[13, 14, 21, 11, 12]);
        // Round 2 by 22, round 3 by 33 (folded modulo 40).
        assert_eq!(&r.order[10..15], &[24, 25, 32, 22, 23]);
        assert_eq!(&r.order[15..20], &[35, 36, 3, 33, 34]);
        // Overwrites: round(0.1 × 40) = 4 page writes of the workload's writes, again and again.
        let tail = &r.order[r.order.len() - 4..];
        assert_eq!(tail, &[2, 3, 2, 3]);
        // Without overwrites, the fill alone.
        let fill = precondition(&w, false, 40, 0.0);
        assert_eq!(fill.order.len(), r.order.len() - 4);
    }

    /// Shifted copies that keep landing on written pages stop after a round that adds nothing;
    /// the pages left are written in order.
    #[test]
    fn pages_no_shift_reaches_are_written_in_order() {
        // Extent 4 on 8 pages: the shifts are 4, then 0 again.
        let w = [rec(false, 0, 1), rec(true, 3, 1)];
        let r = precondition(&w, false, 8, 0.0);
        assert!(r.mapped.iter().all(|&m| m));
        assert_eq!(&r.order[..2], &[0, 3]);
        // Round 1 (shift 4): 4, 7; round 2 (shift 0): nothing new, so the rest in order.
        assert_eq!(&r.order[2..4], &[4, 7]);
        assert_eq!(&r.order[4..], &[0, 3, 1, 2, 5, 6]);
    }

    /// A generator's overwrites are new samples, not its own requests again.
    #[test]
    fn a_generator_overwrites_with_new_samples() {
        let w = [rec(true, 0, 2)];
        let r = precondition(&w, true, 16, 0.25);
        let tail: Vec<u64> = r.order[r.order.len() - 4..].to_vec();
        assert_eq!(tail, vec![1, 2, 2, 3]);
    }
}
