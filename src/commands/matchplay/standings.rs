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

/// `+12.3`, `-4.0`; `+inf` or `-inf` for a rating unbounded on that side (a perfect or a
/// null score).
fn elo(x: f64) -> String {
    format!("{x:+.1}")
}

/// Half a 95% interval, `88.5`; `inf` for an unbounded one.
fn margin(x: f64) -> String {
    format!("{x:.1}")
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
        lines.push(format!(
            "{:>4} {:>6} {:>8} {:>7} {:>8} {:>6} {:>7}  {}",
            rank + 1,
            r.player + 1,
            elo(r.elo),
            margin(r.margin),
            los,
            r.games,
            score(r.points, r.games),
            names[r.player]
        ));
    }
    lines.push(format!(
        "colour advantage: Black {} ± {} Elo",
        elo(list.advantage),
        margin(list.advantage_margin)
    ));
    lines
}

/// The rating list as `FILE.ratings.csv`: a row per player, best first; an unbounded rating
/// has `elo` `inf` or `-inf` and `margin` `inf` (as Rust and Python read them back).
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
            margin(r.margin),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` games of `black` against `white`, Black scoring `points` in each.
    fn games(black: usize, white: usize, points: f64, n: usize) -> Vec<RatedGame> {
        let game = RatedGame {
            black,
            white,
            black_points: points,
        };
        vec![game; n]
    }

    #[test]
    fn a_player_that_lost_every_game_prints_an_unbounded_interval() {
        // Players 1 and 2 draw their games; player 3 loses all of its 8.
        let names: Vec<String> = ["one", "two", "three"].map(String::from).to_vec();
        let mut all = [games(0, 1, 0.5, 2), games(1, 0, 0.5, 2)].concat();
        for x in [0, 1] {
            all.extend([games(x, 2, 1.0, 2), games(2, x, 0.0, 2)].concat());
        }
        let list = ratings(&names, 0, &all);
        let lines = rating_lines(&list, &names, 0);
        let last: Vec<&str> = lines[4].split_whitespace().collect();
        assert_eq!(last, ["3", "3", "-inf", "inf", "-", "8", "0.0%", "three"]);
        for line in &lines[2..4] {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let margin: f64 = fields[3].parse().unwrap();
            assert!(margin.is_finite() && margin < 1000.0, "{line}");
        }
        assert_eq!(lines[3].split_whitespace().nth(4), Some("100.0%"));
        let csv = ratings_csv(&list, &names);
        let rows: Vec<&str> = csv.lines().collect();
        assert_eq!(rows[3], "3,3,three,-inf,inf,,8,0");
        for row in &rows[1..3] {
            let margin: f64 = row.split(',').nth(4).unwrap().parse().unwrap();
            assert!(margin.is_finite(), "{row}");
        }
    }
}
