//! Negamax alpha-beta to a minimum depth, extended along captures to a maximum depth.
//!
//! Full width to `min_depth` plies; beyond it a position whose side to move must capture is
//! searched on, up to `max_depth`; a quiet position at or beyond `min_depth` is evaluated. A side
//! with no move has lost, scored `-(WIN - ply)` so that quicker wins and slower losses are
//! preferred. Iterative deepening, a transposition table and killer moves only speed the search
//! up: table entries cut off only at the exact same remaining depths, and the root moves are
//! searched in generation order, so the value is plain minimax's and ties go to the first move
//! generated (or to a seeded random choice among the tied moves).
//!
//! **The draw rules inside the tree.** The search knows the game's positions since the last
//! irreversible move (a capture or a man's move: nothing before it can recur) through a
//! [`GameHistory`]. A position that repeats one of them, or one earlier on the search path,
//! scores 0 (a draw), and so does a position reached after `no_progress_plies` quiet plies. So
//! a side that is ahead steers clear of repetitions and a side that is behind seeks them.
//!
//! Such a value depends on the path, not only on the position. The table stays exact by keying
//! in the part of the path that can still matter: an entry's key is the position's Zobrist key
//! XOR a *window* hash of (a) the earlier positions (since the last irreversible move) that a
//! repetition below the node could still reach, and (b) the quiet-ply count when the
//! no-progress rule could still fire below it. A
//! repetition needs quiet moves only (after a capture or a man's move nothing earlier recurs),
//! and quiet moves stop at `min_depth`; in the `min_depth - ply` plies left, each side moves its
//! kings only so far, so an earlier position whose kings stand further away than that, or need
//! more moves than that side has, cannot recur below the node and is left out; so is one at a
//! distance that no number of quiet plies left can close to a multiple of 4 (a repetition brings
//! each side's kings back to the same rows, so each side moves an even number of times: a cycle
//! is 4, 8, … plies long). Two nodes with
//! the same key and depths then have the same value under the draw rules. Tests compare the
//! search with a plain minimax under the same rules, one table serving many histories.
//!
//! **Searching against a budget.** [`Searcher::search_timed`] deepens one full-width ply at a
//! time (captures followed a fixed number of plies further at every depth) until a depth cap, a
//! deadline, a node budget or a stop flag ends it, and answers with the last iteration that
//! finished. The budget is checked every [`BUDGET_CHECK_NODES`] nodes inside that search only:
//! the fixed-depth [`Searcher::search`] is a separate instantiation of the same code without
//! the checks, so it is exactly as fast and finds exactly what it found before.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrayvec::ArrayVec;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::board::{Bitboard, Color, HashedPosition, Move, MoveList, Position, MAX_MOVES};
use crate::egdb::{DbValue, EndgameDb};
use crate::eval::{Evaluator, OwnedEvaluator};

use super::tt::{Bound, Entry, TranspositionTable};

mod selective;

pub use selective::SelectiveParams;
use selective::SelectiveState;

/// The value of a won position at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 1_000_000_000;
/// Scores beyond this (in absolute value) are wins or losses, not evaluations.
const WIN_THRESHOLD: i32 = WIN - 1_000;
/// The deepest ply the search can reach; `max_depth` is capped below it.
pub const MAX_PLY: usize = 64;

/// Deepest search depth a user may ask for (config, `match`, `analyse`, `play`); beyond it a
/// single game would take days.
pub const MAX_SEARCH_DEPTH: u32 = 40;

/// How deep to search: `1 <= min_depth <= max_depth <= MAX_SEARCH_DEPTH`, always (the fields
/// are private, and both constructors refuse anything else).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    min_depth: u32,
    max_depth: u32,
}

/// Why [`SearchLimits::try_new`] refused a pair of depths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitsError {
    /// `min_depth` is 0 or above [`MAX_SEARCH_DEPTH`].
    MinDepth(u32),
    /// `max_depth` is 0 or above [`MAX_SEARCH_DEPTH`].
    MaxDepth(u32),
    /// `min_depth` is greater than `max_depth`.
    Order {
        /// The full-width depth given.
        min_depth: u32,
        /// The capture depth given.
        max_depth: u32,
    },
}

