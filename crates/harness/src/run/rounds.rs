//! The round loop: each round's two phases, the play (bracket, validation) and, once an
//! island's immigrants are in, the finish (newcomers, fitted specimens, rows, checkpoint).

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::time::Instant;

use rayon::prelude::*;

use super::checkpoint::{Champion, Member};
use super::fits::{self, Earlier, Pool, RoundGames};
use super::gate::GateCandidates;
use super::process::{merit, Run, VALIDATION_OPPONENT};
use super::state::State;
use crate::fit::{append_round, RecordedGame};
use crate::run_folder::{
    append, append_counted, learning_record, specimen_record, timings_record, write_tables,
    CandidateKind, GatedChampion, CHAMPIONS_FILE, GAMES_FILE, GAMES_PDN_FILE, LEARNING_FILE,
    POSITIONS_FILE, ROUNDS_FILE, SPECIMENS_FILE, TIMINGS_FILE,
};
use crate::tournament::{
    breed, breed_genes_into, play_round, BracketGame, FreshSource, GameJob, RoundResult, Specimen,
};
use checkers_engine::error::{Error, Result};
use checkers_engine::game::Opening;
use checkers_engine::game::PdnGame;
use checkers_engine::text::csv_line;

/// What a round produced before it is saved: the bracket's result and what follows from it,
/// up to the newcomers (which depend on the immigrants of an island-model run).
pub(super) struct Played {
    pub(super) round: u32,
    pub(super) started: Instant,
    pub(super) result: RoundResult,
    pub(super) survivors: Vec<Member>,
    pub(super) champion: Option<Champion>,
    pub(super) learning_row: String,
    pub(super) returning: Option<Member>,
}

