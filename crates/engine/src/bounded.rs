//! Serde readers for numbers with bounds, so that each settings struct states the bounds of a
//! key where the key is declared (`#[serde(deserialize_with = "…")]`) and a mistake reads
//! "must be at least 1, got -3" rather than "expected u32"; and the test that leaves a count
//! of 0 out of a written config.

use serde::{de, Deserialize, Deserializer};

/// Reads an integer key and checks it against `MIN..=MAX` before it is typed, so that
/// `rounds = -3` reads "must be at least 1, got -3" rather than "expected u32".
pub fn int_in<'de, D, T, const MIN: i64, const MAX: i64>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: TryFrom<i64>,
{
    let v = i64::deserialize(deserializer)?;
    let wrong = |bound: &str| de::Error::custom(format!("must be {bound}, got {v}"));
    if v < MIN {
        return Err(wrong(&format!("at least {MIN}")));
    }
    if v > MAX {
        return Err(wrong(&format!("at most {MAX}")));
    }
    T::try_from(v).map_err(|_| wrong(&format!("at most {MAX}")))
}

/// Reads a number key (an integer is taken as a number) that must be finite and lie between
/// `min` and `max`, each bound excluded when its flag is set.
fn real_in<'de, D: Deserializer<'de>>(
    deserializer: D,
    (min, min_open): (f64, bool),
    (max, max_open): (f64, bool),
) -> Result<f64, D::Error> {
    let v = f64::deserialize(deserializer)?;
    let above_min = if min_open { v > min } else { v >= min };
    let below_max = if max_open { v < max } else { v <= max };
    if v.is_finite() && above_min && below_max {
        return Ok(v);
    }
    let lower = if min_open {
        format!("greater than {min}")
    } else {
        format!("at least {min}")
    };
    let wanted = if max.is_infinite() {
        format!("a finite number {lower}")
    } else if !min_open && !max_open {
        format!("between {min} and {max}")
    } else {
        let upper = if max_open { "less than" } else { "at most" };
        format!("{lower} and {upper} {max}")
    };
    Err(de::Error::custom(format!("must be {wanted}, got {v}")))
}

/// A share strictly between 0 and 1.
pub fn open_fraction<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    real_in(deserializer, (0.0, true), (1.0, true))
}

/// A probability or share from 0 to 1.
pub fn fraction<'de, D: Deserializer<'de>>(deserializer: D) -> Result<f64, D::Error> {
    real_in(deserializer, (0.0, false), (1.0, false))
}

/// A number from `min` to `max`, both included (for a key's own reader: const generics take
/// no floating-point bounds).
pub fn number_in<'de, D: Deserializer<'de>>(
    deserializer: D,
    min: f64,
    max: f64,
) -> Result<f64, D::Error> {
    real_in(deserializer, (min, false), (max, false))
}

/// Whether a count is 0: a key whose 0 means "none" is left out of a written config
/// (`#[serde(skip_serializing_if = "is_zero")]`), so configs that do not use it read as before.
pub fn is_zero(n: &u32) -> bool {
    *n == 0
}
