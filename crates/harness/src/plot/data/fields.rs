//! Reading the run's fields: each value checked against what a run writes, and values beyond
//! a panel's scale clamped with a note saying so.

use crate::run_folder::MAX_ISLANDS;
use crate::run_folder::{Column, CsvTable};
use crate::tournament::MAX_ROUNDS;
use checkers_engine::error::Error;

/// The most pairs or games one row of `rounds.csv` may count: a round of the largest
/// population, of every island, with the longest mini-matches, has far fewer.
const MAX_COUNT: u64 = 1_000_000_000;

/// The largest Elo drawn where it is: a validation match of the largest deck that lost a
/// single game is under 2,000 Elo; anything beyond is drawn at this edge, with a note.
pub(crate) const MAX_ELO: f64 = 10_000.0;

/// Values drawn at the edge of their scale instead of where the file puts them (a finite value
/// no run writes, as a hand-edited or damaged file may hold), so that one absurd number does
/// not flatten the whole panel; the picture says how many were, and where the first was.
#[derive(Default)]
pub(crate) struct Clamped {
    /// Per kind ("learning.csv: Elo beyond ±10000"): how many, and the first one's place.
    pub(crate) kinds: Vec<(String, u64, String)>,
}

impl Clamped {
    /// `value` (finite) moved into `range`, noted as `kind` when it moved.
    pub(in crate::plot) fn clamp(
        &mut self,
        value: f64,
        range: (f64, f64),
        kind: &str,
        cols: &CsvTable,
        record: &csv::StringRecord,
        column: &Column,
    ) -> f64 {
        let moved = value.clamp(range.0, range.1);
        if moved != value {
            match self.kinds.iter_mut().find(|(k, _, _)| k == kind) {
                Some((_, count, _)) => *count += 1,
                None => {
                    let place = format!("{}, column `{}`", cols.place(record), column.name());
                    self.kinds.push((kind.to_string(), 1, place));
                }
            }
        }
        moved
    }

    /// One line per kind, for the picture.
    pub(in crate::plot) fn notes(&self) -> Vec<String> {
        self.kinds
            .iter()
            .map(|(kind, count, first)| {
                let many = if *count == 1 { "value" } else { "values" };
                format!("{count} {many} {kind}, drawn at the edge (first: {first})")
            })
            .collect()
    }
}

/// The field of `column` parsed as `T` within `range`, or bad input naming the file, the line,
/// the column and the range (`what`: "a round", "a count").
fn parse_within<T>(
    cols: &CsvTable,
    record: &csv::StringRecord,
    column: &Column,
    range: std::ops::RangeInclusive<T>,
    what: &str,
) -> Result<T, Error>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    let expected = format!("{what} from {} to {}", range.start(), range.end());
    let value = cols.parse(record, column, &expected)?;
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(cols.invalid(record, column, &expected))
    }
}

/// A round number of any of the run's files: 0 to the most rounds a run may have.
pub(super) fn parse_round(
    cols: &CsvTable,
    record: &csv::StringRecord,
    column: &Column,
) -> Result<i64, Error> {
    parse_within(cols, record, column, 0..=i64::from(MAX_ROUNDS), "a round")
}

/// An island number (0 without the column): below the most islands a run may have.
pub(super) fn parse_island(
    cols: &CsvTable,
    record: &csv::StringRecord,
    column: Option<&Column>,
) -> Result<u64, Error> {
    column.map_or(Ok(0), |c| {
        parse_within(cols, record, c, 0..=u64::from(MAX_ISLANDS - 1), "an island")
    })
}

/// A count of pairs or games: of `rounds.csv`, a rating list or a data night's `data.csv`.
pub(crate) fn parse_count(
    cols: &CsvTable,
    record: &csv::StringRecord,
    column: &Column,
) -> Result<u64, Error> {
    parse_within(cols, record, column, 0..=MAX_COUNT, "a count")
}

pub(super) const COUNT: &str = "a non-negative integer";
pub(super) const NUMBER: &str = "a finite number";
