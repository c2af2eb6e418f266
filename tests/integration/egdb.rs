//! The endgame database: its values follow from the rules (checked with the move generator on
//! random positions of every class up to four pieces), classic endings come out as the books
//! say, the search and the games use it, damaged files are rebuilt, and the `egdb` commands.

use std::sync::OnceLock;

use assert_cmd::Command;
use checkers_engine::board::{Color, Position};
use checkers_engine::egdb::{
    build as build_endgame_db, check_writable as check_endgame_cache_writable,
    database_path as endgame_db_path, open_or_build as open_or_build_endgame_db, DbValue,
    EgdbError, EndgameDb, Material, Opened,
};
use checkers_engine::eval::WeightPair;
use checkers_engine::game::{play_game, EndReason, GameResult, GameSettings, SearchParams};
use checkers_engine::search::{SearchLimits, Searcher, WIN};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The four-piece database, built once for this test binary (in memory: no cache folder).
fn db4() -> &'static EndgameDb {
    static DB: OnceLock<&'static EndgameDb> = OnceLock::new();
    DB.get_or_init(|| build_endgame_db(4, &|_| {}).unwrap().leak())
}

/// A random legal position of `material` with `side` to move, placed square by square (not
/// through the database's numbering).
fn random_position(material: &Material, side: Color, rng: &mut ChaCha8Rng) -> Position {
    let mut squares: Vec<u32> = (0..32).collect();
    squares.shuffle(rng);
    let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
    let mut take = |allowed: u32, rng: &mut ChaCha8Rng| -> u32 {
        loop {
            let i = rng.gen_range(0..squares.len());
            let bit = 1u32 << squares[i];
            if bit & allowed != 0 {
                squares.swap_remove(i);
                return bit;
            }
        }
    };
    for _ in 0..material.black_men {
        black |= take(0x0FFF_FFFF, rng);
    }
    for _ in 0..material.white_men {
        white |= take(0xFFFF_FFF0, rng);
    }
    for _ in 0..material.black_kings {
        let b = take(u32::MAX, rng);
        black |= b;
        kings |= b;
    }
    for _ in 0..material.white_kings {
        let b = take(u32::MAX, rng);
        white |= b;
        kings |= b;
    }
    Position::from_parts(black, white, kings, side).unwrap()
}

/// Checks one position's value against its children's, by the rules: no move is a loss at 0;
/// a win at d has a move to a loss at d - 1 and none to a shorter loss; a loss at d has only
/// moves to wins, the longest at d - 1; a draw has no move to a loss and some move to a draw.
fn check_by_the_rules(db: &EndgameDb, pos: &Position) {
    let value = db.probe(pos).unwrap();
    let moves = pos.legal_moves();
    let children: Vec<DbValue> = moves
        .iter()
        .map(|mv| db.probe(&pos.play(mv)).unwrap())
        .collect();
    let fen = pos.to_fen();
    let shortest_loss = children
        .iter()
        .filter_map(|v| match v {
            DbValue::Loss(d) => Some(*d),
            _ => None,
        })
        .min();
    let all_wins: Option<Vec<u32>> = children
        .iter()
        .map(|v| match v {
            DbValue::Win(d) => Some(*d),
            _ => None,
        })
        .collect();
    match value {
        DbValue::Loss(0) => assert!(moves.is_empty(), "{fen}: loss 0 with moves"),
        DbValue::Loss(d) => {
            let wins = all_wins.unwrap_or_else(|| panic!("{fen}: loss {d} with a non-won child"));
            assert_eq!(wins.iter().max(), Some(&(d - 1)), "{fen}: loss {d}");
        }
        DbValue::Win(d) => {
            assert_eq!(shortest_loss, Some(d - 1), "{fen}: win {d}");
        }
        DbValue::Draw => {
            assert!(!moves.is_empty(), "{fen}: draw without moves");
            assert_eq!(shortest_loss, None, "{fen}: draw with a won move");
            assert!(all_wins.is_none(), "{fen}: draw with only lost moves");
        }
    }
}

