//! A Hub program as a player (`hub:COMMAND`): a draughts engine speaking the Hub protocol
//! (Scan's, as pydraughts drives it; our own `hub` command is one), run as a child process.
//! As with CheckerBoard engines, a crash, a hang or a move that is not legal loses that game.

use std::process::Command;
use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use super::child::{LineChild, Silence};
use super::time::{answer_limit, hub_level};
use checkers_engine::board::Position;
use checkers_engine::error::{Error, Result};
use checkers_engine::game::{Choice, EndReason, Forfeit, Mover, Turn};
use checkers_engine::hub::{move_from_hub, move_to_hub, parse_line, position_to_hub, quote};
use checkers_engine::text::one_line;

/// How long a program may take to start and answer `hub` and `init`.
const START_LIMIT: Duration = Duration::from_secs(60);
/// How long a program may take to answer the `ping` after `new-game`.
const PING_LIMIT: Duration = Duration::from_secs(10);
/// The most characters of a program's name kept.
const NAME_CHARS: usize = 60;

/// A Hub program as a match names it: the command line (split at spaces) and the lines sent
/// after `hub` (e.g. `set-param name=hash value=64`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubEngine {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// Lines sent after the `hub` handshake, in order.
    pub options: Vec<String>,
}

impl HubEngine {
    /// The engine of `hub:COMMAND`'s command text; an error for an empty one.
    pub fn new(command: &str, options: Vec<String>) -> Result<HubEngine> {
        let command: Vec<String> = command.split_whitespace().map(str::to_string).collect();
        if command.is_empty() {
            return Err(Error::input(
                "hub:: no command (expected hub:PROGRAM [ARGUMENTS], e.g. hub:scan hub)",
            ));
        }
        Ok(HubEngine { command, options })
    }

    /// The argument that names it: `hub:COMMAND`.
    pub fn label(&self) -> String {
        format!("hub:{}", self.command.join(" "))
    }

    /// Starts the program and goes through the handshake (`hub` … `wait`, the options,
    /// `init` … `ready`); an error names the program and what went wrong.
    pub fn start(&self) -> Result<HubPlayer> {
        let origin = self.label();
        let mut command = Command::new(&self.command[0]);
        command.args(&self.command[1..]);
        let child = LineChild::spawn(command)
            .map_err(|e| Error::input(format!("{origin}: could not start it: {e}")))?;
        let mut player = HubPlayer {
            engine: self.clone(),
            child,
            name: String::new(),
        };
        let fail = |what: &str| Error::input(format!("{origin}: {what}"));
        player.send("hub").map_err(|s| fail(&s.to_string()))?;
        let deadline = Instant::now() + START_LIMIT;
        loop {
            let line = player
                .receive_until(deadline)
                .map_err(|s| fail(&format!("no `wait` after `hub`: {s}")))?;
            let Ok(Some(parsed)) = parse_line(&line) else {
                continue;
            };
            match parsed.command.as_str() {
                "id" => {
                    if let Some(name) = parsed.get("name") {
                        let version = parsed.get("version").unwrap_or("");
                        let name = format!("{name} {version}");
                        player.name = one_line(name.trim(), NAME_CHARS);
                    }
                }
                "wait" => break,
                _ => {}
            }
        }
        if player.name.is_empty() {
            player.name = one_line(&self.command[0], NAME_CHARS);
        }
        for option in &self.options {
            player.send(option).map_err(|s| fail(&s.to_string()))?;
        }
        player.send("init").map_err(|s| fail(&s.to_string()))?;
        loop {
            let line = player
                .receive_until(deadline)
                .map_err(|s| fail(&format!("no `ready` after `init`: {s}")))?;
            match parse_line(&line) {
                Ok(Some(parsed)) if parsed.command == "ready" => break,
                Ok(Some(parsed)) if parsed.command == "error" => {
                    // The program's own words, as one line of plain text.
                    let message = one_line(parsed.get("message").unwrap_or(&line), 200);
                    return Err(fail(&format!("refused its options: {message}")));
                }
                _ => {}
            }
        }
        Ok(player)
    }
}

