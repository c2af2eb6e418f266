//! Material classes and the numbering of the positions inside each one.
//!
//! Only positions with Black to move are numbered: a position with White to move is looked up
//! as its mirror image ([`Position::mirrored`]: the board turned round and the colours swapped),
//! which has the same value. A class is fixed by four counts (black men, black kings, white
//! men, white kings). Inside a class a position's number is built from four ranks in the
//! combinatorial number system:
//!
//! 1. the black men among the 28 squares a black man can stand on (not 29–32, where it would
//!    have been crowned);
//! 2. the white men among the 28 squares a white man can stand on (not 1–4);
//! 3. the black kings among the squares the men leave free;
//! 4. the white kings among the squares left after that.
//!
//! So no number stands for a man on its crowning row or for two kings on one square. The only
//! numbers that stand for no position are those where a black and a white man share a square
//! (ranks 1 and 2 are taken independently); [`Material::position`] returns `None` for them.

use crate::board::{Bitboard, Color, Position};

/// Most pieces a database may hold: six would need about 1.3 GB and hours of building.
pub const MAX_DATABASE_PIECES: u32 = 5;

/// Squares where a black man can stand (bits 0–27; on 29–32 it is a king).
const BLACK_MAN_SQUARES: Bitboard = 0x0FFF_FFFF;
/// White men stand on bits 4–31; shifted down by this, they are numbered 0–27 too.
const WHITE_MAN_SHIFT: u32 = 4;

/// `BINOMIAL[n][k]` = n choose k, for the ranks (n ≤ 32, k ≤ 5).
const BINOMIAL: [[u32; 6]; 33] = {
    let mut t = [[0u32; 6]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        // Row 0 keeps C(0, k) = 0 for k > 0.
        while n > 0 && k < 6 {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
};

#[inline(always)]
fn choose(n: u32, k: u32) -> u32 {
    BINOMIAL[n as usize][k as usize]
}

/// The rank of the set of positions `set` (bits 0–31) among all sets of the same size: the sum
/// of `C(p_i, i)` over its positions `p_1 < p_2 < …` (1-based `i`).
#[inline(always)]
fn rank(mut set: u32) -> u32 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        r += choose(set.trailing_zeros(), i);
        set &= set - 1;
        i += 1;
    }
    r
}

/// The set of `k` positions with rank `r`: the inverse of [`rank`].
fn unrank(mut r: u32, k: u32) -> u32 {
    let mut set = 0;
    let mut top = 32;
    for i in (1..=k).rev() {
        // The largest p with C(p, i) <= r; positions are strictly decreasing as i falls.
        let mut p = top - 1;
        while choose(p, i) > r {
            p -= 1;
        }
        r -= choose(p, i);
        set |= 1 << p;
        top = p;
    }
    set
}

/// `set`'s squares renumbered by their place among the squares of `free` (which holds them
/// all): the k-th free square becomes position k.
#[inline(always)]
fn compress(mut set: Bitboard, free: Bitboard) -> u32 {
    let mut out = 0;
    while set != 0 {
        let bit = set & set.wrapping_neg();
        out |= 1 << (free & (bit - 1)).count_ones();
        set &= set - 1;
    }
    out
}

/// The inverse of [`compress`]: positions among the squares of `free` back to squares.
fn expand(mut positions: u32, free: Bitboard) -> Bitboard {
    let mut out = 0;
    let mut remaining = free;
    let mut k = 0;
    while positions != 0 && remaining != 0 {
        let bit = remaining & remaining.wrapping_neg();
        if positions & (1 << k) != 0 {
            out |= bit;
            positions &= !(1 << k);
        }
        remaining &= remaining - 1;
        k += 1;
    }
    out
}

/// A material class with Black to move: how many men and kings each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Black men.
    pub black_men: u8,
    /// Black kings.
    pub black_kings: u8,
    /// White men.
    pub white_men: u8,
    /// White kings.
    pub white_kings: u8,
}

impl Material {
    /// The material of `pos`, read as if Black were to move.
    #[inline(always)]
    pub fn of(pos: &Position) -> Material {
        let kings = pos.kings();
        Material {
            black_men: (pos.black() & !kings).count_ones() as u8,
            black_kings: (pos.black() & kings).count_ones() as u8,
            white_men: (pos.white() & !kings).count_ones() as u8,
            white_kings: (pos.white() & kings).count_ones() as u8,
        }
    }

    /// Pieces on the board.
    pub fn pieces(&self) -> u32 {
        u32::from(self.black_men + self.black_kings + self.white_men + self.white_kings)
    }

    /// Men on the board (both colours).
    pub fn men(&self) -> u32 {
        u32::from(self.black_men + self.white_men)
    }

    /// The class of the mirrored positions (colours swapped).
    pub fn mirrored(&self) -> Material {
        Material {
            black_men: self.white_men,
            black_kings: self.white_kings,
            white_men: self.black_men,
            white_kings: self.black_kings,
        }
    }

    /// A compact key (each count below 6) for lookup tables.
    #[inline(always)]
    pub(crate) fn key(&self) -> usize {
        ((self.black_men as usize * 6 + self.black_kings as usize) * 6 + self.white_men as usize)
            * 6
            + self.white_kings as usize
    }

