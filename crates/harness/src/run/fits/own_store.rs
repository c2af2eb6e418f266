//! The run's own positions store on resume: checked against the checkpoint before anything is
//! cut, then cut back to the end of the last completed round.

use std::path::Path;

use crate::fit::{cut_store_to, length_through_round, StoreIdentity};
use crate::run_folder::{FileLengths, POSITIONS_FILE};
use checkers_engine::error::{Error, Result};
use checkers_engine::input_file;

/// Cuts the positions store back to the end of round `completed_rounds`, when the run has one
/// (a run begun by an older version has none: its fits read `games.csv`). The store must be
/// the run's own (`identity`), whole, checksummed and in order up to there, and hold that
/// round: else the run would go on learning from other games than its own, and is refused
/// with the byte offset. A store with other hard links is cut in a copy of its own. A store
/// the checkpoint recorded (`lengths`) must be there, and end that round where it recorded.
/// Everything is checked ([`check_store`]) before anything is cut.
pub fn cut_store(dir: &Path, want: Option<u64>) -> Result<()> {
    match want {
        Some(want) => cut_store_to(&dir.join(POSITIONS_FILE), want),
        None => Ok(()),
    }
}

/// Checks the positions store for [`cut_store`] without changing anything: the length to
/// cut it to, `None` when the run has none and the checkpoint recorded none.
pub fn check_store(
    dir: &Path,
    identity: StoreIdentity,
    completed_rounds: u32,
    lengths: &FileLengths,
) -> Result<Option<u64>> {
    let path = dir.join(POSITIONS_FILE);
    let recorded = lengths.get(POSITIONS_FILE).copied();
    let cannot = "the run cannot be resumed with it (start again with `tune --force`)";
    if input_file::refuse_irregular(&path).is_ok() && !path.exists() {
        return match recorded {
            None => Ok(None),
            Some(bytes) => Err(Error::input(format!(
                "{}: missing, but the checkpoint records a positions store of {bytes} bytes \
                 after round {completed_rounds}; the run's fits learn from every round's \
                 games, so the run cannot be resumed without it (put it back, or start again \
                 with `tune --force`)",
                path.display()
            ))),
        };
    }
    let want = length_through_round(&path, identity, completed_rounds)
        .map_err(|e| Error::input(format!("{e}; {cannot}")))?;
    if let Some(bytes) = recorded.filter(|&bytes| bytes != want) {
        return Err(Error::input(format!(
            "{}: round {completed_rounds} ends at byte {want}, but the checkpoint recorded \
             {bytes}; {cannot}",
            path.display()
        )));
    }
    Ok(Some(want))
}
