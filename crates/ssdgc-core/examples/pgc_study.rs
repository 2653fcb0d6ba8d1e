//! The preemptible-GC study: the tables of `docs/schemes/preemptible.md` ("From the study
//! program"), from one command.
//!
//! ```sh
//! cargo run --release -p ssdgc-core --example pgc_study > /tmp/pgc.md
//! ```
//!
//! Drive: the `pgc` preset (the preemptible-GC paper's Table VI drive: 8 channels x 4 dies x 2
//! planes, 2048 blocks of 64 4-KiB pages per plane, SLC 25 us / 200 us / 1.5 ms, 5 % GC threshold),
//! preconditioned steady (fill, then random overwrites: 1x capacity unless `SSDGC_PGC_OVERWRITES`
//! says otherwise; the preset's own is 2x), seed 1.
//!
//! - Fig. 10: synthetic workload at the paper's Table VII defaults (exponential 32 KiB requests,
//!   exponential 3 ms interarrival, 40 % sequential, 40 % reads), one parameter swept at a time,
//!   `baseline` (NPGC) against `pgc`. `SSDGC_PGC_COUNT` sets the requests per run (default 20 000).
//! - Fig. 11, 15, 17: write-heavy traces from `../shared/traces` beside the repository (or
//!   `SSDGC_TRACES`), replayed open loop in full.
//!
//! Runs go in parallel on the machine's cores; the output is deterministic. Each run's wall time
//! goes to standard error.

use std::time::Instant;

use rayon::prelude::*;
use ssdgc_core::flash::Geometry;
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::{ConfigBuilder, Report, RunOptions, Simulator};
use ssdgc_workload::TraceOptions;

const PRESET: &str = "pgc";
const SEED: u64 = 1;

const TRACES: &[(&str, &str)] = &[
    ("1&1 MySQL", "blkreplay_1and1_linux_mysql.load"),
    ("1&1 MS-SQL", "blkreplay_1and1_windows_mssql.load"),
    ("MSR window 20/80", "heimdall_msr_cut10k_rw_20_80_105.trace"),
    (
        "MSR window 40/60",
        "heimdall_msr_cut10k_rw_40_60_1370.trace",
    ),
];

/// Table VII defaults, as `size`, `interarrival`, `seq`, `read`.
const DEFAULTS: [&str; 4] = ["exp:32KiB", "exp:3ms", "0.4", "0.4"];

/// Fig. 10's sweeps: parameter index into `DEFAULTS`, label, values.
const SWEEPS: &[(usize, &str, &[&str])] = &[
    (
        0,
        "request size (mean)",
        &["exp:8KiB", "exp:16KiB", "exp:32KiB", "exp:64KiB"],
    ),
    (
        1,
        "interarrival (mean)",
        &["exp:1ms", "exp:3ms", "exp:5ms", "exp:10ms"],
    ),
    (2, "sequential share", &["0", "0.4", "0.8"]),
    (3, "read share", &["0.2", "0.4", "0.6", "0.8"]),
];

#[derive(Clone, PartialEq, Debug)]
enum Load {
    Synthetic(String),
    Trace(usize),
}

#[derive(Clone, PartialEq, Debug)]
struct Job {
    load: Load,
    scheme: &'static str,
    victim: &'static str,
}

fn count() -> u64 {
    std::env::var("SSDGC_PGC_COUNT")
        .ok()
        .map(|s| s.parse().expect("SSDGC_PGC_COUNT is a number"))
        .unwrap_or(20_000)
}

/// Random overwrites of preconditioning, in drive capacities (`SSDGC_PGC_OVERWRITES`, default 1;
/// the preset's own is 2). Preconditioning is most of a run's time.
fn overwrites() -> f64 {
    std::env::var("SSDGC_PGC_OVERWRITES")
        .ok()
        .map(|s| s.parse().expect("SSDGC_PGC_OVERWRITES is a number"))
        .unwrap_or(1.0)
}

