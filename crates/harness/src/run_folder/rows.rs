//! The rows a run writes into its folder's CSV files (docs/run-folder.md): each file's header,
//! and each row with every number in a fixed format (`to_string` or `{:.N}`), so that the same
//! run always gives the same bytes; only `timings.csv` holds wall-clock figures.

use crate::elo::MatchTally;
use crate::tournament::{BracketGame, RoundStats, Specimen};
use checkers_engine::eval::{
    extra_names, EvaluatorKind, CLASSIC_COUNT, CLASSIC_NAMES, FEATURE_NAMES,
};
use checkers_engine::game::Tally;
use checkers_engine::search::SearchGenes;
use checkers_engine::text::csv_line;

use super::names::{GAMES_FILE, LEARNING_FILE, ROUNDS_FILE, SPECIMENS_FILE, TIMINGS_FILE};

/// What decides the columns of `specimens.csv`: the evaluator's weights, then the search
/// genes the config opens (none: the columns runs without genes always had).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpecimenColumns {
    /// Whose weights the rows hold.
    pub evaluator: EvaluatorKind,
    /// The genes whose values follow the weights.
    pub genes: SearchGenes,
}

impl From<EvaluatorKind> for SpecimenColumns {
    /// The columns of a run of `evaluator` without genes.
    fn from(evaluator: EvaluatorKind) -> SpecimenColumns {
        SpecimenColumns {
            evaluator,
            genes: SearchGenes::default(),
        }
    }
}

/// The header of `specimens.csv` (docs/run-folder.md).
pub fn specimens_header(columns: SpecimenColumns) -> Vec<String> {
    let evaluator = columns.evaluator;
    let mut header: Vec<String> = [
        "round",
        "id",
        "parent_a",
        "parent_b",
        "born_round",
        "origin",
        "rounds_survived",
        "wins",
        "draws",
        "losses",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for prefix in ["open", "end"] {
        header.extend(FEATURE_NAMES.iter().map(|name| format!("{prefix}_{name}")));
    }
    if evaluator.has_extra() {
        for prefix in ["open", "end"] {
            header.extend(extra_names().iter().map(|name| format!("{prefix}_{name}")));
        }
    }
    if evaluator == EvaluatorKind::Patterns {
        for prefix in ["open", "end"] {
            header.extend(CLASSIC_NAMES.iter().map(|name| format!("{prefix}_{name}")));
        }
        header.push("tables".to_string());
    }
    header.extend(columns.genes.columns());
    header
}

/// A survivor's row of `specimens.csv`; a missing parent is an empty field.
pub fn specimen_record(
    columns: SpecimenColumns,
    round: u32,
    specimen: &Specimen,
    rounds_survived: u32,
    tally: &Tally,
) -> Vec<String> {
    let parent = |p: Option<u64>| p.map(|id| id.to_string()).unwrap_or_default();
    let mut row = vec![
        round.to_string(),
        specimen.id.to_string(),
        parent(specimen.parent_a),
        parent(specimen.parent_b),
        specimen.born_round.to_string(),
        specimen.origin().to_string(),
        rounds_survived.to_string(),
        tally.wins.to_string(),
        tally.draws.to_string(),
        tally.losses.to_string(),
    ];
    for set in [&specimen.weights.opening, &specimen.weights.endgame] {
        row.extend(set.0.iter().map(|w| w.to_string()));
    }
    if let Some(extra) = &specimen.extra {
        for set in [&extra.opening, &extra.endgame] {
            row.extend(set.to_vec().iter().map(|w| w.to_string()));
        }
    }
    if columns.evaluator == EvaluatorKind::Patterns {
        let zero = [0; CLASSIC_COUNT];
        let patterns = specimen.patterns.as_deref();
        for set in [
            patterns.map_or(&zero, |p| &p.classic_opening),
            patterns.map_or(&zero, |p| &p.classic_endgame),
        ] {
            row.extend(set.iter().map(|w| w.to_string()));
        }
        row.push(specimen.tables.map(|id| id.to_string()).unwrap_or_default());
    }
    row.extend(columns.genes.values(specimen.search.as_ref()));
    row
}

/// The header of `timings.csv`.
pub fn timings_header() -> Vec<&'static str> {
    vec!["round", "seconds", "games", "games_per_second"]
}

