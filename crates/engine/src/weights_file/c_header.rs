//! The C header: the weights as C arrays, a comment block defining the evaluation, and a plain
//! reference implementation of the features, the phase switch and the evaluation (the C in
//! `c_header/*.c`, appended piece by piece as the weights need it). Written only.

use std::fmt::Write as _;

use crate::eval::{
    PatternWeights, RegionKind, CLASSIC_COUNT, CLASSIC_NAMES, EXCHANGE_SCALE, FEATURE_COUNT,
    FEATURE_NAMES, MAX_REGION_SQUARES, PERSPECTIVE, TERM_COUNT, TERM_NAMES,
};
use crate::game::{SearchParams, SearchValue};

use super::WeightsFile;

impl WeightsFile {
    /// The C header: the two weight arrays (and the extended and pattern evaluators' arrays
    /// when the weights have them), a comment block defining the evaluation, and a plain
    /// reference implementation of the features, the phase switch and the evaluation; the
    /// file's `search` table becomes `#define CHECKERS_SEARCH_<KEY>` lines.
    pub fn to_c_header(&self) -> String {
        let guard = "CHECKERS_TUNER_WEIGHTS_H";
        let mut out = String::new();
        out.push_str("/*\n * English-checkers evaluation weights, exported by checkers-tuner.\n");
        match &self.source {
            Some(s) => {
                let _ = writeln!(out, " * Source: {}.", c_comment_safe(&s.describe()));
            }
            None => out.push_str(" * Source: not from a tuning run (hand-made or built-in).\n"),
        }
        let _ = write!(
            out,
            " *\n\
             \x20* Squares are numbered 1-32 in the standard way: Black starts on 1-12 and moves\n\
             \x20* towards 32, White starts on 21-32 and moves towards 1.\n\
             \x20*\n\
             \x20* Perspective: {PERSPECTIVE}.\n\
             \x20*   eval = sum_i w_i * (f_i(us) - f_i(them))\n\
             \x20* where \"us\" is the side to move and f_i counts feature i for one side.\n\
             \x20*\n\
             \x20* Phase: use CHECKERS_OPENING_WEIGHTS while more than CHECKERS_ENDGAME_PIECES\n\
             \x20* pieces (both colours, men and kings) are on the board, and\n\
             \x20* CHECKERS_ENDGAME_WEIGHTS once CHECKERS_ENDGAME_PIECES or fewer are left. The set\n\
             \x20* is chosen once per search from the root (game) position, not per node.\n\
             \x20*\n\
             \x20* Features, counted for one side:\n"
        );
        for (i, (name, def)) in FEATURE_NAMES.iter().zip(FEATURE_DEFINITIONS).enumerate() {
            let _ = writeln!(out, " * {:>2} {name:<18} {def}", i + 1);
        }
        out.push_str(" */\n");
        let _ = write!(out, "#ifndef {guard}\n#define {guard}\n\n");
        let _ = writeln!(out, "#define CHECKERS_FEATURE_COUNT {FEATURE_COUNT}");
        let _ = writeln!(
            out,
            "#define CHECKERS_ENDGAME_PIECES {}\n",
            self.endgame_pieces
        );
        if let Some(params) = &self.search {
            out.push_str(&c_search_defines(params));
        }
        out.push_str("/* Indices into the weight arrays. */\nenum checkers_feature {\n");
        for (i, name) in FEATURE_NAMES.iter().enumerate() {
            let sep = if i + 1 < FEATURE_COUNT { "," } else { "" };
            let _ = writeln!(out, "    CHECKERS_{} = {i}{sep}", name.to_ascii_uppercase());
        }
        out.push_str("};\n");
        let arrays = [
            ("CHECKERS_OPENING_WEIGHTS", &self.weights.opening),
            ("CHECKERS_ENDGAME_WEIGHTS", &self.weights.endgame),
        ];
        for (array, w) in arrays {
            let _ = writeln!(out, "\nstatic const int {array}[{FEATURE_COUNT}] = {{");
            for (i, (name, value)) in w.named().enumerate() {
                let sep = if i + 1 < FEATURE_COUNT { "," } else { "" };
                let _ = writeln!(out, "    {}{sep} /* {name} */", c_int(value));
            }
            out.push_str("};\n");
        }
        if let Some(extra) = &self.extra {
            let _ = writeln!(
                out,
                "\n/* The extended evaluator (docs/features.md): its terms, then the men's and\n \
                 * kings' tables, indexed by square - 1 from the owner's view. */\n\
                 #define CHECKERS_EXTENDED 1\n#define CHECKERS_TERM_COUNT {TERM_COUNT}"
            );
            out.push_str("enum checkers_term {\n");
            for (i, name) in TERM_NAMES.iter().enumerate() {
                let sep = if i + 1 < TERM_COUNT { "," } else { "" };
                let _ = writeln!(out, "    CHECKERS_{} = {i}{sep}", name.to_ascii_uppercase());
            }
            out.push_str("};\n");
            for (set, w) in [("OPENING", &extra.opening), ("ENDGAME", &extra.endgame)] {
                for (suffix, weights) in w.lists() {
                    let values: Vec<String> = weights.iter().map(|&v| c_int(v)).collect();
                    let _ = writeln!(
                        out,
                        "static const int CHECKERS_{set}_{}[{}] = {{{}}};",
                        suffix.to_ascii_uppercase(),
                        values.len(),
                        values.join(", ")
                    );
                }
            }
        }
        if let Some(patterns) = &self.patterns {
            out.push_str(&c_pattern_arrays(patterns));
        }
        out.push_str(C_TEN_FEATURES);
        if self.extra.is_some() {
            out.push_str(C_EXTENDED_EVALUATION);
        }
        if let Some(patterns) = &self.patterns {
            out.push_str(if patterns.tables.has_rank_regions() {
                C_PATTERN_INDEX_WITH_RANKS
            } else {
                C_PATTERN_INDEX
            });
            out.push_str(C_PATTERN_SUMS);
            if patterns.has_exchange() {
                out.push_str(C_PATTERN_EXCHANGE);
            }
            out.push_str(C_PATTERN_TABLES);
        }
        let _ = writeln!(out, "\n#endif /* {guard} */");
        out
    }
}

