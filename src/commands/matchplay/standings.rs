//! A tournament's standings: the rating list over all its games as text and as CSV, and the
//! running points shown as it goes.

use checkers_engine::board::Color;
use checkers_engine::game::GameResult;
use checkers_engine::text::csv_line;
use checkers_harness::elo::{rating_list, RatedGame, RatingList};
use checkers_harness::matchplay::MatchGame;

/// The games of pairing `(a, b)` (players' indices; `a` the match's A) for the rating list.
pub(super) fn rated_games(pairing: (usize, usize), games: &[MatchGame]) -> Vec<RatedGame> {
    games
        .iter()
        .map(|g| {
            let (black, white) = match g.a_color {
                Color::Black => pairing,
                Color::White => (pairing.1, pairing.0),
            };
            let black_points = match g.record.result {
                GameResult::BlackWin => 1.0,
                GameResult::WhiteWin => 0.0,
                GameResult::Draw => 0.5,
            };
            RatedGame {
                black,
                white,
                black_points,
            }
        })
        .collect()
}

/// The rating list of `names.len()` players from `games`, anchored on player `anchor`.
pub(super) fn ratings(names: &[String], anchor: usize, games: &[RatedGame]) -> RatingList {
    rating_list(names.len(), anchor, games)
}

/// `+12.3`, `-4.0`, `inf` for a rating with no finite bound.
fn elo(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.1}")
    } else {
        "inf".to_string()
    }
}

/// A player's points in per cent of its games; `-` without any.
fn score(points: f64, games: u32) -> String {
    if games == 0 {
        "-".to_string()
    } else {
        format!("{:.1}%", 100.0 * points / f64::from(games))
    }
}

/// The rating list as the summary prints it: a line per player, best first (rank, number,
/// Elo, half the 95% interval, the likelihood of superiority over the next, games, score,
/// name), then Black's advantage.
pub(super) fn rating_lines(list: &RatingList, names: &[String], anchor: usize) -> Vec<String> {
    let mut lines = vec![
        format!(
            "rating list (Elo relative to player {} at 0, 95% intervals; draws half a win):",
            anchor + 1
        ),
        format!(
            "{:>4} {:>6} {:>8} {:>7} {:>8} {:>6} {:>7}  name",
            "rank", "player", "Elo", "±", "LOS next", "games", "score"
        ),
    ];
    for (rank, r) in list.ratings.iter().enumerate() {
        let los = r
            .los_next
            .map_or("-".to_string(), |l| format!("{:.1}%", 100.0 * l));
        let margin = if r.margin.is_finite() {
            format!("{:.1}", r.margin)
        } else {
            "inf".to_string()
        };
        lines.push(format!(
            "{:>4} {:>6} {:>8} {:>7} {:>8} {:>6} {:>7}  {}",
            rank + 1,
            r.player + 1,
            elo(r.elo),
            margin,
            los,
            r.games,
            score(r.points, r.games),
            names[r.player]
        ));
    }
    lines.push(format!(
        "colour advantage: Black {} ± {:.1} Elo",
        elo(list.advantage),
        list.advantage_margin
    ));
    lines
}

/// The rating list as `FILE.ratings.csv`: a row per player, best first.
pub(super) fn ratings_csv(list: &RatingList, names: &[String]) -> String {
    let mut text = csv_line(&[
        "rank", "player", "name", "elo", "margin", "los_next", "games", "points",
    ]);
    for (rank, r) in list.ratings.iter().enumerate() {
        text.push_str(&csv_line(&[
            (rank + 1).to_string(),
            (r.player + 1).to_string(),
            names[r.player].clone(),
            format!("{:.1}", r.elo),
            format!("{:.1}", r.margin),
            r.los_next.map_or(String::new(), |l| format!("{l:.4}")),
            r.games.to_string(),
            r.points.to_string(),
        ]));
    }
    text
}

/// Each player's points and games so far, for the progress line: `1 material 5.5/8, …`.
pub(super) fn points_line(names: &[String], games: &[RatedGame]) -> String {
    let mut tally = vec![(0.0f64, 0u32); names.len()];
    for g in games {
        tally[g.black].0 += g.black_points;
        tally[g.black].1 += 1;
        tally[g.white].0 += 1.0 - g.black_points;
        tally[g.white].1 += 1;
    }
    (names.iter().zip(&tally).enumerate())
        .map(|(i, (name, (points, games)))| format!("{} {name} {points}/{games}", i + 1))
        .collect::<Vec<_>>()
        .join(", ")
}
