//! The tables of a set of regions and the computation of every region's index in a position.

use std::fmt;

use crate::board::Bitboard;

use super::index::{band_index, byte_parts, quadrant_index, run_of, strip_indices, Shape};
use super::region::{Region, RegionKind};

/// One byte of the board's part of a region's index: `lookups[table][byte value]`, the last of
/// its region's parts when `last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct BytePart {
    shift: u32,
    table: u32,
    last: bool,
}

/// Why a list of table values cannot be the tables' entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValuesError {
    /// Not one `[opening, endgame]` pair per entry: the number given.
    Length(usize),
    /// Entry `entry`'s value `value` does not fit the tables' 16 bits.
    Range {
        /// The entry, counting from 0 across the regions.
        entry: usize,
        /// The value.
        value: i32,
    },
}

impl fmt::Display for ValuesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValuesError::Length(n) => write!(f, "{n} values do not match the regions' entries"),
            ValuesError::Range { entry, value } => write!(
                f,
                "entry {entry} is {value}, outside {}..={} (a table entry is 16 bits)",
                i16::MIN,
                i16::MAX
            ),
        }
    }
}

impl std::error::Error for ValuesError {}

/// The tables of a set of regions, opening and endgame values side by side.
///
/// Entries are 16-bit (any playable weight fits: [`MAX_ABS_WEIGHT`](crate::eval::MAX_ABS_WEIGHT) is
/// 10,000), so that the tables the search reads take half the cache, and the two phases of an
/// entry are packed into one `i32` ([`Packed`]), so that the search adds both with one load and
/// one addition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PatternTables {
    /// The men regions, then the king regions, then the rank regions.
    regions: Vec<Region>,
    /// How many of `regions` are men regions (the first ones).
    men_regions: usize,
    /// Where the rank regions start in `regions` (the king regions lie between).
    ranks_from: usize,
    /// Where each region's entries start in `values`, and one past the last region's end.
    offsets: Vec<usize>,
    /// The byte parts of every men region, region after region.
    parts: Vec<BytePart>,
    /// The byte parts of every king region, region after region.
    king_parts: Vec<BytePart>,
    /// The byte parts of every rank region, region after region.
    rank_parts: Vec<BytePart>,
    /// When every rank region is a run of consecutive squares (the presets): each one's
    /// `(shift, mask)`, its index being `(own >> shift) & mask`.
    rank_runs: Option<Vec<(u32, u32)>>,
    /// The 256-entry tables the parts index.
    lookups: Vec<[u16; 256]>,
    /// When every men region is a band, a strip or a quadrant (the presets): the regions by
    /// shape, for the fast computation of all their indices at once.
    shapes: Option<ShapeGroups>,
    /// `[opening, endgame]` of every entry of every region, region after region, packed.
    values: Vec<Packed>,
    /// Whether a side-to-move's sum of one entry a region minus its opponent's always fits
    /// 16 bits in each phase, so that [`PatternTables::difference`] may add packed entries.
    packed_sums_fit: bool,
}

/// An entry's opening and endgame values in one word, `opening · 2^16 + endgame` (wrapping):
/// the sum of packed entries is the packed sum of their values, exact when each phase's sum
/// fits 16 bits, as the evaluations of chess engines add their middlegame and endgame scores.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Packed(i32);

impl Packed {
    /// The entry `[opening, endgame]`.
    #[inline(always)]
    fn new([opening, endgame]: [i16; 2]) -> Packed {
        Packed((i32::from(opening) << 16).wrapping_add(i32::from(endgame)))
    }

    /// The sum of `self` and `other`.
    #[inline(always)]
    fn plus(self, other: Packed) -> Packed {
        Packed(self.0.wrapping_add(other.0))
    }

    /// The difference of `self` and `other`.
    #[inline(always)]
    fn minus(self, other: Packed) -> Packed {
        Packed(self.0.wrapping_sub(other.0))
    }

