//! The picture's layout: the title, the notes under it, the three panels over the rounds and
//! the panels under the weights.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::chart::{DrawResult, View};
use super::climb::panel_climb;
use super::data::RunData;
use super::draws::panel_draws;
use super::grouping::{Grouping, MAX_GROUPS};
use super::heat_maps::panel_tables;
use super::learning::panel_learning;
use super::outcomes::panel_outcomes;
use super::style::{rgb, FAMILY};
use super::weights::panel_weights;

pub(super) const WIDTH: u32 = 1600;
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
pub(super) fn height(data: &RunData) -> u32 {
    HEIGHT + lower_panels(data).iter().map(|p| p.height()).sum::<u32>()
}

/// The longest run name drawn in the title, in characters.
const TITLE_NAME_CHARS: usize = 60;

pub(super) fn draw<DB: DrawingBackend>(
    data: &RunData,
    root: &DrawingArea<DB, Shift>,
) -> DrawResult<DB> {
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
            (Lower::Climb, _) => panel_climb(&area, data, &view, letter)?,
            (Lower::Learning, _) => panel_learning(&area, data, &view, letter)?,
            (Lower::Tables, Some(tables)) => panel_tables(&area, tables, letter)?,
            (Lower::Tables, None) => {}
        }
    }
    Ok(())
}

/// Height of a line of notes under the title.
pub(super) const NOTE_HEIGHT: u32 = 20;

/// Writes `notes` (what the picture shows otherwise than the files say) in a strip at the top
/// of `area`; the rest of `area`.
pub(super) fn draw_notes<DB: DrawingBackend>(
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
