//! The inputs of a fit, read a game at a time in the order given: a run folder's positions
//! store (`positions.bin`), else its `games.csv` (each row replayed from its opening), else each
//! island's; and PDN files of English games (a run's `games.pdn`, `match --pdn`, a user's own
//! collection). A damaged game of a PDN file is skipped, counted and told, or, when reading
//! strictly, refused.
//!
//! [`GameStream`] never holds more than the game it is reading, so a fit's memory does not grow
//! with its inputs' size; [`GameRecords`] holds games in memory for callers that already have
//! them (a run's fitted specimens), and reads files through the same readers.

use std::collections::VecDeque;
use std::fmt;
use std::fs::{self, File};
use std::io::BufReader;
use std::path::{Path, PathBuf};

use crate::run_folder::{
    line_of, run_identity_of, Column, CsvRows, CONFIG_FILE, GAMES_FILE, POSITIONS_FILE,
};
use checkers_engine::error::{Error, Result};
use checkers_engine::game::{GameResult, Opening, PdnError, PdnReader};
use checkers_engine::input_file::{self, Links};

use super::recorded_game::RecordedGame;
use super::store::{StoreIdentity, StoreReader};

/// The most damaged games of one file listed in [`ReadReport::skipped`] and told one by one.
pub const LISTED_PER_FILE: usize = 20;

/// The games of one PDN file, by what became of them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PdnCounts {
    /// The file.
    pub file: PathBuf,
    /// Every game in it.
    pub games: usize,
    /// Games with moves and a result: learnt from.
    pub read: usize,
    /// Games with moves and no result (`*`), left out.
    pub unfinished: usize,
    /// Games with no moves (tags alone), left out.
    pub empty: usize,
    /// Damaged games, skipped.
    pub skipped: usize,
}

impl fmt::Display for PdnCounts {
    /// `tinsley.pdn: 724 games, 721 read, 3 skipped (damaged)`, naming only what happened.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} game{}, {} read",
            self.file.display(),
            self.games,
            if self.games == 1 { "" } else { "s" },
            self.read
        )?;
        for (count, what) in [
            (self.unfinished, "without a result"),
            (self.empty, "without moves"),
            (self.skipped, "skipped (damaged)"),
        ] {
            if count > 0 {
                write!(f, ", {count} {what}")?;
            }
        }
        Ok(())
    }
}

/// How damaged games of a PDN file are taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Damaged {
    /// Skipped, counted and listed.
    Skip,
    /// Refused: the first one is bad input.
    Refuse,
}

/// What reading the inputs met besides the games given on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadReport {
    /// Games without a result (`*` in PDN), left out.
    pub unfinished: usize,
    /// The files read to their end, in order.
    pub files: Vec<PathBuf>,
    /// What each PDN file held, in input order.
    pub pdn_files: Vec<PdnCounts>,
    /// The damaged games skipped, the first [`LISTED_PER_FILE`] of each file (the counts have
    /// them all).
    pub skipped: Vec<(PathBuf, PdnError)>,
    /// The `games.csv` files whose last row was cut short, and the positions stores that end
    /// inside a round (a run still writing, or killed in the middle of a write): that row or
    /// game is left out, as `resume` and `match` leave it out.
    pub cut_rows: Vec<PathBuf>,
}

impl ReadReport {
    /// Adds `other`'s findings after this one's.
    fn extend(&mut self, other: ReadReport) {
        self.unfinished += other.unfinished;
        self.files.extend(other.files);
        self.pdn_files.extend(other.pdn_files);
        self.skipped.extend(other.skipped);
        self.cut_rows.extend(other.cut_rows);
    }
}