#[test]
fn values_follow_from_the_children_on_random_positions_of_every_class() {
    let db = db4();
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let classes = Material::all(4);
    // Every class with at least one piece a side and at most four pieces: a black and c white
    // pieces, each side (a + 1) ways to split them into men and kings.
    let expected: u32 = (1..=3u32)
        .flat_map(|a| (1..=4 - a).map(move |c| (a + 1) * (c + 1)))
        .sum();
    assert_eq!(classes.len(), expected as usize);
    let mut seen = [0usize; 3];
    for material in &classes {
        for k in 0..60 {
            let side = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            let pos = random_position(material, side, &mut rng);
            check_by_the_rules(db, &pos);
            match db.probe(&pos).unwrap() {
                DbValue::Win(_) => seen[0] += 1,
                DbValue::Loss(_) => seen[1] += 1,
                DbValue::Draw => seen[2] += 1,
            }
        }
    }
    // The sample meets all three values.
    assert!(seen.iter().all(|&n| n > 100), "{seen:?}");
}

#[test]
fn a_database_win_is_played_out_to_the_end_in_exactly_its_distance() {
    let db = db4();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut checked = 0;
    for material in Material::all(4) {
        for _ in 0..5 {
            let start = random_position(&material, Color::Black, &mut rng);
            let DbValue::Win(distance) = db.probe(&start).unwrap() else {
                continue;
            };
            // The winner takes a fastest move, the loser a slowest; the game must end with the
            // loser having no move after exactly `distance` plies.
            let mut pos = start;
            let mut plies = 0;
            while !pos.legal_moves().is_empty() {
                let moves = pos.legal_moves();
                let score = |mv| match db.probe(&pos.play(mv)).unwrap() {
                    DbValue::Loss(d) => 1000 - d as i64,
                    DbValue::Win(d) => d as i64 - 1000,
                    DbValue::Draw => 0,
                };
                pos = pos.play(moves.iter().max_by_key(|mv| score(mv)).unwrap());
                plies += 1;
                assert!(
                    plies <= distance,
                    "{}: longer than {distance}",
                    start.to_fen()
                );
            }
            assert_eq!(plies, distance, "{}", start.to_fen());
            assert_eq!(plies % 2, 1, "the winner makes the last move");
            checked += 1;
        }
    }
    assert!(checked > 50, "{checked}");
}

#[test]
fn classic_endings_come_out_as_the_books_say() {
    let db = db4();
    let value = |fen: &str| db.probe(&Position::from_fen(fen).unwrap()).unwrap();
    let wins = |v: DbValue| matches!(v, DbValue::Win(_));
    let loses = |v: DbValue| matches!(v, DbValue::Loss(_));
    // First Position: two kings against a king and a man, the kings (White) to move win.
    assert!(wins(value("W:WK15,20:BK28,12")));
    // "First position without": Black to play and win (Checker Maven problem).
    assert!(wins(value("B:W22,K5:BK15,K6")));
    // Two kings beat a lone king even in its double corner, whoever is to move.
    for fen in ["W:WK18,K19:BK32", "W:WK1,K5:BK32", "W:WK27,K23:BK1"] {
        assert!(wins(value(fen)), "{fen}");
        let black_to_move = fen.replacen('W', "B", 1);
        assert!(loses(value(&black_to_move)), "{black_to_move}");
    }
    // A lone king against a lone king is a draw, unless one can take the other at once.
    assert_eq!(value("B:WK10:BK32"), DbValue::Draw);
    assert_eq!(value("W:WK10:BK32"), DbValue::Draw);
    assert_eq!(value("B:WK10:BK6"), DbValue::Win(1));
    // A side with no move has lost.
    assert_eq!(value("B:W9,14:B5"), DbValue::Loss(0));
    // More pieces than the database holds: no answer.
    assert_eq!(db.probe(&Position::start()), None);
}

