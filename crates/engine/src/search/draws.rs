//! The game's draw rules inside the search tree, and the path state that applies them.
//!
//! The search knows the game's positions since the last irreversible move (a capture or a
//! man's move: nothing before it can recur) through a [`GameHistory`]. A position that repeats
//! one of them, or one earlier on the search path, scores 0 (a draw), and so does a position
//! reached after `no_progress_plies` quiet plies. So a side that is ahead steers clear of
//! repetitions and a side that is behind seeks them.
//!
//! Such a value depends on the path, not only on the position. The exact search's table stays
//! exact by keying in the part of the path that can still matter: an entry's key is the
//! position's Zobrist key XOR a *window* hash of (a) the earlier positions (since the last
//! irreversible move) that a repetition below the node could still reach, and (b) the
//! quiet-ply count when the no-progress rule could still fire below it. A repetition needs
//! quiet moves only (after a capture or a man's move nothing earlier recurs), and quiet moves
//! stop at `min_depth`; in the `min_depth - ply` plies left, each side moves its kings only so
//! far, so an earlier position whose kings stand further away than that, or need more moves
//! than that side has, cannot recur below the node and is left out; so is one at a distance
//! that no number of quiet plies left can close to a multiple of 4 (a repetition brings each
//! side's kings back to the same rows, so each side moves an even number of times: a cycle is
//! 4, 8, … plies long). Two nodes with the same key and depths then have the same value under
//! the draw rules. Tests compare the search with a plain minimax under the same rules, one
//! table serving many histories.

use crate::board::{Bitboard, Color, HashedPosition, Position};

use super::score::MAX_PLY;

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
    /// to hold it (see [`DrawWindow::record`]), where it is never read.
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

/// The game's positions before the root and the exact search's path below it, with what each
/// node above the full-width depth knows of the positions a repetition could still reach.
pub(super) struct DrawWindow {
    /// The game's positions since the last irreversible move, then the nodes on the current
    /// path: the node at `ply` is at index `history_len + ply`. Sized for the deepest search
    /// and written in place; only nodes above the full-width depth are written, as only they
    /// can be repeated.
    path: Vec<PathEntry>,
    /// How many of the game's positions come before the root (the root's index in `path`).
    pub(super) history_len: usize,
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
    pub(super) quiet_child_may_draw: [bool; MAX_PLY + 1],
    /// A position reached after this many quiet plies is a draw (`usize::MAX`: no such rule).
    pub(super) no_progress_plies: usize,
}

impl DrawWindow {
    /// An empty window, for a searcher that has not searched yet.
    pub(super) fn new() -> DrawWindow {
        DrawWindow {
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
        }
    }

    /// Loads the game's history and the root into the path; the capacity covers the deepest
    /// search, so the search itself never allocates.
    pub(super) fn load(&mut self, history: &GameHistory<'_>, root: &HashedPosition) {
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

    /// Puts `node` on the path at index `here`. Repeating a position takes a cycle of at least
    /// 4 quiet plies: a node with fewer quiet plies left below it (`quiet_plies_left`) is in no
    /// window below it, so its set-hash member is never read and is not computed.
    #[inline(always)]
    pub(super) fn record(&mut self, here: usize, node: &HashedPosition, quiet_plies_left: u32) {
        let member = if quiet_plies_left >= 4 {
            set_member(node.hash)
        } else {
            0
        };
        self.path[here] = PathEntry::new(&node.position, member);
    }

    /// The part of the table key that stands for the game before `pos` (the node at `ply`, at
    /// index `here` of the path): a hash of those earlier positions that a repetition below
    /// `pos` could still reach, and of the quiet-ply count if the no-progress rule can still
    /// fire below it. Positions are equal under the draw rules when these agree (see the
    /// module documentation), and most earlier positions are out of reach: their kings stand
    /// further away than the moves left allow.
    ///
    /// For a node above the full-width depth `min_depth` that a quiet move reached; it also
    /// sets up the node's own lists for its children.
    #[inline(always)]
    pub(super) fn window_key(
        &mut self,
        pos: &Position,
        ply: u32,
        here: usize,
        min_depth: u32,
    ) -> u64 {
        let p = ply as usize;
        // This node's list goes right after its parent's (anything beyond belongs to siblings).
        let (parent_start, parent_end) = (self.reach_start[p - 1], self.reach_end[p - 1]);
        self.reach_start[p] = parent_end;
        let parent_moves_end = self.one_move_end[p - 1];
        let start = self.window_start[p - 1];
        self.window_start[p] = start;
        // Below the full-width depth only captures are searched, and after a capture nothing
        // earlier can recur: a repetition must come from quiet moves within this many plies.
        let quiet_plies_left = min_depth - ply;
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
    pub(super) fn empty_window(&mut self, ply: u32, here: usize) {
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
    pub(super) fn repeats(&self, child: &Position, p: usize, here: usize) -> bool {
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
}