fn spec(params: &[&str; 4]) -> String {
    format!(
        "count={},size={},interarrival={},seq={},read={}",
        count(),
        params[0],
        params[1],
        params[2],
        params[3]
    )
}

fn run(job: &Job) -> Report {
    let start = Instant::now();
    let mut b = ConfigBuilder::preset(PRESET).expect("preset");
    b.set(&format!("gc.scheme=\"{}\"", job.scheme))
        .expect("scheme");
    b.set(&format!("gc.victim=\"{}\"", job.victim))
        .expect("victim");
    b.set(&format!("precondition.overwrites={:.3}", overwrites()))
        .expect("overwrites");
    let cfg = b.build().expect("valid drive");
    let wl = match &job.load {
        Load::Synthetic(s) => Workload::synthetic(s, Geometry::new(&cfg).logical_bytes(), SEED)
            .unwrap_or_else(|e| panic!("{s}: {e}")),
        Load::Trace(t) => Workload::from_trace(
            &ssdgc_workload::shared_trace(TRACES[*t].1).expect("shared trace"),
            &TraceOptions::default(),
            ReplayMode::OpenLoop,
        )
        .unwrap_or_else(|e| panic!("{e}")),
    };
    let opts = RunOptions::from_config(&cfg, SEED).expect("options");
    let r = Simulator::new(&cfg, wl, opts)
        .and_then(Simulator::run)
        .unwrap_or_else(|e| panic!("{job:?}: {e}"));
    eprintln!("{:.1} s  {job:?}", start.elapsed().as_secs_f64());
    r
}

/// Runs every job on the machine's cores; results in job order.
fn run_all(jobs: &[Job]) -> Vec<Report> {
    jobs.par_iter().map(run).collect()
}

/// Every job the tables need, each once, and their reports.
struct Results {
    jobs: Vec<Job>,
    reports: Vec<Report>,
}

impl Results {
    fn get(&self, load: &Load, scheme: &str, victim: &str) -> &Report {
        let i = self
            .jobs
            .iter()
            .position(|j| &j.load == load && j.scheme == scheme && j.victim == victim)
            .expect("job was run");
        &self.reports[i]
    }
}

fn mean(r: &Report) -> f64 {
    r.latency_us.all.mean
}
fn var(r: &Report) -> f64 {
    r.latency_us.all.std * r.latency_us.all.std
}
fn std(r: &Report) -> f64 {
    r.latency_us.all.std
}
fn max(r: &Report) -> f64 {
    r.latency_us.all.max
}

fn sweep_specs() -> Vec<(usize, String, String)> {
    let mut v = Vec::new();
    for (s, (p, _, values)) in SWEEPS.iter().enumerate() {
        for value in values.iter() {
            let mut params = DEFAULTS;
            params[*p] = value;
            v.push((s, value.to_string(), spec(&params)));
        }
    }
    v
}

