//! The `fit` command: weights fitted to the results of recorded games (the Texel method).

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use checkers_engine::atomic_file::{check_output_path, refuse_overwriting};
use checkers_engine::error::{Error, Result};
use checkers_engine::eval::{extra_names, EvaluatorKind, KingLayout, RankLayout, RegionLayout};
use checkers_harness::export::{export_to_file, ExportFormat};
use checkers_harness::fit::{
    fit_games, Damaged, DatabaseEndings, DeepLabels, FitReport, FitSettings, GameStream, Games,
    LabelSearch, Losses, ReadReport, MAX_ENDING_PLIES, MAX_EPOCHS,
};
use checkers_harness::run::Config;
use checkers_harness::run_folder::{refuse_writing_runs, run_database_pieces};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::egdb::open_database;
use super::output::note;

/// The positions the deeper label search has searched, read by the progress display.
static LABELLED: AtomicU64 = AtomicU64::new(0);

/// Arguments of `fit`.
#[derive(Args, Debug)]
pub struct FitArgs {
    /// Run folders (their positions.bin, else their games.csv, or their islands' when not
    /// merged yet) and PDN files (a run's games.pdn, `match --pdn`, any collection of English
    /// games); pooled, and read a game at a time as the fit goes.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// The fitted weights file; its format from the extension (.json, .toml, .csv, .h, .txt)
    /// unless --format says.
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    out: PathBuf,
    /// Output format: json, csv, toml, c or openbench.
    #[arg(long, value_name = "json|csv|toml|c|openbench")]
    format: Option<String>,
    /// Start weights (a weights file or `material`): where the fit starts, which captures lead
    /// to the quiet positions, and the point --l2 pulls towards.
    #[arg(long, value_name = "FILE", default_value = "material")]
    weights: String,
    /// Take the weight ranges (`[weights]`) and the endgame threshold (`[search]
    /// endgame_pieces`) from this run config; default: the built-in ranges, pawns fixed at 100.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The evaluator to fit: ten, extended or patterns (default: the --config's evaluator when
    /// it is not ten, else the start weights').
    #[arg(long, value_name = "ten|extended|patterns")]
    evaluator: Option<String>,
    /// The pattern evaluator's regions: bands, strips, bands+strips or
    /// bands+strips+offsets+quadrants (default: the --config's, else the start weights', else
    /// bands+strips); a layout wider than the start weights' adds its further regions.
    #[arg(long, value_name = "LAYOUT")]
    regions: Option<String>,
    /// The pattern evaluator's king regions: none or quadrants (default: the --config's, else
    /// none); added to start weights whose tables have none.
    #[arg(long, value_name = "LAYOUT")]
    kings: Option<String>,
    /// The pattern evaluator's rank regions: none or home (the 16 squares of each side's home
    /// half, its own men alone; default: the --config's, else none); added to start weights
    /// whose tables have none.
    #[arg(long, value_name = "LAYOUT")]
    ranks: Option<String>,
    /// Leave out each game's positions before this ply (counted from its start, the opening's
    /// moves included).
    #[arg(long, value_name = "N", default_value_t = FitSettings::default().first_ply)]
    first_ply: u32,
    /// Share of the games held out to measure the fit (0 ..< 1; 0: none).
    #[arg(long, value_name = "SHARE", default_value_t = FitSettings::default().validation)]
    validation: f64,
    /// Seed of the validation split.
    #[arg(long, value_name = "N", default_value_t = FitSettings::default().seed)]
    seed: u64,
    /// Strength of an L2 pull towards the start weights, per (weight change / 100)² (0: none).
    #[arg(long, value_name = "LAMBDA", default_value_t = FitSettings::default().l2)]
    l2: f64,
    /// The pattern evaluator's pull of table entries toward zero, in positions: an entry
    /// seen in far fewer positions stays near zero.
    #[arg(long, value_name = "POSITIONS", default_value_t = FitSettings::default().l2_tables)]
    l2_tables: f64,
    /// The pattern evaluator's passes of the mini-batch optimiser over the positions (0: L-BFGS
    /// with --iterations).
    #[arg(long, value_name = "N", default_value_t = FitSettings::default().epochs,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_EPOCHS)))]
    epochs: u32,
    /// The first step of the mini-batch optimiser, in hundredths of a man.
    #[arg(long, value_name = "STEP", default_value_t = FitSettings::default().learning_rate)]
    learning_rate: f64,
    /// The pattern evaluator's share of the search's score in each position's label, 0 to 1
    /// (positions of run folders carry the score of the move played from them; 0: the game's
    /// result alone; PDN games have no scores and learn their results).
    #[arg(long, value_name = "SHARE", default_value_t = FitSettings::default().score_weight)]
    score_weight: f64,
    /// Also learn the endings of the games that stopped in the endgame database: each played
    /// on by the database for up to this many plies, every quiet position with its exact value
    /// (0: none). Needs the database the run folders, --config or start weights name.
    #[arg(long, value_name = "PLIES", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_ENDING_PLIES)))]
    endings: u32,
    /// The pattern evaluator's labels from a deeper search: every position searched again at
    /// this full-width depth (captures 6 plies further, the exact search) with the --weights
    /// file and the endgame database the fit knows, its score in place of the game's (0: the
    /// games' own scores).
    #[arg(
        long,
        value_name = "DEPTH",
        default_value_t = 0,
        conflicts_with = "label_nodes"
    )]
    label_depth: u32,
    /// The pattern evaluator's labels from the selective search: every position searched
    /// again with the --weights file and the selective search's default settings (those of
    /// `hub` and `play`), deepening until this many nodes are spent, its score in place of the
    /// game's (0: none).
    #[arg(long, value_name = "NODES", default_value_t = 0)]
    label_nodes: u64,
    /// The pattern evaluator's optional `exchange` term (the side to move's lead in pieces over
    /// the pieces on the board: "trade when ahead"), learnt from zero when the start weights
    /// lack it; a start that has it always learns it.
    #[arg(long)]
    exchange: bool,
    /// Learn each quiet position once in all the inputs (the first game to reach it gives its
    /// label), not once per game: for `datagen` data sets, whose games meet the same positions
    /// again and again.
    #[arg(long)]
    unique: bool,
    /// Most optimiser iterations.
    #[arg(long, value_name = "N", default_value_t = FitSettings::default().max_iterations)]
    iterations: u32,
    /// Worker threads (default: one per core); the weights are the same on any number.
    #[arg(long, value_name = "N", value_parser = super::threads_arg)]
    threads: Option<usize>,
    /// Refuse a PDN file with a damaged game (an illegal or unreadable move, a bad FEN) with
    /// exit status 2, instead of skipping the game and reporting it.
    #[arg(long)]
    strict: bool,
    /// No progress bar and no report; only errors.
    #[arg(short = 'q', long)]
    quiet: bool,
}

