//! Step 4 of loading a config (`load.rs`), continued: the files it names made absolute
//! (relative to the config file's folder) and checked: the openings, the start weights and the
//! earlier runs the fits learn from.

use super::messages::{ConfigError, Layout, Reporter};
use super::run_config::Config;
use crate::run::fits::{duplicate_pdn_files, resolve_source};
use crate::run_folder::{load_start_copy, tables_path, CONFIG_FILE};
use crate::tournament::InitMode;
use checkers_engine::game::{load_openings_file, OpeningsSource, DECK_NAMES};
use checkers_engine::weights_file::WeightsFile;

impl Config {
    /// Makes an openings path absolute (relative to the config file's folder) and checks that
    /// the file exists and that every opening in it is legal.
    pub(super) fn resolve_openings(
        &mut self,
        report: &Reporter,
        layout: &Layout,
    ) -> Result<(), ConfigError> {
        let OpeningsSource::File(path) = &self.tournament.openings else {
            return Ok(());
        };
        let folder = report.folder();
        let joined = folder.join(path);
        let key = "tournament.openings";
        let entry = layout.get(key);
        let resolved = match std::fs::canonicalize(&joined) {
            Ok(resolved) if resolved.is_file() => resolved,
            Ok(resolved) => {
                return Err(report.at(
                    entry,
                    key,
                    &format!(
                        "{} is not a file; expected a deck ({DECK_NAMES}) or the path of a \
                         file of openings",
                        resolved.display()
                    ),
                ))
            }
            Err(e) => {
                let problem = if e.kind() == std::io::ErrorKind::NotFound {
                    "does not exist".to_string()
                } else {
                    format!("cannot be opened: {e}")
                };
                return Err(report.at(
                    entry,
                    key,
                    &format!(
                        "openings file {} {problem} (a relative path is taken from the config \
                         file's folder); expected a deck ({DECK_NAMES}) or the path of a file of \
                         openings",
                        joined.display()
                    ),
                ));
            }
        };
        // Every opening is played on the board now, so an illegal move stops the run before its
        // folder exists; the deck's own message names the file and its line.
        if let Err(err) = load_openings_file(&resolved) {
            return Err(report.at(entry, key, &err.to_string()));
        }
        self.tournament.openings = OpeningsSource::File(resolved);
        Ok(())
    }

    /// Makes the start weights file (`population.start`) absolute (relative to the config
    /// file's folder) and checks that it is a weights file the run can start from: of the
    /// run's evaluator, every weight in the run's ranges, fresh specimens drawn around it.
    ///
    /// A run folder's own `config.toml` whose run has started is checked against the copy the
    /// run kept: that copy is what the run goes on from, and the file itself may have changed
    /// or gone since.
    pub(super) fn resolve_start(
        &mut self,
        report: &Reporter,
        layout: &Layout,
    ) -> Result<(), ConfigError> {
        let Some(path) = &self.population.start else {
            return Ok(());
        };
        let key = "population.start";
        let refuse = |problem: &str| report.at(layout.get(key), key, problem);
        let joined = report.folder().join(path);
        // Canonical where it exists, so that the run folder's config.toml names it plainly.
        let resolved = std::fs::canonicalize(&joined)
            .or_else(|_| std::path::absolute(&joined))
            .unwrap_or(joined);
        let kept = tables_path(report.folder(), 0);
        let in_run_folder = report.origin.file_name() == Some(CONFIG_FILE.as_ref());
        let (checked, file) = if in_run_folder && kept.is_file() {
            let file = load_start_copy(report.folder(), &self.name, 0)
                .map_err(|e| refuse(&e.to_string()))?;
            (&kept, file)
        } else {
            let file = WeightsFile::load(&resolved).map_err(|e| {
                refuse(&format!(
                    "{e} (a relative path is taken from the config file's folder)"
                ))
            })?;
            (&resolved, file)
        };
        let (theirs, ours) = (file.evaluator(), self.weights.evaluator);
        if theirs != ours {
            return Err(refuse(&format!(
                "{} holds weights of the {} evaluator, and this run tunes the {} one \
                 (`weights.evaluator`)",
                checked.display(),
                theirs.name(),
                ours.name()
            )));
        }
        if let Some((weight, value, range)) = self.weights.outside(&file.weights) {
            return Err(refuse(&format!(
                "{}: {weight} = {value} is outside the run's range [{}, {}] \
                 (`weights.{weight}`); widen the range or start from another file",
                checked.display(),
                range.min,
                range.max
            )));
        }
        if self.weights.init == InitMode::Random {
            return Err(refuse(
                "fresh specimens are drawn around the start weights (with `weights.init_noise`), \
                 so `weights.init = \"random\"` would be ignored: leave `init` out",
            ));
        }
        self.population.start = Some(resolved);
        Ok(())
    }

    /// Fixes every earlier run's store the fits learn from (`evolution.fit_with`): its absolute
    /// path (relative to the config file's folder), the rounds it holds whole now and whose it
    /// is, so that the run and its resumptions read the same games.
    pub(super) fn resolve_fit_sources(
        &mut self,
        report: &Reporter,
        layout: &Layout,
    ) -> Result<(), ConfigError> {
        let folder = report.folder();
        let key = "evolution.fit_with";
        // A run's own config.toml has every source fixed already, checked when it started.
        let new_sources = self.evolution.fit_with.iter().any(|s| s.fixed.is_none());
        for source in &mut self.evolution.fit_with {
            *source = resolve_source(source, folder)
                .map_err(|problem| report.at(layout.get(key), key, &problem))?;
        }
        // A store read twice would weigh its games twice: a folder and its positions.bin are
        // one store once resolved.
        let sources = &self.evolution.fit_with;
        for (k, source) in sources.iter().enumerate() {
            if let Some(first) = sources[..k].iter().position(|s| s.store == source.store) {
                return Err(report.at(
                    layout.get(key),
                    key,
                    &format!(
                        "items {} and {} are the same store ({}): name each earlier run once",
                        first + 1,
                        k + 1,
                        source.store.display()
                    ),
                ));
            }
        }
        // So would a PDN file named twice, through a link, a folder holding it, or a copy.
        if let (true, Some((first, second, a, b))) = (new_sources, duplicate_pdn_files(sources)) {
            let items = if first == second {
                format!("item {first}")
            } else {
                format!("items {first} and {second}")
            };
            return Err(report.at(
                layout.get(key),
                key,
                &format!(
                    "{items} hold the same PDN games twice ({} and {}: one file by two names, \
                     or a copy): name each file once",
                    a.display(),
                    b.display()
                ),
            ));
        }
        Ok(())
    }
}
