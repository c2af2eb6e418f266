    {
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
