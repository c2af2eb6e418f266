//! Reading games from PDN text, one game at a time.

use std::io::{self, BufRead};

use super::tokens::{Lexer, Token};
use super::{parse_result, PdnError, PdnGame};
use crate::board::{Move, MoveParseError, Position};
use crate::game::GameResult;
use crate::text::excerpt;

/// Reads the games of a PDN text one at a time, from any buffered reader (a file through
/// `BufReader`, or `&[u8]`): memory holds one game, never the text.
///
/// Each game comes back whole or as the [`PdnError`] that damaged it (the line of the bad
/// token and why); either way the reader then goes on with the next game.
pub struct PdnReader<R> {
    lexer: Lexer<R>,
    /// A tag read that starts the next game.
    ahead: Option<(Token, usize)>,
    /// Games begun so far.
    games: usize,
    /// The line the last game returned starts on.
    last_start: usize,
}

impl<R: BufRead> PdnReader<R> {
    /// A reader of the games in `source`.
    pub fn new(source: R) -> PdnReader<R> {
        PdnReader {
            lexer: Lexer::new(source),
            ahead: None,
            games: 0,
            last_start: 0,
        }
    }

    /// The line (from 1) on which the game last returned by [`PdnReader::next_game`] starts
    /// (its first tag or word): for messages about a game read whole, such as a deck's
    /// position without a move.
    pub fn game_line(&self) -> usize {
        self.last_start
    }

    /// The next game, or why it could not be read; `None` after the last. Only a failure to
    /// read `source` is an `Err`.
    pub fn next_game(&mut self) -> io::Result<Option<Result<PdnGame, PdnError>>> {
        let mut game = Building::default();
        loop {
            let next = match self.ahead.take() {
                Some(token) => Some(token),
                None => self.lexer.next_token()?,
            };
            let Some((token, line)) = next else {
                return Ok((!game.is_empty()).then(|| self.finish(game, None)));
            };
            let starts_next = game.starts_next(&token);
            if !matches!(token, Token::BlankLine) && !starts_next {
                game.first_line.get_or_insert(line);
            }
            match token {
                Token::BlankLine => game.blank_after_tags = !game.tags.is_empty(),
                Token::Tag(name, value) => {
                    if starts_next {
                        self.ahead = Some((Token::Tag(name, value), line));
                        return Ok(Some(self.finish(game, None)));
                    }
                    game.tags.push((name, value, line));
                }
                Token::Word(word) => match parse_result(&word) {
                    Some(result) => return Ok(Some(self.finish(game, Some(result)))),
                    None => game.word(&word, line),
                },
                Token::Bad(message) => game.damage(line, message),
            }
        }
    }

    /// The game built so far, ended by `ended_by` (a result in the move text) or without one.
    fn finish(
        &mut self,
        mut game: Building,
        ended_by: Option<Option<GameResult>>,
    ) -> Result<PdnGame, PdnError> {
        self.games += 1;
        self.last_start = game.first_line.unwrap_or(0);
        let result = game.end(ended_by);
        let number = self.games;
        result.map_err(|(line, message)| PdnError {
            game: number,
            line,
            message,
        })
    }
}

/// Reads every game of a PDN text, stopping at the first that cannot be read.
pub fn read_pdn(text: &str) -> Result<Vec<PdnGame>, PdnError> {
    let mut reader = PdnReader::new(text.as_bytes());
    let mut games = Vec::new();
    while let Some(game) = reader.next_game().expect("reading memory cannot fail") {
        games.push(game?);
    }
    Ok(games)
}

/// The moves of a game being read, from its start.
struct Replay {
    start: Position,
    position: Position,
    moves: Vec<Move>,
}

/// A game as far as it has been read.
#[derive(Default)]
struct Building {
    /// Its tags, each with its line.
    tags: Vec<(String, String, usize)>,
    /// A blank line came after the tags (and no move text yet): a tag now starts a new game.
    blank_after_tags: bool,
    /// Its moves, once the move text has started.
    replay: Option<Replay>,
    /// Words of move text read (move numbers and annotations included).
    words: usize,
    /// The first damage: its line and what it is.
    damage: Option<(usize, String)>,
    /// The line of its first token.
    first_line: Option<usize>,
}

