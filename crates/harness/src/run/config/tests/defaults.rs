//! Every key's default, keys given over the defaults, and the resolved config written back
//! (`to_toml`), sections left out when off.

use super::*;

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
