//! ssdgc-core: the simulation core of ssdgc, a deterministic, trace-driven simulator of NAND-flash
//! SSDs built to study garbage collection.
//!
//! - [`config`]: settings, presets, validation;
//! - [`flash`]: geometry, addressing, allocation orders, timing, the resource model;
//! - [`ftl`]: the FTL seam and the page-mapped FTL: mapping, block table, free pools, write
//!   streams, the victim candidate index;
//! - [`gc`]: the shared GC mechanism, the schemes, the victim policies;
//! - [`ageing`]: preconditioning, a driver over the FTL and the GC mechanism;
//! - [`engine`]: the `(time, sequence)` event queue;
//! - [`drive`]: one drive (flash, FTL, GC scheme, per-die scheduling) as a value;
//! - [`host`]: workloads, replay modes, the front end, the write buffer, the RAID-0 layout;
//! - [`sim`]: the simulator that runs a front end over one or more drives;
//! - [`setup`]: a run from what a user gives a front end (configuration layers, workload, options);
//! - [`metrics`]: latency statistics and the report.
//!
//! The core knows nothing of the command line. It holds no global state: every [`sim::Simulator`]
//! owns its drives, so several run side by side in one process.
#![forbid(unsafe_code)]
pub mod ageing;
pub mod analytic;
pub mod config;
pub mod drive;
pub mod engine;
pub mod flash;
pub mod ftl;
pub mod gc;
pub mod host;
mod keyword;
pub mod metrics;
pub mod rng;
pub mod setup;
pub mod sim;
pub mod units;

pub use config::{Config, ConfigBuilder, ConfigError};
pub use metrics::report::Report;
pub use sim::{RunOptions, SimError, Simulator};
