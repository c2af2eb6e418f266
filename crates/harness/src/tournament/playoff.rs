//! The playoff after the last round (docs/tournament.md): a round robin of the finalists.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::specimen::Specimen;
use checkers_engine::game::{
    play_game_between, GameResult, GameScore, GameSettings, Opening, Tally,
};
use checkers_engine::rng::{stream, tag};

/// A finalist's line of the playoff ranking.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// 1 for the best.
    pub rank: u32,
    /// The specimen's id.
    pub id: u64,
    /// Twice the points (a win is 2, a draw 1), so the score stays an integer.
    pub half_points: u64,
    /// Playoff games won, drawn and lost.
    #[serde(flatten)]
    pub results: Tally,
}

/// Games a playoff of `finalists` specimens over `openings` openings plays: every pair, both
/// colours, every opening (`u64::MAX` when that does not fit: the config check compares it
/// with a bound).
pub fn playoff_games(finalists: usize, openings: usize) -> u64 {
    let (finalists, openings) = (finalists as u64, openings as u64);
    finalists
        .saturating_mul(finalists.saturating_sub(1))
        .saturating_mul(openings)
}

/// One playoff game: black, white, the opening and the game's stream key.
type PlayoffJob<'s, 'o> = (&'s Specimen, &'s Specimen, &'o Opening, [u64; 5]);

/// Every game of the round robin, in a fixed order: every pair (i < j), every opening, both
/// colours (i Black first). Game `g` is found from its number rather than listed: a playoff
/// may have millions of games, and a list of them would take tens of bytes each.
struct RoundRobin<'s, 'o> {
    finalists: &'s [&'s Specimen],
    openings: &'o [Opening],
    /// `row_starts[i]`: the index of pair (i, i + 1), the first pair of finalist i.
    row_starts: Vec<u64>,
}

impl<'s, 'o> RoundRobin<'s, 'o> {
    fn new(finalists: &'s [&'s Specimen], openings: &'o [Opening]) -> RoundRobin<'s, 'o> {
        let n = finalists.len() as u64;
        let row_starts = (0..n)
            .scan(0u64, |start, i| {
                let this = *start;
                *start += n - 1 - i;
                Some(this)
            })
            .collect();
        RoundRobin {
            finalists,
            openings,
            row_starts,
        }
    }

    /// The number of games.
    fn len(&self) -> u64 {
        playoff_games(self.finalists.len(), self.openings.len())
    }

    /// Game `g` (from 0) of the fixed order.
    fn job(&self, g: u64) -> PlayoffJob<'s, 'o> {
        let colour = g % 2;
        let k = (g / 2) % self.openings.len() as u64;
        let pair = g / 2 / self.openings.len() as u64;
        let i = self.row_starts.partition_point(|&start| start <= pair) - 1;
        let j = i + 1 + (pair - self.row_starts[i]) as usize;
        let (first, second) = (self.finalists[i], self.finalists[j]);
        let (black, white) = if colour == 0 {
            (first, second)
        } else {
            (second, first)
        };
        let key = [tag::PLAYOFF, first.id, second.id, k, colour];
        (black, white, &self.openings[k as usize], key)
    }
}

/// Which games of a playoff one worker plays: game `g` (in the fixed order of the round robin)
/// belongs to share `g % count`, so that islands on separate machines split the work evenly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoffShare {
    /// This worker's share, `0..count`.
    pub index: usize,
    /// Number of shares.
    pub count: usize,
}

impl PlayoffShare {
    /// The whole playoff, played by one worker.
    pub const WHOLE: PlayoffShare = PlayoffShare { index: 0, count: 1 };
}

/// Plays the round robin of `finalists`: every pair (i < j), every opening, both colours (i
/// Black first), each game with its own stream `[PLAYOFF, id_i, id_j, opening, colour]` of
/// `seed`; games run in parallel on rayon's current pool and `on_game` is called (from worker
/// threads) after each. Returns the ranking ([`rank`]), or `None` if `cancel` was set: it is
/// checked before each game starts, and a cancelled playoff has no result.
pub fn play_playoff(
    finalists: &[&Specimen],
    openings: &[Opening],
    settings: &GameSettings,
    seed: u64,
    cancel: Option<&AtomicBool>,
    on_game: impl Fn() + Sync,
) -> Option<Vec<Standing>> {
    let share = PlayoffShare::WHOLE;
    let results = play_playoff_share(finalists, openings, settings, seed, share, cancel, on_game)?;
    Some(playoff_standings(finalists, openings, &[results]))
}

