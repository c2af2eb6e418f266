//! The `checkers-tuner` command line: parse, run, report.

mod cli;
mod commands;

use clap::Parser;

fn main() {
    restore_default_sigpipe();
    let args = cli::Cli::parse();
    if let Err(err) = cli::run(args) {
        eprintln!("Error: {err}");
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
