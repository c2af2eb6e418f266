//! Weights for other engines: one small exporter per format; the readers' counterparts live with
//! [`WeightsFile`], and the choice of a specimen from a finished run folder in `ranked.rs`.

use std::fmt::Write as _;
use std::path::Path;
use std::str::FromStr;

use checkers_engine::error::{Error, Result};
use checkers_engine::eval::{
    extra_names, EvaluatorKind, PatternWeights, RegionKind, WeightPair, Weights, CLASSIC_COUNT,
    CLASSIC_NAMES, EXCHANGE_SCALE, FEATURE_COUNT, FEATURE_NAMES, MAX_REGION_SQUARES, PERSPECTIVE,
    TERM_COUNT, TERM_NAMES,
};
use checkers_engine::game::{SearchParams, SearchValue};
use checkers_engine::weights_file::{WeightsFile, WeightsSource};

/// Turns a weights file into the text of one output format.
pub trait Exporter {
    /// The complete file text, ending with a newline.
    fn render(&self, file: &WeightsFile) -> String;
}

/// The weights-file JSON of docs/run-folder.md (the same text as [`WeightsFile::to_json`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct JsonExporter;

/// `set,feature,weight` rows, opening set first. Carries the weights only.
#[derive(Clone, Copy, Debug, Default)]
pub struct CsvExporter;

/// A readable TOML file: `[opening]` and `[endgame]` tables keyed by feature name, and the
/// weights file's `[search]` table when it has one.
#[derive(Clone, Copy, Debug, Default)]
pub struct TomlExporter;

/// A C header with the two weight arrays, a comment block defining the evaluation, and a plain
/// reference implementation of the features, the phase switch and the evaluation; a weights
/// file's `search` table becomes `#define CHECKERS_SEARCH_<KEY>` lines.
#[derive(Clone, Copy, Debug, Default)]
pub struct CHeaderExporter;

/// `name, value` lines, one per weight (`opening_pawns, 100`): the form in which OpenBench's
/// SPSA tuner reports and reads back integer parameters.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpenBenchExporter;

impl Exporter for OpenBenchExporter {
    fn render(&self, file: &WeightsFile) -> String {
        let mut out = String::new();
        for (set, w) in sets(&file.weights) {
            for (name, value) in w.named() {
                let _ = writeln!(out, "{set}_{name}, {value}");
            }
        }
        for (set, name, value) in extra_rows(file) {
            let _ = writeln!(out, "{set}_{name}, {value}");
        }
        out
    }
}

/// The extended weights of `file` as (set, name, weight), opening set first; none for `ten`.
fn extra_rows(file: &WeightsFile) -> Vec<(&'static str, String, i32)> {
    let Some(extra) = &file.extra else {
        return Vec::new();
    };
    let names = extra_names();
    [("opening", &extra.opening), ("endgame", &extra.endgame)]
        .into_iter()
        .flat_map(|(set, w)| {
            names
                .iter()
                .zip(w.to_vec())
                .map(move |(name, value)| (set, name.clone(), value))
        })
        .collect()
}

/// The C header's reference evaluation: square-by-square code that follows docs/features.md
/// definitions (not the engine's bit tricks), so that another engine can check its own port.
const C_REFERENCE_EVALUATION: &str = r#"
/*
 * Reference evaluation: the ten features, the phase switch and the evaluation exactly as
 * checkers-tuner computes them, written plainly (square by square) rather than fast.
 * A position is three 32-bit masks in which bit s-1 stands for square s: Black's pieces,
 * White's pieces, and the kings among them.
 */
#include <stdint.h>

#define CHECKERS_BIT(s) ((uint32_t)1 << ((s) - 1))

/* Row 0..7 of square s (squares 1-4 are row 0, Black's back row). */
static inline int checkers_row(int s) { return (s - 1) / 4; }

/* Column 0..7 of square s: even rows start one column to the right. */
static inline int checkers_col(int s) {
    return 2 * ((s - 1) % 4) + (checkers_row(s) % 2 == 0 ? 1 : 0);
}

/* The square at row r, column c; 0 off the board or on a light square. */
static inline int checkers_square_at(int r, int c) {
    if (r < 0 || r > 7 || c < 0 || c > 7 || (r % 2 == 0) != (c % 2 == 1)) {
        return 0;
    }
    return r * 4 + c / 2 + 1;
}

