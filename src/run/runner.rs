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
//!
//! Islands (`[islands] count > 1`): each island is this same run in its own folder `island-I/`
//! with its own seed and ids, plus the exchanges of `islands.rs` between its rounds. A round is
//! split in two for them: the play (bracket, validation) and, once the neighbour's migrants are
//! in, the finish (newcomers, rows, checkpoint). One process runs every island in step, or one
//! process runs one island; both do the same steps on the same files, so the files agree.

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::checkpoint::{openings_fingerprint, Champion, Checkpoint, Member, CHECKPOINT_FORMAT};
use super::config::Config;
use super::files::{
    self, append, append_counted, learning_record, specimen_record, timings_record,
    write_atomically, FileLengths, BEST_FILE, CONFIG_FILE, GAMES_FILE, GAMES_PDN_FILE,
    LEARNING_FILE, PLAYOFF_FILE, ROUNDS_FILE, SPECIMENS_FILE, TIMINGS_FILE,
};
use super::fitted;
use super::islands::{
    letter_result, publish, result_letter, wait_for, FinalistsFile, Island, MigrantsFile,
    PlayoffGamesFile, DEFAULT_WAIT,
};
use super::lock::{refuse_file, RunLock};
use super::observer::{ObserverFactory, RunObserver, RunView, Silent};
use crate::egdb::EndgameDb;
use crate::elo::MatchTally;
use crate::error::{Error, Result};
use crate::eval::{WeightsFile, WeightsSource};
use crate::export::{export_to_file, ExportFormat};
use crate::game::{play_game, GameResult, GameSettings, Opening, OpeningBook, Tally};
use crate::matchplay::play_match;
use crate::pdn::PdnGame;
use crate::rng::{stream, tag};
use crate::text::csv_line;
use crate::tournament::{
    breed, initial_population, play_playoff, play_playoff_share, play_round, playoff_games,
    playoff_standings, BracketGame, GameJob, GameReport, PlayoffShare, RoundResult, Specimen,
    Standing,
};

/// How a run is executed: none of this changes its files (except `timings.csv`).
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Worker threads for the games; 0 for one per core.
    pub threads: usize,
    /// Makes the observer that is told of the run's progress (`None`: nobody is told).
    pub observer: Option<ObserverFactory>,
    /// Opens the endgame database of the given number of pieces (reading it, or building it
    /// at first use); called once the run folder is checked, when the config asks for a
    /// database (`search.database_pieces` above 0). Without it such a config is refused.
    pub endgame_db: Option<EndgameDbLoader>,
    /// When set (e.g. by a Ctrl-C handler), the run stops at the next game boundary, drops the
    /// round in progress and returns [`RunOutcome::Interrupted`].
    pub stop: Option<Arc<AtomicBool>>,
    /// With islands in separate processes: how long an island waits for another island's file
    /// before it gives up naming that island (`None`: an hour).
    pub island_timeout: Option<Duration>,
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
    /// The summary of the run in `top` after `rounds` rounds and its playoff.
    fn of(top: &Path, config: &Config, rounds: u32, standings: Vec<Standing>) -> RunSummary {
        RunSummary {
            dir: top.to_path_buf(),
            name: config.name.clone(),
            rounds,
            standings,
        }
    }

    /// Rank 1 of the playoff: the run's best specimen.
    pub fn best(&self) -> &Standing {
        &self.standings[0]
    }

    /// The result files in the run folder, in the order README.md lists them (the config and
    /// the checkpoint left out).
    pub fn result_files(&self) -> Vec<&'static str> {
        files::RUN_FILES
            .into_iter()
            .filter(|&name| name != files::CONFIG_FILE && name != files::CHECKPOINT_FILE)
            .filter(|name| self.dir.join(name).exists())
            .collect()
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
///
/// With `[islands] count` above 1, every island runs in this process, in step, on one pool of
/// threads: the reference for the same islands run as separate processes ([`tune_island`]).
pub fn tune(config: &Config, out: &Path, force: bool, options: &RunOptions) -> Result<RunOutcome> {
    // Held until the run returns; refuses folders in use, foreign folders, existing runs.
    let _lock = RunLock::for_new_run(out, force)?;
    let text = config.to_toml();
    write_atomically(&out.join(CONFIG_FILE), text.as_bytes())?;
    // The folder holds no checkpoint now, so the run starts from round 1.
    start_or_continue(out, config, &text, options)
}

