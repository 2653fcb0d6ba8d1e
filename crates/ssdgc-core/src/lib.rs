//! ssdgc-core: the simulation core of ssdgc.
#![forbid(unsafe_code)]
pub mod analytic;
pub mod gc;
pub mod rng;
pub mod units;