/// Refuses an option of the pattern evaluator's fit given to another evaluator's, which would
/// ignore it: a value other than the default is taken for one given (the default given is
/// harmless either way).
fn refuse_pattern_options(args: &FitArgs, evaluator: EvaluatorKind) -> Result<()> {
    if evaluator == EvaluatorKind::Patterns {
        return Ok(());
    }
    let defaults = FitSettings::default();
    let given = [
        ("--regions", args.regions.is_some()),
        ("--kings", args.kings.is_some()),
        ("--ranks", args.ranks.is_some()),
        ("--l2-tables", args.l2_tables != defaults.l2_tables),
        ("--epochs", args.epochs != defaults.epochs),
        ("--score-weight", args.score_weight != defaults.score_weight),
        ("--exchange", args.exchange),
    ];
    match given.iter().find(|(_, given)| *given) {
        Some((flag, _)) => Err(Error::input(format!(
            "{flag} is an option of the pattern evaluator's fit, and this fit is the {evaluator} \
             evaluator's, which would ignore it (fit the patterns with --evaluator patterns, or \
             leave {flag} out)"
        ))),
        None => Ok(()),
    }
}

/// Runs the command.
pub fn run(args: FitArgs) -> Result<()> {
    let format = match &args.format {
        Some(name) => name
            .parse::<ExportFormat>()
            .map_err(|e| Error::input(format!("--format: {e}")))?,
        None => super::export::format_from_extension(&args.out).unwrap_or(ExportFormat::Json),
    };
    check_output_path(&args.out, "--out")?;
    // Before the games are read: no file of a run folder among the inputs may be the output.
    let mut given: Vec<&Path> = args.inputs.iter().map(PathBuf::as_path).collect();
    given.extend(args.config.as_deref());
    if args.weights != "material" {
        given.push(Path::new(&args.weights));
    }
    refuse_writing_runs(&args.out, "--out", &given)?;
    let start = checkers_harness::run_folder::weights_from_arg(&args.weights)?;
    let mut settings = FitSettings {
        first_ply: args.first_ply,
        validation: args.validation,
        seed: args.seed,
        l2: args.l2,
        l2_tables: args.l2_tables,
        epochs: args.epochs,
        score_weight: args.score_weight,
        learning_rate: args.learning_rate,
        max_iterations: args.iterations,
        exchange: args.exchange,
        unique: args.unique,
        endgame_pieces: start.endgame_pieces,
        evaluator: start.evaluator(),
        ..FitSettings::default()
    };
    let mut config_database = None;
    if let Some(path) = &args.config {
        let config = Config::load(path)?;
        config_database = Some(config.search.database_pieces);
        settings.opening = config.weights.opening;
        settings.endgame = config.weights.endgame;
        settings.endgame_pieces = config.search.endgame_pieces;
        settings.extended = config.weights.extended;
        settings.patterns = config.weights.patterns;
        if !config.weights.evaluator.is_ten() {
            settings.evaluator = config.weights.evaluator;
        }
    }
    if let Some(name) = &args.evaluator {
        settings.evaluator = EvaluatorKind::from_name(name).ok_or_else(|| {
            Error::input(format!(
                "--evaluator: `{name}` is not an evaluator, expected ten, extended or patterns"
            ))
        })?;
    }
    if let Some(name) = &args.regions {
        settings.patterns.regions = RegionLayout::from_name(name).ok_or_else(|| {
            Error::input(format!(
                "--regions: `{name}` is not a region layout, expected bands, strips, \
                 bands+strips or bands+strips+offsets+quadrants"
            ))
        })?;
    } else if args.config.is_none() {
        // Without a word of the user's the fit keeps the start's regions.
        if let Some(layout) = start
            .patterns
            .as_ref()
            .and_then(|p| RegionLayout::of(&p.tables))
        {
            settings.patterns.regions = layout;
        }
    }
    if let Some(name) = &args.kings {
        settings.patterns.kings = KingLayout::from_name(name).ok_or_else(|| {
            Error::input(format!(
                "--kings: `{name}` is not a king region layout, expected none or quadrants"
            ))
        })?;
    }
    if let Some(name) = &args.ranks {
        settings.patterns.ranks = RankLayout::from_name(name).ok_or_else(|| {
            Error::input(format!(
                "--ranks: `{name}` is not a rank region layout, expected none or home"
            ))
        })?;
    }
    let label_search = match (args.label_depth, args.label_nodes) {
        (0, 0) => None,
        (0, nodes) => Some(LabelSearch::Nodes(nodes)),
        (depth, _) => Some(LabelSearch::Depth(depth)),
    };
    if let Some(search) = label_search {
        // Checked with the other settings below; the database is put in once it is open.
        settings.deep_labels = Some(DeepLabels {
            search,
            database: None,
            searched: Some(&LABELLED),
        });
    }
    settings.check(|name| format!("--{}", name.replace('_', "-")))?;
    refuse_pattern_options(&args, settings.evaluator)?;
    format.check_evaluator(settings.evaluator)?;
    let database_pieces = match config_database {
        Some(n) => Some(n),
        None => runs_database(&args.inputs)?.or(start.database_pieces),
    };
    let database = match database_pieces {
        Some(pieces) if args.endings > 0 || label_search.is_some() => open_database(pieces)?,
        _ => None,
    };
    if let Some(deep) = &mut settings.deep_labels {
        deep.database = database;
    }
    if args.endings > 0 {
        let database = database.ok_or_else(|| {
            Error::input(
                "--endings: no endgame database to play the endings with (the run folders, \
                 --config and --weights name none, or 0 pieces)",
            )
        })?;
        settings.endings = Some(DatabaseEndings {
            database,
            plies: args.endings,
        });
    }

    let damaged = if args.strict {
        Damaged::Refuse
    } else {
        Damaged::Skip
    };
    // The games are read as the fit goes (a file of any size in little memory); damaged games
    // skipped and files cut short are told on stderr as they are met.
    let mut stream = GameStream::open(&args.inputs, damaged)?;
    if !args.quiet {
        stream = stream.on_note(|n| note!("{n}"));
    }
    let mut read: Vec<(&str, &Path)> = stream
        .files()
        .iter()
        .map(|f| ("an input", f.as_path()))
        .collect();
    read.extend(args.config.as_deref().map(|c| ("--config", c)));
    if args.weights != "material" {
        read.push(("--weights", Path::new(&args.weights)));
    }
    refuse_overwriting(&args.out, "--out", &read)?;

    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(u64::from(settings.max_iterations));
        bar.set_style(
            ProgressStyle::with_template("fitting {bar:30} {pos} iterations, loss {msg}")
                .expect("a valid progress template"),
        );
        bar
    });
    let on_iteration = |iteration: u32, loss: f64| {
        if let Some(bar) = &bar {
            bar.set_position(u64::from(iteration));
            bar.set_message(format!("{loss:.6}"));
        }
    };
    let mut run_fit = || {
        fit_games(
            Games::Stream(&mut stream),
            &start.weights,
            start.extra.as_ref(),
            start.patterns.as_ref(),
            &settings,
            on_iteration,
        )
    };
    let searched = settings.deep_labels.and_then(|d| d.searched);
    let done = AtomicBool::new(false);
    let report = std::thread::scope(|scope| {
        if let (Some(count), false) = (searched, args.quiet) {
            scope.spawn(|| show_labelling(count, &done));
        }
        let report = match args.threads {
            Some(threads) => super::thread_pool(threads).and_then(|pool| pool.install(run_fit)),
            None => run_fit(),
        };
        done.store(true, Ordering::Relaxed);
        report
    })?;
    let records = stream.report();
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }

    let data = data_description(records, &report);
    let file = report.weights_file(settings.endgame_pieces, database_pieces, data);
    export_to_file(&file, format, &args.out)?;
    if !args.quiet {
        let text = report_text(records, &report, &settings, &args);
        let mut stdout = std::io::stdout().lock();
        stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush())
            .map_err(|e| Error::failure(format!("cannot write to standard output: {e}")))?;
    }
    Ok(())
}

