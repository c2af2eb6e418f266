//! A cache of the frontier's evaluations, keyed by the position's Zobrist key.
//!
//! Iterative deepening reaches most frontier positions again in the next iteration, and
//! transpositions reach them again within one; the pattern evaluator costs several hundred
//! instructions a position, a look-up here a few. The evaluation is a function of the position
//! alone, so the cache changes no value and no node count: only the time.

/// A direct-mapped cache of quiet positions' evaluations (always-replace).
///
/// A slot packs the key's upper 32 bits above the value's 32; the lower bits of the key choose
/// the slot. Two positions share a slot and an upper half only if their keys agree in
/// `32 + bits` bits.
pub(super) struct EvalCache {
    slots: Box<[u64]>,
    mask: usize,
}

/// A slot's value when the side to move has no move (what `evaluate_quiet` calls `None`).
const NO_MOVE: i32 = i32::MIN;
/// The value of an empty slot: no evaluation comes near it.
const EMPTY_VALUE: i32 = i32::MIN + 1;
const EMPTY: u64 = EMPTY_VALUE as u32 as u64;

/// Slots of the cache a searcher keeps: 2^15 of 8 bytes, 256 KiB, so that it stays in the
/// second-level cache beside the transposition table's hot entries.
pub(super) const EVAL_CACHE_BITS: u32 = 15;

impl EvalCache {
    /// An empty cache of `2^bits` slots.
    pub(super) fn new(bits: u32) -> EvalCache {
        let size = 1usize << bits;
        EvalCache {
            slots: vec![EMPTY; size].into_boxed_slice(),
            mask: size - 1,
        }
    }

    /// Forgets every evaluation (the weights changed).
    pub(super) fn clear(&mut self) {
        self.slots.fill(EMPTY);
    }

    /// The cached evaluation of the position of `key`: `Some(None)` when its side to move has
    /// no move, `None` when it is not cached.
    #[inline(always)]
    pub(super) fn probe(&self, key: u64) -> Option<Option<i32>> {
        let slot = self.slots[key as usize & self.mask];
        let value = slot as u32 as i32;
        if slot >> 32 != key >> 32 || value == EMPTY_VALUE {
            return None;
        }
        Some((value != NO_MOVE).then_some(value))
    }

