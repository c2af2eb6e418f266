//! Pictures of a run's round statistics (SVG or PNG).
