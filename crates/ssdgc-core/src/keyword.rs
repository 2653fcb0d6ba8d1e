//! Settings that take one of a few words (keyword settings and GC axis values): one declaration
//! gives the enum, its words, parsing with an error that names the key and lists the words,
//! display, and serde as the word.

/// Declares a keyword setting: an enum of words, with `ALL`, `name`, `FromStr` (the error names
/// the key and lists the words), `Display`, and serde as the word.
macro_rules! keyword_enum {
    ($(#[$m:meta])* $name:ident, $key:literal, { $($(#[$vm:meta])* $v:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vm])* $v),+ }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$v),+];
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
                        "'{}' = '{}' must be one of: {}",
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

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.name())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = <String as serde::Deserialize>::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}
pub(crate) use keyword_enum;
