//! End-to-end throughput and memory: host requests per CPU-second and peak bytes per physical page.
//!
//! Each drive is preconditioned to steady state (fill, then 2x capacity of uniformly random
//! overwrites), then replays N 4 KiB uniformly random writes, closed loop at queue depth 32, with the
//! baseline GC scheme and the greedy victim policy. The spare factor is 0.10 *effective*: the
//! overprovisioning is raised by exactly the blocks the GC threshold holds back in every plane, so
//! `(physical - logical - held-back blocks) / physical = 0.10`.
//!
//! Every drive runs in a child process of its own (this program re-executed), so that its peak
//! resident set (`VmHWM` in `/proc/self/status`) counts that drive alone, plus the process itself.
//! CPU time is user + system time from `/proc/self/stat`; the simulator is single-threaded.
//!
//! Environment:
//! - `SSDGC_BENCH_REQUESTS`: requests of the measured run (default 5,000,000);
//! - `SSDGC_BENCH_DRIVES`: comma-separated drives to run, of `16p`, `64p`, `pagc`, `mem` and
//!   `16s` (default `16p,64p,pagc,mem`; `16s` is the 16p drive's shape small enough for its tables
//!   to stay in a core's L2 cache, run only when named).
//!
//! `pagc` is the preconditioning alone of the `pagc` preset (1 TiB, 256 planes, 134 M physical
//! pages: fill, then 2 × capacity of random overwrites, the planes aged in parallel on rayon's
//! threads): its wall and CPU time and peak bytes per physical page.
//!
//! `mem` is not a drive but the host's memory as this run found it: the time of one load that
//! depends on the one before, at random in a buffer of 256 KiB to 64 MiB (a pointer chase over
//! one random cycle). The replay's cost per request follows the latency at the size of its tables
//! (8 bytes per physical page), so it tells how far numbers taken on two machines, or on one
//! machine at two times, can be compared. Beside it, the core's own speed, touching no memory:
//! one step of a chain of arithmetic, alone (its latency) and in eight chains side by side (its
//! throughput, which a thread sharing the core on the host takes its share of).
//!
//! Run with `cargo bench -p ssdgc-core --bench e2e` (or the built binary with `--bench`).

use std::process::Command;
use std::time::Instant;

use ssdgc_core::analytic;
use ssdgc_core::flash::Geometry;
use ssdgc_core::host::Workload;
use ssdgc_core::{ConfigBuilder, RunOptions, Simulator};

const CHILD_ENV: &str = "SSDGC_BENCH_E2E_DRIVE";
const SPARE: f64 = 0.10;
const SEED: u64 = 1;

/// A drive of the benchmark.
struct Drive {
    key: &'static str,
    channels: u32,
    chips_per_channel: u32,
    planes_per_die: u32,
    blocks_per_plane: u32,
    pages_per_block: u32,
    /// Free blocks per plane held back by the GC threshold.
    held_back: u32,
}

const DRIVES: &[Drive] = &[
    // 16 planes x 1024 blocks x 64 pages: 1,048,576 pages (4 GiB raw).
    Drive {
        key: "16p",
        channels: 4,
        chips_per_channel: 2,
        planes_per_die: 2,
        blocks_per_plane: 1024,
        pages_per_block: 64,
        held_back: 3,
    },
    // 64 planes x 2048 blocks x 256 pages: 33,554,432 pages (128 GiB raw).
    Drive {
        key: "64p",
        channels: 8,
        chips_per_channel: 4,
        planes_per_die: 2,
        blocks_per_plane: 2048,
        pages_per_block: 256,
        held_back: 3,
    },
    // Not run by default: the 16p drive's shape with 64 blocks per plane, 65,536 pages (256 MiB
    // raw), whose tables (256 KiB each) stay in a core's L2 cache. The same replay with few
    // cache misses: what the host's core does per request when memory costs (almost) nothing,
    // beside the 16p row where it does not (docs/PERFORMANCE.md, round ten).
    Drive {
        key: "16s",
        channels: 4,
        chips_per_channel: 2,
        planes_per_die: 2,
        blocks_per_plane: 64,
        pages_per_block: 64,
        held_back: 3,
    },
];

