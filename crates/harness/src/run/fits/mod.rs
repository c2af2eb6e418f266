//! The run's fits (`[evolution] fit_every`): the fitted specimens a fit after a round makes
//! (`fitted.rs`), and the games they learn from: the run's own positions store, or every
//! island's (`pool.rs`), earlier runs' games (`earlier_games.rs`), and the store checked and cut
//! back on resume (`own_store.rs`).

mod earlier_games;
mod fitted;
mod own_store;
mod pool;

pub(super) use earlier_games::{
    check_sources, duplicate_pdn_files, resolve_source, skipped_pdn_games,
};
pub(super) use fitted::{enter, fit_after_round, recorded, Earlier, PatternCache};
pub(super) use own_store::{check_store, cut_store};
pub(super) use pool::{Pool, RoundGames};
