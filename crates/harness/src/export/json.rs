//! The weights-file JSON.

use checkers_engine::eval::EvaluatorKind;
use checkers_engine::weights_file::WeightsFile;

use super::Exporter;

/// The weights-file JSON of docs/run-folder.md (the same text as [`WeightsFile::to_json`]):
/// every evaluator's weights.
#[derive(Clone, Copy, Debug, Default)]
pub struct JsonExporter;

impl Exporter for JsonExporter {
    fn carries(&self, _: EvaluatorKind) -> bool {
        true
    }

    fn render(&self, file: &WeightsFile) -> String {
        file.to_json()
    }
}
