//! Pictures of a run's round statistics (SVG or PNG).
//!
//! Text is laid out with a font shipped inside the binary (`assets/DejaVuSans-subset.ttf`, see
//! `assets/DejaVuSans-LICENSE.txt`) through plotters' pure-Rust `ab_glyph` backend, so drawing
//! needs no system font library (fontconfig, freetype) on the machine.

mod climb;
mod data;
mod grouping;
mod heat_maps;
mod learning;

use data::{check_run_dir, read_run, Best, RoundStats, RunData};
use grouping::{Grouping, MAX_GROUPS};

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use checkers_engine::atomic_file::{write_atomically, write_atomically_with};
use checkers_engine::error::Error;
use checkers_engine::eval::FEATURE_NAMES;

/// The font every piece of text is laid out with. A subset (Latin-1 and a few dashes and
/// quotes) keeps the binary small; characters outside it are laid out as blanks.
static FONT: &[u8] = include_bytes!("../../../../assets/DejaVuSans-subset.ttf");

/// The family name our drawing code asks for, and plotters' own default for legends and labels.
const FAMILY: &str = "sans-serif";

const WIDTH: u32 = 1600;
const HEIGHT: u32 = 1500;
/// Extra height for each panel of a curve over the rounds (the champion's climb, the learning
/// curve), so the other panels keep their size.
const CURVE_HEIGHT: u32 = 420;

/// Extra height for the tables' heat maps of an extended run.
const TABLES_HEIGHT: u32 = 480;

/// The panels under the weights a run has, top to bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lower {
    /// The gated champion's climb (`champions.csv`).
    Climb,
    /// The learning curve (`learning.csv`).
    Learning,
    /// An extended run's piece-square tables.
    Tables,
}

impl Lower {
    fn height(self) -> u32 {
        match self {
            Lower::Climb | Lower::Learning => CURVE_HEIGHT,
            Lower::Tables => TABLES_HEIGHT,
        }
    }
}

/// The panels under the weights: the champion's climb first (what a gated run is judged by),
/// then the learning curve, then the tables.
fn lower_panels(data: &RunData) -> Vec<Lower> {
    let mut panels = Vec::new();
    if !data.climb.gates.is_empty() {
        panels.push(Lower::Climb);
    }
    if !data.learning.is_empty() {
        panels.push(Lower::Learning);
    }
    if data.tables.is_some() {
        panels.push(Lower::Tables);
    }
    panels
}

/// The picture's height: taller for each panel under the weights.
fn height(data: &RunData) -> u32 {
    HEIGHT + lower_panels(data).iter().map(|p| p.height()).sum::<u32>()
}
/// Width of the column right of each panel that holds its legend; plotters' own legends sit
/// inside the plotting area, where they would hide bars and lines.
const LEGEND_WIDTH: u32 = 250;

/// A colour written as `0xRRGGBB`.
const fn rgb(hex: u32) -> RGBColor {
    RGBColor((hex >> 16) as u8, (hex >> 8) as u8, hex as u8)
}

/// The legend label and colour of each pair outcome, in the stacking order (bottom first) of
/// [`data::OUTCOME_COLUMNS`]. Black/white decisive games are dark/light grey, the draw-then-win
/// outcomes dark/light blue, so the colour of the side that won is visible at a glance.
const OUTCOMES: [(&str, RGBColor); 5] = [
    ("black wins", rgb(0x333333)),
    ("white wins", rgb(0xbdbdbd)),
    ("draw, then black wins", rgb(0x1f5fa8)),
    ("draw, then white wins", rgb(0x9ecae1)),
    ("double draw", rgb(0xff7f0e)),
];

/// One colour per feature (matplotlib's "tab10"), in [`FEATURE_NAMES`] order.
const FEATURE_COLOURS: [u32; 10] = [
    0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22,
    0x17becf,
];

