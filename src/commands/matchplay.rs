//! The `match` command: A against B over paired openings, with Elo and an optional SPRT.

use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use checkers_tuner::{
    check_output_path, load_openings_file, match_key, play_match_from, read_match_rows,
    summary_path, three_move_deck, write_file_atomically, Error, GameSettings, MatchGame, Opening,
    PairReport, Result, Sprt, TieBreak, WeightsFile,
};
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::engine::search_limits;
use super::{ctrl_c_flag, thread_pool, INTERRUPTED_STATUS};

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
    #[arg(long, default_value_t = GameSettings::default().min_depth, value_name = "D")]
    min_depth: u32,
    /// Depth up to which capture sequences are searched further.
    #[arg(long, default_value_t = GameSettings::default().max_depth, value_name = "D")]
    max_depth: u32,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = GameSettings::default().max_plies, value_name = "N")]
    max_plies: u32,
    /// Draw after this many plies without a capture or a man moving.
    #[arg(long, default_value_t = GameSettings::default().no_progress_plies, value_name = "N")]
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
    #[arg(long)]
    quiet: bool,
}

/// First line of `FILE.summary.txt` while the match writing `FILE.csv` is not finished; the
/// second is `key: ` and the match's key ([`match_key`]).
const IN_PROGRESS: &str =
    "# match in progress: run the same command again to continue it (checkers-tuner)";

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
    let (deck, deck_label) = openings(&args.openings)?;
    let (openings, openings_label) = select_pairs(deck, &deck_label, &args, &settings)?;
    let key = match_key(&a, &b, &openings, &settings, args.seed, sprt.as_ref());

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
    // The games file: started, or continued when it holds this very match, interrupted.
    let mut out = match &args.out {
        Some(path) => Some(GamesFile::open(path, &key, &openings, &lines)?),
        None => None,
    };
    let previous = out.as_mut().map(|o| std::mem::take(&mut o.previous));
    let previous = previous.unwrap_or_default();
    if !args.quiet && !previous.is_empty() {
        eprintln!(
            "continuing {} after {} of {} pairs",
            args.out.as_deref().unwrap_or(Path::new("")).display(),
            previous.len() / 2,
            openings.len()
        );
    }
    for line in &lines {
        println!("{line}");
    }

    let stop = ctrl_c_flag();
    let started = Instant::now();
    let mut progress = Progress::new(args.quiet, openings.len(), sprt);
    progress.skip(previous.len() / 2);
    let mut play = || {
        play_match_from(
            &a,
            &b,
            &openings,
            &settings,
            args.seed,
            sprt,
            &previous,
            Some(&stop),
            |p| {
                progress.pair(p);
                if let Some(o) = out.as_mut() {
                    if !o.append(&p.games) {
                        // Nothing more can be saved: stop as if interrupted, then report it.
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            },
        )
    };
    let report = match args.threads {
        Some(n) => thread_pool(n)?.install(play),
        None => play(),
    };
    progress.finish();
    if let Some(err) = out.as_mut().and_then(|o| o.error.take()) {
        return Err(err);
    }
    let final_verdict = report.sprt.is_some_and(|s| s.verdict.is_final());
    let interrupted = report.pairs_played < report.pairs_total && !final_verdict;

    println!();
    lines.push(String::new());
    let results = if interrupted {
        report.interrupted_lines()
    } else {
        report.result_lines()
    };
    for line in results {
        println!("{line}");
        lines.push(line);
    }
    if !args.quiet {
        eprintln!(
            "played {} games in {:.1} s",
            2 * (report.pairs_played - previous.len() / 2),
            started.elapsed().as_secs_f64()
        );
    }
    let mut summary = lines.join("\n");
    summary.push('\n');
    if let Some(o) = &out {
        if interrupted {
            o.write_summary(&in_progress(&key, &summary))?;
        } else {
            o.write_summary(&summary)?;
            if !args.quiet {
                eprintln!("wrote {} and {}", o.path.display(), o.summary.display());
            }
        }
    }
    if interrupted {
        match &out {
            Some(o) => eprintln!(
                "Interrupted: run the same command again to continue {}",
                o.path.display()
            ),
            None => eprintln!("Interrupted."),
        }
        std::process::exit(INTERRUPTED_STATUS);
    }
    Ok(())
}

/// The summary file of an unfinished match: the marker, the key, then `text`.
fn in_progress(key: &str, text: &str) -> String {
    format!("{IN_PROGRESS}\nkey: {key}\n{text}")
}

/// `--out FILE.csv` and its summary, written as the match goes: the header, then the rows of
/// each pair as soon as it is applied (in opening order), so a stopped match keeps its games.
struct GamesFile {
    path: PathBuf,
    summary: PathBuf,
    file: File,
    /// The games read back from an interrupted match's file, to continue after them.
    previous: Vec<MatchGame>,
    /// The first write that failed; the match stops at it.
    error: Option<Error>,
}

impl GamesFile {
    /// Continues `path` if its summary marks it as an unfinished match with this `key` (a
    /// different key is refused), otherwise starts it afresh (a finished match's file is
    /// replaced, as before). Writes the summary's in-progress form.
    fn open(path: &Path, key: &str, openings: &[Opening], header: &[String]) -> Result<GamesFile> {
        let summary = summary_path(path);
        let marked = std::fs::read(&summary)
            .ok()
            .filter(|text| text.starts_with(format!("{IN_PROGRESS}\n").as_bytes()));
        let continued = match marked {
            Some(text) if path.is_file() => {
                let text = String::from_utf8_lossy(&text);
                let recorded = text.lines().nth(1).unwrap_or("");
                if recorded != format!("key: {key}") {
                    return Err(Error::input(format!(
                        "--out {}: it holds an unfinished match with other players, openings or \
                         settings (see {}); run that match's command again to finish it, or \
                         give another --out",
                        path.display(),
                        summary.display()
                    )));
                }
                let bytes = std::fs::read(path).map_err(|e| Error::io("read", path, &e))?;
                let rows = read_match_rows(&bytes, &path.display().to_string(), openings)?;
                Some(rows)
            }
            _ => None,
        };
        let (file, previous) = match continued {
            Some(rows) => {
                let file = OpenOptions::new()
                    .append(true)
                    .open(path)
                    .map_err(|e| Error::io("open", path, &e))?;
                // Drop what a killed process left after the last whole pair.
                file.set_len(rows.complete_len as u64)
                    .map_err(|e| Error::io("truncate", path, &e))?;
                (file, rows.games)
            }
            None => {
                write_file_atomically(path, MatchGame::csv_header_line().as_bytes())?;
                let file = OpenOptions::new()
                    .append(true)
                    .open(path)
                    .map_err(|e| Error::io("open", path, &e))?;
                (file, Vec::new())
            }
        };
        let games_file = GamesFile {
            path: path.to_path_buf(),
            summary,
            file,
            previous,
            error: None,
        };
        let mut text = header.join("\n");
        text.push('\n');
        games_file.write_summary(&in_progress(key, &text))?;
        Ok(games_file)
    }

    /// Appends a pair's rows; false (keeping the error) if they could not be written.
    fn append(&mut self, games: &[MatchGame]) -> bool {
        if self.error.is_some() {
            return false;
        }
        let text: String = games.iter().map(MatchGame::csv_line).collect();
        match self.file.write_all(text.as_bytes()) {
            Ok(()) => true,
            Err(e) => {
                self.error = Some(Error::io("write", &self.path, &e));
                false
            }
        }
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

/// The search settings from the arguments, checked.
fn settings(args: &MatchArgs) -> Result<GameSettings> {
    search_limits(args.min_depth, args.max_depth)?;
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
    Ok(GameSettings {
        min_depth: args.min_depth,
        max_depth: args.max_depth,
        max_plies: args.max_plies,
        no_progress_plies: args.no_progress_plies,
        tie_break,
        ..GameSettings::default()
    })
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
        if settings.tie_break != TieBreak::Random {
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

/// The openings named by `--openings`, with a label for the header.
fn openings(arg: &str) -> Result<(Vec<Opening>, String)> {
    Ok(match arg {
        "start" => (vec![Opening::start()], "the initial position".to_string()),
        "3-move" => (three_move_deck(), "ACF 3-move deck".to_string()),
        path if !Path::new(path).exists() && looks_like_three_move(path) => {
            return Err(Error::input(format!(
                "--openings {path:?}: no such file; did you mean `3-move` (the ACF ballot deck)?"
            )))
        }
        path => (load_openings_file(Path::new(path))?, format!("file {path}")),
    })
}

/// Whether a name that is not a file was meant as the 3-move deck (`3move`, `three-move`, …).
fn looks_like_three_move(name: &str) -> bool {
    let letters: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    matches!(
        letters.as_str(),
        "3move" | "threemove" | "3moves" | "threemoves" | "3mv"
    )
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

    /// Pairs read back from an interrupted match's file count as done.
    fn skip(&mut self, pairs: usize) {
        if let Some(bar) = &self.bar {
            bar.set_position(pairs as u64);
        }
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
