//! The victim policy a configuration names ([`VictimKind`]) and its typed parameters.
//!
//! Every policy is declared once in [`POLICIES`]: its name, what it does, and its parameters (name,
//! type, range, default). `gc.victim` takes either form, and both give the same value:
//!
//! - the string form, parameters in declaration order after colons: `"rga:8"`, `--victim rga:8`
//!   (a parameter with a default may be left out: `"rga"`);
//! - the table form, parameters by name: `gc.victim = { policy = "rga", d = 8 }`.
//!
//! Parameters are checked where they are parsed (type, range, unknown names), with one line naming
//! `gc.victim`. The value is written back — in reports and `Config::to_toml` — in the canonical
//! string form, which parses to the same value.
//!
//! A new policy with parameters is one [`VictimKind`] variant, one entry of [`POLICIES`] (its
//! parameter declarations), and one arm each in `VictimKind::from_values` and
//! [`VictimKind::values`].

use std::fmt;
use std::str::FromStr;

/// The configuration key the errors name.
const KEY: &str = "gc.victim";

/// The number of choices of a bare `rga` (no `:D`).
pub const RGA_DEFAULT_D: u32 = 8;

/// A victim policy by name, with its parameters, as selected in configurations and on the command
/// line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VictimKind {
    /// Fewest valid pages ([`super::Greedy`]).
    Greedy,
    /// Random Greedy Algorithm with `D` choices ([`super::Rga`]).
    Rga(u32),
    /// Uniformly random candidate ([`super::Random`]).
    Random,
    /// Uniformly random candidate with at least one invalid page ([`super::RandomPlus`]).
    RandomPlus,
    /// Oldest full block first ([`super::Fifo`]).
    Fifo,
    /// LFS / Kawaguchi cost-benefit ([`super::CostBenefit`]).
    CostBenefit,
    /// Cost-Age-Times ([`super::Cat`]).
    Cat,
    /// Greedy among blocks no more worn than the average ([`super::WearAware`]).
    WearAware,
    /// Smallest `α·valid + (1 − α)·erases`, α in `[0, 1]` ([`super::Alpha`]).
    Alpha(f64),
}

/// A parameter's type and accepted range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamType {
    /// An integer in `min..=max`.
    Int { min: u64, max: u64 },
    /// A finite real number in `[min, max]`.
    Real { min: f64, max: f64 },
}

impl ParamType {
    /// What a value must be: `an integer in 1..=8`, `a number in [0, 1]`.
    pub fn describe(&self) -> String {
        match self {
            ParamType::Int { min, max } => format!("an integer in {min}..={max}"),
            ParamType::Real { min, max } => format!("a number in [{min}, {max}]"),
        }
    }
}

/// A parameter's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamValue {
    Int(u64),
    Real(f64),
}

impl ParamValue {
    /// The integer of an `Int` parameter (a `Real` is truncated; declarations prevent it).
    pub fn int(self) -> u64 {
        match self {
            ParamValue::Int(n) => n,
            ParamValue::Real(x) => x as u64,
        }
    }

    /// The number of a `Real` parameter (or an `Int`'s value).
    pub fn real(self) -> f64 {
        match self {
            ParamValue::Int(n) => n as f64,
            ParamValue::Real(x) => x,
        }
    }
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(n) => write!(f, "{n}"),
            // The shortest text that parses back to the same number.
            ParamValue::Real(x) => write!(f, "{x}"),
        }
    }
}

/// One parameter of a policy.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// Its key in the table form (`d`).
    pub name: &'static str,
    pub ty: ParamType,
    /// Its value when left out; `None`: it must be given.
    pub default: Option<ParamValue>,
    /// What it means.
    pub about: &'static str,
}

/// One victim policy: its name, what it does, and its parameters in string-form order.
#[derive(Clone, Copy, Debug)]
pub struct Policy {
    pub name: &'static str,
    pub about: &'static str,
    pub params: &'static [Param],
}

impl Policy {
    /// The string form's synopsis: `greedy`, `rga:D`.
    pub fn synopsis(&self) -> String {
        let mut s = self.name.to_string();
        for p in self.params {
            s.push(':');
            s.push_str(&p.name.to_ascii_uppercase());
        }
        s
    }
}