/// Something met while reading that a user should hear of as it happens (the command prints
/// these on stderr): the text is the message.
#[derive(Clone, Copy, Debug)]
pub enum ReadNote<'a> {
    /// A damaged game skipped (one of the first [`LISTED_PER_FILE`] of its file).
    Skipped(&'a Path, &'a PdnError),
    /// At the end of a file: how many more damaged games were skipped than were told.
    MoreSkipped(&'a Path, usize),
    /// A file whose last row (or a store's last round) was cut short, and left out.
    CutShort(&'a Path),
    /// A run folder's games are read from this file: its positions store (checked block by
    /// block), or its `games.csv` when it has none (`true` for the store).
    Source(&'a Path, bool),
}

impl fmt::Display for ReadNote<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadNote::Skipped(file, error) => {
                write!(f, "{}: {error}; game skipped", file.display())
            }
            ReadNote::MoreSkipped(file, count) => {
                write!(f, "{}: {count} more damaged games skipped", file.display())
            }
            ReadNote::CutShort(file) => write!(
                f,
                "{}: the last row is cut short (a run still writing, or killed): left out",
                file.display()
            ),
            ReadNote::Source(file, true) => write!(
                f,
                "{}: learning from the run's positions store (its checksums and identity \
                 checked; a store of the previous format has none)",
                file.display()
            ),
            ReadNote::Source(file, false) => write!(
                f,
                "{}: learning from the run's games.csv (it has no positions store: the games \
                 are replayed from their moves, without the searches' scores)",
                file.display()
            ),
        }
    }
}

/// What a file of the inputs is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Pdn,
    GamesCsv,
    Store,
}

/// Where each note goes.
type NoteSink = Box<dyn FnMut(ReadNote<'_>) + Send>;

/// The games of a fit's inputs, read one at a time in input order (see the module's
/// documentation): memory holds the game being read, never the inputs.
pub struct GameStream {
    /// The files still to open, with what they are.
    pending: VecDeque<(PathBuf, Kind)>,
    /// Every file, in order.
    planned: Vec<PathBuf>,
    /// The file being read.
    reading: Option<Reading>,
    damaged: Damaged,
    /// Rows and stored games of earlier rounds are passed over.
    first_round: u32,
    /// Whether ending without a single game is bad input (the inputs of a fit).
    require_games: bool,
    games: usize,
    report: ReadReport,
    on_note: Option<NoteSink>,
}

impl fmt::Debug for GameStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameStream")
            .field("planned", &self.planned)
            .field("games", &self.games)
            .field("report", &self.report)
            .finish_non_exhaustive()
    }
}

impl GameStream {
    /// The stream of `inputs`: each run folder stands for its positions store (or its
    /// `games.csv`, or its islands'), found now; each other path is a PDN file, opened when
    /// its turn comes. Damaged PDN games are skipped or refused as `damaged` says. Inputs
    /// without a single finished game are bad input, found at their end.
    pub fn open(inputs: &[PathBuf], damaged: Damaged) -> Result<GameStream> {
        let mut files = Vec::new();
        for input in inputs {
            if input.is_dir() {
                for file in run_folder_games(input)? {
                    let kind = if file.ends_with(POSITIONS_FILE) {
                        Kind::Store
                    } else {
                        Kind::GamesCsv
                    };
                    files.push((file, kind));
                }
            } else {
                files.push((input.clone(), Kind::Pdn));
            }
        }
        Ok(GameStream::of_files(files, damaged, 0, true))
    }

    fn of_files(
        files: Vec<(PathBuf, Kind)>,
        damaged: Damaged,
        first_round: u32,
        require_games: bool,
    ) -> GameStream {
        GameStream {
            planned: files.iter().map(|(path, _)| path.clone()).collect(),
            pending: files.into(),
            reading: None,
            damaged,
            first_round,
            require_games,
            games: 0,
            report: ReadReport::default(),
            on_note: None,
        }
    }

