//! The exact search: negamax alpha-beta to a minimum depth, extended along captures to a
//! maximum depth.
//!
//! Full width to `min_depth` plies; beyond it a position whose side to move must capture is
//! searched on, up to `max_depth`; a quiet position at or beyond `min_depth` is evaluated. A
//! side with no move has lost, scored `-(WIN - ply)` so that quicker wins and slower losses are
//! preferred. Iterative deepening, a transposition table and killer moves only speed the
//! search up: table entries cut off only at the exact same remaining depths (and under the
//! draw rules' window keys, see the `draws` module), and the root moves are searched in
//! generation order, so the value is plain minimax's and ties go to the first move generated
//! (or to a seeded random choice among the tied moves).

use arrayvec::ArrayVec;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::board::{HashedPosition, Move, MoveList, Position, MAX_MOVES};
use crate::eval::Evaluator;

use super::budget::SearchBudget;
use super::draws::GameHistory;
use super::limits::SearchLimits;
use super::node::{tt_cutoff, MoveSearch};
use super::result::SearchResult;
use super::score::{lost, MAX_PLY, WIN};
use super::searcher::Searcher;

/// The exact search's way through a node's moves: each with the full window, a quiet
/// refutation made a killer. `TIMED` compiles in the budget checks.
struct ExactMoves<const TIMED: bool>;

impl<const TIMED: bool> MoveSearch for ExactMoves<TIMED> {
    const TIMED: bool = TIMED;

    #[inline(always)]
    fn value(
        &mut self,
        searcher: &mut Searcher,
        node: &HashedPosition,
        mv: &Move,
        ply: u32,
        _k: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        -searcher.negamax::<TIMED>(node, mv, ply + 1, -beta, -alpha)
    }

    #[inline(always)]
    fn refuted(&mut self, searcher: &mut Searcher, p: usize, mv: Move) {
        searcher.remember_killer(p, mv);
    }
}

impl Searcher {
    /// [`Searcher::search_in_game`] in exact mode: iterative deepening to `limits` (a single
    /// iteration when plain), the table kept from the last search with the same weights and
    /// limits.
    pub(super) fn exact_fixed(
        &mut self,
        pos: &Position,
        history: &GameHistory<'_>,
        weights: Evaluator<'_>,
        limits: SearchLimits,
        mut tie_rng: Option<&mut ChaCha8Rng>,
    ) -> SearchResult {
        let same = self
            .context
            .as_ref()
            .is_some_and(|(stored, stored_limits)| stored.is(weights) && *stored_limits == limits);
        if !same {
            // Stored values belong to other weights: keep nothing.
            self.tt.clear();
            self.context = Some((weights.to_owned(), limits));
        }
        let (root, list) = self.start(pos, history, weights, false);
        if list.is_empty() {
            return SearchResult::no_move(limits.min_depth());
        }
        let extension = limits.max_depth() - limits.min_depth();
        let mut result = None;
        let first = if self.plain { limits.min_depth() } else { 1 };
        for depth in first..=limits.min_depth() {
            self.min_depth = depth;
            self.max_depth = depth + extension;
            let last = depth == limits.min_depth();
            let rng = if last { tie_rng.as_deref_mut() } else { None };
            result = Some(self.search_root::<false>(&root, &list, rng));
        }
        let (best_index, score) = result.expect("at least one iteration");
        self.iteration_result(list[best_index], score, limits.min_depth())
    }

    /// [`Searcher::search_timed`] in exact mode.
    pub(super) fn exact_timed(
        &mut self,
        pos: &Position,
        history: &GameHistory<'_>,
        weights: Evaluator<'_>,
        budget: &SearchBudget,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let extension = budget.extension.min(MAX_PLY as u32 - 3);
        let depth_cap = budget.depth.clamp(1, MAX_PLY as u32 - 2 - extension);
        self.tt.clear();
        // The table no longer matches what `search_in_game` last left in it.
        self.context = None;
        let (root, list) = self.start(pos, history, weights, false);
        if list.is_empty() {
            return SearchResult::no_move(0);
        }
        self.start_budget(budget);
        let mut best: Option<SearchResult> = None;
        for depth in 1..=depth_cap {
            // The root moves go in generation order, so an iteration cut short has no safe
            // answer: only whole iterations count.
            if best
                .as_ref()
                .is_some_and(|done| self.deepening_done(done, false))
            {
                break;
            }
            self.min_depth = depth;
            self.max_depth = depth + extension;
            self.can_abort = best.is_some();
            let (index, score) = self.search_root::<true>(&root, &list, None);
            if self.aborted {
                break;
            }
            let result = self.iteration_result(list[index], score, depth);
            report(&result);
            self.iteration_timed(&result, list.len());
            best = Some(result);
        }
        self.finish(best, list[0])
    }

