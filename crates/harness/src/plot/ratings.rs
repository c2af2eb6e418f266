//! A tournament's rating list (`FILE.ratings.csv`, which `match … --tournament round-robin|gauntlet
//! --out FILE.csv` writes): a row per player in rank order, its Elo a dot with its 95% interval
//! as a bar, and the anchor (Elo 0) a vertical line.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::run_folder::CsvTable;
use checkers_engine::error::Error;

use super::chart::DrawResult;
use super::data::{parse_count, Clamped, MAX_ELO};
use super::layout::{draw_notes, NOTE_HEIGHT};
use super::picture::{write_picture, Picture};
use super::style::{rgb, FAMILY};

const WIDTH: u32 = 1200;
/// Height of a player's row: its name, its dot and bar, its value over the dot.
const ROW_HEIGHT: u32 = 34;
/// Height of everything but the rows and the notes: the title, the caption, the Elo axis.
const FRAME_HEIGHT: u32 = 170;
/// The most players drawn: a picture a row per player, 34 pixels each, is 34,000 pixels tall
/// at 1,000, and a bitmap of many more would take gigabytes to draw.
const MAX_PLAYERS: usize = 1000;
/// The longest name drawn, in characters (a longer one ends in `…`).
const NAME_CHARS: usize = 40;

/// A bounded player's dot and bar.
const PLAYER_COLOUR: RGBColor = rgb(0x1f77b4);
/// An unbounded player's mark at the panel's edge: apart from the bounded ones.
const UNBOUNDED_COLOUR: RGBColor = rgb(0xd62728);

/// One row of the rating list.
#[derive(Debug, Clone, PartialEq)]
struct Rating {
    rank: u64,
    name: String,
    /// The Elo, relative to the anchor at 0; `±inf` for a rating the games leave unbounded.
    elo: f64,
    /// Half the 95% interval; `inf` for an unbounded one.
    margin: f64,
    games: u64,
    points: f64,
}

/// The rating list as the picture needs it.
#[derive(Debug)]
struct RatingList {
    /// The file's name, for the title.
    file: String,
    /// In rank order (the file's order for equal ranks).
    players: Vec<Rating>,
    /// What the picture shows otherwise than the file says: players drawn at the edge.
    notes: Vec<String>,
}

/// Draws the rating list in `csv` (a `FILE.ratings.csv` of `match --tournament … --out
/// FILE.csv`) into `out`: PNG when `out` ends in `.png`, SVG when it ends in `.svg` (any case).
///
/// Reads the columns `rank`, `name`, `elo`, `margin`, `games` and `points` by name (any others,
/// `player` and `los_next` among them, are ignored). The picture has a row per player in rank
/// order, best on top: its name and games on the left, its Elo as a dot with its 95% interval
/// (`elo ± margin`) as a bar, the value over the dot, and the anchor (Elo 0) as a vertical
/// line, named in the caption (the player at 0 ± 0). A player the games leave unbounded (`elo` `-inf` or `inf`, or `margin` `inf`) is drawn
/// at the panel's edge, as is a finite value beyond ±10,000 Elo, with a note under the title.
/// The picture is written atomically (a temporary file renamed onto `out`). Returns the notes.
///
/// # Errors
/// [`Error::Input`] when the file is missing or not CSV, lacks one of the columns, has a value
/// that does not parse (an `elo` or `margin` that is not a number or is NaN, a negative
/// `margin`, a `rank` that is not a positive integer, a `games` that is not a count, a
/// `points` that is not a finite number from 0 to `games`), naming the file, line and column,
/// or has no players or more than 1,000; also when `out` is not an `.svg` or `.png` name in an
/// existing folder. [`Error::Failure`] when the picture cannot be drawn or written.
pub fn plot_ratings(csv: &Path, out: &Path) -> Result<Vec<String>, Error> {
    // Before the CSV reader's own message, which takes a missing file for a run's.
    if !csv.is_file() {
        return Err(Error::input(format!(
            "rating list {}: does not exist or is not a file (a tournament's FILE.ratings.csv)",
            csv.display()
        )));
    }
    checkers_engine::atomic_file::check_output_path(out, "output")?;
    let png = super::is_png(out)?;
    let list = read_ratings(csv)?;
    write_picture(&list, out, png)?;
    Ok(list.notes)
}