/// Runs one island of an island-model run in this process (README.md, across machines): the
/// other islands are other processes, on this machine or others, sharing the run folder `out`.
///
/// The first call for an island starts it; the same call again (a requeued job, a restarted
/// pod) resumes it from its checkpoint in `out/island-I/`. Every island writes its migrants and
/// waits for its neighbour's (at most `options.island_timeout`); island 0 writes the merged
/// files at the top of `out` at the end. The files are those [`tune`] writes for the same
/// config.
pub fn tune_island(
    config: &Config,
    out: &Path,
    island: Island,
    options: &RunOptions,
) -> Result<RunOutcome> {
    let text = config.to_toml();
    prepare_island_folder(out, &text)?;
    run_islands(out, config, &text, options, Some(island))
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
    start_or_continue(dir, &config, &config.to_toml(), options)
}

/// Starts the run in `dir` whose resolved config is `text`, or continues it from its
/// checkpoint (every island of it, in step, with islands).
fn start_or_continue(
    dir: &Path,
    config: &Config,
    text: &str,
    options: &RunOptions,
) -> Result<RunOutcome> {
    if !config.islands.is_single() {
        return run_islands(dir, config, text, options, None);
    }
    match State::open(dir, dir, config, text, None)? {
        Opened::Finished(summary) => Ok(RunOutcome::AlreadyFinished(summary)),
        Opened::Ready(state) => {
            let run = Run::new(dir, config, text, options, &state, None)?;
            play_to_the_end(vec![(run, state)], options)
        }
    }
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

/// A run (or an island) found ready to go on, or found finished.
enum Opened {
    /// Ready for its next round (or its playoff).
    Ready(State),
    /// Its playoff is saved.
    Finished(RunSummary),
}

impl State {
    /// The state before round 1: a population drawn from the run's seed (an island's own, its
    /// ids from the island's block on).
    fn initial(config: &Config, files: FileLengths, island: Option<Island>) -> State {
        let seed = island.map_or(config.seed, |island| island.seed(config.seed));
        let first_id = island.map_or(0, |island| config.island_ids(island.index).start);
        let size = config.population.size;
        let population = initial_population(size, &config.weights, seed)
            .into_iter()
            .map(|mut specimen| {
                specimen.id += first_id;
                Member::fresh(specimen)
            })
            .collect();
        State {
            completed: 0,
            next_id: first_id + size as u64,
            population,
            files,
            champion: None,
        }
    }

    /// The state of the run (or island) whose files are in `dir` and whose run folder is
    /// `top`: from its checkpoint, after cutting what a killed process wrote after it, or the
    /// initial one when it has none. A checkpoint of another config than `text` is refused.
    fn open(
        top: &Path,
        dir: &Path,
        config: &Config,
        text: &str,
        island: Option<Island>,
    ) -> Result<Opened> {
        let games_pdn = config.tournament.games_pdn;
        let Some(checkpoint) = Checkpoint::load(dir)? else {
            let lengths = files::start_files(dir, games_pdn)?;
            return Ok(Opened::Ready(State::initial(config, lengths, island)));
        };
        if checkpoint.config != text {
            return Err(Error::input(match island {
                None => format!(
                    "{}: the config was changed since the run started; put back the original \
                     (it is saved in {}) or start a new run",
                    dir.join(CONFIG_FILE).display(),
                    files::CHECKPOINT_FILE
                ),
                Some(island) => format!(
                    "{}: island {} was started with another config; every island of a run \
                     must be started with the same config",
                    dir.join(files::CHECKPOINT_FILE).display(),
                    island.index
                ),
            }));
        }
        checkpoint.check(config, dir, island.map(|island| island.index))?;
        let completed = checkpoint.completed_rounds;
        if let Some(standings) = checkpoint.playoff {
            let summary = RunSummary::of(top, config, completed, standings);
            return Ok(Opened::Finished(summary));
        }
        files::cut_to(dir, &checkpoint.files, completed, games_pdn)?;
        Ok(Opened::Ready(State {
            completed,
            next_id: checkpoint.next_id,
            population: checkpoint.population,
            files: checkpoint.files,
            champion: checkpoint.champion,
        }))
    }
}

/// An island's place in an island-model run.
struct IslandPart<'a> {
    island: Island,
    /// The run folder (the island's own files are in `island-I/` inside it).
    top: &'a Path,
    /// How long to wait for another island's file.
    wait: Duration,
    /// When this process opened the island, and the nanoseconds it spent since on the
    /// exchanged files (writing its own, waiting for and reading the others'): the price of
    /// the island model, reported at the end.
    opened: Instant,
    exchanging: AtomicU64,
    /// Whether every island runs in this process, in step ([`islands_in_step`]).
    in_step: bool,
}

