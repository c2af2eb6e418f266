    for (r = 0; r < CHECKERS_REGION_COUNT; r++) {
        const int ours = CHECKERS_REGION_OFFSETS[r] +
                         checkers_region_index(black, white, kings, r, black_moves);
        const int theirs = CHECKERS_REGION_OFFSETS[r] +
                           checkers_region_index(black, white, kings, r, !black_moves);
        opening += CHECKERS_OPENING_TABLES[ours] - CHECKERS_OPENING_TABLES[theirs];
        endgame += CHECKERS_ENDGAME_TABLES[ours] - CHECKERS_ENDGAME_TABLES[theirs];
    }
    return (opening * pieces + endgame * (24 - pieces)) / 24;
}
