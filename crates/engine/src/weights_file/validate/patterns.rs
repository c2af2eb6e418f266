//! The pattern evaluator's keys: its classic terms, the exchange term, the regions (men's,
//! kings' and ranks') and each phase's tables.

use serde_json::Value;

use crate::error::Error;
use crate::eval::{
    PatternTables, PatternWeights, Region, RegionError, CLASSIC_COUNT, CLASSIC_NAMES,
    MAX_ABS_WEIGHT,
};

use super::context::{kind, Ctx};

impl Ctx<'_> {
    /// The pattern evaluator's classic terms, regions and tables.
    pub(super) fn patterns(
        &self,
        obj: &serde_json::Map<String, Value>,
    ) -> Result<PatternWeights, Error> {
        self.check_names(obj, "classic", "classic terms", &CLASSIC_NAMES)?;
        let get = |key: &str, what: &str| {
            obj.get(key)
                .ok_or_else(|| self.err(format!("missing key `{key}` ({what})")))
        };
        let mut classic = [[0; CLASSIC_COUNT]; 2];
        for (phase, out) in ["opening", "endgame"].iter().zip(&mut classic) {
            let key = format!("{phase}_classic");
            let v = get(&key, &format!("a list of {CLASSIC_COUNT} integers"))?;
            let list = self.int_list(v, &key, &format!("`{key}`"), Some(CLASSIC_COUNT))?;
            out.copy_from_slice(&list);
        }
        let mut exchange = [0; 2];
        if let Some(v) = obj.get("exchange") {
            let what = "`exchange` (its weight on a full board, then on an empty one)";
            exchange.copy_from_slice(&self.int_list(v, "exchange", what, Some(2))?);
        }
        let v = get("regions", "a list of regions, each a list of squares")?;
        let items = v.as_array().filter(|l| !l.is_empty()).ok_or_else(|| {
            self.err_at(
                "regions",
                format!(
                    "`regions` must be a list of regions (lists of squares), found {}",
                    kind(v)
                ),
            )
        })?;
        let mut regions = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let what = format!("`regions` item {}", i + 1);
            let squares = self.int_list(item, "regions", &what, None)?;
            let squares: Vec<i64> = squares.into_iter().map(i64::from).collect();
            regions.push(
                Region::new(&squares)
                    .map_err(|e| self.err_at("regions", format!("{what}: {e}")))?,
            );
        }
        // The further kinds of region, each by its constructor (which checks its own size).
        type RegionOf = fn(&[i64]) -> std::result::Result<Region, RegionError>;
        let further: [(&str, RegionOf); 2] = [
            ("king_regions", Region::of_kings),
            ("rank_regions", Region::of_ranks),
        ];
        for (key, region_of) in further {
            let Some(v) = obj.get(key) else {
                continue;
            };
            let items = v.as_array().ok_or_else(|| {
                self.err_at(
                    key,
                    format!(
                        "`{key}` must be a list of regions (lists of squares), found {}",
                        kind(v)
                    ),
                )
            })?;
            for (i, item) in items.iter().enumerate() {
                let what = format!("`{key}` item {}", i + 1);
                let squares = self.int_list(item, key, &what, None)?;
                let squares: Vec<i64> = squares.into_iter().map(i64::from).collect();
                regions.push(
                    region_of(&squares).map_err(|e| self.err_at(key, format!("{what}: {e}")))?,
                );
            }
        }
        // The tables list the men regions' tables, then the king regions', then the rank
        // regions'.
        let mut tables = PatternTables::zero(regions);
        let mut values = vec![[0i32; 2]; tables.len()];
        for (phase, name) in ["opening", "endgame"].into_iter().enumerate() {
            let key = format!("{name}_tables");
            let count = tables.regions().len();
            let v = get(&key, &format!("a table for each of the {count} regions"))?;
            let list = v.as_array().filter(|l| l.len() == count).ok_or_else(|| {
                self.err_at(
                    &key,
                    format!(
                        "`{key}` must be a list of {count} tables (one per region), found {}",
                        match v {
                            Value::Array(l) => format!("{} items", l.len()),
                            other => kind(other),
                        }
                    ),
                )
            })?;
            for (r, table) in list.iter().enumerate() {
                let entries = tables.regions()[r].entries();
                let what = format!("`{key}` table {}", r + 1);
                let table = self.int_list(table, &key, &what, Some(entries))?;
                let offset = tables.offset(r);
                for (e, v) in table.into_iter().enumerate() {
                    if i16::try_from(v).is_err() {
                        return Err(self.err_at(
                            &key,
                            format!(
                                "{what} item {} is {v}, outside {}..={} (table entries are 16 \
                                 bits; playable weights lie within \
                                 -{MAX_ABS_WEIGHT}..={MAX_ABS_WEIGHT})",
                                e + 1,
                                i16::MIN,
                                i16::MAX
                            ),
                        ));
                    }
                    values[offset + e][phase] = v;
                }
            }
        }
        tables
            .set_values(values)
            .expect("one value per entry, each within 16 bits");
        Ok(PatternWeights {
            classic_opening: classic[0],
            classic_endgame: classic[1],
            exchange,
            tables,
        })
    }
}
