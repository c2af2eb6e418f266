//! The positions store (`positions.bin`, docs/run-folder.md): every game a run has played, as
//! its start position and each move's index among the legal moves, with the score of the
//! search that chose it. A fit replays the positions from it without parsing text, and learns
//! from the scores as well as from the results.
//!
//! The file is an 8-byte magic (`CTPOS001`) and blocks appended round by round: a round header
//! (`R`, the round as `u32`, its games as `u32`), then each game: `G`, the start position
//! (Black's, White's and the kings' squares as `u32` bitboards, the side to move as a byte), the
//! result (a byte: 0 Black won, 1 White won, 2 drawn), the number of moves as `u16`, and per
//! move its index (a byte) and its score (`i16`: the mover's search score clamped to
//! ±[`SCORE_WIN`](super::records::SCORE_WIN), wins and losses at the bounds;
//! [`NO_SCORE`](super::records::NO_SCORE) for a move no search chose, such as an opening's).
//! Numbers are little-endian. A round is appended whole and reaches the disk
//! before the checkpoint that counts it; a resumed run cuts the store back to its checkpoint's
//! rounds.

use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Write};
use std::path::Path;

use crate::engine::{Color, Position};
use crate::error::{Error, Result};
use crate::game::GameResult;
use crate::input_file;
use crate::run_folder::POSITIONS_FILE;

use super::records::{RecordedGame, NO_SCORE};

/// The first bytes of a store.
const MAGIC: &[u8; 8] = b"CTPOS001";

/// The end of the message of a file cut inside a record.
const ENDS_INSIDE: &str = "the file ends inside a record";

/// One game of the store: the game and the round it was played in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The round (0 for games that belong to no round).
    pub round: u32,
    /// The game, with its scores.
    pub game: RecordedGame,
}

/// The bytes of one round's block.
pub fn round_block(round: u32, games: &[RecordedGame]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + games.len() * 256);
    out.push(b'R');
    out.extend_from_slice(&round.to_le_bytes());
    out.extend_from_slice(&(games.len() as u32).to_le_bytes());
    for game in games {
        out.push(b'G');
        let start = game.start;
        for board in [
            start.pieces(Color::Black),
            start.pieces(Color::White),
            start.kings(),
        ] {
            out.extend_from_slice(&board.to_le_bytes());
        }
        out.push(start.side_to_move() as u8);
        out.push(match game.result {
            GameResult::BlackWin => 0,
            GameResult::WhiteWin => 1,
            GameResult::Draw => 2,
        });
        out.extend_from_slice(&(game.moves.len() as u16).to_le_bytes());
        let mut pos = start;
        for (ply, mv) in game.moves.iter().enumerate() {
            let index = pos
                .legal_moves()
                .iter()
                .position(|m| m == mv)
                .expect("a recorded move is legal");
            out.push(index as u8);
            let score = game.scores.get(ply).copied().unwrap_or(NO_SCORE);
            out.extend_from_slice(&score.to_le_bytes());
            pos = pos.play(mv);
        }
    }
    out
}

/// Creates (or empties) the store of `dir`: its magic only.
pub fn start_store(dir: &Path) -> Result<()> {
    let path = dir.join(POSITIONS_FILE);
    let mut file = File::create(&path).map_err(|e| Error::io("create", &path, &e))?;
    file.write_all(MAGIC)
        .and_then(|()| file.sync_all())
        .map_err(|e| Error::io("write", &path, &e))
}

/// Appends round `round`'s games to the store of `dir` and flushes them to disk.
pub fn append_round(dir: &Path, round: u32, games: &[RecordedGame]) -> Result<()> {
    let path = dir.join(POSITIONS_FILE);
    let mut file = input_file::no_links(OpenOptions::new().append(true))
        .open(&path)
        .map_err(|e| Error::io("open", &path, &e))?;
    file.write_all(&round_block(round, games))
        .and_then(|()| file.sync_data())
        .map_err(|e| Error::io("write", &path, &e))
}

/// Reads a store, game by game.
pub struct StoreReader<R: Read> {
    input: R,
    origin: String,
    offset: u64,
    round: u32,
    games_left: u32,
    /// The file ended inside a round's block.
    cut: bool,
}

impl StoreReader<BufReader<File>> {
    /// Opens the store at `path` (a regular file, links followed: the user named it).
    pub fn open(path: &Path) -> Result<StoreReader<BufReader<File>>> {
        let file = input_file::open(path, input_file::Links::Follow)
            .map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
        StoreReader::new(
            BufReader::with_capacity(1 << 20, file),
            &path.display().to_string(),
        )
    }
}

