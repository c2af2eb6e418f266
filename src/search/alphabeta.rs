//! Negamax alpha-beta to a minimum depth, extended along captures to a maximum depth (SPEC §3).
//!
//! Full width to `min_depth` plies; beyond it a position whose side to move must capture is
//! searched on, up to `max_depth`; a quiet position at or beyond `min_depth` is evaluated. A side
//! with no move has lost, scored `-(WIN - ply)` so that quicker wins and slower losses are
//! preferred. Iterative deepening, a transposition table and killer moves only speed the search
//! up: table entries cut off only at the exact same remaining depths, and the root moves are
//! searched in generation order, so the value is plain minimax's and ties go to the first move
//! generated (or to a seeded random choice among the tied moves).

use arrayvec::ArrayVec;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::engine::{HashedPosition, Move, MoveList, Position, MAX_MOVES};
use crate::eval::{evaluate, evaluate_quiet, Weights};

use super::tt::{Bound, Entry, TranspositionTable};

/// The value of a won position at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 1_000_000_000;
/// Scores beyond this (in absolute value) are wins or losses, not evaluations.
const WIN_THRESHOLD: i32 = WIN - 1_000;
/// The deepest ply the search can reach; `max_depth` is capped below it.
pub const MAX_PLY: usize = 64;

/// How deep to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Full-width depth in plies (at least 1).
    pub min_depth: u32,
    /// Captures are followed until this depth (at least `min_depth`).
    pub max_depth: u32,
}

