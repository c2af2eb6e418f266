//! The selective search: principal-variation search with null windows, late-move reductions,
//! evaluation-based truncation at the frontier, PV and recapture extensions, history-heuristic
//! ordering and aspiration windows at the root.
//!
//! It trades the exact search's guarantee (its value is plain minimax's) for depth: moves late
//! in the order are searched less deep, quiet frontier nodes far outside the window are cut on
//! the static evaluation, and forcing lines are searched deeper. It keeps what makes checkers
//! checkers:
//!
//! - **Captures are forced.** A node whose side to move has a capture is never reduced, never
//!   truncated, and counts as non-quiet; beyond the nominal depth captures are followed
//!   `extension` plies further, as in the exact search. A quiet node is truncated only when the
//!   opponent has no capture pending either (otherwise the static evaluation misses the shot).
//! - **Database scores are exact**: a position the endgame database holds is scored from it,
//!   and no truncation applies to win/loss bounds.
//! - **The draw rules are the game's**: a quiet move that repeats a position since the last
//!   irreversible move (in the game or on the path) scores 0, and so does one reached after
//!   `no_progress_plies` quiet plies. The table is keyed by the position alone (as in every
//!   selective engine), so a stored value may carry a draw of another path: the price of the
//!   cheaper table, paid only in this mode.
//!
//! **Determinism.** Every search starts from an empty table, empty history and killers, and
//! visits the moves in an order that depends on the position and those tables only: the same
//! position, history, weights and depth (or node budget) give the same move and score on every
//! machine and thread count.
//!
//! It shares the exact search's node steps and move loop (the `node` module), each compiled
//! for its search alone: the exact mode's speed and node counts are those of its own code.

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
use super::score::{lost, MAX_PLY, WIN, WIN_THRESHOLD};
use super::searcher::Searcher;
use super::selective_params::SelectiveState;

/// Beyond this ply nothing is extended any more and a quiet node is a leaf: room for the
/// capture plies below it within [`MAX_PLY`].
const LAST_PLY: u32 = MAX_PLY as u32 - 3;

/// A move's slot in the history table.
#[inline(always)]
fn history_slot(mv: &Move) -> usize {
    mv.from_index() as usize * 32 + mv.to_index() as usize
}

impl Searcher {
    /// [`Searcher::search_in_game`] in selective mode: iterative deepening to `limits`'s
    /// full-width depth, captures followed `max_depth - min_depth` plies beyond each leaf.
    pub(super) fn selective_fixed(
        &mut self,
        st: &mut SelectiveState,
        pos: &Position,
        history: &GameHistory<'_>,
        weights: Evaluator<'_>,
        limits: SearchLimits,
        tie_rng: Option<&mut ChaCha8Rng>,
    ) -> SearchResult {
        let budget =
            SearchBudget::depth(limits.min_depth(), limits.max_depth() - limits.min_depth());
        self.selective_timed(st, pos, history, weights, &budget, tie_rng, &mut |_| {})
    }