/// The learning curves, one colour per island (repeating after eight); red for a run without
/// islands, which has island 0 only.
const ISLAND_COLOURS: [u32; 8] = [
    0xd62728, 0x1f77b4, 0x2ca02c, 0xff7f0e, 0x9467bd, 0x8c564b, 0xe377c2, 0x17becf,
];

/// `colour` moved towards white by `1 - share` (a faint line that stays opaque).
fn faded(colour: RGBColor, share: f64) -> RGBColor {
    let fade = |c: u8| (255.0 - share * (255.0 - f64::from(c))).round() as u8;
    RGBColor(fade(colour.0), fade(colour.1), fade(colour.2))
}

const DRAW_RATE_COLOUR: RGBColor = rgb(0x1f5fa8);
const DOUBLE_DRAW_COLOUR: RGBColor = rgb(0xff7f0e);
const PLIES_COLOUR: RGBColor = rgb(0x2ca02c);
/// Draws the round statistics of the run in `run_dir` into `out`: PNG when `out` ends in `.png`,
/// SVG when it ends in `.svg` (any case); any other name is refused before anything is read.
///
/// Reads `rounds.csv` and `specimens.csv` by column name (extra columns are ignored) and the
/// top-level `name` of `config.toml` for the title; when `config.toml` is absent or has no
/// string `name`, the folder's name is used instead (an unreadable or invalid `config.toml` is
/// still an error).
///
/// The picture has a title with the run name and three panels, all with the round on the x axis:
/// - (a) the pairs of each round stacked by their outcome: black wins, white wins, draw then
///   black wins, draw then white wins, double draw (one legend entry each);
/// - (b) the *draw rate*, the share of pairs whose first game was drawn
///   (`(draw_then_black_win + draw_then_white_win + double_draws) / pairs`), the *double-draw
///   rate* (`double_draws / pairs`), both in percent on the left axis, and `mean_plies` on a
///   right axis; a round with no pairs, or an empty or non-finite `mean_plies`, has no point;
/// - (c), (d) the 20 weights, opening set and endgame set in two sub-panels: in a gated run
///   (`champions.csv`) the champion's, what `best.json` holds, read from
///   `champions/round-N.json` and drawn as steps at each accepted gate; otherwise each round's
///   *best survivor*'s, its row in `specimens.csv` with the most `rounds_survived`, then the
///   most `wins`, then the lowest `id`.
///
/// Under them, each when the run has its file, lettered from (e) on:
/// - the gated champion's climb (`champions.csv`), on an Elo axis of its own: the champion's
///   cumulative Elo as a step line, and one mark per gate, filled green when it accepted its
///   candidate, hollow red when it refused, at the champion's Elo before the gate plus the
///   candidate's in it, with the 95% interval as a bar; the caption says what the climb came to
///   and since when it has not moved;
/// - the learning curve (`learning.csv`): the Elo of each validated survivor against its
///   opponent with its 95% interval as a bar. Once the survivors score 90% or more against
///   `material` (from the first validation round where that holds for at least half of the
///   points from there on, four or more of them), the curve is *saturated*: a shaded band says
///   so, and the points from then on are drawn faint, without bars, cut a little above it;
/// - an extended run's piece-square tables (the champion's in a gated run).
///
/// An island-model run (its files have an `island` column) is drawn as one population: panels
/// (a) and (b) add up the islands' pairs of each round (`mean_plies` weighted by games), the
/// best survivor of a round is the best of all islands, and the learning curve has one line per
/// island (each island's validated top survivor).
///
/// Any finite values are drawn: one beyond a panel's scale (an Elo beyond ±10,000, a weight
/// beyond ±10,000, a mean game length outside 0 to 10,000 plies) is drawn at the edge, with a
/// note under the title saying how many and where the first is. A run of more than 1,500
/// rounds is drawn in groups of rounds, each line through every group's lowest and highest
/// value, so that the picture of any run stays small.
///
/// The picture is written to a temporary file beside `out` and renamed onto it, so `out` is
/// either the complete picture or untouched. Returns the notes drawn under the title (values
/// drawn at the edge), for the caller to show as well.
///
/// # Errors
/// [`Error::Input`] when the folder or one of the CSV files is missing, a file lacks a needed
/// column, a value does not parse or is one no run writes (a round beyond 1,000,000, an island
/// beyond 1023, a count beyond 10^9), naming the file, line and column, a round appears twice
/// in `rounds.csv`, or `rounds.csv` has no rounds yet. [`Error::Failure`] when the picture
/// cannot be drawn or written.
pub fn plot_run(run_dir: &Path, out: &Path) -> Result<Vec<String>, Error> {
    check_run_dir(run_dir)?;
    checkers_engine::atomic_file::check_output_path(out, "output")?;
    let png = is_png(out)?;
    let data = read_run(run_dir)?;
    write_picture(&data, out, png)?;
    Ok(data.notes)
}

