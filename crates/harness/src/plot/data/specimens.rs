//! `specimens.csv`: each round's best survivor.

use std::collections::BTreeMap;
use std::path::Path;

use crate::run_folder::{Column, CsvTable};
use checkers_engine::error::Error;
use checkers_engine::eval::{extra_names, FEATURE_NAMES, MAX_ABS_WEIGHT};

use super::fields::{parse_round, Clamped, COUNT, NUMBER};

/// The best survivor of one round (see [`plot_run`](crate::plot::plot_run) for the ordering), or a gated run's
/// champion (its `round`: the round after which it was accepted).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Best {
    pub(crate) round: i64,
    pub(crate) id: u64,
    pub(crate) rounds_survived: u64,
    pub(crate) wins: u64,
    pub(crate) opening: [f64; 10],
    pub(crate) endgame: [f64; 10],
    /// An extended run's further weights, opening and endgame (empty otherwise).
    pub(crate) extra: [Vec<f64>; 2],
}

impl Best {
    /// What ranks a round's best survivor highest: see [`plot_run`](crate::plot::plot_run).
    pub(super) fn rank(&self) -> (u64, u64, std::cmp::Reverse<u64>) {
        (self.rounds_survived, self.wins, std::cmp::Reverse(self.id))
    }
}

pub(super) fn read_best(path: &Path, clamped: &mut Clamped) -> Result<Vec<Best>, Error> {
    let cols = CsvTable::read(path)?;
    let [round_col, id_col, survived_col, wins_col] =
        ["round", "id", "rounds_survived", "wins"].map(|name| cols.column(name));
    let (round_col, id_col, survived_col, wins_col) =
        (round_col?, id_col?, survived_col?, wins_col?);
    // Per feature: its opening and its endgame column.
    let weight_cols = FEATURE_NAMES
        .iter()
        .map(|f| {
            Ok([
                cols.column(&format!("open_{f}"))?,
                cols.column(&format!("end_{f}"))?,
            ])
        })
        .collect::<Result<Vec<_>, Error>>()?;
    // An extended run's further weights, when the file has their columns.
    let extra_cols: Vec<[Column; 2]> = if cols.column("open_bridge").is_ok() {
        extra_names()
            .iter()
            .map(|f| {
                Ok([
                    cols.column(&format!("open_{f}"))?,
                    cols.column(&format!("end_{f}"))?,
                ])
            })
            .collect::<Result<Vec<_>, Error>>()?
    } else {
        Vec::new()
    };

    let mut best: BTreeMap<i64, Best> = BTreeMap::new();
    for record in cols.rows() {
        let round = parse_round(&cols, record, &round_col)?;
        let id = cols.parse(record, &id_col, COUNT)?;
        let rounds_survived = cols.parse(record, &survived_col, COUNT)?;
        let wins = cols.parse(record, &wins_col, COUNT)?;
        let bound = f64::from(MAX_ABS_WEIGHT);
        let kind = format!("of weights beyond ±{MAX_ABS_WEIGHT}");
        let mut weight = |column: &Column| -> Result<f64, Error> {
            let w: f64 = cols.parse(record, column, NUMBER)?;
            if !w.is_finite() {
                return Err(cols.invalid(record, column, NUMBER));
            }
            Ok(clamped.clamp(w, (-bound, bound), &kind, &cols, record, column))
        };
        let mut sets = [[0f64; 10]; 2];
        for (set, weights) in sets.iter_mut().enumerate() {
            for (w, pair) in weights.iter_mut().zip(&weight_cols) {
                *w = weight(&pair[set])?;
            }
        }
        let [opening, endgame] = sets;
        let mut extra = [Vec::new(), Vec::new()];
        for (set, values) in extra.iter_mut().enumerate() {
            for pair in &extra_cols {
                values.push(weight(&pair[set])?);
            }
        }
        let candidate = Best {
            round,
            id,
            rounds_survived,
            wins,
            opening,
            endgame,
            extra,
        };
        if best
            .get(&round)
            .is_none_or(|current| candidate.rank() > current.rank())
        {
            best.insert(round, candidate);
        }
    }
    Ok(best.into_values().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_specimens(dir: &Path, rows: &[(i64, u64, u64, u64, i32)]) -> std::path::PathBuf {
        let mut text = String::from("round,id,parent_a,parent_b,born_round,rounds_survived,wins");
        for prefix in ["open", "end"] {
            for f in FEATURE_NAMES {
                text.push_str(&format!(",{prefix}_{f}"));
            }
        }
        text.push('\n');
        for &(round, id, survived, wins, w) in rows {
            text.push_str(&format!("{round},{id},,,0,{survived},{wins}"));
            for i in 0..20 {
                text.push_str(&format!(",{}", w + i));
            }
            text.push('\n');
        }
        let path = dir.join("specimens.csv");
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn best_survivor_is_most_rounds_then_most_wins_then_lowest_id() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_specimens(
            dir.path(),
            &[
                // round 1: most rounds_survived wins despite fewer wins
                (1, 4, 1, 9, 0),
                (1, 2, 2, 1, 100),
                // round 2: equal rounds, most wins
                (2, 3, 2, 1, 0),
                (2, 8, 2, 5, 200),
                // round 3: all equal: lowest id, whatever the row order
                (3, 9, 1, 1, 0),
                (3, 5, 1, 1, 300),
                (3, 7, 1, 1, 0),
            ],
        );
        let best = read_best(&path, &mut Clamped::default()).unwrap();
        let picked: Vec<(i64, u64)> = best.iter().map(|b| (b.round, b.id)).collect();
        assert_eq!(picked, vec![(1, 2), (2, 8), (3, 5)]);
        assert_eq!(best[2].opening[0], 300.0);
        assert_eq!(best[2].endgame[9], 319.0);
    }
}
