//! Opening sources: the start position, the ACF 3-move ballot deck, or a file of openings.