/// Whether `out` names a PNG (`.png`) rather than an SVG (`.svg`) picture; any other name is an
/// error.
fn is_png(out: &Path) -> Result<bool, Error> {
    let extension = out
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match extension.as_deref() {
        Some("png") => Ok(true),
        Some("svg") => Ok(false),
        _ => Err(Error::input(format!(
            "output {}: the picture can be written as SVG or PNG only; expected a name ending \
             in .svg or .png",
            out.display()
        ))),
    }
}

/// Registers the shipped font with plotters once per process.
fn register_font() -> Result<(), Error> {
    static REGISTERED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let ok = *REGISTERED
        .get_or_init(|| plotters::style::register_font(FAMILY, FontStyle::Normal, FONT).is_ok());
    if ok {
        Ok(())
    } else {
        Err(Error::failure("the built-in font cannot be loaded"))
    }
}

/// Draws the picture into a temporary file beside `out` and renames it onto `out`
/// ([`write_atomically_with`]): `out` is either the whole picture or untouched, also when the
/// command is interrupted.
fn write_picture(data: &RunData, out: &Path, png: bool) -> Result<(), Error> {
    register_font()?;
    if png {
        // The encoder chooses the format by the file name's extension.
        write_atomically_with(out, ".png", |tmp, _| render_png(data, tmp, out))
    } else {
        write_atomically(out, render_svg(data, out)?.as_bytes())
    }
}

fn render_svg(data: &RunData, out: &Path) -> Result<String, Error> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, height(data))).into_drawing_area();
        draw(data, &root).map_err(|e| draw_failure(out, &e))?;
        root.present().map_err(|e| draw_failure(out, &e))?;
    }
    Ok(svg)
}

fn render_png(data: &RunData, tmp: &Path, out: &Path) -> Result<(), Error> {
    let root = BitMapBackend::new(tmp, (WIDTH, height(data))).into_drawing_area();
    draw(data, &root).map_err(|e| draw_failure(out, &e))?;
    root.present()
        .map_err(|e| Error::failure(format!("cannot write {}: {e}", out.display())))
}

