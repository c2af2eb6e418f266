//! The gated champion's climb (`champions.csv`) on an axis of its own: the champion's
//! cumulative Elo as a step line, and every gate marked, accepted or refused, with its interval.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::chart::{
    chart_on, draw_legend, draw_round_axes, draw_zero_line, integer_label, split_legend,
    DrawResult, Mark, View,
};
use super::data::{Climb, RunData};
use super::style::rgb;

/// The champion's line: black, apart from every island's colour.
const CHAMPION_COLOUR: RGBColor = rgb(0x000000);
/// A gate that crowned its candidate.
const ACCEPTED_COLOUR: RGBColor = rgb(0x2ca02c);
/// A gate that kept the champion.
const REFUSED_COLOUR: RGBColor = rgb(0xd62728);

/// What the climb came to, for the caption: the champion's Elo over the first champion, how
/// many champions, and when the last step was.
pub(super) fn summary(climb: &Climb) -> String {
    let elo = climb.steps.last().map_or(0.0, |s| s.elo);
    let champions = climb.gates.iter().filter(|g| g.accepted).count();
    let last_gate = climb.gates.last().map(|g| g.round);
    let last_step = climb
        .gates
        .iter()
        .rev()
        .find(|g| g.accepted)
        .map(|g| g.round);
    let refused_since = climb
        .gates
        .iter()
        .filter(|g| !g.accepted && Some(g.round) > last_step)
        .count();
    let when = match (last_step, last_gate) {
        (None, _) => "no champion yet".to_string(),
        (Some(step), Some(gate)) if step == gate => format!("the last step after round {step}"),
        (Some(step), _) => format!(
            "no step since round {step} ({refused_since} gate{} refused since)",
            if refused_since == 1 { "" } else { "s" }
        ),
    };
    format!(
        "{elo:+.1} Elo by its gates, {champions} champion{}, {when}",
        if champions == 1 { "" } else { "s" }
    )
}

/// The climb's panel, `letter` its name. A gate's mark stands at the champion's Elo before the
/// gate plus the candidate's Elo in it ([`super::data::GateMark`]), with its 95% interval as a
/// bar, so an accepted mark sits on the step it made.
pub(super) fn panel_climb<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    data: &RunData,
    view: &View,
    letter: char,
) -> DrawResult<DB> {
    let climb = &data.climb;
    let (plot_area, legend_area) = split_legend(area);
    let finite = |v: f64| v.is_finite().then_some(v);
    let values = climb.steps.iter().map(|s| s.elo).chain(
        climb
            .gates
            .iter()
            .flat_map(|g| {
                let (low, high) = g.interval.unwrap_or((g.elo, g.elo));
                [Some(g.elo), finite(low), finite(high)]
            })
            .flatten(),
    );
    let (lo, hi) = values.fold((0f64, 0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = ((hi - lo) * 0.08).max(10.0);
    let y_range = (lo - pad)..(hi + pad);
    let clamp = |v: f64| v.clamp(y_range.start, y_range.end);
    let caption = format!("({letter}) the gated champion's climb: {}", summary(climb));
    let mut chart = chart_on(&plot_area, &caption, 70)
        .build_cartesian_2d(view.x_range.clone(), y_range.clone())?;
    draw_round_axes(&mut chart, "Elo", view.x_labels, &integer_label)?;
    draw_zero_line(chart.plotting_area(), &view.x_range)?;

    // The intervals first, so that the marks and the line stay on top.
    let colour_of = |accepted: bool| {
        if accepted {
            ACCEPTED_COLOUR
        } else {
            REFUSED_COLOUR
        }
    };
    chart.draw_series(climb.gates.iter().filter_map(|g| {
        let (low, high) = g.interval?;
        let x = g.round as f64;
        let style = colour_of(g.accepted).mix(0.45).stroke_width(2);
        Some(PathElement::new([(x, clamp(low)), (x, clamp(high))], style))
    }))?;

    // A step line: the champion holds its Elo until a gate accepts another.
    let mut steps = Vec::new();
    let mut held: Option<f64> = None;
    for s in &climb.steps {
        if let Some(elo) = held {
            steps.push((s.round as f64, clamp(elo)));
        }
        steps.push((s.round as f64, clamp(s.elo)));
        held = Some(s.elo);
    }
    // (The Elo it came to is in the caption: a label at the line's end would cover the last
    // gates' marks.)
    if let Some(elo) = held {
        steps.push((view.rounds.1 as f64, clamp(elo)));
    }
    chart.draw_series(std::iter::once(PathElement::new(
        steps,
        CHAMPION_COLOUR.stroke_width(3),
    )))?;

    chart.draw_series(climb.gates.iter().map(|g| {
        let centre = (g.round as f64, clamp(g.elo));
        let colour = colour_of(g.accepted);
        if g.accepted {
            Circle::new(centre, 5, colour.filled())
        } else {
            Circle::new(centre, 5, colour.stroke_width(2))
        }
    }))?;

    draw_legend(
        &legend_area,
        "champions.csv",
        &[
            ("champion (cumulative)", Mark::Line(CHAMPION_COLOUR)),
            ("gate accepted", Mark::Dot(ACCEPTED_COLOUR, true)),
            ("gate refused", Mark::Dot(REFUSED_COLOUR, false)),
        ],
        &[
            "cumulative: the sum of the Elo",
            "of every gate the champion won",
            "",
            "a gate's mark: the champion's",
            "Elo before it plus the",
            "candidate's in the gate; bar:",
            "its 95% interval",
        ],
    )
}
