//! The run's data as the picture needs it: `rounds.csv`, `specimens.csv` and `learning.csv`
//! read by column name, each value checked, and values beyond a panel's scale clamped with a
//! note saying so.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::run_folder::{
    champion_path, line_of, read_champions_file, read_config_table, ChampionsIndex, Column,
    CsvTable, CHAMPIONS_FILE, LEARNING_FILE, MAX_ISLANDS, ROUNDS_FILE, SPECIMENS_FILE,
};
use crate::tournament::{MAX_GAME_PLIES, MAX_ROUNDS};
use checkers_engine::error::Error;
use checkers_engine::eval::{
    extra_names, ExtraPair, ExtraWeights, Weights, FEATURE_NAMES, MAX_ABS_WEIGHT,
};
use checkers_engine::weights_file::WeightsFile;

/// The five pair outcomes of `rounds.csv`, in the picture's stacking order (bottom first).
pub(super) const OUTCOME_COLUMNS: [&str; 5] = [
    "black_wins",
    "white_wins",
    "draw_then_black_win",
    "draw_then_white_win",
    "double_draws",
];

/// Whether `run_dir` is a folder, before anything in it is read.
pub(super) fn check_run_dir(run_dir: &Path) -> Result<(), Error> {
    if run_dir.is_dir() {
        return Ok(());
    }
    Err(Error::input(format!(
        "run folder {} does not exist or is not a folder",
        run_dir.display()
    )))
}

/// One row of `rounds.csv`, reduced to what the picture shows.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct RoundStats {
    pub(super) round: i64,
    /// Pair counts in [`OUTCOME_COLUMNS`] order.
    pub(super) outcomes: [u64; 5],
    pub(super) mean_plies: Option<f64>,
}

impl RoundStats {
    pub(super) fn pairs(&self) -> u64 {
        self.outcomes.iter().sum()
    }
}

/// The best survivor of one round (see [`plot_run`] for the ordering), or a gated run's
/// champion (its `round`: the round after which it was accepted).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Best {
    pub(super) round: i64,
    pub(super) id: u64,
    pub(super) rounds_survived: u64,
    pub(super) wins: u64,
    pub(super) opening: [f64; 10],
    pub(super) endgame: [f64; 10],
    /// An extended run's further weights, opening and endgame (empty otherwise).
    pub(super) extra: [Vec<f64>; 2],
}

impl Best {
    /// What ranks a round's best survivor highest: see [`plot_run`].
    fn rank(&self) -> (u64, u64, std::cmp::Reverse<u64>) {
        (self.rounds_survived, self.wins, std::cmp::Reverse(self.id))
    }
}

/// One row of `learning.csv`: a validation match's Elo and its 95% interval.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Validation {
    /// The island (0 for a run without islands).
    pub(super) island: u64,
    pub(super) round: i64,
    pub(super) elo: f64,
    pub(super) low: f64,
    pub(super) high: f64,
}

/// The gated champion's climb (`champions.csv`): its cumulative Elo after a gate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct ChampionPoint {
    pub(super) round: i64,
    pub(super) elo: f64,
}

/// One candidate's gate (`champions.csv`), placed on the champion's scale: where the candidate
/// stood by its match, the champion's cumulative Elo before the gate plus the candidate's Elo
/// in it, so that an accepted candidate's mark sits on the step it made and a refused one's
/// shows how far below (or how undecidedly above) the champion it stayed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct GateMark {
    pub(super) round: i64,
    pub(super) accepted: bool,
    /// The mark's height: the champion's Elo before the gate plus the candidate's in it.
    pub(super) elo: f64,
    /// The 95% interval of the deciding match on the same scale; `None` for a candidate
    /// crowned unopposed. An end may be infinite (a clean sweep).
    pub(super) interval: Option<(f64, f64)>,
}

/// The gated run's climb: the step line and the gates that made it.
#[derive(Debug, Default)]
pub(super) struct Climb {
    /// The champion's cumulative Elo, one point per round with a gate, sorted by round.
    pub(super) steps: Vec<ChampionPoint>,
    /// One mark per candidate, in the file's order (rounds ascending).
    pub(super) gates: Vec<GateMark>,
    /// The rounds after which a gate accepted a candidate: the rounds of `champions/round-N.json`.
    pub(super) accepted_rounds: Vec<i64>,
}

