//! FlashNet / Heimdall text: `ts device offset size io_type`, whitespace separated. ts in
//! decimal ms, offset and size in bytes, io_type 1 = read, 0 = write.

use super::num::{show, split_fixed, time_field, u64_field};
use super::{Line, Raw};
use crate::Op;

pub(crate) fn parse(line: &str) -> Result<Line, String> {
    let (f, n) = split_fixed::<5, _>(line.split_ascii_whitespace());
    if n != 5 {
        return Err(format!(
            "expected 5 whitespace-separated fields (ts_ms device offset size io_type), found {n}"
        ));
    }
    let time = time_field(f[0], 1_000_000, 1, "a time in ms")?;
    let dev = u64_field(f[1], 2, "a device number")?;
    let offset = u64_field(f[2], 3, "a byte offset")?;
    let len = u64_field(f[3], 4, "a size in bytes")?;
    let op = match f[4] {
        "1" => Op::Read,
        "0" => Op::Write,
        s => {
            return Err(format!(
                "field 5 '{}' is not 1 (read) or 0 (write)",
                show(s)
            ))
        }
    };
    Ok(Line::Rec(Raw {
        time,
        op,
        offset,
        len,
        dev: Some(dev),
    }))
}

#[cfg(test)]
mod tests {
    use crate::trace::testutil::*;
    use crate::{Format, Op};

    #[test]
    fn lines() {
        let (r, e) = read_str(
            "0.000 0 200626176 4096 0\n\
             223.412 0 3159347200 36864 1\n\
             223.412 0 3159347200 36864 2\n\
             -1 0 3159347200 36864 1\n\
             223.5 0 3159347200 36864 1 9\n",
            Format::Flashnet,
        );
        assert_eq!(r.len(), 2);
        assert_eq!(rec(&r[0]), (0, Op::Write, 200_626_176, 4096));
        assert_eq!(rec(&r[1]), (223_412_000, Op::Read, 3_159_347_200, 36864));
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].msg, "field 5 '2' is not 1 (read) or 0 (write)");
        assert_eq!(e[1].msg, "field 1 '-1' is not a time in ms");
    }

    #[test]
    fn samples() {
        check_sample(
            "heimdall_msr_cut10k_rw_20_80_105.trace",
            Format::Flashnet,
            10000,
        );
        check_sample(
            "heimdall_msr_cut10k_rw_40_60_1370.trace",
            Format::Flashnet,
            10000,
        );
    }
}
