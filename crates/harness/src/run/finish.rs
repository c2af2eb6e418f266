//! The end of a run without islands: the round-robin playoff of the finalists, `playoff.csv`,
//! `best.json` and the final checkpoint.

use std::path::Path;
use std::time::Instant;

use super::process::Run;
use super::state::{source_round, State};
use super::summary::RunSummary;
use crate::export::{export_to_file, ExportFormat};
use crate::run_folder::{
    append, playoff_header, timings_record, BEST_FILE, PLAYOFF_FILE, TIMINGS_FILE,
};
use crate::tournament::{play_playoff, playoff_games, Specimen, Standing};
use checkers_engine::atomic_file::write_atomically;
use checkers_engine::error::Result;
use checkers_engine::game::Opening;
use checkers_engine::rng::{stream, tag};
use checkers_engine::text::csv_line;

impl Run<'_> {
    /// The openings of the playoff: `playoff_openings` distinct ones from the deck shuffled by
    /// the PLAYOFF stream, or the whole deck if it has fewer (the start position alone gives
    /// one).
    pub(super) fn playoff_openings(&self) -> Vec<Opening> {
        let count = self.config.tournament.playoff_openings as usize;
        self.book
            .distinct(count, &mut stream(self.config.seed, &[tag::PLAYOFF]))
    }

    /// The round-robin of the finalists (`state.population` after the last round): every pair,
    /// both colours, every playoff opening. Writes `playoff.csv`, `best.json` and the final
    /// checkpoint; `None` if the run was stopped.
    pub(super) fn playoff(&self, state: &mut State) -> Result<Option<RunSummary>> {
        let started = Instant::now();
        let finalists: Vec<(Specimen, u32)> = state
            .population
            .iter()
            .map(|m| (m.specimen.clone(), source_round(state, m.specimen.id)))
            .collect();
        let specimens: Vec<&Specimen> = finalists.iter().map(|(s, _)| s).collect();
        let openings = self.playoff_openings();
        let games = self.playoff_start(specimens.len(), openings.len());
        let (settings, seed, stop) = (
            &self.settings,
            self.config.seed,
            self.options.stop.as_deref(),
        );
        let on_game = || self.progress.playoff_game();
        let played = play_playoff(&specimens, &openings, settings, seed, stop, on_game);
        let Some(standings) = played else {
            return Ok(None);
        };
        self.write_results(&self.dir, &finalists, &standings)?;
        if let Some(champion) = &state.gated {
            // With a gate, best.json is the champion, whatever the playoff crowned.
            self.keep_champion(champion)?;
        }
        let seconds = self.playoff_timing(started, games)?;
        self.checkpoint(state, Some(standings.clone()))?;
        self.progress.playoff_done(&standings[0], seconds);
        self.progress.finish();
        Ok(Some(RunSummary::of(
            &self.dir,
            self.config,
            state.completed,
            standings,
            state.gated.as_ref(),
        )))
    }

    /// Tells the observer that the playoff of `finalists` on `openings` starts; its games.
    pub(super) fn playoff_start(&self, finalists: usize, openings: usize) -> u64 {
        let games = playoff_games(finalists, openings);
        self.progress.playoff_start(finalists, games);
        games
    }

    /// Appends the row of this process's playoff, `games` games since `started`, to
    /// `timings.csv`; the seconds it took.
    pub(super) fn playoff_timing(&self, started: Instant, games: u64) -> Result<f64> {
        let seconds = started.elapsed().as_secs_f64();
        let timing = csv_line(&timings_record("playoff", seconds, games));
        append(&self.dir, TIMINGS_FILE, &timing)?;
        Ok(seconds)
    }

    /// Writes `playoff.csv` and `best.json` into `top` for the ranking `standings` of
    /// `finalists` (each with the round of its last row in `specimens.csv`).
    pub(super) fn write_results(
        &self,
        top: &Path,
        finalists: &[(Specimen, u32)],
        standings: &[Standing],
    ) -> Result<()> {
        let mut text = csv_line(&playoff_header());
        for s in standings {
            text.push_str(&csv_line(&[
                s.rank.to_string(),
                s.id.to_string(),
                format!("{:.1}", s.results.points()),
                s.results.wins.to_string(),
                s.results.draws.to_string(),
                s.results.losses.to_string(),
            ]));
        }
        write_atomically(&top.join(PLAYOFF_FILE), text.as_bytes())?;

        let best = standings[0];
        let (specimen, round) = finalists
            .iter()
            .find(|(s, _)| s.id == best.id)
            .expect("rank 1 is a finalist");
        let file = self.player_file(specimen, *round);
        export_to_file(&file, ExportFormat::Json, &top.join(BEST_FILE))
    }
}