#[test]
fn the_search_scores_database_positions_exactly_and_converts_a_won_ending() {
    let db = db4();
    let weights = WeightPair::material().endgame;
    let first_position = Position::from_fen("W:WK15,20:BK28,12").unwrap();
    let DbValue::Win(distance) = db.probe(&first_position).unwrap() else {
        panic!("First Position is a win");
    };
    let mut searcher = Searcher::default();
    searcher.set_endgame_db(Some(db));
    let found = searcher.search(&first_position, &weights, SearchLimits::new(4, 8), None);
    assert_eq!(found.score, WIN - distance as i32);
    let after = first_position.play(&found.best_move.unwrap());
    assert_eq!(db.probe(&after), Some(DbValue::Loss(distance - 1)));

    // Without the database the same search is the search of before: same nodes, same move.
    let mut plain = Searcher::default();
    let mut switched_off = Searcher::default();
    switched_off.set_endgame_db(Some(db));
    switched_off.set_endgame_db(None);
    let a = plain.search(&first_position, &weights, SearchLimits::new(6, 10), None);
    let b = switched_off.search(&first_position, &weights, SearchLimits::new(6, 10), None);
    assert_eq!(a, b);
    assert!(
        a.score.abs() < WIN - 1000,
        "depth 6 alone sees no forced result"
    );

    // A game from First Position, played on without adjudication, is won by White with the
    // database in the search (given room beyond the 80-ply rule: the win takes 81 plies).
    let settings = GameSettings {
        search: SearchParams {
            min_depth: 2,
            max_depth: 4,
            ..SearchParams::default()
        },
        no_progress_plies: 200,
        database: Some(db),
        database_adjudication: false,
        ..GameSettings::default()
    };
    let material = WeightPair::material();
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let game = play_game(&material, &material, &first_position, &settings, &mut rng);
    assert_eq!(game.result, GameResult::WhiteWin);
    assert_eq!(game.reason, EndReason::NoMoves);
    assert_eq!(game.plies, distance, "both sides play perfectly");

    // With adjudication the game ends at once, by the database's value.
    let adjudicated = GameSettings {
        database_adjudication: true,
        ..settings
    };
    let game = play_game(
        &material,
        &material,
        &first_position,
        &adjudicated,
        &mut rng,
    );
    assert_eq!(
        (game.result, game.reason, game.plies),
        (GameResult::WhiteWin, EndReason::Database, 0)
    );
}

#[test]
fn a_damaged_or_cut_file_is_found_out_and_built_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = endgame_db_path(dir.path(), 3);
    assert!(matches!(
        EndgameDb::load(&path, 3),
        Err(EgdbError::Missing(_))
    ));
    let (built, how) = open_or_build_endgame_db(dir.path(), 3, |_| {}, &|_| {}).unwrap();
    assert_eq!(how, Opened::Built);
    let loaded = EndgameDb::load(&path, 3).unwrap();
    assert_eq!(loaded, built);
    let probe = Position::from_fen("W:WK1,K5:BK32").unwrap();
    assert_eq!(loaded.probe(&probe), built.probe(&probe));

    let good = std::fs::read(&path).unwrap();
    let mut flipped = good.clone();
    let at = flipped.len() / 2;
    flipped[at] ^= 0x10;
    let cut = good[..good.len() - 100].to_vec();
    let mut wrong_pieces = good.clone();
    wrong_pieces[12] = 4;
    for damaged in [flipped, cut, wrong_pieces, b"not a database".to_vec()] {
        std::fs::write(&path, &damaged).unwrap();
        assert!(matches!(
            EndgameDb::load(&path, 3),
            Err(EgdbError::Damaged(..))
        ));
        let mut told = None;
        let (db, how) = open_or_build_endgame_db(
            dir.path(),
            3,
            |why| told = why.map(|e| e.to_string()),
            &|_| {},
        )
        .unwrap();
        assert_eq!(how, Opened::Rebuilt);
        assert!(told.unwrap().contains("damaged"));
        assert_eq!(db, built);
        assert_eq!(std::fs::read(&path).unwrap(), good);
    }
}

/// The binary with its database cache in `dir`.
fn bin(dir: &std::path::Path) -> Command {
    let mut command = Command::cargo_bin("checkers-tuner").unwrap();
    command.env("CHECKERS_TUNER_CACHE", dir);
    command
}

