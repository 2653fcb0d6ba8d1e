//! FIU text: `ts pid process lba size R|W major minor md5`, whitespace separated. ts in ns, lba
//! and size in 512 B sectors.
//!
//! Two fields are taken from the left (ts, pid) and six from the right (lba ... md5), so a
//! process name containing spaces is accepted; fewer than 9 fields is an error.

use super::num::{scaled, show, time_field, u64_field};
use super::{Line, Raw};
use crate::Op;

pub(crate) fn parse(line: &str) -> Result<Line, String> {
    let mut it = line.split_ascii_whitespace();
    let short = || {
        "expected 9 whitespace-separated fields (ts pid process lba size R|W major minor md5)"
            .to_string()
    };
    let ts = it.next().ok_or_else(short)?;
    let pid = it.next().ok_or_else(short)?;
    let _md5 = it.next_back().ok_or_else(short)?;
    let _minor = it.next_back().ok_or_else(short)?;
    let _major = it.next_back().ok_or_else(short)?;
    let op = it.next_back().ok_or_else(short)?;
    let size = it.next_back().ok_or_else(short)?;
    let lba = it.next_back().ok_or_else(short)?;
    if it.next().is_none() {
        return Err(short());
    }
    let time = time_field(ts, 1, 1, "a time in ns")?;
    u64_field(pid, 2, "a pid")?;
    let lba = u64_field(lba, 4, "an LBA")?;
    let size = u64_field(size, 5, "a size in sectors")?;
    let op = match op {
        "R" | "r" => Op::Read,
        "W" | "w" => Op::Write,
        s => return Err(format!("field 6 '{}' is not R/W", show(s))),
    };
    Ok(Line::Rec(Raw {
        time,
        op,
        offset: scaled(lba, 512, 4)?,
        len: scaled(size, 512, 5)?,
        dev: None,
    }))
}

#[cfg(test)]
mod tests {
    use crate::trace::testutil::*;
    use crate::{Format, Op};

    #[test]
    fn lines() {
        let (r, e) = read_str(
            "89966522969723 4270 rpc.mountd 18579576 8 W 6 0 d6c75ba46e82326fefa545b57a12e221\n\
             89966527950584 4253 my proc 508516672 16 R 6 0 88b93b628d84082186026d9da044f173\n\
             89966527996712 4253 nfsd 508516680 8 X 6 0 b5e9f4e5ab62a4fff5313a606b0ad4e3\n\
             89966527996712 4253 508516680 8 W 6 0 b5e9f4e5ab62a4fff5313a606b0ad4e3\n",
            Format::Fiu,
        );
        assert_eq!(r.len(), 2);
        assert_eq!(rec(&r[0]), (0, Op::Write, 18_579_576 * 512, 4096));
        assert_eq!(rec(&r[1]), (4_980_861, Op::Read, 508_516_672 * 512, 8192));
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].msg, "field 6 'X' is not R/W");
        assert!(e[1].msg.starts_with("expected 9"));
    }

    #[test]
    fn sample() {
        check_sample("fiu_mail_cheetah_first10k.blkparse", Format::Fiu, 9998);
    }
}
