//! The rules of English checkers, each on a hand-made position with its full move list, plus
//! notation, FEN and Zobrist checks.

use checkers_engine::board::{perft, HashedPosition, MoveParseError, Position};
use rand::{Rng, SeedableRng};

fn moves(fen: &str) -> Vec<String> {
    let pos = Position::from_fen(fen).unwrap();
    pos.legal_moves().iter().map(|m| m.to_string()).collect()
}

#[test]
fn capture_is_compulsory() {
    // Black could step 9-13, 14-17 or 14-18, but the jump 14x23 over 18 must be taken.
    assert_eq!(moves("B:W18,30:B9,14"), ["14x23"]);
    // Without the white man on 18 the steps come back (9-14 is blocked by Black's own man).
    assert_eq!(moves("B:W30:B9,14"), ["9-13", "14-17", "14-18"]);
}

#[test]
fn a_man_follows_double_and_triple_jumps_to_the_end_with_a_branch() {
    // 1x10 over 6, then from 10 either over 14 to 17 and over 22 to 26, or over 15 to 19 and
    // over 24 to 28. Stopping early (1x10, 1x10x17) is not a move.
    assert_eq!(moves("B:W6,14,15,22,24:B1"), ["1x10x17x26", "1x10x19x28"]);
    // A double jump: only 6 and 15 to take.
    assert_eq!(moves("B:W6,15:B1"), ["1x10x19"]);
}

#[test]
fn men_jump_only_forward_kings_also_backward() {
    assert_eq!(moves("B:W15:B19"), ["19-23", "19-24"]);
    assert_eq!(moves("B:W15:BK19"), ["19x10"]);
    // White men jump toward square 1; a white king on 10 jumps back over 15 to 19.
    assert_eq!(moves("W:W10:B15"), ["10-6", "10-7"]);
    assert_eq!(moves("W:WK10:B15"), ["10x19"]);
}

#[test]
fn crowning_ends_the_move_even_if_the_new_king_could_jump_on() {
    // 22x31 over 26 crowns on 31; as a king it could go on 31x24 over 27, but the move ends.
    assert_eq!(moves("B:W26,27:B22"), ["22x31"]);
    let pos = Position::from_fen("B:W26,27:B22").unwrap();
    let after = pos.play(&pos.legal_moves()[0]);
    assert_eq!(after.to_fen(), "W:W27:BK31");
    // A king already crowned does continue: the same jump by a king takes both.
    assert_eq!(moves("B:W26,27:BK22"), ["22x31x24"]);
}

#[test]
fn a_king_ring_capture_is_two_moves() {
    // The king on 10 takes 14, 22, 23, 15 in either order and comes back to 10.
    assert_eq!(
        moves("B:W14,15,22,23:BK10"),
        ["10x17x26x19x10", "10x19x26x17x10"]
    );
    let pos = Position::from_fen("B:W14,15,22,23:BK10").unwrap();
    for mv in pos.legal_moves() {
        assert_eq!(pos.play(&mv).to_fen(), "W:W:BK10");
    }
}

#[test]
fn a_blocked_side_and_a_side_without_pieces_have_no_moves() {
    // White's man on 29 can neither step to 25 nor jump 25 (22 is occupied).
    assert!(moves("W:W29:B22,25").is_empty());
    assert!(Position::from_fen("W:W29:B22,25").unwrap().is_lost());
    assert!(moves("W:W:B1,2").is_empty());
    assert!(Position::from_fen("W:W:B1,2").unwrap().is_lost());
    assert!(!Position::start().is_lost());
}

