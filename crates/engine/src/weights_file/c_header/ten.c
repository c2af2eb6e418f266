
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
