//! OpenBench's lines: `name, value`, one per weight (`opening_pawns, 100`), the form in which
//! OpenBench's SPSA tuner reports and reads back integer parameters. Written only.

use std::fmt::Write as _;

use super::WeightsFile;

impl WeightsFile {
    /// OpenBench's lines: a `set_name, value` line per weight, the opening set first; for the
    /// extended evaluator its further weights after the ten features'. Not the pattern
    /// evaluator's (its regions and tables), which the `export` command refuses to write in
    /// this form.
    pub fn to_openbench(&self) -> String {
        let mut out = String::new();
        for (set, name, value) in self.named_weights() {
            let _ = writeln!(out, "{set}_{name}, {value}");
        }
        out
    }
}
