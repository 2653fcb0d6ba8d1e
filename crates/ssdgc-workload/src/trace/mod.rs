//! Streaming trace readers: one file per format, detection in [`detect`], decompression in
//! [`input`]. See the crate documentation for the formats.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};
use std::io::BufRead;
use std::path::Path;

use crate::{Format, IoRecord, Op, TraceOptions, WorkloadError};

pub mod blkparse;
pub mod blkreplay;
pub mod columns;
pub mod detect;
pub mod disksim;
pub mod fio;
pub mod fiu;
pub mod flashnet;
pub mod input;
pub mod msr;
pub(crate) mod num;
pub mod spc;
pub mod systor;
pub mod tencent;

#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) mod testutil;

/// What a parser made of one non-blank line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Line {
    Rec(Raw),
    /// A header, comment or event that is not a read or write.
    Skip,
}

/// A record before time rebasing and filtering. `time` is absolute, in ns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Raw {
    pub time: u128,
    pub op: Op,
    pub offset: u64,
    pub len: u64,
    pub dev: Option<u64>,
}

/// Per-format line parser (with the little state some formats need).
#[derive(Clone, Debug)]
pub(crate) enum Parser {
    Msr,
    Spc,
    Disksim { unit_ns: u64 },
    Blkparse(blkparse::State),
    Fio(fio::State),
    Blkreplay,
    Fiu,
    Systor,
    Tencent,
    Flashnet,
    Columns(columns::ColumnSpec),
}

impl Parser {
    /// A parser for a concrete format (`Auto` must be resolved first).
    pub(crate) fn new(format: &Format, opts: &TraceOptions) -> Parser {
        match format {
            Format::Auto | Format::Msr => Parser::Msr,
            Format::Spc => Parser::Spc,
            Format::Disksim => Parser::Disksim {
                unit_ns: opts.disksim_time.ns(),
            },
            Format::Blkparse => Parser::Blkparse(blkparse::State::new(opts.blkparse_event)),
            Format::Fio => Parser::Fio(fio::State::default()),
            Format::Blkreplay => Parser::Blkreplay,
            Format::Fiu => Parser::Fiu,
            Format::Systor => Parser::Systor,
            Format::Tencent => Parser::Tencent,
            Format::Flashnet => Parser::Flashnet,
            Format::Columns(spec) => Parser::Columns(spec.clone()),
        }
    }

    /// Parses one line (without its line terminator, never blank). `line_no` is 1-based.
    #[inline]
    pub(crate) fn parse(&mut self, line: &str, line_no: u64) -> Result<Line, String> {
        if let Parser::Columns(spec) = self {
            return columns::parse(spec, line, line_no);
        }
        if line.trim_start().starts_with('#') {
            return Ok(Line::Skip);
        }
        match self {
            Parser::Msr => msr::parse(line),
            Parser::Spc => spc::parse(line),
            Parser::Disksim { unit_ns } => disksim::parse(line, *unit_ns),
            Parser::Blkparse(st) => st.parse(line),
            Parser::Fio(st) => st.parse(line),
            Parser::Blkreplay => blkreplay::parse(line),
            Parser::Fiu => fiu::parse(line),
            Parser::Systor => systor::parse(line),
            Parser::Tencent => tencent::parse(line),
            Parser::Flashnet => flashnet::parse(line),
            Parser::Columns(_) => unreachable!("handled above"),
        }
    }

    /// Whether records of this format arrive out of time order and must be re-sorted.
    pub(crate) fn unsorted(&self) -> bool {
        match self {
            Parser::Systor | Parser::Tencent => true,
            Parser::Columns(spec) => spec.unsorted,
            _ => false,
        }
    }
}

/// Counters of what a [`TraceReader`] did with the lines it read.
///
/// Once the reader is exhausted,
/// `lines == blank + skipped + filtered + errors + records`; while reading, `buffered` records
/// wait in the reorder buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceStats {
    /// Lines read (including blank ones).
    pub lines: u64,
    /// Records emitted.
    pub records: u64,
    /// Blank lines.
    pub blank: u64,
    /// Headers, comments and events that are not reads or writes.
    pub skipped: u64,
    /// Records of another volume/device.
    pub filtered: u64,
    /// Lines reported as errors.
    pub errors: u64,
    /// Records held in the reorder buffer, not yet emitted.
    pub buffered: u64,
}