/// The reference evaluation: square-by-square code that follows docs/features.md definitions
/// (not the engine's bit tricks), so that another engine can check its own port — the ten
/// features, the phase switch and the evaluation.
const C_TEN_FEATURES: &str = include_str!("c_header/ten.c");

/// The reference of the extended evaluator (docs/features.md), appended after
/// [`C_TEN_FEATURES`] when the weights are extended.
const C_EXTENDED_EVALUATION: &str = include_str!("c_header/extended.c");

/// The reference of the pattern evaluator (docs/features.md), appended after the extended
/// evaluator's when the weights have tables: this region index, or
/// [`C_PATTERN_INDEX_WITH_RANKS`] when there are rank regions, then [`C_PATTERN_SUMS`]. (Split
/// so that a header without rank regions is the text it always was.)
const C_PATTERN_INDEX: &str = include_str!("c_header/pattern_index.c");

/// [`C_PATTERN_INDEX`] for tables with rank regions (the last CHECKERS_RANK_REGION_COUNT
/// regions, after the king regions): their index has a binary digit a square, the own men's.
const C_PATTERN_INDEX_WITH_RANKS: &str = include_str!("c_header/pattern_index_ranks.c");

/// The rest of the reference of the pattern evaluator, after the region index: the classic
/// terms and the evaluation up to them (then [`C_PATTERN_EXCHANGE`] when the weights have it,
/// and [`C_PATTERN_TABLES`]). It opens `checkers_evaluate_patterns`, which the two close.
const C_PATTERN_SUMS: &str = include_str!("c_header/pattern_evaluate_head.c");

/// The `exchange` term inside `checkers_evaluate_patterns`, between [`C_PATTERN_SUMS`] and
/// [`C_PATTERN_TABLES`], in a header whose weights have it (one without stays as it was).
const C_PATTERN_EXCHANGE: &str = include_str!("c_header/pattern_evaluate_exchange.c");

/// The end of `checkers_evaluate_patterns`: the region tables and the taper.
const C_PATTERN_TABLES: &str = include_str!("c_header/pattern_evaluate_tail.c");

/// One line per feature, as in docs/features.md, for the C header's comment block.
const FEATURE_DEFINITIONS: [&str; FEATURE_COUNT] = [
    "its men",
    "its kings",
    "its men on an edge square (1-5, 12, 13, 20, 21, 28-32)",
    "its kings on an edge square",
    "its pieces on its own first two rows (Black 1-8, White 25-32)",
    "its pieces on the opponent's first three rows (Black 21-32, White 1-12)",
    "sum over its men of the rows still to go to the king row",
    "empty squares on its king row (the opponent's back row)",
    "simple moves its pieces could make, ignoring the capture obligation",
    "single jumps its pieces could make ((piece, direction) pairs)",
];

/// The weights file's `search` table as `#define CHECKERS_SEARCH_<KEY> <value>` lines, every
/// key with its value (defaults included: C has no defaults to fall back on); switches are 1 or
/// 0, named choices string literals.
fn c_search_defines(params: &SearchParams) -> String {
    let mut out = String::from(
        "/* The search the weights were tuned for: checkers-tuner's [search] keys\n \
         * (docs/engine.md, \"The selective search\"). */\n",
    );
    for (key, value) in params.entries() {
        let value = match value {
            SearchValue::Flag(b) => u8::from(b).to_string(),
            other => other.to_string(),
        };
        let _ = writeln!(
            out,
            "#define CHECKERS_SEARCH_{} {value}",
            key.to_ascii_uppercase()
        );
    }
    out.push('\n');
    out
}

