//! Matches between two weight files: paired openings, results, Elo.
//!
//! For every opening A and B play a *pair* of games: A takes Black in the first and White in the
//! second, from the same position. Pairing cancels most of an opening's colour bias and is what
//! the pentanomial statistics of [`crate::elo`] count. Pairs are played in parallel but handed
//! out and applied in opening order, so a match's results never depend on the thread count —
//! including where an SPRT stops it.
//!
//! Every game keeps its moves: the per-game CSV holds them (column `moves`, from the opening's
//! position) and [`match_pdn`] writes them as PDN. A PDN game starts from the standard
//! position with the opening's moves first, as ballot games are recorded, so it needs no `FEN`
//! tag; the ballot is also in its `Opening` tag.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use crate::elo::{EloEstimate, MatchTally, Sprt, SprtVerdict};
use crate::players::{not_started, Engine, EnginePlayer};
use checkers_engine::board::{Color, Position};
use checkers_engine::error::{Error, Result};
use checkers_engine::game::PdnGame;
use checkers_engine::game::{
    play_game_with, EndReason, GameRecord, GameResult, GameScore, GameSettings, Mover, Opening,
    Player, Searching,
};
use checkers_engine::input_file::{self, Links};
use checkers_engine::rng::{stream, tag};
use checkers_engine::search::{SearchLimits, SelectiveParams};
use checkers_engine::text::{csv_line, excerpt, fingerprint};
use checkers_engine::weights_file::WeightsFile;

/// One game of a match, seen from A's side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchGame {
    /// The pair's index: the opening's position in the deck, from 0.
    pub pair: usize,
    /// 1 (A plays Black) or 2 (A plays White).
    pub game: u8,
    /// The opening's moves (`start` for the initial position).
    pub opening: String,
    /// The colour A played.
    pub a_color: Color,
    /// The game, played from the opening's position.
    pub record: GameRecord,
}

/// The header of the per-game CSV before it had the `moves` column: such a file is recognised
/// to say why it cannot be continued.
const HEADER_WITHOUT_MOVES: &str = "pair,game,opening,a_color,result,a_score,plies,reason\n";

impl MatchGame {
    /// The CSV header of the per-game file.
    pub const CSV_HEADER: [&'static str; 9] = [
        "pair", "game", "opening", "a_color", "result", "a_score", "plies", "reason", "moves",
    ];

    /// The name of the column a match with another program as a player adds: a forfeit's
    /// position, answer and reason ([`GameRecord::forfeit`]), empty for the other games.
    pub const DETAIL_COLUMN: &'static str = "detail";

    /// The game's CSV row (pairs numbered from 1, as printed; the moves space-separated, with
    /// full capture paths).
    pub fn csv_record(&self) -> [String; 9] {
        let score = match self.a_score() {
            GameScore::Win => "1",
            GameScore::Draw => "0.5",
            GameScore::Loss => "0",
        };
        [
            (self.pair + 1).to_string(),
            self.game.to_string(),
            self.opening.clone(),
            color_label(self.a_color).to_string(),
            self.record.result.label().to_string(),
            score.to_string(),
            self.record.plies.to_string(),
            self.record.reason.label().to_string(),
            self.record.move_text(),
        ]
    }

    /// The result for A.
    pub fn a_score(&self) -> GameScore {
        GameScore::for_a(self.record.result, self.a_color == Color::Black)
    }

    /// The game as PDN (see the module documentation): `Round` is `pair.game` (`3.2`: pair 3,
    /// A playing White), `Black` and `White` the labels of the players who had those colours,
    /// `Opening` the ballot and `Termination` the reason's CSV label. `opening` is the game's
    /// own (`openings[self.pair]`).
    pub fn pdn_game(&self, opening: &Opening, a_label: &str, b_label: &str) -> PdnGame {
        let (black, white) = match self.a_color {
            Color::Black => (a_label, b_label),
            Color::White => (b_label, a_label),
        };
        let mut game = PdnGame::played(
            "checkers-tuner match",
            &format!("{}.{}", self.pair + 1, self.game),
            black,
            white,
            opening,
            &self.record,
        );
        if let Some(detail) = &self.record.forfeit {
            game.set_tag("Forfeit", detail);
        }
        game
    }