#[derive(Debug)]
pub(super) struct RunData {
    pub(super) name: String,
    pub(super) rounds: Vec<RoundStats>,
    /// One entry per round that has survivors, sorted by round.
    pub(super) best: Vec<Best>,
    /// The learning curve, sorted by round (empty without `learning.csv`).
    pub(super) learning: Vec<Validation>,
    /// The gated champion's climb (empty without `champions.csv`).
    pub(super) climb: Climb,
    /// A gated run's champions as `champions/round-N.json` holds them, one per accepted round
    /// (`round`: the round after which it was accepted), sorted by round; the weights panels
    /// draw these instead of the best survivors. Empty without a gate.
    pub(super) champions: Vec<Best>,
    /// An extended run's tables: the last champion's in a gated run, otherwise the last
    /// round's best survivor's.
    pub(super) tables: Option<super::heat_maps::Tables>,
    /// What the picture shows otherwise than the files say: values drawn at the edge of
    /// their scale (see [`Clamped`]).
    pub(super) notes: Vec<String>,
}

/// The most pairs or games one row of `rounds.csv` may count: a round of the largest
/// population, of every island, with the longest mini-matches, has far fewer.
const MAX_COUNT: u64 = 1_000_000_000;

/// The largest Elo drawn where it is: a validation match of the largest deck that lost a
/// single game is under 2,000 Elo; anything beyond is drawn at this edge, with a note.
pub(super) const MAX_ELO: f64 = 10_000.0;

/// Values drawn at the edge of their scale instead of where the file puts them (a finite value
/// no run writes, as a hand-edited or damaged file may hold), so that one absurd number does
/// not flatten the whole panel; the picture says how many were, and where the first was.
#[derive(Default)]
pub(super) struct Clamped {
    /// Per kind ("learning.csv: Elo beyond ±10000"): how many, and the first one's place.
    pub(super) kinds: Vec<(String, u64, String)>,
}

impl Clamped {
    /// `value` (finite) moved into `range`, noted as `kind` when it moved.
    fn clamp(
        &mut self,
        value: f64,
        range: (f64, f64),
        kind: &str,
        cols: &CsvTable,
        record: &csv::StringRecord,
        column: &Column,
    ) -> f64 {
        let moved = value.clamp(range.0, range.1);
        if moved != value {
            match self.kinds.iter_mut().find(|(k, _, _)| k == kind) {
                Some((_, count, _)) => *count += 1,
                None => {
                    let place = format!("{}, column `{}`", cols.place(record), column.name());
                    self.kinds.push((kind.to_string(), 1, place));
                }
            }
        }
        moved
    }

    /// One line per kind, for the picture.
    fn notes(&self) -> Vec<String> {
        self.kinds
            .iter()
            .map(|(kind, count, first)| {
                let many = if *count == 1 { "value" } else { "values" };
                format!("{count} {many} {kind}, drawn at the edge (first: {first})")
            })
            .collect()
    }
}

/// The field of `column` parsed as `T` within `range`, or bad input naming the file, the line,
/// the column and the range (`what`: "a round", "a count").
fn parse_within<T>(
    cols: &CsvTable,
    record: &csv::StringRecord,
    column: &Column,
    range: std::ops::RangeInclusive<T>,
    what: &str,
) -> Result<T, Error>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    let expected = format!("{what} from {} to {}", range.start(), range.end());
    let value = cols.parse(record, column, &expected)?;
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(cols.invalid(record, column, &expected))
    }
}

/// A round number of any of the run's files: 0 to the most rounds a run may have.
fn parse_round(cols: &CsvTable, record: &csv::StringRecord, column: &Column) -> Result<i64, Error> {
    parse_within(cols, record, column, 0..=i64::from(MAX_ROUNDS), "a round")
}

/// An island number (0 without the column): below the most islands a run may have.
fn parse_island(
    cols: &CsvTable,
    record: &csv::StringRecord,
    column: Option<&Column>,
) -> Result<u64, Error> {
    column.map_or(Ok(0), |c| {
        parse_within(cols, record, c, 0..=u64::from(MAX_ISLANDS - 1), "an island")
    })
}