/// The C header's arrays of the pattern evaluator: the classic terms' weights, the regions and
/// the tables (one table a line).
fn c_pattern_arrays(patterns: &PatternWeights) -> String {
    let mut out = String::new();
    let regions = patterns.tables.regions();
    let _ = writeln!(
        out,
        "\n/* The pattern evaluator (docs/features.md): its classic terms, then its regions\n \
         * (squares from the owner's view) and their tables, region after region, indexed by\n \
         * CHECKERS_REGION_OFFSETS[r] + the region's index. */\n\
         #define CHECKERS_PATTERNS 1\n#define CHECKERS_CLASSIC_COUNT {CLASSIC_COUNT}\n\
         #define CHECKERS_REGION_COUNT {}",
        regions.len()
    );
    let king_regions = regions.iter().filter(|r| r.reads_kings()).count();
    let rank_regions = regions
        .iter()
        .filter(|r| r.kind() == RegionKind::Ranks)
        .count();
    if king_regions > 0 {
        let which = if rank_regions == 0 {
            "/* The last CHECKERS_KING_REGION_COUNT regions read kings, not men. */"
        } else {
            "/* The CHECKERS_KING_REGION_COUNT regions before the rank regions read kings, not\n \
             * men. */"
        };
        let _ = writeln!(
            out,
            "{which}\n#define CHECKERS_KING_REGION_COUNT {king_regions}"
        );
    }
    if rank_regions > 0 {
        let _ = writeln!(
            out,
            "/* The last CHECKERS_RANK_REGION_COUNT regions are rank regions: their index reads\n \
             * the side's own men alone, a binary digit a square. */\n\
             #define CHECKERS_RANK_REGION_COUNT {rank_regions}"
        );
    }
    out.push_str("enum checkers_classic_term {\n");
    for (i, name) in CLASSIC_NAMES.iter().enumerate() {
        let sep = if i + 1 < CLASSIC_COUNT { "," } else { "" };
        let _ = writeln!(out, "    CHECKERS_{} = {i}{sep}", name.to_ascii_uppercase());
    }
    out.push_str("};\n");
    for (set, w) in [
        ("OPENING", &patterns.classic_opening),
        ("ENDGAME", &patterns.classic_endgame),
    ] {
        let values: Vec<String> = w.iter().map(|&v| c_int(v)).collect();
        let _ = writeln!(
            out,
            "static const int CHECKERS_{set}_CLASSIC[{CLASSIC_COUNT}] = {{{}}};",
            values.join(", ")
        );
    }
    if patterns.has_exchange() {
        let _ = writeln!(
            out,
            "/* The exchange term's weights, on a full board and on an empty one. */\n\
             #define CHECKERS_EXCHANGE_SCALE {EXCHANGE_SCALE}\n\
             static const int CHECKERS_EXCHANGE[2] = {{{}, {}}};",
            c_int(patterns.exchange[0]),
            c_int(patterns.exchange[1])
        );
    }
    let sizes: Vec<String> = regions
        .iter()
        .map(|r| r.squares().len().to_string())
        .collect();
    let _ = writeln!(
        out,
        "static const int CHECKERS_REGION_SIZES[{}] = {{{}}};",
        regions.len(),
        sizes.join(", ")
    );
    // Rows as long as the longest region (a rank region has up to 16 squares), and never
    // shorter than a men region's most, so that a header without rank regions stays the same.
    let width = regions
        .iter()
        .map(|r| r.squares().len())
        .fold(MAX_REGION_SQUARES, usize::max);
    let squares: Vec<String> = regions
        .iter()
        .map(|r| {
            let mut list: Vec<String> = r.squares().iter().map(|s| s.to_string()).collect();
            list.resize(width, "0".to_string());
            format!("{{{}}}", list.join(", "))
        })
        .collect();
    let _ = writeln!(
        out,
        "static const int CHECKERS_REGION_SQUARES[{}][{width}] = {{{}}};",
        regions.len(),
        squares.join(", ")
    );
    let offsets: Vec<String> = (0..regions.len())
        .map(|r| patterns.tables.offset(r).to_string())
        .collect();
    let _ = writeln!(
        out,
        "static const int CHECKERS_REGION_OFFSETS[{}] = {{{}}};",
        regions.len(),
        offsets.join(", ")
    );
    for (phase, set) in ["OPENING", "ENDGAME"].into_iter().enumerate() {
        let _ = writeln!(
            out,
            "static const int CHECKERS_{set}_TABLES[{}] = {{",
            patterns.tables.len()
        );
        for r in 0..regions.len() {
            let values: Vec<String> = patterns
                .tables
                .table(r, phase)
                .iter()
                .map(|&v| c_int(v))
                .collect();
            let _ = writeln!(out, "    {},", values.join(", "));
        }
        out.push_str("};\n");
    }
    out
}

/// A C int literal; `i32::MIN` cannot be written as a negated literal of type int.
fn c_int(v: i32) -> String {
    if v == i32::MIN {
        format!("({} - 1)", i32::MIN + 1)
    } else {
        v.to_string()
    }
}

/// Text that can sit inside a `/* */` comment on one line.
fn c_comment_safe(s: &str) -> String {
    s.replace("*/", "* /")
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}
