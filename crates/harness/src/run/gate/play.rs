//! The gates a gated run plays after a round: each candidate against the champion, an SPRT
//! deciding (docs/tournament.md#the-gated-champion). The settings are `settings.rs`'s, the
//! records and files the run folder's (`run_folder/champions/`); this is the run playing them.

use crate::elo::SprtVerdict;
use crate::export::{export_to_file, ExportFormat};
use crate::matchplay::{play_match_from, MatchPlayer};
use crate::run::process::Run;
use crate::run_folder::{
    champion_file, champion_path, CandidateKind, GateRecord, GatedChampion, BEST_FILE,
    CHAMPIONS_DIR,
};
use crate::tournament::Specimen;
use checkers_engine::error::{Error, Result};
use checkers_engine::weights_file::WeightsFile;

impl Run<'_> {
    /// The gates after `round`: each candidate (in order) plays the champion, and replaces it
    /// when the SPRT accepts. Returns the rows for `champions.csv` and the new champion; `None`
    /// if the run was stopped during a gate (nothing is kept then: the round is played again).
    pub(crate) fn gate(
        &self,
        round: u32,
        champion: Option<&GatedChampion>,
        candidates: &[(Specimen, CandidateKind)],
    ) -> Result<Option<(Vec<GateRecord>, Option<GatedChampion>)>> {
        let gate = &self.config.gate;
        let test = gate.sprt()?;
        let deck = gate.deck(round, self.config.tournament.random_opening_balance);
        let mut champion = champion.cloned();
        let mut rows = Vec::new();
        for (candidate, kind) in candidates {
            let Some(holder) = &champion else {
                rows.push(GateRecord {
                    round,
                    candidate: candidate.id,
                    kind: *kind,
                    champion: None,
                    report: None,
                    accepted: true,
                    cumulative_elo: 0.0,
                });
                champion = Some(GatedChampion {
                    specimen: candidate.clone(),
                    since: round,
                    elo: 0.0,
                });
                continue;
            };
            if holder.specimen.id == candidate.id {
                continue;
            }
            let a = self.player_file(candidate, round);
            let b = self.player_file(&holder.specimen, holder.since);
            let stop = self.options.stop.as_deref();
            // Each side with its own search (`[search.genes]`; the run's without genes).
            let side = |file, specimen: &Specimen| MatchPlayer {
                selective: specimen.search,
                ..MatchPlayer::from(file)
            };
            let play = |deck: &[_], seed: u64, test| {
                play_match_from(
                    side(&a, candidate),
                    side(&b, &holder.specimen),
                    deck,
                    &self.settings,
                    seed,
                    test,
                    &[],
                    stop,
                    |pair| {
                        self.progress.gate_pair();
                        #[cfg(feature = "crash-hooks")]
                        if self.options.hooks.crash_in_gate == Some(round) && pair.pairs_done >= 2 {
                            std::process::abort();
                        }
                        #[cfg(not(feature = "crash-hooks"))]
                        let _ = pair;
                    },
                )
            };
            let report = play(&deck, gate.seed ^ u64::from(round), Some(test));
            if report.pairs_played < report.pairs_total
                && report.sprt.as_ref().is_none_or(|s| !s.verdict.is_final())
            {
                return Ok(None);
            }
            let passed = report
                .sprt
                .as_ref()
                .is_some_and(|s| s.verdict == SprtVerdict::AcceptH1);
            // A candidate the SPRT accepted plays a confirming match on openings of its own
            // (`gate.confirm`): among many near-equal candidates, the SPRT accepts the luckiest,
            // and its Elo there is biased upward; a fresh match is not.
            let confirmation = if passed && gate.confirm > 0 {
                let deck = gate.confirm_deck(round, self.config.tournament.random_opening_balance);
                let confirm = play(&deck, gate.seed ^ u64::from(round) ^ CONFIRM_SEED, None);
                if confirm.pairs_played < confirm.pairs_total {
                    return Ok(None);
                }
                Some(confirm)
            } else {
                None
            };
            let (accepted, gained) = match &confirmation {
                Some(confirm) => {
                    let t = &confirm.tally.results;
                    (t.wins > t.losses, confirm.estimate.elo)
                }
                None => (passed, report.estimate.elo),
            };
            let elo = if accepted {
                round_tenth(holder.elo + round_tenth(gained))
            } else {
                holder.elo
            };
            // The SPRT's row, then the confirming match's: a log line and a `champions.csv` row
            // each.
            let confirming = confirmation.is_some();
            let matches = std::iter::once(("gate", *kind, report))
                .chain(confirmation.map(|c| ("confirming match", CandidateKind::Confirmation, c)));
            for (what, row_kind, played) in matches {
                let decided = row_kind == CandidateKind::Confirmation || !confirming;
                self.progress.note(&format!(
                    "{what} after round {round}: {} {} vs champion {}: {}, {} -> {}",
                    kind.name(),
                    candidate.id,
                    holder.specimen.id,
                    played.tally.results.line(),
                    played.estimate.summary_line(),
                    match (decided, accepted) {
                        (false, _) => "confirming",
                        (true, true) => "accepted",
                        (true, false) => "refused",
                    }
                ));
                rows.push(GateRecord {
                    round,
                    candidate: candidate.id,
                    kind: row_kind,
                    champion: Some(holder.specimen.id),
                    report: Some(played),
                    accepted,
                    cumulative_elo: elo,
                });
            }
            if accepted {
                champion = Some(GatedChampion {
                    specimen: candidate.clone(),
                    since: round,
                    elo,
                });
            }
        }
        Ok(Some((rows, champion)))
    }

    /// Specimen `specimen` as a weights file of this run (its row's round `round`).
    pub(crate) fn player_file(&self, specimen: &Specimen, round: u32) -> WeightsFile {
        let config = self.config;
        champion_file(
            specimen,
            &config.name,
            round,
            config.weights.evaluator,
            || config.weights.patterns.table_shape(),
            &config.search,
        )
    }

    /// Writes the champion accepted after `round`: its `champions/round-N.json` and
    /// `best.json`, so that `best.json` is always the current champion.
    pub(crate) fn keep_champion(&self, champion: &GatedChampion) -> Result<()> {
        let file = self.player_file(&champion.specimen, champion.since);
        let folder = self.dir.join(CHAMPIONS_DIR);
        std::fs::create_dir_all(&folder).map_err(|e| Error::io("create", &folder, &e))?;
        export_to_file(
            &file,
            ExportFormat::Json,
            &champion_path(&self.dir, champion.since),
        )?;
        export_to_file(&file, ExportFormat::Json, &self.dir.join(BEST_FILE))
    }
}

/// Mixed into a gate's seed for its confirming match, so that its games draw from streams
/// other than the SPRT's.
const CONFIRM_SEED: u64 = 0xC0F1_2A7E;

/// `x` to one decimal, so that the sums in `champions.csv` and the checkpoint agree exactly.
fn round_tenth(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}
