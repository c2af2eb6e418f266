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
/// 10,000), so that the tables the search reads take half the cache.
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
    /// When every region is a band or a strip (the presets): which, in region order, for the
    /// fast computation of all their indices at once.
    shapes: Option<Vec<Shape>>,
    /// `[opening, endgame]` of every entry of every region, region after region.
    values: Vec<[i16; 2]>,
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
        let shapes = regions[..men_regions].iter().map(Shape::of).collect();
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
            values: vec![[0, 0]; total],
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
            .map(|v| i32::from(v[phase]))
            .collect()
    }

    /// Every entry, `[opening, endgame]`, region after region.
    pub fn values(&self) -> impl Iterator<Item = [i32; 2]> + '_ {
        self.values.iter().map(|v| v.map(i32::from))
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
            narrow.push(out);
        }
        self.values = narrow;
        Ok(())
    }

    /// The largest absolute entry.
    pub fn max_abs(&self) -> u32 {
        self.values
            .iter()
            .flat_map(|v| v.iter())
            .map(|v| v.unsigned_abs().into())
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
        if let Some(shapes) = &self.shapes {
            let strips = strip_indices(own, enemy);
            for (r, shape) in shapes.iter().enumerate() {
                f(
                    r,
                    match *shape {
                        Shape::Band(shift) => band_index(own, enemy, shift),
                        Shape::Strip(j) => strips[j],
                        Shape::Quadrant(shift) => quadrant_index(own, enemy, shift),
                    },
                );
            }
            return;
        }
        self.walk_parts(&self.parts, 0, own, enemy, f);
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
    pub fn side_sums(
        &self,
        (own, enemy): (Bitboard, Bitboard),
        (own_kings, enemy_kings): (Bitboard, Bitboard),
    ) -> (i32, i32) {
        let (mut opening, mut endgame) = (0, 0);
        let mut add = |region: usize, index: usize| {
            let [o, e] = self.values[self.offsets[region] + index];
            opening += i32::from(o);
            endgame += i32::from(e);
        };
        self.for_each_index(own, enemy, &mut add);
        // One test for both further kinds, so that tables of men regions alone (the shipped
        // layouts) pay what they paid before rank regions existed.
        if self.men_regions < self.regions.len() {
            if self.has_king_regions() {
                self.for_each_king_index(own_kings, enemy_kings, &mut add);
            }
            if self.has_rank_regions() {
                self.for_each_rank_index(own, &mut add);
            }
        }
        (opening, endgame)
    }
}

#[cfg(test)]
mod tests;
