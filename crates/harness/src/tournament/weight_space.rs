//! The space the weights are searched in: a range per feature and set, and how fresh specimens
//! are drawn (the config's `[weights]` section).
//!
//! The evaluation only ranks moves, so it is invariant under positive scaling: doubling every
//! weight changes no move. An unbounded search therefore spends one of its twenty dimensions on
//! nothing. The defaults remove that freedom by fixing `pawns` at 100 in both sets, which makes
//! every other weight a price in hundredths of a man, and they bound each weight to what such a
//! price can sensibly be: a king is worth one to three men, and a positional term a fraction of
//! a man per unit.

use rand::Rng;
use serde::{Deserialize, Serialize};

use checkers_engine::eval::{
    EvaluatorKind, ExtraPair, KingLayout, PatternTables, RankLayout, RegionLayout, WeightPair,
    WeightRange, Weights, FEATURE_COUNT, FEATURE_NAMES, KING_SQUARES, MAN_SQUARES, MAX_ABS_WEIGHT,
    TERM_COUNT,
};

/// One range per feature for one weight set; written as a TOML table `feature = [min, max]`,
/// where a feature left out keeps its default range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
#[allow(missing_docs)] // one field per feature, named as in FEATURE_NAMES
pub struct FeatureRanges {
    pub pawns: WeightRange,
    pub kings: WeightRange,
    pub safe_pawns: WeightRange,
    pub safe_kings: WeightRange,
    pub defenders: WeightRange,
    pub attackers: WeightRange,
    pub promotion_distance: WeightRange,
    pub open_promotion: WeightRange,
    pub mobility: WeightRange,
    pub jumps: WeightRange,
}

impl Default for FeatureRanges {
    /// `pawns` fixed at 100 (the unit: every other weight is a price in hundredths of a man),
    /// `kings` 100..=300 (a king is worth at least a man and at most three), the counts of
    /// pieces on squares (`safe_*`, `defenders`, `attackers`, `open_promotion`) and `jumps`
    /// within half a man per unit, and the two terms that count many units per piece
    /// (`promotion_distance`: rows, up to 7 per man; `mobility`: moves, up to 4 per king)
    /// within a quarter of a man per unit.
    fn default() -> FeatureRanges {
        let positional = WeightRange::new(-50, 50);
        let per_step = WeightRange::new(-25, 25);
        FeatureRanges {
            pawns: WeightRange::new(100, 100),
            kings: WeightRange::new(100, 300),
            safe_pawns: positional,
            safe_kings: positional,
            defenders: positional,
            attackers: positional,
            promotion_distance: per_step,
            open_promotion: positional,
            mobility: per_step,
            jumps: positional,
        }
    }
}

impl FeatureRanges {
    /// Every feature in `min..=max`.
    pub const fn all(min: i32, max: i32) -> FeatureRanges {
        let r = WeightRange::new(min, max);
        FeatureRanges {
            pawns: r,
            kings: r,
            safe_pawns: r,
            safe_kings: r,
            defenders: r,
            attackers: r,
            promotion_distance: r,
            open_promotion: r,
            mobility: r,
            jumps: r,
        }
    }

    /// The ranges in feature order ([`FEATURE_NAMES`]).
    pub fn to_array(&self) -> [WeightRange; FEATURE_COUNT] {
        [
            self.pawns,
            self.kings,
            self.safe_pawns,
            self.safe_kings,
            self.defenders,
            self.attackers,
            self.promotion_distance,
            self.open_promotion,
            self.mobility,
            self.jumps,
        ]
    }

    /// Every weight of `weights` moved into its range.
    pub fn clamp(&self, weights: &Weights) -> Weights {
        let ranges = self.to_array();
        Weights(std::array::from_fn(|i| ranges[i].clamp(weights.0[i])))
    }
}

/// How a fresh specimen (the initial population, `random` newcomers, genetic immigrants) is
/// drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum InitMode {
    /// Uniformly from each weight's range (the original project's way).
    Random,
    /// The `material` baseline (pawns 100, kings 150, the rest 0) plus Gaussian noise of
    /// `init_noise`, moved into the ranges: a start from a sound player.
    #[default]
    Material,
}

/// The ranges of the extended evaluator's further weights (`[weights.extended]`), the same in
/// both sets: one for every classic term, one for every entry of each piece-square table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ExtraRanges {
    /// Each classic term (docs/features.md).
    pub terms: WeightRange,
    /// Each entry of the men's table.
    pub men: WeightRange,
    /// Each entry of the kings' table.
    pub kings: WeightRange,
}

