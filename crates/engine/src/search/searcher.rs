//! The searcher: its tables and per-search state, and the public ways into a search (exact
//! or selective, to fixed depths or within a budget).

use std::sync::atomic::Ordering;
use std::time::Instant;

use rand_chacha::ChaCha8Rng;

use crate::board::{HashedPosition, Move, MoveList, Position};
use crate::egdb::EndgameDb;
use crate::eval::{CarriedTables, Evaluator, OwnedEvaluator};

use super::budget::{SearchBudget, BUDGET_CHECK_NODES};
use super::draws::{DrawWindow, GameHistory};
use super::eval_cache::{EvalCache, EVAL_CACHE_BITS};
use super::limits::SearchLimits;
use super::result::SearchResult;
use super::score::MAX_PLY;
use super::selective_params::{SelectiveParams, SelectiveState};
use super::time_manager::TimeManager;
use super::tt::TranspositionTable;

/// A reusable searcher: owns its transposition table and killer moves.
pub struct Searcher {
    pub(super) tt: TranspositionTable,
    pub(super) use_tt: bool,
    /// Plain alpha-beta: no table, no killers, no iterative deepening (for comparisons).
    pub(super) plain: bool,
    /// The weights and limits the table's contents were searched with.
    pub(super) context: Option<(OwnedEvaluator, SearchLimits)>,
    pub(super) weights: OwnedEvaluator,
    /// The exact search's full-width depth in the iteration under way.
    pub(super) min_depth: u32,
    /// The exact search's capture depth in the iteration under way.
    pub(super) max_depth: u32,
    pub(super) nodes: u64,
    pub(super) killers: [[Move; 2]; MAX_PLY],
    /// The principal variation of the node at each ply, from that ply on (`pv[p][p..pv_len[p]]`).
    pub(super) pv: Box<[[Move; MAX_PLY]; MAX_PLY]>,
    pub(super) pv_len: [usize; MAX_PLY],
    /// The game before the root and the path below it, for the draw rules.
    pub(super) draws: DrawWindow,
    /// The budget of the [`Searcher::search_timed`] call under way.
    pub(super) budget: SearchBudget,
    /// The time manager of the [`Searcher::search_timed`] call under way, when its budget has
    /// a time target.
    pub(super) time: Option<TimeManager>,
    /// The selective root pass under way has a safe answer: a move searched to the new depth
    /// that is the last iteration's best or proved better (not a fail-low bound). Past the
    /// time manager's soft limit the iteration stops there.
    pub(super) root_safe: bool,
    /// The node count at which the budget is looked at next.
    pub(super) next_check: u64,
    /// The current iteration may be abandoned (not the first: it gives the fallback move).
    pub(super) can_abort: bool,
    /// Positions with at most its pieces are scored from this endgame database, exactly.
    pub(super) egdb: Option<&'static EndgameDb>,
    /// The budget ran out: the iteration under way unwinds and is discarded.
    pub(super) aborted: bool,
    /// The selective search's settings and state when that mode is on (see
    /// [`Searcher::set_selective`]); `None`: the exact search.
    pub(super) selective: Option<Box<SelectiveState>>,
    /// The frontier's evaluations, for the evaluators that cost more than the ten features
    /// (allocated at the first search with one), valid for `weights`.
    pub(super) eval_cache: Option<EvalCache>,
    /// Whether the selective search may cache evaluations ([`Searcher::set_eval_cache`]).
    pub(super) eval_cache_enabled: bool,
    /// The pattern weights it last searched with, their men's table in their region tables.
    pub(super) carried: CarriedTables,
}

