//! The region tables of the `patterns` evaluator (docs/features.md): learned values indexed by
//! the exact contents of board regions.
//!
//! A region is a list of up to eight squares of a side's own view. Its index in a position is
//! `Σ d_k · 3^k` over its squares `s_k`, with `d_k` 1 for an own man on `s_k`, 2 for an
//! opponent's man and 0 for an empty square or a king (kings are the piece-square tables'
//! business). Each region has one table of `3^n` values per phase; a side's value is the sum of
//! its regions' entries, and the evaluation takes the side to move's minus the opponent's, the
//! opponent's counted with the board turned round. So one table serves both colours and a
//! position evaluates like its mirror image.
//!
//! The index is computed a byte of the board at a time: for each byte of the 32-bit board that
//! holds squares of the region, a 256-entry table gives those squares' part of the index.
//!
//! King regions read the kings as men regions read the men. Rank regions read the side's own
//! men alone, a binary digit a square (`Σ 2^k` over the squares holding an own man), up to 16
//! squares: the home ranks, squares 1–16 of the own view, are the low 16 bits of the own men.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::Bitboard;

/// The most squares of a men or king region: `3^8 = 6561` entries per table.
pub const MAX_REGION_SQUARES: usize = 8;

/// The most squares of a rank region: `2^16 = 65,536` entries per table, so that an index
/// still fits the 16 bits the pattern fit keeps it in.
pub const MAX_RANK_REGION_SQUARES: usize = 16;

/// Which pieces a region's index reads, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegionKind {
    /// Both sides' men, a digit 0–2 a square (kings count as empty squares).
    Men,
    /// Both sides' kings, a digit 0–2 a square (men count as empty squares).
    Kings,
    /// The side's own men alone, a binary digit a square (the opponent's pieces and the
    /// side's kings count as empty squares): a rank region.
    Ranks,
}

/// A region of the board: distinct squares (1–32) of a side's own view, in index order, and
/// which pieces its index reads ([`RegionKind`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Region {
    squares: Vec<u8>,
    kind: RegionKind,
}

/// Why a list of squares is not a region.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegionError {
    /// No square, or more than [`MAX_REGION_SQUARES`].
    Size(usize),
    /// A rank region with no square, or more than [`MAX_RANK_REGION_SQUARES`].
    RankSize(usize),
    /// A square outside 1–32.
    Square(i64),
    /// A square listed twice.
    Repeated(u8),
}

impl fmt::Display for RegionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegionError::Size(n) => {
                write!(f, "a region has 1 to {MAX_REGION_SQUARES} squares, not {n}")
            }
            RegionError::RankSize(n) => {
                write!(
                    f,
                    "a rank region has 1 to {MAX_RANK_REGION_SQUARES} squares, not {n}"
                )
            }
            RegionError::Square(s) => write!(f, "square {s} is not one of 1-32"),
            RegionError::Repeated(s) => write!(f, "square {s} is listed twice"),
        }
    }
}

impl std::error::Error for RegionError {}

impl Region {
    /// The region of `squares` (1–32, distinct, at most [`MAX_REGION_SQUARES`]).
    pub fn new(squares: &[i64]) -> Result<Region, RegionError> {
        if squares.is_empty() || squares.len() > MAX_REGION_SQUARES {
            return Err(RegionError::Size(squares.len()));
        }
        Region::checked(squares, RegionKind::Men)
    }

    /// The region of `kind` on `squares`, their count already checked.
    fn checked(squares: &[i64], kind: RegionKind) -> Result<Region, RegionError> {
        let mut seen = 0u32;
        let mut out = Vec::with_capacity(squares.len());
        for &s in squares {
            if !(1..=32).contains(&s) {
                return Err(RegionError::Square(s));
            }
            let s = s as u8;
            if seen & (1 << (s - 1)) != 0 {
                return Err(RegionError::Repeated(s));
            }
            seen |= 1 << (s - 1);
            out.push(s);
        }
        Ok(Region { squares: out, kind })
    }

    /// The king region of `squares` (as for [`Region::new`]): its index reads the kings on
    /// those squares, as a men region reads the men.
    pub fn of_kings(squares: &[i64]) -> Result<Region, RegionError> {
        Ok(Region {
            kind: RegionKind::Kings,
            ..Region::new(squares)?
        })
    }

