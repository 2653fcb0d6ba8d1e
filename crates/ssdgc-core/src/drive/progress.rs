//! The progress watchdog: a drive whose GC keeps erasing blocks while no host page completes is
//! making no progress — its GC cannot free space faster than its own moves consume it (a threshold
//! a plane cannot hold, or parallel jobs whose alignment skips waste what the victims free) — and
//! the run ends with an error naming the cause instead of running forever.
//!
//! The bound is generous: twice as many erases as the drive has blocks with no host page
//! completing in between. A legitimate burst of GC — a write collecting its plane back to the
//! threshold, idle-time GC after the last request — erases at most a few times a plane's blocks.

use crate::units::SimTime;

/// Erases since the last host page completed, against the bound.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// The FTL's erase count when a host page last completed.
    erases_at_last_host: u64,
    /// Erases allowed with no host page completing.
    limit: u64,
}

impl Progress {
    /// A watchdog for a drive of `blocks` blocks.
    pub fn new(blocks: u64) -> Progress {
        Progress {
            erases_at_last_host: 0,
            limit: 2 * blocks.max(1),
        }
    }

    /// A host page completed; the FTL has erased `erased` blocks so far.
    #[inline]
    pub fn host_done(&mut self, erased: u64) {
        self.erases_at_last_host = erased;
    }

    /// A GC erase completed at `now`, the FTL having erased `erased` blocks so far: the error when
    /// that is past the bound.
    #[inline]
    pub fn erased(&self, now: SimTime, erased: u64) -> Option<String> {
        let since = erased.saturating_sub(self.erases_at_last_host);
        (since > self.limit).then(|| {
            format!(
                "no progress at {now} ns: GC erased {since} blocks (twice the drive's {} blocks) while no host request completed, so it cannot free space faster than its own moves use it; lower gc.threshold, raise geometry.overprovision, or choose another victim policy or GC scheme",
                self.limit / 2
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erases_past_twice_the_blocks_with_no_host_page_are_an_error() {
        let mut p = Progress::new(10);
        assert!(p.erased(5, 20).is_none());
        assert!(p.erased(5, 21).unwrap().contains("no progress at 5 ns"));
        p.host_done(21);
        assert!(p.erased(6, 41).is_none());
    }
}
