//! The inputs' tests: a stream and the games held in memory read the same games.

use super::*;
use crate::run_folder::GAMES_FILE;
use std::sync::{Arc, Mutex};

/// Short finished games, `n` of them, each a different opening (PDN).
pub(in crate::fit) fn short_games(n: usize) -> String {
    let openings = ["9-13 22-18", "11-15 23-19", "10-14 24-20", "12-16 21-17"];
    let results = ["1-0", "0-1", "1/2-1/2"];
    (0..n)
        .map(|i| format!("1. {} {}\n", openings[i % 4], results[i % 3]))
        .collect()
}

/// A stream reads its files in order, lazily, and reports each one as reading it did:
/// counts, damaged games (the first twenty told one by one, then how many more), rows cut
/// short, and the files themselves.
#[test]
fn a_stream_reads_its_files_in_order_and_tells_what_it_met() {
    let dir = tempfile::tempdir().unwrap();
    let damaged = dir.path().join("damaged.pdn");
    let bad_game = "1. 9-13 9-14 0-1\n";
    std::fs::write(
        &damaged,
        format!(
            "{}{}1. 11-15 *\n{}",
            short_games(1),
            bad_game.repeat(23),
            short_games(1)
        ),
    )
    .unwrap();
    let run = dir.path().join("run");
    std::fs::create_dir(&run).unwrap();
    std::fs::write(
        run.join(GAMES_FILE),
        "round,opening,result,moves\n1,9-13 24-20,draw,12-16 28-24\n2,start,draw,11-1",
    )
    .unwrap();
    let clean = dir.path().join("clean.pdn");
    std::fs::write(&clean, short_games(3)).unwrap();
    let inputs = vec![damaged.clone(), run.clone(), clean.clone()];

    let notes = Arc::new(Mutex::new(Vec::new()));
    let told = Arc::clone(&notes);
    let mut stream = GameStream::open(&inputs, Damaged::Skip)
        .unwrap()
        .on_note(move |note| told.lock().unwrap().push(note.to_string()));
    let csv = run.join(GAMES_FILE);
    assert_eq!(
        stream.files(),
        [damaged.clone(), csv.clone(), clean.clone()]
    );
    let mut games = Vec::new();
    while let Some(game) = stream.next_game().unwrap() {
        games.push(game);
    }
    assert_eq!(stream.games(), 2 + 1 + 3);

    // The same games as each file read alone, in input order.
    let mut held = GameRecords::default();
    held.add_pdn(&damaged, Damaged::Skip).unwrap();
    held.add_games_csv(&csv).unwrap();
    held.add_pdn(&clean, Damaged::Skip).unwrap();
    assert_eq!(games, held.games);
    assert_eq!(stream.report(), &held.report);
    assert_eq!(GameRecords::read(&inputs, Damaged::Skip).unwrap(), held);

    let report = stream.report();
    assert_eq!(report.files, [damaged.clone(), csv.clone(), clean.clone()]);
    assert_eq!(report.unfinished, 1);
    assert_eq!(report.skipped.len(), LISTED_PER_FILE);
    assert_eq!(report.cut_rows, std::slice::from_ref(&csv));
    assert_eq!(
        report.pdn_files[0].to_string(),
        format!(
            "{}: 26 games, 2 read, 1 without a result, 23 skipped (damaged)",
            damaged.display()
        )
    );
    let notes = notes.lock().unwrap();
    // The listed games, the count of the others, the source of the run, the cut row.
    assert_eq!(notes.len(), LISTED_PER_FILE + 3, "{notes:?}");
    assert!(
        notes
            .iter()
            .any(|n| n.contains("learning from the run's games.csv")),
        "{notes:?}"
    );
    assert!(
        notes[0].contains("damaged.pdn: line 2: game 2: move 2 (9-14)"),
        "{}",
        notes[0]
    );
    assert!(notes[0].ends_with("; game skipped"), "{}", notes[0]);
    assert_eq!(
        notes[LISTED_PER_FILE],
        format!("{}: 3 more damaged games skipped", damaged.display())
    );
    assert!(notes[LISTED_PER_FILE + 2]
        .starts_with(&format!("{}: the last row is cut short", csv.display())));
}

