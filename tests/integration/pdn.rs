//! PDN records of real games: written, read back with our reader, replayed to their result;
//! the corpus of `tests/data/pdn/` (the forms other programs write, tag-only games, damaged
//! games) read as CheckerBoard reads it; decks of positions.

use std::path::{Path, PathBuf};

use crate::support::bin_without_databases as bin;
use assert_cmd::Command;
use checkers_engine::board::Position;
use checkers_engine::eval::{WeightPair, Weights};
use checkers_engine::game::{
    load_openings_file, play_game, read_pdn, three_move_deck, EndReason, GameResult, GameSettings,
    Opening, PdnError, PdnGame, PdnReader, SearchParams, TieBreak,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_pair(rng: &mut ChaCha8Rng) -> WeightPair {
    let mut w = || {
        let mut v = [0i32; 10];
        v[0] = 100;
        v[1] = rng.gen_range(120..200);
        for x in &mut v[2..] {
            *x = rng.gen_range(-20..=20);
        }
        Weights(v)
    };
    WeightPair {
        opening: w(),
        endgame: w(),
    }
}

fn reason_text(reason: EndReason) -> &'static str {
    match reason {
        EndReason::NoMoves => "no moves",
        EndReason::Repetition => "repetition",
        EndReason::NoProgress => "no progress",
        EndReason::PlyCap => "ply cap",
        EndReason::Time => "time",
        EndReason::Database => "database",
        forfeit => forfeit.label(),
    }
}

#[test]
fn played_games_read_back_and_replay_to_their_result() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let settings = GameSettings {
        search: SearchParams {
            min_depth: 3,
            max_depth: 7,
            endgame_pieces: 10,
            tie_break: TieBreak::Random,
            ..SearchParams::default()
        },
        max_plies: 150,
        no_progress_plies: 40,
        time: None,
        database: None,
        database_adjudication: false,
    };
    let deck = three_move_deck();
    let mut written = Vec::new();
    let mut file = String::new();
    for round in 1..=16 {
        // Half the games from the standard start, half from 3-move ballots (a FEN tag, White
        // to move).
        let start = if round % 2 == 0 {
            Position::start()
        } else {
            deck[rng.gen_range(0..deck.len())].position
        };
        let (black, white) = (random_pair(&mut rng), random_pair(&mut rng));
        let mut game_rng = ChaCha8Rng::seed_from_u64(round);
        let record = play_game(&black, &white, &start, &settings, &mut game_rng);
        let mut game = PdnGame::new(
            "round trip",
            &round.to_string(),
            "black weights",
            "white weights",
            start,
            record.moves.clone(),
            Some(record.result),
        );
        game.set_tag("Termination", reason_text(record.reason));
        file.push_str(&game.to_pdn());
        written.push((game, record));
    }
    let read = read_pdn(&file).unwrap();
    assert_eq!(read.len(), written.len());
    let mut reasons = std::collections::HashSet::new();
    for (back, (game, record)) in read.iter().zip(&written) {
        assert_eq!(back, game);
        assert_eq!(back.moves, record.moves);
        // Replay: the recorded reason holds at the end position.
        let end = back.end_position();
        match record.reason {
            EndReason::NoMoves => {
                assert!(end.legal_moves().is_empty());
                let expected = match end.side_to_move() {
                    checkers_engine::board::Color::Black => GameResult::WhiteWin,
                    checkers_engine::board::Color::White => GameResult::BlackWin,
                };
                assert_eq!(back.result, Some(expected));
            }
            EndReason::Repetition => {
                let mut pos = back.start;
                let mut seen = vec![pos];
                for mv in &back.moves {
                    pos = pos.play(mv);
                    seen.push(pos);
                }
                assert!(seen.iter().filter(|&&p| p == end).count() >= 3);
                assert_eq!(back.result, Some(GameResult::Draw));
            }
            EndReason::NoProgress | EndReason::PlyCap => {
                assert_eq!(back.result, Some(GameResult::Draw))
            }
            EndReason::Time => panic!("a game without a clock ended on time"),
            EndReason::Database => panic!("these games are played without a database"),
            r => panic!("our engine never forfeits: {r:?}"),
        }
        reasons.insert(reason_text(record.reason));
        if back.start != Position::start() {
            assert!(game.to_pdn().contains("[FEN \""));
        }
    }
    assert!(reasons.contains("no moves"), "{reasons:?}");
}

