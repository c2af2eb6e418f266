//! The `hub` command driven as a GUI drives it: lines written to its standard input, answers
//! read from its standard output, one exchange at a time. The endgame database's cache is a
//! folder of the build (or a test's own), never the user's.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use checkers_engine::board::Position;
use checkers_engine::eval::Weights;
use checkers_engine::hub::{move_from_hub, move_to_hub, position_to_hub};
use checkers_engine::search::{SearchLimits, Searcher};
use checkers_engine::weights_file::WeightsFile;

/// A running `checkers-tuner hub` with its output read line by line on a thread.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

const PATIENCE: Duration = Duration::from_secs(60);

/// A cache without databases, so that the engine searches without one.
const NO_DATABASES: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/no-egdb");

impl Engine {
    fn start(args: &[&str]) -> Engine {
        Engine::start_with_cache(args, Path::new(NO_DATABASES))
    }

    fn start_with_cache(args: &[&str], cache: &Path) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_checkers-tuner"))
            .env("CHECKERS_TUNER_CACHE", cache)
            .arg("hub")
            // These tests compare the hub with the exact search; the selective default has a
            // test of its own.
            .args(if args.contains(&"--search") {
                &[][..]
            } else {
                &["--search", "exact"][..]
            })
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the engine");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input still open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next output line (fails the test after a minute of silence).
    fn next(&self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!("no answer within {PATIENCE:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output"),
        }
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.next();
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// Sends `line` and returns what came back before the `pong` of a following `ping`.
    fn exchange(&mut self, line: &str) -> Vec<String> {
        self.send(line);
        self.send("ping");
        let mut seen = self.until("pong");
        seen.pop();
        seen
    }

    /// Runs `go think` and returns the info lines and the move of the `done` line.
    fn think(&mut self) -> (Vec<String>, String) {
        self.send("go think");
        let mut seen = self.until("done");
        let done = seen.pop().unwrap();
        let mv = done
            .split_whitespace()
            .find_map(|w| w.strip_prefix("move="))
            .unwrap_or_else(|| panic!("no move in {done:?}"))
            .to_string();
        (seen, mv)
    }

    /// Sends `quit` and returns the exit status.
    fn quit(mut self) -> std::process::ExitStatus {
        self.send("quit");
        self.wait_exit()
    }

