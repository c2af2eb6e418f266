//! Legal moves: compulsory captures, multi-jumps followed to the end, crowning ends the move.
//!
//! Jumps are found for all pieces at once with shifts (`jumpers`), then followed square by square
//! from precomputed step tables. Every distinct jump path is a distinct move, so a king's ring
//! capture that takes the same pieces in another order is two moves (the counting used by the
//! published perft numbers). Moves are written into a fixed-capacity [`MoveList`] on the stack.

use arrayvec::ArrayVec;

use super::bitboard::{Bitboard, Bits, Direction, JUMP, STEP};
use super::moves::Move;
use super::position::{Color, Position};

/// Capacity of a [`MoveList`]; far above the most moves any legal position has.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves that lives on the stack.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Shared state of one jump search: what stays fixed while a piece hops around.
struct JumpContext {
    from: u32,
    king: bool,
    crowning_row: Bitboard,
    /// Empty squares, counting the moving piece's starting square as empty.
    empty: Bitboard,
    dirs: &'static [Direction],
}

const BLACK_KING_DIRS: [Direction; 4] = Color::Black.directions();
const WHITE_KING_DIRS: [Direction; 4] = Color::White.directions();
const BLACK_MAN_DIRS: [Direction; 2] = [BLACK_KING_DIRS[0], BLACK_KING_DIRS[1]];
const WHITE_MAN_DIRS: [Direction; 2] = [WHITE_KING_DIRS[0], WHITE_KING_DIRS[1]];

impl JumpContext {
    fn new(pos: &Position, from: u32) -> JumpContext {
        let color = pos.side;
        let king = pos.kings & (1 << from) != 0;
        let dirs: &'static [Direction] = match (color, king) {
            (Color::Black, false) => &BLACK_MAN_DIRS,
            (Color::White, false) => &WHITE_MAN_DIRS,
            (Color::Black, true) => &BLACK_KING_DIRS,
            (Color::White, true) => &WHITE_KING_DIRS,
        };
        JumpContext {
            from,
            king,
            crowning_row: color.crowning_row(),
            empty: pos.empty() | (1 << from),
            dirs,
        }
    }

    /// Follows every jump path from `at`, pushing each finished path to `list`.
    fn collect(
        &self,
        list: &mut MoveList,
        at: u32,
        enemy: Bitboard,
        captured: Bitboard,
        path: u64,
        jumps: u8,
    ) {
        let mut extended = false;
        // A landing square becomes part of the path once the piece jumps on from it.
        let path_on = if jumps > 0 {
            path | (at as u64) << (5 * (jumps as u64 - 1))
        } else {
            path
        };
        for &d in self.dirs {
            let over = STEP[d as usize][at as usize];
            let land = JUMP[d as usize][at as usize];
            if over & enemy == 0 || land & self.empty == 0 {
                continue;
            }
            extended = true;
            let land_index = land.trailing_zeros();
            if !self.king && land & self.crowning_row != 0 {
                list.push(Move {
                    captured: captured | over,
                    path: path_on,
                    from: self.from as u8,
                    to: land_index as u8,
                    jumps: jumps + 1,
                });
            } else {
                self.collect(
                    list,
                    land_index,
                    enemy & !over,
                    captured | over,
                    path_on,
                    jumps + 1,
                );
            }
        }
        if !extended && jumps > 0 {
            list.push(Move {
                captured,
                path,
                from: self.from as u8,
                to: at as u8,
                jumps,
            });
        }
    }

    /// Counts the jump paths from `at` without building them (perft's bulk counting).
    fn count(&self, at: u32, enemy: Bitboard, jumps: u8) -> u64 {
        let mut total = 0;
        for &d in self.dirs {
            let over = STEP[d as usize][at as usize];
            let land = JUMP[d as usize][at as usize];
            if over & enemy == 0 || land & self.empty == 0 {
                continue;
            }
            if !self.king && land & self.crowning_row != 0 {
                total += 1;
            } else {
                total += self.count(land.trailing_zeros(), enemy & !over, jumps + 1);
            }
        }
        if total == 0 && jumps > 0 {
            1
        } else {
            total
        }
    }
}

/// Appends the simple moves of `movers` in direction `d` onto `empty` squares.
#[inline(always)]
fn push_steps(list: &mut MoveList, d: Direction, movers: Bitboard, empty: Bitboard) {
    let back = d.reverse() as usize;
    for to in Bits(d.step(movers) & empty) {
        let from = STEP[back][to as usize].trailing_zeros();
        list.push(Move::simple(from, to));
    }
}

impl Position {
    /// The pieces of the side to move that have a jump (captures are compulsory when non-empty).
    #[inline(always)]
    pub fn jumpers(&self) -> Bitboard {
        // One arm per colour, so that the directions are constants in the inlined body (this
        // runs at every perft leaf).
        match self.side {
            Color::Black => self.jumpers_toward(BLACK_KING_DIRS),
            Color::White => self.jumpers_toward(WHITE_KING_DIRS),
        }
    }

