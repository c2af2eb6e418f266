//! The run folder (docs/run-folder.md): its on-disk format in one place, shared by the run that
//! writes it and the commands that read it (`plot`, `export`, `fit`, `match`). Nothing here
//! plays a game: the run (`crate::run`) decides what to write and when, through these.
//!
//! - `names.rs`: the names of its files and folders;
//! - `config_file.rs`: its `config.toml` read back (a run's mark, its identity, its keys);
//! - `rows.rs` and `appends.rs`: the rows of its CSV files, and the files appended round by
//!   round with the lengths a checkpoint records;
//! - `csv_table.rs`: the one reader of its CSV files;
//! - `cut_back.rs`: the appended files checked and cut back to a checkpoint on resume;
//! - `entries.rs`: what a run refuses or takes for another's in its folder, and `--force`;
//! - `islands.rs`: an island-model run's layout and merged files;
//! - `fitted_tables.rs`: the fitted specimens' pattern weights (`tables/`);
//! - `champions/`: a gated run's champions;
//! - `weights.rs`: a finished run's specimens as weights files (`export`, `match RUN`);
//! - `write_guard.rs`: no other writer writes over a run's files.

mod appends;
mod champions;
mod config_file;
mod csv_table;
mod cut_back;
mod data_set;
mod entries;
mod fitted_tables;
mod islands;
mod names;
mod rows;
mod weights;
mod write_guard;

pub(crate) use appends::{append, append_counted, start_files, FileLengths, FileProof};
pub(crate) use champions::{
    champion_file, check_champions, cut_champions, start_champions, CandidateKind, GateRecord,
    GatedChampion,
};
pub use champions::{
    check_champion_file, kept_per_round, read_champions_file, ChampionsIndex, Crowned, GateRow,
    CHAMPIONS_HEADER,
};
pub use config_file::{database_pieces_of, holds_run, read_config_table, run_database_pieces};
pub(crate) use config_file::{run_identity, run_identity_of, EDITABLE_KEYS};
pub use csv_table::{line_of, Column, CsvRows, CsvTable};
pub(crate) use cut_back::{check_recorded, cut_recorded};
pub use data_set::{
    data_set_stores, parse_shard_dir_name, shard_dir_name, DATAGEN_CONFIG_FILE,
    DATAGEN_WEIGHTS_FILE,
};
pub(crate) use entries::{clear_run, foreign_entry, refuse_irregular_files};
pub(crate) use fitted_tables::{attach_tables, load_start_copy, tables_path, write_tables};
pub(crate) use islands::{
    finalists_file, is_island_entry, island_dir, merge_islands, migrants_file, playoff_games_file,
    remove_island_temporaries, MAX_ISLANDS,
};
pub use names::{
    champion_path, champion_round, data_champion_path, data_fit_path, data_set_dir, interim_path,
    link_dir, BEST_FILE, CHAIN_FILE, CHAMPIONS_DIR, CHAMPIONS_FILE, CHECKPOINT_FILE, CONFIG_FILE,
    DATA_DIR, DATA_RESULT_FILE, GAMES_FILE, GAMES_PDN_FILE, INTERIM_DIR, LEARNING_FILE, LOCK_FILE,
    MORNING_FILE, MORNING_RESULT_FILE, PLAYOFF_FILE, POSITIONS_FILE, ROUNDS_FILE, RUN_FILES,
    SPECIMENS_FILE, TABLES_DIR, TIMINGS_FILE,
};
pub(crate) use rows::{
    learning_record, playoff_header, specimen_record, timings_record, SpecimenColumns,
};
pub use weights::{champion_from_run, resolve_export_source, weights_from_arg, weights_from_run};
pub use write_guard::refuse_writing_runs;