/// The endgame database the run folders among `inputs` played with, when they all name the same
/// one (PDN files name none): what the fitted weights record, so that `match` plays them as
/// their games were played.
fn runs_database(inputs: &[PathBuf]) -> Result<Option<u32>> {
    let mut found = None;
    for dir in inputs.iter().filter(|p| p.is_dir()) {
        match (found, run_database_pieces(dir)?) {
            (_, None) => {}
            (None, Some(n)) => found = Some(n),
            (Some(a), Some(b)) if a != b => return Ok(None),
            _ => {}
        }
    }
    Ok(found)
}

/// The `source` of the fitted file: the inputs and how much of them was learnt from.
fn data_description(records: &ReadReport, report: &FitReport) -> String {
    let files: Vec<String> = records
        .files
        .iter()
        .map(|f| f.display().to_string())
        .collect();
    format!(
        "{} ({} games, {} training positions, K {:.4})",
        files.join(", "),
        report.games,
        report.training_positions,
        report.k
    )
}

/// The report printed after a fit.
fn report_text(
    records: &ReadReport,
    report: &FitReport,
    settings: &FitSettings,
    args: &FitArgs,
) -> String {
    let mut out = String::new();
    for counts in &records.pdn_files {
        let _ = writeln!(out, "{counts}");
    }
    let unfinished = match records.unfinished {
        0 => String::new(),
        n => format!(", {n} without a result left out"),
    };
    let _ = writeln!(
        out,
        "games: {} from {} file(s){unfinished}; {} held out for validation (seed {})",
        report.games,
        records.files.len(),
        report.validation_games,
        settings.seed
    );
    let endings = match settings.endings {
        Some(e) => format!(
            "; with the endings of games that stopped in the {}-piece database, played on by it \
             for up to {} plies",
            e.database.pieces(),
            e.plies
        ),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "positions: {} training, {} validation (quiet, from ply {}, each once {}{endings})",
        report.training_positions,
        report.validation_positions,
        settings.first_ply,
        if settings.unique {
            "in all the inputs"
        } else {
            "per game"
        }
    );
    let _ = writeln!(
        out,
        "K: {:.4} per man (fitted with material); start weights: {}",
        report.k, args.weights
    );
    if let Some(deep) = &settings.deep_labels {
        let _ = writeln!(
            out,
            "labels: every position searched again at {} with the start weights{}, \
             its score {:.0}% of the label",
            deep.search.describe(),
            deep.database.map_or(String::new(), |db| format!(
                " and the {}-piece database",
                db.pieces()
            )),
            100.0 * settings.score_weight
        );
    }
    let _ = writeln!(
        out,
        "{:<10} {:>10} {:>11}",
        "loss", "training", "validation"
    );
    for (name, losses) in [
        ("material", report.material),
        ("start", report.start),
        ("fit", report.fitted),
    ] {
        let _ = writeln!(
            out,
            "{name:<10} {:>10.6} {:>11}",
            losses.training,
            validation(losses)
        );
    }
    let _ = writeln!(
        out,
        "fitted in {} iterations; weights written to {}",
        report.iterations,
        args.out.display()
    );
    let _ = writeln!(out, "opening: {:?}", report.weights.opening.0);
    let _ = writeln!(out, "endgame: {:?}", report.weights.endgame.0);
    let bounds = on_bounds(report, settings);
    if !bounds.is_empty() {
        let _ = writeln!(
            out,
            "on a bound of its range (the fit would have gone further; --config with wider \
             [weights] ranges lets it): {}",
            bounds.join(", ")
        );
    }
    if let Some(extra) = &report.extra {
        let _ = writeln!(
            out,
            "extended: terms {:?} (opening) {:?} (endgame), and the tables in the file",
            extra.opening.terms, extra.endgame.terms
        );
    }
    out
}

