//! `match`: paired openings, determinism across seeds and thread counts, SPRT stops, the
//! command's output files and its bad-input errors.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::support::bin_without_databases as bin;
use checkers_engine::board::{Color, Position};
use checkers_engine::eval::{WeightPair, Weights};
use checkers_engine::game::{
    parse_openings, read_pdn, three_move_deck, GameResult, GameScore, GameSettings, Opening,
    SearchParams, TieBreak,
};
use checkers_engine::weights_file::WeightsFile;
use checkers_harness::elo::{Sprt, SprtVerdict};
use checkers_harness::matchplay::{
    play_match, play_match_from, read_match_rows, MatchGame, MatchReport, PairReport,
};

/// Four openings: in the first two material-vs-material at depth 2..4 is decisive (White
/// wins 10-14 24-19 6-10, Black wins 9-13 21-17 5-9), the other two are drawn. The decisive
/// ones make the "exactly 50%" check mean something: a pair wrongly played with the same
/// colours twice would score 0 or 2.
const FOUR_OPENINGS: &str = "# two decisive, two drawn\n\
                             10-14 24-19 6-10\n\
                             9-13 21-17 5-9\n\
                             9-13 21-17 6-9\n\
                             9-13 22-18 6-9\n";

fn four_openings() -> Vec<Opening> {
    parse_openings(FOUR_OPENINGS, "four.txt").unwrap()
}

fn shallow() -> GameSettings {
    GameSettings {
        search: SearchParams {
            min_depth: 2,
            max_depth: 4,
            ..SearchParams::default()
        },
        ..GameSettings::default()
    }
}

/// Negative piece values: an engine that wants to give its pieces away.
fn bad_weights() -> WeightsFile {
    let w = Weights([-100, -150, 0, 0, 0, 0, 0, 0, 0, 0]);
    WeightsFile::new(WeightPair {
        opening: w,
        endgame: w,
    })
}

