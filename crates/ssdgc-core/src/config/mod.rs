//! Drive and run configuration: typed settings, presets, TOML files, `--set` overrides, validation.
//!
//! Settings are layered: a preset (TOML text built into the binary), then an optional TOML file, then
//! `section.key=value` overrides, in that order. Every layer is checked against the known keys before
//! it is merged, so a typo is an error naming its source (file and line, or the override), never a
//! silently ignored setting. The merged table is then deserialised into [`Config`] and validated
//! ([`Config::validate`]): an impossible drive is rejected with a reason.

use serde::{Deserialize, Serialize};
use std::fmt;

mod builder;
mod keywords;
mod mapping;
mod presets;
mod units;
mod validate;

pub use keywords::{
    AgeingMode, CopybackEcc, Fold, HostMultiplane, HostPriority, PagcMargin, ThresholdUnit,
};
use units::format_duration;
pub use units::{parse_duration, parse_size, ByteSize, Duration};

use crate::gc::axis::{AxisSetting, Toggle};
use crate::units::{SimTime, SEC};

/// A configuration error, displayed as one line: `SOURCE[:LINE]: what is wrong`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ConfigError {
    /// Where the bad setting came from: a file path, `--set`, a preset name, or `config`.
    pub source_name: String,
    /// 1-based line in the source, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub msg: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // One line, whatever the input held: line breaks in quoted values are shown escaped.
        let msg = self.msg.replace('\n', "\\n").replace('\r', "\\r");
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.source_name, l, msg),
            None => write!(f, "{}: {}", self.source_name, msg),
        }
    }
}

impl ConfigError {
    fn new(source_name: &str, line: Option<usize>, msg: impl Into<String>) -> Self {
        ConfigError {
            source_name: source_name.to_string(),
            line,
            msg: msg.into(),
        }
    }
    fn invalid(msg: impl Into<String>) -> Self {
        ConfigError::new("config", None, msg)
    }
}

/// Longest accepted flash, suspend, command or buffer time: 1 s.
pub const MAX_DURATION: SimTime = SEC;
/// Largest accepted `host.time_scale`.
pub const MAX_TIME_SCALE: f64 = 1e6;
/// Largest accepted page: 1 MiB.
pub const MAX_PAGE_SIZE: u64 = 1 << 20;
/// Most planes per die: plane sets are 64-bit masks.
pub const MAX_PLANES_PER_DIE: u32 = 64;

/// `ftl.allocation` as its canonical name (`"CWDP"`); read case-insensitively.
mod allocation_order {
    use crate::flash::AllocationOrder;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(o: &AllocationOrder, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&o.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<AllocationOrder, D::Error> {
        let s = String::deserialize(d)?;
        parse(&s).map_err(serde::de::Error::custom)
    }

    /// Parses `s`, the error naming the key.
    pub(super) fn parse(s: &str) -> Result<AllocationOrder, String> {
        s.parse()
            .map_err(|why| format!("'ftl.allocation' = '{s}' {why}"))
    }
}

/// The drive's organisation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeometryConfig {
    pub channels: u32,
    pub chips_per_channel: u32,
    pub dies_per_chip: u32,
    pub planes_per_die: u32,
    pub blocks_per_plane: u32,
    pub pages_per_block: u32,
    /// Bytes per page.
    pub page_size: ByteSize,
    /// Share of physical capacity hidden from the host.
    pub overprovision: f64,
    /// Page (data) registers per plane, 1 to 8: with more than one, GC may keep that many page
    /// moves of one plane in flight (`gc.migration = "parallel"`; the parallel-page-migration
    /// paper's architecture, §IV-B, Fig. 3). Host operations use one.
    pub registers_per_plane: u32,
    /// What the pages in flight on one plane's registers share: `none` (the paper's idealised
    /// architecture: N moves take as long as one), `command` (the die's command and address cycles,
    /// one page at a time) or `array` (the plane's array reads or programs one page at a time: no
    /// gain from registers; the default).
    pub register_sharing: crate::flash::RegisterSharing,
}

