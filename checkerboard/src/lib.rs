//! checkers-tuner's engine as a CheckerBoard engine library: the two functions CheckerBoard
//! (the GUI of English checkers) calls, `getmove` and `enginecommand`, over the `checkers_engine`
//! library. Built as `libcheckers_tuner_cb.so` (Linux), `.dylib` (macOS) or
//! `checkers_tuner_cb.dll` (Windows); `docs/engines.md` says how to build and install it.
//!
//! It plays with the selective search of the weights it has: a weights file written by
//! checkers-tuner (`set weights PATH`, with the file's `search` table), by default the file
//! `checkers-tuner.json` beside the library, else the champion built in (`weights/hour.json`
//! of the repository); `set NAME VALUE` changes one of the selective search's integer keys
//! (`lmr_depth`, `futility_margin`, …) over the file's, as `checkers-tuner spsa` tunes an
//! engine's options. It searches
//! with the 5-piece endgame database when checkers-tuner's cache already holds it (it never
//! builds one), knows the game's repetitions from `set gamehist`, and spends `maxtime` as
//! CheckerBoard means it: an average over the game (what a forced or easy move saves goes to
//! the next ones, as `match --movetime` spends it), a hard move taking up to twice it.

use std::ffi::{c_char, c_int, CStr};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use checkers_engine::board::Position;
use checkers_engine::checkerboard::{
    board_from_position, color_of_code, incremental_times, position_from_board, read_gamehist,
    write_c_string, Board8x8, CB_LOSS, CB_RESET_MOVES, CB_UNKNOWN, CB_WIN, GT_ENGLISH, REPLY_SIZE,
    STATUS_SIZE,
};
use checkers_engine::egdb::{
    cache_dir as endgame_cache_dir, database_path as endgame_db_path, EndgameDb,
};
use checkers_engine::game::{Player, SearchMode, SearchParams};
use checkers_engine::search::{
    gene_index, gene_value, GameHistory, Gene, SearchBudget, Searcher, SelectiveParams, TimeBank,
    GENE_KEYS,
};
use checkers_engine::weights_file::WeightsFile;

/// The weights file looked for beside the library when `set weights` names none.
pub const DEFAULT_WEIGHTS_FILE: &str = "checkers-tuner.json";
/// The endgame database used when the cache holds it.
const DATABASE_PIECES: u32 = 5;
/// The transposition table's size at start, in MiB.
const DEFAULT_HASH_MIB: u32 = 16;
/// Captures are followed this many plies past each full-width depth (the `[search]` default).
const CAPTURE_EXTENSION: u32 = 6;

/// The engine between calls.
struct Engine {
    weights: WeightsFile,
    /// Where the weights came from (`built in` for the champion).
    weights_origin: String,
    /// The selective keys `set NAME VALUE` gave, in [`GENE_KEYS`] order, over the weights
    /// file's `search` table (`None`: the file's); `set weights` drops them.
    overrides: [Option<u32>; GENE_KEYS.len()],
    hash_mib: u32,
    searcher: Option<Searcher>,
    /// `set gamehist`'s positions, the last one the position of the next `getmove`.
    history: Vec<Position>,
    database: Option<&'static EndgameDb>,
    /// The game's time account at `maxtime` a move, opened again at each new game
    /// (`CB_RESET_MOVES`).
    bank: TimeBank,
}

static ENGINE: Mutex<Option<Engine>> = Mutex::new(None);

/// Runs `f` on the engine, made on the first call.
fn with_engine<T>(f: impl FnOnce(&mut Engine) -> T) -> T {
    let mut guard = ENGINE.lock().unwrap_or_else(PoisonError::into_inner);
    let engine = guard.get_or_insert_with(Engine::new);
    f(engine)
}

