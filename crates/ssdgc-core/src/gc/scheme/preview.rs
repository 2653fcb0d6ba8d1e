//! What a scheme may see of its drive beyond one die ([`DriveView`]): since when the device has
//! been idle, its pending wake-up, and its device queue: the host commands that have arrived, been
//! admitted to the device queue (`host.queue_depth` slots) and not yet completed, with the
//! information a host interface hands over before the data (NCQ's "preinformation", AGC/DGC paper
//! §4.1): operation, logical pages on the drive, arrival time. A scheme never sees a request that
//! has not arrived, nor one still waiting on the host side for a device-queue slot.
//!
//! Beside it, a scheme that looks ahead ([`super::GcScheme::looks_ahead`]) sees the *next* command
//! of the workload before it arrives: the AGC/DGC paper's device receives commands' pre-information
//! before their data, and its look-ahead GC previews two entries, the command in service and the
//! next (§4.1). The front end announces the next record of an open-loop workload when it reads it
//! (at the arrival of the one before), with its arrival time; the announcement ends when the
//! command arrives. Closed-loop workloads announce nothing (their next arrival is not known).
//!
//! The drive files a command when the front end admits a request with work on it and removes it
//! when that work is done ([`crate::drive::Drive::begin_piece`] / [`crate::drive::Drive::end_piece`]),
//! in O(1) by the request's slot; the commands in arrival order are built only when a scheme asks
//! ([`DeviceQueue::commands`]).

use crate::units::{Lpn, SimTime};

/// A host command waiting in a drive's device queue: its part on this drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Command {
    /// A write (rather than a read).
    pub write: bool,
    /// Its first logical page on the drive.
    pub first: Lpn,
    /// Its pages on the drive: `first`, `first + 1`, … (wrapping at the end of the drive's logical
    /// space when `host.fold = "wrap"` folded it).
    pub pages: u32,
    /// When it arrived at the host interface.
    pub arrival: SimTime,
    /// Its position in the workload's arrival order.
    pub seq: u64,
}

/// The drive-wide state a scheme may read while deciding for one die (through
/// [`super::DieContext`]).
#[derive(Clone, Debug, Default)]
pub struct DriveView {
    /// When the device last became idle (no request with work on the drive).
    pub(crate) idle_since: SimTime,
    /// The pending wake-up, if any.
    pub(crate) timer: Option<SimTime>,
    /// The device queue (kept only for a scheme that previews it).
    pub(crate) commands: DeviceQueue,
    /// The next command of the workload, announced before it arrives (kept only for a scheme that
    /// looks ahead): its pre-information (AGC/DGC paper §4.1).
    pub(crate) announced: Option<Command>,
}

/// The commands in one drive's device queue.
#[derive(Clone, Debug, Default)]
pub struct DeviceQueue {
    /// By the front end's request slot.
    slots: Vec<Option<Command>>,
    len: usize,
}

impl DeviceQueue {
    /// Files command `c` of request slot `id`.
    #[inline]
    pub(crate) fn insert(&mut self, id: u32, c: Command) {
        let i = id as usize;
        if i >= self.slots.len() {
            self.slots.resize(i + 1, None);
        }
        debug_assert!(self.slots[i].is_none(), "request slot {id} filed twice");
        self.slots[i] = Some(c);
        self.len += 1;
    }

    /// Removes the command of request slot `id`.
    #[inline]
    pub(crate) fn remove(&mut self, id: u32) {
        if let Some(c) = self.slots.get_mut(id as usize) {
            if c.take().is_some() {
                self.len -= 1;
            }
        }
    }

    /// Commands in the queue.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the queue holds no command.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The commands, in arrival order.
    pub fn commands(&self) -> Vec<Command> {
        let mut v: Vec<Command> = self.slots.iter().flatten().copied().collect();
        v.sort_unstable_by_key(|c| c.seq);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(seq: u64) -> Command {
        Command {
            write: seq.is_multiple_of(2),
            first: seq as Lpn * 10,
            pages: 1,
            arrival: seq * 100,
            seq,
        }
    }

    #[test]
    fn lists_filed_commands_in_arrival_order() {
        let mut q = DeviceQueue::default();
        q.insert(3, cmd(7));
        q.insert(0, cmd(9));
        q.insert(1, cmd(8));
        q.remove(3);
        q.remove(3); // twice: nothing more
        assert_eq!(q.len(), 2);
        assert_eq!(q.commands(), vec![cmd(8), cmd(9)]);
        q.insert(3, cmd(10));
        assert_eq!(q.commands(), vec![cmd(8), cmd(9), cmd(10)]);
        q.remove(0);
        q.remove(1);
        q.remove(3);
        assert!(q.is_empty() && q.commands().is_empty());
    }
}
