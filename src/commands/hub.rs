//! The `hub` command: the engine as a Hub-protocol program (Scan's protocol, as pydraughts'
//! `HubEngine` drives it), reading commands on standard input and answering on standard output.
//!
//! One thread reads the input lines, one searches; this thread owns the game state and answers
//! everything else. During a search it answers `ping`, and `stop` ends the search (which still
//! says `done`); any other command waits until the search is over, so a GUI that sends the next
//! position without `stop` gets it searched after the current answer.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use checkers_engine::board::Position;
use checkers_engine::error::Result;
use checkers_engine::game::{Player, SearchMode};
use checkers_engine::hub::{
    move_from_hub, move_to_hub, parse_line, position_from_hub, quote, score_to_hub, HubLevel,
    HubLine,
};
use checkers_engine::search::{
    gene_index, gene_value, Gene, SearchResult, Searcher, TimeBank, GENE_BOUNDS, GENE_KEYS,
};
use checkers_engine::weights_file::WeightsFile;
use clap::Args;

use super::egdb::DatabaseArg;
use super::engine::{Game, SearchModeArg};
use super::engine_weights::EngineWeightsArg;
use super::read_line;

/// Arguments of `hub`.
#[derive(Args, Debug)]
pub struct HubArgs {
    /// The engine's weights.
    #[command(flatten)]
    weights: EngineWeightsArg,
    /// Plies beyond the full-width depth to which captures are followed (0 to 20).
    #[arg(long, default_value_t = DEFAULT_EXTENSION,
          value_parser = clap::value_parser!(u32).range(0..=MAX_EXTENSION as i64))]
    capture_extension: u32,
    /// The endgame database to search with.
    #[command(flatten)]
    database: DatabaseArg,
    /// Which search the engine plays with.
    #[command(flatten)]
    search: SearchModeArg,
}

/// Captures are followed this many plies past the full-width depth by default (as `play`'s
/// default depths 8 and 14).
const DEFAULT_EXTENSION: u32 = 6;
/// Most plies of capture extension.
const MAX_EXTENSION: u32 = 20;
/// The search's table: 2^20 entries (16 MiB).
const TT_BITS: u32 = 20;
/// The English 40-move rule as pydraughts applies it: a draw after 80 plies in a row of king
/// moves without a capture (the search sees it coming).
const NO_PROGRESS_PLIES: u32 = 80;
/// Without a `level` line: full-width depth 8, as `play`.
const DEFAULT_LEVEL: HubLevel = HubLevel::Depth(8);

/// What the input thread and the search thread tell the main thread.
enum Event {
    /// A line from standard input.
    Line(String),
    /// Standard input is closed (or unreadable): the GUI is gone.
    End,
    /// The search finished and printed its `done` line; the searcher comes back, with the
    /// time the move took.
    SearchDone(Box<Searcher>, Duration),
}

/// Whether to go on reading commands.
enum Flow {
    Continue,
    Quit,
}

/// The longest command line read: a `pos` line with a whole game's moves is a few KB.
const MAX_LINE: usize = 1 << 20;

/// Writes one protocol line to standard output and flushes it. A GUI that went away ends the
/// program through SIGPIPE (see `main`); other write errors have no one to be reported to.
fn send(line: &str) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Sends an `error` line.
fn send_error(message: &str) {
    send(&format!("error message={}", quote(message)));
}

/// The game of a `pos` line: the position, then the moves played from it.
fn game_from_line(line: &HubLine) -> std::result::Result<Game, String> {
    let text = line
        .get("pos")
        .ok_or("pos needs pos=<side and 32 squares>")?;
    let mut game = Game::new(position_from_hub(text).map_err(|e| format!("pos: {e}"))?);
    for (k, text) in line
        .get("moves")
        .unwrap_or("")
        .split_whitespace()
        .enumerate()
    {
        let mv = move_from_hub(&game.position, text)
            .map_err(|e| format!("pos: move {} of moves=: {e}", k + 1))?;
        game.play(&mv);
    }
    Ok(game)
}

/// The engine's state between commands.
struct Engine {
    weights: WeightsFile,
    extension: u32,
    game: Game,
    level: HubLevel,
    /// The game's time account at `move-time`: what a forced or easy move saved goes to the
    /// next ones, so that the mean time a move is the time given. Opened again by `new-game`.
    bank: TimeBank,
    /// `None` while a search has it.
    searcher: Option<Box<Searcher>>,
    /// The stop flag of the search under way.
    stop: Option<Arc<AtomicBool>>,
    events: Sender<Event>,
}