/// Material plus a taste for mobility and advanced men: different enough from `material` to
/// give a mixed score.
fn mobile_weights() -> WeightsFile {
    let w = Weights([100, 150, 0, 0, 5, 10, -3, 0, 4, 0]);
    let mut f = WeightsFile::new(WeightPair {
        opening: w,
        endgame: Weights::material(),
    });
    f.endgame_pieces = 8;
    f
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn material_against_itself_scores_exactly_half_with_colours_paired() {
    let openings = four_openings();
    let m = WeightsFile::material();
    let mut seen: Vec<PairReport> = Vec::new();
    let report = play_match(&m, &m, &openings, &shallow(), 11, None, |p| {
        seen.push(p.clone())
    });
    assert_eq!(report.pairs_total, 4);
    assert_eq!(report.pairs_played, 4);
    assert_eq!(report.games.len(), 8);
    let t = report.tally.results;
    assert_eq!(t.games(), 2 * openings.len() as u64);
    assert_eq!(t.score(), Some(0.5));
    assert_eq!((t.wins, t.draws, t.losses), (2, 4, 2));
    // Each pair is the same game twice with colours swapped: a 1-point pair (DD or WL).
    assert_eq!(report.tally.pentanomial.counts, [0, 0, 4, 0, 0]);
    assert_eq!(report.estimate.elo, 0.0);
    assert_eq!(report.sprt, None);
    for (i, pair) in report.games.chunks(2).enumerate() {
        let (g1, g2) = (&pair[0], &pair[1]);
        assert_eq!((g1.pair, g1.game, g1.a_color), (i, 1, Color::Black));
        assert_eq!((g2.pair, g2.game, g2.a_color), (i, 2, Color::White));
        assert_eq!(g1.opening, openings[i].name);
        assert_eq!(g2.opening, openings[i].name);
        assert_eq!(
            (g1.record.result, g1.record.plies, g1.record.reason),
            (g2.record.result, g2.record.plies, g2.record.reason)
        );
        assert_eq!(
            g1.a_score().half_points() + g2.a_score().half_points(),
            2,
            "pair {i}"
        );
    }
    assert_eq!(report.games[0].record.result, GameResult::WhiteWin);
    assert_eq!(report.games[0].a_score(), GameScore::Loss);
    assert_eq!(report.games[2].record.result, GameResult::BlackWin);
    assert_eq!(report.games[2].a_score(), GameScore::Win);

    // on_pair saw every pair once, in order, with running totals.
    assert_eq!(seen.len(), 4);
    for (i, p) in seen.iter().enumerate() {
        assert_eq!(p.pairs_done, i + 1);
        assert_eq!(p.pairs_total, 4);
        assert_eq!(p.games[0], report.games[2 * i]);
        assert_eq!(p.tally.pentanomial.pairs(), i as u64 + 1);
        assert_eq!(p.sprt, None);
    }
    assert_eq!(seen[3].tally, report.tally);

    // Same seed, same games.
    let again = play_match(&m, &m, &openings, &shallow(), 11, None, |_| {});
    assert_eq!(again, report);
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let deck: Vec<Opening> = three_move_deck().into_iter().take(12).collect();
    let (a, b) = (mobile_weights(), WeightsFile::material());
    let run = |threads: usize, settings: GameSettings, seed: u64| -> MatchReport {
        in_pool(threads, || {
            play_match(&a, &b, &deck, &settings, seed, None, |_| {})
        })
    };
    let one = run(1, shallow(), 5);
    assert_eq!(one.games.len(), 24);
    // A mixed result, not a trivial one.
    assert!(
        one.tally.results.wins > 0 && one.tally.results.losses + one.tally.results.draws > 0,
        "{:?}",
        one.tally
    );
    assert_eq!(run(2, shallow(), 5), one);
    assert_eq!(run(3, shallow(), 5), one);

    // Random tie-breaks draw from per-game streams: still independent of threads, and the
    // seed matters.
    let random = GameSettings {
        search: SearchParams {
            tie_break: TieBreak::Random,
            ..shallow().search
        },
        ..shallow()
    };
    let r1 = run(1, random, 5);
    assert_eq!(run(2, random, 5), r1);
    let moves = |r: &MatchReport| r.games.iter().map(|g| g.record.plies).collect::<Vec<_>>();
    assert!(
        (6..9).any(|s| moves(&run(2, random, s)) != moves(&r1)),
        "random tie-breaks ignore the seed"
    );
}

#[test]
fn sprt_stops_a_lopsided_match_early_at_the_same_pair_for_any_thread_count() {
    let deck = three_move_deck();
    let (a, b) = (WeightsFile::material(), bad_weights());
    let sprt: Sprt = "0,200".parse().unwrap();
    let run = |threads: usize| {
        in_pool(threads, || {
            let mut calls = Vec::new();
            let report = play_match(&a, &b, &deck, &shallow(), 1, Some(sprt), |p| {
                calls.push((p.pairs_done, p.sprt))
            });
            (report, calls)
        })
    };
    let (report, calls) = run(1);
    let outcome = report.sprt.unwrap();
    assert_eq!(outcome.verdict, SprtVerdict::AcceptH1);
    assert!(outcome.llr >= sprt.upper_bound());
    assert!(
        report.pairs_played < 20 && report.pairs_played < report.pairs_total,
        "played {} pairs",
        report.pairs_played
    );
    assert_eq!(report.pairs_total, 156);
    assert_eq!(report.games.len(), 2 * report.pairs_played);
    assert_eq!(report.tally.pentanomial.pairs(), report.pairs_played as u64);
    // The verdict turned final at the last pair applied, not before.
    assert_eq!(calls.len(), report.pairs_played);
    assert!(calls[..calls.len() - 1]
        .iter()
        .all(|&(_, v)| v == Some(SprtVerdict::Continue)));
    assert_eq!(calls.last().unwrap().1, Some(SprtVerdict::AcceptH1));
    let lines = report.result_lines();
    assert!(
        lines.iter().any(|l| l
            == &format!(
                "SPRT: H1 accepted, stopped early after {} of 156 pairs",
                report.pairs_played
            )),
        "{lines:#?}"
    );

    let (two, calls2) = run(2);
    assert_eq!(two, report);
    assert_eq!(calls2, calls);
}

#[test]
fn an_sprt_without_verdict_says_the_openings_ran_out() {
    let m = WeightsFile::material();
    let report = play_match(
        &m,
        &m,
        &four_openings(),
        &shallow(),
        1,
        Some("0,10".parse().unwrap()),
        |_| {},
    );
    assert_eq!(report.pairs_played, 4);
    assert_eq!(report.sprt.unwrap().verdict, SprtVerdict::Continue);
    assert_eq!(
        report.result_lines().last().unwrap(),
        "SPRT: no verdict; the openings ran out after 4 pairs"
    );
}

// ----------------------------------------------------------------------------------------------
// The binary.
// ----------------------------------------------------------------------------------------------

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// Runs `match` and returns (stdout, per-game CSV, summary).
fn match_cli(args: &[&str], out: &Path) -> (String, String, String) {
    let assert = bin()
        .arg("match")
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("--quiet")
        .assert()
        .success();
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(
        assert.get_output().stderr.is_empty(),
        "--quiet wrote to stderr"
    );
    let csv = std::fs::read_to_string(out).unwrap();
    let summary = std::fs::read_to_string(out.with_extension("summary.txt")).unwrap();
    (stdout, csv, summary)
}

#[test]
fn cli_match_is_deterministic_and_thread_independent() {
    let dir = tempfile::tempdir().unwrap();
    let openings = write(dir.path(), "four.txt", FOUR_OPENINGS);
    let args = [
        "material",
        "material",
        "--openings",
        &openings,
        "--min-depth",
        "2",
        "--max-depth",
        "4",
        "--seed",
        "3",
    ];
    let out1 = dir.path().join("one.csv");
    let (stdout, csv, summary) = match_cli(&[&args[..], &["--threads", "1"]].concat(), &out1);
    assert!(
        stdout.contains("results for A: W 2  D 4  L 2  score 4.0/8 (50.0%)\n"),
        "{stdout}"
    );
    assert!(stdout.contains("pairs: LL 0, LD 0, DD/WL 4, WD 0, WW 0\n"));
    // Four identical pairs: no "± 0.0", the estimate and why there is no interval.
    assert!(
        stdout.contains("Elo +0.0 (too few games for an interval: 4 pairs, 20 needed)\n"),
        "{stdout}"
    );
    assert!(stdout.starts_with("A: material"), "{stdout}");
    assert!(stdout.contains("depth 2..4"), "{stdout}");
    // The summary holds exactly what was printed.
    assert_eq!(summary, stdout);

    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 9);
    assert_eq!(
        rows[0],
        "pair,game,opening,a_color,result,a_score,plies,reason,moves"
    );
    assert!(
        rows[1].starts_with("1,1,10-14 24-19 6-10,black,white_win,0,"),
        "{}",
        rows[1]
    );
    assert!(
        rows[2].starts_with("1,2,10-14 24-19 6-10,white,white_win,1,"),
        "{}",
        rows[2]
    );
    assert!(
        rows[8].starts_with("4,2,9-13 22-18 6-9,white,draw,0.5,"),
        "{}",
        rows[8]
    );
    // No temporary files left next to the outputs.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["four.txt", "one.ballots.csv", "one.csv", "one.summary.txt"]
    );
    // A row per ballot played: the first won by White with either player, the second by
    // Black, the last two drawn; the summary says which are unbalanced.
    let ballots = std::fs::read_to_string(dir.path().join("one.ballots.csv")).unwrap();
    assert_eq!(
        ballots,
        "ballot,opening,games,a_wins,a_draws,a_losses,b_wins,b_draws,b_losses,\
         black_wins,draws,white_wins,unbalanced\n\
         1,10-14 24-19 6-10,2,1,0,1,1,0,1,0,0,2,white\n\
         2,9-13 21-17 5-9,2,1,0,1,1,0,1,2,0,0,black\n\
         3,9-13 21-17 6-9,2,0,2,0,0,2,0,0,2,0,\n\
         4,9-13 22-18 6-9,2,0,2,0,0,2,0,0,2,0,\n"
    );
    assert!(
        stdout.contains("\nballots: 4, unbalanced 2 (black 1, white 1): 1, 2\n"),
        "{stdout}"
    );

    let out2 = dir.path().join("two.csv");
    let again = match_cli(&[&args[..], &["--threads", "2"]].concat(), &out2);
    assert_eq!(again, (stdout.clone(), csv.clone(), summary.clone()));
    let out3 = dir.path().join("three.csv");
    assert_eq!(match_cli(&args, &out3), (stdout, csv, summary));
}