    /// The same stream, telling `on_note` of each damaged game skipped and each file cut
    /// short as it meets them.
    pub fn on_note(mut self, on_note: impl FnMut(ReadNote<'_>) + Send + 'static) -> GameStream {
        self.on_note = Some(Box::new(on_note));
        self
    }

    /// Every file the stream reads (or has read), in order: a run folder's store, `games.csv`
    /// or islands' files, and the PDN files.
    pub fn files(&self) -> &[PathBuf] {
        &self.planned
    }

    /// Games given so far.
    pub fn games(&self) -> usize {
        self.games
    }

    /// What reading has met so far; complete once [`GameStream::next_game`] has said `None`.
    pub fn report(&self) -> &ReadReport {
        &self.report
    }

    /// The next game with a result, or `None` after the last. Bad input (an unreadable file,
    /// a `games.csv` row that does not replay, a damaged PDN game when refusing them, inputs
    /// without a finished game) names the file and the line.
    pub fn next_game(&mut self) -> Result<Option<RecordedGame>> {
        loop {
            if self.reading.is_none() {
                let Some((path, kind)) = self.pending.pop_front() else {
                    return self.end();
                };
                if kind != Kind::Pdn {
                    if let Some(on_note) = self.on_note.as_mut() {
                        on_note(ReadNote::Source(&path, kind == Kind::Store));
                    }
                }
                self.reading = Some(Reading::open(path, kind)?);
            }
            let reading = self.reading.as_mut().expect("opened above");
            let mut tell = |note: ReadNote<'_>| {
                if let Some(on_note) = self.on_note.as_mut() {
                    on_note(note);
                }
            };
            let next =
                reading.next_game(self.damaged, self.first_round, &mut self.report, &mut tell)?;
            match next {
                Some(game) => {
                    self.games += 1;
                    return Ok(Some(game));
                }
                None => {
                    let done = self.reading.take().expect("read above");
                    done.finish(&mut self.report, &mut tell);
                }
            }
        }
    }

    /// The next games, up to `max` of them: fewer only at the end, none after it.
    pub fn next_batch(&mut self, max: usize) -> Result<Vec<RecordedGame>> {
        let mut batch = Vec::with_capacity(max.min(4096));
        while batch.len() < max {
            match self.next_game()? {
                Some(game) => batch.push(game),
                None => break,
            }
        }
        Ok(batch)
    }

    /// The end of the inputs: bad input when a fit's inputs held no finished game.
    fn end(&self) -> Result<Option<RecordedGame>> {
        if self.games > 0 || !self.require_games {
            return Ok(None);
        }
        let total = |count: fn(&PdnCounts) -> usize| -> usize {
            self.report.pdn_files.iter().map(count).sum()
        };
        let left_out: Vec<String> = [
            (self.report.unfinished, "without a result"),
            (total(|c| c.empty), "without moves"),
            (total(|c| c.skipped), "skipped (damaged)"),
        ]
        .into_iter()
        .filter(|&(count, _)| count > 0)
        .map(|(count, what)| format!("{count} {what}"))
        .collect();
        let names: Vec<String> = self
            .planned
            .iter()
            .map(|f| f.display().to_string())
            .collect();
        Err(Error::input(format!(
            "{}: no finished game to learn from{}",
            names.join(", "),
            if left_out.is_empty() {
                String::new()
            } else {
                format!(" ({})", left_out.join(", "))
            }
        )))
    }
}

/// One file being read.
enum Reading {
    Pdn {
        reader: PdnReader<BufReader<File>>,
        counts: PdnCounts,
    },
    GamesCsv {
        path: PathBuf,
        rows: Box<CsvRows>,
        columns: CsvColumns,
        row: csv::StringRecord,
    },
    Store {
        path: PathBuf,
        reader: StoreReader<BufReader<File>>,
    },
}

/// The columns of `games.csv` a fit reads.
struct CsvColumns {
    round: Column,
    opening: Column,
    result: Column,
    moves: Column,
}

