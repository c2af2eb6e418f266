//! The `match` command: A against B over paired openings, with Elo and an optional SPRT.

use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use checkers_engine::atomic_file::{refuse_overwriting, same_file};
use checkers_engine::error::{Error, Result};
use checkers_engine::eval::EvaluatorKind;
use checkers_engine::game::{
    GameSettings, Opening, OpeningsSource, SearchMode, SearchParams, TieBreak, TimeControl,
    DECK_NAMES, MAX_NODES, RANDOM_OPENING_BALANCE,
};
use checkers_engine::search::{SearchLimits, SelectiveParams};
use checkers_engine::weights_file::WeightsFile;
use checkers_harness::elo::Sprt;
use checkers_harness::matchplay::{
    check_output_path, match_key, match_pdn, play_match_from, read_match_file, read_match_rows,
    summary_path, write_file_atomically, MatchGame, MatchPlayer, MatchSide, PairReport, Thinking,
};
use checkers_harness::players::Engine;
use checkers_harness::run_folder::refuse_writing_runs;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::egdb::DatabaseArg;
use super::output::{note, outln};
use super::search_args::{search_mode, SearchArgs};
use super::{thread_pool, INTERRUPTED_STATUS};

/// Plain progress lines (stderr not a terminal) come every this many pairs, and after the last.
const PROGRESS_EVERY: usize = 10;

/// Arguments of `match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Player A: a weights file (json, toml or csv), `material`, `cb:LIBRARY` (a CheckerBoard
    /// engine: .so, .dylib or .dll) or `hub:COMMAND` (a Hub program, e.g. `hub:scan hub`).
    a: String,
    /// Player B, as A.
    b: String,
    /// An option for A when it is another program, sent as it stands after it starts
    /// (repeatable): an `enginecommand` text for a CheckerBoard engine (`set hashsize 64`), a
    /// protocol line for a Hub program (`set-param name=hash value=64`).
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    option_a: Vec<String>,
    /// An option for B, as --option-a.
    #[arg(long, value_name = "TEXT", allow_hyphen_values = true)]
    option_b: Vec<String>,
    /// Openings: `start`, `3-move` (the 156-opening ACF deck), `tough` (50 of them),
    /// `random:N` (--pairs openings of N random plies, default 156, drawn from --seed) or a file:
    /// one move sequence (`9-13 22-18 10-14`) or FEN per line, or PDN games (one position per
    /// game, e.g. `[FEN "B:W19,23,22:B4,3,2"] *`). A plays each opening once with each colour.
    #[arg(
        long,
        default_value = "3-move",
        value_name = "start|3-move|tough|random:N|FILE"
    )]
    openings: String,
    /// Both sides' depths and tie-break.
    #[command(flatten)]
    search: SearchArgs,
    /// A's own depths: full-width MIN and capture depth MAX (`4..10`); MIN alone keeps the
    /// capture extension of --max-depth minus --min-depth. Fixed-depth matches only.
    #[arg(long, value_name = "MIN[..MAX]")]
    depth_a: Option<String>,
    /// B's own depths, as --depth-a.
    #[arg(long, value_name = "MIN[..MAX]")]
    depth_b: Option<String>,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = GameSettings::default().max_plies, value_name = "N")]
    max_plies: u32,
    /// Draw after this many plies without a capture or a man moving.
    #[arg(long, default_value_t = GameSettings::default().no_progress_plies, value_name = "N")]
    no_progress_plies: u32,
    /// The endgame database; games end there by its value unless
    /// --no-database-adjudication.
    #[command(flatten)]
    database: DatabaseArg,
    /// With a database, play games on to their end instead of ending them by its value.
    #[arg(long)]
    no_database_adjudication: bool,
    /// Seed of the games' random streams (used by `--tie-break random`).
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Threads playing pairs (default: one per core). Results do not depend on it.
    #[arg(long, value_name = "N", value_parser = super::threads_arg)]
    threads: Option<usize>,
    /// Write one row per game to FILE.csv as the games finish and the printed summary to
    /// FILE.summary.txt. A match stopped before its end (Ctrl-C, a kill) is continued by the
    /// same command with the same --out: the games in FILE.csv are kept and the rest played.
    #[arg(long, value_name = "FILE.csv")]
    out: Option<PathBuf>,
    /// Write every game as PDN to FILE as the games finish, in deck order (from the standard
    /// position, the opening's moves first). A match continued from --out rewrites it from
    /// the games the CSV holds, then goes on.
    #[arg(long, value_name = "FILE")]
    pdn: Option<PathBuf>,
    /// Play against the clock: BASE seconds per side for the game plus INC seconds per move
    /// (`10+0.1`), searching deeper while time allows (captures followed `max-depth -
    /// min-depth` plies beyond each depth). A side whose clock runs out loses. Timed games
    /// depend on the machine's speed.
    #[arg(long, value_name = "BASE+INC", conflicts_with = "movetime")]
    tc: Option<String>,
    /// Play with a fixed time per move, in seconds (e.g. `0.05`), searching deeper while time
    /// allows.
    #[arg(long, value_name = "SECONDS")]
    movetime: Option<String>,
    /// Play with a fixed number of nodes per move, searching deeper while they last: equal
    /// work for both sides, and the same games on every machine.
    #[arg(long, value_name = "N", conflicts_with_all = ["tc", "movetime"],
          value_parser = clap::value_parser!(u64).range(1..=MAX_NODES))]
    nodes: Option<u64>,
    /// Both sides' search: `exact` (plain minimax's value) or `selective` (deeper, with the
    /// `[search]` selective keys' defaults unless the weights file has a `search` table).
    /// Without it each side searches as its weights file says (exact if it says nothing).
    #[arg(
        long,
        value_parser = search_mode(),
        value_name = "exact|selective",
        hide_possible_values = true
    )]
    search_mode: Option<SearchMode>,
    /// A's search, as --search-mode.
    #[arg(
        long,
        value_parser = search_mode(),
        value_name = "exact|selective",
        hide_possible_values = true
    )]
    search_a: Option<SearchMode>,
    /// B's search, as --search-mode.
    #[arg(
        long,
        value_parser = search_mode(),
        value_name = "exact|selective",
        hide_possible_values = true
    )]
    search_b: Option<SearchMode>,
    /// Play only the first N openings of the deck.
    #[arg(long, value_name = "N")]
    pairs: Option<usize>,
    /// Play the deck R times (1 to 1000). Each repeat's games draw from streams of their own,
    /// so repeats differ only with `--tie-break random` (required for R > 1). With `--sprt`,
    /// the test goes on past the first deck until it decides or the R decks are played.
    #[arg(long, default_value_t = 1, value_name = "R")]
    repeat: usize,
    /// Stop early with a sequential test of H0 elo = ELO0 against H1 elo = ELO1 (error rates
    /// ALPHA and BETA, default 0.05).
    #[arg(
        long,
        value_name = "ELO0,ELO1[,ALPHA,BETA]",
        allow_hyphen_values = true
    )]
    sprt: Option<String>,
    /// No progress output on stderr.
    #[arg(short, long)]
    quiet: bool,
}

