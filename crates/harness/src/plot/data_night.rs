//! A chain's data night (`data.csv` in the chain's top folder, docs/chain.md): each doubling's
//! gate, the fit of all the data so far against the champion, with its interval, and the
//! champion those gates made.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::run_folder::{Column, CsvTable, DATA_RESULT_FILE};
use checkers_engine::error::Error;

use super::chart::{chart_on, draw_legend, draw_zero_line, integer_label, split_legend};
use super::chart::{DrawResult, Mark};
use super::data::{parse_count, run_name, Clamped, MAX_ELO};
use super::layout::{draw_notes, NOTE_HEIGHT};
use super::picture::{write_picture, Picture};
use super::style::{rgb, FAMILY};

const WIDTH: u32 = 1600;
const HEIGHT: u32 = 760;
/// The most doublings drawn: each doubles the data, so a night has a handful (`overnight.toml`
/// seven), and 100 would be 2^99 times the first's games.
const MAX_DOUBLINGS: usize = 100;
/// The doublings listed one to a line in the legend column (the rest are on the axis only).
const LISTED: usize = 10;

/// The champion's line, as the climb panel draws it.
const CHAMPION_COLOUR: RGBColor = rgb(0x000000);
/// A gate that crowned the fit.
const ACCEPTED_COLOUR: RGBColor = rgb(0x2ca02c);
/// A gate that kept the champion.
const REFUSED_COLOUR: RGBColor = rgb(0xd62728);

/// A doubling's gate: the fit's Elo over the champion before it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Gate {
    /// May be `±inf` (a clean sweep).
    elo: f64,
    /// Half the 95% interval; `inf` when an end is unbounded.
    margin: f64,
}

/// One row of `data.csv`.
#[derive(Debug, Clone, PartialEq)]
struct Doubling {
    doubling: u32,
    /// The games of every doubling so far.
    data_games: u64,
    /// The positions the doubling's fit learnt from; `None` when the file leaves it empty.
    positions: Option<u64>,
    /// `None` for a night without gates (`gate_openings = 0`): every fit is accepted.
    gate: Option<Gate>,
    accepted: bool,
}

/// The data night as the picture needs it.
#[derive(Debug)]
struct DataNight {
    /// The chain's name, for the title.
    name: String,
    /// In the file's order: doublings 1, 2, … ascending.
    doublings: Vec<Doubling>,
    /// What the picture shows otherwise than the file says: values drawn at the edge.
    notes: Vec<String>,
}

/// Draws the data night of the chain whose top folder is `top` (its `data.csv`, see
/// docs/chain.md) into `out`: PNG when `out` ends in `.png`, SVG when it ends in `.svg` (any
/// case).
///
/// Reads the columns `doubling`, `data_games`, `positions`, `elo`, `elo_95` and `accepted` of
/// `data.csv` by name (any others are ignored), and the chain's `name` from its `config.toml`
/// (the folder's name without one). One panel, doublings across: each doubling's gate, the
/// Elo of the fit of all the data so far against the champion before it, as a mark with its
/// 95% interval (`elo ± elo_95`) as a bar, filled green when the gate accepted the fit,
/// hollow red when it refused it; and the champion's Elo as a step line from the morning's
/// champion at 0, the sum of the accepted gates' Elo. A doubling without a gate (an empty
/// `elo`: `gate_openings = 0`) is accepted at 0, without a bar. An unbounded gate (`elo`
/// `-inf` or `inf`, `elo_95` `inf` or `NaN`) and a finite value beyond ±10,000 Elo are drawn at
/// the edge, with a note under the title. The legend column lists each doubling's data games,
/// positions and gate. The picture is written atomically. Returns the notes.
///
/// # Errors
/// [`Error::Input`] when `data.csv` is missing or not CSV, lacks one of the columns, has a
/// value that does not parse (a doubling that is not 1 or more and above the row before's, a
/// count that is not one, an `elo` that is NaN, a negative `elo_95`, an `accepted` that is not
/// `true` or `false`), naming the file, line and column, or has no doublings or more than
/// 100; when `config.toml` is there but unreadable; when `out` is not an `.svg` or `.png` name
/// in an existing folder. [`Error::Failure`] when the picture cannot be drawn or written.
pub fn plot_data_night(top: &Path, out: &Path) -> Result<Vec<String>, Error> {
    super::data::check_run_dir(top)?;
    checkers_engine::atomic_file::check_output_path(out, "output")?;
    let png = super::is_png(out)?;
    let night = read_data_night(top)?;
    write_picture(&night, out, png)?;
    Ok(night.notes)
}