fn draw_failure(out: &Path, e: &dyn std::fmt::Display) -> Error {
    Error::failure(format!("cannot draw {}: {e}", out.display()))
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Tick label for a round or a count: integers only, so that fractional ticks stay blank.
fn integer_label(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-6 {
        format!("{}", v.round() as i64)
    } else {
        String::new()
    }
}

fn percent_label(v: &f64) -> String {
    format!("{:.0}%", v * 100.0)
}

/// Lines drawn on `area` in its own coordinates, made by `groups`: with a dot on every point
/// when it says so (and on a lone point always, which is no line), and one pixel wide when it
/// groups rounds (a wide line turning sharply from a group's lowest value to its highest is
/// drawn with long spikes at its corners).
fn draw_line<DB: DrawingBackend, CT: CoordTranslate<From = (f64, f64)>>(
    area: &DrawingArea<DB, CT>,
    points: &[Vec<(f64, f64)>],
    colour: RGBColor,
    groups: &Grouping,
) -> DrawResult<DB> {
    let width = if groups.thinned() { 1 } else { 2 };
    for segment in points {
        if segment.len() > 1 {
            area.draw(&PathElement::new(
                segment.clone(),
                colour.stroke_width(width),
            ))?;
        }
        if groups.dots || segment.len() == 1 {
            for &p in segment {
                area.draw(&Circle::new(p, 3, colour.filled()))?;
            }
        }
    }
    Ok(())
}

/// How a legend entry is marked.
enum Mark {
    Swatch(RGBColor),
    Line(RGBColor),
    /// A dot, filled or hollow.
    Dot(RGBColor, bool),
}

/// A legend in its own column: a title, one entry per series, then explanatory notes.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    entries: &[(impl AsRef<str>, Mark)],
    notes: &[&str],
) -> DrawResult<DB> {
    let x0 = 12;
    let text = |text: &str, x: i32, y: i32, size: u32, colour: RGBColor| {
        let style = (FAMILY, size).into_font().color(&colour);
        let left = Pos::new(HPos::Left, VPos::Center);
        area.draw(&Text::new(text.to_owned(), (x, y), style.pos(left)))
    };
    text(title, x0, 60, 17, BLACK)?;
    let mut y = 88;
    for (label, mark) in entries {
        match mark {
            Mark::Swatch(c) => {
                let corners = [(x0, y - 8), (x0 + 26, y + 8)];
                area.draw(&Rectangle::new(corners, c.filled()))?;
                area.draw(&Rectangle::new(corners, rgb(0x777777).stroke_width(1)))?;
            }
            Mark::Line(c) => {
                let stroke = vec![(x0, y), (x0 + 26, y)];
                area.draw(&PathElement::new(stroke, c.stroke_width(3)))?;
                area.draw(&Circle::new((x0 + 13, y), 4, c.filled()))?;
            }
            Mark::Dot(c, true) => area.draw(&Circle::new((x0 + 13, y), 5, c.filled()))?,
            Mark::Dot(c, false) => area.draw(&Circle::new((x0 + 13, y), 5, c.stroke_width(2)))?,
        }
        text(label.as_ref(), x0 + 36, y, 15, BLACK)?;
        y += 25;
    }
    y += 12;
    for note in notes {
        text(note, x0, y, 13, rgb(0x444444))?;
        y += 18;
    }
    Ok(())
}

/// The longest run name drawn in the title, in characters.
const TITLE_NAME_CHARS: usize = 60;

/// The round axis every panel shares, and how its rounds are grouped.
struct View {
    /// The first and the last round drawn.
    rounds: (i64, i64),
    x_range: Range<f64>,
    x_labels: usize,
    groups: Grouping,
}

fn draw<DB: DrawingBackend>(data: &RunData, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let mut name: String = data.name.chars().take(TITLE_NAME_CHARS).collect();
    if name.len() < data.name.len() {
        name.push('…');
    }
    let title = format!(
        "checkers-tuner run \"{name}\": {} round{}",
        data.rounds.len(),
        if data.rounds.len() == 1 { "" } else { "s" }
    );
    let body = root.titled(&title, (FAMILY, 30).into_font().color(&BLACK))?;

    let rounds = || {
        let best = data.best.iter().map(|b| b.round);
        data.rounds.iter().map(|r| r.round).chain(best)
    };
    let (first, last) = (rounds().min().unwrap_or(0), rounds().max().unwrap_or(0));
    let view = View {
        rounds: (first, last),
        x_range: (first as f64 - 0.5)..(last as f64 + 0.5),
        x_labels: ((last - first + 2) as usize).min(20),
        groups: Grouping::new(first, last, MAX_GROUPS),
    };
    let mut notes = data.notes.clone();
    if view.groups.thinned() {
        notes.push(format!(
            "{} rounds, drawn in groups of {}: a line shows the lowest and the highest value of \
             each group, a bar of (a) the group's mean",
            last - first + 1,
            view.groups.width
        ));
    }
    let body = draw_notes(&body, &notes)?;

    // The body is shared out in proportion to the panels' nominal heights: the three panels
    // over the rounds on top, then each panel under the weights.
    let (_, h) = body.dim_in_pixel();
    let total = height(data);
    let (top, mut rest) = body.split_vertically(h * HEIGHT / total);
    let (_, top_h) = top.dim_in_pixel();
    let (a, top_rest) = top.split_vertically(top_h * 34 / 100);
    let (b, c) = top_rest.split_vertically(top_h * 27 / 100);
    panel_outcomes(&a, data, &view)?;
    panel_draws(&b, data, &view)?;
    panel_weights(&c, data, &view)?;

    let lower = lower_panels(data);
    for (k, &panel) in lower.iter().enumerate() {
        let letter = char::from(b'e' + k as u8);
        let area = if k + 1 == lower.len() {
            rest.clone()
        } else {
            let (area, below) = rest.split_vertically(h * panel.height() / total);
            rest = below;
            area
        };
        match (panel, &data.tables) {
            (Lower::Climb, _) => climb::panel_climb(&area, data, &view, letter)?,
            (Lower::Learning, _) => learning::panel_learning(&area, data, &view, letter)?,
            (Lower::Tables, Some(tables)) => heat_maps::panel_tables(&area, tables, letter)?,
            (Lower::Tables, None) => {}
        }
    }
    Ok(())
}