#[test]
fn cli_sprt_reports_an_early_stop() {
    let dir = tempfile::tempdir().unwrap();
    let bad = write(
        dir.path(),
        "bad.toml",
        &checkers_harness::export::ExportFormat::Toml.render(&bad_weights()),
    );
    let out = dir.path().join("g.csv");
    let (stdout, csv, _) = match_cli(
        &[
            "material",
            &bad,
            "--min-depth",
            "2",
            "--max-depth",
            "4",
            "--sprt",
            "0,200",
        ],
        &out,
    );
    assert!(stdout.contains("H1 accepted\n"), "{stdout}");
    let line = stdout
        .lines()
        .find(|l| l.starts_with("SPRT: H1 accepted, stopped early after "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let played: usize = line
        .trim_start_matches("SPRT: H1 accepted, stopped early after ")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(line.ends_with(" of 156 pairs"), "{line}");
    assert_eq!(csv.lines().count(), 1 + 2 * played);
    assert!(
        csv.lines().skip(1).all(|r| r.contains(",1,")),
        "A lost or drew a game:\n{csv}"
    );
}

#[test]
fn cli_progress_lines_go_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let openings = write(dir.path(), "four.txt", FOUR_OPENINGS);
    let assert = bin()
        .args(["match", "material", "material", "--openings", &openings])
        .args(["--min-depth", "2", "--max-depth", "4"])
        .assert()
        .success();
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("pairs 4/4: W 2  D 4  L 2  score 4.0/8 (50.0%)"),
        "{stderr}"
    );
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(!stdout.contains("pairs 4/4"));
}

/// Runs `match` expecting exit status 2 and returns stderr.
fn bad_input(args: &[&str]) -> String {
    let assert = bin().arg("match").args(args).assert().code(2);
    assert!(assert.get_output().stdout.is_empty());
    String::from_utf8(assert.get_output().stderr.clone()).unwrap()
}

#[test]
fn cli_bad_inputs_exit_2_naming_the_argument() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let four = write(d, "four.txt", FOUR_OPENINGS);
    let quick = ["--openings", four.as_str()];
    let with = |extra: &[&str]| -> String {
        bad_input(&[&["material", "material"][..], &quick[..], extra].concat())
    };

    let missing = d.join("nope.json");
    let missing = missing.to_str().unwrap();
    let msg = bad_input(&["material", missing]);
    assert!(msg.contains(missing) && msg.contains("not found"), "{msg}");

    let msg = with(&["--sprt", "5"]);
    assert!(msg.contains("--sprt") && msg.contains("ELO0,ELO1"), "{msg}");
    let msg = with(&["--sprt", "10,0"]);
    assert!(msg.contains("--sprt: ELO0 must be less than ELO1"), "{msg}");

    let bad_deck = write(d, "bad.txt", "9-13 22-18\n9-13 22-19\n");
    let msg = bad_input(&["material", "material", "--openings", &bad_deck]);
    assert!(msg.contains(&bad_deck) && msg.contains("line 2"), "{msg}");
    let msg = bad_input(&["material", "material", "--openings", "3move"]);
    assert!(
        msg.contains("\"3move\"") && msg.contains("did you mean `3-move`"),
        "{msg}"
    );
    let msg = bad_input(&["material", "material", "--openings", "no-such-deck"]);
    assert!(
        msg.contains("no-such-deck") && !msg.contains("did you mean"),
        "{msg}"
    );

    let msg = with(&["--min-depth", "5", "--max-depth", "3"]);
    assert!(
        msg.contains("--min-depth 5") && msg.contains("--max-depth 3"),
        "{msg}"
    );
    let msg = with(&["--min-depth", "0"]);
    assert!(msg.contains("--min-depth"), "{msg}");
    let msg = with(&["--max-depth", "99"]);
    assert!(msg.contains("--max-depth 99"), "{msg}");
    let msg = with(&["--threads", "0"]);
    assert!(msg.contains("--threads"), "{msg}");
    let msg = with(&["--tie-break", "best"]);
    assert!(msg.contains("--tie-break"), "{msg}");
    let msg = with(&["--max-plies", "0"]);
    assert!(msg.contains("--max-plies"), "{msg}");
    let msg = with(&["--threads", "two"]);
    assert!(msg.contains("--threads"), "{msg}");

    let nowhere = d.join("no-such-folder").join("g.csv");
    let msg = with(&["--out", nowhere.to_str().unwrap()]);
    assert!(
        msg.contains("--out") && msg.contains("does not exist"),
        "{msg}"
    );

    // Weights beyond ±10000 could overflow the evaluation: refused, naming file and item.
    let mut huge = WeightsFile::material();
    huge.weights.opening.0[8] = 10_001;
    let huge_path = write(d, "huge.json", &huge.to_json());
    let msg = bad_input(&[&huge_path, "material"]);
    assert!(
        msg.contains(&huge_path) && msg.contains("`opening` item 9 (`mobility`) is 10001"),
        "{msg}"
    );
    let msg = bad_input(&["material"]);
    assert!(msg.contains("<B>"), "{msg}");

    // Nothing written by the failed runs.
    let mut names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["bad.txt", "four.txt", "huge.json"]);
}

