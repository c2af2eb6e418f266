//! checkers-tuner: an English-checkers engine (bitboards, move generation, variable-depth
//! alpha-beta over a ten-feature evaluator) and an evolutionary harness that tunes its weights.
//!
//! The engine is usable without the command line:
//!
//! ```
//! use checkers_tuner::{perft, Position, SearchLimits, Searcher, WeightPair};
//!
//! assert_eq!(perft(&Position::start(), 6), 36_768);
//! let pos = Position::from_fen("B:W25,27,31:B3,9,14,17").unwrap();
//! let weights = WeightPair::material().opening;
//! let found = Searcher::default().search(&pos, &weights, SearchLimits::new(6, 12), None);
//! assert_eq!(found.best_move.unwrap().to_string(), "17-22");
//! ```
#![deny(missing_docs)]

mod atomic_file;
mod bounded;
mod champions;
pub mod checkerboard;
mod egdb;
mod elo;
mod engine;
mod error;
mod eval;
mod export;
mod fit;
mod game;
pub mod hub;
mod input_file;
mod matchplay;
mod players;
mod plot;
mod ranked;
mod rng;
mod run;
mod run_folder;
mod search;
mod spsa;
mod text;
mod tournament;
mod weights_file;

pub use atomic_file::{exit_removing_temporaries, refuse_overwriting, same_file};
pub use egdb::{
    build as build_endgame_db, cache_dir as endgame_cache_dir,
    check_writable as check_endgame_cache_writable, database_path as endgame_db_path,
    open_or_build as open_or_build_endgame_db, DbValue, EgdbError, EndgameDb, Material, Opened,
    CACHE_ENV, MAX_DATABASE_PIECES,
};
pub use elo::{EloEstimate, MatchTally, Sprt, SprtVerdict};
pub use engine::{
    perft, perft_parallel, Color, FenError, HashedPosition, Move, MoveParseError, Position,
    PositionError,
};
pub use error::{Error, Result};
pub use eval::{
    classic_counts, evaluate, evaluate_extended, evaluate_patterns, extended_inputs, extra_names,
    feature_index, features, terms, ClassicCounts, Evaluator, EvaluatorKind, ExtraPair,
    ExtraWeights, FeatureCounts, KingLayout, PatternTables, PatternWeights, RankLayout, Region,
    RegionError, RegionKind, RegionLayout, TermCounts, WeightPair, WeightRange, Weights,
    CLASSIC_COUNT, CLASSIC_NAMES, EXCHANGE_SCALE, EXTENDED_INPUTS, FEATURE_NAMES, KING_SQUARES,
    MAN_SQUARES, MAX_RANK_REGION_SQUARES, MAX_REGION_SQUARES, TERM_NAMES,
};
pub use export::{export_to_file, ExportFormat};
pub use fit::{
    fit, fit_games, Damaged, DatabaseEndings, DeepLabels, FitReport, FitSettings, GameRecords,
    GameStream, Games, LabelSearch, Losses, PdnCounts, ReadNote, ReadReport, RecordedGame,
    DEEP_LABEL_EXTENSION, LISTED_PER_FILE, MAX_ENDING_PLIES, MAX_EPOCHS, MAX_L2_TABLES,
    MAX_LABEL_DEPTH, MAX_LABEL_NODES,
};
pub use game::{
    load_openings_file, parse_openings, parse_pdn_openings, pdn_result, play_game,
    play_game_searching, read_pdn, three_move_deck, Choice, EndReason, Forfeit, GameRecord,
    GameResult, GameScore, GameSettings, Mover, Opening, OpeningsSource, PdnError, PdnGame,
    PdnReader, PlayedGame, Player, SearchMode, SearchParams, SearchValue, Searching, Tally,
    TieBreak, TimeControl, Turn, DECK_NAMES, MAX_NODES, RANDOM_OPENING_BALANCE,
};
pub use matchplay::{
    check_output_path, match_key, match_pdn, play_match, play_match_from, read_match_file,
    read_match_rows, summary_path, write_file_atomically, MatchGame, MatchPlayer, MatchReport,
    MatchSide, PairReport, Thinking,
};
pub use players::{
    serve_checkerboard_library, CheckerBoardEngine, Engine, EnginePlayer, HubEngine,
};
pub use plot::plot_run;
pub use ranked::{champion_from_run, resolve_export_source, weights_from_arg, weights_from_run};
pub use run::{
    commented_defaults, link_dir, resume, tune, tune_island, ChainConfig, Config, EndgameDbLoader,
    GateCandidates, GateConfig, Island, IslandChoice, ObserverFactory, RunObserver, RunOptions,
    RunOutcome, RunSummary, RunView, BEST_FILE,
};
pub use run_folder::{
    holds_run, refuse_writing_runs, run_database_pieces, CHAMPIONS_FILE, CONFIG_FILE, PLAYOFF_FILE,
    RUN_FILES, SPECIMENS_FILE,
};
pub use search::{
    GameHistory, Gene, LimitsError, SearchBudget, SearchGenes, SearchLimits, SearchResult,
    Searcher, SelectiveParams, AVERAGE_HARD_SHARE, AVERAGE_SOFT_SHARE, BUDGET_CHECK_NODES,
    GENE_KEYS, MAX_SEARCH_DEPTH, WIN,
};
pub use spsa::{
    PlayedPair, Schedule, SpsaConfig, SpsaOutcome, SpsaProgress, SpsaRun, Tuned, TunedParam,
    SPSA_BASE_FILE, SPSA_BEST_FILE, SPSA_CONFIG_FILE, SPSA_ROWS_FILE,
};
pub use tournament::{
    ExtraRanges, FeatureRanges, FitSource, Fixed, FixedPdn, FixedSource, LevelSummary,
    OutcomeCounts, PdnFile, RoundStats, Standing,
};
pub use weights_file::{WeightsFile, WeightsSource};