/* The ten feature counts of one side (is_black 1: Black, 0: White) into f. */
static inline void checkers_features(uint32_t black, uint32_t white, uint32_t kings,
                                     int is_black, int f[CHECKERS_FEATURE_COUNT]) {
    const uint32_t own = is_black ? black : white;
    const uint32_t enemy = is_black ? white : black;
    const uint32_t occupied = black | white;
    const int forward = is_black ? 1 : -1;
    const int crowning_row = is_black ? 7 : 0;
    int i, s, dr, dc;
    for (i = 0; i < CHECKERS_FEATURE_COUNT; i++) {
        f[i] = 0;
    }
    for (s = 1; s <= 32; s++) {
        const int r = checkers_row(s), c = checkers_col(s);
        int king, edge;
        if (r == crowning_row && !(occupied & CHECKERS_BIT(s))) {
            f[CHECKERS_OPEN_PROMOTION]++;
        }
        if (!(own & CHECKERS_BIT(s))) {
            continue;
        }
        king = (kings & CHECKERS_BIT(s)) != 0;
        edge = r == 0 || r == 7 || c == 0 || c == 7;
        if (king) {
            f[CHECKERS_KINGS]++;
            f[CHECKERS_SAFE_KINGS] += edge;
        } else {
            f[CHECKERS_PAWNS]++;
            f[CHECKERS_SAFE_PAWNS] += edge;
            f[CHECKERS_PROMOTION_DISTANCE] += is_black ? 7 - r : r;
        }
        f[CHECKERS_DEFENDERS] += is_black ? r <= 1 : r >= 6;
        f[CHECKERS_ATTACKERS] += is_black ? r >= 5 : r <= 2;
        for (dr = -1; dr <= 1; dr += 2) {
            if (!king && dr != forward) {
                continue;
            }
            for (dc = -1; dc <= 1; dc += 2) {
                const int to = checkers_square_at(r + dr, c + dc);
                if (!to) {
                    continue;
                }
                if (!(occupied & CHECKERS_BIT(to))) {
                    f[CHECKERS_MOBILITY]++;
                } else if (enemy & CHECKERS_BIT(to)) {
                    const int land = checkers_square_at(r + 2 * dr, c + 2 * dc);
                    if (land && !(occupied & CHECKERS_BIT(land))) {
                        f[CHECKERS_JUMPS]++;
                    }
                }
            }
        }
    }
}

/* The weight set for a game position: the endgame set from CHECKERS_ENDGAME_PIECES pieces
 * (both colours) down. Chosen once per search, at the root. */
static inline const int *checkers_phase_weights(uint32_t black, uint32_t white) {
    uint32_t all = black | white;
    int pieces = 0;
    for (; all; all &= all - 1) {
        pieces++;
    }
    return pieces <= CHECKERS_ENDGAME_PIECES ? CHECKERS_ENDGAME_WEIGHTS : CHECKERS_OPENING_WEIGHTS;
}

/* sum_i w_i * (f_i(us) - f_i(them)), us = the side to move (white_to_move 0 or 1). */
static inline int checkers_evaluate(uint32_t black, uint32_t white, uint32_t kings,
                                    int white_to_move, const int w[CHECKERS_FEATURE_COUNT]) {
    int us[CHECKERS_FEATURE_COUNT], them[CHECKERS_FEATURE_COUNT];
    int i, total = 0;
    checkers_features(black, white, kings, !white_to_move, us);
    checkers_features(black, white, kings, white_to_move, them);
    for (i = 0; i < CHECKERS_FEATURE_COUNT; i++) {
        total += w[i] * (us[i] - them[i]);
    }
    return total;
}
"#;

/// The C header's reference of the extended evaluator (docs/features.md), appended after
/// [`C_REFERENCE_EVALUATION`] when the weights are extended.
const C_EXTENDED_EVALUATION: &str = r#"
/*
 * Reference of the extended evaluator: the ten features above, the classic terms and the
 * piece-square tables, opening and endgame values tapered by the number of pieces. Every term
 * is counted from its owner's view: a White piece on square s counts as a Black one on 33 - s.
 */