impl Default for ExtraRanges {
    fn default() -> ExtraRanges {
        ExtraRanges::DEFAULT
    }
}

impl ExtraRanges {
    /// A classic term within two men per unit, a square's entry within a man and a half: wide
    /// enough that fits on a night's games leave almost every weight inside (docs/features.md).
    pub const DEFAULT: ExtraRanges = ExtraRanges {
        terms: WeightRange::new(-200, 200),
        men: WeightRange::new(-150, 150),
        kings: WeightRange::new(-150, 150),
    };

    /// Whether these are the defaults (a config leaves them out then).
    pub fn is_default(&self) -> bool {
        *self == ExtraRanges::default()
    }

    /// The range of every weight of a phase, in [`checkers_engine::eval::ExtraWeights::to_vec`] order.
    pub fn to_vec(&self) -> Vec<WeightRange> {
        let mut all = vec![self.terms; TERM_COUNT];
        all.extend([self.men; MAN_SQUARES]);
        all.extend([self.kings; KING_SQUARES]);
        all
    }

    /// The first unusable range as (key below `weights.extended.`, what is wrong), if any.
    pub fn problem(&self) -> Option<(String, String)> {
        [
            ("terms", self.terms),
            ("men", self.men),
            ("kings", self.kings),
        ]
        .into_iter()
        .find_map(|(key, range)| range.problem().map(|p| (key.to_string(), p)))
    }
}

/// The pattern evaluator's tables and the ranges of its further weights (`[weights.patterns]`),
/// the same in both sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PatternRanges {
    /// The regions of the tables.
    pub regions: RegionLayout,
    /// The king regions of the tables, after the men regions (none unless a config says so).
    #[serde(skip_serializing_if = "KingLayout::is_none")]
    pub kings: KingLayout,
    /// The rank regions of the tables, after the king regions (none unless a config says so).
    #[serde(skip_serializing_if = "RankLayout::is_none")]
    pub ranks: RankLayout,
    /// Each classic term of the pattern evaluator (docs/features.md).
    pub classic: WeightRange,
    /// Each table entry.
    pub tables: WeightRange,
}

impl Default for PatternRanges {
    fn default() -> PatternRanges {
        PatternRanges::DEFAULT
    }
}

impl PatternRanges {
    /// Bands and strips; a classic term within two men per unit, a table entry within two
    /// men (an entry is one configuration of eight squares: larger values are noise).
    pub const DEFAULT: PatternRanges = PatternRanges {
        regions: RegionLayout::BandsAndStrips,
        kings: KingLayout::None,
        ranks: RankLayout::None,
        classic: WeightRange::new(-200, 200),
        tables: WeightRange::new(-200, 200),
    };

    /// Zero tables of the men regions, the king regions and the rank regions.
    pub fn table_shape(&self) -> PatternTables {
        let mut regions = self.regions.regions();
        regions.extend(self.kings.regions());
        regions.extend(self.ranks.regions());
        PatternTables::zero(regions)
    }

    /// Whether these are the defaults (a config leaves them out then).
    pub fn is_default(&self) -> bool {
        *self == PatternRanges::default()
    }

    /// The first unusable range as (key below `weights.patterns.`, what is wrong), if any.
    pub fn problem(&self) -> Option<(String, String)> {
        [("classic", self.classic), ("tables", self.tables)]
            .into_iter()
            .find_map(|(key, range)| range.problem().map(|p| (key.to_string(), p)))
    }
}

/// Default `init_noise`: a tenth of a man per unit of each feature.
const DEFAULT_INIT_NOISE: f64 = 10.0;

/// The `[weights]` section: the ranges of both sets and how fresh specimens are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WeightSpace {
    /// The evaluator whose weights are tuned (`ten` is left out of a written config).
    #[serde(skip_serializing_if = "EvaluatorKind::is_ten")]
    pub evaluator: EvaluatorKind,
    /// How fresh specimens are drawn.
    pub init: InitMode,
    /// Standard deviation of the noise around `material` (with `init = "material"`).
    pub init_noise: f64,
    /// Ranges of the opening set.
    pub opening: FeatureRanges,
    /// Ranges of the endgame set.
    pub endgame: FeatureRanges,
    /// Ranges of the extended evaluator's further weights.
    #[serde(skip_serializing_if = "ExtraRanges::is_default")]
    pub extended: ExtraRanges,
    /// The pattern evaluator's regions and the ranges of its further weights.
    #[serde(skip_serializing_if = "PatternRanges::is_default")]
    pub patterns: PatternRanges,
}

