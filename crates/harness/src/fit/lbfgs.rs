//! A bounded quasi-Newton minimiser: L-BFGS on the variables that are free of their bounds,
//! with a projected backtracking line search (the "projected L-BFGS" simplification of
//! L-BFGS-B).
//!
//! Written here rather than taken from a crate: the tuning problem has a few dozen variables,
//! box constraints and a gradient that must be summed in a fixed order, and the crates that
//! offer L-BFGS-B wrap the Fortran original or leave bounds out. Every step is plain
//! sequential arithmetic on the values the objective returns, so the result is as
//! reproducible as the objective itself.

/// How long the minimiser goes on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LbfgsOptions {
    /// Pairs of (step, gradient change) kept for the curvature estimate.
    pub memory: usize,
    /// Most iterations (gradient evaluations outside the line search).
    pub max_iterations: u32,
    /// Stop when an iteration lowers the objective by less than this fraction of its value.
    pub relative_tolerance: f64,
    /// Largest first step along the steepest descent, in the variables' units: the scale of a
    /// meaningful change when nothing is known of the curvature yet.
    pub first_step: f64,
}

impl Default for LbfgsOptions {
    fn default() -> LbfgsOptions {
        LbfgsOptions {
            memory: 8,
            max_iterations: 300,
            relative_tolerance: 1e-10,
            first_step: 10.0,
        }
    }
}

/// Where the minimiser stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct Minimum {
    /// The point.
    pub x: Vec<f64>,
    /// The objective there.
    pub value: f64,
    /// Iterations made.
    pub iterations: u32,
}

/// Minimises `objective` (which returns the value at `x` and writes the gradient into its
/// second argument) from `start` within `lower[i] <= x[i] <= upper[i]`. A variable whose bounds
/// are equal is fixed. `on_iteration` sees the iteration count and the objective after each
/// iteration.
pub fn minimize(
    mut objective: impl FnMut(&[f64], &mut [f64]) -> f64,
    start: &[f64],
    lower: &[f64],
    upper: &[f64],
    options: LbfgsOptions,
    mut on_iteration: impl FnMut(u32, f64),
) -> Minimum {
    let n = start.len();
    assert!(
        lower.len() == n && upper.len() == n,
        "one bound per variable"
    );
    let project = |x: &mut [f64]| {
        for i in 0..n {
            x[i] = x[i].clamp(lower[i], upper[i].max(lower[i]));
        }
    };
    let mut x = start.to_vec();
    project(&mut x);
    let mut gradient = vec![0.0; n];
    let mut value = objective(&x, &mut gradient);
    let mut history: Vec<(Vec<f64>, Vec<f64>, f64)> = Vec::with_capacity(options.memory);
    let mut iterations = 0;
    let mut trial_gradient = vec![0.0; n];
    while iterations < options.max_iterations {
        // The variables held at a bound by the gradient (or fixed) do not move this iteration.
        let free: Vec<bool> = (0..n)
            .map(|i| {
                let fixed = lower[i] >= upper[i];
                let at_lower = x[i] <= lower[i] && gradient[i] > 0.0;
                let at_upper = x[i] >= upper[i] && gradient[i] < 0.0;
                !(fixed || at_lower || at_upper)
            })
            .collect();
        let masked: Vec<f64> = (0..n)
            .map(|i| if free[i] { gradient[i] } else { 0.0 })
            .collect();
        if masked.iter().all(|&g| g == 0.0) {
            break;
        }
        let mut direction = two_loop(&masked, &history, &free);
        let slope = dot(&direction, &masked);
        if slope >= 0.0 || !slope.is_finite() {
            // The curvature estimate went wrong (bounds changed the problem under it): start
            // it again from steepest descent.
            history.clear();
            direction = masked.iter().map(|g| -g).collect();
        }
        let mut step = if history.is_empty() {
            let largest = direction.iter().fold(0.0f64, |m, d| m.max(d.abs()));
            (options.first_step / largest).min(1.0)
        } else {
            1.0
        };
        // Backtracking along the projected path, with Armijo's sufficient decrease measured on
        // the step actually taken.
        let mut accepted = None;
        for _ in 0..60 {
            let mut trial: Vec<f64> = (0..n).map(|i| x[i] + step * direction[i]).collect();
            project(&mut trial);
            let moved: f64 = (0..n).map(|i| gradient[i] * (trial[i] - x[i])).sum();
            let trial_value = objective(&trial, &mut trial_gradient);
            if trial_value.is_finite() && trial_value <= value + 1e-4 * moved.min(0.0) {
                accepted = Some((trial, trial_value));
                break;
            }
            step *= 0.5;
        }
        let Some((next, next_value)) = accepted else {
            break;
        };
        iterations += 1;
        let s: Vec<f64> = (0..n).map(|i| next[i] - x[i]).collect();
        let y: Vec<f64> = (0..n).map(|i| trial_gradient[i] - gradient[i]).collect();
        let sy = dot(&s, &y);
        if sy > 1e-12 * dot(&y, &y).max(f64::MIN_POSITIVE) {
            if history.len() == options.memory {
                history.remove(0);
            }
            history.push((s, y, 1.0 / sy));
        }
        let decrease = value - next_value;
        x = next;
        value = next_value;
        gradient.copy_from_slice(&trial_gradient);
        on_iteration(iterations, value);
        if decrease <= options.relative_tolerance * value.abs().max(f64::MIN_POSITIVE) {
            break;
        }
    }
    Minimum {
        x,
        value,
        iterations,
    }
}