    /// The game's CSV row as text, ending in `\n`: exactly the line [`MatchReport::csv_text`]
    /// writes for it.
    pub fn csv_line(&self) -> String {
        csv_line(&self.csv_record())
    }

    /// The game's row with the [`MatchGame::DETAIL_COLUMN`] last, ending in `\n`: the row of a
    /// match with another program as a player.
    pub fn csv_line_with_detail(&self) -> String {
        let [a, b, c, d, e, f, g, h, i] = self.csv_record();
        let detail = self.record.forfeit.clone().unwrap_or_default();
        csv_line(&[a, b, c, d, e, f, g, h, i, detail])
    }

    /// The row as a match's file has it: with the detail column or without.
    pub fn csv_line_for(&self, detail: bool) -> String {
        if detail {
            self.csv_line_with_detail()
        } else {
            self.csv_line()
        }
    }

    /// The header line of the per-game CSV, ending in `\n`.
    pub fn csv_header_line() -> String {
        csv_line(&MatchGame::CSV_HEADER)
    }

    /// The header line with the detail column, or without, ending in `\n`.
    pub fn csv_header_line_for(detail: bool) -> String {
        if !detail {
            return MatchGame::csv_header_line();
        }
        let mut names = MatchGame::CSV_HEADER.to_vec();
        names.push(MatchGame::DETAIL_COLUMN);
        csv_line(&names)
    }

    /// Reads back a row written by [`MatchGame::csv_record`], all but its moves (left empty),
    /// which need the opening's position: [`MatchGame::read_moves`] reads them. `None` if a
    /// field is not one that could have been written.
    fn from_csv_fields(fields: &csv::StringRecord, detail: bool) -> Option<MatchGame> {
        if fields.len() != MatchGame::CSV_HEADER.len() + usize::from(detail) {
            return None;
        }
        let pair: usize = fields[0].parse().ok()?;
        let game: u8 = fields[1].parse().ok()?;
        let a_color = [Color::Black, Color::White]
            .into_iter()
            .find(|&c| color_label(c) == &fields[3])?;
        let result = [GameResult::BlackWin, GameResult::WhiteWin, GameResult::Draw]
            .into_iter()
            .find(|&r| r.label() == &fields[4])?;
        let reason = EndReason::ALL
            .into_iter()
            .find(|&r| r.label() == &fields[7])?;
        Some(MatchGame {
            pair: pair.checked_sub(1)?,
            game,
            opening: fields[2].to_string(),
            a_color,
            record: GameRecord {
                result,
                plies: fields[6].parse().ok()?,
                reason,
                moves: Vec::new(),
                scores: Vec::new(),
                forfeit: fields
                    .get(9)
                    .filter(|text| !text.is_empty())
                    .map(str::to_string),
            },
        })
    }

    /// Plays the `moves` field of a row from `start`, the game's opening position; the
    /// message says which move is not legal.
    fn read_moves(&mut self, text: &str, start: &Position) -> std::result::Result<(), String> {
        let mut pos = *start;
        let record = &mut self.record;
        record.moves.clear();
        for word in text.split_whitespace() {
            let mv = pos.parse_move(word).map_err(|e| {
                format!(
                    "moves: move {} ({}): {e}",
                    record.moves.len() + 1,
                    excerpt(word)
                )
            })?;
            pos = pos.play(&mv);
            record.moves.push(mv);
        }
        if record.moves.len() != record.plies as usize {
            return Err(format!(
                "plies {} but {} moves",
                record.plies,
                record.moves.len()
            ));
        }
        Ok(())
    }
}

/// `games` as PDN text, one game after another in their order (see [`MatchGame::pdn_game`]);
/// `openings` is the match's deck, which each game's `pair` indexes.
///
/// # Panics
///
/// If a game's `pair` is not an index of `openings`.
pub fn match_pdn(
    games: &[MatchGame],
    openings: &[Opening],
    a_label: &str,
    b_label: &str,
) -> String {
    games
        .iter()
        .map(|g| g.pdn_game(&openings[g.pair], a_label, b_label).to_pdn())
        .collect()
}