impl Engine {
    fn new() -> Engine {
        let (weights, weights_origin) = default_weights();
        let database = endgame_cache_dir()
            .ok()
            .map(|dir| endgame_db_path(&dir, DATABASE_PIECES))
            .filter(|path| path.is_file())
            .and_then(|path| EndgameDb::load(&path, DATABASE_PIECES).ok())
            .map(|db| &*Box::leak(Box::new(db)));
        Engine {
            weights,
            weights_origin,
            overrides: [None; GENE_KEYS.len()],
            hash_mib: DEFAULT_HASH_MIB,
            searcher: None,
            history: Vec::new(),
            database,
            bank: TimeBank::default(),
        }
    }

    /// The searcher, made for the current weights and table size if it is not yet (it is made
    /// by `enginecommand`, so that the first timed `getmove` does not pay for the table).
    fn searcher(&mut self) -> &mut Searcher {
        if self.searcher.is_none() {
            self.make_searcher();
        }
        self.searcher.as_mut().expect("made")
    }

    /// Makes the searcher, with the largest table up to `hash_mib` that this host can hold
    /// (`hash_mib` is then what it holds), the old one dropped first.
    fn make_searcher(&mut self) {
        self.searcher = None;
        let bits = affordable_bits(table_bits(self.hash_mib), affordable_bytes());
        self.hash_mib = ((TABLE_ENTRY_BYTES << bits) >> 20).max(1) as u32;
        let mut searcher = Searcher::new(bits);
        searcher.set_endgame_db(self.database);
        searcher.set_selective(Some(self.selective()));
        self.searcher = Some(searcher);
    }

    /// The selective search of the current weights' `search` table, with the keys `set`
    /// gave in place of the file's.
    fn selective(&self) -> SelectiveParams {
        let table = self.weights.search.unwrap_or_default();
        let mut params = SearchParams {
            mode: SearchMode::Selective,
            ..table
        }
        .selective()
        .unwrap_or_default();
        for (index, value) in self.overrides.iter().enumerate() {
            if let Some(value) = value {
                Gene::whole(index).set(&mut params, *value);
            }
        }
        params
    }

    /// `get NAME` (`set` false) or `set NAME VALUE` of the selective key `index` of
    /// [`GENE_KEYS`]: its value now, or the new one, checked against its range (a value
    /// outside it is refused with the range, and the key keeps its value).
    fn gene_command(&mut self, set: bool, index: usize, value: &str) -> Result<String, String> {
        let key = GENE_KEYS[index];
        if set {
            self.overrides[index] = Some(gene_value(index, value)?);
            let selective = self.selective();
            // The table stays: its values are the same weights', searched a little otherwise.
            if let Some(searcher) = &mut self.searcher {
                searcher.set_selective(Some(selective));
            }
        }
        let now = Gene::whole(index).get(&self.selective());
        Ok(if set {
            format!("{key} {now}")
        } else {
            now.to_string()
        })
    }

    /// The positions before `pos` since the last irreversible move, from `set gamehist` when
    /// it led to `pos`.
    fn history_before(&self, pos: &Position) -> Vec<Position> {
        match self.history.split_last() {
            Some((last, before)) if last == pos => before.to_vec(),
            _ => Vec::new(),
        }
    }

