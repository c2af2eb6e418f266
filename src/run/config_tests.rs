//! The config's unit tests: every key's default, bounds, types and messages.

use super::*;
use crate::eval::WeightRange;
use crate::game::TieBreak;

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

#[test]
fn shipped_configs_load() {
    let quick = Config::load(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/quick.toml")).unwrap();
    assert_eq!(quick.name, "quick");
    assert_eq!(quick.population.size, 48);
    assert_eq!(quick.tournament.rounds, 10);
    assert_eq!(quick.tournament.openings, OpeningsSource::Random(8));
    assert_eq!((quick.search.min_depth, quick.search.max_depth), (6, 12));
    assert_eq!(quick.tournament.max_plies, 200);
    assert_eq!(quick.tournament.playoff_openings, 4);
    assert_eq!(written(quick.evolution.mode), "genetic");
    let islands =
        Config::load(concat!(env!("CARGO_MANIFEST_DIR"), "/configs/islands.toml")).unwrap();
    assert_eq!(islands.islands.count, 4);
    // patterns.toml on each island, the fits pooling every island's games.
    let patterns = Config::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/configs/patterns.toml"
    ))
    .unwrap();
    assert_eq!(islands.population, patterns.population);
    assert_eq!(islands.weights.evaluator, patterns.weights.evaluator);
    assert_eq!(islands.evolution.fit_every, patterns.evolution.fit_every);
    assert!(islands.islands.pool_fits(&islands.evolution));

    let original = Config::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/configs/original.toml"
    ))
    .unwrap();
    assert_eq!(original.name, "original");
    assert_eq!(original.population, PopulationConfig::default());
    assert_eq!(original.tournament.rounds, 20);
    assert_eq!(original.tournament.survival_fraction, 0.2);
    assert_eq!(original.tournament.openings, OpeningsSource::Start);
    assert_eq!(written(original.evolution.mode), "random");
    assert_eq!(original.weights, WeightSpace::uniform(-100, 100));
    assert_eq!(original.validation.every, 0);
    assert_eq!(
        (original.search.min_depth, original.search.max_depth),
        (5, 11)
    );

    let overnight = Config::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/configs/overnight-ten.toml"
    ))
    .unwrap();
    assert_eq!(overnight.name, "overnight-ten");
    // Trained on random openings, so the 156-ballot deck stays unseen for `match`; a
    // learning curve; the depths `match` uses.
    assert!(matches!(
        overnight.tournament.openings,
        OpeningsSource::Random(_)
    ));
    assert!(overnight.validation.every > 0);
    assert_eq!(written(overnight.evolution.mode), "genetic");
    assert_eq!(
        (overnight.search.min_depth, overnight.search.max_depth),
        (6, 12)
    );
    // A long run: the mutation step shrinks over it, so the population settles.
    let e = &overnight.evolution;
    let rounds = overnight.tournament.rounds;
    assert!(rounds >= 60);
    assert!(e.mutation_sigma_after(rounds - 1, rounds) < e.mutation_sigma_after(1, rounds));

    // The long runs keep a gated champion and deepen their games; by the model a run prints at
    // its start, hour.toml fits in an hour of two cores and overnight.toml in a night.
    let load = |file: &str| {
        Config::load(format!("{}/configs/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    };
    let (hour, night) = (load("hour.toml"), load("overnight.toml"));
    for long in [&hour, &night] {
        assert!(long.gate.is_on() && long.tournament.deepen_every > 0);
        assert!(long.gate.every.is_multiple_of(long.evolution.fit_every));
    }
    let two_cores = |c: &Config| c.expected_cpu_seconds(0) / 2.0 / 3600.0;
    assert!(two_cores(&hour) <= 1.0, "hour.toml: {} h", two_cores(&hour));
    assert!(
        (6.0..=10.0).contains(&two_cores(&night)),
        "overnight.toml: {} h",
        two_cores(&night)
    );

    for config in [quick, original, overnight, hour, night] {
        assert_eq!(parse(&config.to_toml()).unwrap(), config);
    }
}

#[test]
fn load_reports_a_missing_file_as_bad_input() {
    let err = Config::load("/no/such/dir/run.toml").unwrap_err();
    assert!(matches!(&err, Error::Input(m) if m.contains("/no/such/dir/run.toml")));
}

#[test]
fn every_count_has_an_upper_bound_named_with_key_and_line() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "[tournament]\nrounds = 1000001",
            "tournament.rounds",
            "at most 1000000",
        ),
        (
            "[tournament]\nrounds = 4294967295",
            "tournament.rounds",
            "at most 1000000",
        ),
        (
            "[tournament]\nstall_levels = 1001",
            "tournament.stall_levels",
            "at most 1000",
        ),
        (
            "[tournament]\nmax_plies = 10001",
            "tournament.max_plies",
            "at most 10000",
        ),
        (
            "[tournament]\nno_progress_plies = 4294967295",
            "tournament.no_progress_plies",
            "at most 10000",
        ),
        (
            "[tournament]\nplayoff_openings = 4294967295",
            "tournament.playoff_openings",
            "at most 1000, got 4294967295",
        ),
        (
            "[tournament]\nplayoff_openings = 1001",
            "tournament.playoff_openings",
            "at most 1000",
        ),
        (
            "[tournament]\npairing_openings = 65",
            "tournament.pairing_openings",
            "at most 64",
        ),
        (
            "[tournament]\nrandom_opening_balance = 10001",
            "tournament.random_opening_balance",
            "at most 10000",
        ),
        (
            "[validation]\nevery = 1000001",
            "validation.every",
            "at most 1000000",
        ),
        (
            "[validation]\nopenings = 10001",
            "validation.openings",
            "at most 10000",
        ),
        (
            "[validation]\nopening_plies = 41",
            "validation.opening_plies",
            "at most 40",
        ),
        ("[islands]\ncount = 1025", "islands.count", "at most 1024"),
        (
            "[islands]\nmigration_interval = 4294967295",
            "islands.migration_interval",
            "at most 1000000",
        ),
        (
            "[islands]\nmigrants = 100001",
            "islands.migrants",
            "at most 100000",
        ),
        (
            "[evolution]\nfit_every = 1000001",
            "evolution.fit_every",
            "at most 1000000",
        ),
        (
            "[evolution]\nfit_endings = 1001",
            "evolution.fit_endings",
            "at most 1000",
        ),
        (
            "[evolution]\nfit_l2_tables = -1.0",
            "evolution.fit_l2_tables",
            "got -1",
        ),
        (
            "[evolution]\nfit_window = 1000001",
            "evolution.fit_window",
            "at most 1000000",
        ),
        (
            "[evolution]\nmutation_sigma = 20001",
            "evolution.mutation_sigma",
            "between 0 and 20000",
        ),
        (
            "[evolution]\nmutation_sigma_end = 1e300",
            "evolution.mutation_sigma_end",
            "between 0 and 20000",
        ),
        (
            "[population]\nsize = 100001",
            "population.size",
            "at most 100000",
        ),
        (
            "[search]\ndatabase_pieces = 6",
            "search.database_pieces",
            "at most 5",
        ),
        (
            "seed = 9223372036854775807\n[search]\nmax_depth = 99",
            "search.max_depth",
            "at most 40",
        ),
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
fn upper_bounds_themselves_are_accepted() {
    let config = parse(
        "name = \"x\"\n[population]\nsize = 10\n[tournament]\nrounds = 1000000\n\
         stall_levels = 1000\nmax_plies = 10000\nno_progress_plies = 10000\n\
         playoff_openings = 1000\n[validation]\nevery = 1000000\n[islands]\ncount = 2\n\
         migration_interval = 1000000\n[evolution]\nmutation_sigma = 20000\n\
         mutation_sigma_end = 20000\nfit_every = 1000000\n",
    )
    .unwrap();
    assert_eq!(config.tournament.rounds, 1_000_000);
    assert_eq!(config.tournament.playoff_openings, 1000);
    // The largest ids stay far below 2^53, so every reader of the files keeps them exact.
    let big = parse(
        "name = \"x\"\n[population]\nsize = 100000\n[tournament]\nrounds = 1000000\n\
         playoff_openings = 1\n[islands]\ncount = 1\n",
    );
    assert!(big.is_err(), "a round robin of 100002 finalists is refused");
    let ids = Config {
        population: PopulationConfig { size: 100_000 },
        islands: IslandsConfig {
            count: 1024,
            ..IslandsConfig::default()
        },
        tournament: TournamentParams {
            rounds: 1_000_000,
            ..TournamentParams::default()
        },
        ..Config::new("x")
    };
    assert!(ids.island_ids(1024).start < 1 << 53);
}

#[test]
fn the_playoff_is_bounded_for_the_most_finalists_a_config_allows() {
    // 3000 specimens: up to 3002 finalists, 3002 x 3001 x 8 = 72 million games.
    let fits = parse("name = \"x\"\n[population]\nsize = 3000\n").unwrap();
    assert_eq!(fits.most_finalists(), 3002);
    let message = rejected_at(
        "name = \"x\"\n[population]\nsize = 4000\n[tournament]\nplayoff_openings = 8\n",
        "tournament.playoff_openings",
        5,
    );
    for part in [
        "up to 4002 finalists",
        "128096016 playoff games",
        "more than the 100000000 allowed",
        "`population.size` (4000)",
    ] {
        assert!(message.contains(part), "{message} should contain {part:?}");
    }
    // Not written: reported without a line, under the key that bounds it.
    let message = rejected("name = \"x\"\n[population]\nsize = 100000\n");
    assert!(
        message.starts_with("configs/x.toml: `tournament.playoff_openings`: "),
        "{message}"
    );
    let message = rejected(
        "name = \"x\"\n[population]\nsize = 600\n[islands]\ncount = 8\n\
         [tournament]\nplayoff_openings = 8\n",
    );
    assert!(message.contains("times `islands.count` (8)"), "{message}");
    assert!(parse("name = \"x\"\n[population]\nsize = 600\n[islands]\ncount = 8\n[tournament]\nplayoff_openings = 2\n").is_ok());
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

#[test]
fn a_range_is_exactly_two_integers() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "[weights.opening]\nkings = [100, 300, \"x\", {a = 1}]",
            "weights.opening.kings",
            "a range is exactly two numbers [min, max], got 4 elements",
        ),
        (
            "[weights.opening]\nkings = [100, 300, 400]",
            "weights.opening.kings",
            "got 3 elements",
        ),
        (
            "[weights.endgame]\npawns = [100]",
            "weights.endgame.pawns",
            "got 1 element",
        ),
        (
            "[weights.endgame]\nmobility = []",
            "weights.endgame.mobility",
            "got 0 elements",
        ),
        (
            "[weights.opening]\njumps = [1, \"x\"]",
            "weights.opening.jumps",
            "its max is the text \"x\"",
        ),
        (
            "[weights.opening]\njumps = [1.5, 3]",
            "weights.opening.jumps",
            "1.5, not an integer",
        ),
        (
            "[weights.opening]\njumps = [[1], 3]",
            "weights.opening.jumps",
            "its min is an array",
        ),
        (
            "[weights.opening]\njumps = [1, {a = 2}]",
            "weights.opening.jumps",
            "is a table",
        ),
        (
            "[weights.opening]\njumps = [true, 3]",
            "weights.opening.jumps",
            "true, not a number",
        ),
        (
            "[weights.opening]\njumps = 5",
            "weights.opening.jumps",
            "two integers",
        ),
        (
            "[weights.opening]\njumps = [0, 9223372036854775807]",
            "weights.opening.jumps",
            "within -10000..=10000",
        ),
        (
            "[weights.extended]\nmen = [1, 2, 3]",
            "weights.extended.men",
            "got 3 elements",
        ),
        (
            "[weights.extended]\nterms = [-5]",
            "weights.extended.terms",
            "got 1 element",
        ),
    ];
    for (body, key, wanted) in cases {
        let message = rejected_at(&format!("name = \"x\"\n{body}\n"), key, 3);
        assert!(
            message.contains(wanted),
            "{message} should contain {wanted:?}"
        );
    }
    let config = parse("name = \"x\"\n[weights.opening]\nkings = [ 120 , 200 ]\n").unwrap();
    assert_eq!(config.weights.opening.kings, WeightRange::new(120, 200));
}