#[test]
fn egdb_build_and_probe_through_the_binary() {
    let cache = tempfile::tempdir().unwrap();
    // No database yet: probe fails with one line and status 2.
    bin(cache.path())
        .args(["egdb", "probe", "--fen", "W:WK1,K5:BK32"])
        .assert()
        .code(2)
        .stderr(contains("no endgame database"));
    bin(cache.path())
        .args(["egdb", "build", "--pieces", "3"])
        .assert()
        .success()
        .stdout(contains("built 3 pieces"))
        .stderr(contains("Building the 3-piece endgame database"));
    // --quiet: the same build, nothing on stderr.
    bin(cache.path())
        .args(["egdb", "build", "--pieces", "3", "--force", "--quiet"])
        .assert()
        .success()
        .stdout(contains("built 3 pieces"))
        .stderr("");
    assert!(endgame_db_path(&cache.path().join("egdb"), 3).is_file());
    let db = EndgameDb::load(&endgame_db_path(&cache.path().join("egdb"), 3), 3).unwrap();
    for fen in [
        "W:WK1,K5:BK32",
        "B:WK1,K5:BK32",
        "B:WK10:BK32",
        "B:W9,14:B5",
        "W:W22:BK15,K6",
    ] {
        let expected = db.probe(&Position::from_fen(fen).unwrap()).unwrap();
        bin(cache.path())
            .args(["egdb", "probe", "--fen", fen])
            .assert()
            .success()
            .stdout(format!("{expected}\n"));
    }
    // A second build finds the file sound and keeps it.
    bin(cache.path())
        .args(["egdb", "build", "--pieces", "3"])
        .assert()
        .success()
        .stdout(contains("already built"));
    // Too many pieces, a bad FEN, a database not built: status 2, one line.
    for (args, message) in [
        (vec!["--fen", "W:WK1,K5,K9:BK32"], "4 pieces"),
        (vec!["--fen", "W:WK1,K5:BK33"], "--fen"),
        (
            vec!["--fen", "W:WK1:BK32", "--pieces", "2"],
            "no endgame database",
        ),
    ] {
        let out = bin(cache.path())
            .args(["egdb", "probe"])
            .args(&args)
            .assert()
            .code(2)
            .stderr(contains(message));
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
    }
    // `analyse` shows the database's value of the position it searches.
    let expected = db
        .probe(&Position::from_fen("W:WK1,K5:BK32").unwrap())
        .unwrap();
    bin(cache.path())
        .args([
            "analyse",
            "--fen",
            "W:WK1,K5:BK32",
            "--min-depth",
            "2",
            "--max-depth",
            "4",
            "--database-pieces",
            "3",
        ])
        .assert()
        .success()
        // A forced result reads as one: `score win 31`, the database's distance.
        .stdout(
            contains(format!("database {expected}")).and(contains(format!("score {expected} "))),
        );
    // Without --database-pieces or --weights, the default champion searches with none, whatever
    // the cache holds.
    bin(cache.path())
        .args(["analyse", "--fen", "W:WK1,K5:BK32", "--min-depth", "2"])
        .assert()
        .success()
        .stdout(contains("database").not());
}

/// Sets the modification time of `path` to `seconds` ago (a stamp trusts no fresher file).
fn age(path: &std::path::Path, seconds: u64) {
    let file = std::fs::File::options().write(true).open(path).unwrap();
    let then = std::time::SystemTime::now() - std::time::Duration::from_secs(seconds);
    file.set_modified(then).unwrap();
}

/// The stamp beside the database file `path`.
fn stamp_of(path: &std::path::Path) -> std::path::PathBuf {
    path.with_file_name(format!(
        "{}.stamp",
        path.file_name().unwrap().to_string_lossy()
    ))
}

#[test]
fn a_stamped_file_is_checked_once_and_a_changed_one_again() {
    let dir = tempfile::tempdir().unwrap();
    let path = endgame_db_path(dir.path(), 3);
    let (built, _) = open_or_build_endgame_db(dir.path(), 3, |_| {}, &|_| {}).unwrap();
    let stamp = stamp_of(&path);
    // A file written a moment ago is not stamped: its next write could keep its time.
    assert_eq!(EndgameDb::load(&path, 3).unwrap(), built);
    assert!(!stamp.exists());
    age(&path, 3600);
    assert_eq!(EndgameDb::load(&path, 3).unwrap(), built);
    let text = std::fs::read_to_string(&stamp).unwrap();
    assert!(
        text.contains(&format!("checksum {}", built.checksum())),
        "{text}"
    );
    assert_eq!(EndgameDb::load(&path, 3).unwrap(), built);

    let good = std::fs::read(&path).unwrap();
    let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
    let restore_time = |path: &std::path::Path| {
        let file = std::fs::File::options().write(true).open(path).unwrap();
        file.set_modified(modified).unwrap();
    };
    // A byte flipped after the stamp: the file's time changed, so it is checked again.
    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 0x10;
    std::fs::write(&path, &flipped).unwrap();
    age(&path, 60);
    assert!(matches!(
        EndgameDb::load(&path, 3),
        Err(EgdbError::Damaged(..))
    ));
    // With the stamped time put back, the header is still checked at every start: a changed
    // checksum field does not match the stamp, and the file is checked whole.
    let mut header = good.clone();
    header[24] ^= 0x01;
    std::fs::write(&path, &header).unwrap();
    restore_time(&path);
    assert!(matches!(
        EndgameDb::load(&path, 3),
        Err(EgdbError::Damaged(..))
    ));
    // A flipped table byte under the stamped time and size is what the stamp trusts; removing
    // the stamp (or `egdb build --force`) has it checked again.
    std::fs::write(&path, &flipped).unwrap();
    restore_time(&path);
    std::fs::remove_file(&stamp).unwrap();
    assert!(matches!(
        EndgameDb::load(&path, 3),
        Err(EgdbError::Damaged(..))
    ));
    // A cut file and another piece count's file, stamped or not.
    std::fs::write(&path, &good[..good.len() - 7]).unwrap();
    restore_time(&path);
    assert!(matches!(
        EndgameDb::load(&path, 3),
        Err(EgdbError::Damaged(..))
    ));
    open_or_build_endgame_db(dir.path(), 2, |_| {}, &|_| {}).unwrap();
    std::fs::copy(endgame_db_path(dir.path(), 2), &path).unwrap();
    let err = EndgameDb::load(&path, 3).unwrap_err();
    assert!(err.to_string().contains("2 pieces, expected 3"), "{err}");

    // A damaged stamp is no stamp: the file is checked and stamped again.
    std::fs::write(&path, &good).unwrap();
    age(&path, 3600);
    std::fs::write(&stamp, "checkers-tuner endgame database stamp 1\nsize x\n").unwrap();
    assert_eq!(EndgameDb::load(&path, 3).unwrap(), built);
    assert!(std::fs::read_to_string(&stamp)
        .unwrap()
        .contains("checksum"));
}

