//! The config's unit tests: every key's default, bounds, types and messages.

use super::*;
use checkers_engine::game::TieBreak;

// The upper bounds, echoes, ranges and shipped configs, with these helpers.
#[path = "config_limits_tests.rs"]
mod limits;

/// The name an enum setting is written with in TOML (`"genetic"`, `"blend"`).
fn written<T: Serialize>(value: T) -> String {
    serde_json::to_value(value)
        .unwrap()
        .as_str()
        .unwrap()
        .to_string()
}

fn parse(text: &str) -> Result<Config, Error> {
    Config::from_str_named(text, "configs/x.toml")
}

/// The message of a config that must be rejected as bad input.
fn rejected(text: &str) -> String {
    match parse(text) {
        Err(Error::Input(message)) => message,
        other => panic!("expected Error::Input for {text:?}, got {other:?}"),
    }
}

/// Asserts that `text` is rejected with a message naming the file, `key` and `line`.
fn rejected_at(text: &str, key: &str, line: usize) -> String {
    let message = rejected(text);
    assert!(
        message.starts_with(&format!("configs/x.toml line {line}: `{key}`: ")),
        "message {message:?} should name line {line} and `{key}`"
    );
    message
}

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
fn name_alone_gives_every_default() {
    let config = parse("name = \"x\"").unwrap();
    assert_eq!(config, Config::new("x"));
    assert_eq!(config.seed, 1);
    assert_eq!(config.population.size, 100);
    assert_eq!(config.weights, WeightSpace::default());
    let t = &config.tournament;
    assert_eq!(t.rounds, 20);
    assert_eq!(t.survival_fraction, 0.2);
    assert_eq!(t.stall_levels, 2);
    assert_eq!(t.openings, OpeningsSource::ThreeMove);
    assert_eq!(
        (t.max_plies, t.no_progress_plies, t.playoff_openings),
        (300, 80, 8)
    );
    let s = &config.search;
    assert_eq!((s.min_depth, s.max_depth, s.endgame_pieces), (6, 12, 12));
    assert_eq!(s.tie_break, TieBreak::First);
    let e = &config.evolution;
    assert_eq!(written(e.mode), "genetic");
    assert_eq!(e.immigrants, 0.1);
    assert_eq!(written(e.crossover), "uniform");
    assert_eq!((e.mutation_rate, e.mutation_sigma), (0.2, 8.0));
}

#[test]
fn the_mutation_step_shrinks_from_the_first_breeding_to_the_last() {
    let config = parse(
        "name = \"r\"\n[evolution]\nmutation_sigma = 8\nmutation_sigma_end = 1\n\
         [tournament]\nrounds = 5\n",
    )
    .unwrap();
    let e = &config.evolution;
    // Rounds 1..=4 breed (the last round does not): 8, 4, 2, 1, halving each time.
    let steps: Vec<f64> = (1..=4).map(|r| e.mutation_sigma_after(r, 5)).collect();
    for (step, expected) in steps.iter().zip([8.0, 4.0, 2.0, 1.0]) {
        assert!((step - expected).abs() < 1e-9, "{steps:?}");
    }
    let to_zero = EvolutionParams {
        mutation_sigma_end: Some(0.0),
        ..e.clone()
    };
    assert!((to_zero.mutation_sigma_after(3, 5) - 8.0 / 3.0).abs() < 1e-9);
    assert_eq!(to_zero.mutation_sigma_after(4, 5), 0.0);
    // Without an end the step stays put.
    assert_eq!(EvolutionParams::default().mutation_sigma_after(4, 5), 8.0);
    assert!(
        parse("name = \"r\"\n[evolution]\nmutation_sigma_end = -1\n")
            .unwrap_err()
            .to_string()
            .contains("evolution.mutation_sigma_end")
    );
}