impl Run<'_> {
    /// Plays round `state.completed + 1` (the bracket and the validation) without saving
    /// anything; `None` if the run was stopped meanwhile.
    pub(super) fn play_phase(&self, state: &State) -> Result<Option<Played>> {
        let config = self.config;
        let round = state.completed + 1;
        let last_round = round == config.tournament.rounds;
        let started = Instant::now();
        self.progress.round_start(round, state.population.len());

        let specimens: Vec<Specimen> = state
            .population
            .iter()
            .map(|m| m.specimen.clone())
            .collect();
        let settings = self.bracket_settings(round);
        let played = play_round(
            &specimens,
            round,
            self.seed,
            &config.tournament,
            self.options.stop.as_deref(),
            |job: &GameJob| self.bracket_game(job, &settings),
            |summary| self.progress.level_done(summary),
        );
        let Some(result) = played else {
            return Ok(None);
        };

        // Survivors keep their lineage and add one survived round.
        let survived: BTreeMap<u64, u32> = state
            .population
            .iter()
            .map(|m| (m.specimen.id, m.rounds_survived))
            .collect();
        let survivors: Vec<Member> = result
            .survivors
            .iter()
            .map(|s| Member {
                specimen: s.clone(),
                rounds_survived: survived[&s.id] + 1,
            })
            .collect();

        // The state changes only once the round is saved: a stopped round leaves no trace.
        let mut champion = state.champion.clone();
        if let Some(c) = champion.as_mut() {
            if survivors.iter().any(|m| m.specimen.id == c.specimen.id) {
                c.round = round;
            }
        }
        let mut learning_row = String::new();
        let every = config.validation.every;
        if every > 0 && round.is_multiple_of(every) {
            let top = survivors
                .iter()
                .max_by_key(|m| merit(m, &result.tallies))
                .expect("a round leaves at least one survivor");
            let tally = self.validate(&top.specimen);
            if self
                .options
                .stop
                .as_ref()
                .is_some_and(|f| f.load(Ordering::Relaxed))
            {
                return Ok(None);
            }
            let half_points = tally.results.half_points();
            let better = champion
                .as_ref()
                .is_none_or(|c| half_points > c.half_points);
            if config.validation.keep_champion && better {
                champion = Some(Champion {
                    specimen: top.specimen.clone(),
                    half_points,
                    round,
                });
            }
            self.progress.note(&format!(
                "validation after round {round}: specimen {} vs material: {}, {}",
                top.specimen.id,
                tally.results.line(),
                tally.estimate().summary_line()
            ));
            learning_row = csv_line(&learning_record(
                round,
                top.specimen.id,
                VALIDATION_OPPONENT,
                &tally,
            ));
        }

        // The champion comes back (in place of a newcomer, or beside the finalists) when the
        // bracket eliminated it and there is room.
        let room = last_round || survivors.len() < config.population.size;
        let returning: Option<Member> = champion
            .as_ref()
            .filter(|c| room && !survivors.iter().any(|m| m.specimen.id == c.specimen.id))
            .map(|c| Member::fresh(c.specimen.clone()));
        Ok(Some(Played {
            round,
            started,
            result,
            survivors,
            champion,
            learning_row,
            returning,
        }))
    }

    /// Breeds the newcomers of a played round (fewer by the `immigrants` from another island),
    /// writes its rows and saves the checkpoint; `None` if the run was stopped first (while a
    /// pooled fit waited for another island), with nothing written.
    pub(super) fn finish_phase(
        &self,
        state: &mut State,
        played: Played,
        immigrants: Vec<Member>,
    ) -> Result<Option<()>> {
        let config = self.config;
        let (round, mut result, survivors) = (played.round, played.result, played.survivors);
        let last_round = round == config.tournament.rounds;
        // No newcomers after the last round: the survivors go to the playoff as they are.
        let mut next_id = state.next_id;
        let mut newcomers = if last_round {
            Vec::new()
        } else {
            let count = config.population.size
                - survivors.len()
                - usize::from(played.returning.is_some())
                - immigrants.len();
            breed(
                &result.survivors,
                count,
                &config
                    .evolution
                    .after_round(round, config.tournament.rounds),
                FreshSource {
                    space: &config.weights,
                    start: state.start.as_ref(),
                },
                self.seed,
                round,
                &mut next_id,
            )
        };
        breed_genes_into(
            &config.search.genes,
            &mut newcomers,
            &result.survivors,
            config.gene_base(),
            config.evolution.mutation_rate,
            (self.seed, round),
        );
        if config.evolution.fits_after(round, config.tournament.rounds)
            && self
                .enter_fitted(round, &result, &survivors, &mut newcomers, &mut next_id)?
                .is_none()
        {
            return Ok(None);
        }
        result.stats.newcomers = newcomers.len() as u64;
        let Some((gate_rows, gated)) =
            self.gates_of_round(state, round, &result, &survivors, &newcomers)?
        else {
            return Ok(None);
        };

        let games_pdn = config.tournament.games_pdn;
        let games_rows: String = result
            .games
            .iter()
            .map(|game| csv_line(&game.to_csv_record()))
            .collect();
        let pdn_rows: String = result
            .games
            .iter()
            .filter(|_| games_pdn)
            .map(|game| self.game_pdn(game))
            .collect();
        let specimen_rows: String = survivors
            .iter()
            .map(|member| {
                let tally = result.tallies.get(&member.specimen.id);
                let tally = tally.copied().unwrap_or_default();
                let record = specimen_record(
                    config.specimen_columns(),
                    round,
                    &member.specimen,
                    member.rounds_survived,
                    &tally,
                );
                csv_line(&record)
            })
            .collect();
        let round_row = csv_line(&result.stats.to_csv_record());
        let seconds = played.started.elapsed().as_secs_f64();
        let games = result.stats.games();
        let timing_row = csv_line(&timings_record(&round.to_string(), seconds, games));

        let mut lengths = state.files.clone();
        for (name, rows) in [
            (GAMES_FILE, &games_rows),
            (GAMES_PDN_FILE, &pdn_rows),
            (SPECIMENS_FILE, &specimen_rows),
            (ROUNDS_FILE, &round_row),
            (LEARNING_FILE, &played.learning_row),
        ] {
            if name != GAMES_PDN_FILE || games_pdn {
                append_counted(&self.dir, name, rows, &mut lengths)?;
            }
        }
        if self.dir.join(POSITIONS_FILE).exists() {
            let games: Vec<RecordedGame> = result
                .games
                .iter()
                .map(fits::recorded)
                .collect::<Result<_>>()?;
            append_round(&self.dir, round, &games)?;
            // Recorded so that `resume` refuses a run whose store has gone: its fits would
            // learn from the rounds after it only.
            let store = self.dir.join(POSITIONS_FILE);
            let length = std::fs::metadata(&store)
                .map_err(|e| Error::io("read", &store, &e))?
                .len();
            lengths.insert(POSITIONS_FILE.to_string(), length);
        }
        append(&self.dir, TIMINGS_FILE, &timing_row)?;
        if !gate_rows.is_empty() {
            append(&self.dir, CHAMPIONS_FILE, &gate_rows)?;
        }
        if let Some(champion) = gated.as_ref().filter(|c| c.since == round) {
            self.keep_champion(champion)?;
        }
        #[cfg(feature = "crash-hooks")]
        if self.options.hooks.crash_before_checkpoint == Some(round) {
            std::process::abort();
        }

        let mut population = survivors;
        population.extend(newcomers.into_iter().map(Member::fresh));
        population.extend(played.returning);
        population.extend(immigrants);
        population.sort_by_key(|m| m.specimen.id);
        state.completed = round;
        state.next_id = next_id;
        state.champion = played.champion;
        state.gated = gated;
        state.population = population;
        state.files = lengths;
        self.checkpoint(state, None)?;
        self.progress.round_done(&result.stats, seconds);
        Ok(Some(()))
    }

    /// The gates after `round` (`[gate]`), when it has any: the round's fit (among
    /// `newcomers`) and, when asked, its top survivor each play the champion. Returns the
    /// rows for `champions.csv` (empty without a gate) and the champion after them; `None` if
    /// the run was stopped during a gate.
    fn gates_of_round(
        &self,
        state: &State,
        round: u32,
        result: &RoundResult,
        survivors: &[Member],
        newcomers: &[Specimen],
    ) -> Result<Option<(String, Option<GatedChampion>)>> {
        let gate = &self.config.gate;
        if !gate.gates_after(round, self.config.tournament.rounds) {
            return Ok(Some((String::new(), state.gated.clone())));
        }
        let mut candidates = Vec::new();
        if let Some(fit) = newcomers
            .iter()
            .find(|s| s.fitted && s.born_round == round + 1)
        {
            candidates.push((fit.clone(), CandidateKind::Fit));
        }
        if gate.candidates == GateCandidates::FitsAndWinners {
            let top = survivors
                .iter()
                .max_by_key(|m| merit(m, &result.tallies))
                .expect("a round leaves at least one survivor");
            candidates.push((top.specimen.clone(), CandidateKind::Winner));
        }
        let Some((rows, champion)) = self.gate(round, state.gated.as_ref(), &candidates)? else {
            return Ok(None);
        };
        let rows = rows.iter().map(|r| csv_line(&r.to_csv_record())).collect();
        Ok(Some((rows, champion)))
    }

    /// A fit on the run's games from the round's top survivor (`[evolution] fit_every`), when
    /// the games hold positions to learn from: in place of the last of `newcomers`, or, after
    /// the last round, beside the finalists (with the next id). An island that pools the
    /// islands' games first waits for every island to have saved the round before this one;
    /// `None` if the run was stopped meanwhile.
    pub(super) fn enter_fitted(
        &self,
        round: u32,
        result: &RoundResult,
        survivors: &[Member],
        newcomers: &mut Vec<Specimen>,
        next_id: &mut u64,
    ) -> Result<Option<()>> {
        let last_round = round == self.config.tournament.rounds;
        if newcomers.is_empty() && !last_round {
            return Ok(Some(()));
        }
        let top = survivors
            .iter()
            .max_by_key(|m| merit(m, &result.tallies))
            .expect("a round leaves at least one survivor");
        let pooled = self.pools_games();
        if pooled && self.await_saved_rounds(round - 1)?.is_none() {
            return Ok(None);
        }
        let pool = match &self.island {
            Some(part) if pooled => Pool::islands(part.top, part.island.count),
            _ => Pool::own(&self.dir),
        };
        let read = |first: u32, last: u32| -> Result<Vec<RoundGames>> {
            if !pooled {
                return pool.read(first, last).map(|(blocks, _)| blocks);
            }
            let (blocks, bytes) = self.exchange(|| pool.read(first, last))?;
            self.part().pooled_bytes.fetch_add(bytes, Ordering::Relaxed);
            Ok(blocks)
        };
        let earlier = Earlier {
            pooled,
            read: &read,
        };
        let Some(report) = fits::fit_after_round(
            &self.dir,
            self.config,
            self.settings.database,
            (round, &result.games),
            &top.specimen,
            &mut self.pattern_cache.lock().expect("no fit panicked"),
            &earlier,
        )?
        else {
            return Ok(Some(()));
        };
        fits::enter(newcomers, &report, &top.specimen, round, next_id);
        let entered = newcomers.last().expect("just entered");
        if entered.patterns.is_some() {
            // At the top of an island run's folder: migrants carry them to other islands.
            write_tables(
                self.top(),
                entered,
                &self.config.name,
                &self.config.search,
                round,
            )?;
        }
        self.progress.note(&format!(
            "fit after round {round}: specimen {} from specimen {} on {} games ({} positions), \
             loss {:.5} -> {:.5}",
            newcomers.last().expect("replaced").id,
            top.specimen.id,
            report.games,
            report.training_positions,
            report.start.training,
            report.fitted.training
        ));
        Ok(Some(()))
    }

    /// Whether this island's fits learn from every island's games: an island of a run whose
    /// islands pool them, begun with a positions store (a run begun by an older version fits
    /// on its own games, as it did).
    fn pools_games(&self) -> bool {
        self.island.is_some()
            && self.config.islands.pool_fits(&self.config.evolution)
            && self.dir.join(POSITIONS_FILE).exists()
    }

    /// A bracket game as PDN (docs/run-folder.md): from the initial position, the
    /// opening's moves then the game's, so that any PDN reader can replay it; `Round` is
    /// `round.level.pair.game` as in `games.csv`, the players are specimens by id.
    pub(super) fn game_pdn(&self, game: &BracketGame) -> String {
        let opening = Opening::from_name(&game.opening).expect("a game's opening is legal");
        let event = match &self.island {
            Some(part) => format!("{} island {}", self.config.name, part.island.index),
            None => self.config.name.clone(),
        };
        PdnGame::played(
            &event,
            &format!("{}.{}.{}.{}", game.round, game.level, game.pair, game.game),
            &format!("specimen {}", game.black),
            &format!("specimen {}", game.white),
            &opening,
            &game.record,
        )
        .to_pdn()
    }
}

