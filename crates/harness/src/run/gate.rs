//! The gated champion (`[gate]`, docs/tournament.md#the-gated-champion): a run keeps one
//! champion, and a candidate (each fit, and the round's winner if asked) replaces it only after
//! winning a gating match against it. The champion therefore never gets worse by more than the
//! test's error, whatever the bracket or the playoff crown: `best.json` is always the current
//! champion, every gate is a row of `champions.csv`, and every champion's weights are kept in
//! `champions/round-N.json`, which `export RUN --round N` reads.
//!
//! A gate is a match on random openings of its own (drawn from the gate's seed and the round,
//! never the 3-move deck the final claims are measured on), stopped by a sequential
//! probability ratio test (SPRT) on the pentanomial counts: the candidate is accepted only when
//! the test accepts H1 (it is at least `elo1` stronger) before the openings run out. A
//! candidate no stronger than the champion (`elo0`) is accepted with probability at most
//! `alpha`, one at least `elo1` stronger refused with probability about `beta` (more when the
//! openings run out first: every gate that ends without a verdict refuses).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::files::write_atomically;
use super::files::FileProof;
use crate::champions::{
    check_champion_file, kept_per_round, read_file, ChampionsIndex, CHAMPIONS_HEADER,
};
use crate::elo::Sprt;
use crate::matchplay::MatchReport;
pub use crate::run_folder::{champion_path, champion_round, CHAMPIONS_DIR, CHAMPIONS_FILE};
use crate::tournament::Specimen;
use checkers_engine::bounded::{int_in, is_zero, number_in, open_fraction};
use checkers_engine::error::{Error, Result};
use checkers_engine::eval::{EvaluatorKind, PatternTables, PatternWeights};
use checkers_engine::game::{Opening, OpeningBook, SearchParams};
use checkers_engine::rng::{stream, tag};
use checkers_engine::text::{csv_line, fingerprint};
use checkers_engine::weights_file::{WeightsFile, WeightsSource};

/// Which specimens try for the champion's place.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GateCandidates {
    /// No gate: the playoff's winner is `best.json`, as before gates existed.
    #[default]
    None,
    /// Each regression fit (`[evolution] fit_every`) of a gate round.
    Fits,
    /// Each fit, then the round's top survivor (most rounds survived, then most wins).
    FitsAndWinners,
}

/// `[gate]`: the gated champion. Off by default, and then left out of a written config, so
/// that runs without a gate keep their files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GateConfig {
    /// Who tries for the champion's place; `none` turns the gate off.
    pub candidates: GateCandidates,
    /// Rounds between gates (a multiple of `evolution.fit_every`, so that every gate has a
    /// fresh fit); the last round always has one.
    #[serde(deserialize_with = "int_in::<_, u32, 1, 100_000>")]
    pub every: u32,
    /// The most openings a gate plays, each with both colours; a gate whose SPRT has not
    /// ended by then refuses the candidate.
    #[serde(deserialize_with = "int_in::<_, u32, 1, 100_000>")]
    pub openings: u32,
    /// Random plies from the start of each gate opening.
    #[serde(deserialize_with = "int_in::<_, u32, 1, 40>")]
    pub opening_plies: u32,
    /// The gate decks' own seed (each gate draws its openings from it and its round).
    #[serde(deserialize_with = "int_in::<_, u64, 0, { i64::MAX }>")]
    pub seed: u64,
    /// The SPRT's null hypothesis: the candidate is this many Elo stronger (no stronger).
    #[serde(deserialize_with = "elo_bound")]
    pub elo0: f64,
    /// The SPRT's alternative: the candidate is this many Elo stronger.
    #[serde(deserialize_with = "elo_bound")]
    pub elo1: f64,
    /// The chance of accepting a candidate that is only `elo0` stronger.
    #[serde(deserialize_with = "open_fraction")]
    pub alpha: f64,
    /// The chance of refusing a candidate that is `elo1` stronger (openings permitting).
    #[serde(deserialize_with = "open_fraction")]
    pub beta: f64,
    /// Openings (each with both colours) of a confirming match that a candidate the SPRT
    /// accepted plays next, on openings of its own: it becomes the champion only if it wins
    /// that match too (more wins than losses), and its Elo there, a fresh measure that no
    /// choice of winners has biased, is what the climb adds. 0: no confirming match (left out
    /// of a written config, so that runs without one keep their files).
    #[serde(
        deserialize_with = "int_in::<_, u32, 0, 100_000>",
        skip_serializing_if = "is_zero"
    )]
    pub confirm: u32,
}