/// Endings are played on by the endgame database: asking for them without one is refused,
/// naming the key; with one they are read, and a config without them is written without the
/// key.
#[test]
fn fit_endings_need_the_database() {
    let message = rejected_at(
        "name = \"x\"\n[search]\ndatabase_pieces = 0\n[evolution]\nfit_every = 2\nfit_endings = 40\n",
        "evolution.fit_endings",
        6,
    );
    assert!(message.contains("search.database_pieces"), "{message}");
    let config = parse("name = \"x\"\n[evolution]\nfit_every = 2\nfit_endings = 40\n").unwrap();
    assert_eq!(config.evolution.fit_endings, 40);
    assert!(toml::to_string(&config)
        .unwrap()
        .contains("fit_endings = 40"));
    let plain = parse("name = \"x\"\n").unwrap();
    assert_eq!(plain.evolution.fit_endings, 0);
    assert!(!toml::to_string(&plain).unwrap().contains("fit_endings"));
}

/// `fit_l2_tables`: the pull of the run's pattern fits, kept in a written config when it is not
/// the default (30) and left out when it is.
#[test]
fn the_fits_pull_on_the_tables_is_a_setting() {
    let config = parse("name = \"x\"\n[evolution]\nfit_every = 2\nfit_l2_tables = 10.0\n").unwrap();
    assert_eq!(config.evolution.fit_l2_tables, 10.0);
    assert!(toml::to_string(&config)
        .unwrap()
        .contains("fit_l2_tables = 10.0"));
    let plain = parse("name = \"x\"\n").unwrap();
    assert_eq!(plain.evolution.fit_l2_tables, 30.0);
    assert!(!toml::to_string(&plain).unwrap().contains("fit_l2_tables"));
}
