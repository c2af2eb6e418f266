//! A ring that hostile engines cannot break (issue 61): Hub programs (tests/hub-fixture, driven
//! by `HUB_FIXTURE`) and CheckerBoard libraries (tests/cb-fixture, `CB_FIXTURE`) that die
//! between moves, leave stray lines, flood their output, spin, fork, or give names that are not
//! text. Each loses the games it spoils with its reason, the match ends with exit status 0, and
//! nothing it started is left running.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use checkers_engine::game::GameScore;

use crate::engines::{fixture, games, library};
use crate::support::bin;

/// The Hub fixture as a `hub:` player, relaying to our own `hub`.
fn hub_fixture() -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hub-fixture/hub-fixture.sh");
    let exe = assert_cmd::cargo::cargo_bin("checkers-tuner");
    format!("hub:sh {} {}", script.display(), exe.display())
}

/// A match of `program` (side A) against the material weights over `pairs` pairs at 0.01 s a
/// move, with `env` set and `--out` in `dir`: its exit status, stdout and stderr, and the games.
fn play(
    program: &str,
    env: &[(&str, &str)],
    pairs: usize,
    dir: &Path,
) -> (Option<i32>, String, String, PathBuf) {
    let csv = dir.join("m.csv");
    let _ = std::fs::remove_file(&csv);
    let mut cmd = bin();
    for (key, value) in env {
        cmd.env(key, value);
    }
    let output = cmd
        .args(["match", program, "material", "--movetime", "0.01"])
        .args(["--pairs", &pairs.to_string(), "--threads", "1"])
        .args(["--database-pieces", "0", "--out"])
        .arg(&csv)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        output.status.code(),
        text(&output.stdout),
        text(&output.stderr),
        csv,
    )
}

/// The processes still running (not zombies) whose environment holds `mark`.
fn running_with(mark: &str) -> Vec<String> {
    let needle = format!("RING_MARK={mark}");
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let dir = entry.path();
        let Ok(environ) = std::fs::read(dir.join("environ")) else {
            continue;
        };
        let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z'));
        if !zombie && environ.split(|&b| b == 0).any(|v| v == needle.as_bytes()) {
            let cmdline = std::fs::read(dir.join("cmdline")).unwrap_or_default();
            found.push(String::from_utf8_lossy(&cmdline).replace('\0', " "));
        }
    }
    found
}

/// Waits (at most 5 s: a killed process may take a moment to go) until nothing with `mark`
/// runs; what still runs then.
fn left_running(mark: &str) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left = running_with(mark);
        if left.is_empty() || Instant::now() > deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A mark no other test's processes carry.
fn mark(name: &str) -> String {
    format!("{name}-{}-{:?}", std::process::id(), Instant::now())
}

#[test]
fn programs_that_die_between_moves_lose_by_crash_and_the_match_ends_with_its_results() {
    let dir = tempfile::tempdir().unwrap();
    let hub = hub_fixture();
    let cb = fixture();
    for (program, env, says) in [
        (
            &hub,
            ("HUB_FIXTURE", "exit-after-move"),
            "exited with status 0",
        ),
        (&hub, ("HUB_FIXTURE", "close-input"), "closed its input"),
        (&cb, ("CB_FIXTURE", "exit-after:3"), "exited with status 0"),
    ] {
        let tag = mark("die");
        let (code, stdout, stderr, csv) = play(program, &[env, ("RING_MARK", &tag)], 2, dir.path());
        assert_eq!(code, Some(0), "{env:?}: {stderr}");
        assert!(stdout.contains("results for A: W 0  D 0  L 4"), "{stdout}");
        let games = games(&csv, 2);
        assert_eq!(games.len(), 4, "{env:?}: every game in --out");
        for g in &games {
            assert_eq!(g.record.reason.label(), "crash", "{env:?}: {g:?}");
            assert!(g.record.forfeit.as_deref().unwrap().contains(says), "{g:?}");
        }
        assert_eq!(left_running(&tag), Vec::<String>::new(), "{env:?}");
    }
}

#[test]
fn a_stray_line_costs_at_most_the_game_it_is_in() {
    let dir = tempfile::tempdir().unwrap();
    let once = dir.path().join("once");
    let once = once.to_str().unwrap();
    let hub = hub_fixture();
    let cb = fixture();
    // (program, behaviour, how many of the 4 games it may lose by forfeit)
    for (program, env, forfeits) in [
        (&hub, ("HUB_FIXTURE", "done-twice"), 1),
        (&hub, ("HUB_FIXTURE", "error-new-game"), 0),
        (&cb, ("CB_FIXTURE", "print"), 0),
        (&cb, ("CB_FIXTURE", "close-stdio"), 0),
    ] {
        let (code, _, stderr, csv) =
            play(program, &[env, ("HUB_FIXTURE_ONCE", once)], 2, dir.path());
        assert_eq!(code, Some(0), "{env:?}: {stderr}");
        let games = games(&csv, 2);
        let lost: Vec<_> = games
            .iter()
            .filter(|g| g.record.reason.is_forfeit())
            .collect();
        assert_eq!(lost.len(), forfeits, "{env:?}: {lost:?}");
        for g in lost {
            assert_eq!(g.record.reason.label(), "illegal_move", "{g:?}");
        }
    }
}

