//! The arguments of `match`, and the settings, depths and times read from them.

use std::path::PathBuf;
use std::time::Duration;

use checkers_engine::error::{Error, Result};
use checkers_engine::game::{GameSettings, SearchMode, SearchParams, TimeControl, MAX_NODES};
use checkers_engine::search::SearchLimits;
use clap::Args;

use crate::commands::egdb::DatabaseArg;
use crate::commands::search_args::{search_mode, SearchArgs};

/// Arguments of `match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Player A: a weights file (json, toml or csv), `material`, `champion` (the shipped
    /// champion, built in), `cb:LIBRARY` (a CheckerBoard engine: .so, .dylib or .dll) or
    /// `hub:COMMAND` (a Hub program, e.g. `hub:scan hub`).
    pub(super) a: String,
    /// Player B, as A.
    pub(super) b: String,
    /// More players, as A, for a tournament (`--tournament`): players are numbered from 1 in
    /// the order given (A is 1, B is 2).
    #[arg(value_name = "PLAYER")]
    pub(super) more: Vec<String>,
    /// Play a tournament of all the players given: `round-robin` (every player against every
    /// other) or `gauntlet` (player 1 against each of the others). Each pairing is a match of
    /// its own over the same openings, both colours, played in that order; the end prints a
    /// rating list of every player (anchored with --anchor) and each pairing's result.
    #[arg(long, value_name = "round-robin|gauntlet")]
    pub(super) tournament: Option<String>,
    /// The tournament's rating list gives player K (numbered from 1 in the order given) Elo 0.
    /// Default 1.
    #[arg(long, value_name = "K")]
    pub(super) anchor: Option<usize>,
    /// An option for A when it is another program, sent as it stands after it starts
    /// (repeatable): an `enginecommand` text for a CheckerBoard engine (`set hashsize 64`), a
    /// protocol line for a Hub program (`set-param name=hash value=64`).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub(super) option_a: Vec<String>,
    /// An option for B, as --option-a.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    pub(super) option_b: Vec<String>,
    /// An option for player K (numbered from 1 in the order given: A is 1, B is 2), as
    /// --option-a (repeatable): `--option 3='set hashsize 64'`. Options of one player are sent
    /// in the order given, --option-a's and --option-b's first.
    #[arg(long, value_name = "K=TEXT", allow_hyphen_values = true)]
    pub(super) option: Vec<String>,
    /// Openings: `start`, `3-move` (the 156-opening ACF deck), `tough` (50 of them),
    /// `random:N` (--pairs openings of N random plies, default 156, drawn from --seed) or a file:
    /// one move sequence (`9-13 22-18 10-14`) or FEN per line, or PDN games (one position per
    /// game, e.g. `[FEN "B:W19,23,22:B4,3,2"] *`). A plays each opening once with each colour.
    #[arg(
        long,
        default_value = "3-move",
        value_name = "start|3-move|tough|random:N|FILE"
    )]
    pub(super) openings: String,
    /// Both sides' depths and tie-break.
    #[command(flatten)]
    pub(super) search: SearchArgs,
    /// A's own depths: full-width MIN and capture depth MAX (`4..10`); MIN alone keeps the
    /// capture extension of --max-depth minus --min-depth. Fixed-depth matches only.
    #[arg(long, value_name = "MIN[..MAX]")]
    pub(super) depth_a: Option<String>,
    /// B's own depths, as --depth-a.
    #[arg(long, value_name = "MIN[..MAX]")]
    pub(super) depth_b: Option<String>,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = GameSettings::default().max_plies, value_name = "N")]
    pub(super) max_plies: u32,
    /// Draw after this many plies without a capture or a man moving.
    #[arg(long, default_value_t = GameSettings::default().no_progress_plies, value_name = "N")]
    pub(super) no_progress_plies: u32,
    /// The endgame database; games end there by its value unless
    /// --no-database-adjudication.
    #[command(flatten)]
    pub(super) database: DatabaseArg,
    /// With a database, play games on to their end instead of ending them by its value.
    #[arg(long)]
    pub(super) no_database_adjudication: bool,
    /// Seed of the games' random streams (used by `--tie-break random`).
    #[arg(long, default_value_t = 1, value_name = "S")]
    pub(super) seed: u64,
    /// Threads playing pairs (default: one per core). Results do not depend on it.
    #[arg(long, value_name = "N", value_parser = crate::commands::threads_arg)]
    pub(super) threads: Option<usize>,
    /// Write one row per game to FILE.csv as the games finish, the printed summary to
    /// FILE.summary.txt and, at the end, each player's results on each ballot to
    /// FILE.ballots.csv. A match stopped before its end (Ctrl-C, a kill) is continued by the
    /// same command with the same --out: the games in FILE.csv are kept and the rest played.
    /// A tournament's rows have `pairing,a,b` (the pairing's number and its players') in
    /// front, and its rating list goes to FILE.ratings.csv.
    #[arg(long, value_name = "FILE.csv")]
    pub(super) out: Option<PathBuf>,
    /// Write every game as PDN to FILE as the games finish, in deck order (from the standard
    /// position, the opening's moves first). A match continued from --out rewrites it from
    /// the games the CSV holds, then goes on.
    #[arg(long, value_name = "FILE")]
    pub(super) pdn: Option<PathBuf>,
    /// Play against the clock: BASE seconds per side for the game plus INC seconds per move
    /// (`10+0.1`), searching deeper while time allows (captures followed `max-depth -
    /// min-depth` plies beyond each depth). A side whose clock runs out loses. Timed games
    /// depend on the machine's speed.
    #[arg(long, value_name = "BASE+INC", conflicts_with = "movetime")]
    pub(super) tc: Option<String>,
    /// Play with a fixed time per move, in seconds (e.g. `0.05`), searching deeper while time
    /// allows.
    #[arg(long, value_name = "SECONDS")]
    pub(super) movetime: Option<String>,
    /// Play with a fixed number of nodes per move, searching deeper while they last: equal
    /// work for both sides, and the same games on every machine.
    #[arg(long, value_name = "N", conflicts_with_all = ["tc", "movetime"],
          value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    pub(super) nodes: Option<u64>,
    /// Both sides' search: `exact` (plain minimax's value) or `selective` (deeper, with the
    /// `[search]` selective keys' defaults unless the weights file has a `search` table).
    /// Without it, against a `cb:` or `hub:` player or with a time or a node budget, a weights
    /// side plays its best: the selective search (its file's `search` keys, else their
    /// defaults); in a fixed-depth match of weights files each side searches as its file says
    /// (exact if it says nothing). The header names each side's search.
    #[arg(
        long,
        value_parser = search_mode(),
        value_name = "exact|selective",
        hide_possible_values = true
    )]
    pub(super) search_mode: Option<SearchMode>,
    /// A's search, as --search-mode.
    #[arg(
        long,
        value_parser = search_mode(),
        value_name = "exact|selective",
        hide_possible_values = true
    )]
    pub(super) search_a: Option<SearchMode>,
    /// B's search, as --search-mode.
    #[arg(
        long,
        value_parser = search_mode(),
        value_name = "exact|selective",
        hide_possible_values = true
    )]
    pub(super) search_b: Option<SearchMode>,
    /// Play only the first N openings of the deck.
    #[arg(long, value_name = "N")]
    pub(super) pairs: Option<usize>,
    /// Play the deck R times (1 to 1000). Each repeat's games draw from streams of their own,
    /// so repeats differ only with `--tie-break random` (required for R > 1). With `--sprt`,
    /// the test goes on past the first deck until it decides or the R decks are played.
    #[arg(long, default_value_t = 1, value_name = "R")]
    pub(super) repeat: usize,
    /// Stop early with a sequential test of H0 elo = ELO0 against H1 elo = ELO1 (error rates
    /// ALPHA and BETA, default 0.05).
    #[arg(
        long,
        value_name = "ELO0,ELO1[,ALPHA,BETA]",
        allow_hyphen_values = true
    )]
    pub(super) sprt: Option<String>,
    /// No progress output on stderr.
    #[arg(short, long)]
    pub(super) quiet: bool,
}

