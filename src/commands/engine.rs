//! Engine commands: `perft`, `moves`, `analyse`, `bench`.

use std::time::Instant;

use checkers_engine::board::{perft_parallel, Move, Position};
use checkers_engine::egdb::MAX_DATABASE_PIECES;
use checkers_engine::error::{Error, Result};
use checkers_engine::eval::WeightPair;
use checkers_engine::game::{Player, SearchMode, SearchParams};
use checkers_engine::search::{GameHistory, SearchLimits, SearchResult, Searcher, SelectiveParams};
use checkers_engine::weights_file::WeightsFile;
use clap::Args;

use super::egdb::{open_database, DatabaseArg};
use super::engine_weights::EngineWeightsArg;
use super::output::outln;
use super::search_args::search_mode;
use super::{parse_fen, thread_pool};

/// Deepest `perft --depth`: depth 20 already runs for days.
const MAX_PERFT_DEPTH: i64 = 20;

/// Arguments of `perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Start position as PDN FEN (default: the initial position).
    #[arg(long)]
    fen: Option<String>,
    /// Deepest depth to count (1 to 20).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_PERFT_DEPTH))]
    depth: u32,
    /// Threads sharing the root moves.
    #[arg(long, default_value_t = 1, value_parser = super::threads_arg)]
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
pub struct AnalyseArgs {
    /// The position as PDN FEN.
    #[arg(long)]
    fen: String,
    /// The weights to search with.
    #[command(flatten)]
    weights: EngineWeightsArg,
    /// Full-width search depth in plies.
    #[arg(long, default_value_t = SearchParams::default().min_depth)]
    min_depth: u32,
    /// Depth to which captures are followed.
    #[arg(long, default_value_t = SearchParams::default().max_depth)]
    max_depth: u32,
    /// The endgame database to search with.
    #[command(flatten)]
    database: DatabaseArg,
    /// Which search.
    #[command(flatten)]
    search: SearchModeArg,
}

/// `--search` of `analyse`, `play` and `hub`: which search the engine plays with.
#[derive(Args, Clone, Copy, Debug)]
pub struct SearchModeArg {
    /// The engine's search: `selective` (the default, the strongest: deeper in the same time)
    /// or `exact` (plain minimax's value, the search tuning uses).
    /// A weights file's `search` table decides when this is not given (its selective keys
    /// apply either way).
    #[arg(
        long = "search",
        value_parser = search_mode(),
        value_name = "exact|selective",
        hide_possible_values = true
    )]
    pub mode: Option<SearchMode>,
}

impl SearchModeArg {
    /// The mode: the command line's, else the weights file's `table`, else selective.
    pub fn mode(&self, table: Option<SearchParams>) -> SearchMode {
        self.mode
            .or(table.map(|t| t.mode))
            .unwrap_or(SearchMode::Selective)
    }

    /// The selective settings to search with (the weights file's `table`, else the
    /// defaults), or `None` for the exact search.
    pub fn selective(&self, table: Option<SearchParams>) -> Option<SelectiveParams> {
        SearchParams {
            mode: self.mode(table),
            ..table.unwrap_or_default()
        }
        .selective()
    }

    /// The line that says which search the engine uses.
    pub fn describe(&self, table: Option<SearchParams>) -> &'static str {
        match self.mode(table) {
            SearchMode::Selective => {
                "selective (the strongest; --search exact for plain minimax's value)"
            }
            SearchMode::Exact => "exact (plain minimax's value, as tuning searches)",
        }
    }
}

/// Arguments of `bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Full-width depth for every position (default: each position's own).
    #[arg(long)]
    depth: Option<u32>,
    /// Plain alpha-beta (no transposition table, killers or iterative deepening), to see
    /// what they save.
    #[arg(long)]
    plain: bool,
    /// Search with the endgame database of this many pieces (default: none, the benchmark of
    /// the engine alone; built into the cache at first use).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=MAX_DATABASE_PIECES as i64))]
    database_pieces: Option<u32>,
    /// Search with this weights file's evaluator and weights (default: fixed ten-feature
    /// weights that exercise every feature), to measure what an evaluator costs.
    #[arg(long, value_name = "FILE")]
    weights: Option<String>,
}

/// Checks a `--min-depth`/`--max-depth` pair by [`SearchLimits::try_new`].
pub fn search_limits(min_depth: u32, max_depth: u32) -> Result<SearchLimits> {
    SearchLimits::try_new(min_depth, max_depth)
        .map_err(|e| Error::input(e.describe("--min-depth", "--max-depth")))
}

/// A game as the engine sees it (`play`, `hub`): the position to search and the positions since
/// the last irreversible move before it, so that the search avoids (or seeks) repetitions.
#[derive(Clone, Debug)]
pub struct Game {
    /// The current position.
    pub position: Position,
    /// The positions since the last irreversible move, before the current one.
    pub since_irreversible: Vec<Position>,
}

impl Game {
    /// A game starting at `position`.
    pub fn new(position: Position) -> Game {
        Game {
            position,
            since_irreversible: Vec::new(),
        }
    }

    /// Plays `mv`, keeping the history up to date.
    pub fn play(&mut self, mv: &Move) {
        if self.position.is_irreversible(mv) {
            self.since_irreversible.clear();
        } else {
            self.since_irreversible.push(self.position);
        }
        self.position = self.position.play(mv);
    }

