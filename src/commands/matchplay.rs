//! The `match` command: A against B over paired openings, with Elo and an optional SPRT.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use checkers_tuner::run::MAX_SEARCH_DEPTH;
use checkers_tuner::{
    check_output_path, load_openings_file, play_match, summary_path, three_move_deck, Error,
    MatchSettings, Opening, PairReport, Result, Sprt, TieBreak, WeightsFile,
};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::thread_pool;

/// Plain progress lines (stderr not a terminal) come every this many pairs, and after the last.
const PROGRESS_EVERY: usize = 10;

/// Arguments of `match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Player A: a weights file (json, toml or csv) or `material`.
    a: String,
    /// Player B: a weights file (json, toml or csv) or `material`.
    b: String,
    /// Openings: `start`, `3-move` (the 156-opening ACF deck) or a file with one move sequence
    /// per line (e.g. `9-13 22-18 10-14`). A plays each opening once with each colour.
    #[arg(long, default_value = "3-move", value_name = "start|3-move|FILE")]
    openings: String,
    /// Full-width search depth in plies (both sides).
    #[arg(long, default_value_t = MatchSettings::default().min_depth, value_name = "D")]
    min_depth: u32,
    /// Depth up to which capture sequences are searched further.
    #[arg(long, default_value_t = MatchSettings::default().max_depth, value_name = "D")]
    max_depth: u32,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = MatchSettings::default().max_plies, value_name = "N")]
    max_plies: u32,
    /// Draw after this many plies without a capture or a man moving.
    #[arg(long, default_value_t = MatchSettings::default().no_progress_plies, value_name = "N")]
    no_progress_plies: u32,
    /// How equal-valued moves are chosen: `first` or `random` (drawn from the seed).
    #[arg(long, default_value = "first", value_name = "first|random")]
    tie_break: String,
    /// Seed of the games' random streams (used by `--tie-break random`).
    #[arg(long, default_value_t = 1, value_name = "S")]
    seed: u64,
    /// Threads playing pairs (default: one per core). Results do not depend on it.
    #[arg(long, value_name = "N", value_parser = super::threads_arg)]
    threads: Option<usize>,
    /// Write one row per game to FILE.csv and the printed summary to FILE.summary.txt.
    #[arg(long, value_name = "FILE.csv")]
    out: Option<PathBuf>,
    /// Stop early with a sequential test of H0 elo = ELO0 against H1 elo = ELO1 (error rates
    /// ALPHA and BETA, default 0.05).
    #[arg(
        long,
        value_name = "ELO0,ELO1[,ALPHA,BETA]",
        allow_hyphen_values = true
    )]
    sprt: Option<String>,
    /// No progress output on stderr.
    #[arg(long)]
    quiet: bool,
}

/// Runs the command.
pub fn run(args: MatchArgs) -> Result<()> {
    let settings = settings(&args)?;
    let sprt: Option<Sprt> = args.sprt.as_deref().map(str::parse).transpose()?;
    if let Some(out) = &args.out {
        check_output_path(out, "--out")?;
        check_output_path(&summary_path(out), "--out summary")?;
    }
    let a = WeightsFile::load_arg(&args.a)?;
    let b = WeightsFile::load_arg(&args.b)?;
    let (openings, openings_label) = openings(&args.openings)?;

    let mut lines = vec![
        format!("A: {}", player_label(&args.a, &a)),
        format!("B: {}", player_label(&args.b, &b)),
        format!(
            "openings: {openings_label}, {} = {} (A plays each opening with Black, then White)",
            count(openings.len(), "pair"),
            count(2 * openings.len(), "game")
        ),
        format!(
            "search: depth {}..{}, draw at {} plies or after {} plies without progress, \
             tie-break {}, seed {}",
            settings.min_depth,
            settings.max_depth,
            settings.max_plies,
            settings.no_progress_plies,
            tie_break_name(settings.tie_break),
            args.seed
        ),
    ];
    if let Some(t) = &sprt {
        lines.push(format!(
            "sprt: H0 elo {} against H1 elo {}, alpha {}, beta {} (stops at the first pair that \
             ends the test)",
            t.elo0(),
            t.elo1(),
            t.alpha(),
            t.beta()
        ));
    }
    for line in &lines {
        println!("{line}");
    }

    let started = Instant::now();
    let mut progress = Progress::new(args.quiet, openings.len(), sprt);
    let mut play = || {
        play_match(&a, &b, &openings, &settings, args.seed, sprt, |p| {
            progress.pair(p)
        })
    };
    let report = match args.threads {
        Some(n) => thread_pool(n)?.install(play),
        None => play(),
    };
    progress.finish();

    println!();
    lines.push(String::new());
    for line in report.result_lines() {
        println!("{line}");
        lines.push(line);
    }
    if !args.quiet {
        eprintln!(
            "played {} games in {:.1} s",
            report.games.len(),
            started.elapsed().as_secs_f64()
        );
    }
    if let Some(out) = &args.out {
        let mut summary = lines.join("\n");
        summary.push('\n');
        let summary_file = report.write_files(out, &summary)?;
        if !args.quiet {
            eprintln!("wrote {} and {}", out.display(), summary_file.display());
        }
    }
    Ok(())
}

