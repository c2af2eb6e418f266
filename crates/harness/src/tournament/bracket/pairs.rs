//! One pair of a level: a game and a rematch after a draw, or a mini-match over several
//! openings.

use rand::Rng;

use checkers_engine::game::{GameResult, GameScore};
use checkers_engine::rng::stream;

use crate::tournament::specimen::Specimen;
use crate::tournament::stats::PairOutcome;

use super::game::BracketGame;
use super::job::{GameJob, GameReport};

/// The games of one pair and who goes on.
pub(super) struct PairPlay<'a> {
    pub(super) outcome: PairOutcome,
    pub(super) games: Vec<BracketGame>,
    pub(super) advancing: Vec<&'a Specimen>,
}

/// `k` openings × both colours between the first (Black on the odd games) and the second of
/// the pair. The higher score goes on; a level score goes to the lot drawn from the stream
/// `[GAME, round, level, pair, u64::MAX]`. Outcome counts: `BlackWin`/`WhiteWin` for a pair the
/// first/second won on points, `DrawThenBlackWin`/`DrawThenWhiteWin` for a level pair the lot
/// gave to the first/second; never `DoubleDraw`.
pub(super) fn play_mini_match<'a, G>(
    game: &G,
    job: GameJob<'a>,
    k: u32,
    seed: u64,
) -> Option<PairPlay<'a>>
where
    G: Fn(&GameJob) -> Option<GameReport>,
{
    let (first, second) = (job.black, job.white);
    let mut games = Vec::with_capacity(2 * k as usize);
    // The first's points minus the second's.
    let mut margin = 0i64;
    for number in 1..=2 * k {
        let first_black = number % 2 == 1;
        let (black, white) = if first_black {
            (first, second)
        } else {
            (second, first)
        };
        let this = GameJob {
            game: number,
            opening: (number - 1) / 2,
            black,
            white,
            ..job
        };
        let report = game(&this)?;
        margin += GameScore::for_a(report.record.result, first_black).half_points() as i64 - 1;
        games.push(BracketGame::new(&this, report));
    }
    let (outcome, winner) = match margin.cmp(&0) {
        std::cmp::Ordering::Greater => (PairOutcome::BlackWin, first),
        std::cmp::Ordering::Less => (PairOutcome::WhiteWin, second),
        std::cmp::Ordering::Equal => {
            let [t, r, l, p] = job.pair_key();
            let mut lot = stream(seed, &[t, r, l, p, u64::MAX]);
            if lot.gen_bool(0.5) {
                (PairOutcome::DrawThenBlackWin, first)
            } else {
                (PairOutcome::DrawThenWhiteWin, second)
            }
        }
    };
    Some(PairPlay {
        outcome,
        games,
        advancing: vec![winner],
    })
}

/// Plays game 1 of a pair (`job1`, the first of the pair Black) and, after a draw, game 2 with
/// colours switched.
pub(super) fn play_knockout_pair<'a, G>(game: &G, job1: GameJob<'a>) -> Option<PairPlay<'a>>
where
    G: Fn(&GameJob) -> Option<GameReport>,
{
    let (first, second) = (job1.black, job1.white);
    let report1 = game(&job1)?;
    let result1 = report1.record.result;
    let mut games = vec![BracketGame::new(&job1, report1)];
    let (outcome, advancing) = match result1 {
        GameResult::BlackWin => (PairOutcome::BlackWin, vec![first]),
        GameResult::WhiteWin => (PairOutcome::WhiteWin, vec![second]),
        GameResult::Draw => {
            let job2 = GameJob {
                game: 2,
                black: second,
                white: first,
                ..job1
            };
            let report2 = game(&job2)?;
            let result2 = report2.record.result;
            games.push(BracketGame::new(&job2, report2));
            match result2 {
                GameResult::BlackWin => (PairOutcome::DrawThenBlackWin, vec![second]),
                GameResult::WhiteWin => (PairOutcome::DrawThenWhiteWin, vec![first]),
                GameResult::Draw => (PairOutcome::DoubleDraw, vec![first, second]),
            }
        }
    };
    Some(PairPlay {
        outcome,
        games,
        advancing,
    })
}
