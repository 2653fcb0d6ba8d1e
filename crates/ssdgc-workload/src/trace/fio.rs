//! fio iolog, versions 2 and 3.
//!
//! * v2: header `fio version 2 iolog`, lines `FILE ACTION [OFFSET LENGTH]`. No time: every
//!   record gets time 0.
//! * v3: header `fio version 3 iolog`, lines `TIMESTAMP FILE ACTION [OFFSET LENGTH]`, TIMESTAMP
//!   in microseconds since the start of the log (decimals allowed). fio writes it with
//!   `utime_since_now()` and replays the differences as microsecond delays; some documentation
//!   calls the unit milliseconds, but that is not what fio does.
//!
//! Offsets and lengths in bytes. `read`/`write` make records; `add`/`open`/`close`, `trim`,
//! `sync`/`datasync` and `wait` are skipped. File names are ignored: all files share one
//! address space. A line before the header, or an unknown action, is an error.

use super::num::{show, split_fixed, time_field, u64_field};
use super::{Line, Raw};
use crate::Op;

#[derive(Clone, Debug, Default)]
pub(crate) struct State {
    /// 0 until the header is seen.
    version: u8,
}

impl State {
    pub(crate) fn parse(&mut self, line: &str) -> Result<Line, String> {
        let t = line.trim();
        if let Some(v) = t
            .strip_prefix("fio version ")
            .and_then(|r| r.strip_suffix(" iolog"))
        {
            self.version = match v {
                "2" => 2,
                "3" => 3,
                _ => return Err(format!("unsupported fio iolog version '{}'", show(v))),
            };
            return Ok(Line::Skip);
        }
        let (f, n) = split_fixed::<5, _>(t.split_ascii_whitespace());
        let (time, rest, n, base) = match self.version {
            2 => (0, [f[0], f[1], f[2], f[3]], n, 1),
            3 => {
                if n < 3 {
                    return Err(format!(
                        "expected 'TIMESTAMP FILE ACTION [OFFSET LENGTH]', found {n} fields"
                    ));
                }
                let time = time_field(f[0], 1_000, 1, "a time in us")?;
                (time, [f[1], f[2], f[3], f[4]], n - 1, 2)
            }
            _ => {
                return Err(
                    "not a fio iolog: expected a 'fio version 2 iolog' or 'fio version 3 iolog' header first"
                        .to_string(),
                )
            }
        };
        if n < 2 {
            return Err(format!(
                "expected 'FILE ACTION [OFFSET LENGTH]', found {n} fields"
            ));
        }
        let op = match rest[1] {
            "read" => Op::Read,
            "write" => Op::Write,
            "add" | "open" | "close" | "trim" | "sync" | "datasync" | "wait" => {
                return Ok(Line::Skip)
            }
            a => {
                return Err(format!(
                    "field {} '{}' is not a fio iolog action (read, write, trim, sync, datasync, wait, add, open, close)",
                    base + 1,
                    show(a)
                ))
            }
        };
        if n != 4 {
            return Err(format!(
                "a {} needs OFFSET and LENGTH: expected {} fields, found {}",
                rest[1],
                base + 3,
                n + base - 1
            ));
        }
        let offset = u64_field(rest[2], base + 2, "a byte offset")?;
        let len = u64_field(rest[3], base + 3, "a length in bytes")?;
        Ok(Line::Rec(Raw {
            time,
            op,
            offset,
            len,
            dev: None,
        }))
    }
}

#[cfg(test)]
mod tests {
    use crate::trace::testutil::*;
    use crate::{Format, Op};

    #[test]
    fn v2() {
        let (r, e, st) = read_str_stats(
            "fio version 2 iolog\n\
             /dev/sdb add\n\
             /dev/sdb open\n\
             /dev/sdb write 0 4096\n\
             /dev/sdb read 8192 512\n\
             /dev/sdb trim 0 4096\n\
             /dev/sdb sync 0 0\n\
             /dev/sdb write 0\n\
             /dev/sdb frob 0 1\n\
             /dev/sdb close\n",
            Format::Fio,
            None,
        );
        assert_eq!(r.len(), 2);
        assert_eq!(rec(&r[0]), (0, Op::Write, 0, 4096));
        assert_eq!(rec(&r[1]), (0, Op::Read, 8192, 512));
        assert_eq!(e.len(), 2);
        assert_eq!(
            e[0].msg,
            "a write needs OFFSET and LENGTH: expected 4 fields, found 3"
        );
        assert!(e[1].msg.starts_with("field 2 'frob'"));
        assert_eq!(st.skipped, 6);
    }

    #[test]
    fn v3() {
        let (r, e) = read_str(
            "fio version 3 iolog\n\
             2 Nvme1n1 add\n\
             872 Nvme1n1 open\n\
             878 Nvme1n1 write 0 16384\n\
             888.5 Nvme1n1 read 16384 16384\n\
             887 Nvme1n1 read 16384 16384\n\
             x Nvme1n1 read 16384 16384\n\
             10001677 Nvme1n1 close\n",
            Format::Fio,
        );
        assert_eq!(r.len(), 2);
        assert_eq!(rec(&r[1]), (10_500, Op::Read, 16384, 16384));
        assert_eq!(e.len(), 2);
        assert_eq!(e[1].msg, "field 1 'x' is not a time in us");
        let (r, e) = read_str("/dev/sdb write 0 1\n", Format::Fio);
        assert!(r.is_empty() && e[0].msg.contains("header"));
        let (r, _) = read_str("fio version 3 iolog\n1 f write 0 1\n", Format::Auto);
        assert_eq!(r.len(), 1);
    }
}