#[test]
fn given_keys_override_defaults_and_keep_the_rest() {
    let config = parse(
        "name = \"run\"\nseed = 99\n[search]\nmin_depth = 3\ntie_break = \"random\"\n\
         [evolution]\nmode = \"random\"\ncrossover = \"blend\"\nmutation_sigma = 3\n\
         [tournament]\nopenings = \"start\"\n",
    )
    .unwrap();
    assert_eq!(config.seed, 99);
    assert_eq!(config.search.min_depth, 3);
    assert_eq!(config.search.max_depth, 12);
    assert_eq!(config.search.tie_break, TieBreak::Random);
    assert_eq!(written(config.evolution.mode), "random");
    assert_eq!(written(config.evolution.crossover), "blend");
    assert_eq!(config.evolution.mutation_sigma, 3.0);
    assert_eq!(config.evolution.mutation_rate, 0.2);
    assert_eq!(config.tournament.openings, OpeningsSource::Start);
    let settings = config.game_settings();
    assert_eq!(
        (settings.search.min_depth, settings.search.max_depth),
        (3, 12)
    );
    assert_eq!(settings.search.tie_break, TieBreak::Random);
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
fn numbers_out_of_range_name_key_line_and_bound() {
    let cases: &[(&str, &str, &str)] = &[
        ("[search]\nmin_depth = 0", "search.min_depth", "at least 1"),
        ("[search]\nmax_depth = 41", "search.max_depth", "at most 40"),
        (
            "[search]\nendgame_pieces = 25",
            "search.endgame_pieces",
            "at most 24",
        ),
        ("[population]\nsize = 1", "population.size", "at least 2"),
        (
            "[weights]\ninit_noise = -1",
            "weights.init_noise",
            "between 0 and 10000",
        ),
        (
            "[tournament]\nrounds = 0",
            "tournament.rounds",
            "at least 1",
        ),
        (
            "[tournament]\nrounds = -3",
            "tournament.rounds",
            "at least 1, got -3",
        ),
        (
            "[tournament]\nsurvival_fraction = 0",
            "tournament.survival_fraction",
            "greater than 0 and less than 1",
        ),
        (
            "[tournament]\nsurvival_fraction = 1.0",
            "tournament.survival_fraction",
            "less than 1",
        ),
        (
            "[tournament]\nsurvival_fraction = nan",
            "tournament.survival_fraction",
            "got NaN",
        ),
        (
            "[tournament]\nstall_levels = 0",
            "tournament.stall_levels",
            "at least 1",
        ),
        (
            "[tournament]\nmax_plies = 0",
            "tournament.max_plies",
            "at least 1",
        ),
        (
            "[tournament]\nno_progress_plies = 1",
            "tournament.no_progress_plies",
            "at least 2",
        ),
        (
            "[tournament]\nplayoff_openings = 0",
            "tournament.playoff_openings",
            "at least 1",
        ),
        (
            "[evolution]\nimmigrants = 1.5",
            "evolution.immigrants",
            "between 0 and 1",
        ),
        (
            "[evolution]\nimmigrants = -0.1",
            "evolution.immigrants",
            "between 0 and 1",
        ),
        (
            "[evolution]\nmutation_rate = 2",
            "evolution.mutation_rate",
            "between 0 and 1",
        ),
        (
            "[evolution]\nmutation_sigma = -1",
            "evolution.mutation_sigma",
            "between 0 and 20000, got -1",
        ),
        (
            "[evolution]\nmutation_sigma = inf",
            "evolution.mutation_sigma",
            "got inf",
        ),
        ("seed = -1", "seed", "at least 0"),
    ];
    for (body, key, bound) in cases {
        let message = rejected_at(
            &format!("name = \"x\"\n{body}\n"),
            key,
            body.lines().count() + 1,
        );
        assert!(
            message.contains(bound),
            "{message} should contain {bound:?}"
        );
    }
}

#[test]
fn bounds_themselves_are_accepted() {
    let config = parse(
        "name = \"x\"\nseed = 0\n[population]\nsize = 2\n[weights.opening]\nkings = [5, 5]\n\
         [tournament]\nrounds = 1\nsurvival_fraction = 0.999\nno_progress_plies = 2\n\
         [search]\nmin_depth = 40\nmax_depth = 40\nendgame_pieces = 0\n\
         [evolution]\nimmigrants = 1\nmutation_rate = 0\nmutation_sigma = 0\n",
    )
    .unwrap();
    assert_eq!(config.search.min_depth, 40);
    assert_eq!(config.evolution.immigrants, 1.0);
}

#[test]
fn pairs_of_keys_must_be_ordered() {
    let message = rejected_at(
        "name = \"x\"\n[search]\nmin_depth = 8\nmax_depth = 6\n",
        "search.min_depth",
        3,
    );
    assert!(message.contains("`search.max_depth` (6)"), "{message}");
    // Only max_depth is written: the mistake is reported where it is.
    rejected_at(
        "name = \"x\"\n[search]\nmax_depth = 4\n",
        "search.max_depth",
        3,
    );
    let message = rejected_at(
        "name = \"x\"\n[weights.endgame]\npawns = [100, 100]\nmobility = [5, -5]\n",
        "weights.endgame.mobility",
        4,
    );
    assert!(message.contains("must not exceed"), "{message}");
    let message = rejected_at(
        "name = \"x\"\n[weights.opening]\nkings = [0, 20000]\n",
        "weights.opening.kings",
        3,
    );
    assert!(message.contains("within -10000..=10000"), "{message}");
    rejected_at(
        "name = \"x\"\n[weights.opening]\nqueens = [0, 2]\n",
        "weights.opening.queens",
        3,
    );
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
fn openings_file_is_resolved_from_the_config_folder() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("decks")).unwrap();
    let deck = dir.path().join("decks").join("mine.txt");
    std::fs::write(&deck, "9-13 21-17 5-9\n").unwrap();
    let origin = dir.path().join("run.toml");
    let text = "name = \"x\"\n[tournament]\nopenings = \"decks/mine.txt\"\n";
    let config = Config::from_str_named(text, &origin).unwrap();
    let expected = std::fs::canonicalize(&deck).unwrap();
    assert_eq!(config.tournament.openings, OpeningsSource::File(expected));

    // The same text beside no such file.
    let elsewhere = dir.path().join("decks").join("run.toml");
    let message = match Config::from_str_named(text, &elsewhere) {
        Err(Error::Input(message)) => message,
        other => panic!("expected Error::Input, got {other:?}"),
    };
    assert!(
        message.contains("line 3: `tournament.openings`"),
        "{message}"
    );
    assert!(message.contains("mine.txt"), "{message}");

    // A folder is not a deck.
    let text = "name = \"x\"\n[tournament]\nopenings = \"decks\"\n";
    assert!(matches!(
        Config::from_str_named(text, &origin),
        Err(Error::Input(m)) if m.contains("is not a file")
    ));
}