const fn policy(name: &'static str, about: &'static str) -> Policy {
    Policy {
        name,
        about,
        params: &[],
    }
}

/// Every victim policy, in the order `ssdgc list victims` prints them.
pub const POLICIES: &[Policy] = &[
    policy(
        "greedy",
        "fewest valid pages first; O(1) amortised (bucket lists)",
    ),
    Policy {
        name: "rga",
        about: "Random Greedy Algorithm: fewest valid among D uniform samples (Li, Lee & Lui, \
                SIGMETRICS 2013); bare `rga` = rga:8",
        params: &[Param {
            name: "d",
            ty: ParamType::Int {
                min: 1,
                max: u32::MAX as u64,
            },
            default: Some(ParamValue::Int(RGA_DEFAULT_D as u64)),
            about: "blocks sampled per choice",
        }],
    },
    policy("random", "uniformly random full block"),
    policy(
        "random+",
        "uniformly random full block with at least one invalid page",
    ),
    policy("fifo", "oldest full block first (LRW / circular log)"),
    policy(
        "cost-benefit",
        "maximise (1-u)*age/(2u) (Rosenblum & Ousterhout 1992; Kawaguchi et al. 1995); O(n) scan",
    ),
    policy(
        "cat",
        "Cost-Age-Times: minimise u/(1-u)*(erases+1)/(age+1) (Chiang, Lee & Chang 1999); O(n) scan",
    ),
    policy(
        "wear-aware",
        "fewest valid pages among blocks erased at most the plane's mean + 1 times, else greedy \
         (wear-aware GC of the preemptible-GC paper, §V); O(n) scan",
    ),
    Policy {
        name: "alpha",
        about: "smallest A*valid + (1-A)*erases, unscaled (practical-GC paper, §III-A eq. 1); \
                A = 1 is greedy, A = 0 the least-erased block; O(log n) (heap)",
        params: &[Param {
            name: "alpha",
            ty: ParamType::Real { min: 0.0, max: 1.0 },
            default: None,
            about: "weight of valid pages against erase count, in [0, 1]",
        }],
    },
];

/// The policies' synopses, for errors: `greedy, rga:D, random, …`.
fn synopses() -> String {
    POLICIES
        .iter()
        .map(Policy::synopsis)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The declaration of policy `name` (case-insensitive).
fn find(name: &str) -> Option<&'static Policy> {
    let n = name.to_ascii_lowercase();
    POLICIES.iter().find(|p| p.name == n)
}

/// `s` as errors show it: on one line, line breaks and other control characters escaped.
fn shown(s: &str) -> String {
    s.escape_debug().to_string()
}

fn unknown(written: &str) -> String {
    format!(
        "'{KEY}' = '{}' must be one of: {}",
        shown(written),
        synopses()
    )
}

/// Checks `v` against `p`'s type and range; `Err` is the reason (`must be …`).
pub(crate) fn check_value(p: &Param, v: ParamValue) -> Result<ParamValue, String> {
    let ok = match (p.ty, v) {
        (ParamType::Int { min, max }, ParamValue::Int(n)) => (min..=max).contains(&n),
        (ParamType::Int { .. }, ParamValue::Real(_)) => false,
        (ParamType::Real { min, max }, v) => {
            let x = v.real();
            x.is_finite() && x >= min && x <= max
        }
    };
    match (ok, p.ty) {
        (true, ParamType::Real { .. }) => Ok(ParamValue::Real(v.real())),
        (true, ParamType::Int { .. }) => Ok(v),
        (false, ty) => Err(format!("must be {}", ty.describe())),
    }
}

/// A parameter's text in the string form, parsed by its type.
fn parse_text(p: &Param, text: &str) -> Result<ParamValue, String> {
    let t = text;
    let v = match p.ty {
        ParamType::Int { .. } => t.parse::<u64>().ok().map(ParamValue::Int),
        ParamType::Real { .. } => t.parse::<f64>().ok().map(ParamValue::Real),
    };
    match v {
        Some(v) => check_value(p, v),
        None => check_value(p, ParamValue::Real(f64::NAN)),
    }
}

