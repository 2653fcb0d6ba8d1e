//! Write streams: which write point of a plane each kind of data is written to, and which end of the
//! free pool a stream's new blocks come from.
//!
//! | stream | data | new blocks from |
//! |---|---|---|
//! | `Host` | host writes | the pool's order (`ftl.pool`) |
//! | `Gc` | valid pages moved by GC | the pool's order |
//! | `Aligned` | GC data written with multi-plane programs; the aligned write points of a die's planes are kept at one page offset (PaGC paper §V-A) | the pool's order |
//! | `Hot` | GC copies of hot valid pages (practical-GC paper §III-B) | youngest with `ftl.hot_to = "young"` (default), oldest with `"old"` |
//! | `Cold` | GC copies of cold valid pages | the other end |
//!
//! A [`StreamLayout`] maps every stream to a write point (by default each has its own; [`share`]
//! lets one stream write into another's) and says which end of the pool it takes. Host data and GC
//! data always have separate write points unless a layout says otherwise.
//!
//! The practical-GC paper states the hot/cold direction both ways: "hot pages are copied into young
//! block" (§III-B) and "if hot valid pages should be copied back, the oldest block is allocated for
//! them" (§III-C). The direction is therefore a setting, defaulting to hot → young, which is the one
//! that evens wear (hot data is soon invalid, so its young block returns to the pool soon and takes
//! its next erase; cold data parks on a worn block). Hot and cold only differ in the block they take
//! from an erase-ordered pool (`ftl.pool = "youngest"` or `"oldest"`); with the FIFO pool both
//! take its front. Nothing in the GC mechanism writes these streams yet: a victim and page
//! classification change will.
//!
//! [`share`]: StreamLayout::share

use super::pool::Take;

/// A write stream; each is mapped to a write point per plane by the [`StreamLayout`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stream {
    /// Data written by the host.
    Host = 0,
    /// Valid data moved by GC.
    Gc = 1,
    /// GC data written with multi-plane programs: the write points of this stream are kept at the
    /// same page offset across the planes of a die (PaGC's aligned active block, §V-A).
    Aligned = 2,
    /// Hot valid pages moved by GC (practical-GC paper §III-B).
    Hot = 3,
    /// Cold valid pages moved by GC.
    Cold = 4,
}

/// Number of write streams, and the most write points a plane has.
pub const STREAMS: usize = 5;

impl Stream {
    /// Every stream, in id order.
    pub const ALL: [Stream; STREAMS] = [
        Stream::Host,
        Stream::Gc,
        Stream::Aligned,
        Stream::Hot,
        Stream::Cold,
    ];
}

crate::keyword::keyword_enum!(
    /// Which end of an erase-ordered free pool the hot stream takes its blocks from (`ftl.hot_to`);
    /// the cold stream takes the other end.
    #[derive(Default)]
    HotTo, "ftl.hot_to", {
        /// Hot data to the youngest free blocks, cold data to the oldest (evens wear).
        #[default]
        Young = "young",
        /// Hot data to the oldest free blocks, cold data to the youngest.
        Old = "old",
    }
);

/// The write point and pool end of every stream of a plane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamLayout {
    /// Per stream, the stream whose write point it writes into (itself unless shared): a
    /// `Stream` rather than a number, so that its index is known below [`STREAMS`] (no bounds
    /// check on a plane's write points).
    slot: [Stream; STREAMS],
    take: [Take; STREAMS],
}

impl StreamLayout {
    /// Every stream with its own write point; host, GC and aligned GC data take blocks in the pool's
    /// order, hot data from the end `hot_to` names and cold data from the other.
    pub fn new(hot_to: HotTo) -> StreamLayout {
        let (hot, cold) = match hot_to {
            HotTo::Young => (Take::Youngest, Take::Oldest),
            HotTo::Old => (Take::Oldest, Take::Youngest),
        };
        StreamLayout {
            slot: Stream::ALL,
            take: [Take::Pool, Take::Pool, Take::Pool, hot, cold],
        }
    }

    /// `stream` writes into the write point of `with` (and opens its blocks as `with` does).
    pub fn share(mut self, stream: Stream, with: Stream) -> StreamLayout {
        self.slot[stream as usize] = self.slot[with as usize];
        self.take[stream as usize] = self.take[with as usize];
        self
    }

    /// `stream` takes its new blocks from `take`.
    pub fn taking(mut self, stream: Stream, take: Take) -> StreamLayout {
        self.take[stream as usize] = take;
        self
    }

    /// The write point (index into a plane's write points) of a stream.
    #[inline]
    pub fn slot(&self, stream: Stream) -> usize {
        self.slot[stream as usize] as usize
    }

    /// Where a stream's new blocks come from.
    #[inline]
    pub fn take(&self, stream: Stream) -> Take {
        self.take[stream as usize]
    }
}

impl Default for StreamLayout {
    fn default() -> Self {
        StreamLayout::new(HotTo::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_layout_separates_every_stream() {
        let l = StreamLayout::default();
        let slots: Vec<usize> = Stream::ALL.iter().map(|&s| l.slot(s)).collect();
        assert_eq!(slots, [0, 1, 2, 3, 4]);
        assert_eq!(l.take(Stream::Host), Take::Pool);
        assert_eq!(l.take(Stream::Hot), Take::Youngest);
        assert_eq!(l.take(Stream::Cold), Take::Oldest);
        let old = StreamLayout::new(HotTo::Old);
        assert_eq!(
            (old.take(Stream::Hot), old.take(Stream::Cold)),
            (Take::Oldest, Take::Youngest)
        );
    }

    #[test]
    fn shared_streams_use_one_write_point() {
        let l = StreamLayout::default()
            .share(Stream::Hot, Stream::Gc)
            .share(Stream::Cold, Stream::Gc)
            .taking(Stream::Gc, Take::Oldest);
        assert_eq!(l.slot(Stream::Hot), l.slot(Stream::Gc));
        assert_eq!(l.take(Stream::Cold), Take::Pool);
        assert_eq!(l.take(Stream::Gc), Take::Oldest);
        assert_eq!("old".parse::<HotTo>(), Ok(HotTo::Old));
        assert!("warm".parse::<HotTo>().unwrap_err().contains("young, old"));
    }
}