/// Reads and checks the rating list in `path`.
fn read_ratings(path: &Path) -> Result<RatingList, Error> {
    let cols = CsvTable::read(path)?;
    let [rank, name, elo, margin, games, points] =
        ["rank", "name", "elo", "margin", "games", "points"].map(|c| cols.column(c));
    let (rank, name, elo, margin) = (rank?, name?, elo?, margin?);
    let (games, points) = (games?, points?);
    if cols.rows().is_empty() {
        return Err(Error::input(format!(
            "{} line 2: no players: the rating list has its header line only",
            path.display()
        )));
    }
    if let Some(record) = cols.rows().get(MAX_PLAYERS) {
        return Err(Error::input(format!(
            "{}: more than {MAX_PLAYERS} players; a picture draws at most {MAX_PLAYERS} (the \
             first left out at line {})",
            path.display(),
            crate::run_folder::line_of(record)
        )));
    }
    let mut clamped = Clamped::default();
    let edge = format!("of Elo beyond ±{MAX_ELO}");
    // How many players are unbounded, and where the first is.
    let mut unbounded: Option<(usize, String)> = None;
    let mut players = Vec::with_capacity(cols.rows().len());
    for record in cols.rows() {
        let r: u64 = cols.parse(record, &rank, "a positive integer")?;
        if r == 0 {
            return Err(cols.invalid(record, &rank, "a positive integer"));
        }
        let e: f64 = cols.parse(record, &elo, "a number, `-inf` or `inf`")?;
        if e.is_nan() {
            return Err(cols.invalid(record, &elo, "a number, `-inf` or `inf`"));
        }
        let m: f64 = cols.parse(record, &margin, "a non-negative number or `inf`")?;
        if m.is_nan() || m < 0.0 {
            return Err(cols.invalid(record, &margin, "a non-negative number or `inf`"));
        }
        let g = parse_count(&cols, record, &games)?;
        let expected = format!("a number from 0 to the games ({g})");
        let p: f64 = cols.parse(record, &points, &expected)?;
        if !(0.0..=g as f64).contains(&p) {
            return Err(cols.invalid(record, &points, &expected));
        }
        if e.is_infinite() || m.is_infinite() {
            match &mut unbounded {
                Some((count, _)) => *count += 1,
                None => unbounded = Some((1, cols.place(record))),
            }
        }
        let (e, m) = (
            if e.is_finite() {
                clamped.clamp(e, (-MAX_ELO, MAX_ELO), &edge, &cols, record, &elo)
            } else {
                e
            },
            if m.is_finite() {
                clamped.clamp(m, (0.0, 2.0 * MAX_ELO), &edge, &cols, record, &margin)
            } else {
                m
            },
        );
        players.push(Rating {
            rank: r,
            name: name.raw(record).to_string(),
            elo: e,
            margin: m,
            games: g,
            points: p,
        });
    }
    // The file is in rank order already; a hand-sorted one is drawn in it all the same.
    players.sort_by_key(|p| p.rank);
    let mut notes = Vec::new();
    if let Some((count, first)) = unbounded {
        let who = if count == 1 { "player" } else { "players" };
        notes.push(format!(
            "{count} {who} unbounded by the games (elo -inf or inf, or margin inf: no interval \
             bounds it), drawn at the panel's edge (first: {first})"
        ));
    }
    notes.extend(clamped.notes());
    let file = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    Ok(RatingList {
        file,
        players,
        notes,
    })
}

/// `+12.3`; `+inf`, `-inf`.
fn signed(x: f64) -> String {
    format!("{x:+.1}")
}

/// `name` cut to [`NAME_CHARS`], ending in `…` when it was longer.
fn cut(name: &str) -> String {
    let mut cut: String = name.chars().take(NAME_CHARS).collect();
    if cut.len() < name.len() {
        cut.push('…');
    }
    cut
}

/// `name (8 games)`, the name cut to [`NAME_CHARS`].
fn row_label(p: &Rating) -> String {
    let mut name = cut(&p.name);
    if name.is_empty() {
        // An empty name still needs a row that says whose it is.
        name = format!("(rank {}, no name)", p.rank);
    }
    let games = if p.games == 1 { "game" } else { "games" };
    format!("{name} ({} {games})", p.games)
}