#[test]
fn a_flooding_program_is_stopped_and_loses_by_bad_reply_in_little_memory() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let (code, stdout, stderr, csv) = play(
        &hub_fixture(),
        &[("HUB_FIXTURE", "flood-move")],
        1,
        dir.path(),
    );
    assert_eq!(code, Some(0), "{stderr}");
    for g in games(&csv, 1) {
        assert_eq!(g.record.reason.label(), "bad_reply", "{g:?}");
        assert_eq!(g.a_score(), GameScore::Loss);
        let detail = g.record.forfeit.as_deref().unwrap();
        assert!(
            detail.contains("KiB without an answer (killed)"),
            "{detail}"
        );
    }
    assert!(stdout.contains("A lost by bad_reply"), "{stdout}");
    // A flood at the handshake: refused before the first game, at once.
    let (code, _, stderr, csv) = play(
        &hub_fixture(),
        &[("HUB_FIXTURE", "flood-start")],
        1,
        dir.path(),
    );
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("no `wait` after `hub`") && stderr.contains("without an answer"),
        "{stderr}"
    );
    assert!(!csv.exists());
    assert!(started.elapsed() < Duration::from_secs(60));
    // The largest of this test process's children so far (the matches, and any other test's):
    // a flood read into memory took gigabytes within seconds.
    // SAFETY: getrusage fills the struct it is given.
    let peak_kib = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage.ru_maxrss
    };
    assert!(peak_kib < 1 << 20, "a child reached {peak_kib} KiB");
}