// ----------------------------------------------------------------------------------------------
// Stopping and continuing.
// ----------------------------------------------------------------------------------------------

#[test]
fn a_match_continued_from_its_first_pairs_gives_the_whole_report() {
    let openings = four_openings();
    let (a, b) = (mobile_weights(), WeightsFile::material());
    let whole = play_match(&a, &b, &openings, &shallow(), 2, None, |_| {});
    for k in 0..=4 {
        let mut seen = Vec::new();
        let report = play_match_from(
            &a,
            &b,
            &openings,
            &shallow(),
            2,
            None,
            &whole.games[..2 * k],
            None,
            |p| seen.push(p.pairs_done),
        );
        assert_eq!(report, whole, "continued after {k} pairs");
        // on_pair sees only the pairs played now.
        assert_eq!(seen, (k + 1..=4).collect::<Vec<_>>());
    }
}

#[test]
fn a_stop_request_ends_the_match_after_the_pairs_in_flight() {
    let openings = four_openings();
    let m = WeightsFile::material();
    let stop = AtomicBool::new(false);
    let report = in_pool(1, || {
        play_match_from(
            &m,
            &m,
            &openings,
            &shallow(),
            1,
            Some("0,10".parse().unwrap()),
            &[],
            Some(&stop),
            |p| {
                if p.pairs_done == 2 {
                    stop.store(true, Ordering::SeqCst);
                }
            },
        )
    });
    assert_eq!((report.pairs_played, report.pairs_total), (2, 4));
    assert_eq!(report.games.len(), 4);
    let lines = report.interrupted_lines();
    assert_eq!(lines.last().unwrap(), "interrupted after 2 of 4 pairs");
    assert!(
        lines.iter().all(|l| !l.contains("openings ran out")),
        "{lines:?}"
    );
    let whole = play_match(&m, &m, &openings, &shallow(), 1, None, |_| {});
    assert_eq!(report.games[..], whole.games[..4]);
}

#[test]
fn games_csv_rows_read_back_to_whole_pairs() {
    let openings = four_openings();
    let m = WeightsFile::material();
    let report = play_match(&m, &m, &openings, &shallow(), 1, None, |_| {});
    let text = report.csv_text().unwrap();
    let rows = read_match_rows(text.as_bytes(), "g.csv", &openings).unwrap();
    // The file keeps the moves, not the searches' scores.
    let mut played = report.games.clone();
    played.iter_mut().for_each(|g| g.record.scores.clear());
    assert_eq!(rows.games, played);
    assert_eq!(rows.complete_len, text.len());

    // What a killed writer leaves: a row cut short, or a pair's first game alone.
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let three_pairs: String = lines[..7].concat();
    for tail in [&lines[7][..10], lines[7]] {
        let damaged = format!("{three_pairs}{tail}");
        let rows = read_match_rows(damaged.as_bytes(), "g.csv", &openings).unwrap();
        assert_eq!(rows.games, played[..6]);
        assert_eq!(rows.complete_len, three_pairs.len());
    }

    // Rows that this match would not have written are refused with their line.
    let message = |text: &str| match read_match_rows(text.as_bytes(), "g.csv", &openings) {
        Err(checkers_engine::error::Error::Input(m)) => m,
        other => panic!("expected bad input, got {other:?}"),
    };
    let swapped = format!("{}{}{}", lines[0], lines[2], lines[1]);
    assert!(message(&swapped).starts_with("g.csv line 2: expected pair 1 game 1"));
    let other_deck = text.replace("9-13 21-17 5-9", "9-13 21-17 5-8");
    assert!(message(&other_deck).contains("g.csv line 4: "));
    let garbage = format!("{}{}", lines[0], "x".repeat(500) + "\n");
    let m = message(&garbage);
    assert!(
        m.contains("line 2") && m.contains('…') && m.len() < 200,
        "{m}"
    );
    assert!(message("a,b\n").contains("line 1"));
    let five = format!("{text}{}", lines[1]);
    assert!(message(&five).contains("after the last of the 4 openings"));
    // A move that is not legal from the pair's opening, or fewer moves than plies.
    let first = lines[1].trim_end();
    let (row, moves) = first.rsplit_once(',').unwrap();
    let illegal = format!("{}{row},{}\n", lines[0], moves.replacen("-", "x", 1));
    assert!(
        message(&illegal).contains("line 2: moves: move 1"),
        "{}",
        message(&illegal)
    );
    let short = moves.rsplit_once(' ').unwrap().0;
    let short = format!("{}{row},{short}\n", lines[0]);
    assert!(
        message(&short).contains("line 2: plies "),
        "{}",
        message(&short)
    );
    // A file of the version before the moves column: refused, saying why.
    let old: String = text
        .lines()
        .map(|l| format!("{}\n", l.rsplit_once(',').unwrap().0))
        .collect();
    let m = message(&old);
    assert!(
        m.contains("earlier version") && m.contains("`moves`"),
        "{m}"
    );
}

