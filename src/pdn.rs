//! PDN game records (Portable Draughts Notation, the checkers cousin of chess's PGN) for
//! English checkers: writing a game and reading games back.
//!
//! A written game has the tags `Event`, `Round`, `Black`, `White`, `Result` (`1-0` when Black
//! won, `0-1` when White won, `1/2-1/2`, `*` unknown), `GameType "21"` (English checkers), `FEN`
//! when the game did not start from the standard position, then any extra tags (such as why the
//! game ended); then the numbered move text with full jump paths, `1. 9-13 22-18 2. 13x22 …`,
//! ended by the result. A game started with White to move begins `1... 22-18`.
//!
//! Reading accepts what PDN files commonly hold for this game: tags in any order, comments in
//! braces, variations in parentheses (skipped), move numbers with `.` or `...`, annotation marks
//! (`!`, `?`, `$n`), short jumps (`9x27`) when unambiguous, the results `2-0`, `0-2`, `1-1` and
//! `0-0` of draughts scoring, and several games in one text. Every move is checked for legality
//! from the start position.

use std::fmt;

use crate::engine::{Color, Move, Position};
use crate::game::{GameRecord, GameResult, Opening};

/// One game: its tags, start position, moves and result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// The tags other than `Result`, `GameType` and `FEN` (those come from the fields below), in
    /// order: a written game puts `Event`, `Round`, `Black` and `White` first.
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start: Position,
    /// The moves played, in order.
    pub moves: Vec<Move>,
    /// The result; `None` for `*` (unfinished or unknown).
    pub result: Option<GameResult>,
}

/// Why a PDN text could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// The game it happened in, counting from 1.
    pub game: usize,
    /// The line the game starts on, counting from 1.
    pub line: usize,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: game {}: {}",
            self.line, self.game, self.message
        )
    }
}

impl std::error::Error for PdnError {}

