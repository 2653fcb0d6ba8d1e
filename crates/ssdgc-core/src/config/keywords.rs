//! Settings that take one of a few words: typed, parsed with an error that lists the words, and
//! written back as the same words.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Declares a keyword setting: its words, `FromStr` (the error names the key and lists the words),
/// `Display`, and serde as the word.
macro_rules! keyword_enum {
    ($(#[$m:meta])* $name:ident, $key:literal, { $($(#[$vm:meta])* $v:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name { $($(#[$vm])* $v),+ }

        impl $name {
            /// The word of this value in configurations and reports.
            pub fn name(self) -> &'static str {
                match self { $($name::$v => $s),+ }
            }
        }

        impl std::str::FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($s => Ok($name::$v),)+
                    _ => Err(format!(
                        "{} = '{}' must be one of: {}",
                        $key,
                        s,
                        [$($s),+].join(", ")
                    )),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

keyword_enum!(
    /// What `gc.threshold` counts (`gc.trigger`).
    ThresholdUnit, "gc.trigger", {
        /// Free blocks in the pool.
        Blocks = "blocks",
        /// Free pages, including the rest of the open blocks (PaGC paper §VI).
        Pages = "pages",
    }
);

keyword_enum!(
    /// Trace addresses beyond the logical space (`host.fold`).
    Fold, "host.fold", {
        /// Folded modulo the capacity.
        Wrap = "wrap",
        /// An error naming the request.
        Reject = "reject",
    }
);

keyword_enum!(
    /// How the drive is aged before measurement (`precondition.mode`).
    AgeingMode, "precondition.mode", {
        /// Not at all: a fresh drive.
        None = "none",
        /// A sequential fill of the logical space.
        Fill = "fill",
        /// A fill, then `precondition.overwrites` × capacity of random overwrites.
        Steady = "steady",
    }
);

/// Checks a keyword setting's value, so that the error names the key: `Some(result)` for keyword
/// keys, `None` for others.
pub(crate) fn check(section: &str, key: &str, v: &toml::Value) -> Option<Result<(), String>> {
    let parse = |f: fn(&str) -> Result<(), String>| {
        Some(match v {
            toml::Value::String(s) => f(s),
            _ => Err(format!("'{section}.{key}' must be a string")),
        })
    };
    match (section, key) {
        ("gc", "trigger") => parse(|s| s.parse::<ThresholdUnit>().map(drop)),
        ("host", "fold") => parse(|s| s.parse::<Fold>().map(drop)),
        ("precondition", "mode") => parse(|s| s.parse::<AgeingMode>().map(drop)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_parse_and_errors_list_them() {
        assert_eq!("pages".parse::<ThresholdUnit>(), Ok(ThresholdUnit::Pages));
        assert_eq!(Fold::Reject.to_string(), "reject");
        let e = "sometimes".parse::<AgeingMode>().unwrap_err();
        assert_eq!(
            e,
            "precondition.mode = 'sometimes' must be one of: none, fill, steady"
        );
    }
}
