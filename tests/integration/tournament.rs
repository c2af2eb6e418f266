//! `match P1 P2 … --tournament`: round robins and gauntlets of weights files, their files and
//! rating list, continuing one cut short, the refusals; and which search a weights side plays.

use std::path::Path;

use crate::support::{bin_without_databases as bin, write_file};
use checkers_engine::eval::{WeightPair, Weights};
use checkers_engine::game::read_pdn;
use checkers_engine::weights_file::WeightsFile;

/// Four openings, two decisive and two drawn for material against itself at depth 2..4.
const FOUR_OPENINGS: &str = "10-14 24-19 6-10\n9-13 21-17 5-9\n9-13 21-17 6-9\n9-13 22-18 6-9\n";

/// Negative piece values: a player that gives its pieces away, last in any rating list.
fn bad_weights() -> WeightsFile {
    let w = Weights([-100, -150, 0, 0, 0, 0, 0, 0, 0, 0]);
    WeightsFile::new(WeightPair {
        opening: w,
        endgame: w,
    })
}

/// Material with a taste for mobility and advanced men.
fn mobile_weights() -> WeightsFile {
    let w = Weights([100, 150, 0, 0, 5, 10, -3, 0, 4, 0]);
    WeightsFile::new(WeightPair {
        opening: w,
        endgame: Weights::material(),
    })
}

/// The three players' files in `dir`: `mobile.json` and `bad.json` (with `material`).
fn players(dir: &Path) -> (String, String) {
    let mobile = write_file(dir, "mobile.json", &mobile_weights().to_json());
    let bad = write_file(dir, "bad.json", &bad_weights().to_json());
    (
        mobile.to_str().unwrap().to_string(),
        bad.to_str().unwrap().to_string(),
    )
}

