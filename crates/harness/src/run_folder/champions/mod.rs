//! A gated run's champions on disk (`[gate]`, docs/tournament.md#the-gated-champion): what the
//! run writes of them, the one reader of `champions.csv`, and its checks and cuts on resume.

mod index;
mod record;
mod resume;

pub use index::{
    check_champion_file, kept_per_round, read_champions_file, ChampionsIndex, Crowned, GateRow,
    CHAMPIONS_HEADER,
};
pub use record::{champion_file, start_champions, CandidateKind, GateRecord, GatedChampion};
pub use resume::{check_champions, cut_champions};
