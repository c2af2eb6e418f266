//! The island model (docs/islands.md): which island a process is, each island's
//! seed, and the files islands exchange through the run folder — migrants every few rounds,
//! then the finalists and the playoff games — written once by their one writer and waited for
//! by the others; and how far another island has come (its checkpoint), which a fit that pools
//! the islands' games waits for.
//!
//! No locks and no server: a file appears whole (temporary file + rename) and only its island
//! writes it, so a reader that sees it sees the final bytes, on a local disk as on NFS. A
//! restarted island computes the same bytes again; it checks them against the file it wrote
//! before instead of trusting either.
//!
//! `island.rs` is which island a process is; `exchange_files.rs` the exchanged files, published
//! once and waited for; `exchange.rs` an island's exchanges between its rounds and its share of
//! the playoff; `folder.rs` an island's process joining the run folder. The folder's layout is
//! the run folder's (`run_folder/islands.rs`).

mod exchange;
mod exchange_files;
mod folder;
mod island;

pub(super) use exchange::islands_playoff;
pub(super) use exchange_files::DEFAULT_WAIT;
pub(super) use folder::prepare_island_folder;
pub use island::{Island, IslandChoice};