/// A's colour in game `game` (1 or 2) of a pair.
fn a_color(game: u8) -> Color {
    if game == 1 {
        Color::Black
    } else {
        Color::White
    }
}

/// A colour as the per-game CSV writes it.
fn color_label(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The games of the complete pairs at the start of a per-game CSV, as an interrupted match
/// left it.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchRows {
    /// The games, two per pair, in opening order.
    pub games: Vec<MatchGame>,
    /// The bytes they fill, header included: anything after them (a row cut short, or the
    /// first game of a pair whose second was not written) is what a stopped process left.
    pub complete_len: usize,
    /// Whether the file has the detail column (a match with another program as a player).
    pub detail: bool,
}

/// Reads the per-game CSV `bytes` of an interrupted match over `openings` (named `origin` in
/// messages) to continue it with [`play_match_from`]. Every complete row must be exactly the row
/// this program writes for the next game (pair, game, the pair's opening, A's colour, a result
/// and the score it gives A, plies, reason, and that many legal moves from the opening); a last
/// line without its line break, or a pair's first game alone at the end, is left out. Anything
/// else is bad input naming the line, and so is a file of an earlier version, without the
/// `moves` column: its games cannot be written as PDN, and mixing rows of both kinds in one
/// file would leave a CSV no reader takes.
pub fn read_match_rows(bytes: &[u8], origin: &str, openings: &[Opening]) -> Result<MatchRows> {
    let with_detail = MatchGame::csv_header_line_for(true);
    let detail = bytes.starts_with(with_detail.as_bytes());
    let header = MatchGame::csv_header_line_for(detail);
    if bytes.starts_with(HEADER_WITHOUT_MOVES.as_bytes()) {
        return Err(Error::input(format!(
            "{origin}: a match's games CSV of an earlier version, without the `moves` column; \
             this version cannot continue it: finish that match with the version that started \
             it, or start it again with another file"
        )));
    }
    if !bytes.starts_with(header.as_bytes()) {
        return Err(Error::input(format!(
            "{origin} line 1: not the header of a match's games CSV (`{}`)",
            header.trim_end()
        )));
    }
    let mut games: Vec<MatchGame> = Vec::new();
    let mut at = header.len();
    let mut complete_len = at;
    let mut line_number = 1;
    while let Some(end) = bytes[at..].iter().position(|&b| b == b'\n') {
        line_number += 1;
        let line = &bytes[at..at + end + 1];
        let expected_pair = games.len() / 2;
        let expected_game = games.len() as u8 % 2 + 1;
        let bad = |what: String| Error::input(format!("{origin} line {line_number}: {what}"));
        let record = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(line)
            .records()
            .next()
            .and_then(|r| r.ok());
        let not_a_row = || {
            bad(format!(
                "not a row of a match's games CSV: `{}`",
                excerpt(&String::from_utf8_lossy(line))
            ))
        };
        let Some((mut game, moves)) = record
            .as_ref()
            .and_then(|r| Some((MatchGame::from_csv_fields(r, detail)?, r.get(8)?)))
        else {
            return Err(not_a_row());
        };
        if expected_pair >= openings.len() {
            return Err(bad(format!(
                "a game after the last of the {} openings",
                openings.len()
            )));
        }
        let a_color = a_color(expected_game);
        if (game.pair, game.game, game.a_color) != (expected_pair, expected_game, a_color) {
            return Err(bad(format!(
                "expected pair {} game {expected_game} (A {}), found pair {} game {}",
                expected_pair + 1,
                color_label(a_color),
                game.pair + 1,
                game.game
            )));
        }
        let opening = &openings[expected_pair].name;
        if &game.opening != opening {
            return Err(bad(format!(
                "opening `{}`, but pair {} of these openings is `{opening}`",
                excerpt(&game.opening),
                expected_pair + 1
            )));
        }
        game.read_moves(moves, &openings[expected_pair].position)
            .map_err(bad)?;
        if game.csv_line_for(detail).as_bytes() != line {
            return Err(not_a_row());
        }
        games.push(game);
        at += end + 1;
        if games.len().is_multiple_of(2) {
            complete_len = at;
        }
    }
    if games.len() % 2 == 1 {
        games.pop();
    }
    Ok(MatchRows {
        games,
        complete_len,
        detail,
    })
}

