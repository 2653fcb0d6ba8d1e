//! Greedy victim selection: the candidate with the fewest valid pages (LIFO among ties).
//!
//! The policy's index is the FTL's own ([`crate::ftl::greedy`]): the FTL keeps it inline and
//! notifies it without dynamic dispatch, as greedy is the usual policy and its index hears of
//! every host write ([`crate::ftl::candidates::PlaneIndex`]). The index, its cost and its ties
//! are described there.

pub use crate::ftl::greedy::Greedy;
