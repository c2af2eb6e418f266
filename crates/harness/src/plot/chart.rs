//! What every panel draws with: the round axis they share, charts and their axes, lines,
//! legends in a column of their own.

use std::ops::Range;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::grouping::Grouping;
use super::style::{rgb, FAMILY};

pub(super) type DrawResult<DB> =
    Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Width of the column right of each panel that holds its legend; plotters' own legends sit
/// inside the plotting area, where they would hide bars and lines.
const LEGEND_WIDTH: u32 = 250;

/// Tick label for a round or a count: integers only, so that fractional ticks stay blank.
pub(super) fn integer_label(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-6 {
        format!("{}", v.round() as i64)
    } else {
        String::new()
    }
}

pub(super) fn percent_label(v: &f64) -> String {
    format!("{:.0}%", v * 100.0)
}

/// Lines drawn on `area` in its own coordinates, made by `groups`: with a dot on every point
/// when it says so (and on a lone point always, which is no line), and one pixel wide when it
/// groups rounds (a wide line turning sharply from a group's lowest value to its highest is
/// drawn with long spikes at its corners).
pub(super) fn draw_line<DB: DrawingBackend, CT: CoordTranslate<From = (f64, f64)>>(
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
pub(super) enum Mark {
    Swatch(RGBColor),
    Line(RGBColor),
    /// A dot, filled or hollow.
    Dot(RGBColor, bool),
}

/// A legend in its own column: a title, one entry per series, then explanatory notes.
pub(super) fn draw_legend<DB: DrawingBackend>(
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

/// The round axis every panel shares, and how its rounds are grouped.
pub(super) struct View {
    /// The first and the last round drawn.
    pub(super) rounds: (i64, i64),
    pub(super) x_range: Range<f64>,
    pub(super) x_labels: usize,
    pub(super) groups: Grouping,
}

/// A panel's plotting area and, right of it, its legend column.
pub(super) fn split_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
) -> (DrawingArea<DB, Shift>, DrawingArea<DB, Shift>) {
    let (w, _) = area.dim_in_pixel();
    area.split_horizontally(w - LEGEND_WIDTH)
}

/// A chart on `area` with its caption and room for the round axis and `y_label_width` pixels of
/// value labels.
pub(super) fn chart_on<'a, DB: DrawingBackend>(
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
pub(super) fn draw_round_axes<DB: DrawingBackend>(
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
pub(super) fn draw_zero_line<DB: DrawingBackend, CT: CoordTranslate<From = (f64, f64)>>(
    area: &DrawingArea<DB, CT>,
    x_range: &Range<f64>,
) -> DrawResult<DB> {
    let ends = vec![(x_range.start, 0.0), (x_range.end, 0.0)];
    area.draw(&PathElement::new(ends, BLACK.mix(0.5).stroke_width(1)))
}