/// Plays the games of `share` of the round robin [`play_playoff`] describes, in parallel on
/// rayon's current pool, and returns their results in game order; `None` if `cancel` was set.
pub fn play_playoff_share(
    finalists: &[&Specimen],
    openings: &[Opening],
    settings: &GameSettings,
    seed: u64,
    share: PlayoffShare,
    cancel: Option<&AtomicBool>,
    on_game: impl Fn() + Sync,
) -> Option<Vec<GameResult>> {
    let games = RoundRobin::new(finalists, openings);
    let count = share.count.max(1);
    let mine = (games.len() as usize)
        .saturating_sub(share.index)
        .div_ceil(count);
    let cancelled = || cancel.is_some_and(|flag| flag.load(Ordering::Relaxed));
    (0..mine)
        .into_par_iter()
        .map(|m| {
            if cancelled() {
                return None;
            }
            let (black, white, opening, key) = games.job((share.index + m * count) as u64);
            let mut rng = stream(seed, &key);
            let pos = &opening.position;
            let endgame_pieces = settings.search.endgame_pieces;
            let (black, white) = (black.player(endgame_pieces), white.player(endgame_pieces));
            let record = play_game_between(black, white, pos, settings, &mut rng);
            on_game();
            Some(record.result)
        })
        .collect()
}

/// The ranking of a playoff from the results of its shares (`shares[i]` is what
/// [`play_playoff_share`] returned for share `i` of `shares.len()`).
///
/// # Panics
/// If the shares do not hold exactly one result per game.
pub fn playoff_standings(
    finalists: &[&Specimen],
    openings: &[Opening],
    shares: &[Vec<GameResult>],
) -> Vec<Standing> {
    let games = RoundRobin::new(finalists, openings);
    let count = shares.len();
    assert_eq!(
        shares.iter().map(|share| share.len() as u64).sum::<u64>(),
        games.len(),
        "one result per playoff game"
    );
    let blank = |id| Standing {
        id,
        ..Standing::default()
    };
    let mut scores: BTreeMap<u64, Standing> =
        finalists.iter().map(|s| (s.id, blank(s.id))).collect();
    for g in 0..games.len() {
        let (black, white, _, _) = games.job(g);
        let g = g as usize;
        let result = shares[g % count][g / count];
        for (id, is_black) in [(black.id, true), (white.id, false)] {
            let s = scores.get_mut(&id).expect("a finalist");
            s.results.add(GameScore::for_a(result, is_black));
            s.half_points = s.results.half_points();
        }
    }
    rank(scores.into_values().collect())
}

