//! `match P1 P2 … --tournament round-robin|gauntlet`: every pairing of the schedule a
//! two-player match over the same openings, played one after another with the match's
//! machinery, then a rating list of every player.
//!
//! The files: `--out FILE.csv` holds every game, each row the pairing's match row behind
//! `pairing,a,b,` (the players' numbers, `a` the one with Black in each pair's first game);
//! `FILE.summary.txt` what was printed; `FILE.ratings.csv` the rating list; `FILE.ballots.csv`
//! every player's results on each ballot; `--pdn` every game with the players' names in its
//! `Black` and `White` tags and `Round` `pairing.pair.game`. As for a match, the CSV is the
//! checkpoint: a tournament stopped (Ctrl-C, a kill) is continued by the same command, to the
//! files an uninterrupted one writes.

use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

use checkers_engine::atomic_file::{
    check_output_path, refuse_overwriting, same_file, write_output_atomically,
};
use checkers_engine::board::Position;
use checkers_engine::error::{Error, Result};
use checkers_engine::game::TimeControl;
use checkers_engine::text::fingerprint;
use checkers_engine::weights_file::WeightsFile;
use checkers_engine::CHAMPION;
use checkers_harness::elo::RatedGame;
use checkers_harness::matchplay::{
    ballots_path, match_key, play_match_from, read_tournament_rows, referee_match, schedule,
    summary_path, tournament_csv_line, tournament_header_line, tournament_pdn, BallotReport,
    MatchGame, MatchPlayer, MatchSide, RefereeCount, Thinking, TournamentKind,
};
use checkers_harness::players::Engine;
use checkers_harness::run_folder::refuse_writing_runs;

use super::args::{settings, MatchArgs};
use super::files::{Appender, GamesFile};
use super::header::{count, database_line, engine_label, pdn_label, player_label, search_line};
use super::openings::{openings, select_pairs};
use super::progress::Progress;
use super::sides::OwnFlags;
use super::sides::{best_search, host, player_engine, player_options, search_name, side_search};
use super::standings::{points_line, rated_games, rating_lines, ratings, ratings_csv};
use super::summary::{forfeit_lines, in_progress, referee_line, thinking_line_of};
use crate::commands::output::{note, outln};
use crate::commands::{thread_pool, INTERRUPTED_STATUS};

/// Where the rating list of `--out FILE.csv` goes: `FILE.ratings.csv`.
fn ratings_path(csv_path: &Path) -> PathBuf {
    csv_path.with_extension("ratings.csv")
}

/// The flags a tournament refuses: what gives one side of a two-player match something of its
/// own.
fn refuse_two_player_flags(args: &MatchArgs) -> Result<()> {
    let given = [
        ("--depth-a", args.depth_a.is_some()),
        ("--depth-b", args.depth_b.is_some()),
        ("--search-a", args.search_a.is_some()),
        ("--search-b", args.search_b.is_some()),
        ("--sprt", args.sprt.is_some()),
    ];
    if let Some((flag, _)) = given.into_iter().find(|(_, given)| *given) {
        let why = if flag == "--sprt" {
            "a tournament plays every pairing over all its openings; an SPRT is for a match of \
             two players without --tournament"
        } else {
            "a side's own depth or search is for a match of two players without --tournament; \
             a tournament's weights players all search as --search-mode and the depths say"
        };
        return Err(Error::input(format!("{flag}: {why}")));
    }
    Ok(())
}

