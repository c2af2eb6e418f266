//! Panel (a): the pairs of each round stacked by their outcome.

use std::collections::BTreeMap;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::chart::{
    chart_on, draw_legend, draw_round_axes, integer_label, split_legend, DrawResult, Mark, View,
};
#[cfg(doc)]
use super::data::OUTCOME_COLUMNS;
use super::data::{RoundStats, RunData};
use super::style::rgb;

/// The legend label and colour of each pair outcome, in the stacking order (bottom first) of
/// [`OUTCOME_COLUMNS`]. Black/white decisive games are dark/light grey, the draw-then-win
/// outcomes dark/light blue, so the colour of the side that won is visible at a glance.
const OUTCOMES: [(&str, RGBColor); 5] = [
    ("black wins", rgb(0x333333)),
    ("white wins", rgb(0xbdbdbd)),
    ("draw, then black wins", rgb(0x1f5fa8)),
    ("draw, then white wins", rgb(0x9ecae1)),
    ("double draw", rgb(0xff7f0e)),
];

pub(super) fn panel_outcomes<DB: DrawingBackend>(
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
