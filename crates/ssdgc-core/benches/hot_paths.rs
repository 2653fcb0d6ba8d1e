//! Micro-benchmarks of the simulator's hot paths.
//!
//! - `ftl/host_write`: [`Ftl::host_write`] alone on a drive at steady state (GC runs between timed
//!   chunks, untimed, so that the write points always find a free block);
//! - `ftl/write_instant`: a host write through the preconditioning path, collecting instantly when
//!   the plane is short of free blocks (host write + amortised GC);
//! - `victim/greedy_churn`: the greedy index under invalidations, with one victim pick and refill
//!   per block's worth of invalidations;
//! - `engine/schedule_pop`: one pop and one schedule on an event queue holding one event per die;
//! - `sim/closed_loop_20k`: a whole run of 20,000 4 KiB random writes, closed loop QD 32, on the
//!   preconditioned default drive (preconditioning is untimed).
//!
//! Run with `cargo bench -p ssdgc-core --bench hot_paths`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use rand::Rng;
use ssdgc_core::ageing::{self as precondition, Precondition};
use ssdgc_core::config::{Config, ConfigBuilder};
use ssdgc_core::engine::{Event, EventQueue};
use ssdgc_core::flash::Geometry;
use ssdgc_core::ftl::{BlockInfo, BlockState, Ftl};
use ssdgc_core::gc;
use ssdgc_core::gc::victim::greedy::Greedy;
use ssdgc_core::gc::victim::{PlaneView, VictimPolicy};
use ssdgc_core::host::Workload;
use ssdgc_core::rng::{rng_for, SimRng};
use ssdgc_core::{RunOptions, Simulator};

/// A 16-plane drive (4 channels x 2 chips x 2 planes, 1024 blocks of 64 pages per plane, 4 GiB raw)
/// with an effective spare factor of 0.10 after the blocks held back by the GC threshold.
fn drive_16_planes() -> Config {
    let mut b = ConfigBuilder::preset("default").expect("default preset");
    for s in [
        "geometry.channels=4",
        "geometry.chips_per_channel=2",
        "geometry.planes_per_die=2",
        "geometry.blocks_per_plane=1024",
        "geometry.pages_per_block=64",
        // 3 blocks of 1024 held back: ceil(0.00244140625 x 1024) = 3 (an exact binary fraction).
        "gc.threshold=0.00244140625",
        // 0.10 + 3/1024.
        "geometry.overprovision=0.10292968750",
    ] {
        b.set(s).expect("valid setting");
    }
    b.build().expect("valid drive")
}

/// An FTL preconditioned to steady state (fill, then 2x capacity of random overwrites).
fn steady_ftl(cfg: &Config, rng: &mut SimRng) -> Ftl {
    let geo = Geometry::new(cfg);
    let mut ftl = Ftl::new(cfg, &geo).expect("valid FTL");
    precondition::run(
        &mut ftl,
        Precondition::Steady(2.0),
        rng.gen(),
        0,
        &mut |_, _| {},
    )
    .expect("preconditioning");
    ftl
}

/// Uniformly random logical pages, drawn ahead of the timed loop.
fn random_lpns(n: usize, logical: u32, rng: &mut SimRng) -> Vec<u32> {
    (0..n).map(|_| rng.gen_range(0..logical)).collect()
}

fn ftl_benches(c: &mut Criterion) {
    let cfg = drive_16_planes();
    let mut rng = rng_for(1, 1);
    let ftl = steady_ftl(&cfg, &mut rng);
    let logical = ftl.geometry().logical_pages;
    let planes = ftl.geometry().planes;
    let ppb = ftl.geometry().pages_per_block;

    let mut g = c.benchmark_group("ftl");
    g.measurement_time(Duration::from_secs(3))
        .sample_size(20)
        .throughput(Throughput::Elements(1));

    // Host writes only. Before each timed chunk, every plane collects (untimed) until it has room
    // for the chunk's writes on top of its GC threshold.
    const CHUNK: usize = 4096;
    let room_blocks = ftl.threshold_blocks() + (2 * CHUNK as u32 / planes).div_ceil(ppb) + 2;
    let mut hw = steady_ftl(&cfg, &mut rng_for(1, 1));
    let mut hw_rng = rng_for(7, 3);
    g.bench_function("host_write", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                for p in 0..planes {
                    while hw.free_blocks(p) < room_blocks {
                        if gc::collect_now(&mut hw, p, &mut hw_rng, 0)
                            .expect("collection")
                            .is_none()
                        {
                            break;
                        }
                    }
                }
                let n = left.min(CHUNK as u64) as usize;
                let lpns = random_lpns(n, logical, &mut hw_rng);
                let t = Instant::now();
                for &l in &lpns {
                    black_box(hw.host_write(l).expect("room was made"));
                }
                total += t.elapsed();
                left -= n as u64;
            }
            total
        })
    });

    // Host writes with instant GC, as preconditioning does them.
    let mut wi = ftl;
    let mut wi_rng = rng_for(7, 4);
    let lpns = random_lpns(1 << 20, logical, &mut wi_rng);
    let mut i = 0usize;
    g.bench_function("write_instant", |b| {
        b.iter(|| {
            let l = lpns[i & ((1 << 20) - 1)];
            i += 1;
            precondition::write_instant(&mut wi, l, &mut wi_rng).expect("write");
        })
    });
    g.finish();
}

