//! Weights for other engines: one small exporter per format, each saying what its format can
//! carry and handing the writing to the format's writer in the engine crate (`weights_file/`,
//! beside the readers); the choice of a specimen from a finished run folder is in `run_folder/weights.rs`.

mod c;
mod csv;
mod json;
mod openbench;
mod toml;

pub use c::CHeaderExporter;
pub use csv::CsvExporter;
pub use json::JsonExporter;
pub use openbench::OpenBenchExporter;
pub use toml::TomlExporter;

use std::path::Path;
use std::str::FromStr;

use checkers_engine::atomic_file::write_output_atomically;
use checkers_engine::error::{Error, Result};
use checkers_engine::eval::EvaluatorKind;
use checkers_engine::weights_file::WeightsFile;

/// Turns a weights file into the text of one output format.
pub trait Exporter {
    /// Whether the format can carry the weights of `evaluator`.
    fn carries(&self, evaluator: EvaluatorKind) -> bool;

    /// The complete file text, ending with a newline.
    fn render(&self, file: &WeightsFile) -> String;
}

/// The output formats of `export --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExportFormat {
    /// The weights-file JSON (docs/run-folder.md, the weights file).
    Json,
    /// `set,feature,weight` CSV.
    Csv,
    /// Readable TOML.
    Toml,
    /// A C header.
    C,
    /// OpenBench / SPSA `name, value` lines.
    OpenBench,
}

impl ExportFormat {
    /// Whether the format can carry `file`'s weights: every format carries the ten features'
    /// and the extended evaluator's; the pattern evaluator's tables (tens of thousands of
    /// entries with their regions) only JSON, TOML and C. And whether the weights are ones the
    /// engine plays ([`WeightsFile::check_playable`], the gate of `analyse` and `match`): a
    /// file no command would play is not exported (the C reference would overflow).
    pub fn check(self, file: &WeightsFile) -> Result<()> {
        self.check_evaluator(file.evaluator())?;
        file.check_playable("(to export)")
    }

    /// [`ExportFormat::check`] for weights of `evaluator`, before there are any.
    pub fn check_evaluator(self, evaluator: EvaluatorKind) -> Result<()> {
        if self.exporter().carries(evaluator) {
            return Ok(());
        }
        // Only the pattern evaluator's weights are ever refused.
        Err(Error::input(format!(
            "--format {}: the pattern evaluator's weights (its regions and their tables) are \
             written as json, toml or c; {} carries the ten features' and the extended \
             evaluator's only",
            self.name(),
            self.name()
        )))
    }

    /// Every format, in the order the command line lists them.
    pub const ALL: [ExportFormat; 5] = [
        ExportFormat::Json,
        ExportFormat::Csv,
        ExportFormat::Toml,
        ExportFormat::C,
        ExportFormat::OpenBench,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Json => "json",
            ExportFormat::Csv => "csv",
            ExportFormat::Toml => "toml",
            ExportFormat::C => "c",
            ExportFormat::OpenBench => "openbench",
        }
    }

    /// The usual file extension (without the dot) for an output file in this format.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::C => "h",
            ExportFormat::OpenBench => "txt",
            other => other.name(),
        }
    }

    /// The exporter that writes this format.
    pub fn exporter(self) -> Box<dyn Exporter> {
        match self {
            ExportFormat::Json => Box::new(JsonExporter),
            ExportFormat::Csv => Box::new(CsvExporter),
            ExportFormat::Toml => Box::new(TomlExporter),
            ExportFormat::C => Box::new(CHeaderExporter),
            ExportFormat::OpenBench => Box::new(OpenBenchExporter),
        }
    }

    /// The file text of `file` in this format.
    pub fn render(self, file: &WeightsFile) -> String {
        self.exporter().render(file)
    }
}

impl std::fmt::Display for ExportFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ExportFormat {
    type Err = Error;

    fn from_str(s: &str) -> Result<ExportFormat> {
        let lower = s.trim().to_ascii_lowercase();
        ExportFormat::ALL
            .into_iter()
            .find(|f| f.name() == lower)
            .ok_or_else(|| {
                let names: Vec<&str> = ExportFormat::ALL.iter().map(|f| f.name()).collect();
                Error::Input(format!(
                    "unknown export format `{s}`, expected one of: {}",
                    names.join(", ")
                ))
            })
    }
}

/// Writes `file` in `format` to `out` atomically: the text goes to a temporary file in the same
/// folder, which is then renamed over `out`, so a reader never sees a half-written file.
pub fn export_to_file(file: &WeightsFile, format: ExportFormat, out: &Path) -> Result<()> {
    format.check(file)?;
    write_output_atomically(out, format.render(file).as_bytes())
}
