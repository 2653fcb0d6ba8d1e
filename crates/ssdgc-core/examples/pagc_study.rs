//! The PaGC study: every table of `docs/schemes/pagc.md`, from one command.
//!
//! ```sh
//! cargo run --release -p ssdgc-core --example pagc_study > /tmp/pagc.md
//! ```
//!
//! Drive: the `pagc-small` preset (the PaGC paper's Table I drive with 128 blocks per plane:
//! 16 channels x 8 chips, 2 planes per die, 8 KiB pages, 75 us / 1.5 ms / 3.8 ms, 7% free-page
//! trigger, every request dispatched at once), preconditioned to steady state (2x capacity of random
//! overwrites). Traces are read from `../shared/traces` beside the repository (or `SSDGC_TRACES`).
//! Runs go in parallel on the machine's cores; the output is deterministic.

use rayon::prelude::*;
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::{ConfigBuilder, Report, RunOptions, Simulator};
use ssdgc_workload::TraceOptions;

const TRACES: &[(&str, &str)] = &[
    ("1&1 MySQL", "blkreplay_1and1_linux_mysql.load"),
    ("1&1 MS-SQL", "blkreplay_1and1_windows_mssql.load"),
    ("MSR hm_0", "msr_hm0_snia_sample.csv"),
    ("MSR window 20/80", "heimdall_msr_cut10k_rw_20_80_105.trace"),
    (
        "MSR window 40/60",
        "heimdall_msr_cut10k_rw_40_60_1370.trace",
    ),
];

const SCHEMES: &[&str] = &[
    "baseline",
    "pagc-blind",
    "pagc-threshold",
    "pagc-cache",
    "superblock",
    "zero",
];

#[derive(Clone)]
struct Job {
    trace: usize,
    scheme: &'static str,
    sets: Vec<String>,
}

fn run(job: &Job) -> Report {
    let mut b = ConfigBuilder::preset("pagc-small").expect("preset");
    b.set(&format!("gc.scheme=\"{}\"", job.scheme))
        .expect("scheme");
    for s in &job.sets {
        b.set(s).expect("setting");
    }
    let cfg = b.build().expect("valid drive");
    let path = ssdgc_workload::shared_trace(TRACES[job.trace].1).expect("shared trace");
    let wl = Workload::from_trace(&path, &TraceOptions::default(), ReplayMode::OpenLoop)
        .unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions::from_config(&cfg, 1).expect("options");
    Simulator::new(&cfg, wl, opts)
        .and_then(Simulator::run)
        .unwrap_or_else(|e| panic!("{} on {}: {e}", job.scheme, TRACES[job.trace].0))
}

/// Runs every job on the machine's cores; results in job order.
fn run_all(jobs: &[Job]) -> Vec<Report> {
    jobs.par_iter().map(run).collect()
}

