//! Another program as a child process spoken to a line at a time: what a CheckerBoard library's
//! host and a Hub engine have in common. Its answers are read by a thread of their own, so a
//! wait for one can end at a deadline; a child that hangs is killed, and one that crashes is
//! seen as its closed output and its exit status.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

/// Longest answer line read; a longer one is cut (an engine's line is never near it).
const MAX_LINE: usize = 64 * 1024;

/// Why no answer came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Silence {
    /// Nothing within the time allowed (the child is killed).
    Timeout,
    /// The child closed its output: it exited or crashed, as the text says.
    Closed(String),
}

impl std::fmt::Display for Silence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Silence::Timeout => f.write_str("no answer in time (killed)"),
            Silence::Closed(how) => write!(f, "it stopped: {how}"),
        }
    }
}

/// A running child process with its input and its output lines.
pub struct LineChild {
    child: Child,
    input: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Set once the child was killed or seen gone: nothing more is sent.
    gone: bool,
}

impl LineChild {
    /// Starts `command` with piped input and output (its errors go nowhere: an engine's
    /// chatter must not mix with ours).
    pub fn spawn(mut command: Command) -> std::io::Result<LineChild> {
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // A group of its own: a Ctrl-C at the terminal stops the match, which ends its
        // games and then its children; reaching them directly, it would crash every game
        // under way.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn()?;
        let input = child.stdin.take();
        let output = child.stdout.take().expect("piped output");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(output);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader
                    .by_ref()
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut buf)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Ok(LineChild {
            child,
            input,
            lines,
            gone: false,
        })
    }

    /// Sends one line; a child that is gone is described as [`Silence::Closed`].
    pub fn send(&mut self, line: &str) -> Result<(), Silence> {
        if self.gone {
            return Err(Silence::Closed("the program had already stopped".into()));
        }
        let written = self
            .input
            .as_mut()
            .map(|input| writeln!(input, "{line}").and_then(|()| input.flush()));
        match written {
            Some(Ok(())) => Ok(()),
            _ => Err(self.closed()),
        }
    }

    /// The next line, waiting at most `limit`; past it the child is killed.
    pub fn receive(&mut self, limit: Duration) -> Result<String, Silence> {
        match self.lines.recv_timeout(limit) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                self.kill();
                Err(Silence::Timeout)
            }
            Err(RecvTimeoutError::Disconnected) => Err(self.closed()),
        }
    }

    /// Whether the child is known to be gone (killed, or its output closed).
    pub fn is_gone(&self) -> bool {
        self.gone
    }

    /// Kills the child and waits for it.
    pub fn kill(&mut self) {
        self.gone = true;
        self.input = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The child closed its output: waits for it (briefly: it may only have closed the pipe)
    /// and says how it ended.
    fn closed(&mut self) -> Silence {
        self.gone = true;
        self.input = None;
        for _ in 0..50 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Silence::Closed(describe_exit(status));
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.kill();
        Silence::Closed("it closed its output".into())
    }
}

impl Drop for LineChild {
    fn drop(&mut self) {
        if !self.gone {
            // Closing its input asks a well-behaved child to stop; then it is made to.
            self.input = None;
            for _ in 0..20 {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How a process ended, in words: `exited with status 3`, `killed by signal 11 (SIGSEGV)`.
pub fn describe_exit(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                4 => " (SIGILL)",
                6 => " (SIGABRT)",
                7 => " (SIGBUS)",
                8 => " (SIGFPE)",
                9 => " (SIGKILL)",
                11 => " (SIGSEGV)",
                15 => " (SIGTERM)",
                _ => "",
            };
            return format!("it was killed by signal {signal}{name}");
        }
    }
    match status.code() {
        Some(code) => format!("it exited with status {code}"),
        None => "it ended".to_string(),
    }
}

/// A line's text with `\`, line breaks and carriage returns escaped, so any reply or status
/// fits on one line of the host's conversation.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// The text [`escape`] wrote.
pub fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_text_comes_back() {
        for text in ["", "plain", "two\nlines\r\n", "back\\slash\\n", "\\"] {
            let escaped = escape(text);
            assert!(!escaped.contains('\n'));
            assert_eq!(unescape(&escaped), text);
        }
    }
}
