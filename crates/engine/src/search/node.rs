//! What a node does alike in the exact and the selective search: counting itself, the endgame
//! database and the frontier's evaluation, the table's cutoffs and stores, the table move and
//! the killers at the front of the move order, and the move loop with its principal-variation
//! and killer updates.
//!
//! The two searches differ in how they search one move and in what they learn from a quiet
//! move that refutes a node: that is [`MoveSearch`]. The loop is compiled for each search on
//! its own, with everything inlined, so neither pays for the other's features.

use crate::board::{HashedPosition, Move, MoveList, Position};

use super::score::{db_score, from_tt, lost, to_tt, WIN};
use super::searcher::Searcher;
use super::tt::{Bound, Entry};

/// How one search searches the moves of a node in the shared move loop
/// ([`Searcher::search_moves`]).
pub(super) trait MoveSearch {
    /// Whether the budget is checked as the tree is searched: once the search is aborted, the
    /// loop returns at once.
    const TIMED: bool;

    /// The value, for the side to move at `node` (`ply` plies below the root), of `mv`, the
    /// `k`-th move in the order (from 0), within the window `(alpha, beta)` as it stands.
    #[allow(clippy::too_many_arguments)]
    fn value(
        &mut self,
        searcher: &mut Searcher,
        node: &HashedPosition,
        mv: &Move,
        ply: u32,
        k: usize,
        alpha: i32,
        beta: i32,
    ) -> i32;

    /// The quiet move `mv` refuted the node at ply `p`: what the search remembers of it.
    fn refuted(&mut self, searcher: &mut Searcher, p: usize, mv: Move);
}

/// The table's value for a node `ply` plies below the root, if `entry` (searched deep enough)
/// decides it within `(alpha, beta)`.
#[inline(always)]
pub(super) fn tt_cutoff(entry: &Entry, ply: u32, alpha: i32, beta: i32) -> Option<i32> {
    let v = from_tt(entry.value, ply);
    let cut = match entry.bound {
        Bound::Exact => true,
        Bound::Lower => v >= beta,
        Bound::Upper => v <= alpha,
    };
    cut.then_some(v)
}

impl Searcher {
    /// Counts a node at ply `p` and starts its principal variation; `false` if the search has
    /// been aborted (with `TIMED`, after checking the budget when it is due).
    #[inline(always)]
    pub(super) fn enter_node<const TIMED: bool>(&mut self, p: usize) -> bool {
        self.nodes += 1;
        if TIMED {
            if self.nodes >= self.next_check {
                self.check_budget();
            }
            if self.aborted {
                return false;
            }
        }
        self.pv_len[p] = p;
        true
    }

    /// The endgame database's score of `pos`, `ply` plies below the root, if it holds it.
    #[inline(always)]
    pub(super) fn probe_db(&self, pos: &Position, ply: u32) -> Option<i32> {
        let db = self.egdb?;
        db.probe(pos).map(|value| db_score(value, ply))
    }

    /// The value of a node at or beyond the search's nominal depth: a `quiet` one (no capture
    /// for the side to move) is evaluated (a side without a move has lost), and so is any node
    /// `at_limit`, where captures are followed no further. `None`: the captures go on.
    /// `key` gives the position's Zobrist key, asked for only when the evaluation is cached.
    #[inline(always)]
    pub(super) fn frontier_value(
        &mut self,
        pos: &Position,
        key: impl FnOnce() -> u64,
        ply: u32,
        quiet: bool,
        at_limit: bool,
    ) -> Option<i32> {
        if quiet {
            return Some(self.evaluate_quiet(pos, key).unwrap_or(lost(ply)));
        }
        at_limit.then(|| self.weights.evaluate(pos))
    }

    /// The evaluation of `pos`, which has no capture for the side to move (`None`: no move at
    /// all), from the evaluation cache when the evaluator keeps one; `key` gives the
    /// position's Zobrist key.
    #[inline(always)]
    pub(super) fn evaluate_quiet(
        &mut self,
        pos: &Position,
        key: impl FnOnce() -> u64,
    ) -> Option<i32> {
        let Some(cache) = self.eval_cache.as_mut() else {
            return self.weights.evaluate_quiet(pos);
        };
        let key = key();
        if let Some(value) = cache.probe(key) {
            return value;
        }
        let value = self.weights.evaluate_quiet(pos);
        cache.store(key, value);
        value
    }

