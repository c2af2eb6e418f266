//! Per ballot: how each player fared on each opening of a match or tournament, and the ballots
//! one colour won every time whoever played it (an unbalanced ballot).
//!
//! A ballot is an opening of the deck, named by its moves as the per-game CSV's `opening`
//! column records them; with `--repeat` the same opening comes back in later pairs and its
//! games count on one ballot, numbered by the first pair that played it. Every figure comes
//! from the games' rows, so a continued match (whose rows are read back) gives the same report
//! as an uninterrupted one.

use std::collections::HashMap;

use checkers_engine::board::Color;
use checkers_engine::game::{GameResult, GameScore, Tally};
use checkers_engine::text::csv_line;

use super::game::{color_label, MatchGame};

/// Fewest games on a ballot for it to be called unbalanced: a single game says nothing of the
/// ballot, only of that game.
pub const MIN_UNBALANCED_GAMES: u64 = 2;

/// Most unbalanced ballots [`BallotReport::summary_line`] lists by number; the file has them
/// all.
pub const LISTED_UNBALANCED: usize = 10;

/// One ballot's games: each player's results on it and each colour's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BallotRecord {
    /// The ballot's number: the first pair that played it, from 1 (the CSV's `pair`).
    pub ballot: usize,
    /// The opening, as the per-game CSV's `opening` column has it.
    pub opening: String,
    /// Each player's wins, draws and losses on this ballot, by player index.
    pub players: Vec<Tally>,
    /// The games from Black's side: `wins` won by Black, `losses` won by White.
    pub black: Tally,
}

impl BallotRecord {
    /// Games played on the ballot.
    pub fn games(&self) -> u64 {
        self.black.games()
    }

    /// The colour that won every game of the ballot, when it has at least
    /// [`MIN_UNBALANCED_GAMES`]: as every pair plays it with both colours, each of its players
    /// won with that colour and lost with the other.
    pub fn unbalanced(&self) -> Option<Color> {
        let games = self.games();
        if games < MIN_UNBALANCED_GAMES {
            None
        } else if self.black.wins == games {
            Some(Color::Black)
        } else if self.black.losses == games {
            Some(Color::White)
        } else {
            None
        }
    }
}

/// The ballots of a match or tournament, in the order of their numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BallotReport {
    /// How many players the records count.
    players: usize,
    /// The ballots, by number.
    ballots: Vec<BallotRecord>,
    /// Where each opening's record is in `ballots`.
    index: HashMap<String, usize>,
}

impl BallotReport {
    /// An empty report for `players` players (2 for a match).
    pub fn new(players: usize) -> BallotReport {
        BallotReport {
            players,
            ..BallotReport::default()
        }
    }

    /// The report of a two-player match's games (A is player 0, B player 1).
    pub fn of_match(games: &[MatchGame]) -> BallotReport {
        let mut report = BallotReport::new(2);
        report.add(games, (0, 1));
        report
    }

    /// Counts `games`, a pairing's games, `pairing` being its A's and B's player indices. A
    /// player index beyond the report's players widens every record to hold it.
    pub fn add(&mut self, games: &[MatchGame], pairing: (usize, usize)) {
        self.players = self.players.max(pairing.0 + 1).max(pairing.1 + 1);
        for g in games {
            let at = match self.index.get(&g.opening) {
                Some(&at) => at,
                None => {
                    self.ballots.push(BallotRecord {
                        ballot: g.pair + 1,
                        opening: g.opening.clone(),
                        players: Vec::new(),
                        black: Tally::default(),
                    });
                    self.index.insert(g.opening.clone(), self.ballots.len() - 1);
                    self.ballots.len() - 1
                }
            };
            let record = &mut self.ballots[at];
            // A later pair may meet the ballot first in a tournament's pairing: the number is
            // the smallest pair that played it, whatever the order the games came in.
            record.ballot = record.ballot.min(g.pair + 1);
            record.players.resize(self.players, Tally::default());
            let a = g.a_score();
            record.players[pairing.0].add(a);
            record.players[pairing.1].add(opposite(a));
            record.black.add(match g.record.result {
                GameResult::BlackWin => GameScore::Win,
                GameResult::Draw => GameScore::Draw,
                GameResult::WhiteWin => GameScore::Loss,
            });
        }
    }