/// Reads and checks `data.csv` of the chain in `top`.
fn read_data_night(top: &Path) -> Result<DataNight, Error> {
    let path = top.join(DATA_RESULT_FILE);
    let cols = CsvTable::read(&path)?;
    let [doubling, data_games, positions, elo, elo_95, accepted] = [
        "doubling",
        "data_games",
        "positions",
        "elo",
        "elo_95",
        "accepted",
    ]
    .map(|c| cols.column(c));
    let (doubling, data_games, positions) = (doubling?, data_games?, positions?);
    let (elo, elo_95, accepted) = (elo?, elo_95?, accepted?);
    if cols.rows().is_empty() {
        return Err(Error::input(format!(
            "{} line 2: no doublings: the data night has its header line only",
            path.display()
        )));
    }
    if let Some(record) = cols.rows().get(MAX_DOUBLINGS) {
        return Err(Error::input(format!(
            "{}: more than {MAX_DOUBLINGS} doublings (the first left out at line {}); a data \
             night has a handful",
            path.display(),
            crate::run_folder::line_of(record)
        )));
    }
    let mut clamped = Clamped::default();
    let edge = format!("of Elo beyond ±{MAX_ELO}");
    let mut unbounded: Option<(usize, String)> = None;
    let mut doublings: Vec<Doubling> = Vec::with_capacity(cols.rows().len());
    for record in cols.rows() {
        let after = doublings.last().map_or(0, |d| d.doubling);
        let expected = format!("a doubling after {after}");
        let k: u32 = cols.parse(record, &doubling, &expected)?;
        if k <= after {
            return Err(cols.invalid(record, &doubling, &expected));
        }
        let games = parse_count(&cols, record, &data_games)?;
        let positions = match positions.raw(record) {
            // A fit whose weights file does not say its positions leaves the field empty.
            "" => None,
            _ => Some(cols.parse(record, &positions, "a count or empty")?),
        };
        let gate = if elo.raw(record).is_empty() {
            None
        } else {
            let number = |column: &Column| -> Result<f64, Error> {
                cols.parse(record, column, "a number, `-inf` or `inf`")
            };
            let e = number(&elo)?;
            if e.is_nan() {
                return Err(cols.invalid(record, &elo, "a number, `-inf` or `inf`"));
            }
            let m: f64 = cols.parse(record, &elo_95, "a non-negative number or `inf`")?;
            if m < 0.0 {
                return Err(cols.invalid(record, &elo_95, "a non-negative number or `inf`"));
            }
            // The night writes the interval's half width as (upper - lower) / 2: NaN when
            // both ends are infinite, which is an unbounded interval all the same.
            let m = if m.is_nan() { f64::INFINITY } else { m };
            if e.is_infinite() || m.is_infinite() {
                match &mut unbounded {
                    Some((count, _)) => *count += 1,
                    None => unbounded = Some((1, cols.place(record))),
                }
            }
            let e = if e.is_finite() {
                clamped.clamp(e, (-MAX_ELO, MAX_ELO), &edge, &cols, record, &elo)
            } else {
                e
            };
            let m = if m.is_finite() {
                clamped.clamp(m, (0.0, 2.0 * MAX_ELO), &edge, &cols, record, &elo_95)
            } else {
                m
            };
            Some(Gate { elo: e, margin: m })
        };
        doublings.push(Doubling {
            doubling: k,
            data_games: games,
            positions,
            gate,
            accepted: cols.parse(record, &accepted, "true or false")?,
        });
    }
    let mut notes = Vec::new();
    if let Some((count, first)) = unbounded {
        let gates = if count == 1 { "gate" } else { "gates" };
        notes.push(format!(
            "{count} {gates} unbounded (elo -inf or inf, or elo_95 inf: a clean sweep), drawn \
             at the panel's edge (first: {first})"
        ));
    }
    notes.extend(clamped.notes());
    Ok(DataNight {
        name: run_name(top)?,
        doublings,
        notes,
    })
}

impl DataNight {
    /// The champion's Elo after each doubling: the sum of the accepted gates' Elo so far, from
    /// the morning's champion at 0 (a doubling without a gate adds nothing it could measure).
    fn champion(&self) -> Vec<f64> {
        let mut sum = 0.0;
        self.doublings
            .iter()
            .map(|d| {
                if d.accepted {
                    sum += d.gate.map_or(0.0, |g| g.elo);
                }
                sum
            })
            .collect()
    }

    /// The caption: what the night came to.
    fn summary(&self) -> String {
        let last = self.champion().last().copied().unwrap_or(0.0);
        let n = self.doublings.len();
        let accepted = self.doublings.iter().filter(|d| d.accepted).count();
        format!(
            "the champion {last:+.1} Elo over the morning's by its gates: {accepted} of {n} \
             doubling{} accepted",
            if n == 1 { "" } else { "s" }
        )
    }
}