/// First line of `FILE.summary.txt` while the match writing `FILE.csv` is not finished; the
/// second is `key: ` and the match's key ([`match_key`]).
const IN_PROGRESS: &str =
    "# match in progress: run the same command again to continue it (checkers-tuner)";

/// Runs the command.
pub fn run(args: MatchArgs) -> Result<()> {
    let mut settings = settings(&args)?;
    let own_limits = [
        own_limits(&args, &settings, "--depth-a", args.depth_a.as_deref())?,
        own_limits(&args, &settings, "--depth-b", args.depth_b.as_deref())?,
    ];
    let sprt: Option<Sprt> = args.sprt.as_deref().map(str::parse).transpose()?;
    if let Some(out) = &args.out {
        check_output_path(out, "--out")?;
        check_output_path(&summary_path(out), "--out summary")?;
    }
    if let Some(pdn) = &args.pdn {
        check_output_path(pdn, "--pdn")?;
        if let Some(out) = &args.out {
            if same_file(pdn, out) || same_file(pdn, &summary_path(out)) {
                return Err(Error::input(format!(
                    "--pdn {}: the same file as --out or its summary",
                    pdn.display()
                )));
            }
        }
    }
    let engines = engines(&args, &settings, own_limits)?;
    // No output may be a file the match reads: the weights, a library or the openings file.
    let inputs: Vec<(&str, &Path)> = [("A", args.a.as_str()), ("B", args.b.as_str())]
        .into_iter()
        .zip(&engines)
        .filter(|((_, arg), engine)| *arg != "material" && !matches!(engine, Some(Engine::Hub(_))))
        .map(|((name, arg), _)| (name, arg.strip_prefix("cb:").unwrap_or(arg)))
        .chain([("--openings", args.openings.as_str())])
        .map(|(name, arg)| (name, Path::new(arg)))
        .collect();
    let summary = args.out.as_deref().map(summary_path);
    for (what, out) in [
        ("--out", args.out.as_deref()),
        ("--out summary", summary.as_deref()),
        ("--pdn", args.pdn.as_deref()),
    ] {
        if let Some(out) = out {
            refuse_overwriting(out, what, &inputs)?;
            let read: Vec<&Path> = inputs.iter().map(|(_, p)| *p).collect();
            refuse_writing_runs(out, what, &read)?;
        }
    }
    let files = [(&args.a, &engines[0]), (&args.b, &engines[1])].map(|(arg, engine)| {
        engine
            .is_none()
            .then(|| checkers_harness::run_folder::weights_from_arg(arg))
    });
    let [file_a, file_b] = files;
    let files = [file_a.transpose()?, file_b.transpose()?];
    // Each program is started once before the match, so one that cannot play (not found, not
    // an engine, another variant, an option refused) is refused before the first game.
    let mut names = [None, None];
    let mut identities = [String::new(), String::new()];
    for (i, engine) in engines.iter().enumerate() {
        if let Some(engine) = engine {
            names[i] = Some(engine.start()?.name().to_string());
            identities[i] = engine.identity()?;
        }
    }
    let modes = [args.search_a, args.search_b].map(|m| m.or(args.search_mode));
    let [a, b] = [0, 1].map(|i| match (&files[i], &engines[i]) {
        (Some(file), _) => MatchSide::Ours(MatchPlayer {
            file,
            limits: own_limits[i],
            selective: side_search(file.search, modes[i]),
        }),
        (None, Some(engine)) => MatchSide::Engine(engine, &identities[i]),
        (None, None) => unreachable!("a side is a weights file or a program"),
    });
    let detail = a.is_engine() || b.is_engine();
    let (deck, deck_label) = openings(&args.openings, args.pairs, args.seed)?;
    let (openings, openings_label) = select_pairs(deck, &deck_label, &args, &settings)?;
    // Last of the checks: it may build the database, which takes minutes.
    let weights: Vec<(&str, &WeightsFile)> = ["A's weights file", "B's weights file"]
        .into_iter()
        .zip(&files)
        .filter_map(|(what, file)| Some((what, file.as_ref()?)))
        .collect();
    let (database, choice) = args.database.open(&weights)?;
    settings.database = database;
    settings.search.database_pieces = choice.pieces;
    let key = match_key(a, b, &openings, &settings, args.seed, sprt.as_ref());

    let side_label = |i: usize, arg: &str| match (&files[i], &names[i]) {
        (Some(file), _) => player_label(arg, file),
        (None, name) => engine_label(arg, name.as_deref().unwrap_or(""), &engines[i]),
    };
    let mut lines = vec![
        format!("A: {}", side_label(0, &args.a)),
        format!("B: {}", side_label(1, &args.b)),
        format!(
            "openings: {openings_label}, {} = {} (A plays each opening with Black, then White)",
            count(openings.len(), "pair"),
            count(2 * openings.len(), "game")
        ),
        format!(
            "search: {}, draw at {} plies or after {} plies without progress, \
             tie-break {}, seed {}",
            search_label(&settings, own_limits),
            settings.max_plies,
            settings.no_progress_plies,
            settings.search.tie_break.name(),
            args.seed
        ),
        match settings.database {
            Some(_) => format!(
                "endgame database: {choice}, {}",
                if settings.database_adjudication {
                    "games end there by its value"
                } else {
                    "in the search only"
                }
            ),
            None => format!("endgame database: {choice}"),
        },
    ];
    lines.extend(sprt.map(|t| {
        format!(
            "sprt: H0 elo {} against H1 elo {}, alpha {}, beta {} (stops at the first pair that \
             ends the test)",
            t.elo0(),
            t.elo1(),
            t.alpha(),
            t.beta()
        )
    }));
    // The games file: started, or continued when it holds this very match, interrupted.
    let mut out = (args.out.as_deref())
        .map(|path| GamesFile::open(path, &key, &openings, &lines, detail))
        .transpose()?;
    let previous = (out.as_mut())
        .map(|o| std::mem::take(&mut o.previous))
        .unwrap_or_default();
    let pdn_labels = [0, 1].map(|i| {
        let arg = if i == 0 { &args.a } else { &args.b };
        match (&names[i], own_limits[i]) {
            (Some(name), _) => name.clone(),
            (None, limits) => pdn_label(arg, limits),
        }
    });
    // The CSV is the checkpoint: a continued match's PDN is rebuilt from its games, so whatever
    // a kill left in the PDN file (more games, fewer, or a game cut short) ends as an
    // uninterrupted match's file.
    let mut pdn = (args.pdn.as_deref())
        .map(|path| {
            let text = match_pdn(&previous, &openings, &pdn_labels[0], &pdn_labels[1]);
            Appender::create(path, text.as_bytes())
        })
        .transpose()?;
    if !args.quiet && !previous.is_empty() {
        note!(
            "continuing {} after {} of {} pairs",
            args.out.as_deref().unwrap_or(Path::new("")).display(),
            previous.len() / 2,
            openings.len()
        );
    }
    for line in &lines {
        outln!("{line}")?;
    }

    let stop = super::interrupt::stop_flag();
    let started = Instant::now();
    let mut progress = Progress::new(args.quiet, previous.len() / 2, openings.len(), sprt);
    let mut thinking = [Thinking::default(); 2];
    let mut play = || {
        play_match_from(
            a,
            b,
            &openings,
            &settings,
            args.seed,
            sprt,
            &previous,
            Some(&stop),
            |p| {
                progress.pair(p);
                thinking[0].add(p.thinking[0]);
                thinking[1].add(p.thinking[1]);
                let mut saved = true;
                if let Some(o) = out.as_mut() {
                    let rows: String = p.games.iter().map(|g| g.csv_line_for(detail)).collect();
                    saved &= o.csv.append(&rows);
                }
                if let Some(f) = pdn.as_mut() {
                    let text = match_pdn(&p.games, &openings, &pdn_labels[0], &pdn_labels[1]);
                    saved &= f.append(&text);
                }
                if !saved {
                    // Nothing more can be saved: stop as if interrupted, then report it.
                    stop.store(true, Ordering::SeqCst);
                }
            },
        )
    };
    let report = match args.threads {
        Some(n) => thread_pool(n)?.install(play),
        None => play(),
    };
    progress.finish();
    let failed = out.as_mut().and_then(|o| o.csv.error.take());
    if let Some(err) = failed.or_else(|| pdn.as_mut().and_then(|f| f.error.take())) {
        return Err(err);
    }
    let final_verdict = report.sprt.is_some_and(|s| s.verdict.is_final());
    let interrupted = report.pairs_played < report.pairs_total && !final_verdict;

    outln!()?;
    lines.push(String::new());
    let results = if interrupted {
        report.interrupted_lines()
    } else {
        report.result_lines()
    };
    let played_now = report.games.len() - previous.len();
    let mut results = results;
    // Times are measured: a result of a timed match (not reproducible anyway), a note beside
    // the results of one at a depth or a node budget, whose files stay the same every time.
    let timed = matches!(
        settings.time,
        Some(TimeControl::MoveTime(_) | TimeControl::Clock { .. })
    );
    let thinking = thinking_line(&thinking, played_now);
    if timed {
        results.extend(thinking.clone());
    }
    results.extend(forfeit_lines(&report.games));
    for line in results {
        outln!("{line}")?;
        lines.push(line);
    }
    if let (false, false, Some(line)) = (timed, args.quiet, thinking) {
        note!("{line}");
    }
    if !args.quiet {
        note!(
            "played {} games in {:.1} s",
            2 * (report.pairs_played - previous.len() / 2),
            started.elapsed().as_secs_f64()
        );
    }
    let summary = lines.join("\n") + "\n";
    if let Some(o) = &out {
        if interrupted {
            o.write_summary(&in_progress(&key, &summary))?;
        } else {
            o.write_summary(&summary)?;
            if !args.quiet {
                note!("wrote {} and {}", o.csv.path.display(), o.summary.display());
            }
        }
    }
    if let (Some(f), false, false) = (&pdn, interrupted, args.quiet) {
        note!("wrote {}", f.path.display());
    }
    if interrupted {
        match &out {
            Some(o) => note!(
                "Interrupted: run the same command again to continue {}",
                o.csv.path.display()
            ),
            None => note!("Interrupted."),
        }
        std::process::exit(INTERRUPTED_STATUS);
    }
    Ok(())
}

