//! Command-line arguments (clap derive) and the dispatch to one module per command.

use checkers_engine::error::Result;
use clap::{CommandFactory, Parser, Subcommand};

use crate::commands;

/// Tunes the evaluation weights of an English-checkers engine by evolution.
#[derive(Parser, Debug)]
#[command(name = "checkers-tuner", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Runs a tuning run from a TOML config; output in results/<name> or --out.
    Tune(commands::tune::TuneArgs),
    /// Continues an interrupted tuning run from its last completed round.
    Resume(commands::tune::ResumeArgs),
    /// Writes a specimen's weights for other engines (json, csv, toml, openbench or a C header).
    Export(commands::export::ExportArgs),
    /// Fits weights to recorded games (run folders, PDN files): the Texel method.
    // Boxed: the fit has the most options, and the other commands need not carry their room.
    Fit(Box<commands::fit::FitArgs>),
    /// Plays games at node budgets into a data set for `fit` (a shard of it with --shard K/N).
    Datagen(commands::datagen::DatagenArgs),
    /// Tunes by SPSA the selective search's keys of a weights file at a node budget, or an
    /// engine's options (cb:, hub:) at a time a move.
    Spsa(commands::spsa::SpsaArgs),
    /// Plays A against B over paired openings and reports the score and Elo, or a tournament
    /// of N players (--tournament) with a rating list.
    // Boxed: its many options would make every variant as large.
    Match(Box<commands::matchplay::MatchArgs>),
    /// Draws a run's round statistics as an SVG (or PNG) picture.
    Plot(commands::plot::PlotArgs),
    /// Counts the leaf nodes of the move tree to each depth 1..N: `depth nodes seconds`.
    Perft(commands::engine::PerftArgs),
    /// Prints the legal moves of a position, one per line, in generation order.
    Moves(commands::engine::MovesArgs),
    /// Searches one position: `bestmove MOVE score S depth D nodes N` (S in hundredths of a man,
    /// or `win D` / `loss D` in plies), then the PV.
    Analyse(commands::engine::AnalyseArgs),
    /// A fixed search benchmark: `name nodes seconds nps` per position, then the total.
    Bench(commands::engine::BenchArgs),
    /// Play against the engine in the terminal.
    Play(commands::play::PlayArgs),
    /// The endgame database: `egdb build [--pieces N]`, `egdb probe --fen FEN`.
    Egdb(commands::egdb::EgdbArgs),
    /// Runs as a Hub-protocol engine on standard input/output (for pydraughts' HubEngine).
    Hub(commands::hub::HubArgs),
    /// Hosts a CheckerBoard engine library for `match` (`cb:LIBRARY` players): loads it and
    /// calls it as the match asks on standard input, so a crash or a hang of the library ends
    /// this process, not the match (docs/engines.md).
    #[command(hide = true)]
    CbHost(CbHostArgs),
    /// Prints a shell completion script: `checkers-tuner completions bash > …`.
    Completions(CompletionsArgs),
    /// Prints the config reference: every key with its default and what it does.
    Config(ConfigArgs),
}

/// Arguments of `config`.
#[derive(clap::Args, Debug)]
struct ConfigArgs {
    /// Print a complete config with every key at its default, each key commented.
    #[arg(long, required = true)]
    defaults: bool,
}

/// Arguments of `cb-host`.
#[derive(clap::Args, Debug)]
struct CbHostArgs {
    /// The library: a CheckerBoard engine (.so, .dylib or .dll).
    library: std::path::PathBuf,
}

/// Arguments of `completions`.
#[derive(clap::Args, Debug)]
struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Tune(args) => commands::tune::tune(args),
        Command::Resume(args) => commands::tune::resume(args),
        Command::Export(args) => commands::export::run(args),
        Command::Fit(args) => commands::fit::run(*args),
        Command::Spsa(args) => commands::spsa::run(args),
        Command::Datagen(args) => commands::datagen::run(args),
        Command::Match(args) => commands::matchplay::run(*args),
        Command::Plot(args) => commands::plot::run(args),
        Command::Perft(args) => commands::engine::perft(args),
        Command::Moves(args) => commands::engine::moves(args),
        Command::Analyse(args) => commands::engine::analyse(args),
        Command::Bench(args) => commands::engine::bench(args),
        Command::Play(args) => commands::play::run(args),
        Command::Hub(args) => commands::hub::run(args),
        Command::CbHost(args) => {
            checkers_harness::players::serve_checkerboard_library(&args.library)
        }
        Command::Egdb(args) => commands::egdb::run(args),
        Command::Config(_) => commands::output::write_out_bytes(
            checkers_harness::run::commented_defaults().as_bytes(),
        ),
        Command::Completions(args) => {
            // Generated from the same definitions that parse the arguments, so they never drift;
            // into memory first, since the generator panics on a failed write.
            let mut command = Cli::command();
            let mut script = Vec::new();
            clap_complete::generate(args.shell, &mut command, "checkers-tuner", &mut script);
            commands::output::write_out_bytes(&script)
        }
    }
}