/// The values of `policy`'s parameters, in declaration order, from what was `given` (by index):
/// defaults fill the rest, a missing parameter without one is an error.
fn complete(
    policy: &Policy,
    given: Vec<Option<ParamValue>>,
    written: &str,
) -> Result<Vec<ParamValue>, String> {
    policy
        .params
        .iter()
        .zip(given)
        .map(|(p, v)| {
            v.or(p.default).ok_or_else(|| {
                format!(
                    "'{KEY}' = '{}' needs its parameter {} ({}: {})",
                    shown(written),
                    p.name.to_ascii_uppercase(),
                    policy.synopsis(),
                    p.about
                )
            })
        })
        .collect()
}

impl VictimKind {
    /// The policy named `name` with parameter values `v` (declaration order, checked).
    fn from_values(name: &str, v: &[ParamValue]) -> VictimKind {
        match name {
            "greedy" => VictimKind::Greedy,
            "rga" => VictimKind::Rga(v[0].int() as u32),
            "random" => VictimKind::Random,
            "random+" => VictimKind::RandomPlus,
            "fifo" => VictimKind::Fifo,
            "cost-benefit" => VictimKind::CostBenefit,
            "cat" => VictimKind::Cat,
            "wear-aware" => VictimKind::WearAware,
            "alpha" => VictimKind::Alpha(v[0].real()),
            other => unreachable!("policy '{other}' is declared in POLICIES but not built"),
        }
    }

    /// The policy's name and its parameter values, in declaration order.
    pub fn values(&self) -> (&'static str, Vec<ParamValue>) {
        match *self {
            VictimKind::Greedy => ("greedy", vec![]),
            VictimKind::Rga(d) => ("rga", vec![ParamValue::Int(d as u64)]),
            VictimKind::Random => ("random", vec![]),
            VictimKind::RandomPlus => ("random+", vec![]),
            VictimKind::Fifo => ("fifo", vec![]),
            VictimKind::CostBenefit => ("cost-benefit", vec![]),
            VictimKind::Cat => ("cat", vec![]),
            VictimKind::WearAware => ("wear-aware", vec![]),
            VictimKind::Alpha(a) => ("alpha", vec![ParamValue::Real(a)]),
        }
    }

    /// The canonical string form (parses back to the same kind): `"greedy"`, `"rga:8"`.
    pub fn name(&self) -> String {
        let (name, values) = self.values();
        let mut s = name.to_string();
        for v in values {
            s.push(':');
            s.push_str(&v.to_string());
        }
        s
    }

    /// The table form's value: `policy = "NAME"` and the parameters by name. Every other key is an
    /// error naming it.
    pub fn from_table<'a>(
        entries: impl IntoIterator<Item = (&'a str, TableValue<'a>)>,
    ) -> Result<VictimKind, String> {
        let entries: Vec<(&str, TableValue<'_>)> = entries.into_iter().collect();
        let written = entries
            .iter()
            .find(|(k, _)| *k == "policy")
            .map(|(_, v)| v.clone());
        let name = match written {
            Some(TableValue::Str(s)) => s,
            Some(other) => {
                return Err(format!(
                    "'{KEY}.policy' must be a string (one of: {}), not {}",
                    synopses(),
                    other.kind()
                ))
            }
            None => {
                return Err(format!(
                    "'{KEY}' as a table needs policy = \"NAME\" (one of: {})",
                    synopses()
                ))
            }
        };
        let policy = find(name).ok_or_else(|| unknown(name))?;
        let mut given: Vec<Option<ParamValue>> = vec![None; policy.params.len()];
        for (k, v) in &entries {
            if *k == "policy" {
                continue;
            }
            let Some(i) = policy.params.iter().position(|p| p.name == *k) else {
                let known: Vec<&str> = std::iter::once("policy")
                    .chain(policy.params.iter().map(|p| p.name))
                    .collect();
                return Err(format!(
                    "'{KEY}.{}' is not a parameter of {} (known: {})",
                    shown(k),
                    policy.name,
                    known.join(", ")
                ));
            };
            let p = &policy.params[i];
            let value = match (p.ty, v) {
                (ParamType::Int { .. }, TableValue::Int(n)) => {
                    u64::try_from(*n).ok().map(ParamValue::Int)
                }
                (ParamType::Real { .. }, TableValue::Int(n)) => Some(ParamValue::Real(*n as f64)),
                (ParamType::Real { .. }, TableValue::Real(x)) => Some(ParamValue::Real(*x)),
                _ => None,
            };
            let checked = value.and_then(|v| check_value(p, v).ok());
            given[i] = Some(checked.ok_or_else(|| {
                format!("'{KEY}.{}' = {v} must be {}", shown(k), p.ty.describe())
            })?);
        }
        let values = complete(policy, given, policy.name)?;
        Ok(VictimKind::from_values(policy.name, &values))
    }
}

