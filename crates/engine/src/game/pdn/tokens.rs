//! PDN text as tokens (tags, move-text words, blank lines, and what cannot be read), each with
//! the line it starts on, read from a byte stream a piece at a time.
//!
//! Bytes are decoded a line at a time: a line that is valid UTF-8 is read as UTF-8, any other as
//! Latin-1 (every byte a character), so a collection written by an old Windows program reads
//! with its accents and never fails on a byte. A line longer than [`PIECE`] is decoded in pieces
//! of that size, so memory never grows with the file or with its longest line. A line ends at
//! LF, CRLF or a lone CR (old Mac files): the lexer sees `\n` for each.
//!
//! Tokens are bounded too: a word keeps its first [`MAX_WORD`] characters and a tag's name and
//! value their first [`MAX_TAG`] (the rest is read and dropped, and a cut tag is damage), so a
//! file of one 2 GB "word" is read in constant memory and quoted in a short message.

use std::io::{self, BufRead, Read};

use crate::text::excerpt;

/// The most bytes decoded at once: a longer line (a comment of megabytes on one line) is read
/// in pieces of this size.
const PIECE: u64 = 64 * 1024;

/// The most characters of a move-text word kept: the longest move (a king's jump over every
/// man, with annotations) is under 60; more is glued text or damage, quoted cut in any case.
pub(super) const MAX_WORD: usize = 256;

/// The most characters of a tag's name or value kept (an `Event` or a long `FEN` fits).
pub(super) const MAX_TAG: usize = 4096;

/// The UTF-8 byte-order mark some editors write at the start of a file.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// One token of PDN text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token {
    /// `[Name "value"]`, with `\"` and `\\` unescaped in the value.
    Tag(String, String),
    /// A word of move text: a move, a move number, a result, an annotation, or anything else
    /// between spaces.
    Word(String),
    /// A line with nothing on it but spaces: it ends a game's tag section.
    BlankLine,
    /// Text that cannot be read, and why.
    Bad(String),
}

/// Characters decoded from a byte stream, with the line of the next one.
struct Chars<R> {
    source: R,
    /// The decoded piece and the position in it.
    text: Vec<char>,
    at: usize,
    /// The line (from 1) of `text[at]`.
    line: usize,
    /// Bytes of an incomplete UTF-8 character at the end of the last piece of a long line.
    carry: Vec<u8>,
    /// Raw bytes of the piece being decoded (kept to reuse its allocation).
    bytes: Vec<u8>,
    /// No piece read yet (a byte-order mark is dropped from the first).
    first: bool,
    /// The last piece ended with a CR: an LF starting this one is the rest of its CRLF.
    after_cr: bool,
}

impl<R: BufRead> Chars<R> {
    /// The next character, reading the next piece when this one is used up; `None` at the end.
    fn peek(&mut self) -> io::Result<Option<char>> {
        while self.at == self.text.len() {
            if !self.fill()? {
                return Ok(None);
            }
        }
        Ok(Some(self.text[self.at]))
    }

    /// Steps over the characters of a word (up to a space, a line break or one of
    /// `{([;)}`), without keeping them: the rest of a word longer than [`MAX_WORD`], skipped in
    /// a tight loop so that a file of one 2 GB word takes seconds, not minutes.
    fn skip_word(&mut self) -> io::Result<()> {
        loop {
            while let Some(&c) = self.text.get(self.at) {
                if c.is_whitespace() || "{([;)}".contains(c) {
                    return Ok(());
                }
                self.at += 1;
            }
            if !self.fill()? {
                return Ok(());
            }
        }
    }

    /// Steps over the character `peek` gave.
    fn bump(&mut self) {
        if self.text.get(self.at) == Some(&'\n') {
            self.line += 1;
        }
        self.at += 1;
    }

    /// Reads and decodes the next piece: up to a line break, or [`PIECE`] bytes of a long line.
    /// `false` at the end of the stream.
    fn fill(&mut self) -> io::Result<bool> {
        self.bytes.clear();
        self.bytes.append(&mut self.carry);
        let read = (&mut self.source)
            .take(PIECE)
            .read_until(b'\n', &mut self.bytes)?;
        if read == 0 && self.bytes.is_empty() {
            return Ok(false);
        }
        if std::mem::take(&mut self.first) && self.bytes.starts_with(BOM) {
            self.bytes.drain(..BOM.len());
        }
        let whole_line = read == 0 || self.bytes.ends_with(b"\n");
        self.text.clear();
        self.at = 0;
        match std::str::from_utf8(&self.bytes) {
            Ok(text) => self.text.extend(text.chars()),
            // A character cut by the end of a piece of a long line: decoded with the next piece.
            Err(e) if e.error_len().is_none() && !whole_line => {
                let valid = e.valid_up_to();
                self.carry.extend_from_slice(&self.bytes[valid..]);
                let text = std::str::from_utf8(&self.bytes[..valid]).expect("valid up to here");
                self.text.extend(text.chars());
            }
            // Not UTF-8: Latin-1, where every byte is the character of that number.
            Err(_) => self.text.extend(self.bytes.iter().map(|&b| char::from(b))),
        }
        self.line_ends();
        Ok(true)
    }

