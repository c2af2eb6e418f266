//! `[gate]`: who tries for the champion's place, how often, and the SPRT and openings each gate
//! plays with.

use serde::{Deserialize, Serialize};

use crate::elo::Sprt;
use checkers_engine::bounded::{int_in, is_zero, number_in, open_fraction};
use checkers_engine::error::Result;
use checkers_engine::game::{Opening, OpeningBook};
use checkers_engine::rng::{stream, tag};

/// Which specimens try for the champion's place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GateCandidates {
    /// No gate: the playoff's winner is `best.json`, as before gates existed.
    #[default]
    None,
    /// Each regression fit (`[evolution] fit_every`) of a gate round.
    Fits,
    /// Each fit, then the round's top survivor (most rounds survived, then most wins).
    FitsAndWinners,
}

/// `[gate]`: the gated champion. Off by default, and then left out of a written config, so
/// that runs without a gate keep their files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GateConfig {
    /// Who tries for the champion's place; `none` turns the gate off.
    pub candidates: GateCandidates,
    /// Rounds between gates (a multiple of `evolution.fit_every`, so that every gate has a
    /// fresh fit); the last round always has one.
    #[serde(deserialize_with = "int_in::<_, u32, 1, 100_000>")]
    pub every: u32,
    /// The most openings a gate plays, each with both colours; a gate whose SPRT has not
    /// ended by then refuses the candidate.
    #[serde(deserialize_with = "int_in::<_, u32, 1, 100_000>")]
    pub openings: u32,
    /// Random plies from the start of each gate opening.
    #[serde(deserialize_with = "int_in::<_, u32, 1, 40>")]
    pub opening_plies: u32,
    /// The gate decks' own seed (each gate draws its openings from it and its round).
    #[serde(deserialize_with = "int_in::<_, u64, 0, { i64::MAX }>")]
    pub seed: u64,
    /// The SPRT's null hypothesis: the candidate is this many Elo stronger (no stronger).
    #[serde(deserialize_with = "elo_bound")]
    pub elo0: f64,
    /// The SPRT's alternative: the candidate is this many Elo stronger.
    #[serde(deserialize_with = "elo_bound")]
    pub elo1: f64,
    /// The chance of accepting a candidate that is only `elo0` stronger.
    #[serde(deserialize_with = "open_fraction")]
    pub alpha: f64,
    /// The chance of refusing a candidate that is `elo1` stronger (openings permitting).
    #[serde(deserialize_with = "open_fraction")]
    pub beta: f64,
    /// Openings (each with both colours) of a confirming match that a candidate the SPRT
    /// accepted plays next, on openings of its own: it becomes the champion only if it wins
    /// that match too (more wins than losses), and its Elo there, a fresh measure that no
    /// choice of winners has biased, is what the climb adds. 0: no confirming match (left out
    /// of a written config, so that runs without one keep their files).
    #[serde(
        deserialize_with = "int_in::<_, u32, 0, 100_000>",
        skip_serializing_if = "is_zero"
    )]
    pub confirm: u32,
}

/// An SPRT bound in Elo: within ±400 (a score of 91%).
fn elo_bound<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    number_in(deserializer, -400.0, 400.0)
}

impl Default for GateConfig {
    /// Off; when turned on: a gate every 2 rounds, at most 200 openings (400 games) of 8
    /// random plies, seed 31, SPRT [0, 30] with α = 5% and β = 10%.
    fn default() -> Self {
        GateConfig {
            candidates: GateCandidates::None,
            every: 2,
            openings: 200,
            opening_plies: 8,
            seed: 31,
            elo0: 0.0,
            elo1: 30.0,
            alpha: 0.05,
            beta: 0.10,
            confirm: 0,
        }
    }
}

impl GateConfig {
    /// Whether the run keeps a gated champion.
    pub fn is_on(&self) -> bool {
        self.candidates != GateCandidates::None
    }

    /// Whether it is off (left out of a written config).
    pub fn is_off(&self) -> bool {
        !self.is_on()
    }

    /// Whether round `round` of a run of `rounds` ends with a gate.
    pub fn gates_after(&self, round: u32, rounds: u32) -> bool {
        self.is_on() && (round == rounds || round.is_multiple_of(self.every))
    }

    /// The test every gate runs, or why the bounds do not make one.
    pub fn sprt(&self) -> Result<Sprt> {
        Sprt::with_error_rates(self.elo0, self.elo1, self.alpha, self.beta)
    }

    /// The openings of the gate after `round`: distinct random ones from the gate's seed and
    /// the round, so that no two gates share a deck and the bracket's stream is untouched.
    pub fn deck(&self, round: u32, balance: i32) -> Vec<Opening> {
        self.openings_from(self.openings, tag::GATE, round, balance)
    }

    /// The openings of the confirming match after `round` (`confirm` of them): from a stream
    /// of their own, so they are not the SPRT's.
    pub fn confirm_deck(&self, round: u32, balance: i32) -> Vec<Opening> {
        self.openings_from(self.confirm, tag::GATE_CONFIRM, round, balance)
    }

    fn openings_from(&self, count: u32, key: u64, round: u32, balance: i32) -> Vec<Opening> {
        let book = OpeningBook::Random {
            plies: self.opening_plies,
            balance,
        };
        book.distinct(
            count as usize,
            &mut stream(self.seed, &[key, u64::from(round)]),
        )
    }
}