impl Drive {
    /// `gc.threshold`: halfway between `held_back - 1` and `held_back` blocks, so that
    /// `ceil(threshold x blocks_per_plane) = held_back` exactly.
    fn threshold(&self) -> f64 {
        (self.held_back as f64 - 0.5) / self.blocks_per_plane as f64
    }

    /// `geometry.overprovision`: the spare factor plus the held-back blocks.
    fn overprovision(&self) -> f64 {
        SPARE + self.held_back as f64 / self.blocks_per_plane as f64
    }

    fn settings(&self) -> Vec<String> {
        vec![
            format!("geometry.channels={}", self.channels),
            format!("geometry.chips_per_channel={}", self.chips_per_channel),
            "geometry.dies_per_chip=1".into(),
            format!("geometry.planes_per_die={}", self.planes_per_die),
            format!("geometry.blocks_per_plane={}", self.blocks_per_plane),
            format!("geometry.pages_per_block={}", self.pages_per_block),
            "geometry.page_size=4KiB".into(),
            format!("geometry.overprovision={}", self.overprovision()),
            format!("gc.threshold={}", self.threshold()),
            "gc.scheme=baseline".into(),
            "gc.victim=greedy".into(),
            "precondition.mode=steady".into(),
            "precondition.overwrites=2.0".into(),
        ]
    }
}

/// CPU time (user + system) of this process, in seconds.
fn cpu_seconds(ticks_per_s: f64) -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    // Fields after the command name (which may hold spaces) start with field 3, the state.
    let rest = &stat[stat.rfind(')').expect("stat format") + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f[14 - 3].parse().expect("utime");
    let stime: f64 = f[15 - 3].parse().expect("stime");
    (utime + stime) / ticks_per_s
}

fn clock_ticks() -> f64 {
    Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}

/// Peak resident set of this process, in bytes.
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .expect("VmHWM")
        * 1024
}

fn requests() -> u64 {
    std::env::var("SSDGC_BENCH_REQUESTS")
        .ok()
        .map(|s| {
            s.replace('_', "")
                .parse()
                .expect("SSDGC_BENCH_REQUESTS: a count")
        })
        .unwrap_or(5_000_000)
}

/// Preconditions the `pagc` preset in this process and prints one `key=value` result line.
fn child_pagc() {
    let cfg = ConfigBuilder::preset("pagc")
        .expect("pagc preset")
        .build()
        .expect("valid drive");
    let geo = Geometry::new(&cfg);
    let wl = Workload::synthetic("count=1", geo.logical_bytes(), SEED).expect("workload");
    let opts = RunOptions::from_config(&cfg, SEED).expect("options");
    let ticks = clock_ticks();
    let (c0, w0) = (cpu_seconds(ticks), Instant::now());
    let mut sim = Simulator::new(&cfg, wl, opts).expect("simulator");
    sim.precondition(&mut |_| {}).expect("preconditioning");
    let (c1, w1) = (cpu_seconds(ticks), Instant::now());
    println!(
        "RESULT drive=pagc planes={} physical={} logical={} threads={} pre_cpu={:.3} pre_wall={:.3} peak={}",
        geo.planes,
        geo.physical_pages,
        geo.logical_pages,
        rayon::current_num_threads(),
        c1 - c0,
        (w1 - w0).as_secs_f64(),
        peak_rss(),
    );
}

/// The buffer sizes of the memory probe (`mem`), in bytes.
const MEM_SIZES: [(usize, &str); 5] = [
    (256 << 10, "256 KiB"),
    (1 << 20, "1 MiB"),
    (4 << 20, "4 MiB"),
    (16 << 20, "16 MiB"),
    (64 << 20, "64 MiB"),
];