/// A record waiting in the reorder buffer; ordered by time, then line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Held {
    time: u128,
    line: u64,
    op: Op,
    offset: u64,
    len: u64,
}

impl Ord for Held {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap, we want the earliest first.
        (other.time, other.line).cmp(&(self.time, self.line))
    }
}

impl PartialOrd for Held {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Longest accepted line, in bytes (without its terminator): a longer one is an error naming its
/// line, and ends the stream (its end may never come: `/dev/zero`).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Longest accepted request, in bytes (4 GiB): a longer record is an error naming its line.
pub const MAX_REQUEST_BYTES: u64 = 1 << 32;

/// Distinct other volumes counted for the "volume has no records" message.
const MAX_VOLUMES_COUNTED: usize = 4096;

/// What [`read_line_bounded`] found.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum LineRead {
    /// End of input, nothing read.
    Eof,
    /// A line (with its terminator, if any) is in the buffer.
    Line,
    /// The line is longer than the limit; the buffer holds its first bytes.
    TooLong,
}

/// Reads one line into `buf` (cleared first), reading at most `max + 1` bytes of it before giving up.
pub(crate) fn read_line_bounded(
    input: &mut dyn BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> std::io::Result<LineRead> {
    buf.clear();
    loop {
        let avail = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if avail.is_empty() {
            return Ok(if buf.is_empty() {
                LineRead::Eof
            } else if trim_eol_bytes(buf).len() > max {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
        let room = max + 2 - buf.len().min(max + 2);
        match avail.iter().take(room).position(|&c| c == b'\n') {
            Some(i) => {
                buf.extend_from_slice(&avail[..=i]);
                input.consume(i + 1);
                return Ok(if trim_eol_bytes(buf).len() > max {
                    LineRead::TooLong
                } else {
                    LineRead::Line
                });
            }
            None => {
                let n = avail.len().min(room);
                buf.extend_from_slice(&avail[..n]);
                input.consume(n);
                if buf.len() > max + 1 {
                    return Ok(LineRead::TooLong);
                }
            }
        }
    }
}

fn trim_eol_bytes(l: &[u8]) -> &[u8] {
    let l = l.strip_suffix(b"\n").unwrap_or(l);
    l.strip_suffix(b"\r").unwrap_or(l)
}

/// Lines read ahead (for detection or volume selection) are at most this many.
const PEEK_LINES: usize = 200;
/// ... and at most this many bytes.
const PEEK_BYTES: usize = 1 << 20;

/// A streaming reader of one trace, yielding [`IoRecord`]s (or errors naming the line).
pub struct TraceReader {
    name: String,
    input: Box<dyn BufRead + Send>,
    buf: Vec<u8>,
    /// Raw lines read ahead, replayed before reading more.
    peeked: VecDeque<Vec<u8>>,
    line_no: u64,
    parser: Parser,
    format: Format,
    stats: TraceStats,
    volume: Option<u64>,
    /// Tencent without a volume: take the first record's.
    pick_volume: bool,
    base: Option<u128>,
    last_time: u128,
    last_line: u64,
    reorder: Option<(BinaryHeap<Held>, usize)>,
    eof: bool,
    /// Latest time a record may have, relative to the first ([`TraceOptions::max_time_ns`]).
    max_time_ns: u64,
    /// The volume was asked for ([`TraceOptions::volume`]), not picked from the first record.
    volume_given: bool,
    /// Records per other volume, for the message when the asked one has none.
    others: BTreeMap<u64, u64>,
    /// The "no records of the volume" error was reported.
    volume_reported: bool,
    /// With [`TraceOptions::all_volumes`]: records kept per volume/device (at most
    /// `MAX_VOLUMES_COUNTED` of them), and the records of volumes beyond.
    volumes: Option<(BTreeMap<u64, u64>, u64)>,
}

/// Opens a trace file (gzip / zstd compressed or not) for streaming.
pub fn open_trace(path: &Path, opts: &TraceOptions) -> Result<TraceReader, WorkloadError> {
    let name = path.display().to_string();
    let input = input::open_path(path)
        .map_err(|e| WorkloadError::new(name.clone(), 0, format!("cannot open: {e}")))?;
    TraceReader::from_reader(name, input, opts)
}

/// Reads a whole in-memory trace: every record and every error (an error opening or detecting
/// the format is the only error when nothing can be read). For tests and fuzzing.
pub fn read_all_from_bytes(
    bytes: &[u8],
    opts: &TraceOptions,
) -> (Vec<IoRecord>, Vec<WorkloadError>) {
    let mut recs = Vec::new();
    let mut errs = Vec::new();
    let input: Box<dyn BufRead + Send> = Box::new(std::io::Cursor::new(bytes.to_vec()));
    match TraceReader::from_reader("<bytes>", input, opts) {
        Ok(reader) => {
            for r in reader {
                match r {
                    Ok(rec) => recs.push(rec),
                    Err(e) => errs.push(e),
                }
            }
        }
        Err(e) => errs.push(e),
    }
    (recs, errs)
}

impl TraceReader {
    /// A reader over any buffered input (decompressed transparently if it starts with gzip or
    /// zstd magic bytes). `name` is used in error messages.
    pub fn from_reader(
        name: impl Into<String>,
        input: Box<dyn BufRead + Send>,
        opts: &TraceOptions,
    ) -> Result<TraceReader, WorkloadError> {
        let name = name.into();
        let input = input::decompress(input)
            .map_err(|e| WorkloadError::new(name.clone(), 0, format!("cannot read: {e}")))?;
        let mut r = TraceReader {
            name,
            input,
            buf: Vec::with_capacity(256),
            peeked: VecDeque::new(),
            line_no: 0,
            parser: Parser::Msr,
            format: opts.format.clone(),
            stats: TraceStats::default(),
            volume: opts.volume,
            pick_volume: false,
            base: None,
            last_time: 0,
            last_line: 0,
            reorder: None,
            eof: false,
            max_time_ns: opts.max_time_ns,
            volume_given: opts.volume.is_some(),
            others: BTreeMap::new(),
            volume_reported: false,
            volumes: opts.all_volumes.then(|| (BTreeMap::new(), 0)),
        };
        if r.format == Format::Auto {
            r.peek_lines()?;
            let lines: Vec<&str> = r
                .peeked
                .iter()
                .filter_map(|l| std::str::from_utf8(l).ok())
                .map(trim_eol)
                .filter(|l| !l.trim().is_empty())
                .collect();
            r.format = detect::detect(&lines, opts)
                .map_err(|msg| WorkloadError::new(r.name.clone(), 0, msg))?;
        }
        r.parser = Parser::new(&r.format, opts);
        if r.parser.unsorted() {
            let window = opts.reorder_window.max(1);
            r.reorder = Some((BinaryHeap::with_capacity(window.min(1 << 16) + 1), window));
        }
        if r.format == Format::Tencent && r.volume.is_none() && !opts.all_volumes {
            r.pick_volume = true;
            r.peek_lines()?;
            let mut p = Parser::new(&Format::Tencent, opts);
            for (i, l) in r.peeked.iter().enumerate() {
                let Ok(l) = std::str::from_utf8(l) else {
                    continue;
                };
                let l = trim_eol(l);
                if l.trim().is_empty() {
                    continue;
                }
                if let Ok(Line::Rec(raw)) = p.parse(l, i as u64 + 1) {
                    r.volume = raw.dev;
                    r.pick_volume = false;
                    break;
                }
            }
        }
        Ok(r)
    }

    /// The format in use (the detected one under [`Format::Auto`]).
    pub fn format(&self) -> &Format {
        &self.format
    }

    /// What happened to the lines read so far.
    pub fn stats(&self) -> TraceStats {
        let mut s = self.stats;
        s.buffered = self.reorder.as_ref().map_or(0, |(h, _)| h.len() as u64);
        s
    }

    /// The time of the first record on the trace's own clock, in ns, once a record has been
    /// read (records' `time_ns` are relative to it). Readers of several volumes of one trace line
    /// up their records with it.
    pub fn first_time_ns(&self) -> Option<u128> {
        self.base
    }

    /// The volume/device whose records are kept: [`TraceOptions::volume`], or for Tencent
    /// traces without one, the first record's volume.
    pub fn selected_volume(&self) -> Option<u64> {
        self.volume
    }

    /// With [`TraceOptions::all_volumes`]: the records kept so far per volume/device (formats
    /// with one), for at most 4,096 distinct volumes, and the records of the volumes beyond;
    /// `None` without the option.
    pub fn volumes(&self) -> Option<(&BTreeMap<u64, u64>, u64)> {
        self.volumes.as_ref().map(|(m, o)| (m, *o))
    }

    /// The name used in error messages.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn err(&self, line: u64, msg: impl Into<String>) -> WorkloadError {
        WorkloadError::new(self.name.clone(), line, msg)
    }

    /// Reads ahead up to [`PEEK_LINES`] raw lines (kept for replay).
    fn peek_lines(&mut self) -> Result<(), WorkloadError> {
        let mut bytes: usize = self.peeked.iter().map(Vec::len).sum();
        while self.peeked.len() < PEEK_LINES && bytes < PEEK_BYTES {
            let mut l = Vec::new();
            let line = self.peeked.len() as u64 + 1;
            match read_line_bounded(&mut self.input, &mut l, MAX_LINE_BYTES) {
                Ok(LineRead::Eof) => break,
                Ok(LineRead::Line) => {
                    bytes += l.len();
                    self.peeked.push_back(l);
                }
                Ok(LineRead::TooLong) => return Err(self.err(line, too_long())),
                Err(e) => return Err(self.err(line, format!("read error: {e}"))),
            }
        }
        Ok(())
    }

    /// Fills `self.buf` with the next raw line.
    fn next_line(&mut self) -> std::io::Result<LineRead> {
        self.buf.clear();
        if let Some(l) = self.peeked.pop_front() {
            self.buf = l;
            return Ok(LineRead::Line);
        }
        read_line_bounded(&mut self.input, &mut self.buf, MAX_LINE_BYTES)
    }

    /// At the end of the input: the error for a volume that was asked for and has no record,
    /// naming the volumes present (busiest first).
    fn missing_volume(&mut self) -> Option<WorkloadError> {
        if self.volume_reported || !self.volume_given || self.stats.records > 0 {
            return None;
        }
        let want = self.volume?;
        if self.others.is_empty() {
            return None;
        }
        self.volume_reported = true;
        let mut present: Vec<(u64, u64)> = self.others.iter().map(|(&v, &n)| (v, n)).collect();
        present.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let shown: Vec<String> = present
            .iter()
            .take(8)
            .map(|(v, n)| format!("{v} ({n} record{})", if *n == 1 { "" } else { "s" }))
            .collect();
        let more = if present.len() > 8 {
            format!(", … ({} volumes in all)", present.len())
        } else {
            String::new()
        };
        Some(self.err(
            0,
            format!(
                "volume {want} has no records; volumes present: {}{more}",
                shown.join(", ")
            ),
        ))
    }

    /// Format-independent checks of a record: its byte range fits 64 bits and its length the
    /// longest accepted request.
    fn check_range(&self, offset: u64, len: u64) -> Result<(), String> {
        if offset.checked_add(len.max(1)).is_none() {
            return Err(format!("offset {offset} + length {len} overflows 64 bits"));
        }
        if len > MAX_REQUEST_BYTES {
            return Err(format!(
                "length {len} bytes exceeds the longest accepted request of {MAX_REQUEST_BYTES} bytes (4 GiB)"
            ));
        }
        Ok(())
    }

    /// Turns an absolute time into a record time relative to the first record.
    fn emit(
        &mut self,
        time: u128,
        line: u64,
        op: Op,
        offset: u64,
        len: u64,
    ) -> Option<Result<IoRecord, WorkloadError>> {
        let base = *self.base.get_or_insert(time);
        match u64::try_from(time - base) {
            Ok(t) if t > self.max_time_ns => {
                self.stats.errors += 1;
                Some(Err(self.err(
                    line,
                    format!(
                        "time {t} ns after the first record is beyond the longest supported \
                         replay span of {} ns (2^60 ns divided by the time scale)",
                        self.max_time_ns
                    ),
                )))
            }
            Ok(t) => {
                self.stats.records += 1;
                Some(Ok(IoRecord {
                    time_ns: t,
                    op,
                    offset,
                    len,
                }))
            }
            Err(_) => {
                self.stats.errors += 1;
                Some(Err(self.err(
                    line,
                    "time is more than 2^64 ns (584 years) after the first record",
                )))
            }
        }
    }

    fn pop_held(&mut self) -> Option<Result<IoRecord, WorkloadError>> {
        let h = self.reorder.as_mut()?.0.pop()?;
        self.last_time = h.time;
        self.last_line = h.line;
        self.emit(h.time, h.line, h.op, h.offset, h.len)
    }
}

fn too_long() -> String {
    format!("line is longer than {MAX_LINE_BYTES} bytes (is this a trace?)")
}

/// Strips a trailing `\n` / `\r\n`.
#[inline]
pub(crate) fn trim_eol(l: &str) -> &str {
    let l = l.strip_suffix('\n').unwrap_or(l);
    l.strip_suffix('\r').unwrap_or(l)
}

impl Iterator for TraceReader {
    type Item = Result<IoRecord, WorkloadError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if self.eof {
                if let Some(r) = self.pop_held() {
                    return Some(r);
                }
                return self.missing_volume().map(Err);
            }
            match self.next_line() {
                Ok(LineRead::Line) => {}
                Ok(LineRead::Eof) => {
                    self.eof = true;
                    continue;
                }
                Ok(LineRead::TooLong) => {
                    self.eof = true;
                    self.line_no += 1;
                    self.stats.lines += 1;
                    self.stats.errors += 1;
                    return Some(Err(self.err(self.line_no, too_long())));
                }
                Err(e) => {
                    self.eof = true;
                    self.stats.errors += 1;
                    return Some(Err(self.err(self.line_no + 1, format!("read error: {e}"))));
                }
            }
            self.line_no += 1;
            self.stats.lines += 1;
            let line_no = self.line_no;
            let line = match std::str::from_utf8(&self.buf) {
                Ok(s) => trim_eol(s),
                Err(_) => {
                    self.stats.errors += 1;
                    return Some(Err(self.err(line_no, "line is not valid UTF-8 text")));
                }
            };
            if line.trim().is_empty() {
                self.stats.blank += 1;
                continue;
            }
            let raw = match self.parser.parse(line, line_no) {
                Ok(Line::Rec(raw)) => raw,
                Ok(Line::Skip) => {
                    self.stats.skipped += 1;
                    continue;
                }
                Err(msg) => {
                    self.stats.errors += 1;
                    return Some(Err(self.err(line_no, msg)));
                }
            };
            if let (Some(want), Some(dev)) = (self.volume, raw.dev) {
                if want != dev {
                    self.stats.filtered += 1;
                    if self.others.len() < MAX_VOLUMES_COUNTED || self.others.contains_key(&dev) {
                        *self.others.entry(dev).or_insert(0) += 1;
                    }
                    continue;
                }
            } else if self.pick_volume {
                self.volume = raw.dev;
                self.pick_volume = false;
            }
            if let Err(msg) = self.check_range(raw.offset, raw.len) {
                self.stats.errors += 1;
                return Some(Err(self.err(line_no, msg)));
            }
            if let (Some((counts, beyond)), Some(dev)) = (self.volumes.as_mut(), raw.dev) {
                if counts.len() < MAX_VOLUMES_COUNTED || counts.contains_key(&dev) {
                    *counts.entry(dev).or_insert(0) += 1;
                } else {
                    *beyond += 1;
                }
            }
            if let Some((heap, window)) = self.reorder.as_mut() {
                let window = *window;
                if self.base.is_some() && raw.time < self.last_time {
                    self.stats.errors += 1;
                    let last_line = self.last_line;
                    return Some(Err(self.err(
                        line_no,
                        format!(
                            "record is earlier than the record of line {last_line} already \
                             replayed: the trace is more out of order than the reorder window \
                             of {window} records allows; use a larger reorder window"
                        ),
                    )));
                }
                heap.push(Held {
                    time: raw.time,
                    line: line_no,
                    op: raw.op,
                    offset: raw.offset,
                    len: raw.len,
                });
                if heap.len() > window {
                    return self.pop_held();
                }
                continue;
            }
            if self.base.is_some() && raw.time < self.last_time {
                self.stats.errors += 1;
                let last_line = self.last_line;
                return Some(Err(self.err(
                    line_no,
                    format!(
                        "timestamp goes back in time: earlier than the record of line {last_line} \
                         ({} ns before it)",
                        self.last_time - raw.time
                    ),
                )));
            }
            self.last_time = raw.time;
            self.last_line = line_no;
            return self.emit(raw.time, line_no, raw.op, raw.offset, raw.len);
        }
    }
}
