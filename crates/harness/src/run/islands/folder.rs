//! An island's process joining the run folder of an island-model run: the first to come puts
//! the config in place, and every other (another island, or a restart) finds its own there.

use std::path::Path;

use crate::run::lock::refuse_file;
use crate::run_folder::{foreign_entry, is_island_entry, CONFIG_FILE};
use checkers_engine::error::{Error, Result};

/// Makes `out` the run folder of the island-model run whose resolved config is `text`, for one
/// island's process: a new or empty folder gets the config; a folder with this config is
/// joined (another island, or a restart, made it); anything else is refused before anything is
/// written. Islands start at the same time, so this must not fail when another island is
/// preparing the same folder.
pub(crate) fn prepare_island_folder(out: &Path, text: &str) -> Result<()> {
    refuse_file(out)?;
    let config_path = out.join(CONFIG_FILE);
    if out.is_dir() && !config_path.exists() {
        // Another island may put the config in place between the two looks: it is checked
        // below like one found at once, never taken for a foreign file.
        if let Some(name) =
            foreign_entry(out)?.filter(|name| !is_island_entry(name) && name != CONFIG_FILE)
        {
            return Err(Error::input(format!(
                "{} is not empty and is not a run folder (it holds {name}); give `--out` a \
                 new or empty folder, or the folder of this island-model run",
                out.display()
            )));
        }
    }
    std::fs::create_dir_all(out).map_err(|e| Error::io("create", out, &e))?;
    let read = || std::fs::read_to_string(&config_path);
    let found = match read() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            // Islands starting together race for the folder: exactly one claim puts its config
            // in place, and every other island compares its own with the winner's.
            let claimed = claim_config(&config_path, text);
            match read() {
                Ok(found) => found,
                Err(_) => return claimed,
            }
        }
        found => found.map_err(|e| Error::io("read", &config_path, &e))?,
    };
    if found != text {
        return Err(Error::input(format!(
            "{} holds another run (its {CONFIG_FILE} differs from this config); every island \
             of a run must be started with the same config, and a new run needs a new folder",
            out.display()
        )));
    }
    Ok(())
}

/// Puts `text` at `config_path` unless a file is there already, atomically: the whole text is
/// written to a temporary file of this process (`.config.toml.tmp-PID`, which a starting
/// island does not take for a foreign file), then hard-linked into place, which fails when
/// another island's claim won. A rename would replace the winner's config, so that two
/// islands of different configs could both see their own and go on in one folder. A file
/// system without hard links falls back to creating the file exclusively.
fn claim_config(config_path: &Path, text: &str) -> Result<()> {
    let dir = checkers_engine::atomic_file::parent_dir(config_path);
    let tmp = dir.join(format!(".{CONFIG_FILE}.tmp-{}", std::process::id()));
    let write = |path: &Path, options: &mut std::fs::OpenOptions| -> std::io::Result<()> {
        use std::io::Write;
        let mut file = options.write(true).open(path)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()
    };
    write(
        &tmp,
        std::fs::OpenOptions::new().create(true).truncate(true),
    )
    .map_err(|e| Error::io("write", &tmp, &e))?;
    let linked = std::fs::hard_link(&tmp, config_path);
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => {
            checkers_engine::atomic_file::sync_dir(&dir);
            Ok(())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(_) => match write(config_path, std::fs::OpenOptions::new().create_new(true)) {
            Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                Err(Error::io("write", config_path, &e))
            }
            _ => Ok(()),
        },
    }
}
