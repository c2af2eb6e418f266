//! What the pictures' tests share: reading an SVG's labels and a refusal's message.

use checkers_engine::error::Error;

/// The SVG's text with its escapes read back, to look for labels in.
pub(super) fn unescaped(svg: &str) -> String {
    svg.replace("&apos;", "'")
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// The message of `result`'s bad-input error (any other outcome fails the test).
pub(super) fn input_message<T: std::fmt::Debug>(result: Result<T, Error>) -> String {
    match result {
        Err(Error::Input(message)) => message,
        other => panic!("expected bad input, got {other:?}"),
    }
}
