//! The `match` command: A against B over paired openings, with Elo and an optional SPRT; with
//! `--tournament`, N players pairing by pairing ([`tournament`]).

mod args;
mod files;
mod header;
mod openings;
mod progress;
mod sides;
mod standings;
mod summary;
mod tournament;

use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Instant;

use checkers_engine::atomic_file::{
    check_output_path, refuse_overwriting, same_file, write_output_atomically,
};
use checkers_engine::board::Position;
use checkers_engine::error::{Error, Result};
use checkers_engine::game::TimeControl;
use checkers_engine::weights_file::WeightsFile;
use checkers_engine::CHAMPION;
use checkers_harness::elo::Sprt;
use checkers_harness::matchplay::{
    ballots_path, match_key, match_pdn, play_match_from, referee_match, summary_path, BallotReport,
    MatchPlayer, MatchSide, Thinking,
};
use checkers_harness::players::Engine;
use checkers_harness::run_folder::refuse_writing_runs;

use super::output::{note, outln};
use super::{thread_pool, INTERRUPTED_STATUS};
use args::{own_limits, settings};
use files::{Appender, GamesFile};
use header::{count, database_line, engine_label, pdn_label, player_label, search_line};
use openings::{openings, select_pairs};
use progress::Progress;
use sides::{best_search, engines, search_name, side_search};
use summary::{forfeit_lines, in_progress, referee_line, thinking_line};

pub use args::MatchArgs;
pub(crate) use sides::host;

/// Runs the command.
pub fn run(args: MatchArgs) -> Result<()> {
    if args.tournament.is_some() || !args.more.is_empty() {
        return tournament::run(args);
    }
    if let Some(k) = args.anchor {
        return Err(Error::input(format!(
            "--anchor {k}: the anchor of a tournament's rating list; add --tournament \
             round-robin (or gauntlet) to rate the players"
        )));
    }
    let mut settings = settings(&args)?;
    let own_limits = [
        own_limits(&args, &settings, "--depth-a", args.depth_a.as_deref())?,
        own_limits(&args, &settings, "--depth-b", args.depth_b.as_deref())?,
    ];
    let sprt: Option<Sprt> = args.sprt.as_deref().map(str::parse).transpose()?;
    if let Some(out) = &args.out {
        check_output_path(out, "--out")?;
        check_output_path(&summary_path(out), "--out summary")?;
        check_output_path(&ballots_path(out), "--out ballots")?;
    }
    if let Some(pdn) = &args.pdn {
        check_output_path(pdn, "--pdn")?;
        if let Some(out) = &args.out {
            let outs = [out.clone(), summary_path(out), ballots_path(out)];
            if outs.iter().any(|o| same_file(pdn, o)) {
                return Err(Error::input(format!(
                    "--pdn {}: the same file as --out or its summary or ballots",
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
        .filter(|((_, arg), engine)| {
            *arg != "material" && *arg != CHAMPION && !matches!(engine, Some(Engine::Hub(_)))
        })
        .map(|((name, arg), _)| (name, arg.strip_prefix("cb:").unwrap_or(arg)))
        .chain([("--openings", args.openings.as_str())])
        .map(|(name, arg)| (name, Path::new(arg)))
        .collect();
    let summary = args.out.as_deref().map(summary_path);
    let ballots_file = args.out.as_deref().map(ballots_path);
    for (what, out) in [
        ("--out", args.out.as_deref()),
        ("--out summary", summary.as_deref()),
        ("--out ballots", ballots_file.as_deref()),
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
    let best = best_search(&settings, &engines);
    let [a, b] = [0, 1].map(|i| match (&files[i], &engines[i]) {
        (Some(file), _) => MatchSide::Ours(MatchPlayer {
            file,
            limits: own_limits[i],
            selective: side_search(file.search, modes[i], best),
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

    let side_label = |i: usize, arg: &str, side: MatchSide<'_>| match (&files[i], &names[i]) {
        (Some(file), _) => {
            let search = side.ours().map(|p| p.selective);
            format!(
                "{}, search {}",
                player_label(arg, file),
                search_name(search.flatten())
            )
        }
        (None, name) => engine_label(arg, name.as_deref().unwrap_or(""), &engines[i]),
    };
    let mut lines = vec![
        format!("A: {}", side_label(0, &args.a, a)),
        format!("B: {}", side_label(1, &args.b, b)),
        format!(
            "openings: {openings_label}, {} = {} (A plays each opening with Black, then White)",
            count(openings.len(), "pair"),
            count(2 * openings.len(), "game")
        ),
        search_line(&settings, own_limits, args.seed),
        database_line(&settings, &choice),
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
    if let Some(db) = settings.database {
        let starts: Vec<Position> = openings.iter().map(|o| o.position).collect();
        let counts = referee_match(db, &report.games, &starts);
        let pieces = settings.search.database_pieces;
        results.push(referee_line(
            &["A", "B"],
            &counts,
            pieces,
            settings.database_adjudication,
        ));
    }
    // From every row, those read back included, so a continued match ends with the same files.
    let ballots = BallotReport::of_match(&report.games);
    results.push(ballots.summary_line());
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
            let path = ballots_file.as_deref().expect("--out has its ballots file");
            write_output_atomically(path, ballots.csv_text(&["a", "b"]).as_bytes())?;
            if !args.quiet {
                note!(
                    "wrote {}, {} and {}",
                    o.csv.path.display(),
                    o.summary.display(),
                    path.display()
                );
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