/* Square s as its owner sees it (Black: s, White: 33 - s). */
static inline int checkers_view(int s, int is_black) { return is_black ? s : 33 - s; }

/* The classic terms of one side (is_black 1: Black, 0: White) into t. */
static inline void checkers_terms(uint32_t black, uint32_t white, uint32_t kings,
                                  int is_black, int t[CHECKERS_TERM_COUNT]) {
    const uint32_t own = is_black ? black : white;
    const uint32_t occupied = black | white;
    int s, d;
    const int bridge_a = checkers_view(1, is_black), bridge_b = checkers_view(3, is_black);
    /* Bridge: no king on the board and own men on its back-row squares 1 and 3. */
    t[CHECKERS_BRIDGE] = kings == 0 && (own & CHECKERS_BIT(bridge_a)) &&
                         (own & CHECKERS_BIT(bridge_b));
    /* Exposure: own pieces with both ends of one of their diagonals empty squares. */
    t[CHECKERS_EXPOSURE] = 0;
    for (s = 1; s <= 32; s++) {
        const int r = checkers_row(s), c = checkers_col(s);
        int exposed = 0;
        if (!(own & CHECKERS_BIT(s))) {
            continue;
        }
        for (d = -1; d <= 1; d += 2) {
            const int a = checkers_square_at(r + 1, c + d), b = checkers_square_at(r - 1, c - d);
            if (a && b && !(occupied & CHECKERS_BIT(a)) && !(occupied & CHECKERS_BIT(b))) {
                exposed = 1;
            }
        }
        t[CHECKERS_EXPOSURE] += exposed;
    }
}

/* One phase's value of one side's pieces in the tables. */
static inline int checkers_tables(uint32_t pieces, uint32_t kings, int is_black,
                                  const int *men, const int *kings_table) {
    int s, total = 0;
    for (s = 1; s <= 32; s++) {
        if (pieces & CHECKERS_BIT(s)) {
            const int v = checkers_view(s, is_black);
            total += (kings & CHECKERS_BIT(s)) ? kings_table[v - 1] : men[v - 1];
        }
    }
    return total;
}

/* The pieces on the board, at most 24 (the taper's share of the opening values). */
static inline int checkers_taper_pieces(uint32_t black, uint32_t white) {
    uint32_t all = black | white;
    int pieces = 0;
    for (; all; all &= all - 1) {
        pieces++;
    }
    return pieces > 24 ? 24 : pieces;
}

/* The extended evaluation's opening and endgame values for the side to move (white_to_move 0
 * or 1), before the taper: each phase is sum w_i * (f_i(us) - f_i(them))
 * + sum t_j * (term_j(us) - term_j(them)) + tables(us) - tables(them). */
static inline void checkers_extended_phases(uint32_t black, uint32_t white, uint32_t kings,
                                            int white_to_move, int *opening_out,
                                            int *endgame_out) {
    int us[CHECKERS_FEATURE_COUNT], them[CHECKERS_FEATURE_COUNT];
    int tu[CHECKERS_TERM_COUNT], tt[CHECKERS_TERM_COUNT];
    const int black_moves = !white_to_move;
    const uint32_t own = black_moves ? black : white, enemy = black_moves ? white : black;
    int i, opening = 0, endgame = 0;
    checkers_features(black, white, kings, black_moves, us);
    checkers_features(black, white, kings, !black_moves, them);
    checkers_terms(black, white, kings, black_moves, tu);
    checkers_terms(black, white, kings, !black_moves, tt);
    for (i = 0; i < CHECKERS_FEATURE_COUNT; i++) {
        opening += CHECKERS_OPENING_WEIGHTS[i] * (us[i] - them[i]);
        endgame += CHECKERS_ENDGAME_WEIGHTS[i] * (us[i] - them[i]);
    }
    for (i = 0; i < CHECKERS_TERM_COUNT; i++) {
        opening += CHECKERS_OPENING_TERMS[i] * (tu[i] - tt[i]);
        endgame += CHECKERS_ENDGAME_TERMS[i] * (tu[i] - tt[i]);
    }
    opening += checkers_tables(own, kings, black_moves, CHECKERS_OPENING_MEN, CHECKERS_OPENING_KINGS)
             - checkers_tables(enemy, kings, !black_moves, CHECKERS_OPENING_MEN, CHECKERS_OPENING_KINGS);
    endgame += checkers_tables(own, kings, black_moves, CHECKERS_ENDGAME_MEN, CHECKERS_ENDGAME_KINGS)
             - checkers_tables(enemy, kings, !black_moves, CHECKERS_ENDGAME_MEN, CHECKERS_ENDGAME_KINGS);
    *opening_out = opening;
    *endgame_out = endgame;
}

