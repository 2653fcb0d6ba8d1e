//! ssdgc-workload: the host I/O requests that ssdgc replays.
//!
//! Two sources of [`IoRecord`]s:
//!
//! * [`open_trace`] / [`TraceReader`]: streaming readers for real block-I/O trace formats;
//! * [`synthetic::Synthetic`]: a deterministic synthetic workload generator.
//!
//! The crate knows nothing of the simulator: a record is a time, a direction, a byte offset and a
//! byte length.
//!
//! # Reading traces
//!
//! Traces are read line by line through a [`std::io::BufRead`]; a file is never loaded whole.
//! Gzip and zstd compressed files are decompressed transparently; compression is recognised by
//! the magic bytes (`1f 8b` for gzip, `28 b5 2f fd` for zstd), whatever the file name.
//!
//! Every reader honours the same rules:
//!
//! * `time_ns` is relative to the trace's first record (the first record gets 0) and is
//!   non-decreasing. Units are converted exactly with integer arithmetic: decimal seconds or
//!   milliseconds such as `1456095145.133076000` are parsed digit by digit into nanoseconds
//!   (digits below 1 ns are truncated), never through `f64`. Absolute times are held in 128-bit
//!   integers, so tick counts (MSR FILETIME) cannot overflow before the first record's time is
//!   subtracted.
//! * A malformed line yields `Some(Err(WorkloadError))` naming the file, the 1-based line and the
//!   problem (for example `trace.csv:12: field 4 'Wrte' is not Read/Write`); reading goes on
//!   with the next line. A read or decompression error ends the stream after being reported.
//! * Blank lines, lines starting with `#` (except in `columns`, see `comment=`), recognised
//!   headers/comments and events that carry no read or write (trims,
//!   flushes, file open/close, blkparse completions...) are skipped and counted in
//!   [`TraceStats`]; records of another volume/device are counted as filtered. Nothing is
//!   dropped without being counted: at the end of a stream
//!   `lines == blank + skipped + filtered + errors + records`.
//! * Records with a length of 0 are passed through unchanged.
//! * Format-independent limits, each an error naming the line: a line longer than
//!   [`trace::MAX_LINE_BYTES`] (64 KiB; it also ends the stream, whose next newline may never
//!   come), a record whose `offset + len` overflows 64 bits, a record longer than
//!   [`trace::MAX_REQUEST_BYTES`] (4 GiB), and a record later than
//!   [`TraceOptions::max_time_ns`] after the first (by default [`MAX_ARRIVAL_NS`], 2^60 ns).
//! * When [`TraceOptions::volume`] is given and no record of that volume is found, the end of the
//!   stream is an error naming the volumes present, busiest first
//!   (`volume 7 has no records; volumes present: 1058 (41 records), …`).
//! * In formats whose records are time-ordered, a record earlier than its predecessor is an
//!   error naming the line (the record is not emitted). Systor and Tencent traces are not
//!   sorted: they go through a bounded reorder buffer (see below).
//!
//! ## Formats
//!
//! Field numbers below are 1-based, as in error messages.
//!
//! | name | layout | units |
//! |---|---|---|
//! | `msr` | MSR Cambridge CSV, no header: `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime` | Timestamp in 100 ns Windows FILETIME ticks; Type `Read`/`Write` (any case); Offset, Size in bytes. DiskNumber is the device. A `Timestamp,...` header line is skipped. |
//! | `spc` | SPC / UMass CSV: `ASU,LBA,Size,Opcode,Timestamp[,...]` | LBA in 512 B sectors; Size in bytes; Opcode `r`/`R`/`w`/`W`; Timestamp in decimal seconds. The ASU is the device. |
//! | `disksim` | DiskSim ASCII (MQSim, SSDSim, FlashSim), whitespace separated: `arrival_time device lsn size flags` | time in [`TraceOptions::disksim_time`] units (ns by default, as in MQSim/SSDSim files; DiskSim itself uses ms), decimals allowed; lsn and size in 512 B sectors; flags bit 0 set = read, clear = write. |
//! | `blkparse` | default text output of `blkparse`: `MAJ,MIN CPU SEQ TIME PID ACTION RWBS SECTOR + NSECTORS [PROCESS]` | TIME in decimal seconds; sectors of 512 B. Only the event chosen by [`TraceOptions::blkparse_event`] (`D`, issued to the driver, by default; or `Q`, queued) is used; other actions, events without `SECTOR + N`, and RWBS without `R`/`W` or with `D` (discard) are skipped. The summary blkparse prints at the end (from a `CPUn (...)` or `Total (...)` line on) is skipped. |
//! | `fio` | fio iolog v2 (`fio version 2 iolog` header, `FILE ACTION [OFFSET LENGTH]`) and v3 (`fio version 3 iolog` header, `TIMESTAMP FILE ACTION [OFFSET LENGTH]`) | offsets and lengths in bytes; v3 TIMESTAMP in microseconds (what fio writes and replays); v2 has no time, every record gets 0. `read`/`write` are records; `add`/`open`/`close`, `trim`, `sync`/`datasync` and `wait` are skipped. File names are ignored (all files share one address space). |
//! | `blkreplay` | blkreplay `.load`: `START ; SECTOR ; LENGTH ; R\|W ; REPLAY_DELAY ; REPLAY_DURATION` | START in decimal seconds; SECTOR and LENGTH in 512 B sectors; the direction may carry RWBS flags (`RA`: read-ahead). Any line that is not six `;`-separated fields starting with a number (the licence header, which may repeat, the column titles) is a comment. |
//! | `fiu` | FIU text: `TS PID PROCESS LBA SIZE R\|W MAJOR MINOR MD5` (whitespace separated) | TS in ns; LBA and SIZE in 512 B sectors. The fields are taken as two from the left and six from the right, so a process name containing spaces is accepted. |
//! | `systor` | Systor '17 CSV with header `Timestamp,Response,IOType,LUN,Offset,Size` | Timestamp in decimal seconds; IOType `R`/`W`; Offset, Size in bytes. The LUN is the device. Not sorted: reorder buffer. |
//! | `tencent` | Tencent CBS CSV, no header: `Timestamp,Offset,Size,IOType,VolumeID` | Timestamp in seconds; Offset, Size in 512 B sectors; IOType 0 = read, 1 = write. Only one volume is replayed: [`TraceOptions::volume`], or the volume of the first record ([`TraceReader::selected_volume`]). Not sorted (1 s resolution): reorder buffer, applied after the volume filter. |
//! | `flashnet` | FlashNet / Heimdall text: `TS DEVICE OFFSET SIZE IO_TYPE` (whitespace) | TS in decimal ms; OFFSET, SIZE in bytes; IO_TYPE 1 = read, 0 = write. |
//! | `columns:SPEC` | any CSV / whitespace layout, described by SPEC (below) | |
//!
//! When [`TraceOptions::volume`] is set, records whose device (DiskNumber, ASU, device, LUN,
//! FlashNet device, VolumeID, or the `dev` column) differs are filtered out and counted.
//!
//! ### Reorder buffer (Systor, Tencent, `columns:...,unsorted`)
//!
//! Records are held in a min-heap of [`TraceOptions::reorder_window`] records ordered by time,
//! then by line (stable for equal times); once the heap is full each new record releases the
//! earliest one. Times are relative to the earliest record of the first window. A record older
//! than one already released is an error naming its line and suggesting a larger window.
//!
//! ### Format detection (`auto`)
//!
//! The first 200 lines (at most 1 MiB) are read ahead and kept for replay; each format's parser
//! is run over the non-blank ones. A format qualifies when it parses at least one record, with at
//! most a quarter as many errors as records and skipped lines; the one with the fewest errors
//! wins. DiskSim and FlashNet lines look alike (five
//! numbers): FlashNet is chosen when every size field is a positive multiple of 512 (bytes),
//! DiskSim otherwise (sectors). No qualifying format, or a tie, is an error asking for
//! `--format NAME`. `columns` is never detected.
//!
//! ## Column SPEC
//!
//! `columns:KEY=VALUE,KEY=VALUE,...` with 1-based column numbers:
//!
//! * `time=N[:UNIT]`: time column, UNIT `ns`, `us`, `ms` or `s` (default `s`), decimals allowed.
//!   Without `time` every record gets time 0.
//! * `op=N` (required): direction column.
//! * `offset=N[:UNIT]`, `len=N[:UNIT]` (required): UNIT `bytes` (default), `sectors` (512 B) or
//!   `kib`.
//! * `dev=N`: device column, compared with [`TraceOptions::volume`].
//! * `sep=comma|space|tab|semicolon` (default `comma`; `space` means any run of whitespace).
//! * `skip=N`: the first N lines of the file are headers (default 0).
//! * `comment=PREFIX`: lines starting with PREFIX are comments (default `#`).
//! * `read=A|B|...`, `write=A|B|...`: the op values meaning read / write (exact match). With
//!   only `read`, any other value is a write; with only `write`, any other value is a read;
//!   with neither, `r`/`read` and `w`/`write` in any case.
//! * `unsorted`: records are not time-ordered, use the reorder buffer.
//!
//! Example: `columns:time=1:ms,op=4,offset=5:sectors,len=6,sep=comma,skip=1,read=R|r|1`.
//!
//! ## In-memory input and fuzzing
//!
//! [`TraceReader::from_reader`] reads any `BufRead` (compressed or not) without a file;
//! [`read_all_from_bytes`] collects every record and error of a byte buffer. The `fuzz/`
//! folder at the top of the repository holds cargo-fuzz targets over every format.
//!
//! # Synthetic workloads
//!
//! [`synthetic::SyntheticSpec`] parses specs such as
//! `count=100000,read=0.4,size=exp:32KiB,seq=0.4,interarrival=exp:3ms,qd=32,span=1.0,zipf:0.9`
//! with keys `count`, `read` (fraction of reads), `size` (`4KiB` fixed or `exp:32KiB`),
//! `seq` (probability of continuing the previous request), `interarrival` (`2ms` fixed,
//! `exp:3ms` Poisson, `0` closed loop), `qd` (closed-loop queue depth), `span` (fraction of the
//! logical space used), `zipf` (skew of start-address popularity) and `align` (bytes);
//! [`synthetic::Synthetic`] generates the requests deterministically from a seed. See
//! [`synthetic`] for the defaults, ranges and the generation algorithm.
#![forbid(unsafe_code)]

