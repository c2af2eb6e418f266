//! The weights file (docs/run-folder.md): its forms (JSON, TOML, CSV), checks and sources.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::egdb::MAX_DATABASE_PIECES;
use crate::error::Error;
// The `search` table holds the config's `[search]` keys: one reader (and one set of bounds)
// for both.
use crate::game::{Player, SearchParams};
use crate::input_file::{self, Links, WEIGHTS_CAP};
use crate::text::{excerpt, strip_bom};

use crate::eval::{
    extra_names, feature_index, EvaluatorKind, ExtraPair, ExtraWeights, PatternTables,
    PatternWeights, Region, RegionError, RegionKind, WeightPair, Weights, CLASSIC_COUNT,
    CLASSIC_NAMES, DEFAULT_ENDGAME_PIECES, EXTRA_COUNT, FEATURE_COUNT, FEATURE_NAMES,
    MAX_ABS_WEIGHT, PERSPECTIVE, TERM_NAMES,
};

/// Where a weights file's weights came from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum WeightsSource {
    /// A specimen of a tuning run.
    Specimen {
        /// The run's `name`.
        run: String,
        /// The specimen's id within that run.
        id: u64,
        /// The last round the specimen's row was written in `specimens.csv`.
        round: u32,
    },
    /// A regression fit (`fit`) on game records.
    Fit {
        /// What it was fitted on: the inputs, the number of games and positions.
        data: String,
    },
}

impl WeightsSource {
    /// The specimen's id, for a run's specimen.
    pub fn specimen_id(&self) -> Option<u64> {
        match self {
            WeightsSource::Specimen { id, .. } => Some(*id),
            WeightsSource::Fit { .. } => None,
        }
    }

    /// One line saying where the weights came from (`run "x", specimen 4, round 19` or
    /// `fit on …`).
    pub fn describe(&self) -> String {
        match self {
            WeightsSource::Specimen { run, id, round } => {
                format!("run {run:?}, specimen {id}, round {round}")
            }
            WeightsSource::Fit { data } => format!("fit on {data}"),
        }
    }
}

/// The weights file of docs/run-folder.md: what `export --format json`, `best.json`, `match`, `analyse` and
/// `play` read and write.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WeightsFile {
    /// The two weight sets of the ten features.
    pub weights: WeightPair,
    /// The extended evaluator's further weights; `None`: the ten-feature evaluator.
    pub extra: Option<ExtraPair>,
    /// With `extra`, the pattern evaluator's further weights; `None`: the extended evaluator.
    pub patterns: Option<Arc<PatternWeights>>,
    /// Pieces left on the board (both colours) at which the endgame set takes over.
    pub endgame_pieces: u32,
    /// The run and specimen the weights come from; `None` for hand-made files and `material`.
    pub source: Option<WeightsSource>,
    /// The endgame database (most pieces; 0: none) the weights were tuned or fitted with, which
    /// `match`, `analyse`, `play` and `hub` search with by default; `None` when the file does
    /// not say (`material`, CSV, hand-made and older files).
    pub database_pieces: Option<u32>,
    /// The file's `search` table (the keys of a config's `[search]`, keys left out at their
    /// defaults): how the weights want to be searched, which `match`, `analyse`, `play` and
    /// `hub` follow unless told otherwise; `None` when the file has none (`material`, CSV and
    /// files without the table, which are written without it).
    pub search: Option<SearchParams>,
}

/// Top-level keys a weights file may have (JSON and TOML forms).
const KEYS: [&str; 25] = [
    "evaluator",
    "features",
    "opening",
    "endgame",
    "terms",
    "opening_terms",
    "endgame_terms",
    "opening_men",
    "endgame_men",
    "opening_kings",
    "endgame_kings",
    "endgame_pieces",
    "perspective",
    "source",
    "database_pieces",
    "classic",
    "opening_classic",
    "endgame_classic",
    "exchange",
    "regions",
    "king_regions",
    "rank_regions",
    "opening_tables",
    "endgame_tables",
    "search",
];

/// The keys of the pattern evaluator's further weights.
const PATTERN_KEYS: [&str; 9] = [
    "classic",
    "opening_classic",
    "endgame_classic",
    "exchange",
    "regions",
    "king_regions",
    "rank_regions",
    "opening_tables",
    "endgame_tables",
];

/// Largest meaningful `endgame_pieces`: a board never holds more than 24 pieces.
const MAX_PIECES: i64 = 24;

impl WeightsFile {
    /// A file holding `weights`, with the default endgame threshold and no source.
    pub fn new(weights: WeightPair) -> WeightsFile {
        WeightsFile {
            weights,
            extra: None,
            patterns: None,
            endgame_pieces: DEFAULT_ENDGAME_PIECES,
            source: None,
            database_pieces: None,
            search: None,
        }
    }

    /// The evaluator these weights are for.
    pub fn evaluator(&self) -> EvaluatorKind {
        match (&self.extra, &self.patterns) {
            (Some(_), Some(_)) => EvaluatorKind::Patterns,
            (Some(_), None) => EvaluatorKind::Extended,
            (None, _) => EvaluatorKind::Ten,
        }
    }