    /// Keeps `value` (`None`: no move) as the evaluation of the position of `key`.
    #[inline(always)]
    pub(super) fn store(&mut self, key: u64, value: Option<i32>) {
        let value = value.unwrap_or(NO_MOVE);
        debug_assert!(value != EMPTY_VALUE, "an evaluation is far from i32::MIN");
        self.slots[key as usize & self.mask] = (key >> 32 << 32) | u64::from(value as u32);
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::board::{HashedPosition, Position};
    use crate::eval::{
        Evaluator, ExtraPair, PatternTables, PatternWeights, RegionLayout, WeightPair,
    };
    use crate::search::{GameHistory, SearchBudget, Searcher, SelectiveParams};

    /// Pattern weights whose every entry has a value of its own.
    fn pattern_weights() -> Arc<PatternWeights> {
        let mut tables = PatternTables::zero(RegionLayout::BandsAndStrips.regions());
        let values = (0..tables.len() as i64)
            .map(|i| [(i * 7919 % 23 - 11) as i32, (i * 104_729 % 31 - 15) as i32])
            .collect();
        tables.set_values(values).unwrap();
        let mut weights = PatternWeights::zero(tables);
        weights.classic_opening = [30, 5];
        weights.classic_endgame = [15, 9];
        Arc::new(weights)
    }

    /// Positions of random games from the start, men and kings, both sides to move, to the
    /// games' ends (positions without a move among them).
    fn game_positions(count: usize, mut state: u64) -> Vec<Position> {
        let mut out = Vec::new();
        while out.len() < count {
            let mut p = Position::start();
            for _ in 0..200 {
                out.push(p);
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                p = p.play(&moves[(state % moves.len() as u64) as usize]);
            }
        }
        out
    }

    #[test]
    fn a_stored_value_is_found_and_an_other_key_misses() {
        let mut cache = EvalCache::new(4);
        let key = 0x1234_5678_9ABC_DEF3;
        assert_eq!(cache.probe(key), None);
        cache.store(key, Some(-42));
        assert_eq!(cache.probe(key), Some(Some(-42)));
        // The same slot, another upper half: a miss, not the other position's value.
        assert_eq!(cache.probe(key ^ (1 << 40)), None);
        cache.store(key ^ (1 << 40), None);
        assert_eq!(cache.probe(key ^ (1 << 40)), Some(None));
        assert_eq!(cache.probe(key), None, "always replace");
        cache.clear();
        assert_eq!(cache.probe(key ^ (1 << 40)), None);
    }

    #[test]
    fn an_empty_slot_is_a_miss_for_a_key_of_zero() {
        let cache = EvalCache::new(4);
        assert_eq!(cache.probe(0), None);
        assert_eq!(cache.probe(3), None);
    }

    #[test]
    fn the_searchers_cached_evaluations_are_the_evaluators() {
        let (ten, extra, patterns) = (
            WeightPair::material(),
            ExtraPair::default(),
            pattern_weights(),
        );
        let weights = Evaluator::Patterns(&ten, &extra, &patterns);
        let mut searcher = Searcher::new(10);
        searcher.start(&Position::start(), &GameHistory::NONE, weights, false);
        assert!(searcher.eval_cache.is_none(), "the exact search keeps none");
        searcher.start(&Position::start(), &GameHistory::NONE, weights, true);
        assert!(
            searcher.eval_cache.is_some(),
            "the selective search keeps one"
        );
        let quiet: Vec<Position> = game_positions(3000, 0x9E37_79B9)
            .into_iter()
            .filter(|p| p.jumpers() == 0)
            .collect();
        assert!(quiet.iter().any(|p| weights.evaluate_quiet(p).is_none()));
        // Twice over: first computed and stored, then (mostly) read back.
        for _ in 0..2 {
            for p in &quiet {
                let key = HashedPosition::new(*p).hash;
                assert_eq!(
                    searcher.evaluate_quiet(p, || key),
                    weights.evaluate_quiet(p)
                );
            }
        }
        // Other weights: the cache is emptied, not read.
        let other = pattern_weights();
        let mut extra_b = extra;
        extra_b.opening.men[3] = 40;
        let weights_b = Evaluator::Patterns(&ten, &extra_b, &other);
        searcher.start(&Position::start(), &GameHistory::NONE, weights_b, true);
        for p in &quiet {
            let key = HashedPosition::new(*p).hash;
            assert_eq!(
                searcher.evaluate_quiet(p, || key),
                weights_b.evaluate_quiet(p)
            );
        }
        // The ten features are cheaper than a look-up: no cache.
        let material = crate::eval::Weights::material();
        searcher.start(
            &Position::start(),
            &GameHistory::NONE,
            (&material).into(),
            true,
        );
        assert!(searcher.eval_cache.is_none());
        searcher.set_eval_cache(false);
        searcher.start(&Position::start(), &GameHistory::NONE, weights, true);
        assert!(searcher.eval_cache.is_none(), "switched off");
    }

    #[test]
    fn a_search_with_the_cache_is_the_search_without_it() {
        let (ten, extra, patterns) = (
            WeightPair::material(),
            ExtraPair::default(),
            pattern_weights(),
        );
        let weights = Evaluator::Patterns(&ten, &extra, &patterns);
        let budget = SearchBudget {
            nodes: Some(20_000),
            ..SearchBudget::depth(20, 8)
        };
        let positions: Vec<Position> = game_positions(400, 12345).into_iter().step_by(37).collect();
        for selective in [None, Some(SelectiveParams::default())] {
            let mut cached = Searcher::new(12);
            let mut plain = Searcher::new(12);
            cached.set_selective(selective);
            plain.set_selective(selective);
            plain.set_eval_cache(false);
            for p in &positions {
                let a = cached.search_timed(p, &GameHistory::NONE, weights, &budget, |_| {});
                let b = plain.search_timed(p, &GameHistory::NONE, weights, &budget, |_| {});
                assert!(plain.eval_cache.is_none());
                assert_eq!(cached.eval_cache.is_some(), selective.is_some());
                assert_eq!(format!("{a:?}"), format!("{b:?}"), "{selective:?}");
            }
        }
    }
}