impl Default for WeightSpace {
    /// Fresh specimens around `material` with noise σ = 10, in the default ranges of
    /// [`FeatureRanges`] for both sets.
    fn default() -> WeightSpace {
        WeightSpace {
            evaluator: EvaluatorKind::Ten,
            init: InitMode::Material,
            init_noise: DEFAULT_INIT_NOISE,
            opening: FeatureRanges::default(),
            endgame: FeatureRanges::default(),
            extended: ExtraRanges::default(),
            patterns: PatternRanges::default(),
        }
    }
}

impl WeightSpace {
    /// Every weight of both sets uniformly from `min..=max`: the original project's space
    /// (`init_noise` keeps its default; it only applies to `init = "material"`).
    pub const fn uniform(min: i32, max: i32) -> WeightSpace {
        WeightSpace {
            evaluator: EvaluatorKind::Ten,
            init: InitMode::Random,
            init_noise: DEFAULT_INIT_NOISE,
            opening: FeatureRanges::all(min, max),
            endgame: FeatureRanges::all(min, max),
            extended: ExtraRanges::DEFAULT,
            patterns: PatternRanges::DEFAULT,
        }
    }

    /// The ranges of set `0` (opening) or `1` (endgame), with the set's name.
    pub fn sets(&self) -> [(&'static str, &FeatureRanges); 2] {
        [("opening", &self.opening), ("endgame", &self.endgame)]
    }

    /// Both sets moved into their ranges.
    pub fn clamp(&self, pair: &WeightPair) -> WeightPair {
        WeightPair {
            opening: self.opening.clamp(&pair.opening),
            endgame: self.endgame.clamp(&pair.endgame),
        }
    }

    /// Whether both sets lie in their ranges.
    pub fn contains(&self, pair: &WeightPair) -> bool {
        self.outside(pair).is_none()
    }

    /// The first weight of `pair` outside its range, as (`set.feature`, value, range).
    pub fn outside(&self, pair: &WeightPair) -> Option<(String, i32, WeightRange)> {
        let weights = [&pair.opening, &pair.endgame];
        self.sets()
            .into_iter()
            .zip(weights)
            .flat_map(|((set, ranges), w)| {
                FEATURE_NAMES
                    .iter()
                    .zip(ranges.to_array())
                    .zip(w.0)
                    .map(move |((name, range), value)| (set, name, range, value))
            })
            .find(|(_, _, range, value)| !(range.min..=range.max).contains(value))
            .map(|(set, name, range, value)| (format!("{set}.{name}"), value, range))
    }

    /// The first unusable setting as (key below `weights.`, what is wrong), if any.
    pub fn problem(&self) -> Option<(String, String)> {
        if !(0.0..=MAX_ABS_WEIGHT as f64).contains(&self.init_noise) {
            return Some((
                "init_noise".to_string(),
                format!(
                    "must be between 0 and {MAX_ABS_WEIGHT}, got {}",
                    self.init_noise
                ),
            ));
        }
        for (set, ranges) in self.sets() {
            for (name, range) in FEATURE_NAMES.iter().zip(ranges.to_array()) {
                if let Some(problem) = range.problem() {
                    return Some((format!("{set}.{name}"), problem));
                }
            }
        }
        // Every range is checked whatever the evaluator, so that a config is refused at its
        // load, never after a round (the pattern fit clamps its tables to `patterns.tables`).
        self.extended
            .problem()
            .map(|(key, problem)| (format!("extended.{key}"), problem))
            .or_else(|| {
                self.patterns
                    .problem()
                    .map(|(key, problem)| (format!("patterns.{key}"), problem))
            })
    }

    /// A fresh specimen's extended weights: none for `ten`, empty tables and terms for
    /// `extended` (the run's fits fill them).
    pub fn fresh_extra(&self) -> Option<ExtraPair> {
        self.evaluator.has_extra().then(ExtraPair::default)
    }

    /// A fresh specimen's weights, drawn as `init` says.
    pub fn fresh<R: Rng + ?Sized>(&self, rng: &mut R) -> WeightPair {
        match self.init {
            InitMode::Material => self.fresh_around(&WeightPair::material(), rng),
            InitMode::Random => {
                let mut set = |ranges: &FeatureRanges| {
                    let ranges = ranges.to_array();
                    Weights(std::array::from_fn(|i| ranges[i].draw(rng)))
                };
                let opening = set(&self.opening);
                let endgame = set(&self.endgame);
                WeightPair { opening, endgame }
            }
        }
    }

    /// A fresh specimen's weights around `centre` (`material`, or a run's `population.start`):
    /// every weight plus Gaussian noise of `init_noise`, moved into the ranges.
    pub fn fresh_around<R: Rng + ?Sized>(&self, centre: &WeightPair, rng: &mut R) -> WeightPair {
        let mut set = |ranges: &FeatureRanges, centre: &Weights| {
            let ranges = ranges.to_array();
            Weights(std::array::from_fn(|i| {
                let noise = (self.init_noise * standard_normal(rng)).round() as i32;
                ranges[i].clamp(centre.0[i].saturating_add(noise))
            }))
        };
        let opening = set(&self.opening, &centre.opening);
        let endgame = set(&self.endgame, &centre.endgame);
        WeightPair { opening, endgame }
    }
}

/// A standard normal draw by the Box–Muller transform (kept here rather than adding
/// `rand_distr`, whose algorithm could change under a version bump and break reproducibility).
pub(crate) fn standard_normal<R: Rng + ?Sized>(rng: &mut R) -> f64 {
    // 1 - [0, 1) is (0, 1], keeping ln away from 0.
    let u1 = 1.0 - rng.gen::<f64>();
    let u2: f64 = rng.gen();
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_engine::rng::stream;

    #[test]
    fn defaults_fix_pawns_and_let_kings_range_above_a_man() {
        let space = WeightSpace::default();
        assert_eq!(space.problem(), None);
        for (_, ranges) in space.sets() {
            assert_eq!(ranges.pawns, WeightRange::new(100, 100));
            assert!(ranges.kings.min >= 100 && ranges.kings.max > ranges.kings.min);
        }
        let mut rng = stream(1, &[5]);
        for _ in 0..200 {
            let pair = space.fresh(&mut rng);
            assert!(space.contains(&pair), "{pair:?}");
            assert_eq!((pair.opening.0[0], pair.endgame.0[0]), (100, 100));
        }
    }

    #[test]
    fn material_init_centres_on_material_and_random_init_spreads_over_the_range() {
        let mut rng = stream(2, &[5]);
        let around = WeightSpace::default();
        let n = 2000;
        let kings: Vec<i32> = (0..n)
            .map(|_| around.fresh(&mut rng).opening.0[1])
            .collect();
        let mean = kings.iter().sum::<i32>() as f64 / n as f64;
        assert!((mean - 150.0).abs() < 1.5, "{mean}");
        let uniform = WeightSpace::uniform(-7, 9);
        let all: Vec<i32> = (0..n)
            .flat_map(|_| uniform.fresh(&mut rng).endgame.0)
            .collect();
        assert!(all.iter().all(|w| (-7..=9).contains(w)));
        assert!(all.contains(&-7) && all.contains(&9));
    }

    #[test]
    fn bad_ranges_are_named() {
        let mut space = WeightSpace::default();
        space.endgame.mobility = WeightRange::new(5, -5);
        let (key, problem) = space.problem().unwrap();
        assert_eq!(key, "endgame.mobility");
        assert!(problem.contains("must not exceed"), "{problem}");
        space.endgame.mobility = WeightRange::new(0, MAX_ABS_WEIGHT + 1);
        assert!(space.problem().unwrap().1.contains("within"));
        let mut space = WeightSpace::default();
        space.patterns.tables = WeightRange::new(5, -5);
        let (key, problem) = space.problem().unwrap();
        assert_eq!(key, "patterns.tables");
        assert!(problem.contains("must not exceed"), "{problem}");
        space.patterns.tables = WeightRange::new(-5, 5);
        space.patterns.classic = WeightRange::new(0, MAX_ABS_WEIGHT + 1);
        assert_eq!(space.problem().unwrap().0, "patterns.classic");
        space = WeightSpace {
            init_noise: f64::NAN,
            ..WeightSpace::default()
        };
        assert_eq!(space.problem().unwrap().0, "init_noise");
    }

    #[test]
    fn ranges_read_from_toml_with_defaults_for_features_left_out() {
        let space: WeightSpace =
            toml::from_str("init = \"random\"\n[opening]\nkings = [120, 200]\n").unwrap();
        assert_eq!(space.init, InitMode::Random);
        assert_eq!(space.opening.kings, WeightRange::new(120, 200));
        assert_eq!(space.opening.pawns, WeightRange::new(100, 100));
        assert_eq!(space.endgame, FeatureRanges::default());
        let back: WeightSpace = toml::from_str(&toml::to_string(&space).unwrap()).unwrap();
        assert_eq!(back, space);
        assert!(toml::from_str::<WeightSpace>("[opening]\nqueens = [1, 2]\n").is_err());
    }
}
