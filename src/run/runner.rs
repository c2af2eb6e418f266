//! The main job (docs/tournament.md): rounds of single elimination with newcomers after each, a
//! round-robin playoff of the final survivors, the run folder's files, checkpoints, and resuming.
//!
//! Determinism: every draw comes from a stream keyed by where it is made (the bracket's
//! shuffles, each pair's opening, each game's tie-breaks, breeding, the playoff's openings), and
//! results are collected in a fixed order, so the files do not depend on the thread count.
//! Crash safety: a round's rows are appended and flushed, then the checkpoint recording the new
//! file lengths is renamed into place. A process killed at any moment leaves either the old
//! checkpoint (and `resume` cuts the files back to it and replays the round, which gives the same
//! rows again) or the new one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use super::checkpoint::{openings_fingerprint, Champion, Checkpoint, Member, CHECKPOINT_FORMAT};
use super::config::{Config, OpeningsSource};
use super::files::{
    self, append, append_counted, csv_line, learning_record, specimen_record, timings_record,
    write_atomically, FileLengths, BEST_FILE, CONFIG_FILE, GAMES_FILE, LEARNING_FILE, PLAYOFF_FILE,
    ROUNDS_FILE, SPECIMENS_FILE, TIMINGS_FILE,
};
use super::lock::RunLock;
use super::progress::{Progress, ProgressMode};
use crate::egdb::EndgameDb;
use crate::elo::MatchTally;
use crate::error::{Error, Result};
use crate::eval::{WeightsFile, WeightsSource};
use crate::export::{export_to_file, ExportFormat};
use crate::game::{
    load_openings_file, play_game, three_move_deck, tough_deck, GameResult, GameSettings, Opening,
    OpeningBook, Tally,
};
use crate::matchplay::play_match;
use crate::rng::{stream, tag};
use crate::tournament::{
    breed, initial_population, play_playoff, play_round, playoff_games, BracketParams,
    EvolutionParams, GameJob, GameReport, Specimen, Standing,
};

/// How a run is executed: none of this changes its files (except `timings.csv`).
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads for the games; 0 for one per core.
    pub threads: usize,
    /// Bars, log lines or nothing on stderr.
    pub progress: ProgressMode,
    /// Opens the endgame database of the given number of pieces (reading it, or building it
    /// at first use); called once the run folder is checked, when the config asks for a
    /// database (`search.database_pieces` above 0). Without it such a config is refused.
    pub endgame_db: Option<EndgameDbLoader>,
    /// When set (e.g. by a Ctrl-C handler), the run stops at the next game boundary, drops the
    /// round in progress and returns [`RunOutcome::Interrupted`].
    pub stop: Option<Arc<AtomicBool>>,
    /// Test hook: stop cleanly once this round is saved, as if interrupted.
    #[cfg(feature = "crash-hooks")]
    pub stop_after_round: Option<u32>,
    /// Test hook: abort the process once this round's rows are written but before its
    /// checkpoint, the worst moment for a crash.
    #[cfg(feature = "crash-hooks")]
    pub crash_before_checkpoint: Option<u32>,
}

/// How a run gets its endgame database: from the number of pieces, the database (its
/// `pieces()` must be that number) or why not.
#[derive(Clone)]
pub struct EndgameDbLoader(pub Arc<dyn Fn(u32) -> Result<&'static EndgameDb> + Send + Sync>);

impl std::fmt::Debug for EndgameDbLoader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EndgameDbLoader")
    }
}

/// A finished run: where its files are and its playoff ranking.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSummary {
    /// The run folder.
    pub dir: PathBuf,
    /// The run's name.
    pub name: String,
    /// Rounds played.
    pub rounds: u32,
    /// The playoff ranking, best first (never empty).
    pub standings: Vec<Standing>,
}

impl RunSummary {
    /// Rank 1 of the playoff: the run's best specimen.
    pub fn best(&self) -> &Standing {
        &self.standings[0]
    }
}

