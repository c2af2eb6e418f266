//! PDN records of real games: written, read back with our reader, replayed to their result.

use assert_cmd::Command;
use checkers_tuner::{
    play_game, read_pdn, three_move_deck, EndReason, GameResult, GameSettings, PdnGame, Position,
    SearchParams, TieBreak, WeightPair, Weights,
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
                    checkers_tuner::Color::Black => GameResult::WhiteWin,
                    checkers_tuner::Color::White => GameResult::BlackWin,
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
