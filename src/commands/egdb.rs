//! The `egdb` commands (`build`, `probe`) and the first-use build that other commands share.

use std::path::Path;
use std::time::Instant;

use checkers_engine::egdb::{
    build as build_endgame_db, cache_dir as endgame_cache_dir,
    check_writable as check_endgame_cache_writable, database_path as endgame_db_path,
    open_or_build as open_or_build_endgame_db, EgdbError, EndgameDb, Opened, MAX_DATABASE_PIECES,
};
use checkers_engine::error::{Error, Result};
use checkers_engine::weights_file::WeightsFile;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::output::{note, outln};
use super::{parse_fen, thread_pool};

/// Arguments of `egdb`.
#[derive(Args, Debug)]
pub struct EgdbArgs {
    #[command(subcommand)]
    command: EgdbCommand,
}

#[derive(Subcommand, Debug)]
enum EgdbCommand {
    /// Builds the endgame database of every position with at most N pieces into the cache
    /// folder (CHECKERS_TUNER_CACHE, else ~/.cache/checkers-tuner).
    Build(BuildArgs),
    /// Prints a position's value for the side to move: `win D`, `loss D` or `draw`.
    Probe(ProbeArgs),
}

/// Arguments of `egdb build`.
#[derive(Args, Debug)]
struct BuildArgs {
    /// Most pieces on the board (1 to 5).
    #[arg(long, default_value_t = MAX_DATABASE_PIECES,
          value_parser = clap::value_parser!(u32).range(1..=MAX_DATABASE_PIECES as i64))]
    pieces: u32,
    /// Build again even if a sound file is there.
    #[arg(long)]
    force: bool,
    /// Worker threads (default: one per core).
    #[arg(long, value_parser = super::threads_arg)]
    threads: Option<usize>,
    /// No progress on stderr: only the final line (or the error).
    #[arg(short, long)]
    quiet: bool,
}

/// Arguments of `egdb probe`.
#[derive(Args, Debug)]
struct ProbeArgs {
    /// The position as PDN FEN.
    #[arg(long)]
    fen: String,
    /// The database to ask (default: the largest one built).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_DATABASE_PIECES as i64))]
    pieces: Option<u32>,
}

/// Runs `egdb`.
pub fn run(args: EgdbArgs) -> Result<()> {
    match args.command {
        EgdbCommand::Build(args) => build(args),
        EgdbCommand::Probe(args) => probe(args),
    }
}

/// How long a build takes, for the messages before it: measured on two shared cores, 0.7 s for
/// three pieces, 19 s for four, 278 to 337 s for five.
fn expected_time(pieces: u32) -> &'static str {
    match pieces {
        0..=3 => "about a second",
        4 => "about 20 seconds",
        _ => "about 5 minutes",
    }
}

/// A progress bar over the database's positions (hidden when stderr is not a terminal).
fn progress_bar(pieces: u32) -> ProgressBar {
    let total = EndgameDb::positions_for(pieces);
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "egdb {msg} [{bar:30.green/white}] {percent}% ({elapsed} elapsed, ~{eta} left)",
        )
        .expect("a valid template"),
    );
    bar.set_message(format!("{pieces} pieces"));
    bar
}

fn size_text(bytes: usize) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// Runs `egdb build`.
fn build(args: BuildArgs) -> Result<()> {
    let dir = endgame_cache_dir()?;
    let path = endgame_db_path(&dir, args.pieces);
    if !args.force {
        match EndgameDb::load(&path, args.pieces) {
            Ok(db) => {
                outln!(
                    "{}: the {}-piece database is already built ({} positions, {}); \
                     --force builds it again",
                    path.display(),
                    args.pieces,
                    db.len(),
                    size_text(db.len())
                )?;
                return Ok(());
            }
            Err(e @ EgdbError::Damaged(..)) if !args.quiet => {
                note!("{e}: building it again");
            }
            Err(EgdbError::Damaged(..) | EgdbError::Missing(_)) => {}
            Err(e) => return Err(e.into()),
        }
    }
    check_endgame_cache_writable(&dir, args.pieces)?;
    let pool = thread_pool(args.threads.unwrap_or(0))?;
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        note!(
            "Building the {}-piece endgame database into {} ({} on two cores)…",
            args.pieces,
            path.display(),
            expected_time(args.pieces)
        );
        progress_bar(args.pieces)
    };
    let started = Instant::now();
    let db = pool.install(|| build_endgame_db(args.pieces, &|n| bar.inc(n)))?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    db.save(&path)?;
    outln!(
        "built {} pieces in {secs:.1} s: {} positions, {}, longest win {} plies; written to {}",
        args.pieces,
        db.len(),
        size_text(db.len()),
        db.longest(),
        path.display()
    )?;
    Ok(())
}