/// Orders the playoff table (points, then wins, then the lower id) and numbers the ranks.
pub fn rank(mut standings: Vec<Standing>) -> Vec<Standing> {
    standings.sort_by(|a, b| {
        b.half_points
            .cmp(&a.half_points)
            .then(b.results.wins.cmp(&a.results.wins))
            .then(a.id.cmp(&b.id))
    });
    for (rank, s) in standings.iter_mut().enumerate() {
        s.rank = rank as u32 + 1;
    }
    standings
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_engine::game::SearchParams;

    fn standing(id: u64, wins: u64, draws: u64, losses: u64) -> Standing {
        Standing {
            rank: 0,
            id,
            half_points: 2 * wins + draws,
            results: Tally {
                wins,
                draws,
                losses,
            },
        }
    }

    #[test]
    fn ranking_is_by_points_then_wins_then_lower_id() {
        let table = rank(vec![
            standing(4, 1, 2, 1), // 2 points, 1 win
            standing(9, 2, 0, 2), // 2 points, 2 wins
            standing(2, 1, 2, 1), // 2 points, 1 win, lower id than 4
            standing(7, 3, 1, 0), // 3.5 points
            standing(1, 0, 0, 4), // 0 points
        ]);
        let order: Vec<(u32, u64)> = table.iter().map(|s| (s.rank, s.id)).collect();
        assert_eq!(order, [(1, 7), (2, 9), (3, 2), (4, 4), (5, 1)]);
        assert_eq!(table[0].results.points(), 3.5);
    }

    /// A finalist of the first population with these weights.
    fn finalist(id: u64, weights: checkers_engine::eval::WeightPair) -> Specimen {
        Specimen {
            id,
            weights,
            extra: None,
            patterns: None,
            tables: None,
            parent_a: None,
            parent_b: None,
            born_round: 0,
            fitted: false,
            search: None,
        }
    }

    #[test]
    fn a_cancelled_playoff_has_no_result() {
        let specimens: Vec<Specimen> = (0..3)
            .map(|id| finalist(id, checkers_engine::eval::WeightPair::material()))
            .collect();
        let finalists: Vec<&Specimen> = specimens.iter().collect();
        let settings = GameSettings {
            search: SearchParams {
                min_depth: 1,
                max_depth: 2,
                ..SearchParams::default()
            },
            max_plies: 20,
            ..GameSettings::default()
        };
        let openings = [Opening::start()];
        let stop = AtomicBool::new(true);
        let played = play_playoff(&finalists, &openings, &settings, 1, Some(&stop), || {});
        assert_eq!(played, None);
        let table = play_playoff(&finalists, &openings, &settings, 1, None, || {}).unwrap();
        assert_eq!(table.len(), 3);
        assert!(table.iter().all(|s| s.results.games() == 4));
        assert_eq!(playoff_games(3, 1), 6);
    }

    #[test]
    fn games_are_numbered_pair_by_pair_then_opening_then_colour() {
        let specimens: Vec<Specimen> = (0..5)
            .map(|id| finalist(100 + id, checkers_engine::eval::WeightPair::material()))
            .collect();
        let finalists: Vec<&Specimen> = specimens.iter().collect();
        let openings = three_openings();
        let games = RoundRobin::new(&finalists, &openings);
        let mut listed = Vec::new();
        for i in 0..5 {
            for j in i + 1..5 {
                for k in 0..3u64 {
                    for colour in 0..2u64 {
                        let (a, b) = (100 + i, 100 + j);
                        let (black, white) = if colour == 0 { (a, b) } else { (b, a) };
                        listed.push((black, white, k, [tag::PLAYOFF, a, b, k, colour]));
                    }
                }
            }
        }
        assert_eq!(games.len(), listed.len() as u64);
        assert_eq!(games.len(), playoff_games(5, 3));
        for (g, wanted) in listed.into_iter().enumerate() {
            let (black, white, opening, key) = games.job(g as u64);
            let k = openings
                .iter()
                .position(|o| std::ptr::eq(o, opening))
                .unwrap();
            assert_eq!((black.id, white.id, k as u64, key), wanted, "game {g}");
        }
        assert_eq!(playoff_games(usize::MAX, 2), u64::MAX);
    }

    /// Three distinct openings from the 3-move deck.
    fn three_openings() -> Vec<Opening> {
        checkers_engine::game::three_move_deck()
            .into_iter()
            .take(3)
            .collect()
    }

    #[test]
    fn a_playoff_split_in_shares_ranks_as_the_whole() {
        let specimens: Vec<Specimen> = (0..4)
            .map(|id| {
                let mut weights = checkers_engine::eval::WeightPair::material();
                weights.opening.0[1] += 10 * id as i32;
                finalist(10 + id, weights)
            })
            .collect();
        let finalists: Vec<&Specimen> = specimens.iter().collect();
        let settings = GameSettings {
            search: SearchParams {
                min_depth: 1,
                max_depth: 2,
                tie_break: checkers_engine::game::TieBreak::Random,
                ..SearchParams::default()
            },
            max_plies: 40,
            ..GameSettings::default()
        };
        let openings = [Opening::start()];
        let whole = play_playoff(&finalists, &openings, &settings, 3, None, || {}).unwrap();
        let shares: Vec<Vec<GameResult>> = (0..3)
            .map(|index| {
                let share = PlayoffShare { index, count: 3 };
                play_playoff_share(&finalists, &openings, &settings, 3, share, None, || {}).unwrap()
            })
            .collect();
        assert_eq!(shares.iter().map(Vec::len).collect::<Vec<_>>(), [4, 4, 4]);
        assert_eq!(playoff_standings(&finalists, &openings, &shares), whole);
    }
}
