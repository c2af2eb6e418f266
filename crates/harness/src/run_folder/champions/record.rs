//! What a gated run writes of its champions (`[gate]`): the champion itself, each gate's row of
//! `champions.csv` (whose columns are the reader's, `index.rs`), and each champion's weights
//! file (`champions/round-N.json`, `best.json`).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::index::CHAMPIONS_HEADER;
use crate::matchplay::MatchReport;
use crate::run_folder::CHAMPIONS_FILE;
use crate::tournament::Specimen;
use checkers_engine::atomic_file::write_atomically;
use checkers_engine::error::Result;
use checkers_engine::eval::{EvaluatorKind, PatternTables, PatternWeights};
use checkers_engine::game::SearchParams;
use checkers_engine::text::csv_line;
use checkers_engine::weights_file::{WeightsFile, WeightsSource};

/// The run's champion: the last candidate a gate accepted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GatedChampion {
    /// The specimen (its pattern weights kept with the run's fitted tables).
    pub specimen: Specimen,
    /// The round after which it was accepted.
    pub since: u32,
    /// The sum of the Elo estimates of every accepted gate so far, to one decimal: the
    /// champion's climb over the first champion, as the gates measured it.
    pub elo: f64,
}

/// How a candidate came to try for the place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CandidateKind {
    /// A regression fit.
    Fit,
    /// The round's top survivor.
    Winner,
    /// Not a candidate of its own: the confirming match (`gate.confirm`) of the candidate of
    /// the row before, which the SPRT accepted.
    Confirmation,
}

impl CandidateKind {
    /// Its name in `champions.csv`.
    pub fn name(self) -> &'static str {
        match self {
            CandidateKind::Fit => "fit",
            CandidateKind::Winner => "winner",
            CandidateKind::Confirmation => "confirm",
        }
    }
}

/// One gate, as `champions.csv` records it.
#[derive(Clone, Debug, PartialEq)]
pub struct GateRecord {
    /// The round after which it was played.
    pub round: u32,
    /// The candidate's id and how it came.
    pub candidate: u64,
    /// Its kind.
    pub kind: CandidateKind,
    /// The champion's id (`None`: there was none, and the candidate was crowned unopposed).
    pub champion: Option<u64>,
    /// The match, from the candidate's side (`None` when unopposed).
    pub report: Option<MatchReport>,
    /// Whether the candidate became the champion.
    pub accepted: bool,
    /// The champion's cumulative Elo after this gate.
    pub cumulative_elo: f64,
}

/// The columns of `champions.csv` (the reader's, `index.rs`).
pub fn champions_header() -> Vec<&'static str> {
    CHAMPIONS_HEADER.to_vec()
}

impl GateRecord {
    /// Its row of `champions.csv`: every number in a fixed format, empty match fields for a
    /// champion crowned unopposed.
    pub fn to_csv_record(&self) -> Vec<String> {
        let mut row = vec![
            self.round.to_string(),
            self.candidate.to_string(),
            self.kind.name().to_string(),
            self.champion.map(|id| id.to_string()).unwrap_or_default(),
        ];
        match &self.report {
            Some(report) => {
                let (t, e) = (&report.tally.results, &report.estimate);
                row.extend([
                    t.games().to_string(),
                    t.wins.to_string(),
                    t.draws.to_string(),
                    t.losses.to_string(),
                    format!("{:.1}", e.elo),
                    format!("{:.1}", e.lower),
                    format!("{:.1}", e.upper),
                    report
                        .sprt
                        .as_ref()
                        .map(|s| format!("{:.3}", s.llr))
                        .unwrap_or_default(),
                ]);
            }
            None => row.extend(std::iter::repeat_n(String::new(), 8)),
        }
        row.push(self.accepted.to_string());
        row.push(format!("{:.1}", self.cumulative_elo));
        row
    }
}

/// The weights file of champion `specimen` of run `config`'s evaluator, with the run's
/// `[search]` (`search`): its endgame threshold, its database, and the `search` table of
/// [`SearchParams::run_table`] with the specimen's own search (its genes' values).
pub fn champion_file(
    specimen: &Specimen,
    run: &str,
    round: u32,
    evaluator: EvaluatorKind,
    tables: impl FnOnce() -> PatternTables,
    search: &SearchParams,
) -> WeightsFile {
    WeightsFile {
        weights: specimen.weights,
        extra: specimen.extra.as_deref().copied(),
        patterns: specimen.patterns.clone().or_else(|| {
            // No fit's tables reached it: its tables are zero.
            (evaluator == EvaluatorKind::Patterns)
                .then(|| std::sync::Arc::new(PatternWeights::zero(tables())))
        }),
        endgame_pieces: search.endgame_pieces,
        source: Some(WeightsSource::Specimen {
            run: run.to_string(),
            id: specimen.id,
            round,
        }),
        database_pieces: Some(search.database_pieces),
        search: search
            .run_table()
            .map(|table| table.with_selective(specimen.search)),
    }
}

/// The header line of `champions.csv`.
pub fn champions_header_line() -> String {
    csv_line(&champions_header())
}

/// Writes `champions.csv` with its header only (a gated run's start).
pub fn start_champions(dir: &Path) -> Result<()> {
    write_atomically(
        &dir.join(CHAMPIONS_FILE),
        champions_header_line().as_bytes(),
    )
}