/// The search settings from the arguments, checked, without the endgame database.
pub(super) fn settings(args: &MatchArgs) -> Result<GameSettings> {
    args.search
        .params()
        .try_limits()
        .map_err(|e| Error::input(e.describe("--min-depth", "--max-depth")))?;
    if args.max_plies == 0 {
        return Err(Error::input("--max-plies: must be at least 1"));
    }
    if args.no_progress_plies < 2 {
        return Err(Error::input(format!(
            "--no-progress-plies {}: must be at least 2",
            args.no_progress_plies
        )));
    }
    let time = match (&args.tc, &args.movetime, args.nodes) {
        (Some(tc), _, _) => Some(parse_tc(tc)?),
        (None, Some(t), _) => Some(TimeControl::MoveTime(seconds("--movetime", t, false)?)),
        (None, None, Some(0)) => return Err(Error::input("--nodes 0: must be at least 1")),
        (None, None, Some(n)) => Some(TimeControl::Nodes(n)),
        (None, None, None) => None,
    };
    // The database is chosen once the weights files are read (see `run`).
    Ok(GameSettings {
        search: SearchParams {
            database_pieces: 0,
            ..args.search.params()
        },
        max_plies: args.max_plies,
        no_progress_plies: args.no_progress_plies,
        time,
        database: None,
        database_adjudication: !args.no_database_adjudication,
    })
}

