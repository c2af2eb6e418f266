//! SPSA's gain sequences, in the form the chess tuning frameworks use: each key is given its
//! perturbation `c` and learning rate `r` at the end of the run, and both are larger before.

use super::settings::{SpsaConfig, TunedParam};

/// The decay of the gains over a run of `iterations` pairs (Spall's α, γ and A).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    iterations: f64,
    alpha: f64,
    gamma: f64,
    stability: f64,
}

impl Schedule {
    /// The schedule of `config`.
    pub fn new(config: &SpsaConfig) -> Schedule {
        let iterations = config.iterations as f64;
        Schedule {
            iterations,
            alpha: config.alpha,
            gamma: config.gamma,
            stability: config.stability * iterations,
        }
    }

    /// The perturbation at iteration `k` (1-based): `c_k = c · (N / k)^γ`, so `c` at the end.
    pub fn c(&self, p: &TunedParam, k: u64) -> f64 {
        p.c * (self.iterations / k as f64).powf(self.gamma)
    }

    /// How far a pair won outright (one win, one draw) moves a key at iteration `k`:
    /// `R_k · c_k` with `R_k = a_k / c_k²`, `a_k = a / (A + k)^α` and `a = r · c² · (A + N)^α`,
    /// so `r · c` at the end.
    pub fn step(&self, p: &TunedParam, k: u64) -> f64 {
        let a_end = p.r * p.c * p.c;
        let a = a_end * (self.stability + self.iterations).powf(self.alpha);
        let a_k = a / (self.stability + k as f64).powf(self.alpha);
        a_k / self.c(p, k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(iterations: f64) -> Schedule {
        Schedule {
            iterations,
            alpha: 0.602,
            gamma: 0.101,
            stability: 0.1 * iterations,
        }
    }

    const PARAM: TunedParam = TunedParam {
        start: None,
        min: 0,
        max: 100,
        c: 4.0,
        r: 0.01,
    };

    #[test]
    fn the_gains_end_at_the_configured_values() {
        let s = schedule(1000.0);
        assert!((s.c(&PARAM, 1000) - 4.0).abs() < 1e-12);
        assert!((s.step(&PARAM, 1000) - 0.04).abs() < 1e-12);
    }

    #[test]
    fn the_gains_shrink_as_the_run_goes_on() {
        let s = schedule(1000.0);
        assert!(s.c(&PARAM, 1) > s.c(&PARAM, 500));
        assert!(s.step(&PARAM, 1) > s.step(&PARAM, 500));
        // c at the start: N^γ times the end's.
        assert!((s.c(&PARAM, 1) - 4.0 * 1000f64.powf(0.101)).abs() < 1e-9);
    }
}
