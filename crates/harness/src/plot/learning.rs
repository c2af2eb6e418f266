//! The learning curve (`learning.csv`): each validated survivor's Elo against `material`, and
//! where that measure has saturated.

use std::collections::BTreeMap;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{
    chart_on, draw_legend, draw_line, draw_round_axes, draw_zero_line, integer_label, split_legend,
    DrawResult, Mark, View,
};
use super::data::{RunData, Validation};
use super::grouping::{Grouping, MAX_GROUPS};
use super::style::{faded, rgb, FAMILY, ISLAND_COLOURS};

/// The score against `material` from which a validation point is saturated: past 90% the
/// survivor wins nearly every game of the validation deck, and the handful it does not win is
/// all that orders the points, so their Elo (and its interval, often open above) is noise.
pub(super) const SATURATED_SCORE: f64 = 0.9;

/// The fewest validation points a saturated stretch needs, so that one lucky match at the end
/// of a curve does not declare it saturated.
const MIN_SATURATED_POINTS: usize = 4;

/// The Elo of [`SATURATED_SCORE`].
pub(super) fn saturated_elo() -> f64 {
    400.0 * (SATURATED_SCORE / (1.0 - SATURATED_SCORE)).log10()
}

/// The round from which the curve has saturated, if it has: the first validation round whose
/// own point is saturated and from which on at least half of the points (of every island) are,
/// over at least [`MIN_SATURATED_POINTS`] points.
pub(super) fn saturation_round(learning: &[Validation]) -> Option<i64> {
    let mut points: Vec<(i64, bool)> = learning
        .iter()
        .map(|v| (v.round, v.elo >= saturated_elo()))
        .collect();
    points.sort_by_key(|&(round, _)| round);
    // Scanned from the end: the saturated points in each suffix.
    let mut found = None;
    let mut saturated = 0;
    for (k, &(round, is_saturated)) in points.iter().enumerate().rev() {
        saturated += usize::from(is_saturated);
        let len = points.len() - k;
        // A point of the same round as the one after it starts no stretch of its own.
        let first_of_round = k == 0 || points[k - 1].0 != round;
        if is_saturated && first_of_round && len >= MIN_SATURATED_POINTS && 2 * saturated >= len {
            found = Some(round);
        }
    }
    found
}

/// Validation Elo above which a saturated curve's panel is cut: points and bars beyond are drawn
/// at its top, since their height there is the noise the panel says it is.
fn saturated_top() -> f64 {
    saturated_elo() * 1.5
}

