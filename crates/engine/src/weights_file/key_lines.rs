//! The keys of the extended and the pattern evaluators' further weights, which the JSON and the
//! TOML forms write alike, a key a line (a table a line), each in its own syntax.

use crate::eval::{ExtraPair, PatternWeights, RegionKind, CLASSIC_NAMES, TERM_NAMES};

/// How a form writes a key and its value on a line of their own.
#[derive(Clone, Copy, Debug)]
pub enum KeyLines {
    /// `  "key": value,` inside the top-level object.
    Json,
    /// `key = value` at the top level, before the tables of the ten features.
    Toml,
}

impl KeyLines {
    /// The extended evaluator's keys: the terms' names, then each list (terms, men's table,
    /// kings' table) of the opening and of the endgame.
    pub fn extended(self, extra: &ExtraPair) -> String {
        let mut lines = self.line("terms", &names(&TERM_NAMES));
        for list in 0..3 {
            for (phase, w) in [("opening", &extra.opening), ("endgame", &extra.endgame)] {
                let (suffix, weights) = w.lists()[list];
                lines += &self.line(&format!("{phase}_{suffix}"), &numbers(weights));
            }
        }
        lines
    }

    /// The pattern evaluator's keys: the classic terms' names and weights, the exchange term,
    /// the regions, and each phase's tables, a table a line.
    pub fn patterns(self, patterns: &PatternWeights) -> String {
        let mut lines = self.line("classic", &names(&CLASSIC_NAMES));
        lines += &self.line("opening_classic", &numbers(&patterns.classic_opening));
        lines += &self.line("endgame_classic", &numbers(&patterns.classic_endgame));
        // The optional term only when it is in: files without it stay as they were.
        if patterns.has_exchange() {
            lines += &self.line("exchange", &numbers(&patterns.exchange));
        }
        let squares = |kind: RegionKind| -> String {
            let regions: Vec<String> = patterns
                .tables
                .region_squares(kind)
                .iter()
                .map(|r| numbers(r))
                .collect();
            format!("[{}]", regions.join(", "))
        };
        lines += &self.line("regions", &squares(RegionKind::Men));
        // Each further kind of region only when there is one: files without stay as they were.
        if patterns.tables.has_king_regions() {
            lines += &self.line("king_regions", &squares(RegionKind::Kings));
        }
        if patterns.tables.has_rank_regions() {
            lines += &self.line("rank_regions", &squares(RegionKind::Ranks));
        }
        for (phase, name) in ["opening", "endgame"].into_iter().enumerate() {
            let tables: Vec<String> = (0..patterns.tables.regions().len())
                .map(|r| numbers(&patterns.tables.table(r, phase)))
                .collect();
            lines += &self.rows(&format!("{name}_tables"), &tables);
        }
        lines
    }

    /// `key` and its `value` as one line.
    fn line(self, key: &str, value: &str) -> String {
        match self {
            KeyLines::Json => format!("  \"{key}\": {value},\n"),
            KeyLines::Toml => format!("{key} = {value}\n"),
        }
    }

    /// `key` and a list of `rows`, a row a line.
    fn rows(self, key: &str, rows: &[String]) -> String {
        match self {
            KeyLines::Json => {
                let rows: Vec<String> = rows.iter().map(|row| format!("    {row}")).collect();
                format!("  \"{key}\": [\n{}\n  ],\n", rows.join(",\n"))
            }
            KeyLines::Toml => {
                let rows: Vec<String> = rows.iter().map(|row| format!("  {row},")).collect();
                format!("{key} = [\n{}\n]\n", rows.join("\n"))
            }
        }
    }
}

/// A list of names. They are identifiers, which JSON's strings and TOML's basic strings spell
/// alike.
fn names(names: &[&str]) -> String {
    let items: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    format!("[{}]", items.join(", "))
}

/// A list of integers.
fn numbers(values: &[i32]) -> String {
    let items: Vec<String> = values.iter().map(i32::to_string).collect();
    format!("[{}]", items.join(", "))
}
