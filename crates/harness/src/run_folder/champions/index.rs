//! `champions.csv`, the gated run's record of its gates (docs/tournament.md#the-gated-champion):
//! the one reader of it, shared by `resume` (which checks it against the checkpoint), `export
//! RUN --round N` (which takes it as the index of `champions/round-N.json`) and `plot`.
//!
//! The reader proves what the file can prove on its own, naming the line of the first row
//! that breaks it: every field of the form the run writes, rounds in order, each gate played
//! against the champion the rows before crowned, a confirming match right after the gate it
//! confirms, and every `cumulative_elo` the sum the gates' Elo gives. What it cannot prove (a
//! refused gate's numbers edited, another run's file of the same shape) the checkpoint's
//! fingerprint of the file does (`run_folder/champions/resume.rs`).

use std::path::{Path, PathBuf};

use crate::run_folder::{champion_path, line_of, Column, CsvTable, CHAMPIONS_FILE};
use checkers_engine::error::{Error, Result};
use checkers_engine::input_file::{self, Links, ReadError};
use checkers_engine::weights_file::{WeightsFile, WeightsSource};

/// The columns of `champions.csv`, in order.
pub const CHAMPIONS_HEADER: [&str; 14] = [
    "round",
    "candidate",
    "kind",
    "champion",
    "games",
    "wins",
    "draws",
    "losses",
    "elo",
    "elo_low",
    "elo_high",
    "llr",
    "accepted",
    "cumulative_elo",
];

/// The largest gap between a row's `cumulative_elo` and the sum of the one before and the
/// row's `elo`: both are written to one decimal, from the unrounded Elo, so they may differ by
/// one unit of the last place (0.25 is written 0.2, and adds 0.3).
const SUM_SLACK: f64 = 0.1 + 1e-6;

/// One row of `champions.csv`, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct GateRow {
    /// Its line in the file (the header is line 1).
    pub line: u64,
    /// The round after which the gate was played.
    pub round: u32,
    /// The candidate's id.
    pub candidate: u64,
    /// `fit`, `winner` or `confirm`.
    pub kind: String,
    /// The champion it played (`None`: crowned unopposed).
    pub champion: Option<u64>,
    /// The match's Elo from the candidate's side (`None` when unopposed).
    pub elo: Option<f64>,
    /// Whether the candidate became the champion.
    pub accepted: bool,
    /// The champion's climb after this gate.
    pub cumulative_elo: f64,
}

/// A champion the rows crowned: who, after which round, its climb, and the line saying so.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Crowned {
    /// The specimen's id.
    pub id: u64,
    /// The round after which it was accepted (its file is `champions/round-<since>.json`).
    pub since: u32,
    /// The cumulative Elo after it was accepted.
    pub elo: f64,
    /// The line of the row that crowned it.
    pub line: u64,
}

/// `champions.csv` read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct ChampionsIndex {
    /// The file read.
    pub path: PathBuf,
    /// Its rows, in order.
    pub rows: Vec<GateRow>,
}

impl ChampionsIndex {
    /// The `champions.csv` of the run folder `run_dir`, read whole and checked. A missing
    /// file is bad input saying what it is.
    pub fn read(run_dir: &Path) -> Result<ChampionsIndex> {
        let path = run_dir.join(CHAMPIONS_FILE);
        let bytes = read_champions_file(&path)?;
        ChampionsIndex::from_bytes(&path, &bytes)
    }