/// The match of the continuation tests through the binary: the whole 3-move deck, shallow.
fn deck_match(out: &Path, extra: &[&str]) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("checkers-tuner"));
    cmd.env(
        "CHECKERS_TUNER_CACHE",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/no-egdb"),
    );
    cmd.args(["match", "material", "material", "--min-depth", "4"])
        .args(["--max-depth", "8", "--threads", "1", "--quiet", "--out"])
        .arg(out)
        .args(extra);
    cmd
}

fn run_ok(mut cmd: std::process::Command) -> String {
    let output = cmd.output().unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

#[cfg(unix)]
#[test]
fn cli_ctrl_c_keeps_the_games_and_the_same_command_continues_to_the_same_files() {
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let whole = d.join("whole.csv");
    let pdn = |name: &str| d.join(name).to_str().unwrap().to_string();
    let whole_stdout = run_ok(deck_match(&whole, &["--pdn", &pdn("whole.pdn")]));
    let whole_csv = std::fs::read(&whole).unwrap();
    let whole_summary = std::fs::read(d.join("whole.summary.txt")).unwrap();
    let whole_ballots = std::fs::read(d.join("whole.ballots.csv")).unwrap();
    assert_eq!(
        whole_ballots.iter().filter(|&&b| b == b'\n').count(),
        1 + 156
    );
    let whole_pdn = std::fs::read_to_string(d.join("whole.pdn")).unwrap();
    assert_eq!(read_pdn(&whole_pdn).unwrap().len(), 2 * 156);

    // Started with SIGINT ignored, as `nohup` or a script's background job would: Ctrl-C
    // (SIGINT) must still stop it.
    let part = d.join("part.csv");
    let mut cmd = deck_match(&part, &["--pdn", &pdn("part.pdn")]);
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_IGN);
            Ok(())
        });
    }
    let child = cmd.spawn().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::fs::read_to_string(&part).map_or(0, |t| t.lines().count()) < 5
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    // SAFETY: signals the child we started.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{stdout}\n{stderr}");
    assert!(stdout.contains("results for A: "), "{stdout}");
    let played = stdout
        .lines()
        .find_map(|l| l.strip_prefix("interrupted after "))
        .and_then(|l| l.strip_suffix(" of 156 pairs"))
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!((2..156).contains(&played), "{played}");
    assert!(
        stderr.contains("run the same command again to continue"),
        "{stderr}"
    );
    // The games so far are in the file, whole pairs, exactly as the whole match wrote them.
    let part_csv = std::fs::read(&part).unwrap();
    let part_lines = part_csv.iter().filter(|&&b| b == b'\n').count();
    assert_eq!(part_lines, 1 + 2 * played);
    assert!(whole_csv.starts_with(&part_csv));
    // So are they in the PDN.
    let part_pdn = std::fs::read_to_string(d.join("part.pdn")).unwrap();
    assert_eq!(read_pdn(&part_pdn).unwrap().len(), 2 * played);
    assert!(whole_pdn.starts_with(&part_pdn));
    let part_summary = std::fs::read_to_string(d.join("part.summary.txt")).unwrap();
    assert!(
        part_summary.starts_with("# match in progress"),
        "{part_summary}"
    );
    // The ballots are counted once every game is in.
    assert!(!d.join("part.ballots.csv").exists());

    // Keep copies of the interrupted state for the checks below.
    for (from, to) in [
        ("part.csv", "other.csv"),
        ("part.summary.txt", "other.summary.txt"),
    ] {
        std::fs::copy(d.join(from), d.join(to)).unwrap();
    }
    for (from, to) in [
        ("part.csv", "cut.csv"),
        ("part.summary.txt", "cut.summary.txt"),
    ] {
        std::fs::copy(d.join(from), d.join(to)).unwrap();
    }

    // The same command again continues to the very same files and output, the PDN included
    // even though it lost its last game and gained some garbage meanwhile.
    let mut damaged = part_pdn[..part_pdn.len() - 40].to_string();
    damaged.push_str("[Event \"from a killed writer");
    std::fs::write(d.join("part.pdn"), damaged).unwrap();
    let again = run_ok(deck_match(&part, &["--pdn", &pdn("part.pdn")]));
    assert_eq!(again, whole_stdout);
    assert!(
        std::fs::read(&part).unwrap() == whole_csv,
        "the games differ"
    );
    assert_eq!(
        std::fs::read(d.join("part.summary.txt")).unwrap(),
        whole_summary
    );
    assert!(std::fs::read(d.join("part.ballots.csv")).unwrap() == whole_ballots);
    assert!(
        std::fs::read_to_string(d.join("part.pdn")).unwrap() == whole_pdn,
        "the PDN differs"
    );

    // Other settings are refused, and the unfinished files stay as they were.
    let other = d.join("other.csv");
    let before = std::fs::read(&other).unwrap();
    let output = deck_match(&other, &["--seed", "2"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with("Error: --out ")
            && stderr.contains("other players, openings or settings"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&other).unwrap(), before);
    assert!(std::fs::read_to_string(d.join("other.summary.txt"))
        .unwrap()
        .starts_with("# match in progress"));

    // A row cut short by a kill is dropped and played again.
    let cut = d.join("cut.csv");
    let mut text = std::fs::read(&cut).unwrap();
    text.extend_from_slice(&whole_csv[text.len()..text.len() + 30]);
    std::fs::write(&cut, &text).unwrap();
    // Continued with a PDN this time, though the first part was played without one: it holds
    // every game all the same.
    run_ok(deck_match(&cut, &["--pdn", &pdn("cut.pdn")]));
    assert!(std::fs::read(&cut).unwrap() == whole_csv);
    assert!(std::fs::read_to_string(d.join("cut.pdn")).unwrap() == whole_pdn);
    assert!(std::fs::read(d.join("cut.ballots.csv")).unwrap() == whole_ballots);
}

