//! The openings of a match: the deck `--openings` names, cut to `--pairs` and repeated
//! `--repeat` times.

use std::path::{Path, PathBuf};

use checkers_engine::error::{Error, Result};
use checkers_engine::game::{
    GameSettings, Opening, OpeningsSource, TieBreak, DECK_NAMES, RANDOM_OPENING_BALANCE,
};

use super::args::MatchArgs;

/// Most repeats of the deck `--repeat` accepts.
const MAX_REPEAT: usize = 1000;

/// The deck cut to `--pairs` and repeated `--repeat` times, with a label for the header.
pub(super) fn select_pairs(
    mut deck: Vec<Opening>,
    label: &str,
    args: &MatchArgs,
    settings: &GameSettings,
) -> Result<(Vec<Opening>, String)> {
    let mut label = label.to_string();
    if let Some(n) = args.pairs {
        if n == 0 || n > deck.len() {
            return Err(Error::input(format!(
                "--pairs {n}: expected 1 to {}, the openings of {label}",
                deck.len()
            )));
        }
        if n < deck.len() {
            label = format!("the first {n} of {label}");
            deck.truncate(n);
        }
    }
    if !(1..=MAX_REPEAT).contains(&args.repeat) {
        return Err(Error::input(format!(
            "--repeat {}: expected 1 to {MAX_REPEAT}",
            args.repeat
        )));
    }
    if args.repeat > 1 {
        if settings.search.tie_break != TieBreak::Random {
            return Err(Error::input(format!(
                "--repeat {}: with --tie-break first every repeat replays the same games; add \
                 --tie-break random (each repeat then draws its ties from streams of its own)",
                args.repeat
            )));
        }
        label = format!("{label}, {} times", args.repeat);
        deck = std::iter::repeat_n(deck, args.repeat).flatten().collect();
    }
    Ok((deck, label))
}

/// How many random openings `--openings random:N` draws without `--pairs`: as many as the
/// 3-move deck has.
const RANDOM_PAIRS: usize = 156;

/// The openings named by `--openings` (a deck name or a file), with a label for the header.
pub(super) fn openings(
    arg: &str,
    pairs: Option<usize>,
    seed: u64,
) -> Result<(Vec<Opening>, String)> {
    let source = match OpeningsSource::from_deck_name(arg) {
        Some(source) => source.map_err(|e| Error::input(format!("--openings {e}")))?,
        None if !Path::new(arg).exists() => {
            let hint = if looks_like_three_move(arg) {
                "; did you mean `3-move` (the ACF ballot deck)?"
            } else {
                ""
            };
            return Err(Error::input(format!(
                "--openings {arg:?}: no such file, and not a deck name: the decks are \
                 {DECK_NAMES}{hint}"
            )));
        }
        None => OpeningsSource::File(PathBuf::from(arg)),
    };
    let count = pairs.unwrap_or(RANDOM_PAIRS);
    let deck = source.match_deck(count, seed, RANDOM_OPENING_BALANCE)?;
    let label = match &source {
        OpeningsSource::Start => "the initial position".to_string(),
        OpeningsSource::ThreeMove => "ACF 3-move deck".to_string(),
        OpeningsSource::Tough => "the tough deck".to_string(),
        OpeningsSource::Random(plies) => format!(
            "random:{plies} ({} distinct openings of {plies} random plies, level within \
             {RANDOM_OPENING_BALANCE} at depth 4, from seed {seed})",
            deck.len()
        ),
        OpeningsSource::File(_) => format!("file {arg}"),
    };
    Ok((deck, label))
}

/// Whether a name that is not a file was meant as the 3-move deck (`3move`, `three-move`, …).
fn looks_like_three_move(name: &str) -> bool {
    let letters: String = name
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    matches!(
        letters.as_str(),
        "3move" | "threemove" | "3moves" | "threemoves" | "3mv"
    )
}