/// Flash and bus timing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimingConfig {
    /// Page read, array → register.
    pub read: Duration,
    /// Page program, register → array.
    pub program: Duration,
    /// Block erase.
    pub erase: Duration,
    /// Channel transfer rate in mega-transfers per second (ONFI-like).
    pub channel_rate_mts: u32,
    /// Channel bus width in bits.
    pub channel_width_bits: u32,
    /// Command and address cycles per flash command.
    pub command: Duration,
    /// Latency to suspend an ongoing program or erase.
    pub suspend: Duration,
}

/// Flash translation layer settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FtlConfig {
    /// Static allocation order of logical pages over channel (C), chip/way (W), die (D), plane (P),
    /// fastest-changing first: one of the 24 permutations, e.g. `CWDP` (case-insensitive; written
    /// back upper case).
    #[serde(with = "allocation_order")]
    pub allocation: crate::flash::AllocationOrder,
    /// Order of each plane's free-block pool: `fifo` (first freed, first out), `youngest` or
    /// `oldest` (by erase count; practical-GC paper §III-C).
    pub pool: crate::ftl::PoolOrder,
    /// Which end of an erase-ordered pool the hot GC stream takes its blocks from (`young` or
    /// `old`); the cold stream takes the other (practical-GC paper §III-B/C).
    pub hot_to: crate::ftl::HotTo,
    /// GC copies hot and cold valid pages (HC classification, practical-GC paper §III-B) to
    /// separate write points; 8 bytes of memory per logical page when on.
    pub hot_cold: bool,
    /// The mapping scheme: `page` (pure page-level mapping), `lftl` (L-FTL: block-mapped data
    /// blocks with one page-mapped log block per logical block) or `hftl` (H-FTL: n:m hybrid
    /// log-block mapping) (AGC/DGC paper §2.1, §6; docs/schemes/hybrid-ftl.md).
    pub mapping: crate::ftl::MappingKind,
    /// Log-block mappings: the most update (log) blocks a plane holds; 0 (the default): as many as
    /// its free blocks allow above the GC threshold.
    pub log_blocks: u32,
    /// H-FTL: logical blocks per group (n of n:m; the paper's 2:8 → 2).
    pub group_data_blocks: u32,
    /// H-FTL: update blocks a group may hold before it is merged (m of n:m; the paper's 2:8 → 8).
    pub group_update_blocks: u32,
    /// Read-modify-write: a host write that covers part of a page (of a super-page with the
    /// plane-level superblock) whose logical page holds data first reads the page (the rest of it)
    /// and takes it out over the channel, then writes the whole page, as SSDsim does. Off: a
    /// partial write programs the page without reading it.
    pub rmw: bool,
    /// Host multi-plane commands: `off`, `aligned` or `greedy` ([`HostMultiplane`]).
    pub multiplane: HostMultiplane,
}