impl<R: Read> StoreReader<R> {
    /// A reader of `input`, named `origin` in messages; checks the magic.
    pub fn new(mut input: R, origin: &str) -> Result<StoreReader<R>> {
        let mut magic = [0u8; 8];
        input
            .read_exact(&mut magic)
            .map_err(|_| Error::input(format!("{origin}: not a positions store (too short)")))?;
        if &magic != MAGIC {
            return Err(Error::input(format!(
                "{origin}: not a positions store of this version (expected it to begin with {})",
                String::from_utf8_lossy(MAGIC)
            )));
        }
        Ok(StoreReader {
            input,
            origin: origin.to_string(),
            offset: 8,
            round: 0,
            games_left: 0,
            cut: false,
        })
    }

    /// The byte offset reached: the end of the last game or round header read.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether the file ended inside a round's block (what a writer stopped mid-round leaves):
    /// the reader has given the whole games before that point and stopped.
    pub fn cut_short(&self) -> bool {
        self.cut
    }

    fn damaged(&self, what: impl std::fmt::Display) -> Error {
        Error::input(format!(
            "{}: damaged at byte {}: {what}",
            self.origin, self.offset
        ))
    }

    fn bytes<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut buf = [0u8; N];
        self.input
            .read_exact(&mut buf)
            .map_err(|_| self.damaged(ENDS_INSIDE))?;
        Ok(buf)
    }

    /// The next round header's round, or `None` at the end of the file.
    fn next_round(&mut self) -> Result<Option<u32>> {
        let mut tag = [0u8; 1];
        match self.input.read(&mut tag) {
            Ok(0) => return Ok(None),
            Ok(_) => {}
            Err(e) => return Err(self.damaged(e)),
        }
        if tag[0] != b'R' {
            return Err(self.damaged("expected a round header"));
        }
        let round = u32::from_le_bytes(self.bytes()?);
        let games = u32::from_le_bytes(self.bytes()?);
        self.offset += 9;
        self.round = round;
        self.games_left = games;
        Ok(Some(round))
    }

    /// The next game, or `None` at the end of the file or where it is cut short (see
    /// [`StoreReader::cut_short`]); a record that is not what the format says is an error.
    pub fn next_game(&mut self) -> Result<Option<StoredGame>> {
        match self.read_game() {
            Err(Error::Input(message)) if message.ends_with(ENDS_INSIDE) => {
                self.cut = true;
                Ok(None)
            }
            other => other,
        }
    }

    fn read_game(&mut self) -> Result<Option<StoredGame>> {
        if self.cut {
            return Ok(None);
        }
        while self.games_left == 0 {
            if self.next_round()?.is_none() {
                return Ok(None);
            }
        }
        let [tag] = self.bytes::<1>()?;
        if tag != b'G' {
            return Err(self.damaged("expected a game"));
        }
        let black = u32::from_le_bytes(self.bytes()?);
        let white = u32::from_le_bytes(self.bytes()?);
        let kings = u32::from_le_bytes(self.bytes()?);
        let [side, result] = self.bytes::<2>()?;
        let plies = u16::from_le_bytes(self.bytes()?);
        let side = match side {
            0 => Color::Black,
            1 => Color::White,
            _ => return Err(self.damaged("the side to move is not 0 or 1")),
        };
        let start = Position::from_parts(black, white, kings, side)
            .map_err(|e| self.damaged(format!("the start position is not legal ({e})")))?;
        let result = match result {
            0 => GameResult::BlackWin,
            1 => GameResult::WhiteWin,
            2 => GameResult::Draw,
            _ => return Err(self.damaged("the result is not 0, 1 or 2")),
        };
        let mut moves = Vec::with_capacity(usize::from(plies));
        let mut scores = Vec::with_capacity(usize::from(plies));
        let mut pos = start;
        for ply in 0..plies {
            let [index, s0, s1] = self.bytes::<3>()?;
            let legal = pos.legal_moves();
            let mv = *legal.get(usize::from(index)).ok_or_else(|| {
                self.damaged(format!(
                    "move {} is number {index} of {} legal moves",
                    ply + 1,
                    legal.len()
                ))
            })?;
            pos = pos.play(&mv);
            moves.push(mv);
            scores.push(i16::from_le_bytes([s0, s1]));
        }
        self.offset += 17 + 3 * u64::from(plies);
        self.games_left -= 1;
        Ok(Some(StoredGame {
            round: self.round,
            game: RecordedGame {
                start,
                moves,
                scores,
                result,
            },
        }))
    }
}

