//! PDN FEN: `B:W21,22,23:B1,2,K3` — side to move, then each colour's squares, `K` marks a king.
//!
//! Reading accepts either colour list first, squares in any order, ranges (`W21-32`), spaces
//! around tokens and a trailing full stop. Writing gives White's list first, squares ascending.

use std::fmt;
use std::str::FromStr;

use super::bitboard::{sq, Bitboard, Bits};
use super::position::{Color, Position, PositionError};

/// Why a FEN string is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not three `:`-separated fields.
    Fields(usize),
    /// The side-to-move field is not `B` or `W`.
    Side(String),
    /// A piece list does not start with `B` or `W`.
    ListColor(String),
    /// Both lists are for the same colour.
    RepeatedColor(char),
    /// A token is not a square number, `K` + square, or a range.
    Token(String),
    /// A square number outside 1–32.
    OutOfRange(u32),
    /// A square listed twice for one colour.
    Duplicate(u8),
    /// The pieces do not form a legal position.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Fields(n) => write!(
                f,
                "expected three fields separated by ':' (side:list:list), found {n}"
            ),
            FenError::Side(s) => write!(f, "side to move must be B or W, found {s:?}"),
            FenError::ListColor(s) => {
                write!(f, "a piece list must start with B or W, found {s:?}")
            }
            FenError::RepeatedColor(c) => write!(f, "the piece list of {c} is given twice"),
            FenError::Token(t) => write!(
                f,
                "{t:?} is not a square (expected a number 1-32, K before a king, or a range like 21-32)"
            ),
            FenError::OutOfRange(n) => write!(f, "square {n} is off the board (squares are 1-32)"),
            FenError::Duplicate(n) => write!(f, "square {n} is listed twice"),
            FenError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Position(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

fn parse_square(text: &str) -> Result<u8, FenError> {
    let n: u32 = text
        .trim()
        .parse()
        .map_err(|_| FenError::Token(text.trim().to_string()))?;
    if !(1..=32).contains(&n) {
        return Err(FenError::OutOfRange(n));
    }
    Ok(n as u8)
}

/// Parses one colour's list (without its leading letter) into (pieces, kings).
fn parse_list(list: &str) -> Result<(Bitboard, Bitboard), FenError> {
    let (mut pieces, mut kings) = (0, 0);
    for token in list.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let (king, body) = match token.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest),
            None => (false, token),
        };
        let squares = match body.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (parse_square(a)?, parse_square(b)?);
                (a.min(b)..=a.max(b)).fold(0, |acc, n| acc | sq(n))
            }
            None => sq(parse_square(body)?),
        };
        if pieces & squares != 0 {
            return Err(FenError::Duplicate(
                (pieces & squares).trailing_zeros() as u8 + 1,
            ));
        }
        pieces |= squares;
        if king {
            kings |= squares;
        }
    }
    Ok((pieces, kings))
}

impl Position {
    /// Reads a PDN FEN string. Every malformed input gives an error, never a panic.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let text = fen.trim();
        let text = text.strip_suffix('.').unwrap_or(text);
        let fields: Vec<&str> = text.split(':').collect();
        if fields.len() != 3 {
            return Err(FenError::Fields(fields.len()));
        }
        let side = match fields[0].trim() {
            "B" | "b" => Color::Black,
            "W" | "w" => Color::White,
            other => return Err(FenError::Side(other.to_string())),
        };
        let mut lists: [Option<(Bitboard, Bitboard)>; 2] = [None, None];
        for field in &fields[1..] {
            let field = field.trim();
            let color = match field.chars().next() {
                Some('B' | 'b') => Color::Black,
                Some('W' | 'w') => Color::White,
                _ => return Err(FenError::ListColor(field.to_string())),
            };
            if lists[color as usize].is_some() {
                return Err(FenError::RepeatedColor(color.letter()));
            }
            lists[color as usize] = Some(parse_list(&field[1..])?);
        }
        let (black, black_kings) = lists[0].unwrap_or_default();
        let (white, white_kings) = lists[1].unwrap_or_default();
        Ok(Position::from_parts(
            black,
            white,
            black_kings | white_kings,
            side,
        )?)
    }

    /// Writes the position as PDN FEN (White's list first, squares ascending).
    pub fn to_fen(&self) -> String {
        let list = |color: Color| {
            let squares: Vec<String> = Bits(self.pieces(color))
                .map(|i| {
                    let king = if self.kings & (1 << i) != 0 { "K" } else { "" };
                    format!("{king}{}", i + 1)
                })
                .collect();
            format!("{}{}", color.letter(), squares.join(","))
        };
        format!(
            "{}:{}:{}",
            self.side.letter(),
            list(Color::White),
            list(Color::Black)
        )
    }

    /// A text diagram of the board from White's side (square 1 at the top), for terminals:
    /// `b`/`w` men, `B`/`W` kings, `.` empty dark squares.
    pub fn to_diagram(&self) -> String {
        let mut out = String::new();
        for row in 0..8u32 {
            out.push_str(&format!("{:>3} ", row * 4 + 1));
            for col in 0..8u32 {
                // Even rows hold their dark squares in odd columns (see the bitboard layout).
                let dark = (col % 2 == 1) == (row % 2 == 0);
                if !dark {
                    out.push_str("  ");
                    continue;
                }
                let bit = 1u32 << (row * 4 + col / 2);
                let c = match (
                    self.black() & bit != 0,
                    self.white() & bit != 0,
                    self.kings & bit != 0,
                ) {
                    (true, _, false) => 'b',
                    (true, _, true) => 'B',
                    (_, true, false) => 'w',
                    (_, true, true) => 'W',
                    _ => '.',
                };
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out
    }
}

impl FromStr for Position {
    type Err = FenError;

    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}