/// Garbage collection settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GcConfig {
    /// The GC scheme (`ssdgc list schemes`).
    pub scheme: String,
    /// The victim policy with its parameters (`ssdgc list victims`): the string form `"rga:8"` or
    /// the table form `{ policy = "rga", d = 8 }` ([`crate::gc::victim::kind`]); written back in
    /// the canonical string form.
    pub victim: crate::gc::victim::VictimKind,
    /// A plane collects when its free blocks (or, with `trigger = "pages"`, its free pages) fall
    /// below this share.
    pub threshold: f64,
    /// What the threshold counts: `blocks` (free blocks in the pool) or `pages` (free pages,
    /// including the rest of the open blocks, as in the PaGC paper §VI).
    pub trigger: ThresholdUnit,
    /// PaGC: a paired plane joins a parallel GC when its free-page share is below this; 0 derives
    /// it from `threshold` by `pagc_margin` (the PaGC paper's PaGC_TH, §V-B).
    pub pagc_threshold: f64,
    /// How a zero `pagc_threshold` derives from `threshold`: `relative` (× 1.05, "5% larger", the
    /// default) or `points` (+ 0.05).
    pub pagc_margin: PagcMargin,
    /// Idle-time GC (`idle`): in idle time a plane collects while its free-block share is below this;
    /// 0 means twice `threshold`.
    pub idle_threshold: f64,
    /// NCQ-aware timing (`gc.when = "ncq"`): commands in the device queue from which it counts as
    /// busy and GC is deferred to the last free blocks (practical-GC paper §III-D); at least 1.
    pub ncq_busy: u32,
    /// NCQ-aware timing: with the device queue empty, a plane collects only when its best
    /// candidate has at least this share of its pages invalid (at least one page), in [0, 1).
    pub ncq_min_gain: f64,
    /// Preemptible GC (`pgc*`, `fpgc`): the soft threshold T_soft, a free-block share below which GC
    /// starts and every request may preempt it (state S1); 0 means `threshold`.
    pub soft_threshold: f64,
    /// Preemptible GC: the hard threshold T_hard, a free-block share below which writes to the plane
    /// may no longer preempt its GC (state S2); 0 means half the soft threshold.
    pub hard_threshold: f64,
    /// Move valid pages inside the plane with copyback (no channel transfer); otherwise read them out
    /// over the channel and write them back.
    pub copyback: bool,
    /// With copyback: `none` (the page stays in the plane) or `round-trip` (it goes out to the
    /// controller for ECC and back over the channel, the timing of a move without copyback).
    pub copyback_ecc: CopybackEcc,
    /// GC axes ([`crate::gc::schemes`]): each is `"scheme"` (the named scheme's value) or a value
    /// that overrides it. When GC runs: `on-demand`, `idle`, `states`.
    pub when: AxisSetting<crate::gc::when::When>,
    /// How much one on-demand invocation collects: `restore` (until the threshold is restored) or
    /// `one` (one victim per triggering write).
    pub collect: AxisSetting<crate::gc::when::Collect>,
    /// Preemption: `none` (a job holds its die) or `ops` (host work between operations).
    pub preempt: AxisSetting<crate::gc::preempt::PreemptMode>,
    /// Merging of preempting reads into GC moves (true/false).
    pub merge: AxisSetting<Toggle>,
    /// Pipelining of host commands with GC commands of the same type (true/false).
    pub pipeline: AxisSetting<Toggle>,
    /// Suspension of GC operations in progress: `none`, `erase`, `all`.
    pub suspend: AxisSetting<crate::gc::preempt::Suspend>,
    /// Which planes collect together: `serial`, `pagc-blind`, `pagc-threshold`, `pagc-cache`,
    /// `superblock`.
    pub planes: AxisSetting<crate::gc::planes::Planes>,
    /// How pages move: `serial`, `instant` (the zero-latency oracle), `parallel` (`gc.workers`
    /// moves of one plane in flight on its registers).
    pub migration: AxisSetting<crate::gc::migration::Migration>,
    /// AGC/DGC (`gc.when` = `agc`, `dgc`, `agc-dgc`) and the idle-period report: an idle period
    /// longer than this is a long idle period (AGC/DGC paper §4.1, 1 s in its measurements).
    pub long_idle: Duration,
    /// AGC's proactive block compaction (long idle periods) collects a plane while its free blocks
    /// are below `gc.threshold`'s blocks × (1 + this): how far above the GC threshold AGC secures
    /// free blocks ahead of need (AGC/DGC paper §5.1, §6.5). 0 (the default): only planes whose
    /// GC is due (below the threshold, as DGC's deferrals leave them), so that no GC is added.
    pub agc_threshold: f64,
    /// DGC: the share, in [0, 1], of the free blocks `gc.threshold` holds back (less those a
    /// plane needs to collect at all, [`Config::reserve_blocks`]) that may serve as delay blocks
    /// for deferred GC (AGC/DGC paper §5.2); once they are used, GC runs on demand again.
    pub dgc_reserve: f64,
    /// Parallel migration: worker threads moving one victim's pages at once, each on a page
    /// register of the plane (at most `geometry.registers_per_plane`); 0 means one per register.
    pub workers: u32,
    /// The copyback odd/even page restriction (a page may be copied back only to a page of the same
    /// parity): `none`, `paper` (the paper's pairing, Algorithm 3: the lowest free page of the same
    /// parity, even out of program order) or `in-order` (destinations programmed in order, a page
    /// skipped to keep parity and counted as wasted).
    pub copyback_parity: crate::gc::migration::Parity,
    /// IPPBE: victims of one plane collected by one job and erased together for one erase latency
    /// (1 to 8; 1 is one victim per job).
    pub erase_blocks: u32,
    /// What a GC job holds between its operations: `plane` (the die serves host work of its other
    /// planes in between), `die` (the default) or `channel` (no other die of the channel starts an
    /// operation while a die of it runs GC).
    pub blocking: crate::flash::GcScope,
}

