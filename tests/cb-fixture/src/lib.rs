//! A CheckerBoard engine library for the tests: it plays the first legal move, and misbehaves
//! as the environment variable `CB_FIXTURE` of the process that loads it says:
//!
//! - `crash:N`: dies of SIGSEGV (a write through a null pointer) at its N-th `getmove`;
//! - `hang`: never returns from `getmove`;
//! - `illegal`: answers with a board no legal move reaches (a piece added);
//! - `italian`: answers `get gametype` with 22;
//! - `unchanged`: returns the board as it was given;
//! - `exit-after:N`: its host exits a moment after its N-th `getmove` has answered (the match's
//!   next request then finds it gone);
//! - `close-stdio`: closes standard input and output at its first `getmove`, then plays on;
//! - `print`: prints a line to standard output at every call (the host's conversation is
//!   elsewhere);
//! - `spin`: never returns from `getmove`, ignoring `playnow`, busy;
//! - `fork`: starts `sleep 300` at its first `getmove` (a process of its own that must not
//!   outlive the match), then plays on;
//! - `name`: answers `name` with line breaks, a carriage return, an escape sequence and a tab;
//! - `hang-gamehist`: never returns from `enginecommand("set gamehist …")`.

use std::ffi::{c_char, c_int, c_void, CStr};
use std::sync::atomic::{AtomicU32, Ordering};

use checkers_engine::checkerboard::{
    board_from_position, color_of_code, position_from_board, write_c_string, Board8x8, CB_BLACK,
    CB_MAN, CB_UNKNOWN, REPLY_SIZE,
};

static CALLS: AtomicU32 = AtomicU32::new(0);

fn behaviour() -> String {
    std::env::var("CB_FIXTURE").unwrap_or_default()
}

/// `enginecommand`: `name` and `get gametype` only.
///
/// # Safety
///
/// As CheckerBoard calls it.
#[no_mangle]
pub unsafe extern "system" fn enginecommand(command: *const c_char, reply: *mut c_char) -> c_int {
    let command = CStr::from_ptr(command).to_string_lossy();
    if behaviour() == "hang-gamehist" && command.starts_with("set gamehist") {
        loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
    }
    if behaviour() == "print" {
        println!("a line on standard output from enginecommand");
    }
    let answer = match command.as_ref() {
        "name" if behaviour() == "name" => "evil\nname\r\u{1b}[2J\u{1b}]0;title\u{7}\tend".into(),
        "name" => format!("fixture {}", behaviour()),
        "get gametype" if behaviour() == "italian" => "22".into(),
        "get gametype" => "21".into(),
        _ => return 0,
    };
    write_c_string(reply, REPLY_SIZE, &answer);
    1
}

/// `getmove`: the first legal move, unless told to misbehave.
///
/// # Safety
///
/// As CheckerBoard calls it.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn getmove(
    board: *mut Board8x8,
    color: c_int,
    _maxtime: f64,
    _status: *mut c_char,
    _playnow: *mut c_int,
    _info: c_int,
    _moreinfo: c_int,
    _cbmove: *mut c_void,
) -> c_int {
    let call = CALLS.fetch_add(1, Ordering::SeqCst) + 1;
    let behaviour = behaviour();
    if let Some(n) = behaviour.strip_prefix("crash:") {
        if n.parse() == Ok(call) {
            let null: *mut c_int = std::ptr::null_mut();
            std::ptr::write_volatile(null, 1);
        }
    }
    if let Some(n) = behaviour.strip_prefix("exit-after:") {
        if n.parse() == Ok(call) {
            std::thread::spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(50));
                std::process::exit(0);
            });
        }
    }
    match behaviour.as_str() {
        "hang" => loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        },
        "spin" => {
            let mut x = 0u64;
            loop {
                x = std::hint::black_box(x.wrapping_add(1));
            }
        }
        "print" => println!("a line on standard output from getmove"),
        "close-stdio" if call == 1 => {
            libc::close(0);
            libc::close(1);
        }
        "fork" if call == 1 => {
            let _ = std::process::Command::new("sleep").arg("300").spawn();
        }
        "unchanged" => return CB_UNKNOWN,
        _ => {}
    }
    let side = color_of_code(color).expect("a colour");
    let pos = position_from_board(&*board, side).expect("a position");
    let mv = pos.legal_moves().iter().next().copied().expect("a move");
    let mut after = board_from_position(&pos.play(&mv));
    if behaviour == "illegal" {
        // A black man appears on an empty dark square.
        let empty = (0..8)
            .flat_map(|x| (0..7).map(move |y| (x, y)))
            .find(|&(x, y)| (x + y) % 2 == 0 && after[x][y] == 0);
        if let Some((x, y)) = empty {
            after[x][y] = CB_BLACK | CB_MAN;
        }
    }
    *board = after;
    CB_UNKNOWN
}