/// Inputs without a finished game are bad input, with what was left out; a missing file
/// is found when its turn comes, a folder that is not a run at once.
#[test]
fn inputs_without_a_game_and_bad_inputs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let open = dir.path().join("open.pdn");
    std::fs::write(&open, "1. 11-15 *\n[Event \"x\"] *\n").unwrap();
    let mut stream = GameStream::open(std::slice::from_ref(&open), Damaged::Skip).unwrap();
    let err = stream.next_game().unwrap_err().to_string();
    assert!(
        err.ends_with(
            "open.pdn: no finished game to learn from (1 without a result, 1 without moves)"
        ),
        "{err}"
    );
    let missing = dir.path().join("missing.pdn");
    let mut stream = GameStream::open(&[missing], Damaged::Skip).unwrap();
    let err = stream.next_game().unwrap_err().to_string();
    assert!(err.contains("missing.pdn: file not found"), "{err}");
    let err = GameStream::open(&[dir.path().to_owned()], Damaged::Skip).unwrap_err();
    assert!(err.to_string().contains("not a run folder"), "{err}");
}

/// A stream's batches are the games in memory's, batch by batch, across a batch's end.
#[test]
fn a_stream_gives_the_batches_of_the_same_games_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pdn");
    std::fs::write(&path, short_games(2 * 7 + 3)).unwrap();
    let held = GameRecords::read(std::slice::from_ref(&path), Damaged::Refuse).unwrap();
    let batches = |games: Games<'_>| {
        let mut seen = Vec::new();
        let count = games
            .for_each_batch(7, |batch, first| seen.push((first, batch.to_vec())))
            .unwrap();
        (count, seen)
    };
    let mut stream = GameStream::open(&[path], Damaged::Refuse).unwrap();
    let streamed = batches(Games::Stream(&mut stream));
    assert_eq!(streamed, batches(Games::Memory(&held.games)));
    let firsts: Vec<(usize, usize)> = streamed
        .1
        .iter()
        .map(|(first, b)| (*first, b.len()))
        .collect();
    assert_eq!((streamed.0, firsts), (17, vec![(0, 7), (7, 7), (14, 3)]));
}

#[test]
fn a_games_csv_row_cut_short_is_left_out_and_said() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(GAMES_FILE);
    let rows = "round,opening,result,moves\n1,9-13 24-20,draw,12-16 28-24\n";
    std::fs::write(&path, format!("{rows}1,start,black_win,11-15 23-1")).unwrap();
    let mut records = GameRecords::default();
    records.add_games_csv(&path).unwrap();
    assert_eq!(records.games.len(), 1);
    assert_eq!(records.games[0].moves.len(), 4);
    assert_eq!(records.report.cut_rows, std::slice::from_ref(&path));
    std::fs::write(&path, rows).unwrap();
    let mut records = GameRecords::default();
    records.add_games_csv(&path).unwrap();
    assert_eq!((records.games.len(), records.report.cut_rows.len()), (1, 0));
}

#[test]
fn pdn_files_are_counted_and_damaged_games_skipped_or_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pdn");
    std::fs::write(
        &path,
        "1. 9-13 22-18 1-0\n[Event \"e\"]\n\n1. 9-13 9-14 0-1\n1. 11-15 *\n[Event \"t\"] *",
    )
    .unwrap();
    let mut records = GameRecords::default();
    records.add_pdn(&path, Damaged::Skip).unwrap();
    assert_eq!(records.games.len(), 1);
    let counts = &records.report.pdn_files[0];
    assert_eq!(
        counts.to_string(),
        format!(
            "{}: 4 games, 1 read, 1 without a result, 1 without moves, 1 skipped (damaged)",
            path.display()
        )
    );
    assert_eq!(records.report.skipped.len(), 1);
    assert_eq!(
        (
            records.report.skipped[0].1.game,
            records.report.skipped[0].1.line
        ),
        (2, 4)
    );
    let err = GameRecords::default()
        .add_pdn(&path, Damaged::Refuse)
        .unwrap_err();
    assert_eq!(err.exit_code(), 2);
    assert!(
        err.to_string().contains("line 4: game 2: move 2 (9-14)"),
        "{err}"
    );
}
