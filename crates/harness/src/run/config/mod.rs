//! The config of a tuning run (docs/tournament.md; every key in docs/config.md), in rooms:
//!
//! - `run_config.rs`: the sections together as the run's `Config`, its defaults, and its
//!   resolved form, written into the run folder;
//! - `sections.rs`: the run's own sections (the others belong to the layers that use them);
//! - `load.rs`, `checks.rs`, `resolve.rs`: loading, with one clear message per mistake, in
//!   four steps, the relations between keys and the files the config names;
//! - `messages.rs`: where the keys are in the text, and the messages that name them;
//! - `key_docs.rs`, `reference.rs`: what each key does, and the reference file of them all;
//! - `edits.rs`: what may change in a run folder's `config.toml` after the run started;
//! - `estimate.rs`: how long a run of the config is expected to take.

mod checks;
mod edits;
mod estimate;
mod key_docs;
mod load;
mod messages;
mod reference;
mod resolve;
mod run_config;
mod sections;
#[cfg(test)]
mod tests;

pub(super) use edits::{accept_edits, playoff_started, refused_config};
pub use reference::commented_defaults;
pub use run_config::Config;
pub use sections::{ChainConfig, IslandsConfig};
