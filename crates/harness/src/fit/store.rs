//! The positions store (`positions.bin`, docs/run-folder.md): every game a run has played, as
//! its start position and each move's index among the legal moves, with the score of the
//! search that chose it. A fit replays the positions from it without parsing text, and learns
//! from the scores as well as from the results.
//!
//! The file is an 8-byte magic (`CTPOS002`), the store's identity (the run's, a `u64`, and the
//! island's, a `u32`: see [`StoreIdentity`]), then blocks appended round by round: a round
//! header (`R`, the round as `u32`, its games as `u32`, the identity again), then each game:
//! `G`, the start position (Black's, White's and the kings' squares as `u32` bitboards, the side
//! to move as a byte), the result (a byte: 0 Black won, 1 White won, 2 drawn), the number of
//! moves as `u16`, and per move its index (a byte) and its score (`i16`: the mover's search
//! score clamped to ±[`SCORE_WIN`](super::recorded_game::SCORE_WIN), wins and losses at the bounds;
//! [`NO_SCORE`](super::recorded_game::NO_SCORE) for a move no search chose, such as an opening's);
//! then the block's checksum (`u64`, FNV-1a of the block from its `R`). Numbers are
//! little-endian. A round is appended whole and reaches the disk before the checkpoint that
//! counts it; a resumed run cuts the store back to its checkpoint's rounds.
//!
//! Every reader checks what it reads: each block's checksum, its identity against the file's,
//! and its round after the one before (a block written twice, or blocks swapped, are found),
//! and the readers that know whose store they expect ([`StoreReader::expect`]) check the
//! file's identity too. The previous format (`CTPOS001`, without identity or checksums) is
//! still read by `fit`; a run never appends to one.

use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, Read, Write};
use std::path::Path;

use crate::run_folder::POSITIONS_FILE;
use checkers_engine::board::{Color, Position};
use checkers_engine::error::{Error, Result};
use checkers_engine::game::GameResult;
use checkers_engine::input_file;

use super::recorded_game::{RecordedGame, NO_SCORE};

/// The first bytes of a store.
const MAGIC: &[u8; 8] = b"CTPOS002";

/// The first bytes of a store written by the previous version (no identity, no checksums).
const MAGIC_V1: &[u8; 8] = b"CTPOS001";

/// The length of the file header: magic and identity.
const HEADER: u64 = 8 + 12;

/// The end of the message of a file cut inside a record.
const ENDS_INSIDE: &str = "the file ends inside a record";

/// Whose store it is: the run (a hash of its resolved config, which holds its seed: see
/// `run_folder::run_identity`) and the island (`u32::MAX` for a run without islands). Two
/// stores with the same identity hold the same games (a run is deterministic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoreIdentity {
    /// The run's identity.
    pub run: u64,
    /// The island's index, `u32::MAX` for none.
    pub island: u32,
}

impl StoreIdentity {
    /// The identity of a run (or of its island `island`) whose resolved config is `config`.
    pub fn new(config: &str, island: Option<u32>) -> StoreIdentity {
        StoreIdentity {
            run: crate::run_folder::run_identity(config),
            island: island.unwrap_or(u32::MAX),
        }
    }

    fn bytes(self) -> [u8; 12] {
        let mut out = [0u8; 12];
        out[..8].copy_from_slice(&self.run.to_le_bytes());
        out[8..].copy_from_slice(&self.island.to_le_bytes());
        out
    }

    fn from_bytes(bytes: [u8; 12]) -> StoreIdentity {
        StoreIdentity {
            run: u64::from_le_bytes(bytes[..8].try_into().expect("8 bytes")),
            island: u32::from_le_bytes(bytes[8..].try_into().expect("4 bytes")),
        }
    }
}

impl std::fmt::Display for StoreIdentity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "run {:016x}", self.run)?;
        if self.island != u32::MAX {
            write!(f, ", island {}", self.island)?;
        }
        Ok(())
    }
}

/// FNV-1a, 64 bits, fed a piece at a time: the blocks' checksum.
#[derive(Clone, Copy)]
struct Checksum(u64);

impl Checksum {
    const fn new() -> Checksum {
        Checksum(0xcbf2_9ce4_8422_2325)
    }

    fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// One game of the store: the game and the round it was played in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The round (0 for games that belong to no round).
    pub round: u32,
    /// The game, with its scores.
    pub game: RecordedGame,
}

/// The bytes of one round's block of the store `identity`, its checksum at the end.
pub fn round_block(identity: StoreIdentity, round: u32, games: &[RecordedGame]) -> Vec<u8> {
    let mut out = Vec::with_capacity(32 + games.len() * 256);
    out.push(b'R');
    out.extend_from_slice(&round.to_le_bytes());
    out.extend_from_slice(&(games.len() as u32).to_le_bytes());
    out.extend_from_slice(&identity.bytes());
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
    let mut sum = Checksum::new();
    sum.feed(&out);
    out.extend_from_slice(&sum.0.to_le_bytes());
    out
}

