//! Other programs as players (`cb:LIBRARY`, `hub:COMMAND`): our own CheckerBoard library and
//! `hub` command as engines under test, and a library that misbehaves on request
//! (tests/cb-fixture, `CB_FIXTURE`), all built by `cargo test` itself.

use std::path::{Path, PathBuf};

use checkers_engine::board::{Color, Position};
use checkers_engine::checkerboard::{
    board_from_position, move_to_board, position_from_board, CB_BLACK, CB_WHITE,
};
use checkers_engine::game::{read_pdn, three_move_deck};
use checkers_harness::matchplay::read_match_rows;

use crate::support::bin;

/// A library `cargo test` built beside the test binary (target/<profile>/deps/).
pub(crate) fn library(stem: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let name = format!(
        "{}{stem}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    [deps.to_path_buf(), deps.parent().unwrap().to_path_buf()]
        .into_iter()
        .map(|dir| dir.join(&name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("{name} not built beside {}", deps.display()))
}

fn ours() -> String {
    format!("cb:{}", library("checkers_tuner_cb").display())
}

pub(crate) fn fixture() -> String {
    format!("cb:{}", library("cb_fixture").display())
}

/// The games of a match's CSV over the first `pairs` of the 3-move deck, checked move by move
/// by our move generator (read_match_rows replays every move).
pub(crate) fn games(csv: &Path, pairs: usize) -> Vec<checkers_harness::matchplay::MatchGame> {
    let deck: Vec<_> = three_move_deck().into_iter().take(pairs).collect();
    let bytes = std::fs::read(csv).unwrap();
    let rows = read_match_rows(&bytes, "csv", &deck).unwrap();
    assert!(rows.detail, "a match with a program has the detail column");
    assert_eq!(rows.complete_len, bytes.len());
    rows.games
}

#[test]
fn boards_and_moves_convert_both_ways_in_both_colours_and_through_multi_jumps() {
    let fens = [
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        // White's double and Black's king's triple jump, kings both sides.
        "W:W27,K10:B23,15,K4",
        "B:W14,23,30:B9,K1",
    ];
    for fen in fens {
        let pos = Position::from_fen(fen).unwrap();
        let board = board_from_position(&pos);
        let code = if pos.side_to_move() == Color::Black {
            CB_BLACK
        } else {
            CB_WHITE
        };
        assert_eq!(
            checkers_engine::checkerboard::color_of_code(code),
            Some(pos.side_to_move())
        );
        assert_eq!(
            position_from_board(&board, pos.side_to_move()).unwrap(),
            pos
        );
        for mv in pos.legal_moves().iter() {
            let found = move_to_board(&pos, &board_from_position(&pos.play(mv))).unwrap();
            assert_eq!(pos.play(&found), pos.play(mv), "{fen}: {mv}");
        }
    }
    let jumps = Position::from_fen("B:W14,23,30:B9,K1").unwrap();
    assert!(jumps.legal_moves().iter().any(|m| m.jump_count() >= 2));
}

#[test]
fn our_library_plays_legal_games_against_our_weights_with_names_and_times() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("m.csv");
    let pdn = dir.path().join("m.pdn");
    let out = bin()
        .args([
            "match",
            "material",
            &ours(),
            "--movetime",
            "0.02",
            "--pairs",
            "2",
        ])
        .args(["--threads", "2", "--database-pieces", "0", "--out"])
        .arg(&csv)
        .arg("--pdn")
        .arg(&pdn)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(
        stdout.contains("(checkers-tuner 0.1.0, CheckerBoard engine)"),
        "{stdout}"
    );
    assert!(stdout.contains("time a move: A 0.0"), "{stdout}");
    let games = games(&csv, 2);
    assert_eq!(games.len(), 4);
    assert!(
        games.iter().all(|g| !g.record.reason.is_forfeit()),
        "{games:?}"
    );
    let pdn = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(read_pdn(&pdn).unwrap().len(), 4);
    assert!(pdn.contains("[White \"checkers-tuner 0.1.0\"]"), "{pdn}");
}

#[test]
fn misbehaving_libraries_lose_their_games_and_the_match_goes_on() {
    for (behaviour, reason, says) in [
        ("crash:3", "crash", "SIGSEGV"),
        ("hang", "hang", "killed"),
        (
            "hang-gamehist",
            "hang",
            "`set gamehist`: no move within 2.1 s (killed)",
        ),
        ("illegal", "illegal_move", "no legal move leaves that board"),
        ("unchanged", "illegal_move", "answered the board"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("m.csv");
        let out = bin()
            .env("CB_FIXTURE", behaviour)
            .args([
                "match",
                &fixture(),
                "material",
                "--movetime",
                "0.01",
                "--pairs",
                "1",
            ])
            .args(["--threads", "1", "--database-pieces", "0", "--out"])
            .arg(&csv)
            .assert()
            .success();
        let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        let games = games(&csv, 1);
        assert_eq!(games.len(), 2, "{behaviour}");
        for g in &games {
            assert_eq!(g.record.reason.label(), reason, "{behaviour}: {g:?}");
            assert_eq!(
                g.a_score(),
                checkers_engine::game::GameScore::Loss,
                "{behaviour}"
            );
            let detail = g.record.forfeit.as_deref().unwrap();
            assert!(
                detail.contains(says) && detail.contains("position "),
                "{detail}"
            );
        }
        assert!(stdout.contains(&format!("A lost by {reason}")), "{stdout}");
        assert!(stdout.contains("results for A: W 0  D 0  L 2"), "{stdout}");
    }
}

#[test]
fn refusals_come_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("m.csv");
    let run = |args: &[&str], env: &str| {
        let out = bin()
            .env("CB_FIXTURE", env)
            .args(["match"])
            .args(args)
            .args(["--pairs", "1", "--database-pieces", "0", "--out"])
            .arg(&csv)
            .assert()
            .code(2);
        assert!(!csv.exists(), "{args:?}: nothing written");
        String::from_utf8_lossy(&out.get_output().stderr).into_owned()
    };
    let fixture = fixture();
    let err = run(&[&fixture, "material", "--movetime", "0.01"], "italian");
    assert!(
        err.contains("not 21 (English checkers)") && err.contains("cb_fixture"),
        "{err}"
    );
    let err = run(&[&fixture, "material"], "");
    assert!(err.contains("--movetime SECONDS or --tc"), "{err}");
    let err = run(
        &["cb:/no/such/library.so", "material", "--movetime", "0.01"],
        "",
    );
    assert!(err.contains("cb:/no/such/library.so"), "{err}");
    let err = run(
        &["material", "material", "--option-b", "set hashsize 8"],
        "",
    );
    assert!(
        err.contains("--option-b") && err.contains("weights file"),
        "{err}"
    );
    let err = run(
        &[&fixture, "material", "--movetime", "0.01", "--depth-a", "4"],
        "",
    );
    assert!(err.contains("--depth-a"), "{err}");
    // A file that is not a library at all.
    let not_lib = dir.path().join("weights.so");
    std::fs::write(&not_lib, "not a library").unwrap();
    let arg = format!("cb:{}", not_lib.display());
    let err = run(&[&arg, "material", "--movetime", "0.01"], "");
    assert!(err.contains("not a CheckerBoard engine"), "{err}");
}

#[test]
fn our_hub_is_a_player_and_a_match_with_it_continues_after_ctrl_c() {
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let exe = assert_cmd::cargo::cargo_bin("checkers-tuner");
    let hub = format!(
        "hub:{} hub --weights material --database-pieces 0",
        exe.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = |out: &Path| {
        let mut cmd = std::process::Command::new(&exe);
        cmd.env("CHECKERS_TUNER_CACHE", d.join("cache"))
            .args([
                "match",
                "material",
                &hub,
                "--pairs",
                "8",
                "--min-depth",
                "4",
            ])
            .args([
                "--max-depth",
                "8",
                "--threads",
                "2",
                "--database-pieces",
                "0",
            ])
            .arg("--out")
            .arg(out);
        cmd
    };
    let whole = d.join("whole.csv");
    let output = args(&whole).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("(checkers-tuner"), "{stdout}");
    let whole_games = games(&whole, 8);
    assert!(whole_games.iter().all(|g| !g.record.reason.is_forfeit()));

    // Stopped by SIGINT after a pair or more, then the same command again.
    let part = d.join("part.csv");
    let mut cmd = args(&part);
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::setpgid(0, 0);
            Ok(())
        });
    }
    let child = cmd.spawn().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while std::fs::read_to_string(&part).map_or(0, |t| t.lines().count()) < 3
        && std::time::Instant::now() < deadline
    {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    // SAFETY: signals the process group we started, as a terminal's Ctrl-C does.
    unsafe { libc::kill(-(child.id() as libc::pid_t), libc::SIGINT) };
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    if output.status.code() == Some(130) {
        assert!(stdout.contains("interrupted after "), "{stdout}");
        let again = args(&part).output().unwrap();
        assert!(again.status.success());
        assert!(String::from_utf8_lossy(&again.stderr).contains("continuing"));
    }
    // Ctrl-C reached only the match: no game under way was lost as a crash, and the
    // continued file holds the uninterrupted match's games.
    assert_eq!(
        std::fs::read(&part).unwrap(),
        std::fs::read(&whole).unwrap()
    );
}

