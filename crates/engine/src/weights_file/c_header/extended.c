
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
