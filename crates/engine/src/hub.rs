//! The Hub protocol (the text protocol of the Scan draughts engine, version 2) for English
//! checkers, in the formats pydraughts' `HubEngine` sends and reads: the pieces of the `hub`
//! command that do not touch standard input or output.
//!
//! **Lines.** `command key=value key="quoted value" flag …`: [`parse_line`] splits one.
//!
//! **Positions.** Scan's format is the side to move (`W` or `B`) followed by one character per
//! square (`w`/`b` men, `W`/`B` kings, `e` empty). Scan plays 10×10 draughts only; for English
//! checkers the one driver, pydraughts, writes the 32 squares in its own internal orientation,
//! where the side that moves first is "white": character `i` (1–32) of the board part stands for
//! English square `33 − i`, `w`/`W` are Black's pieces, `b`/`B` White's, and a leading `W`
//! means Black to move. So the start position is `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`.
//! [`position_from_hub`] and [`position_to_hub`] follow that convention.
//!
//! **Moves** use English square numbers: `9-13` for a step, and for a capture the start, the
//! end, then every captured square in any order, `from x to x captured x …` (`9x18x14`,
//! `1x19x6x15`); [`move_to_hub`] lists the captured squares ascending, as pydraughts does.
//! Two king paths that take the same pieces between the same squares write alike; they also
//! end in the same position.
//!
//! **Scores** ([`score_to_hub`]) are in men (the evaluation divided by 100, a man's weight in
//! the material weights); a win `n` plies away is `99.xx` with `xx = 100 − n`, as Scan writes
//! it and pydraughts reads it.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::board::{move_text_squares, Bitboard, Color, Move, Position};
use crate::search::{SearchBudget, SearchResult, TimeTarget, AVERAGE_HARD_SHARE, MAX_SEARCH_DEPTH};

/// The bit of square `n` (1–32).
const fn sq(n: u8) -> Bitboard {
    1 << (n - 1)
}

/// Why a Hub line, position, move or level is not understood. Its text is meant for an
/// `error message="…"` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubError(pub String);

impl fmt::Display for HubError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HubError {}

fn err<T>(msg: impl Into<String>) -> Result<T, HubError> {
    Err(HubError(msg.into()))
}

/// One protocol line: the command and its arguments in order (a flag has an empty value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubLine {
    /// The first word.
    pub command: String,
    /// `key=value` pairs, quotes removed; a bare word is a key with an empty value.
    pub args: Vec<(String, String)>,
}

impl HubLine {
    /// The value of the first argument named `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// True if an argument named `key` is present (with or without a value).
    pub fn has(&self, key: &str) -> bool {
        self.args.iter().any(|(k, _)| k == key)
    }
}

/// Splits a line into its command and arguments; `None` for a blank line. Values may be quoted
/// with double quotes (needed for spaces or `=`); an unterminated quote is an error.
pub fn parse_line(line: &str) -> Result<Option<HubLine>, HubError> {
    let mut tokens: Vec<(String, Option<String>)> = Vec::new();
    let mut chars = line.trim().chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            break;
        }
        let mut key = String::new();
        while let Some(c) = chars.next_if(|c| !c.is_whitespace() && *c != '=') {
            key.push(c);
        }
        if chars.next_if_eq(&'=').is_none() {
            tokens.push((key, None));
            continue;
        }
        let mut value = String::new();
        if chars.next_if_eq(&'"').is_some() {
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => value.push(c),
                    None => return err(format!("unterminated quote in the value of {key}")),
                }
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                value.push(c);
            }
        }
        tokens.push((key, Some(value)));
    }
    let mut tokens = tokens.into_iter();
    let Some((command, value)) = tokens.next() else {
        return Ok(None);
    };
    if value.is_some() || command.is_empty() {
        return err("a line must start with a command word");
    }
    Ok(Some(HubLine {
        command,
        args: tokens.map(|(k, v)| (k, v.unwrap_or_default())).collect(),
    }))
}

/// Quotes a value for a Hub line when it needs it (empty, or with spaces, `=` or quotes; a
/// double quote inside becomes a single one, the protocol has no escapes).
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains([' ', '=', '"', '\t']) {
        format!("\"{}\"", value.replace('"', "'"))
    } else {
        value.to_string()
    }
}

