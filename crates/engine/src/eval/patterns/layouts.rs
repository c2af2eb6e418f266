//! The standard region sets a config names: men, king and rank layouts.

use serde::{Deserialize, Serialize};

use super::region::{quadrants, Region, RegionKind};
use super::tables::PatternTables;

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
            .filter(|r| r.kind() == RegionKind::Men)
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
}
