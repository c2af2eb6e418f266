//! The config's unit tests, continued: the upper bound of every count, lengths and echoes,
//! ranges, the fit's settings, and the shipped configs (`config_tests.rs` has the defaults,
//! types, bounds and messages of each key, and the helpers both use).

use super::super::*;
use super::{parse, rejected, rejected_at, written};
use checkers_engine::eval::WeightRange;

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
    // overnight.toml is hour.toml eight times over (its first seven links are hour.toml's),
    // with interim fits after an eighth, a quarter and a half of it. The model counts it as
    // eight of hour.toml's overstated hour and a half.
    let night = load("overnight.toml");
    assert_eq!(night.chain.links, 8 * hour.chain.links);
    assert_eq!(night.chain.interim_fits, [7, 14, 28]);
    let mut hour_again = night.clone();
    hour_again.chain.links = hour.chain.links;
    hour_again.chain.interim_fits.clear();
    hour_again.name = hour.name.clone();
    assert_eq!(hour_again, hour);
    assert!(
        two_cores(&night) <= 12.0,
        "overnight.toml: {} h",
        two_cores(&night)
    );

    for config in [quick, original, overnight, gated, hour, gated_night, night] {
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
        population: PopulationConfig {
            size: 100_000,
            start: None,
        },
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
