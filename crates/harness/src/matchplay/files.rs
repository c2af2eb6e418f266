//! A match's own files: where its summary goes, and reading them back to continue it.

use std::path::{Path, PathBuf};

use checkers_engine::error::Result;
use checkers_engine::input_file::{self, Links};

/// Where the summary of `--out FILE.csv` goes: `FILE.summary.txt`.
pub fn summary_path(csv_path: &Path) -> PathBuf {
    csv_path.with_extension("summary.txt")
}

/// Where the per-ballot report of `--out FILE.csv` goes: `FILE.ballots.csv`.
pub fn ballots_path(csv_path: &Path) -> PathBuf {
    csv_path.with_extension("ballots.csv")
}

/// Reads one of a match's own files back (`--out`, its summary) to continue the match: a
/// regular file, never through a symbolic link; `None` when there is none.
pub fn read_match_file(path: &Path) -> Result<Option<Vec<u8>>> {
    input_file::read_existing(path, Links::Refuse, None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_path_replaces_the_csv_extension() {
        assert_eq!(
            summary_path(Path::new("out/games.csv")),
            PathBuf::from("out/games.summary.txt")
        );
        assert_eq!(
            summary_path(Path::new("games")),
            PathBuf::from("games.summary.txt")
        );
        assert_eq!(
            ballots_path(Path::new("out/games.csv")),
            PathBuf::from("out/games.ballots.csv")
        );
    }
}
