
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