/// Height of a line of notes under the title.
const NOTE_HEIGHT: u32 = 20;

/// Writes `notes` (what the picture shows otherwise than the files say) in a strip at the top
/// of `area`; the rest of `area`.
fn draw_notes<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    notes: &[String],
) -> Result<DrawingArea<DB, Shift>, DrawingAreaErrorKind<DB::ErrorType>> {
    if notes.is_empty() {
        return Ok(area.clone());
    }
    let (strip, rest) = area.split_vertically(NOTE_HEIGHT * notes.len() as u32 + 6);
    let style = (FAMILY, 15).into_font().color(&rgb(0x9b1c1c));
    for (k, note) in notes.iter().enumerate() {
        let y = NOTE_HEIGHT as i32 * k as i32 + 2;
        strip.draw(&Text::new(format!("note: {note}"), (20, y), style.clone()))?;
    }
    Ok(rest)
}

/// A panel's plotting area and, right of it, its legend column.
fn split_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    let (w, _) = area.dim_in_pixel();
    area.split_horizontally(w - LEGEND_WIDTH)
}

/// A chart on `area` with its caption and room for the round axis and `y_label_width` pixels of
/// value labels.
fn chart_on<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    caption: &str,
    y_label_width: u32,
) -> ChartBuilder<'a, 'static, DB> {
    let mut builder = ChartBuilder::on(area);
    builder
        .caption(caption, (FAMILY, 20).into_font().color(&BLACK))
        .margin(10)
        .x_label_area_size(45)
        .y_label_area_size(y_label_width);
    builder
}

/// The axes of a panel with rounds across and values up, labelled by `y_label`.
fn draw_round_axes<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    y_desc: &str,
    x_labels: usize,
    y_label: &dyn Fn(&f64) -> String,
) -> DrawResult<DB> {
    chart
        .configure_mesh()
        .x_desc("round")
        .y_desc(y_desc)
        .x_labels(x_labels)
        .x_label_formatter(&integer_label)
        .y_label_formatter(y_label)
        .label_style((FAMILY, 14))
        .axis_desc_style((FAMILY, 16))
        // Light grid lines between the labelled ones only add clutter here: invisible.
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(rgb(0xcccccc))
        .draw()
}

/// A faint horizontal line at 0 across the panel.
fn draw_zero_line<DB: DrawingBackend, CT: CoordTranslate<From = (f64, f64)>>(
    area: &DrawingArea<DB, CT>,
    x_range: &Range<f64>,
) -> DrawResult<DB> {
    let ends = vec![(x_range.start, 0.0), (x_range.end, 0.0)];
    area.draw(&PathElement::new(ends, BLACK.mix(0.5).stroke_width(1)))
}