/// A value in the table form, as the configuration reader hands it over.
#[derive(Clone, Debug, PartialEq)]
pub enum TableValue<'a> {
    Str(&'a str),
    Int(i64),
    Real(f64),
    /// Anything else, by its kind (`"true or false"`, `"an array"`, …).
    Other(&'static str),
}

impl TableValue<'_> {
    fn kind(&self) -> &'static str {
        match self {
            TableValue::Str(_) => "a string",
            TableValue::Int(_) => "an integer",
            TableValue::Real(_) => "a number",
            TableValue::Other(k) => k,
        }
    }
}

impl fmt::Display for TableValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableValue::Str(s) => write!(f, "'{}'", s.escape_debug()),
            TableValue::Int(n) => write!(f, "{n}"),
            TableValue::Real(x) => write!(f, "{x}"),
            TableValue::Other(k) => f.write_str(k),
        }
    }
}

impl FromStr for VictimKind {
    type Err = String;

    /// Parses the string form: `NAME` or `NAME:P1[:P2…]` (case-insensitive, blanks around it
    /// ignored), e.g. `greedy`, `rga:8`, `rga` (= `rga:8`).
    fn from_str(s: &str) -> Result<Self, String> {
        let written = s.trim();
        let mut parts = written.split(':');
        let name = parts.next().unwrap_or("");
        let policy = find(name).ok_or_else(|| unknown(written))?;
        let texts: Vec<&str> = parts.collect();
        if texts.len() > policy.params.len() {
            let takes = match policy.params.len() {
                0 => "takes no parameter".to_string(),
                1 => "takes 1 parameter".to_string(),
                n => format!("takes {n} parameters"),
            };
            return Err(format!(
                "'{KEY}' = '{}': {} {takes} ({})",
                shown(written),
                policy.name,
                policy.synopsis()
            ));
        }
        let mut given = vec![None; policy.params.len()];
        for (i, t) in texts.iter().enumerate() {
            let p = &policy.params[i];
            let v = parse_text(p, t).map_err(|why| {
                format!(
                    "'{KEY}' = '{}': {} {why} ({}: {})",
                    shown(written),
                    p.name.to_ascii_uppercase(),
                    policy.synopsis(),
                    p.about
                )
            })?;
            given[i] = Some(v);
        }
        let values = complete(policy, given, written)?;
        Ok(VictimKind::from_values(policy.name, &values))
    }
}

impl fmt::Display for VictimKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// Written as the canonical string form.
impl serde::Serialize for VictimKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

/// Read from the string form or the table form.
impl<'de> serde::Deserialize<'de> for VictimKind {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = toml::Value::deserialize(d)?;
        VictimKind::from_toml(&v).map_err(serde::de::Error::custom)
    }
}

