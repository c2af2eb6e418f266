//! Panel (b): the draw rates and the mean game length of each round.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::chart::{
    chart_on, draw_legend, draw_line, draw_round_axes, percent_label, split_legend, DrawResult,
    Mark, View,
};
use super::data::{RoundStats, RunData};
use super::style::{rgb, FAMILY};

const DRAW_RATE_COLOUR: RGBColor = rgb(0x1f5fa8);
const DOUBLE_DRAW_COLOUR: RGBColor = rgb(0xff7f0e);
const PLIES_COLOUR: RGBColor = rgb(0x2ca02c);
pub(super) fn panel_draws<DB: DrawingBackend>(
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
