//! From arguments to runs, through `ssdgc_core::setup` (the one place the command and the Python
//! package set runs up): the configuration's layers (preset, file, overrides, then a point's
//! varied values) and the key options (`--gc`, `--victim`, …), the run's settings and the workload.

use ssdgc_core::setup::{self, KeyOptions, RunSettings, WorkloadSpec};
use ssdgc_core::{Config, ConfigBuilder};

use crate::args::Common;
use crate::UserError;

/// One point's values of the varied settings.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    /// `--gc` (or a varied `gc`).
    pub gc: Option<String>,
    /// A varied `preset`.
    pub preset: Option<String>,
    /// A varied `victim`.
    pub victim: Option<String>,
    /// A varied `precondition`.
    pub precondition: Option<String>,
    /// Varied configuration keys: `section.key=value`.
    pub sets: Vec<String>,
}

/// The configuration: the preset (a point's, or `--preset`), `--config`, the `--set` overrides
/// and a point's varied keys, then the key options (`--gc`, `--victim`, `--time-scale`, `--fold`,
/// `--queue-depth`, a point's scheme or victim). A varied key wins over the option that is its
/// shorthand.
pub fn build_config(c: &Common, o: &Overrides) -> Result<Config, UserError> {
    let preset = o.preset.as_deref().unwrap_or(&c.preset);
    let mut b = ConfigBuilder::preset(preset)?;
    if let Some(path) = &c.config {
        b.merge_file(path)?;
    }
    for s in c.sets.iter().chain(&o.sets) {
        b.set(s)?;
    }
    let mut keys = KeyOptions {
        scheme: o.gc.clone(),
        victim: o.victim.clone().or_else(|| c.victim.clone()),
        time_scale: c.time_scale,
        fold: c.fold.clone(),
        queue_depth: c.queue_depth,
    };
    for s in &o.sets {
        if let Some((key, _)) = s.split_once('=') {
            keys.yield_to(key.trim());
        }
    }
    Ok(setup::config(b, &keys)?)
}

/// The settings of a run of point `o`: preconditioning (the point's, or `--precondition`),
/// checking and series.
pub fn run_settings(c: &Common, o: &Overrides) -> RunSettings {
    RunSettings {
        precondition: o.precondition.clone().or_else(|| c.precondition.clone()),
        check: c.check,
        series_interval: c.series_interval.clone(),
        series_window: c.series_window,
    }
}

/// The workload: the trace and its reading options, or the synthetic spec.
pub fn workload_spec(c: &Common) -> WorkloadSpec {
    WorkloadSpec {
        trace: c.trace.clone(),
        synthetic: c.synthetic.clone(),
        format: c.format.clone(),
        volume: c.volume,
        disksim_time: c.disksim_time.clone(),
        blkparse_event: c.blkparse_event.clone(),
        replay: c.replay.clone(),
    }
}
