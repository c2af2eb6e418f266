//! OpenBench's `name, value` lines.

use checkers_engine::eval::EvaluatorKind;
use checkers_engine::weights_file::WeightsFile;

use super::Exporter;

/// `name, value` lines, one per weight (`opening_pawns, 100`): the form in which OpenBench's
/// SPSA tuner reports and reads back integer parameters ([`WeightsFile::to_openbench`]). Not
/// the pattern evaluator's weights (its regions and tables).
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenBenchExporter;

impl Exporter for OpenBenchExporter {
    fn carries(&self, evaluator: EvaluatorKind) -> bool {
        evaluator != EvaluatorKind::Patterns
    }

    fn render(&self, file: &WeightsFile) -> String {
        file.to_openbench()
    }
}