fn panel_outcomes<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &RunData,
    view: &View,
) -> DrawResult<DB> {
    let (plot_area, legend_area) = split_legend(area);
    let max_pairs = data.rounds.iter().map(RoundStats::pairs).max().unwrap_or(0);
    let mut chart = chart_on(&plot_area, "(a) outcome of every pair, per round", 70)
        .build_cartesian_2d(view.x_range.clone(), 0f64..max_pairs.max(1) as f64 * 1.05)?;
    draw_round_axes(&mut chart, "pairs", view.x_labels, &integer_label)?;
    // Per group of rounds: the pairs of each outcome, and the rounds that count them; a bar is
    // a group's mean, which for a group of one round is the round itself.
    let mut groups: BTreeMap<i64, ([u64; 5], u64)> = BTreeMap::new();
    for r in &data.rounds {
        let (sums, rounds) = groups.entry(view.groups.group(r.round)).or_default();
        for (sum, count) in sums.iter_mut().zip(r.outcomes) {
            *sum += count;
        }
        *rounds += 1;
    }
    for (k, (_, colour)) in OUTCOMES.iter().enumerate() {
        chart.draw_series(groups.iter().filter(|(_, (sums, _))| sums[k] > 0).map(
            |(&g, (sums, rounds))| {
                let mean = |sum: u64| sum as f64 / *rounds as f64;
                let base = mean(sums[..k].iter().sum());
                let top = base + mean(sums[k]);
                let (left, right) = view.groups.extent(g, 0.1);
                Rectangle::new([(left, base), (right, top)], colour.filled())
            },
        ))?;
    }
    let entries: Vec<(&str, Mark)> = OUTCOMES
        .iter()
        .rev()
        .map(|&(label, colour)| (label, Mark::Swatch(colour)))
        .collect();
    draw_legend(
        &legend_area,
        "pair outcome",
        &entries,
        &[
            "First game: first of the pair",
            "plays black; after a draw the",
            "colours switch for a second game.",
        ],
    )
}

fn panel_draws<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &RunData,
    view: &View,
) -> DrawResult<DB> {
    let x_range = view.x_range.clone();
    let (plot_area, legend_area) = split_legend(area);
    let max_plies = data
        .rounds
        .iter()
        .filter_map(|r| r.mean_plies)
        .fold(1f64, f64::max);
    let mut chart = chart_on(&plot_area, "(b) draw rates and game length per round", 70)
        .right_y_label_area_size(70)
        .build_cartesian_2d(x_range.clone(), 0f64..1.0)?
        .set_secondary_coord(x_range, 0f64..max_plies * 1.1);
    draw_round_axes(&mut chart, "share of pairs", view.x_labels, &percent_label)?;
    chart
        .configure_secondary_axes()
        .y_desc("mean plies per game")
        .y_label_formatter(&|v| format!("{v:.0}"))
        .label_style((FAMILY, 14))
        .axis_desc_style((FAMILY, 16))
        .draw()?;

    let groups = &view.groups;
    let rate = |f: fn(&RoundStats) -> u64| {
        groups.lines(data.rounds.iter().map(|r| {
            let pairs = r.pairs();
            (r.round, (pairs > 0).then(|| f(r) as f64 / pairs as f64))
        }))
    };
    let first_drawn = rate(|r| r.outcomes[2] + r.outcomes[3] + r.outcomes[4]);
    let double = rate(|r| r.outcomes[4]);
    draw_line(
        chart.plotting_area(),
        &first_drawn,
        DRAW_RATE_COLOUR,
        groups,
    )?;
    draw_line(chart.plotting_area(), &double, DOUBLE_DRAW_COLOUR, groups)?;
    let plies = groups.lines(data.rounds.iter().map(|r| (r.round, r.mean_plies)));
    draw_line(
        chart.secondary_plotting_area(),
        &plies,
        PLIES_COLOUR,
        groups,
    )?;
    draw_legend(
        &legend_area,
        "per round",
        &[
            ("draw rate (left)", Mark::Line(DRAW_RATE_COLOUR)),
            ("double-draw rate (left)", Mark::Line(DOUBLE_DRAW_COLOUR)),
            ("mean plies (right)", Mark::Line(PLIES_COLOUR)),
        ],
        &[
            "draw rate = pairs whose first",
            "game was drawn / all pairs",
            "double-draw rate =",
            "double draws / all pairs",
        ],
    )
}