#[test]
fn move_notation_full_and_short_forms() {
    let pos = Position::from_fen("B:W6,14,15,22,24:B1").unwrap();
    assert_eq!(
        pos.parse_move("1x10x19x28").unwrap().to_string(),
        "1x10x19x28"
    );
    assert_eq!(pos.parse_move("1x28").unwrap().to_string(), "1x10x19x28");
    assert_eq!(pos.parse_move("1x26").unwrap().to_string(), "1x10x17x26");
    assert!(matches!(
        pos.parse_move("1x10"),
        Err(MoveParseError::Illegal(_))
    ));
    assert!(matches!(
        pos.parse_move("1-5"),
        Err(MoveParseError::Illegal(_))
    ));
    let ring = Position::from_fen("B:W14,15,22,23:BK10").unwrap();
    match ring.parse_move("10x10") {
        Err(MoveParseError::Ambiguous(_, paths)) => {
            assert_eq!(paths, ["10x17x26x19x10", "10x19x26x17x10"])
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
    assert!(ring.parse_move("10x19x26x17x10").is_ok());
    let start = Position::start();
    for bad in [
        "", "9", "9-", "9-13-17", "0-4", "9-33", "9x-13", "a-b", "9 13", "9-13x18",
    ] {
        assert!(
            matches!(start.parse_move(bad), Err(MoveParseError::Syntax(_))),
            "{bad:?} should be a syntax error"
        );
    }
    assert!(start.parse_move("9-14").is_ok());
    assert!(matches!(
        start.parse_move("9-12"),
        Err(MoveParseError::Illegal(_))
    ));
}

#[test]
fn fen_accepts_either_order_ranges_and_kings() {
    let a =
        Position::from_fen("B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12")
            .unwrap();
    let b = Position::from_fen("B:B12,11,10,9,8,7,6,5,4,3,2,1:W32-21").unwrap();
    let c = Position::from_fen(" B:W21-32:B1-12. ").unwrap();
    assert_eq!(a, Position::start());
    assert_eq!(b, Position::start());
    assert_eq!(c, Position::start());
    let k = Position::from_fen("W:WK5,18:B1,K30").unwrap();
    assert_eq!(k.to_fen(), "W:WK5,18:B1,K30");
    assert_eq!(k.kings().count_ones(), 2);
}

#[test]
fn malformed_fens_are_errors_with_a_message_never_a_panic() {
    for bad in [
        "",
        "garbage",
        "X:W21:B1",
        "B:W21",
        "B:W21:B1:W22",
        "B:W0:B1",
        "B:W33:B1",
        "B:W21,21:B1",
        "B:W21:B21",
        "B:W21:W22",
        "B:X21:B1",
        "B:W21-:B1",
        "B:WK:B1",
        "B:W1:B5",
        "B:W21:B30",
        "B:W9-21:B1",
        "B:W21-32:B1-13",
        "B:W21,a:B1",
        "B:W-5:B1",
        "B:W99999999999999999999:B1",
    ] {
        let err = Position::from_fen(bad).expect_err(bad);
        assert!(!err.to_string().is_empty(), "{bad:?}");
    }
}

/// Every position of perft(5) from the start: FEN and move notation read back what they wrote.
#[test]
fn fen_and_move_notation_round_trip_through_perft_5() {
    fn walk(pos: &Position, depth: u32, seen: &mut u64) {
        assert_eq!(Position::from_fen(&pos.to_fen()).unwrap(), *pos);
        *seen += 1;
        if depth == 0 {
            return;
        }
        for mv in pos.legal_moves() {
            assert_eq!(pos.parse_move(&mv.to_string()).unwrap(), mv);
            walk(&pos.play(&mv), depth - 1, seen);
        }
    }
    let mut seen = 0;
    walk(&Position::start(), 5, &mut seen);
    assert_eq!(seen, 1 + 7 + 49 + 302 + 1469 + 7361);
}

/// The ACF three-move ballots played on the board give the positions the deck's table lists.
#[test]
fn the_three_move_ballots_reach_their_listed_positions() {
    let table = include_str!("../data/three_move_ballots_174_annotated.tsv");
    let mut checked = 0;
    for line in table.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let (moves, fen) = (cols[1], cols[5]);
        let mut pos = Position::start();
        for mv in moves.split_whitespace() {
            let m = pos
                .parse_move(mv)
                .unwrap_or_else(|e| panic!("{moves}: {e}"));
            pos = pos.play(&m);
        }
        assert_eq!(pos, Position::from_fen(fen).unwrap(), "{moves}");
        checked += 1;
    }
    assert_eq!(checked, 174);
}

#[test]
fn zobrist_keys_updated_move_by_move_equal_keys_from_scratch() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(42);
    let mut distinct = std::collections::HashSet::new();
    for _ in 0..200 {
        let mut hp = HashedPosition::new(Position::start());
        for _ in 0..120 {
            let list = hp.position.legal_moves();
            if list.is_empty() {
                break;
            }
            let mv = list[rng.gen_range(0..list.len())];
            hp = hp.play(&mv);
            assert_eq!(hp.hash, hp.position.zobrist(), "{}", hp.position);
            distinct.insert((hp.hash, hp.position));
        }
    }
    // No two different positions met here share a key.
    let keys: std::collections::HashSet<u64> = distinct.iter().map(|(h, _)| *h).collect();
    assert_eq!(keys.len(), distinct.len());
}

#[test]
fn mirroring_twice_is_the_identity_and_preserves_perft() {
    let pos = Position::from_fen("W:WK5,18,22:B1,K30,14").unwrap();
    assert_eq!(pos.mirrored().mirrored(), pos);
    assert_eq!(perft(&pos, 4), perft(&pos.mirrored(), 4));
    assert_eq!(Position::start().mirrored().mirrored(), Position::start());
}