/// Default table size for games: 2^16 entries (1 MiB).
pub const DEFAULT_TT_BITS: u32 = 16;

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
            weights: OwnedEvaluator::default(),
            min_depth: 1,
            max_depth: 1,
            nodes: 0,
            killers: [[Move::NULL; 2]; MAX_PLY],
            pv: Box::new([[Move::NULL; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            draws: DrawWindow::new(),
            budget: SearchBudget::default(),
            time: None,
            root_safe: false,
            next_check: u64::MAX,
            can_abort: false,
            aborted: false,
            egdb: None,
            selective: None,
            eval_cache: None,
            eval_cache_enabled: true,
            carried: CarriedTables::default(),
        }
    }

    /// Searches selectively with `params` from now on (see the `selective` module), or exactly
    /// as before with `None`. The state is allocated here, once, not in the search.
    pub fn set_selective(&mut self, params: Option<SelectiveParams>) {
        match (params, &mut self.selective) {
            (None, _) => self.selective = None,
            (Some(p), Some(state)) if state.params() == p => {}
            (Some(p), _) => self.selective = Some(SelectiveState::new(p)),
        }
    }

    /// The selective search's settings, if that mode is on.
    pub fn selective(&self) -> Option<SelectiveParams> {
        self.selective.as_ref().map(|s| s.params())
    }

    /// Scores positions with at most the database's pieces from `egdb` (`None`: none, the
    /// search as without a database). A win the database puts `d` plies after a node `ply`
    /// plies below the root scores `WIN - (ply + d)`, like a win the search finds itself.
    pub fn set_endgame_db(&mut self, egdb: Option<&'static EndgameDb>) {
        if self.egdb.map(|db| db as *const EndgameDb) != egdb.map(|db| db as *const EndgameDb) {
            // Stored values were searched with the other database (or none).
            self.context = None;
            self.egdb = egdb;
        }
    }

    /// Forgets what earlier searches left behind (the table's entries and the killer moves),
    /// so that the next search is the one a new searcher would make, node for node.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.killers = [[Move::NULL; 2]; MAX_PLY];
    }

    /// Switches the selective search's cache of evaluations on (the default) or off. Values,
    /// moves and nodes are the same either way: off, to measure what it saves.
    pub fn set_eval_cache(&mut self, on: bool) {
        self.eval_cache_enabled = on;
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

    /// Searches `pos` on its own (no game before it, see [`GameHistory::NONE`]) with `weights`.
    /// With `tie_rng`, a move is drawn from all moves of the best value; without, the first of
    /// them in generation order is chosen.
    pub fn search<'w>(
        &mut self,
        pos: &Position,
        weights: impl Into<Evaluator<'w>>,
        limits: SearchLimits,
        tie_rng: Option<&mut ChaCha8Rng>,
    ) -> SearchResult {
        self.search_in_game(pos, &GameHistory::NONE, weights, limits, tie_rng)
    }

    /// Searches `pos`, reached in a game whose positions since the last irreversible move are
    /// `history`, with the game's draw rules applied inside the tree.
    pub fn search_in_game<'w>(
        &mut self,
        pos: &Position,
        history: &GameHistory<'_>,
        weights: impl Into<Evaluator<'w>>,
        limits: SearchLimits,
        tie_rng: Option<&mut ChaCha8Rng>,
    ) -> SearchResult {
        let weights = weights.into();
        if let Some(mut state) = self.selective.take() {
            let found = self.selective_fixed(&mut state, pos, history, weights, limits, tie_rng);
            self.selective = Some(state);
            return found;
        }
        self.exact_fixed(pos, history, weights, limits, tie_rng)
    }

    /// Searches `pos` (reached in a game whose positions since the last irreversible move are
    /// `history`) by iterative deepening within `budget`: full-width depths 1, 2, … each with
    /// captures followed `budget.extension` plies further, until the depth cap, or until the
    /// deadline, the node budget or the stop flag cuts an iteration short. The answer is the
    /// last iteration that finished (the first one always does: it is never cut short), with
    /// the nodes of all iterations. `report` sees each finished iteration as it completes.
    ///
    /// The search also ends once an iteration proves a win or loss within its depth (a deeper
    /// one cannot change it). The table is cleared first, so the same position, history,
    /// weights and budget without a deadline or a stop flag give the same result every time;
    /// up to the same depth it is exactly what [`Searcher::search_in_game`] finds with limits
    /// `(depth, depth + extension)`. Ties go to the first move in generation order.
    pub fn search_timed<'w>(
        &mut self,
        pos: &Position,
        history: &GameHistory<'_>,
        weights: impl Into<Evaluator<'w>>,
        budget: &SearchBudget,
        mut report: impl FnMut(&SearchResult),
    ) -> SearchResult {
        if let Some(mut state) = self.selective.take() {
            let weights = weights.into();
            let found =
                self.selective_timed(&mut state, pos, history, weights, budget, None, &mut report);
            self.selective = Some(state);
            return found;
        }
        self.exact_timed(pos, history, weights.into(), budget, &mut report)
    }

    /// Starts the budget of a [`Searcher::search_timed`] call: its limits, and its time
    /// manager when it has a time target.
    pub(super) fn start_budget(&mut self, budget: &SearchBudget) {
        self.budget = budget.clone();
        self.time = budget.time.map(|t| TimeManager::new(t, budget.deadline));
        self.root_safe = false;
        self.aborted = false;
        self.next_check = 0;
    }

    /// Tells the time manager, if any, of the iteration that found `done` at a root with
    /// `root_moves` moves.
    pub(super) fn iteration_timed(&mut self, done: &SearchResult, root_moves: usize) {
        if let (Some(time), Some(best)) = (&mut self.time, done.best_move) {
            time.iteration_done(Instant::now(), best, done.score, root_moves);
        }
    }

    /// Whether iterative deepening should start no iteration after the one that found `done`:
    /// it proved a win or loss within its depth (a deeper one cannot change it), the time
    /// manager says so (`partial`: the search can stop an iteration part-way with a safe
    /// answer), or the budget is spent.
    pub(super) fn deepening_done(&self, done: &SearchResult, partial: bool) -> bool {
        let decided = done
            .mate_distance()
            .is_some_and(|plies| plies.unsigned_abs() <= done.depth);
        let late = self
            .time
            .is_some_and(|t| !t.should_deepen(Instant::now(), partial));
        decided || late || self.budget_spent()
    }

    /// The result of a finished iteration at `depth`: `best` with `score`, and the principal
    /// variation the iteration left below it.
    pub(super) fn iteration_result(&self, best: Move, score: i32, depth: u32) -> SearchResult {
        let mut pv = vec![best];
        pv.extend_from_slice(self.line_below_root());
        SearchResult {
            best_move: Some(best),
            score,
            nodes: self.nodes,
            pv,
            depth,
        }
    }

    /// Ends a search: clears its budget and abort state, and answers the last finished
    /// iteration's result with every node counted (or, should none have finished, `first`).
    pub(super) fn finish(&mut self, best: Option<SearchResult>, first: Move) -> SearchResult {
        self.budget = SearchBudget::default();
        self.time = None;
        self.root_safe = false;
        self.can_abort = false;
        self.aborted = false;
        self.next_check = u64::MAX;
        match best {
            Some(mut result) => {
                result.nodes = self.nodes;
                result
            }
            // Unreachable: the first iteration cannot be cut short. Still, answer something
            // legal rather than panic.
            None => SearchResult {
                best_move: Some(first),
                score: 0,
                nodes: self.nodes,
                pv: vec![first],
                depth: 0,
            },
        }
    }

    /// Whether the node budget or the stop flag says to stop (the clock is only read at the
    /// budget checks and before an iteration).
    pub(super) fn budget_spent(&self) -> bool {
        self.budget.nodes.is_some_and(|n| self.nodes >= n)
            || self
                .budget
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.budget.deadline.is_some_and(|t| Instant::now() >= t)
    }

    /// The budget check of a budgeted search, every [`BUDGET_CHECK_NODES`] nodes (and exactly
    /// at the node budget): marks the search aborted once the budget is spent, or once the
    /// time manager's soft limit has passed and the iteration under way has a safe answer.
    #[cold]
    #[inline(never)]
    pub(super) fn check_budget(&mut self) {
        self.next_check = self.nodes + BUDGET_CHECK_NODES;
        if let Some(limit) = self.budget.nodes.filter(|&n| n > self.nodes) {
            self.next_check = self.next_check.min(limit);
        }
        let soft_stop =
            || self.root_safe && self.time.is_some_and(|t| t.soft_passed(Instant::now()));
        if self.can_abort && (self.budget_spent() || soft_stop()) {
            self.aborted = true;
        }
    }

    /// Resets the per-search state for `pos` and `weights`, loads `history`, and returns the
    /// root with its moves. With `cache_evaluations` (the selective search) the frontier's
    /// evaluations are cached, unless the cache is switched off or the evaluator is the ten
    /// features, which cost less than a look-up that misses the processor's cache. The exact
    /// search keeps none: its leaves rarely come back (3.6% fewer instructions in `bench
    /// --weights`), and a tuning game's two players, each move other weights, would empty it
    /// at every move (5% more time in a tune).
    pub(super) fn start(
        &mut self,
        pos: &Position,
        history: &GameHistory<'_>,
        weights: Evaluator<'_>,
        cache_evaluations: bool,
    ) -> (HashedPosition, MoveList) {
        let wanted =
            cache_evaluations && self.eval_cache_enabled && !matches!(weights, Evaluator::Ten(_));
        if !wanted {
            self.eval_cache = None;
            self.weights = weights.to_searched(&mut self.carried);
        } else if !(self.eval_cache.is_some() && self.weights.is(weights)) {
            // A cache kept only while the weights it was filled with stay.
            self.weights = weights.to_searched(&mut self.carried);
            match &mut self.eval_cache {
                Some(cache) => cache.clear(),
                None => self.eval_cache = Some(EvalCache::new(EVAL_CACHE_BITS)),
            }
        }
        self.nodes = 0;
        self.killers = [[Move::NULL; 2]; MAX_PLY];
        let root = HashedPosition::new(*pos);
        self.draws.load(history, &root);
        let mut list = MoveList::new();
        pos.generate_moves(&mut list);
        (root, list)
    }
}
