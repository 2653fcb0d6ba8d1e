//! Format detection from the first lines of a trace.
//!
//! Every detectable format's parser runs over the lines read ahead (blank lines removed). A
//! format qualifies when it parses at least one record and at most a quarter as many errors as
//! records and skipped lines (headers, other events);
//! the one with the fewest errors wins. DiskSim and FlashNet lines both hold five numbers: when
//! both qualify, FlashNet is chosen if every size field (the 4th) is a positive multiple of
//! 512 (a size in bytes), DiskSim otherwise (a size in sectors). Anything else undecided is an
//! error asking for an explicit format.

use super::{Line, Parser};
use crate::{format_names, Format, TraceOptions};

/// Chooses the format of `lines` (the first non-blank lines, without line terminators).
pub fn detect(lines: &[&str], opts: &TraceOptions) -> Result<Format, String> {
    let fail = |why: &str| {
        format!(
            "cannot detect the trace format ({why}); pass --format NAME (one of {})",
            format_names()
        )
    };
    if lines.is_empty() {
        return Err(fail("no data lines"));
    }
    let mut best: Vec<(Format, usize)> = Vec::new();
    for format in Format::detectable() {
        let mut p = Parser::new(&format, opts);
        let (mut recs, mut skips, mut errs) = (0usize, 0usize, 0usize);
        for (i, l) in lines.iter().enumerate() {
            match p.parse(l, i as u64 + 1) {
                Ok(Line::Rec(_)) => recs += 1,
                Ok(Line::Skip) => skips += 1,
                Err(_) => errs += 1,
            }
        }
        if recs == 0 || errs * 4 > recs + skips {
            continue;
        }
        match best.first() {
            Some((_, e)) if errs > *e => {}
            Some((_, e)) if errs == *e => best.push((format, errs)),
            _ => best = vec![(format, errs)],
        }
    }
    let names: Vec<&Format> = best.iter().map(|(f, _)| f).collect();
    match names.as_slice() {
        [] => Err(fail("no known format matches the first lines")),
        [one] => Ok((*one).clone()),
        [Format::Disksim, Format::Flashnet] => Ok(disksim_or_flashnet(lines)),
        _ => Err(fail(&format!(
            "the first lines fit several formats: {}",
            names
                .iter()
                .map(|f| f.name())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

fn disksim_or_flashnet(lines: &[&str]) -> Format {
    let bytes = lines
        .iter()
        .filter(|l| !l.trim_start().starts_with('#'))
        .filter_map(|l| l.split_ascii_whitespace().nth(3))
        .all(|s| matches!(s.parse::<u64>(), Ok(n) if n > 0 && n % 512 == 0));
    if bytes {
        Format::Flashnet
    } else {
        Format::Disksim
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn det(text: &str) -> Result<Format, String> {
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        detect(&lines, &TraceOptions::default())
    }

    #[test]
    fn hand_written() {
        assert_eq!(det("1,h,0,Read,0,512,1\n"), Ok(Format::Msr));
        assert_eq!(det("0,20941264,8192,W,0.551706\n"), Ok(Format::Spc));
        assert_eq!(det("0 0 303567 7 0\n0 1 55590 6 0\n"), Ok(Format::Disksim));
        assert_eq!(det("0.000 0 200626176 4096 0\n"), Ok(Format::Flashnet));
        assert_eq!(det("1538323200,4247200,128,1,1058\n"), Ok(Format::Tencent));
        assert_eq!(
            det("Timestamp,Response,IOType,LUN,Offset,Size\n1.5,0.1,R,0,0,512\n"),
            Ok(Format::Systor)
        );
        assert_eq!(det("1 2 p 3 8 R 6 0 abc\n"), Ok(Format::Fiu));
        assert_eq!(
            det("fio version 2 iolog\nf add\nf write 0 1\n"),
            Ok(Format::Fio)
        );
        assert_eq!(
            det("x\n 0.5 ; 1 ; 8 ; W ; 0.0 ; 0.0\n"),
            Ok(Format::Blkreplay)
        );
        let e = det("hello\nworld\n").unwrap_err();
        assert!(e.starts_with("cannot detect the trace format"), "{e}");
        assert!(e.contains("--format NAME") && e.contains("tencent"), "{e}");
        assert!(det("").is_err());
    }
}