#[test]
fn an_illegal_move_in_the_openings_file_names_key_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let deck = dir.path().join("deck.txt");
    std::fs::write(&deck, "# mine\n9-13 21-17 5-9\n9-13 22-19 5-9\n").unwrap();
    let origin = dir.path().join("run.toml");
    let text = "name = \"x\"\n[tournament]\nopenings = \"deck.txt\"\n";
    let message = match Config::from_str_named(text, &origin) {
        Err(Error::Input(message)) => message,
        other => panic!("expected Error::Input, got {other:?}"),
    };
    assert!(
        message.contains("line 3: `tournament.openings`"),
        "{message}"
    );
    assert!(message.contains("deck.txt line 3"), "{message}");
    assert!(message.contains("22-19"), "{message}");
}

#[test]
fn to_toml_round_trips_with_every_key_written() {
    let mut config = parse(
        "name = \"round trip\"\nseed = 123456789\n[tournament]\nsurvival_fraction = 0.3\n\
         openings = \"start\"\n[evolution]\nmode = \"random\"\ncrossover = \"blend\"\n\
         mutation_sigma = 0.1\n[search]\ntie_break = \"random\"\n",
    )
    .unwrap();
    let text = config.to_toml();
    assert_eq!(parse(&text).unwrap(), config);
    for key in [
        "seed",
        "size",
        "init",
        "init_noise",
        "kings",
        "promotion_distance",
        "rounds",
        "survival_fraction",
        "stall_levels",
        "openings",
        "max_plies",
        "no_progress_plies",
        "playoff_openings",
        "min_depth",
        "max_depth",
        "endgame_pieces",
        "tie_break",
        "mode",
        "immigrants",
        "crossover",
        "mutation_rate",
        "mutation_sigma",
    ] {
        assert!(
            text.lines()
                .any(|line| line.starts_with(&format!("{key} = "))),
            "{key} missing from\n{text}"
        );
    }
    // Stable: the same config always writes the same text.
    assert_eq!(parse(&text).unwrap().to_toml(), text);

    // An openings file is written as an absolute path that still resolves.
    let dir = tempfile::tempdir().unwrap();
    let deck = dir.path().join("deck.txt");
    std::fs::write(&deck, "9-13 21-17 5-9\n").unwrap();
    config.tournament.openings = OpeningsSource::File(std::fs::canonicalize(&deck).unwrap());
    let text = config.to_toml();
    let read_back = Config::from_str_named(&text, "/nowhere/else/config.toml").unwrap();
    assert_eq!(read_back, config);
}

