//! Drive and run configuration: typed settings, presets, TOML files, `--set` overrides, validation.
//!
//! Settings are layered: a preset (TOML text built into the binary), then an optional TOML file, then
//! `section.key=value` overrides, in that order. Every layer is checked against the known keys before
//! it is merged, so a typo is an error naming its source (file and line, or the override), never a
//! silently ignored setting. The merged table is then deserialised into [`Config`] and validated
//! ([`Config::validate`]): an impossible drive is rejected with a reason.

use serde::{Deserialize, Serialize};
use std::fmt;

mod keywords;

pub use keywords::{AgeingMode, Fold, ThresholdUnit};

use crate::gc::axis::{AxisSetting, Toggle};
use crate::units::{SimTime, MS, SEC, US};

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
        match self.line {
            Some(l) => write!(f, "{}:{}: {}", self.source_name, l, self.msg),
            None => write!(f, "{}: {}", self.source_name, self.msg),
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

/// A duration written with its unit (`"25us"`, `"1.5ms"`, `"3.8ms"`, `"100ns"`, `"2s"`), or a bare
/// integer of nanoseconds. Held as integer nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Duration(pub SimTime);

impl Duration {
    /// Nanoseconds.
    pub fn ns(self) -> SimTime {
        self.0
    }
}

/// Parses a duration with a unit suffix into nanoseconds, exactly (decimal digits, no float).
pub fn parse_duration(s: &str) -> Result<SimTime, String> {
    let s = s.trim();
    let (num, mult) = if let Some(n) = s.strip_suffix("ns") {
        (n, 1)
    } else if let Some(n) = s.strip_suffix("us") {
        (n, US)
    } else if let Some(n) = s.strip_suffix("µs") {
        (n, US)
    } else if let Some(n) = s.strip_suffix("ms") {
        (n, MS)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, SEC)
    } else {
        return Err(format!(
            "duration '{s}' needs a unit: ns, us, ms or s (e.g. \"25us\")"
        ));
    };
    parse_decimal_scaled(num.trim(), mult).ok_or_else(|| format!("'{s}' is not a valid duration"))
}

/// Parses a byte size: `4096`, `"8KiB"`, `"2MiB"`, `"1GiB"`, `"512B"`.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (num, mult) = if let Some(n) = s.strip_suffix("KiB") {
        (n, 1u64 << 10)
    } else if let Some(n) = s.strip_suffix("MiB") {
        (n, 1 << 20)
    } else if let Some(n) = s.strip_suffix("GiB") {
        (n, 1 << 30)
    } else if let Some(n) = s.strip_suffix("TiB") {
        (n, 1 << 40)
    } else if let Some(n) = s.strip_suffix('B') {
        (n, 1)
    } else {
        (s, 1)
    };
    parse_decimal_scaled(num.trim(), mult).ok_or_else(|| format!("'{s}' is not a valid size"))
}

/// `"1.5"` × 1_000_000 → 1_500_000, exactly; `None` on junk, overflow or a fractional result.
fn parse_decimal_scaled(num: &str, mult: u64) -> Option<u64> {
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    if (int.is_empty() && frac.is_empty())
        || !int.bytes().all(|c| c.is_ascii_digit())
        || !frac.bytes().all(|c| c.is_ascii_digit())
        || frac.len() > 18
    {
        return None;
    }
    let den = 10u128.pow(frac.len() as u32);
    let int_v: u128 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let frac_v: u128 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    let scaled = (int_v.checked_mul(den)?.checked_add(frac_v)?).checked_mul(mult as u128)?;
    if scaled % den != 0 {
        return None;
    }
    u64::try_from(scaled / den).ok()
}

fn format_duration(ns: SimTime) -> String {
    if ns == 0 {
        "0ns".into()
    } else if ns.is_multiple_of(MS) {
        format!("{}ms", ns / MS)
    } else if ns.is_multiple_of(US) {
        format!("{}us", ns / US)
    } else {
        format!("{ns}ns")
    }
}

impl Serialize for Duration {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format_duration(self.0))
    }
}

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Int(u64),
            Str(String),
        }
        match Raw::deserialize(d)? {
            Raw::Int(n) => Ok(Duration(n)),
            Raw::Str(s) => parse_duration(&s)
                .map(Duration)
                .map_err(serde::de::Error::custom),
        }
    }
}

/// A byte size written as an integer or with a binary unit (`"8KiB"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ByteSize(pub u64);

impl Serialize for ByteSize {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.0)
    }
}

impl<'de> Deserialize<'de> for ByteSize {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Int(u64),
            Str(String),
        }
        match Raw::deserialize(d)? {
            Raw::Int(n) => Ok(ByteSize(n)),
            Raw::Str(s) => parse_size(&s)
                .map(ByteSize)
                .map_err(serde::de::Error::custom),
        }
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
    /// fastest-changing first: one of the 24 permutations, e.g. `CWDP`.
    pub allocation: String,
    /// Order of each plane's free-block pool: `fifo` (first freed, first out), `youngest` or
    /// `oldest` (by erase count; practical-GC paper §III-C).
    pub pool: crate::ftl::PoolOrder,
    /// Which end of an erase-ordered pool the hot GC stream takes its blocks from (`young` or
    /// `old`); the cold stream takes the other (practical-GC paper §III-B/C).
    pub hot_to: crate::ftl::HotTo,
}

/// Garbage collection settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GcConfig {
    /// The GC scheme (`ssdgc list schemes`).
    pub scheme: String,
    /// The victim policy (`ssdgc list victims`).
    pub victim: String,
    /// A plane collects when its free blocks (or, with `trigger = "pages"`, its free pages) fall
    /// below this share.
    pub threshold: f64,
    /// What the threshold counts: `blocks` (free blocks in the pool) or `pages` (free pages,
    /// including the rest of the open blocks, as in the PaGC paper §VI).
    pub trigger: ThresholdUnit,
    /// PaGC: a paired plane joins a parallel GC when its free-page share is below this; 0 means
    /// `threshold + 0.05` (the PaGC paper's PaGC_TH, §V-B).
    pub pagc_threshold: f64,
    /// Idle-time GC (`idle`): in idle time a plane collects while its free-block share is below this;
    /// 0 means twice `threshold`.
    pub idle_threshold: f64,
    /// Preemptible GC (`pgc*`, `fpgc`): the soft threshold T_soft, a free-block share below which GC
    /// starts and every request may preempt it (state S1); 0 means `threshold`.
    pub soft_threshold: f64,
    /// Preemptible GC: the hard threshold T_hard, a free-block share below which writes to the plane
    /// may no longer preempt its GC (state S2); 0 means half the soft threshold.
    pub hard_threshold: f64,
    /// Move valid pages inside the plane with copyback (no channel transfer); otherwise read them out
    /// over the channel and write them back.
    pub copyback: bool,
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
    /// Pipelining of GC moves, and preemption point A (true/false).
    pub pipeline: AxisSetting<Toggle>,
    /// Suspension of GC operations in progress: `none`, `erase`, `all`.
    pub suspend: AxisSetting<crate::gc::preempt::Suspend>,
    /// Which planes collect together: `serial`, `pagc-blind`, `pagc-threshold`, `pagc-cache`,
    /// `superblock`.
    pub planes: AxisSetting<crate::gc::planes::Planes>,
    /// How pages move: `serial`, `instant` (the zero-latency oracle).
    pub migration: AxisSetting<crate::gc::migration::Migration>,
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
}