    /// The opening and endgame values, each read as 16 bits: the low half is the endgame's,
    /// and the high half holds the opening's less the borrow the endgame's sign took from it.
    #[inline(always)]
    fn phases(self) -> [i32; 2] {
        let endgame = self.0 as i16;
        let opening = (self.0.wrapping_sub(i32::from(endgame)) >> 16) as i16;
        [i32::from(opening), i32::from(endgame)]
    }
}

impl PatternTables {
    /// Tables of `regions`, every entry 0. The men regions come first, then the king regions,
    /// then the rank regions, each in the order given.
    pub fn zero(regions: Vec<Region>) -> PatternTables {
        let of_kind = |kind| regions.iter().filter(move |r| r.kind() == kind).cloned();
        let mut ordered: Vec<Region> = of_kind(RegionKind::Men).collect();
        let men_regions = ordered.len();
        ordered.extend(of_kind(RegionKind::Kings));
        let ranks_from = ordered.len();
        ordered.extend(of_kind(RegionKind::Ranks));
        let regions = ordered;
        let mut offsets = vec![0];
        for r in &regions {
            offsets.push(offsets.last().unwrap() + r.entries());
        }
        let mut lookups = Vec::new();
        let mut parts_of = |regions: &[Region]| {
            let mut parts = Vec::new();
            for region in regions {
                let first = parts.len();
                for (shift, table) in byte_parts(region) {
                    parts.push(BytePart {
                        shift,
                        table: lookups.len() as u32,
                        last: false,
                    });
                    lookups.push(table);
                }
                parts[first..]
                    .last_mut()
                    .expect("a region has a square")
                    .last = true;
            }
            parts
        };
        let parts = parts_of(&regions[..men_regions]);
        let king_parts = parts_of(&regions[men_regions..ranks_from]);
        let rank_parts = parts_of(&regions[ranks_from..]);
        let total = *offsets.last().unwrap();
        let shapes = regions[..men_regions]
            .iter()
            .map(Shape::of)
            .collect::<Option<Vec<Shape>>>()
            .map(|shapes| ShapeGroups::of(&shapes, &offsets));
        let rank_runs = regions[ranks_from..].iter().map(run_of).collect();
        PatternTables {
            regions,
            men_regions,
            ranks_from,
            offsets,
            parts,
            king_parts,
            rank_parts,
            rank_runs,
            lookups,
            shapes,
            values: vec![Packed::default(); total],
            packed_sums_fit: true,
        }
    }

    /// The regions.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// All entries of all regions.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there is no region.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Where region `r`'s entries start among all entries.
    pub fn offset(&self, r: usize) -> usize {
        self.offsets[r]
    }

    /// The entries of region `r` in `phase` (0 opening, 1 endgame).
    pub fn table(&self, r: usize, phase: usize) -> Vec<i32> {
        self.values[self.offsets[r]..self.offsets[r + 1]]
            .iter()
            .map(|v| v.phases()[phase])
            .collect()
    }

