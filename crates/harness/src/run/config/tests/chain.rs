//! `[chain]`: its keys checked against the rest of the config.

use super::*;

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

/// The data night's keys (`chain.data_*`): they need doublings, take `datagen`'s budgets, and
/// make a chain of one link; a night reads and writes back, its defaults left out.
#[test]
fn a_data_night_is_checked_and_makes_a_chain_of_one_link() {
    let patterns = "name = \"c\"\n[weights]\nevaluator = \"patterns\"\n";
    let refusals = [
        (
            "data_games = 5\n",
            "chain.data_games",
            5,
            "would do nothing",
        ),
        (
            "links = 2\ndata_games = 5\n",
            "chain.data_games",
            6,
            "need doublings",
        ),
        (
            "data_nodes = [300]\n",
            "chain.data_nodes",
            5,
            "would do nothing",
        ),
        (
            "data_doublings = 2\ndata_nodes = []\n",
            "chain.data_nodes",
            6,
            "0 budgets",
        ),
        (
            "data_doublings = 2\ndata_nodes = [0]\n",
            "chain.data_nodes",
            6,
            "0: expected 1 to",
        ),
        (
            "data_doublings = 17\n",
            "chain.data_doublings",
            5,
            "at most 16",
        ),
        (
            "data_doublings = 16\ndata_games = 100000000\n",
            "chain.data_games",
            6,
            "in the last of 16 doublings",
        ),
        (
            "data_doublings = 1\ndata_games = 0\n",
            "chain.data_games",
            6,
            "at least 1",
        ),
    ];
    for (chain, key, line, expected) in refusals {
        let message = rejected_at(&format!("{patterns}[chain]\n{chain}"), key, line);
        assert!(message.contains(expected), "{chain}: {message}");
    }
    // A chain of one link with a data night is a chain; its defaults are left out when written.
    let config = parse(&format!("{patterns}[chain]\ndata_doublings = 3\n")).unwrap();
    assert!(!config.chain.is_single());
    let written = config.to_toml();
    assert!(written.contains("data_doublings = 3"), "{written}");
    for default in ["data_games", "data_nodes", "data_with_links"] {
        assert!(!written.contains(default), "{written}");
    }
    assert_eq!(
        (1..=4)
            .map(|k| config.chain.data_games_of(k))
            .collect::<Vec<_>>(),
        [20_000, 20_000, 40_000, 80_000]
    );
    let text = format!(
        "{patterns}[chain]\ndata_doublings = 2\ndata_games = 30\ndata_nodes = [300, 900]\n\
         data_with_links = false\n"
    );
    let night = parse(&text).unwrap();
    let again = Config::from_str_named(&night.to_toml(), "configs/x.toml").unwrap();
    assert_eq!(again, night);
    assert_eq!(
        (night.chain.data_games, night.chain.data_nodes.as_slice()),
        (30, &[300, 900][..])
    );
    assert!(!night.chain.data_with_links);
}