/* The extended evaluation for the side to move (white_to_move 0 or 1):
 * (opening * p + endgame * (24 - p)) / 24 with p the pieces on the board (at most 24).
 * Integer division truncates towards zero, as in C99. */
static inline int checkers_evaluate_extended(uint32_t black, uint32_t white, uint32_t kings,
                                             int white_to_move) {
    int opening, endgame;
    const int pieces = checkers_taper_pieces(black, white);
    checkers_extended_phases(black, white, kings, white_to_move, &opening, &endgame);
    return (opening * pieces + endgame * (24 - pieces)) / 24;
}
"#;

/// The C header's reference of the pattern evaluator (docs/features.md), appended after the
/// extended evaluator's when the weights have tables: this region index, or
/// [`C_PATTERN_INDEX_WITH_RANKS`] when there are rank regions, then [`C_PATTERN_SUMS`]. (Split so
/// that a header without rank regions is the text it always was.)
const C_PATTERN_INDEX: &str = r#"
/*
 * Reference of the pattern evaluator: the extended evaluator, the classic terms and the
 * region tables, opening and endgame values tapered by the number of pieces. A region's index
 * from a side's view is sum d_k * 3^k over its squares q_k (that side's view), d_k being 1 for
 * the side's own man, 2 for the opponent's man, 0 for an empty square or a king (in a king
 * region: 1 for its own king, 2 for the opponent's, 0 for an empty square or a man).
 */

#ifndef CHECKERS_KING_REGION_COUNT
#define CHECKERS_KING_REGION_COUNT 0
#endif

/* A side's index of region r (is_black 1: Black's view, 0: White's). The last
 * CHECKERS_KING_REGION_COUNT regions read kings as the others read men. */
static inline int checkers_region_index(uint32_t black, uint32_t white, uint32_t kings, int r,
                                        int is_black) {
    const uint32_t pieces = r >= CHECKERS_REGION_COUNT - CHECKERS_KING_REGION_COUNT ? kings : ~kings;
    const uint32_t own = (is_black ? black : white) & pieces;
    const uint32_t enemy = (is_black ? white : black) & pieces;
    int k, index = 0, power = 1;
    for (k = 0; k < CHECKERS_REGION_SIZES[r]; k++) {
        const int s = checkers_view(CHECKERS_REGION_SQUARES[r][k], is_black);
        if (own & CHECKERS_BIT(s)) {
            index += power;
        } else if (enemy & CHECKERS_BIT(s)) {
            index += 2 * power;
        }
        power *= 3;
    }
    return index;
}
"#;

/// [`C_PATTERN_INDEX`] for tables with rank regions (the last CHECKERS_RANK_REGION_COUNT
/// regions, after the king regions): their index has a binary digit a square, the own men's.
const C_PATTERN_INDEX_WITH_RANKS: &str = r#"
/*
 * Reference of the pattern evaluator: the extended evaluator, the classic terms and the
 * region tables, opening and endgame values tapered by the number of pieces. A region's index
 * from a side's view is sum d_k * 3^k over its squares q_k (that side's view), d_k being 1 for
 * the side's own man, 2 for the opponent's man, 0 for an empty square or a king (in a king
 * region: 1 for its own king, 2 for the opponent's, 0 for an empty square or a man). A rank
 * region's index is sum b_k * 2^k, b_k being 1 for the side's own man on q_k and 0 otherwise
 * (the opponent's pieces and the side's kings count as empty squares).
 */

#ifndef CHECKERS_KING_REGION_COUNT
#define CHECKERS_KING_REGION_COUNT 0
#endif

/* A side's index of region r (is_black 1: Black's view, 0: White's). The last
 * CHECKERS_RANK_REGION_COUNT regions are rank regions; the CHECKERS_KING_REGION_COUNT regions
 * before them read kings as the others read men. */
