//! A CheckerBoard engine library as a player (`cb:PATH`): the library runs in a host process
//! of its own ([`super::cb_host`]), so a crash, a hang or an answer that is not a legal move
//! loses that game for the library and nothing more.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use super::cb_host::{board_from_line, board_to_line};
use super::child::{escape, unescape, LineChild, Silence};
use super::time::{answer_limit, cb_time};
use checkers_engine::board::Position;
use checkers_engine::checkerboard::{
    board_from_position, board_text, color_code, gamehist_command, move_to_board, CB_RESET_MOVES,
    GT_ENGLISH,
};
use checkers_engine::error::{Error, Result};
use checkers_engine::game::{Choice, EndReason, Forfeit, Mover, Turn};
use checkers_engine::text::one_line;

/// How long a library may take to load and answer its first questions.
const START_LIMIT: Duration = Duration::from_secs(60);
/// How long `enginecommand` may take.
const COMMAND_LIMIT: Duration = Duration::from_secs(30);
/// The most characters of an engine's name kept.
const NAME_CHARS: usize = 60;

/// A CheckerBoard engine as a match names it: the library, the options sent to it (each an
/// `enginecommand` text, e.g. `set hashsize 64`) and the program that hosts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckerBoardEngine {
    /// The library (`.so`, `.dylib`, `.dll`).
    pub library: PathBuf,
    /// `enginecommand` texts sent after loading, in order.
    pub options: Vec<String>,
    /// The program run as `HOST cb-host LIBRARY` (this program's own binary).
    pub host: PathBuf,
}

impl CheckerBoardEngine {
    /// Loads the library in a new host, asks its name and game type (refusing one that does
    /// not play English checkers) and sends the options; an error names the library.
    pub fn start(&self) -> Result<CheckerBoardPlayer> {
        let origin = format!("cb:{}", self.library.display());
        let mut command = Command::new(&self.host);
        command.arg("cb-host").arg(&self.library);
        let child = LineChild::spawn(command).map_err(|e| {
            Error::input(format!(
                "{origin}: could not start its host {}: {e}",
                self.host.display()
            ))
        })?;
        let mut player = CheckerBoardPlayer {
            engine: self.clone(),
            child,
            name: String::new(),
            reset: true,
        };
        match player.child.receive(START_LIMIT) {
            Ok(line) if line == "ready" => {}
            Ok(line) => {
                let message = line.strip_prefix("error ").map_or(line.clone(), unescape);
                let message = one_line(&message, 300);
                return Err(Error::input(format!("{origin}: {message}")));
            }
            Err(silence) => return Err(Error::input(format!("{origin}: {}", silence))),
        }
        let ask = |player: &mut CheckerBoardPlayer, text: &str| {
            player
                .command(text)
                .map_err(|e| Error::input(format!("{origin}: `{text}`: {e}")))
        };
        let (handled, name) = ask(&mut player, "name")?;
        let name = if handled != 0 && !name.trim().is_empty() {
            name.trim().to_string()
        } else {
            self.library
                .file_stem()
                .map_or("engine".into(), |s| s.to_string_lossy().into_owned())
        };
        player.name = one_line(&name, NAME_CHARS);
        let (handled, gametype) = ask(&mut player, "get gametype")?;
        // An engine that does not answer is an old English one: the API added game types for
        // the other variants.
        if handled != 0 && gametype.trim().parse::<i32>().ok() != Some(GT_ENGLISH) {
            return Err(Error::input(format!(
                "{origin}: `get gametype` answers {:?}, not {GT_ENGLISH} (English checkers): this \
                 engine plays another variant",
                gametype.trim()
            )));
        }
        for option in &self.options {
            let (handled, reply) = ask(&mut player, option)?;
            if handled == 0 {
                return Err(Error::input(format!(
                    "{origin}: option `{option}`: the engine did not take it ({:?})",
                    reply.trim()
                )));
            }
        }
        Ok(player)
    }
}

/// A started CheckerBoard engine.
pub struct CheckerBoardPlayer {
    engine: CheckerBoardEngine,
    child: LineChild,
    name: String,
    /// Whether the next `getmove` is the first of a game (`CB_RESET_MOVES`).
    reset: bool,
}

impl CheckerBoardPlayer {
    /// The engine's name (its answer to `name`, else the library's file name).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends `enginecommand(text)`: its value (0: not handled) and reply.
    pub fn command(&mut self, text: &str) -> std::result::Result<(i32, String), String> {
        self.exchange(text, Instant::now() + COMMAND_LIMIT)
            .map_err(|failure| match failure {
                Ok(silence) => silence.to_string(),
                Err(answer) => answer,
            })
    }

