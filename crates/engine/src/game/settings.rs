//! How a game is played: each side's search, the draw rules, the clock.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::bounded::int_in;
use crate::egdb::{EndgameDb, MAX_DATABASE_PIECES};
use crate::eval::DEFAULT_ENDGAME_PIECES;
use crate::search::{
    LimitsError, SearchBudget, SearchGenes, SearchLimits, SelectiveParams, TimeBank,
    AVERAGE_HARD_SHARE, GENE_BOUNDS, MAX_SEARCH_DEPTH,
};

/// How a search breaks ties between moves of equal value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TieBreak {
    /// The first move in move-generation order.
    #[default]
    First,
    /// A move drawn by the game's own seeded generator.
    Random,
}

/// Which search a player uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchMode {
    /// Plain minimax's value, sped up only (iterative deepening, table, killers): what tuning
    /// has always used.
    #[default]
    Exact,
    /// Principal-variation search with reductions, truncation and extensions (the `[search]`
    /// keys `lmr_*`, `futility_*`, `*_extension`, `history`, `aspiration`): deeper in the same
    /// time, no longer plain minimax's value.
    Selective,
}

impl TieBreak {
    /// The name as the config and the command line write it.
    pub fn name(self) -> &'static str {
        match self {
            TieBreak::First => "first",
            TieBreak::Random => "random",
        }
    }
}

impl SearchMode {
    /// The name as the config and the command line write it.
    pub fn name(self) -> &'static str {
        match self {
            SearchMode::Exact => "exact",
            SearchMode::Selective => "selective",
        }
    }
}

/// The selective search's defaults, for the keys' `skip_serializing_if`: a key left at its
/// default is not written, so configs without these keys resolve to the text they always did.
const SELECTIVE: SelectiveParams = SelectiveParams::DEFAULT;

fn is_exact(mode: &SearchMode) -> bool {
    *mode == SearchMode::Exact
}
fn is_default_lmr_depth(v: &u32) -> bool {
    *v == SELECTIVE.lmr_depth
}
fn is_default_lmr_moves(v: &u32) -> bool {
    *v == SELECTIVE.lmr_moves
}
fn is_default_lmr_reduction(v: &u32) -> bool {
    *v == SELECTIVE.lmr_reduction
}
fn is_default_futility_depth(v: &u32) -> bool {
    *v == SELECTIVE.futility_depth
}
fn is_default_futility_margin(v: &u32) -> bool {
    *v == SELECTIVE.futility_margin
}
fn is_default_pv_extension(v: &bool) -> bool {
    *v == SELECTIVE.pv_extension
}
fn is_default_recapture_extension(v: &bool) -> bool {
    *v == SELECTIVE.recapture_extension
}
fn is_default_history(v: &bool) -> bool {
    *v == SELECTIVE.history
}
fn is_default_aspiration(v: &u32) -> bool {
    *v == SELECTIVE.aspiration
}