/// The learning curve's panel, `letter` its name: one line per island of an island-model run,
/// each point with its 95% interval as a bar. When the curve has saturated
/// ([`saturation_round`]), the panel is cut a little above the saturation line, the points
/// from then on are drawn faint and without bars, and a shaded band says so.
pub(super) fn panel_learning<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &RunData,
    view: &View,
    letter: char,
) -> DrawResult<DB> {
    let (plot_area, legend_area) = split_legend(area);
    let saturated_from = saturation_round(&data.learning);
    // Infinite interval ends (a clean sweep) are drawn to the edge of a finite scale.
    let finite = |v: f64| v.is_finite().then_some(v);
    let values = data
        .learning
        .iter()
        .flat_map(|v| [finite(v.elo), finite(v.low), finite(v.high)])
        .flatten();
    let (lo, mut hi) = values.fold((0f64, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    if saturated_from.is_some() {
        hi = hi.min(saturated_top());
    }
    let pad = ((hi - lo) * 0.05).max(10.0);
    let y_range = (lo - pad)..(hi + pad);
    let clamp = |v: f64| v.clamp(y_range.start, y_range.end);
    let caption = format!("({letter}) learning curve: validated survivor against material");
    let mut chart = chart_on(&plot_area, &caption, 70)
        .build_cartesian_2d(view.x_range.clone(), y_range.clone())?;
    draw_round_axes(&mut chart, "Elo", view.x_labels, &integer_label)?;
    draw_zero_line(chart.plotting_area(), &view.x_range)?;
    if let Some(round) = saturated_from {
        let band = [
            (view.x_range.start, saturated_elo()),
            (view.x_range.end, y_range.end),
        ];
        chart.draw_series(std::iter::once(Rectangle::new(
            band,
            rgb(0x000000).mix(0.07).filled(),
        )))?;
        let style = (FAMILY, 15)
            .into_font()
            .color(&rgb(0x444444))
            .pos(Pos::new(HPos::Left, VPos::Top));
        let label = format!(
            "saturated from round {round}: above this line the survivor scores {:.0}% or more \
             against material, and the curve can no longer rank it",
            SATURATED_SCORE * 100.0
        );
        chart.draw_series(std::iter::once(Text::new(
            label,
            (
                view.x_range.start + 0.01 * (view.x_range.end - view.x_range.start),
                y_range.end - 0.02 * (y_range.end - y_range.start),
            ),
            style,
        )))?;
    }
    // One line per island of an island-model run (rows are sorted by island, then round); the
    // islands share the groups a single line would have.
    let islands = data.learning.last().map_or(0, |v| v.island) + 1;
    let (first, last) = view.rounds;
    let groups = Grouping::new(first, last, MAX_GROUPS / islands as i64);
    let bar_colour = rgb(ISLAND_COLOURS[0]).mix(0.5).stroke_width(2);
    // An interval with a NaN end has no bar, and a saturated point none either.
    let bars = data.learning.iter().filter(|v| {
        !v.low.is_nan() && !v.high.is_nan() && saturated_from.is_none_or(|r| v.round < r)
    });
    if groups.thinned() {
        // One bar per group, from the lowest end to the highest of all its rows.
        let mut spans: BTreeMap<i64, (f64, f64)> = BTreeMap::new();
        for v in bars {
            let span = spans
                .entry(groups.group(v.round))
                .or_insert((v.low, v.high));
            *span = (span.0.min(v.low), span.1.max(v.high));
        }
        chart.draw_series(spans.into_iter().map(|(g, (low, high))| {
            let (a, b) = groups.extent(g, 0.0);
            let x = (a + b) / 2.0;
            PathElement::new([(x, clamp(low)), (x, clamp(high))], bar_colour)
        }))?;
    } else {
        chart.draw_series(bars.map(|v| {
            let x = v.round as f64;
            PathElement::new([(x, clamp(v.low)), (x, clamp(v.high))], bar_colour)
        }))?;
    }
    let mut entries = Vec::new();
    for island in 0..islands {
        let colour = rgb(ISLAND_COLOURS[island as usize % ISLAND_COLOURS.len()]);
        let rows = || data.learning.iter().filter(move |v| v.island == island);
        let line = |rows: &mut dyn Iterator<Item = &Validation>| {
            groups.lines(rows.map(|v| (v.round, finite(v.elo).map(clamp))))
        };
        match saturated_from {
            None => draw_line(chart.plotting_area(), &line(&mut rows()), colour, &groups)?,
            Some(round) => {
                let mut early = rows().filter(|v| v.round < round);
                draw_line(chart.plotting_area(), &line(&mut early), colour, &groups)?;
                // Where saturated, one faint point per stretch of rounds: the median of its
                // points, which is all such noisy matches can still say.
                let medians = saturated_medians(rows().filter(|v| v.round >= round), first, last);
                let medians: Vec<(f64, f64)> = medians
                    .into_iter()
                    .map(|(x, elo)| (x, clamp(elo)))
                    .collect();
                let faint = faded(colour, 0.45);
                chart.draw_series(std::iter::once(PathElement::new(
                    medians.clone(),
                    faint.stroke_width(2),
                )))?;
                chart.draw_series(
                    medians
                        .into_iter()
                        .map(|p| Circle::new(p, 3, faint.filled())),
                )?;
            }
        }
        let label = match islands {
            1 => "Elo (bar: 95% interval)".to_string(),
            _ if island < MAX_ISLAND_ENTRIES => format!("island {island}"),
            _ => continue,
        };
        entries.push((label, Mark::Line(colour)));
    }
    if islands > MAX_ISLAND_ENTRIES {
        let more = islands - MAX_ISLAND_ENTRIES;
        entries.push((format!("{more} more islands"), Mark::Line(WHITE)));
    }
    let mut notes = vec![
        "every few rounds the top",
        "survivor plays a fixed",
        "validation deck that the",
        "bracket never uses",
    ];
    if saturated_from.is_some() {
        notes.extend([
            "",
            "shaded: saturated; faint: the",
            "median of the points since,",
            "per stretch of rounds, cut",
            "at the top",
        ]);
    }
    draw_legend(&legend_area, "learning.csv", &entries, &notes)
}

/// How many stretches of rounds a saturated curve is summed up in, over the whole round axis.
const SATURATED_STRETCHES: i64 = 25;

/// The saturated points `rows` (one island's, in round order) as one point per stretch of
/// rounds of the axis `first..=last`: at the stretch's middle round, the median Elo of its
/// points (an infinite one counts as the largest).
fn saturated_medians<'a>(
    rows: impl Iterator<Item = &'a Validation>,
    first: i64,
    last: i64,
) -> Vec<(f64, f64)> {
    let width = ((last - first + 1) / SATURATED_STRETCHES).max(1);
    let mut stretches: BTreeMap<i64, Vec<f64>> = BTreeMap::new();
    for v in rows.filter(|v| !v.elo.is_nan()) {
        stretches
            .entry((v.round - first) / width)
            .or_default()
            .push(v.elo);
    }
    stretches
        .into_iter()
        .map(|(k, mut elos)| {
            elos.sort_by(f64::total_cmp);
            let mid = elos.len() / 2;
            // (Two middle values, the upper infinite: the median is open above too.)
            let median = if elos.len() % 2 == 1 || elos[mid].is_infinite() {
                elos[mid]
            } else {
                (elos[mid - 1] + elos[mid]) / 2.0
            };
            let x = (first + k * width) as f64 + (width - 1) as f64 / 2.0;
            (x, median)
        })
        .collect()
}

/// The most islands named in the learning curve's legend; the others share one entry.
const MAX_ISLAND_ENTRIES: u64 = 12;

#[cfg(test)]
mod tests {
    use super::*;

    fn points(elos: &[(i64, f64)]) -> Vec<Validation> {
        elos.iter()
            .map(|&(round, elo)| Validation {
                island: 0,
                round,
                elo,
                low: elo - 50.0,
                high: elo + 50.0,
            })
            .collect()
    }

    #[test]
    fn a_curve_saturates_where_most_later_points_score_90_percent() {
        assert!((saturated_elo() - 381.7).abs() < 0.1);
        // Climbing, then mostly past 90% from round 8 (one dip at round 10 does not undo it).
        let curve = points(&[
            (2, 160.0),
            (4, 260.0),
            (6, 390.0),
            (8, 400.0),
            (10, 330.0),
            (12, 470.0),
            (14, f64::INFINITY),
            (16, 300.0),
            (18, 500.0),
        ]);
        assert_eq!(saturation_round(&curve), Some(6));
        // Below 90% throughout: no saturation; one lucky point at the end neither.
        assert_eq!(saturation_round(&curve[..3]), None);
        let lucky = points(&[(2, 100.0), (4, 120.0), (6, 110.0), (8, 130.0), (10, 500.0)]);
        assert_eq!(saturation_round(&lucky), None);
    }

    #[test]
    fn a_saturated_stretch_is_drawn_as_its_median() {
        // 100 rounds: stretches of 4 rounds; a clean sweep counts as the largest.
        let rows = points(&[
            (1, 400.0),
            (2, 900.0),
            (3, 450.0),
            (5, 500.0),
            (6, f64::INFINITY),
            (9, 420.0),
        ]);
        let medians = saturated_medians(rows.iter(), 1, 100);
        assert_eq!(
            medians,
            vec![(2.5, 450.0), (6.5, f64::INFINITY), (10.5, 420.0)]
        );
    }
}
