//! Another program as a child process spoken to a line at a time: what a CheckerBoard library's
//! host and a Hub engine have in common, and the one place that keeps whatever a child does
//! from reaching the match.
//!
//! - Its answers are read by a thread of their own into a short queue, a line cut at
//!   [`MAX_LINE`] bytes: a child that floods its output fills the pipe and waits, and the match's
//!   memory stays a few MiB. A wait for an answer ends at its deadline even while lines keep
//!   coming, and after [`ANSWER_BUDGET`] bytes without the answer the child is killed.
//! - A write to a child that is gone fails as an error, never as SIGPIPE (which the binary
//!   leaves at its default, so that `| head` ends it): the signal is blocked in the writing
//!   thread and taken back.
//! - A child runs in a process group of its own, killed whole (its forked children with it)
//!   when it is dropped, killed, seen gone, and by [`kill_children`] when the match ends on a
//!   signal; on Linux the kernel kills it if the match itself dies.
//! - A child that exits is seen by its exit status even while a process it forked still holds
//!   its output open.

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// Longest answer line read; a longer one is cut (an engine's line is never near it).
const MAX_LINE: usize = 64 * 1024;
/// How many lines wait in the queue before the reading thread stops reading (and the child,
/// once the pipe is full, stops writing).
const QUEUE: usize = 64;
/// Bytes a child may write after a request without giving its answer: a Hub engine's `info`
/// lines over a long search are tens of KiB.
pub const ANSWER_BUDGET: usize = 1 << 20;
/// How often a wait looks whether the child has exited.
const POLL: Duration = Duration::from_millis(20);
/// How long a child that exited may take to deliver the lines it wrote before it exited.
const LAST_LINES: Duration = Duration::from_millis(200);

/// The process groups of the children alive (started and not yet reaped).
static LIVE: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

fn live() -> std::sync::MutexGuard<'static, BTreeSet<i32>> {
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Kills every child process group still alive (the programs and hosts of a match, and what
/// they forked): for a process about to end on a signal, which runs no destructors. The
/// children are left to be reaped by the process's end.
pub fn kill_children() {
    for &group in live().iter() {
        kill_group(group);
    }
}

/// Sends SIGKILL to process group `group`.
fn kill_group(group: i32) {
    #[cfg(unix)]
    // SAFETY: kill(2) with a negative pid signals that process group and touches no memory.
    unsafe {
        libc::kill(-group, libc::SIGKILL);
    }
}

/// Why no answer came.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Silence {
    /// Nothing within the time allowed (the child is killed).
    Timeout,
    /// The child closed its output: it exited or crashed, as the text says.
    Closed(String),
    /// The child wrote this many bytes without the answer (it is killed).
    Flood(usize),
}

impl std::fmt::Display for Silence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Silence::Timeout => f.write_str("no answer in time (killed)"),
            Silence::Closed(how) => write!(f, "it stopped: {how}"),
            Silence::Flood(bytes) => write!(
                f,
                "it wrote {} KiB without an answer (killed)",
                bytes / 1024
            ),
        }
    }
}

