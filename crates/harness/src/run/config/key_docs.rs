//! The words of the config reference: what each key of a run's TOML file does, by its dotted
//! path (`config --defaults` writes them beside the defaults; `reference.rs` builds the file).

/// What each key does, by its dotted path (`weights.opening.*` stands for every feature).
pub(super) const KEY_DOCS: &[(&str, &str)] = &[
    (
        "name",
        "Names the run and its output folder, results/<name> unless `tune --out` says \
         otherwise. The only key without a default: required. At most 100 bytes; not `.`, and \
         no `/`, `\\`, `..` or control characters.",
    ),
    (
        "seed",
        "Seeds every random stream of the run (ChaCha, keyed by the seed and what is drawn): \
         the same file gives the same run, byte for byte, on any number of threads.",
    ),
    (
        "population.size",
        "Specimens in every round (2 to 100,000).",
    ),
    (
        "population.start",
        "Unset by default. A weights file the run starts from (a run's best.json, an `export` \
         or `fit` output; relative to the config file's folder) instead of `material`: \
         specimen 0 is its weights, and every other fresh specimen (the first population, \
         immigrants) is drawn around it with `weights.init_noise` and carries its tables. It \
         must hold the run's evaluator, every weight in the run's ranges. The run keeps a \
         copy (tables/specimen-0.json), which a resumed run reads.",
    ),
    (
        "weights.init",
        "How fresh specimens (the first population, `random` newcomers, immigrants) are \
         drawn: \"material\" (material plus Gaussian noise of `init_noise` on every weight) or \
         \"random\" (uniform in the ranges).",
    ),
    (
        "weights.init_noise",
        "Standard deviation of the noise of `init = \"material\"`, in hundredths of a man.",
    ),
    (
        "weights.evaluator",
        "The evaluator whose weights are tuned: \"ten\" (the ten features, opening and \
         endgame sets switched at `search.endgame_pieces`), \"extended\" (the ten, the \
         classic terms and piece-square tables for men and kings, tapered by the pieces on \
         the board) or \"patterns\" (the extended evaluator, further classic terms and region \
         tables: docs/features.md). Extended and pattern runs need fits \
         (`evolution.fit_every`) to fill their tables.",
    ),
    (
        "weights.patterns.regions",
        "The regions of the pattern evaluator's tables: \"bands\" (four bands of two rows), \
         \"strips\" (four strips of two columns), \"bands+strips\" or \
         \"bands+strips+offsets+quadrants\" (also three bands offset by a row and four \
         quadrants of 4 x 4 squares: 15 regions, for fits of several runs' games); each \
         region's table has an entry for every placement of men on its 8 squares \
         (docs/features.md).",
    ),
    (
        "weights.patterns.kings",
        "King regions of the pattern evaluator's tables, after the men regions: \"none\" or \
         \"quadrants\" (the four quadrants of four rows by four columns, each holding a \
         corner of the board); a king region's table has an entry for every placement of \
         kings on its 8 squares (docs/features.md#king-regions).",
    ),
    (
        "weights.patterns.ranks",
        "Rank regions of the pattern evaluator's tables, after the king regions: \"none\" or \
         \"home\" (one region over the 16 squares of each side's home half, the four rows \
         nearest its own back rank); its table has an entry for every placement of the \
         side's own men on those squares, 65,536 (docs/features.md#home-ranks-region).",
    ),
    (
        "weights.patterns.classic",
        "[min, max] of each classic term of the pattern evaluator (corner_kings, the_move and, \
         when a fit learns it, exchange), both sets, in hundredths of a man per unit.",
    ),
    (
        "weights.patterns.tables",
        "[min, max] of each entry of the pattern evaluator's region tables, both sets.",
    ),
    (
        "weights.extended.terms",
        "[min, max] of each classic term of the extended evaluator (bridge, exposure), both \
         sets, in hundredths of a man per unit; `fit` stays inside.",
    ),
    (
        "weights.extended.men",
        "[min, max] of each entry of the extended evaluator's men's table, both sets.",
    ),
    (
        "weights.extended.kings",
        "[min, max] of each entry of the extended evaluator's kings' table, both sets.",
    ),
    (
        "weights.opening.*",
        "[min, max] of each weight of the opening set, in hundredths of a man: exactly two \
         integers within -10,000..=10,000 (`pawns` fixed at 100 sets the scale; a fixed weight \
         has min = max). Mutation and crossover stay inside.",
    ),
    (
        "weights.endgame.*",
        "[min, max] of each weight of the endgame set (used from `search.endgame_pieces` \
         pieces down).",
    ),
    (
        "tournament.rounds",
        "Rounds before the playoff (1 to 1,000,000); each round is one single-elimination \
         tournament over the population.",
    ),
    (
        "tournament.survival_fraction",
        "A round ends once no more than this share of the population is left in it...",
    ),
    (
        "tournament.stall_levels",
        "...or after this many bracket levels in a row eliminated nobody (1 to 1,000).",
    ),
    (
        "tournament.openings",
        "Where games start: \"start\", \"3-move\" (the 156 ACF ballots), \"tough\" (the 50 \
         ballots of the computer tough deck), \"random:N\" (N random plies, drawn for each \
         pair), or the path of a deck file: one move sequence or FEN per line, or PDN, one \
         position per game (relative to the config file's folder).",
    ),
    (
        "tournament.random_opening_balance",
        "With \"random:N\": an opening that a depth-4 material search scores beyond this \
         (hundredths of a man, 0 to 10,000) is drawn again.",
    ),
    (
        "tournament.pairing_openings",
        "1: a pair plays one game, replayed with colours switched after a draw (a second draw \
         sends both on). k > 1 (at most 64): k openings x both colours, the higher score goes \
         on.",
    ),
    (
        "tournament.max_plies",
        "A game still running after this many plies is a draw (1 to 10,000).",
    ),
    (
        "tournament.no_progress_plies",
        "A game is a draw after this many plies in a row without a capture or a man's move (2 \
         to 10,000).",
    ),
    (
        "tournament.playoff_openings",
        "In the final playoff, each pair of finalists plays this many openings with both \
         colours (1 to 1,000, and at most 100,000,000 games for the most finalists the config \
         allows: population.size + 2 per island). The one key of a run folder's config.toml \
         that may change after the run started, until its playoff starts.",
    ),
    (
        "tournament.database_adjudication",
        "With an endgame database (search.database_pieces above 0), a game ends as soon as it \
         reaches a position the database holds, by its value (reason = database); false plays \
         such games on under the ordinary rules.",
    ),
    (
        "tournament.games_pdn",
        "Also write every bracket game to games.pdn (PDN, readable by checkers programs), in the \
         order of games.csv; false leaves the file out.",
    ),
    (
        "search.min_depth",
        "Full-width search depth in plies (1 to 40).",
    ),
    (
        "search.max_depth",
        "Depth to which positions with a capture are searched further (min_depth to 40).",
    ),
    (
        "search.endgame_pieces",
        "A player uses its endgame weights once this many pieces (both colours) or fewer are \
         left (0 to 24).",
    ),
    (
        "search.tie_break",
        "Moves of equal value: \"first\" in generation order, or \"random\" from the game's \
         own seeded stream.",
    ),
    (
        "search.database_pieces",
        "Positions with at most this many pieces are scored exactly from the endgame database \
         (0 to 5; 0 for none). Built into the cache folder at first use: about 20 s for 4 \
         pieces, 5 minutes for 5.",
    ),
    (
        "search.nodes",
        "Unset by default: bracket games, gates, validation and the playoff search to \
         `min_depth`. Set, every move of every game of the run is searched with this many nodes \
         instead, as deep as they allow (captures still followed `max_depth - min_depth` plies \
         further): the search's speed becomes depth, and the games are the same on every \
         machine and thread count (1 to 1,000,000,000; not with `tournament.deepen_every` or \
         `tie_break = \"random\"`).",
    ),
    (
        "search.genes.lmr_depth",
        "[min, max] of `search.lmr_depth` as a gene (within 1 to 40): each specimen carries its \
         own value of each key of this table, drawn uniformly from the range, a child's taken \
         from a parent and stepped by 1 to max(1, width / 8) with probability \
         `evolution.mutation_rate`; specimens.csv and best.json carry the values \
         (docs/engine.md#search-parameters-as-genes). Needs `search.mode = \"selective\"` \
         and `search.nodes`: genes are judged at equal nodes.",
    ),
    (
        "search.genes.lmr_moves",
        "[min, max] of `search.lmr_moves` as a gene (within 1 to 64).",
    ),
    (
        "search.genes.lmr_reduction",
        "[min, max] of `search.lmr_reduction` as a gene (within 0 to 4).",
    ),
    (
        "search.genes.futility_depth",
        "[min, max] of `search.futility_depth` as a gene (within 0 to 8).",
    ),
    (
        "search.genes.futility_margin",
        "[min, max] of `search.futility_margin` as a gene (within 0 to 10,000).",
    ),
    (
        "search.genes.aspiration",
        "[min, max] of `search.aspiration` as a gene (within 0 to 10,000).",
    ),
    (
        "evolution.mode",
        "How newcomers refill the population: \"genetic\" (children of two survivors, plus \
         immigrants) or \"random\" (fresh specimens, the original procedure).",
    ),
    (
        "evolution.immigrants",
        "In genetic mode, the share of newcomers that are fresh specimens.",
    ),
    (
        "evolution.crossover",
        "\"uniform\" (each weight from one parent or the other) or \"blend\" (on the line \
         through both parents' values, a quarter of their distance beyond each).",
    ),
    (
        "evolution.mutation_rate",
        "Probability that each weight of a child is mutated.",
    ),
    (
        "evolution.mutation_sigma",
        "Standard deviation of a mutation's Gaussian step, in hundredths of a man (0 to \
         20,000).",
    ),
    (
        "evolution.mutation_sigma_end",
        "Unset by default. The step after the last round that breeds, reached geometrically \
         from `mutation_sigma` (linearly if either is 0): small late steps let a converged \
         population settle. `configs/overnight-ten.toml` uses 1.0.",
    ),
    (
        "evolution.fit_every",
        "Off (0) by default. Every this many rounds, a regression fit (the `fit` command's Texel \
         method) on the run's games, started from the round's top survivor, enters the \
         population in place of one immigrant (or, with none, one child); `specimens.csv` \
         gives its origin as `fit`. Islands fit on every island's games \
         (`islands.pool_games`). At most 1,000,000.",
    ),
    (
        "evolution.fit_score_weight",
        "0.8 by default (and then left out of a written config). The pattern evaluator's \
         fits learn each position's label as this share of the \
         search's score of the move played from it (a win probability, the scale fitted to the \
         results) and the rest of the game's result (0 to 1; docs/fit.md). The other \
         evaluators' fits learn the result alone.",
    ),
    (
        "evolution.fit_endings",
        "Off (0) by default. The fits also learn the endings of the games that stopped in the \
         endgame database: each played on by the database for up to this many plies (the \
         winner's quickest win, the loser's longest loss, a kept draw), every quiet position \
         with its exact value (`fit --endings`, docs/fit.md). Needs `search.database_pieces`; \
         at most 1,000.",
    ),
    (
        "evolution.fit_l2_tables",
        "30 by default (and then left out of a written config). The pattern evaluator's fits \
         pull each table entry toward zero with the weight of this many positions (`fit \
         --l2-tables`, 0 to a billion): an entry that far fewer positions touch stays near \
         zero. Less lets the rarely seen entries say more as the data grows (docs/fit.md).",
    ),
    (
        "evolution.fit_with",
        "Empty by default (and then left out of a written config). Earlier runs whose games \
         every fit also learns from, before the run's own (docs/fit.md): run folders (or their \
         positions.bin), PDN files (`.pdn`) or folders of them (games against other engines, \
         `match --pdn`), a relative path taken from the config file's folder. The run fixes \
         each when it starts (a store at the rounds it holds then, with its identity; each PDN \
         file by size and checksum) and writes that into its config.toml, so a resumed run \
         learns from the same games. Needs `fit_every`; a store of the previous format \
         (CTPOS001) is refused.",
    ),
    (
        "evolution.fit_window",
        "The rounds of games each fit learns from, counting back from the round just played \
         (0: every round so far; at most 1,000,000).",
    ),
    (
        "validation.every",
        "Every this many rounds, the round's top survivor plays `material` on the validation \
         deck, a row of learning.csv (0: no validation and no champion; at most 1,000,000).",
    ),
    (
        "validation.openings",
        "Openings of the validation deck, each played with both colours (1 to 10,000).",
    ),
    (
        "validation.opening_plies",
        "Random plies from the start of each validation opening (1 to 40).",
    ),
    (
        "validation.seed",
        "The validation deck's own seed, apart from the run's, so runs of different seeds are \
         validated on the same deck.",
    ),
    (
        "validation.keep_champion",
        "The specimen with the best validation score so far re-enters each round (in place of \
         a newcomer) and the playoff after it loses in the bracket.",
    ),
    (
        "tournament.deepen_every",
        "Rounds between deepenings of the bracket's games (0: never): every `deepen_every` \
         rounds both search depths of a bracket game grow by one ply, up to `deepen_plies` \
         more, so that later games (and the fits' scores) come from deeper searches. Gates, \
         validation and the playoff keep the [search] depths.",
    ),
    (
        "tournament.deepen_plies",
        "The most plies the deepenings add (1 to 8); `search.max_depth` plus these must stay \
         within the search's limit.",
    ),
    (
        "gate.candidates",
        "The gated champion (docs/tournament.md#the-gated-champion): \"none\" (no gate, \
         the section is left out of the run's config: the playoff's winner is best.json), \
         \"fits\" (each fit of a gate round plays the champion) or \"fits-and-winners\" \
         (the round's top survivor plays it too). A candidate replaces the champion only when \
         its gate's SPRT accepts; best.json is always the champion, champions.csv has every \
         gate.",
    ),
    (
        "gate.every",
        "Rounds between gates: a multiple of `evolution.fit_every`; the last round always has \
         one.",
    ),
    (
        "gate.openings",
        "The most openings of a gate, each played with both colours; a gate whose SPRT has not \
         ended by then refuses the candidate.",
    ),
    (
        "gate.opening_plies",
        "Random plies from the start of each gate opening (1 to 40): the gate's deck is drawn \
         anew for every gate from `gate.seed` and the round, never the 3-move deck.",
    ),
    ("gate.seed", "The gate decks' own seed."),
    (
        "gate.elo0",
        "The SPRT's null hypothesis, in Elo (-400 to 400): a candidate this strong is refused \
         with probability 1 - `alpha`.",
    ),
    (
        "gate.elo1",
        "The SPRT's alternative, in Elo (above `elo0`): a candidate this strong is accepted \
         with probability about 1 - `beta` (less when the openings run out first).",
    ),
    (
        "gate.alpha",
        "The chance of accepting a candidate no stronger than `elo0` (strictly between 0 and \
         1).",
    ),
    (
        "gate.beta",
        "The chance of refusing a candidate `elo1` stronger (strictly between 0 and 1).",
    ),
    (
        "gate.confirm",
        "Openings of a confirming match (0 to 100,000, each with both colours; 0: none, and the \
         key is left out of the run's config): a candidate the SPRT accepted plays the champion \
         again on openings of its own and is crowned only if it wins more games than it loses; \
         its Elo there is what the climb adds (the SPRT's is biased upward by the choice of \
         winners).",
    ),
    (
        "islands.count",
        "Populations that evolve side by side, each of `population.size`, in one process or one \
         process per machine (`tune --island auto` under Slurm or a Kubernetes Indexed Job), 1 \
         to 1,024. 1: a run without islands, and the section is left out of the run's \
         config.toml.",
    ),
    (
        "islands.migration_interval",
        "Rounds between migrations (1 to 1,000,000).",
    ),
    (
        "islands.migrants",
        "At a migration, each island sends copies of its best this many survivors to its \
         neighbour (fewer than `population.size`).",
    ),
    (
        "islands.topology",
        "Who sends to whom: \"ring\" (island i to island i + 1, the last to island 0).",
    ),
    (
        "islands.pool_games",
        "true by default (and then left out of a written config). With fits \
         (`evolution.fit_every`), the fit after round r of each island learns from every \
         island's games of the rounds before r (read from their positions stores once they \
         are saved) and its own round r, in a fixed order, so the files are the same in one \
         process or many (docs/islands.md). false: each island fits on its own games alone.",
    ),
    (
        "chain.links",
        "Runs of this config one after another, 1 to 1,000 (docs/chain.md): link K in the \
         folder `link-K/` with seed `seed` + K − 1, each an ordinary run; then a morning fit of \
         every link's games from the last link's best, gated against it. 1: a run without a \
         chain, and the section is left out of the run's config.toml. Needs the pattern \
         evaluator and no islands.",
    ),
    (
        "chain.learn_from_earlier",
        "false by default (and then left out of a written config): the links learn apart, \
         and only the morning fit pools their games. true: each link's fits also learn from \
         every earlier link's games (as `evolution.fit_with`). Needs `evolution.fit_every`.",
    ),
    (
        "chain.regions",
        "The morning fit's men regions, as `fit --regions`, when wider than the links': \
         \"bands+strips+offsets+quadrants\" adds three offset bands and four quadrants to \
         bands and strips, their tables learnt from all the links' games (+32.9 ± 11.3 over \
         bands and strips on hour.toml's seven links, docs/learning.md). Left out (the \
         default): the links' regions.",
    ),
    (
        "chain.ranks",
        "The rank region the morning fit adds to the tables, as `fit --ranks`: \"home\" (the \
         default, what paid on three runs pooled) or \"none\".",
    ),
    (
        "chain.l2_tables",
        "The morning fit's pull of each table entry toward zero, in positions, as `fit \
         --l2-tables` (0 to 1,000,000,000; default 10).",
    ),
    (
        "chain.gate_openings",
        "The most openings of 8 random plies (each with both colours) of the morning gate, an \
         SPRT [0, +15] (α 5%, β 10%) of the morning fit against the last link's best; the fit \
         is best.json only if it passes. 0: no gate, the morning fit is best.json. 0 to \
         100,000; default 1,000.",
    ),
    (
        "chain.label_depth",
        "The morning relabel, as `fit --label-depth`: every pooled position searched again at \
         this full-width depth (captures 6 plies further, with the endgame database) with the \
         morning fit's weights, then a second fit from those weights learns the scores; its \
         result is what the gate plays. About 2,700 positions a second at depth 6 on two \
         cores: some 45 minutes for seven links, +7 ± 11 over the plain morning \
         (docs/learning.md). 0 (the default): none. 0 to 16.",
    ),
    (
        "chain.interim_fits",
        "Links after which the chain also fits the games so far, as the morning fit would \
         (no relabel, no gate), into interim/after-K.json: the night's champion after an \
         eighth, a quarter, a half of it, and a pooled best when a night is stopped early. \
         Increasing link numbers below `links`, e.g. [6, 12, 24] for 48 links; [] (the \
         default): none.",
    ),
    (
        "chain.exchange",
        "false by default (and then left out of a written config). true: the morning fit and \
         the interim fits learn the pattern evaluator's exchange term, as `fit --exchange` \
         (docs/features.md): level in our own search, it gains where another engine's search \
         plays the exported header without a database (+25.4 ± 11.3 head to head against \
         hour.toml's best, 1,000 held-out games in Simple Checkers' search, docs/learning.md).",
    ),
    (
        "chain.data_doublings",
        "The data night (docs/chain.md): after the morning, this many doublings of data, \
         each `datagen` games of the champion against itself (selective search at \
         `data_nodes`, random 8-ply openings), then a fit of all the data so far (each \
         position once) from the champion, gated against it as the morning fit is; the \
         champion never gets worse, and each doubling's is kept in data/champion-K.json. 0 \
         (the default): none. 0 to 16; with `links` = 1 the chain is one run, its morning \
         and the doublings.",
    ),
    (
        "chain.data_games",
        "Games of the data night's first doubling; each later doubling plays as many as all \
         before it, so doubling K ends with `data_games` × 2^(K−1). 1 to 100,000,000; \
         default 20,000 (about five minutes of two cores, 0.75 million positions).",
    ),
    (
        "chain.data_nodes",
        "Nodes a move of the data night's games, game g at `data_nodes[g % len]`, as \
         `datagen`'s `nodes`: 1 to 16 budgets; default [2000, 4000].",
    ),
    (
        "chain.data_with_links",
        "true by default (and then left out of a written config): the data night's fits \
         learn from the links' games too. false: from the doublings' games alone.",
    ),
];
