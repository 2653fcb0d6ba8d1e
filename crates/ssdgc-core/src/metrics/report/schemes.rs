//! The `schemes` section of the run report: the counters of the GC capabilities a run uses, one
//! sub-object per capability (documented in `docs/report-schema.md`).

use serde::Serialize;

/// The counters of the GC capabilities a run uses ([`crate::gc::schemes::GcAxes`]): a sub-object
/// appears only when the run uses its capability, so a scheme adds its own key without changing
/// any other scheme's report.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Schemes {
    /// `gc.when = "states"`: the preemptible-GC states S0–S3.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub states: Option<States>,
    /// `gc.when = "idle"`: idle-time GC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idle: Option<IdleGc>,
    /// `gc.preempt = "ops"`: jobs preemptible between operations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preempt: Option<Preempt>,
    /// `gc.merge`: preempting reads and writes merged into GC moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merge: Option<Merge>,
    /// `gc.pipeline`: host commands pipelined with GC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pipeline: Option<Pipeline>,
    /// `gc.suspend` other than `"none"`: suspension of GC operations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suspend: Option<SuspendGc>,
    /// `gc.planes` = `pagc-*`: parallel GC of the planes of a die.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pagc: Option<Pagc>,
    /// `gc.when` = `agc`, `dgc`, `agc-dgc`: GC jobs by kind, DGC's deferrals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agc: Option<AgcGc>,
    /// `host.critical_path`, or the AGC/DGC family: idle periods, GC overhead, the excess waiting
    /// time's distribution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub critical_path: Option<CriticalPath>,
    /// `gc.migration = "parallel"`, `gc.erase_blocks` > 1 or `gc.copyback_parity` other than
    /// `"none"`: jobs planned when they start (parallel-page-migration paper §IV, IPPBE).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub migration: Option<Migration>,
}

/// GC jobs of the AGC/DGC family by kind (AGC/DGC paper Fig. 15(a)), and DGC's deferrals.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct AgcGc {
    /// Jobs a host write waited for (on-demand GC).
    pub on_demand: u64,
    /// Jobs of look-ahead GC (AGC, short idle periods).
    pub look_ahead: u64,
    /// Jobs of proactive block compaction (AGC, long idle periods).
    pub proactive: u64,
    /// Jobs of retroactive block compaction (DGC, idle periods).
    pub retroactive: u64,
    /// Deferred GCs: delay blocks taken by writes whose GC was due (DGC's update block
    /// replacement).
    pub delayed: u64,
    /// On-demand jobs run because a plane's delay reserve was used up (DGC).
    pub dgc_fallbacks: u64,
    /// Jobs interrupted at a checkpoint by a host request and resumed in a later idle period
    /// (incremental GC).
    pub resumed: u64,
    /// Look-ahead jobs weighed and given up: eq. 2's estimate did not fit before the next
    /// command.
    pub unfit: u64,
    /// Share of the jobs not run on demand: (look-ahead + proactive + retroactive) / all.
    pub hidden_share: f64,
    /// Share of the idle-time jobs that DGC ran: retroactive / (look-ahead + proactive +
    /// retroactive) (the paper: at most 20%).
    pub dgc_share: f64,
}

/// The figures of the AGC/DGC paper's evaluation (§4, §6) for any scheme.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct CriticalPath {
    /// The gaps before the requests: back-to-back, short and long idle periods (§4.1, §6).
    pub idle: IdleReport,
    /// GC overhead: the time requests spent waiting on GC — CsGC + CoGC + LC of
    /// `breakdown_us`, summed (the paper does not define the term; this is ssdgc's reading).
    pub gc_overhead: GcOverhead,
    /// The excess waiting time's distribution: requests whose response time exceeds
    /// `excess.marginal_us` by more than each step (§6.3, Figs. 12 and 14).
    pub excess_over: Vec<ExcessStep>,
}

/// Idle periods of the drive(s) (§4.1): each request after the first follows one.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct IdleReport {
    /// Idle periods longer than this are long (`gc.long_idle`), seconds.
    pub long_idle_s: f64,
    /// Requests received (by each drive: pieces).
    pub requests: u64,
    /// Requests that arrived while the drive had work: no idle time before them.
    pub back_to_back: u64,
    /// Short idle periods (at most `long_idle_s`) and their total length.
    pub short: u64,
    pub short_s: f64,
    /// Long idle periods and their total length.
    pub long: u64,
    pub long_s: f64,
    /// Shares of the requests followed by each (of `requests`; the last follows none).
    pub share_back_to_back: f64,
    pub share_short: f64,
    pub share_long: f64,
}

/// Time requests spent waiting on GC.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct GcOverhead {
    /// Summed over the requests, µs.
    pub total_us: f64,
    /// Per request, µs.
    pub mean_us: f64,
    /// Share of the requests' summed response time.
    pub share: f64,
}

