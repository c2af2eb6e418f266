//! The TOML form: readable `[opening]` and `[endgame]` tables keyed by feature name, as
//! `export --format toml` writes it.

use std::fmt::Write as _;

use crate::error::Error;
use crate::eval::PERSPECTIVE;
use crate::text::strip_bom;

use super::key_lines::KeyLines;
use super::validate::{line_col, Ctx};
use super::{WeightsFile, WeightsSource};

impl WeightsFile {
    /// Reads the TOML form written by the `toml` exporter: top-level `endgame_pieces` and
    /// `perspective`, `[opening]`/`[endgame]` tables keyed by feature name (lists of ten integers
    /// also accepted), optional `[search]` and `[source]`. Checked like
    /// [`WeightsFile::from_json`].
    pub fn from_toml(text: &str, origin: &str) -> Result<WeightsFile, Error> {
        let text = strip_bom(text);
        let ctx = Ctx::new(origin);
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            let msg = e.message().trim_end().replace('\n', "; ");
            match e.span() {
                Some(span) => {
                    let (line, col) = line_col(text, span.start);
                    ctx.err(format!("not TOML (line {line}, column {col}: {msg})"))
                }
                None => ctx.err(format!("not TOML ({msg})")),
            }
        })?;
        // One validator for both forms: TOML's integers, strings, arrays and tables map one to
        // one onto JSON values (a datetime becomes a non-integer and is reported as such).
        let value = serde_json::to_value(&table)
            .map_err(|e| ctx.err(format!("cannot read the TOML values ({e})")))?;
        ctx.read_value(&value)
    }

    /// The TOML form: comments saying how the weights are applied, the top-level keys (the
    /// extended and pattern evaluators' lists among them), `[opening]` and `[endgame]` tables
    /// keyed by feature name, and the `[search]` and `[source]` tables when the file has them.
    pub fn to_toml(&self) -> String {
        let mut out = String::new();
        out.push_str("# English-checkers evaluation weights (checkers-tuner).\n");
        out.push_str("# eval = sum over features of weight * (own count - opponent count),\n");
        out.push_str("# from the side to move; the endgame set applies from `endgame_pieces`\n");
        out.push_str("# pieces left on the board (both colours) down.\n");
        if self.patterns.is_some() {
            out.push_str(
                "# The pattern evaluator: the extended evaluator's weights, its classic terms\n",
            );
            out.push_str(
                "# and the region tables (docs/features.md), opening and endgame values tapered\n",
            );
            out.push_str("# by the pieces on the board; `endgame_pieces` does not apply.\n");
            out.push_str("evaluator = \"patterns\"\n");
        } else if self.extra.is_some() {
            out.push_str(
                "# The extended evaluator: the ten features below plus the terms and the\n",
            );
            out.push_str(
                "# men's and kings' tables (squares 1-28 and 1-32 from the owner's view),\n",
            );
            out.push_str("# opening and endgame values tapered by the pieces on the board\n");
            out.push_str("# (docs/features.md); `endgame_pieces` does not apply.\n");
            out.push_str("evaluator = \"extended\"\n");
        }
        let _ = writeln!(out, "endgame_pieces = {}", self.endgame_pieces);
        if let Some(n) = self.database_pieces {
            out.push_str("# The endgame database the weights were tuned with (pieces; 0: none).\n");
            let _ = writeln!(out, "database_pieces = {n}");
        }
        let _ = writeln!(out, "perspective = {}", toml_str(PERSPECTIVE));
        if let Some(extra) = &self.extra {
            out.push_str(&KeyLines::Toml.extended(extra));
        }
        if let Some(patterns) = &self.patterns {
            out.push_str(&KeyLines::Toml.patterns(patterns));
        }
        for (set, w) in [
            ("opening", &self.weights.opening),
            ("endgame", &self.weights.endgame),
        ] {
            let _ = writeln!(out, "\n[{set}]");
            for (name, value) in w.named() {
                let _ = writeln!(out, "{name} = {value}");
            }
        }
        if let Some(params) = &self.search {
            out.push_str(
                "\n# How the weights want to be searched: the keys of a config's [search]\n\
                 # (docs/engine.md); a key left out has its default.\n[search]\n",
            );
            for (key, value) in params.changed_entries() {
                let _ = writeln!(out, "{key} = {value}");
            }
        }
        match &self.source {
            Some(WeightsSource::Specimen { run, id, round }) => {
                let run = toml_str(run);
                let _ = write!(out, "\n[source]\nrun = {run}\nid = {id}\nround = {round}\n");
            }
            Some(WeightsSource::Fit { data }) => {
                let _ = write!(out, "\n[source]\nfit = {}\n", toml_str(data));
            }
            None => {}
        }
        out
    }
}

/// A TOML basic string, escaped by the `toml` crate itself.
fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}