#[test]
fn pairs_cut_the_deck_and_repeats_need_random_ties_and_differ() {
    let dir = tempfile::tempdir().unwrap();
    let depth = ["--min-depth", "2", "--max-depth", "3"];
    let three = dir.path().join("three.csv");
    let (stdout, csv, _) = match_cli(
        &[&["material", "material", "--pairs", "3"][..], &depth[..]].concat(),
        &three,
    );
    assert!(
        stdout.contains("the first 3 of ACF 3-move deck, 3 pairs"),
        "{stdout}"
    );
    assert_eq!(csv.lines().count(), 1 + 6);

    let twice = dir.path().join("twice.csv");
    let args = [
        "material",
        "material",
        "--pairs",
        "3",
        "--repeat",
        "2",
        "--tie-break",
        "random",
    ];
    let (stdout, csv, _) = match_cli(&[&args[..], &depth[..]].concat(), &twice);
    assert!(stdout.contains("3-move deck, 2 times, 6 pairs"), "{stdout}");
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 12);
    // Each repeat plays the same openings with its own random tie-breaks.
    let opening = |row: &str| row.split(',').nth(2).unwrap().to_string();
    let first: Vec<String> = rows[..6].iter().map(|r| opening(r)).collect();
    let second: Vec<String> = rows[6..].iter().map(|r| opening(r)).collect();
    assert_eq!(first, second);
    let plies = |rows: &[&str]| -> Vec<String> {
        rows.iter()
            .map(|r| r.split(',').nth(6).unwrap().to_string())
            .collect()
    };
    assert_ne!(plies(&rows[..6]), plies(&rows[6..]), "{csv}");

    let msg = bad_input(&["material", "material", "--repeat", "2"]);
    assert!(
        msg.contains("--repeat 2") && msg.contains("--tie-break random"),
        "{msg}"
    );
    let msg = bad_input(&["material", "material", "--pairs", "0"]);
    assert!(msg.contains("--pairs 0: expected 1 to 156"), "{msg}");
    let msg = bad_input(&[
        "material",
        "material",
        "--repeat",
        "0",
        "--tie-break",
        "random",
    ]);
    assert!(msg.contains("--repeat 0"), "{msg}");
}

#[test]
fn timed_matches_search_against_the_clock_and_a_flag_falls() {
    let dir = tempfile::tempdir().unwrap();
    let timed = dir.path().join("timed.csv");
    let (stdout, csv, _) = match_cli(
        &[
            "material",
            "material",
            "--pairs",
            "2",
            "--movetime",
            "0.005",
        ],
        &timed,
    );
    assert!(
        stdout.contains("search: 0.005 s per move, deepening"),
        "{stdout}"
    );
    assert_eq!(csv.lines().count(), 1 + 4);
    assert!(!csv.contains(",time,"), "{csv}");

    // A clock of a microsecond runs out during the first search: the side to move after the
    // three ballot moves, White, loses every game on time, so A wins its Black game and loses
    // its White game of each pair.
    let flag = dir.path().join("flag.csv");
    let (stdout, csv, _) = match_cli(
        &["material", "material", "--pairs", "3", "--tc", "0.000001+0"],
        &flag,
    );
    assert!(stdout.contains("clock 0.000001+0 s per side"), "{stdout}");
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 6);
    for row in &rows {
        assert!(
            row.contains(",black_win,") && row.ends_with(",0,time,"),
            "{row}"
        );
    }
    assert!(stdout.contains("results for A: W 3  D 0  L 3"), "{stdout}");

    let msg = bad_input(&["material", "material", "--tc", "0+1"]);
    assert!(
        msg.contains("--tc \"0+1\"") && msg.contains("BASE+INC"),
        "{msg}"
    );
    let msg = bad_input(&["material", "material", "--movetime", "0"]);
    assert!(msg.contains("--movetime \"0\""), "{msg}");
}

// ----------------------------------------------------------------------------------------------
// PDN output and per-player depths.
// ----------------------------------------------------------------------------------------------

