//! A tournament's per-game CSV: each row of a pairing's match behind the pairing's number and
//! its two players' numbers, and reading it back to continue the tournament.
//!
//! The pairings are played one after another in schedule order, so the file holds them in that
//! order, each but the last one whole; a row is exactly the row of the pairing's two-player
//! match (`pair,game,…,moves`) behind `pairing,a,b,` (numbered from 1, as printed).

use checkers_engine::error::{Error, Result};
use checkers_engine::game::Opening;
use checkers_engine::text::excerpt;

use super::game::MatchGame;
use super::rows::read_match_rows;
#[cfg(doc)]
use super::{play_match_from, schedule};

/// The header line of a tournament's per-game CSV, ending in `\n`: `pairing,a,b,` and the
/// columns of a match's (with the detail column when a player is another program).
pub fn tournament_header_line(detail: bool) -> String {
    format!("pairing,a,b,{}", MatchGame::csv_header_line_for(detail))
}

/// The row of `game`, played in pairing `pairing` (from 0) between players `a` and `b` (from
/// 0; `a` is the match's A), ending in `\n`.
pub fn tournament_csv_line(
    pairing: usize,
    (a, b): (usize, usize),
    game: &MatchGame,
    detail: bool,
) -> String {
    format!(
        "{},{},{},{}",
        pairing + 1,
        a + 1,
        b + 1,
        game.csv_line_for(detail)
    )
}

/// The games read back from an interrupted tournament's file.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRows {
    /// The games of each pairing in the file, in schedule order: every pairing but the last
    /// whole, the last in whole pairs.
    pub games: Vec<Vec<MatchGame>>,
    /// Bytes up to the end of the last whole pair: anything after them is what a stopped
    /// process left.
    pub complete_len: usize,
}

/// Reads the per-game CSV `bytes` of an interrupted tournament with these `pairings` (as
/// [`schedule`] lists them), every one over `openings`, to continue it with
/// [`play_match_from`] pairing by pairing. Each pairing's rows must be exactly what its match
/// writes (see [`read_match_rows`]), with that pairing's number and players in front, the
/// pairings in schedule order and every one but the last complete; a last line without its
/// line break, or a pair's first game alone at the end, is left out. Anything else is bad input
/// naming the line (`origin` names the file).
pub fn read_tournament_rows(
    bytes: &[u8],
    origin: &str,
    pairings: &[(usize, usize)],
    openings: &[Opening],
    detail: bool,
) -> Result<TournamentRows> {
    let header = tournament_header_line(detail);
    if !bytes.starts_with(header.as_bytes()) {
        return Err(Error::input(format!(
            "{origin} line 1: not the header of a tournament's games CSV (`{}`)",
            header.trim_end()
        )));
    }
    // Each pairing's rows: where they start, where each ends, and the match's CSV they make.
    struct Group {
        start: usize,
        first_line: usize,
        ends: Vec<usize>,
        csv: Vec<u8>,
    }
    let mut groups: Vec<Group> = Vec::new();
    let mut at = header.len();
    let mut line_number = 1;
    while let Some(end) = bytes[at..].iter().position(|&b| b == b'\n') {
        line_number += 1;
        let line = &bytes[at..at + end + 1];
        let bad = |what: String| Error::input(format!("{origin} line {line_number}: {what}"));
        let text = String::from_utf8_lossy(line);
        let mut fields = text.splitn(4, ',');
        let number = fields.next().and_then(|n| n.parse::<usize>().ok());
        let current = groups.len();
        // A row belongs to the pairing being read or starts the next one.
        let expected = match number {
            Some(n) if n >= 1 && (n == current || n == current + 1) && n <= pairings.len() => n,
            _ => {
                return Err(bad(format!(
                    "expected a row of pairing {} or {} (of {}): `{}`",
                    current.max(1),
                    current + 1,
                    pairings.len(),
                    excerpt(&text)
                )))
            }
        };
        let (a, b) = pairings[expected - 1];
        let prefix = format!("{expected},{},{},", a + 1, b + 1);
        if !text.starts_with(&prefix) {
            return Err(bad(format!(
                "pairing {expected} is player {} against player {}: `{}`",
                a + 1,
                b + 1,
                excerpt(&text)
            )));
        }
        if expected > current {
            groups.push(Group {
                start: at,
                first_line: line_number,
                ends: Vec::new(),
                csv: MatchGame::csv_header_line_for(detail).into_bytes(),
            });
        }
        let group = groups.last_mut().expect("a group was pushed");
        group.csv.extend_from_slice(&line[prefix.len()..]);
        group.ends.push(at + end + 1);
        at += end + 1;
    }
    let mut games = Vec::with_capacity(groups.len());
    let mut complete_len = header.len();
    let last = groups.len().saturating_sub(1);
    for (k, group) in groups.iter().enumerate() {
        let within = format!(
            "{origin} (pairing {}, from line {}; lines counted from the pairing's first as 2)",
            k + 1,
            group.first_line
        );
        let rows = read_match_rows(&group.csv, &within, openings)?;
        let whole = rows.games.len() == 2 * openings.len();
        if k < last && !whole {
            return Err(Error::input(format!(
                "{origin} line {}: pairing {} starts before pairing {} has all its {} games",
                groups[k + 1].first_line,
                k + 2,
                k + 1,
                2 * openings.len()
            )));
        }
        complete_len = match rows.games.len() {
            0 => group.start,
            n => group.ends[n - 1],
        };
        games.push(rows.games);
    }
    Ok(TournamentRows {
        games,
        complete_len,
    })
}
