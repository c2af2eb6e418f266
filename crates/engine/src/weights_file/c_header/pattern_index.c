
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
