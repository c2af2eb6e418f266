//! The stream of a fit's games: the inputs read a game at a time, in order.

use std::collections::VecDeque;
use std::fmt;
use std::path::PathBuf;

use crate::fit::recorded_game::RecordedGame;
use crate::run_folder::POSITIONS_FILE;
use checkers_engine::error::{Error, Result};

use super::reading::{Damaged, Reading};
use super::report::{PdnCounts, ReadNote, ReadReport};
use super::sources::{run_folder_games, Kind};

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
    pub(super) report: ReadReport,
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

    pub(super) fn of_files(
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