    /// [`Searcher::search_timed`] in selective mode. With `tie_rng` (fixed depths only), the
    /// last iteration draws among the root moves of the best score.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn selective_timed(
        &mut self,
        st: &mut SelectiveState,
        pos: &Position,
        history: &GameHistory<'_>,
        weights: Evaluator<'_>,
        budget: &SearchBudget,
        mut tie_rng: Option<&mut ChaCha8Rng>,
        report: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let extension = budget.extension.min(MAX_PLY as u32 - 3);
        let depth_cap = budget.depth.clamp(1, MAX_PLY as u32 - 2 - extension);
        // Every search starts afresh, so that its answer depends on its inputs only.
        self.tt.clear();
        self.context = None;
        st.history = [[0; 32 * 32]; 2];
        let (root, list) = self.start(pos, history, weights, true);
        if list.is_empty() {
            return SearchResult::no_move(0);
        }
        self.selective_history(st, history, &root);
        st.extension = extension as i32;
        self.start_budget(budget);
        let mut order = [0u8; MAX_MOVES];
        for (i, slot) in order[..list.len()].iter_mut().enumerate() {
            *slot = i as u8;
        }
        let order = &mut order[..list.len()];
        let mut best: Option<SearchResult> = None;
        for depth in 1..=depth_cap {
            if best
                .as_ref()
                .is_some_and(|done| self.deepening_done(done, true))
            {
                break;
            }
            st.root_depth = depth as i32;
            self.can_abort = best.is_some();
            let last = depth == depth_cap;
            let rng = if last { tie_rng.as_deref_mut() } else { None };
            let previous = best.as_ref().map(|b| b.score);
            let (index, score) = self.selective_aspiration(st, &root, &list, order, previous, rng);
            if self.aborted {
                // With a time target, the iteration's safe answer beats the last one's: the
                // last best move searched deeper, or a move that proved better.
                if self.time.is_some() && self.root_safe {
                    let result = self.iteration_result(list[index], score, depth);
                    report(&result);
                    best = Some(result);
                }
                break;
            }
            // The best move leads the next iteration; the others keep their order.
            let at = order.iter().position(|&i| i as usize == index).unwrap_or(0);
            order[..=at].rotate_right(1);
            let result = self.iteration_result(list[index], score, depth);
            report(&result);
            self.iteration_timed(&result, list.len());
            best = Some(result);
        }
        self.finish(best, list[0])
    }

    /// Loads the game's keys since the last irreversible move and the root's.
    fn selective_history(
        &mut self,
        st: &mut SelectiveState,
        history: &GameHistory<'_>,
        root: &HashedPosition,
    ) {
        let history_len = self.draws.history_len;
        let window = history_len + MAX_PLY + 1;
        if st.keys.len() < window {
            st.keys.resize(window, 0);
        }
        for (slot, p) in st.keys.iter_mut().zip(history.positions) {
            *slot = p.zobrist();
        }
        st.keys[history_len] = root.hash;
        st.window_start[0] = 0;
    }

    /// One iteration at the root within an aspiration window around the previous iteration's
    /// score, widened (four times wider each time, then to the full window) when the score
    /// falls outside it.
    fn selective_aspiration(
        &mut self,
        st: &mut SelectiveState,
        root: &HashedPosition,
        list: &MoveList,
        order: &[u8],
        previous: Option<i32>,
        mut tie_rng: Option<&mut ChaCha8Rng>,
    ) -> (usize, i32) {
        let full = (-WIN - 1, WIN + 1);
        let width = st.params.aspiration as i32;
        let mut delta = width;
        let (mut alpha, mut beta) = match previous {
            Some(v) if width > 0 && st.root_depth >= 3 && v.abs() < WIN_THRESHOLD => {
                (v - width, v + width)
            }
            _ => full,
        };
        loop {
            let rng = tie_rng.as_deref_mut();
            let (index, score) = self.selective_root(st, root, list, order, alpha, beta, rng);
            if self.aborted {
                return (index, score);
            }
            delta = delta.saturating_mul(4);
            let wide = delta > 10 * width.max(1) || score.abs() >= WIN_THRESHOLD;
            if score <= alpha && alpha > full.0 {
                alpha = if wide { full.0 } else { score - delta };
            } else if score >= beta && beta < full.1 {
                beta = if wide { full.1 } else { score + delta };
            } else {
                return (index, score);
            }
        }
    }

    /// One pass over the root moves in `order` within `(alpha, beta)`: the first with the
    /// window, the others with a null window first (re-searched if they beat the best). With
    /// `tie_rng`, moves that equal the best are found too and one of them is drawn. A pass cut
    /// short answers the best move it finished, with its line, and `root_safe` says whether
    /// that is a move to play.
    #[allow(clippy::too_many_arguments)]
    fn selective_root(
        &mut self,
        st: &mut SelectiveState,
        root: &HashedPosition,
        list: &MoveList,
        order: &[u8],
        mut alpha: i32,
        beta: i32,
        tie_rng: Option<&mut ChaCha8Rng>,
    ) -> (usize, i32) {
        self.nodes += 1;
        self.root_safe = false;
        let window_alpha = alpha;
        let collect_ties = tie_rng.is_some();
        let depth = st.root_depth;
        let mut best = -WIN - 1;
        let mut best_index = order[0] as usize;
        let mut ties: ArrayVec<u8, MAX_MOVES> = ArrayVec::new();
        let mut line: ArrayVec<Move, MAX_PLY> = ArrayVec::new();
        for (k, &i) in order.iter().enumerate() {
            let mv = list[i as usize];
            let value = if k == 0 {
                -self.selective_child(st, root, &mv, 1, depth - 1, -beta, -alpha)
            } else {
                // With ties drawn, a move equal to the best must come out exact: search it
                // just below the best.
                let a = if collect_ties {
                    alpha.max(best - 1)
                } else {
                    alpha.max(best)
                };
                let mut v = -self.selective_child(st, root, &mv, 1, depth - 1, -a - 1, -a);
                if v > a && v < beta && !self.aborted {
                    v = -self.selective_child(st, root, &mv, 1, depth - 1, -beta, -a);
                }
                v
            };
            if self.aborted {
                self.set_root_line(&line);
                return (best_index, best);
            }
            if value > best {
                best = value;
                best_index = i as usize;
                // Above the window's floor: not a fail-low bound, a move to play.
                self.root_safe |= value > window_alpha;
                ties.clear();
                ties.push(i);
                line.clear();
                line.extend(self.line_below_root().iter().copied());
                if value > alpha && !collect_ties {
                    alpha = value;
                }
                if value >= beta {
                    break;
                }
            } else if collect_ties && value == best {
                ties.push(i);
            }
        }
        if let Some(rng) = tie_rng {
            if ties.len() > 1 {
                let chosen = ties[rng.gen_range(0..ties.len())] as usize;
                if chosen != best_index {
                    best_index = chosen;
                    // Only the first tie's line is known.
                    line.clear();
                }
            }
        }
        self.set_root_line(&line);
        (best_index, best)
    }

    /// The value of `parent` after `mv`, `ply` plies below the root, with `depth` nominal plies
    /// left (0 or less: a leaf, where only captures go on, `extension` plies at most).
    #[allow(clippy::too_many_arguments)]
    fn selective_child(
        &mut self,
        st: &mut SelectiveState,
        parent: &HashedPosition,
        mv: &Move,
        ply: u32,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let p = ply as usize;
        if !self.enter_node::<true>(p) {
            return 0;
        }
        let node = parent.play(mv);
        let pos = &node.position;
        let here = self.draws.history_len + p;
        st.keys[here] = node.hash;
        if parent.position.is_irreversible(mv) {
            st.window_start[p] = here;
        } else {
            // A repetition: the same key (so the same side to move) at least 4 quiet plies
            // back within the stretch since the last irreversible move.
            let start = st.window_start[p - 1];
            st.window_start[p] = start;
            if here - start >= self.draws.no_progress_plies {
                return 0;
            }
            let mut i = here.wrapping_sub(4);
            while i >= start && i < here {
                if st.keys[i] == node.hash {
                    return 0;
                }
                i = i.wrapping_sub(2);
            }
        }
        if let Some(value) = self.probe_db(pos, ply) {
            return value;
        }
        let jumpers = pos.jumpers();
        if depth <= 0 || ply >= LAST_PLY {
            let at_limit = depth <= -st.extension || ply >= LAST_PLY;
            if let Some(value) = self.frontier_value(pos, || node.hash, ply, jumpers == 0, at_limit)
            {
                return value;
            }
        }
        let pv_node = beta - alpha > 1;
        let mut tt_best = u8::MAX;
        if depth > 0 {
            if let Some(e) = self.tt.probe(node.hash) {
                tt_best = e.best;
                if !pv_node && e.draft as i32 >= depth {
                    if let Some(value) = tt_cutoff(e, ply, alpha, beta) {
                        return value;
                    }
                }
            }
        }
        let quiet = jumpers == 0;
        if quiet && !pv_node && depth > 0 {
            if let Some(value) = self.truncated(st, &node, depth, alpha, beta) {
                return value;
            }
        }
        let mut list = MoveList::new();
        pos.generate_moves(&mut list);
        if list.is_empty() {
            return lost(ply);
        }
        // Order: the table move, the killers, then by history (ties in generation order).
        let n = list.len();
        let ordered = quiet && depth > 0;
        let mut order = [0u8; MAX_MOVES];
        let order = &mut order[..n];
        let front = self.order_moves::<true>(&list, order, tt_best, p, ordered);
        if ordered && st.params.history {
            let table = &st.history[pos.side as usize];
            // Insertion sort, stable: equal scores keep generation order.
            for a in front + 1..n {
                let item = order[a];
                let score = table[history_slot(&list[item as usize])];
                let mut b = a;
                while b > front && table[history_slot(&list[order[b - 1] as usize])] < score {
                    order[b] = order[b - 1];
                    b -= 1;
                }
                order[b] = item;
            }
        }
        let can_extend = ply < LAST_PLY - 1 && (ply as i32) < 2 * st.root_depth;
        let mut moves = SelectiveMoves {
            side: pos.side as usize,
            st,
            depth,
            pv_node,
            quiet,
            forced: n == 1,
            killers_end: front,
            arrived_by_capture: mv.is_capture(),
            can_extend,
        };
        let Some((best, best_index)) =
            self.search_moves(&mut moves, &node, &list, order, ply, alpha, beta)
        else {
            return 0;
        };
        if depth > 0 {
            let draft = depth.min(255) as u16;
            self.store_node(node.hash, best, alpha, beta, ply, draft, best_index);
        }
        best
    }

    /// Truncation: the value of a quiet frontier node (`depth` plies left) whose evaluation is
    /// far outside the window, with no capture pending for either side (a pending one is the
    /// tactic the evaluation cannot see); `None` to search it.
    #[inline(always)]
    fn truncated(
        &mut self,
        st: &SelectiveState,
        node: &HashedPosition,
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let pos = &node.position;
        let margin = st.params.futility_margin as i32;
        if depth > st.params.futility_depth as i32
            || margin <= 0
            || alpha.abs() >= WIN_THRESHOLD
            || beta.abs() >= WIN_THRESHOLD
        {
            return None;
        }
        let flipped = Position {
            side: pos.side.opponent(),
            ..*pos
        };
        if flipped.jumpers() != 0 {
            return None;
        }
        let eval = self.evaluate_quiet(pos, || node.hash)?;
        let m = margin * depth;
        if eval - m >= beta {
            Some(eval - m)
        } else if eval + m <= alpha {
            Some(eval + m)
        } else {
            None
        }
    }
}