/// Runs `match` with `args`, succeeding quietly; gives stdout.
fn ok(args: &[&str]) -> String {
    let assert = bin()
        .arg("match")
        .args(args)
        .arg("--quiet")
        .assert()
        .success();
    assert!(
        assert.get_output().stderr.is_empty(),
        "--quiet wrote to stderr"
    );
    String::from_utf8(assert.get_output().stdout.clone()).unwrap()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_round_robin_of_three_writes_every_game_and_a_rating_list() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (mobile, bad) = players(d);
    let four = write_file(d, "four.txt", FOUR_OPENINGS);
    let four = four.to_str().unwrap();
    let run = |name: &str, threads: &str| {
        let out = d.join(format!("{name}.csv"));
        let pdn = d.join(format!("{name}.pdn"));
        let stdout = ok(&[
            "material",
            &mobile,
            &bad,
            "--tournament",
            "round-robin",
            "--openings",
            four,
            "--min-depth",
            "2",
            "--max-depth",
            "4",
            "--threads",
            threads,
            "--out",
            out.to_str().unwrap(),
            "--pdn",
            pdn.to_str().unwrap(),
        ]);
        let ratings = read(&out.with_extension("ratings.csv"));
        let summary = read(&out.with_extension("summary.txt"));
        let ballots = read(&out.with_extension("ballots.csv"));
        (stdout, read(&out), read(&pdn), ratings, summary, ballots)
    };
    let one = run("one", "1");
    let (stdout, csv, pdn, ratings, summary, ballots) = &one;
    assert!(
        stdout.starts_with("tournament: round-robin of 3 players, 3 pairings\n1: material"),
        "{stdout}"
    );
    assert_eq!(summary, stdout);
    for line in [
        "pairing 1 of 3: A 1 material, B 2 ",
        "pairing 3 of 3: A 2 ",
        "rating list (Elo relative to player 1 at 0",
        "colour advantage: Black ",
        "pairings (results for the first player):",
    ] {
        assert!(stdout.contains(line), "{line}:\n{stdout}");
    }
    // The player that gives its pieces away is last, and scored nothing against the others.
    let table: Vec<&str> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("rank"))
        .skip(1)
        .take(3)
        .collect();
    assert_eq!(table.len(), 3, "{stdout}");
    assert!(
        table[2].starts_with("   3      3 ") && table[2].contains(" 0.0%  "),
        "{table:?}"
    );
    assert!(table[2].ends_with(&bad), "{table:?}");
    // Its rating has no finite bound below: `-inf`, an interval `inf`, not ±1.6e18; the one
    // above it is surely stronger, and the others' intervals are finite.
    let fields: Vec<&str> = table[2].split_whitespace().collect();
    assert_eq!(fields[2..5], ["-inf", "inf", "-"], "{table:?}");
    assert_eq!(
        table[1].split_whitespace().nth(4),
        Some("100.0%"),
        "{table:?}"
    );
    for row in &table[..2] {
        let margin: f64 = row.split_whitespace().nth(3).unwrap().parse().unwrap();
        assert!(margin.is_finite() && margin < 10_000.0, "{table:?}");
    }

    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "pairing,a,b,pair,game,opening,a_color,result,a_score,plies,reason,moves"
    );
    assert_eq!(rows.len(), 1 + 3 * 8);
    let prefixes: Vec<&str> = rows[1..].iter().map(|r| &r[..6]).collect();
    assert_eq!(
        prefixes,
        [&["1,1,2,"; 8][..], &["2,1,3,"; 8][..], &["3,2,3,"; 8][..]].concat()
    );
    assert!(
        rows[1].starts_with("1,1,2,1,1,10-14 24-19 6-10,black,"),
        "{}",
        rows[1]
    );

    let games = read_pdn(pdn).unwrap();
    assert_eq!(games.len(), 24);
    // Round is `pairing.pair.game`: each game's own across the tournament.
    let rounds: Vec<String> = (games.iter())
        .map(|g| g.tag("Round").unwrap_or_default().to_string())
        .collect();
    assert_eq!(rounds[..3], ["1.1.1", "1.1.2", "1.2.1"]);
    assert_eq!(rounds[23], "3.4.2");
    let distinct: std::collections::HashSet<&String> = rounds.iter().collect();
    assert_eq!(distinct.len(), 24);
    assert!(pdn.contains("[Black \"material\"]") && pdn.contains(&format!("[White \"{bad}\"]")));

    let lines: Vec<&str> = ratings.lines().collect();
    assert_eq!(
        lines[0],
        "rank,player,name,elo,margin,los_next,games,points"
    );
    assert_eq!(lines.len(), 4);
    assert!(
        lines[3].starts_with("3,3,") && lines[3].ends_with(",-inf,inf,,16,0"),
        "{ratings}"
    );

    // A row per ballot, each player's results on it over its two pairings (4 games), then the
    // colours'; the summary's line counts them.
    let rows: Vec<&str> = ballots.lines().collect();
    assert_eq!(
        rows[0],
        "ballot,opening,games,p1_wins,p1_draws,p1_losses,p2_wins,p2_draws,p2_losses,\
         p3_wins,p3_draws,p3_losses,black_wins,draws,white_wins,unbalanced"
    );
    assert_eq!(rows.len(), 1 + 4, "{ballots}");
    for (k, (row, opening)) in rows[1..].iter().zip(FOUR_OPENINGS.lines()).enumerate() {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields[..3], [&(k + 1).to_string(), opening, "6"], "{row}");
        // The player that gives its pieces away loses its 4 games on every ballot.
        assert_eq!(fields[9..12], ["0", "0", "4"], "{row}");
        let colours: u32 = fields[12..15]
            .iter()
            .map(|n| n.parse::<u32>().unwrap())
            .sum();
        assert_eq!(colours, 6, "{row}");
    }
    let line = (stdout.lines())
        .find(|l| l.starts_with("ballots: 4, unbalanced "))
        .unwrap_or_else(|| panic!("no ballots line:\n{stdout}"));
    let unbalanced = (rows[1..].iter()).filter(|r| !r.ends_with(',')).count();
    assert!(
        line.starts_with(&format!("ballots: 4, unbalanced {unbalanced}")),
        "{line}\n{ballots}"
    );

    // Any thread count: the same files.
    assert_eq!(run("two", "2"), one);
}