/// One side of a match: its weights file and, when it has depths of its own, those (in place
/// of the settings' `min_depth`/`max_depth`; fixed-depth matches only).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MatchPlayer<'a> {
    /// Weights and endgame threshold.
    pub file: &'a WeightsFile,
    /// Its own depths; `None`: the settings'.
    pub limits: Option<SearchLimits>,
    /// Its own selective search; `None`: the settings' search (`mode` and its keys).
    pub selective: Option<SelectiveParams>,
}

impl<'a> From<&'a WeightsFile> for MatchPlayer<'a> {
    /// A side with the settings' depths.
    fn from(file: &'a WeightsFile) -> MatchPlayer<'a> {
        MatchPlayer {
            file,
            limits: None,
            selective: None,
        }
    }
}

impl<'a> MatchPlayer<'a> {
    /// The side as a game's player.
    fn player(&self) -> Player<'a> {
        Player {
            limits: self.limits,
            ..Player::of_file(self.file)
        }
    }
}

/// One side of a match: our weights, or another program.
#[derive(Clone, Copy, Debug)]
pub enum MatchSide<'a> {
    /// Our engine with a weights file.
    Ours(MatchPlayer<'a>),
    /// Another program (a CheckerBoard library, a Hub program), with what identifies it in
    /// the match's key ([`Engine::identity`]).
    Engine(&'a Engine, &'a str),
}

impl<'a> From<&'a WeightsFile> for MatchSide<'a> {
    /// Our side with the file's weights at the settings' depths.
    fn from(file: &'a WeightsFile) -> MatchSide<'a> {
        MatchSide::Ours(file.into())
    }
}

impl<'a> From<MatchPlayer<'a>> for MatchSide<'a> {
    fn from(player: MatchPlayer<'a>) -> MatchSide<'a> {
        MatchSide::Ours(player)
    }
}

impl<'a> MatchSide<'a> {
    /// Whether this side is another program.
    pub fn is_engine(&self) -> bool {
        matches!(self, MatchSide::Engine(..))
    }

    /// Our weights' side; `None` for another program.
    fn ours(&self) -> Option<MatchPlayer<'a>> {
        match self {
            MatchSide::Ours(p) => Some(*p),
            MatchSide::Engine(..) => None,
        }
    }
}

/// A fingerprint of everything that decides a match's games: both weight files (weights,
/// endgame thresholds, sources) and any depths of their own, the openings, the settings (the
/// endgame database included), the seed and the SPRT. Two commands with the same key play the
/// same games, so one may continue the other's file.
pub fn match_key(
    a: MatchSide<'_>,
    b: MatchSide<'_>,
    openings: &[Opening],
    settings: &GameSettings,
    seed: u64,
    sprt: Option<&Sprt>,
) -> String {
    // A file's `search` table is left out: what it decides is the side's `selective` below,
    // so matches of files without one (and exact sides) keep the keys they always had.
    let side = |side: MatchSide<'_>| match side {
        MatchSide::Ours(p) => WeightsFile {
            search: None,
            ..p.file.clone()
        }
        .to_json(),
        MatchSide::Engine(_, identity) => format!("engine {identity}"),
    };
    let mut text = format!("a\n{}\nb\n{}\nopenings\n", side(a), side(b));
    for o in openings {
        text.push_str(&o.name);
        text.push('\n');
    }
    let _ = write!(
        text,
        "settings {} {} {} {} {:?}\nseed {seed}\n",
        settings.search.min_depth,
        settings.search.max_depth,
        settings.max_plies,
        settings.no_progress_plies,
        settings.search.tie_break
    );
    // Fixed-depth matches keep the key they always had.
    if let Some(time) = settings.time {
        let _ = writeln!(text, "time {time:?}");
    }
    // Only a match with a database says so: the keys of matches without one stay as they were.
    if let Some(db) = settings.database {
        let _ = writeln!(
            text,
            "database {} {:016x} adjudication {}",
            db.pieces(),
            db.checksum(),
            settings.database_adjudication
        );
    }
    // Likewise only sides with depths of their own add a line.
    for (side, p) in [("a", a.ours()), ("b", b.ours())] {
        if let Some(l) = p.and_then(|p| p.limits) {
            let _ = writeln!(text, "depth {side} {} {}", l.min_depth(), l.max_depth());
        }
    }
    // And only selective searches (exact matches keep their keys).
    if let Some(s) = settings.search.selective() {
        let _ = writeln!(text, "search {s:?}");
    }
    for (side, p) in [("a", a.ours()), ("b", b.ours())] {
        if let Some(s) = p.and_then(|p| p.selective) {
            let _ = writeln!(text, "search {side} {s:?}");
        }
    }
    if let Some(t) = sprt {
        let _ = writeln!(
            text,
            "sprt {} {} {} {}",
            t.elo0(),
            t.elo1(),
            t.alpha(),
            t.beta()
        );
    }
    fingerprint(text.as_bytes())
}