/// `[search]`: how each player searches. The one owner of these settings: the run config's
/// section (with its bounds) and `match`'s search options (`--min-depth`, `--max-depth`,
/// `--tie-break`; the endgame switch comes from each weights file there, and the database from
/// `--database-pieces`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    default,
    expecting = "a table of `[search]` keys, e.g. {mode = \"selective\"}"
)]
pub struct SearchParams {
    /// Full-width search depth in plies.
    #[serde(deserialize_with = "int_in::<_, u32, 1, { MAX_SEARCH_DEPTH as i64 }>")]
    pub min_depth: u32,
    /// Depth up to which capture sequences are searched further.
    #[serde(deserialize_with = "int_in::<_, u32, 1, { MAX_SEARCH_DEPTH as i64 }>")]
    pub max_depth: u32,
    /// A player switches to its endgame weights when this many pieces or fewer are left.
    #[serde(deserialize_with = "int_in::<_, u32, 0, { MAX_ENDGAME_PIECES as i64 }>")]
    pub endgame_pieces: u32,
    /// How equal-valued moves are chosen: `first` in generation order, or `random` (drawn from
    /// the game's seeded stream).
    pub tie_break: TieBreak,
    /// Positions with at most this many pieces are scored exactly from the endgame database
    /// (built into the cache folder at first use); 0 for no database.
    #[serde(deserialize_with = "int_in::<_, u32, 0, { MAX_DATABASE_PIECES as i64 }>")]
    pub database_pieces: u32,
    /// `exact` (plain minimax's value, the default) or `selective` (the keys below).
    #[serde(skip_serializing_if = "is_exact")]
    pub mode: SearchMode,
    /// Selective: late-move reductions at nodes with at least this many plies left.
    #[serde(
        deserialize_with = "int_in::<_, u32, { GENE_BOUNDS[0].0 as i64 }, { GENE_BOUNDS[0].1 as i64 }>",
        skip_serializing_if = "is_default_lmr_depth"
    )]
    pub lmr_depth: u32,
    /// Selective: moves searched at full depth before later quiet ones are reduced.
    #[serde(
        deserialize_with = "int_in::<_, u32, { GENE_BOUNDS[1].0 as i64 }, { GENE_BOUNDS[1].1 as i64 }>",
        skip_serializing_if = "is_default_lmr_moves"
    )]
    pub lmr_moves: u32,
    /// Selective: plies a late quiet move is reduced by (0: no reductions).
    #[serde(
        deserialize_with = "int_in::<_, u32, { GENE_BOUNDS[2].0 as i64 }, { GENE_BOUNDS[2].1 as i64 }>",
        skip_serializing_if = "is_default_lmr_reduction"
    )]
    pub lmr_reduction: u32,
    /// Selective: truncation at nodes with at most this many plies left (0: none).
    #[serde(
        deserialize_with = "int_in::<_, u32, { GENE_BOUNDS[3].0 as i64 }, { GENE_BOUNDS[3].1 as i64 }>",
        skip_serializing_if = "is_default_futility_depth"
    )]
    pub futility_depth: u32,
    /// Selective: truncation margin per ply left, in evaluation units (0: none).
    #[serde(
        deserialize_with = "int_in::<_, u32, { GENE_BOUNDS[4].0 as i64 }, { GENE_BOUNDS[4].1 as i64 }>",
        skip_serializing_if = "is_default_futility_margin"
    )]
    pub futility_margin: u32,
    /// Selective: a forced move on a principal-variation node is searched a ply deeper.
    #[serde(skip_serializing_if = "is_default_pv_extension")]
    pub pv_extension: bool,
    /// Selective: a capture answering a capture is searched a ply deeper.
    #[serde(skip_serializing_if = "is_default_recapture_extension")]
    pub recapture_extension: bool,
    /// Selective: quiet moves ordered by the history heuristic.
    #[serde(skip_serializing_if = "is_default_history")]
    pub history: bool,
    /// Selective: half-width of the root's aspiration window, in evaluation units (0: none).
    #[serde(
        deserialize_with = "int_in::<_, u32, { GENE_BOUNDS[5].0 as i64 }, { GENE_BOUNDS[5].1 as i64 }>",
        skip_serializing_if = "is_default_aspiration"
    )]
    pub aspiration: u32,
    /// A tuning run's games: every move searched with this many nodes (deepening while they
    /// last, captures still followed `max_depth - min_depth` plies further) instead of to
    /// `min_depth`; `None` (the default, not written): fixed depths. The same games on every
    /// machine and thread count, as node counts do not depend on speed.
    #[serde(
        deserialize_with = "node_budget",
        skip_serializing_if = "Option::is_none"
    )]
    pub nodes: Option<u64>,
    /// A tuning run's search genes (`[search.genes]`): the selective keys each specimen
    /// carries a value of its own for, with their ranges. Empty by default and then not
    /// written; never part of a weights file's table ([`SearchParams::entries`]). Last, as
    /// TOML writes a table after the section's values.
    #[serde(skip_serializing_if = "SearchGenes::is_empty")]
    pub genes: SearchGenes,
}

/// The largest node budget a move may have: about two minutes of search.
pub const MAX_NODES: u64 = 1_000_000_000;

/// Reads `nodes`: from 1 to [`MAX_NODES`].
fn node_budget<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    int_in::<_, u64, 1, { MAX_NODES as i64 }>(d).map(Some)
}

/// Default full-width depth: games take tens of milliseconds.
const DEFAULT_MIN_DEPTH: u32 = 6;
/// Default capture depth.
const DEFAULT_MAX_DEPTH: u32 = 12;
/// A board holds at most 24 pieces, so a larger endgame threshold is a mistake.
const MAX_ENDGAME_PIECES: u32 = 24;

impl Default for SearchParams {
    /// Depth 6 full-width with captures followed to depth 12, the endgame set at 12 pieces or
    /// fewer, ties broken by move-generation order (deterministic without a random draw), and
    /// the 5-piece endgame database.
    fn default() -> Self {
        SearchParams {
            min_depth: DEFAULT_MIN_DEPTH,
            max_depth: DEFAULT_MAX_DEPTH,
            endgame_pieces: DEFAULT_ENDGAME_PIECES,
            tie_break: TieBreak::First,
            database_pieces: MAX_DATABASE_PIECES,
            mode: SearchMode::Exact,
            lmr_depth: SELECTIVE.lmr_depth,
            lmr_moves: SELECTIVE.lmr_moves,
            lmr_reduction: SELECTIVE.lmr_reduction,
            futility_depth: SELECTIVE.futility_depth,
            futility_margin: SELECTIVE.futility_margin,
            pv_extension: SELECTIVE.pv_extension,
            recapture_extension: SELECTIVE.recapture_extension,
            history: SELECTIVE.history,
            aspiration: SELECTIVE.aspiration,
            nodes: None,
            genes: SearchGenes::default(),
        }
    }
}

