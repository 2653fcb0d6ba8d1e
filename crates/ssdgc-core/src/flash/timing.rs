//! Flash command timing in nanoseconds, derived from plain timing parameters.

use crate::units::SimTime;

/// Timing as configured: the plain values [`Timing::new`] derives the command and transfer times
/// from. (`Config` converts into it: `Timing::new(&cfg)`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimingParams {
    /// Page read, array → register, in ns.
    pub read: SimTime,
    /// Page program, register → array, in ns.
    pub program: SimTime,
    /// Block erase, in ns.
    pub erase: SimTime,
    /// Command and address cycles per flash command, in ns.
    pub command: SimTime,
    /// Latency to suspend an ongoing program or erase, in ns.
    pub suspend: SimTime,
    /// Channel transfer rate in mega-transfers per second.
    pub channel_rate_mts: u32,
    /// Channel bus width in bits.
    pub channel_width_bits: u32,
    /// Bytes per page.
    pub page_size: u64,
}

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
    pub fn new(params: impl Into<TimingParams>) -> Timing {
        let t = params.into();
        let bytes_per_us = t.channel_rate_mts as u64 * (t.channel_width_bits as u64 / 8);
        let transfer = (t.page_size * 1_000).div_ceil(bytes_per_us.max(1));
        Timing {
            read: t.read,
            program: t.program,
            erase: t.erase,
            command: t.command,
            transfer,
            suspend: t.suspend,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transfer_time_follows_rate_and_width() {
        let t = Timing::new(TimingParams {
            read: 50_000,
            program: 600_000,
            erase: 3_000_000,
            command: 0,
            suspend: 20_000,
            channel_rate_mts: 400,
            channel_width_bits: 8,
            page_size: 8192,
        });
        assert_eq!(t.transfer, 20_480);
        assert_eq!(t.read, 50_000);
    }
}
