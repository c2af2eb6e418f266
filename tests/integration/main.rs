//! The integration tests: the binary and the library end to end, in one test binary (one build
//! and one link instead of one per file).

mod bounds;
mod chain;
mod cli_engine;
mod consistency;
mod docs_links;
mod egdb;
mod engine_rules;
mod engines;
mod export;
mod export_cli;
mod extended;
mod fit;
mod fit_with;
mod gate;
mod hub;
mod inputs_kept;
mod islands;
mod king_regions;
mod matchplay;
mod nothing_lost;
mod output_files;
mod pdn;
mod perft;
mod plot;
mod rank_regions;
mod records;
mod run_folder;
mod search;
mod selective;
mod spsa;
mod start;
mod support;
mod timed_search;
mod trust;
mod tune;
