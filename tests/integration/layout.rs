//! The house as docs/layout.md draws it: its table names every source folder of the workspace
//! with every file in it, and nothing that is gone; the engine crate and our CheckerBoard
//! library stay free of the harness and of the command line's crates.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

/// Where the workspace's sources are.
const SOURCE_ROOTS: [&str; 5] = [
    "src",
    "crates/engine/src",
    "crates/harness/src",
    "checkerboard/src",
    "tests/cb-fixture/src",
];

/// The files that count as sources: Rust, and the C the engine's header exporter ships.
const SOURCE_EXTENSIONS: [&str; 3] = ["rs", "c", "h"];

/// Every folder below the source roots that holds sources, with the names of those sources.
fn source_folders(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    fn walk(root: &Path, rel: &str, out: &mut BTreeMap<String, BTreeSet<String>>) {
        let mut files = BTreeSet::new();
        for entry in fs::read_dir(root.join(rel)).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            let path = entry.path();
            if path.is_dir() {
                walk(root, &format!("{rel}{name}/"), out);
            } else if path
                .extension()
                .is_some_and(|e| SOURCE_EXTENSIONS.iter().any(|x| e == *x))
            {
                files.insert(name);
            }
        }
        if !files.is_empty() {
            out.insert(rel.to_string(), files);
        }
    }
    let mut out = BTreeMap::new();
    for source_root in SOURCE_ROOTS {
        walk(root, &format!("{source_root}/"), &mut out);
    }
    out
}

/// The spans between backticks of `cell`.
fn code_spans(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// The table's rows: a folder (its first cell, `` `path/` ``) and the files its second cell names.
fn layout_table(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 || !cells[0].is_empty() {
            continue;
        }
        let Some(folder) = code_spans(cells[1]).first().copied() else {
            continue;
        };
        if !folder.ends_with('/') {
            continue;
        }
        let files = code_spans(cells[2]).into_iter().map(String::from).collect();
        assert!(
            out.insert(folder.to_string(), files).is_none(),
            "docs/layout.md names {folder} twice"
        );
    }
    out
}

#[test]
fn docs_layout_names_every_source_folder_and_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = fs::read_to_string(root.join("docs/layout.md")).unwrap();
    let table = layout_table(&text);
    let tree = source_folders(root);
    let mut wrong = Vec::new();
    for (folder, files) in &tree {
        match table.get(folder) {
            None => wrong.push(format!("{folder}: not in the table")),
            Some(named) => {
                for file in files.difference(named) {
                    wrong.push(format!("{folder}{file}: not named"));
                }
                for file in named.difference(files) {
                    wrong.push(format!("{folder}{file}: named, but there is no such file"));
                }
            }
        }
    }
    for folder in table.keys().filter(|f| !tree.contains_key(*f)) {
        wrong.push(format!("{folder}: named, but it holds no sources"));
    }
    assert!(
        wrong.is_empty(),
        "docs/layout.md is out of date:\n{}",
        wrong.join("\n")
    );
}

/// The `[dependencies]` of a crate's manifest, by name.
fn dependencies(manifest: &Path) -> BTreeSet<String> {
    let text = fs::read_to_string(manifest).unwrap();
    let table: toml::Table = text.parse().unwrap();
    table
        .get("dependencies")
        .and_then(|d| d.as_table())
        .map(|d| d.keys().cloned().collect())
        .unwrap_or_default()
}

#[test]
fn the_engine_crate_and_our_checkerboard_library_stand_without_the_harness() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let engine = dependencies(&root.join("crates/engine/Cargo.toml"));
    for outside in [
        "checkers-harness",
        "clap",
        "plotters",
        "indicatif",
        "toml_edit",
    ] {
        assert!(
            !engine.contains(outside),
            "the engine crate depends on {outside}"
        );
    }
    let library = dependencies(&root.join("checkerboard/Cargo.toml"));
    assert_eq!(
        library,
        BTreeSet::from(["checkers-engine".to_string()]),
        "our CheckerBoard library depends on the engine crate alone"
    );
}
