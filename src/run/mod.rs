//! A tuning run: config, the round loop, output files, checkpoints and progress.