/// Preconditioning before measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreconditionConfig {
    /// `none`, `fill` (sequential fill), or `steady` (fill, then random overwrites).
    pub mode: AgeingMode,
    /// With `steady`: random single-page overwrites, as a multiple of the logical capacity.
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

/// The PaGC paper's Table I drive (§VI) with `$blocks` blocks per plane: 16 channels × 8 chips of one
/// die with 2 planes, 8 KiB pages, 256 pages per block, 25 % spare, 75 µs / 1.5 ms / 3.8 ms, GC below
/// 7 % free pages per plane, and every request dispatched at once (as in the paper's SSDsim).
macro_rules! pagc_table1 {
    ($blocks:literal) => {
        concat!(
            "[geometry]\nchannels = 16\nchips_per_channel = 8\ndies_per_chip = 1\nplanes_per_die = 2\n",
            "blocks_per_plane = ",
            $blocks,
            "\npages_per_block = 256\npage_size = \"8KiB\"\noverprovision = 0.25\n",
            "[timing]\nread = \"75us\"\nprogram = \"1500us\"\nerase = \"3800us\"\nchannel_rate_mts = 333\n",
            "[gc]\nthreshold = 0.07\ntrigger = \"pages\"\n[host]\nqueue_depth = 65536\n"
        )
    };
}

/// The built-in presets: name, description, TOML overrides on top of `default`.
pub const PRESETS: &[(&str, &str, &str)] = &[
    (
        "default",
        "small 2x2x1x2 MLC drive (8 planes, 512 MiB raw), runs in seconds",
        PRESET_DEFAULT,
    ),
    (
        "pagc",
        "PaGC paper Table I: 800 GB-class enterprise drive, 16 ch x 8 chips, 2 planes/die, 8 KiB pages",
        pagc_table1!(2048),
    ),
    (
        "pagc-small",
        "the PaGC Table I drive with 128 blocks per plane instead of 2,048 (16 ch x 8 chips, 64 GiB raw)",
        pagc_table1!(128),
    ),
    (
        "pgc",
        "preemptible-GC paper Table VI: 8 ch x 1 element of 8 planes (4 dies x 2), 64-page blocks, SLC timing",
        "[geometry]\nchannels = 8\nchips_per_channel = 1\ndies_per_chip = 4\nplanes_per_die = 2\n\
         blocks_per_plane = 2048\npages_per_block = 64\npage_size = \"4KiB\"\noverprovision = 0.15\n\
         [timing]\nread = \"25us\"\nprogram = \"200us\"\nerase = \"1500us\"\n\
         [gc]\nthreshold = 0.05\n",
    ),
    (
        "ppm-slc",
        "parallel-page-migration paper Table 1, SLC: 4 ch x 4 chips x 2 dies x 2 planes, 64-page blocks",
        "[geometry]\nchannels = 4\nchips_per_channel = 4\ndies_per_chip = 2\nplanes_per_die = 2\n\
         blocks_per_plane = 2048\npages_per_block = 64\npage_size = \"4KiB\"\noverprovision = 0.15\n\
         [timing]\nread = \"25us\"\nprogram = \"200us\"\nerase = \"1500us\"\n\
         [gc]\nthreshold = 0.10\n",
    ),
    (
        "ppm-mlc",
        "parallel-page-migration paper Table 1, MLC: as ppm-slc with 256-page blocks and MLC timing",
        "[geometry]\nchannels = 4\nchips_per_channel = 4\ndies_per_chip = 2\nplanes_per_die = 2\n\
         blocks_per_plane = 2048\npages_per_block = 256\npage_size = \"4KiB\"\noverprovision = 0.15\n\
         [timing]\nread = \"75us\"\nprogram = \"1300us\"\nerase = \"3800us\"\n\
         [gc]\nthreshold = 0.10\n",
    ),
    (
        "agc-64g",
        "AGC/DGC paper: 64 GB drive, 4 ch x 4 ways, 2 dies x 2 planes, 128-page blocks, 3% free, 1% GC threshold",
        "[geometry]\nchannels = 4\nchips_per_channel = 4\ndies_per_chip = 2\nplanes_per_die = 2\n\
         blocks_per_plane = 2048\npages_per_block = 128\npage_size = \"4KiB\"\noverprovision = 0.03\n\
         [timing]\nread = \"183200ns\"\nprogram = \"860360ns\"\nerase = \"2ms\"\n\
         [gc]\nthreshold = 0.01\n",
    ),
    (
        "agc-128g",
        "AGC/DGC paper: 128 GB drive, 8 ch x 8 ways, 2 dies x 2 planes, 128-page blocks, 3% free, 1% GC threshold",
        "[geometry]\nchannels = 8\nchips_per_channel = 8\ndies_per_chip = 2\nplanes_per_die = 2\n\
         blocks_per_plane = 1024\npages_per_block = 128\npage_size = \"4KiB\"\noverprovision = 0.03\n\
         [timing]\nread = \"183200ns\"\nprogram = \"860360ns\"\nerase = \"2ms\"\n\
         [gc]\nthreshold = 0.01\n",
    ),
];

const PRESET_DEFAULT: &str = r#"
[geometry]
channels = 2
chips_per_channel = 2
dies_per_chip = 1
planes_per_die = 2
blocks_per_plane = 256
pages_per_block = 64
page_size = "4KiB"
overprovision = 0.20

[timing]
read = "50us"
program = "600us"
erase = "3ms"
channel_rate_mts = 333
channel_width_bits = 8
command = "0ns"
suspend = "20us"

[ftl]
allocation = "CWDP"
pool = "fifo"
hot_to = "young"