/// Runs `match … --out OUT --pdn PDN --quiet` and returns (CSV, PDN).
fn match_with_pdn(args: &[&str], out: &Path, pdn: &Path) -> (String, String) {
    bin()
        .arg("match")
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("--pdn")
        .arg(pdn)
        .arg("--quiet")
        .assert()
        .success();
    (
        std::fs::read_to_string(out).unwrap(),
        std::fs::read_to_string(pdn).unwrap(),
    )
}

#[test]
fn cli_pdn_games_replay_to_the_csv_rows_for_any_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mobile = write(
        d,
        "mobile.toml",
        &checkers_harness::export::ExportFormat::Toml.render(&mobile_weights()),
    );
    let args = [
        mobile.as_str(),
        "material",
        "--pairs",
        "12",
        "--min-depth",
        "2",
        "--max-depth",
        "4",
    ];
    let (csv, pdn) = match_with_pdn(
        &[&args[..], &["--threads", "1"]].concat(),
        &d.join("one.csv"),
        &d.join("one.pdn"),
    );
    let again = match_with_pdn(
        &[&args[..], &["--threads", "2"]].concat(),
        &d.join("two.csv"),
        &d.join("two.pdn"),
    );
    assert!(
        again == (csv.clone(), pdn.clone()),
        "differs with 2 threads"
    );

    let games = read_pdn(&pdn).unwrap();
    let mut rows = csv::Reader::from_reader(csv.as_bytes());
    let rows: Vec<csv::StringRecord> = rows.records().map(Result::unwrap).collect();
    assert_eq!(games.len(), 24);
    assert_eq!(rows.len(), games.len());
    let mut reasons = std::collections::BTreeSet::new();
    for (game, row) in games.iter().zip(&rows) {
        let field = |name: &str| {
            let i = MatchGame::CSV_HEADER
                .iter()
                .position(|&h| h == name)
                .unwrap();
            row[i].to_string()
        };
        let round = format!("{}.{}", field("pair"), field("game"));
        assert_eq!(game.tag("Round"), Some(round.as_str()));
        assert_eq!(game.tag("Event"), Some("checkers-tuner match"));
        let (black, white) = match field("a_color").as_str() {
            "black" => (mobile.as_str(), "material"),
            _ => ("material", mobile.as_str()),
        };
        assert_eq!(
            (game.tag("Black"), game.tag("White")),
            (Some(black), Some(white))
        );
        assert_eq!(game.tag("Opening"), Some(field("opening").as_str()));
        assert_eq!(game.tag("Termination"), Some(field("reason").as_str()));
        // The 3-move ballots start from the standard position, the ballot's moves first.
        assert_eq!(game.start, Position::start());
        assert!(!pdn.contains("[FEN "));
        let ballot: Vec<String> = field("opening").split(' ').map(String::from).collect();
        let played: Vec<String> = game.moves.iter().map(|m| m.to_string()).collect();
        assert_eq!(played[..3], ballot[..]);
        assert_eq!(played[3..].join(" "), field("moves"));
        assert_eq!(played.len() - 3, field("plies").parse::<usize>().unwrap());
        let result = game.result.expect("every game has a result");
        assert_eq!(result.label(), field("result"));
        // Replayed, the end position bears the recorded reason out.
        let end = game.end_position();
        match field("reason").as_str() {
            "no_moves" => {
                assert!(end.legal_moves().is_empty(), "{round}");
                let loser_won = match end.side_to_move() {
                    Color::Black => GameResult::BlackWin,
                    Color::White => GameResult::WhiteWin,
                };
                assert_ne!(result, loser_won, "{round}");
                assert_ne!(result, GameResult::Draw, "{round}");
            }
            "repetition" => {
                let mut pos = game.start;
                let mut seen = vec![pos];
                for mv in &game.moves {
                    pos = pos.play(mv);
                    seen.push(pos);
                }
                assert!(seen.iter().filter(|&&p| p == end).count() >= 3, "{round}");
                assert_eq!(result, GameResult::Draw);
            }
            "no_progress" | "ply_cap" => assert_eq!(result, GameResult::Draw),
            other => panic!("{round}: {other} in a match without clock or database"),
        }
        reasons.insert(field("reason"));
    }
    assert!(reasons.contains("no_moves"), "{reasons:?}");
}

#[test]
fn a_deeper_search_wins_clearly_and_equal_own_depths_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let shared = ["--min-depth", "2", "--max-depth", "4", "--pairs", "20"];
    let deeper = [&["material", "material"][..], &shared[..]].concat();
    let (stdout, csv, summary) = match_cli(
        &[&deeper[..], &["--depth-a", "4", "--depth-b", "1"]].concat(),
        &d.join("deep.csv"),
    );
    // Both depths in the header (and so in the summary); MIN alone keeps the extension.
    assert!(
        stdout.contains("search: A depth 4..6, B depth 1..3,"),
        "{stdout}"
    );
    assert_eq!(summary, stdout);
    let score = |csv: &str| -> f64 {
        let rows: Vec<&str> = csv.lines().skip(1).collect();
        let points: f64 = rows
            .iter()
            .map(|r| r.split(',').nth(5).unwrap().parse::<f64>().unwrap())
            .sum();
        points / rows.len() as f64
    };
    // 40 games, deterministic: about 71% (no loss) at the time of writing.
    let a = score(&csv);
    assert!(a >= 0.65, "depth 4 against depth 1 scored {a}");
    assert!(stdout.contains("  L 0  "), "{stdout}");
    // The other way round, B is the deeper one.
    let (_, csv, _) = match_cli(
        &[&deeper[..], &["--depth-a", "1..3", "--depth-b", "4..6"]].concat(),
        &d.join("shallow.csv"),
    );
    assert!(
        score(&csv) <= 0.35,
        "depth 1 against depth 4 scored {}",
        score(&csv)
    );

    // Own depths equal to the shared ones are the match without them, files and all.
    let plain = match_cli(&deeper, &d.join("plain.csv"));
    let same = match_cli(
        &[&deeper[..], &["--depth-a", "2", "--depth-b", "2..4"]].concat(),
        &d.join("same.csv"),
    );
    assert_eq!(plain, same);
}