#[test]
fn a_folder_or_a_link_to_something_else_is_never_used() {
    let dir = tempfile::tempdir().unwrap();
    let path = endgame_db_path(dir.path(), 2);
    std::fs::create_dir_all(&path).unwrap();
    let err = open_or_build_endgame_db(dir.path(), 2, |_| {}, &|_| {}).unwrap_err();
    assert!(matches!(err, EgdbError::Unusable(..)), "{err}");
    assert!(err.to_string().contains("is a folder"), "{err}");
    std::fs::remove_dir(&path).unwrap();

    let other = dir.path().join("notes.txt");
    std::fs::write(
        &other,
        "not a database, but long enough to have a header of 32 bytes",
    )
    .unwrap();
    std::os::unix::fs::symlink(&other, &path).unwrap();
    assert!(matches!(
        EndgameDb::load(&path, 2),
        Err(EgdbError::Damaged(..))
    ));
    // Rebuilding would replace the link, not the file it points to: refused, and the file
    // it points to is left as it was.
    assert!(open_or_build_endgame_db(dir.path(), 2, |_| {}, &|_| {}).is_err());
    assert!(std::fs::read_to_string(&other)
        .unwrap()
        .starts_with("not a database"));
}

/// The binary with its database cache in `dir`, which gives up after a minute: a command that
/// waits on a pipe fails the test instead of hanging it.
fn patient(dir: &std::path::Path) -> Command {
    let mut command = bin(dir);
    command.timeout(std::time::Duration::from_secs(60));
    command
}

fn mkfifo(path: &std::path::Path) {
    let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates a file.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
}

/// Runs `analyse` with the `pieces`-piece database of `cache`, expecting status 2 and one line
/// naming `names`; returns it.
fn analyse_refused(cache: &std::path::Path, pieces: &str, names: &str) -> String {
    let out = patient(cache)
        .args(["analyse", "--fen", "W:WK1,K5:BK32", "--min-depth", "1"])
        .args(["--database-pieces", pieces])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains(names), "{stderr}");
    assert!(!stderr.contains("uilding"), "nothing is built: {stderr}");
    stderr
}