impl Reading {
    fn open(path: PathBuf, kind: Kind) -> Result<Reading> {
        Ok(match kind {
            Kind::Pdn => {
                let file = input_file::open(&path, Links::Follow).map_err(|e| {
                    Error::input(format!(
                        "{}: {e}; expected a run folder or a PDN file",
                        path.display()
                    ))
                })?;
                Reading::Pdn {
                    reader: PdnReader::new(BufReader::new(file)),
                    counts: PdnCounts {
                        file: path,
                        ..PdnCounts::default()
                    },
                }
            }
            Kind::GamesCsv => {
                let rows = CsvRows::open_whole_rows(&path)?;
                let columns = CsvColumns {
                    round: rows.column("round")?,
                    opening: rows.column("opening")?,
                    result: rows.column("result")?,
                    moves: rows.column("moves")?,
                };
                Reading::GamesCsv {
                    path,
                    rows: Box::new(rows),
                    columns,
                    row: csv::StringRecord::new(),
                }
            }
            Kind::Store => {
                let reader = StoreReader::open(&path)?;
                // A store of the previous format cannot say whose it is; `fit` still reads it
                // (its blocks carry no checksums to check).
                if let Some(expected) = store_identity_at(&path).filter(|_| reader.has_identity()) {
                    reader.expect(expected)?;
                }
                Reading::Store { reader, path }
            }
        })
    }