    /// [`Position::jumpers`] for the side to move's directions: a man's two, then a king's two
    /// extra ones.
    #[inline(always)]
    fn jumpers_toward(&self, [f1, f2, b1, b2]: [Direction; 4]) -> Bitboard {
        let own = self.pieces(self.side);
        let kings = own & self.kings;
        let enemy = self.pieces(self.side.opponent());
        let empty = self.empty();
        let mut jumpers = (f1.jump_sources(enemy, empty) | f2.jump_sources(enemy, empty)) & own;
        if kings != 0 {
            jumpers |= (b1.jump_sources(enemy, empty) | b2.jump_sources(enemy, empty)) & kings;
        }
        jumpers
    }

    /// All legal moves, in generation order: captures by starting square (lowest first), then
    /// direction (a man's two forward directions, then a king's two backward ones); simple moves
    /// by direction in that same order, then by destination square.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    /// Appends all legal moves to `list` (which should be empty).
    pub fn generate_moves(&self, list: &mut MoveList) {
        let jumpers = self.jumpers();
        if jumpers != 0 {
            let enemy = self.pieces(self.side.opponent());
            for from in Bits(jumpers) {
                JumpContext::new(self, from).collect(list, from, enemy, 0, 0, 0);
            }
            return;
        }
        // One arm per colour, so that the directions are constants in the inlined body.
        match self.side {
            Color::Black => self.push_simple_moves_toward(list, BLACK_KING_DIRS),
            Color::White => self.push_simple_moves_toward(list, WHITE_KING_DIRS),
        }
    }

    /// Appends the simple moves: the men's and kings' two forward directions, then the kings'
    /// two backward ones.
    #[inline(always)]
    fn push_simple_moves_toward(&self, list: &mut MoveList, [f1, f2, b1, b2]: [Direction; 4]) {
        let own = self.pieces(self.side);
        let kings = own & self.kings;
        let empty = self.empty();
        push_steps(list, f1, own, empty);
        push_steps(list, f2, own, empty);
        if kings != 0 {
            push_steps(list, b1, kings, empty);
            push_steps(list, b2, kings, empty);
        }
    }

    /// Number of simple moves available to the side to move, ignoring captures.
    #[inline(always)]
    pub fn simple_move_count(&self) -> u32 {
        match self.side {
            Color::Black => self.simple_moves_toward(BLACK_KING_DIRS),
            Color::White => self.simple_moves_toward(WHITE_KING_DIRS),
        }
    }

    #[inline(always)]
    fn simple_moves_toward(&self, [f1, f2, b1, b2]: [Direction; 4]) -> u32 {
        let own = self.pieces(self.side);
        let kings = own & self.kings;
        let empty = self.empty();
        let mut n = (f1.step(own) & empty).count_ones() + (f2.step(own) & empty).count_ones();
        if kings != 0 {
            n += (b1.step(kings) & empty).count_ones() + (b2.step(kings) & empty).count_ones();
        }
        n
    }

    /// Number of legal moves, counted without building them.
    #[inline]
    pub fn count_moves(&self) -> u64 {
        let jumpers = self.jumpers();
        if jumpers == 0 {
            return self.simple_move_count() as u64;
        }
        if jumpers & self.kings == 0 {
            if let Some(n) = self.count_single_man_jumps(jumpers) {
                return n;
            }
        }
        let enemy = self.pieces(self.side.opponent());
        Bits(jumpers)
            .map(|from| JumpContext::new(self, from).count(from, enemy, 0))
            .sum()
    }

    /// When only men can jump and none of them could possibly jump again after its first jump,
    /// every jump is a one-piece move and they are counted with popcounts. `None` when some
    /// man might continue (the caller then follows the paths).
    #[inline(always)]
    fn count_single_man_jumps(&self, jumpers: Bitboard) -> Option<u64> {
        // One arm per colour, so that the directions are constants in the inlined body.
        match self.side {
            Color::Black => self.count_single_jumps_toward(jumpers, BLACK_MAN_DIRS),
            Color::White => self.count_single_jumps_toward(jumpers, WHITE_MAN_DIRS),
        }
    }

    #[inline(always)]
    fn count_single_jumps_toward(
        &self,
        jumpers: Bitboard,
        [d1, d2]: [Direction; 2],
    ) -> Option<u64> {
        let us = self.side;
        let enemy = self.pieces(us.opponent());
        let empty = self.empty();
        // A superset of the squares a second jump could start from: the origins count as
        // empty and no captured piece is removed yet.
        let empty_after = empty | jumpers;
        let j1 = d1.jump_sources(enemy, empty) & jumpers;
        let j2 = d2.jump_sources(enemy, empty) & jumpers;
        let landings = (d1.step(d1.step(j1)) | d2.step(d2.step(j2))) & !us.crowning_row();
        let could_continue =
            d1.jump_sources(enemy, empty_after) | d2.jump_sources(enemy, empty_after);
        if landings & could_continue != 0 {
            return None;
        }
        Some((j1.count_ones() + j2.count_ones()) as u64)
    }

    /// True if the side to move has no legal move, and so has lost.
    #[inline]
    pub fn is_lost(&self) -> bool {
        self.jumpers() == 0 && self.simple_move_count() == 0
    }
}