static inline int checkers_region_index(uint32_t black, uint32_t white, uint32_t kings, int r,
                                        int is_black) {
    const int ranks_from = CHECKERS_REGION_COUNT - CHECKERS_RANK_REGION_COUNT;
    const int rank = r >= ranks_from;
    const uint32_t pieces = !rank && r >= ranks_from - CHECKERS_KING_REGION_COUNT ? kings : ~kings;
    const uint32_t own = (is_black ? black : white) & pieces;
    const uint32_t enemy = rank ? 0 : (is_black ? white : black) & pieces;
    const int base = rank ? 2 : 3;
    int k, index = 0, power = 1;
    for (k = 0; k < CHECKERS_REGION_SIZES[r]; k++) {
        const int s = checkers_view(CHECKERS_REGION_SQUARES[r][k], is_black);
        if (own & CHECKERS_BIT(s)) {
            index += power;
        } else if (enemy & CHECKERS_BIT(s)) {
            index += 2 * power;
        }
        power *= base;
    }
    return index;
}
"#;

/// The rest of the C header's reference of the pattern evaluator, after the region index: the
/// classic terms and the evaluation up to them (then [`C_PATTERN_EXCHANGE`] when the weights
/// have it, and [`C_PATTERN_TABLES`]).
const C_PATTERN_SUMS: &str = r#"
/* The classic terms' inputs for the side to move (docs/features.md): corner kings own minus
 * opponent's, the move +1/-1 (0 with unequal numbers of pieces). */
static inline void checkers_classic(uint32_t black, uint32_t white, uint32_t kings,
                                    int white_to_move, int c[CHECKERS_CLASSIC_COUNT]) {
    const int black_moves = !white_to_move;
    const uint32_t own = black_moves ? black : white, enemy = black_moves ? white : black;
    int s, own_count = 0, enemy_count = 0, system = 0;
    for (s = 1; s <= 32; s++) {
        own_count += (own & CHECKERS_BIT(s)) != 0;
        enemy_count += (enemy & CHECKERS_BIT(s)) != 0;
    }
    c[CHECKERS_CORNER_KINGS] = 0;
    for (s = 1; s <= 32; s++) {
        const int v = checkers_view(s, black_moves);
        /* The double corners 4, 8, 25 and 29 are the same squares in either side's view. */
        const int corner = v == 4 || v == 8 || v == 25 || v == 29;
        if ((kings & CHECKERS_BIT(s)) && corner) {
            c[CHECKERS_CORNER_KINGS] += (own & CHECKERS_BIT(s)) && own_count < enemy_count;
            c[CHECKERS_CORNER_KINGS] -= (enemy & CHECKERS_BIT(s)) && enemy_count < own_count;
        }
        if (((own | enemy) & CHECKERS_BIT(s)) && checkers_row(v) % 2 == 0) {
            system++;
        }
    }
    c[CHECKERS_THE_MOVE] = own_count != enemy_count ? 0 : (system % 2 ? 1 : -1);
}

/* The pattern evaluation for the side to move (white_to_move 0 or 1): each phase is the
 * extended evaluator's, plus sum w_j * classic_j, plus the side to move's region entries
 * minus the opponent's; then (opening * p + endgame * (24 - p)) / 24 as for the extended
 * evaluator. */
static inline int checkers_evaluate_patterns(uint32_t black, uint32_t white, uint32_t kings,
                                             int white_to_move) {
    int opening, endgame, c[CHECKERS_CLASSIC_COUNT], i, r;
    const int black_moves = !white_to_move;
    const int pieces = checkers_taper_pieces(black, white);
    checkers_extended_phases(black, white, kings, white_to_move, &opening, &endgame);
    checkers_classic(black, white, kings, white_to_move, c);
    for (i = 0; i < CHECKERS_CLASSIC_COUNT; i++) {
        opening += CHECKERS_OPENING_CLASSIC[i] * c[i];
        endgame += CHECKERS_ENDGAME_CLASSIC[i] * c[i];
    }
"#;

/// The `exchange` term inside `checkers_evaluate_patterns`, between [`C_PATTERN_SUMS`] and
/// [`C_PATTERN_TABLES`], in a header whose weights have it (one without stays as it was).
const C_PATTERN_EXCHANGE: &str = r#"    {
        /* The exchange term (docs/features.md): its weight times 24 (own pieces - the
         * opponent's) over all pieces, for the side to move, truncated toward zero. */
        uint32_t own = black_moves ? black : white;
        int own_count = 0, lead;
        for (; own; own &= own - 1) {
            own_count++;
        }
        lead = CHECKERS_EXCHANGE_SCALE * (2 * own_count - pieces);
        if (lead != 0) {
            opening += CHECKERS_EXCHANGE[0] * lead / pieces;
            endgame += CHECKERS_EXCHANGE[1] * lead / pieces;
        }
    }