/// The length of the store at `path` up to the end of round `last_round`'s block (the rounds a
/// checkpoint counts): what a resumed run cuts it back to.
pub fn length_through_round(path: &Path, last_round: u32) -> Result<u64> {
    let mut reader = StoreReader::open(path)?;
    let mut length = reader.offset();
    loop {
        if reader.games_left == 0 {
            match reader.next_round()? {
                Some(round) if round > last_round => return Ok(length),
                Some(_) => {}
                None => return Ok(length),
            }
            if reader.games_left == 0 {
                length = reader.offset();
                continue;
            }
        }
        reader.read_game()?;
        if reader.games_left == 0 {
            length = reader.offset();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Move;
    use crate::fit::records::SCORE_WIN;

    fn game(fen: &str, moves: &[&str], scores: &[i16], result: GameResult) -> RecordedGame {
        let start = Position::from_fen(fen).unwrap();
        let mut pos = start;
        let moves: Vec<Move> = moves
            .iter()
            .map(|m| {
                let mv = pos.parse_move(m).unwrap();
                pos = pos.play(&mv);
                mv
            })
            .collect();
        RecordedGame {
            start,
            moves,
            scores: scores.to_vec(),
            result,
        }
    }

    fn read_all(bytes: &[u8]) -> Result<Vec<StoredGame>> {
        let mut reader = StoreReader::new(bytes, "test")?;
        let mut games = Vec::new();
        while let Some(g) = reader.read_game()? {
            games.push(g);
        }
        Ok(games)
    }

    #[test]
    fn games_come_back_as_written() {
        let a = game(
            "B:W21-32:B1-12",
            &["9-13", "22-18", "13-17"],
            &[NO_SCORE, 25, -40],
            GameResult::Draw,
        );
        let b = game(
            "W:W18,K30:B14,1",
            &["18x9"],
            &[SCORE_WIN],
            GameResult::WhiteWin,
        );
        let mut bytes = MAGIC.to_vec();
        bytes.extend(round_block(1, std::slice::from_ref(&a)));
        bytes.extend(round_block(2, &[]));
        bytes.extend(round_block(3, std::slice::from_ref(&b)));
        let games = read_all(&bytes).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].round, 1);
        assert_eq!(games[0].game, a);
        assert_eq!(games[1].round, 3);
        assert_eq!(games[1].game, b);
    }

    #[test]
    fn damage_is_reported_with_its_offset() {
        let a = game("B:W21-32:B1-12", &["9-13"], &[3], GameResult::BlackWin);
        let mut bytes = MAGIC.to_vec();
        bytes.extend(round_block(1, &[a]));
        let cut = &bytes[..bytes.len() - 1];
        let err = read_all(cut).unwrap_err().to_string();
        assert!(err.contains("damaged at byte 17"), "{err}");
        // Read for a fit, a cut end gives the whole games before it and says so.
        let mut reader = StoreReader::new(cut, "test").unwrap();
        assert_eq!(reader.next_game().unwrap(), None);
        assert!(reader.cut_short());
        let mut bad = bytes.clone();
        // The move index (after the 8-byte magic, the 9-byte round header and the 17-byte
        // game header): 200 of 7 legal moves.
        bad[8 + 9 + 17] = 200;
        let err = read_all(&bad).unwrap_err().to_string();
        assert!(err.contains("number 200 of 7 legal moves"), "{err}");
        assert!(read_all(b"CTPOS000").is_err());
    }

    #[test]
    fn a_store_is_cut_after_a_round() {
        let dir = tempfile::tempdir().unwrap();
        start_store(dir.path()).unwrap();
        let a = game("B:W21-32:B1-12", &["9-13"], &[3], GameResult::BlackWin);
        append_round(dir.path(), 1, std::slice::from_ref(&a)).unwrap();
        let after_one = std::fs::metadata(dir.path().join(POSITIONS_FILE))
            .unwrap()
            .len();
        append_round(dir.path(), 2, &[a.clone(), a]).unwrap();
        let path = dir.path().join(POSITIONS_FILE);
        assert_eq!(length_through_round(&path, 1).unwrap(), after_one);
        assert_eq!(length_through_round(&path, 0).unwrap(), 8);
        assert_eq!(
            length_through_round(&path, 5).unwrap(),
            std::fs::metadata(&path).unwrap().len()
        );
    }
}