/// Runs `egdb probe`.
fn probe(args: ProbeArgs) -> Result<()> {
    let pos = parse_fen(&args.fen)?;
    let dir = endgame_cache_dir()?;
    let pieces = match args.pieces {
        Some(n) => n,
        None => largest_built(&dir).ok_or_else(|| {
            Error::input(format!(
                "no endgame database in {} (build one with `checkers-tuner egdb build`)",
                dir.display()
            ))
        })?,
    };
    let db = EndgameDb::load(&endgame_db_path(&dir, pieces), pieces).map_err(|e| match e {
        EgdbError::Damaged(..) => Error::input(format!(
            "{e}; build it again with `checkers-tuner egdb build --pieces {pieces}`"
        )),
        other => other.into(),
    })?;
    match db.probe(&pos) {
        Some(value) => {
            outln!("{value}")?;
            Ok(())
        }
        None => Err(Error::input(format!(
            "--fen {:?}: {} pieces, the database holds at most {pieces}",
            args.fen,
            pos.piece_count()
        ))),
    }
}

/// The `pieces`-piece database for a command that plays or searches (`None` for 0): read from
/// the cache, or built there first with a message of the time it takes.
pub fn open_database(pieces: u32) -> Result<Option<&'static EndgameDb>> {
    if pieces == 0 {
        return Ok(None);
    }
    let dir = endgame_cache_dir()?;
    Ok(Some(open_in(&dir, pieces)?.leak()))
}

/// The endgame database a command searches with when neither `--database-pieces` nor a weights
/// file names one (`material`, CSV files, hand-made and older weights files): none. A fixed
/// value, so that no result depends on what the cache holds, and none so that nothing is built
/// unasked.
pub const DEFAULT_DATABASE_PIECES: u32 = 0;

/// The `--database-pieces` option of the commands that search with the endgame database.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct DatabaseArg {
    /// Search with the endgame database of this many pieces (built into the cache at first
    /// use); 0 for none. Default: the one the weights file records (its run's
    /// `search.database_pieces`), the larger of the two players' in a match, else none.
    #[arg(long = "database-pieces", value_name = "N",
          value_parser = clap::value_parser!(u32).range(0..=MAX_DATABASE_PIECES as i64))]
    pieces: Option<u32>,
}

/// The database a command searches with, and why: a function of the command line and the
/// weights files only, never of what the cache holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatabaseChoice {
    /// Most pieces (0: none).
    pub pieces: u32,
    /// Where the number comes from, for the match header and the notes of the other commands.
    pub why: String,
}

impl DatabaseArg {
    /// The database for `players` (each a weights file with its name for messages, `A's weights
    /// file` or `the --weights file`):
    /// `--database-pieces` if given; else the one the weights files record, the larger when
    /// two disagree; else [`DEFAULT_DATABASE_PIECES`].
    pub fn choose(&self, players: &[(&str, &WeightsFile)]) -> DatabaseChoice {
        if let Some(pieces) = self.pieces {
            return DatabaseChoice {
                pieces,
                why: format!("--database-pieces {pieces}"),
            };
        }
        let recorded: Vec<(&str, u32)> = players
            .iter()
            .filter_map(|(name, file)| file.database_pieces.map(|n| (*name, n)))
            .collect();
        let Some(&(_, pieces)) = recorded.iter().max_by_key(|(_, n)| *n) else {
            return DatabaseChoice {
                pieces: DEFAULT_DATABASE_PIECES,
                why: "the default: no weights file records one".to_string(),
            };
        };
        let why = match recorded.as_slice() {
            [(name, _)] => format!("recorded in {name}"),
            list if list.iter().all(|(_, n)| *n == pieces) => {
                "recorded in both weights files".to_string()
            }
            list => {
                let each: Vec<String> = list
                    .iter()
                    .map(|(name, n)| format!("{name} records {n}"))
                    .collect();
                format!(
                    "the larger: {}; --database-pieces N to choose",
                    each.join(", ")
                )
            }
        };
        DatabaseChoice { pieces, why }
    }