[gc]
scheme = "baseline"
victim = "greedy"
threshold = 0.03
trigger = "blocks"
pagc_threshold = 0.0
idle_threshold = 0.0
soft_threshold = 0.0
hard_threshold = 0.0
copyback = true
when = "scheme"
collect = "scheme"
preempt = "scheme"
merge = "scheme"
pipeline = "scheme"
suspend = "scheme"
planes = "scheme"
migration = "scheme"

[host]
queue_depth = 32
fold = "wrap"
time_scale = 1.0

[buffer]
size = 0
latency = "20ns"

[precondition]
mode = "steady"
overwrites = 2.0

[array]
drives = 1
chunk = "64KiB"
"#;

/// Names and descriptions of the presets.
pub fn presets() -> impl Iterator<Item = (&'static str, &'static str)> {
    PRESETS.iter().map(|(n, d, _)| (*n, *d))
}

/// Builds configurations layer by layer.
#[derive(Clone, Debug)]
pub struct ConfigBuilder {
    table: toml::Table,
}

fn parse_table(text: &str, source_name: &str) -> Result<toml::Table, ConfigError> {
    text.parse::<toml::Table>().map_err(|e| {
        let line = e.span().map(|s| text[..s.start].lines().count().max(1));
        let msg: Vec<&str> = e
            .message()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        ConfigError::new(source_name, line, msg.join(": "))
    })
}

fn toml_kind(v: &toml::Value) -> &'static str {
    match v {
        toml::Value::String(_) => "a string",
        toml::Value::Integer(_) => "an integer",
        toml::Value::Float(_) => "a number",
        toml::Value::Boolean(_) => "true or false",
        toml::Value::Datetime(_) => "a date",
        toml::Value::Array(_) => "an array",
        toml::Value::Table(_) => "a table",
    }
}

/// Keys that take a duration or a size: a string with a unit, or a bare integer.
fn takes_unit(section: &str, key: &str) -> bool {
    (section == "timing" && !key.starts_with("channel_"))
        || (section == "geometry" && key == "page_size")
        || section == "buffer"
        || (section == "array" && key == "chunk")
}