/// `n` and `noun`, plural unless `n` is 1.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The search settings from the arguments, checked.
fn settings(args: &MatchArgs) -> Result<MatchSettings> {
    if args.min_depth == 0 {
        return Err(Error::input("--min-depth: must be at least 1"));
    }
    if args.max_depth > MAX_SEARCH_DEPTH {
        return Err(Error::input(format!(
            "--max-depth {}: must be at most {MAX_SEARCH_DEPTH}",
            args.max_depth
        )));
    }
    if args.min_depth > args.max_depth {
        return Err(Error::input(format!(
            "--min-depth {} is greater than --max-depth {}: expected min <= max",
            args.min_depth, args.max_depth
        )));
    }
    if args.max_plies == 0 {
        return Err(Error::input("--max-plies: must be at least 1"));
    }
    if args.no_progress_plies < 2 {
        return Err(Error::input(format!(
            "--no-progress-plies {}: must be at least 2",
            args.no_progress_plies
        )));
    }
    let tie_break = match args.tie_break.as_str() {
        "first" => TieBreak::First,
        "random" => TieBreak::Random,
        other => {
            return Err(Error::input(format!(
                "--tie-break {other:?}: expected `first` or `random`"
            )))
        }
    };
    Ok(MatchSettings {
        min_depth: args.min_depth,
        max_depth: args.max_depth,
        max_plies: args.max_plies,
        no_progress_plies: args.no_progress_plies,
        tie_break,
    })
}

/// The openings named by `--openings`, with a label for the header.
fn openings(arg: &str) -> Result<(Vec<Opening>, String)> {
    Ok(match arg {
        "start" => (vec![Opening::start()], "the initial position".to_string()),
        "3-move" => (three_move_deck(), "ACF 3-move deck".to_string()),
        path => (load_openings_file(Path::new(path))?, format!("file {path}")),
    })
}

fn tie_break_name(t: TieBreak) -> &'static str {
    match t {
        TieBreak::First => "first",
        TieBreak::Random => "random",
    }
}

/// `material` or the file name, its endgame threshold and where it came from.
fn player_label(arg: &str, file: &WeightsFile) -> String {
    let mut label = format!(
        "{arg} (endgame set from {} pieces down",
        file.endgame_pieces
    );
    if let Some(s) = &file.source {
        label.push_str(&format!(
            "; run {:?}, specimen {}, round {}",
            s.run, s.id, s.round
        ));
    }
    label.push(')');
    label
}

/// Progress on stderr: a bar on a terminal, a line every few pairs otherwise, nothing with
/// `--quiet`.
struct Progress {
    quiet: bool,
    bar: Option<ProgressBar>,
    sprt: Option<Sprt>,
}

impl Progress {
    fn new(quiet: bool, pairs: usize, sprt: Option<Sprt>) -> Progress {
        let bar = (!quiet && std::io::stderr().is_terminal()).then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(pairs as u64), ProgressDrawTarget::stderr());
            if let Ok(style) =
                ProgressStyle::with_template("pairs {pos}/{len} {wide_bar} ETA {eta}  {msg}")
            {
                bar.set_style(style);
            }
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
            p.tally.results_line(),
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
                eprintln!("pairs {}/{}: {status}", p.pairs_done, p.pairs_total);
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