/// The L-BFGS direction `-H g` from the stored pairs, restricted to the free variables.
fn two_loop(gradient: &[f64], history: &[(Vec<f64>, Vec<f64>, f64)], free: &[bool]) -> Vec<f64> {
    let masked = |v: &[f64]| -> Vec<f64> {
        v.iter()
            .zip(free)
            .map(|(&x, &f)| if f { x } else { 0.0 })
            .collect()
    };
    let mut q = gradient.to_vec();
    let mut alphas = vec![0.0; history.len()];
    for (k, (s, y, rho)) in history.iter().enumerate().rev() {
        let s = masked(s);
        let alpha = rho * dot(&s, &q);
        alphas[k] = alpha;
        for (qi, yi) in q.iter_mut().zip(masked(y)) {
            *qi -= alpha * yi;
        }
    }
    if let Some((s, y, _)) = history.last() {
        let (s, y) = (masked(s), masked(y));
        let yy = dot(&y, &y);
        if yy > 0.0 {
            let gamma = dot(&s, &y) / yy;
            if gamma > 0.0 {
                q.iter_mut().for_each(|qi| *qi *= gamma);
            }
        }
    }
    for (k, (s, y, rho)) in history.iter().enumerate() {
        let y = masked(y);
        let beta = rho * dot(&y, &q);
        for (qi, si) in q.iter_mut().zip(masked(s)) {
            *qi += (alphas[k] - beta) * si;
        }
    }
    q.iter()
        .zip(free)
        .map(|(&qi, &f)| if f { -qi } else { 0.0 })
        .collect()
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(
        objective: impl FnMut(&[f64], &mut [f64]) -> f64,
        start: &[f64],
        lower: &[f64],
        upper: &[f64],
    ) -> Minimum {
        let options = LbfgsOptions {
            max_iterations: 2000,
            relative_tolerance: 1e-15,
            ..LbfgsOptions::default()
        };
        minimize(objective, start, lower, upper, options, |_, _| {})
    }

    /// A badly scaled quadratic with its minimum inside the box is found exactly.
    #[test]
    fn finds_the_minimum_of_a_scaled_quadratic() {
        let centre = [3.0, -20.0, 0.5];
        let scale = [1.0, 0.01, 100.0];
        let found = run(
            |x, g| {
                let mut f = 0.0;
                for i in 0..3 {
                    f += scale[i] * (x[i] - centre[i]).powi(2);
                    g[i] = 2.0 * scale[i] * (x[i] - centre[i]);
                }
                f
            },
            &[0.0; 3],
            &[-100.0; 3],
            &[100.0; 3],
        );
        for (x, c) in found.x.iter().zip(centre) {
            assert!((x - c).abs() < 1e-4, "{:?}", found.x);
        }
    }

    /// A minimum outside the box ends on the bound; a variable with equal bounds never moves.
    #[test]
    fn stops_at_bounds_and_keeps_fixed_variables() {
        let found = run(
            |x, g| {
                g[0] = 2.0 * (x[0] - 10.0);
                g[1] = 2.0 * (x[1] + 3.0);
                g[2] = 2.0 * (x[2] - 7.0);
                (x[0] - 10.0).powi(2) + (x[1] + 3.0).powi(2) + (x[2] - 7.0).powi(2)
            },
            &[0.0, 0.0, 1.0],
            &[-5.0, -1.0, 1.0],
            &[5.0, 5.0, 1.0],
        );
        assert!((found.x[0] - 5.0).abs() < 1e-9, "{:?}", found.x);
        assert!((found.x[1] + 1.0).abs() < 1e-9, "{:?}", found.x);
        assert_eq!(found.x[2], 1.0);
    }

    /// Rosenbrock's valley, the classic test of a quasi-Newton method's curvature estimate.
    #[test]
    fn solves_rosenbrock() {
        let found = run(
            |x, g| {
                let (a, b) = (x[0], x[1]);
                g[0] = -2.0 * (1.0 - a) - 400.0 * a * (b - a * a);
                g[1] = 200.0 * (b - a * a);
                (1.0 - a).powi(2) + 100.0 * (b - a * a).powi(2)
            },
            &[-1.2, 1.0],
            &[-5.0, -5.0],
            &[5.0, 5.0],
        );
        assert!((found.x[0] - 1.0).abs() < 1e-3, "{found:?}");
        assert!((found.x[1] - 1.0).abs() < 1e-3, "{found:?}");
    }

    /// A start outside the box is moved into it first.
    #[test]
    fn a_start_outside_the_box_is_projected() {
        let found = run(
            |x, g| {
                g[0] = 2.0 * x[0];
                x[0] * x[0]
            },
            &[50.0],
            &[2.0],
            &[9.0],
        );
        assert_eq!(found.x, vec![2.0]);
    }
}
