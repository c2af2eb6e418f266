//! `learning.csv`: the learning curve's validation matches.

use std::path::Path;

use crate::run_folder::{Column, CsvTable};
use checkers_engine::error::Error;

use super::fields::{parse_island, parse_round, Clamped, MAX_ELO};

/// One row of `learning.csv`: a validation match's Elo and its 95% interval.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Validation {
    /// The island (0 for a run without islands).
    pub(crate) island: u64,
    pub(crate) round: i64,
    pub(crate) elo: f64,
    pub(crate) low: f64,
    pub(crate) high: f64,
}

pub(super) fn read_learning(path: &Path, clamped: &mut Clamped) -> Result<Vec<Validation>, Error> {
    let cols = CsvTable::read(path)?;
    let [round, elo, low, high] =
        ["round", "elo", "elo_low", "elo_high"].map(|name| cols.column(name));
    let (round, elo, low, high) = (round?, elo?, low?, high?);
    let island_col = cols.optional("island");
    let mut rows = Vec::new();
    let kind = format!("of Elo beyond ±{MAX_ELO}");
    for record in cols.rows() {
        // An infinite end (a clean sweep) is drawn at the edge as it is, NaN not at all; a
        // finite Elo no match gives is moved to the edge of the scale, with a note.
        let mut elo_of = |column: &Column| -> Result<f64, Error> {
            let v: f64 = cols.parse(record, column, "a number")?;
            Ok(if v.is_finite() {
                clamped.clamp(v, (-MAX_ELO, MAX_ELO), &kind, &cols, record, column)
            } else {
                v
            })
        };
        let (elo, low, high) = (elo_of(&elo)?, elo_of(&low)?, elo_of(&high)?);
        rows.push(Validation {
            island: parse_island(&cols, record, island_col.as_ref())?,
            round: parse_round(&cols, record, &round)?,
            elo,
            low,
            high,
        });
    }
    rows.sort_by_key(|v| (v.island, v.round));
    Ok(rows)
}