/// How a call to [`tune`] or [`resume`] ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RunOutcome {
    /// The run completed its rounds and playoff.
    Finished(RunSummary),
    /// `resume` found a run that had already finished; nothing was done.
    AlreadyFinished(RunSummary),
    /// Stopped before the end; `resume` continues it.
    Interrupted {
        /// The run folder.
        dir: PathBuf,
        /// Rounds saved so far.
        completed_rounds: u32,
    },
}

/// Starts the run `config` in folder `out`.
///
/// A folder that already holds a run is refused unless `force` is set, in which case its run
/// files (and only those) are deleted first; a non-empty folder that is not a run folder, and
/// a folder in use by another run, are refused. Validate the config (with [`Config::load`])
/// before calling this: nothing is created for a config that fails.
pub fn tune(config: &Config, out: &Path, force: bool, options: &RunOptions) -> Result<RunOutcome> {
    // Held until the run returns; refuses folders in use, foreign folders, existing runs.
    let _lock = RunLock::for_new_run(out, force)?;
    let text = config.to_toml();
    write_atomically(&out.join(CONFIG_FILE), text.as_bytes())?;
    let lengths = files::start_files(out)?;
    let state = State::initial(config, lengths);
    Run::new(out, config, text, options, state.completed)?.go(state)
}

/// Continues the run in `dir` from its last completed round (or its playoff), cutting the rows a
/// killed process wrote after its checkpoint. A run that never completed a round starts over
/// from round 1; a finished run is reported as such.
pub fn resume(dir: &Path, options: &RunOptions) -> Result<RunOutcome> {
    if !dir.is_dir() {
        return Err(Error::input(format!(
            "{}: no such run folder",
            dir.display()
        )));
    }
    let config_path = dir.join(CONFIG_FILE);
    if !config_path.is_file() || !files::holds_run(dir) {
        return Err(Error::input(format!(
            "{} is not a run folder: it has no {CONFIG_FILE} written by a run (start a run \
             with `checkers-tuner tune CONFIG --out {}`)",
            dir.display(),
            dir.display()
        )));
    }
    // Held until the run returns: no other `tune` or `resume` meanwhile.
    let _lock = RunLock::acquire(dir)?;
    let config = Config::load(&config_path)?;
    let text = config.to_toml();
    let state = match Checkpoint::load(dir)? {
        None => State::initial(&config, files::start_files(dir)?),
        Some(checkpoint) => {
            if checkpoint.config != text {
                return Err(Error::input(format!(
                    "{}: the config was changed since the run started; put back the original \
                     (it is saved in {}) or start a new run",
                    config_path.display(),
                    files::CHECKPOINT_FILE
                )));
            }
            checkpoint.check(&config, dir)?;
            if let Some(standings) = checkpoint.playoff {
                return Ok(RunOutcome::AlreadyFinished(RunSummary {
                    dir: dir.to_path_buf(),
                    name: config.name.clone(),
                    rounds: checkpoint.completed_rounds,
                    standings,
                }));
            }
            files::cut_to(dir, &checkpoint.files, checkpoint.completed_rounds)?;
            State {
                completed: checkpoint.completed_rounds,
                next_id: checkpoint.next_id,
                population: checkpoint.population,
                files: checkpoint.files,
                champion: checkpoint.champion,
            }
        }
    };
    let run = Run::new(dir, &config, text, options, state.completed)?;
    if state.completed > 0 {
        run.progress.note(&format!(
            "resuming {} after round {} of {}",
            dir.display(),
            state.completed,
            config.tournament.rounds
        ));
    }
    run.go(state)
}

/// The openings of a source: the start position alone, a shipped deck, a file's, or random
/// openings level within `balance`.
pub fn opening_book(source: &OpeningsSource, balance: i32) -> Result<OpeningBook> {
    Ok(match source {
        OpeningsSource::Start => OpeningBook::Deck(vec![Opening::start()]),
        OpeningsSource::ThreeMove => OpeningBook::Deck(three_move_deck()),
        OpeningsSource::Tough => OpeningBook::Deck(tough_deck()),
        OpeningsSource::File(path) => OpeningBook::Deck(load_openings_file(path)?),
        &OpeningsSource::Random(plies) => OpeningBook::Random { plies, balance },
    })
}