impl VictimKind {
    /// `gc.victim` as a TOML value: a string or a table.
    pub fn from_toml(v: &toml::Value) -> Result<VictimKind, String> {
        match v {
            toml::Value::String(s) => s.parse(),
            toml::Value::Table(t) => VictimKind::from_table(t.iter().map(|(k, v)| {
                let tv = match v {
                    toml::Value::String(s) => TableValue::Str(s),
                    toml::Value::Integer(n) => TableValue::Int(*n),
                    toml::Value::Float(x) => TableValue::Real(*x),
                    toml::Value::Boolean(_) => TableValue::Other("true or false"),
                    toml::Value::Datetime(_) => TableValue::Other("a date"),
                    toml::Value::Array(_) => TableValue::Other("an array"),
                    toml::Value::Table(_) => TableValue::Other("a table"),
                };
                (k.as_str(), tv)
            })),
            other => Err(format!(
                "'{KEY}' must be a string (\"rga:8\") or a table ({{ policy = \"rga\", d = 8 }}), not {}",
                match other {
                    toml::Value::Integer(_) => "an integer",
                    toml::Value::Float(_) => "a number",
                    toml::Value::Boolean(_) => "true or false",
                    toml::Value::Datetime(_) => "a date",
                    _ => "an array",
                }
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    //! The policies' names, string and table forms, and parameter declarations.

    use super::*;
    use crate::gc::victim::list;
    use crate::gc::victim::tests::all_kinds;

    #[test]
    fn names_round_trip() {
        for kind in all_kinds() {
            assert_eq!(kind.name().parse::<VictimKind>(), Ok(kind));
            assert_eq!(kind.to_string(), kind.name());
        }
        assert_eq!(
            "rga".parse(),
            Ok(VictimKind::Rga(crate::gc::victim::RGA_DEFAULT_D))
        );
        assert_eq!(" Random+ ".parse(), Ok(VictimKind::RandomPlus));
        for (name, desc) in list() {
            assert!(!desc.is_empty());
            let parseable = name.replace(":D", ":3").replace(":ALPHA", ":0.5");
            assert!(
                parseable.parse::<VictimKind>().is_ok(),
                "{name} does not parse"
            );
        }
    }

    #[test]
    fn parse_errors_name_valid_policies() {
        let e = "lru".parse::<VictimKind>().unwrap_err();
        assert!(
            e.starts_with("'gc.victim' = 'lru' must be one of: greedy, rga:D, random"),
            "{e}"
        );
        for (name, _) in list() {
            assert!(e.contains(&name), "{e}");
        }
        for (bad, why) in [
            (
                "rga:0",
                "'gc.victim' = 'rga:0': D must be an integer in 1..=4294967295",
            ),
            (
                "rga:x",
                "'gc.victim' = 'rga:x': D must be an integer in 1..=4294967295",
            ),
            (
                "rga:",
                "'gc.victim' = 'rga:': D must be an integer in 1..=4294967295",
            ),
            ("rga:-3", "'gc.victim' = 'rga:-3': D must be an integer"),
            (
                "rga:4294967296",
                "'gc.victim' = 'rga:4294967296': D must be an integer",
            ),
            (
                "rga:2:3",
                "'gc.victim' = 'rga:2:3': rga takes 1 parameter (rga:D)",
            ),
            (
                "greedy:3",
                "'gc.victim' = 'greedy:3': greedy takes no parameter (greedy)",
            ),
            ("", "'gc.victim' = '' must be one of"),
            ("rga\n:3", "'gc.victim' = 'rga\\n:3' must be one of"),
            ("rga: 3", "'gc.victim' = 'rga: 3': D must be an integer"),
        ] {
            let e = bad.parse::<VictimKind>().unwrap_err();
            assert!(e.starts_with(why), "{bad}: {e}");
            assert!(!e.contains('\n'), "one line: {e}");
        }
    }

    /// `gc.victim` as a TOML value, the way a configuration holds it.
    fn from_toml(text: &str) -> Result<VictimKind, String> {
        let t: toml::Table = format!("v = {text}").parse().expect("valid TOML");
        VictimKind::from_toml(&t["v"])
    }

    #[test]
    fn table_form_equals_string_form() {
        assert_eq!(
            from_toml(r#"{ policy = "rga", d = 8 }"#),
            Ok(VictimKind::Rga(8))
        );
        assert_eq!(from_toml(r#"{ policy = "rga" }"#), Ok(VictimKind::Rga(8)));
        assert_eq!(from_toml(r#"{ policy = "RGA", d = 3 }"#), "rga:3".parse());
        assert_eq!(from_toml(r#""rga:8""#), Ok(VictimKind::Rga(8)));
        for kind in all_kinds() {
            let (name, values) = kind.values();
            let policy = POLICIES.iter().find(|p| p.name == name).unwrap();
            let mut table = format!("{{ policy = \"{name}\"");
            for (p, v) in policy.params.iter().zip(&values) {
                table.push_str(&format!(", {} = {v}", p.name));
            }
            table.push_str(" }");
            assert_eq!(from_toml(&table), Ok(kind), "{table}");
            assert_eq!(from_toml(&format!("\"{}\"", kind.name())), Ok(kind));
        }
    }

    #[test]
    fn table_form_checks_its_parameters() {
        for (text, want) in [
            (
                r#"{ policy = "rga", d = 0 }"#,
                "'gc.victim.d' = 0 must be an integer in 1..=4294967295",
            ),
            (
                r#"{ policy = "rga", d = -1 }"#,
                "'gc.victim.d' = -1 must be an integer in 1..=",
            ),
            (
                r#"{ policy = "rga", d = 2.5 }"#,
                "'gc.victim.d' = 2.5 must be an integer in 1..=",
            ),
            (
                r#"{ policy = "rga", d = "8" }"#,
                "'gc.victim.d' = '8' must be an integer in 1..=",
            ),
            (
                r#"{ policy = "rga", k = 8 }"#,
                "'gc.victim.k' is not a parameter of rga (known: policy, d)",
            ),
            (
                r#"{ policy = "greedy", d = 8 }"#,
                "'gc.victim.d' is not a parameter of greedy (known: policy)",
            ),
            (
                r#"{ d = 8 }"#,
                "'gc.victim' as a table needs policy = \"NAME\" (one of: greedy, rga:D",
            ),
            (
                r#"{ policy = 3 }"#,
                "'gc.victim.policy' must be a string (one of: greedy",
            ),
            (
                r#"{ policy = "lru" }"#,
                "'gc.victim' = 'lru' must be one of: greedy",
            ),
            ("8", "'gc.victim' must be a string (\"rga:8\") or a table"),
            (
                "true",
                "'gc.victim' must be a string (\"rga:8\") or a table",
            ),
            (
                r#"{ policy = "rga", "a\nb" = 1 }"#,
                "'gc.victim.a\\nb' is not a parameter of rga",
            ),
            (
                r#"{ policy = "rga", d = "\n" }"#,
                "'gc.victim.d' = '\\n' must be an integer",
            ),
        ] {
            let e = from_toml(text).unwrap_err();
            assert!(e.starts_with(want), "{text}: {e}");
        }
    }

    #[test]
    fn parameter_declarations_are_consistent() {
        for p in POLICIES {
            assert!(!p.about.is_empty(), "{}", p.name);
            for q in p.params {
                assert!(!q.about.is_empty(), "{}.{}", p.name, q.name);
                if let Some(d) = q.default {
                    assert!(
                        check_value(q, d).is_ok(),
                        "{}.{}: default out of range",
                        p.name,
                        q.name
                    );
                }
            }
            // Every declared policy builds, with its defaults or the smallest values.
            let text = p.params.iter().fold(p.name.to_string(), |s, q| match q.ty {
                ParamType::Int { min, .. } => format!("{s}:{min}"),
                ParamType::Real { min, .. } => format!("{s}:{min}"),
            });
            let kind: VictimKind = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(kind.name(), text);
            assert_eq!(kind.values().0, p.name);
        }
    }

    #[test]
    fn alpha_is_checked() {
        assert_eq!("alpha:0.3".parse(), Ok(VictimKind::Alpha(0.3)));
        assert_eq!(
            from_toml("{ policy = \"alpha\", alpha = 1 }"),
            Ok(VictimKind::Alpha(1.0))
        );
        for bad in ["alpha:1.5", "alpha:-0.1", "alpha:nan", "alpha:x"] {
            let e = bad.parse::<VictimKind>().unwrap_err();
            assert!(e.contains("[0, 1]") && !e.contains('\n'), "{bad}: {e}");
        }
        assert!("alpha"
            .parse::<VictimKind>()
            .unwrap_err()
            .contains("needs its parameter ALPHA"));
        assert_eq!(VictimKind::Alpha(0.5).name(), "alpha:0.5");
    }
}
