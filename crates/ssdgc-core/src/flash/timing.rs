//! Flash command timing in nanoseconds, derived from the configuration.

use crate::config::Config;
use crate::units::SimTime;

/// Durations of the flash commands and transfers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// Page read, array → register.
    pub read: SimTime,
    /// Page program, register → array.
    pub program: SimTime,
    /// Block erase.
    pub erase: SimTime,
    /// Command and address cycles, charged on the die per command.
    pub command: SimTime,
    /// One page over the channel.
    pub transfer: SimTime,
    /// Suspending an ongoing program or erase.
    pub suspend: SimTime,
}

impl Timing {
    /// Derives the timing: transfer = page size / (rate in MT/s × width in bytes), rounded up.
    pub fn new(cfg: &Config) -> Timing {
        let t = &cfg.timing;
        let bytes_per_us = t.channel_rate_mts as u64 * (t.channel_width_bits as u64 / 8);
        let page = cfg.geometry.page_size.0;
        let transfer = (page * 1_000).div_ceil(bytes_per_us.max(1));
        Timing {
            read: t.read.ns(),
            program: t.program.ns(),
            erase: t.erase.ns(),
            command: t.command.ns(),
            transfer,
            suspend: t.suspend.ns(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfer_time_follows_rate_and_width() {
        let mut cfg = Config::default();
        cfg.timing.channel_rate_mts = 400;
        cfg.timing.channel_width_bits = 8;
        cfg.geometry.page_size.0 = 8192;
        assert_eq!(Timing::new(&cfg).transfer, 20_480);
    }
}
