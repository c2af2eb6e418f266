//! The fast index computations: the preset shapes (bands, strips, quadrants) a few table
//! look-ups at a time, and the byte tables of any region.

use crate::board::Bitboard;

use super::region::{quadrants, Region};

/// A region of the presets, whose index [`band_index`], [`strip_indices`] or
/// [`quadrant_index`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Shape {
    /// Eight consecutive squares in order, `shift + 1 ..= shift + 8`: the byte of the board at
    /// that shift (a band of two rows at a multiple of 8, an offset band between two at 4).
    Band(u32),
    /// The squares `j + 1, j + 5, …, j + 29` in order: bit `j` of every row.
    Strip(usize),
    /// A quadrant of four rows by four columns (`quadrants`), its squares the bits 0, 1, 4,
    /// 5, 8, 9, 12 and 13 of the board shifted right by this many bits.
    Quadrant(u32),
}

impl Shape {
    /// The shape of `region`, if it is a band, a quadrant or a strip.
    pub(super) fn of(region: &Region) -> Option<Shape> {
        let squares: Vec<usize> = region.squares().iter().map(|&s| usize::from(s)).collect();
        if let Some((shift, mask)) = run_of(region) {
            if mask == 0xFF {
                return Some(Shape::Band(shift));
            }
        }
        if let Some(q) = quadrants().iter().position(|quadrant| {
            quadrant
                .iter()
                .map(|&s| s as usize)
                .eq(squares.iter().copied())
        }) {
            // Quadrants 0 and 1 lie in the low half-board, 2 and 3 in the high; 1 and 3 two
            // columns right.
            return Some(Shape::Quadrant(16 * (q as u32 / 2) + 2 * (q as u32 % 2)));
        }
        (0..4).find_map(|j| {
            if squares == (0..8).map(|r| 4 * r + j + 1).collect::<Vec<_>>() {
                Some(Shape::Strip(j))
            } else {
                None
            }
        })
    }
}

/// A band's index part of one byte: bit `k` of the byte adds `3^k`.
const BAND_DIGITS: [u16; 256] = band_digits();

const fn band_digits() -> [u16; 256] {
    let mut table = [0u16; 256];
    let mut v = 0;
    while v < 256 {
        let (mut k, mut power) = (0, 1);
        while k < 8 {
            if v & (1 << k) != 0 {
                table[v] += power;
            }
            power *= 3;
            k += 1;
        }
        v += 1;
    }
    table
}

/// The four strips' index parts of one byte (two rows), a 16-bit lane each: strip `j` has bit
/// `j` (the lower row, digit 1) and bit `j + 4` (the upper row, digit 3).
const STRIP_DIGITS: [u64; 256] = strip_digits();

const fn strip_digits() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut v = 0;
    while v < 256 {
        let mut j = 0;
        while j < 4 {
            let digits = ((v >> j) & 1) + 3 * ((v >> (j + 4)) & 1);
            table[v] |= (digits as u64) << (16 * j);
            j += 1;
        }
        v += 1;
    }
    table
}

/// The index of the band of eight consecutive squares from bit `shift` for a side with men
/// `own` against men `enemy` (its view).
#[inline(always)]
pub(super) fn band_index(own: Bitboard, enemy: Bitboard, shift: u32) -> usize {
    let byte = |b: Bitboard| ((b >> shift) & 0xFF) as usize;
    usize::from(BAND_DIGITS[byte(own)]) + 2 * usize::from(BAND_DIGITS[byte(enemy)])
}

/// A quadrant's index part of one byte (two rows): bits 0 and 1 (the lower row, digits 1 and
/// 3) and bits 4 and 5 (the upper row, digits 9 and 27).
const QUADRANT_DIGITS: [u16; 256] = quadrant_digits();

const fn quadrant_digits() -> [u16; 256] {
    let mut table = [0u16; 256];
    let mut v = 0;
    while v < 256 {
        table[v] = (v & 1) as u16
            + 3 * ((v >> 1) & 1) as u16
            + 9 * ((v >> 4) & 1) as u16
            + 27 * ((v >> 5) & 1) as u16;
        v += 1;
    }
    table
}

/// The index of the quadrant at `shift` ([`Shape::Quadrant`]) for a side with men `own`
/// against men `enemy` (its view): two bytes of two rows each.
#[inline(always)]
pub(super) fn quadrant_index(own: Bitboard, enemy: Bitboard, shift: u32) -> usize {
    let digits = |b: Bitboard| {
        let rows = (b >> shift) & 0x3333;
        usize::from(QUADRANT_DIGITS[(rows & 0xFF) as usize])
            + 81 * usize::from(QUADRANT_DIGITS[(rows >> 8) as usize])
    };
    digits(own) + 2 * digits(enemy)
}

/// The indices of the four strips for a side with men `own` against men `enemy` (its view), all
/// at once, in 16-bit lanes that never carry (a strip's index is below 3^8 = 6561).
#[inline(always)]
pub(super) fn strip_indices(own: Bitboard, enemy: Bitboard) -> [usize; 4] {
    let byte = |b: Bitboard, j: usize| ((b >> (8 * j)) & 0xFF) as usize;
    let mut lanes = 0u64;
    let mut scale = 1u64;
    for j in 0..4 {
        lanes += scale * (STRIP_DIGITS[byte(own, j)] + 2 * STRIP_DIGITS[byte(enemy, j)]);
        scale *= 9;
    }
    std::array::from_fn(|j| ((lanes >> (16 * j)) & 0xFFFF) as usize)
}

/// A rank region's `(shift, mask)` when its squares are consecutive and in increasing order:
/// its index is then `(own >> shift) & mask`, the bits of the squares as they lie.
pub(super) fn run_of(region: &Region) -> Option<(u32, u32)> {
    let first = u32::from(region.squares()[0]);
    let run = region
        .squares()
        .iter()
        .enumerate()
        .all(|(k, &s)| u32::from(s) == first + k as u32);
    run.then(|| (first - 1, (1u32 << region.squares().len()) - 1))
}

/// The byte tables of a region: for each byte of the board holding some of its squares, its
/// shift and the part of the index of each value of that byte when those squares hold own men.
pub(super) fn byte_parts(region: &Region) -> Vec<(u32, [u16; 256])> {
    (0..4u32)
        .filter_map(|byte| {
            let mut table = [0u16; 256];
            let mut any = false;
            for (k, &s) in region.squares().iter().enumerate() {
                let bit = u32::from(s) - 1;
                if bit / 8 != byte {
                    continue;
                }
                any = true;
                for (value, entry) in table.iter_mut().enumerate() {
                    if value & (1 << (bit % 8)) != 0 {
                        *entry += (region.base() as u16).pow(k as u32);
                    }
                }
            }
            any.then_some((8 * byte, table))
        })
        .collect()
}