/// Loads of the memory probe per buffer size.
const MEM_LOADS: usize = 4_000_000;

/// The memory probe in this process: for each of [`MEM_SIZES`], the wall time of one load that
/// depends on the one before, at random in a buffer of that size (a single random cycle through
/// its 8-byte entries, Sattolo's shuffle), in nanoseconds; one `key=value` result line.
fn child_mem() {
    use rand_core::{RngCore, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(SEED);
    let mut line = String::from("RESULT drive=mem");
    for (bytes, _) in MEM_SIZES {
        let n = bytes / 8;
        let mut next: Vec<u64> = (0..n as u64).collect();
        for i in (1..n).rev() {
            let j = (rng.next_u64() % i as u64) as usize;
            next.swap(i, j);
        }
        // A warm-up lap, then the measured loads.
        let mut p = 0usize;
        for _ in 0..n {
            p = next[p] as usize;
        }
        let t = Instant::now();
        for _ in 0..MEM_LOADS {
            p = next[p] as usize;
        }
        let ns = t.elapsed().as_secs_f64() * 1e9 / MEM_LOADS as f64;
        std::hint::black_box(p);
        line.push_str(&format!(" ns_{bytes}={ns:.1}"));
    }
    // The core alone, for comparison, touching no memory.
    let chain = core_chain(MEM_LOADS * 4);
    let eight = core_eight(MEM_LOADS * 4);
    line.push_str(&format!(" ns_chain={chain:.2} ns_eight={eight:.2}"));
    println!("{line}");
}

/// One step of the core probe: a multiplication, an addition and a shift.
#[inline(always)]
fn step(x: u64) -> u64 {
    let x = x
        .wrapping_mul(0x5851_f42d_4c95_7f2d)
        .wrapping_add(0x1405_7b7e_f767_814f);
    x ^ (x >> 29)
}

/// Nanoseconds per step of one chain of `steps` steps, each depending on the one before: the
/// core's latency, which a thread sharing the core hardly changes.
fn core_chain(steps: usize) -> f64 {
    let mut x = std::hint::black_box(SEED);
    let t = Instant::now();
    for _ in 0..steps {
        x = step(x);
    }
    std::hint::black_box(x);
    t.elapsed().as_secs_f64() * 1e9 / steps as f64
}

/// Nanoseconds per step of eight independent chains side by side, `steps` steps in all: the
/// core's throughput, of which a thread sharing the core (another virtual CPU on the host's
/// hyperthread twin, say) takes its share. The replay, which keeps the core busy, slows with it.
fn core_eight(steps: usize) -> f64 {
    let mut xs = std::hint::black_box([SEED; 8].map(|s| s.wrapping_mul(0x9e37_79b9_7f4a_7c15)));
    let t = Instant::now();
    for _ in 0..steps / 8 / 1024 {
        // (In registers for 1,024 steps of each chain, then past the optimiser once.)
        for _ in 0..1024 {
            xs = xs.map(step);
        }
        xs = std::hint::black_box(xs);
    }
    t.elapsed().as_secs_f64() * 1e9 / steps as f64
}

/// Steps of the core probe taken just before and just after a drive's run (some 10 to 20 ms).
const CORE_STEPS: usize = 32 << 20;

/// Runs one drive in this process and prints one `key=value` result line.
fn child(key: &str) {
    if key == "pagc" {
        return child_pagc();
    }
    if key == "mem" {
        return child_mem();
    }
    let drive = DRIVES.iter().find(|d| d.key == key).expect("known drive");
    let n = requests();
    let mut b = ConfigBuilder::preset("default").expect("default preset");
    for s in drive.settings() {
        b.set(&s).expect("valid setting");
    }
    let cfg = b.build().expect("valid drive");
    let geo = Geometry::new(&cfg);
    let held = cfg.gc_threshold_blocks() as u64 * geo.planes as u64 * geo.pages_per_block as u64;
    let phys = geo.physical_pages as u64;
    let spare = (phys - geo.logical_pages as u64 - held) as f64 / phys as f64;
    let spec = format!("count={n},read=0,size=4KiB,interarrival=0,qd=32");
    let wl = Workload::synthetic(&spec, geo.logical_bytes(), SEED).expect("workload");
    let opts = RunOptions::from_config(&cfg, SEED).expect("options");
    let ticks = clock_ticks();

    // The preconditioning from `c0` to `c1`, the run from `c2` to `c3`; the core probe between
    // them and after the run, in neither.
    let (c0, w0) = (cpu_seconds(ticks), Instant::now());
    let mut sim = Simulator::new(&cfg, wl, opts).expect("simulator");
    sim.precondition(&mut |_| {}).expect("preconditioning");
    let (c1, w1) = (cpu_seconds(ticks), Instant::now());
    let core_before = core_eight(CORE_STEPS);
    let (c2, w2) = (cpu_seconds(ticks), Instant::now());
    let report = sim.run().expect("run");
    let (c3, w3) = (cpu_seconds(ticks), Instant::now());
    let core_after = core_eight(CORE_STEPS);
    assert_eq!(report.requests.total, n, "every request completed");
    let peak = peak_rss();
    let waf_model = analytic::waf_greedy(analytic::alpha_from_spare(spare), geo.pages_per_block);
    println!(
        "RESULT drive={key} planes={} physical={phys} logical={} threshold_blocks={} \
         overprovision={} threshold={} spare={spare:.6} requests={n} pre_cpu={:.3} pre_wall={:.3} \
         run_cpu={:.3} run_wall={:.3} waf={:.4} waf_model={waf_model:.4} events={} peak={peak} \
         core_before={core_before:.3} core_after={core_after:.3}",
        geo.planes,
        geo.logical_pages,
        cfg.gc_threshold_blocks(),
        cfg.geometry.overprovision,
        cfg.gc.threshold,
        c1 - c0,
        (w1 - w0).as_secs_f64(),
        c3 - c2,
        (w3 - w2).as_secs_f64(),
        report.flash.waf,
        report.sim.events,
    );
}

fn field<'a>(line: &'a str, name: &str) -> &'a str {
    line.split_whitespace()
        .find_map(|kv| kv.strip_prefix(name)?.strip_prefix('='))
        .unwrap_or_else(|| panic!("result field {name}"))
}

