//! How long a run is expected to take, before it starts: a rough model of its games' cost,
//! measured on the README's runs (two cores, release build), which the progress display
//! replaces with the measured pace once rounds finish.

use super::run_config::Config;
use crate::tournament::playoff_games;

/// Processor seconds of one bracket game at depth 6/12, its share of the fits included: the
/// `overnight-patterns.toml` run used 690 s for 11,612 games (0.06 s), but the fits grow with
/// the data, and the first 268 rounds of a 480-round `hour-gated.toml` (2026-11-26) used 3,170 s, a
/// model 1.7 times the first one's; the ten-feature and extended runs are within a factor of
/// 1.5.
const SECONDS_PER_GAME: f64 = 0.10;

/// Processor seconds of one game of a match at depth 6/12 (a gate, validation, the playoff),
/// which no fit follows: `match` over the 3-move deck with two pattern evaluators used 13.5 s
/// for 312 games (2026-11-27).
const MATCH_SECONDS_PER_GAME: f64 = 0.045;

/// Processor seconds a fit spends on each game of the earlier runs it also learns from
/// (`evolution.fit_with`): three runs' 86,164 games (8.1 million positions) took 120 s of two
/// cores a fit, in a run of `hour-gated.toml` with them (2026-11-27).
const FIT_SECONDS_PER_SOURCE_GAME: f64 = 0.0028;

/// Processor seconds the morning relabel (`chain.label_depth`) spends on each game of the
/// chain at depth 6: seven `hour.toml` links' 81,657 games (7.1 million positions) were
/// searched again in 2,660 s of two cores (2026-11-28).
const RELABEL_SECONDS_PER_GAME: f64 = 0.065;

/// Processor seconds of one data night game (`chain.data_doublings`) at 3,000 nodes a move:
/// 20,000 `datagen` games of the `overnight-patterns.toml` best at 2,000 and 4,000 nodes took
/// 629 s (docs/datagen.md); a budget costs in proportion to its nodes.
const DATA_SECONDS_PER_GAME_AT_3000: f64 = 0.0315;

/// Processor seconds a data night's fit spends on each game it learns from (the morning fit's
/// rate above, for want of a measure of datagen games, which are shorter).
const DATA_FIT_SECONDS_PER_GAME: f64 = FIT_SECONDS_PER_SOURCE_GAME;

/// How much one more ply of full-width depth costs a game (measured: 2.0× from depth 6 to 7,
/// 5.2× from 6 to 8 on the pattern evaluator).
const PER_PLY: f64 = 2.25;

/// Nodes a move of a depth-6/12 search visits: `bench --depth 6` searches its three positions
/// with 8,079 nodes. A game at a node budget (`search.nodes`) is taken to cost a depth-6 game
/// times the budget over this (the same moves, each with that many nodes).
const NODES_AT_DEPTH_6: f64 = 2_700.0;

/// Games a round of a population of `n` plays: 1.13 n in the README's runs (72.6 a round for
/// 64).
const GAMES_PER_SPECIMEN: f64 = 1.13;

/// The share of gates whose candidate passes the SPRT and plays the confirming match
/// (`gate.confirm`): 4 of 7 fits in the `hour-gated.toml` run of 2026-11-27.
const CONFIRM_SHARE: f64 = 0.5;

/// The share of its openings a gate plays before its SPRT decides, on average (a guess
/// between the early stops and the gates that run to the end).
const GATE_SHARE: f64 = 0.6;