/// The header of a store of `identity`: what [`start_store`] writes.
fn header(identity: StoreIdentity) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&identity.bytes());
    out
}

/// Creates the store of `dir` for `identity`, empty: written anew and renamed into place, so
/// that a `positions.bin` that is a link to another run's store is replaced, never written
/// through.
pub fn start_store(dir: &Path, identity: StoreIdentity) -> Result<()> {
    checkers_engine::atomic_file::write_atomically(&dir.join(POSITIONS_FILE), &header(identity))
}

/// Opens the store at `path` for writing, never through a link: a symbolic link is refused
/// (by `O_NOFOLLOW`), and a file with other hard links (a run folder copied with `cp -al`, or
/// linked by hand) is first copied anew and renamed over its name, so that only this run's
/// store changes.
fn open_own(path: &Path, options: &mut OpenOptions) -> Result<File> {
    let file = input_file::no_links(options)
        .open(path)
        .map_err(|e| Error::io("open", path, &e))?;
    if links_of(&file) <= 1 {
        return Ok(file);
    }
    drop(file);
    let bytes = fs::read(path).map_err(|e| Error::io("read", path, &e))?;
    checkers_engine::atomic_file::write_atomically(path, &bytes)?;
    let file = input_file::no_links(options)
        .open(path)
        .map_err(|e| Error::io("open", path, &e))?;
    if links_of(&file) > 1 {
        return Err(Error::input(format!(
            "{}: has other hard links even after it was written anew; the run writes only its \
             own store",
            path.display()
        )));
    }
    Ok(file)
}

/// The number of names (hard links) the open file has; 1 where the system does not say.
fn links_of(file: &File) -> u64 {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        file.metadata().map_or(1, |m| m.nlink())
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        1
    }
}

/// Appends round `round`'s games to the store of `dir` and flushes them to disk. The block
/// carries the identity of the store's header (which `resume` checked against the run's).
pub fn append_round(dir: &Path, round: u32, games: &[RecordedGame]) -> Result<()> {
    let path = dir.join(POSITIONS_FILE);
    let mut file = open_own(&path, OpenOptions::new().read(true).append(true))?;
    let mut head = [0u8; HEADER as usize];
    std::io::Read::read_exact(&mut file, &mut head).map_err(|_| {
        Error::input(format!(
            "{}: not a positions store (too short); the run folder was changed",
            path.display()
        ))
    })?;
    if &head[..8] != MAGIC {
        return Err(refuse_old_or_foreign(&path, &head[..8]));
    }
    let identity = StoreIdentity::from_bytes(head[8..].try_into().expect("12 bytes"));
    file.write_all(&round_block(identity, round, games))
        .and_then(|()| file.sync_data())
        .map_err(|e| Error::io("write", &path, &e))
}

