//! SPC / UMass CSV: `ASU,LBA,Size,Opcode,Timestamp[,...]`. LBA in 512 B sectors, Size in
//! bytes, Opcode `r`/`R`/`w`/`W`, Timestamp in decimal seconds. The ASU is the device.

use super::num::{scaled, show, split_fixed, time_field, u64_field};
use super::{Line, Raw};
use crate::Op;

pub(crate) fn parse(line: &str) -> Result<Line, String> {
    let (f, n) = split_fixed::<5, _>(line.split(','));
    if n < 5 {
        return Err(format!(
            "expected at least 5 comma-separated fields (ASU,LBA,Size,Opcode,Timestamp), found {n}"
        ));
    }
    let asu = u64_field(f[0].trim(), 1, "an ASU number")?;
    let lba = u64_field(f[1].trim(), 2, "an LBA")?;
    let len = u64_field(f[2].trim(), 3, "a size in bytes")?;
    let op = match f[3].trim() {
        "r" | "R" => Op::Read,
        "w" | "W" => Op::Write,
        s => return Err(format!("field 4 '{}' is not r/w", show(s))),
    };
    let time = time_field(f[4].trim(), 1_000_000_000, 5, "a time in seconds")?;
    Ok(Line::Rec(Raw {
        time,
        op,
        offset: scaled(lba, 512, 2)?,
        len,
        dev: Some(asu),
    }))
}

#[cfg(test)]
mod tests {
    use crate::trace::testutil::*;
    use crate::{Format, Op};

    #[test]
    fn lines() {
        let (r, e) = read_str(
            "0,20941264,8192,W,0.551706\n\
             1,20939840,4096,r,0.554041,extra\n\
             0,x,8192,W,0.6\n\
             0,1,8192,Q,0.6\n\
             0,1,8192,W\n\
             0,1,8192,W,1e3\n",
            Format::Spc,
        );
        assert_eq!(r.len(), 2);
        assert_eq!(rec(&r[0]), (0, Op::Write, 20_941_264 * 512, 8192));
        assert_eq!(rec(&r[1]), (2_335_000, Op::Read, 20_939_840 * 512, 4096));
        let msgs: Vec<String> = e.iter().map(|e| e.msg.clone()).collect();
        assert_eq!(
            msgs,
            [
                "field 2 'x' is not an LBA",
                "field 4 'Q' is not r/w",
                "expected at least 5 comma-separated fields (ASU,LBA,Size,Opcode,Timestamp), found 4",
                "field 5 '1e3' is not a time in seconds",
            ]
        );
        let (r, _, st) = read_str_stats("0,1,512,w,0\n1,1,512,w,1\n", Format::Spc, Some(1));
        assert_eq!((r.len(), st.filtered), (1, 1));
    }
}