    /// Answers one `enginecommand`: `Ok` with the reply, `Err` with why it was refused (a
    /// weights file that cannot be read, a history that does not replay); `None` for a command
    /// it does not know.
    fn command(&mut self, text: &str) -> Option<Result<String, String>> {
        let ok = |reply: String| Some(Ok(reply));
        let text = text.trim();
        let (verb, rest) = text.split_once(' ').unwrap_or((text, ""));
        let (key, value) = rest.trim().split_once(' ').unwrap_or((rest.trim(), ""));
        let value = value.trim();
        match (verb, key) {
            ("name", _) => ok(format!("checkers-tuner {}", env!("CARGO_PKG_VERSION"))),
            ("about", _) => ok(format!(
                "checkers-tuner {}\nAn English-checkers engine whose evaluation is tuned by \
                 evolution.\nWeights: {}\nEndgame database: {}",
                env!("CARGO_PKG_VERSION"),
                self.weights_origin,
                if self.database.is_some() {
                    "5 pieces"
                } else {
                    "none"
                }
            )),
            ("help", _) => ok(String::new()),
            ("get", "protocolversion") => ok("2".into()),
            ("get", "gametype") => ok(GT_ENGLISH.to_string()),
            ("get", "hashsize") => ok(self.hash_mib.to_string()),
            ("set", "hashsize") => {
                let Some(mib) = value.parse().ok().filter(|m: &u32| (1..=4096).contains(m)) else {
                    return Some(Err(format!("hashsize {value:?}: expected 1 to 4096 (MiB)")));
                };
                // Made now, outside any timed call, and only as large as the host can hold.
                self.hash_mib = mib;
                self.make_searcher();
                if self.hash_mib < mib {
                    ok(format!(
                        "hashsize {} ({mib} MiB do not fit in this host's memory)",
                        self.hash_mib
                    ))
                } else {
                    ok(format!("hashsize {mib}"))
                }
            }
            ("get", "book") => ok("0".into()),
            ("set", "book") => ok("no book: checkers-tuner plays without one".into()),
            ("get", "weights") => ok(self.weights_origin.clone()),
            ("set", "weights") => Some(match WeightsFile::load(Path::new(value)) {
                Ok(file) => {
                    self.weights = file;
                    self.weights_origin = value.to_string();
                    // The file's search is played as it stands: what `set` gave was for the
                    // old one.
                    self.overrides = [None; GENE_KEYS.len()];
                    let selective = self.selective();
                    // The same table, emptied: its values were the old weights'.
                    if let Some(searcher) = &mut self.searcher {
                        searcher.clear();
                        searcher.set_selective(Some(selective));
                    }
                    Ok(format!("weights {value}"))
                }
                Err(e) => Err(format!("weights: {e}")),
            }),
            ("set", "gamehist") => Some(match read_gamehist(rest.trim_start_matches("gamehist")) {
                Ok(positions) => {
                    self.history = positions;
                    Ok("gamehist".into())
                }
                Err(e) => {
                    self.history.clear();
                    Err(format!("gamehist: {e}"))
                }
            }),
            (verb @ ("get" | "set"), key) => {
                let index = gene_index(key)?;
                Some(self.gene_command(verb == "set", index, value))
            }
            _ => None,
        }
    }
}

/// The bytes of one transposition-table entry.
const TABLE_ENTRY_BYTES: u64 = 16;
/// The smallest table, in bits of entries (16 KiB).
const MIN_TABLE_BITS: u32 = 10;

/// The table's size in bits of entries for `mib` MiB (the largest power of two within it).
fn table_bits(mib: u32) -> u32 {
    let entries = (u64::from(mib.max(1)) << 20) / TABLE_ENTRY_BYTES;
    (63 - entries.leading_zeros()).clamp(MIN_TABLE_BITS, 30)
}

/// `bits`, or fewer, so that the table takes at most `affordable` bytes and its allocation
/// succeeds (tried first, with room to spare, and given back: a table that cannot be had is
/// a smaller table, never an abort of CheckerBoard's process).
fn affordable_bits(mut bits: u32, affordable: u64) -> u32 {
    while bits > MIN_TABLE_BITS && TABLE_ENTRY_BYTES << bits > affordable {
        bits -= 1;
    }
    while bits > MIN_TABLE_BITS {
        let bytes = (TABLE_ENTRY_BYTES << bits) + (64 << 20);
        let mut probe: Vec<u8> = Vec::new();
        if usize::try_from(bytes).is_ok_and(|b| probe.try_reserve_exact(b).is_ok()) {
            break;
        }
        bits -= 1;
    }
    bits
}

