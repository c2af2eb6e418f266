//! The `checkers-tuner` command line: parse, run, report.

mod cli;
mod commands;

use clap::Parser;

use commands::output;

fn main() {
    restore_default_sigpipe();
    commands::interrupt::install();
    let args = cli::Cli::parse();
    if let Err(err) = cli::run(args).and_then(|()| output::flush_out()) {
        // The exit status says what went wrong even when stderr cannot take the message: a
        // closed pipe there must not end the process by SIGPIPE before it exits with it.
        ignore_sigpipe();
        output::note!("Error: {err}");
        std::process::exit(err.exit_code());
    }
}

/// Rust ignores SIGPIPE, which turns `checkers-tuner moves … | head -1` into a panic on the
/// next write; like other command-line tools, end quietly when the reader goes away.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any other thread exists; it only resets a
    // signal disposition to the system default.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Ignores SIGPIPE again, so that a write to a closed pipe fails instead of ending the process.
fn ignore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: only changes a signal disposition; no handler runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
    }
}