/// A doubling's two lines in the legend column: `1: 10000 games,` and `812345 positions,
/// +35.2 ± 20.1` (one line would not fit the column).
fn listed(d: &Doubling) -> [String; 2] {
    let positions = d
        .positions
        .map_or(String::new(), |p| format!("{p} positions, "));
    let gate = match d.gate {
        None => "no gate".to_string(),
        Some(g) if g.margin.is_finite() => format!("{:+.1} ± {:.1}", g.elo, g.margin),
        Some(g) => format!("{:+.1} ± inf", g.elo),
    };
    [
        format!("doubling {}: {} games,", d.doubling, d.data_games),
        format!("    {positions}{gate}"),
    ]
}

impl Picture for DataNight {
    fn size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT + NOTE_HEIGHT * self.notes.len() as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let last = self.doublings.last().map_or(1, |d| d.doubling);
        let title = format!(
            "checkers-tuner chain \"{}\": data night, {} doubling{}",
            self.name.chars().take(60).collect::<String>(),
            self.doublings.len(),
            if self.doublings.len() == 1 { "" } else { "s" }
        );
        let body = root.titled(&title, (FAMILY, 30).into_font().color(&BLACK))?;
        let body = draw_notes(&body, &self.notes)?;
        let (plot_area, legend_area) = split_legend(&body);

