//! The champion shipped with the engine: `weights/hour.json` of the repository (the `hour-data.toml`
//! best), built in,
//! so that a program that is given no weights (our CheckerBoard library) or is told
//! `champion` plays the strongest weights measured, without a tuning run first.

use super::WeightsFile;

/// The word that names the built-in champion wherever a weights file is taken.
pub const CHAMPION: &str = "champion";

/// `weights/hour.json`, as the commit was built; `weights/README.md` says which run made
/// it, with its command and its measured figures.
const CHAMPION_JSON: &str = include_str!("../../../../weights/hour.json");

impl WeightsFile {
    /// The built-in champion (`weights/hour.json`).
    pub fn champion() -> WeightsFile {
        WeightsFile::from_json(CHAMPION_JSON, "the built-in champion (weights/hour.json)")
            .expect("weights/hour.json is a weights file (a test reads it)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EvaluatorKind;

    #[test]
    fn the_champion_is_a_playable_pattern_evaluator() {
        let champion = WeightsFile::champion();
        champion.check_playable(CHAMPION).unwrap();
        assert_eq!(champion.evaluator(), EvaluatorKind::Patterns);
        assert_ne!(champion.weights, WeightsFile::material().weights);
        assert_eq!(WeightsFile::load_arg(CHAMPION).unwrap(), champion);
    }
}