    /// Every entry, `[opening, endgame]`, region after region.
    pub fn values(&self) -> impl Iterator<Item = [i32; 2]> + '_ {
        self.values.iter().map(|v| v.phases())
    }

    /// Sets every entry (`[opening, endgame]`, region after region); nothing changes when
    /// `values` does not fit.
    pub fn set_values(&mut self, values: Vec<[i32; 2]>) -> Result<(), ValuesError> {
        if values.len() != self.values.len() {
            return Err(ValuesError::Length(values.len()));
        }
        let mut narrow = Vec::with_capacity(values.len());
        for (entry, pair) in values.into_iter().enumerate() {
            let mut out = [0i16; 2];
            for (slot, value) in out.iter_mut().zip(pair) {
                *slot = i16::try_from(value).map_err(|_| ValuesError::Range { entry, value })?;
            }
            narrow.push(Packed::new(out));
        }
        self.values = narrow;
        self.packed_sums_fit = self.largest_difference() <= i32::from(i16::MAX) as u32;
        Ok(())
    }

    /// These tables with a value of each own man's square added to the entries of one men
    /// region holding that square (`squares[s − 1]`, `[opening, endgame]`, for a man on
    /// square `s` of the side's view): the sums of a side's entries gain its men's values, so
    /// that an evaluation may read the men's table out of the region tables. `None` when a
    /// square of a value other than zero lies in no men region, or an entry would leave 16
    /// bits.
    pub(crate) fn with_men_squares(&self, squares: &[[i32; 2]]) -> Option<PatternTables> {
        // carried[r]: the squares region r carries, as (digit position, value).
        let mut carried: Vec<Vec<(usize, [i32; 2])>> = vec![Vec::new(); self.men_regions];
        for (bit, &value) in squares.iter().enumerate() {
            if value == [0, 0] {
                continue;
            }
            let square = u8::try_from(bit + 1).ok()?;
            let (r, k) = self.regions[..self.men_regions]
                .iter()
                .enumerate()
                .find_map(|(r, region)| {
                    region
                        .squares()
                        .iter()
                        .position(|&s| s == square)
                        .map(|k| (r, k))
                })?;
            carried[r].push((k, value));
        }
        let mut folded = self.clone();
        for (r, squares) in carried.iter().enumerate() {
            if squares.is_empty() {
                continue;
            }
            let base = self.regions[r].base();
            for index in 0..self.regions[r].entries() {
                let mut add = [0i32; 2];
                for &(k, value) in squares {
                    // Digit k is 1 where the side has a man on that square.
                    if index / base.pow(k as u32) % base == 1 {
                        add = [add[0] + value[0], add[1] + value[1]];
                    }
                }
                let slot = &mut folded.values[self.offsets[r] + index];
                let [o, e] = slot.phases();
                let narrow = |v: i32| i16::try_from(v).ok();
                *slot = Packed::new([narrow(o + add[0])?, narrow(e + add[1])?]);
            }
        }
        folded.packed_sums_fit = folded.largest_difference() <= i32::from(i16::MAX) as u32;
        Some(folded)
    }

    /// The largest absolute entry.
    pub fn max_abs(&self) -> u32 {
        self.values
            .iter()
            .flat_map(|v| v.phases())
            .map(|v| v.unsigned_abs())
            .max()
            .unwrap_or(0)
    }

    /// The largest absolute value, in either phase, that one side's entries less the other
    /// side's can sum to: twice the sum of every region's largest absolute entry.
    fn largest_difference(&self) -> u32 {
        (0..2)
            .map(|phase| {
                self.offsets
                    .windows(2)
                    .map(|w| {
                        self.values[w[0]..w[1]]
                            .iter()
                            .map(|v| v.phases()[phase].unsigned_abs())
                            .max()
                            .unwrap_or(0)
                    })
                    .sum::<u32>()
                    * 2
            })
            .max()
            .unwrap_or(0)
    }

    /// The squares of each region of `kind`, in order, as a weights file lists them.
    pub fn region_squares(&self, kind: RegionKind) -> Vec<Vec<i32>> {
        self.regions
            .iter()
            .filter(|r| r.kind() == kind)
            .map(|r| r.squares().iter().map(|&s| i32::from(s)).collect())
            .collect()
    }

    /// Whether some region reads kings.
    pub fn has_king_regions(&self) -> bool {
        self.men_regions < self.ranks_from
    }

    /// Whether some region is a rank region.
    pub fn has_rank_regions(&self) -> bool {
        self.ranks_from < self.regions.len()
    }

    /// Region `r`'s index for a side with men `own` and kings `own_kings` against men `enemy`
    /// and kings `enemy_kings`, all in its view.
    pub fn index(
        &self,
        r: usize,
        (own, enemy): (Bitboard, Bitboard),
        kings: (Bitboard, Bitboard),
    ) -> usize {
        let mut found = 0;
        let mut find = |region, index| {
            if region == r {
                found = index;
            }
        };
        self.for_each_index(own, enemy, &mut find);
        self.for_each_king_index(kings.0, kings.1, &mut find);
        self.for_each_rank_index(own, &mut find);
        found
    }

    /// Calls `f(r, index)` for every men region `r` with its index for a side with men `own`
    /// against men `enemy`, both in its view.
    #[inline(always)]
    pub fn for_each_index(&self, own: Bitboard, enemy: Bitboard, mut f: impl FnMut(usize, usize)) {
        match &self.shapes {
            Some(shapes) => {
                shapes.walk(own, enemy, |shaped, index| f(shaped.region as usize, index))
            }
            None => self.walk_parts(&self.parts, 0, own, enemy, f),
        }
    }

    /// Calls `f(entry)` with the entry (counted across the regions) of every region for a
    /// side with men `own` and kings `own_kings` against men `enemy` and kings `enemy_kings`,
    /// all in its view: the entries a side's sums add.
    #[inline(always)]
    fn for_each_entry(
        &self,
        ((own, enemy), (own_kings, enemy_kings)): SideBoards,
        mut f: impl FnMut(usize),
    ) {
        match &self.shapes {
            Some(shapes) => shapes.walk(own, enemy, |shaped, index| f(shaped.offset + index)),
            None => self.walk_parts(&self.parts, 0, own, enemy, |region, index| {
                f(self.offsets[region] + index)
            }),
        }
        // One test for both further kinds, so that tables of men regions alone (the shipped
        // layouts) pay what they paid before rank regions existed.
        if self.men_regions < self.regions.len() {
            let mut at = |region: usize, index: usize| f(self.offsets[region] + index);
            if self.has_king_regions() {
                self.for_each_king_index(own_kings, enemy_kings, &mut at);
            }
            if self.has_rank_regions() {
                self.for_each_rank_index(own, &mut at);
            }
        }
    }

    /// Calls `f(r, index)` for every king region `r` (numbered after the men regions) with its
    /// index for a side with kings `own` against kings `enemy`, both in its view.
    #[inline(always)]
    pub fn for_each_king_index(&self, own: Bitboard, enemy: Bitboard, f: impl FnMut(usize, usize)) {
        self.walk_parts(&self.king_parts, self.men_regions, own, enemy, f);
    }

    /// Calls `f(r, index)` for every rank region `r` (numbered after the king regions) with
    /// its index for a side with men `own` in its view.
    #[inline(always)]
    pub fn for_each_rank_index(&self, own: Bitboard, mut f: impl FnMut(usize, usize)) {
        if let Some(runs) = &self.rank_runs {
            // A slice of the men: the home ranks are `own & 0xFFFF`.
            for (i, &(shift, mask)) in runs.iter().enumerate() {
                f(self.ranks_from + i, ((own >> shift) & mask) as usize);
            }
            return;
        }
        // The byte tables of a rank region hold binary digits; no enemy is read.
        self.walk_parts(&self.rank_parts, self.ranks_from, own, 0, f);
    }

    /// The general computation of the indices of the regions of `parts`, numbered from
    /// `first`.
    #[inline(always)]
    fn walk_parts(
        &self,
        parts: &[BytePart],
        first: usize,
        own: Bitboard,
        enemy: Bitboard,
        mut f: impl FnMut(usize, usize),
    ) {
        let mut region = first;
        let mut index = 0;
        for part in parts {
            let table = &self.lookups[part.table as usize];
            index += usize::from(table[((own >> part.shift) & 0xFF) as usize])
                + 2 * usize::from(table[((enemy >> part.shift) & 0xFF) as usize]);
            if part.last {
                f(region, index);
                region += 1;
                index = 0;
            }
        }
    }

    /// The opening and endgame sums of a side's entries, its men `own` and kings `own_kings`
    /// against men `enemy` and kings `enemy_kings`, all in its own view.
    #[inline(always)]
    pub fn side_sums(&self, men: (Bitboard, Bitboard), kings: (Bitboard, Bitboard)) -> (i32, i32) {
        let (mut opening, mut endgame) = (0, 0);
        self.for_each_entry((men, kings), |entry| {
            let [o, e] = self.values[entry].phases();
            opening += o;
            endgame += e;
        });
        (opening, endgame)
    }

    /// The opening and endgame sums of the side to move's entries (`ours`: its men and kings
    /// against the opponent's, in its view) less the opponent's (`theirs`, in the opponent's
    /// view): [`PatternTables::side_sums`] of each, subtracted, with both phases added at once
    /// when the tables' entries allow it.
    #[inline(always)]
    pub fn difference(&self, ours: SideBoards, theirs: SideBoards) -> (i32, i32) {
        if !self.packed_sums_fit {
            let (our_opening, our_endgame) = self.side_sums(ours.0, ours.1);
            let (their_opening, their_endgame) = self.side_sums(theirs.0, theirs.1);
            return (our_opening - their_opening, our_endgame - their_endgame);
        }
        let [opening, endgame] = self
            .packed_side_sum(ours)
            .minus(self.packed_side_sum(theirs))
            .phases();
        (opening, endgame)
    }

    /// A side's entries summed packed, as [`PatternTables::side_sums`] sums them apart.
    #[inline(always)]
    fn packed_side_sum(&self, side: SideBoards) -> Packed {
        let mut sum = Packed::default();
        self.for_each_entry(side, |entry| sum = sum.plus(self.values[entry]));
        sum
    }
}

