//! The standard normal distribution, written from `erf` (the accuracy is in the notes of
//! [`crate::elo`]).
/// `Φ⁻¹(0.975)`: the two-sided 95% normal quantile.
pub(super) const Z_95: f64 = 1.959_963_984_540_054;
/// The standard normal distribution function `Φ(z)`, to ~1e-14 relative (see the module notes).
pub fn normal_cdf(z: f64) -> f64 {
    let x = z / std::f64::consts::SQRT_2;
    // Take the tail from erfc on both sides so that small probabilities keep their precision.
    if z < 0.0 {
        0.5 * erfc(-x)
    } else {
        1.0 - 0.5 * erfc(x)
    }
}

/// Where `erf` switches from the series (below) to the continued fraction for `erfc` (above).
const ERF_SWITCH: f64 = 1.0;

/// Depth of the `erfc` continued fraction: converged to rounding at `x = 1`, and faster beyond.
const ERFC_TERMS: u32 = 200;

/// The error function.
fn erf(x: f64) -> f64 {
    if x < 0.0 {
        -erf(-x)
    } else if x < ERF_SWITCH {
        erf_series(x)
    } else {
        1.0 - erfc_continued_fraction(x)
    }
}

/// The complementary error function `1 − erf(x)`, accurate in its tails.
fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        2.0 - erfc(-x)
    } else if x < ERF_SWITCH {
        1.0 - erf(x)
    } else {
        erfc_continued_fraction(x)
    }
}

/// Abramowitz & Stegun 7.1.6: `erf x = (2/√π) e^(−x²) Σ 2ⁿ x^(2n+1) / (1·3···(2n+1))`, for
/// `0 ≤ x < 1` (about 20 terms), summed until a term no longer changes the sum.
fn erf_series(x: f64) -> f64 {
    let mut term = x;
    let mut sum = x;
    let mut n = 0.0;
    loop {
        n += 1.0;
        term *= 2.0 * x * x / (2.0 * n + 1.0);
        let next = sum + term;
        if next == sum {
            break;
        }
        sum = next;
    }
    std::f64::consts::FRAC_2_SQRT_PI * (-x * x).exp() * sum
}

/// Abramowitz & Stegun 7.1.14:
/// `erfc x = (e^(−x²)/√π) · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …)))))`, for `x ≥ 1`,
/// evaluated bottom-up from a fixed depth.
fn erfc_continued_fraction(x: f64) -> f64 {
    let mut tail = x;
    for n in (1..=ERFC_TERMS).rev() {
        tail = x + f64::from(n) / 2.0 / tail;
    }
    (-x * x).exp() / std::f64::consts::PI.sqrt() / tail
}

#[cfg(test)]
mod tests {
    use super::super::testing::close;
    use super::*;

    #[test]
    fn erf_and_normal_cdf_match_reference_values() {
        // 40-digit values from mpmath, rounded to the nearest double.
        let erf_ref = [
            (0.1, 0.112_462_916_018_284_89),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (1.5, 0.966_105_146_475_310_8),
            (2.0, 0.995_322_265_018_952_7),
        ];
        for (x, expected) in erf_ref {
            close(erf(x), expected, 2e-16);
            close(erf(-x), -expected, 2e-16);
        }
        assert_eq!(erf(0.0), 0.0);
        let erfc_ref = [
            (0.5, 0.479_500_122_186_953_5),
            (1.0, 0.157_299_207_050_285_13),
            (2.5, 4.069_520_174_449_589e-4),
            (3.0, 2.209_049_699_858_544e-5),
            (5.0, 1.537_459_794_428_035e-12),
            (6.0, 2.151_973_671_249_891_3e-17),
            (10.0, 2.088_487_583_762_545e-45),
        ];
        for (x, expected) in erfc_ref {
            let relative = (erfc(x) - expected).abs() / expected;
            assert!(relative < 1e-14, "erfc({x}) = {} vs {expected}", erfc(x));
        }
        assert_eq!(erfc(40.0), 0.0);
        close(erfc(-1.0), 2.0 - 0.157_299_207_050_285_13, 2e-16);

        let phi_ref = [
            (-8.0, 6.220_960_574_271_784e-16),
            (-3.0, 1.349_898_031_630_094_5e-3),
            (-1.959_963_984_540_054, 0.025),
            (-1.0, 0.158_655_253_931_457_05),
            (0.0, 0.5),
            (0.5, 0.691_462_461_274_013_1),
            (1.0, 0.841_344_746_068_542_9),
            (1.959_963_984_540_054, 0.975),
            (5.0, 0.999_999_713_348_428_1),
        ];
        for (z, expected) in phi_ref {
            let relative = (normal_cdf(z) - expected).abs() / expected;
            assert!(relative < 1e-14, "Φ({z}) = {} vs {expected}", normal_cdf(z));
        }
        assert_eq!(normal_cdf(f64::INFINITY), 1.0);
        assert_eq!(normal_cdf(f64::NEG_INFINITY), 0.0);
        // Monotone across the series/continued-fraction switch at z = √2.
        let mut last = 0.0;
        for i in 0..4000 {
            let p = normal_cdf(-10.0 + i as f64 * 0.005);
            assert!(p >= last);
            last = p;
        }
    }
}
