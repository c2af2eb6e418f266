//! The sides of a match: our weights (with depths or a search of their own), or another
//! program.

use crate::players::Engine;
use checkers_engine::game::Player;
use checkers_engine::search::{SearchLimits, SelectiveParams};
use checkers_engine::weights_file::WeightsFile;

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
    pub(super) fn player(&self) -> Player<'a> {
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
    pub fn ours(&self) -> Option<MatchPlayer<'a>> {
        match self {
            MatchSide::Ours(p) => Some(*p),
            MatchSide::Engine(..) => None,
        }
    }
}