/// A count of pairs or games of `rounds.csv`.
fn parse_count(cols: &CsvTable, record: &csv::StringRecord, column: &Column) -> Result<u64, Error> {
    parse_within(cols, record, column, 0..=MAX_COUNT, "a count")
}

pub(super) fn read_run(run_dir: &Path) -> Result<RunData, Error> {
    let learning_path = run_dir.join(LEARNING_FILE);
    let mut clamped = Clamped::default();
    let best = read_best(&run_dir.join(SPECIMENS_FILE), &mut clamped)?;
    let rounds = read_rounds(&run_dir.join(ROUNDS_FILE), &mut clamped)?;
    let learning = if learning_path.exists() {
        read_learning(&learning_path, &mut clamped)?
    } else {
        Vec::new()
    };
    let champions_path = run_dir.join(CHAMPIONS_FILE);
    let climb = if champions_path.exists() {
        read_champions(&champions_path, &mut clamped)?
    } else {
        Climb::default()
    };
    let mut notes = clamped.notes();
    let champions = read_champion_weights(run_dir, &climb.accepted_rounds, &mut notes)?;
    // A gated run's tables are its champion's, as `best.json` holds them.
    let tables = match champions.last() {
        Some(champion) => Some((champion, true)),
        None => best.last().map(|b| (b, false)),
    }
    .filter(|(b, _)| !b.extra[0].is_empty())
    .map(|(b, champion)| super::heat_maps::Tables {
        round: b.round,
        id: b.id,
        champion,
        sets: b.extra.clone(),
    });
    Ok(RunData {
        name: run_name(run_dir)?,
        rounds,
        best,
        learning,
        climb,
        champions,
        tables,
        notes,
    })
}

fn run_name(run_dir: &Path) -> Result<String, Error> {
    let folder_name = || {
        run_dir
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| run_dir.display().to_string())
    };
    Ok(read_config_table(run_dir)?
        .and_then(|table| table.get("name")?.as_str().map(str::to_owned))
        .unwrap_or_else(folder_name))
}

const COUNT: &str = "a non-negative integer";
const NUMBER: &str = "a finite number";

fn read_rounds(path: &Path, clamped: &mut Clamped) -> Result<Vec<RoundStats>, Error> {
    let cols = CsvTable::read(path)?;
    let round_col = cols.column("round")?;
    let outcome_cols = OUTCOME_COLUMNS
        .iter()
        .map(|name| cols.column(name))
        .collect::<Result<Vec<_>, _>>()?;
    let plies_col = cols.column("mean_plies")?;
    // An island-model run has one row per island and round: the picture shows their sum.
    let island_col = cols.optional("island");
    let games_col = match island_col {
        Some(_) => Some(cols.column("games")?),
        None => None,
    };

    // Per round: its sums, and for an island-model run (plies of all games, games) for the mean.
    let mut rounds: BTreeMap<i64, (RoundStats, f64, u64)> = BTreeMap::new();
    let mut seen: HashMap<(u64, i64), u64> = HashMap::new();
    for record in cols.rows() {
        let round = parse_round(&cols, record, &round_col)?;
        let island = parse_island(&cols, record, island_col.as_ref())?;
        if let Some(first) = seen.insert((island, round), line_of(record)) {
            let whose = match island_col {
                Some(_) => format!("island {island}'s "),
                None => String::new(),
            };
            return Err(Error::input(format!(
                "{} line {}, column `round`: {whose}round {round} already appears on line {first}",
                path.display(),
                line_of(record)
            )));
        }
        let mut outcomes = [0u64; 5];
        for (count, col) in outcomes.iter_mut().zip(&outcome_cols) {
            *count = parse_count(&cols, record, col)?;
        }
        // A round without games has no mean; the writer may leave it empty or write NaN.
        let mean_plies = if plies_col.raw(record).is_empty() {
            None
        } else {
            let v: f64 = cols.parse(record, &plies_col, NUMBER)?;
            let range = (0.0, f64::from(MAX_GAME_PLIES));
            let kind = format!("of `mean_plies` outside 0..={MAX_GAME_PLIES}");
            v.is_finite()
                .then(|| clamped.clamp(v, range, &kind, &cols, record, &plies_col))
        };
        let games = match &games_col {
            Some(col) => Some(parse_count(&cols, record, col)?),
            None => None,
        };
        let (row, plies_sum, games_sum) = rounds.entry(round).or_insert_with(|| {
            let row = RoundStats {
                round,
                outcomes: [0; 5],
                mean_plies,
            };
            (row, 0.0, 0)
        });
        for (total, add) in row.outcomes.iter_mut().zip(outcomes) {
            *total += add;
        }
        if let Some(games) = games {
            *plies_sum += mean_plies.unwrap_or(0.0) * games as f64;
            *games_sum += games;
            row.mean_plies = (*games_sum > 0).then(|| *plies_sum / *games_sum as f64);
        }
    }
    if rounds.is_empty() {
        return Err(Error::input(format!(
            "{}: no rounds recorded yet, nothing to plot",
            path.display()
        )));
    }
    Ok(rounds.into_values().map(|(row, _, _)| row).collect())
}