    /// The ballots, by number.
    pub fn ballots(&self) -> Vec<&BallotRecord> {
        let mut ballots: Vec<&BallotRecord> = self.ballots.iter().collect();
        ballots.sort_by_key(|b| b.ballot);
        ballots
    }

    /// The report as `FILE.ballots.csv`: a header, then a row per ballot by number:
    /// `ballot,opening,games`, for each player `L_wins,L_draws,L_losses` (`L` its label from
    /// `labels`, `a` and `b` in a match, `p1`, `p2`, … in a tournament; a player without a label
    /// is `pK`), then `black_wins,draws,white_wins,unbalanced` (`black`, `white` or empty).
    pub fn csv_text<S: AsRef<str>>(&self, labels: &[S]) -> String {
        let label = |k: usize| {
            labels
                .get(k)
                .map_or(format!("p{}", k + 1), |l| l.as_ref().to_string())
        };
        let mut header: Vec<String> = ["ballot", "opening", "games"].map(String::from).to_vec();
        for k in 0..self.players {
            for what in ["wins", "draws", "losses"] {
                header.push(format!("{}_{what}", label(k)));
            }
        }
        header.extend(["black_wins", "draws", "white_wins", "unbalanced"].map(String::from));
        let mut text = csv_line(&header);
        for b in self.ballots() {
            let mut row = vec![
                b.ballot.to_string(),
                b.opening.clone(),
                b.games().to_string(),
            ];
            for k in 0..self.players {
                let t = b.players.get(k).copied().unwrap_or_default();
                row.extend([t.wins, t.draws, t.losses].map(|n| n.to_string()));
            }
            row.extend([b.black.wins, b.black.draws, b.black.losses].map(|n| n.to_string()));
            row.push(b.unbalanced().map_or("", color_label).to_string());
            text.push_str(&csv_line(&row));
        }
        text
    }

    /// The summary's line: `ballots: 156, unbalanced 3 (black 2, white 1): 12, 40, 77`, the
    /// unbalanced ballots' numbers cut after [`LISTED_UNBALANCED`] (`… and 4 more`);
    /// `ballots: 156, unbalanced 0` when there is none.
    pub fn summary_line(&self) -> String {
        let ballots = self.ballots();
        let unbalanced: Vec<(usize, Color)> = (ballots.iter())
            .filter_map(|b| Some((b.ballot, b.unbalanced()?)))
            .collect();
        let mut line = format!(
            "ballots: {}, unbalanced {}",
            ballots.len(),
            unbalanced.len()
        );
        if unbalanced.is_empty() {
            return line;
        }
        let black = unbalanced.iter().filter(|u| u.1 == Color::Black).count();
        let numbers: Vec<String> = (unbalanced.iter().take(LISTED_UNBALANCED))
            .map(|u| u.0.to_string())
            .collect();
        line.push_str(&format!(
            " (black {black}, white {}): {}",
            unbalanced.len() - black,
            numbers.join(", ")
        ));
        if unbalanced.len() > LISTED_UNBALANCED {
            line.push_str(&format!(
                " and {} more",
                unbalanced.len() - LISTED_UNBALANCED
            ));
        }
        line
    }
}

/// The other side's result.
fn opposite(score: GameScore) -> GameScore {
    match score {
        GameScore::Win => GameScore::Loss,
        GameScore::Draw => GameScore::Draw,
        GameScore::Loss => GameScore::Win,
    }
}

#[cfg(test)]
#[path = "ballots_tests.rs"]
mod tests;
