//! The messages of a mistake: the key's place in the text, the file, the line and the key of
//! every kind of mistake, and echoed values clipped.

use super::*;

/// Every part of a dotted key or table header is a key of its own, on the same line.
#[test]
fn layout_finds_keys_in_every_form() {
    let text = "# c = 1\nname = \"x # y\" # z\n\n[search] # s\nmin_depth = 3\n\
                \"max_depth\" = 4\n[ tournament . deep ]\nopenings = '''\na = 1\n'''\n\
                list = [\n  1, # one\n  [2, 3],\n]\nwhen = 1979-05-27 07:32:00\n\
                evolution.mode = \"random\"\npopulation = { size = 3, inner = { k = 'v' } }\n\
                [[arr]]\nx = { }\n";
    text.parse::<toml::Table>().unwrap();
    let layout = Layout::scan(text);
    let found: Vec<(&str, usize)> = layout
        .entries
        .iter()
        .map(|entry| {
            (
                entry.path.as_str(),
                text[..entry.start].matches('\n').count() + 1,
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("name", 2),
            ("search", 4),
            ("search.min_depth", 5),
            ("search.max_depth", 6),
            ("tournament", 7),
            ("tournament.deep", 7),
            ("tournament.deep.openings", 8),
            ("tournament.deep.list", 11),
            ("tournament.deep.when", 15),
            ("tournament.deep.evolution", 16),
            ("tournament.deep.evolution.mode", 16),
            ("tournament.deep.population", 17),
            ("tournament.deep.population.size", 17),
            ("tournament.deep.population.inner", 17),
            ("tournament.deep.population.inner.k", 17),
            ("arr", 18),
            ("arr.x", 19),
        ]
    );
}

#[test]
fn type_errors_name_key_line_and_expected_type() {
    let message = rejected_at(
        "name = \"x\"\n\n[search]\n# depth\nmax_depth = 9\n\nmin_depth = \"six\"\n",
        "search.min_depth",
        7,
    );
    assert!(message.contains("\"six\""), "{message}");
    assert!(message.contains("expected an integer"), "{message}");
    let message = rejected_at(
        "name = \"x\"\n[tournament]\nsurvival_fraction = \"most\"\n",
        "tournament.survival_fraction",
        3,
    );
    assert!(message.contains("expected a number"), "{message}");
    let message = rejected_at(
        "name = \"x\"\n[evolution]\nmode = \"evolve\"\n",
        "evolution.mode",
        3,
    );
    assert!(message.contains("`random` or `genetic`"), "{message}");
    rejected_at("name = 5\n", "name", 1);
    rejected_at("name = \"x\"\npopulation = 5\n", "population", 2);
    rejected_at(
        "name = \"x\"\n[tournament]\nopenings = 3\n",
        "tournament.openings",
        3,
    );
    rejected_at(
        "name = \"x\"\n[search]\ntie_break = \"last\"\n",
        "search.tie_break",
        3,
    );
    rejected_at(
        "name = \"x\"\n[tournament]\nrounds = 2.5\n",
        "tournament.rounds",
        3,
    );
}

#[test]
fn unknown_keys_are_rejected_by_name_with_the_valid_ones() {
    let message = rejected_at(
        "name = \"x\"\n[population]\nsize = 10\nsizes = 12\n",
        "population.sizes",
        4,
    );
    assert!(message.contains("unknown key `sizes`"), "{message}");
    assert!(message.contains("`size`"), "{message}");
    let message = rejected_at("name = \"x\"\nthreads = 4\n", "threads", 2);
    assert!(message.contains("`evolution`"), "{message}");
    rejected_at("name = \"x\"\n[selection]\nsize = 3\n", "selection", 2);
    rejected_at("name = \"x\"\nsearch.depth = 3\n", "search.depth", 2);
    rejected_at("name = \"x\"\nsearch = { depth = 3 }\n", "search.depth", 2);
}

#[test]
fn syntax_errors_name_the_line() {
    let message = rejected("name = \"x\"\n[search]\nmin_depth 6\n");
    assert!(message.starts_with("configs/x.toml line 3: "), "{message}");
    let message = rejected("name = \"x\"\n[search]\n[search]\n");
    assert!(message.starts_with("configs/x.toml line 3: "), "{message}");
    assert!(!message.contains('\n'), "{message}");
    let message = rejected("name = \"x\"\nseed = 99999999999999999999\n");
    assert!(message.starts_with("configs/x.toml line 2: "), "{message}");
}

#[test]
fn name_is_required_and_must_be_a_folder_name() {
    let message = rejected("seed = 3\n");
    assert!(
        message.starts_with("configs/x.toml: `name`: missing"),
        "{message}"
    );
    rejected_at("seed = 3\nname = \"\"\n", "name", 2);
    rejected_at("name = \"  \"\n", "name", 1);
    for bad in ["a/b", "a\\\\b", "..", "up/../x", "tab\\there"] {
        let message = rejected_at(&format!("name = \"{bad}\"\n"), "name", 1);
        assert!(message.contains("must not contain"), "{message}");
    }
}

#[test]
fn the_name_is_at_most_100_bytes_and_never_echoed_whole() {
    assert!(parse(&format!("name = \"{}\"\n", "n".repeat(100))).is_ok());
    for name in [
        "n".repeat(101),
        "é".repeat(51),
        "x".repeat(300),
        "y".repeat(1 << 20),
    ] {
        let message = rejected_at(&format!("name = \"{name}\"\n"), "name", 1);
        assert!(
            message.contains(&format!("is {} bytes long, at most 100", name.len())),
            "{}",
            excerpt(&message)
        );
        assert!(
            message.len() < 400,
            "{} bytes: {}",
            message.len(),
            excerpt(&message)
        );
    }
}

#[test]
fn echoed_values_are_clipped_whatever_their_length() {
    let huge = "z".repeat(1 << 20);
    for (body, key) in [
        (format!("[evolution]\nmode = \"{huge}\""), "evolution.mode"),
        (
            format!("[tournament]\nopenings = \"random:{huge}\""),
            "tournament.openings",
        ),
        (
            format!("[tournament]\nopenings = \"{huge}\""),
            "tournament.openings",
        ),
        (
            format!("[search]\ntie_break = \"{huge}\""),
            "search.tie_break",
        ),
        (
            format!("[weights.opening]\nkings = [1, \"{huge}\"]"),
            "weights.opening.kings",
        ),
    ] {
        let message = rejected_at(&format!("name = \"x\"\n{body}\n"), key, 3);
        assert!(
            message.len() < 500,
            "{} bytes: {}",
            message.len(),
            excerpt(&message)
        );
    }
    let message = rejected(&format!("name = \"x\"\n[tournament]\n{huge} = 1\n"));
    assert!(message.contains("unknown key"), "{}", excerpt(&message));
    assert!(
        message.len() < 600,
        "{} bytes: {}",
        message.len(),
        excerpt(&message)
    );
    let message = rejected(&format!(
        "name = \"x\"\n[tournament]\nopenings = \"{huge}\"\n"
    ));
    assert!(
        message.contains("1048576 bytes long, at most 4096"),
        "{message}"
    );
}