fn read_learning(path: &Path, clamped: &mut Clamped) -> Result<Vec<Validation>, Error> {
    let cols = CsvTable::read(path)?;
    let [round, elo, low, high] =
        ["round", "elo", "elo_low", "elo_high"].map(|name| cols.column(name));
    let (round, elo, low, high) = (round?, elo?, low?, high?);
    let island_col = cols.optional("island");
    let mut rows = Vec::new();
    let kind = format!("of Elo beyond ±{MAX_ELO}");
    for record in cols.rows() {
        // An infinite end (a clean sweep) is drawn at the edge as it is, NaN not at all; a
        // finite Elo no match gives is moved to the edge of the scale, with a note.
        let mut elo_of = |column: &Column| -> Result<f64, Error> {
            let v: f64 = cols.parse(record, column, "a number")?;
            Ok(if v.is_finite() {
                clamped.clamp(v, (-MAX_ELO, MAX_ELO), &kind, &cols, record, column)
            } else {
                v
            })
        };
        let (elo, low, high) = (elo_of(&elo)?, elo_of(&low)?, elo_of(&high)?);
        rows.push(Validation {
            island: parse_island(&cols, record, island_col.as_ref())?,
            round: parse_round(&cols, record, &round)?,
            elo,
            low,
            high,
        });
    }
    rows.sort_by_key(|v| (v.island, v.round));
    Ok(rows)
}