impl LimitsError {
    /// The message, naming the two depths as the caller's user knows them (`--min-depth`,
    /// `` `search.min_depth` ``).
    pub fn describe(&self, min_name: &str, max_name: &str) -> String {
        match *self {
            LimitsError::MinDepth(d) => {
                format!("{min_name} {d}: must be between 1 and {MAX_SEARCH_DEPTH}")
            }
            LimitsError::MaxDepth(d) => {
                format!("{max_name} {d}: must be between 1 and {MAX_SEARCH_DEPTH}")
            }
            LimitsError::Order {
                min_depth,
                max_depth,
            } => format!(
                "{min_name} {min_depth} is greater than {max_name} {max_depth}: expected min <= max"
            ),
        }
    }
}

impl SearchLimits {
    /// The depth rule's one owner: `1 <= min_depth <= max_depth <= MAX_SEARCH_DEPTH`, or why not.
    pub fn try_new(min_depth: u32, max_depth: u32) -> Result<SearchLimits, LimitsError> {
        if !(1..=MAX_SEARCH_DEPTH).contains(&min_depth) {
            return Err(LimitsError::MinDepth(min_depth));
        }
        if !(1..=MAX_SEARCH_DEPTH).contains(&max_depth) {
            return Err(LimitsError::MaxDepth(max_depth));
        }
        if min_depth > max_depth {
            return Err(LimitsError::Order {
                min_depth,
                max_depth,
            });
        }
        Ok(SearchLimits {
            min_depth,
            max_depth,
        })
    }

    /// Limits for depths the code itself chose, or already checked by
    /// [`SearchLimits::try_new`] (the config and the command line check theirs).
    ///
    /// # Panics
    /// If the depths break the rule of [`SearchLimits::try_new`]: a bug in the caller.
    pub const fn new(min_depth: u32, max_depth: u32) -> SearchLimits {
        assert!(
            1 <= min_depth && min_depth <= max_depth && max_depth <= MAX_SEARCH_DEPTH,
            "search depths must satisfy 1 <= min_depth <= max_depth <= MAX_SEARCH_DEPTH"
        );
        SearchLimits {
            min_depth,
            max_depth,
        }
    }

    /// Full-width depth in plies (at least 1).
    pub const fn min_depth(&self) -> u32 {
        self.min_depth
    }

    /// Captures are followed until this depth (at least `min_depth`).
    pub const fn max_depth(&self) -> u32 {
        self.max_depth
    }
}

/// When [`Searcher::search_timed`] stops deepening. Every limit is optional except the depth
/// cap; the first one reached ends the search.
#[derive(Clone, Debug, Default)]
pub struct SearchBudget {
    /// The deepest full-width depth to search (capped so that `depth + extension` stays below
    /// [`MAX_PLY`]; at least 1).
    pub depth: u32,
    /// Plies beyond the full-width depth to which captures are followed, at every iteration.
    pub extension: u32,
    /// Abandon the iteration under way at this instant.
    pub deadline: Option<Instant>,
    /// Start no new iteration after this instant (an iteration takes longer than the ones
    /// before it, so one started late would rarely finish before the deadline).
    pub soft_deadline: Option<Instant>,
    /// Abandon the iteration under way once this many nodes have been searched.
    pub nodes: Option<u64>,
    /// Abandon the iteration under way once another thread sets this flag.
    pub stop: Option<Arc<AtomicBool>>,
}

/// With a time a move that is an average ([`SearchBudget::average_time`]): no iteration
/// starts after this share of it...
pub const AVERAGE_SOFT_SHARE: f64 = 0.6;
/// ...and the one under way is abandoned at this multiple of it, so a hard move may take up to
/// twice the average (CheckerBoard's engines may not take three times it).
pub const AVERAGE_HARD_SHARE: f64 = 2.0;

