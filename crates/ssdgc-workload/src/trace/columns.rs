//! Generic column-mapped reader: `columns:SPEC` (see the crate documentation for the SPEC).

use std::fmt;
use std::str::FromStr;

use super::num::{scaled, show, time_field, u64_field};
use super::{Line, Raw};
use crate::{Op, TimeUnit};

/// Unit of an address column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrUnit {
    Bytes,
    /// 512 B sectors.
    Sectors,
    /// 1024 B.
    Kib,
}

impl AddrUnit {
    fn bytes(self) -> u64 {
        match self {
            AddrUnit::Bytes => 1,
            AddrUnit::Sectors => 512,
            AddrUnit::Kib => 1024,
        }
    }
    fn name(self) -> &'static str {
        match self {
            AddrUnit::Bytes => "bytes",
            AddrUnit::Sectors => "sectors",
            AddrUnit::Kib => "kib",
        }
    }
}

/// Field separator of a column layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Separator {
    Comma,
    /// Any run of spaces and tabs.
    Space,
    Tab,
    Semicolon,
}

impl Separator {
    fn name(self) -> &'static str {
        match self {
            Separator::Comma => "comma",
            Separator::Space => "space",
            Separator::Tab => "tab",
            Separator::Semicolon => "semicolon",
        }
    }
}

/// A column layout: which 1-based column holds what, in which unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnSpec {
    /// Time column and unit; `None`: every record at time 0.
    pub time: Option<(usize, TimeUnit)>,
    pub op: usize,
    pub offset: (usize, AddrUnit),
    pub len: (usize, AddrUnit),
    /// Device column, compared with the volume option.
    pub dev: Option<usize>,
    pub sep: Separator,
    /// Number of header lines at the top of the file.
    pub skip: u64,
    /// Lines starting with this prefix are comments (empty: none).
    pub comment: String,
    /// Op values meaning read (exact match).
    pub read: Vec<String>,
    /// Op values meaning write (exact match).
    pub write: Vec<String>,
    /// Records are not time-ordered: use the reorder buffer.
    pub unsorted: bool,
}

fn column(key: &str, v: &str) -> Result<usize, String> {
    match v.trim().parse::<usize>() {
        Ok(n) if (1..=1000).contains(&n) => Ok(n),
        _ => Err(format!(
            "{key}: column '{v}' is not a column number from 1 to 1000 (columns are 1-based)"
        )),
    }
}

fn addr(key: &str, v: &str) -> Result<(usize, AddrUnit), String> {
    let (c, u) = v.split_once(':').unwrap_or((v, "bytes"));
    let unit = match u.to_ascii_lowercase().as_str() {
        "bytes" | "b" => AddrUnit::Bytes,
        "sectors" | "sector" => AddrUnit::Sectors,
        "kib" => AddrUnit::Kib,
        _ => {
            return Err(format!(
                "{key}: unknown unit '{u}' (valid: bytes, sectors, kib)"
            ))
        }
    };
    Ok((column(key, c)?, unit))
}

impl FromStr for ColumnSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let mut time = None;
        let mut op = None;
        let mut offset = None;
        let mut len = None;
        let mut dev = None;
        let mut sep = Separator::Comma;
        let mut skip = 0;
        let mut comment = "#".to_string();
        let mut read = Vec::new();
        let mut write = Vec::new();
        let mut unsorted = false;
        for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            if item == "unsorted" {
                unsorted = true;
                continue;
            }
            let Some((k, v)) = item.split_once('=') else {
                return Err(format!("'{item}' is not KEY=VALUE"));
            };
            let list = |v: &str| -> Vec<String> { v.split('|').map(str::to_string).collect() };
            match k.trim() {
                "time" => {
                    let (c, u) = v.split_once(':').unwrap_or((v, "s"));
                    let unit = u.parse::<TimeUnit>().map_err(|e| format!("time: {e}"))?;
                    time = Some((column(k, c)?, unit));
                }
                "op" => op = Some(column(k, v)?),
                "offset" => offset = Some(addr(k, v)?),
                "len" => len = Some(addr(k, v)?),
                "dev" => dev = Some(column(k, v)?),
                "sep" => {
                    sep = match v.trim() {
                        "comma" | "," => Separator::Comma,
                        "space" | "ws" | "whitespace" | " " => Separator::Space,
                        "tab" | "\t" => Separator::Tab,
                        "semicolon" | ";" => Separator::Semicolon,
                        _ => {
                            return Err(format!(
                                "sep: unknown separator '{v}' (valid: comma, space, tab, semicolon)"
                            ))
                        }
                    }
                }
                "skip" => {
                    skip = v
                        .trim()
                        .parse()
                        .map_err(|_| format!("skip: '{v}' is not a number of lines"))?
                }
                "comment" => comment = v.to_string(),
                "read" => read = list(v),
                "write" => write = list(v),
                _ => {
                    return Err(format!(
                        "unknown key '{k}' (valid: time, op, offset, len, dev, sep, skip, comment, read, write, unsorted)"
                    ))
                }
            }
        }
        let op = op.ok_or("missing op=COLUMN")?;
        let offset = offset.ok_or("missing offset=COLUMN[:UNIT]")?;
        let len = len.ok_or("missing len=COLUMN[:UNIT]")?;
        if read
            .iter()
            .chain(&write)
            .any(|v| read.contains(v) && write.contains(v))
        {
            return Err("a value is listed in both read and write".to_string());
        }
        if read.iter().chain(&write).any(String::is_empty) {
            return Err("read/write: empty value in the list".to_string());
        }
        Ok(ColumnSpec {
            time,
            op,
            offset,
            len,
            dev,
            sep,
            skip,
            comment,
            read,
            write,
            unsorted,
        })
    }
}