    /// The rank region of `squares` (1–32, distinct, at most [`MAX_RANK_REGION_SQUARES`]):
    /// its index reads the side's own men on those squares, a binary digit each.
    pub fn of_ranks(squares: &[i64]) -> Result<Region, RegionError> {
        if squares.is_empty() || squares.len() > MAX_RANK_REGION_SQUARES {
            return Err(RegionError::RankSize(squares.len()));
        }
        Region::checked(squares, RegionKind::Ranks)
    }

    /// Which pieces the index reads.
    pub fn kind(&self) -> RegionKind {
        self.kind
    }

    /// Whether the index reads kings rather than men.
    pub fn reads_kings(&self) -> bool {
        self.kind == RegionKind::Kings
    }

    /// The squares, in index order (the first is the lowest digit).
    pub fn squares(&self) -> &[u8] {
        &self.squares
    }

    /// Entries of its table: `3^squares` (a rank region: `2^squares`).
    pub fn entries(&self) -> usize {
        self.base().pow(self.squares.len() as u32)
    }

    /// The base of the index's digits: 2 for a rank region, 3 otherwise.
    fn base(&self) -> usize {
        match self.kind {
            RegionKind::Ranks => 2,
            RegionKind::Men | RegionKind::Kings => 3,
        }
    }

    /// The index of a position in which the side whose view this is has men (for a king region:
    /// kings) `own` and its opponent `enemy` (both in that view), computed square by square: the
    /// reference the byte tables are checked against. A rank region reads `own` alone.
    pub fn index_of(&self, own: Bitboard, enemy: Bitboard) -> usize {
        let enemy = if self.kind == RegionKind::Ranks {
            0
        } else {
            enemy
        };
        let mut index = 0;
        for &s in self.squares.iter().rev() {
            let bit = 1 << (s - 1);
            index = self.base() * index
                + if own & bit != 0 {
                    1
                } else if enemy & bit != 0 {
                    2
                } else {
                    0
                };
        }
        index
    }
}

/// The standard region sets, by name (`[weights.patterns] regions`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RegionLayout {
    /// Four horizontal bands of two rows (squares 1–8, 9–16, 17–24, 25–32 of the own view).
    #[serde(rename = "bands")]
    Bands,
    /// Four vertical strips of two columns (one square a row each).
    #[serde(rename = "strips")]
    Strips,
    /// The bands, then the strips: every square in two regions.
    #[default]
    #[serde(rename = "bands+strips")]
    BandsAndStrips,
    /// The bands and the strips, then three bands offset by a row (squares 5–12, 13–20,
    /// 21–28: the rows where two bands meet) and the four quadrants of four rows by four
    /// columns, as men regions: 15 regions, every square but the back rows' in four. Room for what a fit of
    /// several runs' games can tell (docs/features.md).
    #[serde(rename = "bands+strips+offsets+quadrants")]
    Wide,
}

impl RegionLayout {
    /// The name in configs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RegionLayout::Bands => "bands",
            RegionLayout::Strips => "strips",
            RegionLayout::BandsAndStrips => "bands+strips",
            RegionLayout::Wide => "bands+strips+offsets+quadrants",
        }
    }

    /// Every layout, narrowest first.
    pub const ALL: [RegionLayout; 4] = [
        RegionLayout::Bands,
        RegionLayout::Strips,
        RegionLayout::BandsAndStrips,
        RegionLayout::Wide,
    ];

    /// The layout called `name`, if any.
    pub fn from_name(name: &str) -> Option<RegionLayout> {
        RegionLayout::ALL.into_iter().find(|l| l.name() == name)
    }

    /// The layout whose men regions are `tables`' men regions, if any.
    pub fn of(tables: &PatternTables) -> Option<RegionLayout> {
        let men: Vec<&Region> = tables
            .regions()
            .iter()
            .filter(|r| r.kind == RegionKind::Men)
            .collect();
        RegionLayout::ALL
            .into_iter()
            .find(|l| l.regions().iter().eq(men.iter().copied()))
    }

    /// The regions of the layout.
    pub fn regions(self) -> Vec<Region> {
        let men = |squares: Vec<i64>| Region::new(&squares).expect("presets are valid regions");
        match self {
            RegionLayout::Bands => (0..4)
                .map(|band| men((1..=8).map(|k| 8 * band + k).collect()))
                .collect(),
            RegionLayout::Strips => (0..4)
                .map(|strip| {
                    men((1..=32)
                        .filter(|&s| {
                            let i = s as usize - 1;
                            let row = i / 4;
                            let col = 2 * (i % 4) + usize::from(row.is_multiple_of(2));
                            col / 2 == strip
                        })
                        .collect())
                })
                .collect(),
            RegionLayout::BandsAndStrips => {
                let mut all = RegionLayout::Bands.regions();
                all.extend(RegionLayout::Strips.regions());
                all
            }
            RegionLayout::Wide => {
                let mut all = RegionLayout::BandsAndStrips.regions();
                all.extend((0..3).map(|band| men((8 * band + 5..8 * band + 13).collect())));
                all.extend(quadrants().into_iter().map(men));
                all
            }
        }
    }
}