/// A side's own depths from `--depth-a`/`--depth-b` (`flag`): `MIN..MAX`, or `MIN` with the
/// shared capture extension. `None` when not given or equal to the shared depths, so that such
/// a match keeps the key (and files) of one without the flag.
pub(super) fn own_limits(
    args: &MatchArgs,
    settings: &GameSettings,
    flag: &str,
    text: Option<&str>,
) -> Result<Option<SearchLimits>> {
    let Some(text) = text else {
        return Ok(None);
    };
    if args.tc.is_some() || args.movetime.is_some() || args.nodes.is_some() {
        return Err(Error::input(format!(
            "{flag}: per-player depths are for fixed-depth matches; with --tc or --movetime \
             both sides search as deep as their time allows"
        )));
    }
    let number = |t: &str| t.trim().parse::<u32>().ok();
    let (min, max) = match text.split_once("..") {
        Some((min, max)) => (number(min), number(max)),
        None => {
            let min = number(text);
            let extension = settings.search.max_depth - settings.search.min_depth;
            (min, min.and_then(|m| m.checked_add(extension)))
        }
    };
    let (Some(min), Some(max)) = (min, max) else {
        return Err(Error::input(format!(
            "{flag} {text:?}: expected MIN or MIN..MAX in plies, e.g. 4 or 4..10"
        )));
    };
    let limits = SearchLimits::try_new(min, max)
        .map_err(|e| Error::input(e.describe(flag, &format!("{flag} capture depth"))))?;
    Ok((limits != settings.limits()).then_some(limits))
}

/// Longest time `--tc` and `--movetime` accept, in seconds (a day).
const MAX_SECONDS: f64 = 86_400.0;

/// A `--tc BASE+INC` in seconds (`10+0.1`, or `10` for no increment).
fn parse_tc(text: &str) -> Result<TimeControl> {
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    let bad = || {
        Error::input(format!(
            "--tc {text:?}: expected BASE+INC in seconds, e.g. 10+0.1 (a base above 0)"
        ))
    };
    let base = seconds("--tc", base, false).map_err(|_| bad())?;
    let increment = seconds("--tc", increment, true).map_err(|_| bad())?;
    Ok(TimeControl::Clock { base, increment })
}

/// A number of seconds above 0 (or 0 too, with `zero`), at most [`MAX_SECONDS`].
fn seconds(flag: &str, text: &str, zero: bool) -> Result<Duration> {
    match text.trim().parse::<f64>() {
        Ok(s) if (s > 0.0 || zero && s == 0.0) && s <= MAX_SECONDS => {
            Ok(Duration::from_secs_f64(s))
        }
        _ => Err(Error::input(format!(
            "{flag} {text:?}: expected a number of seconds above 0 and at most {MAX_SECONDS}"
        ))),
    }
}