/// The GC axis keys of `[gc]`, which take `"scheme"` or a value of their axis.
pub const GC_AXIS_KEYS: &[&str] = &[
    "when",
    "collect",
    "preempt",
    "merge",
    "pipeline",
    "suspend",
    "planes",
    "migration",
];

/// Host interface settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostConfig {
    /// Device queue depth (NCQ-like).
    pub queue_depth: u32,
    /// Trace addresses beyond the logical space: `wrap` (fold modulo the capacity) or `reject`.
    pub fold: Fold,
    /// Multiplies trace inter-arrival times: 0.5 replays twice as fast.
    pub time_scale: f64,
    /// The marginal response time: a request slower than this counts in `excess` by how much
    /// it is slower (excess waiting time, AGC/DGC paper §6.3: 30 ms).
    pub excess_bound: Duration,
    /// Report idle periods, GC overhead, the excess waiting time's distribution and the write
    /// requests' response times (`schemes.critical_path`) for any scheme (the AGC/DGC schemes
    /// report them always).
    pub critical_path: bool,
    /// Order in which a die serves its queued host transactions: `fifo` (arrival order) or
    /// `reads-first` (reads before writes, a read never passing a write of its own page).
    pub priority: HostPriority,
}

/// Preconditioning before measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreconditionConfig {
    /// `none`, `fill` (sequential fill), `steady` (fill, then random overwrites) or `trace` (the
    /// workload itself: the pages it reads, then those it writes, then shifted copies until every
    /// page is written, then its writes again).
    pub mode: AgeingMode,
    /// With `steady`: random single-page overwrites, as a multiple of the logical capacity; with
    /// `trace`: page writes of the workload's writes after the fill, as that multiple.
    pub overwrites: f64,
}

/// The optional host write buffer (preemptible-GC paper §V, Fig. 16).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferConfig {
    /// Capacity in bytes (whole pages are used); 0 means no buffer.
    pub size: ByteSize,
    /// Time to acknowledge a buffered write or serve a read from the buffer (`"20ns"`: STT-RAM,
    /// as in the paper; DRAM is nearer `"50ns"`).
    pub latency: Duration,
}

/// A RAID-0 array of identical drives behind one host front end.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArrayConfig {
    /// Drives in the array (1: a single drive).
    pub drives: u32,
    /// Stripe unit: consecutive chunks of the array's logical space go to consecutive drives. A
    /// positive multiple of the page size.
    pub chunk: ByteSize,
    /// Per-disk traces: the disks (trace device or volume numbers) each drive replaces, one list
    /// per drive (`[[0, 1], [2, 5], [3, 4]]`: the AGC/DGC paper's 3-drive array). A drive's
    /// logical space is split evenly among its disks, in list order. Empty (the default): the
    /// array is one volume striped over the drives by `chunk`.
    pub disks: Vec<Vec<u64>>,
}

/// Most drives an array may have.
pub const MAX_DRIVES: u32 = 64;

/// A whole configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub geometry: GeometryConfig,
    pub timing: TimingConfig,
    pub ftl: FtlConfig,
    pub gc: GcConfig,
    pub host: HostConfig,
    pub buffer: BufferConfig,
    pub precondition: PreconditionConfig,
    pub array: ArrayConfig,
}

use presets::PRESET_DEFAULT;
pub use presets::{presets, PRESETS};

pub use builder::ConfigBuilder;

impl Default for Config {
    fn default() -> Self {
        ConfigBuilder::preset("default")
            .and_then(ConfigBuilder::build)
            .expect("the default preset is valid")
    }
}