/// Whether a user value may stand where the default has `expected`.
fn compatible(section: &str, key: &str, expected: &toml::Value, got: &toml::Value) -> bool {
    use toml::Value as V;
    match (expected, got) {
        // The on/off axes take true/false as well as "scheme".
        (V::String(_), V::Boolean(_)) if section == "gc" && matches!(key, "merge" | "pipeline") => {
            true
        }
        (V::Float(_), V::Integer(_)) => true,
        (V::String(_) | V::Integer(_), V::String(_) | V::Integer(_))
            if takes_unit(section, key) =>
        {
            true
        }
        (a, b) => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

/// 1-based line of `key` inside `[section]` in TOML text, for error messages.
fn find_key_line(text: &str, section: Option<&str>, key: &str) -> Option<usize> {
    let mut in_section = section.is_none();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('[') {
            let name = line.trim_matches(|c| c == '[' || c == ']').trim();
            in_section = Some(name) == section;
            if section.is_none() && name == key {
                return Some(i + 1);
            }
            continue;
        }
        if let Some((k, _)) = line.split_once('=') {
            let k: String = k
                .split('.')
                .map(|p| p.trim().trim_matches('"'))
                .collect::<Vec<_>>()
                .join(".");
            // `key = …` inside `[section]`, or the dotted `section.key = …` outside any section.
            let dotted = section.map(|s| format!("{s}.{key}"));
            if (in_section && k == key) || (!in_section && Some(&k) == dotted.as_ref()) {
                return Some(i + 1);
            }
        }
    }
    None
}

impl ConfigBuilder {
    /// Starts from a preset.
    pub fn preset(name: &str) -> Result<Self, ConfigError> {
        let base = parse_table(PRESET_DEFAULT, "preset default")?;
        let mut b = ConfigBuilder { table: base };
        if name != "default" {
            let Some((_, _, text)) = PRESETS.iter().find(|(n, _, _)| *n == name) else {
                let names: Vec<&str> = PRESETS.iter().map(|(n, _, _)| *n).collect();
                return Err(ConfigError::new(
                    "--preset",
                    None,
                    format!("unknown preset '{name}' (known: {})", names.join(", ")),
                ));
            };
            b.merge_text(text, &format!("preset {name}"))?;
        }
        Ok(b)
    }

    /// Merges a TOML document (a config file's text); `source_name` names it in errors.
    pub fn merge_text(&mut self, text: &str, source_name: &str) -> Result<(), ConfigError> {
        let user = parse_table(text, source_name)?;
        for (section, value) in &user {
            let Some(toml::Value::Table(known)) = self.table.get(section) else {
                return Err(ConfigError::new(
                    source_name,
                    find_key_line(text, None, section),
                    format!(
                        "unknown section '[{section}]' (known: {})",
                        self.table.keys().cloned().collect::<Vec<_>>().join(", ")
                    ),
                ));
            };
            let toml::Value::Table(entries) = value else {
                return Err(ConfigError::new(
                    source_name,
                    find_key_line(text, None, section),
                    format!("'{section}' must be a section [{section}]"),
                ));
            };
            for (key, v) in entries {
                let line = find_key_line(text, Some(section), key);
                check_entry(known, section, key, v)
                    .and_then(|()| self.check_fits(section, key, v))
                    .map_err(|msg| ConfigError::new(source_name, line, msg))?;
            }
        }
        for (section, value) in user {
            if let (Some(toml::Value::Table(dst)), toml::Value::Table(src)) =
                (self.table.get_mut(&section), value)
            {
                for (k, v) in src {
                    dst.insert(k, v);
                }
            }
        }
        Ok(())
    }

    /// Merges a TOML file.
    pub fn merge_file(&mut self, path: &std::path::Path) -> Result<(), ConfigError> {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError::new(&name, None, format!("cannot read: {e}")))?;
        self.merge_text(&text, &name)
    }

    /// Applies one `section.key=value` override. The value is read as a TOML value, or as a plain
    /// string when it is not one (`ftl.allocation=PCWD`).
    pub fn set(&mut self, assignment: &str) -> Result<(), ConfigError> {
        if assignment.contains(['\n', '\r']) {
            return Err(ConfigError::new(
                &format!("--set {}", assignment.escape_debug()),
                None,
                "an assignment must be one line (it contains a line break)",
            ));
        }
        let src = format!("--set {assignment}");
        let err = |msg: String| ConfigError::new(&src, None, msg);
        let (path, raw) = assignment
            .split_once('=')
            .ok_or_else(|| err("expected section.key=value".into()))?;
        let (section, key) = path
            .trim()
            .split_once('.')
            .ok_or_else(|| err("expected section.key=value".into()))?;
        let raw = raw.trim();
        let value = match format!("v = {raw}").parse::<toml::Table>() {
            Ok(mut t) => t.remove("v").unwrap_or(toml::Value::String(raw.into())),
            Err(_) => toml::Value::String(raw.to_string()),
        };
        let Some(toml::Value::Table(known)) = self.table.get(section) else {
            return Err(err(format!(
                "unknown section '{section}' (known: {})",
                self.table.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        };
        check_entry(known, section, key, &value).map_err(err)?;
        self.check_fits(section, key, &value).map_err(err)?;
        if let Some(toml::Value::Table(known)) = self.table.get_mut(section) {
            known.insert(key.to_string(), value);
        }
        Ok(())
    }

    /// An integer must fit its setting's type (`u32` for counts, unsigned for durations and
    /// sizes): checked by deserialising the current layers with the value in place, so that the
    /// error names the key (and the file's line) rather than surfacing later without either.
    fn check_fits(&self, section: &str, key: &str, v: &toml::Value) -> Result<(), String> {
        let toml::Value::Integer(n) = v else {
            return Ok(());
        };
        let base_ok = toml::Value::Table(self.table.clone())
            .try_into::<Config>()
            .is_ok();
        let mut t = self.table.clone();
        if let Some(toml::Value::Table(sec)) = t.get_mut(section) {
            sec.insert(key.to_string(), v.clone());
        }
        match toml::Value::Table(t).try_into::<Config>() {
            Err(e) if base_ok => {
                let why = if *n < 0 {
                    "must not be negative".to_string()
                } else {
                    format!("is out of range ({})", e.message().trim())
                };
                Err(format!("'{section}.{key}' = {n} {why}"))
            }
            _ => Ok(()),
        }
    }

    /// Deserialises and validates.
    pub fn build(self) -> Result<Config, ConfigError> {
        let cfg: Config = toml::Value::Table(self.table)
            .try_into()
            .map_err(|e: toml::de::Error| ConfigError::invalid(e.message().trim().to_string()))?;
        cfg.validate()?;
        Ok(cfg)
    }
}

/// Parses a GC axis key's value the way deserialisation will, so that the error names the key.
fn check_axis_value(key: &str, v: &toml::Value) -> Result<(), String> {
    use crate::gc::{migration::Migration, planes::Planes, preempt, when};
    let text = match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Boolean(b) => b.to_string(),
        other => return Err(format!("must be a string, not {}", toml_kind(other))),
    };
    match key {
        "when" => text.parse::<AxisSetting<when::When>>().map(drop),
        "collect" => text.parse::<AxisSetting<when::Collect>>().map(drop),
        "preempt" => text.parse::<AxisSetting<preempt::PreemptMode>>().map(drop),
        "merge" | "pipeline" => text.parse::<AxisSetting<Toggle>>().map(drop),
        "suspend" => text.parse::<AxisSetting<preempt::Suspend>>().map(drop),
        "planes" => text.parse::<AxisSetting<Planes>>().map(drop),
        "migration" => text.parse::<AxisSetting<Migration>>().map(drop),
        _ => Ok(()),
    }
}

fn check_entry(
    known: &toml::Table,
    section: &str,
    key: &str,
    v: &toml::Value,
) -> Result<(), String> {
    let Some(expected) = known.get(key) else {
        return Err(format!(
            "unknown key '{section}.{key}' (known in [{section}]: {})",
            known.keys().cloned().collect::<Vec<_>>().join(", ")
        ));
    };
    if !compatible(section, key, expected, v) {
        let kind = if takes_unit(section, key) {
            "a number with a unit (e.g. \"25us\", \"8KiB\") or an integer"
        } else {
            toml_kind(expected)
        };
        return Err(format!(
            "'{section}.{key}' must be {kind}, not {}",
            toml_kind(v)
        ));
    }
    if let Some(r) = keywords::check(section, key, v) {
        r?;
    }
    if section == "gc" && GC_AXIS_KEYS.contains(&key) {
        check_axis_value(key, v).map_err(|e| {
            // Axis values name their key; the on/off switches do not.
            if e.contains(&format!("gc.{key}")) {
                e
            } else {
                format!("'gc.{key}': {e}")
            }
        })?;
    }
    if let (true, toml::Value::String(s)) = (section == "ftl", v) {
        let parsed = match key {
            "pool" => s.parse::<crate::ftl::PoolOrder>().map(drop),
            "hot_to" => s.parse::<crate::ftl::HotTo>().map(drop),
            _ => Ok(()),
        };
        parsed.map_err(|e| format!("'ftl.{key}': {e}"))?;
    }
    // Strings that carry units are checked here so that the error names the key.
    if let toml::Value::String(s) = v {
        if section == "timing" && takes_unit(section, key) {
            parse_duration(s).map_err(|e| format!("'{section}.{key}': {e}"))?;
        }
        if section == "buffer" && key == "latency" {
            parse_duration(s).map_err(|e| format!("'{section}.{key}': {e}"))?;
        }
        if (section == "geometry" && key == "page_size")
            || (section == "buffer" && key == "size")
            || (section == "array" && key == "chunk")
        {
            parse_size(s).map_err(|e| format!("'{section}.{key}': {e}"))?;
        }
    }
    Ok(())
}

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

    /// The PaGC join threshold (free-page share), resolving 0 to `threshold + 0.05`.
    pub fn pagc_threshold(&self) -> f64 {
        if self.gc.pagc_threshold > 0.0 {
            self.gc.pagc_threshold
        } else {
            self.gc.threshold + 0.05
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
        let soft_b = ((soft * bpp).ceil() as u32).max(2);
        let hard_b = ((hard * bpp).ceil() as u32).clamp(2, soft_b);
        (soft_b, hard_b)
    }

    /// Free blocks a plane keeps before it collects: `ceil(threshold × blocks_per_plane)`, at least 2.
    pub fn gc_threshold_blocks(&self) -> u32 {
        let b = (self.gc.threshold * self.geometry.blocks_per_plane as f64).ceil() as u32;
        b.max(2)
    }

    /// Rejects impossible settings with a reason.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let g = &self.geometry;
        let bad = |m: String| Err(ConfigError::invalid(m));
        for (name, v) in [
            ("geometry.channels", g.channels),
            ("geometry.chips_per_channel", g.chips_per_channel),
            ("geometry.dies_per_chip", g.dies_per_chip),
            ("geometry.planes_per_die", g.planes_per_die),
            ("geometry.blocks_per_plane", g.blocks_per_plane),
            ("geometry.pages_per_block", g.pages_per_block),
        ] {
            if v == 0 {
                return bad(format!("{name} must be at least 1"));
            }
        }
        if g.pages_per_block > u16::MAX as u32 {
            return bad(format!(
                "geometry.pages_per_block = {} exceeds the supported maximum {}",
                g.pages_per_block,
                u16::MAX
            ));
        }
        if g.page_size.0 < 512 || !g.page_size.0.is_multiple_of(512) {
            return bad(format!(
                "geometry.page_size = {} must be a positive multiple of 512 bytes",
                g.page_size.0
            ));
        }
        if g.page_size.0 > MAX_PAGE_SIZE {
            return bad(format!(
                "geometry.page_size = {} exceeds the supported maximum of {MAX_PAGE_SIZE} bytes (1 MiB)",
                g.page_size.0
            ));
        }
        if g.planes_per_die > MAX_PLANES_PER_DIE {
            return bad(format!(
                "geometry.planes_per_die = {} exceeds the supported maximum {MAX_PLANES_PER_DIE}",
                g.planes_per_die
            ));
        }
        let pagc_max = crate::gc::pagc_plan::MAX_PLANES as u32;
        let axes = self.gc_axes().ok();
        if axes.is_some_and(|a| a.planes.is_pagc()) && g.planes_per_die > pagc_max {
            return bad(format!(
                "geometry.planes_per_die = {} exceeds {pagc_max}, the most planes per die the PaGC \
                 schemes handle (gc.planes = {})",
                g.planes_per_die,
                axes.map(|a| a.planes.to_string()).unwrap_or_default()
            ));
        }
        if !(0.0..0.95).contains(&g.overprovision) || g.overprovision.is_nan() {
            return bad(format!(
                "geometry.overprovision = {} must be in [0, 0.95)",
                g.overprovision
            ));
        }
        // Checked products: the plane count, and the physical pages, which must fit a `Ppn` (u32,
        // with the top bit reserved).
        let max_pages = (1u64 << 31) - 1;
        let planes = [g.chips_per_channel, g.dies_per_chip, g.planes_per_die]
            .iter()
            .try_fold(g.channels as u64, |a, &b| a.checked_mul(b as u64));
        let pages = planes.and_then(|p| {
            p.checked_mul(g.blocks_per_plane as u64)?
                .checked_mul(g.pages_per_block as u64)
        });
        let (Some(planes), Some(pages)) = (planes, pages.filter(|&p| p <= max_pages)) else {
            return bad(format!(
                "the drive has {} physical pages (geometry.channels × chips_per_channel × \
                 dies_per_chip × planes_per_die × blocks_per_plane × pages_per_block); at most \
                 {max_pages} are supported (use larger pages)",
                pages.map_or_else(|| "more than 2^64".to_string(), |p| p.to_string())
            ));
        };
        let logical = (pages as f64 * (1.0 - g.overprovision)).floor() as u64;
        if logical == 0 {
            return bad(format!(
                "the drive has no logical page: {pages} physical pages with geometry.overprovision = {} \
                 leave none for the host; lower geometry.overprovision or add blocks",
                g.overprovision
            ));
        }
        if !(self.gc.threshold > 0.0 && self.gc.threshold < 0.5) {
            return bad(format!(
                "gc.threshold = {} must be a free-block share in (0, 0.5)",
                self.gc.threshold
            ));
        }
        for (name, v) in [
            ("gc.idle_threshold", self.gc.idle_threshold),
            ("gc.soft_threshold", self.gc.soft_threshold),
            ("gc.hard_threshold", self.gc.hard_threshold),
        ] {
            if !(0.0..0.5).contains(&v) {
                return bad(format!(
                    "{name} = {v} must be 0 (the default) or a free-block share in (0, 0.5)"
                ));
            }
        }
        if self.gc.hard_threshold > 0.0
            && self.gc.soft_threshold > 0.0
            && self.gc.hard_threshold > self.gc.soft_threshold
        {
            return bad(format!(
                "gc.hard_threshold = {} must not exceed gc.soft_threshold = {}",
                self.gc.hard_threshold, self.gc.soft_threshold
            ));
        }
        if !(0.0..0.9).contains(&self.gc.pagc_threshold) {
            return bad(format!(
                "gc.pagc_threshold = {} must be a free-page share in [0, 0.9) (0: gc.threshold + 0.05)",
                self.gc.pagc_threshold
            ));
        }
        // Each plane holds ceil(logical / planes) logical pages; it needs blocks for them, for the
        // free blocks the trigger holds back, for three write points (host, GC, aligned GC), and at
        // least one block of slack so that a victim with an invalid page always exists (the
        // minimum-spare rule of MODEL.md).
        let per_plane_logical = logical.div_ceil(planes);
        let per_plane_blocks_needed = per_plane_logical.div_ceil(g.pages_per_block as u64)
            + self.gc_threshold_blocks() as u64
            + 4;
        if per_plane_blocks_needed > g.blocks_per_plane as u64 {
            return bad(format!(
                "impossible geometry: with overprovision {} each plane must hold {} logical pages, which \
                 with {} free blocks held back by gc.threshold = {} and the write points needs {} blocks, \
                 but a plane has {}; raise geometry.overprovision or lower gc.threshold",
                g.overprovision,
                per_plane_logical,
                self.gc_threshold_blocks(),
                self.gc.threshold,
                per_plane_blocks_needed,
                g.blocks_per_plane
            ));
        }
        if axes.is_some_and(|a| a.planes == crate::gc::planes::Planes::Superblock) {
            // The superblock drive merges the planes of a die: one plane per die.
            let dies = planes / g.planes_per_die as u64;
            let sb_pages = pages / g.planes_per_die as u64;
            let sb_logical = (sb_pages as f64 * (1.0 - g.overprovision)).floor() as u64;
            let needed = sb_logical.div_ceil(dies).div_ceil(g.pages_per_block as u64)
                + self.gc_threshold_blocks() as u64
                + 4;
            if needed > g.blocks_per_plane as u64 {
                return bad(format!(
                    "impossible geometry for gc.scheme = superblock: a superblock plane needs {needed} \
                     blocks (its logical pages, the gc.threshold = {} reserve and the write points) but \
                     has {}; raise geometry.overprovision or lower gc.threshold",
                    self.gc.threshold, g.blocks_per_plane
                ));
            }
        }
        self.check_reachable_thresholds(per_plane_logical)?;
        let b = &self.buffer;
        if b.size.0 > 0 && b.size.0 < g.page_size.0 {
            return bad(format!(
                "buffer.size = {} must be 0 (no buffer) or at least one page ({} bytes)",
                b.size.0, g.page_size.0
            ));
        }
        if b.size.0 / g.page_size.0 > u32::MAX as u64 {
            return bad(format!("buffer.size = {} is too large", b.size.0));
        }
        let t = &self.timing;
        if t.read.0 == 0 || t.program.0 == 0 || t.erase.0 == 0 {
            return bad("timing.read, timing.program and timing.erase must be positive".into());
        }
        for (name, d) in [
            ("timing.read", t.read),
            ("timing.program", t.program),
            ("timing.erase", t.erase),
            ("timing.command", t.command),
            ("timing.suspend", t.suspend),
            ("buffer.latency", b.latency),
        ] {
            if d.0 > MAX_DURATION {
                return bad(format!(
                    "{name} = {} exceeds the supported maximum of 1s",
                    format_duration(d.0)
                ));
            }
        }
        if t.channel_rate_mts == 0
            || t.channel_width_bits == 0
            || !t.channel_width_bits.is_multiple_of(8)
        {
            return bad(
                "timing.channel_rate_mts must be positive and timing.channel_width_bits a positive multiple of 8"
                    .into(),
            );
        }
        crate::flash::AllocationOrder::parse(&self.ftl.allocation)
            .map_err(|e| ConfigError::invalid(format!("ftl.allocation: {e}")))?;
        if self.host.queue_depth == 0 || self.host.queue_depth > 65_536 {
            return bad(format!(
                "host.queue_depth = {} must be in 1..=65536",
                self.host.queue_depth
            ));
        }
        if !(self.host.time_scale > 0.0 && self.host.time_scale <= MAX_TIME_SCALE) {
            return bad(format!(
                "host.time_scale = {:?} must be a positive number of at most {MAX_TIME_SCALE:e}",
                self.host.time_scale
            ));
        }
        if !(self.precondition.overwrites >= 0.0 && self.precondition.overwrites <= 1000.0) {
            return bad(format!(
                "precondition.overwrites = {} must be in [0, 1000]",
                self.precondition.overwrites
            ));
        }
        let a = &self.array;
        if a.drives == 0 || a.drives > MAX_DRIVES {
            return bad(format!(
                "array.drives = {} must be in 1..={MAX_DRIVES}",
                a.drives
            ));
        }
        if a.chunk.0 == 0 || !a.chunk.0.is_multiple_of(g.page_size.0) {
            return bad(format!(
                "array.chunk = {} must be a positive multiple of the page size ({} bytes)",
                a.chunk.0, g.page_size.0
            ));
        }
        crate::gc::schemes::GcAxes::resolve(&self.gc).map_err(ConfigError::invalid)?;
        Ok(())
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

    /// The FTL's parameters: allocation order, GC trigger, pool order, write streams and the victim
    /// policy that indexes each plane's candidates. Fails on an unknown allocation order or victim
    /// policy.
    pub fn ftl_params(&self) -> Result<crate::ftl::FtlParams, String> {
        let allocation = crate::flash::AllocationOrder::parse(&self.ftl.allocation)?;
        let victim: crate::gc::victim::VictimKind = self.gc.victim.parse()?;
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
            candidates: std::sync::Arc::new(victim),
        })
    }

    /// Rejects thresholds a plane can never reach (a scheme waiting for them would collect forever):
    /// every threshold the scheme uses, converted to blocks (or, for free-page shares, pages), must
    /// not exceed the free blocks a plane can keep: its blocks less those its logical pages fill,
    /// three write points and one block of slack (the limit `gc.threshold` itself obeys).
    fn check_reachable_thresholds(&self, per_plane_logical: u64) -> Result<(), ConfigError> {
        let g = &self.geometry;
        let ppb = g.pages_per_block as u64;
        let bpp = g.blocks_per_plane as u64;
        let limit_blocks = bpp.saturating_sub(per_plane_logical.div_ceil(ppb) + 4);
        let limit_pages = limit_blocks * ppb;
        let pages_per_plane = bpp * ppb;
        let share = |v: f64, of: u64| (v * of as f64).ceil() as u64;
        // The thresholds the configured GC axes use (an invalid GC configuration is reported by
        // `validate` itself).
        let Ok(axes) = self.gc_axes() else {
            return Ok(());
        };
        use crate::gc::{planes::Planes, when::When};
        let default_note = |set: f64, note: &str| {
            if set > 0.0 {
                String::new()
            } else {
                format!(" (the default, {note})")
            }
        };
        let unreachable = |key: &str,
                           value: f64,
                           note: String,
                           need: u64,
                           unit: &str,
                           limit: u64| {
            Err(ConfigError::invalid(format!(
                "{key} = {value}{note} asks for {need} free {unit} per plane, but a plane can keep at \
                 most {limit} free {unit} (blocks_per_plane {bpp} less {} for its logical pages, 3 \
                 write points and 1 spare); lower {key} or raise geometry.overprovision",
                per_plane_logical.div_ceil(ppb)
            )))
        };
        // Preemptible GC: below the hard threshold writes stop preempting GC and wait for it, so an
        // unreachable one makes every write wait for GC that never ends. The soft threshold may lie
        // beyond reach (GC then runs preemptibly all along, as in the paper's Table V test).
        if axes.when == When::States {
            let (_, hard) = self.pgc_threshold_blocks();
            if hard as u64 > limit_blocks {
                let note = default_note(self.gc.hard_threshold, "half of gc.soft_threshold");
                let soft_v = if self.gc.soft_threshold > 0.0 {
                    self.gc.soft_threshold
                } else {
                    self.gc.threshold
                };
                let hard_v = if self.gc.hard_threshold > 0.0 {
                    self.gc.hard_threshold
                } else {
                    soft_v / 2.0
                };
                return unreachable(
                    "gc.hard_threshold",
                    hard_v,
                    note,
                    hard as u64,
                    "blocks",
                    limit_blocks,
                );
            }
        }
        // The idle level and the PaGC join level are checked when set: their defaults, derived from
        // gc.threshold, may lie beyond reach on a drive with little spare, where idle GC stops at
        // the first job that gains nothing and every paired plane joins; neither waits forever.
        if axes.when == When::Idle && self.gc.idle_threshold > 0.0 {
            let v = self.idle_threshold();
            let need = share(v, pages_per_plane);
            if need > limit_pages {
                let note = String::new();
                return unreachable("gc.idle_threshold", v, note, need, "pages", limit_pages);
            }
        }
        if matches!(axes.planes, Planes::PagcThreshold | Planes::PagcCache)
            && self.gc.pagc_threshold > 0.0
        {
            let v = self.pagc_threshold();
            let need = share(v, pages_per_plane);
            if need > limit_pages {
                let note = String::new();
                return unreachable("gc.pagc_threshold", v, note, need, "pages", limit_pages);
            }
        }
        Ok(())
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
mod tests {
    use super::*;

    #[test]
    fn durations_parse_exactly() {
        assert_eq!(parse_duration("25us"), Ok(25_000));
        assert_eq!(parse_duration("1.5ms"), Ok(1_500_000));
        assert_eq!(parse_duration("183.2us"), Ok(183_200));
        assert_eq!(parse_duration("2s"), Ok(2_000_000_000));
        assert_eq!(parse_duration("100ns"), Ok(100));
        assert!(parse_duration("1.5ns").is_err());
        assert!(parse_duration("25").is_err());
        assert!(parse_duration("x ms").is_err());
    }

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("8KiB"), Ok(8192));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("1.5KiB"), Ok(1536));
        assert!(parse_size("lots").is_err());
    }

    #[test]
    fn every_preset_is_valid() {
        for (name, _) in presets() {
            Config::preset(name).unwrap_or_else(|e| panic!("preset {name}: {e}"));
        }
    }

    #[test]
    fn overrides_apply_and_typos_are_errors() {
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set("geometry.blocks_per_plane=300").unwrap();
        b.set("ftl.allocation=PCWD").unwrap();
        b.set("timing.read=30us").unwrap();
        let c = b.clone().build().unwrap();
        assert_eq!(c.geometry.blocks_per_plane, 300);
        assert_eq!(c.ftl.allocation, "PCWD");
        assert_eq!(c.timing.read.ns(), 30_000);
        let e = b.set("geometry.blocks_per_plan=3").unwrap_err();
        assert!(e
            .to_string()
            .contains("unknown key 'geometry.blocks_per_plan'"));
        let e = b.set("timing.read=fast").unwrap_err();
        assert!(e.to_string().contains("timing.read"), "{e}");
        let e = b.set("gc.threshold=true").unwrap_err();
        assert!(e.to_string().contains("must be a number"), "{e}");
    }

    #[test]
    fn file_errors_name_the_line() {
        let mut b = ConfigBuilder::preset("default").unwrap();
        let text = "[geometry]\nchannels = 4\nplanez = 2\n";
        let e = b.merge_text(text, "drive.toml").unwrap_err();
        assert_eq!(e.source_name, "drive.toml");
        assert_eq!(e.line, Some(3));
        let e = b.merge_text("[geometry\n", "bad.toml").unwrap_err();
        assert_eq!(e.line, Some(1));
        let e = b.merge_text("[nosuch]\na = 1\n", "x.toml").unwrap_err();
        assert_eq!(e.line, Some(1));
        assert!(e.msg.contains("unknown section"));
        // A mistyped dotted key outside any section names its line too.
        let e = b
            .merge_text("# drive\n\ngeometry.planez = 2\n", "dotted.toml")
            .unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.msg.contains("geometry.planez"));
        let e = b
            .merge_text(
                "[gc]\nthreshold = 0.05\nwhen = \"sometimes\"\n",
                "axes.toml",
            )
            .unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        assert!(e.msg.contains("gc.when"));
    }

    #[test]
    fn impossible_geometry_is_rejected_with_a_reason() {
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set("geometry.overprovision=0.0").unwrap();
        let e = b.build().unwrap_err();
        assert!(e.msg.contains("impossible geometry"), "{e}");
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set("geometry.channels=0").unwrap();
        assert!(b.build().is_err());
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set("ftl.allocation=CWDX").unwrap();
        assert!(b.build().unwrap_err().msg.contains("ftl.allocation"));
    }

    fn build_with(sets: &[&str]) -> Result<Config, ConfigError> {
        let mut b = ConfigBuilder::preset("default")?;
        for s in sets {
            b.set(s)?;
        }
        b.build()
    }

    #[test]
    fn unreachable_thresholds_are_rejected_for_the_schemes_that_use_them() {
        // The default drive: 256 blocks per plane, 205 of them for logical pages, so at most
        // 256 - 205 - 4 = 47 free blocks (3,008 pages) per plane.
        let e = build_with(&["gc.scheme=pgc-none", "gc.soft_threshold=0.4"]).unwrap_err();
        assert!(
            e.msg.starts_with(
                "gc.hard_threshold = 0.2 (the default, half of gc.soft_threshold) asks for 52"
            ),
            "{e}"
        );
        assert!(e.msg.contains("at most 47 free blocks"), "{e}");
        let e = build_with(&[
            "gc.scheme=fpgc",
            "gc.soft_threshold=0.4",
            "gc.hard_threshold=0.19",
        ])
        .unwrap_err();
        assert!(
            e.msg.starts_with("gc.hard_threshold = 0.19 asks for 49"),
            "{e}"
        );
        // A soft threshold beyond reach is allowed: GC then runs preemptibly all along.
        build_with(&[
            "gc.scheme=pgc-none",
            "gc.soft_threshold=0.4",
            "gc.hard_threshold=0.18",
        ])
        .unwrap();
        build_with(&["gc.scheme=pgc-none", "gc.soft_threshold=0.36"]).unwrap();
        build_with(&["gc.scheme=baseline", "gc.soft_threshold=0.4"]).unwrap();
        let e = build_with(&["gc.scheme=idle", "gc.idle_threshold=0.19"]).unwrap_err();
        assert!(e.msg.contains("gc.idle_threshold = 0.19"), "{e}");
        build_with(&["gc.scheme=idle", "gc.idle_threshold=0.18"]).unwrap();
        let e = build_with(&["gc.scheme=pagc-cache", "gc.pagc_threshold=0.2"]).unwrap_err();
        assert!(e.msg.contains("gc.pagc_threshold = 0.2"), "{e}");
        build_with(&["gc.scheme=pagc-blind", "gc.pagc_threshold=0.2"]).unwrap();
        for name in presets().map(|(n, _)| n) {
            for scheme in crate::gc::schemes::PRESETS.iter().map(|(n, _, _)| *n) {
                let mut b = ConfigBuilder::preset(name).unwrap();
                b.set(&format!("gc.scheme={scheme}")).unwrap();
                b.build()
                    .unwrap_or_else(|e| panic!("preset {name}, scheme {scheme}: {e}"));
            }
        }
    }

    #[test]
    fn geometry_products_are_checked_and_a_drive_needs_logical_pages() {
        let e = build_with(&[
            "geometry.channels=65536",
            "geometry.chips_per_channel=65536",
            "geometry.dies_per_chip=65536",
            "geometry.planes_per_die=64",
        ])
        .unwrap_err();
        assert!(e.msg.contains("more than 2^64 physical pages"), "{e}");
        let e = build_with(&[
            "geometry.channels=1",
            "geometry.chips_per_channel=1",
            "geometry.planes_per_die=1",
            "geometry.blocks_per_plane=8",
            "geometry.pages_per_block=1",
            "geometry.overprovision=0.9",
        ])
        .unwrap_err();
        assert!(e.msg.contains("no logical page"), "{e}");
        let e = build_with(&["gc.scheme=pagc-blind", "geometry.planes_per_die=9"]).unwrap_err();
        assert!(e.msg.contains("exceeds 8"), "{e}");
        build_with(&["gc.scheme=pagc-blind", "geometry.planes_per_die=8"]).unwrap();
    }

    #[test]
    fn durations_and_time_scale_are_bounded() {
        build_with(&["timing.erase=\"1s\""]).unwrap();
        let e = build_with(&["timing.erase=1000000001"]).unwrap_err();
        assert!(e.msg.contains("timing.erase = 1000000001ns exceeds"), "{e}");
        let e = build_with(&["buffer.latency=\"2s\""]).unwrap_err();
        assert!(e.msg.contains("buffer.latency"), "{e}");
        build_with(&["host.time_scale=1e6"]).unwrap();
        for bad in ["1e300", "inf", "nan", "0", "-1"] {
            let e = build_with(&[&format!("host.time_scale={bad}")]).unwrap_err();
            assert!(e.msg.contains("host.time_scale"), "{bad}: {e}");
        }
    }

    #[test]
    fn out_of_range_integers_and_line_breaks_name_the_key() {
        let mut b = ConfigBuilder::preset("default").unwrap();
        let e = b
            .merge_text("[geometry]\n\nchannels = 4294967296\n", "big.toml")
            .unwrap_err();
        assert_eq!((e.source_name.as_str(), e.line), ("big.toml", Some(3)));
        assert!(
            e.msg
                .starts_with("'geometry.channels' = 4294967296 is out of range"),
            "{e}"
        );
        let e = b
            .merge_text("[buffer]\nsize = -1\n", "neg.toml")
            .unwrap_err();
        assert_eq!(e.line, Some(2));
        assert_eq!(e.msg, "'buffer.size' = -1 must not be negative");
        b.merge_text("[geometry]\nchannels = 4294967295\n", "max.toml")
            .unwrap();
        let e = b
            .set("gc.threshold=0.1\n[host]\nqueue_depth=1")
            .unwrap_err();
        assert_eq!(e.to_string().lines().count(), 1, "{e}");
        assert!(e.msg.contains("one line"), "{e}");
    }

    #[test]
    fn array_settings_are_checked() {
        let c = Config::default();
        assert_eq!((c.array.drives, c.array.chunk.0), (1, 64 << 10));
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set("array.drives=3").unwrap();
        b.set("array.chunk=\"16KiB\"").unwrap();
        let c = b.build().unwrap();
        assert_eq!((c.array.drives, c.array.chunk.0), (3, 16 << 10));
        for (set, needle) in [
            ("array.drives=0", "array.drives"),
            ("array.drives=65", "array.drives"),
            ("array.chunk=\"6KiB\"", "array.chunk"),
            ("array.chunk=0", "array.chunk"),
        ] {
            let mut b = ConfigBuilder::preset("default").unwrap();
            b.set(set).unwrap();
            let e = b.build().unwrap_err();
            assert!(e.msg.contains(needle), "{set}: {e}");
        }
        let mut b = ConfigBuilder::preset("default").unwrap();
        let e = b.set("array.stripes=2").unwrap_err();
        assert!(e.to_string().contains("unknown key 'array.stripes'"), "{e}");
        let e = b.set("array.chunk=big").unwrap_err();
        assert!(e.to_string().contains("array.chunk"), "{e}");
    }

    #[test]
    fn ftl_pool_and_hot_to_are_typed_and_errors_name_the_key() {
        let c = Config::default();
        assert_eq!(c.ftl.pool, crate::ftl::PoolOrder::Fifo);
        assert_eq!(c.ftl.hot_to, crate::ftl::HotTo::Young);
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set("ftl.pool=youngest").unwrap();
        b.set("ftl.hot_to=\"old\"").unwrap();
        let c = b.clone().build().unwrap();
        assert_eq!(c.ftl.pool, crate::ftl::PoolOrder::Youngest);
        assert_eq!(c.ftl.hot_to, crate::ftl::HotTo::Old);
        assert!(c.to_toml().contains("pool = \"youngest\""));
        let e = b.set("ftl.pool=lifo").unwrap_err();
        assert!(e.to_string().contains("'ftl.pool'") && e.msg.contains("fifo, youngest, oldest"));
        let e = b.set("ftl.hot_to=warm").unwrap_err();
        assert!(e.to_string().contains("'ftl.hot_to'") && e.msg.contains("young, old"));
        let e = b.merge_text("[ftl]\npool = 3\n", "drive.toml").unwrap_err();
        assert_eq!(e.line, Some(2));
        let e = b
            .merge_text("[ftl]\nallocation = \"CWDP\"\nhot_to = \"hot\"\n", "d.toml")
            .unwrap_err();
        assert_eq!((e.line, e.msg.contains("ftl.hot_to")), (Some(3), true));
    }

    #[test]
    fn parameters_follow_the_settings() {
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.set("gc.trigger=pages").unwrap();
        b.set("ftl.pool=oldest").unwrap();
        let c = b.build().unwrap();
        let p = c.ftl_params().unwrap();
        assert_eq!(p.pool, crate::ftl::PoolOrder::Oldest);
        assert_eq!(p.trigger.blocks, c.gc_threshold_blocks());
        assert_eq!(
            p.trigger.pages,
            Some((0.03f64 * 256.0 * 64.0).ceil() as u64)
        );
        assert_eq!(
            crate::ftl::CandidateIndexKind::name(p.candidates.as_ref()),
            "greedy"
        );
        let mut bad = c.clone();
        bad.gc.victim = "nosuch".into();
        assert!(bad.ftl_params().unwrap_err().contains("nosuch"));
        let g = crate::flash::Geometry::new(&c);
        assert_eq!(g, crate::flash::Geometry::new(c.geometry_params()));
        assert_eq!(g.planes, 8);
        let t = crate::flash::Timing::new(&c);
        assert_eq!(t.read, c.timing.read.ns());
    }

    #[test]
    fn config_round_trips_through_toml() {
        let c = Config::preset("pagc").unwrap();
        let text = c.to_toml();
        let mut b = ConfigBuilder::preset("default").unwrap();
        b.merge_text(&text, "dump").unwrap();
        assert_eq!(b.build().unwrap(), c);
    }
}
