//! A night as a chain of runs (`[chain]`, docs/chain.md): `links` runs of one config, one after
//! another, each in its own folder `link-K/` of the chain's folder with its own seed, then a
//! morning fit on every link's games, gated against the last link's best.
//!
//! Why a chain and not one long run: past about 1.5 million positions the fits of one run's own
//! games stop improving, while a fit of several runs' games pooled keeps paying (three 7-minute
//! runs pooled beat the best of one by +40, docs/learning.md). The links are ordinary runs, so
//! each is resumed as one; the chain's own files are written once, at the end, and
//! `morning.csv` is the last of them: a chain folder with it has finished.
//!
//! Determinism: each link is a run with its own seed (`seed + K - 1`), the morning fit is the
//! same on any number of threads, and the gate's openings come from the chain's own stream.

mod data;
mod files;
mod links;
mod morning;
mod play;

/// `plot`'s tests write `data.csv` under the header the chain writes.
#[cfg(test)]
pub(crate) use data::data_header;
pub(super) use links::Runs;
pub(super) use play::run_chain;
