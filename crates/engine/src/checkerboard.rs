//! The CheckerBoard engine API (`cb_interface.h` and `cb_api_reference.htm` of CheckerBoard,
//! the GUI of English checkers): the pieces both sides of it need. A CheckerBoard engine is a
//! library exporting `getmove` and `enginecommand`; the board it is handed is an `int[8][8]`
//! indexed `[x][y]`, where square `n` (1–32) of English checkers stands at
//! `y = (n − 1) / 4`, `x = 2·(3 − (n − 1) mod 4)`, plus one on odd rows (`numbertocoors`).
//! Black (`CB_BLACK`) starts on squares 1–12 and moves first, as in our engine.
//!
//! `match` plays such libraries through a host process (`checkers_harness::players`);
//! the crate `checkers-tuner-cb` (folder `checkerboard/`) is our engine as such a library.

use crate::board::{Color, Move, Position};

/// An empty square.
pub const CB_FREE: i32 = 0;
/// A white piece.
pub const CB_WHITE: i32 = 1;
/// A black piece.
pub const CB_BLACK: i32 = 2;
/// A man (with a colour bit).
pub const CB_MAN: i32 = 4;
/// A king (with a colour bit).
pub const CB_KING: i32 = 8;
/// `getmove`'s answer: the engine claims a draw.
pub const CB_DRAW: i32 = 0;
/// `getmove`'s answer: the engine claims a win.
pub const CB_WIN: i32 = 1;
/// `getmove`'s answer: the engine claims a loss.
pub const CB_LOSS: i32 = 2;
/// `getmove`'s answer: no claim.
pub const CB_UNKNOWN: i32 = 3;
/// `getmove`'s `info` bit: a new game (or any break in the game's flow).
pub const CB_RESET_MOVES: i32 = 1;
/// `getmove`'s `info` bit: take exactly `maxtime`, never more.
pub const CB_EXACT_TIME: i32 = 2;
/// Where `getmove`'s `info` keeps the incremental-time mode (2 bits: 0 off, 1–3 the units
/// 0.001, 0.01 and 0.1 s of `moreinfo`'s remaining time, high 16 bits, and increment, low 16).
pub const CB_INCR_TIME_SHIFT: i32 = 2;
/// `get gametype`'s answer for English checkers.
pub const GT_ENGLISH: i32 = 21;
/// The size of `enginecommand`'s reply buffer.
pub const REPLY_SIZE: usize = 1024;
/// The size of `getmove`'s status string buffer.
pub const STATUS_SIZE: usize = 1024;

/// Copies `text` into a C buffer of `size` bytes (an engine's reply or status string), cut to
/// fit, NUL-terminated.
///
/// # Safety
///
/// `buffer` must be null (nothing is written) or point to `size` writable bytes.
pub unsafe fn write_c_string(buffer: *mut std::ffi::c_char, size: usize, text: &str) {
    if buffer.is_null() || size == 0 {
        return;
    }
    let bytes = text.as_bytes();
    let n = bytes.len().min(size - 1);
    std::ptr::copy_nonoverlapping(bytes.as_ptr().cast::<std::ffi::c_char>(), buffer, n);
    *buffer.add(n) = 0;
}

/// CheckerBoard's board: `board[x][y]`, each entry a colour bit with `CB_MAN` or `CB_KING`, or
/// `CB_FREE`.
pub type Board8x8 = [[i32; 8]; 8];

/// The coordinates `(x, y)` of square `n` (1–32) on [`Board8x8`] (`numbertocoors` for English
/// checkers).
pub const fn square_coordinates(n: u8) -> (usize, usize) {
    let i = (n - 1) as usize;
    let y = i / 4;
    let x = 2 * (3 - i % 4) + y % 2;
    (x, y)
}

/// CheckerBoard's code of a side (`CB_BLACK` or `CB_WHITE`).
pub const fn color_code(color: Color) -> i32 {
    match color {
        Color::Black => CB_BLACK,
        Color::White => CB_WHITE,
    }
}

/// The side of a CheckerBoard colour code; `None` for anything else.
pub const fn color_of_code(code: i32) -> Option<Color> {
    match code {
        CB_BLACK => Some(Color::Black),
        CB_WHITE => Some(Color::White),
        _ => None,
    }
}

/// The board of `pos` (the side to move is not on it: `getmove` takes it apart).
pub fn board_from_position(pos: &Position) -> Board8x8 {
    let mut board = [[CB_FREE; 8]; 8];
    for n in 1..=32u8 {
        let bit = 1u32 << (n - 1);
        let color = if pos.black() & bit != 0 {
            CB_BLACK
        } else if pos.white() & bit != 0 {
            CB_WHITE
        } else {
            continue;
        };
        let kind = if pos.kings() & bit != 0 {
            CB_KING
        } else {
            CB_MAN
        };
        let (x, y) = square_coordinates(n);
        board[x][y] = color | kind;
    }
    board
}

