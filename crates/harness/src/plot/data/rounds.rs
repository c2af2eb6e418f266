//! `rounds.csv`: each round's pairs by outcome and its mean game length (an island-model
//! run's islands added up).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::run_folder::{line_of, CsvTable};
use crate::tournament::MAX_GAME_PLIES;
use checkers_engine::error::Error;

use super::fields::{parse_count, parse_island, parse_round, Clamped, NUMBER};

/// The five pair outcomes of `rounds.csv`, in the picture's stacking order (bottom first).
pub(crate) const OUTCOME_COLUMNS: [&str; 5] = [
    "black_wins",
    "white_wins",
    "draw_then_black_win",
    "draw_then_white_win",
    "double_draws",
];

/// One row of `rounds.csv`, reduced to what the picture shows.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RoundStats {
    pub(crate) round: i64,
    /// Pair counts in [`OUTCOME_COLUMNS`] order.
    pub(crate) outcomes: [u64; 5],
    pub(crate) mean_plies: Option<f64>,
}

impl RoundStats {
    pub(crate) fn pairs(&self) -> u64 {
        self.outcomes.iter().sum()
    }
}

pub(super) fn read_rounds(path: &Path, clamped: &mut Clamped) -> Result<Vec<RoundStats>, Error> {
    let cols = CsvTable::read(path)?;
    let round_col = cols.column("round")?;
    let outcome_cols = OUTCOME_COLUMNS
        .iter()
        .map(|name| cols.column(name))
        .collect::<Result<Vec<_>, _>>()?;
    let plies_col = cols.column("mean_plies")?;
    // An island-model run has one row per island and round: the picture shows their sum.
    let island_col = cols.optional("island");
    let games_col = match island_col {
        Some(_) => Some(cols.column("games")?),
        None => None,
    };

    // Per round: its sums, and for an island-model run (plies of all games, games) for the mean.
    let mut rounds: BTreeMap<i64, (RoundStats, f64, u64)> = BTreeMap::new();
    let mut seen: HashMap<(u64, i64), u64> = HashMap::new();
    for record in cols.rows() {
        let round = parse_round(&cols, record, &round_col)?;
        let island = parse_island(&cols, record, island_col.as_ref())?;
        if let Some(first) = seen.insert((island, round), line_of(record)) {
            let whose = match island_col {
                Some(_) => format!("island {island}'s "),
                None => String::new(),
            };
            return Err(Error::input(format!(
                "{} line {}, column `round`: {whose}round {round} already appears on line {first}",
                path.display(),
                line_of(record)
            )));
        }
        let mut outcomes = [0u64; 5];
        for (count, col) in outcomes.iter_mut().zip(&outcome_cols) {
            *count = parse_count(&cols, record, col)?;
        }
        // A round without games has no mean; the writer may leave it empty or write NaN.
        let mean_plies = if plies_col.raw(record).is_empty() {
            None
        } else {
            let v: f64 = cols.parse(record, &plies_col, NUMBER)?;
            let range = (0.0, f64::from(MAX_GAME_PLIES));
            let kind = format!("of `mean_plies` outside 0..={MAX_GAME_PLIES}");
            v.is_finite()
                .then(|| clamped.clamp(v, range, &kind, &cols, record, &plies_col))
        };
        let games = match &games_col {
            Some(col) => Some(parse_count(&cols, record, col)?),
            None => None,
        };
        let (row, plies_sum, games_sum) = rounds.entry(round).or_insert_with(|| {
            let row = RoundStats {
                round,
                outcomes: [0; 5],
                mean_plies,
            };
            (row, 0.0, 0)
        });
        for (total, add) in row.outcomes.iter_mut().zip(outcomes) {
            *total += add;
        }
        if let Some(games) = games {
            *plies_sum += mean_plies.unwrap_or(0.0) * games as f64;
            *games_sum += games;
            row.mean_plies = (*games_sum > 0).then(|| *plies_sum / *games_sum as f64);
        }
    }
    if rounds.is_empty() {
        return Err(Error::input(format!(
            "{}: no rounds recorded yet, nothing to plot",
            path.display()
        )));
    }
    Ok(rounds.into_values().map(|(row, _, _)| row).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_mean_plies_is_no_point_but_text_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rounds.csv");
        let header = "round,black_wins,white_wins,draw_then_black_win,draw_then_white_win,\
                      double_draws,mean_plies";
        std::fs::write(&path, format!("{header}\n2,1,0,0,0,0,\n1,0,1,0,0,0,NaN\n")).unwrap();
        let rounds = read_rounds(&path, &mut Clamped::default()).unwrap();
        assert_eq!(
            rounds.iter().map(|r| r.round).collect::<Vec<_>>(),
            vec![1, 2]
        );
        assert!(rounds.iter().all(|r| r.mean_plies.is_none()));

        std::fs::write(&path, format!("{header}\n1,1,0,0,0,0,long\n")).unwrap();
        let err = read_rounds(&path, &mut Clamped::default()).unwrap_err();
        assert!(
            matches!(&err, Error::Input(m) if m.contains("line 2") && m.contains("`mean_plies`"))
        );

        std::fs::write(&path, format!("{header}\n1,1,0,0,0,0,5\n1,1,0,0,0,0,5\n")).unwrap();
        let err = read_rounds(&path, &mut Clamped::default()).unwrap_err();
        assert!(matches!(&err, Error::Input(m) if m.contains("already appears on line 2")));

        std::fs::write(&path, format!("{header}\n")).unwrap();
        assert!(
            matches!(read_rounds(&path, &mut Clamped::default()), Err(Error::Input(m)) if m.contains("no rounds"))
        );
    }
}