/// An SPRT bound in Elo: within ±400 (a score of 91%).
fn elo_bound<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    number_in(deserializer, -400.0, 400.0)
}

impl Default for GateConfig {
    /// Off; when turned on: a gate every 2 rounds, at most 200 openings (400 games) of 8
    /// random plies, seed 31, SPRT [0, 30] with α = 5% and β = 10%.
    fn default() -> Self {
        GateConfig {
            candidates: GateCandidates::None,
            every: 2,
            openings: 200,
            opening_plies: 8,
            seed: 31,
            elo0: 0.0,
            elo1: 30.0,
            alpha: 0.05,
            beta: 0.10,
            confirm: 0,
        }
    }
}

impl GateConfig {
    /// Whether the run keeps a gated champion.
    pub fn is_on(&self) -> bool {
        self.candidates != GateCandidates::None
    }

    /// Whether it is off (left out of a written config).
    pub fn is_off(&self) -> bool {
        !self.is_on()
    }

    /// Whether round `round` of a run of `rounds` ends with a gate.
    pub fn gates_after(&self, round: u32, rounds: u32) -> bool {
        self.is_on() && (round == rounds || round.is_multiple_of(self.every))
    }

    /// The test every gate runs, or why the bounds do not make one.
    pub fn sprt(&self) -> Result<Sprt> {
        Sprt::with_error_rates(self.elo0, self.elo1, self.alpha, self.beta)
    }

    /// The openings of the gate after `round`: distinct random ones from the gate's seed and
    /// the round, so that no two gates share a deck and the bracket's stream is untouched.
    pub fn deck(&self, round: u32, balance: i32) -> Vec<Opening> {
        self.openings_from(self.openings, tag::GATE, round, balance)
    }

    /// The openings of the confirming match after `round` (`confirm` of them): from a stream
    /// of their own, so they are not the SPRT's.
    pub fn confirm_deck(&self, round: u32, balance: i32) -> Vec<Opening> {
        self.openings_from(self.confirm, tag::GATE_CONFIRM, round, balance)
    }

    fn openings_from(&self, count: u32, key: u64, round: u32, balance: i32) -> Vec<Opening> {
        let book = OpeningBook::Random {
            plies: self.opening_plies,
            balance,
        };
        book.distinct(
            count as usize,
            &mut stream(self.seed, &[key, u64::from(round)]),
        )
    }
}

/// The run's champion: the last candidate a gate accepted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GatedChampion {
    /// The specimen (its pattern weights kept with the run's fitted tables).
    pub specimen: Specimen,
    /// The round after which it was accepted.
    pub since: u32,
    /// The sum of the Elo estimates of every accepted gate so far, to one decimal: the
    /// champion's climb over the first champion, as the gates measured it.
    pub elo: f64,
}

/// How a candidate came to try for the place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CandidateKind {
    /// A regression fit.
    Fit,
    /// The round's top survivor.
    Winner,
    /// Not a candidate of its own: the confirming match (`gate.confirm`) of the candidate of
    /// the row before, which the SPRT accepted.
    Confirmation,
}

impl CandidateKind {
    /// Its name in `champions.csv`.
    pub fn name(self) -> &'static str {
        match self {
            CandidateKind::Fit => "fit",
            CandidateKind::Winner => "winner",
            CandidateKind::Confirmation => "confirm",
        }
    }
}

/// One gate, as `champions.csv` records it.
#[derive(Clone, Debug, PartialEq)]
pub struct GateRecord {
    /// The round after which it was played.
    pub round: u32,
    /// The candidate's id and how it came.
    pub candidate: u64,
    /// Its kind.
    pub kind: CandidateKind,
    /// The champion's id (`None`: there was none, and the candidate was crowned unopposed).
    pub champion: Option<u64>,
    /// The match, from the candidate's side (`None` when unopposed).
    pub report: Option<MatchReport>,
    /// Whether the candidate became the champion.
    pub accepted: bool,
    /// The champion's cumulative Elo after this gate.
    pub cumulative_elo: f64,
}

/// The columns of `champions.csv` (the reader's, `crate::champions`).
pub fn champions_header() -> Vec<&'static str> {
    CHAMPIONS_HEADER.to_vec()
}

