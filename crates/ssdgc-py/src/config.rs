//! `Config`: a configuration built layer by layer, as the command line builds one (a preset, TOML
//! files, `section.key=value` overrides), by `ssdgc_core::ConfigBuilder`.
//!
//! A `Config` is immutable: each layer gives a new one, so a base configuration can be shared by
//! the points of a sweep. It keeps its layers (a file's text with it), so that it can be pickled
//! and rebuilt on another machine with the same messages for the same mistakes.

use pyo3::prelude::*;
use ssdgc_core::ConfigBuilder;

use crate::error;

/// One layer of a configuration.
#[derive(Clone, Debug)]
enum Layer {
    /// The preset every configuration starts from.
    Preset(String),
    /// A TOML document and the name it is known by in errors (a file's path).
    Toml { text: String, source: String },
    /// A `section.key=value` override.
    Set(String),
}

impl Layer {
    fn apply(&self, b: Option<ConfigBuilder>) -> Result<ConfigBuilder, String> {
        match (self, b) {
            (Layer::Preset(name), _) => ConfigBuilder::preset(name).map_err(|e| e.to_string()),
            (Layer::Toml { text, source }, Some(mut b)) => {
                b.merge_text(text, source).map_err(|e| e.to_string())?;
                Ok(b)
            }
            (Layer::Set(a), Some(mut b)) => {
                b.set(a).map_err(|e| e.to_string())?;
                Ok(b)
            }
            (_, None) => Err("a configuration starts from a preset".into()),
        }
    }

    fn to_tuple(&self) -> (String, String, String) {
        match self {
            Layer::Preset(n) => ("preset".into(), n.clone(), String::new()),
            Layer::Toml { text, source } => ("toml".into(), text.clone(), source.clone()),
            Layer::Set(a) => ("set".into(), a.clone(), String::new()),
        }
    }
}

/// A configuration: its layers, and the builder they give.
#[pyclass(module = "ssdgc._native", frozen)]
#[derive(Clone)]
pub struct Config {
    layers: Vec<Layer>,
    pub(crate) builder: ConfigBuilder,
}

impl Config {
    fn with(&self, layer: Layer) -> PyResult<Config> {
        let builder = layer.apply(Some(self.builder.clone())).map_err(error)?;
        let mut layers = self.layers.clone();
        layers.push(layer);
        Ok(Config { layers, builder })
    }

    /// The configuration with no key options applied.
    fn build(&self) -> PyResult<ssdgc_core::Config> {
        ssdgc_core::setup::config(self.builder.clone(), &Default::default()).map_err(error)
    }
}

#[pymethods]
impl Config {
    /// The drive preset `name` (`ssdgc.presets()`), with nothing over it.
    #[new]
    #[pyo3(signature = (name = "default"))]
    fn new(name: &str) -> PyResult<Config> {
        Config::preset(name)
    }

    /// The drive preset `name`.
    #[staticmethod]
    fn preset(name: &str) -> PyResult<Config> {
        let layer = Layer::Preset(name.to_string());
        let builder = layer.apply(None).map_err(error)?;
        Ok(Config {
            layers: vec![layer],
            builder,
        })
    }

    /// This configuration with the TOML file at `path` merged over it (`--config`).
    fn with_file(&self, path: std::path::PathBuf) -> PyResult<Config> {
        let source = path.display().to_string();
        let Ok(text) = std::fs::read_to_string(&path) else {
            // The builder's own message for a file it cannot read.
            let msg = match self.builder.clone().merge_file(&path) {
                Err(e) => e.to_string(),
                Ok(()) => format!("{source}: cannot read"),
            };
            return Err(error(msg));
        };
        self.with(Layer::Toml { text, source })
    }

    /// This configuration with a TOML document merged over it; `source` names it in errors.
    #[pyo3(signature = (text, source = "<string>"))]
    fn with_text(&self, text: &str, source: &str) -> PyResult<Config> {
        self.with(Layer::Toml {
            text: text.to_string(),
            source: source.to_string(),
        })
    }

    /// This configuration with one `section.key=value` override (`--set`).
    fn with_set(&self, assignment: &str) -> PyResult<Config> {
        self.with(Layer::Set(assignment.to_string()))
    }

    /// The effective configuration as TOML (`--dump-config`).
    fn to_toml(&self) -> PyResult<String> {
        Ok(self.build()?.to_toml())
    }

    /// The effective configuration as JSON text.
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.build()?).map_err(|e| error(e.to_string()))
    }

    /// Checks that the configuration builds; raises the error it gives otherwise.
    fn validate(&self) -> PyResult<()> {
        self.build().map(drop)
    }

    /// The layers, `(kind, value, source)`: `("preset", name, "")`, `("toml", text, source)`,
    /// `("set", assignment, "")`.
    fn layers(&self) -> Vec<(String, String, String)> {
        self.layers.iter().map(Layer::to_tuple).collect()
    }
}

/// A configuration from the layers `Config.layers()` gave (unpickling).
#[pyfunction]
pub fn config_from_layers(layers: Vec<(String, String, String)>) -> PyResult<Config> {
    let mut it = layers.into_iter();
    let Some((kind, name, _)) = it.next() else {
        return Err(error("a configuration starts from a preset"));
    };
    if kind != "preset" {
        return Err(error("a configuration starts from a preset"));
    }
    let mut cfg = Config::preset(&name)?;
    for (kind, value, source) in it {
        cfg = match kind.as_str() {
            "toml" => cfg.with(Layer::Toml {
                text: value,
                source,
            })?,
            "set" => cfg.with(Layer::Set(value))?,
            other => return Err(error(format!("unknown configuration layer '{other}'"))),
        };
    }
    Ok(cfg)
}