impl Config {
    /// The processor seconds the rounds from `completed + 1` on, the gates, validation and the
    /// playoff are expected to take: a rough model (within a factor of two or so), for the
    /// message a run starts with.
    pub fn expected_cpu_seconds(&self, completed: u32) -> f64 {
        let game_at = |depth: u32| match self.search.nodes {
            Some(nodes) => SECONDS_PER_GAME * nodes as f64 / NODES_AT_DEPTH_6,
            None => SECONDS_PER_GAME * PER_PLY.powf(depth as f64 - 6.0),
        };
        let islands = f64::from(self.islands.count);
        let per_round = GAMES_PER_SPECIMEN * self.population.size as f64 * islands;
        // A match's game: no fit's share in it.
        let base = game_at(self.search.min_depth) * MATCH_SECONDS_PER_GAME / SECONDS_PER_GAME;
        let source_games: u64 = (self.evolution.fit_with.iter())
            .filter_map(|source| source.fixed.as_ref().map(|fixed| fixed.games()))
            .sum();
        let per_fit = source_games as f64 * FIT_SECONDS_PER_SOURCE_GAME * islands;
        let mut total = 0.0;
        for round in completed + 1..=self.tournament.rounds {
            let depth = self.search.min_depth + self.tournament.extra_plies(round);
            total += per_round * game_at(depth);
            if self.evolution.fits_after(round, self.tournament.rounds) {
                total += per_fit;
            }
            if self.validation.every > 0 && round.is_multiple_of(self.validation.every) {
                total += 2.0 * f64::from(self.validation.openings) * base * islands;
            }
            if self.gate.gates_after(round, self.tournament.rounds) {
                let candidates = match self.gate.candidates {
                    crate::run::GateCandidates::FitsAndWinners => 2.0,
                    _ => 1.0,
                };
                total += candidates * GATE_SHARE * 2.0 * f64::from(self.gate.openings) * base;
                total += candidates * CONFIRM_SHARE * 2.0 * f64::from(self.gate.confirm) * base;
            }
        }
        let finalists = (self.population.size as f64 * 0.2 + 2.0) * islands;
        let playoff = playoff_games(
            finalists as usize,
            self.tournament.playoff_openings as usize,
        );
        let run = total + playoff as f64 * base;
        if self.chain.is_single() {
            return run;
        }
        // A chain: its links (the first counted from `completed`, the others whole) and the
        // morning gate; the morning fit is a few of the run's fits.
        let whole = if completed == 0 {
            run
        } else {
            self.expected_cpu_seconds_of_link()
        };
        let gate = GATE_SHARE * 2.0 * f64::from(self.chain.gate_openings) * base;
        let relabel = match self.chain.label_depth {
            0 => 0.0,
            depth => {
                let games = f64::from(self.chain.links)
                    * f64::from(self.tournament.rounds)
                    * GAMES_PER_SPECIMEN
                    * self.population.size as f64;
                games * RELABEL_SECONDS_PER_GAME * PER_PLY.powf(f64::from(depth) - 6.0)
            }
        };
        run + whole * f64::from(self.chain.links - 1)
            + gate
            + relabel
            + self.data_night_seconds(base)
    }

    /// The data night's processor seconds: its games, a fit of all the data so far and a gate
    /// after each doubling (`base`: a gate game's).
    fn data_night_seconds(&self, base: f64) -> f64 {
        let chain = &self.chain;
        let nodes =
            chain.data_nodes.iter().sum::<u64>() as f64 / chain.data_nodes.len().max(1) as f64;
        let mut seconds = 0.0;
        let mut games_so_far = 0.0;
        for doubling in 1..=chain.data_doublings {
            let games = chain.data_games_of(doubling) as f64;
            games_so_far += games;
            seconds += games * DATA_SECONDS_PER_GAME_AT_3000 * nodes / 3000.0;
            seconds += games_so_far * DATA_FIT_SECONDS_PER_GAME;
            seconds += GATE_SHARE * 2.0 * f64::from(chain.gate_openings) * base;
        }
        seconds
    }