/// Panels (c) and (d): the ten features' weights over the rounds, opening and endgame set. A
/// gated run draws its champion (what `best.json` holds: `champions/round-N.json`), a step at
/// each accepted gate; any other run each round's best survivor.
fn panel_weights<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &RunData,
    view: &View,
) -> DrawResult<DB> {
    let x_range = view.x_range.clone();
    let (plots, legend_area) = split_legend(area);
    let (pw, _) = plots.dim_in_pixel();
    let (open_area, end_area) = plots.split_horizontally(pw / 2);
    let gated = !data.champions.is_empty();
    let shown = if gated { &data.champions } else { &data.best };

    // One scale for both sets, so that the two sub-panels compare at a glance.
    let (lo, hi) = shown
        .iter()
        .flat_map(|b| b.opening.iter().chain(&b.endgame))
        .fold((0f64, 0f64), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let pad = ((hi - lo) * 0.05).max(1.0);
    let y_range = (lo - pad)..(hi + pad);

    let whose = if gated { "champion" } else { "best survivor" };
    let captions = [
        format!("(c) {whose}'s opening weights"),
        format!("(d) {whose}'s endgame weights"),
    ];
    for (set, (sub, caption)) in [open_area, end_area].iter().zip(captions).enumerate() {
        let mut chart =
            chart_on(sub, &caption, 60).build_cartesian_2d(x_range.clone(), y_range.clone())?;
        draw_round_axes(&mut chart, "weight", view.x_labels.min(12), &integer_label)?;
        draw_zero_line(chart.plotting_area(), &x_range)?;
        for (i, &colour) in FEATURE_COLOURS.iter().enumerate() {
            let weight = |b: &Best| [b.opening[i], b.endgame[i]][set];
            if gated {
                draw_steps(
                    chart.plotting_area(),
                    shown.iter().map(|b| (b.round, weight(b))),
                    view.rounds.1,
                    rgb(colour),
                )?;
            } else {
                let points = view
                    .groups
                    .lines(shown.iter().map(|b| (b.round, Some(weight(b)))));
                draw_line(chart.plotting_area(), &points, rgb(colour), &view.groups)?;
            }
        }
    }
    let entries: Vec<(&str, Mark)> = FEATURE_NAMES
        .iter()
        .zip(FEATURE_COLOURS)
        .map(|(name, colour)| (*name, Mark::Line(rgb(colour))))
        .collect();
    let notes: &[&str] = if gated {
        &[
            "the champion: what best.json",
            "holds, from each accepted",
            "gate on (champions/round-N.json)",
        ]
    } else {
        &[
            "best survivor of a round: most",
            "rounds survived, then most",
            "wins, then lowest id",
        ]
    };
    draw_legend(&legend_area, "feature", &entries, notes)
}

/// A step line through `(round, value)` points in round order: each value held until the next
/// point's round, the last until round `last`; a dot where each value starts.
fn draw_steps<DB: DrawingBackend, CT: CoordTranslate<From = (f64, f64)>>(
    area: &DrawingArea<DB, CT>,
    points: impl Iterator<Item = (i64, f64)>,
    last: i64,
    colour: RGBColor,
) -> DrawResult<DB> {
    let mut line: Vec<(f64, f64)> = Vec::new();
    for (round, value) in points {
        if let Some(&(_, held)) = line.last() {
            line.push((round as f64, held));
        }
        line.push((round as f64, value));
        area.draw(&Circle::new((round as f64, value), 3, colour.filled()))?;
    }
    if let Some(&(_, held)) = line.last() {
        line.push((last as f64, held));
    }
    area.draw(&PathElement::new(line, colour.stroke_width(2)))
}
