//! `set,feature,weight` CSV.

use checkers_engine::eval::EvaluatorKind;
use checkers_engine::weights_file::WeightsFile;

use super::Exporter;

/// `set,feature,weight` rows, opening set first ([`WeightsFile::to_csv`]). Carries the weights
/// only, and not the pattern evaluator's (its regions and tables).
#[derive(Clone, Copy, Debug, Default)]
pub struct CsvExporter;

impl Exporter for CsvExporter {
    fn carries(&self, evaluator: EvaluatorKind) -> bool {
        evaluator != EvaluatorKind::Patterns
    }

    fn render(&self, file: &WeightsFile) -> String {
        file.to_csv()
    }
}
