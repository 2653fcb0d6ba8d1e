//! The host path's flash commands through the whole simulator: read-modify-write of partly written
//! pages (`ftl.rmw`) and host multi-plane commands (`ftl.multiplane`), timed against the formulas
//! of docs/MODEL.md one request at a time (closed loop, queue depth 1, a fresh drive).

use ssdgc_core::ageing::Precondition;
use ssdgc_core::flash::Timing;
use ssdgc_core::host::{ReplayMode, Workload};
use ssdgc_core::metrics::report::HostMultiplaneReport;
use ssdgc_core::{Config, ConfigBuilder, Report, RunOptions, Simulator};
use ssdgc_workload::{IoRecord, Op};

fn cfg_with(sets: &[&str]) -> Config {
    let mut b = ConfigBuilder::preset("default").unwrap();
    for s in sets {
        b.set(s).unwrap();
    }
    b.build().unwrap()
}

fn req(op: Op, offset: u64, len: u64) -> IoRecord {
    IoRecord {
        time_ns: 0,
        op,
        offset,
        len,
    }
}

/// Runs `recs` one at a time on a fresh drive; the report and each request's response time in ns.
fn run(cfg: &Config, recs: Vec<IoRecord>) -> (Report, Vec<u64>) {
    let mut opts = RunOptions::from_config(cfg, 1).unwrap();
    opts.precondition = Precondition::None;
    opts.check = true;
    opts.series_window = Some(1);
    let wl = Workload::from_records(recs, ReplayMode::ClosedLoop(1), "host-path");
    let r = Simulator::new(cfg, wl, opts).unwrap().run().unwrap();
    let each = r
        .series
        .as_ref()
        .and_then(|s| s.by_request.as_ref())
        .expect("a point per request")
        .iter()
        .map(|p| (p.mean_us * 1e3).round() as u64)
        .collect();
    (r, each)
}

#[test]
fn a_partial_write_of_a_page_with_data_reads_it_first() {
    let cfg = cfg_with(&["geometry.page_size=\"8KiB\"", "ftl.rmw=true"]);
    let t = Timing::new(&cfg);
    let (r, each) = run(
        &cfg,
        vec![
            // A whole page: no read.
            req(Op::Write, 0, 8192),
            // Half of page 0, which holds data: read, out, in, program.
            req(Op::Write, 0, 4096),
            // The second half of page 0 and the first half of page 1 (never written): one read.
            req(Op::Write, 4096, 8192),
            // Page 1 whole again: no read.
            req(Op::Write, 8192, 8192),
        ],
    );
    assert_eq!(r.flash.rmw_reads, Some(2));
    assert_eq!(r.flash.host_pages_read, 0, "the reads are not host reads");
    let write = t.command + t.transfer + t.program;
    let rmw = 2 * t.command + t.read + 2 * t.transfer + t.program;
    assert_eq!(each[0], write);
    assert_eq!(each[1], rmw);
    // Pages 0 and 1 are on different dies (CWDP): the request waits for the slower one.
    assert_eq!(each[2], rmw);
    assert_eq!(each[3], write);
    // Off (the default): a partial write programs the page without reading it.
    let cfg = cfg_with(&["geometry.page_size=\"8KiB\""]);
    let (r, each) = run(&cfg, vec![req(Op::Write, 0, 8192), req(Op::Write, 0, 4096)]);
    assert_eq!(r.flash.rmw_reads, None, "no section without ftl.rmw");
    assert_eq!(each[1], write);
}

#[test]
fn the_superblock_reads_the_rest_of_a_super_page() {
    // Two 4 KiB planes per die make 8 KiB super-pages: a 4 KiB write of a written super-page reads
    // it first.
    let cfg = cfg_with(&["gc.scheme=\"superblock\"", "ftl.rmw=true"]);
    let (r, _) = run(&cfg, vec![req(Op::Write, 0, 8192), req(Op::Write, 0, 4096)]);
    assert_eq!(r.flash.rmw_reads, Some(1));
    assert_eq!(r.drive.page_size, 8192);
}

fn multiplane(r: &Report) -> &HostMultiplaneReport {
    r.flash
        .host_multiplane
        .as_ref()
        .expect("a multi-plane section")
}