    /// The database [`DatabaseArg::choose`] names for `players`, opened (built first when it
    /// is not in the cache, saying so), with the choice.
    pub fn open(
        &self,
        players: &[(&str, &WeightsFile)],
    ) -> Result<(Option<&'static EndgameDb>, DatabaseChoice)> {
        let choice = self.choose(players);
        Ok((open_database(choice.pieces)?, choice))
    }
}

impl std::fmt::Display for DatabaseChoice {
    /// `4 pieces (recorded in A's weights file)` or `none (the default: …)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.pieces {
            0 => write!(f, "none ({})", self.why),
            n => write!(f, "{n} pieces ({})", self.why),
        }
    }
}

/// The most pieces of a database file in the cache folder `dir`.
fn largest_built(dir: &Path) -> Option<u32> {
    (1..=MAX_DATABASE_PIECES)
        .rev()
        .find(|&n| endgame_db_path(dir, n).is_file())
}

fn open_in(dir: &Path, pieces: u32) -> Result<EndgameDb> {
    let bar = std::sync::OnceLock::new();
    let say = |damaged: Option<&EgdbError>| {
        // One message per state: a damaged file is built again, a missing one built once.
        match damaged {
            Some(e) => note!(
                "{e}: building it again ({} on two cores)…",
                expected_time(pieces)
            ),
            None => note!(
                "The {pieces}-piece endgame database is not built yet: building it once into {} \
                 ({} on two cores; `checkers-tuner egdb build` does the same)…",
                dir.display(),
                expected_time(pieces)
            ),
        }
        let _ = bar.set(progress_bar(pieces));
    };
    let started = Instant::now();
    let (db, opened) = open_or_build_endgame_db(dir, pieces, say, &|n| {
        if let Some(bar) = bar.get() {
            bar.inc(n);
        }
    })?;
    if opened != Opened::Loaded {
        if let Some(bar) = bar.get() {
            bar.finish_and_clear();
        }
        note!(
            "Built the {pieces}-piece endgame database in {:.1} s ({}).",
            started.elapsed().as_secs_f64(),
            size_text(db.len())
        );
    }
    Ok(db)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recording(pieces: Option<u32>) -> WeightsFile {
        WeightsFile {
            database_pieces: pieces,
            ..WeightsFile::material()
        }
    }

    #[test]
    fn the_flag_then_the_files_then_none_and_the_larger_of_two() {
        let (none, four, five) = (recording(None), recording(Some(4)), recording(Some(5)));
        let choose = |flag: Option<u32>, files: &[(&str, &WeightsFile)]| {
            DatabaseArg { pieces: flag }.choose(files)
        };
        let both = |a, b| [("A's weights file", a), ("B's weights file", b)];
        assert_eq!(
            choose(None, &both(&none, &none)).pieces,
            DEFAULT_DATABASE_PIECES
        );
        assert_eq!(
            choose(None, &both(&none, &none)).to_string(),
            "none (the default: no weights file records one)"
        );
        let one = choose(None, &both(&none, &four));
        assert_eq!(one.to_string(), "4 pieces (recorded in B's weights file)");
        assert_eq!(choose(None, &both(&four, &four)).pieces, 4);
        let larger = choose(None, &both(&five, &four));
        assert_eq!(larger.pieces, 5);
        assert!(
            larger.why.contains("A's weights file records 5"),
            "{larger}"
        );
        assert!(
            larger.why.contains("B's weights file records 4"),
            "{larger}"
        );
        let flag = choose(Some(0), &both(&five, &four));
        assert_eq!(flag.to_string(), "none (--database-pieces 0)");
        // A file that records no database (0) is a record all the same.
        let zero = recording(Some(0));
        assert_eq!(
            choose(None, &both(&zero, &none)).to_string(),
            "none (recorded in A's weights file)"
        );
    }
}