    /// One iteration at the root: moves in generation order, a later move replaces the best only
    /// if strictly better (or, when drawing among ties, if equal: searched with a window one
    /// below the best so that equal values are exact).
    ///
    /// With `TIMED`, the budget is checked as the tree is searched; an iteration cut short
    /// returns at once with a meaningless answer and `self.aborted` set.
    fn search_root<const TIMED: bool>(
        &mut self,
        root: &HashedPosition,
        list: &MoveList,
        tie_rng: Option<&mut ChaCha8Rng>,
    ) -> (usize, i32) {
        self.nodes += 1;
        let collect_ties = tie_rng.is_some();
        let mut best = -WIN - 1;
        // The best move(s) so far with their lines; a root-level list (one per iteration, not
        // per node), kept on the heap rather than as a 256-entry array on the stack.
        let mut ties: Vec<(usize, ArrayVec<Move, MAX_PLY>)> = Vec::new();
        for (i, mv) in list.iter().enumerate() {
            let alpha = if collect_ties { best - 1 } else { best };
            let value = -self.negamax::<TIMED>(root, mv, 1, -WIN - 1, -alpha);
            if TIMED && self.aborted {
                return (0, 0);
            }
            let line =
                || -> ArrayVec<Move, MAX_PLY> { self.line_below_root().iter().copied().collect() };
            if value > best {
                best = value;
                ties.clear();
                ties.push((i, line()));
            } else if collect_ties && value == best {
                ties.push((i, line()));
            }
        }
        let chosen = match tie_rng {
            Some(rng) if ties.len() > 1 => rng.gen_range(0..ties.len()),
            _ => 0,
        };
        let (index, line) = ties.swap_remove(chosen);
        self.set_root_line(&line);
        (index, best)
    }

    /// Remaining full-width plies and remaining plies to the hard limit, packed for the table.
    #[inline(always)]
    fn draft(&self, ply: u32) -> u16 {
        ((self.min_depth.saturating_sub(ply) as u16) << 8) | (self.max_depth - ply) as u16
    }

    /// The value of `parent` after `mv`, `ply` plies below the root. The child's Zobrist key is
    /// only computed once the child turns out not to be a leaf: most nodes are leaves.
    ///
    /// `TIMED` compiles in the budget checks of [`Searcher::search_timed`]; the fixed-depth
    /// search uses the instantiation without them. Once aborted, every node returns 0 at once
    /// and nothing more is stored in the table or the killers.
    fn negamax<const TIMED: bool>(
        &mut self,
        parent: &HashedPosition,
        mv: &Move,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let p = ply as usize;
        if !self.enter_node::<TIMED>(p) {
            return 0;
        }
        let child = parent.position.play(mv);
        let pos = &child;
        let here = self.draws.history_len + p;
        // Only a quiet move (a king's step) can lead back to an earlier position; after any
        // other move the set of recurrable positions starts afresh.
        let irreversible = parent.position.is_irreversible(mv);
        if !irreversible
            && self.draws.quiet_child_may_draw[p - 1]
            && self.draws.repeats(&child, p, here)
        {
            return 0;
        }
        if let Some(value) = self.probe_db(pos, ply) {
            return value;
        }
        if ply >= self.min_depth {
            let at_limit = ply >= self.max_depth;
            if let Some(value) = self.frontier_value(
                pos,
                || parent.position.zobrist_after(parent.hash, mv),
                ply,
                pos.jumpers() == 0,
                at_limit,
            ) {
                return value;
            }
        }
        let node = HashedPosition {
            position: child,
            hash: parent.position.zobrist_after(parent.hash, mv),
        };
        // Beyond the full-width depth only captures are searched: nothing below this node can
        // repeat anything, so it needs neither a place on the path nor a window in its key.
        let tt_key = if ply < self.min_depth {
            self.draws.record(here, &node, self.min_depth - ply);
            if irreversible {
                self.draws.empty_window(ply, here);
                node.hash
            } else {
                node.hash ^ self.draws.window_key(pos, ply, here, self.min_depth)
            }
        } else {
            node.hash
        };
        let draft = self.draft(ply);
        let mut tt_best = u8::MAX;
        if self.use_tt {
            if let Some(e) = self.tt.probe(tt_key) {
                tt_best = e.best;
                if e.draft == draft {
                    if let Some(value) = tt_cutoff(e, ply, alpha, beta) {
                        return value;
                    }
                }
            }
        }
        let mut list = MoveList::new();
        pos.generate_moves(&mut list);
        if list.is_empty() {
            return lost(ply);
        }
        // Search order: table move, killers, then generation order.
        let use_killers = !self.plain && !list[0].is_capture();
        let mut order = [0u8; MAX_MOVES];
        let order = &mut order[..list.len()];
        self.order_moves::<false>(&list, order, tt_best, p, use_killers);
        let Some((best, best_index)) = self.search_moves(
            &mut ExactMoves::<TIMED>,
            &node,
            &list,
            order,
            ply,
            alpha,
            beta,
        ) else {
            return 0;
        };
        if self.use_tt {
            self.store_node(tt_key, best, alpha, beta, ply, draft, best_index);
        }
        best
    }
}