impl Building {
    /// Whether `token` (a tag) starts the next game: after move text, after a blank line that
    /// ends a tag section, or a tag this section already has.
    fn starts_next(&self, token: &Token) -> bool {
        let Token::Tag(name, _) = token else {
            return false;
        };
        self.words > 0
            || (!self.tags.is_empty()
                && (self.blank_after_tags || self.tags.iter().any(|t| &t.0 == name)))
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.words == 0 && self.damage.is_none()
    }

    /// Records damage, unless the game is damaged already (the first damage is the one told).
    /// The message quotes the file only through [`excerpt`]s: it is short and printable.
    fn damage(&mut self, line: usize, message: String) {
        self.damage.get_or_insert((line, message));
    }

    /// The game's start position, from its tags; a bad `FEN` or another game type is damage.
    fn start(&self) -> Result<Position, (usize, String)> {
        let mut start = Position::start();
        for (name, value, line) in &self.tags {
            match name.as_str() {
                "FEN" => {
                    let fen = value.trim();
                    start = Position::from_fen(fen).map_err(|e| {
                        (
                            *line,
                            format!("FEN \"{}\": {}", excerpt(fen), excerpt(&e.to_string())),
                        )
                    })?;
                }
                "GameType" => {
                    let kind = value.split(',').next().unwrap_or("").trim();
                    if kind != "21" {
                        return Err((
                            *line,
                            format!(
                                "GameType \"{}\" is not English checkers (21)",
                                excerpt(value)
                            ),
                        ));
                    }
                }
                _ => {}
            }
        }
        Ok(start)
    }

    /// One word of move text: a move number, an annotation, or a move played on the board.
    fn word(&mut self, word: &str, line: usize) {
        self.words += 1;
        if self.damage.is_some() {
            return;
        }
        if self.replay.is_none() {
            match self.start() {
                Ok(start) => {
                    self.replay = Some(Replay {
                        start,
                        position: start,
                        moves: Vec::new(),
                    })
                }
                Err((line, message)) => return self.damage(line, message),
            }
        }
        let replay = self.replay.as_mut().expect("started above");
        let text = without_glued_text(move_of(word));
        if text.is_empty() {
            return;
        }
        match read_move(&replay.position, text) {
            Ok(mv) => {
                replay.position = replay.position.play(&mv);
                replay.moves.push(mv);
            }
            Err(e) => {
                let number = replay.moves.len() + 1;
                // The word once, cut and escaped; the error quotes its move text cut too.
                let e = match e {
                    MoveParseError::Syntax(text) => MoveParseError::Syntax(excerpt(&text)),
                    MoveParseError::Illegal(text) => MoveParseError::Illegal(excerpt(&text)),
                    MoveParseError::Ambiguous(text, paths) => {
                        MoveParseError::Ambiguous(excerpt(&text), paths)
                    }
                };
                self.damage(line, format!("move {number} ({}): {e}", excerpt(word)));
            }
        }
    }

    /// The finished game, or its damage.
    fn end(&mut self, ended_by: Option<Option<GameResult>>) -> Result<PdnGame, (usize, String)> {
        if let Some(damage) = self.damage.take() {
            return Err(damage);
        }
        let (start, mut moves) = match self.replay.take() {
            Some(replay) => (replay.start, replay.moves),
            None => (self.start()?, Vec::new()),
        };
        // A caller may keep hundreds of thousands of games: no spare capacity in each.
        moves.shrink_to_fit();
        let mut result = ended_by.flatten();
        let mut tags = Vec::with_capacity(self.tags.len());
        for (name, value, line) in std::mem::take(&mut self.tags) {
            match name.as_str() {
                "FEN" | "GameType" => {}
                "Result" => {
                    // The result that ends the move text wins over the tag.
                    if ended_by.is_none() {
                        result = parse_result(value.trim()).ok_or_else(|| {
                            (
                                line,
                                format!("Result \"{}\" is not a PDN result", excerpt(&value)),
                            )
                        })?;
                    }
                }
                _ => tags.push((name, value)),
            }
        }
        Ok(PdnGame {
            tags,
            start,
            moves,
            result,
        })
    }
}

