//! The per-request log (`Simulator::set_request_sink`): one record per completed request, whose
//! figures agree with the report, and a run that logs reports exactly what a run that does not
//! log reports.

use std::sync::mpsc;

use ssdgc_core::ageing::Precondition;
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::metrics::request_log::{CsvLog, Op, RequestRecord, SharedSink, CSV_HEADER};
use ssdgc_core::{Config, ConfigBuilder, Report, RunOptions, Simulator};

mod common;

fn sim(cfg: &Config, n: usize) -> Simulator {
    let geo = ssdgc_core::flash::Geometry::new(cfg);
    let recs = common::random_records(n, geo.logical_bytes(), 5, 150_000, 0.4, 4);
    let mut opts = RunOptions::from_config(cfg, 9).unwrap();
    opts.precondition = Precondition::Steady(1.0);
    Simulator::new(
        cfg,
        Workload::from_records(recs, ReplayMode::OpenLoop, "t"),
        opts,
    )
    .unwrap()
}

fn logged(cfg: &Config, n: usize) -> (Report, Vec<RequestRecord>) {
    let mut s = sim(cfg, n);
    let (tx, rx) = mpsc::channel();
    s.set_request_sink(Box::new(tx));
    let report = s.run().unwrap();
    (report, rx.try_iter().collect())
}

fn without_wall(mut r: Report) -> String {
    r.sim.wall_s = 0.0;
    r.to_json()
}

#[test]
fn every_request_is_logged_once_and_agrees_with_the_report() {
    let cfg = Config::default();
    let (report, recs) = logged(&cfg, 5_000);
    assert_eq!(recs.len() as u64, report.requests.total);
    // Each arrival index once.
    let mut seen = vec![false; recs.len()];
    for r in &recs {
        assert!(!seen[r.index as usize], "request {} logged twice", r.index);
        seen[r.index as usize] = true;
        assert!(r.completion >= r.arrival);
        assert_eq!(r.breakdown.total(), r.response(), "{r:?}");
        assert!(r.bytes > 0);
    }
    // Completion order.
    assert!(recs.windows(2).all(|w| w[0].completion <= w[1].completion));
    let writes = recs.iter().filter(|r| r.op == Op::Write).count() as u64;
    assert_eq!(writes, report.requests.writes);
    let mean_us = recs.iter().map(|r| r.response() as f64).sum::<f64>() / recs.len() as f64 / 1e3;
    assert!((mean_us - report.latency_us.all.mean).abs() < 1e-6 * mean_us);
    let max_us = recs.iter().map(|r| r.response()).max().unwrap() as f64 / 1e3;
    assert_eq!(max_us, report.latency_us.all.max);
    let csgc_us =
        recs.iter().map(|r| r.breakdown.csgc as f64).sum::<f64>() / recs.len() as f64 / 1e3;
    assert!((csgc_us - report.breakdown_us.csgc).abs() <= 1e-6 * csgc_us.max(1.0));
    assert!(report.gc.invocations > 0, "the run should collect");
}

#[test]
fn logging_does_not_change_the_report() {
    let cfg = Config::default();
    let plain = sim(&cfg, 3_000).run().unwrap();
    let (with_log, _) = logged(&cfg, 3_000);
    assert_eq!(without_wall(plain), without_wall(with_log));
}

#[test]
fn an_array_logs_host_requests_not_pieces() {
    let mut b = ConfigBuilder::preset("default").unwrap();
    b.set("array.drives=3").unwrap();
    b.set("array.chunk=\"8KiB\"").unwrap();
    let cfg = b.build().unwrap();
    let (report, recs) = logged(&cfg, 2_000);
    assert_eq!(recs.len() as u64, report.requests.total);
    let pieces: u64 = report
        .drives
        .as_ref()
        .unwrap()
        .iter()
        .map(|d| d.requests.total)
        .sum();
    assert!(pieces > report.requests.total);
}

#[test]
fn the_csv_log_has_a_line_per_request() {
    let cfg = Config::default();
    let mut s = sim(&cfg, 1_000);
    let shared = SharedSink::new(CsvLog::new(Vec::new()));
    s.set_request_sink(Box::new(shared.clone()));
    let report = s.run().unwrap();
    let log = shared.into_inner().expect("the simulator is gone");
    assert_eq!(log.lines(), report.requests.total);
    let text = String::from_utf8(log.finish().unwrap()).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(CSV_HEADER));
    let cols = CSV_HEADER.split(',').count();
    for l in lines {
        assert_eq!(l.split(',').count(), cols, "{l}");
    }
}

/// The latency CDF of a report agrees with its summary and with the per-request log.
#[test]
fn the_latency_cdf_agrees_with_the_summary_and_the_log() {
    use ssdgc_core::metrics::LatencyClass;
    let cfg = Config::default();
    let (report, recs) = logged(&cfg, 4_000);
    for class in LatencyClass::ALL {
        let cdf = report.latency_cdf(class);
        let summary = match class {
            LatencyClass::All => &report.latency_us.all,
            LatencyClass::Read => &report.latency_us.read,
            LatencyClass::Write => &report.latency_us.write,
        };
        assert!(!cdf.is_empty(), "{class:?}");
        assert_eq!(cdf.last().unwrap().share, 1.0);
        assert_eq!(cdf.last().unwrap().value_us, summary.max);
        let at = |q: f64| cdf.iter().find(|p| p.share >= q).unwrap().value_us;
        assert_eq!(at(0.5), summary.p50, "{class:?}");
        assert_eq!(at(0.99), summary.p99, "{class:?}");
        // Against the exact responses: the share at each point counts the requests at or below
        // it, within the histogram's bucket (0.1 %).
        let mut exact: Vec<f64> = recs
            .iter()
            .filter(|r| match class {
                LatencyClass::All => true,
                LatencyClass::Read => r.op == Op::Read,
                LatencyClass::Write => r.op == Op::Write,
            })
            .map(|r| r.response() as f64 / 1e3)
            .collect();
        exact.sort_by(f64::total_cmp);
        for p in cdf.iter().step_by(7) {
            let below = exact.partition_point(|&v| v <= p.value_us * (1.0 + 1e-3));
            let strictly = exact.partition_point(|&v| v < p.value_us * (1.0 - 1e-3));
            let n = exact.len() as f64;
            assert!(
                strictly as f64 / n <= p.share && p.share <= below as f64 / n,
                "{class:?} {p:?}: exact share in [{}, {}]",
                strictly as f64 / n,
                below as f64 / n
            );
        }
    }
}
