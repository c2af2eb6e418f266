//! The players' sides: another program's checks and options, and each side's search.

use std::path::Path;

use checkers_engine::error::{Error, Result};
use checkers_engine::game::{GameSettings, SearchMode, SearchParams, TimeControl};
use checkers_engine::search::{SearchLimits, SelectiveParams};
use checkers_harness::players::Engine;

use super::args::MatchArgs;

/// A side's selective search: `mode` from the command line, else `best` (the selective search,
/// for a match against another program or with a time or a node budget, where a side should
/// play as well as it can), else the weights file's `search` table (its selective keys apply
/// either way); `None` for the exact search.
pub(super) fn side_search(
    table: Option<SearchParams>,
    mode: Option<SearchMode>,
    best: bool,
) -> Option<SelectiveParams> {
    let own = table.unwrap_or_default();
    let best = best.then_some(SearchMode::Selective);
    match mode.or(best) {
        Some(mode) => SearchParams { mode, ..own }.selective(),
        None => own.selective(),
    }
}

/// Whether weights sides without a search of their own play the selective search: against
/// another program (`engines`, the players that are programs), or with a time or a node
/// budget. Fixed-depth matches of weights files keep the search their files say (and the
/// games and files they always had).
pub(super) fn best_search(settings: &GameSettings, engines: &[Option<Engine>]) -> bool {
    settings.time.is_some() || engines.iter().any(Option::is_some)
}

/// A side's search as the header names it.
pub(super) fn search_name(selective: Option<SelectiveParams>) -> &'static str {
    match selective {
        Some(_) => "selective",
        None => "exact",
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
    let host = host()?;
    let sides = [
        (
            "A",
            &args.a,
            args.depth_a.is_some() || own_limits[0].is_some(),
            args.search_a,
        ),
        (
            "B",
            &args.b,
            args.depth_b.is_some() || own_limits[1].is_some(),
            args.search_b,
        ),
    ];
    let mut engines = [None, None];
    for (i, (side, arg, depth, search)) in sides.into_iter().enumerate() {
        let letter = side.to_ascii_lowercase();
        let own = OwnFlags {
            depth: depth.then(|| format!("--depth-{letter}")),
            search: search.map(|_| format!("--search-{letter}")),
        };
        let options = player_options(args, i, 2)?;
        engines[i] = player_engine(side, arg, &options, &own, settings, &host)?;
    }
    Ok(engines)
}

/// The options of player `k` (from 0) of `players`, each with the flag that gave it as an
/// error names it (`--option-a "set x"`, `--option "3=set x"`): --option-a's (player 1) or
/// --option-b's (player 2), then those of `--option K=TEXT`. Refuses an `--option` that is not
/// `K=TEXT` with K a player's number.
pub(super) fn player_options(
    args: &MatchArgs,
    k: usize,
    players: usize,
) -> Result<Vec<(String, String)>> {
    let own = match k {
        0 => args.option_a.iter().map(|o| ("--option-a", o)).collect(),
        1 => args.option_b.iter().map(|o| ("--option-b", o)).collect(),
        _ => Vec::new(),
    };
    let mut options: Vec<(String, String)> = own
        .into_iter()
        .map(|(flag, o)| (format!("{flag} {o:?}"), o.clone()))
        .collect();
    for given in &args.option {
        let number = given.split_once('=').and_then(|(n, text)| {
            let n = n.trim().parse::<usize>().ok()?;
            Some((n, text))
        });
        match number {
            Some((n, text)) if (1..=players).contains(&n) => {
                if n == k + 1 {
                    options.push((format!("--option {given:?}"), text.to_string()));
                }
            }
            Some((n, _)) => {
                return Err(Error::input(format!(
                    "--option {given:?}: there is no player {n}; the players are numbered 1 to \
                     {players} in the order given"
                )))
            }
            None => {
                return Err(Error::input(format!(
                    "--option {given:?}: expected K=TEXT, K a player's number (1 to {players}), \
                     e.g. --option '3=set hashsize 64'"
                )))
            }
        }
    }
    Ok(options)
}

/// The flags that gave a side a depth or a search of its own, which a program refuses.
#[derive(Default)]
pub(super) struct OwnFlags {
    pub(super) depth: Option<String>,
    pub(super) search: Option<String>,
}

/// This program, which hosts a CheckerBoard library (`match`'s, and `spsa`'s of an engine).
pub(crate) fn host() -> Result<std::path::PathBuf> {
    std::env::current_exe()
        .map_err(|e| Error::input(format!("cannot find this program to host a library: {e}")))
}

/// The program player `side` (`A`, `B`, `player 3`) names with `arg`, with its `options`
/// (each with how it was given, see [`player_options`]); `None` for a weights file, which
/// takes no options.
pub(super) fn player_engine(
    side: &str,
    arg: &str,
    options: &[(String, String)],
    own: &OwnFlags,
    settings: &GameSettings,
    host: &Path,
) -> Result<Option<Engine>> {
    let texts = options.iter().map(|(_, text)| text.clone()).collect();
    let Some(engine) = Engine::from_arg(arg, texts, host).transpose()? else {
        if let Some((given, _)) = options.first() {
            return Err(Error::input(format!(
                "{given}: {side} is a weights file ({arg}); options are for cb: and hub: \
                 players"
            )));
        }
        return Ok(None);
    };
    if let Some(flag) = own.depth.as_ref().or(own.search.as_ref()) {
        return Err(Error::input(format!(
            "{flag}: {side} is another program ({arg}), which searches as it does"
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
    Ok(Some(engine))
}