/// One step of the excess waiting time's distribution.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct ExcessStep {
    /// Excess over the marginal response time, ms.
    pub above_ms: u64,
    /// Requests whose excess is larger.
    pub requests: u64,
}

/// Planned GC jobs: parallel page migration, IPPBE, the copyback parity restriction.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Migration {
    /// Workers moving one victim's pages at once (1: one page at a time).
    pub workers: u32,
    /// Page registers per plane (`geometry.registers_per_plane`).
    pub registers_per_plane: u32,
    /// What the pages in flight on a plane's registers share (`geometry.register_sharing`).
    pub register_sharing: String,
    /// Victims a job erases together (`gc.erase_blocks`).
    pub erase_blocks: u32,
    /// The copyback parity restriction (`gc.copyback_parity`).
    pub copyback_parity: String,
    /// Jobs completed.
    pub jobs: u64,
    /// The sum of the jobs' durations, from start to the end of their erase (the paper's total GC
    /// time; equal to `gc.total_time_us` for jobs held to their erase).
    pub job_time_us: f64,
    /// `job_time_us` per job.
    pub mean_job_time_us: f64,
    /// Victims per job (IPPBE: up to `erase_blocks`).
    pub victims_per_job: f64,
    /// Valid pages per victim when chosen (Table 3; `gc.mean_valid_pages_per_victim`).
    pub valid_pages_per_victim: f64,
    /// Valid pages migrated (Table 4; `flash.gc_pages_moved`).
    pub pages_migrated: u64,
    /// Operations that moved pages: waves of up to `workers` moves.
    pub waves: u64,
    /// Pages left unprogrammed to keep a copyback destination's parity (`in-order`).
    pub wasted_pages: u64,
    /// Pages moved to a destination before one already programmed in its block: the programs the
    /// paper's pairing makes and NAND forbids (`paper`).
    pub out_of_order_pairs: u64,
    /// Multi-block erases (more than one victim per erase).
    pub multi_block_erases: u64,
    /// Per worker: the share of `job_time_us` its page register held a page.
    pub register_utilisation: Vec<f64>,
}

/// Time per preemptible-GC state, and the holds of state S3.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct States {
    /// Time per state, mean per die.
    pub state_time_s: StateTime,
    /// Times a write made GC run to its erase with nothing preempting (entries into S3).
    pub s3_holds: u64,
}

/// Idle-time GC.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct IdleGc {
    /// GC jobs started in device idle time.
    pub idle_jobs: u64,
}

/// Preemption between GC operations.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Preempt {
    /// Host transactions served while a GC job of their die was in progress.
    pub preemptions: u64,
}

/// Merging of preempting host commands into GC moves (§III-B, Table III; Table IX's `M_r`, `M_w`).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Merge {
    /// Host reads served from the page register of a GC move of the same page, with no flash read
    /// of their own.
    pub merged_reads: u64,
    /// Host writes merged into the page buffer of a GC move of the same page: one program, at the
    /// GC write point, counted as a host page (the move is not made).
    pub merged_writes: u64,
}

/// Pipelining of host commands with GC through the cache register (§III-A, §III-C, Table IX).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Pipeline {
    /// GC page moves stopped between their read and their program for a host write: always 0
    /// since pipelining follows §III-C (no move is stopped; a write at point A is pipelined with
    /// the move's program and counted in `host_writes`). Kept within `ssdgc-report/2`.
    pub point_a: u64,
    /// Host reads whose transfer overlapped the next GC move's read (preemption point B).
    pub host_reads: u64,
    /// Host writes whose command and transfer overlapped a GC move's program (preemption point A).
    pub host_writes: u64,
}

/// Suspension of GC operations (§IV).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct SuspendGc {
    /// GC operations (program, erase, or a whole move) suspended for host requests.
    pub suspensions: u64,
}

/// Page moves per PaGC class, and the work around them.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Pagc {
    /// Pages moved by multi-plane read + multi-plane program.
    pub pard_pawr: u64,
    /// Pages moved by single-plane reads + a multi-plane program.
    pub srrd_pawr: u64,
    /// Pages moved by a single-plane read and program (or, with TC-PaGC, read into the buffer).
    pub srrd_srwr: u64,
    /// Victims collected by planes that joined another plane's GC.
    pub joined: u64,
    /// Pages read into the DRAM buffer (TC-PaGC).
    pub buffered_pages: u64,
    /// Pages left unprogrammed to keep aligned write points at one offset.
    pub skipped_pages: u64,
}

/// Die time per preemptible-GC state (§III-D of the preemptible-GC paper), mean per die, in seconds.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct StateTime {
    /// Free blocks at or above the soft threshold: no GC.
    pub s0: f64,
    /// Below the soft threshold: GC runs, every request may preempt it.
    pub s1: f64,
    /// Below the hard threshold: only requests that consume no free block (reads) preempt.
    pub s2: f64,
    /// A write waits on a plane below the hard threshold: GC runs to its erase, nothing preempts.
    pub s3: f64,
}
