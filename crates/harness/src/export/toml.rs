//! Readable TOML.

use checkers_engine::eval::EvaluatorKind;
use checkers_engine::weights_file::WeightsFile;

use super::Exporter;

/// A readable TOML file: `[opening]` and `[endgame]` tables keyed by feature name, and the
/// weights file's `[search]` table when it has one ([`WeightsFile::to_toml`]): every
/// evaluator's weights.
#[derive(Clone, Copy, Debug, Default)]
pub struct TomlExporter;

impl Exporter for TomlExporter {
    fn carries(&self, _: EvaluatorKind) -> bool {
        true
    }

    fn render(&self, file: &WeightsFile) -> String {
        file.to_toml()
    }
}