/// Per trace, `metric` of each scheme normalised to the first, with the first in absolute terms.
fn normalised_table(
    res: &Results,
    title: &str,
    unit: &str,
    schemes: &[(&str, &str)],
    metric: fn(&Report) -> f64,
) {
    println!("{title}\n");
    let first = if schemes[0].1 == "greedy" {
        schemes[0].0.to_string()
    } else {
        format!("{} {}", schemes[0].0, schemes[0].1)
    };
    print!("| trace | {first} ({unit}) |");
    for (s, v) in &schemes[1..] {
        if *v == "greedy" {
            print!(" {s} |");
        } else {
            print!(" {s} {v} |");
        }
    }
    println!();
    println!("|---|{}", "---:|".repeat(schemes.len()));
    let scale = if unit == "ms" { 1e3 } else { 1e6 };
    let mut logs = vec![0.0f64; schemes.len()];
    for (t, (name, _)) in TRACES.iter().enumerate() {
        let load = Load::Trace(t);
        let base = metric(res.get(&load, schemes[0].0, schemes[0].1));
        print!("| {name} | {:.3} |", base / scale);
        for (i, (s, v)) in schemes.iter().enumerate().skip(1) {
            let x = metric(res.get(&load, s, v)) / base;
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

fn main() {
    let t0 = Instant::now();
    let mut jobs: Vec<Job> = Vec::new();
    let mut add = |load: Load, scheme: &'static str, victim: &'static str| {
        let j = Job {
            load,
            scheme,
            victim,
        };
        if !jobs.contains(&j) {
            jobs.push(j);
        }
    };
    // Traces first: the long ones start early.
    for t in 0..TRACES.len() {
        for scheme in [
            "baseline",
            "pgc-none",
            "pgc-merge",
            "pgc-pipeline",
            "pgc",
            "idle",
            "pgc-se",
            "fpgc",
        ] {
            add(Load::Trace(t), scheme, "greedy");
        }
        add(Load::Trace(t), "pgc", "wear-aware");
    }
    for (_, _, s) in sweep_specs() {
        add(Load::Synthetic(s.clone()), "baseline", "greedy");
        add(Load::Synthetic(s), "pgc", "greedy");
    }
    let reports = run_all(&jobs);
    let res = Results { jobs, reports };

    println!(
        "Drive: preset `{PRESET}`, preconditioned steady with {} capacity of random overwrites, \
         seed {SEED}.\n",
        overwrites()
    );
    // Fig. 10.
    println!(
        "## Fig. 10: synthetic workloads, `baseline` (NPGC) vs `pgc`\n\n\
         {} requests per run; Table VII defaults (size exp:32KiB, interarrival exp:3ms, seq 0.4, \
         read 0.4) except the swept parameter. Response times in µs; reductions are of `pgc` \
         against `baseline` (variance = std²).\n",
        count()
    );
    let specs = sweep_specs();
    for (s, (_, label, _)) in SWEEPS.iter().enumerate() {
        println!("{label}:\n");
        println!(
            "| value | baseline mean | baseline std | baseline max | pgc mean | pgc std | pgc max \
             | mean reduction | variance reduction |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (_, value, sp) in specs.iter().filter(|x| x.0 == s) {
            let load = Load::Synthetic(sp.clone());
            let b = res.get(&load, "baseline", "greedy");
            let p = res.get(&load, "pgc", "greedy");
            println!(
                "| {value} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.2} % | {:.3} % |",
                mean(b),
                std(b),
                max(b),
                mean(p),
                std(p),
                max(p),
                100.0 * (1.0 - mean(p) / mean(b)),
                100.0 * (1.0 - var(p) / var(b)),
            );
        }
        println!();
    }

    // Fig. 11.
    let fig11: &[(&str, &str)] = &[
        ("baseline", "greedy"),
        ("pgc-none", "greedy"),
        ("pgc-merge", "greedy"),
        ("pgc-pipeline", "greedy"),
        ("pgc", "greedy"),
    ];
    println!("## Fig. 11: traces, PGC without and with merging and pipelining\n");
    normalised_table(
        &res,
        "Mean response time, normalised to baseline:",
        "ms",
        fig11,
        mean,
    );
    normalised_table(
        &res,
        "Variance of the response time, normalised to baseline:",
        "ms²",
        fig11,
        var,
    );
    normalised_table(
        &res,
        "Maximum response time, normalised to baseline:",
        "ms",
        fig11,
        max,
    );
    println!(
        "Response-time breakdown (mean µs per request; ST service, CsGC / CoGC waiting on GC of \
         the same / another plane, LC waiting on other requests, CnGC waiting for a queue slot) \
         and GC counters:\n"
    );
    println!(
        "| trace | scheme | ST | CsGC | CoGC | LC | CnGC | mean | WAF | GC jobs | preemptions | \
         merged reads | pipelined | S1 s/die |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (t, (name, _)) in TRACES.iter().enumerate() {
        for s in ["baseline", "pgc-none", "pgc"] {
            let r = res.get(&Load::Trace(t), s, "greedy");
            let b = &r.breakdown_us;
            println!(
                "| {name} | {s} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.1} | {:.3} | {} | {} | \
                 {} | {} | {:.2} |",
                b.st,
                b.csgc,
                b.cogc,
                b.lc,
                b.cngc,
                mean(r),
                r.flash.waf,
                r.gc.invocations,
                r.schemes.preempt.as_ref().map_or(0, |p| p.preemptions),
                r.schemes.merge.as_ref().map_or(0, |m| m.merged_reads),
                r.schemes
                    .pipeline
                    .as_ref()
                    .map_or(0, |p| p.host_reads + p.host_writes),
                r.schemes.states.as_ref().map_or(0.0, |s| s.state_time_s.s1),
            );
        }
    }
    println!();

    // Fig. 15.
    println!("## Fig. 15: victim policies and idle-time GC\n");
    println!(
        "Mean and std of the response time (µs); `idle` is idle-time GC without preemption of a \
         started on-demand job, greedy victims.\n"
    );
    let fig15: &[(&str, &str)] = &[
        ("baseline", "greedy"),
        ("pgc", "greedy"),
        ("idle", "greedy"),
        ("pgc", "wear-aware"),
    ];
    print!("| trace |");
    for (s, v) in fig15 {
        print!(" {s} {v} mean | std |");
    }
    println!(" WAF baseline / idle / pgc |");
    println!("|---|{}---:|", "---:|---:|".repeat(fig15.len()));
    for (t, (name, _)) in TRACES.iter().enumerate() {
        let load = Load::Trace(t);
        print!("| {name} |");
        for (s, v) in fig15 {
            let r = res.get(&load, s, v);
            print!(" {:.1} | {:.1} |", mean(r), std(r));
        }
        println!(
            " {:.3} / {:.3} / {:.3} |",
            res.get(&load, "baseline", "greedy").flash.waf,
            res.get(&load, "idle", "greedy").flash.waf,
            res.get(&load, "pgc", "greedy").flash.waf
        );
    }
    println!();
    println!("Erase counts per block, max / std:\n");
    println!("| trace | baseline greedy | pgc greedy | pgc wear-aware |");
    println!("|---|---:|---:|---:|");
    for (t, (name, _)) in TRACES.iter().enumerate() {
        let load = Load::Trace(t);
        print!("| {name} |");
        for (s, v) in [
            ("baseline", "greedy"),
            ("pgc", "greedy"),
            ("pgc", "wear-aware"),
        ] {
            let w = &res.get(&load, s, v).wear;
            print!(" {} / {:.3} |", w.erase_max, w.erase_std);
        }
        println!();
    }
    println!();

    // Fig. 17.
    let fig17: &[(&str, &str)] = &[("pgc", "greedy"), ("pgc-se", "greedy"), ("fpgc", "greedy")];
    println!("## Fig. 17: suspending erases (`pgc-se`) and every GC operation (`fpgc`)\n");
    normalised_table(
        &res,
        "Mean response time, normalised to pgc:",
        "ms",
        fig17,
        mean,
    );
    normalised_table(
        &res,
        "Standard deviation of the response time, normalised to pgc:",
        "ms",
        fig17,
        std,
    );
    normalised_table(
        &res,
        "Maximum response time, normalised to pgc:",
        "ms",
        fig17,
        max,
    );
    println!("Suspensions (`schemes.suspend.suspensions`):\n");
    println!("| trace | pgc-se | fpgc |");
    println!("|---|---:|---:|");
    for (t, (name, _)) in TRACES.iter().enumerate() {
        let load = Load::Trace(t);
        println!(
            "| {name} | {} | {} |",
            suspensions(res.get(&load, "pgc-se", "greedy")),
            suspensions(res.get(&load, "fpgc", "greedy"))
        );
    }
    println!();
    eprintln!("total {:.1} s", t0.elapsed().as_secs_f64());
}

/// GC operations a run suspended (0 without suspension).
fn suspensions(r: &Report) -> u64 {
    r.schemes.suspend.as_ref().map_or(0, |s| s.suspensions)
}
