//! `--weights` of the commands that play or analyse with one engine (`analyse`, `play`, `hub`):
//! the built-in champion when none is named.

use std::path::Path;

use checkers_engine::error::Result;
use checkers_engine::weights_file::{WeightsFile, CHAMPION};
use clap::Args;

/// The weights of `analyse`, `play` and `hub`.
#[derive(Args, Clone, Debug, Default)]
pub struct EngineWeightsArg {
    /// The engine's weights: a weights file (JSON, TOML or CSV), a run folder, `material`, or
    /// `champion`. Default: the built-in champion (weights/hour.json), without an endgame
    /// database unless --database-pieces asks for one; named, it brings the 5-piece database
    /// its run recorded (built into the cache at first use, about a minute).
    #[arg(long = "weights", value_name = "FILE")]
    named: Option<String>,
}

impl EngineWeightsArg {
    /// The weights file: the one named, else the built-in champion.
    pub fn load(&self) -> Result<WeightsFile> {
        match &self.named {
            Some(arg) => checkers_harness::run_folder::weights_from_arg(arg),
            None => Ok(WeightsFile::champion()),
        }
    }

    /// The weights files whose recorded endgame database counts: the one named. The default
    /// champion's is left out, so that a command given no weights never builds a database
    /// unasked.
    pub fn database_players<'f>(
        &self,
        file: &'f WeightsFile,
    ) -> Vec<(&'static str, &'f WeightsFile)> {
        match self.named {
            Some(_) => vec![("the --weights file", file)],
            None => Vec::new(),
        }
    }

    /// The weights as the command line names them (`champion` when it names none), for the
    /// game's record.
    pub fn name(&self) -> &str {
        self.named.as_deref().unwrap_or(CHAMPION)
    }

    /// The file named, when it is a file of the user's (not `material` or `champion`): an
    /// input an output must not overwrite.
    pub fn input_path(&self) -> Option<&Path> {
        self.named
            .as_deref()
            .filter(|arg| *arg != "material" && *arg != CHAMPION)
            .map(Path::new)
    }
}
