//! The host of a CheckerBoard engine library: `checkers-tuner cb-host LIBRARY` loads it and
//! calls it as the parent process asks, one line at a time. The library runs in this process
//! alone, so whatever it does (crash, hang, scribble over its memory) ends here, and the match
//! that asked goes on.
//!
//! The conversation, one line each way (texts escaped by [`escape`]):
//!
//! | parent sends | host answers |
//! |---|---|
//! | (at start) | `ready`, or `error MESSAGE` and exit status 2 |
//! | `command TEXT` | `reply RETURN TEXT`: `enginecommand`'s value and reply |
//! | `getmove COLOR MAXTIME INFO MOREINFO PLAYNOW BOARD` | `moved RETURN BOARD STATUS`: `getmove`'s value, the board it left and its status text |
//! | `quit` | (exits) |
//!
//! `BOARD` is the 64 entries of `board[x][y]`, `x` major, comma-separated. `PLAYNOW` is the
//! number of seconds after which the host sets `*playnow` (a user pressing "Play" in
//! CheckerBoard), asking the engine to answer at once.

use std::ffi::{c_char, c_int, CStr, CString};
use std::io::{BufRead, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use super::child::{escape, unescape};
use checkers_engine::checkerboard::{Board8x8, REPLY_SIZE, STATUS_SIZE};
use checkers_engine::error::{Error, Result};

/// `getmove`, as `cb_interface.h` declares it (`__stdcall` on 32-bit Windows).
type GetMove = unsafe extern "system" fn(
    board: *mut Board8x8,
    color: c_int,
    maxtime: f64,
    status: *mut c_char,
    playnow: *mut c_int,
    info: c_int,
    moreinfo: c_int,
    cbmove: *mut CbMove,
) -> c_int;

/// `enginecommand`.
type EngineCommand = unsafe extern "system" fn(command: *const c_char, reply: *mut c_char) -> c_int;

/// `struct CBmove`: English engines need not fill it in; it is there for them to write to.
#[repr(C)]
struct CbMove {
    jumps: c_int,
    newpiece: c_int,
    oldpiece: c_int,
    from: [c_int; 2],
    to: [c_int; 2],
    path: [[c_int; 2]; 12],
    del: [[c_int; 2]; 12],
    delpiece: [c_int; 12],
}

/// The board as the conversation writes it.
pub(super) fn board_to_line(board: &Board8x8) -> String {
    let entries: Vec<String> = board.iter().flatten().map(i32::to_string).collect();
    entries.join(",")
}

/// A board the conversation wrote; `None` if it is not 64 integers.
pub(super) fn board_from_line(text: &str) -> Option<Board8x8> {
    let mut board = [[0; 8]; 8];
    let mut entries = text.split(',');
    for entry in board.iter_mut().flatten() {
        *entry = entries.next()?.trim().parse().ok()?;
    }
    entries.next().is_none().then_some(board)
}

/// Loads `library` and answers the parent on standard input and output until `quit` or the
/// end of input. A library that cannot be loaded, or lacks `getmove` or `enginecommand`, is
/// reported on standard output (`error …`) and as the error returned.
pub fn serve_checkerboard_library(library: &Path) -> Result<()> {
    let (input, output) = private_conversation()
        .map_err(|e| Error::io("keep", Path::new("the conversation's pipes"), &e))?;
    let mut out = std::io::LineWriter::new(output);
    // A bare file name is the file of that name in the current folder, as a user means it;
    // given to the loader as it stands, it would be looked for in the system's library path.
    let library = &loadable(library);
    // SAFETY: loading a library runs its initialisers; this process exists to take that risk.
    let loaded = unsafe { libloading::Library::new(library) };
    let functions = loaded.map_err(|e| e.to_string()).and_then(|lib| {
        // SAFETY: the symbols are taken with the types the CheckerBoard API gives them.
        let getmove = unsafe { lib.get::<GetMove>(b"getmove\0") }
            .map(|f| *f)
            .map_err(|_| "it exports no `getmove`".to_string())?;
        let command = unsafe { lib.get::<EngineCommand>(b"enginecommand\0") }
            .map(|f| *f)
            .map_err(|_| "it exports no `enginecommand`".to_string())?;
        Ok((lib, getmove, command))
    });
    let (_library, getmove, command) = match functions {
        Ok(f) => f,
        Err(message) => {
            let message = format!(
                "{}: not a CheckerBoard engine: {message}",
                library.display()
            );
            let _ = writeln!(out, "error {}", escape(&message));
            return Err(Error::input(message));
        }
    };
    let say = |out: &mut std::io::LineWriter<Box<dyn Write>>, line: &str| -> Result<()> {
        writeln!(out, "{line}")
            .and_then(|()| out.flush())
            .map_err(|e| Error::io("write", Path::new("standard output"), &e))
    };
    say(&mut out, "ready")?;
    let playnow = Arc::new(AtomicI32::new(0));
    for line in std::io::BufReader::new(input).lines() {
        let Ok(line) = line else { break };
        let (verb, rest) = line.split_once(' ').unwrap_or((line.as_str(), ""));
        match verb {
            "quit" => break,
            "command" => {
                let text = CString::new(unescape(rest)).unwrap_or_default();
                let mut reply = vec![0 as c_char; REPLY_SIZE + 1];
                // SAFETY: a NUL-terminated command and a reply buffer of the API's size.
                let value = unsafe { command(text.as_ptr(), reply.as_mut_ptr()) };
                let reply = c_text(&mut reply);
                say(&mut out, &format!("reply {value} {}", escape(&reply)))?;
            }
            "getmove" => {
                let Some(call) = GetMoveCall::parse(rest) else {
                    say(&mut out, "error a getmove line the host cannot read")?;
                    continue;
                };
                let mut board = call.board;
                let mut status = vec![0 as c_char; STATUS_SIZE + 1];
                let mut cbmove: CbMove = unsafe { std::mem::zeroed() };
                playnow.store(0, Ordering::SeqCst);
                let (cancel, cancelled) = mpsc::channel::<()>();
                let flag = Arc::clone(&playnow);
                let after = call.playnow_after;
                let watchdog = thread::spawn(move || {
                    if cancelled.recv_timeout(after).is_err() {
                        flag.store(1, Ordering::SeqCst);
                    }
                });
                // SAFETY: the buffers have the API's sizes; `playnow` is an `int` the engine
                // reads while the watchdog may set it (an atomic of the same layout).
                let value = unsafe {
                    getmove(
                        &mut board,
                        call.color,
                        call.maxtime,
                        status.as_mut_ptr(),
                        playnow.as_ptr(),
                        call.info,
                        call.moreinfo,
                        &mut cbmove,
                    )
                };
                let _ = cancel.send(());
                let _ = watchdog.join();
                let status = c_text(&mut status);
                say(
                    &mut out,
                    &format!(
                        "moved {value} {} {}",
                        board_to_line(&board),
                        escape(&status)
                    ),
                )?;
            }
            _ => say(&mut out, &format!("error unknown request {}", escape(verb)))?,
        }
    }
    Ok(())
}

/// `library` as the loader is to find it: a path without a folder is taken in the current
/// folder (`./NAME`), as every other file a command names is.
fn loadable(library: &Path) -> std::path::PathBuf {
    if library.components().count() == 1 && library.is_relative() {
        Path::new(".").join(library)
    } else {
        library.to_path_buf()
    }
}

/// The conversation's pipes, moved to descriptors of their own before the library is loaded:
/// standard input then reads nothing (`/dev/null`) and standard output goes where standard
/// error goes, so a library that prints, or closes either, cannot touch the conversation.
/// The new descriptors are closed on exec: a program the library starts does not hold them.
#[cfg(unix)]
fn private_conversation() -> std::io::Result<(Box<dyn Read>, Box<dyn Write>)> {
    use std::os::fd::FromRawFd;
    let check = |fd: i32| {
        if fd < 0 {
            Err(std::io::Error::last_os_error())
        } else {
            Ok(fd)
        }
    };
    // SAFETY: descriptor calls on this process's own standard descriptors; each new one is
    // owned by the File made of it and nothing else.
    unsafe {
        let input = check(libc::fcntl(0, libc::F_DUPFD_CLOEXEC, 3))?;
        let output = check(libc::fcntl(1, libc::F_DUPFD_CLOEXEC, 3))?;
        let null = check(libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY))?;
        check(libc::dup2(null, 0))?;
        libc::close(null);
        check(libc::dup2(2, 1))?;
        Ok((
            Box::new(std::fs::File::from_raw_fd(input)),
            Box::new(std::fs::File::from_raw_fd(output)),
        ))
    }
}