/// `champions.csv`: the champion's cumulative Elo after each round's gates (the last gate of a
/// round gives the round's point), and one mark per candidate. A confirming match's row
/// (`kind = confirm`) belongs to the candidate of the row before, and decides it: the mark
/// is the confirming match's.
fn read_champions(path: &Path, clamped: &mut Clamped) -> Result<Climb, Error> {
    // The one check of the file's rows (a running run's last row may be half written: the
    // whole rows are checked and drawn).
    let bytes = read_champions_file(path)?;
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    ChampionsIndex::from_bytes(path, &bytes[..whole])?;
    let cols = CsvTable::from_bytes(path, &bytes[..whole])?;
    let (round, elo) = (cols.column("round")?, cols.column("cumulative_elo")?);
    let (kind, accepted) = (cols.column("kind")?, cols.column("accepted")?);
    let [gate_elo, low, high] = ["elo", "elo_low", "elo_high"].map(|name| cols.column(name));
    let (gate_elo, low, high) = (gate_elo?, low?, high?);
    let kind_text = format!("of Elo beyond ±{MAX_ELO}");
    let mut points: BTreeMap<i64, f64> = BTreeMap::new();
    let mut climb = Climb::default();
    // The champion's cumulative Elo before the current candidate's gate, and after it.
    let (mut before, mut after) = (0.0, 0.0);
    for record in cols.rows() {
        let r = parse_round(&cols, record, &round)?;
        let v: f64 = cols.parse(record, &elo, "a number")?;
        if !v.is_finite() {
            return Err(Error::Input(format!(
                "{}: line {}: `cumulative_elo` must be a finite number",
                path.display(),
                line_of(record)
            )));
        }
        let v = clamped.clamp(v, (-MAX_ELO, MAX_ELO), &kind_text, &cols, record, &elo);
        points.insert(r, v);
        let confirming = kind.raw(record) == "confirm";
        if confirming {
            // The confirming match replaces its candidate's SPRT mark.
            climb.gates.pop();
        } else {
            before = after;
        }
        after = v;
        let took: bool = cols.parse(record, &accepted, "true or false")?;
        // An empty Elo: the first champion, crowned unopposed.
        let mark = if gate_elo.raw(record).is_empty() {
            GateMark {
                round: r,
                accepted: took,
                elo: v,
                interval: None,
            }
        } else {
            let mut elo_of = |column: &Column| -> Result<f64, Error> {
                let e: f64 = cols.parse(record, column, "a number")?;
                Ok(if e.is_finite() {
                    before
                        + clamped.clamp(e, (-MAX_ELO, MAX_ELO), &kind_text, &cols, record, column)
                } else {
                    e
                })
            };
            let centre = elo_of(&gate_elo)?;
            let interval = (elo_of(&low)?, elo_of(&high)?);
            if !centre.is_finite() {
                return Err(cols.invalid(record, &gate_elo, "a finite number"));
            }
            GateMark {
                round: r,
                accepted: took,
                elo: centre,
                interval: Some(interval),
            }
        };
        climb.gates.push(mark);
        if took && climb.accepted_rounds.last() != Some(&r) {
            climb.accepted_rounds.push(r);
        }
    }
    climb.steps = points
        .into_iter()
        .map(|(round, elo)| ChampionPoint { round, elo })
        .collect();
    Ok(climb)
}

/// The champions a gated run kept (`champions/round-N.json`, one for each round in `rounds`):
/// what `best.json` held after each of those rounds. A file not written yet (the run writes
/// `champions.csv`'s rows just before it) is left out with a note.
fn read_champion_weights(
    run_dir: &Path,
    rounds: &[i64],
    notes: &mut Vec<String>,
) -> Result<Vec<Best>, Error> {
    let mut champions = Vec::with_capacity(rounds.len());
    for &round in rounds {
        let path = champion_path(run_dir, round as u32);
        if !path.exists() {
            notes.push(format!(
                "{} is missing: the weights panels keep the champion before it",
                path.display()
            ));
            continue;
        }
        let file = WeightsFile::load(&path)?;
        let set = |w: &Weights| w.0.map(f64::from);
        let extra = |pick: fn(&ExtraPair) -> &ExtraWeights| {
            file.extra.as_ref().map_or_else(Vec::new, |e| {
                pick(e).to_vec().into_iter().map(f64::from).collect()
            })
        };
        champions.push(Best {
            round,
            id: file
                .source
                .as_ref()
                .and_then(|s| s.specimen_id())
                .unwrap_or(0),
            rounds_survived: 0,
            wins: 0,
            opening: set(&file.weights.opening),
            endgame: set(&file.weights.endgame),
            extra: [extra(|e| &e.opening), extra(|e| &e.endgame)],
        });
    }
    Ok(champions)
}