    /// The file's next game with a result (of round `first_round` or later), or `None` at
    /// its end.
    fn next_game(
        &mut self,
        damaged: Damaged,
        first_round: u32,
        report: &mut ReadReport,
        tell: &mut dyn FnMut(ReadNote<'_>),
    ) -> Result<Option<RecordedGame>> {
        match self {
            Reading::Pdn { reader, counts } => next_pdn_game(reader, counts, damaged, report, tell),
            Reading::GamesCsv {
                path,
                rows,
                columns,
                row,
            } => {
                while rows.next_row(row)? {
                    if let Some(game) = csv_game(path, columns, row, first_round)? {
                        return Ok(Some(game));
                    }
                }
                Ok(None)
            }
            Reading::Store { reader, .. } => {
                while let Some(stored) = reader.next_game()? {
                    if stored.round >= first_round {
                        return Ok(Some(stored.game));
                    }
                }
                Ok(None)
            }
        }
    }

    /// The file read to its end: what it leaves in the report.
    fn finish(self, report: &mut ReadReport, tell: &mut dyn FnMut(ReadNote<'_>)) {
        match self {
            Reading::Pdn { counts, .. } => {
                if counts.skipped > LISTED_PER_FILE {
                    tell(ReadNote::MoreSkipped(
                        &counts.file,
                        counts.skipped - LISTED_PER_FILE,
                    ));
                }
                report.files.push(counts.file.clone());
                report.pdn_files.push(counts);
            }
            Reading::GamesCsv { path, rows, .. } => {
                if rows.cut_row() {
                    tell(ReadNote::CutShort(&path));
                    report.cut_rows.push(path.clone());
                }
                report.files.push(path);
            }
            Reading::Store { path, reader } => {
                if reader.cut_short() {
                    tell(ReadNote::CutShort(&path));
                    report.cut_rows.push(path.clone());
                }
                report.files.push(path);
            }
        }
    }
}

/// The next game of a PDN file with moves and a result: games without a result or without
/// moves are counted and passed over; a damaged game is skipped, counted and told, or refused,
/// as `damaged` says.
fn next_pdn_game(
    reader: &mut PdnReader<BufReader<File>>,
    counts: &mut PdnCounts,
    damaged: Damaged,
    report: &mut ReadReport,
    tell: &mut dyn FnMut(ReadNote<'_>),
) -> Result<Option<RecordedGame>> {
    let path = counts.file.clone();
    while let Some(game) = reader
        .next_game()
        .map_err(|e| Error::io("read", &path, &e))?
    {
        counts.games += 1;
        let game = match game {
            Ok(game) => game,
            Err(e) if damaged == Damaged::Refuse => {
                return Err(Error::input(format!(
                    "{}: {e} (--strict refuses a damaged game)",
                    path.display()
                )))
            }
            Err(e) => {
                counts.skipped += 1;
                if counts.skipped <= LISTED_PER_FILE {
                    tell(ReadNote::Skipped(&path, &e));
                    report.skipped.push((path.clone(), e));
                }
                continue;
            }
        };
        match game.result {
            _ if game.moves.is_empty() => counts.empty += 1,
            Some(result) => {
                counts.read += 1;
                return Ok(Some(RecordedGame {
                    start: game.start,
                    moves: game.moves,
                    scores: Vec::new(),
                    result,
                }));
            }
            None => {
                counts.unfinished += 1;
                report.unfinished += 1;
            }
        }
    }
    Ok(None)
}

/// The game of a `games.csv` row, replayed from its opening and checked move by move; `None`
/// for a row of a round before `first_round`.
fn csv_game(
    path: &Path,
    columns: &CsvColumns,
    row: &csv::StringRecord,
    first_round: u32,
) -> Result<Option<RecordedGame>> {
    let bad =
        |what: String| Error::input(format!("{}: line {}: {what}", path.display(), line_of(row)));
    let round = columns.round.raw(row);
    let played_in: u32 = round
        .parse()
        .map_err(|_| bad(format!("round `{round}` is not a round number")))?;
    if played_in < first_round {
        return Ok(None);
    }
    let name = columns.opening.raw(row);
    let opening = Opening::from_name(name)
        .map_err(|e| bad(format!("opening `{name}` cannot be played ({e})")))?;
    let result = columns.result.raw(row);
    let result = [GameResult::BlackWin, GameResult::WhiteWin, GameResult::Draw]
        .into_iter()
        .find(|r| r.label() == result)
        .ok_or_else(|| {
            bad(format!(
                "result `{result}` is not black_win, white_win or draw"
            ))
        })?;
    let mut pos = opening.position;
    let mut played = Vec::new();
    for (i, text) in columns.moves.raw(row).split_whitespace().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| bad(format!("move {} ({text}): {e}", i + 1)))?;
        pos = pos.play(&mv);
        played.push(mv);
    }
    Ok(Some(RecordedGame::from_opening(
        &opening,
        &played,
        &[],
        result,
    )))
}

/// Where a fit's games come from: held in memory, or read from the inputs as the fit goes.
pub enum Games<'a> {
    /// Games already held (a run's, for its fitted specimens).
    Memory(&'a [RecordedGame]),
    /// Games read from files, a batch at a time.
    Stream(&'a mut GameStream),
}

impl Games<'_> {
    /// Calls `each(batch, first)` on the games in order, `max` at a time (`first`: the index
    /// of the batch's first game, counting from 0), and returns how many games there were. A
    /// stream reads its next batch while `each` works on one, so that reading (one thread)
    /// and extracting (all of them) overlap; memory holds the two batches only.
    pub fn for_each_batch(
        self,
        max: usize,
        mut each: impl FnMut(&[RecordedGame], usize) + Send,
    ) -> Result<usize> {
        let max = max.max(1);
        match self {
            Games::Memory(games) => {
                for (b, batch) in games.chunks(max).enumerate() {
                    each(batch, b * max);
                }
                Ok(games.len())
            }
            Games::Stream(stream) => {
                let mut first = 0;
                let mut batch = stream.next_batch(max)?;
                while !batch.is_empty() {
                    let (next, ()) = rayon::join(|| stream.next_batch(max), || each(&batch, first));
                    first += batch.len();
                    batch = next?;
                }
                Ok(first)
            }
        }
    }
}

/// Games held in memory, with what reading their files met: the games of the inputs
/// ([`GameRecords::read`]), or of a run's files and rounds gathered by a caller.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRecords {
    /// Every game with a result.
    pub games: Vec<RecordedGame>,
    /// What reading the files met.
    pub report: ReadReport,
}

impl GameRecords {
    /// Reads every game of `inputs` into memory, as [`GameStream::open`] reads them (for
    /// small inputs: a fit streams them instead).
    pub fn read(inputs: &[PathBuf], damaged: Damaged) -> Result<GameRecords> {
        let mut stream = GameStream::open(inputs, damaged)?;
        let mut records = GameRecords::default();
        while let Some(game) = stream.next_game()? {
            records.games.push(game);
        }
        records.report = stream.report;
        Ok(records)
    }

    /// The rows of a run's `games.csv`, each replayed from its opening and checked move by move.
    pub fn add_games_csv(&mut self, path: &Path) -> Result<()> {
        self.add_games_csv_from(path, 0)
    }

