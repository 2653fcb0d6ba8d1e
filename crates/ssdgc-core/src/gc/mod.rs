//! Garbage collection: the shared mechanism, the schemes that drive it, and the victim policies.
pub mod victim;
