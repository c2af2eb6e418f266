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
//! The code is apart from the exact search's (`Searcher::negamax`), which it shares no hot path
//! with: the exact mode's speed and node counts are untouched.

use super::*;

/// The selective search's settings: each feature can be switched off on its own (a reduction
/// of 0 plies, a margin of 0, …). See `docs/engine.md` for what each is worth. Serialised
/// whole in a run's checkpoint, as a specimen's own search (`[search.genes]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct SelectiveParams {
    /// Late-move reductions apply at nodes with at least this many plies left.
    pub lmr_depth: u32,
    /// Moves searched at full depth before later ones are reduced.
    pub lmr_moves: u32,
    /// Plies a late quiet move is reduced by (0: no reductions).
    pub lmr_reduction: u32,
    /// Truncation applies at nodes with at most this many plies left (0: none).
    pub futility_depth: u32,
    /// Truncation margin per ply left, in evaluation units (hundredths of a man): a quiet
    /// non-PV node whose static evaluation is this far outside the window per ply left is cut.
    pub futility_margin: u32,
    /// Search a forced move (the only legal one) on a principal-variation node a ply deeper.
    pub pv_extension: bool,
    /// Search a capture that answers a capture a ply deeper.
    pub recapture_extension: bool,
    /// Order the quiet moves after the table move and the killers by the history heuristic.
    pub history: bool,
    /// Half-width of the root's aspiration window around the previous iteration's score, in
    /// evaluation units (0: full windows).
    pub aspiration: u32,
}

impl SelectiveParams {
    /// The defaults, as a constant for the settings' defaults: the values SPSA tuned at 40,000
    /// nodes a move (`docs/engine.md#tuning-the-search-by-spsa`), about +30 Elo over the
    /// hand-set ones they replaced (3, 3, 1, 2, 60, …, 30) at equal time and at equal nodes.
    pub const DEFAULT: SelectiveParams = SelectiveParams {
        lmr_depth: 3,
        lmr_moves: 2,
        lmr_reduction: 2,
        futility_depth: 3,
        futility_margin: 33,
        pv_extension: true,
        recapture_extension: true,
        history: true,
        aspiration: 19,
    };
}

impl Default for SelectiveParams {
    /// [`SelectiveParams::DEFAULT`].
    fn default() -> Self {
        SelectiveParams::DEFAULT
    }
}

/// A selective searcher's own state beside the exact searcher's (table, killers, PV arrays and
/// budget are shared): boxed once when the mode is chosen, reused by every search after.
pub(super) struct SelectiveState {
    params: SelectiveParams,
    /// History-heuristic scores by side to move, from square and to square.
    history: [[u32; 32 * 32]; 2],
    /// Zobrist keys of the game's positions since the last irreversible move, then of the
    /// nodes on the current path (the node at `ply` at index `history_len + ply`).
    keys: Vec<u64>,
    /// Index in `keys` where the quiet stretch of the node at each ply begins.
    window_start: [usize; MAX_PLY + 1],
    /// The iteration's nominal depth: extensions stop at twice it.
    root_depth: i32,
    /// Plies captures are followed beyond a leaf.
    extension: i32,
}

impl SelectiveState {
    pub(super) fn new(params: SelectiveParams) -> Box<SelectiveState> {
        Box::new(SelectiveState {
            params,
            history: [[0; 32 * 32]; 2],
            keys: Vec::new(),
            window_start: [0; MAX_PLY + 1],
            root_depth: 1,
            extension: 0,
        })
    }

