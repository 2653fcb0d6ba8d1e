//! The plain data a run hands to the report: counters and summaries that the drives and the host
//! front end produce, in types of this module (and of the layers below), so that the report knows
//! nothing of the simulator, the drive or the front end ([`super::report::build`]).

use std::ops::AddAssign;

use super::breakdown::DieClock;
use super::report::{BufferReport, DriveInfo, WorkloadInfo};
use super::{Responses, Series};
use crate::gc::schemes::GcAxes;
use crate::units::SimTime;

/// Declares a struct of counters (deriving `Default`) with its `+=` and `Sum` (the sum over the
/// drives of an array), generated from the field list so that a new counter cannot be left out of
/// the sum.
macro_rules! counters {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* pub $field:ident : $ty:ty, )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl AddAssign for $name {
            fn add_assign(&mut self, o: $name) {
                $( self.$field += o.$field; )*
            }
        }

        impl std::iter::Sum for $name {
            fn sum<I: Iterator<Item = $name>>(items: I) -> $name {
                items.fold($name::default(), |mut total, x| {
                    total += x;
                    total
                })
            }
        }
    };
}

counters! {
    /// What one drive did in the measured run (or, summed with `+=`, every drive of an array).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    pub struct DriveWork {
        /// Dies the figures cover.
        pub dies: u64,
        /// Pages programmed with host data.
        pub host_pages_written: u64,
        /// Host pages read from flash (merged reads included).
        pub host_pages_read: u64,
        /// Valid pages moved by GC.
        pub gc_pages_moved: u64,
        /// Blocks erased.
        pub blocks_erased: u64,
        /// Victims chosen.
        pub victims: u64,
        /// Valid pages the victims held when chosen.
        pub victim_valid_pages: u64,
        /// Die time spent on GC, ns.
        pub gc_time: SimTime,
        /// Host writes to a page that a GC job in progress had still to move.
        pub cancelled_moves: u64,
        /// Events the drive handled.
        pub events: u64,
        /// PaGC: pages moved by multi-plane read and program.
        pub pard_pawr: u64,
        /// PaGC: pages moved by single-plane reads and a multi-plane program.
        pub srrd_pawr: u64,
        /// PaGC: pages moved by a single-plane read and program.
        pub srrd_srwr: u64,
        /// PaGC: victims collected by planes that joined another plane's GC.
        pub pagc_joined: u64,
        /// Pages read out into the DRAM buffer by GC (TC-PaGC).
        pub pages_buffered: u64,
        /// Pages left unprogrammed to align write points.
        pub pages_skipped: u64,
        /// Die time per preemptible-GC state S0–S3, summed over dies, ns.
        pub s0_time: SimTime,
        /// See `s0_time`.
        pub s1_time: SimTime,
        /// See `s0_time`.
        pub s2_time: SimTime,
        /// See `s0_time`.
        pub s3_time: SimTime,
        /// Host transactions served while a GC job of their die was in progress.
        pub preemptions: u64,
        /// Entries into S3.
        pub s3_holds: u64,
        /// GC jobs started in device idle time.
        pub idle_jobs: u64,
        /// Host reads served from a GC move's page register.
        pub merged_reads: u64,
        /// Host writes merged into a GC move's page buffer.
        pub merged_writes: u64,
        /// GC operations suspended for host requests.
        pub suspensions: u64,
        /// Host reads pipelined with a GC move's read.
        pub pipelined_reads: u64,
        /// Host writes pipelined with a GC move's program.
        pub pipelined_writes: u64,
        /// Requests (pieces) the drive received, classified by the gap before them
        /// (`schemes.critical_path.idle`): with the drive busy, after a short or a long idle
        /// period (and the periods' total length, ns).
        pub idle_requests: u64,
        /// See `idle_requests`.
        pub back_to_back: u64,
        /// See `idle_requests`.
        pub short_idle: u64,
        /// See `idle_requests`.
        pub short_idle_ns: SimTime,
        /// See `idle_requests`.
        pub long_idle: u64,
        /// See `idle_requests`.
        pub long_idle_ns: SimTime,
        /// The AGC/DGC family: jobs a host write waited for.
        pub agc_on_demand: u64,
        /// Jobs of look-ahead GC.
        pub agc_look_ahead: u64,
        /// Jobs of proactive block compaction.
        pub agc_proactive: u64,
        /// Jobs of retroactive block compaction.
        pub agc_retroactive: u64,
        /// Delay blocks taken (deferred GCs).
        pub agc_delayed: u64,
        /// On-demand jobs because the delay reserve was used up.
        pub agc_fallbacks: u64,
        /// Interrupted jobs resumed in a later idle period.
        pub agc_resumed: u64,
        /// Look-ahead jobs given up because eq. 2's estimate did not fit.
        pub agc_unfit: u64,
        /// Log-block mappings: merges, pages copied and blocks erased per kind.
        pub merges: MergeWork,
        /// Log-block mappings: update blocks held at the end of the run.
        pub update_blocks: u64,
        /// Log-block mappings: the most update blocks one drive held at once (over an array's
        /// drives, the largest).
        pub update_blocks_peak: Peak,
        /// Log-block mappings: update blocks opened beyond a group's shape or the plane's cap.
        pub overflow_blocks: u64,
        /// Planned jobs (parallel migration, IPPBE, copyback parity) completed.
        pub gc_jobs: u64,
        /// Planned jobs: the sum of their durations, ns.
        pub gc_job_time: SimTime,
        /// Planned jobs: operations that moved pages (waves of the workers).
        pub waves: u64,
        /// Planned jobs: time each worker's page register held a page, ns.
        pub worker_busy: PerWorker,
        /// Pages left unprogrammed to keep a copyback destination's parity.
        pub parity_skipped: u64,
        /// Moves to a page before one already programmed in its block (the paper's pairing).
        pub out_of_order_pairs: u64,
        /// Multi-block erases (IPPBE).
        pub multi_erases: u64,
        /// Pages read for read-modify-writes of partly written pages (`ftl.rmw`).
        pub rmw_reads: u64,
        /// Host multi-plane commands: reads and writes issued, pages they carried, pages skipped
        /// to align write points (`ftl.multiplane`).
        pub multiplane_reads: u64,
        pub multiplane_writes: u64,
        pub multiplane_pages: u64,
        pub multiplane_skipped: u64,
    }
}

