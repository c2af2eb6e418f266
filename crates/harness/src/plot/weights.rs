//! Panels (c) and (d): the ten features' weights over the rounds, opening and endgame set.

use plotters::coord::Shift;
use plotters::prelude::*;

use checkers_engine::eval::FEATURE_NAMES;

use super::chart::{
    chart_on, draw_legend, draw_line, draw_round_axes, draw_zero_line, integer_label, split_legend,
    DrawResult, Mark, View,
};
use super::data::{Best, RunData};
use super::style::rgb;

/// One colour per feature (matplotlib's "tab10"), in [`FEATURE_NAMES`] order.
const FEATURE_COLOURS: [u32; 10] = [
    0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22,
    0x17becf,
];

/// Panels (c) and (d): the ten features' weights over the rounds, opening and endgame set. A
/// gated run draws its champion (what `best.json` holds: `champions/round-N.json`), a step at
/// each accepted gate; any other run each round's best survivor.
pub(super) fn panel_weights<DB: DrawingBackend>(
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
