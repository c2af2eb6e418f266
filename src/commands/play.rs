//! The `play` command: a person plays the engine in the terminal.

use std::io;
use std::path::PathBuf;

use checkers_engine::atomic_file::{
    check_output_path, refuse_overwriting, write_output_atomically,
};
use checkers_engine::board::{Color, Move, Position};
use checkers_engine::egdb::{DbValue, EndgameDb};
use checkers_engine::error::{Error, Result};
use checkers_engine::game::{GameResult, PdnGame, Player};
use checkers_engine::search::{SearchLimits, Searcher};
use checkers_engine::weights_file::WeightsFile;
use checkers_harness::run_folder::refuse_writing_runs;
use clap::{Args, ValueEnum};

use super::egdb::{DatabaseArg, DatabaseChoice};
use super::engine::{search_limits, Game, SearchModeArg};
use super::engine_weights::EngineWeightsArg;
use super::output::{self, out, outln};
use super::{parse_fen, read_line};

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
    /// The engine's weights.
    #[command(flatten)]
    weights: EngineWeightsArg,
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
    /// Write the game as PDN to this file after every move (result `*` while it goes on) and
    /// once more when it ends, however it ends (`quit`, Ctrl-C, the end of the input).
    #[arg(long, value_name = "FILE")]
    pdn: Option<PathBuf>,
    /// Which search the engine plays with.
    #[command(flatten)]
    search: SearchModeArg,
}

const HELP: &str = "Enter a move by its number or in notation (9-13, 9x18x27, or short 9x27); \
                    'undo' takes back your last move, 'moves' lists the game, 'board' redraws, \
                    'help' shows this, 'quit' ends.";

/// Runs the command. With `--pdn`, the game file is rewritten after every move (result `*`)
/// and once more when the game ends, however it ends: a result, `quit`, the end of the input,
/// an error, or Ctrl-C (which ends the process between two saves). No move played is lost.
pub fn run(args: PlayArgs) -> Result<()> {
    if let Some(path) = &args.pdn {
        check_output_path(path, "--pdn file")?;
        let mut inputs = Vec::new();
        if let Some(weights) = args.weights.input_path() {
            refuse_overwriting(path, "--pdn", &[("--weights", weights)])?;
            inputs.push(weights);
        }
        // Also without a weights file: a file of any run folder is that run's alone.
        refuse_writing_runs(path, "--pdn", &inputs)?;
    }
    let start = match &args.fen {
        Some(f) => parse_fen(f)?,
        None => Position::start(),
    };
    // Everything that can refuse the arguments is checked before the game (and its file) starts.
    let engine = Engine::new(&args)?;
    let record = Record { args: &args, start };
    let mut moves = Vec::new();
    let ended = play(&args, &engine, &record, &mut moves);
    let Some(path) = &args.pdn else {
        return ended.map(drop);
    };
    let outcome = match &ended {
        Ok(outcome) => outcome.clone(),
        Err(e) => Ending::Unfinished(format!("unfinished ({e})")),
    };
    let saved = record.save(&moves, &outcome);
    ended?;
    saved?;
    outln!("game written to {}", path.display())
}

/// How a game in the terminal ended.
#[derive(Clone, Debug)]
enum Ending {
    /// A result, and why.
    Result(GameResult, String),
    /// No result (the `Termination` tag says why).
    Unfinished(String),
}

/// The game's PDN file, rewritten whole (atomically) at every save.
struct Record<'a> {
    args: &'a PlayArgs,
    start: Position,
}

impl Record<'_> {
    /// Writes the game so far to `--pdn`, if given; an unfinished game gets the result `*`.
    fn save(&self, moves: &[Move], ending: &Ending) -> Result<()> {
        let Some(path) = &self.args.pdn else {
            return Ok(());
        };
        let engine = format!("checkers-tuner ({})", self.args.weights.name());
        let (black, white) = match self.args.color {
            Side::Black => ("you", engine.as_str()),
            Side::White => (engine.as_str(), "you"),
        };
        let (result, why) = match ending {
            Ending::Result(result, why) => (Some(*result), why.as_str()),
            Ending::Unfinished(why) => (None, why.as_str()),
        };
        let mut game = PdnGame::new(
            "checkers-tuner play",
            "1",
            black,
            white,
            self.start,
            moves.to_vec(),
            result,
        );
        game.set_tag("Termination", why);
        write_output_atomically(path, game.to_pdn().as_bytes())
    }
}

/// The engine's side of the game: weights, depths and database.
struct Engine {
    limits: SearchLimits,
    weights: WeightsFile,
    database: Option<&'static EndgameDb>,
    /// Which database and why, told before the game.
    database_choice: DatabaseChoice,
}