/// A log-block FTL's merges, pages copied and blocks erased, per kind (index: switch, partial,
/// full, as [`crate::ftl::MergeKind`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeWork {
    pub count: [u64; 3],
    pub pages_copied: [u64; 3],
    pub blocks_erased: [u64; 3],
}

impl AddAssign for MergeWork {
    fn add_assign(&mut self, o: MergeWork) {
        for k in 0..3 {
            self.count[k] += o.count[k];
            self.pages_copied[k] += o.pages_copied[k];
            self.blocks_erased[k] += o.blocks_erased[k];
        }
    }
}

/// A time per worker of parallel migration (worker `i` moves the `i`-th page of every wave).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerWorker(pub [SimTime; crate::flash::MAX_REGISTERS as usize]);

impl AddAssign for PerWorker {
    fn add_assign(&mut self, o: PerWorker) {
        for (a, b) in self.0.iter_mut().zip(o.0) {
            *a += b;
        }
    }
}

/// A figure that combines over an array's drives by its maximum: `+=` keeps the larger.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Peak(pub u64);

impl AddAssign for Peak {
    fn add_assign(&mut self, o: Peak) {
        self.0 = self.0.max(o.0);
    }
}

/// The log-block mapping of a run's drives (`ftl.mapping` = `lftl` or `hftl`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MappingInfo {
    /// `lftl` or `hftl`.
    pub mapping: String,
    /// Logical blocks per group (n).
    pub data_blocks_per_group: u32,
    /// Update blocks per group (m).
    pub update_blocks_per_group: u32,
    /// `ftl.log_blocks` (0: no cap).
    pub log_blocks: u32,
}