#[test]
fn misbehaving_hub_programs_lose_their_games_and_the_match_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    // A Hub program in a few lines of shell: the handshake, then what `go` does.
    let script = |name: &str, on_go: &str| {
        let path = dir.path().join(name);
        let text = format!(
            "while read line; do case \"$line\" in \
             hub) echo 'id name=bad version=1'; echo wait;; \
             init) echo ready;; \
             ping) echo pong;; \
             go*) {on_go};; \
             esac; done\n"
        );
        std::fs::write(&path, text).unwrap();
        format!("hub:sh {}", path.display())
    };
    for (program, reason, says) in [
        (
            script("crash.sh", "exit 3"),
            "crash",
            "exited with status 3",
        ),
        (script("hang.sh", "exec sleep 60"), "hang", "killed"),
        (
            script("illegal.sh", "echo 'done move=31-35'"),
            "illegal_move",
            "31-35",
        ),
        (
            script("error.sh", "echo 'error message=\"no\"'"),
            "bad_reply",
            "an error",
        ),
    ] {
        let csv = dir.path().join(format!("{reason}.csv"));
        let out = bin()
            .args([
                "match",
                &program,
                "material",
                "--movetime",
                "0.01",
                "--pairs",
                "1",
            ])
            .args(["--threads", "1", "--database-pieces", "0", "--out"])
            .arg(&csv)
            .assert()
            .success();
        let stdout = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
        for g in games(&csv, 1) {
            assert_eq!(g.record.reason.label(), reason, "{program}: {g:?}");
            assert_eq!(g.a_score(), checkers_engine::game::GameScore::Loss);
            let detail = g.record.forfeit.as_deref().unwrap();
            assert!(detail.contains(says), "{detail}");
        }
        assert!(stdout.contains("(bad 1, Hub program)"), "{stdout}");
    }
}