#[test]
fn cli_bad_pdn_and_depth_arguments_exit_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let quick = ["material", "material", "--pairs", "1"];
    let with = |extra: &[&str]| -> String {
        let msg = bad_input(&[&quick[..], extra].concat());
        assert!(
            msg.starts_with("Error: ") && msg.lines().count() == 1,
            "{msg}"
        );
        msg
    };
    let msg = with(&["--depth-a", "0"]);
    assert!(msg.contains("--depth-a 0: must be between 1 and"), "{msg}");
    let msg = with(&["--depth-b", "five"]);
    assert!(
        msg.contains("--depth-b \"five\": expected MIN or MIN..MAX"),
        "{msg}"
    );
    let msg = with(&["--depth-a", "6..3"]);
    assert!(
        msg.contains("--depth-a 6 is greater than --depth-a capture depth 3"),
        "{msg}"
    );
    let msg = with(&["--depth-b", "4..99"]);
    assert!(msg.contains("--depth-b capture depth 99"), "{msg}");
    let msg = with(&["--depth-a", "4", "--movetime", "0.1"]);
    assert!(
        msg.contains("--depth-a: per-player depths are for fixed-depth"),
        "{msg}"
    );
    let nowhere = d.join("no-such-folder").join("g.pdn");
    let msg = with(&["--pdn", nowhere.to_str().unwrap()]);
    assert!(
        msg.contains("--pdn") && msg.contains("does not exist"),
        "{msg}"
    );
    let out = d.join("g.csv");
    let msg = with(&[
        "--out",
        out.to_str().unwrap(),
        "--pdn",
        out.to_str().unwrap(),
    ]);
    assert!(msg.contains("the same file as --out"), "{msg}");
    assert_eq!(
        std::fs::read_dir(d).unwrap().count(),
        0,
        "a failed run wrote"
    );
}

/// `match` at depth 2..4 over the first 20 ballots in the cache `cache`, into `out`; returns
/// stdout and the games file.
fn cached_match(cache: &Path, a: &str, b: &str, out: &Path, extra: &[&str]) -> (String, Vec<u8>) {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("checkers-tuner"));
    cmd.env("CHECKERS_TUNER_CACHE", cache)
        .args(["match", a, b, "--pairs", "20", "--min-depth", "2"])
        .args(["--max-depth", "4", "--quiet", "--out"])
        .arg(out)
        .args(extra);
    let stdout = run_ok(cmd);
    (stdout, std::fs::read(out).unwrap())
}

#[test]
fn the_database_comes_from_the_command_and_the_weights_never_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (empty, built) = (d.join("empty"), d.join("built"));
    std::fs::create_dir(&empty).unwrap();
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("checkers-tuner"));
    cmd.env("CHECKERS_TUNER_CACHE", &built)
        .args(["egdb", "build", "--pieces", "3", "--quiet"]);
    run_ok(cmd);
    let mut recorded = WeightsFile::material();
    recorded.database_pieces = Some(2);
    let w2 = d.join("w2.json");
    std::fs::write(&w2, recorded.to_json()).unwrap();
    let w2 = w2.to_str().unwrap();

    // Material on both sides: no database by default, with the 3-piece one built or not.
    let (says, none_built) = cached_match(&built, "material", "material", &d.join("a.csv"), &[]);
    assert!(
        says.contains("endgame database: none (the default: no weights file records one)"),
        "{says}"
    );
    let (_, none_empty) = cached_match(&empty, "material", "material", &d.join("b.csv"), &[]);
    assert_eq!(none_built, none_empty);
    // The database would have changed these games: the default is not blind to it.
    let (says, three) = cached_match(
        &built,
        "material",
        "material",
        &d.join("c.csv"),
        &["--database-pieces", "3"],
    );
    assert!(
        says.contains("endgame database: 3 pieces (--database-pieces 3)"),
        "{says}"
    );
    assert_ne!(three, none_built);

    // A weights file that records its database: that one, built where it is missing.
    let (says, built_games) = cached_match(&built, w2, "material", &d.join("d.csv"), &[]);
    assert!(
        says.contains("endgame database: 2 pieces (recorded in A's weights file)"),
        "{says}"
    );
    let (_, empty_games) = cached_match(&empty, w2, "material", &d.join("e.csv"), &[]);
    assert_eq!(built_games, empty_games);
    assert!(empty.join("egdb/egdb-2.bin").is_file());
    // Two files that disagree: the larger, said so.
    recorded.database_pieces = Some(3);
    let w3 = d.join("w3.json");
    std::fs::write(&w3, recorded.to_json()).unwrap();
    let (says, _) = cached_match(&built, w2, w3.to_str().unwrap(), &d.join("f.csv"), &[]);
    assert!(
        says.contains("endgame database: 3 pieces (the larger: A's weights file records 2, B's weights file records 3"),
        "{says}"
    );
}