/// Where a run stands between rounds.
struct State {
    /// Rounds completed.
    completed: u32,
    next_id: u64,
    /// The next round's population in id order; after the last round, the finalists.
    population: Vec<Member>,
    files: FileLengths,
    /// The best validated specimen so far, if validation keeps one.
    champion: Option<Champion>,
}

impl State {
    fn initial(config: &Config, files: FileLengths) -> State {
        let p = &config.population;
        let population = initial_population(p.size, &config.weights, config.seed)
            .into_iter()
            .map(|specimen| Member {
                specimen,
                rounds_survived: 0,
            })
            .collect();
        State {
            completed: 0,
            next_id: p.size as u64,
            population,
            files,
            champion: None,
        }
    }
}

/// One process's work on a run.
struct Run<'a> {
    dir: &'a Path,
    config: &'a Config,
    config_text: String,
    options: &'a RunOptions,
    book: OpeningBook,
    /// The openings file's fingerprint, for the checkpoint.
    openings: Option<String>,
    /// The learning curve's openings (empty when validation is off).
    validation_deck: Vec<Opening>,
    settings: GameSettings,
    progress: Progress,
}

/// The config's game settings with the caller's endgame database, which must be the one the
/// config asks for.
fn run_settings(config: &Config, options: &RunOptions) -> Result<GameSettings> {
    let mut settings = config.game_settings();
    let pieces = config.search.database_pieces;
    if pieces > 0 {
        let Some(loader) = &options.endgame_db else {
            return Err(Error::input(format!(
                "config {}: `search.database_pieces` = {pieces} needs the {pieces}-piece \
                 endgame database, and no way to open it was given",
                config.name
            )));
        };
        let db = (loader.0)(pieces)?;
        if db.pieces() != pieces {
            return Err(Error::failure(format!(
                "asked for the {pieces}-piece endgame database, got the {}-piece one",
                db.pieces()
            )));
        }
        settings.database = Some(db);
    }
    Ok(settings)
}

