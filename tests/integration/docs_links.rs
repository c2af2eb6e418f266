//! Every relative link of README.md and docs/*.md points at something: the file exists, and an
//! `#anchor` is a heading of the file it names (GitHub's anchors: lowercase, spaces to `-`,
//! other punctuation but `-` and `_` dropped).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The Markdown files of the documentation.
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![root.join("README.md"), root.join("configs/README.md")];
    let mut docs: Vec<PathBuf> = fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files.retain(|f| f.is_file());
    files
}

/// Lines outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .filter(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                return false;
            }
            !fenced
        })
        .collect()
}

/// GitHub's anchor of a heading's text.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a Markdown file's headings (a repeated heading gets `-1`, `-2`, …).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    for line in prose(text) {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let base = slug(heading);
        let mut anchor = base.clone();
        let mut n = 0;
        while seen.contains(&anchor) {
            n += 1;
            anchor = format!("{base}-{n}");
        }
        seen.insert(anchor);
    }
    seen
}

/// The targets of the Markdown links `[text](target)` and images `![alt](target)` in prose.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text) {
        let mut from = 0;
        while let Some(found) = line[from..].find("](") {
            let at = from + found;
            let after = &line[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            // Inline code on the line may hold `](`: skip what is inside backticks.
            if line[..at].matches('`').count() % 2 == 0 {
                out.push(target.to_string());
            }
            from = at + 2 + end;
        }
    }
    out
}

/// Why `target`, linked from `file`, points at nothing, if it does.
fn broken(file: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let resolved = if path.is_empty() {
        file.to_path_buf()
    } else {
        file.parent().unwrap().join(path)
    };
    if !resolved.exists() {
        return Some(format!("{target}: no such file"));
    }
    let anchor = anchor?;
    let text = fs::read_to_string(&resolved).ok()?;
    if anchors(&text).contains(anchor) {
        None
    } else {
        Some(format!("{target}: no heading with anchor #{anchor}"))
    }
}

/// Every broken link of the documentation, as `file: target: why`.
fn broken_links(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    for file in documents(root) {
        let text = fs::read_to_string(&file).unwrap();
        for target in links(&text) {
            if let Some(why) = broken(&file, &target) {
                let name = file.strip_prefix(root).unwrap().display().to_string();
                problems.push(format!("{name}: {why}"));
            }
        }
    }
    problems
}

#[test]
fn every_relative_link_resolves() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let problems = broken_links(root);
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn a_broken_link_or_anchor_is_found() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("docs")).unwrap();
    fs::write(
        dir.path().join("docs/a.md"),
        "# Title: one, two\n\n## Second `part`\n\n```text\n[not](a link)\n```\n",
    )
    .unwrap();
    fs::write(
        dir.path().join("README.md"),
        "[ok](docs/a.md) [ok](docs/a.md#title-one-two) [ok](docs/a.md#second-part) \
         [ok](#self) [missing](docs/b.md) [bad anchor](docs/a.md#third) `[code](x.md)` \
         ![pic](docs/nothing.svg) [web](https://example.org/x)\n\n# Self\n",
    )
    .unwrap();
    let problems = broken_links(dir.path());
    assert_eq!(
        problems,
        [
            "README.md: docs/b.md: no such file",
            "README.md: docs/a.md#third: no heading with anchor #third",
            "README.md: docs/nothing.svg: no such file",
        ]
    );
}