#[test]
fn a_gauntlet_plays_the_first_player_against_each_other_and_anchors_where_told() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (mobile, bad) = players(d);
    let out = d.join("g.csv");
    let stdout = ok(&[
        "material",
        &mobile,
        &bad,
        "material",
        "--tournament",
        "gauntlet",
        "--anchor",
        "3",
        "--openings",
        "start",
        "--min-depth",
        "2",
        "--max-depth",
        "4",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        stdout.starts_with("tournament: gauntlet of 4 players, 3 pairings\n"),
        "{stdout}"
    );
    for line in [
        "pairing 1 of 3: A 1 material, B 2 ",
        "pairing 2 of 3: A 1 material, B 3 ",
        "pairing 3 of 3: A 1 material, B 4 material\n",
        "rating list (Elo relative to player 3 at 0",
    ] {
        assert!(stdout.contains(line), "{line}:\n{stdout}");
    }
    let prefixes: Vec<String> = read(&out)
        .lines()
        .skip(1)
        .map(|r| r[..6].to_string())
        .collect();
    assert_eq!(
        prefixes,
        ["1,1,2,", "1,1,2,", "2,1,3,", "2,1,3,", "3,1,4,", "3,1,4,"]
    );
    // Player 3, the anchor, at 0 and last; the others above it.
    let ratings = read(&out.with_extension("ratings.csv"));
    let last = ratings.lines().last().unwrap();
    assert!(
        last.starts_with("4,3,") && last.contains(",0.0,0.0,,"),
        "{ratings}"
    );
}

/// The tournament of the continuation test: long enough to be stopped in its second pairing.
fn long_tournament(out: &Path, pdn: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("checkers-tuner"));
    cmd.env(
        "CHECKERS_TUNER_CACHE",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/no-egdb"),
    );
    cmd.args(["match", "material", "material", "material", "--tournament"])
        .args([
            "round-robin",
            "--pairs",
            "40",
            "--min-depth",
            "4",
            "--max-depth",
        ])
        .args(["8", "--threads", "1", "--quiet", "--out"])
        .arg(out)
        .arg("--pdn")
        .arg(pdn);
    cmd
}

fn run_ok(mut cmd: std::process::Command) -> String {
    let output = cmd.output().unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// Starts the long tournament writing `name`, sends `signal` once its CSV has `rows` lines,
/// and gives its exit status.
#[cfg(unix)]
fn stopped(d: &Path, name: &str, rows: usize, signal: libc::c_int) -> Option<i32> {
    use std::process::Stdio;
    let out = d.join(format!("{name}.csv"));
    let mut cmd = long_tournament(&out, &d.join(format!("{name}.pdn")));
    cmd.stdout(Stdio::null()).stderr(Stdio::null());
    let mut child = cmd.spawn().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while std::fs::read_to_string(&out).map_or(0, |t| t.lines().count()) < rows
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    // SAFETY: signals the child we started.
    unsafe { libc::kill(child.id() as libc::pid_t, signal) };
    child.wait().unwrap().code()
}

#[cfg(unix)]
#[test]
fn a_tournament_stopped_or_killed_continues_to_the_files_of_an_uninterrupted_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let files = |name: &str| {
        ["csv", "pdn", "summary.txt", "ratings.csv", "ballots.csv"]
            .map(|ext| std::fs::read(d.join(format!("{name}.{ext}"))).unwrap())
    };
    let whole_stdout = run_ok(long_tournament(&d.join("whole.csv"), &d.join("whole.pdn")));
    let whole = files("whole");

    // Killed in its second pairing (40 pairs, 80 rows a pairing), then continued.
    assert_eq!(stopped(d, "killed", 1 + 80 + 5, libc::SIGKILL), None);
    let summary = std::fs::read_to_string(d.join("killed.summary.txt")).unwrap();
    assert!(summary.starts_with("# match in progress"), "{summary}");
    assert!(!d.join("killed.ratings.csv").exists());
    assert!(!d.join("killed.ballots.csv").exists());
    let cmd = long_tournament(&d.join("killed.csv"), &d.join("killed.pdn"));
    assert_eq!(run_ok(cmd), whole_stdout);
    assert!(files("killed") == whole, "the files differ");

    // Stopped by Ctrl-C in its first pairing: status 130, then continued.
    assert_eq!(stopped(d, "stopped", 10, libc::SIGINT), Some(130));
    let cmd = long_tournament(&d.join("stopped.csv"), &d.join("stopped.pdn"));
    assert_eq!(run_ok(cmd), whole_stdout);
    assert!(files("stopped") == whole, "the files differ");
}