fn jobs(sets: &[&str], schemes: &[&'static str]) -> Vec<Job> {
    let mut v = Vec::new();
    for t in 0..TRACES.len() {
        for &scheme in schemes {
            v.push(Job {
                trace: t,
                scheme,
                sets: sets.iter().map(|s| s.to_string()).collect(),
            });
        }
    }
    v
}

/// Mean response time of each scheme normalised to the first, per trace, plus the geometric mean.
fn normalised_table(title: &str, schemes: &[&str], reports: &[Report], metric: fn(&Report) -> f64) {
    println!("{title}\n");
    print!("| trace | {} (ms) |", schemes[0]);
    for s in &schemes[1..] {
        print!(" {s} |");
    }
    println!();
    println!("|---|{}", "---:|".repeat(schemes.len()));
    let mut logs = vec![0.0f64; schemes.len()];
    for (t, (name, _)) in TRACES.iter().enumerate() {
        let row = &reports[t * schemes.len()..(t + 1) * schemes.len()];
        let base = metric(&row[0]);
        print!("| {name} | {:.2} |", base / 1e3);
        for (i, r) in row.iter().enumerate().skip(1) {
            let x = metric(r) / base;
            logs[i] += x.ln();
            print!(" {x:.3} |");
        }
        println!();
    }
    print!("| geometric mean | |");
    for l in &logs[1..] {
        print!(" {:.3} |", (l / TRACES.len() as f64).exp());
    }
    println!("\n");
}

fn breakdown_table(schemes: &[&str], reports: &[Report], which: &[&str]) {
    println!("| trace | scheme | ST | CsGC | CoGC | LC | CnGC | mean | WAF | GC time (s) | parallel victims |");
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (t, (name, _)) in TRACES.iter().enumerate() {
        for (i, s) in schemes.iter().enumerate() {
            if !which.contains(s) {
                continue;
            }
            let r = &reports[t * schemes.len() + i];
            let b = &r.breakdown_us;
            println!(
                "| {name} | {s} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.0} | {:.3} | {:.1} | {} |",
                b.st,
                b.csgc,
                b.cogc,
                b.lc,
                b.cngc,
                r.latency_us.all.mean,
                r.flash.waf,
                r.gc.total_time_us / 1e6,
                r.schemes.pagc.as_ref().map_or(0, |p| p.joined)
            );
        }
    }
    println!();
}

fn main() {
    let mean = |r: &Report| r.latency_us.all.mean;
    let p99 = |r: &Report| r.latency_us.all.p99;

    let main_reports = run_all(&jobs(&[], SCHEMES));
    println!("## Results: CWDP allocation, greedy victims\n");
    normalised_table(
        "Mean response time, normalised to baseline:",
        SCHEMES,
        &main_reports,
        mean,
    );
    normalised_table(
        "99th-percentile response time, normalised to baseline:",
        SCHEMES,
        &main_reports,
        p99,
    );
    println!("Response-time breakdown (mean µs per request):\n");
    breakdown_table(
        SCHEMES,
        &main_reports,
        &["baseline", "pagc-blind", "pagc-threshold", "pagc-cache"],
    );
    println!("Plane utilisation (share of time):\n");
    println!("| trace | scheme | host | GC | waiting on another plane's GC | idle |");
    println!("|---|---|---:|---:|---:|---:|");
    for (t, (name, _)) in TRACES.iter().enumerate() {
        for (i, s) in SCHEMES.iter().enumerate() {
            if *s != "baseline" && *s != "pagc-threshold" {
                continue;
            }
            let u = &main_reports[t * SCHEMES.len() + i].plane_util;
            println!(
                "| {name} | {s} | {:.5} | {:.5} | {:.5} | {:.5} |",
                u.host, u.gc, u.wait_other_gc, u.idle
            );
        }
    }
    println!();
    println!("PaGC page moves by class (pagc-threshold):\n");
    println!("| trace | PaRD-PaWR | SrRD-PaWR | SrRD-SrWR | parallel victims | GC invocations |");
    println!("|---|---:|---:|---:|---:|---:|");
    for (t, (name, _)) in TRACES.iter().enumerate() {
        let r = &main_reports[t * SCHEMES.len() + 2];
        let p = r.schemes.pagc.clone().unwrap_or_default();
        println!(
            "| {name} | {} | {} | {} | {} | {} |",
            p.pard_pawr, p.srrd_pawr, p.srrd_srwr, p.joined, r.gc.invocations
        );
    }
    println!();

    let pcwd = run_all(&jobs(&["ftl.allocation=PCWD"], SCHEMES));
    println!("## PCWD allocation (plane first), greedy victims\n");
    normalised_table(
        "Mean response time, normalised to baseline under PCWD:",
        SCHEMES,
        &pcwd,
        mean,
    );

    for victim in ["rga:8", "random"] {
        let schemes = ["baseline", "pagc-threshold", "zero"];
        let reports = run_all(&jobs(&[&format!("gc.victim=\"{victim}\"")], &schemes));
        println!("## Victim policy {victim}, CWDP\n");
        normalised_table(
            &format!("Mean response time, normalised to baseline with {victim}:"),
            &schemes,
            &reports,
            mean,
        );
    }
}
