//! `champions.csv` and `champions/round-N.json`: a gated run's climb and its champions.

use std::collections::BTreeMap;
use std::path::Path;

use crate::run_folder::{champion_path, line_of, Column, CsvTable};
use checkers_engine::error::Error;
use checkers_engine::eval::{ExtraPair, ExtraWeights, Weights};
use checkers_engine::weights_file::WeightsFile;

use super::fields::{parse_round, Clamped, MAX_ELO};
use super::specimens::Best;

/// The gated champion's climb (`champions.csv`): its cumulative Elo after a gate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ChampionPoint {
    pub(crate) round: i64,
    pub(crate) elo: f64,
}

/// One candidate's gate (`champions.csv`), placed on the champion's scale: where the candidate
/// stood by its match, the champion's cumulative Elo before the gate plus the candidate's Elo
/// in it, so that an accepted candidate's mark sits on the step it made and a refused one's
/// shows how far below (or how undecidedly above) the champion it stayed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct GateMark {
    pub(crate) round: i64,
    pub(crate) accepted: bool,
    /// The mark's height: the champion's Elo before the gate plus the candidate's in it.
    pub(crate) elo: f64,
    /// The 95% interval of the deciding match on the same scale; `None` for a candidate
    /// crowned unopposed. An end may be infinite (a clean sweep).
    pub(crate) interval: Option<(f64, f64)>,
}

/// The gated run's climb: the step line and the gates that made it.
#[derive(Debug, Default)]
pub(crate) struct Climb {
    /// The champion's cumulative Elo, one point per round with a gate, sorted by round.
    pub(crate) steps: Vec<ChampionPoint>,
    /// One mark per candidate, in the file's order (rounds ascending).
    pub(crate) gates: Vec<GateMark>,
    /// The rounds after which a gate accepted a candidate: the rounds of `champions/round-N.json`.
    pub(crate) accepted_rounds: Vec<i64>,
}

/// `champions.csv`: the champion's cumulative Elo after each round's gates (the last gate of a
/// round gives the round's point), and one mark per candidate. A confirming match's row
/// (`kind = confirm`) belongs to the candidate of the row before, and decides it: the mark
/// is the confirming match's.
pub(super) fn read_champions(path: &Path, clamped: &mut Clamped) -> Result<Climb, Error> {
    // The one check of the file's rows (a running run's last row may be half written: the
    // whole rows are checked and drawn).
    let bytes = crate::run_folder::read_champions_file(path)?;
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    crate::run_folder::ChampionsIndex::from_bytes(path, &bytes[..whole])?;
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
pub(super) fn read_champion_weights(
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

#[cfg(test)]
mod tests {
    use super::*;

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
