//! The config reference: every key of a run's TOML file with its default and what it does, as
//! one commented file (`checkers-tuner config --defaults`, copied into docs/config.md).
//!
//! The defaults come from [`Config::new`] and its serialisation, so they cannot drift from the
//! code; the words come from [`KEY_DOCS`], and a test fails when a key has none.

use super::key_docs::KEY_DOCS;
use super::run_config::Config;

/// Tables written only when they differ from their defaults: shown commented out.
const OPTIONAL_TABLES: &[&str] = &[
    "weights.extended",
    "weights.patterns",
    "search.genes",
    "gate",
    "islands",
    "chain",
];

/// Keys whose default is "unset" (or 0, off, and then left out of a written config): written
/// commented out, with an example value.
const UNSET_BY_DEFAULT: &[(&str, &str)] = &[
    ("population.start", "\"../results/hour/best.json\""),
    ("weights.evaluator", "\"extended\""),
    ("tournament.deepen_every", "0"),
    ("tournament.deepen_plies", "2"),
    ("search.nodes", "100000"),
    ("evolution.mutation_sigma_end", "1.0"),
    ("evolution.fit_every", "5"),
    ("evolution.fit_window", "0"),
    ("evolution.fit_score_weight", "0.8"),
    ("evolution.fit_endings", "40"),
    ("evolution.fit_l2_tables", "30.0"),
    ("evolution.fit_with", "[\"../results/overnight\"]"),
];

/// The comment of a key by its dotted path; every key has one.
fn key_doc(path: &str) -> &'static str {
    KEY_DOCS
        .iter()
        .find_map(|&(key, doc)| {
            let matches = match key.strip_suffix(".*") {
                Some(table) => path.rsplit_once('.').is_some_and(|(t, _)| t == table),
                None => key == path,
            };
            matches.then_some(doc)
        })
        .unwrap_or_else(|| panic!("no reference text for `{path}`"))
}

/// `text` as `# ` comment lines of at most 96 columns.
fn comment(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::from("#");
    for word in text.split_whitespace() {
        if line.len() + 1 + word.len() > 96 && line.len() > 1 {
            out.push_str(&line);
            out.push('\n');
            line = String::from("#");
        }
        line.push(' ');
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// A complete config with every key at its default, each key preceded by what it does.
/// A `tune` of this file (with a name of your own) is a run of the defaults.
pub fn commented_defaults() -> String {
    let resolved = Config::new("my-run").to_toml();
    let mut out = String::from(
        "# checkers-tuner config: every key with its default (`checkers-tuner config \
         --defaults`).\n# Keep the keys you change; a key left out keeps the default shown \
         here.\n\n",
    );
    let mut table = String::new();
    // A table of features is described once, above its first key.
    let mut previous_doc = "";
    // The resolved config's own two header lines are replaced by the lines above.
    for line in resolved.lines().skip_while(|l| l.starts_with('#')) {
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            table = name.to_string();
            out.push_str(&format!("\n{line}\n"));
            continue;
        }
        let Some((key, _)) = line.split_once(" = ") else {
            if !line.is_empty() {
                out.push_str(&format!("{line}\n"));
            }
            continue;
        };
        let doc = match table.as_str() {
            "" => key_doc(key),
            table => key_doc(&format!("{table}.{key}")),
        };
        if doc != previous_doc {
            out.push_str(&comment(doc));
        }
        previous_doc = doc;
        out.push_str(&format!("{line}\n"));
        for &(unset, example) in UNSET_BY_DEFAULT {
            let (unset_table, name) = unset.rsplit_once('.').unwrap_or(("", unset));
            let last_key = || {
                let keys = table_lines(&resolved, &table).filter_map(|l| l.split_once(" = "));
                keys.last().is_some_and(|(k, _)| k == key)
            };
            if unset_table == table && last_key() {
                out.push_str(&comment(key_doc(unset)));
                out.push_str(&format!("# {name} = {example}\n"));
            }
        }
    }
    for table in OPTIONAL_TABLES {
        out.push_str(&optional_table(table));
    }
    out
}

/// The lines of `[table]` in the TOML `text`, up to the next table.
fn table_lines<'t>(text: &'t str, table: &str) -> impl Iterator<Item = &'t str> {
    let header = format!("[{table}]");
    text.lines()
        .skip_while(move |l| *l != header)
        .skip(1)
        .take_while(|l| !l.starts_with('['))
}

