//! The report as a human-readable table.

use super::report::Report;

impl Report {
    /// One line per capability section the report has.
    fn schemes_table(&self, out: &mut String) {
        let s = &self.schemes;
        if let Some(t) = &s.states {
            let st = &t.state_time_s;
            out.push_str(&format!(
                "states: per die S0 {:.3} s S1 {:.3} s S2 {:.3} s S3 {:.3} s; {} S3 holds\n",
                st.s0, st.s1, st.s2, st.s3, t.s3_holds
            ));
        }
        if let Some(i) = &s.idle {
            out.push_str(&format!("idle: {} jobs in idle time\n", i.idle_jobs));
        }
        let mut preempt = Vec::new();
        if let Some(p) = &s.preempt {
            preempt.push(format!("{} preemptions", p.preemptions));
        }
        if let Some(m) = &s.merge {
            preempt.push(format!(
                "{} reads and {} writes merged",
                m.merged_reads, m.merged_writes
            ));
        }
        if let Some(p) = &s.pipeline {
            preempt.push(format!(
                "{} reads and {} writes pipelined with GC",
                p.host_reads, p.host_writes
            ));
        }
        if let Some(x) = &s.suspend {
            preempt.push(format!("{} suspensions", x.suspensions));
        }
        if !preempt.is_empty() {
            out.push_str(&format!("preempt: {}\n", preempt.join(", ")));
        }
        if let Some(f) = &self.ftl {
            let m = &f.merges;
            out.push_str(&format!(
                "ftl: {} ({}:{} groups), merges switch {} partial {} full {}; {} + {} + {} pages copied, {} + {} + {} blocks erased; {} update blocks held (peak {}), {} overflow\n",
                f.mapping,
                f.data_blocks_per_group,
                f.update_blocks_per_group,
                m.switch.count,
                m.partial.count,
                m.full.count,
                m.switch.pages_copied,
                m.partial.pages_copied,
                m.full.pages_copied,
                m.switch.blocks_erased,
                m.partial.blocks_erased,
                m.full.blocks_erased,
                f.update_blocks,
                f.update_blocks_peak,
                f.overflow_blocks
            ));
        }
        if let Some(p) = &s.pagc {
            out.push_str(&format!(
                "pagc: moves PaRD-PaWR {} SrRD-PaWR {} SrRD-SrWR {}; {} victims joined; {} pages buffered, {} skipped\n",
                p.pard_pawr, p.srrd_pawr, p.srrd_srwr, p.joined, p.buffered_pages, p.skipped_pages
            ));
        }
        if let Some(a) = &s.agc {
            out.push_str(&format!(
                "agc: jobs on demand {} look-ahead {} proactive {} retroactive {} ({:.1}% off the critical path, {:.1}% of them by DGC); {} deferred, {} fallbacks, {} resumed, {} look-aheads unfit\n",
                a.on_demand,
                a.look_ahead,
                a.proactive,
                a.retroactive,
                100.0 * a.hidden_share,
                100.0 * a.dgc_share,
                a.delayed,
                a.dgc_fallbacks,
                a.resumed,
                a.unfit
            ));
        }
        if let Some(c) = &s.critical_path {
            let i = &c.idle;
            out.push_str(&format!(
                "idle periods: {} requests, {} back-to-back ({:.1}%), {} short ({:.1}%, {:.3} s), {} long > {} s ({:.1}%, {:.3} s)\n",
                i.requests,
                i.back_to_back,
                100.0 * i.share_back_to_back,
                i.short,
                100.0 * i.share_short,
                i.short_s,
                i.long,
                i.long_idle_s,
                100.0 * i.share_long,
                i.long_s
            ));
            let g = &c.gc_overhead;
            let steps: Vec<String> = c
                .excess_over
                .iter()
                .map(|e| format!(">{} ms {}", e.above_ms, e.requests))
                .collect();
            out.push_str(&format!(
                "gc overhead: {:.1} ms waiting on GC ({:.1} us per request, {:.2}% of response time); excess {}\n",
                g.total_us / 1e3,
                g.mean_us,
                100.0 * g.share,
                steps.join(", ")
            ));
        }
        if let Some(m) = &s.migration {
            let util: Vec<String> = m
                .register_utilisation
                .iter()
                .map(|u| format!("{:.0}%", 100.0 * u))
                .collect();
            out.push_str(&format!(
                "migration: {} workers on {} registers/plane (sharing {}), {} victims/erase, parity {}; {} jobs, {:.1} ms in jobs ({:.1} us/job), {:.2} victims/job, {} waves, {} pages wasted, {} out of order, {} multi-block erases; registers busy {}\n",
                m.workers,
                m.registers_per_plane,
                m.register_sharing,
                m.erase_blocks,
                m.copyback_parity,
                m.jobs,
                m.job_time_us / 1e3,
                m.mean_job_time_us,
                m.victims_per_job,
                m.waves,
                m.wasted_pages,
                m.out_of_order_pairs,
                m.multi_block_erases,
                util.join(" ")
            ));
        }
    }

