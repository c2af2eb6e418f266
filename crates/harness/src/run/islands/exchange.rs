//! An island's exchanges with the others through the run folder: migrants between rounds, the
//! finalists after the last one, each island's share of the common playoff, and the merged
//! files island 0 writes at the end.

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Instant;

use rayon::prelude::*;

use super::exchange_files::{
    letter_result, publish, result_letter, wait_for, wait_until, FinalistsFile, MigrantsFile,
    PlayoffGamesFile, SavedRounds,
};
use crate::run::checkpoint::Member;
use crate::run::process::{merit, IslandPart, Run};
use crate::run::rounds::Played;
use crate::run::state::{source_round, State};
use crate::run::summary::RunSummary;
use crate::run_folder::{
    attach_tables, finalists_file, island_dir, merge_islands, migrants_file, playoff_games_file,
    CHECKPOINT_FILE,
};
use crate::tournament::{
    play_playoff_share, playoff_games, playoff_standings, PlayoffShare, Specimen,
};
use checkers_engine::error::{Error, Result};
use checkers_engine::game::GameResult;

impl<'a> Run<'a> {
    pub(crate) fn part(&self) -> &IslandPart<'a> {
        self.island.as_ref().expect("an island's run")
    }

    /// Waits for the file `path` that island `writer` writes (`what` it holds, for the
    /// message), counting the wait as exchange time; `None` if the run was stopped.
    pub(crate) fn await_file<T: for<'de> serde::Deserialize<'de>>(
        &self,
        path: &Path,
        writer: u32,
        what: &str,
    ) -> Result<Option<T>> {
        let (part, stop) = (self.part(), self.options.stop.as_deref());
        self.exchange(|| wait_for(part.island, (path, writer, what), part.wait, stop))
    }

    /// Before a fit that pools the islands' games: waits until every other island has saved
    /// round `round` (its checkpoint says so, and its positions store holds the round), counting
    /// the wait as exchange time; `None` if the run was stopped meanwhile. Every island saved
    /// the round before the one it plays, so no island waits for one that waits for it.
    pub(crate) fn await_saved_rounds(&self, round: u32) -> Result<Option<()>> {
        let part = self.part();
        if round == 0 {
            return Ok(Some(()));
        }
        for index in (0..part.island.count).filter(|&i| i != part.island.index) {
            let path = island_dir(part.top, index).join(CHECKPOINT_FILE);
            let what = format!("round {round} (its games, for the pooled fit)");
            let stop = self.options.stop.as_deref();
            let saved = self.exchange(|| {
                wait_until(
                    part.island,
                    (&path, index, &what),
                    part.wait,
                    stop,
                    |saved: &SavedRounds| saved.completed_rounds >= round,
                )
            })?;
            if saved.is_none() {
                return Ok(None);
            }
        }
        Ok(Some(()))
    }

    /// Runs `f`, one of the island's exchanges through the run folder, and counts its time.
    pub(crate) fn exchange<T>(&self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let started = Instant::now();
        let result = f();
        let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.part().exchanging.fetch_add(nanos, Ordering::Relaxed);
        result
    }

    /// The migration number after `round`, if one happens then: every `migration_interval`
    /// rounds, never after the last round (the playoff follows), never without islands.
    pub(crate) fn epoch(&self, round: u32) -> Option<u32> {
        self.island.as_ref()?;
        let interval = self.config.islands.migration_interval;
        let migrates = round.is_multiple_of(interval) && round < self.config.tournament.rounds;
        migrates.then_some(round / interval)
    }

    /// After a migration round, writes copies of the island's best `migrants` survivors (most
    /// rounds survived, then most wins this round, then the lowest id) for its neighbour.
    pub(crate) fn send_migrants(&self, played: &Played) -> Result<()> {
        let Some(epoch) = self.epoch(played.round) else {
            return Ok(());
        };
        let part = self.part();
        let mut best: Vec<&Member> = played.survivors.iter().collect();
        best.sort_by_key(|m| Reverse(merit(m, &played.result.tallies)));
        let migrants = best
            .into_iter()
            .take(self.config.islands.migrants as usize)
            .cloned()
            .collect();
        let path = migrants_file(part.top, epoch, part.island.index);
        let file = MigrantsFile {
            island: part.island.index,
            round: played.round,
            migrants,
        };
        self.exchange(|| publish(&path, &file))
    }

    /// After a migration round, the migrants of the neighbour that sends to this island, as
    /// new members: those not here already, as many as there are newcomers to replace. Waits
    /// for the neighbour's file; `None` if the run was stopped meanwhile.
    pub(crate) fn receive_migrants(&self, played: &Played) -> Result<Option<Vec<Member>>> {
        let Some(epoch) = self.epoch(played.round) else {
            return Ok(Some(Vec::new()));
        };
        let part = self.part();
        let sender = part.island.sender();
        let path = migrants_file(part.top, epoch, sender);
        let what = format!("migrants of round {}", played.round);
        let Some(file): Option<MigrantsFile> = self.await_file(&path, sender, &what)? else {
            return Ok(None);
        };
        let mut here: Vec<u64> = played
            .survivors
            .iter()
            .chain(&played.returning)
            .map(|m| m.specimen.id)
            .collect();
        let room = self.config.population.size - here.len();
        let mut immigrants: Vec<Member> = Vec::new();
        for m in file.migrants {
            if immigrants.len() == room {
                break;
            }
            if here.contains(&m.specimen.id) {
                continue;
            }
            if let Some((key, value, _)) = self.config.weights.outside(&m.specimen.weights) {
                return Err(Error::input(format!(
                    "{}: weight {key} = {value} of specimen {} is outside the config's range; \
                     the file was changed",
                    path.display(),
                    m.specimen.id
                )));
            }
            here.push(m.specimen.id);
            immigrants.push(Member::fresh(m.specimen));
        }
        // A fitted specimen's pattern weights travel as the name of their file, at the top of
        // the run folder, written before any migrant could carry them.
        self.exchange(|| {
            attach_tables(
                part.top,
                &self.config.name,
                immigrants.iter_mut().map(|m| &mut m.specimen),
            )
        })?;
        Ok(Some(immigrants))
    }

    /// After the last round, writes the island's finalists for the playoff of all islands.
    pub(crate) fn publish_finalists(&self, state: &State) -> Result<()> {
        let part = self.part();
        let finalists = state
            .population
            .iter()
            .map(|m| (m.clone(), source_round(state, m.specimen.id)))
            .collect();
        let file = FinalistsFile {
            island: part.island.index,
            finalists,
        };
        let path = finalists_file(part.top, part.island.index);
        self.exchange(|| publish(&path, &file))
    }

    /// The finalists of all islands in id order, each with the round of its last row in
    /// `specimens.csv` (a migrant that reached the end on two islands counts once, from the
    /// lower island). Waits for every island's file; `None` if the run was stopped.
    pub(crate) fn gather_finalists(&self) -> Result<Option<Vec<(Specimen, u32)>>> {
        let part = self.part();
        let mut all: BTreeMap<u64, (Specimen, u32)> = BTreeMap::new();
        for index in 0..part.island.count {
            let path = finalists_file(part.top, index);
            let waited = self.await_file(&path, index, "finalists")?;
            let Some(file): Option<FinalistsFile> = waited else {
                return Ok(None);
            };
            for (member, round) in file.finalists {
                all.entry(member.specimen.id)
                    .or_insert((member.specimen, round));
            }
        }
        let mut finalists: Vec<(Specimen, u32)> = all.into_values().collect();
        self.exchange(|| {
            attach_tables(
                part.top,
                &self.config.name,
                finalists.iter_mut().map(|(s, _)| s),
            )
        })?;
        Ok(Some(finalists))
    }

    /// Plays this island's share of the playoff of all islands' `finalists` (game `g` is island
    /// `g % count`'s) and writes its results; a share written before a restart is kept.
    /// `None` if the run was stopped.
    pub(crate) fn play_share(&self, finalists: &[(Specimen, u32)]) -> Result<Option<()>> {
        let part = self.part();
        let path = playoff_games_file(part.top, part.island.index);
        if path.is_file() {
            return Ok(Some(()));
        }
        let started = Instant::now();
        let specimens: Vec<&Specimen> = finalists.iter().map(|(s, _)| s).collect();
        let openings = self.playoff_openings();
        self.playoff_start(specimens.len(), openings.len());
        let share = PlayoffShare {
            index: part.island.index as usize,
            count: part.island.count as usize,
        };
        let (settings, seed, stop) = (
            &self.settings,
            self.config.seed,
            self.options.stop.as_deref(),
        );
        let on_game = || self.progress.playoff_game();
        let played =
            play_playoff_share(&specimens, &openings, settings, seed, share, stop, on_game);
        let Some(results) = played else {
            return Ok(None);
        };
        self.playoff_timing(started, results.len() as u64)?;
        let file = PlayoffGamesFile {
            island: part.island.index,
            results: results.into_iter().map(result_letter).collect(),
        };
        self.exchange(|| publish(&path, &file))?;
        Ok(Some(()))
    }

    /// The ranking from every island's share of the playoff (waited for). Island 0 then writes
    /// the merged files, `playoff.csv` and `best.json` at the top of the run folder; every
    /// island saves its final checkpoint. `None` if the run was stopped.
    pub(crate) fn finish_islands(
        &self,
        state: &mut State,
        finalists: &[(Specimen, u32)],
    ) -> Result<Option<RunSummary>> {
        let part = self.part();
        let specimens: Vec<&Specimen> = finalists.iter().map(|(s, _)| s).collect();
        let openings = self.playoff_openings();
        let total = playoff_games(specimens.len(), openings.len()) as usize;
        let count = part.island.count as usize;
        let mut shares = Vec::new();
        for index in 0..part.island.count {
            let path = playoff_games_file(part.top, index);
            let waited = self.await_file(&path, index, "playoff games")?;
            let Some(file): Option<PlayoffGamesFile> = waited else {
                return Ok(None);
            };
            let results: Option<Vec<GameResult>> =
                file.results.chars().map(letter_result).collect();
            let wanted = (total + count - 1 - index as usize) / count;
            let Some(results) = results.filter(|results| results.len() == wanted) else {
                return Err(Error::input(format!(
                    "{}: not the {wanted} playoff results of island {index}; the file was changed",
                    path.display()
                )));
            };
            shares.push(results);
        }
        let standings = playoff_standings(&specimens, &openings, &shares);
        if part.island.index == 0 {
            merge_islands(
                part.top,
                part.island.count,
                self.config.tournament.games_pdn,
                self.config.specimen_columns(),
            )?;
            self.write_results(part.top, finalists, &standings)?;
        }
        self.checkpoint(state, Some(standings.clone()))?;
        let best = &standings[0];
        self.progress.note(&format!(
            "playoff of all islands done: best specimen {} with {:.1} points from {} games",
            best.id,
            best.results.points(),
            best.results.games()
        ));
        let exchanging = part.exchanging.load(Ordering::Relaxed) as f64 * 1e-9;
        let total = part.opened.elapsed().as_secs_f64();
        let pooled = part.pooled_bytes.load(Ordering::Relaxed);
        let stores = if pooled > 0 {
            format!(
                " (the pooled fits read {:.1} MB of positions stores)",
                pooled as f64 * 1e-6
            )
        } else {
            String::new()
        };
        self.progress.note(&format!(
            "{exchanging:.1} s of {total:.1} s ({:.1}%) spent writing, waiting for and reading \
             the exchanged files{stores}",
            100.0 * exchanging / total.max(1e-9)
        ));
        self.progress.finish();
        Ok(Some(RunSummary::of(
            part.top,
            self.config,
            state.completed,
            standings,
            None,
        )))
    }
}

/// The playoff of all islands' finalists, each island of `live` playing its share, once every
/// island (in this process or not) has published its finalists. `None` if the run was stopped.
pub(crate) fn islands_playoff(live: &mut [(Run, State)]) -> Result<Option<RunSummary>> {
    for (run, state) in live.iter() {
        run.publish_finalists(state)?;
    }
    let Some(finalists) = live[0].0.gather_finalists()? else {
        return Ok(None);
    };
    let shared: Option<Vec<()>> = live
        .par_iter()
        .map(|(run, _)| run.play_share(&finalists))
        .collect::<Result<_>>()?;
    if shared.is_none() {
        return Ok(None);
    }
    let mut summary = None;
    // Island 0 last: it merges what the others have saved.
    for (run, state) in live.iter_mut().rev() {
        let Some(island) = run.finish_islands(state, &finalists)? else {
            return Ok(None);
        };
        summary = Some(island);
    }
    Ok(summary)
}
