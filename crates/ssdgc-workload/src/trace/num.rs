//! Allocation-free field splitting and exact number parsing shared by the readers.

/// Splits into at most `N` leading fields and counts all of them.
#[inline]
pub(crate) fn split_fixed<'a, const N: usize, I: Iterator<Item = &'a str>>(
    it: I,
) -> ([&'a str; N], usize) {
    let mut out = [""; N];
    let mut n = 0;
    for f in it {
        if n < N {
            out[n] = f;
        }
        n += 1;
    }
    (out, n)
}

/// A field for an error message: at most 40 characters.
pub(crate) fn show(s: &str) -> &str {
    match s.char_indices().nth(40) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// Parses an unsigned decimal integer field (1-based `idx` for the message).
#[inline]
pub(crate) fn u64_field(s: &str, idx: usize, what: &str) -> Result<u64, String> {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 20 || !b.iter().all(u8::is_ascii_digit) {
        return Err(bad(s, idx, what));
    }
    s.parse::<u64>().map_err(|_| bad(s, idx, what))
}

fn bad(s: &str, idx: usize, what: &str) -> String {
    if s.is_empty() {
        format!("field {idx} is empty, expected {what}")
    } else {
        format!("field {idx} '{}' is not {what}", show(s))
    }
}

/// `count * unit` in bytes, or an overflow message.
#[inline]
pub(crate) fn scaled(count: u64, unit: u64, idx: usize) -> Result<u64, String> {
    count
        .checked_mul(unit)
        .ok_or_else(|| format!("field {idx} '{count}' overflows 64 bits once converted to bytes"))
}

/// Parses a non-negative decimal `I`, `I.F`, `.F` or `I.` into nanoseconds, given the number of
/// ns in one unit. Exact: digits finer than 1 ns are truncated. `None` if not such a number.
#[inline]
pub(crate) fn decimal_ns(s: &str, unit_ns: u64) -> Option<u128> {
    let b = s.as_bytes();
    let (ip, fp) = match b.iter().position(|&c| c == b'.') {
        Some(i) => (&b[..i], &b[i + 1..]),
        None => (b, &b[..0]),
    };
    if (ip.is_empty() && fp.is_empty()) || ip.len() > 28 {
        return None;
    }
    let mut i: u128 = 0;
    for &c in ip {
        if !c.is_ascii_digit() {
            return None;
        }
        i = i * 10 + u128::from(c - b'0');
    }
    let mut f: u128 = 0;
    let mut scale: u128 = 1;
    for (k, &c) in fp.iter().enumerate() {
        if !c.is_ascii_digit() {
            return None;
        }
        if k < 18 {
            f = f * 10 + u128::from(c - b'0');
            scale *= 10;
        }
    }
    let u = u128::from(unit_ns);
    Some(i * u + f * u / scale)
}

/// [`decimal_ns`] with a field error message.
#[inline]
pub(crate) fn time_field(s: &str, unit_ns: u64, idx: usize, what: &str) -> Result<u128, String> {
    decimal_ns(s, unit_ns).ok_or_else(|| bad(s, idx, what))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_are_exact() {
        assert_eq!(
            decimal_ns("1456095145.133076000", 1_000_000_000),
            Some(1_456_095_145_133_076_000)
        );
        assert_eq!(decimal_ns("0.5", 1_000_000), Some(500_000));
        assert_eq!(decimal_ns("223.412", 1_000_000), Some(223_412_000));
        assert_eq!(decimal_ns(".25", 1_000), Some(250));
        assert_eq!(decimal_ns("7.", 1), Some(7));
        assert_eq!(
            decimal_ns("1.0000000001", 1_000_000_000),
            Some(1_000_000_000)
        );
        assert_eq!(decimal_ns("1.123456789123456789123", 1), Some(1));
        for bad in ["", ".", "-1", "1e3", "1.2.3", "abc", " 1"] {
            assert_eq!(decimal_ns(bad, 1), None, "{bad}");
        }
        assert!(decimal_ns(&"9".repeat(28), 1_000_000_000).is_some());
        assert!(decimal_ns(&"9".repeat(29), 1).is_none());
    }

    #[test]
    fn integers() {
        assert_eq!(u64_field("18446744073709551615", 1, "x"), Ok(u64::MAX));
        assert!(u64_field("18446744073709551616", 1, "x").is_err());
        assert_eq!(
            u64_field("+5", 2, "a size").unwrap_err(),
            "field 2 '+5' is not a size"
        );
        assert!(scaled(u64::MAX, 512, 1).is_err());
        let (f, n) = split_fixed::<3, _>("a,b,c,d".split(','));
        assert_eq!((f, n), (["a", "b", "c"], 4));
    }
}