#[test]
fn islands_are_written_only_when_there_are_several() {
    let one = parse("name = \"x\"\n[islands]\ncount = 1\nmigrants = 7\n").unwrap();
    assert!(!one.to_toml().contains("[islands]"));
    let text = "name = \"x\"\n[islands]\ncount = 3\nmigration_interval = 2\n";
    let three = parse(text).unwrap();
    let written = three.to_toml();
    assert!(written.contains(
        "[islands]\ncount = 3\nmigration_interval = 2\nmigrants = 2\ntopology = \"ring\"\n"
    ));
    assert_eq!(parse(&written).unwrap(), three);
    // Island blocks of ids: island 0 as a run without islands, the others after it.
    assert_eq!(three.island_ids(0), 0..100 * 21);
    assert_eq!(three.island_ids(2), 2 * 100 * 21..3 * 100 * 21);
    let message = rejected("name = \"x\"\n[islands]\ncount = 2\nmigrants = 100\n");
    assert!(
        message.contains("line 4: `islands.migrants`: 100 must be less than"),
        "{message}"
    );
    let message = rejected("name = \"x\"\n[islands]\ncount = 0\n");
    assert!(
        message.contains("`islands.count`: must be at least 1"),
        "{message}"
    );
    let message = rejected("name = \"x\"\n[islands]\ntopology = \"star\"\n");
    assert!(message.contains("`islands.topology`"), "{message}");
}