#[test]
fn play_writes_its_game_as_pdn() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.pdn");
    Command::cargo_bin("checkers-tuner")
        .unwrap()
        .env(
            "CHECKERS_TUNER_CACHE",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/no-egdb"),
        )
        .args([
            "play",
            "--fen",
            "B:W18:B14",
            "--min-depth",
            "2",
            "--max-depth",
            "4",
        ])
        .arg("--pdn")
        .arg(&path)
        .write_stdin("14x23\n")
        .assert()
        .success();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("[Result \"1-0\"]"), "{text}");
    assert!(text.contains("[FEN \"B:W18:B14\"]"), "{text}");
    assert!(text.contains("\n1. 14x23 1-0\n"), "{text}");
    let games = read_pdn(&text).unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].tag("Black"), Some("you"));
    // A game left unfinished is written with result *.
    Command::cargo_bin("checkers-tuner")
        .unwrap()
        .env(
            "CHECKERS_TUNER_CACHE",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/no-egdb"),
        )
        .args(["play", "--min-depth", "2", "--max-depth", "4", "--pdn"])
        .arg(&path)
        .write_stdin("9-13\nquit\n")
        .assert()
        .success();
    let games = read_pdn(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(games[0].result, None);
    assert_eq!(games[0].moves.len(), 2);
    // A --pdn path in a folder that does not exist is refused before the game.
    Command::cargo_bin("checkers-tuner")
        .unwrap()
        .env(
            "CHECKERS_TUNER_CACHE",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/no-egdb"),
        )
        .args(["play", "--pdn", "/no/such/folder/game.pdn"])
        .write_stdin("quit\n")
        .assert()
        .code(2);
}

/// A file of the corpus.
fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/pdn")
        .join(name)
}

/// Every game of a corpus file, read or damaged, through a buffered file reader.
fn read_corpus(name: &str) -> Vec<Result<PdnGame, PdnError>> {
    let file = std::fs::File::open(corpus(name)).unwrap();
    let mut reader = PdnReader::new(std::io::BufReader::new(file));
    let mut games = Vec::new();
    while let Some(game) = reader.next_game().unwrap() {
        games.push(game);
    }
    games
}

#[test]
fn the_forms_other_programs_write_read_as_the_same_games() {
    let canonical = read_pdn(&std::fs::read_to_string(corpus("canonical.pdn")).unwrap()).unwrap();
    assert_eq!(canonical.len(), 6);
    let mut seen = 0;
    for file in [
        "forms_crlf_bom.pdn",
        "forms_comments.pdn",
        "forms_latin1.pdn",
    ] {
        for game in read_corpus(file) {
            let game = game.unwrap_or_else(|e| panic!("{file}: {e}"));
            // Each game's Event starts with the name of its canonical twin ("G3: …").
            let event = game.tag("Event").unwrap();
            let twin = canonical
                .iter()
                .find(|c| event.starts_with(&format!("{}:", c.tag("Event").unwrap())))
                .unwrap_or_else(|| panic!("{file}: no twin for {event}"));
            assert_eq!(
                (game.start, &game.moves, game.result),
                (twin.start, &twin.moves, twin.result),
                "{file}: {event}"
            );
            seen += 1;
        }
    }
    assert_eq!(seen, 6);
    // Latin-1 names read as Latin-1; the UTF-8 byte-order mark is not part of the first tag.
    let latin1 = read_corpus("forms_latin1.pdn");
    let game = latin1[0].as_ref().unwrap();
    assert_eq!(game.tag("Black"), Some("José Muñoz"));
    assert_eq!(game.tag("White"), Some("François"));
    let bom = read_corpus("forms_crlf_bom.pdn");
    assert!(bom[0].as_ref().unwrap().tag("Event").is_some());
}

#[test]
fn tag_only_games_are_games_of_their_own() {
    let games: Vec<PdnGame> = read_corpus("tag_only.pdn")
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let summary: Vec<(&str, usize, String)> = games
        .iter()
        .map(|g| (g.tag("Event").unwrap(), g.moves.len(), g.start.to_fen()))
        .collect();
    let start = Position::start().to_fen();
    assert_eq!(
        summary,
        [
            ("tags alone 1", 0, "W:W21:B1".to_string()),
            ("a game after it", 2, start.clone()),
            ("tags alone 2", 0, start.clone()),
            (
                "tags alone 3: a repeated tag starts a game",
                1,
                "B:W18:B14".to_string()
            ),
            ("tags alone 4, ended by its result", 0, start),
        ]
    );
    assert_eq!(games[3].result, Some(GameResult::BlackWin));
    assert_eq!(games[4].result, None);
}