impl Engine {
    fn new(args: &PlayArgs) -> Result<Engine> {
        let limits = search_limits(args.min_depth, args.max_depth)?;
        let weights = args.weights.load()?;
        let (database, database_choice) = args
            .database
            .open(&args.weights.database_players(&weights))?;
        Ok(Engine {
            limits,
            weights,
            database,
            database_choice,
        })
    }
}

/// The longest line of input read: a move or a command is a few bytes.
const MAX_LINE: usize = 4096;

/// What a save after a move says of the game.
const IN_PROGRESS: &str = "unfinished (in progress)";

/// Plays the game in the terminal, recording the moves in `moves_played` and saving the record
/// after each one.
fn play(
    args: &PlayArgs,
    engine: &Engine,
    record: &Record,
    moves_played: &mut Vec<Move>,
) -> Result<Ending> {
    let human = match args.color {
        Side::Black => Color::Black,
        Side::White => Color::White,
    };
    let (limits, database) = (engine.limits, engine.database);
    let player = Player::of_file(&engine.weights);
    let start = record.start;
    let mut searcher = Searcher::default();
    searcher.set_endgame_db(database);
    let table = engine.weights.search;
    searcher.set_selective(args.search.selective(table));
    let in_progress = Ending::Unfinished(IN_PROGRESS.to_string());
    record.save(moves_played, &in_progress)?;
    let mut game = Game::new(start);
    let mut input = io::stdin().lock();
    let verdict = |winner: Color| {
        if winner == human {
            "you win"
        } else {
            "the engine wins"
        }
    };
    outln!("You play {human:?}. {HELP}")?;
    outln!("Endgame database: {}.", engine.database_choice)?;
    outln!("Search: {}.", args.search.describe(table))?;
    loop {
        let pos = game.position;
        let side = pos.side_to_move();
        let moves = pos.legal_moves();
        if moves.is_empty() {
            out!("{}", pos.to_diagram())?;
            let winner = side.opponent();
            outln!("{side:?} has no move: {}.", verdict(winner))?;
            return Ok(Ending::Result(
                won_by(winner),
                format!("{side:?} has no move"),
            ));
        }
        if let Some(value) = database.and_then(|db| db.probe(&pos)) {
            out!("{}", pos.to_diagram())?;
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
            outln!(
                "Endgame database: {line}; the game ends here: {}.",
                winner.map_or("a draw", verdict)
            )?;
            return Ok(match winner {
                Some(w) => Ending::Result(won_by(w), format!("endgame database: {w:?} wins")),
                None => Ending::Result(GameResult::Draw, "endgame database: a draw".to_string()),
            });
        }
        if side != human {
            let history = game.history(None);
            let found =
                searcher.search_in_game(&pos, &history, player.evaluator(&pos), limits, None);
            let mv = found.best_move.expect("a side with moves gets a move");
            outln!(
                "engine plays {mv} (score {} for the engine, {} nodes)",
                found.score,
                found.nodes
            )?;
            moves_played.push(mv);
            game.play(&mv);
            record.save(moves_played, &in_progress)?;
            continue;
        }
        out!("{}", pos.to_diagram())?;
        for (i, mv) in moves.iter().enumerate() {
            out!("{:>3}. {mv:<12}", i + 1)?;
            if i % 4 == 3 {
                outln!()?;
            }
        }
        outln!()?;
        out!("your move> ")?;
        output::flush_out()?;
        let Some(line) = read_line(&mut input, MAX_LINE)
            .map_err(|e| Error::failure(format!("cannot read the terminal: {e}")))?
        else {
            outln!()?;
            return Ok(Ending::Unfinished("unfinished (end of input)".to_string()));
        };
        let Some(line) = line else {
            outln!("That line is longer than {MAX_LINE} bytes. {HELP}")?;
            continue;
        };
        let Ok(text) = std::str::from_utf8(&line) else {
            outln!("That line is not text (UTF-8). {HELP}")?;
            continue;
        };
        let text = text.trim();
        match text {
            "" | "board" => continue,
            "quit" | "exit" => {
                outln!(
                    "Game left unfinished after {} plies: no result.",
                    moves_played.len()
                )?;
                return Ok(Ending::Unfinished("unfinished (quit)".to_string()));
            }
            "help" | "?" => {
                outln!("{HELP}")?;
                continue;
            }
            "moves" => {
                outln!("{}", move_list(&start, moves_played))?;
                continue;
            }
            "undo" => {
                match take_back(&start, human, moves_played) {
                    Some(back) => {
                        game = back;
                        record.save(moves_played, &in_progress)?;
                        outln!("Took back your last move.")?;
                    }
                    None => outln!("There is no move of yours to take back.")?,
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
                record.save(moves_played, &in_progress)?;
            }
            Err(msg) => outln!("{msg}. {HELP}")?,
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
