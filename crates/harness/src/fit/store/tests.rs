//! The store's tests: what is written is read back, and damage is found where it is.

use crate::fit::recorded_game::{RecordedGame, NO_SCORE, SCORE_WIN};
use crate::run_folder::POSITIONS_FILE;
use checkers_engine::error::Result;
use checkers_engine::game::GameResult;

use super::format::{header, round_block, HEADER, MAGIC_V1};
use super::reader::StoredGame;
use super::*;

fn game(fen: &str, moves: &[&str], scores: &[i16], result: GameResult) -> RecordedGame {
    RecordedGame::parsed(fen, moves, scores, result)
}

const ID: StoreIdentity = StoreIdentity {
    run: 7,
    island: u32::MAX,
};

fn store(blocks: &[Vec<u8>]) -> Vec<u8> {
    let mut bytes = header(ID);
    for block in blocks {
        bytes.extend(block);
    }
    bytes
}

fn read_all(bytes: &[u8]) -> Result<Vec<StoredGame>> {
    let mut reader = StoreReader::new(bytes, "test")?;
    let mut games = Vec::new();
    while let Some(g) = reader.read_game()? {
        games.push(g);
    }
    Ok(games)
}

#[test]
fn games_come_back_as_written() {
    let a = game(
        "B:W21-32:B1-12",
        &["9-13", "22-18", "13-17"],
        &[NO_SCORE, 25, -40],
        GameResult::Draw,
    );
    let b = game(
        "W:W18,K30:B14,1",
        &["18x9"],
        &[SCORE_WIN],
        GameResult::WhiteWin,
    );
    let bytes = store(&[
        round_block(ID, 1, std::slice::from_ref(&a)),
        round_block(ID, 2, &[]),
        round_block(ID, 3, std::slice::from_ref(&b)),
    ]);
    let games = read_all(&bytes).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].round, 1);
    assert_eq!(games[0].game, a);
    assert_eq!(games[1].round, 3);
    assert_eq!(games[1].game, b);
}

#[test]
fn damage_is_reported_with_its_offset() {
    let a = game("B:W21-32:B1-12", &["9-13"], &[3], GameResult::BlackWin);
    let bytes = store(&[round_block(ID, 1, &[a])]);
    let cut = &bytes[..bytes.len() - 9];
    let err = read_all(cut).unwrap_err().to_string();
    assert!(err.contains("damaged at byte 41"), "{err}");
    // Read for a fit, a cut end gives the whole games before it and says so.
    let mut reader = StoreReader::new(cut, "test").unwrap();
    assert_eq!(reader.next_game().unwrap(), None);
    assert!(reader.cut_short());
    let mut bad = bytes.clone();
    // The move index (after the 20-byte file header, the 21-byte round header and the
    // 17-byte game header): 200 of 7 legal moves.
    bad[20 + 21 + 17] = 200;
    let err = read_all(&bad).unwrap_err().to_string();
    assert!(err.contains("number 200 of 7 legal moves"), "{err}");
    assert!(read_all(b"CTPOS000").is_err());
}

#[test]
fn a_store_is_cut_after_a_round() {
    let dir = tempfile::tempdir().unwrap();
    start_store(dir.path(), ID).unwrap();
    let a = game("B:W21-32:B1-12", &["9-13"], &[3], GameResult::BlackWin);
    append_round(dir.path(), 1, std::slice::from_ref(&a)).unwrap();
    let after_one = std::fs::metadata(dir.path().join(POSITIONS_FILE))
        .unwrap()
        .len();
    append_round(dir.path(), 2, &[a.clone(), a]).unwrap();
    let path = dir.path().join(POSITIONS_FILE);
    assert_eq!(length_through_round(&path, ID, 1).unwrap(), after_one);
    assert_eq!(length_through_round(&path, ID, 0).unwrap(), HEADER);
    assert_eq!(
        length_through_round(&path, ID, 2).unwrap(),
        std::fs::metadata(&path).unwrap().len()
    );
    let err = length_through_round(&path, ID, 5).unwrap_err().to_string();
    assert!(
        err.contains("ends after round 2, but the checkpoint counts 5"),
        "{err}"
    );
    let other = StoreIdentity { run: 8, ..ID };
    let err = length_through_round(&path, other, 1)
        .unwrap_err()
        .to_string();
    assert!(err.contains("damaged at byte 8: its header names"), "{err}");
}

#[test]
fn a_changed_doubled_swapped_or_foreign_block_is_refused_with_its_offset() {
    let a = game("B:W21-32:B1-12", &["9-13"], &[3], GameResult::BlackWin);
    let one = round_block(ID, 1, std::slice::from_ref(&a));
    let two = round_block(ID, 2, std::slice::from_ref(&a));
    let second = HEADER as usize + one.len();
    let mut changed = store(&[one.clone(), two.clone()]);
    changed[second + 21 + 18] ^= 1;
    let err = read_all(&changed).unwrap_err().to_string();
    assert!(
        err.contains(&format!(
            "damaged at byte {second}: the block of round 2 does not match its checksum"
        )),
        "{err}"
    );
    let err = read_all(&store(&[one.clone(), two.clone(), two.clone()]))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("round 2 comes after round 2's: written twice"),
        "{err}"
    );
    let err = read_all(&store(&[two.clone(), one.clone()]))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("round 1 comes after round 2's: out of order"),
        "{err}"
    );
    let foreign = round_block(StoreIdentity { run: 9, ..ID }, 2, &[a]);
    let err = read_all(&store(&[one, foreign])).unwrap_err().to_string();
    assert!(
        err.contains(&format!("damaged at byte {second}")) && err.contains("another store's"),
        "{err}"
    );
}

#[test]
fn a_hard_linked_store_is_written_anew_never_through_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let other = tempfile::tempdir().unwrap();
    start_store(other.path(), ID).unwrap();
    let theirs = other.path().join(POSITIONS_FILE);
    let before = std::fs::read(&theirs).unwrap();
    std::fs::hard_link(&theirs, dir.path().join(POSITIONS_FILE)).unwrap();
    let a = game("B:W21-32:B1-12", &["9-13"], &[3], GameResult::BlackWin);
    append_round(dir.path(), 1, &[a]).unwrap();
    assert_eq!(std::fs::read(&theirs).unwrap(), before);
    let ours = dir.path().join(POSITIONS_FILE);
    assert!(std::fs::metadata(&ours).unwrap().len() > before.len() as u64);
    cut_store_to(&ours, HEADER).unwrap();
    std::fs::hard_link(&ours, dir.path().join("again")).unwrap();
    cut_store_to(&ours, 0).unwrap();
    assert_eq!(std::fs::read(dir.path().join("again")).unwrap(), before);
    assert_eq!(std::fs::metadata(&ours).unwrap().len(), 0);
}

#[test]
fn a_store_of_the_previous_version_is_read_and_never_appended_to() {
    let a = game(
        "B:W21-32:B1-12",
        &["9-13", "22-18"],
        &[3, 4],
        GameResult::Draw,
    );
    let mut old = MAGIC_V1.to_vec();
    // The previous block: the round header without identity, the game, no checksum.
    let block = round_block(ID, 1, std::slice::from_ref(&a));
    old.extend(&block[..9]);
    old.extend(&block[21..block.len() - 8]);
    let games = read_all(&old).unwrap();
    assert_eq!(games[0].game, a);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(POSITIONS_FILE), &old).unwrap();
    let err = append_round(dir.path(), 2, &[a]).unwrap_err().to_string();
    assert!(err.contains("previous version"), "{err}");
}
