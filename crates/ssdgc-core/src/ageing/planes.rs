//! Ageing the planes of a page-mapped drive apart, in parallel.
//!
//! Under static allocation every logical page lives in one plane and GC moves pages only inside
//! their plane, so filling the drive and overwriting random pages with instant GC is, plane by
//! plane, independent work. Each plane is lent to a one-plane FTL of its own
//! ([`Ftl::split_plane`]: its share of the logical space, its blocks, free pool, write points and
//! victim index, with tables a plane's size that stay in the caches), aged there, and joined back
//! ([`Ftl::join_planes`]). Plane `p`, holding the logical pages `k × P + r`:
//!
//! 1. writes its logical pages in ascending order (the drive's sequential fill, seen from the
//!    plane);
//! 2. then overwrites `round(overwrites × share)` of its pages (`share` the number of its logical
//!    pages), uniformly at random, drawn from a stream of its own,
//!    `rng_for(seed, plane_stream(drive, p, OVERWRITES))`; a random victim choice while it is aged
//!    draws from another, `plane_stream(drive, p, VICTIMS)`.
//!
//! Nothing a plane does depends on another plane or on the order in which the planes run, so the
//! aged drive is the same whatever the number of threads. The planes run in groups of consecutive
//! residues `r` (16, or more with more than 8 threads): a group's one-plane tables exist at once
//! (about 8 bytes per page of a plane each), aged on rayon's threads, then are joined into the
//! drive's tables before the next group starts, so that the drive's L2P, where the entries of the
//! planes of a group lie side by side, is written a cache line at a time.

use rand::Rng;
use rayon::prelude::*;

use super::write_instant;
use crate::ftl::page::plane_share;
use crate::ftl::{Ftl, FtlError};
use crate::rng::{plane_stream, plane_streams, rng_for};

/// Planes of consecutive residues aged, then joined, together: 16 L2P entries fill a cache line.
const GROUP: usize = 16;

/// Overwrites drawn ahead of the one written: the CPU is asked for the L2P entry of each when it
/// is drawn ([`Ftl::prefetch_lpn`]), so that its cache miss overlaps the writes before it instead
/// of stalling its own.
const AHEAD: usize = 16;

/// How many writes ahead the CPU is asked for what an overwrite will update of the page it
/// supersedes ([`Ftl::prefetch_overwrite_ahead`]: its P2L entry, its block's record and victim
/// index entry), found from the L2P entry fetched `AHEAD - NEAR` writes before.
const NEAR: usize = 8;

/// One plane's ageing: its logical pages in order, then `overwrites` random ones.
fn age_plane(
    sub: &mut Ftl,
    overwrites: u64,
    seed: u64,
    drive: u32,
    plane: u32,
) -> Result<(), FtlError> {
    let mut pages = rng_for(seed, plane_stream(drive, plane, plane_streams::OVERWRITES));
    let mut victims = rng_for(seed, plane_stream(drive, plane, plane_streams::VICTIMS));
    let share = sub.geometry().logical_pages;
    for lpn in 0..share {
        write_instant(sub, lpn, &mut victims)?;
    }
    if share == 0 {
        return Ok(());
    }
    let mut ahead = [0u32; AHEAD];
    for a in &mut ahead {
        *a = pages.gen_range(0..share);
        sub.prefetch_lpn(*a);
    }
    // The pages are written in the order they are drawn; the hints change nothing.
    for i in 0..overwrites {
        let at = i as usize % AHEAD;
        let lpn = ahead[at];
        ahead[at] = pages.gen_range(0..share);
        sub.prefetch_lpn(ahead[at]);
        sub.prefetch_overwrite_ahead(ahead[(at + NEAR) % AHEAD]);
        write_instant(sub, lpn, &mut victims)?;
    }
    Ok(())
}

