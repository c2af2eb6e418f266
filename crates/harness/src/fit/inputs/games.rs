//! Where a fit's games come from, and their batches.

use crate::fit::recorded_game::RecordedGame;
use checkers_engine::error::Result;

use super::stream::GameStream;

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