/// What `on_pair` sees after each pair is applied, in opening order.
#[derive(Clone, Debug, PartialEq)]
pub struct PairReport {
    /// The pair's two games (A Black, then A White).
    pub games: [MatchGame; 2],
    /// The running totals, this pair included.
    pub tally: MatchTally,
    /// Pairs applied so far, this one included.
    pub pairs_done: usize,
    /// Pairs the match would play without an SPRT stop (the number of openings).
    pub pairs_total: usize,
    /// The SPRT's state after this pair, when one is running.
    pub sprt: Option<SprtVerdict>,
    /// A's and B's thinking in the pair's two games (measured, so not part of the result).
    pub thinking: [Thinking; 2],
}

/// A side's time on its moves: the time and the moves it was spent on.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Thinking {
    /// Time spent choosing moves.
    pub time: Duration,
    /// Moves chosen.
    pub moves: u32,
}

impl Thinking {
    /// The mean time a move; `None` before the first move.
    pub fn mean(&self) -> Option<Duration> {
        (self.moves > 0).then(|| self.time / self.moves)
    }

    /// Adds `other`'s time and moves.
    pub fn add(&mut self, other: Thinking) {
        self.time += other.time;
        self.moves += other.moves;
    }
}

/// An SPRT's outcome at the end of a match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtOutcome {
    /// The test.
    pub test: Sprt,
    /// Its log-likelihood ratio over the pairs played.
    pub llr: f64,
    /// Its verdict; `Continue` if the openings ran out first.
    pub verdict: SprtVerdict,
}

/// A finished (or SPRT-stopped) match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    /// Every game played, two per pair, in opening order.
    pub games: Vec<MatchGame>,
    /// Results from A's side.
    pub tally: MatchTally,
    /// Elo of A over B with its 95% interval and LOS.
    pub estimate: EloEstimate,
    /// The SPRT's outcome, when one was asked for.
    pub sprt: Option<SprtOutcome>,
    /// Pairs played (fewer than `pairs_total` when the SPRT stopped the match).
    pub pairs_played: usize,
    /// Pairs available: the number of openings.
    pub pairs_total: usize,
}

impl MatchReport {
    /// The result lines printed after a match and written to the summary: W/D/L and score,
    /// the pentanomial counts, Elo, and the SPRT status with how the match ended.
    pub fn result_lines(&self) -> Vec<String> {
        self.lines(false)
    }

    /// The result lines of a match stopped before its end (by a Ctrl-C): as
    /// [`MatchReport::result_lines`], but saying where it stopped instead of an SPRT ending.
    pub fn interrupted_lines(&self) -> Vec<String> {
        self.lines(true)
    }