/// Runs the command until `quit` or the end of standard input.
pub fn run(args: HubArgs) -> Result<()> {
    let weights = args.weights.load()?;
    let mut searcher = Box::new(Searcher::new(TT_BITS));
    let (database, _) = args
        .database
        .open(&args.weights.database_players(&weights))?;
    searcher.set_endgame_db(database);
    searcher.set_selective(args.search.selective(weights.search));
    let (events, inbox) = mpsc::channel();
    let reader = events.clone();
    thread::spawn(move || {
        let mut input = io::stdin().lock();
        while let Ok(Some(line)) = read_line(&mut input, MAX_LINE) {
            let Some(line) = line else {
                send_error(&format!("a line longer than {MAX_LINE} bytes was ignored"));
                continue;
            };
            // Bytes that are not UTF-8 are replaced: the command's parser refuses them.
            let line = String::from_utf8_lossy(&line).into_owned();
            if reader.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = reader.send(Event::End);
    });
    let mut engine = Engine {
        weights,
        extension: args.capture_extension,
        game: Game::new(Position::start()),
        level: DEFAULT_LEVEL,
        bank: TimeBank::default(),
        searcher: Some(searcher),
        stop: None,
        events,
    };
    engine.serve(&inbox);
    Ok(())
}

impl Engine {
    /// Answers commands until `quit` or the end of input.
    fn serve(&mut self, inbox: &Receiver<Event>) {
        // Commands that arrived during a search, answered once it is over.
        let mut pending: VecDeque<String> = VecDeque::new();
        loop {
            while self.searcher.is_some() {
                let Some(line) = pending.pop_front() else {
                    break;
                };
                if let Flow::Quit = self.command(&line) {
                    return;
                }
            }
            let Ok(event) = inbox.recv() else { return };
            match event {
                Event::Line(line) if self.searcher.is_none() => {
                    match parse_line(&line).ok().flatten().map(|l| l.command) {
                        Some(c) if c == "stop" => self.stop_search(),
                        Some(c) if c == "ping" => send("pong"),
                        Some(c) if c == "ponder-hit" => {}
                        Some(c) if c == "quit" => {
                            self.stop_search();
                            return;
                        }
                        _ => pending.push_back(line),
                    }
                }
                Event::Line(line) => {
                    if let Flow::Quit = self.command(&line) {
                        return;
                    }
                }
                Event::SearchDone(searcher, took) => {
                    self.searcher = Some(searcher);
                    self.stop = None;
                    if let HubLevel::MoveTime(given) = self.level {
                        self.bank.spent(seconds(given), took);
                    }
                }
                Event::End => {
                    self.stop_search();
                    return;
                }
            }
        }
    }

    fn stop_search(&self) {
        if let Some(stop) = &self.stop {
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// Answers one command while no search runs.
    fn command(&mut self, text: &str) -> Flow {
        let line = match parse_line(text) {
            Ok(Some(line)) => line,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                send_error(&e.to_string());
                return Flow::Continue;
            }
        };
        match line.command.as_str() {
            "hub" => {
                send(&format!(
                    "id name=checkers-tuner version={}",
                    env!("CARGO_PKG_VERSION")
                ));
                send("param name=variant value=english type=enum values=\"english\"");
                send(&format!(
                    "param name=capture-extension value={} type=int min=0 max={MAX_EXTENSION}",
                    self.extension
                ));
                // The search in use, and that the GUI may switch it.
                let mode = match self.searcher.as_ref().map(|s| s.selective().is_some()) {
                    Some(false) => "exact",
                    _ => "selective",
                };
                send(&format!(
                    "param name=search value={mode} type=enum values=\"selective exact\""
                ));
                // The selective search's integer keys, which `set-param` changes (as
                // `checkers-tuner spsa` tunes an engine's options).
                let params = self.searcher.as_ref().and_then(|s| s.selective());
                for (index, key) in GENE_KEYS.iter().enumerate() {
                    let (min, max) = GENE_BOUNDS[index];
                    let value = params.map_or(String::new(), |p| {
                        format!(" value={}", Gene::whole(index).get(&p))
                    });
                    send(&format!(
                        "param name={key}{value} type=int min={min} max={max}"
                    ));
                }
                send("wait");
            }
            "set-param" => self.set_param(&line),
            "init" => send("ready"),
            "new-game" => {
                self.game = Game::new(Position::start());
                self.bank = TimeBank::default();
            }
            "pos" => match game_from_line(&line) {
                Ok(game) => self.game = game,
                Err(e) => send_error(&e),
            },
            "level" => match HubLevel::parse(&line) {
                Ok(level) => self.level = level,
                Err(e) => send_error(&e.to_string()),
            },
            "go" => self.go(),
            "ping" => send("pong"),
            "stop" | "ponder-hit" => {}
            "quit" => return Flow::Quit,
            other => send_error(&format!(
                "unknown command {other:?} (known: hub, set-param, init, new-game, pos, level, \
                 go, stop, ping, ponder-hit, quit)"
            )),
        }
        Flow::Continue
    }

    fn set_param(&mut self, line: &HubLine) {
        let value = line.get("value").unwrap_or("");
        match line.get("name") {
            Some("variant") => {
                if !matches!(value, "english" | "american") {
                    send_error(&format!(
                        "variant {value:?} is not played: this engine plays english only"
                    ));
                }
            }
            Some("capture-extension") => match value.parse::<u32>() {
                Ok(n) if n <= MAX_EXTENSION => self.extension = n,
                _ => send_error(&format!(
                    "capture-extension {value:?}: expected a whole number from 0 to {MAX_EXTENSION}"
                )),
            },
            Some("search") => match (value, self.searcher.as_mut()) {
                ("selective" | "exact", Some(searcher)) => {
                    let mode = if value == "exact" {
                        SearchMode::Exact
                    } else {
                        SearchMode::Selective
                    };
                    // The settings of the weights file (or the defaults) stay; only the mode
                    // changes.
                    let params = searcher.selective().unwrap_or_default();
                    searcher.set_selective((mode == SearchMode::Selective).then_some(params));
                }
                ("selective" | "exact", None) => {
                    send_error("search: cannot be changed while a search runs")
                }
                _ => send_error(&format!("search {value:?}: expected selective or exact")),
            },
            Some(name) => match gene_index(name) {
                Some(index) => self.set_gene(index, value),
                None => send_error(&format!("unknown parameter {name:?}")),
            },
            None => send_error("set-param needs name= and value="),
        }
    }

    /// `set-param name=KEY value=V` for the selective key `index` of [`GENE_KEYS`]: checked
    /// against its range (refused with it), for the selective search only.
    fn set_gene(&mut self, index: usize, value: &str) {
        let value = match gene_value(index, value) {
            Ok(value) => value,
            Err(why) => return send_error(&why),
        };
        let Some(searcher) = self.searcher.as_mut() else {
            return send_error(&format!(
                "{}: cannot be changed while a search runs",
                GENE_KEYS[index]
            ));
        };
        let Some(mut params) = searcher.selective() else {
            return send_error(&format!(
                "{}: the search is exact; set-param name=search value=selective first",
                GENE_KEYS[index]
            ));
        };
        Gene::whole(index).set(&mut params, value);
        searcher.set_selective(Some(params));
    }

    /// Starts a search of the current position on its own thread (`go think`, `go ponder` and
    /// `go analyze` alike: all end within the level).
    fn go(&mut self) {
        let pos = self.game.position;
        let moves = pos.legal_moves();
        if moves.is_empty() {
            send_error("the side to move has no legal move: the game is over");
            return;
        }
        let Some(mut searcher) = self.searcher.take() else {
            return;
        };
        let started = Instant::now();
        let stop = Arc::new(AtomicBool::new(false));
        let mut budget = self
            .level
            .budget(self.extension, started, Arc::clone(&stop));
        if moves.len() == 1 && self.level.is_timed() {
            budget.depth = 1;
        }
        if let (HubLevel::MoveTime(given), Some(time)) = (self.level, &mut budget.time) {
            time.target = self.bank.target(seconds(given));
        }
        self.stop = Some(stop);
        let weights = self.weights.clone();
        let game = self.game.clone();
        let events = self.events.clone();
        thread::spawn(move || {
            let history = game.history(Some(NO_PROGRESS_PLIES));
            let evaluator = Player::of_file(&weights).evaluator(&pos);
            let found = searcher.search_timed(&pos, &history, evaluator, &budget, |r| {
                send(&info_line(r, started))
            });
            send(&done_line(&pos, &found));
            let _ = events.send(Event::SearchDone(searcher, started.elapsed()));
        });
    }
}

/// `move-time`'s seconds as a duration (as the level's budget reads them: at least 1 ms).
fn seconds(given: f64) -> Duration {
    Duration::try_from_secs_f64(given.max(0.001)).unwrap_or(Duration::from_secs(1))
}

/// `info depth=… score=… nodes=… time=… nps=… pv="…"` for a finished iteration.
fn info_line(result: &SearchResult, started: Instant) -> String {
    let secs = started.elapsed().as_secs_f64();
    let pv: Vec<String> = result.pv.iter().map(move_to_hub).collect();
    format!(
        "info depth={} score={} nodes={} time={secs:.3} nps={:.2} pv={}",
        result.depth,
        score_to_hub(result),
        result.nodes,
        result.nodes as f64 / secs.max(1e-6) / 1e6,
        quote(&pv.join(" "))
    )
}

/// `done move=… [ponder=…]`: the move, and the expected reply when the line has one.
fn done_line(pos: &Position, found: &SearchResult) -> String {
    let Some(mv) = found.best_move else {
        return "done".to_string();
    };
    let mut line = format!("done move={}", move_to_hub(&mv));
    let after = pos.play(&mv);
    if let Some(reply) = found.pv.get(1).filter(|r| after.legal_moves().contains(r)) {
        line.push_str(&format!(" ponder={}", move_to_hub(reply)));
    }
    line
}
