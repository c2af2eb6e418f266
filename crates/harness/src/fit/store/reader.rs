//! Reading a store game by game, every block checked.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use crate::fit::recorded_game::RecordedGame;
use checkers_engine::board::{Color, Position};
use checkers_engine::error::{Error, Result};
use checkers_engine::game::GameResult;
use checkers_engine::input_file;

use super::format::{Checksum, ENDS_INSIDE, HEADER, MAGIC, MAGIC_V1};
use super::identity::StoreIdentity;

/// One game of the store: the game and the round it was played in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The round (0 for games that belong to no round).
    pub round: u32,
    /// The game, with its scores.
    pub game: RecordedGame,
}

/// Reads a store, game by game, checking every block.
pub struct StoreReader<R: Read> {
    input: R,
    origin: String,
    /// The identity in the file's header (`None` for the previous version's store).
    identity: Option<StoreIdentity>,
    offset: u64,
    /// Where the current block starts.
    block_start: u64,
    round: u32,
    /// The round of the last block read, if any.
    last_round: Option<u32>,
    games_left: u32,
    /// The checksum of the current block so far.
    sum: Checksum,
    /// Bytes of the current game read so far (the offset moves at its end).
    pending: u64,
    /// The file ended inside a round's block.
    cut: bool,
    /// The round of the last block read whole, its checksum checked.
    whole_round: Option<u32>,
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
    /// A reader of `input`, named `origin` in messages; checks the magic and reads the
    /// identity.
    pub fn new(mut input: R, origin: &str) -> Result<StoreReader<R>> {
        let mut magic = [0u8; 8];
        input
            .read_exact(&mut magic)
            .map_err(|_| Error::input(format!("{origin}: not a positions store (too short)")))?;
        let identity = if &magic == MAGIC {
            let mut id = [0u8; 12];
            input.read_exact(&mut id).map_err(|_| {
                Error::input(format!(
                    "{origin}: damaged at byte 8: the file ends inside its header"
                ))
            })?;
            Some(StoreIdentity::from_bytes(id))
        } else if &magic == MAGIC_V1 {
            None
        } else {
            return Err(Error::input(format!(
                "{origin}: not a positions store of this version (expected it to begin with {})",
                String::from_utf8_lossy(MAGIC)
            )));
        };
        let offset = if identity.is_some() { HEADER } else { 8 };
        Ok(StoreReader {
            input,
            origin: origin.to_string(),
            identity,
            offset,
            block_start: offset,
            round: 0,
            last_round: None,
            games_left: 0,
            sum: Checksum::new(),
            pending: 0,
            cut: false,
            whole_round: None,
        })
    }

    /// Refuses a store that is not of `expected` (another run's, another island's), or of the
    /// previous version (which cannot say whose it is).
    pub fn expect(&self, expected: StoreIdentity) -> Result<()> {
        match self.identity {
            Some(found) if found == expected => Ok(()),
            // Whose store the header names cannot tell a changed header from another store:
            // both are said, and who was expected, not "this run" (a `fit_with` store is
            // another run's by design).
            Some(found) => Err(Error::input(format!(
                "{}: damaged at byte 8: its header names {found}, but the store of {expected} \
                 was expected: the header was changed, or the file is another store (copied or \
                 linked from elsewhere), so it is not read",
                self.origin
            ))),
            None => Err(Error::input(format!(
                "{}: a positions store of the previous version (CTPOS001), which cannot say \
                 whose it is",
                self.origin
            ))),
        }
    }

