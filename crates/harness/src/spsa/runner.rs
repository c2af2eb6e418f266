//! Playing an SPSA run: batches of game pairs between the values `θ + c·Δ` and `θ − c·Δ`, the
//! update after each pair, and the run folder's files (`config.toml`, `base.json`, `spsa.csv`,
//! `best.json`; for an engine `config.toml`, `spsa.csv` and `best.txt`).

use std::fmt::Write as _;
use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use rand::Rng;
use rayon::prelude::*;

use super::schedule::Schedule;
use super::settings::{SpsaConfig, Tuned};
use crate::matchplay::{play_match_from, MatchSide};
use crate::players::Engine;
use checkers_engine::atomic_file::write_atomically;
use checkers_engine::board::Color;
use checkers_engine::egdb::EndgameDb;
use checkers_engine::error::{Error, Result};
use checkers_engine::eval::WeightRange;
use checkers_engine::game::{
    play_game_searching, GameScore, GameSettings, Opening, OpeningBook, Player, SearchMode,
    SearchParams,
};
use checkers_engine::input_file::{self, Links};
use checkers_engine::rng::{stream, tag};
use checkers_engine::search::Gene;
use checkers_engine::search::SelectiveParams;
use checkers_engine::weights_file::WeightsFile;

/// The run's resolved config, as a continued run must find it.
pub const SPSA_CONFIG_FILE: &str = "config.toml";
/// The weights both sides play, as the run read them.
pub const SPSA_BASE_FILE: &str = "base.json";
/// One row per iteration: the values played and the values after the update.
pub const SPSA_ROWS_FILE: &str = "spsa.csv";
/// The weights with the tuned values (rounded) in their `search` table.
pub const SPSA_BEST_FILE: &str = "best.json";
/// An engine's run: the tuned values (rounded) as the options that give them, one a line
/// (`set NAME VALUE`, or Hub's `set-param name=NAME value=VALUE`), as `match --option-a`
/// takes them.
pub const SPSA_BEST_OPTIONS_FILE: &str = "best.txt";

/// One iteration's pair as played: the perturbation's signs, the values each side played and
/// the `+` side's score.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedPair {
    /// 1-based.
    pub iteration: u64,
    /// Δ: +1 or −1 per tuned key.
    pub signs: Vec<f64>,
    /// The values the `+` side played.
    pub plus: Vec<i64>,
    /// The values the `−` side played.
    pub minus: Vec<i64>,
    /// Half points of the `+` side over the two games (0 to 4).
    pub plus_half_points: u32,
}

/// Where a run stands after a batch: what the command shows.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaProgress {
    /// Iterations done.
    pub done: u64,
    /// Iterations planned.
    pub iterations: u64,
    /// The tuned keys, in the rows' order.
    pub keys: Vec<String>,
    /// The current values.
    pub theta: Vec<f64>,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaOutcome {
    /// Iterations played so far (all of them unless stopped).
    pub done: u64,
    /// Iterations the folder held when the run started (0 for a new run).
    pub continued_from: u64,
    /// The values reached.
    pub theta: Vec<f64>,
    /// The `best.json` (an engine's `best.txt`) written.
    pub best: PathBuf,
    /// Stopped by the flag before the end.
    pub stopped: bool,
}

/// Who plays a run's games.
enum Players<'a> {
    /// Our search with a weights file, the keys not tuned (and the switches) the file's.
    Ours {
        weights: &'a WeightsFile,
        base: SelectiveParams,
    },
    /// Two instances of an engine (without options), each given its side's values.
    Engine(Engine),
}

/// An SPSA run of `config` playing `weights` or an engine, in `folder`.
pub struct SpsaRun<'a> {
    config: &'a SpsaConfig,
    tuned: Vec<Tuned>,
    players: Players<'a>,
    settings: GameSettings,
    book: OpeningBook,
    schedule: Schedule,
}