    /// The rows of a run's `games.csv` from round `first_round` on, as
    /// [`GameRecords::add_games_csv`] reads them.
    pub fn add_games_csv_from(&mut self, path: &Path, first_round: u32) -> Result<()> {
        self.add_file(path, Kind::GamesCsv, Damaged::Refuse, first_round)
    }

    /// The games of a positions store (`positions.bin`) from round `first_round` on. A store
    /// that ends inside a round (a run still writing, or killed) gives the games it holds
    /// whole, and is noted like a cut `games.csv`.
    pub fn add_store_from(&mut self, path: &Path, first_round: u32) -> Result<()> {
        self.add_file(path, Kind::Store, Damaged::Refuse, first_round)
    }

    /// The games of a PDN file, read game by game: games without a result or without moves are
    /// counted and left out; a damaged game is skipped and counted, or refused, as `damaged`
    /// says.
    pub fn add_pdn(&mut self, path: &Path, damaged: Damaged) -> Result<()> {
        self.add_file(path, Kind::Pdn, damaged, 0)
    }

    fn add_file(
        &mut self,
        path: &Path,
        kind: Kind,
        damaged: Damaged,
        first_round: u32,
    ) -> Result<()> {
        let mut stream =
            GameStream::of_files(vec![(path.to_owned(), kind)], damaged, first_round, false);
        while let Some(game) = stream.next_game()? {
            self.games.push(game);
        }
        self.report.extend(stream.report);
        Ok(())
    }
}

/// The identity the store at `path` must have: its run folder's (`RUN/positions.bin`), or its
/// island's (`RUN/island-N/positions.bin`), from the run folder's `config.toml`; `None` when
/// there is no config to say (a store copied out of its run folder: its blocks are still
/// checked against its own header).
fn store_identity_at(path: &Path) -> Option<StoreIdentity> {
    let dir = checkers_engine::atomic_file::parent_dir(path);
    if dir.join(CONFIG_FILE).is_file() {
        return Some(StoreIdentity {
            run: run_identity_of(&dir)?,
            island: u32::MAX,
        });
    }
    let island = dir
        .file_name()?
        .to_str()?
        .strip_prefix("island-")?
        .parse()
        .ok()?;
    let top = checkers_engine::atomic_file::parent_dir(&dir);
    Some(StoreIdentity {
        run: run_identity_of(&top)?,
        island,
    })
}