/// Runs `match` expecting exit status 2 with nothing on stdout; gives stderr.
fn refused(args: &[&str]) -> String {
    let assert = bin().arg("match").args(args).assert().code(2);
    assert!(assert.get_output().stdout.is_empty());
    String::from_utf8(assert.get_output().stderr.clone()).unwrap()
}

#[test]
fn tournament_refusals_exit_2_naming_the_flag_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (mobile, _) = players(d);
    let out = d.join("t.csv");
    let out = out.to_str().unwrap();
    let three = ["material", "material", "material"];
    let with = |extra: &[&str]| -> String {
        let rr = ["--tournament", "round-robin", "--out", out];
        refused(&[&three[..], &rr[..], extra].concat())
    };
    let starts = |msg: &str, start: &str| assert!(msg.starts_with(start), "{msg}");

    let msg = refused(&["material"]);
    assert!(msg.contains("<B>"), "{msg}");
    let msg = refused(&three);
    starts(&msg, "Error: 3 players: a match has two");
    assert!(msg.contains("--tournament round-robin"), "{msg}");
    let msg = refused(&["material", "material", "--tournament", "swiss"]);
    starts(&msg, "Error: --tournament swiss: not a kind of tournament");
    starts(
        &with(&["--anchor", "4"]),
        "Error: --anchor 4: expected a player's number, 1 to 3",
    );
    starts(&with(&["--anchor", "0"]), "Error: --anchor 0:");
    let msg = refused(&["material", "material", "--anchor", "1"]);
    starts(
        &msg,
        "Error: --anchor 1: the anchor of a tournament's rating list",
    );
    starts(
        &with(&["--option", "4=set x"]),
        "Error: --option \"4=set x\": there is no player 4",
    );
    starts(
        &with(&["--option", "set x"]),
        "Error: --option \"set x\": expected K=TEXT",
    );
    let msg = with(&["--option", "2=set x"]);
    starts(
        &msg,
        "Error: --option \"2=set x\": player 2 is a weights file (material)",
    );
    let msg = refused(&["material", "material", "--option", "1=set x"]);
    starts(
        &msg,
        "Error: --option \"1=set x\": A is a weights file (material)",
    );
    starts(
        &with(&["--sprt", "0,10"]),
        "Error: --sprt: a tournament plays every pairing",
    );
    starts(&with(&["--depth-a", "3"]), "Error: --depth-a: ");
    starts(&with(&["--search-b", "exact"]), "Error: --search-b: ");
    // A player that cannot be loaded is refused before any game, whichever it is.
    let missing = d.join("nope.json");
    let missing = missing.to_str().unwrap();
    let msg = refused(&[
        "material",
        &mobile,
        missing,
        "--tournament",
        "gauntlet",
        "--out",
        out,
    ]);
    assert!(msg.contains(missing) && msg.contains("not found"), "{msg}");
    let msg = refused(&[
        "material",
        &mobile,
        "cb:/no/such/lib.so",
        "--tournament",
        "gauntlet",
        "--out",
        out,
        "--movetime",
        "0.01",
    ]);
    assert!(msg.contains("/no/such/lib.so"), "{msg}");

    let mut names: Vec<String> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["bad.json", "mobile.json"]);
}

/// The header's lines of `match` with `args`, played over the first opening.
fn header(args: &[&str]) -> String {
    let stdout = ok(&[
        args,
        &["--pairs", "1", "--min-depth", "2", "--max-depth", "4"],
    ]
    .concat());
    stdout.lines().take(2).collect::<Vec<_>>().join("\n")
}

#[test]
fn weights_sides_play_the_selective_search_with_a_budget_and_say_which() {
    let both = ["material", "material"];
    let fixed = header(&both);
    assert!(
        fixed.starts_with("A: material (") && fixed.ends_with("), search exact"),
        "{fixed}"
    );
    assert_eq!(fixed.matches(", search exact").count(), 2, "{fixed}");
    let nodes = header(&[&both[..], &["--nodes", "3000"]].concat());
    assert_eq!(nodes.matches(", search selective").count(), 2, "{nodes}");
    // Asked for, the exact search; for one side only, the other plays its best.
    let exact = header(&[&both[..], &["--nodes", "3000", "--search-mode", "exact"]].concat());
    assert_eq!(exact.matches(", search exact").count(), 2, "{exact}");
    let one = header(&[&both[..], &["--nodes", "3000", "--search-a", "exact"]].concat());
    assert!(
        one.contains("search exact\nB: ") && one.ends_with("search selective"),
        "{one}"
    );
    // The depth match still plays the selective search when told to.
    let told = header(&[&both[..], &["--search-mode", "selective"]].concat());
    assert_eq!(told.matches(", search selective").count(), 2, "{told}");
}