#[test]
fn writes_and_reads_to_the_planes_of_a_die_go_as_one_multi_plane_command() {
    // Plane-first allocation: pages 0 and 1 are the two planes of one die.
    let cfg = cfg_with(&["ftl.allocation=\"PCWD\"", "ftl.multiplane=\"aligned\""]);
    let t = Timing::new(&cfg);
    let (r, each) = run(&cfg, vec![req(Op::Write, 0, 8192), req(Op::Read, 0, 8192)]);
    let m = multiplane(&r);
    assert_eq!((m.writes, m.reads, m.pages, m.skipped_pages), (1, 1, 4, 0));
    // One command, both pages over the channel, one program (one read).
    assert_eq!(each[0], t.command + 2 * t.transfer + t.program);
    assert_eq!(each[1], t.command + t.read + 2 * t.transfer);
    assert_eq!(r.flash.host_pages_written, 2);
    assert_eq!(r.flash.host_pages_read, 2);
    // Off: two commands on the die, one after the other.
    let cfg = cfg_with(&["ftl.allocation=\"PCWD\""]);
    let (r, each) = run(&cfg, vec![req(Op::Write, 0, 8192)]);
    assert!(r.flash.host_multiplane.is_none());
    assert_eq!(
        each[0],
        t.command + t.transfer + t.program + t.command + t.transfer + t.program
    );
}

#[test]
fn write_points_apart_join_only_when_greedy_skipping_pages() {
    // Page 0 written alone puts plane 0's host write point one page ahead of plane 1's.
    let recs = || vec![req(Op::Write, 0, 4096), req(Op::Write, 0, 8192)];
    let cfg = cfg_with(&["ftl.allocation=\"PCWD\"", "ftl.multiplane=\"aligned\""]);
    let (r, _) = run(&cfg, recs());
    let m = multiplane(&r);
    assert_eq!((m.writes, m.skipped_pages), (0, 0), "{m:?}");
    let cfg = cfg_with(&["ftl.allocation=\"PCWD\"", "ftl.multiplane=\"greedy\""]);
    let t = Timing::new(&cfg);
    let (r, each) = run(&cfg, recs());
    let m = multiplane(&r);
    assert_eq!((m.writes, m.pages, m.skipped_pages), (1, 2, 1), "{m:?}");
    assert_eq!(each[1], t.command + 2 * t.transfer + t.program);
}

#[test]
fn host_multi_plane_commands_lose_nothing_under_load() {
    // A busy mixed load on an aged drive: every request completes and (`check`) every page is
    // where the map says.
    for mode in ["aligned", "greedy"] {
        let cfg = cfg_with(&[
            "ftl.allocation=\"PCWD\"",
            &format!("ftl.multiplane=\"{mode}\""),
            "ftl.rmw=true",
            "geometry.page_size=\"8KiB\"",
        ]);
        let logical = ssdgc_core::flash::Geometry::new(&cfg).logical_bytes();
        let wl = Workload::synthetic(
            "count=20000,read=0.4,size=exp:16KiB,seq=0.5,interarrival=exp:300us,align=512",
            logical,
            3,
        )
        .unwrap();
        let mut opts = RunOptions::from_config(&cfg, 3).unwrap();
        opts.precondition = Precondition::Steady(1.0);
        opts.check = true;
        opts.check_every = 2_000;
        let r = Simulator::new(&cfg, wl, opts).unwrap().run().unwrap();
        assert_eq!(r.requests.total, 20_000, "{mode}");
        let m = multiplane(&r);
        assert!(m.writes + m.reads > 0, "{mode}: {m:?}");
        assert!(r.flash.rmw_reads.unwrap() > 0, "{mode}");
    }
}

#[test]
fn host_alignment_skips_are_not_pagc_skips() {
    // Greedy host multi-plane writes skip pages; PaGC's section counts only its own skips, and a
    // scheme without PaGC has no such section (debug builds check that a section left out counted
    // nothing).
    let recs = || vec![req(Op::Write, 0, 4096), req(Op::Write, 0, 8192)];
    for scheme in ["baseline", "pagc-threshold"] {
        let cfg = cfg_with(&[
            "ftl.allocation=\"PCWD\"",
            "ftl.multiplane=\"greedy\"",
            &format!("gc.scheme=\"{scheme}\""),
        ]);
        let (r, _) = run(&cfg, recs());
        assert_eq!(multiplane(&r).skipped_pages, 1, "{scheme}");
        if let Some(p) = &r.schemes.pagc {
            assert_eq!(p.skipped_pages, 0, "{scheme}");
        }
    }
}