/// The move in a word of move text, without a move number before it (`12.`, `12...`, glued
/// or alone) or annotations after it (`!`, `?`, `*`, `$n`); empty for a word that is only a
/// move number or an annotation.
fn move_of(word: &str) -> &str {
    let mut text = word;
    let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && text[digits..].starts_with('.') {
        text = text[digits..].trim_start_matches('.');
    }
    loop {
        let trimmed = text.trim_end_matches(['!', '?', '*']);
        // A numeric annotation glyph, alone or glued: `$1`.
        let trimmed = match trimmed.rfind('$') {
            Some(at) if trimmed[at + 1..].chars().all(|c| c.is_ascii_digit()) => &trimmed[..at],
            _ => trimmed,
        };
        if trimmed.len() == text.len() {
            return text;
        }
        text = trimmed;
    }
}

/// A move with text glued after it (`26-22White overstepped…`, a comment whose spaces and
/// braces were lost): the move alone, as CheckerBoard reads it. The text must start with a
/// letter other than `x`, so that no malformed move passes for a move.
fn without_glued_text(word: &str) -> &str {
    let bytes = word.as_bytes();
    let mut end = 0;
    let mut squares = 0;
    loop {
        let digits = bytes[end..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 {
            break;
        }
        end += digits;
        squares += 1;
        match bytes.get(end) {
            Some(b'-' | b'x' | b'X') if bytes.get(end + 1).is_some_and(u8::is_ascii_digit) => {
                end += 1
            }
            _ => break,
        }
    }
    let glued = word[end..]
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() && c != 'x' && c != 'X');
    if squares >= 2 && glued {
        &word[..end]
    } else {
        word
    }
}