    /// A human-readable table.
    pub fn to_table(&self) -> String {
        let mut out = String::new();
        let d = &self.drive;
        out.push_str(&format!(
            "ssdgc: scheme {} · victim {} · seed {}\n",
            self.scheme, self.victim, self.seed
        ));
        if self.gc_axes.overridden {
            out.push_str(&format!("gc axes: {}\n", self.gc_axes.summary()));
        }
        out.push_str(&format!("drive: {d}\n"));
        if let Some(a) = &d.array {
            out.push_str(&format!(
                "array: RAID-0 of {} such drives, {} B chunks, {} logical pages\n",
                a.drives, a.chunk_bytes, a.logical_pages
            ));
        }
        out.push_str(&format!(
            "workload: {} ({})\n",
            self.workload.name, self.workload.format
        ));
        out.push_str(&format!(
            "requests: {} ({} reads, {} writes)\n",
            self.requests.total, self.requests.reads, self.requests.writes
        ));
        if self.host_queue.saturated {
            out.push_str(&format!(
                "saturated: {:.0}% of the requests waited for a device-queue slot: the load exceeds the drive\n",
                100.0 * self.host_queue.waited as f64 / self.requests.total.max(1) as f64
            ));
        }
        out.push('\n');
        out.push_str(&format!(
            "{:<6} {:>10} {:>10} {:>6} {:>10} {:>10} {:>10} {:>10} {:>10} {:>11}\n",
            "us", "mean", "std", "cv", "p50", "p90", "p99", "p99.9", "p99.99", "max"
        ));
        for (name, l) in [
            ("all", &self.latency_us.all),
            ("read", &self.latency_us.read),
            ("write", &self.latency_us.write),
        ] {
            out.push_str(&format!(
                "{:<6} {:>10.1} {:>10.1} {:>6.2} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>10.1} {:>11.1}\n",
                name, l.mean, l.std, l.cv, l.p50, l.p90, l.p99, l.p999, l.p9999, l.max
            ));
        }
        let b = &self.breakdown_us;
        out.push_str(&format!(
            "\nbreakdown (mean us): ST {:.1}  CsGC {:.1}  CoGC {:.1}  LC {:.1}  CnGC {:.1}\n",
            b.st, b.csgc, b.cogc, b.lc, b.cngc
        ));
        out.push_str(
            "  (ST service time; waiting on GC of the same plane (CsGC) or of another plane of the\n   \
             die (CoGC), behind I/O that GC delayed (LC), behind other I/O or for a slot (CnGC))\n",
        );
        let u = &self.plane_util;
        out.push_str(&format!(
            "plane time (share per plane): host {:.1}%  GC {:.1}%  waiting on another plane's GC {:.1}%  idle {:.1}%\n",
            100.0 * u.host,
            100.0 * u.gc,
            100.0 * u.wait_other_gc,
            100.0 * u.idle
        ));
        let f = &self.flash;
        out.push_str(&format!(
            "flash: {} host pages written, {} read, {} moved by GC, {} blocks erased, WAF {:.3}\n",
            f.host_pages_written, f.host_pages_read, f.gc_pages_moved, f.blocks_erased, f.waf
        ));
        if let Some(n) = f.rmw_reads {
            out.push_str(&format!(
                "read-modify-write: {n} pages read for partial writes
"
            ));
        }
        if let Some(m) = &f.host_multiplane {
            out.push_str(&format!(
                "host multi-plane: {} reads and {} writes, {} pages, {} pages skipped to align
",
                m.reads, m.writes, m.pages, m.skipped_pages
            ));
        }
        let g = &self.gc;
        out.push_str(&format!(
            "gc: {} invocations, {:.1} ms total, {:.1} valid pages per victim ({:.1}%)",
            g.invocations,
            g.total_time_us / 1e3,
            g.mean_valid_pages_per_victim,
            100.0 * g.mean_valid_share_per_victim
        ));
        if g.cancelled_moves > 0 {
            out.push_str(&format!(", {} moves cancelled", g.cancelled_moves));
        }
        out.push('\n');
        self.schemes_table(&mut out);
        if let Some(b) = &self.buffer {
            out.push_str(&format!(
                "buffer: {} B, {} writes absorbed, {} bypassed, {} read pages hit, {} pages flushed\n",
                b.size_bytes, b.writes_absorbed, b.writes_bypassed, b.hits_read, b.pages_flushed
            ));
        }
        let w = &self.wear;
        out.push_str(&format!(
            "wear: erases per block min {} max {} mean {:.2} std {:.2}\n",
            w.erase_min, w.erase_max, w.erase_mean, w.erase_std
        ));
        out.push_str(&format!(
            "over {:.0} ms: {} requests, {:.1} ms excess in total\n",
            self.excess.marginal_us / 1e3,
            self.excess.requests,
            self.excess.total_us / 1e3
        ));
        out.push_str(&format!(
            "sim: {:.3} s simulated, {:.3} s wall, {} events\n",
            self.sim.simulated_s, self.sim.wall_s, self.sim.events
        ));
        if let Some(series) = &self.series {
            out.push_str(&series.to_table());
        }
        if let Some(drives) = &self.drives {
            out.push_str(&format!(
                "\nper drive: {:<5} {:>8} {:>10} {:>10} {:>10} {:>7} {:>6} {:>9} {:>6}\n",
                "drive", "pieces", "mean us", "p99 us", "max us", "WAF", "GC", "GC ms", "erases"
            ));
            for (i, r) in drives.iter().enumerate() {
                let l = &r.latency_us.all;
                out.push_str(&format!(
                    "           {:<5} {:>8} {:>10.1} {:>10.1} {:>10.1} {:>7.3} {:>6} {:>9.1} {:>6}\n",
                    i,
                    r.requests.total,
                    l.mean,
                    l.p99,
                    l.max,
                    r.flash.waf,
                    r.gc.invocations,
                    r.gc.total_time_us / 1e3,
                    r.flash.blocks_erased
                ));
            }
        }
        out
    }
}
