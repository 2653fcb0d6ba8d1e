//! Systor '17 CSV: header `Timestamp,Response,IOType,LUN,Offset,Size`, then records with
//! Timestamp in decimal seconds, IOType `R`/`W`, Offset and Size in bytes. The LUN is the
//! device. Records are not sorted: the reader re-sorts them with its reorder buffer.

use super::num::{show, split_fixed, time_field, u64_field};
use super::{Line, Raw};
use crate::Op;

pub(crate) fn parse(line: &str) -> Result<Line, String> {
    let (f, n) = split_fixed::<6, _>(line.split(','));
    if n != 6 {
        return Err(format!(
            "expected 6 comma-separated fields (Timestamp,Response,IOType,LUN,Offset,Size), found {n}"
        ));
    }
    let ts = f[0].trim();
    if ts.eq_ignore_ascii_case("timestamp") {
        return Ok(Line::Skip);
    }
    let time = time_field(ts, 1_000_000_000, 1, "a time in seconds")?;
    let op = match f[2].trim() {
        "R" | "r" => Op::Read,
        "W" | "w" => Op::Write,
        s if s.eq_ignore_ascii_case("read") => Op::Read,
        s if s.eq_ignore_ascii_case("write") => Op::Write,
        s => return Err(format!("field 3 '{}' is not R/W", show(s))),
    };
    let lun = u64_field(f[3].trim(), 4, "a LUN")?;
    let offset = u64_field(f[4].trim(), 5, "a byte offset")?;
    let len = u64_field(f[5].trim(), 6, "a size in bytes")?;
    Ok(Line::Rec(Raw {
        time,
        op,
        offset,
        len,
        dev: Some(lun),
    }))
}

#[cfg(test)]
mod tests {
    use crate::trace::testutil::*;
    use crate::{Format, Op, TraceOptions};

    #[test]
    fn lines_are_reordered() {
        let (r, e) = read_str(
            "Timestamp,Response,IOType,LUN,Offset,Size\n\
             1456095145.133076000,0.000806000,R,0,899056122368,131072\n\
             1456095145.126285000,0.008044000,W,0,4256049987072,122880\n\
             1456095145.126285000,0.1,R,0,1,2\n\
             1456095145.127398000,0.007571000,X,0,3772288305664,58368\n",
            Format::Systor,
        );
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].to_string(), "<bytes>:5: field 3 'X' is not R/W");
        assert_eq!(r.len(), 3);
        // Equal times keep line order.
        assert_eq!(rec(&r[0]), (0, Op::Write, 4_256_049_987_072, 122_880));
        assert_eq!(rec(&r[1]), (0, Op::Read, 1, 2));
        assert_eq!(rec(&r[2]), (6_791_000, Op::Read, 899_056_122_368, 131_072));
    }

    #[test]
    fn window_too_small() {
        let opts = TraceOptions {
            format: Format::Systor,
            reorder_window: 2,
            ..TraceOptions::default()
        };
        let text = "5,0,R,0,0,1\n4,0,R,0,0,1\n3,0,R,0,0,1\n2,0,R,0,0,1\n6,0,R,0,0,1\n";
        let (r, e) = crate::read_all_from_bytes(text.as_bytes(), &opts);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].line, 4);
        assert!(e[0].msg.contains("larger reorder window"), "{}", e[0]);
        assert!(e[0].msg.contains("line 3"), "{}", e[0]);
        let t: Vec<u64> = r.iter().map(|r| r.time_ns).collect();
        assert_eq!(t, [0, 1_000_000_000, 2_000_000_000, 3_000_000_000]);
    }

    #[test]
    fn sample() {
        check_sample("systor17_vdi_snia_sample.csv", Format::Systor, 999);
    }
}