impl<'a> SpsaRun<'a> {
    /// A run of `config` with `weights` (the file its `weights` key names) and the database
    /// its `database_pieces` names (`None` for 0).
    pub fn new(
        config: &'a SpsaConfig,
        weights: &'a WeightsFile,
        database: Option<&'static EndgameDb>,
    ) -> Result<SpsaRun<'a>> {
        // The keys not tuned (and the switches) are the weights file's, selective either way.
        let table = weights.search.unwrap_or_default();
        let base = SearchParams {
            mode: SearchMode::Selective,
            ..table
        }
        .selective()
        .expect("a selective mode has selective settings");
        SpsaRun::with_players(config, Players::Ours { weights, base }, database)
    }

    /// A run of `config` between two instances of `engine` (the one its `engine` key names,
    /// without options), games adjudicated with `database`. Before any game it starts the
    /// engine once bare and once with the values the run starts from: an engine that cannot
    /// be loaded, or an option it does not take, is refused here, naming `origin` (the
    /// config) and the key, and nothing is written.
    pub fn of_engine(
        config: &'a SpsaConfig,
        engine: Engine,
        database: Option<&'static EndgameDb>,
        origin: &Path,
    ) -> Result<SpsaRun<'a>> {
        let run = SpsaRun::with_players(config, Players::Engine(engine.clone()), database)?;
        let refused =
            |key: &str, e: &Error| Error::input(format!("config {}: {key}: {e}", origin.display()));
        engine.start().map_err(|e| refused("engine", &e))?;
        let start = run.rounded(&run.start());
        let options = run.options(&engine, &start);
        if let Err(e) = engine.with_options(options.clone()).start() {
            // The key whose option the engine's words quote, else whose name they do.
            let message = e.to_string();
            let key = (run.tuned.iter().zip(&options))
                .find(|(_, line)| message.contains(line.as_str()))
                .or_else(|| {
                    (run.tuned.iter().zip(&options)).find(|(t, _)| message.contains(&t.name))
                })
                .map_or("params".to_string(), |(t, _)| format!("params.{}", t.name));
            return Err(refused(&key, &e));
        }
        Ok(run)
    }

    fn with_players(
        config: &'a SpsaConfig,
        players: Players<'a>,
        database: Option<&'static EndgameDb>,
    ) -> Result<SpsaRun<'a>> {
        let settings = GameSettings {
            search: config.search(),
            max_plies: config.max_plies,
            no_progress_plies: config.no_progress_plies,
            database,
            database_adjudication: database.is_some(),
            time: Some(config.time()),
        };
        Ok(SpsaRun {
            config,
            tuned: config.tuned(),
            players,
            settings,
            book: config
                .openings
                .book(checkers_engine::game::RANDOM_OPENING_BALANCE)?,
            schedule: Schedule::new(config),
        })
    }

    /// The values the run starts from: each key's `start`, else the weights file's value (an
    /// engine's keys have a `start`, checked with the config).
    pub fn start(&self) -> Vec<f64> {
        self.tuned
            .iter()
            .map(|t| {
                t.param.start.unwrap_or_else(|| match &self.players {
                    Players::Ours { base, .. } => f64::from(gene(t).get(base)),
                    Players::Engine(_) => t.param.min as f64,
                })
            })
            .collect()
    }

    /// The tuned keys' names, in the rows' order.
    pub fn keys(&self) -> Vec<String> {
        self.tuned.iter().map(|t| t.key().to_string()).collect()
    }

    /// Whether the run tunes an engine's options (its best values go to `best.txt`).
    pub fn is_engine(&self) -> bool {
        matches!(self.players, Players::Engine(_))
    }

    /// `theta` rounded to the values the keys may take.
    fn rounded(&self, theta: &[f64]) -> Vec<i64> {
        self.tuned
            .iter()
            .zip(theta)
            .map(|(t, &v)| round_in(v, t))
            .collect()
    }

    /// The selective search of `base` with `values` for the tuned keys.
    fn search_with(&self, base: SelectiveParams, values: &[i64]) -> SelectiveParams {
        let mut search = base;
        for (t, &v) in self.tuned.iter().zip(values) {
            // In the key's range, which `[search]`'s bounds keep at 0 or above.
            gene(t).set(&mut search, u32::try_from(v).unwrap_or(0));
        }
        search
    }

    /// The options that give an instance of `engine` `values` for the tuned keys.
    fn options(&self, engine: &Engine, values: &[i64]) -> Vec<String> {
        self.tuned
            .iter()
            .zip(values)
            .map(|(t, &v)| engine.option_line(&t.name, v))
            .collect()
    }

    /// The weights file with `theta` (rounded) in its `search` table; `None` for an engine's
    /// run.
    pub fn best_file(&self, theta: &[f64]) -> Option<WeightsFile> {
        let Players::Ours { weights, base } = &self.players else {
            return None;
        };
        let values = self.rounded(theta);
        let table = weights.search.unwrap_or_default();
        let search = SearchParams {
            mode: SearchMode::Selective,
            nodes: None,
            ..table
        }
        .with_selective(Some(self.search_with(*base, &values)));
        Some(WeightsFile {
            search: Some(search),
            ..(*weights).clone()
        })
    }

    /// An engine's run's `best.txt`: the options that give `theta` (rounded), one a line;
    /// `None` for a run of our search.
    pub fn best_options(&self, theta: &[f64]) -> Option<String> {
        let Players::Engine(engine) = &self.players else {
            return None;
        };
        let lines = self.options(engine, &self.rounded(theta));
        Some(lines.iter().map(|l| format!("{l}\n")).collect())
    }

    /// Writes the best file into `folder` (`best.json`, or an engine's `best.txt`): its path.
    fn write_best(&self, folder: &Path, theta: &[f64]) -> Result<PathBuf> {
        let (name, text) = match self.best_file(theta) {
            Some(file) => (SPSA_BEST_FILE, file.to_json()),
            None => (
                SPSA_BEST_OPTIONS_FILE,
                self.best_options(theta).unwrap_or_default(),
            ),
        };
        let path = folder.join(name);
        write_atomically(&path, text.as_bytes())?;
        Ok(path)
    }

    /// Plays iteration `k` (1-based) from `theta`: its perturbation, opening and pair.
    pub fn play(&self, k: u64, theta: &[f64]) -> PlayedPair {
        let mut rng = stream(self.config.seed, &[tag::SPSA, k]);
        let signs = self.signs(&mut rng);
        let opening = self.book.for_pair(&mut rng);
        let (plus, minus) = self.sides(k, theta, &signs);
        let plus_half_points = match &self.players {
            Players::Ours { weights, base } => {
                let searches = [
                    self.search_with(*base, &plus),
                    self.search_with(*base, &minus),
                ];
                self.play_ours(k, weights, searches, &opening)
            }
            Players::Engine(engine) => self.play_engines(engine, &plus, &minus, &opening),
        };
        PlayedPair {
            iteration: k,
            signs,
            plus,
            minus,
            plus_half_points,
        }
    }

    /// The `+` side's half points over the pair of iteration `k` from `opening` between our
    /// search with `searches` (the `+` side's, the `−` side's), the same games every time.
    fn play_ours(
        &self,
        k: u64,
        weights: &WeightsFile,
        searches: [SelectiveParams; 2],
        opening: &Opening,
    ) -> u32 {
        let player = Player::of_file(weights);
        let mut half_points = 0;
        for (game, plus_color) in [Color::Black, Color::White].into_iter().enumerate() {
            let order = match plus_color {
                Color::Black => [searches[0], searches[1]],
                Color::White => [searches[1], searches[0]],
            };
            let mut game_rng = stream(self.config.seed, &[tag::SPSA, k, game as u64]);
            let record = play_game_searching(
                player,
                player,
                order.map(Some),
                &opening.position,
                &self.settings,
                &mut game_rng,
            );
            let score = GameScore::for_a(record.result, plus_color == Color::Black);
            half_points += score.half_points() as u32;
        }
        half_points
    }

    /// The `+` side's half points over a pair from `opening` between two instances of
    /// `engine`, one given the values `plus`, the other `minus`, as a match plays them: each
    /// in its own process, a crash or a hang losing that game. Timed: not the same games
    /// every time.
    fn play_engines(&self, engine: &Engine, plus: &[i64], minus: &[i64], opening: &Opening) -> u32 {
        let sides = [plus, minus].map(|values| engine.with_options(self.options(engine, values)));
        let report = play_match_from(
            MatchSide::Engine(&sides[0], "+"),
            MatchSide::Engine(&sides[1], "-"),
            std::slice::from_ref(opening),
            &self.settings,
            self.config.seed,
            None,
            &[],
            None,
            |_| {},
        );
        report
            .games
            .iter()
            .map(|g| g.a_score().half_points() as u32)
            .sum()
    }

    /// Iteration `k`'s perturbation Δ, the first draws of its stream `rng`.
    fn signs(&self, rng: &mut impl Rng) -> Vec<f64> {
        self.tuned
            .iter()
            .map(|_| if rng.gen_bool(0.5) { 1.0 } else { -1.0 })
            .collect()
    }

    /// The values the `+` and the `−` side play at iteration `k` from `theta` with `signs`.
    fn sides(&self, k: u64, theta: &[f64], signs: &[f64]) -> (Vec<i64>, Vec<i64>) {
        let side = |sign: f64| -> Vec<i64> {
            self.tuned
                .iter()
                .zip(theta)
                .zip(signs)
                .map(|((t, &v), &d)| round_in(v + sign * d * self.schedule.c(&t.param, k), t))
                .collect()
        };
        (side(1.0), side(-1.0))
    }

    /// `theta` moved by `pair`'s result: each key by its step times the `+` side's score
    /// (wins minus losses over the pair) times its sign, kept in its range.
    pub fn update(&self, theta: &[f64], pair: &PlayedPair) -> Vec<f64> {
        // Wins minus losses of the `+` side: half points 4 (two wins) is 2, 2 is 0.
        let result = f64::from(pair.plus_half_points) - 2.0;
        self.tuned
            .iter()
            .zip(theta)
            .zip(&pair.signs)
            .map(|((t, &v), &d)| {
                let moved = v + self.schedule.step(&t.param, pair.iteration) * result * d;
                moved.clamp(t.param.min as f64, t.param.max as f64)
            })
            .collect()
    }

    /// The `spsa.csv` header.
    pub fn header(&self) -> String {
        let mut line = "iteration,plus_points".to_string();
        for side in ["plus", "minus", "theta"] {
            for key in self.keys() {
                let _ = write!(line, ",{side}_{key}");
            }
        }
        line
    }

    /// Plays the run in `folder` (created, or continued when it holds this run's files) in the
    /// current thread pool, calling `on_batch` after each batch; stops after the batch in
    /// progress when `stop` is set. The same config and weights give the same files on any
    /// thread count and through a stop and continuation.
    pub fn run(
        &self,
        folder: &Path,
        stop: &AtomicBool,
        on_batch: &mut dyn FnMut(&SpsaProgress),
    ) -> Result<SpsaOutcome> {
        let (mut done, mut theta) = self.open_folder(folder)?;
        let continued_from = done;
        let rows_path = folder.join(SPSA_ROWS_FILE);
        let mut rows = OpenOptions::new()
            .append(true)
            .open(&rows_path)
            .map_err(|e| Error::io("open", &rows_path, &e))?;
        let iterations = self.config.iterations;
        let batch = u64::from(self.config.batch);
        on_batch(&self.progress(done, &theta));
        while done < iterations && !stop.load(Ordering::SeqCst) {
            let end = (done + batch).min(iterations);
            let played: Vec<PlayedPair> = (done + 1..=end)
                .into_par_iter()
                .map(|k| self.play(k, &theta))
                .collect();
            // The batch was played from the values it started with (the delayed gradient of
            // parallel SPSA); its pairs' moves are applied in order: the same on any thread
            // count.
            let mut text = String::new();
            for pair in played {
                theta = self.update(&theta, &pair);
                text.push_str(&row_line(&pair, &theta));
            }
            rows.write_all(text.as_bytes())
                .and_then(|()| rows.flush())
                .map_err(|e| Error::io("write", &rows_path, &e))?;
            done = end;
            on_batch(&self.progress(done, &theta));
        }
        let best = self.write_best(folder, &theta)?;
        Ok(SpsaOutcome {
            done,
            continued_from,
            theta,
            best,
            stopped: done < iterations,
        })
    }

    fn progress(&self, done: u64, theta: &[f64]) -> SpsaProgress {
        SpsaProgress {
            done,
            iterations: self.config.iterations,
            keys: self.keys(),
            theta: theta.to_vec(),
        }
    }

    /// Starts the folder's files, or reads where a continued run stands: the iterations of
    /// its complete batches and the values after them. A folder of another run is refused.
    fn open_folder(&self, folder: &Path) -> Result<(u64, Vec<f64>)> {
        if std::fs::metadata(folder).is_ok_and(|m| !m.is_dir()) {
            return Err(Error::input(format!(
                "{}: not a folder; the run's files go into a folder of their own (give --out a \
                 new or empty folder, or this run's)",
                folder.display()
            )));
        }
        std::fs::create_dir_all(folder).map_err(|e| Error::io("create", folder, &e))?;
        let config_text = self.config.to_toml()?;
        // The weights both sides play, kept with the run; an engine is its `engine` key.
        let base_text = match &self.players {
            Players::Ours { weights, .. } => Some(weights.to_json()),
            Players::Engine(_) => None,
        };
        let config_path = folder.join(SPSA_CONFIG_FILE);
        let base_path = folder.join(SPSA_BASE_FILE);
        let rows_path = folder.join(SPSA_ROWS_FILE);
        let header = self.header();
        if !config_path.exists() {
            if rows_path.exists() {
                return Err(Error::input(format!(
                    "{}: holds {SPSA_ROWS_FILE} without {SPSA_CONFIG_FILE}; choose an empty \
                     folder with --out",
                    folder.display()
                )));
            }
            if let Some(base_text) = &base_text {
                write_atomically(&base_path, base_text.as_bytes())?;
            }
            write_atomically(&rows_path, format!("{header}\n").as_bytes())?;
            // Last: a folder with its config is a started run.
            write_atomically(&config_path, config_text.as_bytes())?;
            return Ok((0, self.start()));
        }
        let same = |path: &Path, text: &str, what: &str| -> Result<()> {
            let held = input_file::read_text(path, Links::Refuse, None).map_err(|e| e.at(path))?;
            if held != text {
                return Err(Error::input(format!(
                    "{}: holds an SPSA run with another {what}; continue it with its own, or \
                     choose another folder with --out",
                    folder.display()
                )));
            }
            Ok(())
        };
        same(&config_path, &config_text, "config")?;
        if let Some(base_text) = &base_text {
            same(&base_path, base_text, "weights file")?;
        }
        let text =
            input_file::read_text(&rows_path, Links::Refuse, None).map_err(|e| e.at(&rows_path))?;
        let rows = self.read_rows(&text, &rows_path)?;
        let batch = u64::from(self.config.batch);
        let whole = rows.len() as u64;
        // A kill may have cut a batch's rows short: keep the complete batches (and a whole
        // run), and play the rest again, as the first time.
        let keep = if whole >= self.config.iterations {
            self.config.iterations
        } else {
            whole / batch * batch
        };
        let kept_len = match keep {
            0 => header.len() + 1,
            n => rows[n as usize - 1].end,
        };
        if kept_len != text.len() {
            write_atomically(&rows_path, &text.as_bytes()[..kept_len])?;
        }
        let theta = match keep {
            0 => self.start(),
            n => rows[n as usize - 1].theta.clone(),
        };
        Ok((keep, theta))
    }

    /// The rows of `spsa.csv`, each checked, as far as its complete lines go (a last line
    /// without its end is a write cut short). Each row must prove itself: its iteration the
    /// next, its points a pair's (0 to 2 by halves), the values each side played the ones its
    /// perturbation and the schedule give from the values its batch started with, and the
    /// values after it the update its points give. A row that does not is refused, naming its
    /// line: the run would go on from values it never reached.
    fn read_rows(&self, text: &str, path: &Path) -> Result<Vec<RowRead>> {
        let bad = |line: usize, why: &str| {
            Error::input(format!(
                "{} line {line}: {why}; the run cannot go on from it (put back the run's own \
                 file, or choose another folder with --out)",
                path.display()
            ))
        };
        let header = self.header();
        if !text.starts_with(&format!("{header}\n")) {
            return Err(bad(1, "not this run's header"));
        }
        let n = self.tuned.len();
        let batch = u64::from(self.config.batch).max(1);
        let mut rows = Vec::new();
        let mut end = header.len() + 1;
        let mut theta = self.start();
        let mut batch_start = theta.clone();
        for (i, line) in text[end..].split_inclusive('\n').enumerate() {
            let Some(line) = line.strip_suffix('\n') else {
                break;
            };
            end += line.len() + 1;
            let line_no = i + 2;
            let k = i as u64 + 1;
            let fields: Vec<&str> = line.split(',').collect();
            let parsed = (fields.len() == 2 + 3 * n && fields[0].parse::<u64>().ok() == Some(k))
                .then(|| {
                    let points = fields[1].parse::<f64>().ok()?;
                    let played = fields[2..2 + 2 * n]
                        .iter()
                        .map(|f| f.parse::<i64>().ok())
                        .collect::<Option<Vec<i64>>>()?;
                    let after = fields[2 + 2 * n..]
                        .iter()
                        .map(|f| f.parse::<f64>().ok())
                        .collect::<Option<Vec<f64>>>()?;
                    Some((points, played, after))
                })
                .flatten();
            let Some((points, played, after)) = parsed else {
                return Err(bad(line_no, &format!("not row {k} of this run")));
            };
            if k > self.config.iterations {
                return Err(bad(
                    line_no,
                    &format!("iteration {k}, but the run has {}", self.config.iterations),
                ));
            }
            let half_points = points * 2.0;
            if !(0.0..=4.0).contains(&half_points) || half_points.fract() != 0.0 {
                return Err(bad(
                    line_no,
                    &format!("`plus_points` {points} is not a pair's (0 to 2 by halves)"),
                ));
            }
            if (k - 1).is_multiple_of(batch) {
                // A batch is played from the values it starts with.
                batch_start.clone_from(&theta);
            }
            let signs = self.signs(&mut stream(self.config.seed, &[tag::SPSA, k]));
            let (plus, minus) = self.sides(k, &batch_start, &signs);
            if played[..n] != plus[..] || played[n..] != minus[..] {
                return Err(bad(
                    line_no,
                    &format!(
                        "the values played are not the ones iteration {k} plays from the \
                         values before it"
                    ),
                ));
            }
            let pair = PlayedPair {
                iteration: k,
                signs,
                plus,
                minus,
                plus_half_points: half_points as u32,
            };
            theta = self.update(&theta, &pair);
            if after != theta {
                return Err(bad(
                    line_no,
                    &format!(
                        "the values after iteration {k} are not the update its points and the \
                         schedule give"
                    ),
                ));
            }
            rows.push(RowRead {
                theta: theta.clone(),
                end,
            });
        }
        Ok(rows)
    }
}

/// A row of `spsa.csv` read back: the values after its pair, and where its line ends.
struct RowRead {
    theta: Vec<f64>,
    end: usize,
}

/// `v` rounded to the nearest value `t` may take.
fn round_in(v: f64, t: &Tuned) -> i64 {
    v.round().clamp(t.param.min as f64, t.param.max as f64) as i64
}

/// Our search's key `t` as a gene over its range.
fn gene(t: &Tuned) -> Gene {
    Gene {
        index: t.gene.expect("our search's keys are genes"),
        range: WeightRange {
            min: t.param.min as i32,
            max: t.param.max as i32,
        },
    }
}

/// The row of `spsa.csv` for `pair`, with `theta` the values after it; the values in Rust's
/// shortest form, which reads back exactly.
fn row_line(pair: &PlayedPair, theta: &[f64]) -> String {
    let mut line = format!(
        "{},{}",
        pair.iteration,
        f64::from(pair.plus_half_points) / 2.0
    );
    for v in pair.plus.iter().chain(&pair.minus) {
        let _ = write!(line, ",{v}");
    }
    for v in theta {
        let _ = write!(line, ",{v}");
    }
    line.push('\n');
    line
}
