//! The selective search's settings, and the state it keeps beside the searcher's.

use super::score::MAX_PLY;

/// The selective search's settings: each feature can be switched off on its own (a reduction
/// of 0 plies, a margin of 0, …). See `docs/engine.md` for what each is worth. Serialised
/// whole in a run's checkpoint, as a specimen's own search (`[search.genes]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct SelectiveParams {
    /// Late-move reductions apply at nodes with at least this many plies left.
    pub lmr_depth: u32,
    /// Moves searched at full depth before later ones are reduced.
    pub lmr_moves: u32,
    /// Plies a late quiet move is reduced by (0: no reductions).
    pub lmr_reduction: u32,
    /// Truncation applies at nodes with at most this many plies left (0: none).
    pub futility_depth: u32,
    /// Truncation margin per ply left, in evaluation units (hundredths of a man): a quiet
    /// non-PV node whose static evaluation is this far outside the window per ply left is cut.
    pub futility_margin: u32,
    /// Search a forced move (the only legal one) on a principal-variation node a ply deeper.
    pub pv_extension: bool,
    /// Search a capture that answers a capture a ply deeper.
    pub recapture_extension: bool,
    /// Order the quiet moves after the table move and the killers by the history heuristic.
    pub history: bool,
    /// Half-width of the root's aspiration window around the previous iteration's score, in
    /// evaluation units (0: full windows).
    pub aspiration: u32,
}

impl SelectiveParams {
    /// The defaults, as a constant for the settings' defaults: the values SPSA tuned at 40,000
    /// nodes a move (`docs/engine.md#tuning-the-search-by-spsa`), about +30 Elo over the
    /// hand-set ones they replaced (3, 3, 1, 2, 60, …, 30) at equal time and at equal nodes.
    pub const DEFAULT: SelectiveParams = SelectiveParams {
        lmr_depth: 3,
        lmr_moves: 2,
        lmr_reduction: 2,
        futility_depth: 3,
        futility_margin: 33,
        pv_extension: true,
        recapture_extension: true,
        history: true,
        aspiration: 19,
    };
}

impl Default for SelectiveParams {
    /// [`SelectiveParams::DEFAULT`].
    fn default() -> Self {
        SelectiveParams::DEFAULT
    }
}

/// A selective searcher's own state beside the exact searcher's (table, killers, PV arrays and
/// budget are shared): boxed once when the mode is chosen, reused by every search after.
pub(super) struct SelectiveState {
    pub(super) params: SelectiveParams,
    /// History-heuristic scores by side to move, from square and to square.
    pub(super) history: [[u32; 32 * 32]; 2],
    /// Zobrist keys of the game's positions since the last irreversible move, then of the
    /// nodes on the current path (the node at `ply` at index `history_len + ply`).
    pub(super) keys: Vec<u64>,
    /// Index in `keys` where the quiet stretch of the node at each ply begins.
    pub(super) window_start: [usize; MAX_PLY + 1],
    /// The iteration's nominal depth: extensions stop at twice it.
    pub(super) root_depth: i32,
    /// Plies captures are followed beyond a leaf.
    pub(super) extension: i32,
}

impl SelectiveState {
    /// A fresh state for searching with `params`.
    pub(super) fn new(params: SelectiveParams) -> Box<SelectiveState> {
        Box::new(SelectiveState {
            params,
            history: [[0; 32 * 32]; 2],
            keys: Vec::new(),
            window_start: [0; MAX_PLY + 1],
            root_depth: 1,
            extension: 0,
        })
    }

    /// The settings it searches with.
    pub(super) fn params(&self) -> SelectiveParams {
        self.params
    }
}