/// The summary file of an unfinished match: the marker, the key, then `text`.
fn in_progress(key: &str, text: &str) -> String {
    format!("{IN_PROGRESS}\nkey: {key}\n{text}")
}

/// A file written as the match goes, one pair's text at a time (in opening order), so a
/// stopped match keeps its games.
struct Appender {
    path: PathBuf,
    file: File,
    /// The first write that failed; the match stops at it.
    error: Option<Error>,
}

impl Appender {
    /// Starts `path` afresh with `initial`, written atomically.
    fn create(path: &Path, initial: &[u8]) -> Result<Appender> {
        write_file_atomically(path, initial)?;
        Appender::continue_at(path, initial.len())
    }

    /// Opens `path` to append after its first `len` bytes, dropping the rest.
    fn continue_at(path: &Path, len: usize) -> Result<Appender> {
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| Error::io("open", path, &e))?;
        file.set_len(len as u64)
            .map_err(|e| Error::io("truncate", path, &e))?;
        Ok(Appender {
            path: path.to_path_buf(),
            file,
            error: None,
        })
    }

    /// Appends `text`; false (keeping the error) if it could not be written.
    fn append(&mut self, text: &str) -> bool {
        if self.error.is_some() {
            return false;
        }
        match self.file.write_all(text.as_bytes()) {
            Ok(()) => true,
            Err(e) => {
                self.error = Some(Error::io("write", &self.path, &e));
                false
            }
        }
    }
}