    fn wait_exit(&mut self) -> std::process::ExitStatus {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "the engine did not exit");
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn hub_pos(fen: &str) -> String {
    position_to_hub(&Position::from_fen(fen).unwrap())
}

#[test]
fn the_hub_says_which_search_it_uses() {
    let mut engine = Engine::start(&["--search", "selective"]);
    engine.send("hub");
    let lines = engine.until("wait");
    assert!(
        lines.contains(
            &r#"param name=search value=selective type=enum values="selective exact""#.into()
        ),
        "{lines:?}"
    );
    let mut exact = Engine::start(&[]);
    exact.send("hub");
    let lines = exact.until("wait");
    assert!(
        lines.contains(
            &r#"param name=search value=exact type=enum values="selective exact""#.into()
        ),
        "{lines:?}"
    );
}

#[test]
fn handshake_init_ping_and_quit() {
    let mut engine = Engine::start(&[]);
    engine.send("hub");
    let lines = engine.until("wait");
    assert!(
        lines[0].starts_with("id name=checkers-tuner version="),
        "{lines:?}"
    );
    assert!(
        lines.contains(&r#"param name=variant value=english type=enum values="english""#.into()),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "wait");
    assert!(engine
        .exchange("set-param name=variant value=english")
        .is_empty());
    engine.send("init");
    assert_eq!(engine.next(), "ready");
    engine.send("ping");
    assert_eq!(engine.next(), "pong");
    assert!(engine.exchange("new-game").is_empty());
    assert_eq!(engine.quit().code(), Some(0));
}

#[test]
fn a_depth_search_answers_the_fixed_depth_searchs_move_with_info_lines() {
    let mut engine = Engine::start(&["--weights", "material"]);
    engine.send("init");
    assert_eq!(engine.next(), "ready");
    let start = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
    assert!(engine.exchange(&format!("pos pos={start}")).is_empty());
    assert!(engine.exchange("level depth=4").is_empty());
    let (info, mv) = engine.think();
    assert_eq!(info.len(), 4, "{info:?}");
    for (d, line) in info.iter().enumerate() {
        assert!(
            line.starts_with(&format!("info depth={} score=", d + 1)),
            "{line}"
        );
        for key in ["nodes=", "time=", "pv="] {
            assert!(line.contains(key), "{line}");
        }
    }
    let pos = Position::start();
    let played = move_from_hub(&pos, &mv).unwrap();
    let expected =
        Searcher::default().search(&pos, &Weights::material(), SearchLimits::new(4, 10), None);
    assert_eq!(Some(played), expected.best_move);
    assert_eq!(engine.quit().code(), Some(0));
}

#[test]
fn a_forced_capture_is_played_in_hub_notation() {
    let mut engine = Engine::start(&["--weights", "material"]);
    // Black's man on 14 must take 18 and 27 on its way to 32.
    assert!(engine
        .exchange(&format!("pos pos={}", hub_pos("B:W18,27,30:B14")))
        .is_empty());
    engine.send("level depth=4");
    let (_, mv) = engine.think();
    assert_eq!(mv, "14x32x18x27");
    // The same after the moves of a game (captures among them) that leave Black a capture.
    let start = Position::start();
    let mut pos = start;
    let mut hub_moves = Vec::new();
    for text in [
        "11-15", "22-18", "15x22", "25x18", "12-16", "18-14", "9x18", "23x14",
    ] {
        let mv = pos.parse_move(text).unwrap();
        hub_moves.push(move_to_hub(&mv));
        pos = pos.play(&mv);
    }
    assert_eq!(hub_moves[2], "15x22x18");
    assert!(pos.legal_moves().iter().all(|m| m.is_capture()));
    let line = format!(
        "pos pos={} moves=\"{}\"",
        position_to_hub(&start),
        hub_moves.join(" ")
    );
    assert!(engine.exchange(&line).is_empty());
    engine.send("level move-time=0.2");
    let (_, mv) = engine.think();
    let played = move_from_hub(&pos, &mv).unwrap();
    assert!(played.is_capture(), "{mv}");
    assert!(pos.legal_moves().contains(&played));
    assert_eq!(engine.quit().code(), Some(0));
}

#[test]
fn bad_input_gives_error_lines_and_the_engine_goes_on() {
    let mut engine = Engine::start(&[]);
    let known = hub_pos("W:W25,27,31:B3,9,14,17");
    assert!(engine.exchange(&format!("pos pos={known}")).is_empty());
    assert!(engine.exchange("level depth=3").is_empty());
    for bad in [
        "bogus command",
        "pos pos=Wxyz",
        "pos",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"9-18\"",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"9-14 22x18\"",
        "level depth=0",
        "level nodes=lots",
        "level",
        "set-param name=variant value=normal",
        "pos moves=\"9-13",
    ] {
        let answer = engine.exchange(bad);
        assert_eq!(answer.len(), 1, "{bad}: {answer:?}");
        assert!(answer[0].starts_with("error message="), "{bad}: {answer:?}");
    }
    // A line of 3 MiB and one that is not UTF-8: one error line each, never the end.
    for bad in [vec![b'x'; 3 << 20], vec![0xff, 0xfe, b'p', b'o', b's']] {
        let stdin = engine.stdin.as_mut().unwrap();
        stdin.write_all(&bad).unwrap();
        stdin.write_all(b"\n").unwrap();
        engine.send("ping");
        let mut answer = engine.until("pong");
        answer.pop();
        assert_eq!(answer.len(), 1, "{answer:?}");
        assert!(answer[0].starts_with("error message="), "{answer:?}");
    }
    // None of the bad lines changed the position or the level.
    let (info, mv) = engine.think();
    assert_eq!(info.len(), 3);
    let pos = Position::from_fen("W:W25,27,31:B3,9,14,17").unwrap();
    assert!(move_from_hub(&pos, &mv).is_ok(), "{mv}");
    assert_eq!(engine.quit().code(), Some(0));
}

#[test]
fn stop_ends_an_infinite_search_and_ping_is_answered_during_it() {
    let mut engine = Engine::start(&[]);
    engine.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    engine.send("level infinite");
    engine.send("go analyze");
    assert!(engine.next().starts_with("info depth=1 "));
    engine.send("ping");
    assert_eq!(engine.until("pong").last().unwrap(), "pong");
    engine.send("stop");
    let lines = engine.until("done");
    assert!(lines.last().unwrap().starts_with("done move="), "{lines:?}");
    // Commands sent during a search wait for its end; a timed search ends on its own.
    engine.send("level move-time=0.3");
    let started = Instant::now();
    let (_, mv) = engine.think();
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(move_from_hub(&Position::start(), &mv).is_ok());
    assert_eq!(engine.quit().code(), Some(0));
}

#[test]
fn a_node_budget_gives_the_same_answer_every_time() {
    let answer = || {
        let mut engine = Engine::start(&[]);
        engine.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 23-19\"");
        engine.send("level nodes=20000");
        let (info, mv) = engine.think();
        assert_eq!(engine.quit().code(), Some(0));
        let last = info.last().unwrap().clone();
        // The time and speed differ from run to run; depth, score, nodes and line do not.
        let keep: Vec<&str> = last
            .split_whitespace()
            .filter(|w| !w.starts_with("time=") && !w.starts_with("nps="))
            .collect();
        (keep.join(" "), mv)
    };
    assert_eq!(answer(), answer());
}

#[test]
fn the_end_of_input_ends_the_engine() {
    let mut engine = Engine::start(&[]);
    engine.send("ping");
    assert_eq!(engine.next(), "pong");
    engine.stdin = None;
    assert_eq!(engine.wait_exit().code(), Some(0));
}

#[test]
fn a_bad_weights_file_is_refused_at_start() {
    let out = Command::new(env!("CARGO_BIN_EXE_checkers-tuner"))
        .env("CHECKERS_TUNER_CACHE", NO_DATABASES)
        .args(["hub", "--weights", "/no/such/weights.json"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("Error: "), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// The score of the last `info` line, in men.
fn last_score(info: &[String]) -> f64 {
    let line = info.last().expect("an info line");
    line.split_whitespace()
        .find_map(|w| w.strip_prefix("score="))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no score in {line:?}"))
}

#[test]
fn the_endgame_database_turns_a_shallow_search_into_a_known_win() {
    let cache = tempfile::tempdir().unwrap();
    // Two kings against one: a win the depth-2 search cannot see by itself.
    let pos = hub_pos("B:WK32:BK1,K5");
    let score = |args: &[&str]| {
        let mut engine = Engine::start_with_cache(args, cache.path());
        assert!(engine.exchange(&format!("pos pos={pos}")).is_empty());
        assert!(engine.exchange("level depth=2").is_empty());
        let (info, mv) = engine.think();
        assert!(
            move_from_hub(&Position::from_fen("B:WK32:BK1,K5").unwrap(), &mv).is_ok(),
            "{mv}"
        );
        assert_eq!(engine.quit().code(), Some(0));
        last_score(&info)
    };
    // Built into the test's cache at start-up (3 pieces take well under a second).
    let with = score(&["--database-pieces", "3"]);
    assert!(
        cache.path().read_dir().unwrap().next().is_some(),
        "no database in the cache"
    );
    // Scan's win notation: 99.xx, xx = 100 - plies to the end.
    assert!(with > 90.0 && with < 100.0, "score {with}");
    let without = score(&["--database-pieces", "0"]);
    assert!(without < 10.0, "score {without} without a database");
    // Without the flag, `material` searches with none, whatever the cache holds; a weights
    // file that records its run's database searches with that one.
    assert_eq!(score(&[]), without);
    let mut recorded = WeightsFile::material();
    recorded.database_pieces = Some(3);
    let file = cache.path().join("recorded.json");
    std::fs::write(&file, recorded.to_json()).unwrap();
    assert_eq!(score(&["--weights", file.to_str().unwrap()]), with);
}

#[test]
fn a_database_file_cut_or_copied_over_under_a_running_engine_does_not_end_it() {
    let cache = tempfile::tempdir().unwrap();
    let mut engine = Engine::start_with_cache(&["--database-pieces", "3"], cache.path());
    let pos = hub_pos("B:WK32:BK1,K5");
    assert!(engine.exchange(&format!("pos pos={pos}")).is_empty());
    assert!(engine.exchange("level depth=4").is_empty());
    let path = cache.path().join("egdb").join("egdb-3.bin");
    let bytes = std::fs::read(&path).unwrap();
    // Cut to nothing in place (what `cp` does first), then written anew with other bytes.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(0)
        .unwrap();
    let (_, mv) = engine.think();
    assert!(!mv.is_empty());
    std::fs::write(&path, vec![0u8; bytes.len() / 2]).unwrap();
    let (info, _) = engine.think();
    assert!(last_score(&info) > 90.0, "{info:?}");
    assert_eq!(engine.quit().code(), Some(0));
}

#[test]
fn a_database_too_large_is_refused_at_start() {
    let out = Command::new(env!("CARGO_BIN_EXE_checkers-tuner"))
        .env("CHECKERS_TUNER_CACHE", NO_DATABASES)
        .args(["hub", "--database-pieces", "99"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--database-pieces"), "{err}");
}