/// The PDN result text of a result (`*` for none).
pub fn pdn_result(result: Option<GameResult>) -> &'static str {
    match result {
        Some(GameResult::BlackWin) => "1-0",
        Some(GameResult::WhiteWin) => "0-1",
        Some(GameResult::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// Reads a PDN result token, including the 2-0 / 1-1 / 0-2 / 0-0 forms of draughts scoring.
fn parse_result(token: &str) -> Option<Option<GameResult>> {
    Some(match token {
        "1-0" | "2-0" => Some(GameResult::BlackWin),
        "0-1" | "0-2" => Some(GameResult::WhiteWin),
        "1/2-1/2" | "1-1" => Some(GameResult::Draw),
        "*" | "0-0" => None,
        _ => return None,
    })
}

/// Longest move-text line written.
const LINE_WIDTH: usize = 79;

/// A tag value with `\` and `"` escaped as PGN does.
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl PdnGame {
    /// A game with the four player tags (`Event`, `Round`, `Black`, `White`).
    pub fn new(
        event: &str,
        round: &str,
        black: &str,
        white: &str,
        start: Position,
        moves: Vec<Move>,
        result: Option<GameResult>,
    ) -> PdnGame {
        let tags = [
            ("Event", event),
            ("Round", round),
            ("Black", black),
            ("White", white),
        ];
        PdnGame {
            tags: tags
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            start,
            moves,
            result,
        }
    }

    /// A game played from `opening`, with the four player tags: from the standard position
    /// with the opening's moves first, as ballot games are recorded (no `FEN` tag needed), or,
    /// for an opening whose name does not replay to its position, from that position. The
    /// tags `Opening` (its name), `OpeningPlies` (how many of the moves are the opening's) and
    /// `Termination` (why the game ended, as the CSV files write it) follow.
    pub fn played(
        event: &str,
        round: &str,
        black: &str,
        white: &str,
        opening: &Opening,
        record: &GameRecord,
    ) -> PdnGame {
        let (start, mut moves) = match opening.moves_from_start() {
            Some(moves) => (Position::start(), moves),
            None => (opening.position, Vec::new()),
        };
        let opening_plies = moves.len();
        moves.extend_from_slice(&record.moves);
        let mut game = PdnGame::new(
            event,
            round,
            black,
            white,
            start,
            moves,
            Some(record.result),
        );
        game.set_tag("Opening", &opening.name);
        game.set_tag("OpeningPlies", &opening_plies.to_string());
        game.set_tag("Termination", record.reason.label());
        game
    }

    /// The value of a tag (`Result`, `GameType` and `FEN` are not kept as tags).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing its value if it is already there.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The position after all the moves.
    pub fn end_position(&self) -> Position {
        self.moves.iter().fold(self.start, |pos, mv| pos.play(mv))
    }

    /// The game as PDN text: tags, a blank line, the move text (wrapped at 79 columns) ending
    /// with the result, and a blank line after it so that games can be concatenated.
    pub fn to_pdn(&self) -> String {
        let mut out = String::new();
        let mut tag = |name: &str, value: &str| {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        };
        let mut rest = Vec::new();
        for (name, value) in &self.tags {
            if matches!(name.as_str(), "Event" | "Round" | "Black" | "White") {
                tag(name, value);
            } else if !matches!(name.as_str(), "Result" | "GameType" | "FEN") {
                rest.push((name, value));
            }
        }
        tag("Result", pdn_result(self.result));
        tag("GameType", "21");
        if self.start != Position::start() {
            tag("FEN", &self.start.to_fen());
        }
        for (name, value) in rest {
            tag(name, value);
        }
        out.push('\n');
        let mut tokens = Vec::with_capacity(self.moves.len() * 3 / 2 + 1);
        let mut pos = self.start;
        for (i, mv) in self.moves.iter().enumerate() {
            let number = move_number(&self.start, i);
            // A move number stays on the line of its move.
            tokens.push(match pos.side_to_move() {
                Color::Black => format!("{number}. {mv}"),
                Color::White if i == 0 => format!("{number}... {mv}"),
                Color::White => mv.to_string(),
            });
            pos = pos.play(mv);
        }
        tokens.push(pdn_result(self.result).to_string());
        let mut width = 0;
        for token in tokens {
            if width > 0 {
                let wrap = width + 1 + token.len() > LINE_WIDTH;
                out.push(if wrap { '\n' } else { ' ' });
                width = if wrap { 0 } else { width + 1 };
            }
            out.push_str(&token);
            width += token.len();
        }
        out.push_str("\n\n");
        out
    }
}

/// The full-move number of ply `i` of a game from `start` (Black's move opens a number).
fn move_number(start: &Position, i: usize) -> usize {
    let offset = usize::from(start.side_to_move() == Color::White);
    (i + offset) / 2 + 1
}

/// Reads every game of a PDN text, checking each move's legality.
pub fn read_pdn(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let text = crate::text::strip_bom(text);
    let mut games = Vec::new();
    let mut lexer = Lexer {
        chars: text.chars().collect(),
        at: 0,
    };
    let mut lines = LineCounter::default();
    loop {
        let number = games.len() + 1;
        lexer.skip_while(char::is_whitespace);
        let line = lines.line_at(&lexer.chars, lexer.at);
        let fail = |message: String| PdnError {
            game: number,
            line,
            message,
        };
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut tokens: Vec<String> = Vec::new();
        let mut ended_by: Option<Option<GameResult>> = None;
        while let Some(token) = lexer.next().map_err(fail)? {
            match token {
                Token::Tag(name, value) => {
                    if !tokens.is_empty() {
                        // A new tag section without a result: the previous game ends here.
                        lexer.unread_tag();
                        break;
                    }
                    tags.push((name, value));
                }
                Token::Word(word) => {
                    if let Some(result) = parse_result(&word) {
                        ended_by = Some(result);
                        break;
                    }
                    tokens.push(word);
                }
            }
        }
        if tags.is_empty() && tokens.is_empty() && ended_by.is_none() {
            return Ok(games);
        }
        games.push(build_game(tags, &tokens, ended_by).map_err(fail)?);
    }
}

/// Makes a game of its tags and move-text words.
fn build_game(
    tags: Vec<(String, String)>,
    words: &[String],
    ended_by: Option<Option<GameResult>>,
) -> Result<PdnGame, String> {
    let mut start = Position::start();
    let mut result = ended_by.flatten();
    let mut kept = Vec::new();
    for (name, value) in tags {
        match name.as_str() {
            "FEN" => {
                let fen = value.trim();
                start = Position::from_fen(fen).map_err(|e| format!("FEN {fen:?}: {e}"))?;
            }
            "GameType" => {
                let kind = value.split(',').next().unwrap_or("").trim();
                if kind != "21" {
                    return Err(format!("GameType {value:?} is not English checkers (21)"));
                }
            }
            "Result" => {
                if ended_by.is_none() {
                    result = parse_result(value.trim())
                        .ok_or_else(|| format!("Result {value:?} is not a PDN result"))?;
                }
            }
            _ => kept.push((name, value)),
        }
    }
    let mut pos = start;
    let mut moves = Vec::new();
    for word in words {
        // A move number ("12." or "12..."), possibly glued to the move ("12.9-13").
        let word = match word.find('.') {
            Some(i) if word[..i].chars().all(|c| c.is_ascii_digit()) => {
                word[i..].trim_start_matches('.')
            }
            _ => word.as_str(),
        };
        let word = word.trim_end_matches(['!', '?']);
        if word.is_empty() {
            continue;
        }
        let mv = pos
            .parse_move(word)
            .map_err(|e| format!("move {} ({word}): {e}", moves.len() + 1))?;
        moves.push(mv);
        pos = pos.play(&mv);
    }
    Ok(PdnGame {
        tags: kept,
        start,
        moves,
        result,
    })
}

/// Line numbers of character offsets met in increasing order, counted once over the text.
#[derive(Default)]
struct LineCounter {
    /// The offset counted up to, and the line it is on.
    at: usize,
    line: usize,
}

impl LineCounter {
    /// The line (from 1) of the character at `at`, which must not be before the last asked.
    fn line_at(&mut self, chars: &[char], at: usize) -> usize {
        let end = at.min(chars.len());
        self.line += chars[self.at.min(end)..end]
            .iter()
            .filter(|&&c| c == '\n')
            .count();
        self.at = end;
        self.line + 1
    }
}

/// A tag pair or one word of move text.
enum Token {
    Tag(String, String),
    Word(String),
}

/// Splits PDN text into tags and move-text words, dropping comments, variations and `$n`
/// annotations.
struct Lexer {
    chars: Vec<char>,
    at: usize,
}

impl Lexer {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    /// Steps over the characters for which `keep` holds.
    fn skip_while(&mut self, keep: impl Fn(char) -> bool) {
        while self.peek().is_some_and(&keep) {
            self.at += 1;
        }
    }

    /// Steps back over the tag just read (it starts the next game).
    fn unread_tag(&mut self) {
        while self.at > 0 {
            self.at -= 1;
            if self.chars[self.at] == '[' {
                break;
            }
        }
    }

    fn next(&mut self) -> Result<Option<Token>, String> {
        loop {
            let Some(c) = self.peek() else {
                return Ok(None);
            };
            match c {
                c if c.is_whitespace() => self.at += 1,
                '{' => self.skip_until('{', '}')?,
                '(' => self.skip_until('(', ')')?,
                '%' if self.at == 0 || self.chars[self.at - 1] == '\n' => {
                    // An escape line: ignored to its end.
                    self.skip_while(|c| c != '\n');
                }
                '[' => return self.tag().map(Some),
                _ => {
                    let begin = self.at;
                    self.skip_while(|c| !c.is_whitespace() && !"{([".contains(c));
                    let word: String = self.chars[begin..self.at].iter().collect();
                    if word.starts_with('$') {
                        continue;
                    }
                    return Ok(Some(Token::Word(word)));
                }
            }
        }
    }

    /// Skips a balanced `open … close` group (nested groups included).
    fn skip_until(&mut self, open: char, close: char) -> Result<(), String> {
        let mut depth = 0;
        while let Some(c) = self.peek() {
            self.at += 1;
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(());
                }
            }
        }
        Err(format!("a {open} is never closed by {close}"))
    }

    /// Reads `[Name "value"]` (with `\"` and `\\` escapes in the value).
    fn tag(&mut self) -> Result<Token, String> {
        self.at += 1;
        let begin = self.at;
        self.skip_while(|c| !c.is_whitespace() && c != '"' && c != ']');
        let name: String = self.chars[begin..self.at].iter().collect();
        self.skip_while(|c| c == ' ' || c == '\t');
        if name.is_empty() || self.peek() != Some('"') {
            return Err(format!("tag [{name} …] has no quoted value"));
        }
        self.at += 1;
        let mut value = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => return Err(format!("the value of tag {name} is not closed")),
                Some('\\') if matches!(self.chars.get(self.at + 1), Some('"' | '\\')) => {
                    value.push(self.chars[self.at + 1]);
                    self.at += 2;
                }
                Some('"') => {
                    self.at += 1;
                    break;
                }
                Some(c) => {
                    value.push(c);
                    self.at += 1;
                }
            }
        }
        self.skip_while(|c| c == ' ' || c == '\t');
        if self.peek() != Some(']') {
            return Err(format!("tag {name} is not closed by ]"));
        }
        self.at += 1;
        Ok(Token::Tag(name, value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(fen: Option<&str>, moves: &[&str], result: Option<GameResult>) -> PdnGame {
        let start = fen.map_or(Position::start(), |f| Position::from_fen(f).unwrap());
        let mut pos = start;
        let moves = moves
            .iter()
            .map(|m| {
                let mv = pos.parse_move(m).unwrap();
                pos = pos.play(&mv);
                mv
            })
            .collect();
        PdnGame::new("test", "1", "A", "B \"quoted\"", start, moves, result)
    }

    #[test]
    fn a_game_is_written_with_tags_numbers_and_result() {
        let mut g = game(
            None,
            &["11-15", "22-18", "15x22", "25x18"],
            Some(GameResult::Draw),
        );
        g.set_tag("Termination", "repetition");
        assert_eq!(
            g.to_pdn(),
            "[Event \"test\"]\n[Round \"1\"]\n[Black \"A\"]\n[White \"B \\\"quoted\\\"\"]\n\
             [Result \"1/2-1/2\"]\n[GameType \"21\"]\n[Termination \"repetition\"]\n\n\
             1. 11-15 22-18 2. 15x22 25x18 1/2-1/2\n\n"
        );
        assert_eq!(read_pdn(&g.to_pdn()).unwrap(), vec![g]);
    }

    #[test]
    fn a_white_to_move_start_gets_a_fen_tag_and_an_ellipsis() {
        let g = game(
            Some("W:W25,27,31:B3,9,14,17"),
            &["27-23", "17-22", "25x18"],
            None,
        );
        let text = g.to_pdn();
        assert!(
            text.contains("[FEN \"W:W25,27,31:B3,9,14,17\"]\n"),
            "{text}"
        );
        assert!(
            text.ends_with("\n1... 27-23 2. 17-22 25x18 *\n\n"),
            "{text}"
        );
        assert_eq!(read_pdn(&text).unwrap(), vec![g]);
    }

    #[test]
    fn reading_skips_comments_variations_and_annotations() {
        let text = "\u{feff}[Event \"x\"]\n[GameType \"21,B,8,8,N1,0\"]\n\n\
                    1. 11-15 {a comment (with parens)} 22-18 (2. 9-13 {nested}) \
                    2. 15x22! $1 25x18?\n3.12-16 2-0\n\n[Event \"y\"]\n1. 9-13 *";
        let games = read_pdn(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 5);
        assert_eq!(games[0].result, Some(GameResult::BlackWin));
        assert_eq!(games[0].tag("Event"), Some("x"));
        assert_eq!(games[1].moves.len(), 1);
        assert_eq!(games[1].result, None);
    }

    #[test]
    fn bad_games_name_the_game_and_the_move() {
        let err = read_pdn("1. 11-15 22-18 *\n\n1. 11-15 15-19 *").unwrap_err();
        assert_eq!((err.game, err.line), (2, 3));
        assert!(err.message.contains("move 2 (15-19)"), "{err}");
        assert!(err.to_string().starts_with("line 3: game 2: "), "{err}");
        assert!(read_pdn("[GameType \"20\"]\n1. 32-28 *").is_err());
        assert!(read_pdn("[FEN \"B:W99:B1\"]\n*").is_err());
        assert!(read_pdn("[Event \"open\n1. 9-13 *").is_err());
        assert!(read_pdn("1. 9-13 {never closed").is_err());
        assert_eq!(read_pdn("  \n").unwrap(), Vec::new());
    }
}
