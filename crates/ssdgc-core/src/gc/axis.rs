//! The values a GC axis setting takes in a configuration: "as the named scheme says", or a value
//! of the axis.
//!
//! Every axis key of `[gc]` (`when`, `collect`, `preempt`, `merge`, `pipeline`, `suspend`,
//! `planes`, `migration`) holds an [`AxisSetting`]: the word `"scheme"` (the default) leaves the
//! axis to the named scheme (`gc.scheme`), anything else overrides it. Values are parsed with the
//! axis's `FromStr`, so an unknown value is an error naming the accepted ones.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An axis value, or the named scheme's choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AxisSetting<T> {
    /// As the named scheme (`gc.scheme`) says.
    #[default]
    Scheme,
    /// This value, whatever the scheme.
    Set(T),
}

impl<T: Copy> AxisSetting<T> {
    /// The value: this setting's, or the scheme's `default`.
    pub fn or(self, default: T) -> T {
        match self {
            AxisSetting::Scheme => default,
            AxisSetting::Set(v) => v,
        }
    }
}

impl<T: FromStr<Err = String>> FromStr for AxisSetting<T> {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "scheme" {
            Ok(AxisSetting::Scheme)
        } else {
            T::from_str(s)
                .map(AxisSetting::Set)
                .map_err(|e| format!("{e} (or scheme: the named scheme's value)"))
        }
    }
}

impl<T: fmt::Display> fmt::Display for AxisSetting<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AxisSetting::Scheme => f.write_str("scheme"),
            AxisSetting::Set(v) => v.fmt(f),
        }
    }
}

impl<T: fmt::Display> Serialize for AxisSetting<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de, T: FromStr<Err = String>> Deserialize<'de> for AxisSetting<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<T: FromStr<Err = String>> serde::de::Visitor<'_> for V<T> {
            type Value = AxisSetting<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"scheme\" or a value of the axis")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Self::Value, E> {
                s.parse().map_err(E::custom)
            }
            fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Self::Value, E> {
                self.visit_str(if b { "on" } else { "off" })
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// A capability that is on or off (`merge`, `pipeline`); written `true`/`false` or `"on"`/`"off"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Toggle(pub bool);

impl FromStr for Toggle {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "on" | "true" => Ok(Toggle(true)),
            "off" | "false" => Ok(Toggle(false)),
            _ => Err(format!(
                "'{s}' is not a switch (known: true, false, on, off, scheme)"
            )),
        }
    }
}

impl fmt::Display for Toggle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0 { "on" } else { "off" })
    }
}

/// Axis values are keyword settings ([`crate::keyword`]).
pub(crate) use crate::keyword::keyword_enum as axis_enum;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scheme_word_and_toggles_parse() {
        assert_eq!(
            "scheme".parse::<AxisSetting<Toggle>>(),
            Ok(AxisSetting::Scheme)
        );
        assert_eq!(
            "on".parse::<AxisSetting<Toggle>>(),
            Ok(AxisSetting::Set(Toggle(true)))
        );
        assert!("maybe".parse::<AxisSetting<Toggle>>().is_err());
        assert_eq!(AxisSetting::Set(Toggle(false)).to_string(), "off");
        assert!(AxisSetting::Scheme.or(true));
        assert!(!AxisSetting::Set(false).or(true));
    }
}
