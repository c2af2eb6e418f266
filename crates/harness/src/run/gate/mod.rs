//! The gated champion (`[gate]`, docs/tournament.md#the-gated-champion): a run keeps one
//! champion, and a candidate (each fit, and the round's winner if asked) replaces it only after
//! winning a gating match against it. The champion therefore never gets worse by more than the
//! test's error, whatever the bracket or the playoff crown: `best.json` is always the current
//! champion, every gate is a row of `champions.csv`, and every champion's weights are kept in
//! `champions/round-N.json`, which `export RUN --round N` reads.
//!
//! A gate is a match on random openings of its own (drawn from the gate's seed and the round,
//! never the 3-move deck the final claims are measured on), stopped by a sequential
//! probability ratio test (SPRT) on the pentanomial counts: the candidate is accepted only when
//! the test accepts H1 (it is at least `elo1` stronger) before the openings run out. A
//! candidate no stronger than the champion (`elo0`) is accepted with probability at most
//! `alpha`, one at least `elo1` stronger refused with probability about `beta` (more when the
//! openings run out first: every gate that ends without a verdict refuses).
//!
//! The gate's settings are `settings.rs`; the run playing its gates is `play.rs`; what the run
//! writes of its champions, and checks and cuts on resume, is the run folder's
//! (`run_folder/champions/`).

mod play;
mod settings;

pub use settings::{GateCandidates, GateConfig};