#[test]
fn nothing_a_match_started_outlives_it_whatever_ends_it() {
    let exe = assert_cmd::cargo::cargo_bin("checkers-tuner");
    let dir = tempfile::tempdir().unwrap();
    // A library that spins in getmove, ignoring playnow, and a match ended by a signal while
    // it spins: SIGTERM, SIGHUP, a second Ctrl-C.
    for (signals, status) in [
        (&[libc::SIGTERM][..], 143),
        (&[libc::SIGHUP][..], 129),
        (&[libc::SIGINT, libc::SIGINT][..], 130),
    ] {
        let tag = mark("signal");
        let mut child = Command::new(&exe)
            .env("CB_FIXTURE", "spin")
            .env("RING_MARK", &tag)
            .env("CHECKERS_TUNER_CACHE", dir.path().join("cache"))
            .args(["match", &fixture(), "material", "--movetime", "1"])
            .args(["--pairs", "1", "--threads", "1", "--database-pieces", "0"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Until its host runs (the match's own process carries the mark too).
        let deadline = Instant::now() + Duration::from_secs(60);
        while running_with(&tag).len() < 2 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        std::thread::sleep(Duration::from_millis(300));
        for &signal in signals {
            // SAFETY: signals the match we started.
            unsafe { libc::kill(child.id() as libc::pid_t, signal) };
            std::thread::sleep(Duration::from_millis(200));
        }
        let code = child.wait().unwrap().code();
        assert_eq!(code, Some(status), "{signals:?}");
        assert_eq!(left_running(&tag), Vec::<String>::new(), "{signals:?}");
    }
    // A Hub program that exits while a process it forked holds its output: a crash, seen at
    // once, and the forked process killed; so is the one a library starts.
    for (program, env, reason, says) in [
        (
            hub_fixture(),
            ("HUB_FIXTURE", "fork-exit"),
            "crash",
            "exited with status 3",
        ),
        (fixture(), ("CB_FIXTURE", "fork"), "", ""),
    ] {
        let tag = mark("fork");
        let started = Instant::now();
        let (code, _, stderr, csv) = play(&program, &[env, ("RING_MARK", &tag)], 1, dir.path());
        assert_eq!(code, Some(0), "{stderr}");
        for g in games(&csv, 1) {
            if reason.is_empty() {
                assert!(!g.record.reason.is_forfeit(), "{g:?}");
            } else {
                assert_eq!(g.record.reason.label(), reason, "{g:?}");
                assert!(g.record.forfeit.as_deref().unwrap().contains(says));
            }
        }
        // A hang would take the 2.1 s hang limit twice.
        assert!(started.elapsed() < Duration::from_secs(30));
        assert_eq!(left_running(&tag), Vec::<String>::new(), "{env:?}");
    }
}

#[test]
fn a_bare_library_name_is_the_file_in_the_current_folder() {
    let dir = tempfile::tempdir().unwrap();
    // Named as a system library is: the system's would be loaded from the library path.
    std::fs::copy(library("cb_fixture"), dir.path().join("libm.so.6")).unwrap();
    let out = bin()
        .current_dir(dir.path())
        .args(["match", "cb:libm.so.6", "material", "--movetime", "0.01"])
        .args(["--pairs", "1", "--database-pieces", "0"])
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("A: cb:libm.so.6 (fixture, CheckerBoard engine)"),
        "{stdout}"
    );
}

#[test]
fn an_engines_text_is_one_line_of_plain_text_in_the_pdn_the_csv_and_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    for (program, env) in [
        (fixture(), ("CB_FIXTURE", "name")),
        (hub_fixture(), ("HUB_FIXTURE", "name")),
    ] {
        let pdn = dir.path().join("m.pdn");
        let out = bin()
            .env(env.0, env.1)
            .args(["match", &program, "material", "--movetime", "0.01"])
            .args(["--pairs", "1", "--database-pieces", "0", "--pdn"])
            .arg(&pdn)
            .assert()
            .success();
        let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        let stray = |text: &str| text.chars().any(|c| c.is_control() && c != '\n');
        assert!(!stray(&stdout), "{env:?}: {stdout:?}");
        assert!(stdout.contains("evil"), "{stdout}");
        let text = std::fs::read_to_string(&pdn).unwrap();
        assert!(!stray(&text), "{env:?}: {text:?}");
        let tag = text.lines().find(|l| l.starts_with("[Black ")).unwrap();
        assert!(tag.contains("evil") && tag.ends_with("\"]"), "{tag}");
        // The file is one that the strictest reading takes whole.
        bin()
            .args(["fit"])
            .arg(&pdn)
            .args(["--strict", "-q", "--first-ply", "0", "--validation", "0"])
            .arg("-o")
            .arg(dir.path().join("w.json"))
            .assert()
            .success();
    }
}

#[test]
fn our_library_makes_its_table_before_the_clock_and_only_as_large_as_the_host_holds() {
    use std::os::unix::process::CommandExt;
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("m.csv");
    let ours = format!("cb:{}", library("checkers_tuner_cb").display());
    let mut cmd = Command::new(assert_cmd::cargo::cargo_bin("checkers-tuner"));
    cmd.env("CHECKERS_TUNER_CACHE", dir.path().join("cache"))
        .args([
            "match",
            &ours,
            "material",
            "--option-a",
            "set hashsize 4096",
        ])
        .args(["--movetime", "0.05", "--pairs", "1", "--threads", "1"])
        .args(["--database-pieces", "0", "--out"])
        .arg(&csv);
    // SAFETY: only setrlimit between fork and exec. A 32-bit CheckerBoard's address space: the
    // 4 GiB table asked for cannot be had, and the host (which inherits the limit) must not
    // abort for it.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 2 << 30,
                rlim_max: 2 << 30,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
    let output = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    for g in games(&csv, 1) {
        assert!(!g.record.reason.is_forfeit(), "{g:?}");
    }
}

#[test]
fn in_a_tournament_a_player_that_crashes_loses_its_games_and_the_others_play_on() {
    use checkers_engine::game::three_move_deck;
    use checkers_harness::matchplay::read_tournament_rows;
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("t.csv");
    let tag = mark("tournament");
    // The library's host dies at its first move (every host the match starts again); the Hub
    // program exits after its first, which only its next turn finds, so the library's death
    // comes first when they meet: material 4 of 4, the Hub program 2, the library 0.
    let output = bin()
        .env("CB_FIXTURE", "crash:1")
        .env("HUB_FIXTURE", "exit-after-move")
        .env("RING_MARK", &tag)
        .args(["match", "material", &fixture(), &hub_fixture()])
        .args(["--tournament", "round-robin", "--movetime", "0.01"])
        .args(["--pairs", "1", "--threads", "2", "--database-pieces", "0"])
        .arg("--out")
        .arg(&csv)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let deck: Vec<_> = three_move_deck().into_iter().take(1).collect();
    let pairings = [(0, 1), (0, 2), (1, 2)];
    let bytes = std::fs::read(&csv).unwrap();
    let rows = read_tournament_rows(&bytes, "t.csv", &pairings, &deck, true).unwrap();
    assert_eq!(rows.complete_len, bytes.len(), "every game written");
    assert_eq!(rows.games.len(), pairings.len(), "every pairing played");
    // Each pairing's score for its A, and how its loser died.
    let expected = [
        (GameScore::Win, "SIGSEGV"),
        (GameScore::Win, "exited with status 0"),
        (GameScore::Loss, "SIGSEGV"),
    ];
    for (games, (score, says)) in rows.games.iter().zip(expected) {
        assert_eq!(games.len(), 2, "{stdout}");
        for g in games {
            assert_eq!(g.a_score(), score, "{g:?}");
            assert_eq!(g.record.reason.label(), "crash", "{g:?}");
            assert!(g.record.forfeit.as_deref().unwrap().contains(says), "{g:?}");
        }
    }
    // The rating list ranks them so: material, the Hub program, the library.
    let ratings = std::fs::read_to_string(dir.path().join("t.ratings.csv")).unwrap();
    let ranked: Vec<&str> = (ratings.lines().skip(1))
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(ranked, ["1", "3", "2"], "{ratings}");
    assert_eq!(left_running(&tag), Vec::<String>::new());
}