/// `--out FILE.csv` and its summary: the header, then the rows of each pair as soon as it is
/// applied.
struct GamesFile {
    csv: Appender,
    summary: PathBuf,
    /// The games read back from an interrupted match's file, to continue after them.
    previous: Vec<MatchGame>,
}

impl GamesFile {
    /// Continues `path` if its summary marks it as an unfinished match with this `key` (a
    /// different key is refused), otherwise starts it afresh (a finished match's file is
    /// replaced, as before). Writes the summary's in-progress form.
    fn open(
        path: &Path,
        key: &str,
        openings: &[Opening],
        header: &[String],
        detail: bool,
    ) -> Result<GamesFile> {
        let summary = summary_path(path);
        let marked = read_match_file(&summary)?
            .filter(|text| text.starts_with(format!("{IN_PROGRESS}\n").as_bytes()));
        let unfinished = match marked {
            Some(text) => read_match_file(path)?.map(|bytes| (text, bytes)),
            None => None,
        };
        let (csv, previous) = match unfinished {
            Some((text, bytes)) => {
                let text = String::from_utf8_lossy(&text);
                if text.lines().nth(1) != Some(&format!("key: {key}")) {
                    return Err(Error::input(format!(
                        "--out {}: it holds an unfinished match with other players, openings or \
                         settings (see {}); run that match's command again to finish it, or \
                         give another --out",
                        path.display(),
                        summary.display()
                    )));
                }
                let rows = read_match_rows(&bytes, &path.display().to_string(), openings)?;
                // Drop what a killed process left after the last whole pair.
                (Appender::continue_at(path, rows.complete_len)?, rows.games)
            }
            _ => (
                Appender::create(path, MatchGame::csv_header_line_for(detail).as_bytes())?,
                Vec::new(),
            ),
        };
        let games_file = GamesFile {
            csv,
            summary,
            previous,
        };
        games_file.write_summary(&in_progress(key, &(header.join("\n") + "\n")))?;
        Ok(games_file)
    }