        let champion = self.champion();
        let finite = |v: f64| v.is_finite().then_some(v);
        let values = champion.iter().copied().chain(
            self.doublings
                .iter()
                .filter_map(|d| d.gate)
                .flat_map(|g| [g.elo, g.elo - g.margin, g.elo + g.margin])
                .filter_map(finite),
        );
        let (lo, hi) = values
            .filter_map(finite)
            .fold((0f64, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let pad = ((hi - lo) * 0.08).max(10.0);
        let y_range = (lo - pad)..(hi + pad);
        let clamp = |v: f64| v.clamp(y_range.start, y_range.end);
        let x_range = 0.5..(f64::from(last) + 0.5);

        let caption = format!(
            "(a) each doubling's gate and the champion: {}",
            self.summary()
        );
        let mut chart = chart_on(&plot_area, &caption, 70)
            .build_cartesian_2d(x_range.clone(), y_range.clone())?;
        chart
            .configure_mesh()
            .x_desc("doubling (the data so far doubles at each)")
            .y_desc("Elo")
            .x_labels((last as usize + 1).min(20))
            .x_label_formatter(&integer_label)
            .y_label_formatter(&integer_label)
            .label_style((FAMILY, 14))
            .axis_desc_style((FAMILY, 16))
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(rgb(0xcccccc))
            .draw()?;
        let area = chart.plotting_area();
        draw_zero_line(area, &x_range)?;

        let colour_of = |accepted: bool| {
            if accepted {
                ACCEPTED_COLOUR
            } else {
                REFUSED_COLOUR
            }
        };
        // The intervals first, so that the marks and the line stay on top.
        for d in &self.doublings {
            let Some(g) = d.gate else { continue };
            if !g.elo.is_finite() {
                continue;
            }
            let x = f64::from(d.doubling);
            let style = colour_of(d.accepted).mix(0.45).stroke_width(3);
            let ends = [(x, clamp(g.elo - g.margin)), (x, clamp(g.elo + g.margin))];
            area.draw(&PathElement::new(ends, style))?;
        }

        // A step line: the champion holds its Elo until a gate accepts a fit.
        let mut steps = vec![(x_range.start, 0.0)];
        let mut held = 0.0;
        for (d, &elo) in self.doublings.iter().zip(&champion) {
            // Only where it steps: a bitmap's wide line wobbles through repeated points.
            if elo != held {
                let x = f64::from(d.doubling);
                steps.push((x, clamp(held)));
                steps.push((x, clamp(elo)));
                held = elo;
            }
        }
        steps.push((x_range.end, clamp(held)));
        area.draw(&PathElement::new(steps, CHAMPION_COLOUR.stroke_width(3)))?;

        for d in &self.doublings {
            let colour = colour_of(d.accepted);
            let elo = d.gate.map_or(0.0, |g| g.elo);
            let centre = (f64::from(d.doubling), clamp(elo));
            if elo.is_infinite() {
                // A triangle pointing off the panel, the way the gate went.
                let out = if elo > 0.0 { -1 } else { 1 };
                let tip = vec![(0, out * 10), (-7, -out * 2), (7, -out * 2)];
                let style = if d.accepted {
                    colour.filled()
                } else {
                    colour.stroke_width(2)
                };
                area.draw(&(EmptyElement::at(centre) + Polygon::new(tip, style)))?;
            } else if d.accepted {
                area.draw(&Circle::new(centre, 6, colour.filled()))?;
            } else {
                area.draw(&Circle::new(centre, 6, colour.stroke_width(2)))?;
            }
        }

        let mut notes: Vec<String> = vec![
            "gate: the fit of all the data so far".into(),
            "vs the champion before it, Elo".into(),
            "and its 95% interval as a bar".into(),
            "champion: the sum of the accepted".into(),
            "gates' Elo, the morning's at 0".into(),
            String::new(),
            "each doubling: data games so far,".into(),
            "its fit's positions, the gate's Elo".into(),
        ];
        notes.extend(self.doublings.iter().take(LISTED).flat_map(listed));
        if self.doublings.len() > LISTED {
            notes.push(format!("… {} more", self.doublings.len() - LISTED));
        }
        let notes: Vec<&str> = notes.iter().map(String::as_str).collect();
        draw_legend(
            &legend_area,
            DATA_RESULT_FILE,
            &[
                ("champion (cumulative)", Mark::Line(CHAMPION_COLOUR)),
                ("gate accepted", Mark::Dot(ACCEPTED_COLOUR, true)),
                ("gate refused", Mark::Dot(REFUSED_COLOUR, false)),
            ],
            &notes,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::test_support::{input_message, unescaped};
    use crate::run::data_header;

    /// A night of two doublings as the chain writes `data.csv`: the first's fit accepted, the
    /// second's refused.
    fn night_csv() -> String {
        format!(
            "{}\n\
             1,10000,10000,812345,128,40,70,18,+60.1,35.2,true\n\
             2,10000,20000,1634990,256,50,140,66,-22.0,24.9,false\n",
            data_header().join(",")
        )
    }

    #[test]
    fn a_data_night_plots_its_doublings_and_the_champion_they_made() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.toml"), "name = \"night\"\n").unwrap();
        std::fs::write(dir.path().join(DATA_RESULT_FILE), night_csv()).unwrap();
        assert_eq!(
            super::super::PlotSource::of(dir.path()),
            super::super::PlotSource::DataNight
        );
        let out = dir.path().join("data.svg");
        assert!(plot_data_night(dir.path(), &out).unwrap().is_empty());
        let svg = unescaped(&std::fs::read_to_string(&out).unwrap());
        for label in [
            "checkers-tuner chain \"night\": data night, 2 doublings",
            "+60.1 Elo over the morning's by its gates: 1 of 2 doublings accepted",
            "doubling 1: 10000 games,",
            "doubling 2: 20000 games,",
            "812345 positions, +60.1 ± 35.2",
            "1634990 positions, -22.0 ± 24.9",
            "gate accepted",
            "gate refused",
        ] {
            assert!(svg.contains(label), "no `{label}` in the picture");
        }
        // The doublings' tick labels, each a text of its own.
        let texts: Vec<&str> = svg
            .split("<text")
            .filter_map(|t| Some(t[t.find('>')? + 1..t.find("</text>")?].trim()))
            .collect();
        for tick in ["1", "2"] {
            assert!(texts.contains(&tick), "no tick `{tick}` in {texts:?}");
        }
    }

    #[test]
    fn an_unbounded_gate_is_drawn_at_the_edge_with_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let text = night_csv().replace("+60.1,35.2", "inf,NaN");
        std::fs::write(dir.path().join(DATA_RESULT_FILE), text).unwrap();
        let out = dir.path().join("d.svg");
        let notes = plot_data_night(dir.path(), &out).unwrap();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("1 gate unbounded") && notes[0].contains("data.csv line 2"));
        assert!(unescaped(&std::fs::read_to_string(&out).unwrap()).contains("+inf ± inf"));
    }

    #[test]
    fn a_bad_data_csv_is_one_error_naming_its_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("d.svg");
        let cases = [
            (
                night_csv().replace(",elo_95,", ",elo95,"),
                "data.csv: missing column `elo_95`",
            ),
            (
                night_csv().replace(",false\n", ",no\n"),
                "data.csv line 3, column `accepted`: `no` is not true or false",
            ),
            (
                night_csv().replace("\n2,10000,", "\n1,10000,"),
                "data.csv line 3, column `doubling`: `1` is not a doubling after 1",
            ),
            (
                night_csv().replace("-22.0", "NaN"),
                "data.csv line 3, column `elo`: `NaN` is not a number",
            ),
            (
                format!("{}\n", data_header().join(",")),
                "data.csv line 2: no doublings",
            ),
        ];
        for (text, says) in cases {
            std::fs::write(dir.path().join(DATA_RESULT_FILE), &text).unwrap();
            let message = input_message(plot_data_night(dir.path(), &out));
            assert!(message.contains(says), "{says:?} not in {message:?}");
            assert_eq!(message.lines().count(), 1, "{message}");
            assert!(!out.exists(), "a picture of bad input: {message}");
        }
    }
}