#[test]
fn damaged_games_are_skipped_with_the_line_of_the_bad_token() {
    let games = read_corpus("damaged.pdn");
    let outcome: Vec<Result<&str, (usize, usize)>> = games
        .iter()
        .map(|g| match g {
            Ok(game) => Ok(game.tag("Event").unwrap()),
            Err(e) => Err((e.game, e.line)),
        })
        .collect();
    assert_eq!(
        outcome,
        [
            Ok("good 1"),
            Err((2, 8)),
            Err((3, 11)),
            Err((4, 14)),
            Ok("good 2"),
            Err((6, 21)),
            Err((7, 25)),
            Ok("good 3, unfinished"),
            Err((9, 30)),
        ]
    );
    let reason = |i: usize| games[i].as_ref().unwrap_err().message.clone();
    assert!(reason(1).starts_with("move 4 (18-23): "), "{}", reason(1));
    assert!(reason(2).starts_with("move 4 (~~): "), "{}", reason(2));
    assert!(reason(3).starts_with("FEN \"B:W33:B1\""), "{}", reason(3));
    assert!(
        reason(5).contains("tag Event is not closed"),
        "{}",
        reason(5)
    );
    assert!(reason(6).starts_with("move 2 (22x15): "), "{}", reason(6));
    assert!(reason(8).contains("never closed"), "{}", reason(8));

    // `fit` skips them, says where and why, and counts them; `--strict` refuses the file.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    let run = bin()
        .args(["fit", "--first-ply", "0", "--validation", "0", "-o"])
        .arg(&out)
        .arg(corpus("damaged.pdn"))
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&run.get_output().stdout).into_owned();
    let stderr = String::from_utf8_lossy(&run.get_output().stderr).into_owned();
    assert!(
        stdout.contains("damaged.pdn: 9 games, 2 read, 1 without a result, 6 skipped (damaged)"),
        "{stdout}"
    );
    for line in [8, 11, 14, 21, 25, 30] {
        assert!(
            stderr.contains(&format!("damaged.pdn: line {line}: game ")),
            "{line}: {stderr}"
        );
    }
    assert_eq!(stderr.matches("; game skipped").count(), 6, "{stderr}");
    std::fs::remove_file(&out).unwrap();
    let refused = bin()
        .args(["fit", "--strict", "-o"])
        .arg(&out)
        .arg(corpus("damaged.pdn"))
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&refused.get_output().stderr).into_owned();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("damaged.pdn: line 8: game 2: move 4 (18-23)"),
        "{stderr}"
    );
    assert!(!out.exists());
}

#[test]
fn decks_of_positions_in_pdn_or_one_per_line() {
    let pdn = load_openings_file(&corpus("deck.pdn")).unwrap();
    let lines = load_openings_file(&corpus("deck.txt")).unwrap();
    assert_eq!(pdn, lines);
    let names: Vec<&str> = pdn.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "B:W18,21,22,23,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12",
            "W:W19,21,22,23,24,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12",
            "W:WK1,31:B4,K32",
            "9-13 22-18 10-14",
            "W:W18,22:B9,14",
        ]
    );
    // A name replays to its opening: the run's and the match's CSV files keep only the name.
    for opening in &pdn {
        assert_eq!(&Opening::from_name(&opening.name).unwrap(), opening);
    }
    // A match over the deck starts each game from its position (a FEN tag), or from the
    // standard position with the opening's moves first.
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.pdn");
    bin()
        .args(["match", "material", "material", "--openings"])
        .arg(corpus("deck.pdn"))
        .args([
            "--min-depth",
            "2",
            "--max-depth",
            "4",
            "--max-plies",
            "20",
            "--database-pieces",
            "0",
            "-q",
            "--pdn",
        ])
        .arg(&games)
        .assert()
        .success();
    let played = read_pdn(&std::fs::read_to_string(&games).unwrap()).unwrap();
    assert_eq!(played.len(), 2 * pdn.len());
    for (i, game) in played.iter().enumerate() {
        let opening = &pdn[i / 2];
        assert_eq!(game.tag("Opening"), Some(opening.name.as_str()));
        let plies: usize = game.tag("OpeningPlies").unwrap().parse().unwrap();
        let after_opening = game.moves[..plies]
            .iter()
            .fold(game.start, |pos, mv| pos.play(mv));
        assert_eq!(after_opening, opening.position, "game {}", i + 1);
    }
}

#[test]
fn a_tune_config_takes_a_pdn_deck() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("deck.toml");
    std::fs::write(
        &config,
        format!(
            "name = \"deck\"\nseed = 3\n[population]\nsize = 4\n[tournament]\nrounds = 1\n\
             openings = {:?}\nmax_plies = 20\nplayoff_openings = 1\ngames_pdn = true\n\
             [search]\nmin_depth = 2\nmax_depth = 3\ndatabase_pieces = 0\n",
            corpus("deck.pdn").to_str().unwrap()
        ),
    )
    .unwrap();
    let run = dir.path().join("run");
    bin()
        .arg("tune")
        .arg(&config)
        .arg("--out")
        .arg(&run)
        .arg("-q")
        .assert()
        .success();
    let deck = load_openings_file(&corpus("deck.pdn")).unwrap();
    let games = read_pdn(&std::fs::read_to_string(run.join("games.pdn")).unwrap()).unwrap();
    assert!(!games.is_empty());
    for game in &games {
        let name = game.tag("Opening").unwrap();
        let opening = deck.iter().find(|o| o.name == name).unwrap();
        let plies: usize = game.tag("OpeningPlies").unwrap().parse().unwrap();
        let after_opening = game.moves[..plies]
            .iter()
            .fold(game.start, |pos, mv| pos.play(mv));
        assert_eq!(after_opening, opening.position, "{name}");
    }
    // The run's games.csv names the positions; fit replays them.
    bin()
        .arg("fit")
        .arg(&run)
        .args(["--first-ply", "0", "-q", "-o"])
        .arg(dir.path().join("fit.json"))
        .assert()
        .success();
}