/// `[chain]`: its keys need links, its links a single population and the pattern evaluator,
/// and `learn_from_earlier` needs fits; a chain reads and writes back.
#[test]
fn a_chain_is_checked_against_the_rest_of_the_config() {
    let patterns =
        "name = \"c\"\n[weights]\nevaluator = \"patterns\"\n[evolution]\nfit_every = 2\n";
    // (the `[chain]` table's lines, the key refused, its line, a part of the message)
    let refusals = [
        ("ranks = \"none\"\n", "chain.ranks", 7, "would do nothing"),
        ("links = 0\n", "chain.links", 7, "at least 1"),
        (
            "links = 2\n[islands]\ncount = 2\n",
            "chain.links",
            7,
            "islands",
        ),
        (
            "links = 2\nl2_tables = -1\n",
            "chain.l2_tables",
            8,
            "between 0 and",
        ),
        (
            "links = 2\nlabel_depth = 17\n",
            "chain.label_depth",
            8,
            "at most 16",
        ),
        (
            "label_depth = 6\n",
            "chain.label_depth",
            7,
            "would do nothing",
        ),
        (
            "links = 2\nregions = \"wide\"\n",
            "chain.regions",
            8,
            "bands+strips+offsets+quadrants",
        ),
        (
            "links = 2\nregions = \"bands\"\n",
            "chain.regions",
            8,
            "wider layout",
        ),
        (
            "regions = \"bands+strips+offsets+quadrants\"\n",
            "chain.regions",
            7,
            "would do nothing",
        ),
        (
            "interim_fits = [1]\n",
            "chain.interim_fits",
            7,
            "would do nothing",
        ),
        (
            "links = 4\ninterim_fits = [2, 2]\n",
            "chain.interim_fits",
            8,
            "2 is not a link after which to fit",
        ),
        (
            "links = 4\ninterim_fits = [1, 4]\n",
            "chain.interim_fits",
            8,
            "each from 1 to 3",
        ),
        (
            "links = 4\ninterim_fits = [0]\n",
            "chain.interim_fits",
            8,
            "0 is not a link",
        ),
        (
            "links = 4\ninterim_fits = [-1]\n",
            "chain.interim_fits",
            8,
            "link numbers are 1 or more, got -1",
        ),
        (
            "links = 4\ninterim_fits = 2\n",
            "chain.interim_fits",
            8,
            "expected a sequence",
        ),
        ("exchange = true\n", "chain.exchange", 7, "would do nothing"),
        (
            "links = 2\nexchange = 1\n",
            "chain.exchange",
            8,
            "expected a boolean",
        ),
    ];
    for (chain, key, line, expected) in refusals {
        let message = rejected_at(&format!("{patterns}[chain]\n{chain}"), key, line);
        assert!(message.contains(expected), "{chain}: {message}");
    }
    let message = rejected_at("name = \"c\"\n[chain]\nlinks = 2\n", "chain.links", 3);
    assert!(message.contains("pattern"), "{message}");
    let text = "name = \"c\"\n[weights]\nevaluator = \"patterns\"\n[chain]\nlinks = 2\n\
                learn_from_earlier = true\n";
    let message = rejected_at(text, "chain.learn_from_earlier", 6);
    assert!(message.contains("fit_every"), "{message}");

    // A key set away from its default is written, and the written config reads back the same.
    let reads_back = |chain: &str, written: &str| {
        let config = parse(&format!("{patterns}[chain]\n{chain}")).unwrap();
        assert!(config.to_toml().contains(written), "{chain}");
        let again = Config::from_str_named(&config.to_toml(), "configs/x.toml").unwrap();
        assert_eq!(again, config, "{chain}");
        config
    };
    let wide = reads_back(
        "links = 2\nregions = \"bands+strips+offsets+quadrants\"\n",
        "regions = \"bands+strips+offsets+quadrants\"",
    );
    assert_eq!(
        wide.chain.regions,
        Some(checkers_engine::eval::RegionLayout::Wide)
    );
    let relabelled = reads_back("links = 2\nlabel_depth = 6\n", "label_depth = 6");
    assert_eq!(relabelled.chain.label_depth, 6);
    let interim = reads_back(
        "links = 8\ninterim_fits = [1, 2, 4]\n",
        "interim_fits = [1, 2, 4]",
    );
    assert_eq!(interim.chain.interim_fits, [1, 2, 4]);
    let trading = reads_back("links = 2\nexchange = true\n", "exchange = true");
    assert!(trading.chain.exchange);

    let config = parse(&format!(
        "{patterns}[chain]\nlinks = 3\nlearn_from_earlier = true\ngate_openings = 0\n"
    ))
    .unwrap();
    // No interim fits unless asked, and then none in the written config.
    assert!(config.chain.interim_fits.is_empty());
    assert!(!config.to_toml().contains("interim_fits"));
    // No relabel unless asked, and then no `label_depth` in the written config.
    assert_eq!(config.chain.label_depth, 0);
    assert!(!config.to_toml().contains("label_depth"));
    // No exchange term unless asked, and then no `exchange` in the written config.
    assert!(!config.chain.exchange);
    assert!(!config.to_toml().contains("exchange"));
    // The links' regions unless a wider layout is named, and then no `regions` in `[chain]`.
    assert_eq!(config.chain.regions, None);
    assert!(!config.to_toml().contains("+offsets"));
    assert_eq!(config.chain.links, 3);
    assert!(config.chain.learn_from_earlier);
    assert_eq!(config.chain.ranks, checkers_engine::eval::RankLayout::Home);
    assert_eq!(config.chain.l2_tables, 10.0);
    assert_eq!(config.chain.gate_openings, 0);
    let again = Config::from_str_named(&config.to_toml(), "configs/x.toml").unwrap();
    assert_eq!(again, config);
    // Without a chain the written config has no `[chain]`: other runs keep their files.
    assert!(!parse(patterns).unwrap().to_toml().contains("[chain]"));
}

