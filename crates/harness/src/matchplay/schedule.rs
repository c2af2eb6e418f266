//! A tournament's schedule: which players meet, as cutechess and fastchess spell the kinds.
//!
//! Each pairing is a two-player match of its own (every opening with both colours); the
//! schedule lists the pairings in the order they are played, so that a tournament's files are
//! the same on any thread count.

use std::str::FromStr;

use checkers_engine::error::{Error, Result};

/// The kind of a tournament (`--tournament`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentKind {
    /// Every player against every other: `n·(n − 1)/2` pairings.
    RoundRobin,
    /// The first player against each of the others: `n − 1` pairings.
    Gauntlet,
}

impl FromStr for TournamentKind {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        match s {
            "round-robin" => Ok(Self::RoundRobin),
            "gauntlet" => Ok(Self::Gauntlet),
            _ => Err(Error::input(format!(
                "--tournament {s}: not a kind of tournament (round-robin or gauntlet)"
            ))),
        }
    }
}

impl TournamentKind {
    /// The name as `--tournament` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Self::RoundRobin => "round-robin",
            Self::Gauntlet => "gauntlet",
        }
    }
}

/// The pairings `(first, second)` of `players` players, in playing order; the first of each
/// pair is the one that takes Black in the first game of every opening. At least two players.
pub fn schedule(kind: TournamentKind, players: usize) -> Result<Vec<(usize, usize)>> {
    if players < 2 {
        return Err(Error::input(format!(
            "--tournament {}: {players} player(s); a tournament needs at least two",
            kind.name()
        )));
    }
    Ok(match kind {
        TournamentKind::RoundRobin => (0..players)
            .flat_map(|i| (i + 1..players).map(move |j| (i, j)))
            .collect(),
        TournamentKind::Gauntlet => (1..players).map(|j| (0, j)).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_and_gauntlet_pairings() {
        let rr = schedule(TournamentKind::RoundRobin, 4).unwrap();
        assert_eq!(rr, [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
        let g = schedule(TournamentKind::Gauntlet, 4).unwrap();
        assert_eq!(g, [(0, 1), (0, 2), (0, 3)]);
        assert_eq!(schedule(TournamentKind::RoundRobin, 2).unwrap(), [(0, 1)]);
    }

    #[test]
    fn refusals() {
        let err = schedule(TournamentKind::Gauntlet, 1)
            .unwrap_err()
            .to_string();
        assert!(err.contains("at least two"), "{err}");
        let err = "swiss".parse::<TournamentKind>().unwrap_err().to_string();
        assert!(err.contains("--tournament swiss"), "{err}");
        assert_eq!(
            "gauntlet".parse::<TournamentKind>().unwrap(),
            TournamentKind::Gauntlet
        );
    }
}