    /// Every line end of the decoded piece as one `\n`: CRLF loses its CR, a lone CR becomes
    /// LF (a CR-only file has lines, and a `;` comment ends at its line's end).
    fn line_ends(&mut self) {
        let after_cr = std::mem::take(&mut self.after_cr);
        if !self.text.contains(&'\r') && !after_cr {
            return;
        }
        let mut kept = 0;
        let mut previous_cr = after_cr;
        for i in 0..self.text.len() {
            let c = self.text[i];
            if c == '\n' && previous_cr {
                previous_cr = false;
                continue;
            }
            previous_cr = c == '\r';
            self.text[kept] = if previous_cr { '\n' } else { c };
            kept += 1;
        }
        self.text.truncate(kept);
        self.after_cr = previous_cr;
    }
}

/// Where the lexer is between tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Within {
    /// Tags and move text.
    Text,
    /// A `{…}` comment opened on `line`.
    Comment { line: usize },
    /// A `(…)` variation opened on `line`, `depth` deep, perhaps in a comment of its own.
    Variation {
        line: usize,
        depth: usize,
        comment: bool,
    },
}

/// Splits PDN text into tokens, dropping comments (`{…}`, which end at the first `}`, and `;` to
/// the end of the line), variations (`(…)`, nested, with whatever their comments hold) and
/// `%` escape lines.
pub(super) struct Lexer<R> {
    chars: Chars<R>,
    within: Within,
    /// Whether the current line held anything but spaces so far.
    line_used: bool,
    /// Whether the last character read was a line break (or nothing was read yet).
    line_start: bool,
}

impl<R: BufRead> Lexer<R> {
    /// A lexer over `source`.
    pub(super) fn new(source: R) -> Lexer<R> {
        Lexer {
            chars: Chars {
                source,
                text: Vec::new(),
                at: 0,
                line: 1,
                carry: Vec::new(),
                bytes: Vec::new(),
                first: true,
                after_cr: false,
            },
            within: Within::Text,
            line_used: false,
            line_start: true,
        }
    }

    /// The next character, without stepping over it.
    fn peek(&mut self) -> io::Result<Option<char>> {
        self.chars.peek()
    }

    /// Steps over the character just peeked, keeping track of lines.
    fn bump(&mut self, c: char) {
        self.chars.bump();
        self.line_start = c == '\n';
        if c == '\n' {
            self.line_used = false;
        } else if !c.is_whitespace() {
            self.line_used = true;
        }
    }

    /// Steps over the rest of the line, leaving its line break.
    fn skip_line(&mut self) -> io::Result<()> {
        while let Some(c) = self.peek()? {
            if c == '\n' {
                break;
            }
            self.bump(c);
        }
        Ok(())
    }

    /// The next token and the line it starts on; `None` at the end of the text.
    pub(super) fn next_token(&mut self) -> io::Result<Option<(Token, usize)>> {
        loop {
            let Some(c) = self.peek()? else {
                return Ok(self.unclosed());
            };
            let line = self.chars.line;
            match self.within {
                Within::Comment { .. } => {
                    self.bump(c);
                    if c == '}' {
                        self.within = Within::Text;
                    }
                    continue;
                }
                Within::Variation {
                    line: opened,
                    depth,
                    comment,
                } => {
                    self.bump(c);
                    let depth = match c {
                        '}' if comment => {
                            self.within = Within::Variation {
                                line: opened,
                                depth,
                                comment: false,
                            };
                            continue;
                        }
                        _ if comment => continue,
                        '{' => {
                            self.within = Within::Variation {
                                line: opened,
                                depth,
                                comment: true,
                            };
                            continue;
                        }
                        ';' => {
                            self.skip_line()?;
                            continue;
                        }
                        '(' => depth + 1,
                        ')' => depth - 1,
                        _ => continue,
                    };
                    self.within = if depth == 0 {
                        Within::Text
                    } else {
                        Within::Variation {
                            line: opened,
                            depth,
                            comment: false,
                        }
                    };
                    continue;
                }
                Within::Text => {}
            }
            match c {
                '\n' => {
                    let blank = !self.line_used;
                    self.bump(c);
                    if blank {
                        return Ok(Some((Token::BlankLine, line)));
                    }
                }
                c if c.is_whitespace() => self.bump(c),
                '%' if self.line_start => self.skip_line()?,
                ';' => {
                    self.bump(c);
                    self.skip_line()?;
                }
                '{' => {
                    self.bump(c);
                    self.within = Within::Comment { line };
                }
                '(' => {
                    self.bump(c);
                    self.within = Within::Variation {
                        line,
                        depth: 1,
                        comment: false,
                    };
                }
                ')' | '}' => {
                    self.bump(c);
                    let open = if c == ')' { '(' } else { '{' };
                    let bad = format!("a {c} without a {open} before it");
                    return Ok(Some((Token::Bad(bad), line)));
                }
                '[' => return self.tag().map(|token| Some((token, line))),
                _ => return self.word().map(|token| Some((token, line))),
            }
        }
    }