/// Ages every plane of a fresh page-mapped drive ([`Ftl::planes_separable`]) of drive `drive`:
/// fill, then `overwrites` × each plane's share of random overwrites ([module docs](self));
/// `progress(done, total)` is called after each group of planes.
pub(super) fn run(
    ftl: &mut Ftl,
    overwrites: f64,
    seed: u64,
    drive: u32,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<(), FtlError> {
    let geo = ftl.geometry().clone();
    let residues = ftl.plane_residues();
    // The plane holding each residue.
    let mut by_residue = vec![0u32; residues.len()];
    for (plane, &r) in residues.iter().enumerate() {
        by_residue[r as usize] = plane as u32;
    }
    // Per plane: its logical pages and its overwrites.
    let work: Vec<(u32, u64)> = residues
        .iter()
        .map(|&r| {
            let share = plane_share(geo.logical_pages, geo.planes, r);
            (share, (overwrites * f64::from(share)).round() as u64)
        })
        .collect();
    let total: u64 = work.iter().map(|&(s, o)| u64::from(s) + o).sum();
    let threads = rayon::current_num_threads().max(1);
    let group = (2 * threads).div_ceil(GROUP) * GROUP;
    let mut done = 0u64;
    for chunk in by_residue.chunks(group) {
        let subs: Vec<(u32, u32, Ftl)> = chunk
            .iter()
            .map(|&p| {
                let r = residues[p as usize];
                (p, r, ftl.split_plane(p, r))
            })
            .collect();
        let aged: Vec<(u32, u32, Ftl, Result<(), FtlError>)> = subs
            .into_par_iter()
            .map(|(p, r, mut sub)| {
                let res = age_plane(&mut sub, work[p as usize].1, seed, drive, p);
                (p, r, sub, res)
            })
            .collect();
        let mut failed = None;
        let mut back = Vec::with_capacity(aged.len());
        for (p, r, sub, res) in aged {
            if let Err(e) = res {
                failed.get_or_insert(e);
            }
            let (share, ow) = work[p as usize];
            done += u64::from(share) + ow;
            back.push((p, r, sub));
        }
        // Every plane lent out comes back, even after a failure.
        ftl.join_planes(back);
        if let Some(e) = failed {
            return Err(e);
        }
        progress(done, total);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{run as age, Precondition};
    use super::*;
    use crate::config::{Config, ConfigBuilder};
    use crate::flash::Geometry;
    use crate::ftl::BlockState;
    use crate::host::Workload;
    use crate::{RunOptions, Simulator};

    fn config(extra: &[&str]) -> Config {
        let mut b = ConfigBuilder::preset("default").unwrap();
        for s in extra {
            b.set(s).unwrap();
        }
        b.build().unwrap()
    }

    /// Everything of the FTL's state that a run can observe, as plain values: the snapshot
    /// (mapping, erase counts, block clocks and states, pools, write points, candidates in their
    /// rebuild order, clock) and what follows from it.
    fn state(ftl: &Ftl) -> (crate::ftl::FtlSnapshot, Vec<u64>) {
        let g = ftl.geometry().clone();
        let mut v = Vec::new();
        v.extend((0..g.physical_pages).map(|p| ftl.reverse(p).map_or(u64::MAX, u64::from)));
        v.extend((0..g.blocks()).map(|b| u64::from(ftl.valid_pages(b))));
        for p in 0..g.planes {
            v.push(u64::from(ftl.free_blocks(p)));
            v.push(ftl.free_pages(p));
            v.push(ftl.candidates(p) as u64);
        }
        (ftl.snapshot().unwrap(), v)
    }

    fn aged(cfg: &Config, how: Precondition, threads: usize) -> Ftl {
        let geo = Geometry::new(cfg);
        let mut ftl = Ftl::new(cfg, &geo).unwrap();
        assert!(ftl.planes_separable());
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut calls = 0;
        pool.install(|| age(&mut ftl, how, 7, 0, &mut |_, _| calls += 1))
            .unwrap();
        assert!(calls > 0, "progress is reported");
        ftl.check().unwrap();
        ftl
    }

    /// The aged drive is the same whatever the number of threads, for victim policies that draw
    /// randomness or read the clock, under another allocation order and on a drive of more
    /// planes than a group.
    #[test]
    fn the_aged_state_does_not_depend_on_the_thread_count() {
        for extra in [
            &["gc.victim=greedy"][..],
            &["gc.victim=random"],
            &["gc.victim=cost-benefit", "ftl.allocation=PCWD"],
            &[
                "geometry.channels=4",
                "geometry.chips_per_channel=5",
                "geometry.blocks_per_plane=64",
                "gc.victim=fifo",
            ],
        ] {
            let cfg = config(extra);
            let one = state(&aged(&cfg, Precondition::Steady(1.0), 1));
            for threads in [2, 3, 5] {
                let many = state(&aged(&cfg, Precondition::Steady(1.0), threads));
                assert!(one == many, "{extra:?}: {threads} threads differ from one");
            }
        }
    }

    /// A whole run after ageing reports the same with one thread and with several.
    #[test]
    fn a_run_after_ageing_reports_the_same_with_one_thread_and_several() {
        let cfg = config(&["gc.victim=cost-benefit"]);
        let report = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let bytes = Geometry::new(&cfg).logical_bytes();
                let wl = Workload::synthetic("count=20000,read=0.3", bytes, 5).unwrap();
                let opts = RunOptions::from_config(&cfg, 5).unwrap();
                let mut r = Simulator::new(&cfg, wl, opts).unwrap().run().unwrap();
                r.sim.wall_s = 0.0;
                r.to_json()
            })
        };
        assert_eq!(report(1), report(4));
    }

    /// A fill split by planes is the drive's sequential fill: every logical page where writing
    /// them in order puts it, and the same block states, clocks and clock-ordered candidates.
    #[test]
    fn a_fill_by_planes_is_the_sequential_fill() {
        for extra in [&["gc.victim=cost-benefit"][..], &["ftl.allocation=PCWD"]] {
            let cfg = config(extra);
            let by_planes = aged(&cfg, Precondition::Fill, 2);
            let geo = Geometry::new(&cfg);
            let mut serial = Ftl::new(&cfg, &geo).unwrap();
            let mut rng = rng_for(7, 1);
            for lpn in 0..geo.logical_pages {
                write_instant(&mut serial, lpn, &mut rng).unwrap();
            }
            assert!(state(&by_planes) == state(&serial), "{extra:?}");
            assert!((0..geo.blocks()).any(|b| by_planes.block_state(b) == BlockState::Full));
        }
    }

    /// Steady ageing by planes overwrites every plane its share: every page is mapped once, and
    /// each plane has erased at least the pages its fill and two overwrites of its share
    /// programmed beyond its own size.
    #[test]
    fn steady_ageing_by_planes_overwrites_each_plane_its_share() {
        let cfg = config(&[]);
        let ftl = aged(&cfg, Precondition::Steady(2.0), 2);
        let geo = Geometry::new(&cfg);
        assert_eq!(ftl.mapped_pages(), u64::from(geo.logical_pages));
        let residues = ftl.plane_residues();
        let bpp = geo.blocks_per_plane as usize;
        for (p, &r) in residues.iter().enumerate() {
            let share = u64::from(plane_share(geo.logical_pages, geo.planes, r));
            let erases: u64 = ftl.erase_counts()[p * bpp..(p + 1) * bpp]
                .iter()
                .map(|&e| u64::from(e))
                .sum();
            let programmed = 3 * share;
            assert!(
                erases * u64::from(geo.pages_per_block) + u64::from(geo.pages_per_plane)
                    >= programmed,
                "plane {p}: {erases} erases"
            );
        }
    }

    /// The log-block FTLs and hot/cold separation are aged as one drive (their tables are not
    /// split by plane).
    #[test]
    fn log_block_and_hot_cold_drives_are_not_split() {
        for extra in [&["ftl.mapping=lftl"][..], &["ftl.hot_cold=true"]] {
            let cfg = config(extra);
            let geo = Geometry::new(&cfg);
            let ftl = Ftl::new(&cfg, &geo).unwrap();
            assert!(!ftl.planes_separable(), "{extra:?}");
        }
    }
}