impl<'a> Run<'a> {
    fn new(
        dir: &'a Path,
        config: &'a Config,
        config_text: String,
        options: &'a RunOptions,
        completed: u32,
    ) -> Result<Run<'a>> {
        Ok(Run {
            dir,
            config,
            config_text,
            options,
            book: opening_book(
                &config.tournament.openings,
                config.tournament.random_opening_balance,
            )?,
            openings: openings_fingerprint(config)?,
            validation_deck: validation_deck(config),
            settings: run_settings(config, options)?,
            progress: Progress::new(options.progress, config.tournament.rounds, completed),
        })
    }

    fn stopped(&self) -> bool {
        self.options
            .stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    fn interrupted(&self, completed_rounds: u32) -> RunOutcome {
        RunOutcome::Interrupted {
            dir: self.dir.to_path_buf(),
            completed_rounds,
        }
    }

    fn go(self, mut state: State) -> Result<RunOutcome> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.options.threads)
            .build()
            .map_err(|e| Error::failure(format!("cannot start the worker threads: {e}")))?;
        pool.install(|| {
            while state.completed < self.config.tournament.rounds {
                if !self.play_one_round(&mut state)? {
                    return Ok(self.interrupted(state.completed));
                }
                #[cfg(feature = "crash-hooks")]
                if self.options.stop_after_round == Some(state.completed) {
                    return Ok(self.interrupted(state.completed));
                }
            }
            match self.playoff(&mut state)? {
                Some(standings) => {
                    self.progress.finish();
                    Ok(RunOutcome::Finished(RunSummary {
                        dir: self.dir.to_path_buf(),
                        name: self.config.name.clone(),
                        rounds: state.completed,
                        standings,
                    }))
                }
                None => Ok(self.interrupted(state.completed)),
            }
        })
    }

    /// The opening of a pair: drawn from the pair's own stream, so both its games share it.
    fn opening(&self, pair_key: &[u64]) -> Opening {
        self.book.for_pair(&mut stream(self.config.seed, pair_key))
    }

    /// Plays one bracket game.
    fn bracket_game(&self, job: &GameJob) -> GameReport {
        let opening = self.opening(&job.opening_key());
        let mut rng = stream(self.config.seed, &job.game_key());
        let record = play_game(
            &job.black.weights,
            &job.white.weights,
            &opening.position,
            &self.settings,
            &mut rng,
        );
        let pair_done = match self.config.tournament.pairing_openings {
            1 => job.game == 2 || record.result != GameResult::Draw,
            k => job.game == 2 * k,
        };
        self.progress.game_done(record.result, pair_done);
        GameReport {
            result: record.result,
            plies: record.plies,
            reason: record.reason,
            opening: opening.name.clone(),
        }
    }

    /// Plays, writes and saves round `state.completed + 1`. Returns false if the run was
    /// stopped during the round, which is then forgotten.
    fn play_one_round(&self, state: &mut State) -> Result<bool> {
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
        let params = BracketParams {
            survival_fraction: config.tournament.survival_fraction,
            stall_levels: config.tournament.stall_levels,
            pairing_openings: config.tournament.pairing_openings,
        };
        let played = play_round(
            &specimens,
            round,
            config.seed,
            &params,
            self.options.stop.as_deref(),
            |job: &GameJob| self.bracket_game(job),
            |summary| self.progress.level_done(summary),
        );
        let Some(mut result) = played else {
            return Ok(false);
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
            let top = top_survivor(&survivors, &result.tallies);
            let tally = self.validate(&top.specimen);
            if self.stopped() {
                return Ok(false);
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
            .map(|c| Member {
                specimen: c.specimen.clone(),
                rounds_survived: 0,
            });

        // No newcomers after the last round: the survivors go to the playoff as they are.
        let newcomers = if last_round {
            Vec::new()
        } else {
            let count = config.population.size - survivors.len() - usize::from(returning.is_some());
            breed(
                &result.survivors,
                count,
                &self.evolution_params(round),
                config.seed,
                round,
                &mut state.next_id,
            )
        };
        result.stats.newcomers = newcomers.len() as u64;

        let mut games_rows = String::new();
        for game in &result.games {
            games_rows.push_str(&csv_line(&game.to_csv_record()));
        }
        let mut specimen_rows = String::new();
        for member in &survivors {
            let tally = result
                .tallies
                .get(&member.specimen.id)
                .copied()
                .unwrap_or_default();
            specimen_rows.push_str(&csv_line(&specimen_record(
                round,
                &member.specimen,
                member.rounds_survived,
                &tally,
            )));
        }
        let round_row = csv_line(&result.stats.to_csv_record());
        let seconds = started.elapsed().as_secs_f64();
        let timing_row = csv_line(&timings_record(
            &round.to_string(),
            seconds,
            result.stats.games(),
        ));

        let mut lengths = state.files.clone();
        append_counted(self.dir, GAMES_FILE, &games_rows, &mut lengths)?;
        append_counted(self.dir, SPECIMENS_FILE, &specimen_rows, &mut lengths)?;
        append_counted(self.dir, ROUNDS_FILE, &round_row, &mut lengths)?;
        append_counted(self.dir, LEARNING_FILE, &learning_row, &mut lengths)?;
        append(self.dir, TIMINGS_FILE, &timing_row)?;
        #[cfg(feature = "crash-hooks")]
        if self.options.crash_before_checkpoint == Some(round) {
            std::process::abort();
        }

        let mut population = survivors;
        population.extend(newcomers.into_iter().map(|specimen| Member {
            specimen,
            rounds_survived: 0,
        }));
        population.extend(returning);
        population.sort_by_key(|m| m.specimen.id);
        state.completed = round;
        state.champion = champion;
        state.population = population;
        state.files = lengths;
        self.checkpoint(state, None)?;
        self.progress.round_done(&result.stats, seconds);
        Ok(true)
    }

    /// A validation match of `specimen` against `material` on the validation deck, at the
    /// run's depths and draw rules, both sides switching at the run's endgame threshold.
    fn validate(&self, specimen: &Specimen) -> MatchTally {
        let endgame_pieces = self.config.search.endgame_pieces;
        let a = WeightsFile {
            endgame_pieces,
            ..WeightsFile::new(specimen.weights)
        };
        let b = WeightsFile {
            endgame_pieces,
            ..WeightsFile::material()
        };
        let seed = self.config.validation.seed;
        play_match(
            &a,
            &b,
            &self.validation_deck,
            &self.settings,
            seed,
            None,
            |_| {},
        )
        .tally
    }

    /// The breeding settings after `round`.
    fn evolution_params(&self, round: u32) -> EvolutionParams {
        let e = &self.config.evolution;
        let mutation_sigma = e.mutation_sigma_after(round, self.config.tournament.rounds);
        EvolutionParams {
            mode: e.mode,
            immigrants: e.immigrants,
            crossover: e.crossover,
            mutation_rate: e.mutation_rate,
            mutation_sigma,
            space: self.config.weights,
        }
    }

    fn checkpoint(&self, state: &State, playoff: Option<Vec<Standing>>) -> Result<()> {
        Checkpoint {
            format: CHECKPOINT_FORMAT,
            config: self.config_text.clone(),
            completed_rounds: state.completed,
            next_id: state.next_id,
            population: state.population.clone(),
            files: state.files.clone(),
            playoff,
            champion: state.champion.clone(),
            openings: self.openings.clone(),
        }
        .save(self.dir)
    }

    /// The openings of the playoff: `playoff_openings` distinct ones from the deck shuffled by
    /// the PLAYOFF stream, or the whole deck if it has fewer (the start position alone gives
    /// one).
    fn playoff_openings(&self) -> Vec<Opening> {
        let count = self.config.tournament.playoff_openings as usize;
        self.book
            .distinct(count, &mut stream(self.config.seed, &[tag::PLAYOFF]))
    }

    /// The round-robin of the finalists (`state.population` after the last round): every pair,
    /// both colours, every playoff opening. Writes `playoff.csv`, `best.json` and the final
    /// checkpoint; `None` if the run was stopped.
    fn playoff(&self, state: &mut State) -> Result<Option<Vec<Standing>>> {
        let started = Instant::now();
        let finalists: Vec<&Specimen> = state.population.iter().map(|m| &m.specimen).collect();
        let openings = self.playoff_openings();
        let games = playoff_games(finalists.len(), openings.len());
        self.progress.playoff_start(finalists.len(), games);
        let seed = self.config.seed;
        let stop = self.options.stop.as_deref();
        let on_game = || self.progress.playoff_game();
        let played = play_playoff(&finalists, &openings, &self.settings, seed, stop, on_game);
        let Some(standings) = played else {
            return Ok(None);
        };

        let mut text = csv_line(&files::playoff_header());
        for s in &standings {
            text.push_str(&csv_line(&[
                s.rank.to_string(),
                s.id.to_string(),
                format!("{:.1}", s.results.points()),
                s.results.wins.to_string(),
                s.results.draws.to_string(),
                s.results.losses.to_string(),
            ]));
        }
        write_atomically(&self.dir.join(PLAYOFF_FILE), text.as_bytes())?;

        let best = standings[0];
        let weights = finalists
            .iter()
            .find(|s| s.id == best.id)
            .expect("rank 1 is a finalist")
            .weights;
        let file = WeightsFile {
            weights,
            endgame_pieces: self.config.search.endgame_pieces,
            source: Some(WeightsSource {
                run: self.config.name.clone(),
                id: best.id,
                // Where its last row in specimens.csv is: a returned champion's is earlier.
                round: state
                    .champion
                    .as_ref()
                    .filter(|c| c.specimen.id == best.id)
                    .map_or(state.completed, |c| c.round),
            }),
        };
        export_to_file(&file, ExportFormat::Json, &self.dir.join(BEST_FILE))?;

        let seconds = started.elapsed().as_secs_f64();
        let timing = csv_line(&timings_record("playoff", seconds, games));
        append(self.dir, TIMINGS_FILE, &timing)?;
        self.checkpoint(state, Some(standings.clone()))?;
        self.progress.playoff_done(&best, seconds);
        Ok(Some(standings))
    }
}

/// The opponent of every validation match.
const VALIDATION_OPPONENT: &str = "material";

/// The validation deck: `openings` distinct random openings of `opening_plies` plies, drawn
/// from the validation seed's own stream (never from the run's), level within the run's
/// random-opening balance.
fn validation_deck(config: &Config) -> Vec<Opening> {
    let v = &config.validation;
    if v.every == 0 {
        return Vec::new();
    }
    let book = OpeningBook::Random {
        plies: v.opening_plies,
        balance: config.tournament.random_opening_balance,
    };
    book.distinct(v.openings as usize, &mut stream(v.seed, &[tag::VALIDATION]))
}

/// The survivor a validation match tests: the one that survived the most rounds, then won the
/// most games this round, then the lowest id.
fn top_survivor<'m>(survivors: &'m [Member], tallies: &BTreeMap<u64, Tally>) -> &'m Member {
    survivors
        .iter()
        .max_by_key(|m| {
            let wins = tallies.get(&m.specimen.id).map_or(0, |t| t.wins);
            (m.rounds_survived, wins, std::cmp::Reverse(m.specimen.id))
        })
        .expect("a round leaves at least one survivor")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny_config(dir: &Path) -> Config {
        let text = "name = \"unit\"\nseed = 2\n[population]\nsize = 6\n\
                    [tournament]\nrounds = 2\nopenings = \"start\"\nmax_plies = 30\n\
                    playoff_openings = 2\n[search]\nmin_depth = 1\nmax_depth = 2\ndatabase_pieces = 0\n";
        Config::from_str_named(text, dir.join("unit.toml")).unwrap()
    }

    #[test]
    fn a_stop_request_drops_the_round_in_progress_and_resume_finishes() {
        let dir = tempfile::tempdir().unwrap();
        let config = tiny_config(dir.path());
        let out = dir.path().join("run");
        let flag = Arc::new(AtomicBool::new(true));
        let options = RunOptions {
            threads: 1,
            progress: ProgressMode::Quiet,
            stop: Some(Arc::clone(&flag)),
            ..RunOptions::default()
        };
        let outcome = tune(&config, &out, false, &options).unwrap();
        assert_eq!(
            outcome,
            RunOutcome::Interrupted {
                dir: out.clone(),
                completed_rounds: 0
            }
        );
        assert!(!out.join(files::CHECKPOINT_FILE).exists());
        // Only the header: the stopped round wrote nothing.
        let games = std::fs::read_to_string(out.join(GAMES_FILE)).unwrap();
        assert_eq!(games.lines().count(), 1);

        flag.store(false, Ordering::Relaxed);
        let RunOutcome::Finished(summary) = resume(&out, &options).unwrap() else {
            panic!("the resumed run should finish");
        };
        assert_eq!(summary.rounds, 2);
        assert_eq!(summary.name, "unit");
        // The start position alone gives one playoff opening: 2 games per pair.
        let n = summary.standings.len() as u64;
        assert_eq!(summary.best().results.games(), 2 * (n - 1));
        assert!(matches!(
            resume(&out, &options).unwrap(),
            RunOutcome::AlreadyFinished(s) if s == summary
        ));

        // A changed config is refused rather than continued.
        let path = out.join(CONFIG_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replace("seed = 2", "seed = 3")).unwrap();
        let err = resume(&out, &options).unwrap_err();
        assert!(err.to_string().contains("changed"), "{err}");
    }
}
