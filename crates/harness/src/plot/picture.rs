//! Writing the picture: SVG or PNG, with the font shipped inside the binary, atomically.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use checkers_engine::atomic_file::{write_atomically, write_atomically_with};
use checkers_engine::error::Error;

use super::chart::DrawResult;
use super::data::RunData;
use super::layout::{draw, height, WIDTH};
use super::style::FAMILY;

/// What [`write_picture`] draws: a picture of a known size, drawn the same way on the SVG and
/// the bitmap backend (so that the two formats of one picture never differ but in pixels).
pub(super) trait Picture {
    /// Width and height in pixels.
    fn size(&self) -> (u32, u32);
    /// Draws the whole picture on `root`.
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB>;
}

/// A run's picture: its rounds' panels (see [`super::layout`]).
impl Picture for RunData {
    fn size(&self) -> (u32, u32) {
        (WIDTH, height(self))
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> DrawResult<DB> {
        draw(self, root)
    }
}

/// The font every piece of text is laid out with. A subset (Latin-1 and a few dashes and
/// quotes) keeps the binary small; characters outside it are laid out as blanks.
static FONT: &[u8] = include_bytes!("../../../../assets/DejaVuSans-subset.ttf");

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
pub(super) fn write_picture(data: &impl Picture, out: &Path, png: bool) -> Result<(), Error> {
    register_font()?;
    if png {
        // The encoder chooses the format by the file name's extension.
        write_atomically_with(out, ".png", |tmp, _| render_png(data, tmp, out))
    } else {
        write_atomically(out, render_svg(data, out)?.as_bytes())
    }
}

fn render_svg(data: &impl Picture, out: &Path) -> Result<String, Error> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, data.size()).into_drawing_area();
        data.draw(&root).map_err(|e| draw_failure(out, &e))?;
        root.present().map_err(|e| draw_failure(out, &e))?;
    }
    Ok(svg)
}

fn render_png(data: &impl Picture, tmp: &Path, out: &Path) -> Result<(), Error> {
    let root = BitMapBackend::new(tmp, data.size()).into_drawing_area();
    data.draw(&root).map_err(|e| draw_failure(out, &e))?;
    root.present()
        .map_err(|e| Error::failure(format!("cannot write {}: {e}", out.display())))
}

fn draw_failure(out: &Path, e: &dyn std::fmt::Display) -> Error {
    Error::failure(format!("cannot draw {}: {e}", out.display()))
}