impl GateRecord {
    /// Its row of `champions.csv`: every number in a fixed format, empty match fields for a
    /// champion crowned unopposed.
    pub fn to_csv_record(&self) -> Vec<String> {
        let mut row = vec![
            self.round.to_string(),
            self.candidate.to_string(),
            self.kind.name().to_string(),
            self.champion.map(|id| id.to_string()).unwrap_or_default(),
        ];
        match &self.report {
            Some(report) => {
                let (t, e) = (&report.tally.results, &report.estimate);
                row.extend([
                    t.games().to_string(),
                    t.wins.to_string(),
                    t.draws.to_string(),
                    t.losses.to_string(),
                    format!("{:.1}", e.elo),
                    format!("{:.1}", e.lower),
                    format!("{:.1}", e.upper),
                    report
                        .sprt
                        .as_ref()
                        .map(|s| format!("{:.3}", s.llr))
                        .unwrap_or_default(),
                ]);
            }
            None => row.extend(std::iter::repeat_n(String::new(), 8)),
        }
        row.push(self.accepted.to_string());
        row.push(format!("{:.1}", self.cumulative_elo));
        row
    }
}

/// The weights file of champion `specimen` of run `config`'s evaluator, with the run's
/// `[search]` (`search`): its endgame threshold, its database, and the `search` table of
/// [`SearchParams::run_table`] with the specimen's own search (its genes' values).
pub fn champion_file(
    specimen: &Specimen,
    run: &str,
    round: u32,
    evaluator: EvaluatorKind,
    tables: impl FnOnce() -> PatternTables,
    search: &SearchParams,
) -> WeightsFile {
    WeightsFile {
        weights: specimen.weights,
        extra: specimen.extra.as_deref().copied(),
        patterns: specimen.patterns.clone().or_else(|| {
            // No fit's tables reached it: its tables are zero.
            (evaluator == EvaluatorKind::Patterns)
                .then(|| std::sync::Arc::new(PatternWeights::zero(tables())))
        }),
        endgame_pieces: search.endgame_pieces,
        source: Some(WeightsSource::Specimen {
            run: run.to_string(),
            id: specimen.id,
            round,
        }),
        database_pieces: Some(search.database_pieces),
        search: search
            .run_table()
            .map(|table| table.with_selective(specimen.search)),
    }
}

/// Cuts the gate's files back to a checkpoint after `completed` rounds whose champion is
/// `champion`: the rows of `champions.csv` after the length the checkpoint recorded
/// (`recorded`; by their rounds for a checkpoint without one) and the champions kept for later
/// rounds (a killed run's, which the resumed run plays again) go, temporaries a killed write
/// left go, and `best.json` is the checkpoint's champion again. The file was checked first
/// ([`check_champions`]).
pub(super) fn cut_to(
    dir: &Path,
    completed: u32,
    champion: Option<&GatedChampion>,
    recorded: Option<&FileProof>,
) -> Result<()> {
    let folder = dir.join(CHAMPIONS_DIR);
    if let Ok(entries) = std::fs::read_dir(&folder) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let stale = match champion_round(&name) {
                Some(r) => r > completed,
                None => name.starts_with('.'),
            };
            if stale {
                let path = entry.path();
                std::fs::remove_file(&path).map_err(|e| Error::io("remove", &path, &e))?;
            }
        }
    }
    let path = dir.join(CHAMPIONS_FILE);
    let text = read_file(&path)?;
    let kept = recorded_part(&text, completed, recorded);
    if kept.len() != text.len() {
        write_atomically(&path, kept)?;
    }
    let best = dir.join(super::files::BEST_FILE);
    match champion {
        Some(c) => {
            let kept = champion_path(dir, c.since);
            let bytes = std::fs::read(&kept).map_err(|e| Error::io("read", &kept, &e))?;
            write_atomically(&best, &bytes)
        }
        None => match std::fs::remove_file(&best) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(Error::io("remove", &best, &e))
            }
            _ => Ok(()),
        },
    }
}

/// The part of `champions.csv` (`bytes`) a checkpoint after `completed` rounds counts: up to
/// its recorded length, or, for a checkpoint that recorded none, the header and the whole rows
/// of rounds up to `completed`. Whatever follows is a killed round's.
fn recorded_part<'b>(bytes: &'b [u8], completed: u32, recorded: Option<&FileProof>) -> &'b [u8] {
    if let Some(proof) = recorded {
        return &bytes[..(proof.bytes as usize).min(bytes.len())];
    }
    let mut end = 0;
    for (i, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
        let round = std::str::from_utf8(line)
            .ok()
            .and_then(|l| l.split(',').next())
            .and_then(|r| r.parse::<u32>().ok());
        match round {
            _ if i == 0 => {}
            Some(r) if r <= completed && line.ends_with(b"\n") => {}
            _ => break,
        }
        end += line.len();
    }
    &bytes[..end]
}