/// A started Hub program.
pub struct HubPlayer {
    engine: HubEngine,
    child: LineChild,
    name: String,
}

impl HubPlayer {
    /// The program's name (its `id name=… version=…`, else the program).
    pub fn name(&self) -> &str {
        &self.name
    }

    fn send(&mut self, line: &str) -> std::result::Result<(), Silence> {
        self.child.send(line)
    }

    fn receive_until(&mut self, deadline: Instant) -> std::result::Result<String, Silence> {
        self.child.receive_until(deadline)
    }

    /// `ping`, and every line up to its `pong` read and dropped: whatever the program wrote
    /// before (an `error` to `new-game`, a second `done`) is not taken for the next answer.
    fn ping(&mut self) -> std::result::Result<(), Silence> {
        self.send("ping")?;
        let deadline = Instant::now() + PING_LIMIT;
        loop {
            if let Ok(Some(parsed)) = parse_line(&self.receive_until(deadline)?) {
                if parsed.command == "pong" {
                    return Ok(());
                }
            }
        }
    }

    /// The move for `turn` ([`Mover::choose`]), the instance kept whatever it answered.
    fn answer(&mut self, turn: &Turn<'_>) -> std::result::Result<Choice, Forfeit> {
        let pos = turn.position;
        let forfeit =
            |reason, answer: Option<&str>, why: &str| Forfeit::new(reason, pos, answer, why);
        let mut request = format!("pos pos={}", position_to_hub(turn.since()));
        if !turn.quiet_moves.is_empty() {
            let moves: Vec<String> = turn.quiet_moves.iter().map(move_to_hub).collect();
            request.push_str(&format!(" moves={}", quote(&moves.join(" "))));
        }
        let (limit, late) = answer_limit(turn);
        let deadline = turn.started + limit;
        let silent = |silence| super::silent(silence, pos, limit, late);
        for line in [request, hub_level(turn), "go think".to_string()] {
            self.send(&line).map_err(silent)?;
        }
        loop {
            let line = self.receive_until(deadline).map_err(silent)?;
            let parsed = match parse_line(&line) {
                Ok(Some(parsed)) => parsed,
                _ => continue,
            };
            match parsed.command.as_str() {
                "done" => {
                    let Some(text) = parsed.get("move") else {
                        return Err(forfeit(
                            EndReason::BadReply,
                            Some(&line),
                            "`done` without a move",
                        ));
                    };
                    return move_from_hub(pos, text)
                        .map(|mv| Choice { mv, score: 0 })
                        .map_err(|e| forfeit(EndReason::IllegalMove, Some(text), &e.to_string()));
                }
                "error" => {
                    return Err(forfeit(
                        EndReason::BadReply,
                        Some(&line),
                        "an error instead of a move",
                    ))
                }
                _ => {}
            }
        }
    }
}

impl Mover for HubPlayer {
    /// Starts the program again if its last game left it gone, then `new-game` and a `ping`
    /// answered, so the game starts from a known conversation.
    fn new_game(&mut self, start: &Position) -> std::result::Result<(), Forfeit> {
        let (gone, engine) = (self.child.is_gone(), self.engine.clone());
        super::start_again(self, gone, || engine.start(), start)?;
        self.send("new-game")
            .and_then(|()| self.ping())
            .map_err(|silence| match silence {
                Silence::Timeout => Forfeit::new(
                    EndReason::Hang,
                    start,
                    None,
                    &format!(
                        "no `pong` to the `ping` after `new-game` within {} s (killed)",
                        PING_LIMIT.as_secs()
                    ),
                ),
                other => {
                    let forfeit = super::silent(other, start, PING_LIMIT, EndReason::Hang);
                    Forfeit {
                        detail: format!("after `new-game`: {}", forfeit.detail),
                        ..forfeit
                    }
                }
            })
    }

    /// The program's move; after any forfeit the instance is stopped (a program that answered
    /// wrongly may answer the next request with what it meant for this one), and the next game
    /// starts a new one, as docs/engines.md says.
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