/// The refusal of a store that does not begin with this version's magic.
fn refuse_old_or_foreign(path: &Path, magic: &[u8]) -> Error {
    if magic == MAGIC_V1 {
        Error::input(format!(
            "{}: a positions store of the previous version (CTPOS001, without checksums); a run \
             cannot go on with it (start again with `tune --force`; `fit` still reads it)",
            path.display()
        ))
    } else {
        Error::input(format!(
            "{}: damaged at byte 0: not a positions store (expected it to begin with {})",
            path.display(),
            String::from_utf8_lossy(MAGIC)
        ))
    }
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
            match reader.next_round()? {
                Some(round) if round > last_round => break,
                Some(round) => reached = round,
                None => break,
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

/// Cuts the store at `path` back to `length` bytes, never through a link (see `open_own`).
pub fn cut_store_to(path: &Path, length: u64) -> Result<()> {
    let file = open_own(path, OpenOptions::new().write(true))?;
    file.set_len(length)
        .and_then(|()| file.sync_all())
        .map_err(|e| Error::io("truncate", path, &e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::recorded_game::SCORE_WIN;
    use checkers_engine::board::Move;

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

    const ID: StoreIdentity = StoreIdentity {
        run: 7,
        island: u32::MAX,
    };

    fn store(blocks: &[Vec<u8>]) -> Vec<u8> {
        let mut bytes = header(ID);
        for block in blocks {
            bytes.extend(block);
        }
        bytes
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
        let bytes = store(&[
            round_block(ID, 1, std::slice::from_ref(&a)),
            round_block(ID, 2, &[]),
            round_block(ID, 3, std::slice::from_ref(&b)),
        ]);
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
        let bytes = store(&[round_block(ID, 1, &[a])]);
        let cut = &bytes[..bytes.len() - 9];
        let err = read_all(cut).unwrap_err().to_string();
        assert!(err.contains("damaged at byte 41"), "{err}");
        // Read for a fit, a cut end gives the whole games before it and says so.
        let mut reader = StoreReader::new(cut, "test").unwrap();
        assert_eq!(reader.next_game().unwrap(), None);
        assert!(reader.cut_short());
        let mut bad = bytes.clone();
        // The move index (after the 20-byte file header, the 21-byte round header and the
        // 17-byte game header): 200 of 7 legal moves.
        bad[20 + 21 + 17] = 200;
        let err = read_all(&bad).unwrap_err().to_string();
        assert!(err.contains("number 200 of 7 legal moves"), "{err}");
        assert!(read_all(b"CTPOS000").is_err());
    }

    #[test]
    fn a_store_is_cut_after_a_round() {
        let dir = tempfile::tempdir().unwrap();
        start_store(dir.path(), ID).unwrap();
        let a = game("B:W21-32:B1-12", &["9-13"], &[3], GameResult::BlackWin);
        append_round(dir.path(), 1, std::slice::from_ref(&a)).unwrap();
        let after_one = std::fs::metadata(dir.path().join(POSITIONS_FILE))
            .unwrap()
            .len();
        append_round(dir.path(), 2, &[a.clone(), a]).unwrap();
        let path = dir.path().join(POSITIONS_FILE);
        assert_eq!(length_through_round(&path, ID, 1).unwrap(), after_one);
        assert_eq!(length_through_round(&path, ID, 0).unwrap(), HEADER);
        assert_eq!(
            length_through_round(&path, ID, 2).unwrap(),
            std::fs::metadata(&path).unwrap().len()
        );
        let err = length_through_round(&path, ID, 5).unwrap_err().to_string();
        assert!(
            err.contains("ends after round 2, but the checkpoint counts 5"),
            "{err}"
        );
        let other = StoreIdentity { run: 8, ..ID };
        let err = length_through_round(&path, other, 1)
            .unwrap_err()
            .to_string();
        assert!(err.contains("damaged at byte 8: its header names"), "{err}");
    }

    #[test]
    fn a_changed_doubled_swapped_or_foreign_block_is_refused_with_its_offset() {
        let a = game("B:W21-32:B1-12", &["9-13"], &[3], GameResult::BlackWin);
        let one = round_block(ID, 1, std::slice::from_ref(&a));
        let two = round_block(ID, 2, std::slice::from_ref(&a));
        let second = HEADER as usize + one.len();
        let mut changed = store(&[one.clone(), two.clone()]);
        changed[second + 21 + 18] ^= 1;
        let err = read_all(&changed).unwrap_err().to_string();
        assert!(
            err.contains(&format!(
                "damaged at byte {second}: the block of round 2 does not match its checksum"
            )),
            "{err}"
        );
        let err = read_all(&store(&[one.clone(), two.clone(), two.clone()]))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("round 2 comes after round 2's: written twice"),
            "{err}"
        );
        let err = read_all(&store(&[two.clone(), one.clone()]))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("round 1 comes after round 2's: out of order"),
            "{err}"
        );
        let foreign = round_block(StoreIdentity { run: 9, ..ID }, 2, &[a]);
        let err = read_all(&store(&[one, foreign])).unwrap_err().to_string();
        assert!(
            err.contains(&format!("damaged at byte {second}")) && err.contains("another store's"),
            "{err}"
        );
    }

    #[test]
    fn a_hard_linked_store_is_written_anew_never_through_the_link() {
        let dir = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        start_store(other.path(), ID).unwrap();
        let theirs = other.path().join(POSITIONS_FILE);
        let before = std::fs::read(&theirs).unwrap();
        std::fs::hard_link(&theirs, dir.path().join(POSITIONS_FILE)).unwrap();
        let a = game("B:W21-32:B1-12", &["9-13"], &[3], GameResult::BlackWin);
        append_round(dir.path(), 1, &[a]).unwrap();
        assert_eq!(std::fs::read(&theirs).unwrap(), before);
        let ours = dir.path().join(POSITIONS_FILE);
        assert!(std::fs::metadata(&ours).unwrap().len() > before.len() as u64);
        cut_store_to(&ours, HEADER).unwrap();
        std::fs::hard_link(&ours, dir.path().join("again")).unwrap();
        cut_store_to(&ours, 0).unwrap();
        assert_eq!(std::fs::read(dir.path().join("again")).unwrap(), before);
        assert_eq!(std::fs::metadata(&ours).unwrap().len(), 0);
    }

    #[test]
    fn a_store_of_the_previous_version_is_read_and_never_appended_to() {
        let a = game(
            "B:W21-32:B1-12",
            &["9-13", "22-18"],
            &[3, 4],
            GameResult::Draw,
        );
        let mut old = MAGIC_V1.to_vec();
        // The previous block: the round header without identity, the game, no checksum.
        let block = round_block(ID, 1, std::slice::from_ref(&a));
        old.extend(&block[..9]);
        old.extend(&block[21..block.len() - 8]);
        let games = read_all(&old).unwrap();
        assert_eq!(games[0].game, a);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(POSITIONS_FILE), &old).unwrap();
        let err = append_round(dir.path(), 2, &[a]).unwrap_err().to_string();
        assert!(err.contains("previous version"), "{err}");
    }
}