/// What a table may take of this host: half of the memory available, and of the address
/// space left under the process's limit (a 32-bit CheckerBoard has 2 GiB in all).
fn affordable_bytes() -> u64 {
    let mut bytes = if cfg!(target_pointer_width = "32") {
        1 << 30
    } else {
        u64::MAX
    };
    #[cfg(target_os = "linux")]
    {
        let field = |file: &str, key: &str| -> Option<u64> {
            let text = std::fs::read_to_string(file).ok()?;
            let line = text.lines().find(|l| l.starts_with(key))?;
            line[key.len()..].split_whitespace().next()?.parse().ok()
        };
        if let Some(kib) = field("/proc/meminfo", "MemAvailable:") {
            bytes = bytes.min(kib * 1024 / 2);
        }
        if let Some(limit) = field("/proc/self/limits", "Max address space") {
            let used = field("/proc/self/status", "VmSize:").unwrap_or(0) * 1024;
            bytes = bytes.min(limit.saturating_sub(used) / 2);
        }
    }
    bytes
}

/// The weights used until `set weights`: [`DEFAULT_WEIGHTS_FILE`] beside the library when it
/// is there and readable, else the champion built in, so that a user who installs the library
/// alone plays the strongest weights measured.
fn default_weights() -> (WeightsFile, String) {
    if let Some(path) = library_folder().map(|dir| dir.join(DEFAULT_WEIGHTS_FILE)) {
        if path.is_file() {
            if let Ok(file) = WeightsFile::load(&path) {
                return (file, path.display().to_string());
            }
        }
    }
    (
        WeightsFile::champion(),
        "the champion (built in: weights/hour.json)".to_string(),
    )
}

/// The folder of this library's file.
#[cfg(unix)]
fn library_folder() -> Option<PathBuf> {
    let mut info: libc_dl::DlInfo = unsafe { std::mem::zeroed() };
    // SAFETY: dladdr reads the address of one of this library's functions.
    let found = unsafe { libc_dl::dladdr(getmove as *const std::ffi::c_void, &mut info) };
    if found == 0 || info.dli_fname.is_null() {
        return None;
    }
    // SAFETY: dladdr's file name is a NUL-terminated string it owns.
    let name = unsafe { CStr::from_ptr(info.dli_fname) };
    Path::new(&*name.to_string_lossy())
        .parent()
        .map(Path::to_path_buf)
}

/// The folder of this library's file: on Windows, CheckerBoard's own `engines` folder (its
/// working folder is CheckerBoard's).
#[cfg(not(unix))]
fn library_folder() -> Option<PathBuf> {
    Some(PathBuf::from("engines"))
}

#[cfg(unix)]
mod libc_dl {
    use std::ffi::{c_char, c_int, c_void};

    /// `Dl_info`.
    #[repr(C)]
    pub struct DlInfo {
        pub dli_fname: *const c_char,
        pub dli_fbase: *mut c_void,
        pub dli_sname: *const c_char,
        pub dli_saddr: *mut c_void,
    }

    extern "C" {
        pub fn dladdr(addr: *const c_void, info: *mut DlInfo) -> c_int;
    }
}

/// CheckerBoard's `enginecommand`: answers `name`, `about`, `help`, `get protocolversion`,
/// `get gametype` (21), `get`/`set hashsize` (MiB), `get`/`set book` (no book),
/// `get`/`set weights PATH` (which drops the keys `set` gave), `set gamehist`, and
/// `get NAME`/`set NAME VALUE` for each of the selective search's integer keys
/// (`lmr_depth`, `lmr_moves`, `lmr_reduction`, `futility_depth`, `futility_margin`,
/// `aspiration`), returning 1; returns 0 with the reason for a value it refuses (a weights
/// file it cannot read, a key's value outside its range, say), and 0 for anything else.
///
/// # Safety
///
/// `command` must be a NUL-terminated string and `reply` a buffer of 1024 bytes, as
/// CheckerBoard passes them.
#[no_mangle]
pub unsafe extern "system" fn enginecommand(command: *const c_char, reply: *mut c_char) -> c_int {
    if command.is_null() {
        return 0;
    }
    let text = CStr::from_ptr(command).to_string_lossy().into_owned();
    let answer = std::panic::catch_unwind(|| {
        with_engine(|engine| {
            let answer = engine.command(&text);
            // The table is made before the first getmove, whose time it would take.
            engine.searcher();
            answer
        })
    });
    match answer {
        Ok(Some(Ok(answer))) => {
            write_c_string(reply, REPLY_SIZE, &answer);
            1
        }
        Ok(Some(Err(why))) => {
            write_c_string(reply, REPLY_SIZE, &format!("error: {why}"));
            0
        }
        _ => {
            write_c_string(reply, REPLY_SIZE, "?");
            0
        }
    }
}