fn victim_benches(c: &mut Criterion) {
    const BLOCKS: u32 = 2048;
    const PPB: u32 = 256;
    let full = BlockInfo {
        last_modified: 0,
        valid: PPB as u16,
        state: BlockState::Full,
    };
    let mut blocks = vec![full; BLOCKS as usize];
    let erase = vec![0u32; BLOCKS as usize];
    let mut greedy = Greedy::new(BLOCKS, PPB);
    let mut rng = rng_for(3, 5);
    for b in 0..BLOCKS {
        let v = PlaneView {
            blocks: &blocks,
            erase_count: &erase,
            now: 0,
            pages_per_block: PPB,
        };
        greedy.on_full(b, &v);
    }
    // One random invalidation in a block that still has valid pages; every PPB invalidations the
    // greedy victim is picked and refilled (it re-enters as a full block with every page valid).
    let churn = |blocks: &mut Vec<BlockInfo>, greedy: &mut Greedy, rng: &mut SimRng, step: u64| {
        let block = loop {
            let b = rng.gen_range(0..BLOCKS);
            if blocks[b as usize].valid > 0 {
                break b;
            }
        };
        let old = blocks[block as usize].valid;
        blocks[block as usize].valid = old - 1;
        let v = PlaneView {
            blocks,
            erase_count: &erase,
            now: step,
            pages_per_block: PPB,
        };
        greedy.on_invalidate(block, old, &v);
        if step.is_multiple_of(PPB as u64) {
            let victim = greedy.pick(&v, rng).expect("candidates");
            blocks[victim as usize].valid = PPB as u16;
            let v = PlaneView {
                blocks,
                erase_count: &erase,
                now: step,
                pages_per_block: PPB,
            };
            greedy.on_full(victim, &v);
        }
    };
    // Reach a steady mix of valid counts before measuring.
    let mut step = 1u64;
    for _ in 0..BLOCKS as u64 * PPB as u64 * 2 {
        churn(&mut blocks, &mut greedy, &mut rng, step);
        step += 1;
    }
    let mut g = c.benchmark_group("victim");
    g.measurement_time(Duration::from_secs(3))
        .sample_size(20)
        .throughput(Throughput::Elements(1));
    g.bench_function("greedy_churn", |b| {
        b.iter(|| {
            churn(&mut blocks, &mut greedy, &mut rng, step);
            step += 1;
        })
    });
    g.finish();
}

fn engine_benches(c: &mut Criterion) {
    const DIES: u32 = 16;
    let mut q = EventQueue::new(DIES as usize + 4);
    let mut rng = rng_for(5, 6);
    for d in 0..DIES {
        q.schedule(
            rng.gen_range(0..1_000_000),
            Event::DieDone { drive: 0, die: d },
        );
    }
    let mut g = c.benchmark_group("engine");
    g.measurement_time(Duration::from_secs(3))
        .sample_size(20)
        .throughput(Throughput::Elements(1));
    g.bench_function("schedule_pop", |b| {
        b.iter(|| {
            let (t, ev) = q.pop().expect("queue never empties");
            q.schedule(t + rng.gen_range(1..1_000_000), black_box(ev));
        })
    });
    g.finish();
}

fn sim_benches(c: &mut Criterion) {
    const N: u64 = 20_000;
    let cfg = Config::preset("default").expect("default preset");
    let geo = Geometry::new(&cfg);
    let spec = format!("count={N},read=0,size=4KiB,interarrival=0,qd=32");
    let mut g = c.benchmark_group("sim");
    g.measurement_time(Duration::from_secs(3))
        .sample_size(10)
        .throughput(Throughput::Elements(N));
    g.bench_function("closed_loop_20k", |b| {
        b.iter_batched(
            || {
                let wl = Workload::synthetic(&spec, geo.logical_bytes(), 11).expect("spec");
                let opts = RunOptions::from_config(&cfg, 11).expect("options");
                Simulator::new(&cfg, wl, opts).expect("simulator")
            },
            |sim| black_box(sim.run().expect("run")),
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

criterion_group!(
    benches,
    ftl_benches,
    victim_benches,
    engine_benches,
    sim_benches
);
criterion_main!(benches);