/// Each fitted weight that ended on a bound of its range, `endgame kings 100 (100..300)`, in
/// file order; weights fixed by their range (`pawns` at 100) are not named.
fn on_bounds(report: &FitReport, settings: &FitSettings) -> Vec<String> {
    let mut found = Vec::new();
    let mut check = |set: &str, name: &str, value: i32, min: i32, max: i32| {
        if min < max && (value == min || value == max) {
            found.push(format!("{set} {name} {value} ({min}..{max})"));
        }
    };
    for (set, weights, ranges) in [
        ("opening", &report.weights.opening, &settings.opening),
        ("endgame", &report.weights.endgame, &settings.endgame),
    ] {
        for ((name, value), range) in weights.named().zip(ranges.to_array()) {
            check(set, name, value, range.min, range.max);
        }
    }
    if let Some(extra) = &report.extra {
        let ranges = settings.extended.to_vec();
        let names = extra_names();
        for (set, weights) in [("opening", &extra.opening), ("endgame", &extra.endgame)] {
            for ((name, value), range) in names.iter().zip(weights.to_vec()).zip(&ranges) {
                check(set, name, value, range.min, range.max);
            }
        }
    }
    found
}

/// A validation loss, or `-` without a split.
fn validation(losses: Losses) -> String {
    losses
        .validation
        .map_or("-".to_string(), |v| format!("{v:.6}"))
}

/// Shows how many positions the deeper search has labelled until `done`: a spinner line on a
/// terminal, else a line on stderr every minute (a label search of a big run takes a while).
fn show_labelling(count: &AtomicU64, done: &AtomicBool) {
    let started = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let spinner = terminal.then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("labelling {spinner} {msg}")
                .expect("a valid progress template"),
        );
        bar
    });
    let line = || {
        let n = count.load(Ordering::Relaxed);
        let rate = n as f64 / started.elapsed().as_secs_f64().max(1e-3);
        format!("{n} positions searched ({rate:.0} a second)")
    };
    let mut last_line = Instant::now();
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(200));
        match &spinner {
            Some(bar) => {
                bar.set_message(line());
                bar.tick();
            }
            None if last_line.elapsed() >= Duration::from_secs(60) => {
                note!("labelling: {}", line());
                last_line = Instant::now();
            }
            None => {}
        }
    }
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    if count.load(Ordering::Relaxed) > 0 {
        note!("labelled: {}", line());
    }
}
