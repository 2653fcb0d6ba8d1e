//! `fifo` — the oldest candidate first, in the order blocks became full.
//!
//! Also called LRW (least recently written) or the "circular log" cleaner: the write frontier
//! sweeps the plane and collects whatever it meets. Modelled by Desnoyers, "Analytic modeling of SSD
//! write performance", SYSTOR 2012, eq. 4 ([`crate::analytic::waf_fifo`]); see also Hu, Eleftheriou
//! et al., "Write amplification analysis in flash-based solid state drives", SYSTOR 2009.
//!
//! # Cost
//!
//! A `VecDeque` of candidates in fill order. Every candidate leaves only through this policy's own
//! `pick`, which always takes the front, so no removal from the middle is ever needed: every
//! operation is O(1) and `on_invalidate` is a no-op. The deque is sized for the whole plane up front,
//! so it never reallocates.

use std::collections::VecDeque;

use super::{PlaneView, VictimPolicy};
use crate::rng::SimRng;

/// First in, first out victim selection.
#[derive(Clone, Debug)]
pub struct Fifo {
    queue: VecDeque<u32>,
}

impl Fifo {
    /// A policy for a plane of `blocks_per_plane` blocks.
    pub fn new(blocks_per_plane: u32) -> Self {
        Self {
            queue: VecDeque::with_capacity(blocks_per_plane as usize),
        }
    }
}

impl VictimPolicy for Fifo {
    fn on_full(&mut self, block: u32, _view: &PlaneView<'_>) {
        self.queue.push_back(block);
    }

    fn on_invalidate(&mut self, _block: u32, _old_valid: u16, _view: &PlaneView<'_>) {}

    fn pick(&mut self, _view: &PlaneView<'_>, _rng: &mut SimRng) -> Option<u32> {
        self.queue.pop_front()
    }

    fn len(&self) -> usize {
        self.queue.len()
    }

    /// Queue order.
    fn rebuild_order(&self) -> Option<Vec<u32>> {
        Some(self.queue.iter().copied().collect())
    }
}