    /// At the end of the text: a comment or variation still open is damage on the line it was
    /// opened on.
    fn unclosed(&mut self) -> Option<(Token, usize)> {
        let within = std::mem::replace(&mut self.within, Within::Text);
        match within {
            Within::Text => None,
            Within::Comment { line } => Some((
                Token::Bad(format!(
                    "the comment opened with {{ on line {line} is never closed by }}"
                )),
                line,
            )),
            Within::Variation { line, .. } => Some((
                Token::Bad(format!(
                    "the variation opened with ( on line {line} is never closed by )"
                )),
                line,
            )),
        }
    }

    /// A word of move text: up to a space or the start of a comment, variation or tag; its
    /// first [`MAX_WORD`] characters.
    fn word(&mut self) -> io::Result<Token> {
        let mut word = String::new();
        let mut kept = 0;
        while let Some(c) = self.peek()? {
            if c.is_whitespace() || "{([;)}".contains(c) {
                break;
            }
            self.bump(c);
            word.push(c);
            kept += 1;
            if kept == MAX_WORD {
                // The rest is not kept: a word this long is no move, and is quoted cut.
                self.chars.skip_word()?;
                break;
            }
        }
        Ok(Token::Word(word))
    }

    /// `[Name "value"]` on one line; anything else is bad, and the rest of its line is skipped.
    fn tag(&mut self) -> io::Result<Token> {
        self.bump('[');
        let mut name = String::new();
        let mut name_chars = 0;
        while let Some(c) = self.peek()? {
            if c.is_whitespace() || c == '"' || c == ']' {
                break;
            }
            self.bump(c);
            name_chars += 1;
            if name_chars <= MAX_TAG {
                name.push(c);
            }
        }
        let quoted = excerpt(&name);
        self.skip_spaces()?;
        if name.is_empty() || self.peek()? != Some('"') {
            self.skip_line()?;
            return Ok(Token::Bad(format!("tag [{quoted} …] has no quoted value")));
        }
        self.bump('"');
        let mut value = String::new();
        let mut value_chars = 0;
        loop {
            let c = match self.peek()? {
                None | Some('\n') => {
                    return Ok(Token::Bad(format!(
                        "the value of tag {quoted} is not closed by \" on its line"
                    )))
                }
                Some('\\') => {
                    self.bump('\\');
                    match self.peek()? {
                        Some(c @ ('"' | '\\')) => {
                            self.bump(c);
                            c
                        }
                        _ => '\\',
                    }
                }
                Some('"') => {
                    self.bump('"');
                    break;
                }
                Some(c) => {
                    self.bump(c);
                    c
                }
            };
            value_chars += 1;
            if value_chars <= MAX_TAG {
                value.push(c);
            }
        }
        self.skip_spaces()?;
        if self.peek()? != Some(']') {
            self.skip_line()?;
            return Ok(Token::Bad(format!("tag {quoted} is not closed by ]")));
        }
        self.bump(']');
        if name_chars > MAX_TAG || value_chars > MAX_TAG {
            return Ok(Token::Bad(format!(
                "tag {quoted} is longer than a tag may be ({MAX_TAG} characters of name or value)"
            )));
        }
        Ok(Token::Tag(name, value))
    }

