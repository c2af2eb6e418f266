//! The `play` command: a person plays the engine in the terminal.

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use checkers_tuner::{
    check_output_path, write_file_atomically, Color, DbValue, Error, GameHistory, GameResult, Move,
    PdnGame, Player, Position, Result, Searcher,
};
use clap::{Args, ValueEnum};

use super::egdb::DatabaseArg;
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
    /// The endgame database to search with.
    #[command(flatten)]
    database: DatabaseArg,
    /// Write the game as PDN to this file when it ends (also on quit, with result `*`).
    #[arg(long, value_name = "FILE")]
    pdn: Option<PathBuf>,
}

const HELP: &str = "Enter a move by its number or in notation (9-13, 9x18x27, or short 9x27); \
                    'undo' takes back your last move, 'moves' lists the game, 'board' redraws, \
                    'help' shows this, 'quit' ends.";

/// Runs the command, then writes the game as PDN if asked.
pub fn run(args: PlayArgs) -> Result<()> {
    if let Some(path) = &args.pdn {
        check_output_path(path, "--pdn file")?;
    }
    let start = match &args.fen {
        Some(f) => parse_fen(f)?,
        None => Position::start(),
    };
    let mut moves = Vec::new();
    let outcome = play(&args, start, &mut moves)?;
    if let Some(path) = &args.pdn {
        write_pdn(path, &args, start, moves, outcome)?;
    }
    Ok(())
}

/// How a game in the terminal ended: the result and why, or `None` if the person left it.
type Outcome = Option<(GameResult, &'static str)>;

/// Writes the game to `path` as one PDN game.
fn write_pdn(
    path: &Path,
    args: &PlayArgs,
    start: Position,
    moves: Vec<Move>,
    outcome: Outcome,
) -> Result<()> {
    let engine = format!("checkers-tuner ({})", args.weights);
    let (black, white) = match args.color {
        Side::Black => ("you", engine.as_str()),
        Side::White => (engine.as_str(), "you"),
    };
    let mut game = PdnGame::new(
        "checkers-tuner play",
        "1",
        black,
        white,
        start,
        moves,
        outcome.map(|(result, _)| result),
    );
    game.set_tag(
        "Termination",
        outcome.map_or("unfinished (quit)", |(_, why)| why),
    );
    write_file_atomically(path, game.to_pdn().as_bytes())?;
    println!("game written to {}", path.display());
    Ok(())
}

/// Plays the game in the terminal, recording the moves in `moves`.
fn play(args: &PlayArgs, start: Position, moves_played: &mut Vec<Move>) -> Result<Outcome> {
    let limits = search_limits(args.min_depth, args.max_depth)?;
    let file = load_weights(&args.weights)?;
    let engine = Player {
        weights: &file.weights,
        endgame_pieces: file.endgame_pieces,
        limits: None,
    };
    let mut pos = start;
    let human = match args.color {
        Side::Black => Color::Black,
        Side::White => Color::White,
    };
    let database = args.database.open()?;
    let mut searcher = Searcher::default();
    searcher.set_endgame_db(database);
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
            let (result, why) = match winner {
                Color::Black => (GameResult::BlackWin, "White has no move"),
                Color::White => (GameResult::WhiteWin, "Black has no move"),
            };
            return Ok(Some((result, why)));
        }
        if let Some(value) = database.and_then(|db| db.probe(&pos)) {
            print!("{}", pos.to_diagram());
            let side = pos.side_to_move();
            let (result, why) = match value {
                DbValue::Draw => (GameResult::Draw, "endgame database: a draw"),
                DbValue::Win(_) if side == Color::Black => {
                    (GameResult::BlackWin, "endgame database: Black wins")
                }
                DbValue::Loss(_) if side == Color::White => {
                    (GameResult::BlackWin, "endgame database: Black wins")
                }
                _ => (GameResult::WhiteWin, "endgame database: White wins"),
            };
            let verdict = match result {
                GameResult::Draw => "a draw".to_string(),
                _ if (result == GameResult::BlackWin) == (human == Color::Black) => {
                    "you win".to_string()
                }
                _ => "the engine wins".to_string(),
            };
            let line = match value {
                DbValue::Win(d) => format!("{side:?} to move wins in {d} plies with best play"),
                DbValue::Loss(d) => format!("{side:?} to move loses in {d} plies with best play"),
                DbValue::Draw => "a draw with best play".to_string(),
            };
            println!("Endgame database: {line}; the game ends here: {verdict}.");
            return Ok(Some((result, why)));
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
            moves_played.push(mv);
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
            return Ok(None);
        };
        let line = line.map_err(|e| Error::failure(format!("cannot read the terminal: {e}")))?;
        let text = line.trim();
        match text {
            "" | "board" => continue,
            "quit" | "exit" => {
                println!(
                    "Game left unfinished after {} plies: no result.",
                    moves_played.len()
                );
                return Ok(None);
            }
            "help" | "?" => {
                println!("{HELP}");
                continue;
            }
            "moves" => {
                println!("{}", move_list(&start, moves_played));
                continue;
            }
            "undo" => {
                match take_back(&start, human, moves_played) {
                    Some((back, history)) => {
                        (pos, since_irreversible) = (back, history);
                        println!("Took back your last move.");
                    }
                    None => println!("There is no move of yours to take back."),
                }
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
            Ok(mv) => {
                moves_played.push(mv);
                pos = played(pos, &mv, &mut since_irreversible);
            }
            Err(msg) => println!("{msg}. {HELP}"),
        }
    }
}

/// The game from `start` as numbered move text: `1. 9-13 22-18 2. …` (`1. … 22-18` when White
/// moves first).
fn move_list(start: &Position, moves: &[Move]) -> String {
    if moves.is_empty() {
        return "no moves yet".to_string();
    }
    let mut text = String::new();
    let mut pos = *start;
    for (i, mv) in moves.iter().enumerate() {
        let number = (i + usize::from(start.side_to_move() == Color::White)) / 2 + 1;
        match pos.side_to_move() {
            Color::Black => text.push_str(&format!("{number}. {mv} ")),
            Color::White if i == 0 => text.push_str(&format!("{number}. ... {mv} ")),
            Color::White => text.push_str(&format!("{mv} ")),
        }
        pos = pos.play(mv);
    }
    text.trim_end().to_string()
}

/// Takes back the person's last move (and the engine's replies after it): the position where
/// the person is to move again and its history, or `None` if the person has not moved yet.
fn take_back(
    start: &Position,
    human: Color,
    moves: &mut Vec<Move>,
) -> Option<(Position, Vec<Position>)> {
    // The side to move before each move, to find the person's last one.
    let mut movers = Vec::with_capacity(moves.len());
    let mut pos = *start;
    for mv in moves.iter() {
        movers.push(pos.side_to_move());
        pos = pos.play(mv);
    }
    let last = movers.iter().rposition(|&side| side == human)?;
    moves.truncate(last);
    let mut pos = *start;
    let mut history = Vec::new();
    for mv in moves.iter() {
        pos = played(pos, mv, &mut history);
    }
    Some((pos, history))
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
