//! The command line's spelling of the engine's search settings: `match`'s `--min-depth`,
//! `--max-depth` and `--tie-break`, and the parsers of `exact|selective` and `first|random`.
//! The settings themselves, with their one default and their checks, are the engine's
//! [`SearchParams`]; clap stays in the binary.

use checkers_engine::game::{SearchMode, SearchParams, TieBreak};
use clap::builder::{PossibleValuesParser, TypedValueParser};

/// `match`'s search options: both sides' depths and tie-break, the rest of [`SearchParams`]
/// at its defaults.
#[derive(Clone, Copy, Debug, clap::Args)]
pub struct SearchArgs {
    /// Full-width search depth in plies.
    #[arg(long, default_value_t = SearchParams::default().min_depth, value_name = "D")]
    pub min_depth: u32,
    /// Depth up to which capture sequences are searched further.
    #[arg(long, default_value_t = SearchParams::default().max_depth, value_name = "D")]
    pub max_depth: u32,
    /// How equal-valued moves are chosen: `first` in generation order, or `random` (drawn from
    /// the game's seeded stream).
    #[arg(long, value_parser = tie_break(), default_value = "first", value_name = "first|random",
          hide_possible_values = true)]
    pub tie_break: TieBreak,
}

impl SearchArgs {
    /// The search settings these options give.
    pub fn params(&self) -> SearchParams {
        SearchParams {
            min_depth: self.min_depth,
            max_depth: self.max_depth,
            tie_break: self.tie_break,
            ..SearchParams::default()
        }
    }
}

/// Reads `exact` or `selective`.
pub fn search_mode() -> impl TypedValueParser<Value = SearchMode> {
    let modes = [SearchMode::Exact, SearchMode::Selective];
    PossibleValuesParser::new(modes.map(SearchMode::name)).map(move |name| {
        *modes
            .iter()
            .find(|mode| mode.name() == name)
            .expect("clap checked the name")
    })
}

/// Reads `first` or `random`.
fn tie_break() -> impl TypedValueParser<Value = TieBreak> {
    let ways = [TieBreak::First, TieBreak::Random];
    PossibleValuesParser::new(ways.map(TieBreak::name)).map(move |name| {
        *ways
            .iter()
            .find(|way| way.name() == name)
            .expect("clap checked the name")
    })
}