impl Picture for RatingList {
    fn size(&self) -> (u32, u32) {
        let rows = ROW_HEIGHT * self.players.len() as u32;
        (
            WIDTH,
            FRAME_HEIGHT + rows + NOTE_HEIGHT * self.notes.len() as u32,
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        root.fill(&WHITE)?;
        let n = self.players.len();
        let title = format!(
            "rating list {}: {n} player{}",
            self.file,
            if n == 1 { "" } else { "s" }
        );
        let body = root.titled(&title, (FAMILY, 26).into_font().color(&BLACK))?;
        let body = draw_notes(&body, &self.notes)?;

        // The scale holds every finite end and the anchor; an unbounded end lies beyond it,
        // drawn at its edge.
        let finite = |v: f64| v.is_finite().then_some(v);
        let values = self.players.iter().flat_map(|p| {
            let ends = finite(p.margin).map(|m| [p.elo - m, p.elo + m]);
            [
                finite(p.elo),
                ends.and_then(|e| finite(e[0])),
                ends.and_then(|e| finite(e[1])),
            ]
        });
        let (lo, hi) = values
            .flatten()
            .fold((0f64, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
        let pad = ((hi - lo) * 0.08).max(20.0);
        let x_range = (lo - pad)..(hi + pad);
        let clamp = |v: f64| v.clamp(x_range.start, x_range.end);

        let labels: Vec<String> = self.players.iter().map(row_label).collect();
        // Room for the longest label at about 8 pixels a character.
        let longest = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
        let label_width = (longest * 8 + 24).clamp(120, 420);
        // The anchor is the player the list is relative to: Elo 0 with no interval.
        let anchor = self
            .players
            .iter()
            .find(|p| p.elo == 0.0 && p.margin == 0.0)
            .map_or_else(String::new, |p| format!(" {}", cut(&p.name)));
        let caption = format!(
            "Elo relative to the anchor{anchor} at 0 (the vertical line); bars: 95% intervals"
        );
        let mut chart = ChartBuilder::on(&body)
            .caption(&caption, (FAMILY, 18).into_font().color(&rgb(0x444444)))
            .margin(16)
            .x_label_area_size(50)
            .y_label_area_size(label_width)
            .build_cartesian_2d(x_range.clone(), -0.5..(n as f64 - 0.5))?;
        chart
            .configure_mesh()
            .x_desc("Elo")
            .x_label_formatter(&|v| format!("{v:+.0}"))
            // The rows' names are drawn below, one to a row; the axis's own labels would fall
            // between rows.
            .y_labels(0)
            .disable_y_mesh()
            .label_style((FAMILY, 14))
            .axis_desc_style((FAMILY, 16))
            .light_line_style(WHITE.mix(0.0))
            .bold_line_style(rgb(0xdddddd))
            .draw()?;

        // Best on top: rank order k is the row n - 1 - k from the bottom.
        let row_y = |k: usize| (n - 1 - k) as f64;
        let area = chart.plotting_area();
        let (x0, x1) = (x_range.start, x_range.end);
        for k in 0..n {
            let y = row_y(k);
            area.draw(&PathElement::new(
                [(x0, y), (x1, y)],
                rgb(0xeeeeee).stroke_width(1),
            ))?;
        }
        // The anchor: every Elo is relative to it.
        area.draw(&PathElement::new(
            [(0.0, -0.5), (0.0, n as f64 - 0.5)],
            BLACK.mix(0.6).stroke_width(2),
        ))?;

        let value_style = (FAMILY, 13).into_font().color(&rgb(0x333333));
        let above = value_style.pos(Pos::new(HPos::Center, VPos::Bottom));
        for (k, p) in self.players.iter().enumerate() {
            let y = row_y(k);
            let bounded = p.elo.is_finite() && p.margin.is_finite();
            let colour = if bounded {
                PLAYER_COLOUR
            } else {
                UNBOUNDED_COLOUR
            };
            // An infinite margin reaches both edges; an infinite Elo's interval is the edge.
            let (low, high) = (p.elo - p.margin, p.elo + p.margin);
            if p.elo.is_finite() {
                area.draw(&PathElement::new(
                    [(clamp(low), y), (clamp(high), y)],
                    colour.mix(0.5).stroke_width(4),
                ))?;
            }
            let centre = (clamp(p.elo), y);
            if bounded {
                area.draw(&Circle::new(centre, 6, colour.filled()))?;
            } else if p.elo.is_finite() {
                area.draw(&Circle::new(centre, 6, colour.stroke_width(2)))?;
            } else {
                // A triangle pointing off the panel, the way the rating goes.
                let out = if p.elo > 0.0 { 1 } else { -1 };
                let tip = vec![(out * 10, 0), (-out * 2, -7), (-out * 2, 7)];
                area.draw(&(EmptyElement::at(centre) + Polygon::new(tip, colour.filled())))?;
            }
            let value = if p.margin.is_finite() {
                format!("{} ± {:.1}", signed(p.elo), p.margin)
            } else {
                format!("{} ± inf", signed(p.elo))
            };
            // Kept off the edge so an unbounded player's value stays inside the panel.
            let (w, _) = area.dim_in_pixel();
            let px = area.map_coordinate(&centre).0 - area.get_base_pixel().0;
            let shift = (70 - px).max(0) - (px + 70 - w as i32).max(0);
            area.draw(&(EmptyElement::at(centre) + Text::new(value, (shift, -8), above.clone())))?;
        }

        // The rows' names, right-aligned against the panel's left edge.
        let name_style = (FAMILY, 15)
            .into_font()
            .color(&BLACK)
            .pos(Pos::new(HPos::Right, VPos::Center));
        let base = body.get_base_pixel();
        for (k, label) in labels.iter().enumerate() {
            let (px, py) = area.map_coordinate(&(x0, row_y(k)));
            let at = (px - base.0 - 10, py - base.1);
            body.draw(&Text::new(label.clone(), at, name_style.clone()))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::test_support::{input_message, unescaped};

    /// A rating list as `match --tournament round-robin --out t.csv` writes it: one player
    /// that lost every game (`-inf`), and an extra column a later version might add.
    const LIST: &str = "rank,player,name,elo,margin,los_next,games,points,extra\n\
                        1,2,hour.json,+35.2,20.1,0.9731,8,5.5,x\n\
                        2,1,material,0.0,0.0,0.9999,8,4.5,x\n\
                        3,3,random mover,-inf,inf,,8,0,x\n";

    #[test]
    fn a_rating_list_plots_every_player_and_notes_the_unbounded_one() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("t.ratings.csv");
        std::fs::write(&csv, LIST).unwrap();
        let out = dir.path().join("t.ratings.svg");
        let notes = plot_ratings(&csv, &out).unwrap();
        let svg = unescaped(&std::fs::read_to_string(&out).unwrap());
        assert!(svg.starts_with("<svg"), "{}", &svg[..40.min(svg.len())]);
        for label in [
            "hour.json (8 games)",
            "material (8 games)",
            "random mover (8 games)",
            "rating list t.ratings.csv: 3 players",
            "the anchor material at 0 (the vertical line)",
            "+35.2 ± 20.1",
            "-inf ± inf",
        ] {
            assert!(svg.contains(label), "no `{label}` in the picture");
        }
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].contains("1 player unbounded") && notes[0].contains("t.ratings.csv line 4"),
            "{notes:?}"
        );
        assert!(svg.contains(&format!("note: {}", notes[0])));
        let png = dir.path().join("t.png");
        plot_ratings(&csv, &png).unwrap();
        assert_eq!(&std::fs::read(&png).unwrap()[..8], b"\x89PNG\r\n\x1a\n");
    }

    #[test]
    fn a_bad_rating_list_is_one_error_naming_its_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let csv = dir.path().join("t.ratings.csv");
        let out = dir.path().join("t.svg");
        let cases = [
            (
                LIST.replace(",margin,", ",margn,"),
                "t.ratings.csv: missing column `margin`",
            ),
            (
                LIST.replace("+35.2", "+35..2"),
                "t.ratings.csv line 2, column `elo`: `+35..2` is not a number",
            ),
            (
                LIST.replace(",0.0,0.0,", ",NaN,0.0,"),
                "t.ratings.csv line 3, column `elo`: `NaN` is not a number",
            ),
            (
                LIST.replace("20.1", "-20.1"),
                "t.ratings.csv line 2, column `margin`: `-20.1`",
            ),
            (
                LIST.replace(",8,5.5,", ",8,9,"),
                "t.ratings.csv line 2, column `points`: `9` is not a number from 0 to the games",
            ),
            (
                LIST.replace("\n3,3,", "\nthird,3,"),
                "t.ratings.csv line 4, column `rank`: `third` is not a positive integer",
            ),
            (
                LIST.lines().next().unwrap().to_string() + "\n",
                "t.ratings.csv line 2: no players",
            ),
        ];
        for (text, says) in cases {
            std::fs::write(&csv, &text).unwrap();
            let message = input_message(plot_ratings(&csv, &out));
            assert!(message.contains(says), "{says:?} not in {message:?}");
            assert_eq!(message.lines().count(), 1, "{message}");
            assert!(!out.exists(), "a picture of bad input: {message}");
        }
        let message = input_message(plot_ratings(&dir.path().join("none.csv"), &out));
        assert!(message.contains("none.csv: does not exist"), "{message}");
    }
}
