//! Fidelity: under uniform random single-page writes at steady state, the write amplification of
//! greedy, FIFO and random victim selection matches the published analytic models.
//!
//! The drive is one plane of 4,000 blocks with 64 or 256 pages per block and spare factors
//! Sf = (T − U)/T from 0.07 to 0.30. Writes go through the real FTL and the shared GC mechanism
//! (instant collection, as in preconditioning). The models assume every block but the one being
//! written can be a victim; here the trigger holds free blocks back and two write points are open, so
//! the test measures the space that is really out of the victims' reach — the mean of free pages in
//! the pool and the open write points over the measured window — and evaluates the models at the
//! resulting effective over-provisioning: α_eff = (physical pages − mean free pages) / logical pages.

use rand::Rng;
use ssdgc_core::ageing::write_instant;
use ssdgc_core::analytic::{waf_fifo, waf_greedy, waf_random};
use ssdgc_core::flash::Geometry;
use ssdgc_core::ftl::Ftl;
use ssdgc_core::rng::rng_for;
use ssdgc_core::ConfigBuilder;

struct Outcome {
    measured: f64,
    model: f64,
    alpha_eff: f64,
}

fn steady_state_waf(victim: &str, pages_per_block: u32, spare: f64) -> Outcome {
    let mut b = ConfigBuilder::preset("default").unwrap();
    for s in [
        "geometry.channels=1",
        "geometry.chips_per_channel=1",
        "geometry.dies_per_chip=1",
        "geometry.planes_per_die=1",
        "geometry.blocks_per_plane=4000",
        "gc.threshold=0.0001",
    ] {
        b.set(s).unwrap();
    }
    b.set(&format!("geometry.pages_per_block={pages_per_block}"))
        .unwrap();
    b.set(&format!("geometry.overprovision={spare}")).unwrap();
    b.set(&format!("gc.victim=\"{victim}\"")).unwrap();
    let cfg = b.build().unwrap();
    let geo = Geometry::new(&cfg);
    let mut ftl = Ftl::new(&cfg, &geo).unwrap();
    let mut rng = rng_for(11, 0);
    let logical = geo.logical_pages;
    for lpn in 0..logical {
        write_instant(&mut ftl, lpn, &mut rng).unwrap();
    }
    // Warm up to steady state, then measure.
    let warmup = 4 * logical as u64;
    let measure = 3 * logical as u64;
    for _ in 0..warmup {
        write_instant(&mut ftl, rng.gen_range(0..logical), &mut rng).unwrap();
    }
    ftl.counters = Default::default();
    let mut free_sum = 0u128;
    for _ in 0..measure {
        write_instant(&mut ftl, rng.gen_range(0..logical), &mut rng).unwrap();
        free_sum += ftl.free_pages(0) as u128;
    }
    ftl.check().unwrap();
    let c = ftl.counters;
    let measured = (c.host_pages_written + c.gc_pages_moved) as f64 / c.host_pages_written as f64;
    let mean_free = free_sum as f64 / measure as f64;
    let alpha_eff = (geo.physical_pages as f64 - mean_free) / logical as f64;
    let model = match victim {
        "greedy" => waf_greedy(alpha_eff, pages_per_block),
        "fifo" => waf_fifo(alpha_eff),
        "random" => waf_random(1.0 - 1.0 / alpha_eff),
        _ => unreachable!(),
    };
    Outcome {
        measured,
        model,
        alpha_eff,
    }
}

fn check(victim: &str, pages_per_block: u32) {
    for spare in [0.07, 0.10, 0.20, 0.30] {
        let o = steady_state_waf(victim, pages_per_block, spare);
        let err = (o.measured - o.model).abs() / o.model;
        println!(
            "{victim:<6} n_p={pages_per_block:<3} Sf={spare:.2} alpha_eff={:.4} measured={:.4} model={:.4} error={:.3}%",
            o.alpha_eff,
            o.measured,
            o.model,
            100.0 * err
        );
        assert!(
            err < 0.01,
            "{victim}, {pages_per_block} pages/block, Sf {spare}: measured WAF {:.4}, model {:.4} ({:.2}% off)",
            o.measured,
            o.model,
            100.0 * err
        );
    }
}

#[test]
fn greedy_matches_desnoyers_eq12_64_pages() {
    check("greedy", 64);
}

#[test]
fn greedy_matches_desnoyers_eq12_256_pages() {
    check("greedy", 256);
}

#[test]
fn fifo_matches_desnoyers_eq4_64_pages() {
    check("fifo", 64);
}

#[test]
fn fifo_matches_desnoyers_eq4_256_pages() {
    check("fifo", 256);
}

#[test]
fn random_matches_one_over_sf_64_pages() {
    check("random", 64);
}

#[test]
fn random_matches_one_over_sf_256_pages() {
    check("random", 256);
}