/// A running child process with its input and its output lines.
pub struct LineChild {
    child: Child,
    input: Option<ChildStdin>,
    /// Lines and how many bytes each took on the pipe.
    lines: Receiver<(String, usize)>,
    /// Bytes read since the last request sent.
    read: usize,
    /// Set once the child was killed or seen gone: nothing more is sent.
    gone: bool,
    /// Set once the child is reaped (its process group is no longer ours to signal).
    reaped: bool,
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
        // under way. The group is also what is killed, so nothing it forked outlives it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        #[cfg(target_os = "linux")]
        // SAFETY: between fork and exec only prctl(2), which is async-signal-safe.
        unsafe {
            std::os::unix::process::CommandExt::pre_exec(&mut command, || {
                // Killed when the thread that started it ends: the match killed (kill -9),
                // or a worker gone without dropping it.
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
        let mut groups = live();
        let mut child = command.spawn()?;
        groups.insert(child.id() as i32);
        drop(groups);
        let input = child.stdin.take();
        let output = child.stdout.take().expect("piped output");
        let (sender, lines) = mpsc::sync_channel(QUEUE);
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
                    Ok(n) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if sender.send((line, n)).is_err() {
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
            read: 0,
            gone: false,
            reaped: false,
        })
    }

    /// Sends one line (a request: the answer's byte budget starts again); a child that is
    /// gone is described as [`Silence::Closed`].
    pub fn send(&mut self, line: &str) -> Result<(), Silence> {
        if self.gone {
            return Err(Silence::Closed("the program had already stopped".into()));
        }
        self.read = 0;
        let text = format!("{line}\n");
        let written = self
            .input
            .as_mut()
            .map(|input| write_without_sigpipe(input, text.as_bytes()));
        match written {
            Some(Ok(())) => Ok(()),
            _ => Err(self.closed()),
        }
    }

    /// The next line, waiting at most `limit`; past it the child is killed.
    pub fn receive(&mut self, limit: Duration) -> Result<String, Silence> {
        self.receive_until(Instant::now() + limit)
    }

    /// The next line, waiting until `deadline` at most; past it the child is killed, as it is
    /// once it has written [`ANSWER_BUDGET`] bytes since the last request.
    pub fn receive_until(&mut self, deadline: Instant) -> Result<String, Silence> {
        if self.gone {
            return Err(Silence::Closed("the program had already stopped".into()));
        }
        loop {
            let now = Instant::now();
            if now >= deadline {
                self.kill();
                return Err(Silence::Timeout);
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok((line, bytes)) => return self.counted(line, bytes),
                Err(RecvTimeoutError::Disconnected) => return Err(self.closed()),
                Err(RecvTimeoutError::Timeout) => {
                    if !self.has_exited() {
                        continue;
                    }
                    // It exited: what it wrote first is still its answer; a process it forked
                    // may hold the pipe open, so its end is not waited for.
                    return match self.lines.recv_timeout(LAST_LINES) {
                        Ok((line, bytes)) => self.counted(line, bytes),
                        Err(_) => Err(self.closed()),
                    };
                }
            }
        }
    }

    /// A line read, counted against the budget.
    fn counted(&mut self, line: String, bytes: usize) -> Result<String, Silence> {
        self.read += bytes;
        if self.read > ANSWER_BUDGET {
            let read = self.read;
            self.kill();
            return Err(Silence::Flood(read));
        }
        Ok(line)
    }

    /// Whether the child has exited (it is not reaped: its group stays ours to kill).
    fn has_exited(&self) -> bool {
        #[cfg(unix)]
        {
            // SAFETY: waitid(2) with WNOWAIT only reads the child's state into `info`.
            unsafe {
                let mut info: libc::siginfo_t = std::mem::zeroed();
                let found = libc::waitid(
                    libc::P_PID,
                    self.child.id() as libc::id_t,
                    &mut info,
                    libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
                );
                found == 0 && info.si_pid() != 0
            }
        }
        #[cfg(not(unix))]
        false
    }

    /// Whether the child is known to be gone (killed, or its output closed).
    pub fn is_gone(&self) -> bool {
        self.gone
    }

    /// Kills the child and its process group and waits for it.
    pub fn kill(&mut self) {
        self.gone = true;
        self.input = None;
        self.reap(true);
    }

    /// Kills what is left of the child's group (the child too when `child`), waits for the
    /// child and forgets the group; its exit status.
    fn reap(&mut self, child: bool) -> Option<ExitStatus> {
        if self.reaped {
            return self.child.try_wait().ok().flatten();
        }
        let group = self.child.id() as i32;
        if child {
            let _ = self.child.kill();
        }
        kill_group(group);
        let status = self.child.wait().ok();
        live().remove(&group);
        self.reaped = true;
        status
    }

    /// The child closed its output or its input: waits for it (briefly: it may only have
    /// closed the pipe), kills its group and says how it ended.
    fn closed(&mut self) -> Silence {
        self.gone = true;
        self.input = None;
        let deadline = Instant::now() + Duration::from_millis(500);
        while !self.has_exited() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(5));
        }
        let exited = self.has_exited();
        match self.reap(!exited) {
            Some(status) if exited => Silence::Closed(describe_exit(status)),
            _ => Silence::Closed("it closed its input or output".into()),
        }
    }
}

impl Drop for LineChild {
    fn drop(&mut self) {
        if self.reaped {
            return;
        }
        if !self.gone {
            // Closing its input asks a well-behaved child to stop; then it is made to.
            self.input = None;
            for _ in 0..20 {
                if self.has_exited() {
                    break;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
        self.reap(true);
    }
}

/// Writes `bytes` and flushes, with SIGPIPE blocked in this thread: a reader that is gone is
/// an error (EPIPE), and the signal the kernel raised for it is taken back before the thread's
/// mask is restored, so it is never delivered.
fn write_without_sigpipe(input: &mut ChildStdin, bytes: &[u8]) -> std::io::Result<()> {
    #[cfg(unix)]
    // SAFETY: sigset operations on local sets; pthread_sigmask and sigtimedwait act on this
    // thread alone.
    unsafe {
        let mut pipe: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pipe);
        libc::sigaddset(&mut pipe, libc::SIGPIPE);
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::pthread_sigmask(libc::SIG_BLOCK, &pipe, &mut old);
        let result = input.write_all(bytes).and_then(|()| input.flush());
        let was_blocked = libc::sigismember(&old, libc::SIGPIPE) == 1;
        if result.is_err() && !was_blocked {
            let now = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            while libc::sigtimedwait(&pipe, std::ptr::null_mut(), &now) == libc::SIGPIPE {}
        }
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        result
    }
    #[cfg(not(unix))]
    input.write_all(bytes).and_then(|()| input.flush())
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
