//! Players that are other programs: a CheckerBoard engine library (`cb:PATH`) and a Hub
//! program (`hub:COMMAND`), each behind the game's [`Mover`]. A match plays them as it plays
//! our own weights; each runs in a process of its own, so whatever it does costs it a game,
//! never the match. `docs/engines.md` has the protocols and every refusal.

mod cb_host;
mod checkerboard_player;
mod child;
mod hub_player;
mod time;

use std::path::{Path, PathBuf};

pub use cb_host::serve_checkerboard_library;
pub use checkerboard_player::{CheckerBoardEngine, CheckerBoardPlayer};
pub use child::kill_children;
pub use hub_player::{HubEngine, HubPlayer};

use std::time::Duration;

use checkers_engine::board::Position;
use checkers_engine::error::{Error, Result};
use checkers_engine::game::{EndReason, Forfeit, Mover};
use checkers_engine::text::fingerprint;
use child::Silence;

/// Another program as a player, as a match's argument names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// `cb:PATH`: a CheckerBoard engine library.
    CheckerBoard(CheckerBoardEngine),
    /// `hub:COMMAND`: a Hub program.
    Hub(HubEngine),
}

/// A started program, ready for games.
pub trait EnginePlayer: Mover + Send {
    /// The program's own name.
    fn name(&self) -> &str;
}

impl EnginePlayer for CheckerBoardPlayer {
    fn name(&self) -> &str {
        CheckerBoardPlayer::name(self)
    }
}

impl EnginePlayer for HubPlayer {
    fn name(&self) -> &str {
        HubPlayer::name(self)
    }
}

impl Engine {
    /// The engine an argument names (`cb:PATH` or `hub:COMMAND`), with its `options`; `None`
    /// for any other argument (a weights file). `host` is the program that hosts a library
    /// (`HOST cb-host LIBRARY`: this program's binary).
    pub fn from_arg(arg: &str, options: Vec<String>, host: &Path) -> Option<Result<Engine>> {
        if let Some(path) = arg.strip_prefix("cb:") {
            let library = PathBuf::from(path);
            return Some(checkerboard_player::check_library(&library).map(|()| {
                Engine::CheckerBoard(CheckerBoardEngine {
                    library,
                    options,
                    host: host.to_path_buf(),
                })
            }));
        }
        arg.strip_prefix("hub:")
            .map(|command| HubEngine::new(command, options).map(Engine::Hub))
    }

    /// The argument that names it.
    pub fn label(&self) -> String {
        match self {
            Engine::CheckerBoard(e) => format!("cb:{}", e.library.display()),
            Engine::Hub(e) => e.label(),
        }
    }

    /// The same engine with `options` in place of its own (each sent as it stands when an
    /// instance starts, as `match`'s `--option-a`).
    pub fn with_options(&self, options: Vec<String>) -> Engine {
        match self {
            Engine::CheckerBoard(e) => Engine::CheckerBoard(CheckerBoardEngine {
                options,
                ..e.clone()
            }),
            Engine::Hub(e) => Engine::Hub(HubEngine {
                options,
                ..e.clone()
            }),
        }
    }

    /// The option that gives its option `name` the value `value`, as the protocol says it:
    /// CheckerBoard's `enginecommand` text `set NAME VALUE`, Hub's line
    /// `set-param name=NAME value=VALUE`.
    pub fn option_line(&self, name: &str, value: i64) -> String {
        match self {
            Engine::CheckerBoard(_) => format!("set {name} {value}"),
            Engine::Hub(_) => format!("set-param name={name} value={value}"),
        }
    }

    /// Whether it can only play with a time (a CheckerBoard engine knows no depth or node
    /// budget).
    pub fn needs_time(&self) -> bool {
        matches!(self, Engine::CheckerBoard(_))
    }

    /// Starts one instance (a process): an error says why it cannot play (not found, not an
    /// engine, another variant, an option refused).
    pub fn start(&self) -> Result<Box<dyn EnginePlayer>> {
        Ok(match self {
            Engine::CheckerBoard(e) => Box::new(e.start()?),
            Engine::Hub(e) => Box::new(e.start()?),
        })
    }

    /// What identifies it in a match's key: its kind, the library's bytes (so a rebuilt
    /// library is another player) or the command, and the options.
    pub fn identity(&self) -> Result<String> {
        let (kind, what, options) = match self {
            Engine::CheckerBoard(e) => {
                let bytes =
                    std::fs::read(&e.library).map_err(|err| Error::io("read", &e.library, &err))?;
                (
                    "cb",
                    format!("{} {}", e.library.display(), fingerprint(&bytes)),
                    &e.options,
                )
            }
            Engine::Hub(e) => ("hub", e.command.join(" "), &e.options),
        };
        Ok(format!("{kind} {what} options {}", options.join(" | ")))
    }
}

/// The forfeit of a program that gave no move in `position`: past `limit` it is killed and
/// loses for `late` (a hang, or its clock); one that stopped crashed.
fn silent(silence: Silence, position: &Position, limit: Duration, late: EndReason) -> Forfeit {
    match silence {
        Silence::Timeout => Forfeit::new(
            late,
            position,
            None,
            &format!("no move within {:.1} s (killed)", limit.as_secs_f64()),
        ),
        Silence::Closed(how) => {
            Forfeit::new(EndReason::Crash, position, None, &format!("crashed: {how}"))
        }
        flood @ Silence::Flood(_) => Forfeit::new(
            EndReason::BadReply,
            position,
            None,
            &format!("no move: {flood}"),
        ),
    }
}

/// A program that the last game left crashed or killed (`gone`), started again for the game
/// from `start` by `restart`; if it cannot be, it forfeits that game.
fn start_again<P>(
    player: &mut P,
    gone: bool,
    restart: impl FnOnce() -> Result<P>,
    start: &Position,
) -> std::result::Result<(), Forfeit> {
    if gone {
        *player = restart().map_err(|e| not_started(start, &e, "again after its last game"))?;
    }
    Ok(())
}

/// The forfeit of a program that could not be started (`when`: e.g. "again after its last
/// game") for the game from `start`.
pub(crate) fn not_started(start: &Position, error: &Error, when: &str) -> Forfeit {
    let when = if when.is_empty() {
        String::new()
    } else {
        format!(" {when}")
    };
    Forfeit::new(
        EndReason::Crash,
        start,
        None,
        &format!("could not start{when}: {error}"),
    )
}