/// CheckerBoard's `getmove`: plays the best move it finds in `board` for `color` within about
/// `maxtime` seconds on average (the incremental-time bits of `info` and `moreinfo` when set),
/// stopping early once `*playnow` is set, and writes the board after it. Returns `CB_WIN` or
/// `CB_LOSS` for a win or loss the search proved, `CB_LOSS` without touching the board when
/// `color` has no move, else `CB_UNKNOWN`.
///
/// # Safety
///
/// Pointers as CheckerBoard passes them: `board` an `int[8][8]`, `status` 1024 bytes,
/// `playnow` an `int` that may change while the search runs; `cbmove` is not written.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn getmove(
    board: *mut Board8x8,
    color: c_int,
    maxtime: f64,
    status: *mut c_char,
    playnow: *mut c_int,
    info: c_int,
    moreinfo: c_int,
    _cbmove: *mut c_void_move,
) -> c_int {
    if board.is_null() {
        return CB_UNKNOWN;
    }
    let Some(side) = color_of_code(color) else {
        write_c_string(status, STATUS_SIZE, "not a colour");
        return CB_UNKNOWN;
    };
    let pos = match position_from_board(&*board, side) {
        Ok(pos) => pos,
        Err(e) => {
            write_c_string(status, STATUS_SIZE, &format!("not a position: {e}"));
            return CB_UNKNOWN;
        }
    };
    if pos.is_lost() {
        write_c_string(status, STATUS_SIZE, "no move");
        return CB_LOSS;
    }
    let started = Instant::now();
    let clock = incremental_times(info, moreinfo);
    let average = match clock {
        // A 25th of the clock plus most of the increment, as our own clock games plan.
        Some((increment, remaining)) => (remaining / 25.0 + increment * 0.75).min(remaining / 3.0),
        None => maxtime,
    };
    let average = Duration::try_from_secs_f64(average.max(0.001)).unwrap_or(Duration::from_secs(1));
    let stop = Arc::new(AtomicBool::new(false));
    let mut budget = SearchBudget::average_time(average, CAPTURE_EXTENSION, started);
    budget.stop = Some(Arc::clone(&stop));
    // At a fixed time a move, the game's account lends what earlier moves saved (the hard
    // deadline stays at twice `maxtime`); a clock's share is planned afresh every move.
    let banked = clock.is_none();
    if banked {
        let target = with_engine(|engine| {
            if info & CB_RESET_MOVES != 0 {
                engine.bank = TimeBank::default();
            }
            engine.bank.target(average)
        });
        if let Some(time) = &mut budget.time {
            time.target = target;
        }
    }
    // "Play now": a watcher turns CheckerBoard's flag into the search's stop flag.
    let done = Arc::new(AtomicBool::new(false));
    let watcher = (!playnow.is_null()).then(|| {
        let flag = playnow as usize;
        let (stop, done) = (Arc::clone(&stop), Arc::clone(&done));
        thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                // SAFETY: CheckerBoard keeps `playnow` alive during the call, and the watcher
                // ends before the call returns.
                if unsafe { std::ptr::read_volatile(flag as *const c_int) } != 0 {
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                thread::sleep(Duration::from_millis(2));
            }
        })
    });
    let found = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        with_engine(|engine| {
            let before = engine.history_before(&pos);
            let history = GameHistory {
                positions: &before,
                no_progress_plies: Some(80),
            };
            let weights = engine.weights.clone();
            let player = Player::of_file(&weights);
            let evaluator = player.evaluator(&pos);
            let found = engine
                .searcher()
                .search_timed(&pos, &history, evaluator, &budget, |_| {});
            if banked {
                engine.bank.spent(average, started.elapsed());
            }
            found
        })
    }));
    done.store(true, Ordering::Relaxed);
    if let Some(watcher) = watcher {
        let _ = watcher.join();
    }
    let Ok(found) = found else {
        write_c_string(status, STATUS_SIZE, "internal error");
        return CB_UNKNOWN;
    };
    let Some(mv) = found.best_move else {
        return CB_LOSS;
    };
    *board = board_from_position(&pos.play(&mv));
    let score = match found.mate_distance() {
        Some(plies) => format!(
            "{} in {}",
            if plies > 0 { "win" } else { "loss" },
            plies.abs()
        ),
        None => format!("{:+.2}", f64::from(found.score) / 100.0),
    };
    write_c_string(
        status,
        STATUS_SIZE,
        &format!(
            "checkers-tuner: {mv} score {score} depth {} nodes {} time {:.2}s",
            found.depth,
            found.nodes,
            started.elapsed().as_secs_f64()
        ),
    );
    match found.mate_distance() {
        Some(plies) if plies > 0 => CB_WIN,
        Some(_) => CB_LOSS,
        None => CB_UNKNOWN,
    }
}

