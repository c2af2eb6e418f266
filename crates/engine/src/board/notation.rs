//! Move notation: `9-13` for a step, `9x18` for a jump, `9x18x27` for a multiple jump.
//!
//! Output always gives a multiple jump's full landing path. Input also accepts the short form
//! `9x27` (start and end only) when exactly one legal jump path has that start and end.

use std::fmt;

use super::moves::Move;
use super::position::Position;

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.is_capture() { 'x' } else { '-' };
        for (k, s) in self.squares().iter().enumerate() {
            if k > 0 {
                write!(f, "{sep}")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// Why a move text does not name a legal move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// Not of the form `a-b` or `axbx…` with squares 1–32.
    Syntax(String),
    /// Well formed, but not a legal move here.
    Illegal(String),
    /// A short jump `axb` matching several legal paths; lists them.
    Ambiguous(String, Vec<String>),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Syntax(t) => write!(
                f,
                "{t:?} is not a move (expected e.g. 9-13, 9x18 or 9x18x27 with squares 1-32)"
            ),
            MoveParseError::Illegal(t) => write!(f, "{t} is not a legal move in this position"),
            MoveParseError::Ambiguous(t, paths) => write!(
                f,
                "{t} is ambiguous: give the full path, one of {}",
                paths.join(", ")
            ),
        }
    }
}

impl std::error::Error for MoveParseError {}

impl Position {
    /// Finds the legal move that `text` names (`9-13`, `9x18x27`, or the short `9x27`).
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        let text = text.trim();
        let (squares, capture) =
            move_text_squares(text).ok_or_else(|| MoveParseError::Syntax(text.to_string()))?;
        let moves = self.legal_moves();
        if let Some(mv) = moves
            .iter()
            .find(|m| m.is_capture() == capture && m.squares().as_slice() == squares.as_slice())
        {
            return Ok(*mv);
        }
        if capture && squares.len() == 2 {
            let matching: Vec<&Move> = moves
                .iter()
                .filter(|m| m.is_capture() && m.from() == squares[0] && m.to() == squares[1])
                .collect();
            match matching.len() {
                1 => return Ok(*matching[0]),
                0 => {}
                _ => {
                    return Err(MoveParseError::Ambiguous(
                        text.to_string(),
                        matching.iter().map(|m| m.to_string()).collect(),
                    ))
                }
            }
        }
        Err(MoveParseError::Illegal(text.to_string()))
    }
}

/// The squares of a move text, `from-to` or `from x … x …` (each 1–32; a step names exactly
/// two, a capture at least two), and whether it is a capture; `None` if it is neither form.
pub(crate) fn move_text_squares(text: &str) -> Option<(Vec<u8>, bool)> {
    let capture = text.contains(['x', 'X']);
    let step = text.contains('-');
    if capture == step {
        return None;
    }
    let squares: Vec<u8> = text
        .split(['x', 'X', '-'])
        .map(|s| s.parse::<u8>().ok().filter(|n| (1..=32).contains(n)))
        .collect::<Option<_>>()?;
    (squares.len() >= 2 && (capture || squares.len() == 2)).then_some((squares, capture))
}