use std::fmt;

pub mod shared;
pub mod synthetic;
pub mod trace;

pub use shared::{shared_trace, shared_traces_dir};
pub use trace::columns::{AddrUnit, ColumnSpec, Separator};
pub use trace::{open_trace, read_all_from_bytes, TraceReader, TraceStats};

/// Direction of a host request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    Read,
    Write,
}

/// One host request: when it arrives, what it does and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IoRecord {
    /// Arrival time in ns, relative to the first record of the trace.
    pub time_ns: u64,
    pub op: Op,
    /// Byte offset.
    pub offset: u64,
    /// Length in bytes.
    pub len: u64,
}

/// An error while reading a workload.
///
/// Displays as `FILE:LINE: message` (LINE is 1-based); when the error is not about one line
/// (`line == 0`), as `FILE: message`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {msg}", LineSuffix(*.line))]
pub struct WorkloadError {
    pub file: String,
    pub line: u64,
    pub msg: String,
}

impl WorkloadError {
    pub fn new(file: impl Into<String>, line: u64, msg: impl Into<String>) -> Self {
        WorkloadError {
            file: file.into(),
            line,
            msg: msg.into(),
        }
    }
}

struct LineSuffix(u64);

impl fmt::Display for LineSuffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 > 0 {
            write!(f, ":{}", self.0)
        } else {
            Ok(())
        }
    }
}