    fn lines(&self, interrupted: bool) -> Vec<String> {
        let mut lines = vec![
            format!("results for A: {}", self.tally.results.line()),
            format!("pairs: {}", self.tally.pentanomial),
            self.estimate.summary_line(),
        ];
        if let Some(s) = &self.sprt {
            lines.push(s.test.status_line(&self.tally.pentanomial));
        }
        if interrupted {
            lines.push(format!(
                "interrupted after {} of {} pairs",
                self.pairs_played, self.pairs_total
            ));
            return lines;
        }
        if let Some(s) = &self.sprt {
            lines.push(match s.verdict {
                SprtVerdict::Continue => format!(
                    "SPRT: no verdict; the openings ran out after {}",
                    count(self.pairs_played, "pair")
                ),
                verdict if self.pairs_played < self.pairs_total => format!(
                    "SPRT: {verdict}, stopped early after {} of {} pairs",
                    self.pairs_played, self.pairs_total
                ),
                verdict => format!(
                    "SPRT: {verdict} after the last of {}",
                    count(self.pairs_played, "pair")
                ),
            });
        }
        lines
    }

    /// The per-game CSV: [`MatchGame::CSV_HEADER`], then one row per game.
    pub fn csv_text(&self) -> Result<String> {
        let rows = self.games.iter().map(MatchGame::csv_line);
        Ok(std::iter::once(MatchGame::csv_header_line())
            .chain(rows)
            .collect())
    }
}

/// `n` and `noun`, plural unless `n` is 1: `1 pair`, `4 pairs`.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Where the summary of `--out FILE.csv` goes: `FILE.summary.txt`.
pub fn summary_path(csv_path: &Path) -> PathBuf {
    csv_path.with_extension("summary.txt")
}

/// Reads one of a match's own files back (`--out`, its summary) to continue the match: a
/// regular file, never through a symbolic link; `None` when there is none.
pub fn read_match_file(path: &Path) -> Result<Option<Vec<u8>>> {
    input_file::read_existing(path, Links::Refuse, None)
}

/// A side as a worker holds it: our weights (a new search for each game), or another
/// program's instance, started at its first game and kept for the worker's next ones.
enum Seat<'a> {
    Ours(MatchPlayer<'a>),
    Engine {
        engine: &'a Engine,
        started: Option<Result<Box<dyn EnginePlayer>>>,
    },
}