    pub(super) fn params(&self) -> SelectiveParams {
        self.params
    }
}

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
        let (root, list) = self.start(pos, history, weights);
        if list.is_empty() {
            return SearchResult::no_move(0);
        }
        self.selective_history(st, history, &root);
        st.extension = extension as i32;
        self.budget = budget.clone();
        self.aborted = false;
        self.next_check = 0;
        let mut order = [0u8; MAX_MOVES];
        for (i, slot) in order[..list.len()].iter_mut().enumerate() {
            *slot = i as u8;
        }
        let order = &mut order[..list.len()];
        let mut best: Option<SearchResult> = None;
        for depth in 1..=depth_cap {
            if let Some(done) = &best {
                let decided = done
                    .mate_distance()
                    .is_some_and(|plies| plies.unsigned_abs() <= done.depth);
                let late = self
                    .budget
                    .soft_deadline
                    .is_some_and(|t| Instant::now() >= t);
                if decided || late || self.budget_spent() {
                    break;
                }
            }
            st.root_depth = depth as i32;
            self.can_abort = best.is_some();
            let last = depth == depth_cap;
            let rng = if last { tie_rng.as_deref_mut() } else { None };
            let previous = best.as_ref().map(|b| b.score);
            let (index, score) = self.selective_aspiration(st, &root, &list, order, previous, rng);
            if self.aborted {
                break;
            }
            // The best move leads the next iteration; the others keep their order.
            let at = order.iter().position(|&i| i as usize == index).unwrap_or(0);
            order[..=at].rotate_right(1);
            let result = self.iteration_result(list[index], score, depth);
            report(&result);
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
        let window = self.history_len + MAX_PLY + 1;
        if st.keys.len() < window {
            st.keys.resize(window, 0);
        }
        for (slot, p) in st.keys.iter_mut().zip(history.positions) {
            *slot = p.zobrist();
        }
        st.keys[self.history_len] = root.hash;
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
    /// `tie_rng`, moves that equal the best are found too and one of them is drawn.
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
                return (best_index, best);
            }
            if value > best {
                best = value;
                best_index = i as usize;
                ties.clear();
                ties.push(i);
                line.clear();
                line.extend(self.pv[1][1..self.pv_len[1]].iter().copied());
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
        self.pv_len[1] = line.len() + 1;
        self.pv[1][1..=line.len()].copy_from_slice(&line);
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
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.check_budget();
        }
        if self.aborted {
            return 0;
        }
        let p = ply as usize;
        self.pv_len[p] = p;
        let node = parent.play(mv);
        let pos = &node.position;
        let here = self.history_len + p;
        st.keys[here] = node.hash;
        if parent.position.is_irreversible(mv) {
            st.window_start[p] = here;
        } else {
            // A repetition: the same key (so the same side to move) at least 4 quiet plies
            // back within the stretch since the last irreversible move.
            let start = st.window_start[p - 1];
            st.window_start[p] = start;
            if here - start >= self.no_progress_plies {
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
        if let Some(db) = self.egdb {
            if let Some(value) = db.probe(pos) {
                return db_score(value, ply);
            }
        }
        let jumpers = pos.jumpers();
        if depth <= 0 || ply >= LAST_PLY {
            if jumpers == 0 {
                return self
                    .weights
                    .evaluate_quiet(pos)
                    .unwrap_or(-(WIN - ply as i32));
            }
            if depth <= -st.extension || ply >= LAST_PLY {
                return self.weights.evaluate(pos);
            }
        }
        let pv_node = beta - alpha > 1;
        let mut tt_best = u8::MAX;
        if depth > 0 {
            if let Some(e) = self.tt.probe(node.hash) {
                tt_best = e.best;
                if !pv_node && e.draft as i32 >= depth {
                    let v = from_tt(e.value, ply);
                    let cut = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => v >= beta,
                        Bound::Upper => v <= alpha,
                    };
                    if cut {
                        return v;
                    }
                }
            }
        }
        let quiet = jumpers == 0;
        // Truncation: a quiet frontier node whose evaluation is far outside the window, with
        // no capture pending for either side (a pending one is the tactic the evaluation
        // cannot see).
        let margin = st.params.futility_margin as i32;
        if quiet
            && !pv_node
            && depth > 0
            && depth <= st.params.futility_depth as i32
            && margin > 0
            && alpha.abs() < WIN_THRESHOLD
            && beta.abs() < WIN_THRESHOLD
        {
            let flipped = Position {
                side: pos.side.opponent(),
                ..*pos
            };
            if flipped.jumpers() == 0 {
                if let Some(eval) = self.weights.evaluate_quiet(pos) {
                    let m = margin * depth;
                    if eval - m >= beta {
                        return eval - m;
                    }
                    if eval + m <= alpha {
                        return eval + m;
                    }
                }
            }
        }
        let mut list = MoveList::new();
        pos.generate_moves(&mut list);
        if list.is_empty() {
            return -(WIN - ply as i32);
        }
        // Order: the table move, the killers, then by history (ties in generation order).
        let n = list.len();
        let mut order = [0u8; MAX_MOVES];
        for (i, slot) in order[..n].iter_mut().enumerate() {
            *slot = i as u8;
        }
        let order = &mut order[..n];
        let mut front = 0;
        if (tt_best as usize) < n {
            // The rest keep generation order.
            order[..=tt_best as usize].rotate_right(1);
            front = 1;
        }
        if quiet && depth > 0 {
            for killer in self.killers[p] {
                if let Some(k) = order[front..]
                    .iter()
                    .position(|&i| list[i as usize] == killer)
                {
                    let item = order[front + k];
                    order[front..=front + k].rotate_right(1);
                    order[front] = item;
                    front += 1;
                }
            }
            if st.params.history {
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
        }
        let killers_end = front;
        let arrived_by_capture = mv.is_capture();
        let can_extend = ply < LAST_PLY - 1 && (ply as i32) < 2 * st.root_depth;
        let original_alpha = alpha;
        let mut best = -WIN - 1;
        let mut best_index = 0u8;
        for (k, &i) in order.iter().enumerate() {
            let mv = list[i as usize];
            let extend = depth > 0
                && can_extend
                && ((st.params.recapture_extension && arrived_by_capture && mv.is_capture())
                    || (st.params.pv_extension && pv_node && n == 1));
            let new_depth = depth - 1 + extend as i32;
            let value = if k == 0 {
                -self.selective_child(st, &node, &mv, ply + 1, new_depth, -beta, -alpha)
            } else {
                let reduce = quiet
                    && !extend
                    && depth >= st.params.lmr_depth as i32
                    && k >= st.params.lmr_moves as usize
                    && k >= killers_end;
                let r = if reduce {
                    (st.params.lmr_reduction as i32).min(new_depth - 1).max(0)
                } else {
                    0
                };
                let mut v = -self.selective_child(
                    st,
                    &node,
                    &mv,
                    ply + 1,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                );
                if r > 0 && v > alpha && !self.aborted {
                    v = -self.selective_child(
                        st,
                        &node,
                        &mv,
                        ply + 1,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                    );
                }
                if v > alpha && v < beta && !self.aborted {
                    v = -self.selective_child(st, &node, &mv, ply + 1, new_depth, -beta, -alpha);
                }
                v
            };
            if self.aborted {
                return 0;
            }
            if value > best {
                best = value;
                best_index = i;
                if value > alpha {
                    alpha = value;
                    self.pv[p][p] = mv;
                    let child_len = self.pv_len[p + 1];
                    for k in p + 1..child_len {
                        self.pv[p][k] = self.pv[p + 1][k];
                    }
                    self.pv_len[p] = child_len.max(p + 1);
                    if value >= beta {
                        if !mv.is_capture() && depth > 0 {
                            if self.killers[p][0] != mv {
                                self.killers[p][1] = self.killers[p][0];
                                self.killers[p][0] = mv;
                            }
                            if st.params.history {
                                let slot = &mut st.history[pos.side as usize][history_slot(&mv)];
                                *slot = slot.saturating_add((depth * depth) as u32);
                            }
                        }
                        break;
                    }
                }
            }
        }
        if depth > 0 {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(Entry {
                key: node.hash,
                value: to_tt(best, ply),
                draft: depth.min(255) as u16,
                bound,
                best: best_index,
            });
        }
        best
    }
}
