//! Engine commands: `perft`, `moves`, `analyse`, `bench`.

use std::time::Instant;

use checkers_tuner::{perft_parallel, Error, Position, Result};
use clap::Args;

use super::{parse_fen, thread_pool};

/// Arguments of `perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Start position as PDN FEN (default: the initial position).
    #[arg(long)]
    fen: Option<String>,
    /// Deepest depth to count.
    #[arg(long)]
    depth: u32,
    /// Threads sharing the root moves.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// Arguments of `moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    /// The position as PDN FEN.
    #[arg(long)]
    fen: String,
}

/// Arguments of `analyse`.
#[derive(Args, Debug)]
pub struct AnalyseArgs {}

/// Arguments of `bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {}

/// Runs `moves`.
pub fn moves(args: MovesArgs) -> Result<()> {
    let pos = parse_fen(&args.fen)?;
    for mv in pos.legal_moves() {
        println!("{mv}");
    }
    Ok(())
}

/// Runs `perft`.
pub fn perft(args: PerftArgs) -> Result<()> {
    let pos = match &args.fen {
        Some(f) => parse_fen(f)?,
        None => Position::start(),
    };
    if args.threads == 0 {
        return Err(Error::input("--threads: must be at least 1"));
    }
    let pool = thread_pool(args.threads)?;
    let (mut total_nodes, mut total_secs) = (0u64, 0f64);
    for d in 1..=args.depth {
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

/// Runs `analyse`.
pub fn analyse(_args: AnalyseArgs) -> Result<()> {
    Err(Error::failure("not implemented yet"))
}

/// Runs `bench`.
pub fn bench(_args: BenchArgs) -> Result<()> {
    Err(Error::failure("not implemented yet"))
}