#[test]
fn tournament_rows_read_back_pairing_by_pairing_to_whole_pairs() {
    use checkers_engine::game::{parse_openings, GameSettings, SearchParams};
    use checkers_harness::matchplay::{
        play_match, read_tournament_rows, tournament_csv_line, tournament_header_line, MatchGame,
    };
    let openings = parse_openings(FOUR_OPENINGS, "four.txt").unwrap();
    let settings = GameSettings {
        search: SearchParams {
            min_depth: 2,
            max_depth: 4,
            ..SearchParams::default()
        },
        ..GameSettings::default()
    };
    let (m, mobile) = (WeightsFile::material(), mobile_weights());
    let pairings = [(0, 1), (0, 2), (1, 2)];
    let games: Vec<_> = pairings
        .iter()
        .map(|_| play_match(&m, &mobile, &openings, &settings, 1, None, |_| {}).games)
        .collect();
    let mut text = tournament_header_line(false);
    let mut ends = Vec::new();
    for (p, (&pairing, games)) in pairings.iter().zip(&games).enumerate() {
        for g in games {
            text.push_str(&tournament_csv_line(p, pairing, g, false));
            ends.push(text.len());
        }
    }
    let read = |t: &str| read_tournament_rows(t.as_bytes(), "t.csv", &pairings, &openings, false);
    // The CSV keeps no search scores: compare the rows the games give.
    let rows_of = |games: &[Vec<MatchGame>]| -> Vec<Vec<String>> {
        (games.iter())
            .map(|g| g.iter().map(MatchGame::csv_line).collect())
            .collect()
    };
    let whole = read(&text).unwrap();
    assert_eq!(rows_of(&whole.games), rows_of(&games));
    assert_eq!(whole.complete_len, text.len());
    // Cut inside pairing 2's third game: pairing 1 whole, pairing 2's first pair, the rest
    // dropped.
    let cut = &text[..ends[8 + 2] - 5];
    let rows = read(cut).unwrap();
    let expected = [games[0].clone(), games[1][..2].to_vec()];
    assert_eq!(rows_of(&rows.games), rows_of(&expected));
    assert_eq!(rows.complete_len, ends[8 + 1]);
    // A pairing's first game alone at the start of its rows: nothing of it kept.
    let rows = read(&text[..ends[8]]).unwrap();
    assert_eq!(rows.games.len(), 2);
    assert_eq!(rows.complete_len, ends[7]);
    // Pairings out of order, or one begun before the last is whole: refused, naming the line.
    let skipped: String = text
        .lines()
        .take(1 + 8)
        .chain(text.lines().skip(1 + 16))
        .map(|l| format!("{l}\n"))
        .collect();
    let msg = read(&skipped).unwrap_err().to_string();
    assert!(
        msg.contains("t.csv line 10: expected a row of pairing 1 or 2"),
        "{msg}"
    );
    let early: String = text
        .lines()
        .take(1 + 6)
        .chain(text.lines().skip(1 + 8))
        .map(|l| format!("{l}\n"))
        .collect();
    let msg = read(&early).unwrap_err().to_string();
    assert!(
        msg.contains("t.csv line 8: pairing 2 starts before pairing 1 has all its 8 games"),
        "{msg}"
    );
    let swapped = text.replacen("\n2,1,3,", "\n2,2,3,", 1);
    let msg = read(&swapped).unwrap_err().to_string();
    assert!(
        msg.contains("pairing 2 is player 1 against player 3"),
        "{msg}"
    );
    let msg = read("pair,game\n").unwrap_err().to_string();
    assert!(
        msg.contains("t.csv line 1: not the header of a tournament's games CSV"),
        "{msg}"
    );
}
