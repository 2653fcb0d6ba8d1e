//! How the parts of a run report an error to the run loop.
//!
//! The front end and each drive keep the first error they run into ([`ErrorSlot`]) until the run
//! loop takes it. Storing one also raises the run's [`ErrorFlag`], which all the slots of a run
//! share: the run loop tests that one flag after each event, and asks the parts for their errors
//! only once it is raised.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Raised when any part of the run stores an error; never lowered (the run stops at the error).
#[derive(Clone, Debug, Default)]
pub struct ErrorFlag(Arc<AtomicBool>);

impl ErrorFlag {
    /// True once an error was stored in a slot of this flag.
    #[inline]
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// The error a part of the run keeps for the run loop, raising its [`ErrorFlag`] when one is
/// stored.
#[derive(Debug)]
pub struct ErrorSlot<E> {
    error: Option<E>,
    flag: ErrorFlag,
}

impl<E> ErrorSlot<E> {
    /// An empty slot that raises `flag`.
    pub fn new(flag: &ErrorFlag) -> Self {
        ErrorSlot {
            error: None,
            flag: flag.clone(),
        }
    }

    /// Keeps `e`, unless the slot holds an error already (the first one is kept).
    #[cold]
    pub fn keep(&mut self, e: E) {
        self.error.get_or_insert(e);
        self.flag.raise();
    }

    /// Keeps `e` in place of any error the slot holds.
    #[cold]
    pub fn replace(&mut self, e: E) {
        self.error = Some(e);
        self.flag.raise();
    }

    /// True when the slot holds no error.
    #[inline]
    pub fn is_none(&self) -> bool {
        self.error.is_none()
    }

    /// The error the slot holds, if any, taking it.
    #[inline]
    pub fn take(&mut self) -> Option<E> {
        self.error.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storing_in_any_slot_raises_the_shared_flag_and_the_first_error_is_kept() {
        let flag = ErrorFlag::default();
        let mut a = ErrorSlot::new(&flag);
        let mut b = ErrorSlot::new(&flag);
        assert!(!flag.is_raised());
        assert_eq!(a.take(), None);
        b.keep("first");
        assert!(flag.is_raised());
        b.keep("second");
        assert_eq!(b.take(), Some("first"));
        assert!(b.is_none());
        a.keep("a");
        a.replace("a again");
        assert_eq!(a.take(), Some("a again"));
        // Another run's flag is its own.
        assert!(!ErrorFlag::default().is_raised());
    }
}
