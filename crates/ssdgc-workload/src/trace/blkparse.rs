//! blkparse default text output:
//! `MAJ,MIN CPU SEQ TIME PID ACTION RWBS SECTOR + NSECTORS [PROCESS]`, TIME in decimal seconds,
//! sectors of 512 B.
//!
//! Only the chosen event (`D`, issued to the driver, by default, or `Q`, queued) makes records.
//! Lines of other actions, events without `SECTOR + N` (flushes, plugs, messages), and RWBS
//! without `R`/`W` or with `D` (discard) are skipped. From the first line of the summary
//! blkparse prints at the end (`CPUn (...)`, `Total (...)`) every line is skipped. Any other line
//! that does not start with a `MAJ,MIN` device before the summary is an error.

use super::num::{scaled, show, split_fixed, time_field, u64_field};
use super::{Line, Raw};
use crate::{BlkparseEvent, Op};

#[derive(Clone, Debug)]
pub(crate) struct State {
    action: &'static str,
    in_summary: bool,
}

impl State {
    pub(crate) fn new(ev: BlkparseEvent) -> State {
        State {
            action: match ev {
                BlkparseEvent::D => "D",
                BlkparseEvent::Q => "Q",
            },
            in_summary: false,
        }
    }

    pub(crate) fn parse(&mut self, line: &str) -> Result<Line, String> {
        if self.in_summary {
            return Ok(Line::Skip);
        }
        let (f, n) = split_fixed::<10, _>(line.split_ascii_whitespace());
        if !is_dev(f[0]) {
            let t = line.trim_start();
            if t.starts_with("CPU") || t.starts_with("Total") {
                self.in_summary = true;
                return Ok(Line::Skip);
            }
            return Err(format!(
                "field 1 '{}' is not a MAJ,MIN device: not a blkparse event line",
                show(f[0])
            ));
        }
        if n < 7 {
            return Err(format!(
                "expected at least 7 whitespace-separated fields (dev cpu seq time pid action rwbs), found {n}"
            ));
        }
        if f[5] != self.action || n < 10 || f[8] != "+" {
            return Ok(Line::Skip);
        }
        let rwbs = f[6];
        let op = if rwbs.contains('D') {
            return Ok(Line::Skip);
        } else if rwbs.contains('W') {
            Op::Write
        } else if rwbs.contains('R') {
            Op::Read
        } else {
            return Ok(Line::Skip);
        };
        let time = time_field(f[3], 1_000_000_000, 4, "a time in seconds")?;
        let sector = u64_field(f[7], 8, "a sector number")?;
        let count = u64_field(f[9], 10, "a sector count")?;
        Ok(Line::Rec(Raw {
            time,
            op,
            offset: scaled(sector, 512, 8)?,
            len: scaled(count, 512, 10)?,
            dev: None,
        }))
    }
}

fn is_dev(s: &str) -> bool {
    match s.split_once(',') {
        Some((a, b)) => {
            !a.is_empty()
                && !b.is_empty()
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.bytes().all(|c| c.is_ascii_digit())
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::trace::testutil::*;
    use crate::{BlkparseEvent, Format, Op, TraceOptions};

    const TEXT: &str = "  8,0    3        1     0.000000000  4162  Q  WS 3417048 + 8 [kjournald]
  8,0    3        2     0.000001000  4162  G  WS 3417048 + 8 [kjournald]
  8,0    3        3     0.000002000  4162  P   N [kjournald]
  8,0    3        4     0.000003000  4162  I  WS 3417048 + 8 [kjournald]
  8,0    3        5     0.000004000  4162  D  WS 3417048 + 8 [kjournald]
  8,0    0        0     0.000004500     0  m   N cfq4162 dispatched
  8,0    1        6     0.000005000  4100  Q   R 100 + 16 [cat]
  8,0    1        7     0.000006000  4100  D   R 100 + 16 [cat]
  8,0    1        8     0.000006500  4100  D   D 200 + 16 [fstrim]
  8,0    1        9     0.000006600  4100  D  FN [sync]
  8,0    1       10     0.000007000  4100  D   R x + 16 [cat]
  8,0    3       11     0.000010000     0  C  WS 3417048 + 8 [0]
CPU0 (8,0):
 Reads Queued:           0,        0KiB\t Writes Queued:           1,        4KiB
Total (8,0):
 Reads Queued:           1,        8KiB\t Writes Queued:           1,        4KiB
Throughput (R/W): 0KiB/s / 0KiB/s
";

    #[test]
    fn d_events() {
        let (r, e, st) = read_str_stats(TEXT, Format::Blkparse, None);
        assert_eq!(r.len(), 2);
        assert_eq!(rec(&r[0]), (0, Op::Write, 3_417_048 * 512, 4096));
        assert_eq!(rec(&r[1]), (2_000, Op::Read, 51_200, 8192));
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].line, 11);
        assert_eq!(e[0].msg, "field 8 'x' is not a sector number");
        assert_eq!(st.lines, 17);
        assert_eq!(st.skipped, 14);
    }

    #[test]
    fn q_events() {
        let opts = TraceOptions {
            format: Format::Blkparse,
            blkparse_event: BlkparseEvent::Q,
            ..TraceOptions::default()
        };
        let (r, e) = crate::read_all_from_bytes(TEXT.as_bytes(), &opts);
        assert!(e.is_empty(), "{e:?}");
        assert_eq!(r.len(), 2);
        assert_eq!(rec(&r[1]), (5_000, Op::Read, 51_200, 8192));
        let (r, e) = crate::read_all_from_bytes(b"hello world\n", &opts);
        assert!(r.is_empty());
        assert!(e[0].msg.contains("not a blkparse event line"));
    }

    #[test]
    fn detected() {
        let (r, e) = crate::read_all_from_bytes(TEXT.as_bytes(), &TraceOptions::default());
        assert_eq!((r.len(), e.len()), (2, 1));
    }
}