/// `struct CBmove`, which English engines leave alone: only its address is passed.
#[allow(non_camel_case_types)]
pub type c_void_move = std::ffi::c_void;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_selective_key_is_set_read_back_checked_and_reset_by_set_weights() {
        let mut engine = Engine::new();
        assert_eq!(
            engine.command("set lmr_depth 7"),
            Some(Ok("lmr_depth 7".into()))
        );
        assert_eq!(engine.command("get lmr_depth"), Some(Ok("7".into())));
        assert_eq!(engine.searcher().selective().map(|p| p.lmr_depth), Some(7));
        // Out of its range: refused with the range, and the key keeps its value.
        let refused = engine.command("set lmr_depth 0").unwrap().unwrap_err();
        assert!(refused.contains("from 1 to 40"), "{refused}");
        assert!(engine.command("set futility_margin -3").unwrap().is_err());
        assert_eq!(engine.command("get lmr_depth"), Some(Ok("7".into())));
        // Not a key: not handled.
        assert_eq!(engine.command("set history 0"), None);
        // A weights file's search is played as it stands.
        let path = std::env::temp_dir().join(format!("cb-set-{}.json", std::process::id()));
        std::fs::write(
            &path,
            r#"{"opening": [100, 150, 0, 0, 0, 0, 0, 0, 0, 0], "endgame": [100, 150, 0, 0, 0, 0, 0, 0, 0, 0], "search": {"lmr_depth": 5}}"#,
        )
        .unwrap();
        let loaded = engine.command(&format!("set weights {}", path.display()));
        std::fs::remove_file(&path).unwrap();
        assert!(matches!(loaded, Some(Ok(_))), "{loaded:?}");
        assert_eq!(engine.command("get lmr_depth"), Some(Ok("5".into())));
    }

    #[test]
    fn the_table_is_the_largest_that_fits() {
        assert_eq!(table_bits(16), 20);
        assert_eq!(table_bits(4096), 28);
        assert_eq!(table_bits(1), 16);
        // 4 GiB asked of a host that can give 1 GiB: 1 GiB (2^26 entries of 16 bytes).
        assert_eq!(affordable_bits(28, 1 << 30), 26);
        assert_eq!(affordable_bits(28, 0), MIN_TABLE_BITS);
        assert_eq!(affordable_bits(12, u64::MAX), 12);
    }
}
