//! The players' sides: another program's checks and options, and each side's search.

use checkers_engine::error::{Error, Result};
use checkers_engine::game::{GameSettings, SearchMode, SearchParams, TimeControl};
use checkers_engine::search::{SearchLimits, SelectiveParams};
use checkers_harness::players::Engine;

use super::args::MatchArgs;

/// A side's selective search: `mode` from the command line, else the weights file's `search`
/// table (its selective keys apply either way); `None` for the exact search.
pub(super) fn side_search(
    table: Option<SearchParams>,
    mode: Option<SearchMode>,
) -> Option<SelectiveParams> {
    let own = table.unwrap_or_default();
    match mode {
        Some(mode) => SearchParams { mode, ..own }.selective(),
        None => own.selective(),
    }
}

/// The programs among the players (`cb:`, `hub:`), with their options; refuses what such a
/// player cannot do (a depth or search of its own; a CheckerBoard engine without a time) and
/// options for a weights file.
pub(super) fn engines(
    args: &MatchArgs,
    settings: &GameSettings,
    own_limits: [Option<SearchLimits>; 2],
) -> Result<[Option<Engine>; 2]> {
    let host = std::env::current_exe()
        .map_err(|e| Error::input(format!("cannot find this program to host a library: {e}")))?;
    let sides = [
        (
            "A",
            &args.a,
            &args.option_a,
            "--option-a",
            args.depth_a.is_some(),
            args.search_a,
        ),
        (
            "B",
            &args.b,
            &args.option_b,
            "--option-b",
            args.depth_b.is_some(),
            args.search_b,
        ),
    ];
    let mut engines = [None, None];
    for (i, (side, arg, options, flag, depth, search)) in sides.into_iter().enumerate() {
        let Some(engine) = Engine::from_arg(arg, options.clone(), &host).transpose()? else {
            if let Some(option) = options.first() {
                return Err(Error::input(format!(
                    "{flag} {option:?}: {side} is a weights file ({arg}); options are for \
                     cb: and hub: players"
                )));
            }
            continue;
        };
        let letter = side.to_ascii_lowercase();
        if depth || own_limits[i].is_some() {
            return Err(Error::input(format!(
                "--depth-{letter}: {side} is another program ({arg}), which searches as it does"
            )));
        }
        if search.is_some() {
            return Err(Error::input(format!(
                "--search-{letter}: {side} is another program ({arg}), which searches as it does"
            )));
        }
        let timed = matches!(
            settings.time,
            Some(TimeControl::MoveTime(_) | TimeControl::Clock { .. })
        );
        if engine.needs_time() && !timed {
            return Err(Error::input(format!(
                "{arg}: a CheckerBoard engine plays with a time, not a depth or a node budget: \
                 give --movetime SECONDS or --tc BASE+INC"
            )));
        }
        engines[i] = Some(engine);
    }
    Ok(engines)
}