    /// [`CheckerBoardPlayer::command`] by `deadline`: a failure is the host's silence (`Ok`),
    /// or an answer that is not a reply (`Err`, in words).
    fn exchange(
        &mut self,
        text: &str,
        deadline: Instant,
    ) -> std::result::Result<(i32, String), std::result::Result<Silence, String>> {
        self.child
            .send(&format!("command {}", escape(text)))
            .map_err(Ok)?;
        let line = self.child.receive_until(deadline).map_err(Ok)?;
        let not_a_reply = || Err(format!("the host answered {line:?}"));
        let Some(rest) = line.strip_prefix("reply ") else {
            return Err(not_a_reply());
        };
        let (value, reply) = rest.split_once(' ').unwrap_or((rest, ""));
        let Ok(value) = value.parse() else {
            return Err(not_a_reply());
        };
        Ok((value, unescape(reply)))
    }
}

impl Mover for CheckerBoardPlayer {
    fn new_game(&mut self, start: &Position) -> std::result::Result<(), Forfeit> {
        self.reset = true;
        let (gone, engine) = (self.child.is_gone(), self.engine.clone());
        super::start_again(self, gone, || engine.start(), start)
    }

    /// The engine's move; after any forfeit its host is stopped (an engine that answered
    /// wrongly is in a state nobody knows), and the next game starts a new one, as
    /// docs/engines.md says.
    fn choose(
        &mut self,
        turn: &Turn<'_>,
        _rng: &mut ChaCha8Rng,
    ) -> std::result::Result<Choice, Forfeit> {
        let answer = self.answer(turn);
        if answer.is_err() {
            self.child.kill();
        }
        answer
    }
}

impl CheckerBoardPlayer {
    /// The move for `turn` ([`Mover::choose`]), the host kept whatever the engine answered.
    fn answer(&mut self, turn: &Turn<'_>) -> std::result::Result<Choice, Forfeit> {
        let pos = turn.position;
        let forfeit =
            |reason, answer: Option<&str>, why: &str| Forfeit::new(reason, pos, answer, why);
        let history = gamehist_command(turn.since(), turn.quiet_moves);
        // One deadline for the history and the move, from the turn's start: an engine that
        // hangs or floods in either loses as it would in getmove.
        let (limit, late) = answer_limit(turn);
        let deadline = turn.started + limit;
        match self.exchange(&history, deadline) {
            Ok(_) => {}
            Err(Ok(silence)) => {
                let lost = super::silent(silence, pos, limit, late);
                return Err(Forfeit {
                    detail: format!("`set gamehist`: {}", lost.detail),
                    ..lost
                });
            }
            Err(Err(answer)) => {
                return Err(forfeit(
                    EndReason::BadReply,
                    None,
                    &format!("`set gamehist`: {answer}"),
                ))
            }
        }
        let time = cb_time(turn);
        let mut info = time.info;
        if std::mem::take(&mut self.reset) {
            info |= CB_RESET_MOVES;
        }
        let board = board_from_position(pos);
        let request = format!(
            "getmove {} {} {info} {} {} {}",
            color_code(pos.side_to_move()),
            time.maxtime,
            time.moreinfo,
            time.playnow_after.as_secs_f64(),
            board_to_line(&board)
        );
        let line = self
            .child
            .send(&request)
            .and_then(|()| self.child.receive_until(deadline))
            .map_err(|silence| super::silent(silence, pos, limit, late))?;
        let mut words = line.splitn(4, ' ');
        let (verb, _value, answer) = (words.next(), words.next(), words.next());
        let Some(answer) = answer
            .filter(|_| verb == Some("moved"))
            .and_then(board_from_line)
        else {
            return Err(forfeit(
                EndReason::BadReply,
                Some(&line),
                "not an answer to getmove",
            ));
        };
        match move_to_board(pos, &answer) {
            Some(mv) => Ok(Choice { mv, score: 0 }),
            None => Err(forfeit(
                EndReason::IllegalMove,
                Some(&format!("the board {}", board_text(&answer))),
                "no legal move leaves that board",
            )),
        }
    }
}

/// Whether `path` can be a library: an existing regular file.
pub(super) fn check_library(path: &Path) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(_) => Err(Error::input(format!(
            "cb:{}: not a file (a CheckerBoard engine is a library: .so, .dylib or .dll)",
            path.display()
        ))),
        Err(e) => Err(Error::input(format!("cb:{}: {e}", path.display()))),
    }
}