"#;

/// The end of `checkers_evaluate_patterns`: the region tables and the taper.
const C_PATTERN_TABLES: &str = r#"    for (r = 0; r < CHECKERS_REGION_COUNT; r++) {
        const int ours = CHECKERS_REGION_OFFSETS[r] +
                         checkers_region_index(black, white, kings, r, black_moves);
        const int theirs = CHECKERS_REGION_OFFSETS[r] +
                           checkers_region_index(black, white, kings, r, !black_moves);
        opening += CHECKERS_OPENING_TABLES[ours] - CHECKERS_OPENING_TABLES[theirs];
        endgame += CHECKERS_ENDGAME_TABLES[ours] - CHECKERS_ENDGAME_TABLES[theirs];
    }
    return (opening * pieces + endgame * (24 - pieces)) / 24;
}
"#;

impl Exporter for JsonExporter {
    fn render(&self, file: &WeightsFile) -> String {
        file.to_json()
    }
}

impl Exporter for CsvExporter {
    fn render(&self, file: &WeightsFile) -> String {
        let mut out = String::from("set,feature,weight\n");
        for (set, w) in sets(&file.weights) {
            for (name, value) in w.named() {
                let _ = writeln!(out, "{set},{name},{value}");
            }
        }
        for (set, name, value) in extra_rows(file) {
            let _ = writeln!(out, "{set},{name},{value}");
        }
        out
    }
}