    /// Fills `order` (one slot per move of `list`) with the order to search `list` in: the
    /// table's move `tt_best` first (if it names one), then (with `use_killers`) the killer
    /// moves of ply `p`, then generation order; returns how many moves were brought to the
    /// front. With `STABLE` a move brought forward shifts the ones it passes back by one,
    /// keeping their order; without, it swaps places with the first. The caller owns the
    /// buffer: returning a `MAX_MOVES` array by value cost a copy at every interior node.
    #[inline(always)]
    pub(super) fn order_moves<const STABLE: bool>(
        &self,
        list: &MoveList,
        order: &mut [u8],
        tt_best: u8,
        p: usize,
        use_killers: bool,
    ) -> usize {
        let n = list.len();
        debug_assert_eq!(order.len(), n);
        for (i, slot) in order.iter_mut().enumerate() {
            *slot = i as u8;
        }
        let mut front = 0;
        if (tt_best as usize) < n {
            bring_forward::<STABLE>(order, 0, tt_best as usize);
            front = 1;
        }
        if use_killers {
            for killer in self.killers[p] {
                if let Some(k) = order[front..]
                    .iter()
                    .position(|&i| list[i as usize] == killer)
                {
                    bring_forward::<STABLE>(order, front, front + k);
                    front += 1;
                }
            }
        }
        front
    }

    /// The move loop of the node `node`, `ply` plies below the root: searches `list` in
    /// `order` within `(alpha, beta)` as `moves` searches each move, keeps the principal
    /// variation of the best move that raised alpha, and stops at a move that reaches `beta`
    /// (telling `moves` when it is quiet). The best value with its move's index in `list`, or
    /// `None` if the search was aborted.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search_moves<S: MoveSearch>(
        &mut self,
        moves: &mut S,
        node: &HashedPosition,
        list: &MoveList,
        order: &[u8],
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Option<(i32, u8)> {
        let p = ply as usize;
        let mut best = -WIN - 1;
        let mut best_index = 0u8;
        for (k, &i) in order.iter().enumerate() {
            let mv = list[i as usize];
            let value = moves.value(self, node, &mv, ply, k, alpha, beta);
            if S::TIMED && self.aborted {
                return None;
            }
            if value > best {
                best = value;
                best_index = i;
                if value > alpha {
                    alpha = value;
                    self.raise_pv(p, mv);
                    if value >= beta {
                        if !mv.is_capture() {
                            moves.refuted(self, p, mv);
                        }
                        break;
                    }
                }
            }
        }
        Some((best, best_index))
    }

    /// The principal variation of the node at ply `p` is now `mv` and its child's.
    #[inline(always)]
    fn raise_pv(&mut self, p: usize, mv: Move) {
        self.pv[p][p] = mv;
        let child_len = self.pv_len[p + 1];
        for k in p + 1..child_len {
            self.pv[p][k] = self.pv[p + 1][k];
        }
        self.pv_len[p] = child_len.max(p + 1);
    }

    /// Makes the quiet move `mv` that refuted a node at ply `p` the first killer there.
    #[inline(always)]
    pub(super) fn remember_killer(&mut self, p: usize, mv: Move) {
        if self.killers[p][0] != mv {
            self.killers[p][1] = self.killers[p][0];
            self.killers[p][0] = mv;
        }
    }

    /// Stores a node's result: `best` found within `(alpha, beta)` with `best_index`'s move,
    /// under `key` with `draft`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn store_node(
        &mut self,
        key: u64,
        best: i32,
        alpha: i32,
        beta: i32,
        ply: u32,
        draft: u16,
        best_index: u8,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(Entry {
            key,
            value: to_tt(best, ply),
            draft,
            bound,
            best: best_index,
        });
    }

    /// The principal variation below the root move, as the last root move searched left it
    /// (or [`Searcher::set_root_line`] set it).
    pub(super) fn line_below_root(&self) -> &[Move] {
        &self.pv[1][1..self.pv_len[1]]
    }

    /// Leaves `line` where [`Searcher::line_below_root`] reads it: the chosen root move's line.
    pub(super) fn set_root_line(&mut self, line: &[Move]) {
        self.pv_len[1] = line.len() + 1;
        self.pv[1][1..=line.len()].copy_from_slice(line);
    }
}

/// Brings `order[from]` to `order[to]`: rotating the moves between back by one (`STABLE`) or
/// swapping the two.
#[inline(always)]
fn bring_forward<const STABLE: bool>(order: &mut [u8], to: usize, from: usize) {
    if STABLE {
        order[to..=from].rotate_right(1);
    } else {
        order.swap(to, from);
    }
}