/// Reads a Hub position (see the module documentation for pydraughts' orientation).
pub fn position_from_hub(text: &str) -> Result<Position, HubError> {
    let chars: Vec<char> = text.trim().chars().collect();
    if chars.len() != 33 {
        return err(format!(
            "a position is the side to move and 32 squares (33 characters), found {} characters",
            chars.len()
        ));
    }
    let side = match chars[0] {
        'W' => Color::Black,
        'B' => Color::White,
        c => return err(format!("the side to move must be W or B, found {c:?}")),
    };
    let (mut black, mut white, mut kings) = (0, 0, 0);
    for (i, &c) in chars[1..].iter().enumerate() {
        let square = sq(32 - i as u8);
        match c {
            'w' | 'W' => black |= square,
            'b' | 'B' => white |= square,
            'e' => {}
            other => {
                return err(format!(
                    "square character {} is {other:?}: expected w, b, W, B or e",
                    i + 1
                ))
            }
        }
        if c.is_ascii_uppercase() {
            kings |= square;
        }
    }
    Position::from_parts(black, white, kings, side).map_err(|e| HubError(e.to_string()))
}

/// Writes a position in the Hub format (see the module documentation).
pub fn position_to_hub(pos: &Position) -> String {
    let side = match pos.side_to_move() {
        Color::Black => 'W',
        Color::White => 'B',
    };
    let squares = (0..32u8).map(|i| {
        let square = sq(32 - i);
        let man = match (pos.black() & square != 0, pos.white() & square != 0) {
            (true, _) => 'w',
            (_, true) => 'b',
            _ => 'e',
        };
        // Kings only stand on occupied squares.
        if pos.kings() & square != 0 {
            man.to_ascii_uppercase()
        } else {
            man
        }
    });
    std::iter::once(side).chain(squares).collect()
}

/// Writes a move in the Hub format: `9-13`, or `from x to x` the captured squares ascending.
pub fn move_to_hub(mv: &Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    let mut out = format!("{}x{}", mv.from(), mv.to());
    for square in 1..=32u8 {
        if mv.captured() & sq(square) != 0 {
            out.push_str(&format!("x{square}"));
        }
    }
    out
}