fn num(line: &str, name: &str) -> f64 {
    field(line, name).parse().expect("numeric field")
}

/// Runs drive `key` in a child process of its own and returns its result line.
fn child_line(exe: &std::path::Path, key: &str) -> String {
    let out = Command::new(exe)
        .env(CHILD_ENV, key)
        .output()
        .expect("child run");
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&out.stderr));
        panic!("drive {key} failed: {}", out.status);
    }
    text.lines()
        .find(|l| l.starts_with("RESULT "))
        .expect("result line")
        .to_string()
}

fn main() {
    if let Ok(key) = std::env::var(CHILD_ENV) {
        child(&key);
        return;
    }
    // `cargo test --all-targets` runs bench targets without `--bench`, in a debug build: the
    // measurement takes minutes there and means nothing, so only `cargo bench` runs it.
    if !std::env::args().any(|a| a == "--bench") {
        println!("e2e: measures only under `cargo bench -p ssdgc-core --bench e2e`; skipped");
        return;
    }
    let wanted = std::env::var("SSDGC_BENCH_DRIVES").unwrap_or_else(|_| "16p,64p,pagc,mem".into());
    let exe = std::env::current_exe().expect("own path");
    println!(
        "ssdgc end-to-end: {} x 4 KiB uniform random writes, closed loop QD 32, baseline GC, greedy, \
         effective spare {SPARE}, steady-state precondition (fill + 2x overwrites)",
        requests()
    );
    let mut lines = Vec::new();
    let mut pagc = None;
    let mut mem = None;
    for key in wanted.split(',').map(str::trim).filter(|k| !k.is_empty()) {
        if key == "pagc" {
            pagc = Some(child_line(&exe, key));
            continue;
        }
        if key == "mem" {
            mem = Some(child_line(&exe, key));
            continue;
        }
        let d = DRIVES
            .iter()
            .find(|d| d.key == key)
            .unwrap_or_else(|| panic!("unknown drive '{key}': use 16p, 64p, 16s, pagc or mem"));
        println!("\n{key}: settings (on the default preset):");
        for s in d.settings() {
            println!("  --set {s}");
        }
        let line = child_line(&exe, key);
        println!(
            "  {} physical pages, {} logical, {} blocks/plane held back: effective spare {}",
            field(&line, "physical"),
            field(&line, "logical"),
            field(&line, "threshold_blocks"),
            field(&line, "spare"),
        );
        lines.push(line);
    }
    println!(
        "\n{:<5} {:>6} {:>11} {:>10} {:>9} {:>9} {:>13} {:>7} {:>7} {:>9} {:>10} {:>11}",
        "drive",
        "planes",
        "phys pages",
        "requests",
        "pre CPU s",
        "run CPU s",
        "req/CPU-s",
        "WAF",
        "model",
        "peak MiB",
        "B/phys pg",
        "core ns"
    );
    for l in &lines {
        let phys = num(l, "physical");
        let peak = num(l, "peak");
        println!(
            "{:<5} {:>6} {:>11} {:>10} {:>9.2} {:>9.2} {:>13.0} {:>7.3} {:>7.3} {:>9.1} {:>10.2} {:>11}",
            field(l, "drive"),
            field(l, "planes"),
            field(l, "physical"),
            field(l, "requests"),
            num(l, "pre_cpu"),
            num(l, "run_cpu"),
            num(l, "requests") / num(l, "run_cpu"),
            num(l, "waf"),
            num(l, "waf_model"),
            peak / (1 << 20) as f64,
            peak / phys,
            format!("{:.2}/{:.2}", num(l, "core_before"), num(l, "core_after")),
        );
    }
    if let Some(l) = pagc {
        let phys = num(&l, "physical");
        println!(
            "\npagc preset preconditioning ({} planes, {} physical pages, fill + 2x overwrites, {} threads): \
             {:.2} s wall, {:.2} CPU s, peak {:.1} MiB = {:.2} B/phys pg",
            field(&l, "planes"),
            field(&l, "physical"),
            field(&l, "threads"),
            num(&l, "pre_wall"),
            num(&l, "pre_cpu"),
            num(&l, "peak") / (1 << 20) as f64,
            num(&l, "peak") / phys,
        );
    }
    if let Some(l) = mem {
        let sizes: Vec<String> = MEM_SIZES
            .iter()
            .map(|(bytes, name)| format!("{name} {:.1} ns", num(&l, &format!("ns_{bytes}"))))
            .collect();
        println!(
            "\nhost memory, one dependent load at random in a buffer of: {}",
            sizes.join(", ")
        );
        println!(
            "host core, one step of arithmetic: {:.2} ns in one chain (latency), {:.2} ns in eight \
             side by side (throughput; it rises when another thread shares the core)",
            num(&l, "ns_chain"),
            num(&l, "ns_eight"),
        );
    }
    println!(
        "\nreq/CPU-s: host requests per CPU-second of the measured run (user + sys, preconditioning \
         excluded). B/phys pg: peak resident set of the process / physical pages. core ns: one step of \
         eight chains of arithmetic side by side, just before / just after the run (the host \
         core's throughput; well above the lowest this machine gives, another thread shared the \
         core, and the run's CPU seconds rose with it)."
    );
}