/// The settings of planned jobs a run used, for the report (`schemes.migration`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MigrationSettings {
    /// Workers moving one victim's pages at once.
    pub workers: u32,
    /// Page registers per plane.
    pub registers_per_plane: u32,
    /// What the pages in flight on a plane's registers share.
    pub register_sharing: String,
    /// Victims erased together (IPPBE).
    pub erase_blocks: u32,
    /// The copyback parity restriction.
    pub copyback_parity: String,
}

/// Which host-path capabilities of the drive a run uses (their counters are reported only then).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostPath {
    /// Read-modify-write of partial pages (`ftl.rmw`).
    pub rmw: bool,
    /// Host multi-plane commands (`ftl.multiplane` other than `off`).
    pub multiplane: bool,
}

/// Requests as the host (or one drive of an array) saw them.
pub struct HostFigures<'a> {
    /// Response times of the requests (in an array's drive: of the pieces it served).
    pub requests: &'a Responses,
    /// The write buffer's counters (in an array's drive: its share of them).
    pub buffer: BufferReport,
}

/// One drive's figures.
pub struct DriveFigures<'a> {
    pub work: DriveWork,
    /// What each of its dies has been doing.
    pub clocks: Vec<DieClock>,
    /// Erase count of every block.
    pub erase_counts: &'a [u32],
    /// In an array of several drives: the pieces of requests it served.
    pub host: Option<HostFigures<'a>>,
}

/// Everything the report of one run is built from.
pub struct RunFigures<'a> {
    pub scheme: &'a str,
    /// The GC axes the run used.
    pub axes: GcAxes,
    /// The settings of planned jobs, when the run plans them (parallel migration, IPPBE,
    /// copyback parity).
    pub migration: Option<MigrationSettings>,
    /// The victim policy, canonical form.
    pub victim: String,
    pub seed: u64,
    pub workload: WorkloadInfo,
    /// One drive (with `array` set in an array of several).
    pub drive: DriveInfo,
    /// The host's requests.
    pub host: HostFigures<'a>,
    /// Latency over arrival time and over the request sequence, when asked for.
    pub by_time: Option<&'a Series>,
    pub by_request: Option<&'a Series>,
    /// Latency over the sequence of write requests (with the critical-path figures).
    pub by_write: Option<&'a Series>,
    /// The run reports `schemes.critical_path`, with idle periods longer than `long_idle` long.
    pub critical_path: bool,
    pub long_idle: SimTime,
    /// Widths asked for (the series may use wider ones).
    pub series_interval: Option<SimTime>,
    pub series_window: Option<u64>,
    /// The drives, in order.
    pub drives: Vec<DriveFigures<'a>>,
    /// The drives' log-block mapping; `None` under page mapping.
    pub mapping: Option<MappingInfo>,
    /// Simulated time at the last event.
    pub simulated: SimTime,
    /// Requests that found the device queue full and waited on the host for a slot.
    pub queued_on_host: u64,
    pub wall_s: f64,
    /// Events processed by the whole run.
    pub events: u64,
    /// The host-path capabilities the drives use.
    pub host_path: HostPath,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_add_every_field() {
        let a = DriveWork {
            dies: 2,
            host_pages_written: 3,
            pipelined_writes: 5,
            s2_time: 7,
            ..DriveWork::default()
        };
        let mut s = a;
        s += DriveWork {
            dies: 2,
            pipelined_writes: 1,
            idle_jobs: 4,
            ..DriveWork::default()
        };
        let want = DriveWork {
            dies: 4,
            host_pages_written: 3,
            pipelined_writes: 6,
            s2_time: 7,
            idle_jobs: 4,
            ..DriveWork::default()
        };
        assert_eq!(s, want);
        let parts = [a, want, DriveWork::default()];
        let total: DriveWork = parts.iter().copied().sum();
        assert_eq!(total.dies, 6);
        assert_eq!(total.pipelined_writes, 11);
        assert_eq!(total.s2_time, 14);
    }
}