    /// `bytes` read as the `champions.csv` at `path` (a file read up to a recorded length),
    /// checked. A last line without its line break is a row cut short: refused.
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<ChampionsIndex> {
        let bad = |line: u64, problem: String| {
            Error::input(format!("{} line {line}: {problem}", path.display()))
        };
        let header = format!("{}\n", CHAMPIONS_HEADER.join(","));
        if !bytes.starts_with(header.as_bytes()) {
            return Err(bad(
                1,
                format!(
                    "not the header of {CHAMPIONS_FILE} (`{}`)",
                    CHAMPIONS_HEADER.join(",")
                ),
            ));
        }
        if !bytes.is_empty() && !bytes.ends_with(b"\n") {
            let line = bytes.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
            return Err(bad(
                line,
                "a row cut short (no line break at its end)".to_string(),
            ));
        }
        let table = CsvTable::from_bytes(path, bytes)?;
        let column = |name: &str| table.column(name);
        let [round_c, candidate_c, kind_c, champion_c, games_c, wins_c, draws_c, losses_c, elo_c, low_c, high_c, llr_c, accepted_c, cumulative_c] =
            CHAMPIONS_HEADER.map(column);
        let (round_c, candidate_c, kind_c, champion_c) =
            (round_c?, candidate_c?, kind_c?, champion_c?);
        let counts = [games_c?, wins_c?, draws_c?, losses_c?];
        let numbers = [elo_c?, low_c?, high_c?];
        let (llr_c, accepted_c, cumulative_c) = (llr_c?, accepted_c?, cumulative_c?);
        let number = |record: &csv::StringRecord, c: &Column| -> Result<f64> {
            let v: f64 = table.parse(record, c, "a finite number")?;
            if v.is_finite() {
                Ok(v)
            } else {
                Err(table.invalid(record, c, "a finite number"))
            }
        };

        let mut rows: Vec<GateRow> = Vec::with_capacity(table.rows().len());
        for record in table.rows() {
            let line = line_of(record);
            if record.len() != CHAMPIONS_HEADER.len() {
                return Err(bad(
                    line,
                    format!(
                        "{} fields, but the header has {}",
                        record.len(),
                        CHAMPIONS_HEADER.len()
                    ),
                ));
            }
            let round: u32 = table.parse(record, &round_c, "a round (a positive integer)")?;
            if round == 0 {
                return Err(table.invalid(record, &round_c, "a round (a positive integer)"));
            }
            let candidate: u64 = table.parse(record, &candidate_c, "a specimen id")?;
            let kind = kind_c.raw(record).to_string();
            if !["fit", "winner", "confirm"].contains(&kind.as_str()) {
                return Err(table.invalid(record, &kind_c, "`fit`, `winner` or `confirm`"));
            }
            let champion = match champion_c.raw(record) {
                "" => None,
                _ => Some(table.parse::<u64>(record, &champion_c, "a specimen id or empty")?),
            };
            let accepted = match accepted_c.raw(record) {
                "true" => true,
                "false" => false,
                _ => return Err(table.invalid(record, &accepted_c, "`true` or `false`")),
            };
            let cumulative_elo = number(record, &cumulative_c)?;
            let elo = match champion {
                None => {
                    // Crowned unopposed: no match, so no match fields.
                    let filled = counts
                        .iter()
                        .chain(&numbers)
                        .chain([&llr_c])
                        .find(|c| !c.raw(record).is_empty());
                    if let Some(c) = filled {
                        return Err(table.invalid(
                            record,
                            c,
                            "empty (a champion crowned unopposed played no match)",
                        ));
                    }
                    None
                }
                Some(_) => {
                    let mut tally = [0u64; 4];
                    for (value, c) in tally.iter_mut().zip(&counts) {
                        *value = table.parse(record, c, "a count (a whole number)")?;
                    }
                    if tally[0] != tally[1] + tally[2] + tally[3] {
                        return Err(bad(
                            line,
                            format!(
                                "`games` is {}, but `wins`, `draws` and `losses` add up to {}",
                                tally[0],
                                tally[1] + tally[2] + tally[3]
                            ),
                        ));
                    }
                    let [elo, _, _] = [
                        number(record, &numbers[0])?,
                        number(record, &numbers[1])?,
                        number(record, &numbers[2])?,
                    ];
                    if !llr_c.raw(record).is_empty() {
                        number(record, &llr_c)?;
                    }
                    Some(elo)
                }
            };
            let row = GateRow {
                line,
                round,
                candidate,
                kind,
                champion,
                elo,
                accepted,
                cumulative_elo,
            };
            if let Some(before) = rows.last() {
                if row.round < before.round {
                    return Err(bad(
                        line,
                        format!(
                            "round {} after round {} on line {}: the rows are out of order",
                            row.round, before.round, before.line
                        ),
                    ));
                }
            }
            rows.push(row);
        }
        let index = ChampionsIndex {
            path: path.to_owned(),
            rows,
        };
        index.crowned()?;
        Ok(index)
    }