    fn write_summary(&self, text: &str) -> Result<()> {
        write_file_atomically(&self.summary, text.as_bytes())
    }
}

/// `n` and `noun`, plural unless `n` is 1.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The search settings from the arguments, checked, without the endgame database.
fn settings(args: &MatchArgs) -> Result<GameSettings> {
    args.search
        .params()
        .try_limits()
        .map_err(|e| Error::input(e.describe("--min-depth", "--max-depth")))?;
    if args.max_plies == 0 {
        return Err(Error::input("--max-plies: must be at least 1"));
    }
    if args.no_progress_plies < 2 {
        return Err(Error::input(format!(
            "--no-progress-plies {}: must be at least 2",
            args.no_progress_plies
        )));
    }
    let time = match (&args.tc, &args.movetime, args.nodes) {
        (Some(tc), _, _) => Some(parse_tc(tc)?),
        (None, Some(t), _) => Some(TimeControl::MoveTime(seconds("--movetime", t, false)?)),
        (None, None, Some(0)) => return Err(Error::input("--nodes 0: must be at least 1")),
        (None, None, Some(n)) => Some(TimeControl::Nodes(n)),
        (None, None, None) => None,
    };
    // The database is chosen once the weights files are read (see `run`).
    Ok(GameSettings {
        search: SearchParams {
            database_pieces: 0,
            ..args.search.params()
        },
        max_plies: args.max_plies,
        no_progress_plies: args.no_progress_plies,
        time,
        database: None,
        database_adjudication: !args.no_database_adjudication,
    })
}

/// A side's selective search: `mode` from the command line, else the weights file's `search`
/// table (its selective keys apply either way); `None` for the exact search.
fn side_search(table: Option<SearchParams>, mode: Option<SearchMode>) -> Option<SelectiveParams> {
    let own = table.unwrap_or_default();
    match mode {
        Some(mode) => SearchParams { mode, ..own }.selective(),
        None => own.selective(),
    }
}