impl Exporter for TomlExporter {
    fn render(&self, file: &WeightsFile) -> String {
        let mut out = String::new();
        out.push_str("# English-checkers evaluation weights (checkers-tuner).\n");
        out.push_str("# eval = sum over features of weight * (own count - opponent count),\n");
        out.push_str("# from the side to move; the endgame set applies from `endgame_pieces`\n");
        out.push_str("# pieces left on the board (both colours) down.\n");
        if file.patterns.is_some() {
            out.push_str(
                "# The pattern evaluator: the extended evaluator's weights, its classic terms\n",
            );
            out.push_str(
                "# and the region tables (docs/features.md), opening and endgame values tapered\n",
            );
            out.push_str("# by the pieces on the board; `endgame_pieces` does not apply.\n");
            out.push_str("evaluator = \"patterns\"\n");
        } else if file.extra.is_some() {
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
        let _ = writeln!(out, "endgame_pieces = {}", file.endgame_pieces);
        if let Some(n) = file.database_pieces {
            out.push_str("# The endgame database the weights were tuned with (pieces; 0: none).\n");
            let _ = writeln!(out, "database_pieces = {n}");
        }
        let _ = writeln!(out, "perspective = {}", toml_str(PERSPECTIVE));
        if let Some(extra) = &file.extra {
            let names: Vec<String> = TERM_NAMES.iter().map(|n| toml_str(n)).collect();
            let _ = writeln!(out, "terms = [{}]", names.join(", "));
            for list in 0..3 {
                for (set, w) in [("opening", &extra.opening), ("endgame", &extra.endgame)] {
                    let (suffix, weights) = w.lists()[list];
                    let values: Vec<String> = weights.iter().map(i32::to_string).collect();
                    let _ = writeln!(out, "{set}_{suffix} = [{}]", values.join(", "));
                }
            }
        }
        if let Some(patterns) = &file.patterns {
            out.push_str(&toml_pattern_lines(patterns));
        }
        for (set, w) in sets(&file.weights) {
            let _ = writeln!(out, "\n[{set}]");
            for (name, value) in w.named() {
                let _ = writeln!(out, "{name} = {value}");
            }
        }
        if let Some(params) = &file.search {
            out.push_str(
                "\n# How the weights want to be searched: the keys of a config's [search]\n\
                 # (docs/engine.md); a key left out has its default.\n[search]\n",
            );
            for (key, value) in params.changed_entries() {
                let _ = writeln!(out, "{key} = {value}");
            }
        }
        match &file.source {
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

/// The TOML keys of the pattern evaluator's further weights (top level, before the tables of
/// the ten features): classic terms, regions, and each phase's tables, a table a line.
fn toml_pattern_lines(patterns: &PatternWeights) -> String {
    let list = |values: &[i32]| {
        let items: Vec<String> = values.iter().map(i32::to_string).collect();
        format!("[{}]", items.join(", "))
    };
    let mut out = String::new();
    let names: Vec<String> = CLASSIC_NAMES.iter().map(|n| toml_str(n)).collect();
    let _ = writeln!(out, "classic = [{}]", names.join(", "));
    let _ = writeln!(out, "opening_classic = {}", list(&patterns.classic_opening));
    let _ = writeln!(out, "endgame_classic = {}", list(&patterns.classic_endgame));
    if patterns.has_exchange() {
        let _ = writeln!(out, "exchange = {}", list(&patterns.exchange));
    }
    let squares = |kind: RegionKind| -> Vec<String> {
        patterns
            .tables
            .region_squares(kind)
            .iter()
            .map(|r| list(r))
            .collect()
    };
    let _ = writeln!(out, "regions = [{}]", squares(RegionKind::Men).join(", "));
    if patterns.tables.has_king_regions() {
        let _ = writeln!(
            out,
            "king_regions = [{}]",
            squares(RegionKind::Kings).join(", ")
        );
    }
    if patterns.tables.has_rank_regions() {
        let _ = writeln!(
            out,
            "rank_regions = [{}]",
            squares(RegionKind::Ranks).join(", ")
        );
    }
    for (phase, set) in ["opening", "endgame"].into_iter().enumerate() {
        let tables: Vec<String> = (0..patterns.tables.regions().len())
            .map(|r| format!("  {},", list(&patterns.tables.table(r, phase))))
            .collect();
        let _ = writeln!(out, "{set}_tables = [\n{}\n]", tables.join("\n"));
    }
    out
}

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

impl Exporter for CHeaderExporter {
    fn render(&self, file: &WeightsFile) -> String {
        let guard = "CHECKERS_TUNER_WEIGHTS_H";
        let mut out = String::new();
        out.push_str("/*\n * English-checkers evaluation weights, exported by checkers-tuner.\n");
        match &file.source {
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
            file.endgame_pieces
        );
        if let Some(params) = &file.search {
            out.push_str(&c_search_defines(params));
        }
        out.push_str("/* Indices into the weight arrays. */\nenum checkers_feature {\n");
        for (i, name) in FEATURE_NAMES.iter().enumerate() {
            let sep = if i + 1 < FEATURE_COUNT { "," } else { "" };
            let _ = writeln!(out, "    CHECKERS_{} = {i}{sep}", name.to_ascii_uppercase());
        }
        out.push_str("};\n");
        let arrays = [
            ("CHECKERS_OPENING_WEIGHTS", &file.weights.opening),
            ("CHECKERS_ENDGAME_WEIGHTS", &file.weights.endgame),
        ];
        for (array, w) in arrays {
            let _ = writeln!(out, "\nstatic const int {array}[{FEATURE_COUNT}] = {{");
            for (i, (name, value)) in w.named().enumerate() {
                let sep = if i + 1 < FEATURE_COUNT { "," } else { "" };
                let _ = writeln!(out, "    {}{sep} /* {name} */", c_int(value));
            }
            out.push_str("};\n");
        }
        if let Some(extra) = &file.extra {
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
        if let Some(patterns) = &file.patterns {
            out.push_str(&c_pattern_arrays(patterns));
        }
        out.push_str(C_REFERENCE_EVALUATION);
        if file.extra.is_some() {
            out.push_str(C_EXTENDED_EVALUATION);
        }
        if let Some(patterns) = &file.patterns {
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

/// The output formats of `export --format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExportFormat {
    /// The weights-file JSON (docs/run-folder.md, the weights file).
    Json,
    /// `set,feature,weight` CSV.
    Csv,
    /// Readable TOML.
    Toml,
    /// A C header.
    C,
    /// OpenBench / SPSA `name, value` lines.
    OpenBench,
}

impl ExportFormat {
    /// Whether the format can carry `file`'s weights: every format carries the ten features'
    /// and the extended evaluator's; the pattern evaluator's tables (tens of thousands of
    /// entries with their regions) only JSON, TOML and C. And whether the weights are ones the
    /// engine plays ([`WeightsFile::check_playable`], the gate of `analyse` and `match`): a
    /// file no command would play is not exported (the C reference would overflow).
    pub fn check(self, file: &WeightsFile) -> Result<()> {
        self.check_evaluator(file.evaluator())?;
        file.check_playable("(to export)")
    }

    /// [`ExportFormat::check`] for weights of `evaluator`, before there are any.
    pub fn check_evaluator(self, evaluator: EvaluatorKind) -> Result<()> {
        match (self, evaluator) {
            (ExportFormat::Csv | ExportFormat::OpenBench, EvaluatorKind::Patterns) => {
                Err(Error::input(format!(
                    "--format {}: the pattern evaluator's weights (its regions and their tables) \
                 are written as json, toml or c; {} carries the ten features' and the extended \
                 evaluator's only",
                    self.name(),
                    self.name()
                )))
            }
            _ => Ok(()),
        }
    }

    /// Every format, in the order the command line lists them.
    pub const ALL: [ExportFormat; 5] = [
        ExportFormat::Json,
        ExportFormat::Csv,
        ExportFormat::Toml,
        ExportFormat::C,
        ExportFormat::OpenBench,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::Json => "json",
            ExportFormat::Csv => "csv",
            ExportFormat::Toml => "toml",
            ExportFormat::C => "c",
            ExportFormat::OpenBench => "openbench",
        }
    }

    /// The usual file extension (without the dot) for an output file in this format.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::C => "h",
            ExportFormat::OpenBench => "txt",
            other => other.name(),
        }
    }

    /// The exporter that writes this format.
    pub fn exporter(self) -> Box<dyn Exporter> {
        match self {
            ExportFormat::Json => Box::new(JsonExporter),
            ExportFormat::Csv => Box::new(CsvExporter),
            ExportFormat::Toml => Box::new(TomlExporter),
            ExportFormat::C => Box::new(CHeaderExporter),
            ExportFormat::OpenBench => Box::new(OpenBenchExporter),
        }
    }

    /// The file text of `file` in this format.
    pub fn render(self, file: &WeightsFile) -> String {
        self.exporter().render(file)
    }
}

impl std::fmt::Display for ExportFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for ExportFormat {
    type Err = Error;

    fn from_str(s: &str) -> Result<ExportFormat> {
        let lower = s.trim().to_ascii_lowercase();
        ExportFormat::ALL
            .into_iter()
            .find(|f| f.name() == lower)
            .ok_or_else(|| {
                let names: Vec<&str> = ExportFormat::ALL.iter().map(|f| f.name()).collect();
                Error::Input(format!(
                    "unknown export format `{s}`, expected one of: {}",
                    names.join(", ")
                ))
            })
    }
}

/// Writes `file` in `format` to `out` atomically: the text goes to a temporary file in the same
/// folder, which is then renamed over `out`, so a reader never sees a half-written file.
pub fn export_to_file(file: &WeightsFile, format: ExportFormat, out: &Path) -> Result<()> {
    format.check(file)?;
    write_atomically(out, format.render(file).as_bytes())
}

/// Checks that `out` can be an output file, then writes it atomically.
fn write_atomically(out: &Path, bytes: &[u8]) -> Result<()> {
    checkers_engine::atomic_file::check_output_path(out, "output file")?;
    checkers_engine::atomic_file::write_atomically(out, bytes)
}

/// The `(name, set)` pairs in file order.
fn sets(w: &WeightPair) -> [(&'static str, &Weights); 2] {
    [("opening", &w.opening), ("endgame", &w.endgame)]
}

/// A TOML basic string, escaped by the `toml` crate itself.
fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
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