impl SearchBudget {
    /// A budget for a move that should take `average` on average, as engines spend a time a
    /// move (CheckerBoard's `maxtime`, `match --movetime`, Hub's `move-time`): deepening while
    /// less than [`AVERAGE_SOFT_SHARE`] of it has passed, the iteration under way abandoned at
    /// [`AVERAGE_HARD_SHARE`] times it. An iteration takes two to three times the one before,
    /// so the last one started mostly finishes, and the time spent averages near `average`.
    pub fn average_time(average: Duration, extension: u32, started: Instant) -> SearchBudget {
        SearchBudget {
            depth: MAX_SEARCH_DEPTH,
            extension,
            deadline: Some(started + average.mul_f64(AVERAGE_HARD_SHARE)),
            soft_deadline: Some(started + average.mul_f64(AVERAGE_SOFT_SHARE)),
            ..SearchBudget::default()
        }
    }

    /// A budget of full-width `depth` plies (captures followed `extension` plies further) and no
    /// other limit.
    pub fn depth(depth: u32, extension: u32) -> SearchBudget {
        SearchBudget {
            depth,
            extension,
            ..SearchBudget::default()
        }
    }
}

/// How often (in nodes) a budgeted search looks at the clock and the stop flag.
pub const BUDGET_CHECK_NODES: u64 = 1024;

/// What the search must know of the game before its root to apply the draw rules inside the
/// tree (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameHistory<'a> {
    /// The positions since the last irreversible move, oldest first, without the root itself:
    /// the position right after that move, then one per quiet ply. Its length is the root's
    /// count of quiet plies. They must be a game's: each one a legal quiet move after the one
    /// before, and the root one after the last (the search relies on it, for example in that a
    /// position can only recur a multiple of 4 plies later).
    pub positions: &'a [Position],
    /// A position reached after this many quiet plies in a row is a draw; `None` for no such
    /// rule (a position analysed on its own).
    pub no_progress_plies: Option<u32>,
}

impl GameHistory<'_> {
    /// No game before the root and no no-progress rule: a position searched on its own. The
    /// search still scores repetitions along its own path as draws.
    pub const NONE: GameHistory<'static> = GameHistory {
        positions: &[],
        no_progress_plies: None,
    };
}