    /// The history for the search, with the no-progress rule `no_progress_plies`.
    pub fn history(&self, no_progress_plies: Option<u32>) -> GameHistory<'_> {
        GameHistory {
            positions: &self.since_irreversible,
            no_progress_plies,
        }
    }
}

/// Runs `moves`.
pub fn moves(args: MovesArgs) -> Result<()> {
    let pos = parse_fen(&args.fen)?;
    for mv in pos.legal_moves() {
        outln!("{mv}")?;
    }
    Ok(())
}

/// Runs `perft`.
pub fn perft(args: PerftArgs) -> Result<()> {
    let pos = match &args.fen {
        Some(f) => parse_fen(f)?,
        None => Position::start(),
    };
    let pool = thread_pool(args.threads)?;
    let (mut total_nodes, mut total_secs) = (0u64, 0f64);
    for d in 1..=args.depth {
        let started = Instant::now();
        let nodes = pool.install(|| perft_parallel(&pos, d));
        let secs = started.elapsed().as_secs_f64();
        outln!("{d} {nodes} {secs:.3}")?;
        total_nodes += nodes;
        total_secs += secs;
    }
    if total_secs > 0.0 {
        outln!(
            "total {total_nodes} {total_secs:.3} {:.0} nps",
            total_nodes as f64 / total_secs
        )?;
    }
    Ok(())
}

/// Runs `analyse`.
pub fn analyse(args: AnalyseArgs) -> Result<()> {
    let pos = parse_fen(&args.fen)?;
    let limits = search_limits(args.min_depth, args.max_depth)?;
    let file = args.weights.load()?;
    let player = Player::of_file(&file);
    let (database, _) = args.database.open(&args.weights.database_players(&file))?;
    let mut searcher = Searcher::default();
    searcher.set_endgame_db(database);
    let table = file.search;
    searcher.set_selective(args.search.selective(table));
    let result = searcher.search(&pos, player.evaluator(&pos), limits, None);
    let best = result
        .best_move
        .map_or_else(|| "none".to_string(), |m| m.to_string());
    outln!(
        "bestmove {best} score {} depth {} nodes {}",
        score_text(&result),
        result.depth,
        result.nodes
    )?;
    let pv: Vec<String> = result.pv.iter().map(|m| m.to_string()).collect();
    outln!("pv {}", pv.join(" "))?;
    if let Some(value) = database.and_then(|db| db.probe(&pos)) {
        outln!("database {value}")?;
    }
    outln!("search {}", args.search.describe(table))?;
    Ok(())
}

/// A search's score as `analyse` prints it: hundredths of a man for the side to move, or `win D`
/// / `loss D` when the search proves that the game ends in D plies (the search's own score is
/// then `WIN - D` or `-(WIN - D)`, docs/engine.md), as `egdb probe` writes a database value.
fn score_text(result: &SearchResult) -> String {
    match result.mate_distance() {
        Some(d) if d >= 0 => format!("win {d}"),
        Some(d) => format!("loss {}", -d),
        None => result.score.to_string(),
    }
}

/// The benchmark's positions: name, FEN, full-width depth, capture depth.
const BENCH_POSITIONS: [(&str, &str, u32, u32); 3] = [
    ("start", "B:W21-32:B1-12", 14, 20),
    (
        "middlegame",
        "B:W17,19,21,22,24,25,26,27,28,30,31:B1,2,3,5,6,7,8,10,11,14,15",
        16,
        22,
    ),
    ("kings", "W:WK10,K19,27,29:BK14,K23,3,6", 14, 20),
];

/// Fixed weights that exercise every feature.
const BENCH_WEIGHTS: WeightPair = WeightPair {
    opening: checkers_engine::eval::Weights([100, 150, 10, 5, 8, 12, -3, 6, 4, 9]),
    endgame: checkers_engine::eval::Weights([100, 160, 2, 8, 3, 10, -5, 9, 6, 11]),
};

/// Runs `bench`.
pub fn bench(args: BenchArgs) -> Result<()> {
    let database = open_database(args.database_pieces.unwrap_or(0))?;
    let file = match &args.weights {
        Some(arg) => checkers_harness::run_folder::weights_from_arg(arg)?,
        None => WeightsFile::new(BENCH_WEIGHTS),
    };
    let player = Player::of_file(&file);
    let (mut total_nodes, mut total_secs) = (0u64, 0f64);
    for (name, fen, min, max) in BENCH_POSITIONS {
        let pos = Position::from_fen(fen).expect("bench positions are legal");
        let (min, max) = match args.depth {
            Some(d) => (d, d + (max - min)),
            None => (min, max),
        };
        let limits = search_limits(min, max)?;
        let mut searcher = Searcher::default();
        searcher.set_plain(args.plain);
        searcher.set_endgame_db(database);
        let started = Instant::now();
        let result = searcher.search(&pos, player.evaluator(&pos), limits, None);
        let secs = started.elapsed().as_secs_f64();
        outln!(
            "{name} {} {secs:.3} {:.0}",
            result.nodes,
            result.nodes as f64 / secs.max(1e-9)
        )?;
        total_nodes += result.nodes;
        total_secs += secs;
    }
    outln!(
        "total {total_nodes} {total_secs:.3} {:.0}",
        total_nodes as f64 / total_secs.max(1e-9)
    )?;
    Ok(())
}
