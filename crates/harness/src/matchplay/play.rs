//! Playing a match: the pairs in parallel, applied in opening order.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use crate::elo::{MatchTally, Sprt, SprtVerdict};
use checkers_engine::board::Color;
use checkers_engine::game::{play_game_with, GameSettings, Mover, Opening};
use checkers_engine::rng::{stream, tag};
use checkers_engine::weights_file::WeightsFile;

use super::game::{a_color, MatchGame};
use super::report::{MatchReport, PairReport, SprtOutcome, Thinking};
use super::seat::{sit, Seat};
use super::side::MatchSide;
#[cfg(doc)]
use super::{read_match_rows, MatchPlayer};
#[cfg(doc)]
use checkers_engine::game::GameRecord;

/// Plays the pair for opening `index`: A Black in game 1, then A White from the same position.
/// Each game has its own stream `[tag::MATCH, index, game]`, used only by random tie-breaks.
/// Returns the games and A's and B's thinking in them.
fn play_pair(
    seats: &mut [Seat<'_>; 2],
    opening: &Opening,
    index: usize,
    settings: &GameSettings,
    seed: u64,
) -> ([MatchGame; 2], [Thinking; 2]) {
    let mut thinking = [Thinking::default(); 2];
    let mut game = |number: u8| {
        let a_color = a_color(number);
        let [a, b] = &mut *seats;
        let mut a = sit(a, &opening.position, settings);
        let mut b = sit(b, &opening.position, settings);
        let (black, white): (&mut dyn Mover, &mut dyn Mover) = match a_color {
            Color::Black => (&mut a, &mut b),
            Color::White => (&mut b, &mut a),
        };
        let mut rng = stream(seed, &[tag::MATCH, index as u64, u64::from(number)]);
        let played = play_game_with([black, white], &opening.position, settings, &mut rng);
        let record = played.record;
        // Black moves first from a position with Black to move: it made the odd plies.
        let first = opening.position.side_to_move();
        let by_first = record.plies.div_ceil(2);
        let moves = |color: Color| {
            if color == first {
                by_first
            } else {
                record.plies - by_first
            }
        };
        let b_color = a_color.opponent();
        thinking[0].add(Thinking {
            time: played.spent[a_color as usize],
            moves: moves(a_color),
            longest: played.longest[a_color as usize],
        });
        thinking[1].add(Thinking {
            time: played.spent[b_color as usize],
            moves: moves(b_color),
            longest: played.longest[b_color as usize],
        });
        MatchGame {
            pair: index,
            game: number,
            opening: opening.name.clone(),
            a_color,
            record,
        }
    };
    let games = [game(1), game(2)];
    (games, thinking)
}

/// Results applied so far, in opening order, and the pairs finished out of order.
struct Progress<F> {
    finished: BTreeMap<usize, ([MatchGame; 2], [Thinking; 2])>,
    games: Vec<MatchGame>,
    tally: MatchTally,
    applied: usize,
    verdict: Option<SprtVerdict>,
    stopped: bool,
    on_pair: F,
}

impl<F> Progress<F> {
    /// Counts the next pair in order and checks the SPRT after it.
    fn apply(&mut self, pair: &[MatchGame], sprt: Option<&Sprt>) {
        self.tally.add_pair(pair[0].a_score(), pair[1].a_score());
        self.games.extend(pair.iter().cloned());
        self.applied += 1;
        self.verdict = sprt.map(|t| t.verdict(&self.tally.pentanomial));
        self.stopped = self.verdict.is_some_and(SprtVerdict::is_final);
    }
}

/// Plays A against B: one pair per opening (A Black in game 1, White in game 2, same opening),
/// each side with its own weights and its own `endgame_pieces` (`settings.search.endgame_pieces` is
/// not used), both at the settings' depths ([`play_match_from`] can give each its own).
///
/// Pairs run on the current rayon pool. Workers take openings in order from a shared counter
/// and results are applied strictly in opening order, so the report is the same for any thread
/// count. `on_pair` is called once per applied pair, in order (from whichever worker completed
/// the sequence; hence `Send`).
///
/// With `sprt`, the verdict is checked after each applied pair and the match ends at the first
/// pair after which it is final: pairs after it are not started, and any already being played
/// are discarded. The stopping point is therefore also independent of the thread count.
pub fn play_match<F>(
    a: &WeightsFile,
    b: &WeightsFile,
    openings: &[Opening],
    settings: &GameSettings,
    seed: u64,
    sprt: Option<Sprt>,
    on_pair: F,
) -> MatchReport
where
    F: FnMut(&PairReport) + Send,
{
    play_match_from(a, b, openings, settings, seed, sprt, &[], None, on_pair)
}

/// [`play_match`], with sides that may search to depths of their own or be other programs
/// ([`MatchSide`]; a [`MatchPlayer`] is our side), continuing after the pairs already played,
/// and stoppable.
///
/// `previous` holds the games of the first pairs, already played with the same players,
/// openings, settings, seed and SPRT (two games per pair, in opening order, as
/// [`read_match_rows`] returns them): they are applied first, without calling `on_pair`, and
/// the match goes on from the next opening, so the report is the one an uninterrupted match
/// gives. Previous pairs after a final SPRT verdict are ignored.
///
/// Once `stop` is set, no new pair is started; the pairs being played are finished and applied,
/// and the report ends there, with `pairs_played < pairs_total` (and no SPRT stop).
///
/// Each worker starts its own instance of a program at its first game and keeps it for its
/// next ones (a new one after a crash or a hang). A program's failures lose it the game they
/// happen in ([`GameRecord::forfeit`]); the match goes on.
#[allow(clippy::too_many_arguments)]
pub fn play_match_from<'a, F>(
    a: impl Into<MatchSide<'a>>,
    b: impl Into<MatchSide<'a>>,
    openings: &[Opening],
    settings: &GameSettings,
    seed: u64,
    sprt: Option<Sprt>,
    previous: &[MatchGame],
    stop_request: Option<&AtomicBool>,
    on_pair: F,
) -> MatchReport
where
    F: FnMut(&PairReport) + Send,
{
    let (a, b) = (a.into(), b.into());
    let total = openings.len();
    let mut p = Progress {
        finished: BTreeMap::new(),
        games: Vec::with_capacity(2 * total),
        tally: MatchTally::default(),
        applied: 0,
        verdict: sprt.map(|_| SprtVerdict::Continue),
        stopped: false,
        on_pair,
    };
    for pair in previous.chunks_exact(2).take(total) {
        if p.stopped {
            break;
        }
        p.apply(pair, sprt.as_ref());
    }
    let next = AtomicUsize::new(p.applied);
    let stop = AtomicBool::new(p.stopped);
    let progress = Mutex::new(p);
    let requested = || stop_request.is_some_and(|flag| flag.load(Ordering::Relaxed));
    let workers = rayon::current_num_threads().clamp(1, total.max(1));
    rayon::scope(|s| {
        for _ in 0..workers {
            s.spawn(|_| {
                let mut seats = [Seat::new(a), Seat::new(b)];
                loop {
                    if stop.load(Ordering::Relaxed) || requested() {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= total {
                        break;
                    }
                    let pair = play_pair(&mut seats, &openings[index], index, settings, seed);
                    let mut p = progress.lock().unwrap_or_else(PoisonError::into_inner);
                    p.finished.insert(index, pair);
                    apply_ready(&mut *p, total, sprt.as_ref());
                    if p.stopped {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let p = progress
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    MatchReport {
        estimate: p.tally.estimate(),
        sprt: sprt.map(|test| SprtOutcome {
            test,
            llr: test.llr(&p.tally.pentanomial),
            verdict: test.verdict(&p.tally.pentanomial),
        }),
        pairs_played: p.applied,
        pairs_total: total,
        games: p.games,
        tally: p.tally,
    }
}

/// Applies the finished pairs that continue the in-order sequence, until a gap or a final
/// SPRT verdict.
fn apply_ready<F: FnMut(&PairReport)>(p: &mut Progress<F>, total: usize, sprt: Option<&Sprt>) {
    while !p.stopped {
        let Some((pair, thinking)) = p.finished.remove(&p.applied) else {
            break;
        };
        p.apply(&pair, sprt);
        let report = PairReport {
            thinking,
            games: pair,
            tally: p.tally,
            pairs_done: p.applied,
            pairs_total: total,
            sprt: p.verdict,
        };
        (p.on_pair)(&report);
    }
}
