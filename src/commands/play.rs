//! The `play` command: a person plays the engine in the terminal.

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use checkers_tuner::{
    check_output_path, refuse_overwriting, write_file_atomically, Color, DbValue, Error,
    GameResult, Move, PdnGame, Player, Position, Result, Searcher, WeightsFile,
};
use clap::{Args, ValueEnum};

use super::egdb::{DatabaseArg, Holding};
use super::engine::{search_limits, Game};
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
        if args.weights != "material" {
            refuse_overwriting(path, "--pdn", &[("--weights", Path::new(&args.weights))])?;
        }
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
type Outcome = Option<(GameResult, String)>;

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
        outcome.as_ref().map(|(result, _)| *result),
    );
    game.set_tag(
        "Termination",
        outcome.as_ref().map_or("unfinished (quit)", |(_, why)| why),
    );
    write_file_atomically(path, game.to_pdn().as_bytes())?;
    println!("game written to {}", path.display());
    Ok(())
}

/// Plays the game in the terminal, recording the moves in `moves`.
fn play(args: &PlayArgs, start: Position, moves_played: &mut Vec<Move>) -> Result<Outcome> {
    let limits = search_limits(args.min_depth, args.max_depth)?;
    let file = WeightsFile::load_arg(&args.weights)?;
    let engine = Player::of_file(&file);
    let human = match args.color {
        Side::Black => Color::Black,
        Side::White => Color::White,
    };
    let database = args.database.open(Holding::Mapped)?;
    let mut searcher = Searcher::default();
    searcher.set_endgame_db(database);
    let mut game = Game::new(start);
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let out_err = |e: io::Error| Error::failure(format!("cannot write to the terminal: {e}"));
    let verdict = |winner: Color| {
        if winner == human {
            "you win"
        } else {
            "the engine wins"
        }
    };
    println!("You play {human:?}. {HELP}");
    loop {
        let pos = game.position;
        let side = pos.side_to_move();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            print!("{}", pos.to_diagram());
            let winner = side.opponent();
            println!("{side:?} has no move: {}.", verdict(winner));
            return Ok(Some((won_by(winner), format!("{side:?} has no move"))));
        }
        if let Some(value) = database.and_then(|db| db.probe(&pos)) {
            print!("{}", pos.to_diagram());
            let (line, winner) = match value {
                DbValue::Win(d) => (
                    format!("{side:?} to move wins in {d} plies with best play"),
                    Some(side),
                ),
                DbValue::Loss(d) => (
                    format!("{side:?} to move loses in {d} plies with best play"),
                    Some(side.opponent()),
                ),
                DbValue::Draw => ("a draw with best play".to_string(), None),
            };
            println!(
                "Endgame database: {line}; the game ends here: {}.",
                winner.map_or("a draw", verdict)
            );
            return Ok(Some(match winner {
                Some(w) => (won_by(w), format!("endgame database: {w:?} wins")),
                None => (GameResult::Draw, "endgame database: a draw".to_string()),
            }));
        }
        if side != human {
            let history = game.history(None);
            let found =
                searcher.search_in_game(&pos, &history, engine.evaluator(&pos), limits, None);
            let mv = found.best_move.expect("a side with moves gets a move");
            println!(
                "engine plays {mv} (score {} for the engine, {} nodes)",
                found.score, found.nodes
            );
            moves_played.push(mv);
            game.play(&mv);
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
                    Some(back) => {
                        game = back;
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
                game.play(&mv);
            }
            Err(msg) => println!("{msg}. {HELP}"),
        }
    }
}

/// The result of a game that `winner` won.
fn won_by(winner: Color) -> GameResult {
    match winner {
        Color::Black => GameResult::BlackWin,
        Color::White => GameResult::WhiteWin,
    }
}

/// The game from `start` as numbered move text: `1. 9-13 22-18 2. …` (`1. … 22-18` when White
/// moves first).
fn move_list(start: &Position, moves: &[Move]) -> String {
    if moves.is_empty() {
        return "no moves yet".to_string();
    }
    // Plies counted from Black's first move: the sides alternate, Black on even plies.
    let first_ply = usize::from(start.side_to_move() == Color::White);
    let words: Vec<String> = (first_ply..)
        .zip(moves)
        .map(|(ply, mv)| match (ply % 2, ply == first_ply) {
            (0, _) => format!("{}. {mv}", ply / 2 + 1),
            (_, true) => format!("{}. ... {mv}", ply / 2 + 1),
            _ => mv.to_string(),
        })
        .collect();
    words.join(" ")
}

/// Takes back the person's last move (and the engine's replies after it): the game where the
/// person is to move again, or `None` if the person has not moved yet.
fn take_back(start: &Position, human: Color, moves: &mut Vec<Move>) -> Option<Game> {
    // The sides alternate: the person's moves are every other one from their first.
    let first = usize::from(start.side_to_move() != human);
    let last = (first..moves.len()).step_by(2).next_back()?;
    moves.truncate(last);
    let mut game = Game::new(*start);
    for mv in moves.iter() {
        game.play(mv);
    }
    Some(game)
}
