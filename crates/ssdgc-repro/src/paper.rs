//! The paper files (`papers/<id>.toml`), parsed into typed structs. The schema is described in
//! `papers/README.md`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// One paper's setup, claims and experiments.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Paper {
    pub schema: u32,
    pub paper: PaperInfo,
    pub setup: Setup,
    #[serde(default)]
    pub contradictions: Vec<Contradiction>,
    pub claims: Vec<Claim>,
    pub experiments: Vec<Experiment>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaperInfo {
    pub id: String,
    pub title: String,
    pub authors: Vec<String>,
    pub venue: String,
    pub year: u32,
    pub doi: Option<String>,
    pub citation: String,
    pub file: String,
    pub simulator: String,
    pub notes: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    pub summary: String,
    #[serde(default)]
    pub items: Vec<SetupItem>,
    #[serde(default)]
    pub silent: Vec<Silent>,
    #[serde(default)]
    pub simulator_defaults: Vec<SimulatorDefault>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupItem {
    pub id: String,
    pub topic: String,
    pub fact: String,
    pub value: Option<String>,
    pub source: String,
    pub quote: Option<String>,
    pub ssdgc: String,
    pub notes: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Silent {
    pub id: String,
    pub question: String,
    pub suggestion: String,
    pub reason: String,
    pub ssdgc: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimulatorDefault {
    pub id: String,
    pub simulator: String,
    pub fact: String,
    pub value: Option<String>,
    pub evidence: String,
    pub ssdgc: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Contradiction {
    pub id: String,
    pub topic: String,
    pub readings: Vec<Reading>,
    pub choice: String,
    pub reason: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reading {
    pub source: String,
    pub quote: Option<String>,
    pub reading: String,
}

/// `relative`, `absolute` or `trend`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Relative,
    Absolute,
    Trend,
}

/// How the scheme's figure compares with the baseline's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Lower,
    Higher,
    Equal,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    pub paper: String,
    pub ssdgc: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimWorkload {
    pub paper: String,
    pub ssdgc: String,
    pub why: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    pub id: String,
    #[serde(default)]
    pub headline: bool,
    pub kind: Kind,
    pub claim: String,
    pub source: String,
    pub quote: Option<String>,
    pub metric: String,
    pub baseline: Side,
    pub scheme: Side,
    pub paper_value: String,
    pub paper_ratio: Option<f64>,
    pub bound: Option<String>,
    pub direction: Direction,
    pub workload: ClaimWorkload,
    #[serde(default)]
    pub no_experiment: bool,
    pub notes: String,
}

/// A scheme of an experiment: a name, or a labelled scheme with its own overrides.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum SchemeSpec {
    Name(String),
    Labelled(LabelledScheme),
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LabelledScheme {
    pub label: String,
    pub scheme: String,
    #[serde(default)]
    pub sets: Vec<String>,
}

impl SchemeSpec {
    pub fn label(&self) -> &str {
        match self {
            SchemeSpec::Name(n) => n,
            SchemeSpec::Labelled(l) => &l.label,
        }
    }
    pub fn scheme(&self) -> &str {
        match self {
            SchemeSpec::Name(n) => n,
            SchemeSpec::Labelled(l) => &l.scheme,
        }
    }
    pub fn sets(&self) -> &[String] {
        match self {
            SchemeSpec::Name(_) => &[],
            SchemeSpec::Labelled(l) => &l.sets,
        }
    }
}

/// One workload or several.
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
pub enum Workloads {
    One(String),
    Many(Vec<String>),
}

impl Workloads {
    pub fn list(&self) -> Vec<String> {
        match self {
            Workloads::One(w) => vec![w.clone()],
            Workloads::Many(v) => v.clone(),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vary {
    pub set: String,
    pub values: Vec<String>,
}

/// Overrides for `--quick`: unset keys inherit the full experiment's.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Quick {
    pub preset: Option<String>,
    pub sets: Option<Vec<String>>,
    pub vary: Option<Vary>,
    pub schemes: Option<Vec<SchemeSpec>>,
    pub workload: Option<Workloads>,
    pub precondition: Option<String>,
    pub seeds: Option<Vec<u64>>,
    pub series_interval: Option<String>,
    pub notes: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    pub id: String,
    pub claims: Vec<String>,
    pub preset: String,
    pub sets: Vec<String>,
    pub vary: Option<Vary>,
    pub schemes: Vec<SchemeSpec>,
    pub workload: Workloads,
    #[serde(default)]
    pub workload_options: BTreeMap<String, Vec<String>>,
    pub precondition: String,
    pub seeds: Vec<u64>,
    /// Width of a `series.by_time` point (a duration, `1s`, `10ms`): every run of the experiment
    /// reports its time series, which `min(series.by_time.FIELD)`-style metrics read.
    pub series_interval: Option<String>,
    #[serde(default)]
    pub needs: Vec<String>,
    pub notes: Option<String>,
    #[serde(default)]
    pub quick: Quick,
}

impl Experiment {
    /// The experiment as run: the full one, or its quick variant (unset keys inherit).
    pub fn variant(&self, quick: bool) -> Experiment {
        let mut e = self.clone();
        if !quick {
            return e;
        }
        let q = &self.quick;
        if let Some(v) = &q.preset {
            e.preset = v.clone();
        }
        if let Some(v) = &q.sets {
            e.sets = v.clone();
        }
        if let Some(v) = &q.vary {
            e.vary = Some(v.clone());
        }
        if let Some(v) = &q.schemes {
            e.schemes = v.clone();
        }
        if let Some(v) = &q.workload {
            e.workload = v.clone();
        }
        if let Some(v) = &q.precondition {
            e.precondition = v.clone();
        }
        if let Some(v) = &q.seeds {
            e.seeds = v.clone();
        }
        if let Some(v) = &q.series_interval {
            e.series_interval = Some(v.clone());
        }
        if let Some(v) = &q.notes {
            e.notes = Some(v.clone());
        }
        e
    }
}

/// The embedded paper files: `(id, TOML text)`.
pub const FILES: &[(&str, &str)] = &[
    ("pagc", include_str!("../papers/pagc.toml")),
    ("pgc", include_str!("../papers/pgc.toml")),
    ("agc", include_str!("../papers/agc.toml")),
    ("ppm", include_str!("../papers/ppm.toml")),
    ("practical", include_str!("../papers/practical.toml")),
];

/// The papers `ssdgc reproduce` runs today.
pub const REPRODUCIBLE: &[&str] = &["pagc", "pgc", "agc", "practical", "ppm"];

/// Parses one paper's TOML text.
pub fn parse(id: &str, text: &str) -> Result<Paper, String> {
    let p: Paper = toml::from_str(text).map_err(|e| format!("papers/{id}.toml: {e}"))?;
    if p.schema != 1 {
        return Err(format!(
            "papers/{id}.toml: schema {} (this build reads schema 1)",
            p.schema
        ));
    }
    Ok(p)
}

/// Loads an embedded paper that `ssdgc reproduce` supports.
pub fn load(id: &str) -> Result<Paper, String> {
    if !REPRODUCIBLE.contains(&id) {
        return Err(format!(
            "unknown paper '{id}' (known: {})",
            REPRODUCIBLE.join(", ")
        ));
    }
    let (_, text) = FILES
        .iter()
        .find(|(n, _)| *n == id)
        .expect("every reproducible paper is embedded");
    parse(id, text)
}