impl SearchParams {
    /// Why the keys do not go together, if they do not: the one check of the rules between
    /// `[search]` keys beyond the depth pair ([`SearchParams::try_limits`]), for a config's
    /// section and a weights file's `search` table alike. Returns the key at fault (without
    /// its `search.` prefix) and the problem.
    pub fn cross_key_problem(&self) -> Option<(&'static str, &'static str)> {
        (self.nodes.is_some() && self.tie_break == TieBreak::Random).then_some((
            "nodes",
            "a search at a node budget breaks ties by move order: `search.tie_break = \
             \"random\"` would not apply (use \"first\")",
        ))
    }

    /// The depths as search limits, or why they are not (each depth from 1 to
    /// [`MAX_SEARCH_DEPTH`], the full-width one not above the capture one): the one check of
    /// the depth pair, for the config and the command line alike.
    pub fn try_limits(&self) -> Result<SearchLimits, LimitsError> {
        SearchLimits::try_new(self.min_depth, self.max_depth)
    }

    /// The selective search's settings when `mode` is `selective`; `None` for the exact search.
    pub fn selective(&self) -> Option<SelectiveParams> {
        (self.mode == SearchMode::Selective).then_some(SelectiveParams {
            lmr_depth: self.lmr_depth,
            lmr_moves: self.lmr_moves,
            lmr_reduction: self.lmr_reduction,
            futility_depth: self.futility_depth,
            futility_margin: self.futility_margin,
            pv_extension: self.pv_extension,
            recapture_extension: self.recapture_extension,
            history: self.history,
            aspiration: self.aspiration,
        })
    }

    /// Every key of `[search]` with its value, in the section's order: what the files that
    /// carry the section write (a weights file's `search` table, the C header's `#define`s).
    /// `nodes` only when set; `genes` never (a weights file carries one search, the genes'
    /// values).
    pub fn entries(&self) -> Vec<(&'static str, SearchValue)> {
        use SearchValue::{Flag, Int, Name};
        let int = |v: u32| Int(v.into());
        let mut entries = vec![
            ("mode", Name(self.mode.name())),
            ("min_depth", int(self.min_depth)),
            ("max_depth", int(self.max_depth)),
            ("endgame_pieces", int(self.endgame_pieces)),
            ("tie_break", Name(self.tie_break.name())),
            ("database_pieces", int(self.database_pieces)),
            ("lmr_depth", int(self.lmr_depth)),
            ("lmr_moves", int(self.lmr_moves)),
            ("lmr_reduction", int(self.lmr_reduction)),
            ("futility_depth", int(self.futility_depth)),
            ("futility_margin", int(self.futility_margin)),
            ("pv_extension", Flag(self.pv_extension)),
            ("recapture_extension", Flag(self.recapture_extension)),
            ("history", Flag(self.history)),
            ("aspiration", int(self.aspiration)),
        ];
        if let Some(n) = self.nodes {
            entries.push(("nodes", Int(n)));
        }
        entries
    }

    /// The keys whose values differ from [`SearchParams::default`], in the section's order: a
    /// table of these reads back as `self` (a key left out takes its default).
    pub fn changed_entries(&self) -> Vec<(&'static str, SearchValue)> {
        let defaults = SearchParams::default().entries();
        self.entries()
            .into_iter()
            .filter(|own| !defaults.contains(own))
            .collect()
    }

    /// The `search` table a tuning run's weights files (`best.json`, its champions, `export
    /// RUN`) carry: the run's section when its games were not exact searches to fixed depths
    /// (selective, or at a node budget), so that `match` plays the weights as they were tuned;
    /// `None` for the exact search at fixed depths, whose files stay as they always were.
    /// The genes are left out: a run with genes writes each specimen's own values
    /// ([`SearchParams::with_selective`]).
    pub fn run_table(&self) -> Option<SearchParams> {
        let table = SearchParams {
            genes: SearchGenes::default(),
            ..*self
        };
        (self.mode == SearchMode::Selective || self.nodes.is_some()).then_some(table)
    }

