//! Small helpers for text read from users' files and written to them: the byte-order mark,
//! excerpts of input short enough to quote in a one-line error message, fingerprints of
//! contents, and CSV lines.

/// The UTF-8 byte-order mark some editors write at the start of a file.
const BOM: char = '\u{feff}';

/// `text` without a leading byte-order mark. Lines and their numbers are unchanged.
pub fn strip_bom(text: &str) -> &str {
    text.strip_prefix(BOM).unwrap_or(text)
}

/// Longest excerpt of input quoted in a message, in characters.
const EXCERPT_CHARS: usize = 60;

/// At most 60 characters of `text` on one line (line breaks and tabs become spaces, other
/// control characters are escaped as `\u{1b}`, and an escape counts its characters), followed
/// by `…` when it was cut: whatever a file holds, a quote of it is short and sends nothing to
/// the terminal but text.
pub fn excerpt(text: &str) -> String {
    one_line(text, EXCERPT_CHARS)
}

/// At most `max` characters of `text` on one line, as [`excerpt`] makes them: the one form of
/// another program's text (an engine's name, its answers) wherever it is written — a PDN tag,
/// a CSV field, the terminal —, so that no line break splits a tag or a row and no escape
/// sequence reaches a terminal.
pub fn one_line(text: &str, max: usize) -> String {
    let text = text.trim_end_matches(['\n', '\r']);
    let mut cut = String::new();
    let mut shown = 0;
    let mut one = String::new();
    for c in text.chars() {
        one.clear();
        push_printable(&mut one, c);
        let width = one.chars().count();
        if shown + width > max {
            cut.push('…');
            return cut;
        }
        shown += width;
        cut.push_str(&one);
    }
    cut
}

/// Pushes `c`, or its escape when a terminal would act on it rather than show it: C0 and C1
/// controls (ESC starts the terminal's sequences), and the bidirectional overrides that
/// reorder what is shown.
fn push_printable(out: &mut String, c: char) {
    match c {
        '\n' | '\r' | '\t' => out.push(' '),
        c if c.is_control()
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') =>
        {
            out.extend(c.escape_default())
        }
        c => out.push(c),
    }
}

/// `message` with every span between backticks, or between double quotes, cut to an
/// [`excerpt`]: for messages whose wording is not ours (serde's, the TOML parser's), which quote
/// the value they were given whatever its length.
pub fn clip_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut rest = message;
    while let Some(open) = rest.find(['`', '"']) {
        let quote = rest[open..].chars().next().expect("found a quote");
        out.push_str(&rest[..=open]);
        let after = &rest[open + 1..];
        // An unclosed quote runs to the end: clipped all the same.
        let close = after.find(quote).unwrap_or(after.len());
        out.push_str(&excerpt(&after[..close]));
        rest = &after[close..];
        if let Some(tail) = rest.strip_prefix(quote) {
            out.push(quote);
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// A fingerprint of `bytes`: FNV-1a, 64 bits, in hexadecimal (stable across versions and
/// platforms).
pub fn fingerprint(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// One CSV line, quoted where needed, ending in `\n`.
pub fn csv_line<S: AsRef<[u8]>>(fields: &[S]) -> String {
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    writer
        .write_record(fields)
        .expect("writing to memory cannot fail");
    let bytes = writer.into_inner().expect("writing to memory cannot fail");
    String::from_utf8(bytes).expect("fields are UTF-8")
}

/// Where and what a TOML parse error of config `text` is, as the small configs (`spsa`,
/// `datagen`) report it: `line N: KEY: message`. A key left out is no place in the file: its
/// name is the message. serde names a key left out or unknown, not one whose value is wrong:
/// the line's key says which.
pub fn toml_error_message(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim_end();
    match error.span() {
        Some(span) if span.start > 0 || !message.starts_with("missing field") => {
            let before = text.as_bytes().get(..span.start).unwrap_or(text.as_bytes());
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let key = text
                .lines()
                .nth(line - 1)
                .and_then(|l| l.split_once('='))
                .map(|(key, _)| key.trim())
                .filter(|key| !key.is_empty() && !message.contains(key));
            match key {
                Some(key) => format!("line {line}: {key}: {message}"),
                None => format!("line {line}: {message}"),
            }
        }
        _ => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_short_and_on_one_line() {
        assert_eq!(excerpt("9-13 22-18\n"), "9-13 22-18");
        let long = "x".repeat(61);
        assert_eq!(excerpt(&long), format!("{}…", "x".repeat(60)));
        assert_eq!(excerpt(&long[..60]), "x".repeat(60));
        assert_eq!(excerpt("a\nb"), "a b");
        assert_eq!(excerpt(&"é".repeat(100)).chars().count(), 61);
    }

    #[test]
    fn another_programs_text_is_one_line_of_plain_text() {
        let hostile = "evil\r\nname\u{1b}[2J\0\u{202e}";
        let clean = one_line(hostile, 100);
        assert!(!clean.chars().any(|c| c.is_control()), "{clean:?}");
        assert!(clean.starts_with("evil  name\\u{1b}[2J\\u{0}"), "{clean:?}");
        assert_eq!(one_line(&"y".repeat(300), 200).chars().count(), 201);
    }

    #[test]
    fn control_characters_never_reach_the_terminal() {
        assert_eq!(excerpt("a\u{1b}[31mb\0c\td"), "a\\u{1b}[31mb\\u{0}c d");
        assert_eq!(excerpt("x\u{202e}y\u{7}"), "x\\u{202e}y\\u{7}");
        let flood = "\u{1b}".repeat(10_000);
        let quoted = excerpt(&flood);
        assert!(!quoted.contains('\u{1b}'));
        assert_eq!(quoted, format!("{}…", "\\u{1b}".repeat(10)));
    }

    #[test]
    fn quoted_spans_are_clipped_and_the_rest_is_kept() {
        let long = "y".repeat(5000);
        let clipped = clip_quoted(&format!("unknown variant `{long}`, expected `a` or \"b\""));
        assert_eq!(
            clipped,
            format!(
                "unknown variant `{}…`, expected `a` or \"b\"",
                "y".repeat(60)
            )
        );
        assert_eq!(clip_quoted("no quotes here"), "no quotes here");
        assert_eq!(clip_quoted(&format!("open `{long}")).chars().count(), 67);
        assert_eq!(clip_quoted("``"), "``");
    }

    #[test]
    fn only_a_leading_bom_is_removed() {
        assert_eq!(strip_bom("\u{feff}name = 1\n"), "name = 1\n");
        assert_eq!(strip_bom("a\u{feff}"), "a\u{feff}");
        assert_eq!(strip_bom(""), "");
    }
}