/// Reads a move as CheckerBoard does: by its squares, whatever separates them. The exact
/// notation first (`9-13`, `9x18`, `9x18x27` or the short `9x27`); else `x` written for a
/// plain move or `-` for a jump, accepted when exactly one legal move goes from the first
/// square to the last (through the squares between, if any are given).
fn read_move(position: &Position, text: &str) -> Result<Move, MoveParseError> {
    let exact = match position.parse_move(text) {
        Ok(mv) => return Ok(mv),
        Err(e @ MoveParseError::Ambiguous(..)) => return Err(e),
        Err(e) => e,
    };
    let Some(squares) = text
        .split(['-', 'x', 'X'])
        .map(|s| s.parse::<u8>().ok().filter(|n| (1..=32).contains(n)))
        .collect::<Option<Vec<u8>>>()
        .filter(|squares| squares.len() >= 2)
    else {
        return Err(exact);
    };
    let (from, to) = (squares[0], squares[squares.len() - 1]);
    let moves = position.legal_moves();
    let matching: Vec<&Move> = moves
        .iter()
        .filter(|m| m.from() == from && m.to() == to)
        .filter(|m| squares.len() == 2 || m.squares().as_slice() == squares.as_slice())
        .collect();
    match matching.as_slice() {
        [one] => Ok(**one),
        [] => Err(exact),
        many => Err(MoveParseError::Ambiguous(
            text.to_string(),
            many.iter().map(|m| m.to_string()).collect(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game of `bytes`, read or damaged.
    fn games(bytes: &[u8]) -> Vec<Result<PdnGame, PdnError>> {
        let mut reader = PdnReader::new(bytes);
        let mut out = Vec::new();
        while let Some(game) = reader.next_game().unwrap() {
            out.push(game);
        }
        out
    }

    fn moves(game: &PdnGame) -> Vec<String> {
        game.moves.iter().map(Move::to_string).collect()
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
    fn move_numbers_and_annotations_are_stripped() {
        for (word, bare) in [
            ("1.", ""),
            ("12...", ""),
            ("1.9-13", "9-13"),
            ("1...22-18", "22-18"),
            ("9-13!?", "9-13"),
            ("9-13??", "9-13"),
            ("9-13*", "9-13"),
            ("9-13$12", "9-13"),
            ("9-13!$1", "9-13"),
            ("$3", ""),
            ("!?", ""),
            ("9-13", "9-13"),
        ] {
            assert_eq!(move_of(word), bare, "{word}");
        }
    }

    #[test]
    fn text_glued_to_a_move_is_dropped_when_it_starts_with_a_letter() {
        assert_eq!(without_glued_text("26-22White overstepped."), "26-22");
        assert_eq!(without_glued_text("8x15x22Red"), "8x15x22");
        for kept in [
            "9-13", "9-13x", "9-13xy", "9-", "9-13-", "Red", "9-13,a", "1-0Foo1",
        ] {
            let want = if kept == "1-0Foo1" { "1-0" } else { kept };
            assert_eq!(without_glued_text(kept), want, "{kept}");
        }
    }

    #[test]
    fn x_for_a_plain_move_and_a_dash_for_a_jump_when_only_one_move_fits() {
        let text = "1. 10x14 23-18 2. 14-23 27x18 3. 9-14 18-9 5-14 *";
        let [Ok(game)] = &games(text.as_bytes())[..] else {
            panic!("one game read");
        };
        assert_eq!(
            moves(game),
            ["10-14", "23-18", "14x23", "27x18", "9-14", "18x9", "5x14"]
        );
        // A jump written square by square with dashes is taken when its path is a jump's.
        let pos = Position::from_fen("B:W18,27:B14").unwrap();
        assert_eq!(read_move(&pos, "14-23-32").unwrap().to_string(), "14x23x32");
        assert_eq!(read_move(&pos, "14-32").unwrap().to_string(), "14x23x32");
        // Not the path of the jump, and not where the jump ends.
        assert!(read_move(&pos, "14-23-27").is_err());
        assert!(read_move(&pos, "14-23").is_err());
        // Still refused: squares no legal move has.
        assert!(read_move(&Position::start(), "10x19").is_err());
        assert!(read_move(&Position::start(), "10x14x18").is_err());
    }

    #[test]
    fn a_tag_only_game_is_a_game_of_its_own() {
        let text = "[Event \"a\"]\n[FEN \"W:W21:B1\"]\n\n[Event \"b\"]\n1. 9-13 *\n\
                    [Event \"c\"]\n[Event \"d\"]\n[Result \"1-0\"]\n\n1. 11-15 1-0\n\
                    [FEN \"B:W19,23,22:B4,3,2\"] *\n[FEN \"W:W18:BK3\"] *";
        let read: Vec<PdnGame> = games(text.as_bytes())
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert_eq!(read.len(), 6);
        assert_eq!(read[0].tag("Event"), Some("a"));
        assert!(read[0].moves.is_empty());
        assert_eq!(read[0].start, Position::from_fen("W:W21:B1").unwrap());
        // The FEN of the tag-only game stays with it.
        assert_eq!(read[1].start, Position::start());
        assert_eq!(moves(&read[1]), ["9-13"]);
        assert_eq!(read[2].tag("Event"), Some("c"));
        assert_eq!(read[3].tag("Event"), Some("d"));
        assert_eq!(read[3].result, Some(GameResult::BlackWin));
        assert_eq!(read[4].start.to_fen(), "B:W19,22,23:B2,3,4");
        assert_eq!(read[5].start.to_fen(), "W:W18:BK3");
    }

    #[test]
    fn a_damaged_game_names_the_line_of_its_bad_token_and_the_next_game_is_read() {
        let text = "[Event \"one\"]\n1. 11-15 22-18\n2. 15x22 25x18\n3. 12-16 18-22 *\n\
                    [Event \"two\"]\n1. 11-15 23-19 1-0\n\
                    [Event \"three\"]\n[FEN \"B:W99:B1\"]\n1. 1-5 *\n\
                    [Event \"four\"]\n1. 9-13 abc 22-18 1/2-1/2\n\
                    [Event \"five\"]\n[GameType \"20\"]\n1. 32-28 *\n\
                    [Event \"six\"]\n1. 9-13 {open\n";
        let got = games(text.as_bytes());
        assert_eq!(got.len(), 6);
        let err = got[0].as_ref().unwrap_err();
        assert_eq!((err.game, err.line), (1, 4));
        assert!(err.message.starts_with("move 6 (18-22): "), "{err}");
        assert_eq!(err.to_string(), format!("line 4: game 1: {}", err.message));
        assert_eq!(got[1].as_ref().unwrap().tag("Event"), Some("two"));
        let err = got[2].as_ref().unwrap_err();
        assert_eq!((err.game, err.line), (3, 8));
        assert!(err.message.starts_with("FEN"), "{err}");
        let err = got[3].as_ref().unwrap_err();
        assert_eq!(err.line, 11);
        assert!(
            err.message
                .starts_with("move 2 (abc): \"abc\" is not a move"),
            "{err}"
        );
        assert_eq!(got[4].as_ref().unwrap_err().line, 13);
        let err = got[5].as_ref().unwrap_err();
        assert_eq!(err.line, 16);
        assert!(err.message.contains("never closed"), "{err}");
    }

    #[test]
    fn strict_reading_stops_at_the_first_damage() {
        let err = read_pdn("1. 11-15 22-18 *\n\n1. 11-15 15-19 *").unwrap_err();
        assert_eq!((err.game, err.line), (2, 3));
        assert!(err.message.contains("move 2 (15-19)"), "{err}");
        assert!(read_pdn("[Event \"open\n1. 9-13 *").is_err());
        assert_eq!(read_pdn("  \n").unwrap(), Vec::new());
        // A result alone is a game.
        assert_eq!(read_pdn("*").unwrap().len(), 1);
    }

    #[test]
    fn a_bad_word_is_quoted_once_cut_and_escaped() {
        let mut text = b"1. 9-13 \x1bX".to_vec();
        text.extend(std::iter::repeat_n(b'z', 100_000));
        text.extend(b" *\n");
        let err = games(&text).remove(0).unwrap_err();
        let shown = err.to_string();
        assert!(!shown.contains('\u{1b}'), "{shown}");
        assert!(shown.len() < 400, "{} bytes: {shown}", shown.len());
        assert!(
            shown.starts_with("line 1: game 1: move 2 (\\u{1b}Xzzz"),
            "{shown}"
        );
    }

    #[test]
    fn games_after_a_comment_in_a_cr_only_file_are_read_with_their_lines() {
        let text = "[Event \"a\"]\r1. 9-13 ; note\r22-18 *\r\r[Event \"b\"]\r1. 11-15 23-19 *\r\r\
                    [Event \"c\"]\r1. 12-16 16-19 *\r";
        let got = games(text.as_bytes());
        assert_eq!(got.len(), 3);
        assert_eq!(moves(got[0].as_ref().unwrap()), ["9-13", "22-18"]);
        assert_eq!(got[1].as_ref().unwrap().tag("Event"), Some("b"));
        assert_eq!(got[2].as_ref().unwrap_err().line, 9);
    }

    #[test]
    fn the_reader_tells_the_line_each_game_starts_on() {
        let mut reader =
            PdnReader::new("\n[Event \"a\"]\n1. 9-13 *\n\n\n[Event \"b\"]\n\n11-15 *".as_bytes());
        reader.next_game().unwrap().unwrap().unwrap();
        assert_eq!(reader.game_line(), 2);
        reader.next_game().unwrap().unwrap().unwrap();
        assert_eq!(reader.game_line(), 6);
    }
}