    /// Number of keys [`Material::key`] can return.
    pub(crate) const KEYS: usize = 6 * 6 * 6 * 6;

    /// Every class with at least one piece a side and at most `pieces` in all, in the order they
    /// are built and stored: fewer pieces first, then fewer men (a capture leads to fewer
    /// pieces, a crowning to fewer men, so every class only depends on classes before it).
    pub fn all(pieces: u32) -> Vec<Material> {
        let mut out = Vec::new();
        let n = pieces.min(MAX_DATABASE_PIECES) as u8;
        for black_men in 0..=n {
            for black_kings in 0..=n - black_men {
                for white_men in 0..=n - black_men - black_kings {
                    for white_kings in 0..=n - black_men - black_kings - white_men {
                        if black_men + black_kings > 0 && white_men + white_kings > 0 {
                            out.push(Material {
                                black_men,
                                black_kings,
                                white_men,
                                white_kings,
                            });
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }

    /// Numbers in this class: one per position, plus those where two men share a square.
    pub fn slots(&self) -> usize {
        let (bm, bk, wm, wk) = self.counts();
        let men = bm + wm;
        choose(28, bm) as usize
            * choose(28, wm) as usize
            * choose(32 - men, bk) as usize
            * choose(32 - men - bk, wk) as usize
    }

    fn counts(&self) -> (u32, u32, u32, u32) {
        (
            u32::from(self.black_men),
            u32::from(self.black_kings),
            u32::from(self.white_men),
            u32::from(self.white_kings),
        )
    }

    /// The number of `pos` (Black to move, of this class) in `0..self.slots()`.
    #[inline(always)]
    pub fn index(&self, pos: &Position) -> usize {
        let (_, bk, wm, wk) = self.counts();
        let kings = pos.kings();
        let black_men = pos.black() & !kings;
        let white_men = pos.white() & !kings;
        let black_kings = pos.black() & kings;
        let white_kings = pos.white() & kings;
        let free = !(black_men | white_men);
        let free_after = free & !black_kings;
        let men = 32 - free.count_ones();
        let r_bm = rank(black_men) as usize;
        let r_wm = rank(white_men >> WHITE_MAN_SHIFT) as usize;
        let r_bk = rank(compress(black_kings, free)) as usize;
        let r_wk = rank(compress(white_kings, free_after)) as usize;
        ((r_bm * choose(28, wm) as usize + r_wm) * choose(32 - men, bk) as usize + r_bk)
            * choose(32 - men - bk, wk) as usize
            + r_wk
    }

    /// The position numbered `index` (Black to move), or `None` if that number has a black and
    /// a white man on one square.
    pub fn position(&self, index: usize) -> Option<Position> {
        let (bm, bk, wm, wk) = self.counts();
        let men = bm + wm;
        let n_wk = choose(32 - men - bk, wk) as usize;
        let n_bk = choose(32 - men, bk) as usize;
        let n_wm = choose(28, wm) as usize;
        let r_wk = (index % n_wk) as u32;
        let rest = index / n_wk;
        let r_bk = (rest % n_bk) as u32;
        let rest = rest / n_bk;
        let r_wm = (rest % n_wm) as u32;
        let r_bm = (rest / n_wm) as u32;
        let black_men = unrank(r_bm, bm) & BLACK_MAN_SQUARES;
        let white_men = unrank(r_wm, wm) << WHITE_MAN_SHIFT;
        if black_men & white_men != 0 {
            return None;
        }
        let free = !(black_men | white_men);
        let black_kings = expand(unrank(r_bk, bk), free);
        let white_kings = expand(unrank(r_wk, wk), free & !black_kings);
        Some(Position {
            pieces: [black_men | black_kings, white_men | white_kings],
            kings: black_kings | white_kings,
            side: Color::Black,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_number_of_small_classes_round_trips() {
        for m in Material::all(3) {
            let mut valid = 0;
            for i in 0..m.slots() {
                if let Some(pos) = m.position(i) {
                    valid += 1;
                    assert_eq!(Material::of(&pos), m, "{m:?} #{i}");
                    assert_eq!(m.index(&pos), i, "{m:?} #{i}: {}", pos.to_fen());
                    // A legal position by the engine's own rules.
                    assert!(Position::from_parts(
                        pos.black(),
                        pos.white(),
                        pos.kings(),
                        Color::Black
                    )
                    .is_ok());
                }
            }
            // Only the shared squares of black and white men are lost: 24 squares both may use.
            let lost = if m.black_men == 1 && m.white_men == 1 {
                24 * m.slots() / (28 * 28)
            } else if m.black_men + m.white_men < 2 || m.black_men == 0 || m.white_men == 0 {
                0
            } else {
                usize::MAX
            };
            if lost != usize::MAX {
                assert_eq!(m.slots() - valid, lost, "{m:?}");
            }
        }
    }

    #[test]
    fn ranks_invert() {
        for k in 0..=4 {
            for r in [0, 1, 17, choose(28, k).saturating_sub(1)] {
                if r < choose(28, k).max(1) {
                    assert_eq!(rank(unrank(r, k)), r);
                }
            }
        }
    }
}