/// The rounds completed by the furthest behind of `live`.
pub(super) fn behind(live: &[(Run, State)]) -> u32 {
    live.iter()
        .map(|(_, state)| state.completed)
        .min()
        .unwrap_or(u32::MAX)
}

/// Plays the rounds left of `live`, in step: those behind play their round together, then send
/// and receive their migrants (with islands; always there already when every island is in
/// `live`: nobody waits), then save. False if the run was stopped meanwhile.
pub(super) fn play_rounds(live: &mut [(Run, State)]) -> Result<bool> {
    while let Some(first) = live.first() {
        let round = behind(live);
        if round >= first.0.config.tournament.rounds {
            break;
        }
        #[cfg(feature = "crash-hooks")]
        let stop_after_round = first.0.options.hooks.stop_after_round;
        let Some(played): Option<Vec<Option<Played>>> = live
            .par_iter()
            .map(|(run, state)| {
                if state.completed == round {
                    run.play_phase(state).map(|p| p.map(Some))
                } else {
                    Ok(Some(None))
                }
            })
            .collect::<Result<Option<Vec<_>>>>()?
        else {
            return Ok(false);
        };
        for ((run, _), played) in live.iter().zip(&played) {
            if let Some(played) = played {
                run.send_migrants(played)?;
            }
        }
        for ((run, state), played) in live.iter_mut().zip(played) {
            let Some(played) = played else { continue };
            let Some(immigrants) = run.receive_migrants(&played)? else {
                return Ok(false);
            };
            if run.finish_phase(state, played, immigrants)?.is_none() {
                return Ok(false);
            }
        }
        #[cfg(feature = "crash-hooks")]
        if stop_after_round == Some(round + 1) {
            return Ok(false);
        }
    }
    Ok(true)
}
