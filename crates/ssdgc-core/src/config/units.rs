//! Settings written with units: durations (`"25us"`, `"1.5ms"`) and byte sizes (`"8KiB"`), parsed
//! exactly (decimal digits, no float) and written back with their units.

use serde::{Deserialize, Serialize};

use crate::units::{SimTime, MS, SEC, US};

/// A duration written with its unit (`"25us"`, `"1.5ms"`, `"3.8ms"`, `"100ns"`, `"2s"`), or a bare
/// integer of nanoseconds. Held as integer nanoseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Duration(pub SimTime);

impl Duration {
    /// Nanoseconds.
    pub fn ns(self) -> SimTime {
        self.0
    }
}

/// Parses a duration with a unit suffix into nanoseconds, exactly (decimal digits, no float).
pub fn parse_duration(s: &str) -> Result<SimTime, String> {
    let s = s.trim();
    let (num, mult) = if let Some(n) = s.strip_suffix("ns") {
        (n, 1)
    } else if let Some(n) = s.strip_suffix("us") {
        (n, US)
    } else if let Some(n) = s.strip_suffix("µs") {
        (n, US)
    } else if let Some(n) = s.strip_suffix("ms") {
        (n, MS)
    } else if let Some(n) = s.strip_suffix('s') {
        (n, SEC)
    } else {
        return Err(format!(
            "duration '{s}' needs a unit: ns, us, ms or s (e.g. \"25us\")"
        ));
    };
    parse_decimal_scaled(num.trim(), mult).ok_or_else(|| format!("'{s}' is not a valid duration"))
}

/// Parses a byte size: `4096`, `"8KiB"`, `"2MiB"`, `"1GiB"`, `"512B"`.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (num, mult) = if let Some(n) = s.strip_suffix("KiB") {
        (n, 1u64 << 10)
    } else if let Some(n) = s.strip_suffix("MiB") {
        (n, 1 << 20)
    } else if let Some(n) = s.strip_suffix("GiB") {
        (n, 1 << 30)
    } else if let Some(n) = s.strip_suffix("TiB") {
        (n, 1 << 40)
    } else if let Some(n) = s.strip_suffix('B') {
        (n, 1)
    } else {
        (s, 1)
    };
    parse_decimal_scaled(num.trim(), mult).ok_or_else(|| format!("'{s}' is not a valid size"))
}

/// `"1.5"` × 1_000_000 → 1_500_000, exactly; `None` on junk, overflow or a fractional result.
fn parse_decimal_scaled(num: &str, mult: u64) -> Option<u64> {
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    if (int.is_empty() && frac.is_empty())
        || !int.bytes().all(|c| c.is_ascii_digit())
        || !frac.bytes().all(|c| c.is_ascii_digit())
        || frac.len() > 18
    {
        return None;
    }
    let den = 10u128.pow(frac.len() as u32);
    let int_v: u128 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let frac_v: u128 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    let scaled = (int_v.checked_mul(den)?.checked_add(frac_v)?).checked_mul(mult as u128)?;
    if scaled % den != 0 {
        return None;
    }
    u64::try_from(scaled / den).ok()
}

pub(super) fn format_duration(ns: SimTime) -> String {
    if ns == 0 {
        "0ns".into()
    } else if ns.is_multiple_of(MS) {
        format!("{}ms", ns / MS)
    } else if ns.is_multiple_of(US) {
        format!("{}us", ns / US)
    } else {
        format!("{ns}ns")
    }
}

impl Serialize for Duration {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format_duration(self.0))
    }
}

impl<'de> Deserialize<'de> for Duration {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        int_or_unit(d, parse_duration).map(Duration)
    }
}

/// A setting written as a bare integer or as a string with a unit (`Duration`, `ByteSize`): the
/// integer as it is, the string through `parse`.
fn int_or_unit<'de, D: serde::Deserializer<'de>>(
    d: D,
    parse: fn(&str) -> Result<u64, String>,
) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        Int(u64),
        Str(String),
    }
    match Raw::deserialize(d)? {
        Raw::Int(n) => Ok(n),
        Raw::Str(s) => parse(&s).map_err(serde::de::Error::custom),
    }
}

/// A byte size written as an integer or with a binary unit (`"8KiB"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ByteSize(pub u64);

impl Serialize for ByteSize {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.0)
    }
}

impl<'de> Deserialize<'de> for ByteSize {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        int_or_unit(d, parse_size).map(ByteSize)
    }
}
