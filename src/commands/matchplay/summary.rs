//! The summary's lines beside the results: the marker of an unfinished match, the time a
//! move, the forfeits.

use checkers_harness::matchplay::{MatchGame, RefereeCount, Thinking};

use super::header::count;
#[cfg(doc)]
use checkers_harness::matchplay::match_key;

/// First line of `FILE.summary.txt` while the match writing `FILE.csv` is not finished; the
/// second is `key: ` and the match's key ([`match_key`]).
pub(super) const IN_PROGRESS: &str =
    "# match in progress: run the same command again to continue it (checkers-tuner)";
/// The summary file of an unfinished match: the marker, the key, then `text`.
pub(super) fn in_progress(key: &str, text: &str) -> String {
    format!("{IN_PROGRESS}\nkey: {key}\n{text}")
}

/// Each side's mean time a move over the games this command played, so that "equal time" can
/// be checked, and its longest move (a side that overruns its time shows there); nothing when
/// it played none.
pub(super) fn thinking_line(thinking: &[Thinking; 2], games: usize) -> Option<String> {
    thinking_line_of(&["A", "B"], thinking, games)
}

/// [`thinking_line`] for players named by `labels` (`A` and `B`, or a tournament's numbers).
pub(super) fn thinking_line_of<S: AsRef<str>>(
    labels: &[S],
    thinking: &[Thinking],
    games: usize,
) -> Option<String> {
    let mean = |t: &Thinking| {
        t.mean().map_or("-".to_string(), |d| {
            format!(
                "{:.3} s (longest {:.3} s)",
                d.as_secs_f64(),
                t.longest.as_secs_f64()
            )
        })
    };
    (games > 0 && thinking.iter().any(|t| t.moves > 0)).then(|| {
        let sides: Vec<String> = (labels.iter().zip(thinking))
            .map(|(label, t)| format!("{} {}", label.as_ref(), mean(t)))
            .collect();
        format!(
            "time a move: {} (over the {} played by this command)",
            sides.join(", "),
            count(games, "game")
        )
    })
}

/// One line per game a program forfeited: where, who, why.
pub(super) fn forfeit_lines(games: &[MatchGame]) -> Vec<String> {
    games
        .iter()
        .filter(|g| g.record.reason.is_forfeit())
        .map(|g| {
            // The side that forfeited is the one that lost.
            let loser = if g.a_score() == checkers_engine::game::GameScore::Loss {
                "A"
            } else {
                "B"
            };
            format!(
                "forfeit: pair {} game {}: {loser} lost by {}: {}",
                g.pair + 1,
                g.game,
                g.record.reason.label(),
                g.record.forfeit.as_deref().unwrap_or("")
            )
        })
        .collect()
}

/// The endgame database's judgement of each player's moves (`labels`, with `counts` in the same
/// order) in a match or tournament played with the `pieces`-piece database; `adjudicated`: its
/// games ended on reaching the database, so only the capture into it is judged.
pub(super) fn referee_line<S: AsRef<str>>(
    labels: &[S],
    counts: &[RefereeCount],
    pieces: u32,
    adjudicated: bool,
) -> String {
    let judged: u32 = counts.iter().map(|c| c.judged).sum();
    let head = format!("database referee ({pieces} pieces)");
    if judged == 0 {
        return format!("{head}: no game reached the database");
    }
    let sides: Vec<String> = (labels.iter().zip(counts))
        .map(|(label, c)| {
            format!(
                "{} {} of {} moves judged (win to draw {}, draw to loss {}, win to loss {})",
                label.as_ref(),
                count(c.errors() as usize, "error"),
                c.judged,
                c.win_to_draw,
                c.draw_to_loss,
                c.win_to_loss
            )
        })
        .collect();
    let scope = if adjudicated {
        "; games end there, so each judged move is a capture into the database \
         (--no-database-adjudication judges the play within it)"
    } else {
        ""
    };
    format!("{head}: {}{scope}", sides.join(", "))
}