/// The selective search's way through a node's moves: the first with the window, the others
/// with a null window first (late quiet ones reduced), re-searched when they beat alpha;
/// forced lines extended; a quiet refutation made a killer and credited in the history table.
struct SelectiveMoves<'a> {
    st: &'a mut SelectiveState,
    /// The node's side to move, for the history table.
    side: usize,
    /// The node's nominal plies left.
    depth: i32,
    pv_node: bool,
    /// The side to move has no capture.
    quiet: bool,
    /// The node has one legal move.
    forced: bool,
    /// Moves before this index in the order are the table move and the killers.
    killers_end: usize,
    /// The node was reached by a capture.
    arrived_by_capture: bool,
    /// Extensions still fit below the node.
    can_extend: bool,
}

impl MoveSearch for SelectiveMoves<'_> {
    const TIMED: bool = true;

    #[inline(always)]
    fn value(
        &mut self,
        searcher: &mut Searcher,
        node: &HashedPosition,
        mv: &Move,
        ply: u32,
        k: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let params = self.st.params;
        let depth = self.depth;
        let extend = depth > 0
            && self.can_extend
            && ((params.recapture_extension && self.arrived_by_capture && mv.is_capture())
                || (params.pv_extension && self.pv_node && self.forced));
        let new_depth = depth - 1 + extend as i32;
        let st = &mut *self.st;
        if k == 0 {
            return -searcher.selective_child(st, node, mv, ply + 1, new_depth, -beta, -alpha);
        }
        let reduce = self.quiet
            && !extend
            && depth >= params.lmr_depth as i32
            && k >= params.lmr_moves as usize
            && k >= self.killers_end;
        let r = if reduce {
            (params.lmr_reduction as i32).min(new_depth - 1).max(0)
        } else {
            0
        };
        let mut v =
            -searcher.selective_child(st, node, mv, ply + 1, new_depth - r, -alpha - 1, -alpha);
        if r > 0 && v > alpha && !searcher.aborted {
            v = -searcher.selective_child(st, node, mv, ply + 1, new_depth, -alpha - 1, -alpha);
        }
        if v > alpha && v < beta && !searcher.aborted {
            v = -searcher.selective_child(st, node, mv, ply + 1, new_depth, -beta, -alpha);
        }
        v
    }

    #[inline(always)]
    fn refuted(&mut self, searcher: &mut Searcher, p: usize, mv: Move) {
        if self.depth > 0 {
            searcher.remember_killer(p, mv);
            if self.st.params.history {
                let slot = &mut self.st.history[self.side][history_slot(&mv)];
                *slot = slot.saturating_add((self.depth * self.depth) as u32);
            }
        }
    }
}
