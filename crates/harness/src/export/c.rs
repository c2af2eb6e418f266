//! A C header.

use checkers_engine::eval::EvaluatorKind;
use checkers_engine::weights_file::WeightsFile;

use super::Exporter;

/// A C header with the two weight arrays, a comment block defining the evaluation, and a plain
/// reference implementation of the features, the phase switch and the evaluation; a weights
/// file's `search` table becomes `#define CHECKERS_SEARCH_<KEY>` lines
/// ([`WeightsFile::to_c_header`]). Every evaluator's weights.
#[derive(Clone, Copy, Debug, Default)]
pub struct CHeaderExporter;

impl Exporter for CHeaderExporter {
    fn carries(&self, _: EvaluatorKind) -> bool {
        true
    }

    fn render(&self, file: &WeightsFile) -> String {
        file.to_c_header()
    }
}