/// The squares of the four quadrants of four rows by four columns, eight squares each, in the
/// own view: rows 0-3 then 4-7; in each, the left half of the board (the first two squares of
/// each row's four) then the right half; a quadrant's squares row by row.
fn quadrants() -> Vec<Vec<i64>> {
    [0i64, 16]
        .into_iter()
        .flat_map(|first_row| {
            [[0i64, 1], [2, 3]].map(|columns| {
                (0..4)
                    .flat_map(|row| columns.map(|c| first_row + 4 * row + c + 1))
                    .collect()
            })
        })
        .collect()
}

/// The standard king region sets, by name (`[weights.patterns] kings`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum KingLayout {
    /// No king region: kings are the piece-square tables' business alone.
    #[default]
    #[serde(rename = "none")]
    None,
    /// The four quadrants of four rows by four columns, eight squares each, every one holding
    /// a corner of the board: the two double corners and the two single corners, where kings
    /// hold or are trapped in an ending.
    #[serde(rename = "quadrants")]
    Quadrants,
}

impl KingLayout {
    /// The name in configs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            KingLayout::None => "none",
            KingLayout::Quadrants => "quadrants",
        }
    }

    /// The layout called `name`, if any.
    pub fn from_name(name: &str) -> Option<KingLayout> {
        [KingLayout::None, KingLayout::Quadrants]
            .into_iter()
            .find(|l| l.name() == name)
    }

    /// Whether there is no king region (a config leaves the key out then).
    pub fn is_none(&self) -> bool {
        *self == KingLayout::None
    }

    /// The king regions of the layout.
    pub fn regions(self) -> Vec<Region> {
        match self {
            KingLayout::None => Vec::new(),
            KingLayout::Quadrants => quadrants()
                .iter()
                .map(|squares| Region::of_kings(squares).expect("presets are valid regions"))
                .collect(),
        }
    }
}

/// The standard rank region sets, by name (`[weights.patterns] ranks`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RankLayout {
    /// No rank region.
    #[default]
    #[serde(rename = "none")]
    None,
    /// One rank region: the side's home half, the four rows nearest its own back rank
    /// (squares 1–16 of its own view, in order), read from its own men alone.
    #[serde(rename = "home")]
    Home,
}

impl RankLayout {
    /// The name in configs and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RankLayout::None => "none",
            RankLayout::Home => "home",
        }
    }

    /// The layout called `name`, if any.
    pub fn from_name(name: &str) -> Option<RankLayout> {
        [RankLayout::None, RankLayout::Home]
            .into_iter()
            .find(|l| l.name() == name)
    }

    /// Whether there is no rank region (a config leaves the key out then).
    pub fn is_none(&self) -> bool {
        *self == RankLayout::None
    }

    /// The rank regions of the layout.
    pub fn regions(self) -> Vec<Region> {
        match self {
            RankLayout::None => Vec::new(),
            // The own view has the side's back rank on squares 1-4 and its men move towards
            // 32, so its home half is squares 1-16: bits 0-15 of its men, index = men & 0xFFFF.
            RankLayout::Home => {
                let squares: Vec<i64> = (1..=16).collect();
                vec![Region::of_ranks(&squares).expect("presets are valid regions")]
            }
        }
    }
}

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
/// Entries are 16-bit (any playable weight fits: [`MAX_ABS_WEIGHT`](super::MAX_ABS_WEIGHT) is
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
        let of_kind = |kind| regions.iter().filter(move |r| r.kind == kind).cloned();
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
            .filter(|r| r.kind == kind)
            .map(|r| r.squares.iter().map(|&s| i32::from(s)).collect())
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