/// The `games.csv` files of a run folder: its own, or, for an island-model run whose merged
/// file is not written yet, every island's in island order; a positions store in place of
/// each `games.csv` beside one.
fn run_folder_games(dir: &Path) -> Result<Vec<PathBuf>> {
    // The positions store holds the same games as `games.csv`, with the searches' scores, and
    // reads without parsing text.
    let store = dir.join(POSITIONS_FILE);
    if store.is_file() {
        return Ok(vec![store]);
    }
    let own = dir.join(GAMES_FILE);
    if own.is_file() {
        return Ok(vec![own]);
    }
    let mut islands: Vec<(u32, PathBuf)> = fs::read_dir(dir)
        .map_err(|e| Error::input(format!("{}: cannot read the folder ({e})", dir.display())))?
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let name = entry.file_name();
            let index = name.to_str()?.strip_prefix("island-")?.parse().ok()?;
            let store = entry.path().join(POSITIONS_FILE);
            let games = entry.path().join(GAMES_FILE);
            if store.is_file() {
                return Some((index, store));
            }
            games.is_file().then_some((index, games))
        })
        .collect();
    islands.sort();
    if islands.is_empty() {
        return Err(Error::input(format!(
            "{}: not a run folder (no {GAMES_FILE}); give a run folder or a PDN file",
            dir.display()
        )));
    }
    Ok(islands.into_iter().map(|(_, path)| path).collect())
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// Short finished games, `n` of them, each a different opening (PDN).
    pub(in crate::fit) fn short_games(n: usize) -> String {
        let openings = ["9-13 22-18", "11-15 23-19", "10-14 24-20", "12-16 21-17"];
        let results = ["1-0", "0-1", "1/2-1/2"];
        (0..n)
            .map(|i| format!("1. {} {}\n", openings[i % 4], results[i % 3]))
            .collect()
    }

    /// A stream reads its files in order, lazily, and reports each one as reading it did:
    /// counts, damaged games (the first twenty told one by one, then how many more), rows cut
    /// short, and the files themselves.
    #[test]
    fn a_stream_reads_its_files_in_order_and_tells_what_it_met() {
        let dir = tempfile::tempdir().unwrap();
        let damaged = dir.path().join("damaged.pdn");
        let bad_game = "1. 9-13 9-14 0-1\n";
        std::fs::write(
            &damaged,
            format!(
                "{}{}1. 11-15 *\n{}",
                short_games(1),
                bad_game.repeat(23),
                short_games(1)
            ),
        )
        .unwrap();
        let run = dir.path().join("run");
        std::fs::create_dir(&run).unwrap();
        std::fs::write(
            run.join(GAMES_FILE),
            "round,opening,result,moves\n1,9-13 24-20,draw,12-16 28-24\n2,start,draw,11-1",
        )
        .unwrap();
        let clean = dir.path().join("clean.pdn");
        std::fs::write(&clean, short_games(3)).unwrap();
        let inputs = vec![damaged.clone(), run.clone(), clean.clone()];

        let notes = Arc::new(Mutex::new(Vec::new()));
        let told = Arc::clone(&notes);
        let mut stream = GameStream::open(&inputs, Damaged::Skip)
            .unwrap()
            .on_note(move |note| told.lock().unwrap().push(note.to_string()));
        let csv = run.join(GAMES_FILE);
        assert_eq!(
            stream.files(),
            [damaged.clone(), csv.clone(), clean.clone()]
        );
        let mut games = Vec::new();
        while let Some(game) = stream.next_game().unwrap() {
            games.push(game);
        }
        assert_eq!(stream.games(), 2 + 1 + 3);

        // The same games as each file read alone, in input order.
        let mut held = GameRecords::default();
        held.add_pdn(&damaged, Damaged::Skip).unwrap();
        held.add_games_csv(&csv).unwrap();
        held.add_pdn(&clean, Damaged::Skip).unwrap();
        assert_eq!(games, held.games);
        assert_eq!(stream.report(), &held.report);
        assert_eq!(GameRecords::read(&inputs, Damaged::Skip).unwrap(), held);

        let report = stream.report();
        assert_eq!(report.files, [damaged.clone(), csv.clone(), clean.clone()]);
        assert_eq!(report.unfinished, 1);
        assert_eq!(report.skipped.len(), LISTED_PER_FILE);
        assert_eq!(report.cut_rows, std::slice::from_ref(&csv));
        assert_eq!(
            report.pdn_files[0].to_string(),
            format!(
                "{}: 26 games, 2 read, 1 without a result, 23 skipped (damaged)",
                damaged.display()
            )
        );
        let notes = notes.lock().unwrap();
        // The listed games, the count of the others, the source of the run, the cut row.
        assert_eq!(notes.len(), LISTED_PER_FILE + 3, "{notes:?}");
        assert!(
            notes
                .iter()
                .any(|n| n.contains("learning from the run's games.csv")),
            "{notes:?}"
        );
        assert!(
            notes[0].contains("damaged.pdn: line 2: game 2: move 2 (9-14)"),
            "{}",
            notes[0]
        );
        assert!(notes[0].ends_with("; game skipped"), "{}", notes[0]);
        assert_eq!(
            notes[LISTED_PER_FILE],
            format!("{}: 3 more damaged games skipped", damaged.display())
        );
        assert!(notes[LISTED_PER_FILE + 2]
            .starts_with(&format!("{}: the last row is cut short", csv.display())));
    }

    /// Inputs without a finished game are bad input, with what was left out; a missing file
    /// is found when its turn comes, a folder that is not a run at once.
    #[test]
    fn inputs_without_a_game_and_bad_inputs_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let open = dir.path().join("open.pdn");
        std::fs::write(&open, "1. 11-15 *\n[Event \"x\"] *\n").unwrap();
        let mut stream = GameStream::open(std::slice::from_ref(&open), Damaged::Skip).unwrap();
        let err = stream.next_game().unwrap_err().to_string();
        assert!(
            err.ends_with(
                "open.pdn: no finished game to learn from (1 without a result, 1 without moves)"
            ),
            "{err}"
        );
        let missing = dir.path().join("missing.pdn");
        let mut stream = GameStream::open(&[missing], Damaged::Skip).unwrap();
        let err = stream.next_game().unwrap_err().to_string();
        assert!(err.contains("missing.pdn: file not found"), "{err}");
        let err = GameStream::open(&[dir.path().to_owned()], Damaged::Skip).unwrap_err();
        assert!(err.to_string().contains("not a run folder"), "{err}");
    }

    /// A stream's batches are the games in memory's, batch by batch, across a batch's end.
    #[test]
    fn a_stream_gives_the_batches_of_the_same_games_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pdn");
        std::fs::write(&path, short_games(2 * 7 + 3)).unwrap();
        let held = GameRecords::read(std::slice::from_ref(&path), Damaged::Refuse).unwrap();
        let batches = |games: Games<'_>| {
            let mut seen = Vec::new();
            let count = games
                .for_each_batch(7, |batch, first| seen.push((first, batch.to_vec())))
                .unwrap();
            (count, seen)
        };
        let mut stream = GameStream::open(&[path], Damaged::Refuse).unwrap();
        let streamed = batches(Games::Stream(&mut stream));
        assert_eq!(streamed, batches(Games::Memory(&held.games)));
        let firsts: Vec<(usize, usize)> = streamed
            .1
            .iter()
            .map(|(first, b)| (*first, b.len()))
            .collect();
        assert_eq!((streamed.0, firsts), (17, vec![(0, 7), (7, 7), (14, 3)]));
    }

    #[test]
    fn a_games_csv_row_cut_short_is_left_out_and_said() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(GAMES_FILE);
        let rows = "round,opening,result,moves\n1,9-13 24-20,draw,12-16 28-24\n";
        std::fs::write(&path, format!("{rows}1,start,black_win,11-15 23-1")).unwrap();
        let mut records = GameRecords::default();
        records.add_games_csv(&path).unwrap();
        assert_eq!(records.games.len(), 1);
        assert_eq!(records.games[0].moves.len(), 4);
        assert_eq!(records.report.cut_rows, std::slice::from_ref(&path));
        std::fs::write(&path, rows).unwrap();
        let mut records = GameRecords::default();
        records.add_games_csv(&path).unwrap();
        assert_eq!((records.games.len(), records.report.cut_rows.len()), (1, 0));
    }

    #[test]
    fn pdn_files_are_counted_and_damaged_games_skipped_or_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.pdn");
        std::fs::write(
            &path,
            "1. 9-13 22-18 1-0\n[Event \"e\"]\n\n1. 9-13 9-14 0-1\n1. 11-15 *\n[Event \"t\"] *",
        )
        .unwrap();
        let mut records = GameRecords::default();
        records.add_pdn(&path, Damaged::Skip).unwrap();
        assert_eq!(records.games.len(), 1);
        let counts = &records.report.pdn_files[0];
        assert_eq!(
            counts.to_string(),
            format!(
                "{}: 4 games, 1 read, 1 without a result, 1 without moves, 1 skipped (damaged)",
                path.display()
            )
        );
        assert_eq!(records.report.skipped.len(), 1);
        assert_eq!(
            (
                records.report.skipped[0].1.game,
                records.report.skipped[0].1.line
            ),
            (2, 4)
        );
        let err = GameRecords::default()
            .add_pdn(&path, Damaged::Refuse)
            .unwrap_err();
        assert_eq!(err.exit_code(), 2);
        assert!(
            err.to_string().contains("line 4: game 2: move 2 (9-14)"),
            "{err}"
        );
    }
}