impl Config {
    /// Loads a preset by name.
    pub fn preset(name: &str) -> Result<Config, ConfigError> {
        ConfigBuilder::preset(name)?.build()
    }

    /// The PaGC join threshold (free-page share), resolving 0 through `gc.pagc_margin`
    /// (`threshold × 1.05` or `threshold + 0.05`).
    pub fn pagc_threshold(&self) -> f64 {
        if self.gc.pagc_threshold > 0.0 {
            self.gc.pagc_threshold
        } else {
            self.gc.pagc_margin.apply(self.gc.threshold)
        }
    }

    /// Idle-time GC's background level (free-block share), resolving 0 to `2 × threshold`.
    pub fn idle_threshold(&self) -> f64 {
        if self.gc.idle_threshold > 0.0 {
            self.gc.idle_threshold
        } else {
            2.0 * self.gc.threshold
        }
    }

    /// Preemptible GC's soft and hard thresholds in free blocks per plane: `(soft, hard)`, with
    /// `soft ≥ hard ≥ 2`. Zero settings resolve to `threshold` and half the soft share.
    pub fn pgc_threshold_blocks(&self) -> (u32, u32) {
        let bpp = self.geometry.blocks_per_plane as f64;
        let soft = if self.gc.soft_threshold > 0.0 {
            self.gc.soft_threshold
        } else {
            self.gc.threshold
        };
        let hard = if self.gc.hard_threshold > 0.0 {
            self.gc.hard_threshold
        } else {
            soft / 2.0
        };
        let reserve = self.reserve_blocks();
        let soft_b = ((soft * bpp).ceil() as u32).max(reserve);
        let hard_b = ((hard * bpp).ceil() as u32).clamp(reserve, soft_b);
        (soft_b, hard_b)
    }

    /// Free blocks a plane keeps before it collects: `ceil(threshold × blocks_per_plane)`, at least
    /// [`Config::reserve_blocks`].
    pub fn gc_threshold_blocks(&self) -> u32 {
        let b = (self.gc.threshold * self.geometry.blocks_per_plane as f64).ceil() as u32;
        b.max(self.reserve_blocks())
    }

    /// AGC's free-block target per plane (`gc.agc_threshold`): proactive compaction collects a
    /// plane while its free blocks are below `⌈gc_threshold_blocks × (1 + agc_threshold)⌉` (at
    /// 0, the GC threshold itself: only planes whose GC is due).
    pub fn agc_threshold_blocks(&self) -> u32 {
        let t = self.gc_threshold_blocks();
        let b = (t as f64 * (1.0 + self.gc.agc_threshold)).ceil() as u32;
        b.max(t)
    }

    /// DGC's delay blocks per plane (`gc.dgc_reserve`): `⌊dgc_reserve × (gc_threshold_blocks −
    /// 1 − reserve_blocks)⌋`. A plane's GC is due once fewer than `gc_threshold_blocks` blocks are
    /// free; the free blocks it then holds, less the [`Config::reserve_blocks`] it needs to collect
    /// at all, are the blocks deferred GCs may take.
    pub fn dgc_delay_blocks(&self) -> u32 {
        let room = self
            .gc_threshold_blocks()
            .saturating_sub(1 + self.reserve_blocks());
        (self.gc.dgc_reserve * room as f64).floor() as u32
    }

    /// Free blocks a plane needs so that a host write and a GC job can each open a block: 2, or 3
    /// with hot/cold separation (`ftl.hot_cold`: GC writes two streams). Under a log-block mapping,
    /// a host write's update block and a full merge's fresh data blocks: 2 for L-FTL, n + 1 for
    /// H-FTL (`ftl.group_data_blocks` = n).
    pub fn reserve_blocks(&self) -> u32 {
        use crate::ftl::MappingKind;
        match self.ftl.mapping {
            MappingKind::Page => 2 + u32::from(self.ftl.hot_cold),
            MappingKind::Lftl => 2,
            MappingKind::Hftl => self.ftl.group_data_blocks.saturating_add(1),
        }
    }