/// `[table]` with its keys at their defaults, commented out (it is left out of a config that
/// keeps them).
fn optional_table(table: &str) -> String {
    // The table as a config that uses it writes it, then its keys put back to their defaults.
    let mut config = Config::new("my-run");
    config.islands.count = 2;
    config.chain.links = 2;
    // Written only when on: on here, put back to its default below.
    config.chain.learn_from_earlier = true;
    config.chain.label_depth = 6;
    config.chain.interim_fits = vec![6, 12, 24];
    config.chain.exchange = true;
    config.chain.data_doublings = 4;
    config.chain.data_games += 1;
    config.chain.data_nodes.push(1);
    config.chain.data_with_links = false;
    // Unset by default: the example is shown.
    config.chain.regions = Some(checkers_engine::eval::RegionLayout::Wide);
    config.gate.candidates = crate::run::GateCandidates::Fits;
    // Written only when set: set here, put back to its default below.
    config.gate.confirm = 1;
    // Written only when off: off here, put back to its default below.
    config.islands.pool_games = !config.islands.pool_games;
    config.weights.extended.terms.max += 1;
    // Genes have no defaults: the table shows an example range for each key.
    config.search.mode = checkers_engine::game::SearchMode::Selective;
    config.search.nodes = Some(100_000);
    let range = checkers_engine::eval::WeightRange::new;
    config.search.genes = checkers_engine::search::SearchGenes {
        lmr_depth: Some(range(2, 5)),
        lmr_moves: Some(range(2, 6)),
        lmr_reduction: Some(range(0, 3)),
        futility_depth: Some(range(0, 4)),
        futility_margin: Some(range(20, 200)),
        aspiration: Some(range(10, 100)),
    };
    let mut written = config.to_toml();
    if table == "weights.extended" {
        written = format!(
            "[{table}]\n{}",
            toml::to_string(&crate::tournament::ExtraRanges::default()).expect("ranges serialise")
        );
    }
    if table == "weights.patterns" {
        // `kings` and `ranks` are written only when set: set here, put back to their
        // defaults below.
        let ranges = crate::tournament::PatternRanges {
            kings: checkers_engine::eval::KingLayout::Quadrants,
            ranks: checkers_engine::eval::RankLayout::Home,
            ..crate::tournament::PatternRanges::default()
        };
        written = format!(
            "[{table}]\n{}",
            toml::to_string(&ranges).expect("ranges serialise")
        );
    }
    let mut out = format!("\n# [{table}]\n");
    for line in table_lines(&written, table) {
        let Some((key, _)) = line.split_once(" = ") else {
            continue;
        };
        let path = format!("{table}.{key}");
        out.push_str(&comment(key_doc(&path)));
        let line = default_line(&path).unwrap_or_else(|| line.to_string());
        out.push_str(&format!("# {line}\n"));
    }
    out
}

/// The line of `path`'s default for a key the table above had to set off its default to have it
/// written at all; `None` for every other key, whose written line is its default.
fn default_line(path: &str) -> Option<String> {
    let chain = super::ChainConfig::default();
    let islands = super::IslandsConfig::default();
    let gate = crate::run::GateConfig::default();
    let patterns = crate::tournament::PatternRanges::default();
    let value = match path {
        "islands.count" => toml_value(islands.count),
        "islands.pool_games" => toml_value(islands.pool_games),
        "chain.links" => toml_value(chain.links),
        "chain.learn_from_earlier" => toml_value(chain.learn_from_earlier),
        "chain.label_depth" => toml_value(chain.label_depth),
        "chain.interim_fits" => toml_value(chain.interim_fits),
        "chain.exchange" => toml_value(chain.exchange),
        "chain.data_doublings" => toml_value(chain.data_doublings),
        "chain.data_games" => toml_value(chain.data_games),
        "chain.data_nodes" => toml_value(chain.data_nodes),
        "chain.data_with_links" => toml_value(chain.data_with_links),
        "gate.candidates" => toml_value(gate.candidates),
        "gate.confirm" => toml_value(gate.confirm),
        "weights.patterns.kings" => toml_value(patterns.kings),
        "weights.patterns.ranks" => toml_value(patterns.ranks),
        _ => return None,
    };
    let key = path.rsplit('.').next().unwrap_or(path);
    Some(format!("{key} = {value}"))
}

/// `value` as TOML writes it on the right of `=`.
fn toml_value(value: impl serde::Serialize) -> String {
    toml::Value::try_from(value)
        .expect("a setting serialises")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_has_its_default_and_a_comment_and_reads_back_as_the_defaults() {
        let text = commented_defaults();
        // Every key line is preceded by a comment (directly, or as part of a feature table).
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            if line.contains(" = ") && !line.starts_with('#') {
                let above = lines[..i]
                    .iter()
                    .rev()
                    .take_while(|l| !l.is_empty() && !l.starts_with('['))
                    .any(|l| l.starts_with('#'));
                assert!(above, "`{line}` has no comment above it");
            }
        }
        assert!(text.contains("\n# mutation_sigma_end = 1.0\n"), "{text}");
        assert!(
            text.contains("\n# [islands]\n") && text.contains("\n# count = 1\n"),
            "{text}"
        );
        assert!(text.contains("\n# topology = \"ring\"\n"), "{text}");
        assert!(text.contains("\n# pool_games = true\n"), "{text}");
        assert!(
            text.contains("\n# [chain]\n") && text.contains("\n# links = 1\n"),
            "{text}"
        );
        let config = Config::from_str_named(&text, "defaults.toml").unwrap();
        assert_eq!(config, Config::new("my-run"));
    }

    #[test]
    fn docs_config_md_holds_the_reference() {
        let doc = include_str!("../../../../../docs/config.md");
        assert!(
            doc.contains(&commented_defaults()),
            "docs/config.md is out of date: paste in `checkers-tuner config --defaults`"
        );
    }

    #[test]
    fn no_reference_text_is_left_without_its_key() {
        let text = Config::new("my-run").to_toml();
        for &(key, _) in KEY_DOCS {
            let leaf = key.rsplit('.').next().unwrap_or(key);
            let unset = UNSET_BY_DEFAULT.iter().any(|&(k, _)| k == key)
                || OPTIONAL_TABLES
                    .iter()
                    .any(|t| key.starts_with(&format!("{t}.")));
            assert!(
                leaf == "*" || unset || text.contains(&format!("\n{leaf} = ")),
                "`{key}` is documented but not a key"
            );
        }
    }
}
