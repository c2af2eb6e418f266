//! One process's work on a run, or on one island of an island-model run: what it holds (the
//! config, the openings, the game settings, the progress display, the island's place) and the
//! pieces every phase uses (one bracket game, a validation match, the checkpoint).

use std::cmp::Reverse;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU64;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::checkpoint::{openings_fingerprint, Checkpoint, Member, CHECKPOINT_FORMAT};
use super::config::Config;
use super::fits::PatternCache;
use super::islands::Island;
use super::observer::{RunObserver, RunView, Silent};
use super::options::RunOptions;
use super::state::State;
use crate::elo::MatchTally;
use crate::matchplay::{play_match_from, MatchPlayer};
use crate::run_folder::{read_champions_file, FileProof, CHAMPIONS_FILE};
use crate::tournament::{GameJob, GameReport, Specimen, Standing};
use checkers_engine::error::{Error, Result};
use checkers_engine::game::{
    play_game_between, GameResult, GameSettings, Opening, OpeningBook, Tally,
};
use checkers_engine::rng::{stream, tag};
use checkers_engine::weights_file::WeightsFile;

/// An island's place in an island-model run.
pub(super) struct IslandPart<'a> {
    pub(super) island: Island,
    /// The run folder (the island's own files are in `island-I/` inside it).
    pub(super) top: &'a Path,
    /// How long to wait for another island's file.
    pub(super) wait: Duration,
    /// When this process opened the island, and the nanoseconds it spent since on the
    /// exchanged files (writing its own, waiting for and reading the others'): the price of
    /// the island model, reported at the end.
    pub(super) opened: Instant,
    pub(super) exchanging: AtomicU64,
    /// The bytes this process read from the other islands' positions stores for its fits.
    pub(super) pooled_bytes: AtomicU64,
    /// Whether every island runs in this process, in step (see `rounds::play_rounds`).
    pub(super) in_step: bool,
}

/// One process's work on a run, or on one island of an island-model run.
pub(super) struct Run<'a> {
    /// Where the run's own files go: the run folder, or an island's folder.
    pub(super) dir: PathBuf,
    pub(super) config: &'a Config,
    pub(super) config_text: String,
    pub(super) options: &'a RunOptions,
    pub(super) book: OpeningBook,
    /// The openings file's fingerprint, for the checkpoint.
    pub(super) openings: Option<String>,
    /// The learning curve's openings (empty when validation is off).
    pub(super) validation_deck: Vec<Opening>,
    pub(super) settings: GameSettings,
    pub(super) progress: Box<dyn RunObserver>,
    /// The seed of the run's streams (an island's own, with islands).
    pub(super) seed: u64,
    /// With islands: which one this is.
    pub(super) island: Option<IslandPart<'a>>,
    /// A pattern run's samples, kept between its fits.
    pub(super) pattern_cache: Mutex<PatternCache>,
}

/// The config's game settings with the caller's endgame database, which must be the one the
/// config asks for.
pub(super) fn run_settings(config: &Config, options: &RunOptions) -> Result<GameSettings> {
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
    pub(super) fn new(
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
            pattern_cache: Mutex::default(),
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
        // Islands run in step share one config: their first tells what changed in it.
        if !view.islands_in_this_process || view.island == Some(0) {
            for note in &state.notes {
                run.progress.note(note);
            }
            // The damaged games of its PDN sources, skipped at every fit, are told once.
            for note in super::fits::skipped_pdn_games(&config.evolution.fit_with) {
                run.progress.note(&note);
            }
        }
        Ok(run)
    }

    /// The run folder (the top one, for an island).
    pub(super) fn top(&self) -> &Path {
        self.island.as_ref().map_or(&self.dir, |part| part.top)
    }

    /// The opening of a pair: drawn from the pair's own stream, so both its games share it.
    pub(super) fn opening(&self, pair_key: &[u64]) -> Opening {
        self.book.for_pair(&mut stream(self.seed, pair_key))
    }

    /// The settings of round `round`'s bracket games: the run's, deepened by
    /// `tournament.deepen_every`.
    pub(super) fn bracket_settings(&self, round: u32) -> GameSettings {
        let extra = self.config.tournament.extra_plies(round);
        let mut settings = self.settings;
        settings.search.min_depth += extra;
        settings.search.max_depth += extra;
        settings
    }

    /// Plays one bracket game.
    pub(super) fn bracket_game(&self, job: &GameJob, settings: &GameSettings) -> GameReport {
        let opening = self.opening(&job.opening_key());
        let mut rng = stream(self.seed, &job.game_key());
        let endgame_pieces = settings.search.endgame_pieces;
        let record = play_game_between(
            job.black.player(endgame_pieces),
            job.white.player(endgame_pieces),
            &opening.position,
            settings,
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

    /// A validation match of `specimen` against `material` on the validation deck, at the
    /// run's depths and draw rules, both sides switching at the run's endgame threshold, the
    /// specimen with its own search (`[search.genes]`).
    pub(super) fn validate(&self, specimen: &Specimen) -> MatchTally {
        let endgame_pieces = self.config.search.endgame_pieces;
        let switching = |file| WeightsFile {
            endgame_pieces,
            ..file
        };
        let a = switching(WeightsFile {
            extra: specimen.extra.as_deref().copied(),
            ..WeightsFile::new(specimen.weights)
        });
        let b = switching(WeightsFile::material());
        let (deck, settings, seed) = (
            &self.validation_deck,
            &self.settings,
            self.config.validation.seed,
        );
        // The specimen searches as its genes say; `material` as the run does.
        let a = MatchPlayer {
            selective: specimen.search,
            ..MatchPlayer::from(&a)
        };
        play_match_from(
            a,
            MatchPlayer::from(&b),
            deck,
            settings,
            seed,
            None,
            &[],
            None,
            |_| {},
        )
        .tally
    }

    pub(super) fn checkpoint(&self, state: &State, playoff: Option<Vec<Standing>>) -> Result<()> {
        Checkpoint {
            format: CHECKPOINT_FORMAT,
            config: self.config_text.clone(),
            completed_rounds: state.completed,
            next_id: state.next_id,
            population: state.population.clone(),
            files: state.files.clone(),
            playoff,
            champion: state.champion.clone(),
            gated: state.gated.clone(),
            openings: self.openings.clone(),
            champions: self.champions_proof()?,
        }
        .save(&self.dir)
    }
}

impl Run<'_> {
    /// The proof of `champions.csv` for the checkpoint, with a gate: the file holds every
    /// row of the rounds the checkpoint counts (they are appended before it is written).
    fn champions_proof(&self) -> Result<Option<FileProof>> {
        if !self.config.gate.is_on() {
            return Ok(None);
        }
        let path = self.dir.join(CHAMPIONS_FILE);
        Ok(Some(FileProof::of(&read_champions_file(&path)?)))
    }
}

/// The opponent of every validation match.
pub(super) const VALIDATION_OPPONENT: &str = "material";

/// The validation deck: `openings` distinct random openings of `opening_plies` plies, drawn
/// from the validation seed's own stream (never from the run's), level within the run's
/// random-opening balance.
pub(super) fn validation_deck(config: &Config) -> Vec<Opening> {
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
pub(super) fn merit(member: &Member, tallies: &BTreeMap<u64, Tally>) -> impl Ord {
    let wins = tallies.get(&member.specimen.id).map_or(0, |t| t.wins);
    (member.rounds_survived, wins, Reverse(member.specimen.id))
}