/// The men regions of the presets' shapes, grouped by shape so that their indices come without
/// a branch a region: each band and quadrant with its shift, each strip with its number.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct ShapeGroups {
    bands: Vec<Shaped>,
    strips: Vec<Shaped>,
    quadrants: Vec<Shaped>,
}

/// A region of one shape: its number among the regions, where its entries start, and what
/// places it (a band's or a quadrant's shift, a strip's number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Shaped {
    offset: usize,
    // Both 32 bits, so that a region takes 16 bytes of the groups the search walks.
    region: u32,
    place: u32,
}

impl ShapeGroups {
    /// The groups of the men regions of `shapes`, their entries from `offsets`.
    fn of(shapes: &[Shape], offsets: &[usize]) -> ShapeGroups {
        let mut groups = ShapeGroups {
            bands: Vec::new(),
            strips: Vec::new(),
            quadrants: Vec::new(),
        };
        for (region, (shape, &offset)) in shapes.iter().zip(offsets).enumerate() {
            let shaped = |place| Shaped {
                offset,
                region: region as u32,
                place,
            };
            match *shape {
                Shape::Band(shift) => groups.bands.push(shaped(shift)),
                Shape::Strip(j) => groups.strips.push(shaped(j as u32)),
                Shape::Quadrant(shift) => groups.quadrants.push(shaped(shift)),
            }
        }
        groups
    }

    /// Calls `f(shaped, index)` for every region with its index for a side with men `own`
    /// against men `enemy`, both in its view (bands, then strips, then quadrants).
    #[inline(always)]
    fn walk(&self, own: Bitboard, enemy: Bitboard, mut f: impl FnMut(&Shaped, usize)) {
        for band in &self.bands {
            f(band, band_index(own, enemy, band.place));
        }
        if !self.strips.is_empty() {
            let strips = strip_indices(own, enemy);
            for strip in &self.strips {
                f(strip, strips[strip.place as usize]);
            }
        }
        for quadrant in &self.quadrants {
            f(quadrant, quadrant_index(own, enemy, quadrant.place));
        }
    }
}

/// A side's men and the opponent's, then its kings and the opponent's, all in its view.
pub type SideBoards = ((Bitboard, Bitboard), (Bitboard, Bitboard));

#[cfg(test)]
mod tests;
