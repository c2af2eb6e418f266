//! Tests of the per-ballot report on hand-made game rows.

use checkers_engine::game::{EndReason, GameRecord};

use super::*;

/// Game `game` (1: A Black, 2: A White) of pair `pair` (from 0) on `opening`, ending `result`.
fn row(pair: usize, game: u8, opening: &str, result: GameResult) -> MatchGame {
    MatchGame {
        pair,
        game,
        opening: opening.to_string(),
        a_color: super::super::game::a_color(game),
        record: GameRecord {
            result,
            plies: 0,
            reason: EndReason::NoMoves,
            moves: Vec::new(),
            scores: Vec::new(),
            forfeit: None,
        },
    }
}

#[test]
fn a_ballot_black_wins_with_either_player_is_unbalanced_a_split_one_is_not() {
    use GameResult::*;
    let games = [
        // Ballot 1: Black wins with A, then with B: unbalanced, each player 1-0-1.
        row(0, 1, "9-13 21-17 5-9", BlackWin),
        row(0, 2, "9-13 21-17 5-9", BlackWin),
        // Ballot 2: A wins with both colours: split between the colours.
        row(1, 1, "9-13 22-18 10-15", BlackWin),
        row(1, 2, "9-13 22-18 10-15", WhiteWin),
        // Ballot 3: White wins both: unbalanced white.
        row(2, 1, "11-15 23-19 8-11", WhiteWin),
        row(2, 2, "11-15 23-19 8-11", WhiteWin),
        // Ballot 4: a draw and a Black win.
        row(3, 1, "10-14 24-20 6-10", Draw),
        row(3, 2, "10-14 24-20 6-10", BlackWin),
    ];
    let report = BallotReport::of_match(&games);
    let ballots = report.ballots();
    assert_eq!(ballots.len(), 4);
    let first = ballots[0];
    assert_eq!(
        (first.ballot, first.opening.as_str()),
        (1, "9-13 21-17 5-9")
    );
    assert_eq!(first.unbalanced(), Some(Color::Black));
    let one_each = |t: Tally| (t.wins, t.draws, t.losses) == (1, 0, 1);
    assert!(first.players.iter().all(|&t| one_each(t)));
    assert_eq!(ballots[1].unbalanced(), None);
    assert_eq!(ballots[1].players[0].wins, 2);
    assert_eq!(ballots[1].players[1].losses, 2);
    assert_eq!(ballots[2].unbalanced(), Some(Color::White));
    assert_eq!(ballots[3].unbalanced(), None);
    assert_eq!(
        report.summary_line(),
        "ballots: 4, unbalanced 2 (black 1, white 1): 1, 3"
    );
    assert_eq!(
        report.csv_text(&["a", "b"]),
        "ballot,opening,games,a_wins,a_draws,a_losses,b_wins,b_draws,b_losses,\
         black_wins,draws,white_wins,unbalanced\n\
         1,9-13 21-17 5-9,2,1,0,1,1,0,1,2,0,0,black\n\
         2,9-13 22-18 10-15,2,2,0,0,0,0,2,1,0,1,\n\
         3,11-15 23-19 8-11,2,1,0,1,1,0,1,0,0,2,white\n\
         4,10-14 24-20 6-10,2,0,1,1,1,1,0,1,1,0,\n"
    );
}

#[test]
fn a_single_game_is_not_unbalanced_and_repeats_count_on_one_ballot() {
    use GameResult::*;
    let mut report = BallotReport::of_match(&[row(0, 1, "start", BlackWin)]);
    assert_eq!(report.ballots()[0].unbalanced(), None);
    assert_eq!(report.summary_line(), "ballots: 1, unbalanced 0");
    // A second repeat of the deck: pair 1 plays the same opening again.
    report.add(
        &[row(1, 1, "start", BlackWin), row(1, 2, "start", BlackWin)],
        (0, 1),
    );
    let ballots = report.ballots();
    assert_eq!(
        (ballots.len(), ballots[0].ballot, ballots[0].games()),
        (1, 1, 3)
    );
    assert_eq!(ballots[0].unbalanced(), Some(Color::Black));
}

#[test]
fn a_tournament_counts_every_player_and_the_line_is_cut() {
    use GameResult::*;
    // Three players, 12 ballots each won by Black in both games of both pairings.
    let mut report = BallotReport::new(3);
    for pairing in [(0, 1), (0, 2)] {
        let games: Vec<MatchGame> = (0..12)
            .flat_map(|p| [1, 2].map(|g| row(p, g, &format!("ballot {p}"), BlackWin)))
            .collect();
        report.add(&games, pairing);
    }
    let first = report.ballots()[0];
    assert_eq!(first.games(), 4);
    let wdl: Vec<(u64, u64, u64)> = (first.players.iter())
        .map(|t| (t.wins, t.draws, t.losses))
        .collect();
    assert_eq!(wdl, [(2, 0, 2), (1, 0, 1), (1, 0, 1)]);
    assert_eq!(
        report.summary_line(),
        "ballots: 12, unbalanced 12 (black 12, white 0): 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more"
    );
    let csv = report.csv_text(&["p1", "p2", "p3"]);
    assert!(csv.starts_with("ballot,opening,games,p1_wins,p1_draws,p1_losses,p2_wins,"));
    assert_eq!(csv.lines().count(), 13);
    assert_eq!(
        csv.lines().nth(1),
        Some("1,ballot 0,4,2,0,2,1,0,1,1,0,1,4,0,0,black")
    );
}
