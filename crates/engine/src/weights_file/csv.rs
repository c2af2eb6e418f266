//! The CSV form: `set,feature,weight` rows, which carry the weights alone.

use std::fmt::Write as _;

use crate::error::Error;
use crate::eval::{
    extra_names, feature_index, ExtraPair, ExtraWeights, WeightPair, Weights, EXTRA_COUNT,
    FEATURE_COUNT, FEATURE_NAMES, TERM_NAMES,
};
use crate::text::{excerpt, strip_bom};

use super::validate::Ctx;
use super::WeightsFile;

impl WeightsFile {
    /// Reads the CSV form written by the `csv` exporter: header `set,feature,weight`, then one row
    /// per set and feature (any order, each exactly once); for the extended evaluator also one
    /// per set and further weight ([`extra_names`]: `bridge`, `men_1`, …), all or none. CSV
    /// carries only the weights: the result has the default endgame threshold and no source.
    pub fn from_csv(text: &str, origin: &str) -> Result<WeightsFile, Error> {
        let text = strip_bom(text);
        let ctx = Ctx::new(origin);
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        let csv_err = |e: csv::Error| match e.position() {
            Some(p) => ctx.err(format!("not valid CSV (line {}: {e})", p.line())),
            None => ctx.err(format!("not valid CSV ({e})")),
        };
        let header = reader.headers().map_err(csv_err)?.clone();
        let expected = ["set", "feature", "weight"];
        if header.is_empty() || (header.len() == 1 && header[0].is_empty()) {
            return Err(ctx.err("empty file, expected the header `set,feature,weight`"));
        }
        if header.iter().ne(expected.iter().copied()) {
            let got: Vec<&str> = header.iter().collect();
            return Err(ctx.err(format!(
                "line 1: header is `{}`, expected `set,feature,weight`",
                excerpt(&got.join(","))
            )));
        }
        const SETS: [&str; 2] = ["opening", "endgame"];
        // seen[set][feature] = the line it was given on
        let mut seen = [[None::<u64>; FEATURE_COUNT]; 2];
        let mut sets = [Weights::default(); 2];
        let extra_names = extra_names();
        let mut extra_seen = [[None::<u64>; EXTRA_COUNT]; 2];
        let mut extra_values = [[0i32; EXTRA_COUNT]; 2];
        for record in reader.records() {
            let record = record.map_err(csv_err)?;
            let line = record.position().map_or(0, |p| p.line());
            let set = SETS.iter().position(|&s| s == &record[0]).ok_or_else(|| {
                ctx.err(format!(
                    "line {line}: unknown set `{}` in column `set`, \
                     expected `opening` or `endgame`",
                    excerpt(&record[0])
                ))
            })?;
            let extra = extra_names.iter().position(|n| n == &record[1]);
            let feature = match (feature_index(&record[1]), extra) {
                (Some(feature), _) => feature,
                (None, Some(_)) => usize::MAX,
                (None, None) => {
                    return Err(ctx.err(format!(
                        "line {line}: unknown feature name `{}` in column `feature`, expected \
                         one of: {}, or the extended evaluator's {}, men_1 … men_28, \
                         kings_1 … kings_32",
                        excerpt(&record[1]),
                        FEATURE_NAMES.join(", "),
                        TERM_NAMES.join(", ")
                    )))
                }
            };
            let weight: i32 = record[2].parse().map_err(|_| {
                ctx.err(format!(
                    "line {line}: weight `{}` is not an integer (or is out of range {}..={})",
                    excerpt(&record[2]),
                    i32::MIN,
                    i32::MAX
                ))
            })?;
            let slot = match extra {
                Some(i) if feature == usize::MAX => &mut extra_seen[set][i],
                _ => &mut seen[set][feature],
            };
            if let Some(first) = *slot {
                return Err(ctx.err(format!(
                    "line {line}: `{}`/`{}` appears twice (first on line {first})",
                    excerpt(&record[0]),
                    excerpt(&record[1])
                )));
            }
            *slot = Some(line);
            match extra {
                Some(i) if feature == usize::MAX => extra_values[set][i] = weight,
                _ => sets[set].0[feature] = weight,
            }
        }
        for (seen, set_name) in seen.iter().zip(SETS) {
            if let Some(f) = seen.iter().position(Option::is_none) {
                return Err(ctx.err(format!(
                    "no row for `{set_name}`/`{}` (expected 20 rows: each set with each feature)",
                    FEATURE_NAMES[f]
                )));
            }
        }
        let any_extra = extra_seen.iter().flatten().any(Option::is_some);
        let mut file = WeightsFile::new(WeightPair {
            opening: sets[0],
            endgame: sets[1],
        });
        if any_extra {
            for (seen, set_name) in extra_seen.iter().zip(SETS) {
                if let Some(i) = seen.iter().position(Option::is_none) {
                    return Err(ctx.err(format!(
                        "no row for `{set_name}`/`{}` (the extended evaluator's weights are \
                         given all or none)",
                        extra_names[i]
                    )));
                }
            }
            let phase = |values: &[i32]| ExtraWeights::from_slice(values).expect("full length");
            file.extra = Some(ExtraPair {
                opening: phase(&extra_values[0]),
                endgame: phase(&extra_values[1]),
            });
        }
        Ok(file)
    }

    /// The CSV form: header `set,feature,weight`, then a row per weight, the opening set
    /// first; for the extended evaluator its further weights after the ten features'. Carries
    /// the weights only; not the pattern evaluator's (its regions and tables), which the
    /// `export` command refuses to write as CSV.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("set,feature,weight\n");
        for (set, name, value) in self.named_weights() {
            let _ = writeln!(out, "{set},{name},{value}");
        }
        out
    }
}