    /// Whether the file says whose store it is (this version's format; the previous one's
    /// cannot).
    pub fn has_identity(&self) -> bool {
        self.identity.is_some()
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

    fn damaged_at(&self, offset: u64, what: impl std::fmt::Display) -> Error {
        Error::input(format!("{}: damaged at byte {offset}: {what}", self.origin))
    }

    fn damaged(&self, what: impl std::fmt::Display) -> Error {
        self.damaged_at(self.offset, what)
    }

    fn bytes<const N: usize>(&mut self) -> Result<[u8; N]> {
        let mut buf = [0u8; N];
        self.input
            .read_exact(&mut buf)
            .map_err(|_| self.damaged(ENDS_INSIDE))?;
        self.sum.feed(&buf);
        self.pending += N as u64;
        Ok(buf)
    }

    /// Moves the offset over what was read since it last moved.
    fn advance(&mut self) {
        self.offset += std::mem::take(&mut self.pending);
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
        self.block_start = self.offset;
        self.sum = Checksum::new();
        self.sum.feed(&tag);
        self.pending = 1;
        let round = u32::from_le_bytes(self.bytes()?);
        let games = u32::from_le_bytes(self.bytes()?);
        if let Some(file) = self.identity {
            let block = StoreIdentity::from_bytes(self.bytes()?);
            if block != file {
                return Err(self.damaged(format!(
                    "the block of round {round} is another store's ({block}; the file is \
                     {file}): blocks were copied in from elsewhere"
                )));
            }
            if let Some(last) = self.last_round {
                if round <= last {
                    let what = if round == last {
                        "written twice"
                    } else {
                        "out of order"
                    };
                    return Err(self.damaged(format!(
                        "the block of round {round} comes after round {last}'s: {what}"
                    )));
                }
            }
        }
        self.advance();
        self.round = round;
        self.last_round = Some(round);
        self.games_left = games;
        if games == 0 {
            self.end_block()?;
        }
        Ok(Some(round))
    }

    /// After a block's last game: its checksum, checked.
    fn end_block(&mut self) -> Result<()> {
        if self.identity.is_none() {
            self.whole_round = Some(self.round);
            return Ok(());
        }
        let want = self.sum.0;
        let mut buf = [0u8; 8];
        self.input
            .read_exact(&mut buf)
            .map_err(|_| self.damaged(ENDS_INSIDE))?;
        if u64::from_le_bytes(buf) != want {
            return Err(self.damaged_at(
                self.block_start,
                format!(
                    "the block of round {} does not match its checksum (its bytes were changed)",
                    self.round
                ),
            ));
        }
        self.offset += 8;
        self.whole_round = Some(self.round);
        Ok(())
    }

    /// The round of the last block read whole (every game, and the checksum checked), if any.
    pub fn last_whole_round(&self) -> Option<u32> {
        self.whole_round
    }

    /// Whose store the file says it is (`None` for the previous version's format).
    pub fn identity(&self) -> Option<StoreIdentity> {
        self.identity
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

    /// The next game, as [`StoreReader::next_game`] but with a cut end an error too.
    pub(super) fn read_game(&mut self) -> Result<Option<StoredGame>> {
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
        self.advance();
        self.games_left -= 1;
        if self.games_left == 0 {
            self.end_block()?;
        }
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
/// checkpoint counts): what a resumed run cuts it back to. The store must be `identity`'s, and
/// whole, checksummed and in order up to there, and hold round `last_round` (when not 0).
pub fn length_through_round(path: &Path, identity: StoreIdentity, last_round: u32) -> Result<u64> {
    let mut reader = StoreReader::open(path)?;
    reader.expect(identity)?;
    let mut length = reader.offset();
    let mut reached = 0;
    loop {
        if reader.games_left == 0 {
            match reader.next_round() {
                Ok(Some(round)) if round > last_round => break,
                Ok(Some(round)) => reached = round,
                Ok(None) => break,
                // A kill inside the next block's header: the rounds wanted end before it.
                Err(Error::Input(message)) if message.ends_with(ENDS_INSIDE) => break,
                Err(e) => return Err(e),
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
    if reached < last_round {
        return Err(Error::input(format!(
            "{}: damaged at byte {length}: the store ends after round {reached}, but the \
             checkpoint counts {last_round} rounds: it was cut or replaced",
            path.display()
        )));
    }
    Ok(length)
}
