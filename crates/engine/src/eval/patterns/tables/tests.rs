//! The tables' index computations against the square-by-square definition.

use super::super::layouts::{KingLayout, RankLayout, RegionLayout};
use super::super::region::{Region, RegionKind};
use super::PatternTables;

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

/// Packed entries read back as given at both ends of the 16 bits, in either phase, and a set
/// of entries whose sums may leave 16 bits is summed phase by phase.
#[test]
fn packed_entries_read_back_as_given_and_large_ones_are_not_summed_packed() {
    let mut tables = PatternTables::zero(RegionLayout::Bands.regions());
    assert!(tables.packed_sums_fit);
    let ends = [i16::MIN, -1, 0, 1, i16::MAX].map(i32::from);
    let values: Vec<[i32; 2]> = (0..tables.len())
        .map(|i| [ends[i % 5], ends[(i / 5) % 5]])
        .collect();
    tables.set_values(values.clone()).unwrap();
    assert_eq!(tables.values().collect::<Vec<_>>(), values);
    assert!(!tables.packed_sums_fit);
    // Four bands, one entry of the first -L and every other 1 (opening): a side's sum less
    // the other's is at most 2 · (L + 1 + 1 + 1), which fits 16 bits up to L = 16,380.
    for (largest, fits) in [(16_380, true), (16_381, false)] {
        let values = (0..tables.len())
            .map(|i| if i == 7 { [-largest, 2] } else { [1, -2] })
            .collect();
        tables.set_values(values).unwrap();
        assert_eq!(tables.largest_difference(), 2 * (largest as u32 + 3));
        assert_eq!(tables.packed_sums_fit, fits, "{largest}");
    }
}
