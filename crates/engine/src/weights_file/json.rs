//! The JSON form: the weights file as `best.json`, `export --format json` and `fit` write it,
//! and as `match`, `analyse` and `play` read it.

use crate::error::Error;
use crate::eval::{Weights, FEATURE_NAMES, PERSPECTIVE};
use crate::text::{excerpt, strip_bom};

use super::key_lines::KeyLines;
use super::validate::{top_level_lines, Ctx, StrictJson};
use super::{WeightsFile, WeightsSource};

impl WeightsFile {
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
        let (evaluator, extra) = match &self.extra {
            None => (String::new(), String::new()),
            Some(extra) => {
                let lines = KeyLines::Json.extended(extra);
                let lines = match &self.patterns {
                    None => lines,
                    Some(patterns) => lines + &KeyLines::Json.patterns(patterns),
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
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::eval::DEFAULT_ENDGAME_PIECES;
    use crate::weights_file::tests::{message, sample};

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
}
