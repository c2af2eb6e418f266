//! Command-line arguments (clap derive) and the dispatch to the library.

use std::time::Instant;

use checkers_tuner::{perft_parallel, Error, Position, Result};
use clap::{Parser, Subcommand};

/// Tunes the evaluation weights of an English-checkers engine by evolution.
#[derive(Parser, Debug)]
#[command(name = "checkers-tuner", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Counts the leaf nodes of the move tree to each depth 1..N: `depth nodes seconds`.
    Perft {
        /// Start position as PDN FEN (default: the initial position).
        #[arg(long)]
        fen: Option<String>,
        /// Deepest depth to count.
        #[arg(long)]
        depth: u32,
        /// Threads sharing the root moves (default 1).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Prints the legal moves of a position, one per line, in generation order.
    Moves {
        /// The position as PDN FEN.
        #[arg(long)]
        fen: String,
    },
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Perft {
            fen,
            depth,
            threads,
        } => perft_command(fen.as_deref(), depth, threads),
        Command::Moves { fen } => {
            let pos = parse_fen(&fen)?;
            for mv in pos.legal_moves() {
                println!("{mv}");
            }
            Ok(())
        }
    }
}

fn parse_fen(fen: &str) -> Result<Position> {
    Position::from_fen(fen).map_err(|e| Error::input(format!("--fen {fen:?}: {e}")))
}

/// A rayon pool of `threads` threads (0 = all cores).
fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::failure(format!("cannot start {threads} threads: {e}")))
}

fn perft_command(fen: Option<&str>, depth: u32, threads: usize) -> Result<()> {
    let pos = match fen {
        Some(f) => parse_fen(f)?,
        None => Position::start(),
    };
    if threads == 0 {
        return Err(Error::input("--threads: must be at least 1"));
    }
    let pool = thread_pool(threads)?;
    let (mut total_nodes, mut total_secs) = (0u64, 0f64);
    for d in 1..=depth {
        let started = Instant::now();
        let nodes = pool.install(|| perft_parallel(&pos, d));
        let secs = started.elapsed().as_secs_f64();
        println!("{d} {nodes} {secs:.3}");
        total_nodes += nodes;
        total_secs += secs;
    }
    if total_secs > 0.0 {
        println!(
            "total {total_nodes} {total_secs:.3} {:.0} nps",
            total_nodes as f64 / total_secs
        );
    }
    Ok(())
}