    /// These settings with the selective keys of `search` (a specimen's own search, from its
    /// genes); unchanged for `None`.
    pub fn with_selective(self, search: Option<SelectiveParams>) -> SearchParams {
        let Some(s) = search else {
            return self;
        };
        SearchParams {
            lmr_depth: s.lmr_depth,
            lmr_moves: s.lmr_moves,
            lmr_reduction: s.lmr_reduction,
            futility_depth: s.futility_depth,
            futility_margin: s.futility_margin,
            pv_extension: s.pv_extension,
            recapture_extension: s.recapture_extension,
            history: s.history,
            aspiration: s.aspiration,
            ..self
        }
    }

    /// The depths as search limits, for settings already checked by
    /// [`SearchParams::try_limits`].
    pub fn limits(&self) -> SearchLimits {
        SearchLimits::new(self.min_depth, self.max_depth)
    }
}

/// The value of one `[search]` key ([`SearchParams::entries`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchValue {
    /// A count (depths, pieces, moves, margins, nodes).
    Int(u64),
    /// A switch.
    Flag(bool),
    /// A named choice (`mode`, `tie_break`).
    Name(&'static str),
}

impl std::fmt::Display for SearchValue {
    /// The value as JSON and TOML write it alike: `3`, `true`, `"selective"`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchValue::Int(n) => write!(f, "{n}"),
            SearchValue::Flag(b) => write!(f, "{b}"),
            SearchValue::Name(name) => write!(f, "\"{name}\""),
        }
    }
}

/// Search depths and draw rules shared by both players of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSettings {
    /// How each player searches: depths, endgame switch, tie-break, database size.
    pub search: SearchParams,
    /// Adjudicate a draw after this many plies.
    pub max_plies: u32,
    /// Draw after this many plies in a row without a capture and without a man moving.
    pub no_progress_plies: u32,
    /// The endgame database both players search with (`None`: none), the one
    /// `search.database_pieces` names. Not serialised: the piece count names it.
    #[serde(skip)]
    pub database: Option<&'static EndgameDb>,
    /// End a game by the database's value as soon as it reaches a position the database holds
    /// (`EndReason::Database`); only with a `database`.
    pub database_adjudication: bool,
    /// Search against the clock instead of to `min_depth` (captures still followed
    /// `max_depth - min_depth` plies further); `None` for fixed depths. A timed game depends on
    /// the machine's speed: the same inputs can give different games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<TimeControl>,
}

/// How much time each side has to think.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TimeControl {
    /// A clock per side: `base` for the game, `increment` added after each move. A side whose
    /// clock runs out loses.
    Clock {
        /// Time on each clock at the start.
        base: Duration,
        /// Added to the mover's clock after each move.
        increment: Duration,
    },
    /// A fixed time for every move (no clock, no loss on time).
    MoveTime(Duration),
    /// A fixed number of nodes for every move: as deep as that many nodes allow, the same game
    /// on every machine (no clock).
    Nodes(u64),
}

impl TimeControl {
    /// The search budget for a move with `left` on the mover's clock and `bank` the mover's
    /// account at a fixed time a move: the time manager's target and the hard deadline.
    pub(super) fn budget(
        &self,
        left: Duration,
        bank: &TimeBank,
        extension: u32,
        now: Instant,
    ) -> SearchBudget {
        match *self {
            TimeControl::Nodes(n) => SearchBudget {
                depth: MAX_SEARCH_DEPTH,
                extension,
                nodes: Some(n),
                ..SearchBudget::default()
            },
            // The time a move is an average, as engines spend it: a hard move may take more,
            // and what a forced or easy one saved goes to the next ones. The hard deadline
            // stays at the time given's multiple.
            TimeControl::MoveTime(t) => {
                let mut budget = SearchBudget::average_time(t, extension, now);
                if let Some(time) = &mut budget.time {
                    time.target = bank.target(t);
                }
                budget
            }
            TimeControl::Clock { increment, .. } => {
                // About a 25th of what is left plus most of the increment on average, never
                // more than a third of the clock on one move, so a long game cannot run it
                // down.
                let share = left / 25 + increment * 3 / 4;
                let mut budget = SearchBudget::average_time(share, extension, now);
                budget.deadline = Some(now + share.mul_f64(AVERAGE_HARD_SHARE).min(left / 3));
                budget
            }
        }
    }
}

impl Default for GameSettings {
    /// The search of [`SearchParams::default`], 300 plies, 80 quiet plies; no endgame database
    /// (the caller loads one), adjudication by it once there is one. A run config's
    /// `[tournament]` defaults for these rules are these.
    fn default() -> GameSettings {
        GameSettings {
            search: SearchParams::default(),
            max_plies: 300,
            no_progress_plies: 80,
            time: None,
            database: None,
            database_adjudication: true,
        }
    }
}

impl GameSettings {
    /// The search limits both players use.
    pub fn limits(&self) -> SearchLimits {
        self.search.limits()
    }
}
