//! The match's key: what decides its games, so that a command may continue another's file.

use std::fmt::Write as _;

use crate::elo::Sprt;
use checkers_engine::game::{GameSettings, Opening};
use checkers_engine::text::fingerprint;
use checkers_engine::weights_file::WeightsFile;

use super::side::MatchSide;

/// A fingerprint of everything that decides a match's games: both weight files (weights,
/// endgame thresholds, sources) and any depths of their own, the openings, the settings (the
/// endgame database included), the seed and the SPRT. Two commands with the same key play the
/// same games, so one may continue the other's file.
pub fn match_key(
    a: MatchSide<'_>,
    b: MatchSide<'_>,
    openings: &[Opening],
    settings: &GameSettings,
    seed: u64,
    sprt: Option<&Sprt>,
) -> String {
    // A file's `search` table is left out: what it decides is the side's `selective` below,
    // so matches of files without one (and exact sides) keep the keys they always had.
    let side = |side: MatchSide<'_>| match side {
        MatchSide::Ours(p) => WeightsFile {
            search: None,
            ..p.file.clone()
        }
        .to_json(),
        MatchSide::Engine(_, identity) => format!("engine {identity}"),
    };
    let mut text = format!("a\n{}\nb\n{}\nopenings\n", side(a), side(b));
    for o in openings {
        text.push_str(&o.name);
        text.push('\n');
    }
    let _ = write!(
        text,
        "settings {} {} {} {} {:?}\nseed {seed}\n",
        settings.search.min_depth,
        settings.search.max_depth,
        settings.max_plies,
        settings.no_progress_plies,
        settings.search.tie_break
    );
    // Fixed-depth matches keep the key they always had.
    if let Some(time) = settings.time {
        let _ = writeln!(text, "time {time:?}");
    }
    // Only a match with a database says so: the keys of matches without one stay as they were.
    if let Some(db) = settings.database {
        let _ = writeln!(
            text,
            "database {} {:016x} adjudication {}",
            db.pieces(),
            db.checksum(),
            settings.database_adjudication
        );
    }
    // Likewise only sides with depths of their own add a line.
    for (side, p) in [("a", a.ours()), ("b", b.ours())] {
        if let Some(l) = p.and_then(|p| p.limits) {
            let _ = writeln!(text, "depth {side} {} {}", l.min_depth(), l.max_depth());
        }
    }
    // And only selective searches (exact matches keep their keys).
    if let Some(s) = settings.search.selective() {
        let _ = writeln!(text, "search {s:?}");
    }
    for (side, p) in [("a", a.ours()), ("b", b.ours())] {
        if let Some(s) = p.and_then(|p| p.selective) {
            let _ = writeln!(text, "search {side} {s:?}");
        }
    }
    if let Some(t) = sprt {
        let _ = writeln!(
            text,
            "sprt {} {} {} {}",
            t.elo0(),
            t.elo1(),
            t.alpha(),
            t.beta()
        );
    }
    fingerprint(text.as_bytes())
}
