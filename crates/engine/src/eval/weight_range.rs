//! The allowed values of one weight (or other integer key), `[min, max]` in a config: one
//! reader of ranges for the weights and the search genes.

use std::collections::BTreeMap;
use std::fmt;

use rand::Rng;
use serde::de::{self, IgnoredAny, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use super::weight_sets::MAX_ABS_WEIGHT;
use crate::text::excerpt;

/// The allowed values of one weight, `min..=max`; written `[min, max]` in TOML, exactly two
/// integers (anything else is refused, not cut to size). A range with `min == max` fixes the
/// weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(into = "[i32; 2]")]
pub struct WeightRange {
    /// Smallest allowed value.
    pub min: i32,
    /// Largest allowed value.
    pub max: i32,
}

impl<'de> Deserialize<'de> for WeightRange {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<WeightRange, D::Error> {
        deserializer.deserialize_seq(RangeVisitor)
    }
}

/// Reads `[min, max]`, counting every element, so that `[100, 300, "x"]` is an error rather
/// than a range whose third element went unread.
struct RangeVisitor;

impl<'de> Visitor<'de> for RangeVisitor {
    type Value = WeightRange;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a range [min, max] of two integers")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<WeightRange, A::Error> {
        let mut bounds = Vec::with_capacity(2);
        let mut count = 0usize;
        // Every element is read whatever it is, so that the count is the array's length.
        while let Some(element) = seq.next_element::<Element>()? {
            count += 1;
            if count <= 2 {
                bounds.push(element);
            }
        }
        if count != 2 {
            let s = if count == 1 { "" } else { "s" };
            return Err(de::Error::custom(format!(
                "a range is exactly two numbers [min, max], got {count} element{s}"
            )));
        }
        let mut ints = [0i64; 2];
        for (k, (int, element)) in ints.iter_mut().zip(&bounds).enumerate() {
            let Element::Integer(v) = element else {
                let which = ["min", "max"][k];
                return Err(de::Error::custom(format!(
                    "a range is exactly two integers [min, max]; its {which} is {element}"
                )));
            };
            *int = *v;
        }
        let [min, max] = ints;
        // Checked before the bounds are narrowed to i32; their order is left to `problem`.
        if let Some(problem) = bounds_problem(min, max) {
            return Err(de::Error::custom(problem));
        }
        Ok(WeightRange::new(min as i32, max as i32))
    }
}

/// One element of a range's array, whatever it is, as far as a message needs to name it
/// (nested arrays and tables are read whole and dropped).
#[derive(Deserialize)]
#[serde(untagged)]
enum Element {
    Integer(i64),
    Number(f64),
    Text(String),
    Bool(bool),
    // Read whole only so that the array's count is right; what they hold is not shown.
    Array(#[allow(dead_code)] Vec<IgnoredAny>),
    Table(#[allow(dead_code)] BTreeMap<String, IgnoredAny>),
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Element::Integer(v) => write!(f, "{v}"),
            Element::Number(v) => write!(f, "{v}, not an integer"),
            Element::Text(v) => write!(f, "the text \"{}\"", excerpt(v)),
            Element::Bool(v) => write!(f, "{v}, not a number"),
            Element::Array(_) => f.write_str("an array"),
            Element::Table(_) => f.write_str("a table"),
        }
    }
}

impl From<WeightRange> for [i32; 2] {
    fn from(range: WeightRange) -> [i32; 2] {
        [range.min, range.max]
    }
}

impl WeightRange {
    /// The range `min..=max`.
    pub const fn new(min: i32, max: i32) -> WeightRange {
        WeightRange { min, max }
    }

    /// `value` moved into the range (a misordered range clamps to `min`).
    pub fn clamp(&self, value: i32) -> i32 {
        value.min(self.max).max(self.min)
    }

    /// A uniform draw from the range.
    pub fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> i32 {
        rng.gen_range(self.min.min(self.max)..=self.max.max(self.min))
    }

    /// Why the range is unusable, if it is.
    pub fn problem(&self) -> Option<String> {
        if self.min > self.max {
            Some(format!(
                "[{}, {}]: the first bound must not exceed the second",
                self.min, self.max
            ))
        } else {
            bounds_problem(self.min.into(), self.max.into())
        }
    }
}

/// Why a range `[min, max]` reaches beyond the weights an evaluator takes, if it does.
fn bounds_problem(min: i64, max: i64) -> Option<String> {
    let bound = i64::from(MAX_ABS_WEIGHT);
    let outside = |v: i64| !(-bound..=bound).contains(&v);
    (outside(min) || outside(max))
        .then(|| format!("[{min}, {max}]: bounds must lie within -{bound}..={bound}"))
}