/// A trace format.
#[derive(Clone, Debug, PartialEq)]
pub enum Format {
    /// Detect the format from the first lines.
    Auto,
    Msr,
    Spc,
    Disksim,
    Blkparse,
    Fio,
    Blkreplay,
    Fiu,
    Systor,
    Tencent,
    Flashnet,
    /// Generic column-mapped reader.
    Columns(ColumnSpec),
}

const FORMATS: &[(&str, &str)] = &[
    ("auto", "detect the format from the first lines of the trace"),
    (
        "msr",
        "MSR Cambridge CSV: Timestamp(100ns ticks),Hostname,DiskNumber,Read|Write,Offset(B),Size(B),ResponseTime",
    ),
    (
        "spc",
        "SPC/UMass CSV: ASU,LBA(512B sectors),Size(B),r|w,Timestamp(s)[,...]",
    ),
    (
        "disksim",
        "DiskSim ASCII (MQSim, SSDSim): time device lsn(sectors) size(sectors) flags(bit0=read); time in ns (or --disksim-time)",
    ),
    (
        "blkparse",
        "blkparse text output: dev cpu seq time(s) pid action rwbs sector + n [proc]; D events (or Q)",
    ),
    (
        "fio",
        "fio iolog v2/v3: [time(us)] file read|write offset(B) length(B); other actions skipped",
    ),
    (
        "blkreplay",
        "blkreplay .load: start(s) ; sector ; length(sectors) ; R|W ; delay ; duration",
    ),
    (
        "fiu",
        "FIU text: ts(ns) pid process lba(sectors) size(sectors) R|W major minor md5",
    ),
    (
        "systor",
        "Systor'17 CSV (header): Timestamp(s),Response,R|W,LUN,Offset(B),Size(B); unsorted, reordered",
    ),
    (
        "tencent",
        "Tencent CBS CSV: Timestamp(s),Offset(sectors),Size(sectors),0=read|1=write,VolumeID; one volume",
    ),
    (
        "flashnet",
        "FlashNet/Heimdall text: ts(ms) device offset(B) size(B) 1=read|0=write",
    ),
    (
        "columns:SPEC",
        "generic columns, e.g. columns:time=1:ms,op=4,offset=5:sectors,len=6,dev=3,sep=comma|space|tab|semicolon,skip=1,read=R|1,write=W|0,comment=#,unsorted (1-based)",
    ),
];