fn read_best(path: &Path, clamped: &mut Clamped) -> Result<Vec<Best>, Error> {
    let cols = CsvTable::read(path)?;
    let [round_col, id_col, survived_col, wins_col] =
        ["round", "id", "rounds_survived", "wins"].map(|name| cols.column(name));
    let (round_col, id_col, survived_col, wins_col) =
        (round_col?, id_col?, survived_col?, wins_col?);
    // Per feature: its opening and its endgame column.
    let weight_cols = FEATURE_NAMES
        .iter()
        .map(|f| {
            Ok([
                cols.column(&format!("open_{f}"))?,
                cols.column(&format!("end_{f}"))?,
            ])
        })
        .collect::<Result<Vec<_>, Error>>()?;
    // An extended run's further weights, when the file has their columns.
    let extra_cols: Vec<[Column; 2]> = if cols.column("open_bridge").is_ok() {
        extra_names()
            .iter()
            .map(|f| {
                Ok([
                    cols.column(&format!("open_{f}"))?,
                    cols.column(&format!("end_{f}"))?,
                ])
            })
            .collect::<Result<Vec<_>, Error>>()?
    } else {
        Vec::new()
    };

    let mut best: BTreeMap<i64, Best> = BTreeMap::new();
    for record in cols.rows() {
        let round = parse_round(&cols, record, &round_col)?;
        let id = cols.parse(record, &id_col, COUNT)?;
        let rounds_survived = cols.parse(record, &survived_col, COUNT)?;
        let wins = cols.parse(record, &wins_col, COUNT)?;
        let bound = f64::from(MAX_ABS_WEIGHT);
        let kind = format!("of weights beyond ±{MAX_ABS_WEIGHT}");
        let mut weight = |column: &Column| -> Result<f64, Error> {
            let w: f64 = cols.parse(record, column, NUMBER)?;
            if !w.is_finite() {
                return Err(cols.invalid(record, column, NUMBER));
            }
            Ok(clamped.clamp(w, (-bound, bound), &kind, &cols, record, column))
        };
        let mut sets = [[0f64; 10]; 2];
        for (set, weights) in sets.iter_mut().enumerate() {
            for (w, pair) in weights.iter_mut().zip(&weight_cols) {
                *w = weight(&pair[set])?;
            }
        }
        let [opening, endgame] = sets;
        let mut extra = [Vec::new(), Vec::new()];
        for (set, values) in extra.iter_mut().enumerate() {
            for pair in &extra_cols {
                values.push(weight(&pair[set])?);
            }
        }
        let candidate = Best {
            round,
            id,
            rounds_survived,
            wins,
            opening,
            endgame,
            extra,
        };
        if best
            .get(&round)
            .is_none_or(|current| candidate.rank() > current.rank())
        {
            best.insert(round, candidate);
        }
    }
    Ok(best.into_values().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_specimens(dir: &Path, rows: &[(i64, u64, u64, u64, i32)]) -> std::path::PathBuf {
        let mut text = String::from("round,id,parent_a,parent_b,born_round,rounds_survived,wins");
        for prefix in ["open", "end"] {
            for f in FEATURE_NAMES {
                text.push_str(&format!(",{prefix}_{f}"));
            }
        }
        text.push('\n');
        for &(round, id, survived, wins, w) in rows {
            text.push_str(&format!("{round},{id},,,0,{survived},{wins}"));
            for i in 0..20 {
                text.push_str(&format!(",{}", w + i));
            }
            text.push('\n');
        }
        let path = dir.join("specimens.csv");
        std::fs::write(&path, text).unwrap();
        path
    }

    #[test]
    fn best_survivor_is_most_rounds_then_most_wins_then_lowest_id() {
        let dir = tempfile::tempdir().unwrap();
        let path = write_specimens(
            dir.path(),
            &[
                // round 1: most rounds_survived wins despite fewer wins
                (1, 4, 1, 9, 0),
                (1, 2, 2, 1, 100),
                // round 2: equal rounds, most wins
                (2, 3, 2, 1, 0),
                (2, 8, 2, 5, 200),
                // round 3: all equal: lowest id, whatever the row order
                (3, 9, 1, 1, 0),
                (3, 5, 1, 1, 300),
                (3, 7, 1, 1, 0),
            ],
        );
        let best = read_best(&path, &mut Clamped::default()).unwrap();
        let picked: Vec<(i64, u64)> = best.iter().map(|b| (b.round, b.id)).collect();
        assert_eq!(picked, vec![(1, 2), (2, 8), (3, 5)]);
        assert_eq!(best[2].opening[0], 300.0);
        assert_eq!(best[2].endgame[9], 319.0);
    }

    #[test]
    fn empty_mean_plies_is_no_point_but_text_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rounds.csv");
        let header = "round,black_wins,white_wins,draw_then_black_win,draw_then_white_win,\
                      double_draws,mean_plies";
        std::fs::write(&path, format!("{header}\n2,1,0,0,0,0,\n1,0,1,0,0,0,NaN\n")).unwrap();
        let rounds = read_rounds(&path, &mut Clamped::default()).unwrap();
        assert_eq!(
            rounds.iter().map(|r| r.round).collect::<Vec<_>>(),
            vec![1, 2]
        );
        assert!(rounds.iter().all(|r| r.mean_plies.is_none()));

        std::fs::write(&path, format!("{header}\n1,1,0,0,0,0,long\n")).unwrap();
        let err = read_rounds(&path, &mut Clamped::default()).unwrap_err();
        assert!(
            matches!(&err, Error::Input(m) if m.contains("line 2") && m.contains("`mean_plies`"))
        );

        std::fs::write(&path, format!("{header}\n1,1,0,0,0,0,5\n1,1,0,0,0,0,5\n")).unwrap();
        let err = read_rounds(&path, &mut Clamped::default()).unwrap_err();
        assert!(matches!(&err, Error::Input(m) if m.contains("already appears on line 2")));

        std::fs::write(&path, format!("{header}\n")).unwrap();
        assert!(
            matches!(read_rounds(&path, &mut Clamped::default()), Err(Error::Input(m)) if m.contains("no rounds"))
        );
    }

    #[test]
    fn gate_marks_stand_on_the_champions_scale_and_a_confirmation_decides() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("champions.csv");
        let header = "round,candidate,kind,champion,games,wins,draws,losses,elo,elo_low,elo_high,\
                      llr,accepted,cumulative_elo";
        let rows = [
            // The first champion, unopposed.
            "32,11,fit,,,,,,,,,,true,0.0",
            // Accepted: the step to +22.4, the mark on it.
            "64,12,fit,11,930,364,262,304,22.4,5.3,39.7,2.896,true,22.4",
            // Refused after it: its mark below the champion's +22.4.
            "64,13,winner,12,40,10,10,20,-30.0,-80.0,20.0,-1.000,false,22.4",
            // Accepted by its SPRT, then refused by its confirming match, which the mark shows.
            "96,14,fit,12,300,120,100,80,46.6,10.0,83.2,2.950,false,22.4",
            "96,14,confirm,12,200,60,70,70,-17.4,-60.0,25.2,,false,22.4",
            // A clean sweep's open interval.
            "128,15,fit,12,20,20,0,0,inf,50.0,inf,3.000,true,inf",
        ];
        std::fs::write(&path, format!("{header}\n{}\n", rows[..5].join("\n"))).unwrap();
        let climb = read_champions(&path, &mut Clamped::default()).unwrap();
        let marks: Vec<(i64, bool, f64)> = climb
            .gates
            .iter()
            .map(|g| (g.round, g.accepted, (g.elo * 10.0).round() / 10.0))
            .collect();
        assert_eq!(
            marks,
            vec![
                (32, true, 0.0),
                (64, true, 22.4),
                (64, false, -7.6),
                (96, false, 5.0)
            ]
        );
        assert_eq!(climb.gates[0].interval, None);
        let (low, high) = climb.gates[3].interval.unwrap();
        assert!((low - -37.6).abs() < 1e-9 && (high - 47.6).abs() < 1e-9);
        assert_eq!(climb.accepted_rounds, vec![32, 64]);
        let steps: Vec<(i64, f64)> = climb.steps.iter().map(|s| (s.round, s.elo)).collect();
        assert_eq!(steps, vec![(32, 0.0), (64, 22.4), (96, 22.4)]);

        // A cumulative Elo must be finite; a gate's Elo too, though its interval may be open.
        std::fs::write(&path, format!("{header}\n{}\n", rows[5])).unwrap();
        let err = read_champions(&path, &mut Clamped::default()).unwrap_err();
        assert!(
            matches!(&err, Error::Input(m) if m.contains("cumulative_elo")),
            "{err}"
        );
        let sweep = rows[5]
            .replace(",inf\n", ",40.0\n")
            .replace("true,inf", "true,40.0");
        std::fs::write(&path, format!("{header}\n{sweep}\n")).unwrap();
        let err = read_champions(&path, &mut Clamped::default()).unwrap_err();
        assert!(
            matches!(&err, Error::Input(m) if m.contains("`elo`")),
            "{err}"
        );
    }
}
