//! Panel (f) of an extended run's picture: heat maps of the best survivor's piece-square
//! tables, one board per table and set, from the owner's view.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use checkers_engine::eval::{KING_SQUARES, MAN_SQUARES, TERM_COUNT};

use super::chart::DrawResult;
use super::style::{rgb, FAMILY};

/// The further weights of one round's best survivor (or of a gated run's champion), for the
/// heat maps.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Tables {
    /// The round (a champion's: the round after which it was accepted).
    pub(super) round: i64,
    /// The specimen.
    pub(super) id: u64,
    /// Whether these are a gated run's champion's (else the round's best survivor's).
    pub(super) champion: bool,
    /// Opening and endgame: the further weights in `extra_names` order (terms, men, kings).
    pub(super) sets: [Vec<f64>; 2],
}

impl Tables {
    /// The table of `set` (0 opening, 1 endgame), men's or kings'.
    fn table(&self, set: usize, kings: bool) -> &[f64] {
        let (start, len) = if kings {
            (TERM_COUNT + MAN_SQUARES, KING_SQUARES)
        } else {
            (TERM_COUNT, MAN_SQUARES)
        };
        &self.sets[set][start..start + len]
    }
}

/// Row (0: the owner's back row, drawn at the top) and column of square `s` (1-32).
fn row_col(s: usize) -> (usize, usize) {
    let row = (s - 1) / 4;
    (row, 2 * ((s - 1) % 4) + usize::from(row.is_multiple_of(2)))
}

/// White at 0, red for positive and blue for negative values, full at `±scale`.
fn heat(value: f64, scale: f64) -> RGBColor {
    let t = (value / scale).clamp(-1.0, 1.0);
    let fade = |t: f64| (255.0 * (1.0 - t.abs())).round() as u8;
    if t >= 0.0 {
        RGBColor(255, fade(t), fade(t))
    } else {
        RGBColor(fade(t), fade(t), 255)
    }
}

/// Four boards: the men's and the kings' tables, opening and endgame, on one colour scale;
/// `letter` names the panel.
pub(super) fn panel_tables<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    tables: &Tables,
    letter: char,
) -> DrawResult<DB> {
    let whose = if tables.champion {
        format!(
            "the champion (specimen {}, accepted after round {})",
            tables.id, tables.round
        )
    } else {
        format!(
            "round {}'s best survivor (specimen {})",
            tables.round, tables.id
        )
    };
    let caption = format!(
        "({letter}) piece-square tables of {whose}, hundredths of a man: each side's own view, \
         its back row at the top"
    );
    let body = area.titled(&caption, (FAMILY, 20).into_font().color(&BLACK))?;
    let scale = [(0, false), (1, false), (0, true), (1, true)]
        .iter()
        .flat_map(|&(set, kings)| tables.table(set, kings).iter())
        .fold(1.0f64, |m, v| m.max(v.abs()));
    let boards = body.split_evenly((1, 4));
    let titles = [
        "opening men",
        "endgame men",
        "opening kings",
        "endgame kings",
    ];
    for (k, board) in boards.iter().enumerate() {
        let (set, kings) = (k % 2, k >= 2);
        let board = board.titled(titles[k], (FAMILY, 16).into_font().color(&BLACK))?;
        let (w, h) = board.dim_in_pixel();
        let cell = (w.min(h).saturating_sub(10) / 8) as i32;
        let left = (w as i32 - 8 * cell) / 2;
        for (i, &value) in tables.table(set, kings).iter().enumerate() {
            let (row, col) = row_col(i + 1);
            let (x, y) = (left + col as i32 * cell, row as i32 * cell);
            board.draw(&Rectangle::new(
                [(x, y), (x + cell, y + cell)],
                heat(value, scale).filled(),
            ))?;
            let style = (FAMILY, (cell / 3).max(8))
                .into_font()
                .color(&BLACK)
                .pos(Pos::new(HPos::Center, VPos::Center));
            board.draw_text(&format!("{value:.0}"), &style, (x + cell / 2, y + cell / 2))?;
        }
        // The board's outline, and the men's table's empty crowning row.
        board.draw(&Rectangle::new(
            [(left, 0), (left + 8 * cell, 8 * cell)],
            rgb(0x888888).stroke_width(1),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_sit_on_the_dark_squares_of_their_rows() {
        assert_eq!(row_col(1), (0, 1));
        assert_eq!(row_col(4), (0, 7));
        assert_eq!(row_col(5), (1, 0));
        assert_eq!(row_col(32), (7, 6));
        assert_eq!(heat(0.0, 10.0), RGBColor(255, 255, 255));
        assert_eq!(heat(10.0, 10.0), RGBColor(255, 0, 0));
        assert_eq!(heat(-20.0, 10.0), RGBColor(0, 0, 255));
    }
}
