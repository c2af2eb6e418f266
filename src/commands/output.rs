//! Writing to standard output and standard error without panicking.
//!
//! `println!` panics when standard output cannot be written (`> /dev/full`, a full disk), and
//! `eprintln!` does the same for standard error. A command's results go through [`outln!`] and
//! [`out!`] instead, whose failure is an ordinary error (exit status 1, "cannot write to
//! standard output"); messages on standard error go through [`note!`], which drops what cannot
//! be written, so that an unwritable standard error never changes how a command ends. A closed
//! pipe ends the process quietly by SIGPIPE, as other Unix tools do (`main`).

use std::fmt;
use std::io::{self, Write};

use checkers_engine::error::{Error, Result};

/// Writes one line of a command's result to standard output; `?` on the result passes a failed
/// write on as an error.
macro_rules! outln {
    () => {
        $crate::commands::output::write_out(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::commands::output::write_out(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// Writes a command's result to standard output without a newline (a prompt, a diagram).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::commands::output::write_out(format_args!($($arg)*))
    };
}

/// Writes one line to standard error (progress, warnings); a failed write is dropped.
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::commands::output::write_note(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {note, out, outln};

/// Writes `args` to standard output.
pub fn write_out(args: fmt::Arguments) -> Result<()> {
    io::stdout().lock().write_fmt(args).map_err(stdout_error)
}

/// Writes raw bytes (an exported file, a completion script) to standard output and flushes.
pub fn write_out_bytes(bytes: &[u8]) -> Result<()> {
    let mut stdout = io::stdout().lock();
    stdout
        .write_all(bytes)
        .and_then(|()| stdout.flush())
        .map_err(stdout_error)
}

/// Flushes standard output: a write that failed only when the buffer was emptied is reported
/// here rather than lost at exit.
pub fn flush_out() -> Result<()> {
    io::stdout().lock().flush().map_err(stdout_error)
}

/// Writes `args` to standard error, dropping a failure: there is nowhere left to report it.
pub fn write_note(args: fmt::Arguments) {
    let _ = io::stderr().lock().write_fmt(args);
}

/// The error of a failed write to standard output.
pub fn stdout_error(err: io::Error) -> Error {
    Error::failure(format!("cannot write to standard output: {err}"))
}