/// What a round produced before it is saved: the bracket's result and what follows from it,
/// up to the newcomers (which depend on the immigrants of an island-model run).
struct Played {
    round: u32,
    started: Instant,
    result: RoundResult,
    survivors: Vec<Member>,
    champion: Option<Champion>,
    learning_row: String,
    returning: Option<Member>,
}

/// One process's work on a run, or on one island of an island-model run.
struct Run<'a> {
    /// Where the run's own files go: the run folder, or an island's folder.
    dir: PathBuf,
    config: &'a Config,
    config_text: String,
    options: &'a RunOptions,
    book: OpeningBook,
    /// The openings file's fingerprint, for the checkpoint.
    openings: Option<String>,
    /// The learning curve's openings (empty when validation is off).
    validation_deck: Vec<Opening>,
    settings: GameSettings,
    progress: Box<dyn RunObserver>,
    /// The seed of the run's streams (an island's own, with islands).
    seed: u64,
    /// With islands: which one this is.
    island: Option<IslandPart<'a>>,
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
    /// The run (or island) whose files are in `dir`, at `state`; a resumed run says so
    /// (islands run in step do not: they resume together).
    fn new(
        dir: &Path,
        config: &'a Config,
        config_text: &str,
        options: &'a RunOptions,
        state: &State,
        island: Option<IslandPart<'a>>,
    ) -> Result<Run<'a>> {
        let index = island.as_ref().map(|part| part.island);
        let view = RunView {
            total_rounds: config.tournament.rounds,
            completed: state.completed,
            island: index.map(|island| island.index),
            islands_in_this_process: island.as_ref().is_some_and(|part| part.in_step),
        };
        let run = Run {
            dir: dir.to_path_buf(),
            config,
            config_text: config_text.to_string(),
            options,
            book: config
                .tournament
                .openings
                .book(config.tournament.random_opening_balance)?,
            openings: openings_fingerprint(config)?,
            validation_deck: validation_deck(config),
            settings: run_settings(config, options)?,
            progress: match &options.observer {
                Some(factory) => (factory.0)(&view),
                None => Box::new(Silent),
            },
            seed: index.map_or(config.seed, |island| island.seed(config.seed)),
            island,
        };
        if state.completed > 0 && !view.islands_in_this_process {
            let what = match index {
                Some(island) => format!("island {}", island.index),
                None => dir.display().to_string(),
            };
            run.progress.note(&format!(
                "resuming {what} after round {} of {}",
                state.completed, config.tournament.rounds
            ));
        }
        Ok(run)
    }

    /// The run folder (the top one, for an island).
    fn top(&self) -> &Path {
        self.island.as_ref().map_or(&self.dir, |part| part.top)
    }

    /// The opening of a pair: drawn from the pair's own stream, so both its games share it.
    fn opening(&self, pair_key: &[u64]) -> Opening {
        self.book.for_pair(&mut stream(self.seed, pair_key))
    }

    /// Plays one bracket game.
    fn bracket_game(&self, job: &GameJob) -> GameReport {
        let opening = self.opening(&job.opening_key());
        let mut rng = stream(self.seed, &job.game_key());
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
            opening: opening.name,
            record,
        }
    }

    /// Plays round `state.completed + 1` (the bracket and the validation) without saving
    /// anything; `None` if the run was stopped meanwhile.
    fn play_phase(&self, state: &State) -> Result<Option<Played>> {
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
        let played = play_round(
            &specimens,
            round,
            self.seed,
            &config.tournament,
            self.options.stop.as_deref(),
            |job: &GameJob| self.bracket_game(job),
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
    /// writes its rows and saves the checkpoint.
    fn finish_phase(
        &self,
        state: &mut State,
        played: Played,
        immigrants: Vec<Member>,
    ) -> Result<()> {
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
                &config.weights,
                self.seed,
                round,
                &mut next_id,
            )
        };
        if config.evolution.fits_after(round, config.tournament.rounds) {
            self.enter_fitted(round, &result, &survivors, &mut newcomers, &mut next_id)?;
        }
        result.stats.newcomers = newcomers.len() as u64;

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
                let record =
                    specimen_record(round, &member.specimen, member.rounds_survived, &tally);
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
        append(&self.dir, TIMINGS_FILE, &timing_row)?;
        #[cfg(feature = "crash-hooks")]
        if self.options.crash_before_checkpoint == Some(round) {
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
        state.population = population;
        state.files = lengths;
        self.checkpoint(state, None)?;
        self.progress.round_done(&result.stats, seconds);
        Ok(())
    }

    /// A fit on the run's games from the round's top survivor (`[evolution] fit_every`), when
    /// the games hold positions to learn from: in place of the last of `newcomers`, or, after
    /// the last round, beside the finalists (with the next id).
    fn enter_fitted(
        &self,
        round: u32,
        result: &RoundResult,
        survivors: &[Member],
        newcomers: &mut Vec<Specimen>,
        next_id: &mut u64,
    ) -> Result<()> {
        let last_round = round == self.config.tournament.rounds;
        if newcomers.is_empty() && !last_round {
            return Ok(());
        }
        let top = survivors
            .iter()
            .max_by_key(|m| merit(m, &result.tallies))
            .expect("a round leaves at least one survivor");
        let Some(report) =
            fitted::fit_after_round(&self.dir, self.config, round, &result.games, &top.specimen)?
        else {
            return Ok(());
        };
        fitted::enter(newcomers, &report.weights, &top.specimen, round, next_id);
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
        Ok(())
    }

    /// A bracket game as PDN (README.md, files of a run): from the initial position, the
    /// opening's moves then the game's, so that any PDN reader can replay it; `Round` is
    /// `round.level.pair.game` as in `games.csv`, the players are specimens by id.
    fn game_pdn(&self, game: &BracketGame) -> String {
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

    /// A validation match of `specimen` against `material` on the validation deck, at the
    /// run's depths and draw rules, both sides switching at the run's endgame threshold.
    fn validate(&self, specimen: &Specimen) -> MatchTally {
        let endgame_pieces = self.config.search.endgame_pieces;
        let switching = |file| WeightsFile {
            endgame_pieces,
            ..file
        };
        let a = switching(WeightsFile::new(specimen.weights));
        let b = switching(WeightsFile::material());
        let (deck, settings, seed) = (
            &self.validation_deck,
            &self.settings,
            self.config.validation.seed,
        );
        play_match(&a, &b, deck, settings, seed, None, |_| {}).tally
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
        .save(&self.dir)
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
    fn playoff(&self, state: &mut State) -> Result<Option<RunSummary>> {
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
        let seconds = self.playoff_timing(started, games)?;
        self.checkpoint(state, Some(standings.clone()))?;
        self.progress.playoff_done(&standings[0], seconds);
        self.progress.finish();
        Ok(Some(RunSummary::of(
            &self.dir,
            self.config,
            state.completed,
            standings,
        )))
    }

    /// Tells the observer that the playoff of `finalists` on `openings` starts; its games.
    fn playoff_start(&self, finalists: usize, openings: usize) -> u64 {
        let games = playoff_games(finalists, openings);
        self.progress.playoff_start(finalists, games);
        games
    }

    /// Appends the row of this process's playoff, `games` games since `started`, to
    /// `timings.csv`; the seconds it took.
    fn playoff_timing(&self, started: Instant, games: u64) -> Result<f64> {
        let seconds = started.elapsed().as_secs_f64();
        let timing = csv_line(&timings_record("playoff", seconds, games));
        append(&self.dir, TIMINGS_FILE, &timing)?;
        Ok(seconds)
    }

    /// Writes `playoff.csv` and `best.json` into `top` for the ranking `standings` of
    /// `finalists` (each with the round of its last row in `specimens.csv`).
    fn write_results(
        &self,
        top: &Path,
        finalists: &[(Specimen, u32)],
        standings: &[Standing],
    ) -> Result<()> {
        let mut text = csv_line(&files::playoff_header());
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
        let file = WeightsFile {
            weights: specimen.weights,
            endgame_pieces: self.config.search.endgame_pieces,
            source: Some(WeightsSource::Specimen {
                run: self.config.name.clone(),
                id: best.id,
                round: *round,
            }),
        };
        export_to_file(&file, ExportFormat::Json, &top.join(BEST_FILE))
    }

    // -----------------------------------------------------------------------------------------
    // An island of an island-model run: the exchanges through the run folder.
    // -----------------------------------------------------------------------------------------

    fn part(&self) -> &IslandPart<'a> {
        self.island.as_ref().expect("an island's run")
    }

    /// Waits for the file `path` that island `writer` writes (`what` it holds, for the
    /// message), counting the wait as exchange time; `None` if the run was stopped.
    fn await_file<T: for<'de> serde::Deserialize<'de>>(
        &self,
        path: &Path,
        writer: u32,
        what: &str,
    ) -> Result<Option<T>> {
        let (part, stop) = (self.part(), self.options.stop.as_deref());
        self.exchange(|| wait_for(part.island, (path, writer, what), part.wait, stop))
    }

    /// Runs `f`, one of the island's exchanges through the run folder, and counts its time.
    fn exchange<T>(&self, f: impl FnOnce() -> Result<T>) -> Result<T> {
        let started = Instant::now();
        let result = f();
        let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.part().exchanging.fetch_add(nanos, Ordering::Relaxed);
        result
    }

    /// The migration number after `round`, if one happens then: every `migration_interval`
    /// rounds, never after the last round (the playoff follows), never without islands.
    fn epoch(&self, round: u32) -> Option<u32> {
        self.island.as_ref()?;
        let interval = self.config.islands.migration_interval;
        let migrates = round.is_multiple_of(interval) && round < self.config.tournament.rounds;
        migrates.then_some(round / interval)
    }

    /// After a migration round, writes copies of the island's best `migrants` survivors (most
    /// rounds survived, then most wins this round, then the lowest id) for its neighbour.
    fn send_migrants(&self, played: &Played) -> Result<()> {
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
        let path = files::migrants_file(part.top, epoch, part.island.index);
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
    fn receive_migrants(&self, played: &Played) -> Result<Option<Vec<Member>>> {
        let Some(epoch) = self.epoch(played.round) else {
            return Ok(Some(Vec::new()));
        };
        let part = self.part();
        let sender = part.island.sender();
        let path = files::migrants_file(part.top, epoch, sender);
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
        Ok(Some(immigrants))
    }

    /// After the last round, writes the island's finalists for the playoff of all islands.
    fn publish_finalists(&self, state: &State) -> Result<()> {
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
        let path = files::finalists_file(part.top, part.island.index);
        self.exchange(|| publish(&path, &file))
    }

    /// The finalists of all islands in id order, each with the round of its last row in
    /// `specimens.csv` (a migrant that reached the end on two islands counts once, from the
    /// lower island). Waits for every island's file; `None` if the run was stopped.
    fn gather_finalists(&self) -> Result<Option<Vec<(Specimen, u32)>>> {
        let part = self.part();
        let mut all: BTreeMap<u64, (Specimen, u32)> = BTreeMap::new();
        for index in 0..part.island.count {
            let path = files::finalists_file(part.top, index);
            let waited = self.await_file(&path, index, "finalists")?;
            let Some(file): Option<FinalistsFile> = waited else {
                return Ok(None);
            };
            for (member, round) in file.finalists {
                all.entry(member.specimen.id)
                    .or_insert((member.specimen, round));
            }
        }
        Ok(Some(all.into_values().collect()))
    }

    /// Plays this island's share of the playoff of all islands' `finalists` (game `g` is island
    /// `g % count`'s) and writes its results; a share written before a restart is kept.
    /// `None` if the run was stopped.
    fn play_share(&self, finalists: &[(Specimen, u32)]) -> Result<Option<()>> {
        let part = self.part();
        let path = files::playoff_games_file(part.top, part.island.index);
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
    fn finish_islands(
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
            let path = files::playoff_games_file(part.top, index);
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
            files::merge_islands(
                part.top,
                part.island.count,
                self.config.tournament.games_pdn,
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
        self.progress.note(&format!(
            "{exchanging:.1} s of {total:.1} s ({:.1}%) spent writing, waiting for and reading \
             the exchanged files",
            100.0 * exchanging / total.max(1e-9)
        ));
        self.progress.finish();
        Ok(Some(RunSummary::of(
            part.top,
            self.config,
            state.completed,
            standings,
        )))
    }
}

/// The round of `id`'s last row in `specimens.csv` once the rounds are over: the last round,
/// or the round in which the champion last survived if it came back for the playoff.
fn source_round(state: &State, id: u64) -> u32 {
    state
        .champion
        .as_ref()
        .filter(|c| c.specimen.id == id)
        .map_or(state.completed, |c| c.round)
}

/// Makes `out` the run folder of the island-model run whose resolved config is `text`, for one
/// island's process: a new or empty folder gets the config; a folder with this config is
/// joined (another island, or a restart, made it); anything else is refused before anything is
/// written. Islands start at the same time, so this must not fail when another island is
/// preparing the same folder.
fn prepare_island_folder(out: &Path, text: &str) -> Result<()> {
    refuse_file(out)?;
    let config_path = out.join(CONFIG_FILE);
    if out.is_dir() && !config_path.exists() {
        // Another island may put the config in place between the two looks: it is checked
        // below like one found at once, never taken for a foreign file.
        if let Some(name) = files::foreign_entry(out)?
            .filter(|name| !files::is_island_entry(name) && name != CONFIG_FILE)
        {
            return Err(Error::input(format!(
                "{} is not empty and is not a run folder (it holds {name}); give `--out` a \
                 new or empty folder, or the folder of this island-model run",
                out.display()
            )));
        }
    }
    std::fs::create_dir_all(out).map_err(|e| Error::io("create", out, &e))?;
    let read = || std::fs::read_to_string(&config_path);
    let found = match read() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // Islands starting together may all write it (the same bytes); on shared storage
            // two of them may even share a temporary name, so a failed write is fine as long
            // as the file is there now with this config.
            let written = write_atomically(&config_path, text.as_bytes());
            match read() {
                Ok(found) => found,
                Err(_) => return written,
            }
        }
        found => found.map_err(|e| Error::io("read", &config_path, &e))?,
    };
    if found != text {
        return Err(Error::input(format!(
            "{} holds another run (its {CONFIG_FILE} differs from this config); every island \
             of a run must be started with the same config, and a new run needs a new folder",
            out.display()
        )));
    }
    Ok(())
}

/// Runs (or resumes) in this process every island of the run in `top`, in step, or only `one`
/// whose neighbours are other processes. Each island is locked in `top/island-I/` (created if
/// needed), then started, or resumed from its checkpoint after cutting what a killed process
/// wrote after it.
fn run_islands(
    top: &Path,
    config: &Config,
    text: &str,
    options: &RunOptions,
    one: Option<Island>,
) -> Result<RunOutcome> {
    let mut live = Vec::new();
    // Held until the run returns: no other process works on these islands meanwhile.
    let mut locks = Vec::new();
    let mut finished = None;
    let in_step = one.is_none();
    let all = Island::all(config.islands.count);
    for island in one.map_or_else(|| all.collect(), |island| vec![island]) {
        let dir = files::island_dir(top, island.index);
        std::fs::create_dir_all(&dir).map_err(|e| Error::io("create", &dir, &e))?;
        let lock = RunLock::acquire(&dir)?;
        files::remove_island_temporaries(top, island.index)?;
        let state = match State::open(top, &dir, config, text, Some(island))? {
            Opened::Ready(state) => state,
            Opened::Finished(summary) => {
                finished = finished.or(Some(summary));
                continue;
            }
        };
        let part = IslandPart {
            island,
            top,
            wait: options.island_timeout.unwrap_or(DEFAULT_WAIT),
            opened: Instant::now(),
            exchanging: AtomicU64::new(0),
            in_step,
        };
        let run = Run::new(&dir, config, text, options, &state, Some(part))?;
        live.push((run, state));
        locks.push(lock);
    }
    match finished {
        Some(summary) if live.is_empty() => Ok(RunOutcome::AlreadyFinished(summary)),
        _ => play_to_the_end(live, options),
    }
}

/// Plays the rounds left of `live` (a run, or islands of one) and its playoff on a pool of
/// worker threads of its own.
fn play_to_the_end(mut live: Vec<(Run, State)>, options: &RunOptions) -> Result<RunOutcome> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build();
    let pool = pool.map_err(|e| Error::failure(format!("cannot start the worker threads: {e}")))?;
    pool.install(|| {
        let summary = if !play_rounds(&mut live)? {
            None
        } else if live[0].0.island.is_none() {
            let (run, state) = &mut live[0];
            run.playoff(state)?
        } else {
            islands_playoff(&mut live)?
        };
        Ok(match summary {
            Some(summary) => RunOutcome::Finished(summary),
            None => RunOutcome::Interrupted {
                dir: live[0].0.top().to_path_buf(),
                completed_rounds: behind(&live),
            },
        })
    })
}

/// The rounds completed by the furthest behind of `live`.
fn behind(live: &[(Run, State)]) -> u32 {
    live.iter()
        .map(|(_, state)| state.completed)
        .min()
        .unwrap_or(u32::MAX)
}

/// Plays the rounds left of `live`, in step: those behind play their round together, then send
/// and receive their migrants (with islands; always there already when every island is in
/// `live`: nobody waits), then save. False if the run was stopped meanwhile.
fn play_rounds(live: &mut [(Run, State)]) -> Result<bool> {
    while let Some(first) = live.first() {
        let round = behind(live);
        if round >= first.0.config.tournament.rounds {
            break;
        }
        #[cfg(feature = "crash-hooks")]
        let stop_after_round = first.0.options.stop_after_round;
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
            run.finish_phase(state, played, immigrants)?;
        }
        #[cfg(feature = "crash-hooks")]
        if stop_after_round == Some(round + 1) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The playoff of all islands' finalists, each island of `live` playing its share, once every
/// island (in this process or not) has published its finalists. `None` if the run was stopped.
fn islands_playoff(live: &mut [(Run, State)]) -> Result<Option<RunSummary>> {
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

/// How a survivor ranks for validation and migration, the greater the better: most rounds
/// survived, then most games won this round, then the lowest id.
fn merit(member: &Member, tallies: &BTreeMap<u64, Tally>) -> impl Ord {
    let wins = tallies.get(&member.specimen.id).map_or(0, |t| t.wins);
    (member.rounds_survived, wins, Reverse(member.specimen.id))
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