    /// The built-in `material` baseline (no source, default endgame threshold).
    pub fn material() -> WeightsFile {
        WeightsFile::new(WeightPair::material())
    }

    /// The weights-file JSON (docs/run-folder.md), pretty-printed with one line per key and a trailing
    /// newline.
    pub fn to_json(&self) -> String {
        let list = |w: &Weights| {
            let items: Vec<String> = w.0.iter().map(|v| v.to_string()).collect();
            format!("[{}]", items.join(", "))
        };
        let names: Vec<String> = FEATURE_NAMES.iter().map(|n| format!("\"{n}\"")).collect();
        let source = match &self.source {
            None => "null".to_string(),
            Some(WeightsSource::Specimen { run, id, round }) => format!(
                "{{\"run\": {}, \"id\": {id}, \"round\": {round}}}",
                serde_json::Value::String(run.clone()),
            ),
            Some(WeightsSource::Fit { data }) => {
                format!("{{\"fit\": {}}}", serde_json::Value::String(data.clone()))
            }
        };
        let numbers = |w: &[i32]| {
            let items: Vec<String> = w.iter().map(|v| v.to_string()).collect();
            format!("[{}]", items.join(", "))
        };
        let (evaluator, extra) = match &self.extra {
            None => (String::new(), String::new()),
            Some(extra) => {
                let terms: Vec<String> = TERM_NAMES.iter().map(|n| format!("\"{n}\"")).collect();
                let mut lines = format!("  \"terms\": [{}],\n", terms.join(", "));
                for list in 0..3 {
                    for (phase, w) in [("opening", &extra.opening), ("endgame", &extra.endgame)] {
                        let (suffix, weights) = w.lists()[list];
                        lines += &format!("  \"{phase}_{suffix}\": {},\n", numbers(weights));
                    }
                }
                let lines = match &self.patterns {
                    None => lines,
                    Some(patterns) => lines + &pattern_lines(patterns),
                };
                let kind = self.evaluator().name();
                (format!("  \"evaluator\": \"{kind}\",\n"), lines)
            }
        };
        let database = self
            .database_pieces
            .map_or(String::new(), |n| format!("  \"database_pieces\": {n},\n"));
        let search = self.search.map_or(String::new(), |params| {
            let keys: Vec<String> = params
                .changed_entries()
                .into_iter()
                .map(|(key, value)| format!("\"{key}\": {value}"))
                .collect();
            format!("  \"search\": {{{}}},\n", keys.join(", "))
        });
        format!(
            "{{\n{evaluator}  \"features\": [{}],\n  \"opening\": {},\n  \"endgame\": {},\n{extra}  \
             \"endgame_pieces\": {},\n{database}{search}  \"perspective\": \"{}\",\n  \
             \"source\": {}\n}}\n",
            names.join(", "),
            list(&self.weights.opening),
            list(&self.weights.endgame),
            self.endgame_pieces,
            PERSPECTIVE,
            source
        )
    }

    /// Reads the JSON form. `origin` names the file in error messages. `features`,
    /// `endgame_pieces` (default 12), `perspective` and `source` may be omitted; when present they
    /// are checked. `opening`/`endgame` are lists of ten integers (or objects keyed by feature
    /// name).
    ///
    /// A key given twice in an object is refused (not JSON's "last one wins"), and messages
    /// about a top-level key give the line where its value starts. A leading byte-order mark is
    /// skipped.
    pub fn from_json(text: &str, origin: &str) -> Result<WeightsFile, Error> {
        let text = strip_bom(text);
        let mut ctx = Ctx::new(origin);
        let value = serde_json::from_str::<StrictJson>(text)
            .map(|v| v.0)
            .map_err(|e| {
                let msg = e.to_string();
                let suffix = format!(" at line {} column {}", e.line(), e.column());
                let msg = msg.strip_suffix(&suffix).unwrap_or(&msg);
                ctx.err(format!(
                    "not JSON (line {}, column {}: {})",
                    e.line(),
                    e.column(),
                    excerpt(msg)
                ))
            })?;
        ctx.lines = top_level_lines(text);
        ctx.read_value(&value)
    }

