//! `datagen`: data for the fit as its own workload, as OpenBench's DATAGEN workload and
//! DarkHorse's generator make it (docs/datagen.md). Games of the selective search at node
//! budgets, from random openings kept level by a shallow search, between the weights and
//! themselves or earlier champions, written block by block to a positions store that `fit`
//! reads; each quiet position counted once. Cut into shards (`--shard K/N`) that N processes
//! or machines play at once; `fit` reads a data set's shards in order as the one store a single
//! process would have written.

mod runner;
mod settings;

pub use runner::{DatagenOutcome, DatagenProgress, DatagenRun};
pub use settings::{DatagenConfig, Shard, MAX_BATCH, MAX_BUDGETS, MAX_GAMES, MAX_SHARDS};
