//! What the statistics' tests share.

use super::pentanomial::Pentanomial;

/// Asserts that `actual` is within `tol` of `expected`.
pub(super) fn close(actual: f64, expected: f64, tol: f64) {
    assert!(
        (actual - expected).abs() <= tol,
        "expected {expected} ± {tol}, got {actual}"
    );
}

/// The pentanomial with these counts.
pub(super) fn penta(counts: [u64; 5]) -> Pentanomial {
    Pentanomial::from_counts(counts)
}