/// Runs a tournament of the players given.
pub(super) fn run(args: MatchArgs) -> Result<()> {
    let players: Vec<&str> = [args.a.as_str(), args.b.as_str()]
        .into_iter()
        .chain(args.more.iter().map(String::as_str))
        .collect();
    let n = players.len();
    let kind: TournamentKind = match &args.tournament {
        Some(kind) => kind.parse()?,
        None => {
            return Err(Error::input(format!(
                "{n} players: a match has two; more play a tournament: add --tournament \
                 round-robin or --tournament gauntlet"
            )))
        }
    };
    refuse_two_player_flags(&args)?;
    let anchor = match args.anchor {
        None => 0,
        Some(k) if (1..=n).contains(&k) => k - 1,
        Some(k) => {
            return Err(Error::input(format!(
                "--anchor {k}: expected a player's number, 1 to {n} in the order given"
            )))
        }
    };
    let pairings = schedule(kind, n)?;
    let mut settings = settings(&args)?;
    let ratings_file = args.out.as_deref().map(ratings_path);
    let ballots_file = args.out.as_deref().map(ballots_path);
    let summary = args.out.as_deref().map(summary_path);
    if let Some(out) = &args.out {
        check_output_path(out, "--out")?;
        check_output_path(&summary_path(out), "--out summary")?;
        check_output_path(&ratings_path(out), "--out ratings")?;
        check_output_path(&ballots_path(out), "--out ballots")?;
    }
    if let Some(pdn) = &args.pdn {
        check_output_path(pdn, "--pdn")?;
        let outs = [
            args.out.as_deref(),
            summary.as_deref(),
            ratings_file.as_deref(),
            ballots_file.as_deref(),
        ];
        if outs.into_iter().flatten().any(|o| same_file(pdn, o)) {
            return Err(Error::input(format!(
                "--pdn {}: the same file as --out or its summary, ratings or ballots",
                pdn.display()
            )));
        }
    }
    // Every player is checked before the first game: options, programs, weights.
    let host = host()?;
    let mut engines: Vec<Option<Engine>> = Vec::with_capacity(n);
    for (k, arg) in players.iter().enumerate() {
        let options = player_options(&args, k, n)?;
        let side = format!("player {}", k + 1);
        let engine = player_engine(&side, arg, &options, &OwnFlags::default(), &settings, &host)?;
        engines.push(engine);
    }
    let inputs: Vec<(String, &Path)> = (players.iter().enumerate())
        .filter(|(k, arg)| {
            **arg != "material" && **arg != CHAMPION && !matches!(engines[*k], Some(Engine::Hub(_)))
        })
        .map(|(k, arg)| {
            let path = arg.strip_prefix("cb:").unwrap_or(arg);
            (format!("player {}", k + 1), Path::new(path))
        })
        .chain([("--openings".to_string(), Path::new(args.openings.as_str()))])
        .collect();
    let inputs: Vec<(&str, &Path)> = inputs.iter().map(|(w, p)| (w.as_str(), *p)).collect();
    for (what, out) in [
        ("--out", args.out.as_deref()),
        ("--out summary", summary.as_deref()),
        ("--out ratings", ratings_file.as_deref()),
        ("--out ballots", ballots_file.as_deref()),
        ("--pdn", args.pdn.as_deref()),
    ] {
        if let Some(out) = out {
            refuse_overwriting(out, what, &inputs)?;
            let read: Vec<&Path> = inputs.iter().map(|(_, p)| *p).collect();
            refuse_writing_runs(out, what, &read)?;
        }
    }
    let mut files: Vec<Option<WeightsFile>> = Vec::with_capacity(n);
    for (arg, engine) in players.iter().zip(&engines) {
        files.push(match engine {
            None => Some(checkers_harness::run_folder::weights_from_arg(arg)?),
            Some(_) => None,
        });
    }
    // Each program is started once before the first game, so that one that cannot play is
    // refused then.
    let mut names: Vec<Option<String>> = vec![None; n];
    let mut identities = vec![String::new(); n];
    for (k, engine) in engines.iter().enumerate() {
        if let Some(engine) = engine {
            names[k] = Some(engine.start()?.name().to_string());
            identities[k] = engine.identity()?;
        }
    }
    let best = best_search(&settings, &engines);
    let sides: Vec<MatchSide<'_>> = (0..n)
        .map(|k| match (&files[k], &engines[k]) {
            (Some(file), _) => MatchSide::Ours(MatchPlayer {
                file,
                limits: None,
                selective: side_search(file.search, args.search_mode, best),
            }),
            (None, Some(engine)) => MatchSide::Engine(engine, &identities[k]),
            (None, None) => unreachable!("a player is a weights file or a program"),
        })
        .collect();
    let detail = engines.iter().any(Option::is_some);
    let (deck, deck_label) = openings(&args.openings, args.pairs, args.seed)?;
    let (openings, openings_label) = select_pairs(deck, &deck_label, &args, &settings)?;
    // Last of the checks: it may build the database, which takes minutes.
    let what: Vec<String> = (1..=n)
        .map(|k| format!("player {k}'s weights file"))
        .collect();
    let weights: Vec<(&str, &WeightsFile)> = (what.iter().zip(&files))
        .filter_map(|(what, file)| Some((what.as_str(), file.as_ref()?)))
        .collect();
    let (database, choice) = args.database.open(&weights)?;
    settings.database = database;
    settings.search.database_pieces = choice.pieces;
    // The tournament's key: its kind and the key of every pairing's match, in order.
    let mut key_text = format!("tournament {}\n", kind.name());
    for &(i, j) in &pairings {
        key_text.push_str(&match_key(
            sides[i], sides[j], &openings, &settings, args.seed, None,
        ));
        key_text.push('\n');
    }
    let key = fingerprint(key_text.as_bytes());

    let labels: Vec<String> = (0..n)
        .map(|k| match &names[k] {
            Some(name) => name.clone(),
            None => pdn_label(players[k], None),
        })
        .collect();
    let mut lines = vec![format!(
        "tournament: {} of {} players, {}",
        kind.name(),
        n,
        count(pairings.len(), "pairing")
    )];
    for k in 0..n {
        lines.push(match (&files[k], &names[k]) {
            (Some(file), _) => {
                let selective = sides[k].ours().and_then(|p| p.selective);
                format!(
                    "{}: {}, search {}",
                    k + 1,
                    player_label(players[k], file),
                    search_name(selective)
                )
            }
            (None, name) => format!(
                "{}: {}",
                k + 1,
                engine_label(players[k], name.as_deref().unwrap_or(""), &engines[k])
            ),
        });
    }
    lines.extend([
        format!(
            "openings: {openings_label}, {} = {} a pairing (its first player plays each opening \
             with Black, then White)",
            count(openings.len(), "pair"),
            count(2 * openings.len(), "game")
        ),
        search_line(&settings, [None, None], args.seed),
        database_line(&settings, &choice),
    ]);
    let mut out = match args.out.as_deref() {
        Some(path) => {
            let first = tournament_header_line(detail);
            let origin = path.display().to_string();
            Some(GamesFile::open_with(
                path,
                &key,
                &lines,
                "tournament",
                &first,
                |bytes| {
                    let rows = read_tournament_rows(bytes, &origin, &pairings, &openings, detail)?;
                    Ok((rows.complete_len, rows.games))
                },
            )?)
        }
        None => None,
    };
    let previous: Vec<Vec<MatchGame>> = (out.as_mut())
        .map(|o| std::mem::take(&mut o.previous))
        .unwrap_or_default();
    // As for a match, a continued tournament's PDN is rebuilt from the CSV's games.
    let mut pdn = (args.pdn.as_deref())
        .map(|path| {
            let text: String = (previous.iter().zip(&pairings).enumerate())
                .map(|(p, (games, &(i, j)))| {
                    tournament_pdn(p, games, &openings, &labels[i], &labels[j])
                })
                .collect();
            Appender::create(path, text.as_bytes())
        })
        .transpose()?;
    let games_before: usize = previous.iter().map(Vec::len).sum();
    if !args.quiet && games_before > 0 {
        note!(
            "continuing {} after {} of {}",
            args.out.as_deref().unwrap_or(Path::new("")).display(),
            count(games_before, "game"),
            2 * openings.len() * pairings.len()
        );
    }
    for line in &lines {
        outln!("{line}")?;
    }

    let stop = crate::commands::interrupt::stop_flag();
    let started = Instant::now();
    let mut rated: Vec<RatedGame> = Vec::new();
    let mut pairwise: Vec<String> = Vec::new();
    let mut results: Vec<String> = Vec::new();
    // Each player's moves as the endgame database judged them, over all its pairings.
    let mut referee = vec![RefereeCount::default(); n];
    // Every pairing's games on each ballot, those read back from the CSV included.
    let mut ballots = BallotReport::new(n);
    let starts: Vec<Position> = openings.iter().map(|o| o.position).collect();
    let mut interrupted = false;
    let mut played_now = 0;
    let mut thinking = vec![Thinking::default(); n];
    let mut play = || -> Result<()> {
        for (p, &(i, j)) in pairings.iter().enumerate() {
            let before = previous.get(p).map_or(&[][..], Vec::as_slice);
            if !args.quiet && before.len() < 2 * openings.len() {
                note!(
                    "pairing {}/{}: {} {} against {} {}",
                    p + 1,
                    pairings.len(),
                    i + 1,
                    labels[i],
                    j + 1,
                    labels[j]
                );
            }
            let mut progress = Progress::new(args.quiet, before.len() / 2, openings.len(), None);
            let report = play_match_from(
                sides[i],
                sides[j],
                &openings,
                &settings,
                args.seed,
                None,
                before,
                Some(&stop),
                |r| {
                    progress.pair(r);
                    thinking[i].add(r.thinking[0]);
                    thinking[j].add(r.thinking[1]);
                    let mut saved = true;
                    if let Some(o) = out.as_mut() {
                        let rows: String = (r.games.iter())
                            .map(|g| tournament_csv_line(p, (i, j), g, detail))
                            .collect();
                        saved &= o.csv.append(&rows);
                    }
                    if let Some(f) = pdn.as_mut() {
                        let text = tournament_pdn(p, &r.games, &openings, &labels[i], &labels[j]);
                        saved &= f.append(&text);
                    }
                    if !saved {
                        stop.store(true, Ordering::SeqCst);
                    }
                },
            );
            progress.finish();
            played_now += report.games.len() - before.len();
            rated.extend(rated_games((i, j), &report.games));
            ballots.add(&report.games, (i, j));
            if let Some(db) = settings.database {
                let [a, b] = referee_match(db, &report.games, &starts);
                referee[i].add(&a);
                referee[j].add(&b);
            }
            let name = |k: usize| format!("{} {}", k + 1, labels[k]);
            results.push(String::new());
            results.push(format!(
                "pairing {} of {}: A {}, B {}",
                p + 1,
                pairings.len(),
                name(i),
                name(j)
            ));
            interrupted = report.pairs_played < report.pairs_total;
            let lines = if interrupted {
                report.interrupted_lines()
            } else {
                report.result_lines()
            };
            results.extend(lines);
            results.extend(forfeit_lines(&report.games));
            pairwise.push(format!(
                "{} - {}: {}; {}",
                name(i),
                name(j),
                report.tally.results.line(),
                report.estimate.summary_line()
            ));
            if interrupted {
                break;
            }
            if !args.quiet {
                note!("standings: {}", points_line(&labels, &rated));
            }
        }
        Ok(())
    };
    match args.threads {
        Some(t) => thread_pool(t)?.install(play)?,
        None => play()?,
    }
    let failed = out.as_mut().and_then(|o| o.csv.error.take());
    if let Some(err) = failed.or_else(|| pdn.as_mut().and_then(|f| f.error.take())) {
        return Err(err);
    }
    // As in a match: a timed tournament's result, a note beside one at a depth or a budget.
    let numbers: Vec<String> = (1..=n).map(|k| k.to_string()).collect();
    let thinking = thinking_line_of(&numbers, &thinking, played_now);
    let timed = matches!(
        settings.time,
        Some(TimeControl::MoveTime(_) | TimeControl::Clock { .. })
    );
    let list = ratings(&labels, anchor, &rated);
    results.push(String::new());
    if interrupted {
        results.push(format!(
            "interrupted in pairing {} of {}; the rating list of the games so far:",
            pairwise.len(),
            pairings.len()
        ));
    }
    results.extend(rating_lines(&list, &labels, anchor));
    results.push(String::new());
    results.push("pairings (results for the first player):".to_string());
    results.extend(pairwise.iter().map(|l| format!("  {l}")));
    if settings.database.is_some() {
        results.push(referee_line(
            &numbers,
            &referee,
            settings.search.database_pieces,
            settings.database_adjudication,
        ));
    }
    results.push(ballots.summary_line());
    if timed {
        results.extend(thinking.clone());
    }
    for line in &results {
        outln!("{line}")?;
    }
    lines.extend(results);
    if let (false, false, Some(line)) = (timed, args.quiet, thinking) {
        note!("{line}");
    }
    if !args.quiet {
        note!(
            "played {} in {:.1} s",
            count(played_now, "game"),
            started.elapsed().as_secs_f64()
        );
    }
    let summary = lines.join("\n") + "\n";
    if let Some(o) = &out {
        if interrupted {
            o.write_summary(&in_progress(&key, &summary))?;
        } else {
            o.write_summary(&summary)?;
            let path = ratings_file.as_deref().expect("--out has its ratings file");
            write_output_atomically(path, ratings_csv(&list, &labels).as_bytes())?;
            let ballots_path = ballots_file.as_deref().expect("--out has its ballots file");
            let player_labels: Vec<String> = (1..=n).map(|k| format!("p{k}")).collect();
            let text = ballots.csv_text(&player_labels);
            write_output_atomically(ballots_path, text.as_bytes())?;
            if !args.quiet {
                note!(
                    "wrote {}, {}, {} and {}",
                    o.csv.path.display(),
                    o.summary.display(),
                    path.display(),
                    ballots_path.display()
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
