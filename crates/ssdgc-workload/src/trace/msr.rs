//! MSR Cambridge CSV: `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`, no header.
//! Timestamp in 100 ns Windows FILETIME ticks, Type `Read`/`Write` (any case), Offset and Size
//! in bytes. A `Timestamp,...` header line, if present, is skipped.

use super::num::{show, split_fixed, u64_field};
use super::{Line, Raw};
use crate::Op;

/// ns per FILETIME tick.
const TICK_NS: u128 = 100;

pub(crate) fn parse(line: &str) -> Result<Line, String> {
    let (f, n) = split_fixed::<7, _>(line.split(','));
    if n != 7 {
        return Err(format!(
            "expected 7 comma-separated fields \
             (Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime), found {n}"
        ));
    }
    let ts = f[0].trim();
    if ts.eq_ignore_ascii_case("timestamp") {
        return Ok(Line::Skip);
    }
    let ticks = u64_field(ts, 1, "a FILETIME tick count")?;
    let dev = u64_field(f[2].trim(), 3, "a disk number")?;
    let op = parse_op(f[3].trim(), 4)?;
    let offset = u64_field(f[4].trim(), 5, "a byte offset")?;
    let len = u64_field(f[5].trim(), 6, "a size in bytes")?;
    Ok(Line::Rec(Raw {
        time: u128::from(ticks) * TICK_NS,
        op,
        offset,
        len,
        dev: Some(dev),
    }))
}

pub(crate) fn parse_op(s: &str, idx: usize) -> Result<Op, String> {
    if s.eq_ignore_ascii_case("read") {
        Ok(Op::Read)
    } else if s.eq_ignore_ascii_case("write") {
        Ok(Op::Write)
    } else {
        Err(format!("field {idx} '{}' is not Read/Write", show(s)))
    }
}

#[cfg(test)]
mod tests {
    use crate::trace::testutil::*;
    use crate::{Format, Op};

    #[test]
    fn lines() {
        let (r, e) = read_str(
            "128166385295514663,hm,0,Write,9056014336,2048,2833\n\
             \n\
             128166385295514878,hm,0,read,11855351808,0,2617\r\n\
             128166385295515175,hm,0,Wrte,5548077056,4096,2320\n\
             128166385295515175,hm,0,Read,5548077056,4096\n\
             128166385295514000,hm,0,Read,1,4096,1\n",
            Format::Msr,
        );
        assert_eq!(r.len(), 2);
        assert_eq!(rec(&r[0]), (0, Op::Write, 9_056_014_336, 2048));
        assert_eq!(rec(&r[1]), (21_500, Op::Read, 11_855_351_808, 0));
        assert_eq!(e.len(), 3);
        assert_eq!(
            e[0].to_string(),
            "<bytes>:4: field 4 'Wrte' is not Read/Write"
        );
        assert_eq!(e[1].line, 5);
        assert!(e[2].msg.contains("goes back in time") && e[2].msg.contains("line 3"));
    }

    #[test]
    fn device_filter() {
        let text = "1,h,0,Read,0,512,1\n2,h,1,Write,0,512,1\n3,h,0,Write,512,512,1\n";
        let (r, e, st) = read_str_stats(text, Format::Msr, Some(0));
        assert!(e.is_empty());
        assert_eq!(r.len(), 2);
        assert_eq!(r[1].time_ns, 200);
        assert_eq!(st.filtered, 1);
    }

    #[test]
    fn sample() {
        check_sample("msr_hm0_snia_sample.csv", Format::Msr, 1000);
    }
}