/// Checks a gated run's record of its gates against its checkpoint after `completed` rounds
/// (`champion`, `recorded`), before the run plays or changes anything: `champions.csv` holds
/// at least the bytes the checkpoint recorded, and exactly those (their fingerprint), its rows
/// follow from each other ([`ChampionsIndex`]) and are of the rounds played, the champion they
/// crown last is the checkpoint's, and every champion they crown has its file in `champions/`,
/// the weights of that specimen of run `run`, and no other round's file is there. Anything
/// else is bad input naming the file and the line: the run would go on from another record
/// than its own.
pub(super) fn check_champions(
    dir: &Path,
    run: &str,
    completed: u32,
    champion: Option<&GatedChampion>,
    recorded: Option<&FileProof>,
) -> Result<()> {
    let path = dir.join(CHAMPIONS_FILE);
    let cannot = "the run cannot be resumed with it (put back the run's own file, or start \
                  again with `tune --force`)";
    let refuse = |problem: String| Error::input(format!("{problem}; {cannot}"));
    let bytes = read_file(&path)?;
    if let Some(proof) = recorded {
        if (bytes.len() as u64) < proof.bytes {
            return Err(refuse(format!(
                "{}: {} bytes, but the checkpoint recorded {}: rows were cut off since",
                path.display(),
                bytes.len(),
                proof.bytes
            )));
        }
    }
    let part = recorded_part(&bytes, completed, recorded);
    let index = ChampionsIndex::from_bytes(&path, part).map_err(|e| refuse(e.to_string()))?;
    if let Some(row) = index.rows.iter().find(|row| row.round > completed) {
        return Err(refuse(format!(
            "{} line {}: a gate after round {}, but the checkpoint counts {completed} \
             completed round(s)",
            path.display(),
            row.line,
            row.round
        )));
    }
    if let Some(proof) = recorded {
        if fingerprint(part) != proof.fingerprint {
            let lines = part.iter().filter(|&&b| b == b'\n').count();
            return Err(refuse(format!(
                "{}: lines 1 to {lines} are not the ones the run wrote (their fingerprint is \
                 not the checkpoint's): the file was edited, or is another run's",
                path.display()
            )));
        }
    }
    let crowned = index.crowned()?;
    let last = crowned.last();
    let checkpoint = |c: &GatedChampion| {
        format!(
            "the checkpoint's champion is specimen {} since round {} (cumulative Elo {:.1})",
            c.specimen.id, c.since, c.elo
        )
    };
    let agrees = match (last, champion) {
        (None, None) => Ok(()),
        (Some(l), Some(c))
            if l.id == c.specimen.id && l.since == c.since && (l.elo - c.elo).abs() < 1e-6 =>
        {
            Ok(())
        }
        (Some(l), c) => Err(format!(
            "{} line {}: crowns specimen {} after round {} (cumulative Elo {:.1}), but {}",
            path.display(),
            l.line,
            l.id,
            l.since,
            l.elo,
            c.map_or("the checkpoint has no champion".to_string(), checkpoint)
        )),
        (None, Some(c)) => Err(format!(
            "{}: crowns no champion, but {}",
            path.display(),
            checkpoint(c)
        )),
    };
    agrees.map_err(refuse)?;
    let kept = kept_per_round(&crowned);
    for c in &kept {
        let file =
            check_champion_file(dir, &index.path, run, c).map_err(|e| refuse(e.to_string()))?;
        // The champion's own weights are in the checkpoint: its file must hold them.
        let current = champion.filter(|g| g.since == c.since);
        if current.is_some_and(|g| g.specimen.weights != file.weights) {
            return Err(refuse(format!(
                "{}: not the weights of the checkpoint's champion, specimen {}",
                champion_path(dir, c.since).display(),
                c.id
            )));
        }
    }
    let folder = dir.join(CHAMPIONS_DIR);
    if let Ok(entries) = std::fs::read_dir(&folder) {
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(r) = name.to_str().and_then(champion_round) else {
                continue;
            };
            if r <= completed && !kept.iter().any(|c| c.since == r) {
                return Err(refuse(format!(
                    "{}: {CHAMPIONS_FILE} crowns no champion after round {r}, so this file is \
                     not the run's",
                    entry.path().display()
                )));
            }
        }
    }
    Ok(())
}

/// The header line of `champions.csv`.
pub(super) fn champions_header_line() -> String {
    csv_line(&champions_header())
}

/// Writes `champions.csv` with its header only (a gated run's start).
pub(super) fn start_champions(dir: &Path) -> Result<()> {
    write_atomically(
        &dir.join(CHAMPIONS_FILE),
        champions_header_line().as_bytes(),
    )
}
