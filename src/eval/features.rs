//! The ten features of SPEC §2, counted with masks and popcounts.