/// Finds the legal move of `pos` that a Hub move names (`9-13`, or `from x to x captured…`
/// with the captured squares in any order). A capture given as just `from x to` is accepted
/// when one legal capture joins those squares.
pub fn move_from_hub(pos: &Position, text: &str) -> Result<Move, HubError> {
    let text = text.trim();
    let (squares, capture) = move_text_squares(text).ok_or_else(|| {
        HubError(format!(
            "{text:?} is not a Hub move (expected from-to, or from x to x captured squares, \
             with squares 1-32)"
        ))
    })?;
    let taken = squares[2..].iter().fold(0, |acc, &s| acc | sq(s));
    let moves = pos.legal_moves();
    let mut candidates = moves
        .iter()
        .filter(|m| m.is_capture() == capture && m.from() == squares[0] && m.to() == squares[1]);
    let found = if capture && squares.len() == 2 {
        let all: Vec<&Move> = candidates.collect();
        let first_captures = all.first().map(|m| m.captured());
        if all.iter().all(|m| Some(m.captured()) == first_captures) {
            all.first().copied()
        } else {
            return err(format!(
                "{text} is ambiguous: list the captured squares, one of {}",
                all.iter()
                    .map(|m| move_to_hub(m))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    } else {
        candidates.find(|m| !capture || m.captured() == taken)
    };
    found
        .copied()
        .ok_or_else(|| HubError(format!("{text} is not a legal move in this position")))
}

/// A score in the Hub's units: men with two decimals (the evaluation / 100, kept within
/// ±89.99), or `±99.xx` for a win or loss `100 − xx` plies away.
pub fn score_to_hub(result: &SearchResult) -> String {
    match result.mate_distance() {
        Some(plies) => {
            let centi = (10_000 - plies.abs().min(9_999)) * plies.signum();
            format!("{:.2}", f64::from(centi) / 100.0)
        }
        None => format!(
            "{:.2}",
            f64::from(result.score.clamp(-8_999, 8_999)) / 100.0
        ),
    }
}

/// What a `level` line asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum HubLevel {
    /// `level depth=N`: full-width depth N.
    Depth(u32),
    /// `level nodes=N`: stop after N nodes.
    Nodes(u64),
    /// `level move-time=S`: S seconds for this move.
    MoveTime(f64),
    /// `level [moves=M] time=T [inc=I]`: T seconds left on the clock (before the increment I
    /// is added), M moves to go until the next time control.
    Time {
        /// Seconds left.
        time: f64,
        /// Seconds added before every move.
        inc: f64,
        /// Moves to the next time control, if any.
        moves: Option<u32>,
    },
    /// `level infinite`: until `stop`.
    Infinite,
}

/// Deepest full-width depth a `level depth=` accepts, and the depth cap of the other levels.
pub const MAX_HUB_DEPTH: u32 = MAX_SEARCH_DEPTH;

impl HubLevel {
    /// Reads the arguments of a `level` line.
    pub fn parse(line: &HubLine) -> Result<HubLevel, HubError> {
        let seconds = |key: &str| -> Result<Option<f64>, HubError> {
            match line.get(key) {
                None => Ok(None),
                Some(v) => match v.parse::<f64>() {
                    Ok(s) if s.is_finite() && s >= 0.0 => Ok(Some(s)),
                    _ => err(format!(
                        "level {key}={v:?}: expected a number of seconds, 0 or more"
                    )),
                },
            }
        };
        // A whole number from 1 to `max`; `expected` says so in the message.
        let whole = |key: &str, max: u64, expected: &str| -> Result<Option<u64>, HubError> {
            match line.get(key) {
                None => Ok(None),
                Some(v) => match v.parse::<u64>() {
                    Ok(n) if (1..=max).contains(&n) => Ok(Some(n)),
                    _ => err(format!(
                        "level {key}={v:?}: expected a whole number{expected}"
                    )),
                },
            }
        };
        let one_or_more = ", 1 or more";
        if line.has("infinite") {
            return Ok(HubLevel::Infinite);
        }
        let max_depth = format!(" from 1 to {MAX_HUB_DEPTH}");
        if let Some(d) = whole("depth", MAX_HUB_DEPTH.into(), &max_depth)? {
            return Ok(HubLevel::Depth(d as u32));
        }
        if let Some(n) = whole("nodes", u64::MAX, one_or_more)? {
            return Ok(HubLevel::Nodes(n));
        }
        if let Some(s) = seconds("move-time")? {
            return Ok(HubLevel::MoveTime(s));
        }
        if let Some(time) = seconds("time")? {
            let inc = seconds("inc")?.unwrap_or(0.0);
            let moves = whole("moves", u32::MAX.into(), one_or_more)?.map(|m| m as u32);
            return Ok(HubLevel::Time { time, inc, moves });
        }
        err("level needs one of depth=, nodes=, move-time=, time= (with inc=, moves=) or infinite")
    }

    /// True for a level measured in time (`move-time`, `time`), where a lone legal move is
    /// played without searching on.
    pub fn is_timed(&self) -> bool {
        matches!(self, HubLevel::MoveTime(_) | HubLevel::Time { .. })
    }

    /// The search budget for a search started at `started`, with captures followed
    /// `extension` plies beyond the full-width depth, ended early by `stop`.
    ///
    /// Time controls: with `time=T inc=I [moves=M]` a move is planned to take
    /// `T / M + I` (M = 30 without `moves`), the time manager's target, and the iteration under
    /// way is abandoned at three times the plan, never later than half of `T + I`.
    /// `move-time=S` is an average, as engines spend it: S is the target and the iteration under
    /// way is abandoned at twice S. A margin of up to 20 ms is kept for the answer to reach the
    /// GUI.
    pub fn budget(&self, extension: u32, started: Instant, stop: Arc<AtomicBool>) -> SearchBudget {
        let at = |seconds: f64| started + Duration::from_secs_f64(seconds.max(0.001));
        let margin = |seconds: f64| seconds - (seconds * 0.1).min(0.02);
        let target = |seconds: f64| TimeTarget {
            started,
            target: Duration::from_secs_f64(seconds.max(0.001)),
        };
        let mut budget = SearchBudget {
            stop: Some(stop),
            ..SearchBudget::depth(MAX_HUB_DEPTH, extension)
        };
        match *self {
            HubLevel::Depth(d) => budget.depth = d,
            HubLevel::Nodes(n) => budget.nodes = Some(n),
            HubLevel::MoveTime(s) => {
                // An average, as engines spend a time a move: hard moves may take more.
                budget.time = Some(target(s));
                budget.deadline = Some(at(margin(s * AVERAGE_HARD_SHARE)));
            }
            HubLevel::Time { time, inc, moves } => {
                let planned = time / f64::from(moves.unwrap_or(30).max(1)) + inc;
                let hard = (planned * 3.0).min((time + inc) * 0.5);
                budget.time = Some(target(planned));
                budget.deadline = Some(at(margin(hard)));
            }
            HubLevel::Infinite => {}
        }
        budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_into_command_and_arguments() {
        let line = parse_line(r#"pos pos=Wbe moves="9-13 22-18"  infinite"#)
            .unwrap()
            .unwrap();
        assert_eq!(line.command, "pos");
        assert_eq!(line.get("pos"), Some("Wbe"));
        assert_eq!(line.get("moves"), Some("9-13 22-18"));
        assert!(line.has("infinite"));
        assert_eq!(parse_line("   ").unwrap(), None);
        assert!(parse_line(r#"pos moves="9-13"#).is_err());
        assert!(parse_line("=x").is_err());
    }

    #[test]
    fn the_start_position_is_written_as_pydraughts_does() {
        let hub = position_to_hub(&Position::start());
        assert_eq!(hub, "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        assert_eq!(position_from_hub(&hub).unwrap(), Position::start());
        // pydraughts' hub string for W:W25,27,31:B3,9,14,17 (White to move).
        let pos = position_from_hub("Bebeeebebeeeeeeeweeweeeeweeeeewee").unwrap();
        assert_eq!(pos, Position::from_fen("W:W25,27,31:B3,9,14,17").unwrap());
        assert!(position_from_hub("Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww").is_err());
        assert!(position_from_hub("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwww").is_err());
        assert!(position_from_hub("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwx").is_err());
    }

    #[test]
    fn moves_round_trip_with_captured_squares_in_any_order() {
        // pydraughts writes the king's double jump 14x23x32 as 14x32x18x27.
        let pos = Position::from_fen("B:W18,19,26,27:B14,K22").unwrap();
        for mv in pos.legal_moves() {
            let text = move_to_hub(&mv);
            let back = move_from_hub(&pos, &text).unwrap();
            assert_eq!(pos.play(&back), pos.play(&mv), "{text}");
        }
        let mv = move_from_hub(&pos, "14x32x27x18").unwrap();
        assert_eq!(mv.to_string(), "14x23x32");
        assert_eq!(move_to_hub(&mv), "14x32x18x27");
        assert!(move_from_hub(&pos, "14x32x18").is_err());
        assert!(move_from_hub(&Position::start(), "9-14").is_ok());
        assert!(move_from_hub(&Position::start(), "9-18").is_err());
        assert!(move_from_hub(&Position::start(), "9x14").is_err());
        assert!(move_from_hub(&Position::start(), "nine-13").is_err());
    }

    #[test]
    fn scores_are_men_and_wins_are_99_something() {
        let result = |score| SearchResult {
            best_move: None,
            score,
            nodes: 0,
            pv: Vec::new(),
            depth: 1,
        };
        assert_eq!(score_to_hub(&result(125)), "1.25");
        assert_eq!(score_to_hub(&result(-50)), "-0.50");
        assert_eq!(score_to_hub(&result(crate::search::WIN - 3)), "99.97");
        assert_eq!(score_to_hub(&result(-(crate::search::WIN - 4))), "-99.96");
        assert_eq!(score_to_hub(&result(1_000_000)), "89.99");
    }

    #[test]
    fn levels_parse_and_become_budgets() {
        let level = |text: &str| HubLevel::parse(&parse_line(text).unwrap().unwrap());
        assert_eq!(level("level depth=4"), Ok(HubLevel::Depth(4)));
        assert_eq!(level("level nodes=1000"), Ok(HubLevel::Nodes(1000)));
        assert_eq!(level("level move-time=0.5"), Ok(HubLevel::MoveTime(0.5)));
        assert_eq!(
            level("level moves=9 time=291.587 inc=1"),
            Ok(HubLevel::Time {
                time: 291.587,
                inc: 1.0,
                moves: Some(9)
            })
        );
        assert_eq!(level("level infinite"), Ok(HubLevel::Infinite));
        assert!(level("level depth=0").is_err());
        assert!(level("level depth=x").is_err());
        assert!(level("level time=-1").is_err());
        assert!(level("level").is_err());
        let now = Instant::now();
        let stop = Arc::new(AtomicBool::new(false));
        let b = HubLevel::MoveTime(1.0).budget(6, now, Arc::clone(&stop));
        // An average: the time manager's target, the iteration under way abandoned at twice
        // it (less the answer's 20 ms).
        assert_eq!(b.deadline, Some(now + Duration::from_secs_f64(1.98)));
        let target = b.time.unwrap();
        assert_eq!(
            (target.started, target.target),
            (now, Duration::from_secs(1))
        );
        let b = HubLevel::Depth(7).budget(6, now, stop);
        assert_eq!((b.depth, b.extension, b.deadline), (7, 6, None));
    }
}
