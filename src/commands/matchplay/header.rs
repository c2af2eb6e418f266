//! The labels of the match's header: the players, their PDN names and how they search.

use checkers_engine::eval::EvaluatorKind;
use checkers_engine::game::{GameSettings, TimeControl};
use checkers_engine::search::SearchLimits;
use checkers_engine::weights_file::WeightsFile;
use checkers_harness::players::Engine;

use crate::commands::egdb::DatabaseChoice;

/// `n` and `noun`, plural unless `n` is 1.
pub(super) fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// How the players search, for the header: both depths when a side has its own.
pub(super) fn search_label(settings: &GameSettings, own: [Option<SearchLimits>; 2]) -> String {
    let captures = settings.search.max_depth - settings.search.min_depth;
    match settings.time {
        None if own.iter().any(Option::is_some) => format!(
            "A {}, B {}",
            depth(own[0].unwrap_or(settings.limits())),
            depth(own[1].unwrap_or(settings.limits()))
        ),
        None => depth(settings.limits()),
        Some(TimeControl::Clock { base, increment }) => format!(
            "clock {}+{} s per side, deepening while time allows (captures {captures} plies \
             further)",
            base.as_secs_f64(),
            increment.as_secs_f64()
        ),
        Some(TimeControl::Nodes(n)) => format!(
            "{n} nodes per move, deepening while they last (captures {captures} plies further)"
        ),
        Some(TimeControl::MoveTime(t)) => format!(
            "{} s per move, deepening while time allows (captures {captures} plies further)",
            t.as_secs_f64()
        ),
    }
}

/// `depth MIN..MAX`.
fn depth(l: SearchLimits) -> String {
    format!("depth {}..{}", l.min_depth(), l.max_depth())
}

/// The header's `search:` line: the search, the draw rules, the tie-break and the seed.
pub(super) fn search_line(
    settings: &GameSettings,
    own: [Option<SearchLimits>; 2],
    seed: u64,
) -> String {
    format!(
        "search: {}, draw at {} plies or after {} plies without progress, tie-break {}, seed {}",
        search_label(settings, own),
        settings.max_plies,
        settings.no_progress_plies,
        settings.search.tie_break.name(),
        seed
    )
}

/// The header's `endgame database:` line: which database, and whether games end there.
pub(super) fn database_line(settings: &GameSettings, choice: &DatabaseChoice) -> String {
    match settings.database {
        Some(_) => format!(
            "endgame database: {choice}, {}",
            if settings.database_adjudication {
                "games end there by its value"
            } else {
                "in the search only"
            }
        ),
        None => format!("endgame database: {choice}"),
    }
}

/// A player's name in the PDN's `Black` and `White` tags: the argument, and its depths when
/// they are its own.
pub(super) fn pdn_label(arg: &str, limits: Option<SearchLimits>) -> String {
    match limits {
        Some(l) => format!("{arg} ({})", depth(l)),
        None => arg.to_string(),
    }
}

/// Another program's line in the header: the argument, its own name and what it is, then the
/// options it was given, so that two instances of one engine tell apart.
pub(super) fn engine_label(arg: &str, name: &str, engine: &Option<Engine>) -> String {
    let (kind, options) = match engine {
        Some(Engine::CheckerBoard(cb)) => ("CheckerBoard engine", cb.options.as_slice()),
        Some(Engine::Hub(hub)) => ("Hub program", hub.options.as_slice()),
        None => ("Hub program", &[][..]),
    };
    if options.is_empty() {
        format!("{arg} ({name}, {kind})")
    } else {
        format!("{arg} ({name}, {kind}; options: {})", options.join(", "))
    }
}

/// `material` or the file name, how its evaluator moves from the opening to the endgame, and
/// where the weights came from.
pub(super) fn player_label(arg: &str, file: &WeightsFile) -> String {
    let source = file
        .source
        .as_ref()
        .map_or(String::new(), |s| format!("; {}", s.describe()));
    // The extended and pattern evaluators blend their two sets by the pieces on the board; only
    // the ten features switch at a threshold.
    let phases = match file.evaluator() {
        EvaluatorKind::Extended => {
            "extended evaluator, opening and endgame weights tapered by the pieces on the board"
                .to_string()
        }
        EvaluatorKind::Patterns => {
            "pattern evaluator, opening and endgame weights tapered by the pieces on the board"
                .to_string()
        }
        EvaluatorKind::Ten => format!("endgame set from {} pieces down", file.endgame_pieces),
    };
    format!("{arg} ({phases}{source})")
}