/// `(name, one-line description)` of every format, for `ssdgc list formats`.
pub fn formats() -> &'static [(&'static str, &'static str)] {
    FORMATS
}

impl Format {
    /// The format's name (`columns` for [`Format::Columns`]).
    pub fn name(&self) -> &'static str {
        match self {
            Format::Auto => "auto",
            Format::Msr => "msr",
            Format::Spc => "spc",
            Format::Disksim => "disksim",
            Format::Blkparse => "blkparse",
            Format::Fio => "fio",
            Format::Blkreplay => "blkreplay",
            Format::Fiu => "fiu",
            Format::Systor => "systor",
            Format::Tencent => "tencent",
            Format::Flashnet => "flashnet",
            Format::Columns(_) => "columns",
        }
    }

    /// The formats [`Format::Auto`] chooses from, in detection order.
    pub(crate) fn detectable() -> [Format; 10] {
        [
            Format::Msr,
            Format::Spc,
            Format::Disksim,
            Format::Blkparse,
            Format::Fio,
            Format::Blkreplay,
            Format::Fiu,
            Format::Systor,
            Format::Tencent,
            Format::Flashnet,
        ]
    }
}

pub(crate) fn format_names() -> String {
    FORMATS
        .iter()
        .map(|(n, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Format::Columns(spec) => write!(f, "columns:{spec}"),
            other => f.write_str(other.name()),
        }
    }
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        if let Some(spec) = t
            .strip_prefix("columns:")
            .or_else(|| t.strip_prefix("COLUMNS:"))
        {
            return spec
                .parse::<ColumnSpec>()
                .map(Format::Columns)
                .map_err(|e| format!("invalid column spec '{spec}': {e}"));
        }
        let lower = t.to_ascii_lowercase();
        let f = match lower.as_str() {
            "auto" => Format::Auto,
            "msr" => Format::Msr,
            "spc" | "umass" => Format::Spc,
            "disksim" | "mqsim" | "ssdsim" | "ascii" => Format::Disksim,
            "blkparse" => Format::Blkparse,
            "fio" => Format::Fio,
            "blkreplay" => Format::Blkreplay,
            "fiu" => Format::Fiu,
            "systor" => Format::Systor,
            "tencent" => Format::Tencent,
            "flashnet" | "heimdall" => Format::Flashnet,
            "columns" => {
                return Err(
                    "format 'columns' needs a spec: columns:time=1:ms,op=4,offset=5,len=6"
                        .to_string(),
                )
            }
            _ => {
                return Err(format!(
                    "unknown trace format '{t}' (valid: {})",
                    format_names()
                ))
            }
        };
        Ok(f)
    }
}