    /// The GC axes this configuration asks for (the named scheme with the axis keys' overrides).
    pub fn gc_axes(&self) -> Result<crate::gc::schemes::GcAxes, String> {
        crate::gc::schemes::GcAxes::resolve(&self.gc)
    }

    /// The flash geometry's parameters.
    pub fn geometry_params(&self) -> crate::flash::GeometryParams {
        let g = &self.geometry;
        crate::flash::GeometryParams {
            channels: g.channels,
            chips_per_channel: g.chips_per_channel,
            dies_per_chip: g.dies_per_chip,
            planes_per_die: g.planes_per_die,
            blocks_per_plane: g.blocks_per_plane,
            pages_per_block: g.pages_per_block,
            page_size: g.page_size.0,
            overprovision: g.overprovision,
        }
    }

    /// The flash timing's parameters.
    pub fn timing_params(&self) -> crate::flash::TimingParams {
        let t = &self.timing;
        crate::flash::TimingParams {
            read: t.read.ns(),
            program: t.program.ns(),
            erase: t.erase.ns(),
            command: t.command.ns(),
            suspend: t.suspend.ns(),
            channel_rate_mts: t.channel_rate_mts,
            channel_width_bits: t.channel_width_bits,
            page_size: self.geometry.page_size.0,
        }
    }

    /// The resource model's settings: registers per plane, what they share, what a GC job holds.
    pub fn resource_params(&self) -> crate::flash::ResourceParams {
        crate::flash::ResourceParams {
            registers_per_plane: self
                .geometry
                .registers_per_plane
                .clamp(1, crate::flash::MAX_REGISTERS as u32)
                as u8,
            sharing: self.geometry.register_sharing,
            scope: self.gc.blocking,
        }
    }

    /// The FTL's parameters: allocation order, GC trigger, pool order, write streams and the victim
    /// policy that indexes each plane's candidates. (Both are typed settings, checked when the
    /// configuration was read; the `Result` is the FTL constructor's conversion.)
    pub fn ftl_params(&self) -> Result<crate::ftl::FtlParams, String> {
        let allocation = self.ftl.allocation;
        let victim = self.gc.victim;
        let pages_per_plane =
            self.geometry.blocks_per_plane as u64 * self.geometry.pages_per_block as u64;
        Ok(crate::ftl::FtlParams {
            allocation,
            trigger: crate::ftl::Trigger {
                blocks: self.gc_threshold_blocks(),
                pages: (self.gc.trigger == ThresholdUnit::Pages)
                    .then(|| (self.gc.threshold * pages_per_plane as f64).ceil() as u64),
            },
            pool: self.ftl.pool,
            streams: crate::ftl::StreamLayout::new(self.ftl.hot_to),
            hot_cold: self.ftl.hot_cold,
            candidates: std::sync::Arc::new(victim),
            mapping: self.ftl.mapping,
            log: crate::ftl::LogParams {
                shape: crate::ftl::GroupShape {
                    data: self.ftl.group_data_blocks,
                    update: self.ftl.group_update_blocks,
                },
                log_blocks: self.ftl.log_blocks,
                // Validation admits only these three with a log-block mapping.
                victim: match victim {
                    crate::gc::victim::VictimKind::Fifo => crate::ftl::MergeVictim::Fifo,
                    crate::gc::victim::VictimKind::Random => crate::ftl::MergeVictim::Random,
                    _ => crate::ftl::MergeVictim::Greedy,
                },
            },
        })
    }

    /// The configuration as TOML text (for `--dump-config` and reports).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }
}

impl From<&Config> for crate::flash::GeometryParams {
    fn from(cfg: &Config) -> Self {
        cfg.geometry_params()
    }
}

impl From<&Config> for crate::flash::TimingParams {
    fn from(cfg: &Config) -> Self {
        cfg.timing_params()
    }
}

impl TryFrom<&Config> for crate::ftl::FtlParams {
    type Error = String;
    fn try_from(cfg: &Config) -> Result<Self, String> {
        cfg.ftl_params()
    }
}

#[cfg(test)]
mod tests;