    /// A chain's link from its start.
    fn expected_cpu_seconds_of_link(&self) -> f64 {
        let mut link = self.clone();
        link.chain = super::ChainConfig::default();
        link.expected_cpu_seconds(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deeper_longer_and_gated_runs_are_expected_to_take_longer() {
        let mut config = Config::new("estimate");
        let plain = config.expected_cpu_seconds(0);
        assert!(plain > 0.0);
        // The rounds of each half cost the same (the playoff, left at the end, costs the same
        // whatever was done).
        let rounds = config.tournament.rounds;
        let half = config.expected_cpu_seconds(rounds / 2);
        let playoff = config.expected_cpu_seconds(rounds);
        assert!(playoff > 0.0 && playoff < half && half < plain);
        assert!(((plain - half) - (half - playoff)).abs() < 1e-6 * plain);
        config.tournament.deepen_every = 10;
        let deeper = config.expected_cpu_seconds(0);
        // Rounds 11 to 20 a ply deeper: their games cost PER_PLY times as much.
        let extra = 10.0 * GAMES_PER_SPECIMEN * 100.0 * SECONDS_PER_GAME * (PER_PLY - 1.0);
        assert!(
            ((deeper - plain) - extra).abs() < 1e-6 * plain,
            "{deeper} vs {plain}"
        );
        config.gate.candidates = crate::run::GateCandidates::Fits;
        let gated = config.expected_cpu_seconds(0);
        assert!(gated > deeper);
        // Fits on earlier runs' games: each of the 5 fits of 20 rounds costs their share.
        config.evolution.fit_every = 4;
        assert_eq!(config.expected_cpu_seconds(0), gated);
        config.evolution.fit_with = vec![crate::tournament::FitSource {
            store: "earlier/positions.bin".into(),
            fixed: Some(crate::tournament::Fixed::Store(
                crate::tournament::FixedSource {
                    rounds: 10,
                    games: 1000,
                    run: 1,
                    island: None,
                },
            )),
        }];
        let with = config.expected_cpu_seconds(0);
        let extra = 5.0 * 1000.0 * FIT_SECONDS_PER_SOURCE_GAME;
        assert!(
            ((with - gated) - extra).abs() < 1e-6 * gated,
            "{with} vs {gated}"
        );
        // At a node budget a game costs in proportion to it, whatever the depths.
        let mut budget = Config::new("estimate");
        budget.search.nodes = Some(27_000);
        let at_budget = budget.expected_cpu_seconds(0);
        assert!(
            (at_budget - 10.0 * plain).abs() < 1e-6 * plain,
            "{at_budget} vs {plain}"
        );
    }

    #[test]
    fn a_chain_with_a_morning_relabel_is_expected_to_take_longer_the_deeper_it_searches() {
        let mut config = Config::new("estimate");
        config.chain.links = 7;
        let plain = config.expected_cpu_seconds(0);
        config.chain.label_depth = 6;
        let at_6 = config.expected_cpu_seconds(0);
        config.chain.label_depth = 7;
        let at_7 = config.expected_cpu_seconds(0);
        let games = 7.0 * f64::from(config.tournament.rounds) * GAMES_PER_SPECIMEN * 100.0;
        assert!((at_6 - plain - games * RELABEL_SECONDS_PER_GAME).abs() < 1e-6 * plain);
        assert!(((at_7 - plain) / (at_6 - plain) - PER_PLY).abs() < 1e-9);
    }

    #[test]
    fn a_data_night_is_expected_to_take_its_games_fits_and_gates() {
        let mut config = Config::new("estimate");
        config.chain.data_doublings = 1;
        config.chain.gate_openings = 0;
        let one = config.expected_cpu_seconds(0);
        config.chain.data_doublings = 2;
        let two = config.expected_cpu_seconds(0);
        // The second doubling plays as many games as the first at the same cost a game, and
        // its fit learns from twice as many.
        let games = 20_000.0;
        let expected =
            games * DATA_SECONDS_PER_GAME_AT_3000 + 2.0 * games * DATA_FIT_SECONDS_PER_GAME;
        assert!(((two - one) - expected).abs() < 1e-6 * two, "{two} - {one}");
        config.chain.data_nodes = vec![6000];
        assert!(config.expected_cpu_seconds(0) > two);
    }
}