/// The position on `board` with `side` to move. Every entry must be `CB_FREE` or a colour with
/// a man or a king, the light squares empty, and the position legal (no man on the row it
/// would have been crowned on, at most 12 pieces a side); the message says what is not.
pub fn position_from_board(board: &Board8x8, side: Color) -> Result<Position, String> {
    let mut black = 0u32;
    let mut white = 0u32;
    let mut kings = 0u32;
    let mut dark = [[false; 8]; 8];
    for n in 1..=32u8 {
        let (x, y) = square_coordinates(n);
        dark[x][y] = true;
        let bit = 1u32 << (n - 1);
        match board[x][y] {
            CB_FREE => {}
            v if v == CB_BLACK | CB_MAN => black |= bit,
            v if v == CB_WHITE | CB_MAN => white |= bit,
            v if v == CB_BLACK | CB_KING => {
                black |= bit;
                kings |= bit;
            }
            v if v == CB_WHITE | CB_KING => {
                white |= bit;
                kings |= bit;
            }
            v => return Err(format!("square {n} holds {v}, not a piece")),
        }
    }
    for (x, column) in board.iter().enumerate() {
        for (y, &v) in column.iter().enumerate() {
            if !dark[x][y] && v != CB_FREE {
                return Err(format!("light square [{x}][{y}] holds {v}"));
            }
        }
    }
    Position::from_parts(black, white, kings, side).map_err(|e| e.to_string())
}

/// The legal move of `pos` that leaves `board` (`getmove`'s answer); `None` if none does.
/// Two king captures that take the same pieces between the same squares leave the same board:
/// the first in generation order is taken (both end in the same position).
pub fn move_to_board(pos: &Position, board: &Board8x8) -> Option<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .find(|mv| board_from_position(&pos.play(mv)) == *board)
}

/// A board in one line for messages: the squares 1–32, `b`/`w` men, `B`/`W` kings, `.` empty,
/// `?` anything else, in groups of four.
pub fn board_text(board: &Board8x8) -> String {
    let mut text = String::with_capacity(40);
    for n in 1..=32u8 {
        let (x, y) = square_coordinates(n);
        text.push(match board[x][y] {
            CB_FREE => '.',
            v if v == CB_BLACK | CB_MAN => 'b',
            v if v == CB_WHITE | CB_MAN => 'w',
            v if v == CB_BLACK | CB_KING => 'B',
            v if v == CB_WHITE | CB_KING => 'W',
            _ => '?',
        });
        if n % 4 == 0 && n < 32 {
            text.push(' ');
        }
    }
    text
}

/// `set gamehist` as CheckerBoard sends it before each `getmove`: the position after the last
/// irreversible move as FEN, then the moves since (`from-to`, quiet king moves).
pub fn gamehist_command(since: &Position, quiet_moves: &[Move]) -> String {
    let mut text = format!("set gamehist {}", since.to_fen());
    for mv in quiet_moves {
        text.push_str(&format!(" {}-{}", mv.from(), mv.to()));
    }
    text
}

/// Reads `set gamehist`'s argument: the position, then the positions after each move (the
/// last one the current position). The message says which part cannot be read or played.
pub fn read_gamehist(text: &str) -> Result<Vec<Position>, String> {
    let mut words = text.split_whitespace();
    let fen = words.next().ok_or("no position")?;
    let mut pos = Position::from_fen(fen).map_err(|e| format!("position {fen:?}: {e}"))?;
    let mut positions = vec![pos];
    for word in words {
        let mv = pos
            .parse_move(word)
            .map_err(|e| format!("move {word:?}: {e}"))?;
        pos = pos.play(&mv);
        positions.push(pos);
    }
    Ok(positions)
}

/// `getmove`'s `info` bits and `moreinfo` for a clock of `remaining` seconds and an `increment`
/// each move: in the finest of the three units that holds both in 16 bits.
pub fn incremental_time(remaining: f64, increment: f64) -> (i32, i32) {
    for (mode, unit) in [(1, 0.001), (2, 0.01), (3, 0.1)] {
        let r = (remaining / unit).round();
        let i = (increment / unit).round();
        if r <= 65535.0 && i <= 65535.0 {
            let more = ((r.max(0.0) as u32) << 16) | i.max(0.0) as u32;
            return (mode << CB_INCR_TIME_SHIFT, more as i32);
        }
    }
    let more = (65535u32 << 16) | (increment / 0.1).round().clamp(0.0, 65535.0) as u32;
    (3 << CB_INCR_TIME_SHIFT, more as i32)
}

