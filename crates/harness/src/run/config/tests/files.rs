//! The files a config names or is: the openings file and the start weights resolved from the
//! config's folder and checked, a missing config, and the shipped configs.

use super::*;

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

#[test]
fn load_reports_a_missing_file_as_bad_input() {
    let err = Config::load("/no/such/dir/run.toml").unwrap_err();
    assert!(matches!(&err, Error::Input(m) if m.contains("/no/such/dir/run.toml")));
}

#[test]
fn shipped_configs_load() {
    let quick = Config::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/quick.toml"
    ))
    .unwrap();
    assert_eq!(quick.name, "quick");
    assert_eq!(quick.population.size, 48);
    assert_eq!(quick.tournament.rounds, 10);
    assert_eq!(quick.tournament.openings, OpeningsSource::Random(8));
    assert_eq!((quick.search.min_depth, quick.search.max_depth), (6, 12));
    assert_eq!(quick.tournament.max_plies, 200);
    assert_eq!(quick.tournament.playoff_openings, 4);
    assert_eq!(written(quick.evolution.mode), "genetic");
    let islands = Config::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/islands.toml"
    ))
    .unwrap();
    assert_eq!(islands.islands.count, 4);
    // patterns.toml on each island, the fits pooling every island's games.
    let patterns = Config::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/patterns.toml"
    ))
    .unwrap();
    assert_eq!(islands.population, patterns.population);
    assert_eq!(islands.weights.evaluator, patterns.weights.evaluator);
    assert_eq!(islands.evolution.fit_every, patterns.evolution.fit_every);
    assert!(islands.islands.pool_fits(&islands.evolution));

    let original = Config::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/original.toml"
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
        "/../../configs/overnight-ten.toml"
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

    // The long single runs keep a gated champion and deepen their games; by the model a run
    // prints at its start, hour-gated.toml fits in an hour of two cores and overnight-gated.toml
    // in a night.
    let load = |file: &str| {
        Config::load(format!(
            "{}/../../configs/{file}",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    let (gated, gated_night) = (load("hour-gated.toml"), load("overnight-gated.toml"));
    for long in [&gated, &gated_night] {
        assert!(long.gate.is_on() && long.tournament.deepen_every > 0);
        assert!(long.gate.every.is_multiple_of(long.evolution.fit_every));
    }
    let two_cores = |c: &Config| c.expected_cpu_seconds(0) / 2.0 / 3600.0;
    assert!(
        two_cores(&gated) <= 1.0,
        "hour-gated.toml: {} h",
        two_cores(&gated)
    );
    // hour.toml is a chain of seven overnight-patterns.toml runs, seeds 7 to 13: link 1 is
    // that config's run. The model overstates such short runs (12 minutes for one that takes
    // 6.5 on two idle cores), so it counts the chain at most an hour and a half.
    let hour = load("hour.toml");
    let single = load("overnight-patterns.toml");
    assert_eq!(hour.chain.links, 7);
    let mut link = hour.clone();
    link.chain = ChainConfig::default();
    link.name = single.name.clone();
    assert_eq!(link, single);
    assert!(two_cores(&hour) <= 1.5, "hour.toml: {} h", two_cores(&hour));
    assert!(
        (6.0..=10.0).contains(&two_cores(&gated_night)),
        "overnight-gated.toml: {} h",
        two_cores(&gated_night)
    );
    // overnight-links.toml is hour.toml eight times over (its first seven links are
    // hour.toml's), with interim fits after an eighth, a quarter and a half of it. The model
    // counts it as eight of hour.toml's overstated hour and a half.
    let links_night = load("overnight-links.toml");
    assert_eq!(links_night.chain.links, 8 * hour.chain.links);
    assert_eq!(links_night.chain.interim_fits, [7, 14, 28]);
    let mut hour_again = links_night.clone();
    hour_again.chain.links = hour.chain.links;
    hour_again.chain.interim_fits.clear();
    hour_again.name = hour.name.clone();
    assert_eq!(hour_again, hour);
    assert!(
        two_cores(&links_night) <= 12.0,
        "overnight-links.toml: {} h",
        two_cores(&links_night)
    );
    // overnight.toml is hour.toml and then a data night of seven doublings (1.28 million
    // games), which the model counts within a night; hour-data.toml is overnight-patterns.toml's
    // run and four doublings, within an hour.
    let night = load("overnight.toml");
    let mut hour_again = night.clone();
    hour_again.chain.data_doublings = 0;
    hour_again.chain.data_games = ChainConfig::default().data_games;
    hour_again.name = hour.name.clone();
    assert_eq!(hour_again, hour);
    assert_eq!(night.chain.data_doublings, 7);
    let games: u64 = (1..=7).map(|k| night.chain.data_games_of(k)).sum();
    assert_eq!(games, 1_280_000);
    assert!(
        (6.0..=9.0).contains(&two_cores(&night)),
        "overnight.toml: {} h",
        two_cores(&night)
    );
    let hour_data = load("hour-data.toml");
    let mut single_again = hour_data.clone();
    single_again.chain = ChainConfig::default();
    single_again.name = single.name.clone();
    assert_eq!(single_again, single);
    assert_eq!(
        (hour_data.chain.links, hour_data.chain.data_doublings),
        (1, 4)
    );
    assert!(
        two_cores(&hour_data) <= 1.0,
        "hour-data.toml: {} h",
        two_cores(&hour_data)
    );

    for config in [
        quick,
        original,
        overnight,
        gated,
        hour,
        gated_night,
        night,
        links_night,
        hour_data,
    ] {
        assert_eq!(parse(&config.to_toml()).unwrap(), config);
    }
}