#[test]
fn anything_but_a_regular_file_in_the_database_or_stamp_place_is_refused_at_once() {
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().join("egdb");
    std::fs::create_dir_all(&dir).unwrap();
    let path = endgame_db_path(&dir, 2);
    let stamp = stamp_of(&path);
    let name = path.to_str().unwrap().to_string();
    mkfifo(&path);
    assert!(analyse_refused(cache.path(), "2", &name).contains("not a regular file"));
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
    assert!(analyse_refused(cache.path(), "2", &name).contains("not a regular file"));
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    assert!(analyse_refused(cache.path(), "2", &name).contains("folder"));
    std::fs::remove_dir(&path).unwrap();
    // A link to nothing would only fail when the build writes through it, minutes later.
    std::os::unix::fs::symlink(dir.join("gone"), &path).unwrap();
    assert!(analyse_refused(cache.path(), "2", &name).contains("link to nothing"));
    std::fs::remove_file(&path).unwrap();

    // A sound, stamped file, then its stamp replaced.
    patient(cache.path())
        .args(["egdb", "build", "--pieces", "2", "-q"])
        .assert()
        .success();
    age(&path, 3600);
    assert!(EndgameDb::load(&path, 2).is_ok());
    assert!(stamp.is_file());
    let stamp_name = stamp.to_str().unwrap().to_string();
    std::fs::remove_file(&stamp).unwrap();
    mkfifo(&stamp);
    analyse_refused(cache.path(), "2", &stamp_name);
    std::fs::remove_file(&stamp).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &stamp).unwrap();
    analyse_refused(cache.path(), "2", &stamp_name);
    std::fs::remove_file(&stamp).unwrap();
    std::fs::write(&stamp, vec![b'x'; 1 << 20]).unwrap();
    assert!(analyse_refused(cache.path(), "2", &stamp_name).contains("larger than"));
    std::fs::remove_file(&stamp).unwrap();
    // No stamp is fine: the file is checked whole and stamped again.
    patient(cache.path())
        .args(["analyse", "--fen", "W:WK1:BK32", "--database-pieces", "2"])
        .assert()
        .success()
        .stdout(contains("database draw"));
    assert!(stamp.is_file());
}

#[test]
fn a_build_checks_first_that_it_can_write_its_file() {
    let cache = tempfile::tempdir().unwrap();
    // The cache folder cannot be made: a file stands where it would be.
    std::fs::write(cache.path().join("egdb"), "a file").unwrap();
    analyse_refused(cache.path(), "2", "not a folder");
    std::fs::remove_file(cache.path().join("egdb")).unwrap();
    // A link to a damaged file: using it is refused, and rebuilding would replace the link.
    let dir = cache.path().join("egdb");
    std::fs::create_dir(&dir).unwrap();
    let elsewhere = cache.path().join("elsewhere.bin");
    std::fs::write(&elsewhere, vec![7u8; 100]).unwrap();
    std::os::unix::fs::symlink(&elsewhere, endgame_db_path(&dir, 2)).unwrap();
    analyse_refused(cache.path(), "2", "symbolic link");
    assert_eq!(std::fs::read(&elsewhere).unwrap(), vec![7u8; 100]);
    // The library's check, as a build runs it first.
    assert!(check_endgame_cache_writable(&dir, 3).is_ok());
    assert!(matches!(
        check_endgame_cache_writable(&dir, 2),
        Err(EgdbError::Unusable(..))
    ));
}

#[test]
fn a_damaged_file_says_once_that_it_is_built_again() {
    let cache = tempfile::tempdir().unwrap();
    let dir = cache.path().join("egdb");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(endgame_db_path(&dir, 2), vec![0u8; 64]).unwrap();
    let out = patient(cache.path())
        .args([
            "analyse",
            "--fen",
            "W:WK1,K5:BK32",
            "--database-pieces",
            "2",
        ])
        .assert()
        .success();
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("is damaged"), "{stderr}");
    assert!(stderr.contains("building it again"), "{stderr}");
    assert!(!stderr.contains("not built yet"), "{stderr}");
    assert!(EndgameDb::load(&endgame_db_path(&dir, 2), 2).is_ok());
}

#[test]
fn a_file_cut_or_written_over_after_opening_degrades_probes_and_never_crashes() {
    let dir = tempfile::tempdir().unwrap();
    let path = endgame_db_path(dir.path(), 3);
    let (built, _) = open_or_build_endgame_db(dir.path(), 3, |_| {}, &|_| {}).unwrap();
    let kings = Position::from_fen("W:WK1,K5:BK32").unwrap();
    let men = Position::from_fen("B:W18,22:B3").unwrap();
    let loaded = EndgameDb::load(&path, 3).unwrap();
    // A slice read before the cut keeps answering; one first probed after it cannot be read.
    assert_eq!(loaded.probe(&kings), built.probe(&kings));
    assert!(built.probe(&men).is_some());
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(64).unwrap();
    assert_eq!(loaded.probe(&men), None);
    assert_eq!(loaded.probe(&kings), built.probe(&kings));

    // Written over with other bytes of the same length (`cp` writes into the same file).
    let (_, _) = open_or_build_endgame_db(dir.path(), 3, |_| {}, &|_| {}).unwrap();
    let loaded = EndgameDb::load(&path, 3).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    // However coarse the file system's clock, the time is another one.
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_modified(std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000))
        .unwrap();
    assert_eq!(loaded.probe(&men), None);
}