/// A side's own depths from `--depth-a`/`--depth-b` (`flag`): `MIN..MAX`, or `MIN` with the
/// shared capture extension. `None` when not given or equal to the shared depths, so that such
/// a match keeps the key (and files) of one without the flag.
fn own_limits(
    args: &MatchArgs,
    settings: &GameSettings,
    flag: &str,
    text: Option<&str>,
) -> Result<Option<SearchLimits>> {
    let Some(text) = text else {
        return Ok(None);
    };
    if args.tc.is_some() || args.movetime.is_some() || args.nodes.is_some() {
        return Err(Error::input(format!(
            "{flag}: per-player depths are for fixed-depth matches; with --tc or --movetime \
             both sides search as deep as their time allows"
        )));
    }
    let number = |t: &str| t.trim().parse::<u32>().ok();
    let (min, max) = match text.split_once("..") {
        Some((min, max)) => (number(min), number(max)),
        None => {
            let min = number(text);
            let extension = settings.search.max_depth - settings.search.min_depth;
            (min, min.and_then(|m| m.checked_add(extension)))
        }
    };
    let (Some(min), Some(max)) = (min, max) else {
        return Err(Error::input(format!(
            "{flag} {text:?}: expected MIN or MIN..MAX in plies, e.g. 4 or 4..10"
        )));
    };
    let limits = SearchLimits::try_new(min, max)
        .map_err(|e| Error::input(e.describe(flag, &format!("{flag} capture depth"))))?;
    Ok((limits != settings.limits()).then_some(limits))
}

/// Longest time `--tc` and `--movetime` accept, in seconds (a day).
const MAX_SECONDS: f64 = 86_400.0;

/// A `--tc BASE+INC` in seconds (`10+0.1`, or `10` for no increment).
fn parse_tc(text: &str) -> Result<TimeControl> {
    let (base, increment) = text.split_once('+').unwrap_or((text, "0"));
    let bad = || {
        Error::input(format!(
            "--tc {text:?}: expected BASE+INC in seconds, e.g. 10+0.1 (a base above 0)"
        ))
    };
    let base = seconds("--tc", base, false).map_err(|_| bad())?;
    let increment = seconds("--tc", increment, true).map_err(|_| bad())?;
    Ok(TimeControl::Clock { base, increment })
}

/// A number of seconds above 0 (or 0 too, with `zero`), at most [`MAX_SECONDS`].
fn seconds(flag: &str, text: &str, zero: bool) -> Result<Duration> {
    match text.trim().parse::<f64>() {
        Ok(s) if (s > 0.0 || zero && s == 0.0) && s <= MAX_SECONDS => {
            Ok(Duration::from_secs_f64(s))
        }
        _ => Err(Error::input(format!(
            "{flag} {text:?}: expected a number of seconds above 0 and at most {MAX_SECONDS}"
        ))),
    }
}

/// How the players search, for the header: both depths when a side has its own.
fn search_label(settings: &GameSettings, own: [Option<SearchLimits>; 2]) -> String {
    let captures = settings.search.max_depth - settings.search.min_depth;
    match settings.time {
        None if own.iter().any(Option::is_some) => format!(
            "A {}, B {}",
            depth(own[0].unwrap_or(settings.limits())),
            depth(own[1].unwrap_or(settings.limits()))
        ),
        None => depth(settings.limits()),
        Some(TimeControl::Clock { base, increment }) => format!(
            "clock {}+{} s per side, deepening while time allows (captures {captures} plies \
             further)",
            base.as_secs_f64(),
            increment.as_secs_f64()
        ),
        Some(TimeControl::Nodes(n)) => format!(
            "{n} nodes per move, deepening while they last (captures {captures} plies further)"
        ),
        Some(TimeControl::MoveTime(t)) => format!(
            "{} s per move, deepening while time allows (captures {captures} plies further)",
            t.as_secs_f64()
        ),
    }
}

/// Most repeats of the deck `--repeat` accepts.
const MAX_REPEAT: usize = 1000;

/// The deck cut to `--pairs` and repeated `--repeat` times, with a label for the header.
fn select_pairs(
    mut deck: Vec<Opening>,
    label: &str,
    args: &MatchArgs,
    settings: &GameSettings,
) -> Result<(Vec<Opening>, String)> {
    let mut label = label.to_string();
    if let Some(n) = args.pairs {
        if n == 0 || n > deck.len() {
            return Err(Error::input(format!(
                "--pairs {n}: expected 1 to {}, the openings of {label}",
                deck.len()
            )));
        }
        if n < deck.len() {
            label = format!("the first {n} of {label}");
            deck.truncate(n);
        }
    }
    if !(1..=MAX_REPEAT).contains(&args.repeat) {
        return Err(Error::input(format!(
            "--repeat {}: expected 1 to {MAX_REPEAT}",
            args.repeat
        )));
    }
    if args.repeat > 1 {
        if settings.search.tie_break != TieBreak::Random {
            return Err(Error::input(format!(
                "--repeat {}: with --tie-break first every repeat replays the same games; add \
                 --tie-break random (each repeat then draws its ties from streams of its own)",
                args.repeat
            )));
        }
        label = format!("{label}, {} times", args.repeat);
        deck = std::iter::repeat_n(deck, args.repeat).flatten().collect();
    }
    Ok((deck, label))
}