    /// Reads the TOML form written by the `toml` exporter: top-level `endgame_pieces` and
    /// `perspective`, `[opening]`/`[endgame]` tables keyed by feature name (lists of ten integers
    /// also accepted), optional `[search]` and `[source]`. Checked like
    /// [`WeightsFile::from_json`].
    pub fn from_toml(text: &str, origin: &str) -> Result<WeightsFile, Error> {
        let text = strip_bom(text);
        let ctx = Ctx::new(origin);
        let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
            let msg = e.message().trim_end().replace('\n', "; ");
            match e.span() {
                Some(span) => {
                    let (line, col) = line_col(text, span.start);
                    ctx.err(format!("not TOML (line {line}, column {col}: {msg})"))
                }
                None => ctx.err(format!("not TOML ({msg})")),
            }
        })?;
        // One validator for both forms: TOML's integers, strings, arrays and tables map one to
        // one onto JSON values (a datetime becomes a non-integer and is reported as such).
        let value = serde_json::to_value(&table)
            .map_err(|e| ctx.err(format!("cannot read the TOML values ({e})")))?;
        ctx.read_value(&value)
    }

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

    /// Reads a JSON weights file.
    pub fn load(path: &Path) -> Result<WeightsFile, Error> {
        let text = read_weights_text(path)?;
        WeightsFile::from_json(&text, &path.display().to_string())
    }

    /// Reads a weights file in the form its extension names: `.csv`, `.toml`, otherwise JSON.
    pub fn load_any(path: &Path) -> Result<WeightsFile, Error> {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let text = read_weights_text(path)?;
        let origin = path.display().to_string();
        match ext.as_deref() {
            Some("csv") => WeightsFile::from_csv(&text, &origin),
            Some("toml") => WeightsFile::from_toml(&text, &origin),
            _ => WeightsFile::from_json(&text, &origin),
        }
    }

    /// A weights argument for playing: the literal `material` is the built-in baseline,
    /// anything else a path read by [`WeightsFile::load_any`]; the weights must pass
    /// [`WeightsFile::check_playable`]. (A run folder as well: `weights_from_arg`, above
    /// this layer.)
    pub fn load_arg(arg: &str) -> Result<WeightsFile, Error> {
        if arg == "material" {
            Ok(WeightsFile::material())
        } else {
            let file = WeightsFile::load_any(Path::new(arg))?;
            file.check_playable(arg)?;
            Ok(file)
        }
    }

    /// Checks that every weight lies within `±MAX_ABS_WEIGHT`, the bound tuning runs use, so
    /// that evaluation sums stay far from `i32` overflow. The file formats themselves carry
    /// any `i32` (exports stay faithful); this is the gate for weights about to be played.
    /// `origin` names the file in the message.
    pub fn check_playable(&self, origin: &str) -> Result<(), Error> {
        for (set, w) in [
            ("opening", &self.weights.opening),
            ("endgame", &self.weights.endgame),
        ] {
            for (i, (name, value)) in w.named().enumerate() {
                if value.unsigned_abs() > MAX_ABS_WEIGHT.unsigned_abs() {
                    return Err(Ctx::new(origin).err(format!(
                        "`{set}` item {} (`{name}`) is {value}, outside \
                         -{MAX_ABS_WEIGHT}..={MAX_ABS_WEIGHT} (larger weights could overflow \
                         the evaluation)",
                        i + 1
                    )));
                }
            }
        }
        if let Some(extra) = &self.extra {
            for (phase, w) in [("opening", &extra.opening), ("endgame", &extra.endgame)] {
                for (suffix, list) in w.lists() {
                    if let Some(i) = list
                        .iter()
                        .position(|v| v.unsigned_abs() > MAX_ABS_WEIGHT.unsigned_abs())
                    {
                        return Err(Ctx::new(origin).err(format!(
                            "`{phase}_{suffix}` item {} is {}, outside \
                             -{MAX_ABS_WEIGHT}..={MAX_ABS_WEIGHT} (larger weights could \
                             overflow the evaluation)",
                            i + 1,
                            list[i]
                        )));
                    }
                }
            }
        }
        if let Some(patterns) = &self.patterns {
            if patterns.max_abs() > MAX_ABS_WEIGHT.unsigned_abs() {
                return Err(Ctx::new(origin).err(format!(
                    "a classic term's weight, the exchange term's or a table entry is outside \
                     -{MAX_ABS_WEIGHT}..={MAX_ABS_WEIGHT} (larger weights could overflow the \
                     evaluation)"
                )));
            }
        }
        Ok(())
    }
}

/// The JSON lines of the pattern evaluator's further weights: the classic terms' names and
/// weights, the regions, and each phase's tables, a table a line.
fn pattern_lines(patterns: &PatternWeights) -> String {
    let numbers = |w: &[i32]| {
        let items: Vec<String> = w.iter().map(|v| v.to_string()).collect();
        format!("[{}]", items.join(", "))
    };
    let names: Vec<String> = CLASSIC_NAMES.iter().map(|n| format!("\"{n}\"")).collect();
    let mut lines = format!("  \"classic\": [{}],\n", names.join(", "));
    lines += &format!(
        "  \"opening_classic\": {},\n  \"endgame_classic\": {},\n",
        numbers(&patterns.classic_opening),
        numbers(&patterns.classic_endgame)
    );
    // The optional term only when it is in: files without it stay as they were.
    if patterns.has_exchange() {
        lines += &format!("  \"exchange\": {},\n", numbers(&patterns.exchange));
    }
    let squares = |kind: RegionKind| -> Vec<String> {
        patterns
            .tables
            .region_squares(kind)
            .iter()
            .map(|r| numbers(r))
            .collect()
    };
    lines += &format!(
        "  \"regions\": [{}],\n",
        squares(RegionKind::Men).join(", ")
    );
    // Each further kind of region only when there is one: files without stay as they were.
    if patterns.tables.has_king_regions() {
        lines += &format!(
            "  \"king_regions\": [{}],\n",
            squares(RegionKind::Kings).join(", ")
        );
    }
    if patterns.tables.has_rank_regions() {
        lines += &format!(
            "  \"rank_regions\": [{}],\n",
            squares(RegionKind::Ranks).join(", ")
        );
    }
    for (phase, name) in ["opening", "endgame"].into_iter().enumerate() {
        let tables: Vec<String> = (0..patterns.tables.regions().len())
            .map(|r| format!("    {}", numbers(&patterns.tables.table(r, phase))))
            .collect();
        lines += &format!("  \"{name}_tables\": [\n{}\n  ],\n", tables.join(",\n"));
    }
    lines
}

