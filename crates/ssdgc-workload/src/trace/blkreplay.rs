//! blkreplay `.load`: `start ; sector ; length ; R|W ; replay_delay ; replay_duration` with
//! start in decimal seconds, sector and length in 512 B sectors.
//!
//! A data line is six `;`-separated fields whose first field is a decimal number; any other
//! line (the licence header, which may appear again anywhere, the column titles) is a comment.
//! A data line with a bad field is an error. The direction may carry blktrace RWBS flags as in
//! the 1&1 loads (`RA`, a read-ahead): any `W` makes a write, else any `R` a read.

use super::num::{decimal_ns, scaled, show, split_fixed, time_field, u64_field};
use super::{Line, Raw};
use crate::Op;

pub(crate) fn parse(line: &str) -> Result<Line, String> {
    let (f, n) = split_fixed::<6, _>(line.split(';'));
    let start = f[0].trim();
    if n != 6 || decimal_ns(start, 1).is_none() {
        return Ok(Line::Skip);
    }
    let time = time_field(start, 1_000_000_000, 1, "a time in seconds")?;
    let sector = u64_field(f[1].trim(), 2, "a sector number")?;
    let length = u64_field(f[2].trim(), 3, "a length in sectors")?;
    let op = parse_op(f[3].trim())?;
    time_field(f[4].trim(), 1, 5, "a replay delay")?;
    time_field(f[5].trim(), 1, 6, "a replay duration")?;
    Ok(Line::Rec(Raw {
        time,
        op,
        offset: scaled(sector, 512, 2)?,
        len: scaled(length, 512, 3)?,
        dev: None,
    }))
}

/// `R`/`W`, possibly with blktrace RWBS flags (`RA` is a read-ahead, `WS` a synchronous write).
fn parse_op(s: &str) -> Result<Op, String> {
    let flags = !s.is_empty()
        && s.bytes()
            .all(|c| b"RWASMFDN".contains(&c.to_ascii_uppercase()));
    let up = |c: char| s.contains(c) || s.contains(c.to_ascii_lowercase());
    if flags && up('W') {
        Ok(Op::Write)
    } else if flags && up('R') {
        Ok(Op::Read)
    } else {
        Err(format!("field 4 '{}' is not R/W", show(s)))
    }
}

#[cfg(test)]
mod tests {
    use crate::trace::testutil::*;
    use crate::{Format, Op};

    #[test]
    fn lines() {
        let (r, e, st) = read_str_stats(
            "Copyright Thomas Schoebel-Theuer /  1&1 Internet AG\n\
             \n\
             #################################################################\n\
             start ; sector; length ; op ;  replay_delay=0 ; replay_duration=0\n\
             \x20     0.000000000 ;     37766853 ;   64 ; W ; 0.0 ; 0.0\n\
             \x20     0.449518165 ;     37766917 ;   14 ; R ; 0.0 ; 0.0\n\
             Copyright again; the header may repeat\n\
             \x20     0.5 ;     x ;   14 ; R ; 0.0 ; 0.0\n\
             \x20     0.5 ;     1 ;   14 ; T ; 0.0 ; 0.0\n\
             \x20     0.6 ;     1 ;   8 ; RA ; 0.0 ; 0.0\n",
            Format::Blkreplay,
            None,
        );
        assert_eq!(r.len(), 3);
        assert_eq!(rec(&r[2]), (600_000_000, Op::Read, 512, 4096));
        assert_eq!(rec(&r[0]), (0, Op::Write, 37_766_853 * 512, 64 * 512));
        assert_eq!(
            rec(&r[1]),
            (449_518_165, Op::Read, 37_766_917 * 512, 14 * 512)
        );
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].line, 8);
        assert_eq!(e[1].msg, "field 4 'T' is not R/W");
        assert_eq!((st.blank, st.skipped), (1, 4));
    }

    #[test]
    fn samples() {
        check_sample("blkreplay_1and1_linux_mysql.load", Format::Blkreplay, 80794);
        check_sample(
            "blkreplay_1and1_windows_mssql.load",
            Format::Blkreplay,
            42976,
        );
        check_sample(
            "blkreplay_1and1_windows_shared_server.load",
            Format::Blkreplay,
            1371,
        );
    }
}