#[test]
fn a_start_file_is_resolved_from_the_config_folder_and_checked_against_the_run() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("weights")).unwrap();
    let file = dir.path().join("weights").join("best.json");
    std::fs::write(
        &file,
        checkers_engine::weights_file::WeightsFile::material().to_json(),
    )
    .unwrap();
    let origin = dir.path().join("run.toml");
    let text = "name = \"x\"\n[population]\nstart = \"weights/best.json\"\n";
    let config = Config::from_str_named(text, &origin).unwrap();
    let resolved = config.population.start.clone().unwrap();
    assert!(resolved.is_absolute(), "{}", resolved.display());
    assert!(resolved.ends_with("weights/best.json"));
    // Written absolute into the run folder's config.toml, read back the same.
    let written = config.to_toml();
    assert!(written.contains(&format!("start = {:?}", resolved.display().to_string())));
    assert_eq!(
        Config::from_str_named(&written, "elsewhere/x.toml").unwrap(),
        config
    );
    // Left out of a written config without one.
    assert!(!parse("name = \"x\"\n").unwrap().to_toml().contains("start"));

    let refused = |text: &str| match Config::from_str_named(text, &origin) {
        Err(Error::Input(message)) => {
            assert!(!message.contains("  "), "{message}");
            message
        }
        other => panic!("expected Error::Input for {text:?}, got {other:?}"),
    };
    // No such file: the key, its line and the path.
    let message = refused("name = \"x\"\n[population]\nstart = \"weights/none.json\"\n");
    assert!(message.contains("line 3: `population.start`"), "{message}");
    assert!(message.contains("none.json"), "{message}");
    // Another evaluator's weights.
    let message = refused(
        "name = \"x\"\n[population]\nstart = \"weights/best.json\"\n\
         [weights]\nevaluator = \"patterns\"\n",
    );
    assert!(message.contains("`population.start`"), "{message}");
    assert!(message.contains("the ten evaluator"), "{message}");
    assert!(message.contains("the patterns one"), "{message}");
    // A weight outside the run's ranges (material's kings are 150).
    let message = refused(
        "name = \"x\"\n[population]\nstart = \"weights/best.json\"\n\
         [weights.opening]\nkings = [200, 300]\n",
    );
    assert!(message.contains("opening.kings = 150"), "{message}");
    assert!(message.contains("[200, 300]"), "{message}");
    // Random draws would ignore the start.
    let message = refused(
        "name = \"x\"\n[population]\nstart = \"weights/best.json\"\n[weights]\ninit = \"random\"\n",
    );
    assert!(
        message.contains("`weights.init = \"random\"` would be ignored"),
        "{message}"
    );
}