/// The conversation's pipes: elsewhere than on Unix, standard input and output as they are.
#[cfg(not(unix))]
fn private_conversation() -> std::io::Result<(Box<dyn Read>, Box<dyn Write>)> {
    Ok((Box::new(std::io::stdin()), Box::new(std::io::stdout())))
}

/// A `getmove` request's arguments.
struct GetMoveCall {
    color: c_int,
    maxtime: f64,
    info: c_int,
    moreinfo: c_int,
    playnow_after: Duration,
    board: Board8x8,
}

impl GetMoveCall {
    fn parse(text: &str) -> Option<GetMoveCall> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let [color, maxtime, info, moreinfo, playnow, board] = words[..] else {
            return None;
        };
        let playnow: f64 = playnow.parse().ok()?;
        Some(GetMoveCall {
            color: color.parse().ok()?,
            maxtime: maxtime.parse().ok()?,
            info: info.parse().ok()?,
            moreinfo: moreinfo.parse().ok()?,
            playnow_after: Duration::try_from_secs_f64(playnow).ok()?,
            board: board_from_line(board)?,
        })
    }
}

/// The text in a C buffer up to its first NUL (the last byte is made one, so an engine that
/// filled the buffer does not run past it), lossily as UTF-8.
fn c_text(buffer: &mut [c_char]) -> String {
    if let Some(last) = buffer.last_mut() {
        *last = 0;
    }
    // SAFETY: the buffer ends in a NUL.
    unsafe { CStr::from_ptr(buffer.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_engine::board::Position;
    use checkers_engine::checkerboard::board_from_position;

    #[test]
    fn boards_cross_the_pipe_unchanged() {
        let board = board_from_position(&Position::start());
        assert_eq!(board_from_line(&board_to_line(&board)), Some(board));
        assert_eq!(board_from_line("1,2,3"), None);
        let long = board_to_line(&board) + ",0";
        assert_eq!(board_from_line(&long), None);
    }
}
