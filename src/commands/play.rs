//! The `play` command: a person plays the engine in the terminal.

use std::io::{self, BufRead, Write};

use checkers_tuner::{Color, Error, GameHistory, Move, Player, Position, Result, Searcher};
use clap::{Args, ValueEnum};

use super::engine::{load_weights, search_limits};
use super::parse_fen;

/// The colour the person plays.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum Side {
    /// Black moves first.
    Black,
    /// White moves second.
    White,
}

/// Arguments of `play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The engine's weights: a weights file or `material`.
    #[arg(long, default_value = "material")]
    weights: String,
    /// The colour you play.
    #[arg(long, value_enum, default_value_t = Side::Black)]
    color: Side,
    /// The engine's full-width depth.
    #[arg(long, default_value_t = 8)]
    min_depth: u32,
    /// The depth to which the engine follows captures.
    #[arg(long, default_value_t = 14)]
    max_depth: u32,
    /// Start from this position (PDN FEN) instead of the initial one.
    #[arg(long)]
    fen: Option<String>,
}

const HELP: &str = "Enter a move by its number or in notation (9-13, 9x18x27, or short 9x27); \
                    'board' redraws, 'quit' ends.";

/// Runs the command.
pub fn run(args: PlayArgs) -> Result<()> {
    let limits = search_limits(args.min_depth, args.max_depth)?;
    let file = load_weights(&args.weights)?;
    let engine = Player {
        weights: &file.weights,
        endgame_pieces: file.endgame_pieces,
    };
    let mut pos = match &args.fen {
        Some(f) => parse_fen(f)?,
        None => Position::start(),
    };
    let human = match args.color {
        Side::Black => Color::Black,
        Side::White => Color::White,
    };
    let mut searcher = Searcher::default();
    // Keys of the positions since the last irreversible move, before the current one.
    let mut since_irreversible: Vec<Position> = Vec::new();
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let out_err = |e: io::Error| Error::failure(format!("cannot write to the terminal: {e}"));
    println!("You play {human:?}. {HELP}");
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            print!("{}", pos.to_diagram());
            let winner = pos.side_to_move().opponent();
            println!(
                "{:?} has no move: {}.",
                pos.side_to_move(),
                if winner == human {
                    "you win"
                } else {
                    "the engine wins"
                }
            );
            return Ok(());
        }
        if pos.side_to_move() != human {
            // The engine sees the positions since the last irreversible move, so it avoids
            // (or seeks) repetitions as in a tuning game.
            let history = GameHistory {
                positions: &since_irreversible,
                no_progress_plies: None,
            };
            let found =
                searcher.search_in_game(&pos, &history, engine.phase_weights(&pos), limits, None);
            let mv = found.best_move.expect("a side with moves gets a move");
            println!(
                "engine plays {mv} (score {} for the engine, {} nodes)",
                found.score, found.nodes
            );
            pos = played(pos, &mv, &mut since_irreversible);
            continue;
        }
        print!("{}", pos.to_diagram());
        for (i, mv) in moves.iter().enumerate() {
            print!("{:>3}. {mv:<12}", i + 1);
            if i % 4 == 3 {
                println!();
            }
        }
        println!();
        print!("your move> ");
        io::stdout().flush().map_err(out_err)?;
        let Some(line) = lines.next() else {
            println!();
            return Ok(());
        };
        let line = line.map_err(|e| Error::failure(format!("cannot read the terminal: {e}")))?;
        let text = line.trim();
        match text {
            "" | "board" => continue,
            "quit" | "exit" => return Ok(()),
            "help" | "?" => {
                println!("{HELP}");
                continue;
            }
            _ => {}
        }
        let chosen = match text.parse::<usize>() {
            Ok(n) if (1..=moves.len()).contains(&n) => Ok(moves[n - 1]),
            Ok(n) => Err(format!("there is no move number {n}")),
            Err(_) => pos.parse_move(text).map_err(|e| e.to_string()),
        };
        match chosen {
            Ok(mv) => pos = played(pos, &mv, &mut since_irreversible),
            Err(msg) => println!("{msg}. {HELP}"),
        }
    }
}

/// The position after `mv`, keeping `since_irreversible` (the positions since the
/// last irreversible move, before the new current one) up to date.
fn played(pos: Position, mv: &Move, since_irreversible: &mut Vec<Position>) -> Position {
    if pos.is_irreversible(mv) {
        since_irreversible.clear();
    } else {
        since_irreversible.push(pos);
    }
    pos.play(mv)
}