impl SearchLimits {
    /// Limits with `max_depth` raised to `min_depth` if needed and both capped below [`MAX_PLY`].
    pub fn new(min_depth: u32, max_depth: u32) -> SearchLimits {
        let min_depth = min_depth.clamp(1, MAX_PLY as u32 - 2);
        SearchLimits {
            min_depth,
            max_depth: max_depth.clamp(min_depth, MAX_PLY as u32 - 2),
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The chosen move (`None` if the side to move has no move).
    pub best_move: Option<Move>,
    /// Its value for the side to move.
    pub score: i32,
    /// Nodes visited, over all iterations.
    pub nodes: u64,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// The full-width depth searched.
    pub depth: u32,
}

impl SearchResult {
    /// Plies to the end of the game if the score is a forced win (positive) or loss (negative).
    pub fn mate_distance(&self) -> Option<i32> {
        (self.score.abs() > WIN_THRESHOLD).then(|| (WIN - self.score.abs()) * self.score.signum())
    }
}

/// A reusable searcher: owns its transposition table and killer moves.
pub struct Searcher {
    tt: TranspositionTable,
    use_tt: bool,
    /// Plain alpha-beta: no table, no killers, no iterative deepening (for comparisons).
    plain: bool,
    /// The weights and limits the table's contents were searched with.
    context: Option<(Weights, SearchLimits)>,
    weights: Weights,
    min_depth: u32,
    max_depth: u32,
    nodes: u64,
    killers: [[Move; 2]; MAX_PLY],
    pv: Box<[[Move; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
}

/// Default table size for games: 2^16 entries (1 MiB).
pub const DEFAULT_TT_BITS: u32 = 16;

#[inline(always)]
fn to_tt(value: i32, ply: u32) -> i32 {
    if value > WIN_THRESHOLD {
        value + ply as i32
    } else if value < -WIN_THRESHOLD {
        value - ply as i32
    } else {
        value
    }
}

#[inline(always)]
fn from_tt(value: i32, ply: u32) -> i32 {
    if value > WIN_THRESHOLD {
        value - ply as i32
    } else if value < -WIN_THRESHOLD {
        value + ply as i32
    } else {
        value
    }
}

impl Default for Searcher {
    fn default() -> Searcher {
        Searcher::new(DEFAULT_TT_BITS)
    }
}

impl Searcher {
    /// A searcher with a transposition table of `2^tt_bits` entries.
    pub fn new(tt_bits: u32) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(tt_bits),
            use_tt: true,
            plain: false,
            context: None,
            weights: Weights::default(),
            min_depth: 1,
            max_depth: 1,
            nodes: 0,
            killers: [[Move::NULL; 2]; MAX_PLY],
            pv: Box::new([[Move::NULL; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
        }
    }

    /// Switches the transposition table on or off.
    pub fn set_tt_enabled(&mut self, on: bool) {
        self.use_tt = on;
    }

    /// Plain alpha-beta when `on`: no table, no killer moves, no iterative deepening; the moves
    /// are searched in generation order. Same values and moves, more nodes: the yardstick for
    /// what the speed-ups save.
    pub fn set_plain(&mut self, on: bool) {
        self.plain = on;
        self.use_tt = !on;
    }

    /// Searches `pos` with `weights`. With `tie_rng`, a move is drawn from all moves of the best
    /// value; without, the first of them in generation order is chosen.
    pub fn search(
        &mut self,
        pos: &Position,
        weights: &Weights,
        limits: SearchLimits,
        mut tie_rng: Option<&mut ChaCha8Rng>,
    ) -> SearchResult {
        let limits = SearchLimits::new(limits.min_depth, limits.max_depth);
        if self.context != Some((*weights, limits)) {
            // Stored values belong to other weights: keep nothing.
            self.tt.clear();
            self.context = Some((*weights, limits));
        }
        self.weights = *weights;
        self.nodes = 0;
        self.killers = [[Move::NULL; 2]; MAX_PLY];
        let root = HashedPosition::new(*pos);
        let mut list = MoveList::new();
        pos.generate_moves(&mut list);
        if list.is_empty() {
            return SearchResult {
                best_move: None,
                score: -WIN,
                nodes: 1,
                pv: Vec::new(),
                depth: limits.min_depth,
            };
        }
        let extension = limits.max_depth - limits.min_depth;
        let mut result = None;
        let first = if self.plain { limits.min_depth } else { 1 };
        for depth in first..=limits.min_depth {
            self.min_depth = depth;
            self.max_depth = depth + extension;
            let last = depth == limits.min_depth;
            let rng = if last { tie_rng.as_deref_mut() } else { None };
            result = Some(self.search_root(&root, &list, rng));
        }
        let (best_index, score) = result.expect("at least one iteration");
        let mut pv = vec![list[best_index]];
        pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
        SearchResult {
            best_move: Some(list[best_index]),
            score,
            nodes: self.nodes,
            pv,
            depth: limits.min_depth,
        }
    }

    /// One iteration at the root: moves in generation order, a later move replaces the best only
    /// if strictly better (or, when drawing among ties, if equal: searched with a window one
    /// below the best so that equal values are exact).
    fn search_root(
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
            let value = -self.negamax(root, mv, 1, -WIN - 1, -alpha);
            let line = || -> ArrayVec<Move, MAX_PLY> {
                self.pv[1][1..self.pv_len[1]].iter().copied().collect()
            };
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
        // Leave the chosen line where `search` reads the principal variation.
        self.pv_len[1] = line.len() + 1;
        self.pv[1][1..=line.len()].copy_from_slice(&line);
        (index, best)
    }

    /// Remaining full-width plies and remaining plies to the hard limit, packed for the table.
    #[inline(always)]
    fn draft(&self, ply: u32) -> u16 {
        ((self.min_depth.saturating_sub(ply) as u16) << 8) | (self.max_depth - ply) as u16
    }

    /// The value of `parent` after `mv`, `ply` plies below the root. The child's Zobrist key is
    /// only computed once the child turns out not to be a leaf: most nodes are leaves.
    fn negamax(
        &mut self,
        parent: &HashedPosition,
        mv: &Move,
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        let p = ply as usize;
        self.pv_len[p] = p;
        let child = parent.position.play(mv);
        let pos = &child;
        if ply >= self.min_depth {
            if pos.jumpers() == 0 {
                return evaluate_quiet(pos, &self.weights).unwrap_or(-(WIN - ply as i32));
            }
            if ply >= self.max_depth {
                return evaluate(pos, &self.weights);
            }
        }
        let node = HashedPosition {
            position: child,
            hash: parent.position.zobrist_after(parent.hash, mv),
        };
        let draft = self.draft(ply);
        let mut tt_best = u8::MAX;
        if self.use_tt {
            if let Some(e) = self.tt.probe(node.hash) {
                tt_best = e.best;
                if e.draft == draft {
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
        let mut list = MoveList::new();
        pos.generate_moves(&mut list);
        if list.is_empty() {
            return -(WIN - ply as i32);
        }
        // Search order: table move, killers, then generation order.
        let n = list.len();
        let mut order = [0u8; MAX_MOVES];
        for (i, slot) in order[..n].iter_mut().enumerate() {
            *slot = i as u8;
        }
        let order = &mut order[..n];
        let mut front = 0;
        if (tt_best as usize) < list.len() {
            order.swap(0, tt_best as usize);
            front = 1;
        }
        if !self.plain && !list[0].is_capture() {
            for killer in self.killers[p] {
                if let Some(k) = order[front..]
                    .iter()
                    .position(|&i| list[i as usize] == killer)
                {
                    order.swap(front, front + k);
                    front += 1;
                }
            }
        }
        let original_alpha = alpha;
        let mut best = -WIN - 1;
        let mut best_index = 0u8;
        for &i in order.iter() {
            let mv = list[i as usize];
            let value = -self.negamax(&node, &mv, ply + 1, -beta, -alpha);
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
                        if !mv.is_capture() && self.killers[p][0] != mv {
                            self.killers[p][1] = self.killers[p][0];
                            self.killers[p][0] = mv;
                        }
                        break;
                    }
                }
            }
        }
        if self.use_tt {
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
                draft,
                bound,
                best: best_index,
            });
        }
        best
    }
}