/// Reads a weights file's text; any failure is bad input because the path came from the user.
fn read_weights_text(path: &Path) -> Result<String, Error> {
    input_file::read_text(path, Links::Follow, Some(WEIGHTS_CAP))
        .map_err(|e| Error::Input(format!("weights file {}: {e}", path.display())))
}

/// 1-based line and column (in characters) of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Describes a JSON value's kind for "found …" messages.
fn kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("`{b}`"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!(
            "the string {}",
            excerpt(&Value::String(s.clone()).to_string())
        ),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// A JSON value read like `serde_json::Value`, except that a key given twice in an object is an
/// error (reported by serde_json with its line and column) instead of "the last one wins".
struct StrictJson(Value);

impl<'de> Deserialize<'de> for StrictJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<StrictJson, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(StrictJson)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    // Scalars become what `serde_json::Value` makes of them (a non-finite float: null).
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(v.into())
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(StrictJson(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "key `{}` is given twice",
                    excerpt(&key)
                )));
            }
            let StrictJson(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// The line on which the value of each top-level key starts, for JSON text that parsed (empty
/// if the top level is not an object).
fn top_level_lines(text: &str) -> BTreeMap<String, usize> {
    let Ok(raw) = serde_json::from_str::<BTreeMap<String, &RawValue>>(text) else {
        return BTreeMap::new();
    };
    raw.into_iter()
        .map(|(key, value)| {
            let offset = (value.get().as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
            (key, line_col(text, offset).0)
        })
        .collect()
}

/// Validation context: names the file in every message, and the line of each top-level key
/// where known.
struct Ctx<'a> {
    origin: &'a str,
    lines: BTreeMap<String, usize>,
}

impl<'a> Ctx<'a> {
    fn new(origin: &'a str) -> Ctx<'a> {
        Ctx {
            origin,
            lines: BTreeMap::new(),
        }
    }

    fn err(&self, msg: impl std::fmt::Display) -> Error {
        Error::Input(format!("weights file {}: {msg}", self.origin))
    }

    /// An error about the top-level key `key`, with its line when known.
    fn err_at(&self, key: &str, msg: impl std::fmt::Display) -> Error {
        match self.lines.get(key) {
            Some(line) => self.err(format!("line {line}: {msg}")),
            None => self.err(msg),
        }
    }

    fn read_value(&self, value: &Value) -> Result<WeightsFile, Error> {
        let obj = value.as_object().ok_or_else(|| {
            self.err(format!(
                "expected an object with keys `opening` and `endgame` at the top level, found {}",
                kind(value)
            ))
        })?;
        if let Some(key) = obj.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(self.err_at(
                key,
                format!(
                    "unknown key `{}`, expected one of: {}",
                    excerpt(key),
                    KEYS.join(", ")
                ),
            ));
        }
        if let Some(features) = obj.get("features") {
            self.check_features(features)?;
        }
        let opening = self.weights(obj, "opening")?;
        let endgame = self.weights(obj, "endgame")?;
        let endgame_pieces = match obj.get("endgame_pieces") {
            None => DEFAULT_ENDGAME_PIECES,
            Some(v) => match v.as_i64() {
                Some(n) if (0..=MAX_PIECES).contains(&n) => n as u32,
                _ => {
                    return Err(self.err_at(
                        "endgame_pieces",
                        format!(
                            "`endgame_pieces` must be an integer from 0 to {MAX_PIECES}, found {}",
                            kind(v)
                        ),
                    ))
                }
            },
        };
        if let Some(p) = obj.get("perspective") {
            if p.as_str() != Some(PERSPECTIVE) {
                return Err(self.err_at(
                    "perspective",
                    format!(
                    "`perspective` is {}, but these weights only make sense as \"{PERSPECTIVE}\"",
                    kind(p)
                ),
                ));
            }
        }
        let source = match obj.get("source") {
            None | Some(Value::Null) => None,
            Some(v) => Some(self.source(v)?),
        };
        let database_pieces = match obj.get("database_pieces") {
            None => None,
            Some(v) => match v.as_u64() {
                Some(n) if n <= u64::from(MAX_DATABASE_PIECES) => Some(n as u32),
                _ => {
                    return Err(self.err_at(
                        "database_pieces",
                        format!(
                            "`database_pieces` must be an integer from 0 to \
                             {MAX_DATABASE_PIECES}, found {}",
                            kind(v)
                        ),
                    ))
                }
            },
        };
        let search = obj.get("search").map(|v| self.search(v)).transpose()?;
        let (extra, patterns) = self.extra(obj)?;
        Ok(WeightsFile {
            weights: WeightPair { opening, endgame },
            extra,
            patterns: patterns.map(Arc::new),
            endgame_pieces,
            source,
            database_pieces,
            search,
        })
    }

    /// The `search` table, checked as the config's `[search]` is.
    fn search(&self, v: &Value) -> Result<SearchParams, Error> {
        // A list would be read onto the keys by position: a table names each key.
        if !v.is_object() {
            return Err(self.err_at(
                "search",
                format!(
                    "`search` must be a table of `[search]` keys, e.g. {{\"mode\": \"selective\"}}, \
                     found {}",
                    kind(v)
                ),
            ));
        }
        let params = SearchParams::deserialize(v).map_err(|e| {
            // Name the key at fault: the first one that fails on its own.
            let key = v.as_object().and_then(|table| {
                table.iter().find_map(|(k, x)| {
                    let alone = Value::Object([(k.clone(), x.clone())].into_iter().collect());
                    SearchParams::deserialize(&alone)
                        .err()
                        .map(|e| (k.clone(), e))
                })
            });
            match key {
                Some((k, e)) => self.err_at("search", format!("`search.{}`: {e}", excerpt(&k))),
                None => self.err_at("search", format!("`search`: {e}")),
            }
        })?;
        params.try_limits().map_err(|e| {
            self.err_at(
                "search",
                e.describe("`search.min_depth`", "`search.max_depth`"),
            )
        })?;
        if let Some((key, problem)) = params.cross_key_problem() {
            return Err(self.err_at("search", format!("`search.{key}`: {problem}")));
        }
        if !params.genes.is_empty() {
            // A run's ranges are not a search: the file plays one value of each key.
            return Err(self.err_at(
                "search",
                "`search.genes`: ranges are a tuning config's; a weights file gives each key \
                 one value, e.g. \"lmr_reduction\": 2"
                    .to_string(),
            ));
        }
        Ok(params)
    }

    /// The extended evaluator's lists when `evaluator` is `extended` or `patterns`, and the
    /// pattern evaluator's when it is `patterns`; none may appear without it.
    #[allow(clippy::type_complexity)]
    fn extra(
        &self,
        obj: &serde_json::Map<String, Value>,
    ) -> Result<(Option<ExtraPair>, Option<PatternWeights>), Error> {
        let evaluator = match obj.get("evaluator") {
            None => EvaluatorKind::Ten,
            Some(v) => v
                .as_str()
                .and_then(EvaluatorKind::from_name)
                .ok_or_else(|| {
                    self.err_at(
                        "evaluator",
                        format!(
                            "`evaluator` must be \"ten\", \"extended\" or \"patterns\", found {}",
                            kind(v)
                        ),
                    )
                })?,
        };
        if evaluator != EvaluatorKind::Patterns {
            if let Some(key) = PATTERN_KEYS.iter().find(|k| obj.contains_key(**k)) {
                return Err(self.err_at(
                    key,
                    format!(
                        "`{key}` belongs to the pattern evaluator, but `evaluator` is not \"patterns\""
                    ),
                ));
            }
        }
        if evaluator == EvaluatorKind::Ten {
            if let Some(key) = KEYS[4..11].iter().find(|k| obj.contains_key(**k)) {
                return Err(self.err_at(
                    key,
                    format!("`{key}` belongs to the extended evaluator, but `evaluator` is not \"extended\""),
                ));
            }
            return Ok((None, None));
        }
        self.check_names(obj, "terms", "terms", &TERM_NAMES)?;
        let mut extra = ExtraPair::default();
        for (phase, w) in [
            ("opening", &mut extra.opening),
            ("endgame", &mut extra.endgame),
        ] {
            for (suffix, out) in w.lists_mut() {
                let len = out.len();
                let key = format!("{phase}_{suffix}");
                let v = obj.get(&key).ok_or_else(|| {
                    self.err(format!("missing key `{key}` (a list of {len} integers)"))
                })?;
                let list = v.as_array().filter(|l| l.len() == len).ok_or_else(|| {
                    self.err_at(
                        &key,
                        format!(
                            "`{key}` must be a list of {len} integers, found {}",
                            match v {
                                Value::Array(l) => format!("{} numbers", l.len()),
                                other => kind(other),
                            }
                        ),
                    )
                })?;
                for (i, item) in list.iter().enumerate() {
                    out[i] = self.int(item, &key, || format!("`{key}` item {}", i + 1))?;
                }
            }
        }
        let patterns = match evaluator {
            EvaluatorKind::Patterns => Some(self.patterns(obj)?),
            _ => None,
        };
        Ok((Some(extra), patterns))
    }

    /// A list of integers under `key`, of `len` items when given.
    fn int_list(
        &self,
        v: &Value,
        key: &str,
        what: &str,
        len: Option<usize>,
    ) -> Result<Vec<i32>, Error> {
        let list = v
            .as_array()
            .filter(|l| len.is_none_or(|n| l.len() == n))
            .ok_or_else(|| {
                let want = len.map_or(String::new(), |n| format!(" of {n}"));
                self.err_at(
                    key,
                    format!(
                        "{what} must be a list{want} integers, found {}",
                        match v {
                            Value::Array(l) => format!("{} numbers", l.len()),
                            other => kind(other),
                        }
                    ),
                )
            })?;
        list.iter()
            .enumerate()
            .map(|(i, item)| self.int(item, key, || format!("{what} item {}", i + 1)))
            .collect()
    }

    /// Refuses a `key` (a list of names, optional) that does not list `names` in order.
    fn check_names(
        &self,
        obj: &serde_json::Map<String, Value>,
        key: &str,
        what: &str,
        names: &[&str],
    ) -> Result<(), Error> {
        let Some(v) = obj.get(key) else {
            return Ok(());
        };
        let listed: Option<Vec<&str>> = v
            .as_array()
            .map(|list| list.iter().map(|n| n.as_str().unwrap_or("?")).collect());
        if listed.as_deref() == Some(names) {
            return Ok(());
        }
        Err(self.err_at(
            key,
            format!(
                "`{key}` must list the {what} in order: {}",
                names.join(", ")
            ),
        ))
    }

    /// The pattern evaluator's classic terms, regions and tables.
    fn patterns(&self, obj: &serde_json::Map<String, Value>) -> Result<PatternWeights, Error> {
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

    fn check_features(&self, v: &Value) -> Result<(), Error> {
        let list = v.as_array().ok_or_else(|| {
            self.err_at(
                "features",
                format!(
                    "`features` must be a list of the 10 feature names, found {}",
                    kind(v)
                ),
            )
        })?;
        for (i, item) in list.iter().enumerate() {
            let name = item.as_str().ok_or_else(|| {
                self.err_at(
                    "features",
                    format!(
                        "item {} of `features` is {}, expected a feature name",
                        i + 1,
                        kind(item)
                    ),
                )
            })?;
            if feature_index(name).is_none() {
                return Err(self.err_at(
                    "features",
                    format!(
                    "unknown feature name `{}` at position {} of `features`, expected one of: {}",
                    excerpt(name),
                    i + 1,
                    FEATURE_NAMES.join(", ")
                ),
                ));
            }
        }
        if list.len() != FEATURE_COUNT {
            return Err(self.err_at(
                "features",
                format!(
                    "`features` has {} names, expected {FEATURE_COUNT}",
                    list.len()
                ),
            ));
        }
        for (i, (item, want)) in list.iter().zip(FEATURE_NAMES).enumerate() {
            let got = item.as_str().unwrap_or_default();
            if got != want {
                return Err(self.err_at(
                    "features",
                    format!(
                        "`features` is not in the standard order: position {} is `{got}`, \
                     expected `{want}` (order: {})",
                        i + 1,
                        FEATURE_NAMES.join(", ")
                    ),
                ));
            }
        }
        Ok(())
    }

    fn weights(&self, obj: &serde_json::Map<String, Value>, key: &str) -> Result<Weights, Error> {
        let v = obj.get(key).ok_or_else(|| {
            self.err(format!(
                "missing key `{key}` (a list of {FEATURE_COUNT} integers, one per feature)"
            ))
        })?;
        let mut w = Weights::default();
        match v {
            Value::Array(list) => {
                if list.len() != FEATURE_COUNT {
                    return Err(self.err_at(
                        key,
                        format!(
                            "`{key}` has {} numbers, expected {FEATURE_COUNT}",
                            list.len()
                        ),
                    ));
                }
                for (i, item) in list.iter().enumerate() {
                    w.0[i] = self.int(item, key, || format!("`{key}` item {}", i + 1))?;
                }
            }
            Value::Object(map) => {
                if let Some(name) = map.keys().find(|k| feature_index(k).is_none()) {
                    return Err(self.err_at(
                        key,
                        format!(
                            "unknown feature name `{}` in `{key}`, expected one of: {}",
                            excerpt(name),
                            FEATURE_NAMES.join(", ")
                        ),
                    ));
                }
                for (i, name) in FEATURE_NAMES.iter().enumerate() {
                    let item = map.get(*name).ok_or_else(|| {
                        self.err_at(key, format!("`{key}` has no weight for `{name}`"))
                    })?;
                    w.0[i] = self.int(item, key, || format!("`{key}.{name}`"))?;
                }
            }
            other => {
                return Err(self.err_at(
                    key,
                    format!(
                        "`{key}` must be a list of {FEATURE_COUNT} integers, found {}",
                        kind(other)
                    ),
                ))
            }
        }
        Ok(w)
    }

    fn int(&self, v: &Value, key: &str, what: impl Fn() -> String) -> Result<i32, Error> {
        match v {
            Value::Number(n) if n.is_i64() || n.is_u64() => n
                .as_i64()
                .and_then(|n| i32::try_from(n).ok())
                .ok_or_else(|| {
                    self.err_at(
                        key,
                        format!(
                            "{} ({n}) is out of range {}..={}",
                            what(),
                            i32::MIN,
                            i32::MAX
                        ),
                    )
                }),
            other => Err(self.err_at(
                key,
                format!("{} is not an integer (found {})", what(), kind(other)),
            )),
        }
    }

    fn source(&self, v: &Value) -> Result<WeightsSource, Error> {
        let obj = v.as_object().ok_or_else(|| {
            self.err_at(
                "source",
                format!(
                    "`source` must be an object {{\"run\", \"id\", \"round\"}} or \
                     {{\"fit\"}}, or null, found {}",
                    kind(v)
                ),
            )
        })?;
        if obj.contains_key("fit") {
            if let Some(key) = obj.keys().find(|k| k.as_str() != "fit") {
                return Err(self.err_at(
                    "source",
                    format!(
                        "unknown key `source.{}` beside `source.fit`, expected fit alone",
                        excerpt(key)
                    ),
                ));
            }
            let data =
                self.source_field(obj, "fit", "a string", |v| v.as_str().map(str::to_string))?;
            return Ok(WeightsSource::Fit { data });
        }
        if let Some(key) = obj
            .keys()
            .find(|k| !["run", "id", "round"].contains(&k.as_str()))
        {
            return Err(self.err_at(
                "source",
                format!(
                    "unknown key `source.{}`, expected run, id, round (or fit alone)",
                    excerpt(key)
                ),
            ));
        }
        let run = self.source_field(obj, "run", "a string", |v| v.as_str().map(str::to_string))?;
        let id = self.source_field(obj, "id", "a non-negative integer", Value::as_u64)?;
        let round = self.source_field(obj, "round", "a non-negative integer", |v| {
            v.as_u64().and_then(|r| u32::try_from(r).ok())
        })?;
        Ok(WeightsSource::Specimen { run, id, round })
    }

    /// `source.key`, present and read by `read` (`expected` says what it must be).
    fn source_field<T>(
        &self,
        obj: &serde_json::Map<String, Value>,
        key: &str,
        expected: &str,
        read: impl Fn(&Value) -> Option<T>,
    ) -> Result<T, Error> {
        let v = obj
            .get(key)
            .ok_or_else(|| self.err_at("source", format!("missing key `source.{key}`")))?;
        read(v).ok_or_else(|| {
            self.err_at(
                "source",
                format!("`source.{key}` must be {expected}, found {}", kind(v)),
            )
        })
    }
}

/// A file's weights as a game's player: the conversion belongs to the file, which knows its
/// evaluator's parts (the game only plays what it is given).
impl<'a> Player<'a> {
    /// A weights file's weights and endgame threshold as a player searching to the game's
    /// depths.
    pub fn of_file(file: &'a WeightsFile) -> Player<'a> {
        Player {
            weights: &file.weights,
            extra: file.extra.as_ref(),
            patterns: file.patterns.as_ref(),
            endgame_pieces: file.endgame_pieces,
            limits: None,
            search: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> WeightsFile {
        WeightsFile {
            weights: WeightPair {
                opening: Weights([100, 150, -3, 7, -42, 0, -1, 12, 5, -100]),
                endgame: Weights([90, 170, 0, -8, 4, -100, -15, 33, -2, 1]),
            },
            extra: None,
            patterns: None,
            endgame_pieces: 10,
            source: Some(WeightsSource::Specimen {
                run: "night \"run\"".into(),
                id: 4711,
                round: 19,
            }),
            database_pieces: Some(4),
            search: None,
        }
    }

    fn message(r: Result<WeightsFile, Error>) -> String {
        match r {
            Err(Error::Input(m)) => m,
            other => panic!("expected Error::Input, got {other:?}"),
        }
    }

    #[test]
    fn material_baseline() {
        let m = WeightsFile::material();
        for w in [m.weights.opening, m.weights.endgame] {
            assert_eq!(w.0, [100, 150, 0, 0, 0, 0, 0, 0, 0, 0]);
            assert_eq!(w.by_name("kings"), Some(150));
            assert_eq!(w.get(0), 100);
        }
        assert_eq!(m.endgame_pieces, 12);
        assert_eq!(m.source, None);
        assert_eq!(WeightsFile::load_arg("material").unwrap(), m);
    }

    #[test]
    fn json_round_trip_and_spec_form() {
        let f = sample();
        let text = f.to_json();
        assert!(text.ends_with("}\n"));
        assert_eq!(WeightsFile::from_json(&text, "x.json").unwrap(), f);
        // The weights file's keys (docs/run-folder.md), in order, as a generic JSON reader sees them.
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["features"], serde_json::json!(FEATURE_NAMES));
        assert_eq!(v["opening"][4], -42);
        assert_eq!(v["endgame_pieces"], 10);
        assert_eq!(v["perspective"], PERSPECTIVE);
        assert_eq!(v["source"]["run"], "night \"run\"");
        assert_eq!(v["source"]["id"], 4711);
        assert_eq!(v["source"]["round"], 19);
        assert_eq!(v["database_pieces"], 4);

        let m = WeightsFile::material();
        let text = m.to_json();
        assert!(text.contains("\"source\": null"));
        assert_eq!(WeightsFile::from_json(&text, "m.json").unwrap(), m);
    }

    #[test]
    fn hand_made_files_may_omit_the_optional_keys() {
        let text = r#"{"opening": [1,2,3,4,5,6,7,8,9,10],
                       "endgame": [-1,-2,-3,-4,-5,-6,-7,-8,-9,-10]}"#;
        let f = WeightsFile::from_json(text, "h.json").unwrap();
        assert_eq!(f.weights.opening.0, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        assert_eq!(f.weights.endgame.get(9), -10);
        assert_eq!(f.endgame_pieces, DEFAULT_ENDGAME_PIECES);
        assert_eq!(f.source, None);
        // A file from before the key says nothing of its database.
        assert_eq!(f.database_pieces, None);
        assert!(!WeightsFile::material()
            .to_json()
            .contains("database_pieces"));
    }

    #[test]
    fn bad_json_files_name_the_file_and_the_problem() {
        let good = sample().to_json();
        let open = "[100, 150, -3, 7, -42, 0, -1, 12, 5, -100]";
        let end = "[90, 170, 0, -8, 4, -100, -15, 33, -2, 1]";
        let cases: Vec<(String, &str)> = vec![
            (
                good.replace(open, "[100, 150, -3, 7, -42, 0, -1, 12, 5]"),
                "`opening` has 9 numbers, expected 10",
            ),
            (
                good.replace("[\"pawns\"", "[\"pawn\""),
                "unknown feature name `pawn` at position 1 of `features`",
            ),
            (
                good.replace("\"kings\", \"safe_pawns\"", "\"safe_pawns\", \"kings\""),
                "`features` is not in the standard order: position 2 is `safe_pawns`, \
                 expected `kings`",
            ),
            (
                good.replace(", \"jumps\"]", "]"),
                "`features` has 9 names, expected 10",
            ),
            (
                good.replace("\"endgame\": [", "\"endgame\": x["),
                "not JSON (line 4, column 14: expected value)",
            ),
            (
                good.replace(end, "[90, 170, 0, \"-8\", 4, -100, -15, 33, -2, 1]"),
                "`endgame` item 4 is not an integer (found the string \"-8\")",
            ),
            (
                good.replace(end, "[90, 170, 0, -8.5, 4, -100, -15, 33, -2, 1]"),
                "`endgame` item 4 is not an integer",
            ),
            (
                good.replace(end, "[90, 170, 0, 3000000000, 4, -100, -15, 33, -2, 1]"),
                "`endgame` item 4 (3000000000) is out of range",
            ),
            (
                good.replace(&format!("\"endgame\": {end},"), ""),
                "missing key `endgame`",
            ),
            (
                good.replace(open, "7"),
                "`opening` must be a list of 10 integers",
            ),
            (
                good.replace("\"features\"", "\"feature\""),
                "unknown key `feature`",
            ),
            (
                good.replace("\"endgame_pieces\": 10", "\"endgame_pieces\": -1"),
                "`endgame_pieces` must be an integer from 0 to 24",
            ),
            (
                good.replace("own count minus", "opponent minus"),
                "`perspective`",
            ),
            (good.replace("\"id\": 4711", "\"id\": \"a\""), "`source.id`"),
            (
                good.replace("\"database_pieces\": 4", "\"database_pieces\": 6"),
                "`database_pieces` must be an integer from 0 to 5, found the number 6",
            ),
            (
                good.replace("\"round\": 19", "\"turn\": 19"),
                "unknown key `source.turn`",
            ),
            ("[1, 2]".into(), "expected an object"),
            (
                String::new(),
                "not JSON (line 1, column 0: EOF while parsing a value)",
            ),
        ];
        for (text, needle) in cases {
            let msg = message(WeightsFile::from_json(&text, "x.json"));
            assert!(msg.starts_with("weights file x.json: "), "{msg}");
            assert!(msg.contains(needle), "{msg:?} should contain {needle:?}");
        }
    }

    #[test]
    fn missing_file_is_bad_input() {
        let msg = message(WeightsFile::load(Path::new("/no/such/dir/w.json")));
        assert_eq!(msg, "weights file /no/such/dir/w.json: file not found");
        let msg = message(WeightsFile::load_arg("/no/such/dir/w.toml"));
        assert!(msg.contains("/no/such/dir/w.toml") && msg.contains("not found"));
    }

    #[test]
    fn weights_beyond_the_playable_bound_are_rejected_when_loaded_for_play() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let mut f = sample();
        f.weights.endgame.set(6, -MAX_ABS_WEIGHT);
        f.weights.opening.set(0, MAX_ABS_WEIGHT);
        let ok = dir.join("ok.json");
        std::fs::write(&ok, f.to_json()).unwrap();
        assert_eq!(WeightsFile::load_arg(ok.to_str().unwrap()).unwrap(), f);

        f.weights.endgame.set(6, -MAX_ABS_WEIGHT - 1);
        let bad = dir.join("bad.json");
        std::fs::write(&bad, f.to_json()).unwrap();
        let arg = bad.to_str().unwrap();
        let msg = message(WeightsFile::load_arg(arg));
        assert_eq!(
            msg,
            format!(
                "weights file {arg}: `endgame` item 7 (`promotion_distance`) is -10001, outside \
                 -10000..=10000 (larger weights could overflow the evaluation)"
            )
        );
        // The file format itself still carries it (exports stay faithful).
        assert_eq!(WeightsFile::load_any(&bad).unwrap(), f);
        f.weights.endgame.set(6, i32::MIN);
        assert!(f.check_playable("m").is_err());
    }
}