/// How many random openings `--openings random:N` draws without `--pairs`: as many as the
/// 3-move deck has.
const RANDOM_PAIRS: usize = 156;

/// The openings named by `--openings` (a deck name or a file), with a label for the header.
fn openings(arg: &str, pairs: Option<usize>, seed: u64) -> Result<(Vec<Opening>, String)> {
    let source = match OpeningsSource::from_deck_name(arg) {
        Some(source) => source.map_err(|e| Error::input(format!("--openings {e}")))?,
        None if !Path::new(arg).exists() => {
            let hint = if looks_like_three_move(arg) {
                "; did you mean `3-move` (the ACF ballot deck)?"
            } else {
                ""
            };
            return Err(Error::input(format!(
                "--openings {arg:?}: no such file, and not a deck name: the decks are \
                 {DECK_NAMES}{hint}"
            )));
        }
        None => OpeningsSource::File(PathBuf::from(arg)),
    };
    let count = pairs.unwrap_or(RANDOM_PAIRS);
    let deck = source.match_deck(count, seed, RANDOM_OPENING_BALANCE)?;
    let label = match &source {
        OpeningsSource::Start => "the initial position".to_string(),
        OpeningsSource::ThreeMove => "ACF 3-move deck".to_string(),
        OpeningsSource::Tough => "the tough deck".to_string(),
        OpeningsSource::Random(plies) => format!(
            "random:{plies} ({} distinct openings of {plies} random plies, level within \
             {RANDOM_OPENING_BALANCE} at depth 4, from seed {seed})",
            deck.len()
        ),
        OpeningsSource::File(_) => format!("file {arg}"),
    };
    Ok((deck, label))
}

/// Whether a name that is not a file was meant as the 3-move deck (`3move`, `three-move`, …).
fn looks_like_three_move(name: &str) -> bool {
    let letters: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    matches!(
        letters.as_str(),
        "3move" | "threemove" | "3moves" | "threemoves" | "3mv"
    )
}

/// `depth MIN..MAX`.
fn depth(l: SearchLimits) -> String {
    format!("depth {}..{}", l.min_depth(), l.max_depth())
}

/// A player's name in the PDN's `Black` and `White` tags: the argument, and its depths when
/// they are its own.
fn pdn_label(arg: &str, limits: Option<SearchLimits>) -> String {
    match limits {
        Some(l) => format!("{arg} ({})", depth(l)),
        None => arg.to_string(),
    }
}

/// The programs among the players (`cb:`, `hub:`), with their options; refuses what such a
/// player cannot do (a depth or search of its own; a CheckerBoard engine without a time) and
/// options for a weights file.
fn engines(
    args: &MatchArgs,
    settings: &GameSettings,
    own_limits: [Option<SearchLimits>; 2],
) -> Result<[Option<Engine>; 2]> {
    let host = std::env::current_exe()
        .map_err(|e| Error::input(format!("cannot find this program to host a library: {e}")))?;
    let sides = [
        (
            "A",
            &args.a,
            &args.option_a,
            "--option-a",
            args.depth_a.is_some(),
            args.search_a,
        ),
        (
            "B",
            &args.b,
            &args.option_b,
            "--option-b",
            args.depth_b.is_some(),
            args.search_b,
        ),
    ];
    let mut engines = [None, None];
    for (i, (side, arg, options, flag, depth, search)) in sides.into_iter().enumerate() {
        let Some(engine) = Engine::from_arg(arg, options.clone(), &host).transpose()? else {
            if let Some(option) = options.first() {
                return Err(Error::input(format!(
                    "{flag} {option:?}: {side} is a weights file ({arg}); options are for \
                     cb: and hub: players"
                )));
            }
            continue;
        };
        let letter = side.to_ascii_lowercase();
        if depth || own_limits[i].is_some() {
            return Err(Error::input(format!(
                "--depth-{letter}: {side} is another program ({arg}), which searches as it does"
            )));
        }
        if search.is_some() {
            return Err(Error::input(format!(
                "--search-{letter}: {side} is another program ({arg}), which searches as it does"
            )));
        }
        let timed = matches!(
            settings.time,
            Some(TimeControl::MoveTime(_) | TimeControl::Clock { .. })
        );
        if engine.needs_time() && !timed {
            return Err(Error::input(format!(
                "{arg}: a CheckerBoard engine plays with a time, not a depth or a node budget: \
                 give --movetime SECONDS or --tc BASE+INC"
            )));
        }
        engines[i] = Some(engine);
    }
    Ok(engines)
}