impl fmt::Display for ColumnSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((c, u)) = self.time {
            let u = match u {
                TimeUnit::Ns => "ns",
                TimeUnit::Us => "us",
                TimeUnit::Ms => "ms",
                TimeUnit::S => "s",
            };
            write!(f, "time={c}:{u},")?;
        }
        write!(
            f,
            "op={},offset={}:{},len={}:{}",
            self.op,
            self.offset.0,
            self.offset.1.name(),
            self.len.0,
            self.len.1.name()
        )?;
        if let Some(d) = self.dev {
            write!(f, ",dev={d}")?;
        }
        write!(f, ",sep={},skip={}", self.sep.name(), self.skip)?;
        if self.comment != "#" {
            write!(f, ",comment={}", self.comment)?;
        }
        if !self.read.is_empty() {
            write!(f, ",read={}", self.read.join("|"))?;
        }
        if !self.write.is_empty() {
            write!(f, ",write={}", self.write.join("|"))?;
        }
        if self.unsorted {
            write!(f, ",unsorted")?;
        }
        Ok(())
    }
}

/// Picks the wanted columns: time, op, offset, len, dev; and counts the fields.
#[inline]
fn pick<'a, I: Iterator<Item = &'a str>>(
    spec: &ColumnSpec,
    it: I,
) -> ([Option<&'a str>; 5], usize) {
    let want = [
        spec.time.map_or(0, |t| t.0),
        spec.op,
        spec.offset.0,
        spec.len.0,
        spec.dev.unwrap_or(0),
    ];
    let mut out = [None; 5];
    let mut n = 0;
    for (i, f) in it.enumerate() {
        n = i + 1;
        for (slot, w) in out.iter_mut().zip(want) {
            if w == n {
                *slot = Some(f.trim());
            }
        }
    }
    (out, n)
}

pub(crate) fn parse(spec: &ColumnSpec, line: &str, line_no: u64) -> Result<Line, String> {
    if line_no <= spec.skip {
        return Ok(Line::Skip);
    }
    if !spec.comment.is_empty() && line.trim_start().starts_with(spec.comment.as_str()) {
        return Ok(Line::Skip);
    }
    let (f, n) = match spec.sep {
        Separator::Comma => pick(spec, line.split(',')),
        Separator::Space => pick(spec, line.split_ascii_whitespace()),
        Separator::Tab => pick(spec, line.split('\t')),
        Separator::Semicolon => pick(spec, line.split(';')),
    };
    let need = |i: usize, col: usize| {
        f[i].ok_or_else(|| format!("expected at least {col} fields, found {n}"))
    };
    let time = match spec.time {
        Some((c, u)) => time_field(need(0, c)?, u.ns(), c, "a time")?,
        None => 0,
    };
    let op_s = need(1, spec.op)?;
    let is = |list: &[String]| list.iter().any(|v| v == op_s);
    let op = match (spec.read.is_empty(), spec.write.is_empty()) {
        (true, true) => {
            if op_s.eq_ignore_ascii_case("r") || op_s.eq_ignore_ascii_case("read") {
                Op::Read
            } else if op_s.eq_ignore_ascii_case("w") || op_s.eq_ignore_ascii_case("write") {
                Op::Write
            } else {
                return Err(format!(
                    "field {} '{}' is not R/W/Read/Write",
                    spec.op,
                    show(op_s)
                ));
            }
        }
        (false, true) => {
            if is(&spec.read) {
                Op::Read
            } else {
                Op::Write
            }
        }
        (true, false) => {
            if is(&spec.write) {
                Op::Write
            } else {
                Op::Read
            }
        }
        (false, false) => {
            if is(&spec.read) {
                Op::Read
            } else if is(&spec.write) {
                Op::Write
            } else {
                return Err(format!(
                    "field {} '{}' is neither a read ({}) nor a write ({})",
                    spec.op,
                    show(op_s),
                    spec.read.join("|"),
                    spec.write.join("|")
                ));
            }
        }
    };
    let (oc, ou) = spec.offset;
    let offset = scaled(u64_field(need(2, oc)?, oc, "an offset")?, ou.bytes(), oc)?;
    let (lc, lu) = spec.len;
    let len = scaled(u64_field(need(3, lc)?, lc, "a length")?, lu.bytes(), lc)?;
    let dev = match spec.dev {
        Some(c) => Some(u64_field(need(4, c)?, c, "a device number")?),
        None => None,
    };
    Ok(Line::Rec(Raw {
        time,
        op,
        offset,
        len,
        dev,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::testutil::*;
    use crate::{Format, TraceOptions};

    #[test]
    fn spec_parsing() {
        let s: ColumnSpec =
            "time=1:ms,op=4,offset=5:sectors,len=6:bytes,sep=comma,skip=1,read=R|r|1"
                .parse()
                .unwrap();
        assert_eq!(s.time, Some((1, TimeUnit::Ms)));
        assert_eq!(s.offset, (5, AddrUnit::Sectors));
        assert_eq!(s.read, ["R", "r", "1"]);
        assert_eq!(s.to_string().parse::<ColumnSpec>().unwrap(), s);
        for (bad, why) in [
            ("op=1,offset=2", "missing len"),
            ("op=0,offset=2,len=3", "1-based"),
            ("op=1,offset=2:pages,len=3", "unknown unit 'pages'"),
            ("op=1,offset=2,len=3,time=1:min", "unknown time unit"),
            ("op=1,offset=2,len=3,sep=pipe", "unknown separator"),
            ("op=1,offset=2,len=3,colour=red", "unknown key 'colour'"),
            ("op=1,offset=2,len=3,read=R,write=R", "both"),
            ("op=1,offset=2,len=3,foo", "KEY=VALUE"),
        ] {
            let e = bad.parse::<ColumnSpec>().unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
        let e = "columns:op=1".parse::<Format>().unwrap_err();
        assert!(e.contains("missing offset"), "{e}");
    }

    #[test]
    fn lines() {
        let f: Format =
            "columns:time=1:ms,op=4,offset=5:sectors,len=6,dev=3,sep=comma,skip=1,read=R|1"
                .parse()
                .unwrap();
        let (r, e) = read_str(
            "time,x,dev,op,off,len\n\
             1.5,a,0,R,8,4096\n\
             # comment\n\
             2,a,0,W,9,512\n\
             3,a,0,W,9\n\
             4,a,0,1,x,512\n",
            f.clone(),
        );
        assert_eq!(r.len(), 2);
        assert_eq!(rec(&r[0]), (0, Op::Read, 4096, 4096));
        assert_eq!(rec(&r[1]), (500_000, Op::Write, 4608, 512));
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].msg, "expected at least 6 fields, found 5");
        assert_eq!(e[1].msg, "field 5 'x' is not an offset");
        let opts = TraceOptions {
            format: f,
            volume: Some(1),
            ..TraceOptions::default()
        };
        let (r, _) = crate::read_all_from_bytes(b"h\n1,a,0,R,8,1\n2,a,1,R,8,1\n", &opts);
        assert_eq!(r.len(), 1);
    }

    #[test]
    fn whitespace_default_ops_and_unsorted() {
        let f: Format = "columns:time=1:us,op=2,offset=3:kib,len=4:kib,sep=space,unsorted"
            .parse()
            .unwrap();
        let (r, e) = read_str("5 Write 1 4\n3  read 2 8\n4 x 1 1\n", f);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].msg, "field 2 'x' is not R/W/Read/Write");
        assert_eq!(rec(&r[0]), (0, Op::Read, 2048, 8192));
        assert_eq!(rec(&r[1]), (2_000, Op::Write, 1024, 4096));
    }

    /// The MSR sample through a column spec gives the same records as the MSR reader.
    #[test]
    fn msr_sample_as_columns() {
        let Some(path) = sample_path("msr_hm0_snia_sample.csv") else {
            return;
        };
        let f: Format = "columns:time=1:ns,op=4,offset=5,len=6,read=Read"
            .parse()
            .unwrap();
        let a = read_path(&path, f);
        let b = read_path(&path, Format::Msr);
        assert_eq!(a.len(), 1000);
        // Times differ by the tick unit (100 ns) only.
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(
                (x.time_ns * 100, x.op, x.offset, x.len),
                (y.time_ns, y.op, y.offset, y.len)
            );
        }
    }
}