/// Mixes a Zobrist key before it joins the hash of a set of positions, so that the set's hash
/// (a sum over its members) is unrelated to the keys of the positions themselves. A sum, not an
/// XOR: a game's history can hold a position twice, and an XOR would cancel it out.
#[inline(always)]
fn set_member(key: u64) -> u64 {
    let mut z = key ^ 0x9e37_79b9_7f4a_7c15;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A position on the game's path or the search's: its key mixed for set hashes, and where its
/// kings stand (the only pieces that can move without an irreversible move).
#[derive(Clone, Copy, Debug)]
struct PathEntry {
    /// The mixed key; 0 for a node too close to the full-width depth for any window below it
    /// to hold it (see `Searcher::negamax`), where it is never read.
    member: u64,
    /// Black's and White's kings.
    kings: [Bitboard; 2],
}

impl PathEntry {
    const EMPTY: PathEntry = PathEntry {
        member: 0,
        kings: [0; 2],
    };

    /// The entry of `position`, whose Zobrist key mixed by `set_member` is `member`.
    fn new(position: &Position, member: u64) -> PathEntry {
        PathEntry {
            member,
            kings: [
                position.kings_of(Color::Black),
                position.kings_of(Color::White),
            ],
        }
    }
}

/// Whether an earlier position with kings `earlier` (indexed by colour, `mover` = the node's side
/// to move), `distance` plies before a node with kings `node`, could be the node's child: the
/// child's side to move, at a distance of a multiple of 4 plies from the child (see
/// `RecurrenceBudget`), the other side's kings where they are, and the mover's kings one square
/// apart (one king moved). Men are the same all through the window.
#[inline(always)]
fn one_move_away(
    earlier: &[Bitboard; 2],
    node: &[Bitboard; 2],
    mover: usize,
    distance: usize,
) -> bool {
    distance % 4 == 3
        && earlier[1 - mover] == node[1 - mover]
        && (earlier[mover] ^ node[mover]).count_ones() == 2
}

/// How many moves each side's kings can still make before a position `distance` plies back
/// could recur, `quiet_plies` quiet plies at most below the node.
///
/// A repetition puts each side's kings back on the same squares, so back at the same sum of
/// rows; a king's step changes its row by one, so each side makes an even number of moves in a
/// cycle, and as the sides alternate, a cycle is a multiple of 4 plies. An earlier position
/// `distance` plies back can therefore recur only `d` plies below the node with
/// `distance + d ≡ 0 (mod 4)`: the longest such `d` within the quiet plies left bounds both
/// sides' moves (the side to move makes `⌈d/2⌉` of them, the other `⌊d/2⌋`); with no such `d`
/// the position is out of play.
#[derive(Clone, Copy, Debug)]
struct RecurrenceBudget {
    our_moves: u32,
    their_moves: u32,
}

impl RecurrenceBudget {
    /// The budget, or `None` if the position is out of play.
    #[inline(always)]
    fn new(distance: usize, quiet_plies: u32) -> Option<Self> {
        let first = 4 - (distance % 4) as u32;
        if first > quiet_plies {
            return None;
        }
        let longest = first + (quiet_plies - first) / 4 * 4;
        Some(RecurrenceBudget {
            our_moves: longest.div_ceil(2),
            their_moves: longest / 2,
        })
    }

    /// Whether the node's kings (`ours` of the side to move, `theirs`) could still get back to
    /// an earlier position's (`earlier_ours`, `earlier_theirs`) within the budget.
    #[inline(always)]
    fn allows(
        &self,
        ours: Bitboard,
        theirs: Bitboard,
        earlier_ours: Bitboard,
        earlier_theirs: Bitboard,
    ) -> bool {
        can_return(ours, earlier_ours, self.our_moves)
            && can_return(theirs, earlier_theirs, self.their_moves)
    }
}

/// Whether one side's kings `now` could stand on every square of `earlier` after `moves` moves
/// in all (pieces in the way ignored): each square of `earlier` not held now costs a move and
/// must lie within `moves` king steps of one of the kings.
#[inline(always)]
fn can_return(now: Bitboard, earlier: Bitboard, moves: u32) -> bool {
    let mut missing = earlier & !now;
    if missing.count_ones() > moves {
        return false;
    }
    let radius = moves.min(7) as usize;
    while missing != 0 {
        // King distance is symmetric: looking from the square needs no pass over all kings.
        if REACH[missing.trailing_zeros() as usize][radius] & now == 0 {
            return false;
        }
        missing &= missing - 1;
    }
    true
}

/// `REACH[s][r]`: the squares at most `r` king steps from square `s` (bit index), pieces in
/// the way ignored: `max(|row difference|, |column difference|)` on the board.
static REACH: [[Bitboard; 8]; 32] = reach_table();

const fn reach_table() -> [[Bitboard; 8]; 32] {
    // Row and column of a bit index, as drawn in the bitboard module.
    const fn row_col(i: usize) -> (i32, i32) {
        let row = (i / 4) as i32;
        (row, 2 * (i % 4) as i32 + if row % 2 == 0 { 1 } else { 0 })
    }
    let mut table = [[0; 8]; 32];
    let mut from = 0;
    while from < 32 {
        let (r0, c0) = row_col(from);
        let mut to = 0;
        while to < 32 {
            let (r1, c1) = row_col(to);
            let (dr, dc) = ((r1 - r0).abs(), (c1 - c0).abs());
            let steps = if dr > dc { dr } else { dc };
            let mut radius = steps as usize;
            while radius < 8 {
                table[from][radius] |= 1 << to;
                radius += 1;
            }
            to += 1;
        }
        from += 1;
    }
    table
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
    /// The answer for a side to move with no move at all: it has lost.
    fn no_move(depth: u32) -> SearchResult {
        SearchResult {
            best_move: None,
            score: -WIN,
            nodes: 1,
            pv: Vec::new(),
            depth,
        }
    }

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
    context: Option<(OwnedEvaluator, SearchLimits)>,
    weights: OwnedEvaluator,
    min_depth: u32,
    max_depth: u32,
    nodes: u64,
    killers: [[Move; 2]; MAX_PLY],
    pv: Box<[[Move; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// The game's positions since the last irreversible move, then the nodes on the current
    /// path: the node at `ply` is at index `history_len + ply`. Sized for the deepest search
    /// and written in place; only nodes above the full-width depth are written, as only they
    /// can be repeated.
    path: Vec<PathEntry>,
    history_len: usize,
    /// Index in `path` where the node at each ply's set of earlier recurrable positions begins
    /// (like the stacks below, kept for nodes above the full-width depth only: the others have
    /// no quiet children).
    window_start: [usize; MAX_PLY + 1],
    /// Indices in `path` of the earlier positions that a repetition could still reach from the
    /// node at each ply, as a stack: the node at `ply` owns `reachable[reach_start[ply]..
    /// reach_end[ply]]`. A child's set is a subset of its parent's plus the parent itself (each
    /// ply spends a move of one side and moves one king by one step), so each node filters its
    /// parent's short list instead of the whole window.
    reachable: Vec<u32>,
    reach_start: [usize; MAX_PLY + 1],
    reach_end: [usize; MAX_PLY + 1],
    /// Of the reachable positions of the node at each ply, those its children could repeat:
    /// the same side to move as a child, and one king move of the node's side away (a stack
    /// like `reachable`, usually empty).
    one_move_away: Vec<u32>,
    one_move_end: [usize; MAX_PLY + 1],
    /// Whether a quiet child of the node at each ply could be a draw by repetition or by the
    /// no-progress count: most nodes have neither, and their children skip the check.
    quiet_child_may_draw: [bool; MAX_PLY + 1],
    no_progress_plies: usize,
    /// The budget of the [`Searcher::search_timed`] call under way.
    budget: SearchBudget,
    /// The node count at which the budget is looked at next.
    next_check: u64,
    /// The current iteration may be abandoned (not the first: it gives the fallback move).
    can_abort: bool,
    /// Positions with at most its pieces are scored from this endgame database, exactly.
    egdb: Option<&'static EndgameDb>,
    /// The budget ran out: the iteration under way unwinds and is discarded.
    aborted: bool,
    /// The selective search's settings and state when that mode is on (see
    /// [`Searcher::set_selective`]); `None`: the exact search.
    selective: Option<Box<SelectiveState>>,
}

/// Default table size for games: 2^16 entries (1 MiB).
pub const DEFAULT_TT_BITS: u32 = 16;

/// The search score of a database value found `ply` plies below the root: wins and losses
/// on the same scale as the search's own (`WIN - plies to the end`), draws 0.
#[inline(always)]
fn db_score(value: DbValue, ply: u32) -> i32 {
    match value {
        DbValue::Win(d) => WIN - (ply + d) as i32,
        DbValue::Loss(d) => -(WIN - (ply + d) as i32),
        DbValue::Draw => 0,
    }
}

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
            weights: OwnedEvaluator::default(),
            min_depth: 1,
            max_depth: 1,
            nodes: 0,
            killers: [[Move::NULL; 2]; MAX_PLY],
            pv: Box::new([[Move::NULL; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            path: Vec::new(),
            history_len: 0,
            window_start: [0; MAX_PLY + 1],
            reachable: Vec::new(),
            reach_start: [0; MAX_PLY + 1],
            reach_end: [0; MAX_PLY + 1],
            one_move_away: Vec::new(),
            one_move_end: [0; MAX_PLY + 1],
            quiet_child_may_draw: [true; MAX_PLY + 1],
            no_progress_plies: usize::MAX,
            budget: SearchBudget::default(),
            next_check: u64::MAX,
            can_abort: false,
            aborted: false,
            egdb: None,
            selective: None,
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
        mut tie_rng: Option<&mut ChaCha8Rng>,
    ) -> SearchResult {
        let weights = weights.into();
        if let Some(mut state) = self.selective.take() {
            let found = self.selective_fixed(&mut state, pos, history, weights, limits, tie_rng);
            self.selective = Some(state);
            return found;
        }
        let same = self
            .context
            .as_ref()
            .is_some_and(|(stored, stored_limits)| stored.is(weights) && *stored_limits == limits);
        if !same {
            // Stored values belong to other weights: keep nothing.
            self.tt.clear();
            self.context = Some((weights.to_owned(), limits));
        }
        let (root, list) = self.start(pos, history, weights);
        if list.is_empty() {
            return SearchResult::no_move(limits.min_depth);
        }
        let extension = limits.max_depth - limits.min_depth;
        let mut result = None;
        let first = if self.plain { limits.min_depth } else { 1 };
        for depth in first..=limits.min_depth {
            self.min_depth = depth;
            self.max_depth = depth + extension;
            let last = depth == limits.min_depth;
            let rng = if last { tie_rng.as_deref_mut() } else { None };
            result = Some(self.search_root::<false>(&root, &list, rng));
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
        let extension = budget.extension.min(MAX_PLY as u32 - 3);
        let depth_cap = budget.depth.clamp(1, MAX_PLY as u32 - 2 - extension);
        self.tt.clear();
        // The table no longer matches what `search_in_game` last left in it.
        self.context = None;
        let (root, list) = self.start(pos, history, weights.into());
        if list.is_empty() {
            return SearchResult::no_move(0);
        }
        self.budget = budget.clone();
        self.aborted = false;
        self.next_check = 0;
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
            self.min_depth = depth;
            self.max_depth = depth + extension;
            self.can_abort = best.is_some();
            let (index, score) = self.search_root::<true>(&root, &list, None);
            if self.aborted {
                break;
            }
            let result = self.iteration_result(list[index], score, depth);
            report(&result);
            best = Some(result);
        }
        self.finish(best, list[0])
    }

    /// The result of a finished iteration at `depth`: `best` with `score`, and the principal
    /// variation the iteration left below it.
    fn iteration_result(&self, best: Move, score: i32, depth: u32) -> SearchResult {
        let mut pv = vec![best];
        pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
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
    fn finish(&mut self, best: Option<SearchResult>, first: Move) -> SearchResult {
        self.budget = SearchBudget::default();
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
    fn budget_spent(&self) -> bool {
        self.budget.nodes.is_some_and(|n| self.nodes >= n)
            || self
                .budget
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.budget.deadline.is_some_and(|t| Instant::now() >= t)
    }

    /// The budget check of a budgeted search, every [`BUDGET_CHECK_NODES`] nodes (and exactly
    /// at the node budget): marks the search aborted once the budget is spent.
    #[cold]
    #[inline(never)]
    fn check_budget(&mut self) {
        self.next_check = self.nodes + BUDGET_CHECK_NODES;
        if let Some(limit) = self.budget.nodes.filter(|&n| n > self.nodes) {
            self.next_check = self.next_check.min(limit);
        }
        if self.can_abort && self.budget_spent() {
            self.aborted = true;
        }
    }

    /// Resets the per-search state for `pos` and `weights`, loads `history`, and returns the
    /// root with its moves.
    fn start(
        &mut self,
        pos: &Position,
        history: &GameHistory<'_>,
        weights: Evaluator<'_>,
    ) -> (HashedPosition, MoveList) {
        self.weights = weights.to_owned();
        self.nodes = 0;
        self.killers = [[Move::NULL; 2]; MAX_PLY];
        let root = HashedPosition::new(*pos);
        self.set_history(history, &root);
        let mut list = MoveList::new();
        pos.generate_moves(&mut list);
        (root, list)
    }

    /// Loads the game's history and the root into the path; the capacity covers the deepest
    /// search, so the search itself never allocates.
    fn set_history(&mut self, history: &GameHistory<'_>, root: &HashedPosition) {
        self.history_len = history.positions.len();
        let window = self.history_len + MAX_PLY + 1;
        // Room for the deepest search: the search writes its nodes in place, and reads only
        // entries written since this call (stale ones beyond the history are never read).
        if self.path.len() < window {
            self.path.resize(window, PathEntry::EMPTY);
        }
        for (slot, p) in self.path.iter_mut().zip(history.positions) {
            *slot = PathEntry::new(p, set_member(p.zobrist()));
        }
        self.path[self.history_len] = PathEntry::new(&root.position, set_member(root.hash));
        self.window_start[0] = 0;
        // The root keeps every earlier position; its children filter them. Room for one list
        // per ply, each at most the window (like the path, only written entries are read).
        if self.reachable.len() < window * (MAX_PLY + 1) {
            self.reachable.resize(window * (MAX_PLY + 1), 0);
            self.one_move_away.resize(window * (MAX_PLY + 1), 0);
        }
        for (slot, i) in self.reachable.iter_mut().zip(0..self.history_len as u32) {
            *slot = i;
        }
        self.reach_start[0] = 0;
        self.reach_end[0] = self.history_len;
        let root_index = self.history_len;
        let root_kings = self.path[root_index].kings;
        let us = root.position.side_to_move() as usize;
        let mut moves_end = 0;
        for i in 0..root_index {
            if one_move_away(&self.path[i].kings, &root_kings, us, root_index - i) {
                self.one_move_away[moves_end] = i as u32;
                moves_end += 1;
            }
        }
        self.one_move_end[0] = moves_end;
        self.no_progress_plies = history.no_progress_plies.map_or(usize::MAX, |n| n as usize);
        self.quiet_child_may_draw[0] = moves_end > 0 || root_index + 1 >= self.no_progress_plies;
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

    /// The part of the table key that stands for the game before `pos` (the node at `ply`, at
    /// index `here` of the path): a hash of those earlier positions that a repetition below
    /// `pos` could still reach, and of the quiet-ply count if the no-progress rule can still
    /// fire below it. Positions are equal under the draw rules when these agree (see the
    /// module documentation), and most earlier positions are out of reach: their kings stand
    /// further away than the moves left allow.
    ///
    /// For a node above the full-width depth that a quiet move reached; it also sets up the
    /// node's own lists for its children.
    #[inline(always)]
    fn window_key(&mut self, pos: &Position, ply: u32, here: usize) -> u64 {
        let p = ply as usize;
        // This node's list goes right after its parent's (anything beyond belongs to siblings).
        let (parent_start, parent_end) = (self.reach_start[p - 1], self.reach_end[p - 1]);
        self.reach_start[p] = parent_end;
        let parent_moves_end = self.one_move_end[p - 1];
        let start = self.window_start[p - 1];
        self.window_start[p] = start;
        // Below the full-width depth only captures are searched, and after a capture nothing
        // earlier can recur: a repetition must come from quiet moves within this many plies.
        let quiet_plies_left = self.min_depth - ply;
        let count = here - start;
        let mut key = 0u64;
        if count + quiet_plies_left as usize >= self.no_progress_plies {
            key = key.wrapping_add(set_member(!(count as u64)));
        }
        let us = pos.side_to_move() as usize;
        let ours = pos.kings_of(pos.side_to_move());
        let theirs = pos.kings_of(pos.side_to_move().opponent());
        // The parent's list, and the room after it where this node's goes.
        let (parents, ours_list) = self.reachable.split_at_mut(parent_end);
        let mut kept = 0;
        let mut moves_end = parent_moves_end;
        for &index in &parents[parent_start..] {
            let i = index as usize;
            let earlier = &self.path[i];
            let (x_ours, x_theirs) = (earlier.kings[us], earlier.kings[1 - us]);
            if RecurrenceBudget::new(here - i, quiet_plies_left)
                .is_some_and(|budget| budget.allows(ours, theirs, x_ours, x_theirs))
            {
                key = key.wrapping_add(earlier.member);
                ours_list[kept] = index;
                kept += 1;
                let node_kings = [ours, theirs];
                let earlier_kings = [x_ours, x_theirs];
                if one_move_away(&earlier_kings, &node_kings, 0, here - i) {
                    self.one_move_away[moves_end] = i as u32;
                    moves_end += 1;
                }
            }
        }
        // The parent is one king step away (the move here was quiet), so it stays in reach
        // whenever a cycle back to it fits in the quiet plies left: 3, 7, … more plies, and
        // with 3 the side to move has 2 moves, the other side the 1 that undoes its step. At
        // distance 1 it is never one move away from a child (that takes 3 plies mod 4).
        if quiet_plies_left >= 3 {
            key = key.wrapping_add(self.path[here - 1].member);
            ours_list[kept] = (here - 1) as u32;
            kept += 1;
        }
        self.reach_end[p] = parent_end + kept;
        self.one_move_end[p] = moves_end;
        // A quiet child is a draw if the quiet plies run out there; only then, or if one of
        // this node's window positions is a king move away, do its children look closer.
        self.quiet_child_may_draw[p] =
            count + 1 >= self.no_progress_plies || moves_end > parent_moves_end;
        key
    }

    /// Sets up the draw-rule state of a node above the full-width depth (at `ply`, index
    /// `here` of the path) that an irreversible move reached: nothing before it can recur, so
    /// its window is empty and its table key needs none.
    #[inline(always)]
    fn empty_window(&mut self, ply: u32, here: usize) {
        let p = ply as usize;
        self.window_start[p] = here;
        let parent_end = self.reach_end[p - 1];
        self.reach_start[p] = parent_end;
        self.reach_end[p] = parent_end;
        self.one_move_end[p] = self.one_move_end[p - 1];
        self.quiet_child_may_draw[p] = self.no_progress_plies <= 1;
    }

    /// Whether `child`, reached from its parent by a quiet move at index `here` of the path (`p`
    /// plies below the root), is a draw by the rules: it repeats a position the parent could
    /// still reach, or the quiet plies have run out.
    #[inline(always)]
    fn repeats(&self, child: &Position, p: usize, here: usize) -> bool {
        // Every earlier position in the window has the same men (no man has moved since), so
        // the same kings and the same side to move (an even distance back) make the same
        // position: no key is needed, and most nodes are leaves that never need one.
        let kings = [child.kings_of(Color::Black), child.kings_of(Color::White)];
        let moves_start = if p >= 2 { self.one_move_end[p - 2] } else { 0 };
        let candidates = &self.one_move_away[moves_start..self.one_move_end[p - 1]];
        candidates
            .iter()
            .any(|&i| self.path[i as usize].kings == kings)
            || here - self.window_start[p - 1] >= self.no_progress_plies
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
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if TIMED {
            if self.nodes >= self.next_check {
                self.check_budget();
            }
            if self.aborted {
                return 0;
            }
        }
        let p = ply as usize;
        self.pv_len[p] = p;
        let child = parent.position.play(mv);
        let pos = &child;
        let here = self.history_len + p;
        // Only a quiet move (a king's step) can lead back to an earlier position; after any
        // other move the set of recurrable positions starts afresh.
        let irreversible = parent.position.is_irreversible(mv);
        if !irreversible && self.quiet_child_may_draw[p - 1] && self.repeats(&child, p, here) {
            return 0;
        }
        if let Some(db) = self.egdb {
            if let Some(value) = db.probe(pos) {
                return db_score(value, ply);
            }
        }
        if ply >= self.min_depth {
            if pos.jumpers() == 0 {
                return self
                    .weights
                    .evaluate_quiet(pos)
                    .unwrap_or(-(WIN - ply as i32));
            }
            if ply >= self.max_depth {
                return self.weights.evaluate(pos);
            }
        }
        let node = HashedPosition {
            position: child,
            hash: parent.position.zobrist_after(parent.hash, mv),
        };
        // Beyond the full-width depth only captures are searched: nothing below this node can
        // repeat anything, so it needs neither a place on the path nor a window in its key.
        let tt_key = if ply < self.min_depth {
            // Repeating a position takes a cycle of at least 4 quiet plies, and quiet plies
            // stop at the full-width depth: a node closer to it than that is in no window
            // below it, and its set-hash member is never read.
            let member = if self.min_depth - ply >= 4 {
                set_member(node.hash)
            } else {
                0
            };
            self.path[here] = PathEntry::new(&node.position, member);
            if irreversible {
                self.empty_window(ply, here);
                node.hash
            } else {
                node.hash ^ self.window_key(pos, ply, here)
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
            let value = -self.negamax::<TIMED>(&node, &mv, ply + 1, -beta, -alpha);
            if TIMED && self.aborted {
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
                key: tt_key,
                value: to_tt(best, ply),
                draft,
                bound,
                best: best_index,
            });
        }
        best
    }
}
