//! The bounds of every number and range: each key's lower and upper bound named with the key
//! and its line, the bounds themselves accepted, pairs of keys in order, and the playoff's size.

use super::*;

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