/// Another program's line in the header: the argument, its own name and what it is.
fn engine_label(arg: &str, name: &str, engine: &Option<Engine>) -> String {
    let kind = match engine {
        Some(Engine::CheckerBoard(_)) => "CheckerBoard engine",
        _ => "Hub program",
    };
    format!("{arg} ({name}, {kind})")
}

/// Each side's mean time a move over the games this command played, so that "equal time" can
/// be checked; nothing when it played none.
fn thinking_line(thinking: &[Thinking; 2], games: usize) -> Option<String> {
    let mean = |t: &Thinking| {
        t.mean()
            .map_or("-".to_string(), |d| format!("{:.3} s", d.as_secs_f64()))
    };
    (games > 0 && thinking.iter().any(|t| t.moves > 0)).then(|| {
        format!(
            "time a move: A {}, B {} (over the {} played by this command)",
            mean(&thinking[0]),
            mean(&thinking[1]),
            count(games, "game")
        )
    })
}

/// One line per game a program forfeited: where, who, why.
fn forfeit_lines(games: &[MatchGame]) -> Vec<String> {
    games
        .iter()
        .filter(|g| g.record.reason.is_forfeit())
        .map(|g| {
            // The side that forfeited is the one that lost.
            let loser = if g.a_score() == checkers_engine::game::GameScore::Loss {
                "A"
            } else {
                "B"
            };
            format!(
                "forfeit: pair {} game {}: {loser} lost by {}: {}",
                g.pair + 1,
                g.game,
                g.record.reason.label(),
                g.record.forfeit.as_deref().unwrap_or("")
            )
        })
        .collect()
}

/// `material` or the file name, how its evaluator moves from the opening to the endgame, and
/// where the weights came from.
fn player_label(arg: &str, file: &WeightsFile) -> String {
    let source = file
        .source
        .as_ref()
        .map_or(String::new(), |s| format!("; {}", s.describe()));
    // The extended and pattern evaluators blend their two sets by the pieces on the board; only
    // the ten features switch at a threshold.
    let phases = match file.evaluator() {
        EvaluatorKind::Extended => {
            "extended evaluator, opening and endgame weights tapered by the pieces on the board"
                .to_string()
        }
        EvaluatorKind::Patterns => {
            "pattern evaluator, opening and endgame weights tapered by the pieces on the board"
                .to_string()
        }
        EvaluatorKind::Ten => format!("endgame set from {} pieces down", file.endgame_pieces),
    };
    format!("{arg} ({phases}{source})")
}

/// Progress on stderr: a bar on a terminal, a line every few pairs otherwise, nothing with
/// `--quiet`.
struct Progress {
    quiet: bool,
    bar: Option<ProgressBar>,
    sprt: Option<Sprt>,
}

impl Progress {
    /// Progress over `pairs`, of which the first `done` (read back from an interrupted match's
    /// file) count as done.
    fn new(quiet: bool, done: usize, pairs: usize, sprt: Option<Sprt>) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(pairs as u64), ProgressDrawTarget::stderr());
            if let Ok(style) =
                ProgressStyle::with_template("pairs {pos}/{len} {wide_bar} ETA {eta}  {msg}")
            {
                bar.set_style(style);
            }
            bar.set_position(done as u64);
            bar
        });
        Progress { quiet, bar, sprt }
    }

    fn pair(&mut self, p: &PairReport) {
        if self.quiet {
            return;
        }
        let mut status = format!(
            "{}; Elo {:+.1}",
            p.tally.results.line(),
            p.tally.estimate().elo
        );
        if let Some(t) = &self.sprt {
            status.push_str(&format!(", LLR {:+.2}", t.llr(&p.tally.pentanomial)));
        }
        let last = p.pairs_done == p.pairs_total || p.sprt.is_some_and(|v| v.is_final());
        match &self.bar {
            Some(bar) => {
                bar.set_position(p.pairs_done as u64);
                bar.set_message(status);
            }
            None if p.pairs_done.is_multiple_of(PROGRESS_EVERY) || last => {
                note!("pairs {}/{}: {status}", p.pairs_done, p.pairs_total);
            }
            None => {}
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