/// A region of the presets, whose index [`band_index`], [`strip_indices`] or
/// [`quadrant_index`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Shape {
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
    fn of(region: &Region) -> Option<Shape> {
        let squares: Vec<usize> = region.squares.iter().map(|&s| usize::from(s)).collect();
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
fn band_index(own: Bitboard, enemy: Bitboard, shift: u32) -> usize {
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
fn quadrant_index(own: Bitboard, enemy: Bitboard, shift: u32) -> usize {
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
fn strip_indices(own: Bitboard, enemy: Bitboard) -> [usize; 4] {
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
fn run_of(region: &Region) -> Option<(u32, u32)> {
    let first = u32::from(region.squares[0]);
    let run = region
        .squares
        .iter()
        .enumerate()
        .all(|(k, &s)| u32::from(s) == first + k as u32);
    run.then(|| (first - 1, (1u32 << region.squares.len()) - 1))
}

/// The byte tables of a region: for each byte of the board holding some of its squares, its
/// shift and the part of the index of each value of that byte when those squares hold own men.
fn byte_parts(region: &Region) -> Vec<(u32, [u16; 256])> {
    (0..4u32)
        .filter_map(|byte| {
            let mut table = [0u16; 256];
            let mut any = false;
            for (k, &s) in region.squares.iter().enumerate() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_cover_the_board_once() {
        for preset in [RegionLayout::Bands, RegionLayout::Strips] {
            let mut covered = 0u32;
            for r in preset.regions() {
                assert_eq!(r.squares().len(), 8);
                for &s in r.squares() {
                    assert_eq!(covered & (1 << (s - 1)), 0, "{preset:?}: {s} twice");
                    covered |= 1 << (s - 1);
                }
            }
            assert_eq!(covered, u32::MAX, "{preset:?}");
        }
        // The first strip: columns 0 and 1, one square a row: 1, 5, 9, 13, ...
        assert_eq!(
            RegionLayout::Strips.regions()[0].squares(),
            &[1, 5, 9, 13, 17, 21, 25, 29]
        );
    }

    #[test]
    fn the_wide_layout_adds_offset_bands_and_quadrants() {
        let wide = RegionLayout::Wide.regions();
        assert_eq!(wide.len(), 15);
        assert_eq!(wide[..8], RegionLayout::BandsAndStrips.regions()[..]);
        assert_eq!(wide[8].squares(), &[5, 6, 7, 8, 9, 10, 11, 12]);
        assert_eq!(wide[10].squares(), &[21, 22, 23, 24, 25, 26, 27, 28]);
        // The quadrants are the king quadrants' squares, read as men.
        assert_eq!(wide[11].squares(), &[1, 2, 5, 6, 9, 10, 13, 14]);
        assert_eq!(wide[14].squares(), &[19, 20, 23, 24, 27, 28, 31, 32]);
        let kings = KingLayout::Quadrants.regions();
        for (men, kings) in wide[11..].iter().zip(&kings) {
            assert_eq!(men.squares(), kings.squares());
            assert_eq!(men.kind(), RegionKind::Men);
        }
        let mut count = [0; 32];
        for r in &wide {
            assert_eq!(r.squares().len(), 8);
            for &s in r.squares() {
                count[usize::from(s) - 1] += 1;
            }
        }
        // Offset bands leave out the two back rows.
        for (i, c) in count.iter().enumerate() {
            let expected = if (5..=28).contains(&(i + 1)) { 4 } else { 3 };
            assert_eq!(*c, expected, "square {}", i + 1);
        }
        assert_eq!(
            RegionLayout::from_name("bands+strips+offsets+quadrants"),
            Some(RegionLayout::Wide)
        );
    }

    /// Both ways of computing the indices, the presets' lanes and the general byte tables,
    /// agree with the square-by-square definition.
    #[test]
    fn fast_and_general_indices_agree_with_the_square_by_square_index() {
        let presets = PatternTables::zero(RegionLayout::BandsAndStrips.regions());
        assert!(presets.shapes.is_some());
        // Eight consecutive squares at any offset are read as a byte too, and the quadrants as
        // two.
        let mut offset = RegionLayout::Wide.regions();
        for first in [2, 25] {
            offset.push(Region::new(&(first..first + 8).collect::<Vec<_>>()).unwrap());
        }
        let offset = PatternTables::zero(offset);
        assert!(offset.shapes.is_some());
        let mut regions = RegionLayout::Strips.regions();
        regions.extend(RegionLayout::Bands.regions());
        regions.push(Region::new(&[32, 1, 17, 9]).unwrap());
        regions.push(Region::new(&[8, 7, 6, 5, 4, 3, 2, 1]).unwrap());
        let general = PatternTables::zero(regions);
        assert!(general.shapes.is_none());
        let mut state = 0x1234_5678_9abc_def0u64;
        for _ in 0..2000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let own = state as u32;
            let enemy = (state >> 32) as u32 & !own;
            for tables in [&presets, &offset, &general] {
                let mut seen = 0;
                tables.for_each_index(own, enemy, |r, index| {
                    assert_eq!(
                        index,
                        tables.regions()[r].index_of(own, enemy),
                        "region {r}"
                    );
                    seen += 1;
                });
                assert_eq!(seen, tables.regions().len());
            }
        }
    }

    #[test]
    fn the_king_quadrants_cover_the_board_once_and_each_holds_a_corner() {
        let mut covered = 0u32;
        let regions = KingLayout::Quadrants.regions();
        assert_eq!(regions.len(), 4);
        for r in &regions {
            assert!(r.reads_kings());
            assert_eq!(r.squares().len(), 8);
            for &s in r.squares() {
                assert_eq!(covered & (1 << (s - 1)), 0, "{s} twice");
                covered |= 1 << (s - 1);
            }
        }
        assert_eq!(covered, u32::MAX);
        // The board's corner squares 4 and 29 and the pairs 1, 5 and 28, 32, one quadrant each.
        for corner in [[4, 4], [29, 29], [1, 5], [28, 32]] {
            let holding: Vec<usize> = (0..4)
                .filter(|&q| corner.iter().all(|s| regions[q].squares().contains(s)))
                .collect();
            assert_eq!(holding.len(), 1, "{corner:?}");
        }
        assert!(KingLayout::None.regions().is_empty());
        assert_eq!(
            KingLayout::from_name("quadrants"),
            Some(KingLayout::Quadrants)
        );
        assert_eq!(KingLayout::from_name("corners"), None);
    }

    /// King regions come after the men regions, read the kings, and leave the men regions'
    /// fast path alone.
    #[test]
    fn king_regions_read_kings_after_the_men_regions() {
        let mut regions = KingLayout::Quadrants.regions();
        regions.extend(RegionLayout::BandsAndStrips.regions());
        let tables = PatternTables::zero(regions);
        assert!(tables.shapes.is_some());
        assert!(tables.has_king_regions());
        assert!(tables.regions()[..8].iter().all(|r| !r.reads_kings()));
        assert!(tables.regions()[8..].iter().all(|r| r.reads_kings()));
        assert!(!PatternTables::zero(RegionLayout::Bands.regions()).has_king_regions());
        let mut state = 0x0f1e_2d3c_4b5a_6978u64;
        for _ in 0..500 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let own = state as u32;
            let enemy = (state >> 32) as u32 & !own;
            let mut seen = Vec::new();
            tables.for_each_king_index(own, enemy, |r, index| {
                assert_eq!(
                    index,
                    tables.regions()[r].index_of(own, enemy),
                    "region {r}"
                );
                assert_eq!(tables.index(r, (0, 0), (own, enemy)), index);
                seen.push(r);
            });
            assert_eq!(seen, (8..12).collect::<Vec<_>>());
        }
    }

    /// The home ranks are squares 1-16 of the own view (the own back rank is 1-4), read from
    /// the own men alone; the fast slice, the general byte tables and the square-by-square
    /// definition agree on random boards, and the region comes after the men and king regions.
    #[test]
    fn rank_regions_read_the_own_men_alone_after_the_other_regions() {
        let home = RankLayout::Home.regions();
        assert_eq!(home.len(), 1);
        assert_eq!(home[0].kind(), RegionKind::Ranks);
        assert_eq!(home[0].squares(), (1..=16).collect::<Vec<u8>>());
        assert_eq!(home[0].entries(), 65_536);
        assert!(RankLayout::None.regions().is_empty());
        assert_eq!(RankLayout::from_name("home"), Some(RankLayout::Home));
        assert_eq!(RankLayout::from_name("ranks"), None);
        let mut regions = home.clone();
        regions.extend(KingLayout::Quadrants.regions());
        regions.extend(RegionLayout::BandsAndStrips.regions());
        let fast = PatternTables::zero(regions);
        assert!(fast.rank_runs.is_some() && fast.shapes.is_some());
        assert!(fast.has_rank_regions() && fast.has_king_regions());
        assert_eq!(fast.regions()[12], home[0]);
        assert_eq!(fast.offset(12), 12 * 6561);
        assert_eq!(fast.len(), 12 * 6561 + 65_536);
        // A rank region not a run of squares takes the byte tables.
        let scattered =
            Region::of_ranks(&[32, 1, 17, 9, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 30, 31]).unwrap();
        let general = PatternTables::zero(vec![scattered.clone(), home[0].clone()]);
        assert!(general.rank_runs.is_none());
        assert_eq!(general.regions().len(), 2);
        let mut state = 0x2468_ace0_1357_9bdfu64;
        for _ in 0..5000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let own = state as u32;
            let enemy = (state >> 32) as u32 & !own;
            // Square by square, from the definition: sum of 2^k over own men on square k + 1.
            let by_squares: usize = (0..16)
                .filter(|&k| own & (1 << k) != 0)
                .map(|k| 1 << k)
                .sum();
            assert_eq!(home[0].index_of(own, enemy), by_squares);
            assert_eq!(fast.index(12, (own, enemy), (0, 0)), by_squares);
            let mut seen = Vec::new();
            fast.for_each_rank_index(own, |r, index| {
                assert_eq!(index, by_squares);
                seen.push(r);
            });
            assert_eq!(seen, vec![12]);
            general.for_each_rank_index(own, |r, index| {
                assert_eq!(
                    index,
                    general.regions()[r].index_of(own, enemy),
                    "region {r}"
                );
            });
        }
    }

    #[test]
    fn an_index_by_hand() {
        // Region 2, 5, 1: own man on 5 (digit 1, times 3), enemy man on 1 (2, times 9).
        let region = Region::new(&[2, 5, 1]).unwrap();
        assert_eq!(region.index_of(1 << 4, 1), 3 + 18);
        assert_eq!(region.entries(), 27);
    }

    #[test]
    fn bad_regions_are_refused() {
        assert_eq!(Region::new(&[]), Err(RegionError::Size(0)));
        assert_eq!(Region::new(&[1; 9]), Err(RegionError::Size(9)));
        assert_eq!(Region::new(&[0, 3]), Err(RegionError::Square(0)));
        assert_eq!(Region::new(&[3, 33]), Err(RegionError::Square(33)));
        assert_eq!(Region::new(&[3, 4, 3]), Err(RegionError::Repeated(3)));
        assert_eq!(Region::of_kings(&[3, 4, 3]), Err(RegionError::Repeated(3)));
        assert_eq!(Region::of_kings(&[1; 9]), Err(RegionError::Size(9)));
        assert_eq!(Region::of_ranks(&[]), Err(RegionError::RankSize(0)));
        let seventeen: Vec<i64> = (1..=17).collect();
        assert_eq!(Region::of_ranks(&seventeen), Err(RegionError::RankSize(17)));
        assert_eq!(Region::of_ranks(&[3, 33]), Err(RegionError::Square(33)));
        assert_eq!(Region::of_ranks(&[3, 4, 3]), Err(RegionError::Repeated(3)));
    }
}