/// The increment and remaining time in seconds packed in `info` and `moreinfo`; `None` when
/// incremental time is off (`get_incremental_times`).
pub fn incremental_times(info: i32, moreinfo: i32) -> Option<(f64, f64)> {
    let unit = match (info >> CB_INCR_TIME_SHIFT) & 3 {
        1 => 0.001,
        2 => 0.01,
        3 => 0.1,
        _ => return None,
    };
    let more = moreinfo as u32;
    Some((
        f64::from(more & 0xffff) * unit,
        f64::from(more >> 16) * unit,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_sit_where_numbertocoors_puts_them() {
        // From cb_interface.h's formula, worked by hand: 1 is the top row's right end,
        // 4 its left end, 5 the next row's rightmost dark square.
        assert_eq!(square_coordinates(1), (6, 0));
        assert_eq!(square_coordinates(4), (0, 0));
        assert_eq!(square_coordinates(5), (7, 1));
        assert_eq!(square_coordinates(8), (1, 1));
        assert_eq!(square_coordinates(32), (1, 7));
        // And back, as coorstonumber: 4·(y + 1) − x / 2.
        for n in 1..=32u8 {
            let (x, y) = square_coordinates(n);
            assert_eq!(4 * (y + 1) - x / 2, n as usize);
            assert_eq!((x + y) % 2, 0, "square {n} on a light square");
        }
    }

    #[test]
    fn boards_round_trip_and_find_the_move_played() {
        let fens = [
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "W:WK12,K27,30,32:B21,K24,28,K31",
            // A double jump for Black: 9x18x27.
            "B:W14,23,30:B9,K1",
        ];
        for fen in fens {
            let pos = Position::from_fen(fen).unwrap();
            let board = board_from_position(&pos);
            assert_eq!(
                position_from_board(&board, pos.side_to_move()).unwrap(),
                pos
            );
            for mv in pos.legal_moves().iter() {
                let after = board_from_position(&pos.play(mv));
                let found = move_to_board(&pos, &after).unwrap();
                assert_eq!(pos.play(&found), pos.play(mv), "{fen} {mv}");
            }
            assert_eq!(
                move_to_board(&pos, &board),
                None,
                "{fen}: no move leaves it as it is"
            );
        }
    }

    #[test]
    fn bad_boards_are_named() {
        let mut board = board_from_position(&Position::start());
        board[1][0] = CB_BLACK | CB_MAN;
        assert!(position_from_board(&board, Color::Black)
            .unwrap_err()
            .contains("light square"));
        let mut board = board_from_position(&Position::start());
        board[6][0] = 7;
        assert!(position_from_board(&board, Color::Black)
            .unwrap_err()
            .contains("square 1 holds 7"));
    }

    #[test]
    fn gamehist_is_written_and_read_back() {
        let since = Position::from_fen("W:WK1,K3:BK30,K32").unwrap();
        let mut pos = since;
        let mut moves = Vec::new();
        for text in ["1-5", "30-26", "5-1", "26-30"] {
            let mv = pos.parse_move(text).unwrap();
            pos = pos.play(&mv);
            moves.push(mv);
        }
        let command = gamehist_command(&since, &moves);
        assert!(command.starts_with("set gamehist W:W"), "{command}");
        assert!(command.ends_with(" 1-5 30-26 5-1 26-30"), "{command}");
        let positions = read_gamehist(command.trim_start_matches("set gamehist ")).unwrap();
        assert_eq!(positions.len(), 5);
        assert_eq!(positions[0], since);
        assert_eq!(positions[4], pos);
    }

    #[test]
    fn incremental_time_packs_and_unpacks() {
        let (info, more) = incremental_time(100.0, 0.5);
        assert_eq!(
            (info >> CB_INCR_TIME_SHIFT) & 3,
            2,
            "0.01 s units past 65.535 s"
        );
        let (inc, rem) = incremental_times(info | CB_RESET_MOVES, more).unwrap();
        assert!((inc - 0.5).abs() < 1e-9 && (rem - 100.0).abs() < 1e-9);
        let (info, more) = incremental_time(5.0, 0.1);
        let (inc, rem) = incremental_times(info, more).unwrap();
        assert_eq!((info >> CB_INCR_TIME_SHIFT) & 3, 1);
        assert!((inc - 0.1).abs() < 1e-9 && (rem - 5.0).abs() < 1e-9);
        assert_eq!(incremental_times(CB_RESET_MOVES, 0), None);
    }
}