    /// Every champion the rows crowned, in order, after checking that the rows follow each
    /// other: each gate against the champion of the rows before, a confirming match right
    /// after its gate with the same decision, each climb the sum of the deciding matches'
    /// Elo.
    pub fn crowned(&self) -> Result<Vec<Crowned>> {
        let bad = |line: u64, problem: String| {
            Error::input(format!(
                "{} line {line}: {problem}; the file does not follow from the run's gates",
                self.path.display()
            ))
        };
        let mut crowned: Vec<Crowned> = Vec::new();
        let rows = &self.rows;
        for (k, row) in rows.iter().enumerate() {
            let holder = crowned.last().copied();
            let Some(champion) = row.champion else {
                if let Some(h) = holder {
                    return Err(bad(
                        row.line,
                        format!(
                            "a candidate crowned unopposed, but specimen {} is the champion \
                             since line {}",
                            h.id, h.line
                        ),
                    ));
                }
                if !row.accepted || row.cumulative_elo != 0.0 || row.kind == "confirm" {
                    return Err(bad(
                        row.line,
                        "the first champion is accepted unopposed with `cumulative_elo` 0.0"
                            .to_string(),
                    ));
                }
                crowned.push(Crowned {
                    id: row.candidate,
                    since: row.round,
                    elo: 0.0,
                    line: row.line,
                });
                continue;
            };
            let Some(h) = holder else {
                return Err(bad(
                    row.line,
                    format!(
                        "a gate against specimen {champion}, but no champion was crowned before"
                    ),
                ));
            };
            if champion != h.id {
                return Err(bad(
                    row.line,
                    format!(
                        "a gate against specimen {champion}, but the champion is specimen {} \
                         (line {})",
                        h.id, h.line
                    ),
                ));
            }
            if row.candidate == champion {
                return Err(bad(
                    row.line,
                    "the champion as its own candidate".to_string(),
                ));
            }
            let confirms = |a: &GateRow, b: &GateRow| {
                b.kind == "confirm"
                    && a.kind != "confirm"
                    && (a.round, a.candidate, a.champion) == (b.round, b.candidate, b.champion)
            };
            if row.kind == "confirm" && !(k > 0 && confirms(&rows[k - 1], row)) {
                return Err(bad(
                    row.line,
                    "a confirming match that does not follow its candidate's gate".to_string(),
                ));
            }
            if let Some(next) = rows.get(k + 1).filter(|next| confirms(row, next)) {
                // The gate's row carries the decision of its confirming match, which decides.
                if (row.accepted, row.cumulative_elo) != (next.accepted, next.cumulative_elo) {
                    return Err(bad(
                        next.line,
                        format!(
                            "the confirming match's `accepted` and `cumulative_elo` differ \
                             from its gate's on line {}",
                            row.line
                        ),
                    ));
                }
                continue;
            }
            if row.accepted {
                let sum = h.elo + row.elo.unwrap_or(0.0);
                if (row.cumulative_elo - sum).abs() > SUM_SLACK {
                    return Err(bad(
                        row.line,
                        format!(
                            "`cumulative_elo` is {:.1}, but the champion's {:.1} plus this \
                             gate's `elo` {:.1} is {sum:.1}",
                            row.cumulative_elo,
                            h.elo,
                            row.elo.unwrap_or(0.0)
                        ),
                    ));
                }
                crowned.push(Crowned {
                    id: row.candidate,
                    since: row.round,
                    elo: row.cumulative_elo,
                    line: row.line,
                });
            } else if (row.cumulative_elo - h.elo).abs() > 1e-9 {
                return Err(bad(
                    row.line,
                    format!(
                        "`cumulative_elo` is {:.1} after a refused candidate, but the \
                         champion's is {:.1}",
                        row.cumulative_elo, h.elo
                    ),
                ));
            }
        }
        Ok(crowned)
    }
}

/// The champions a round crowned, the last one of each round: the one whose file
/// `champions/round-<N>.json` holds (a round whose fit and winner are both accepted keeps the
/// winner's).
pub fn kept_per_round(crowned: &[Crowned]) -> Vec<Crowned> {
    let mut kept: Vec<Crowned> = Vec::new();
    for c in crowned {
        match kept.last_mut() {
            Some(last) if last.since == c.since => *last = *c,
            _ => kept.push(*c),
        }
    }
    kept
}

/// The bytes of `champions.csv` at `path`; a missing one, a link or a folder is bad input.
pub fn read_champions_file(path: &Path) -> Result<Vec<u8>> {
    match input_file::read(path, Links::Refuse, None) {
        Ok(bytes) => Ok(bytes),
        Err(ReadError::NotFound) => Err(Error::input(format!(
            "{}: missing; a gated run (`[gate]`) records every gate in it, so the run folder \
             is incomplete (put it back from a copy of the folder)",
            path.display()
        ))),
        Err(e) => Err(e.at(path)),
    }
}

/// Checks that the champion `crowned` (a row of `index_path`, the run's `champions.csv`) has
/// its file in the run folder `run_dir`, and that the file is that specimen's of run `run`,
/// accepted after that round; returns the file.
pub fn check_champion_file(
    run_dir: &Path,
    index_path: &Path,
    run: &str,
    crowned: &Crowned,
) -> Result<WeightsFile> {
    let path = champion_path(run_dir, crowned.since);
    let row = format!(
        "{} line {} crowns specimen {} after round {}",
        index_path.display(),
        crowned.line,
        crowned.id,
        crowned.since
    );
    if let Err(e) = input_file::refuse_irregular(&path) {
        return Err(Error::input(format!("{}: {e} ({row})", path.display())));
    }
    if !path.exists() {
        return Err(Error::input(format!(
            "{}: missing, but {row}, and the run keeps every champion's weights",
            path.display()
        )));
    }
    let file = WeightsFile::load(&path)?;
    let ours = matches!(
        &file.source,
        Some(WeightsSource::Specimen { run: r, id, round })
            if r == run && *id == crowned.id && *round == crowned.since
    );
    if !ours {
        return Err(Error::input(format!(
            "{}: not the weights of specimen {} of run \"{run}\" accepted after round {} \
             ({row}); the file is not the run's",
            path.display(),
            crowned.id,
            crowned.since
        )));
    }
    Ok(file)
}