/// A `timings.csv` row; `round` is a round number or `playoff`.
pub fn timings_record(round: &str, seconds: f64, games: u64) -> Vec<String> {
    let rate = if seconds > 0.0 {
        games as f64 / seconds
    } else {
        0.0
    };
    vec![
        round.to_string(),
        format!("{seconds:.3}"),
        games.to_string(),
        format!("{rate:.2}"),
    ]
}

/// The columns of `learning.csv`.
pub fn learning_header() -> Vec<&'static str> {
    vec![
        "round", "id", "opponent", "games", "wins", "draws", "losses", "score", "elo", "elo_low",
        "elo_high",
    ]
}

/// One row of `learning.csv`: specimen `id`'s validation match against `opponent` after
/// `round`, with A's score and the Elo estimate to one decimal.
pub fn learning_record(round: u32, id: u64, opponent: &str, tally: &MatchTally) -> Vec<String> {
    let e = tally.estimate();
    vec![
        round.to_string(),
        id.to_string(),
        opponent.to_string(),
        tally.results.games().to_string(),
        tally.results.wins.to_string(),
        tally.results.draws.to_string(),
        tally.results.losses.to_string(),
        format!("{:.4}", tally.results.score().unwrap_or(0.5)),
        format!("{:.1}", e.elo),
        format!("{:.1}", e.lower),
        format!("{:.1}", e.upper),
    ]
}

/// The header of `playoff.csv`.
pub fn playoff_header() -> Vec<&'static str> {
    vec!["rank", "id", "points", "wins", "draws", "losses"]
}

/// Header line of each appended file.
pub fn header_line(name: &str, columns: SpecimenColumns) -> String {
    match name {
        ROUNDS_FILE => csv_line(&RoundStats::csv_header()),
        SPECIMENS_FILE => csv_line(&specimens_header(columns)),
        GAMES_FILE => csv_line(&BracketGame::csv_header()),
        TIMINGS_FILE => csv_line(&timings_header()),
        LEARNING_FILE => csv_line(&learning_header()),
        other => unreachable!("{other} is not an appended file"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_engine::eval::{WeightPair, Weights};

    #[test]
    fn specimen_rows_match_the_header_and_leave_missing_parents_empty() {
        let header = specimens_header(EvaluatorKind::Ten.into());
        assert_eq!(header.len(), 10 + 20);
        assert_eq!(header[5], "origin");
        assert_eq!(header[10], "open_pawns");
        assert_eq!(header[29], "end_jumps");
        let specimen = Specimen {
            id: 17,
            weights: WeightPair {
                opening: Weights([1, -2, 3, -4, 5, -6, 7, -8, 9, -10]),
                endgame: Weights([0; 10]),
            },
            extra: None,
            patterns: None,
            tables: None,
            parent_a: Some(3),
            parent_b: None,
            born_round: 2,
            fitted: false,
            search: None,
        };
        let tally = Tally {
            wins: 2,
            draws: 1,
            losses: 0,
        };
        let line = csv_line(&specimen_record(
            EvaluatorKind::Ten.into(),
            4,
            &specimen,
            3,
            &tally,
        ));
        assert_eq!(
            line,
            "4,17,3,,2,child,3,2,1,0,1,-2,3,-4,5,-6,7,-8,9,-10,0,0,0,0,0,0,0,0,0,0\n"
        );
        let origins = [(0, None, false), (3, None, false), (3, None, true)].map(
            |(born_round, parent_a, fitted)| {
                let specimen = Specimen {
                    born_round,
                    parent_a,
                    fitted,
                    ..specimen.clone()
                };
                specimen_record(EvaluatorKind::Ten.into(), 4, &specimen, 1, &tally)[5].clone()
            },
        );
        assert_eq!(origins, ["initial", "fresh", "fit"]);
    }

    #[test]
    fn timings_format_is_fixed() {
        assert_eq!(
            timings_record("3", 2.0, 5),
            ["3", "2.000", "5", "2.50"].map(String::from)
        );
        assert_eq!(timings_record("playoff", 0.0, 0)[3], "0.00");
    }
}
