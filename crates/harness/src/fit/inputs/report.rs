//! What reading the inputs met: each PDN file's counts, the report, and the notes told as
//! reading goes.

use std::fmt;
use std::path::{Path, PathBuf};

use checkers_engine::game::PdnError;

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
    pub(super) fn extend(&mut self, other: ReadReport) {
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
