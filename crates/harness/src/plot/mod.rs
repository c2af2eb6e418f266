//! Pictures of a run's round statistics, of a chain's data night and of a tournament's rating
//! list (SVG or PNG).
//!
//! Text is laid out with a font shipped inside the binary (`assets/DejaVuSans-subset.ttf`, see
//! `assets/DejaVuSans-LICENSE.txt`) through plotters' pure-Rust `ab_glyph` backend, so drawing
//! needs no system font library (fontconfig, freetype) on the machine.

mod chart;
mod climb;
mod data;
mod data_night;
mod draws;
mod grouping;
mod heat_maps;
mod layout;
mod learning;
mod outcomes;
mod picture;
mod ratings;
mod style;
mod weights;

#[cfg(test)]
mod test_support;

use std::path::{Path, PathBuf};

use crate::run_folder::{DATA_RESULT_FILE, ROUNDS_FILE};
use checkers_engine::error::Error;

use data::{check_run_dir, read_run};
use picture::write_picture;

pub use data_night::plot_data_night;
pub use ratings::plot_ratings;

/// What `plot` draws from the path it is given, by what the path is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlotSource {
    /// A run folder, or anything that is neither of the others (which [`plot_run`] then
    /// refuses as it always has): [`plot_run`].
    Run,
    /// A chain's top folder after (part of) its data night, with `data.csv` and no
    /// `rounds.csv`: [`plot_data_night`].
    DataNight,
    /// A file (or a missing name ending in `.csv`): a tournament's rating list,
    /// [`plot_ratings`].
    Ratings,
}

impl PlotSource {
    /// What `path` is. A folder with `rounds.csv` is a run's whatever else it holds, so that a
    /// run folder is drawn as it always was; a chain's top folder never has one.
    pub fn of(path: &Path) -> PlotSource {
        if path.is_dir() {
            if path.join(DATA_RESULT_FILE).exists() && !path.join(ROUNDS_FILE).exists() {
                PlotSource::DataNight
            } else {
                PlotSource::Run
            }
        } else {
            let csv = path
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
            if path.is_file() || csv {
                PlotSource::Ratings
            } else {
                PlotSource::Run
            }
        }
    }

    /// The picture's name without `-o`: `RUN_DIR/rounds.svg`, `TOP/data.svg`, or the rating
    /// list's name with `.svg` for its last extension (`FILE.ratings.csv` gives
    /// `FILE.ratings.svg`, beside it).
    pub fn default_output(self, path: &Path) -> PathBuf {
        match self {
            PlotSource::Run => path.join("rounds.svg"),
            PlotSource::DataNight => path.join("data.svg"),
            PlotSource::Ratings => path.with_extension("svg"),
        }
    }

    /// Draws `path` into `out` with [`plot_run`], [`plot_data_night`] or [`plot_ratings`];
    /// returns the notes drawn under the title.
    ///
    /// # Errors
    /// As the function drawing it.
    pub fn plot(self, path: &Path, out: &Path) -> Result<Vec<String>, Error> {
        match self {
            PlotSource::Run => plot_run(path, out),
            PlotSource::DataNight => plot_data_night(path, out),
            PlotSource::Ratings => plot_ratings(path, out),
        }
    }
}
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
