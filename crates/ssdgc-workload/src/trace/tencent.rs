//! Tencent CBS CSV: `Timestamp,Offset,Size,IOType,VolumeID`, no header. Timestamp in seconds,
//! Offset and Size in 512 B sectors, IOType 0 = read, 1 = write.
//!
//! Many volumes are interleaved: the reader keeps one (the option's, or the first record's)
//! and counts the others as filtered. Timestamps have a 1 s resolution and are not perfectly
//! sorted, so the kept records go through the reorder buffer (after the volume filter).

use super::num::{scaled, show, split_fixed, time_field, u64_field};
use super::{Line, Raw};
use crate::Op;

pub(crate) fn parse(line: &str) -> Result<Line, String> {
    let (f, n) = split_fixed::<5, _>(line.split(','));
    if n != 5 {
        return Err(format!(
            "expected 5 comma-separated fields (Timestamp,Offset,Size,IOType,VolumeID), found {n}"
        ));
    }
    let time = time_field(f[0].trim(), 1_000_000_000, 1, "a time in seconds")?;
    let offset = u64_field(f[1].trim(), 2, "an offset in sectors")?;
    let size = u64_field(f[2].trim(), 3, "a size in sectors")?;
    let op = match f[3].trim() {
        "0" => Op::Read,
        "1" => Op::Write,
        s => {
            return Err(format!(
                "field 4 '{}' is not 0 (read) or 1 (write)",
                show(s)
            ))
        }
    };
    let vol = u64_field(f[4].trim(), 5, "a volume id")?;
    Ok(Line::Rec(Raw {
        time,
        op,
        offset: scaled(offset, 512, 2)?,
        len: scaled(size, 512, 3)?,
        dev: Some(vol),
    }))
}

#[cfg(test)]
mod tests {
    use crate::trace::testutil::*;
    use crate::{open_trace, Format, Op, TraceOptions};

    #[test]
    fn lines() {
        let text = "1538323200,4247200,128,1,1058\n\
                    1538323199,13896880,128,0,1063\n\
                    1538323199,49413280,16,0,1058\n\
                    1538323200,1,8,2,1058\n\
                    1538323201,1,8,0,1058\n";
        let (r, e, st) = read_str_stats(text, Format::Tencent, None);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].msg, "field 4 '2' is not 0 (read) or 1 (write)");
        assert_eq!(st.filtered, 1);
        assert_eq!(r.len(), 3);
        assert_eq!(rec(&r[0]), (0, Op::Read, 49_413_280 * 512, 8192));
        assert_eq!(
            rec(&r[1]),
            (1_000_000_000, Op::Write, 4_247_200 * 512, 65536)
        );
        assert_eq!(r[2].time_ns, 2_000_000_000);
        let (r, _, st) = read_str_stats(text, Format::Tencent, Some(1063));
        assert_eq!((r.len(), st.filtered), (1, 3));
    }

    /// Every record of the sample is either kept (selected volume) or filtered.
    #[test]
    fn sample() {
        let Some(path) = sample_path("tencent_cbs_snia_sample.csv") else {
            return;
        };
        for format in [Format::Tencent, Format::Auto] {
            let opts = TraceOptions {
                format,
                ..TraceOptions::default()
            };
            let mut rd = open_trace(&path, &opts).unwrap();
            assert_eq!(rd.format(), &Format::Tencent);
            assert_eq!(rd.selected_volume(), Some(1058));
            let recs = collect_ok(&mut rd);
            let st = rd.stats();
            assert_eq!(recs.len(), 41);
            assert_eq!(st.records + st.filtered, 50_000);
            assert_eq!(st.lines, 50_000);
            assert_sorted(&recs);
        }
        // The busiest volumes, including the most out of order one.
        for (vol, n) in [(1326, 255), (1125, 1225)] {
            let opts = TraceOptions {
                format: Format::Tencent,
                volume: Some(vol),
                ..TraceOptions::default()
            };
            let mut rd = open_trace(&path, &opts).unwrap();
            let recs = collect_ok(&mut rd);
            assert_eq!(recs.len(), n);
            assert_eq!(rd.stats().filtered, 50_000 - n as u64);
            assert_sorted(&recs);
        }
    }
}