/// A time unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimeUnit {
    #[default]
    Ns,
    Us,
    Ms,
    S,
}

impl TimeUnit {
    /// Nanoseconds in one unit.
    pub fn ns(self) -> u64 {
        match self {
            TimeUnit::Ns => 1,
            TimeUnit::Us => 1_000,
            TimeUnit::Ms => 1_000_000,
            TimeUnit::S => 1_000_000_000,
        }
    }
}

impl std::str::FromStr for TimeUnit {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ns" => Ok(TimeUnit::Ns),
            "us" => Ok(TimeUnit::Us),
            "ms" => Ok(TimeUnit::Ms),
            "s" => Ok(TimeUnit::S),
            _ => Err(format!("unknown time unit '{s}' (valid: ns, us, ms, s)")),
        }
    }
}

/// Which blkparse event marks a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BlkparseEvent {
    /// Issued to the driver.
    #[default]
    D,
    /// Queued.
    Q,
}

impl std::str::FromStr for BlkparseEvent {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "D" | "d" => Ok(BlkparseEvent::D),
            "Q" | "q" => Ok(BlkparseEvent::Q),
            _ => Err(format!("unknown blkparse event '{s}' (valid: D, Q)")),
        }
    }
}

/// How to read a trace.
#[derive(Clone, Debug)]
pub struct TraceOptions {
    /// Default [`Format::Auto`].
    pub format: Format,
    /// Tencent volume to replay; for the formats with a device column, only records of this
    /// device are kept.
    pub volume: Option<u64>,
    /// DiskSim ASCII time unit: ns (MQSim/SSDSim files, the default) or ms (DiskSim proper).
    pub disksim_time: TimeUnit,
    /// blkparse event used: D (default) or Q.
    pub blkparse_event: BlkparseEvent,
    /// Records held to re-sort unsorted traces (Systor, Tencent). Default 4096.
    pub reorder_window: usize,
    /// Latest accepted record time, in ns after the first record; a later record is an error
    /// naming its line. Default [`MAX_ARRIVAL_NS`]; a replay that scales times by `k` passes
    /// `MAX_ARRIVAL_NS / k`.
    pub max_time_ns: u64,
    /// Keep every volume and count the records of each ([`TraceReader::volumes`]): no default
    /// volume is picked for Tencent traces. For inspecting a trace (`ssdgc trace info`); with
    /// [`TraceOptions::volume`] set, only that volume is kept and counted. Default false.
    pub all_volumes: bool,
}

/// Longest span of arrival times a workload may have, in ns (2^60 ns, about 36.5 years), so that
/// simulated time cannot overflow.
pub const MAX_ARRIVAL_NS: u64 = 1 << 60;

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            format: Format::Auto,
            volume: None,
            disksim_time: TimeUnit::Ns,
            blkparse_event: BlkparseEvent::D,
            reorder_window: 4096,
            max_time_ns: MAX_ARRIVAL_NS,
            all_volumes: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_display() {
        assert_eq!(
            WorkloadError::new("a.csv", 3, "bad").to_string(),
            "a.csv:3: bad"
        );
        assert_eq!(
            WorkloadError::new("a.csv", 0, "bad").to_string(),
            "a.csv: bad"
        );
    }

    #[test]
    fn format_names_round_trip() {
        for f in Format::detectable() {
            assert_eq!(f.name().parse::<Format>().unwrap(), f);
        }
        assert_eq!("AUTO".parse::<Format>().unwrap(), Format::Auto);
        let e = "nope".parse::<Format>().unwrap_err();
        assert!(e.contains("msr") && e.contains("columns:SPEC"), "{e}");
        assert!(formats().iter().any(|(n, _)| *n == "tencent"));
        let c: Format = "columns:time=1:ms,op=2,offset=3,len=4".parse().unwrap();
        assert_eq!(c.name(), "columns");
        assert_eq!(c.to_string().parse::<Format>().unwrap(), c);
    }
}
