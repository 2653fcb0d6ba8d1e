//! DiskSim ASCII (MQSim, SSDSim, FlashSim): `arrival_time device lsn size flags`, whitespace
//! separated. The time unit is chosen by the caller (ns for MQSim/SSDSim files, ms for
//! DiskSim proper); decimals are allowed. lsn and size in 512 B sectors; flags bit 0 set = read.

use super::num::{scaled, split_fixed, time_field, u64_field};
use super::{Line, Raw};
use crate::Op;

pub(crate) fn parse(line: &str, unit_ns: u64) -> Result<Line, String> {
    let (f, n) = split_fixed::<5, _>(line.split_ascii_whitespace());
    if n != 5 {
        return Err(format!(
            "expected 5 whitespace-separated fields (time device lsn size flags), found {n}"
        ));
    }
    let time = time_field(f[0], unit_ns, 1, "an arrival time")?;
    let dev = u64_field(f[1], 2, "a device number")?;
    let lsn = u64_field(f[2], 3, "a sector number")?;
    let size = u64_field(f[3], 4, "a size in sectors")?;
    let flags = u64_field(f[4], 5, "a flags value (1 = read, 0 = write)")?;
    Ok(Line::Rec(Raw {
        time,
        op: if flags & 1 == 1 { Op::Read } else { Op::Write },
        offset: scaled(lsn, 512, 3)?,
        len: scaled(size, 512, 4)?,
        dev: Some(dev),
    }))
}

#[cfg(test)]
mod tests {
    use crate::trace::testutil::*;
    use crate::{Format, Op, TimeUnit, TraceOptions};

    #[test]
    fn lines() {
        let (r, e) = read_str(
            "938513000 4 264719034 16 0\n\
             938828000\t3 197570570 16 1\n\
             938944000 13 93230992 32\n\
             938944000 13 93230992 32 x\n\
             938944000.5 13 93230992 0 0\n",
            Format::Disksim,
        );
        assert_eq!(r.len(), 3);
        assert_eq!(rec(&r[0]), (0, Op::Write, 264_719_034 * 512, 8192));
        assert_eq!(rec(&r[1]), (315_000, Op::Read, 197_570_570 * 512, 8192));
        assert_eq!(rec(&r[2]), (431_000, Op::Write, 93_230_992 * 512, 0));
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].line, 3);
        assert!(e[1].msg.starts_with("field 5 'x'"), "{}", e[1]);
    }

    #[test]
    fn milliseconds() {
        let opts = TraceOptions {
            format: Format::Disksim,
            disksim_time: TimeUnit::Ms,
            ..TraceOptions::default()
        };
        let (r, e) = crate::read_all_from_bytes(b"0.5 0 8 8 1\n2.25 0 8 8 0\n", &opts);
        assert!(e.is_empty());
        assert_eq!(r[1].time_ns, 1_750_000);
    }

    #[test]
    fn samples() {
        check_sample("mqsim_tpcc_small.trace", Format::Disksim, 6999);
        check_sample("ssdsim_example.ascii", Format::Disksim, 10000);
    }
}