    /// Steps over spaces and tabs (not line breaks).
    fn skip_spaces(&mut self) -> io::Result<()> {
        while let Some(c) = self.peek()? {
            if c == '\n' || !c.is_whitespace() {
                break;
            }
            self.bump(c);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every token of `bytes` with its line.
    fn tokens(bytes: &[u8]) -> Vec<(Token, usize)> {
        let mut lexer = Lexer::new(bytes);
        let mut out = Vec::new();
        while let Some(token) = lexer.next_token().unwrap() {
            out.push(token);
        }
        out
    }

    fn word(w: &str, line: usize) -> (Token, usize) {
        (Token::Word(w.to_string()), line)
    }

    #[test]
    fn comments_end_at_the_first_brace_and_variations_skip_their_comments() {
        let text = b"1. 9-13 {a { inside} 22-18 (2. 10-14 {a ) here} (nested) ; a ) too\n 25-22)\
                     11-15 ; rest ( of line\n24-20";
        assert_eq!(
            tokens(text),
            vec![
                word("1.", 1),
                word("9-13", 1),
                word("22-18", 1),
                word("11-15", 2),
                word("24-20", 3)
            ]
        );
    }

    #[test]
    fn tags_blank_lines_crlf_and_a_bom() {
        let text = b"\xef\xbb\xbf[Event \"a \\\"b\\\" ]\"]\r\n\r\n1. 9-13 *\r\n";
        assert_eq!(
            tokens(text),
            vec![
                (Token::Tag("Event".into(), "a \"b\" ]".into()), 1),
                (Token::BlankLine, 2),
                word("1.", 3),
                word("9-13", 3),
                word("*", 3)
            ]
        );
    }

    #[test]
    fn latin1_lines_are_read_as_latin1_and_utf8_lines_as_utf8() {
        let text = b"[White \"Jos\xe9\"]\n[Black \"Jos\xc3\xa9\"]\n";
        let names: Vec<Token> = tokens(text).into_iter().map(|(t, _)| t).collect();
        assert_eq!(
            names,
            vec![
                Token::Tag("White".into(), "José".into()),
                Token::Tag("Black".into(), "José".into())
            ]
        );
    }

    #[test]
    fn damage_is_reported_on_its_line() {
        let text = b"[Event \"open\n1. 9-13 }\n{ never closed\n\n";
        let got = tokens(text);
        assert!(matches!(&got[0], (Token::Bad(m), 1) if m.contains("not closed")));
        assert_eq!(got[1], word("1.", 2));
        assert_eq!(got[2], word("9-13", 2));
        assert!(matches!(&got[3], (Token::Bad(m), 2) if m.contains("without a {")));
        assert!(matches!(&got[4], (Token::Bad(m), 3) if m.contains("line 3 is never closed")));
        assert_eq!(got.len(), 5);
        assert!(
            matches!(&tokens(b"( 1. 9-13")[..], [(Token::Bad(m), 1)] if m.contains("variation"))
        );
    }

    #[test]
    fn a_line_longer_than_a_piece_keeps_its_words_and_characters_whole() {
        let mut text = b"{".to_vec();
        // An accented character astride the end of the first piece.
        text.extend(std::iter::repeat_n(b'a', PIECE as usize - 2));
        text.extend("é} 9-13".as_bytes());
        text.extend(std::iter::repeat_n(b' ', PIECE as usize));
        text.extend(b"22-18\n11-15");
        assert_eq!(
            tokens(&text),
            vec![word("9-13", 1), word("22-18", 1), word("11-15", 2)]
        );
    }

    #[test]
    fn a_lone_cr_ends_a_line_and_crlf_astride_two_pieces_is_one_end() {
        let text = b"[Event \"a\"]\r1. 9-13 ; a comment\r22-18 *\r\r[Event \"b\"]\r11-15 *";
        assert_eq!(
            tokens(text),
            vec![
                (Token::Tag("Event".into(), "a".into()), 1),
                word("1.", 2),
                word("9-13", 2),
                word("22-18", 3),
                word("*", 3),
                (Token::BlankLine, 4),
                (Token::Tag("Event".into(), "b".into()), 5),
                word("11-15", 6),
                word("*", 6),
            ]
        );
        // A CR as the last byte of a piece and its LF the first of the next.
        let mut text = b"9-13".to_vec();
        text.resize(PIECE as usize - 1, b' ');
        text.extend(b"\r\n22-18\r\n11-15");
        assert_eq!(
            tokens(&text),
            vec![word("9-13", 1), word("22-18", 2), word("11-15", 3)]
        );
    }

    #[test]
    fn words_and_tags_are_cut_to_their_bounds() {
        let mut text = vec![0u8; 3 * PIECE as usize];
        text.extend(b" 9-13\n[Event \"");
        text.extend(std::iter::repeat_n(b'e', MAX_TAG + 1));
        text.extend(b"\"]\n22-18");
        let got = tokens(&text);
        assert!(matches!(&got[0], (Token::Word(w), 1) if w.chars().count() == MAX_WORD));
        assert_eq!(got[1], word("9-13", 1));
        assert!(
            matches!(&got[2], (Token::Bad(m), 2) if m.contains("longer than a tag may be")),
            "{got:?}"
        );
        assert_eq!(got[3], word("22-18", 3));
    }
}