impl<'a> Seat<'a> {
    fn new(side: MatchSide<'a>) -> Seat<'a> {
        match side {
            MatchSide::Ours(p) => Seat::Ours(p),
            MatchSide::Engine(engine, _) => Seat::Engine {
                engine,
                started: None,
            },
        }
    }
}

/// A seat's mover for one game: our search, or the program's instance told of the new game.
/// A program that cannot be started, or cannot start the game, forfeits it.
enum Sitting<'s, 'a> {
    Ours(Box<Searching<'a>>),
    Engine(&'s mut dyn EnginePlayer),
    Absent(checkers_engine::game::Forfeit),
}

impl Mover for Sitting<'_, '_> {
    fn choose(
        &mut self,
        turn: &checkers_engine::game::Turn<'_>,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> std::result::Result<checkers_engine::game::Choice, checkers_engine::game::Forfeit> {
        match self {
            Sitting::Ours(s) => s.choose(turn, rng),
            Sitting::Engine(e) => e.choose(turn, rng),
            Sitting::Absent(forfeit) => Err(forfeit.clone()),
        }
    }
}

/// The mover of `seat` for a game from `start`.
fn sit<'s, 'a>(
    seat: &'s mut Seat<'a>,
    start: &Position,
    settings: &GameSettings,
) -> Sitting<'s, 'a> {
    match seat {
        Seat::Ours(p) => {
            let search = p.selective.or(settings.search.selective());
            Sitting::Ours(Box::new(Searching::new(p.player(), search, settings)))
        }
        Seat::Engine { engine, started } => {
            let instance = started.get_or_insert_with(|| engine.start());
            match instance {
                Ok(player) => match player.new_game(start) {
                    Ok(()) => Sitting::Engine(player.as_mut()),
                    Err(forfeit) => Sitting::Absent(forfeit),
                },
                Err(e) => Sitting::Absent(not_started(start, e, "")),
            }
        }
    }
}

/// Plays the pair for opening `index`: A Black in game 1, then A White from the same position.
/// Each game has its own stream `[tag::MATCH, index, game]`, used only by random tie-breaks.
/// Returns the games and A's and B's thinking in them.
fn play_pair(
    seats: &mut [Seat<'_>; 2],
    opening: &Opening,
    index: usize,
    settings: &GameSettings,
    seed: u64,
) -> ([MatchGame; 2], [Thinking; 2]) {
    let mut thinking = [Thinking::default(); 2];
    let mut game = |number: u8| {
        let a_color = a_color(number);
        let [a, b] = &mut *seats;
        let mut a = sit(a, &opening.position, settings);
        let mut b = sit(b, &opening.position, settings);
        let (black, white): (&mut dyn Mover, &mut dyn Mover) = match a_color {
            Color::Black => (&mut a, &mut b),
            Color::White => (&mut b, &mut a),
        };
        let mut rng = stream(seed, &[tag::MATCH, index as u64, u64::from(number)]);
        let played = play_game_with([black, white], &opening.position, settings, &mut rng);
        let record = played.record;
        // Black moves first from a position with Black to move: it made the odd plies.
        let first = opening.position.side_to_move();
        let by_first = record.plies.div_ceil(2);
        let moves = |color: Color| {
            if color == first {
                by_first
            } else {
                record.plies - by_first
            }
        };
        let b_color = a_color.opponent();
        thinking[0].add(Thinking {
            time: played.spent[a_color as usize],
            moves: moves(a_color),
        });
        thinking[1].add(Thinking {
            time: played.spent[b_color as usize],
            moves: moves(b_color),
        });
        MatchGame {
            pair: index,
            game: number,
            opening: opening.name.clone(),
            a_color,
            record,
        }
    };
    let games = [game(1), game(2)];
    (games, thinking)
}

/// Results applied so far, in opening order, and the pairs finished out of order.
struct Progress<F> {
    finished: BTreeMap<usize, ([MatchGame; 2], [Thinking; 2])>,
    games: Vec<MatchGame>,
    tally: MatchTally,
    applied: usize,
    verdict: Option<SprtVerdict>,
    stopped: bool,
    on_pair: F,
}

impl<F> Progress<F> {
    /// Counts the next pair in order and checks the SPRT after it.
    fn apply(&mut self, pair: &[MatchGame], sprt: Option<&Sprt>) {
        self.tally.add_pair(pair[0].a_score(), pair[1].a_score());
        self.games.extend(pair.iter().cloned());
        self.applied += 1;
        self.verdict = sprt.map(|t| t.verdict(&self.tally.pentanomial));
        self.stopped = self.verdict.is_some_and(SprtVerdict::is_final);
    }
}

/// Plays A against B: one pair per opening (A Black in game 1, White in game 2, same opening),
/// each side with its own weights and its own `endgame_pieces` (`settings.search.endgame_pieces` is
/// not used), both at the settings' depths ([`play_match_from`] can give each its own).
///
/// Pairs run on the current rayon pool. Workers take openings in order from a shared counter
/// and results are applied strictly in opening order, so the report is the same for any thread
/// count. `on_pair` is called once per applied pair, in order (from whichever worker completed
/// the sequence; hence `Send`).
///
/// With `sprt`, the verdict is checked after each applied pair and the match ends at the first
/// pair after which it is final: pairs after it are not started, and any already being played
/// are discarded. The stopping point is therefore also independent of the thread count.
pub fn play_match<F>(
    a: &WeightsFile,
    b: &WeightsFile,
    openings: &[Opening],
    settings: &GameSettings,
    seed: u64,
    sprt: Option<Sprt>,
    on_pair: F,
) -> MatchReport
where
    F: FnMut(&PairReport) + Send,
{
    play_match_from(a, b, openings, settings, seed, sprt, &[], None, on_pair)
}

/// [`play_match`], with sides that may search to depths of their own or be other programs
/// ([`MatchSide`]; a [`MatchPlayer`] is our side), continuing after the pairs already played,
/// and stoppable.
///
/// `previous` holds the games of the first pairs, already played with the same players,
/// openings, settings, seed and SPRT (two games per pair, in opening order, as
/// [`read_match_rows`] returns them): they are applied first, without calling `on_pair`, and
/// the match goes on from the next opening, so the report is the one an uninterrupted match
/// gives. Previous pairs after a final SPRT verdict are ignored.
///
/// Once `stop` is set, no new pair is started; the pairs being played are finished and applied,
/// and the report ends there, with `pairs_played < pairs_total` (and no SPRT stop).
///
/// Each worker starts its own instance of a program at its first game and keeps it for its
/// next ones (a new one after a crash or a hang). A program's failures lose it the game they
/// happen in ([`GameRecord::forfeit`]); the match goes on.
#[allow(clippy::too_many_arguments)]
pub fn play_match_from<'a, F>(
    a: impl Into<MatchSide<'a>>,
    b: impl Into<MatchSide<'a>>,
    openings: &[Opening],
    settings: &GameSettings,
    seed: u64,
    sprt: Option<Sprt>,
    previous: &[MatchGame],
    stop_request: Option<&AtomicBool>,
    on_pair: F,
) -> MatchReport
where
    F: FnMut(&PairReport) + Send,
{
    let (a, b) = (a.into(), b.into());
    let total = openings.len();
    let mut p = Progress {
        finished: BTreeMap::new(),
        games: Vec::with_capacity(2 * total),
        tally: MatchTally::default(),
        applied: 0,
        verdict: sprt.map(|_| SprtVerdict::Continue),
        stopped: false,
        on_pair,
    };
    for pair in previous.chunks_exact(2).take(total) {
        if p.stopped {
            break;
        }
        p.apply(pair, sprt.as_ref());
    }
    let next = AtomicUsize::new(p.applied);
    let stop = AtomicBool::new(p.stopped);
    let progress = Mutex::new(p);
    let requested = || stop_request.is_some_and(|flag| flag.load(Ordering::Relaxed));
    let workers = rayon::current_num_threads().clamp(1, total.max(1));
    rayon::scope(|s| {
        for _ in 0..workers {
            s.spawn(|_| {
                let mut seats = [Seat::new(a), Seat::new(b)];
                loop {
                    if stop.load(Ordering::Relaxed) || requested() {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= total {
                        break;
                    }
                    let pair = play_pair(&mut seats, &openings[index], index, settings, seed);
                    let mut p = progress.lock().unwrap_or_else(PoisonError::into_inner);
                    p.finished.insert(index, pair);
                    apply_ready(&mut *p, total, sprt.as_ref());
                    if p.stopped {
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let p = progress
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    MatchReport {
        estimate: p.tally.estimate(),
        sprt: sprt.map(|test| SprtOutcome {
            test,
            llr: test.llr(&p.tally.pentanomial),
            verdict: test.verdict(&p.tally.pentanomial),
        }),
        pairs_played: p.applied,
        pairs_total: total,
        games: p.games,
        tally: p.tally,
    }
}

/// Applies the finished pairs that continue the in-order sequence, until a gap or a final
/// SPRT verdict.
fn apply_ready<F: FnMut(&PairReport)>(p: &mut Progress<F>, total: usize, sprt: Option<&Sprt>) {
    while !p.stopped {
        let Some((pair, thinking)) = p.finished.remove(&p.applied) else {
            break;
        };
        p.apply(&pair, sprt);
        let report = PairReport {
            thinking,
            games: pair,
            tally: p.tally,
            pairs_done: p.applied,
            pairs_total: total,
            sprt: p.verdict,
        };
        (p.on_pair)(&report);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_path_replaces_the_csv_extension() {
        assert_eq!(
            summary_path(Path::new("out/games.csv")),
            PathBuf::from("out/games.summary.txt")
        );
        assert_eq!(
            summary_path(Path::new("games")),
            PathBuf::from("games.summary.txt")
        );
    }
}
