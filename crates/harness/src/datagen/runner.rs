//! Plays a data set's games a block at a time into its shard's positions store, and continues
//! a stopped or killed shard from its last whole block.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use checkers_engine::egdb::EndgameDb;
use checkers_engine::error::{Error, Result};
use checkers_engine::game::{
    play_game_searching, GameSettings, OpeningBook, Player, SearchMode, SearchParams, TimeControl,
};
use checkers_engine::input_file::{self, Links};
use checkers_engine::rng::{stream, tag};
use checkers_engine::search::SelectiveParams;
use checkers_engine::weights_file::WeightsFile;

use crate::fit::{
    append_round, cut_store_to, length_through_round, start_store, RecordedGame, StoreIdentity,
    StoreReader, UniquePositions,
};
use crate::run_folder::{
    parse_shard_dir_name, DATAGEN_CONFIG_FILE, DATAGEN_WEIGHTS_FILE, POSITIONS_FILE,
};

use super::settings::{DatagenConfig, Shard};

/// Where a shard stands after a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DatagenProgress {
    /// The shard's games played so far (a continued shard's earlier ones included).
    pub games: u64,
    /// The shard's games in all.
    pub planned: u64,
    /// Unique quiet positions in the shard's games so far.
    pub positions: u64,
    /// Games this process found already played.
    pub continued_from: u64,
    /// Unique positions in those.
    pub positions_before: u64,
}

/// What a shard's run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatagenOutcome {
    /// Where it stands at the end.
    pub progress: DatagenProgress,
    /// The shard's positions store.
    pub store: PathBuf,
    /// Whether it stopped before its last game (Ctrl-C).
    pub stopped: bool,
}

/// A data set's games: the config, the weights that play, whom they play.
pub struct DatagenRun<'a> {
    config: &'a DatagenConfig,
    weights: &'a WeightsFile,
    opponents: &'a [WeightsFile],
    database: Option<&'static EndgameDb>,
    book: OpeningBook,
}

/// A weights file's selective search: its `search` table's keys, selective whatever its mode.
fn selective_of(file: &WeightsFile) -> SelectiveParams {
    SearchParams {
        mode: SearchMode::Selective,
        ..file.search.unwrap_or_default()
    }
    .selective()
    .expect("a selective mode has selective settings")
}

impl<'a> DatagenRun<'a> {
    /// The games of `config` with `weights` (the file its `weights` key names), `opponents`
    /// (its `opponents`, in order) and the database its `database_pieces` names (`None` for 0).
    pub fn new(
        config: &'a DatagenConfig,
        weights: &'a WeightsFile,
        opponents: &'a [WeightsFile],
        database: Option<&'static EndgameDb>,
    ) -> DatagenRun<'a> {
        DatagenRun {
            config,
            weights,
            opponents,
            database,
            book: OpeningBook::Random {
                plies: config.book_plies,
                balance: config.book_balance,
            },
        }
    }

    /// The settings of game `game`: its node budget, the config's draw rules and database.
    fn settings(&self, game: u64) -> GameSettings {
        let defaults = SearchParams::default();
        GameSettings {
            search: SearchParams {
                database_pieces: self.config.database_pieces,
                ..defaults
            },
            max_plies: self.config.max_plies,
            no_progress_plies: self.config.no_progress_plies,
            database: self.database,
            database_adjudication: self.database.is_some(),
            time: Some(TimeControl::Nodes(self.config.nodes_of(game))),
        }
    }

    /// Plays game `game` (0-based, over the whole data set): its opening drawn from its own
    /// stream, the weights Black in even games and White in odd ones, against the opponents in
    /// turn (a pair of games each) or themselves. The same config gives the same game on any
    /// machine and thread count.
    pub fn play(&self, game: u64) -> RecordedGame {
        let mut rng = stream(self.config.seed, &[tag::DATAGEN, game]);
        let opening = self.book.for_pair(&mut rng);
        let other = match self.opponents.len() {
            0 => self.weights,
            n => &self.opponents[(game / 2 % n as u64) as usize],
        };
        let (black, white) = if game.is_multiple_of(2) {
            (self.weights, other)
        } else {
            (other, self.weights)
        };
        let record = play_game_searching(
            Player::of_file(black),
            Player::of_file(white),
            [Some(selective_of(black)), Some(selective_of(white))],
            &opening.position,
            &self.settings(game),
            &mut rng,
        );
        RecordedGame::from_opening(&opening, &record.moves, &record.scores, record.result)
    }

    /// The identity of the data set's stores: its config and players; the shard's in place of
    /// an island.
    fn identity(&self, config_text: &str, shard: Shard) -> StoreIdentity {
        let mut whole = config_text.to_string();
        for file in std::iter::once(self.weights).chain(self.opponents) {
            whole.push_str(&file.to_json());
        }
        StoreIdentity::new(&whole, Some(shard.index))
    }

    /// Plays shard `shard` of the data set into `folder` (created, or continued when it holds
    /// this data set), a block of `batch` games at a time in the current thread pool, calling
    /// `on_block` after each; stops after the block in progress when `stop` is set. The same
    /// config gives the same store on any thread count and through a stop or a kill.
    pub fn run(
        &self,
        folder: &Path,
        shard: Shard,
        stop: &AtomicBool,
        on_block: &mut dyn FnMut(&DatagenProgress),
    ) -> Result<DatagenOutcome> {
        let config_text = self.open_folder(folder)?;
        refuse_other_shard_counts(folder, shard)?;
        let identity = self.identity(&config_text, shard);
        let shard_dir = folder.join(shard.folder_name());
        std::fs::create_dir_all(&shard_dir).map_err(|e| Error::io("create", &shard_dir, &e))?;
        let store = shard_dir.join(POSITIONS_FILE);
        let mut unique = UniquePositions::default();
        let (done, mut block) = self.continue_store(&store, identity, &mut unique)?;
        let range = shard.games(self.config.games);
        let planned = range.end - range.start;
        let mut progress = DatagenProgress {
            games: done,
            planned,
            positions: unique.len(),
            continued_from: done,
            positions_before: unique.len(),
        };
        on_block(&progress);
        let batch = u64::from(self.config.batch);
        while progress.games < planned && !stop.load(Ordering::SeqCst) {
            let first = range.start + progress.games;
            let end = (first + batch).min(range.end);
            let games: Vec<RecordedGame> =
                (first..end).into_par_iter().map(|g| self.play(g)).collect();
            block += 1;
            append_round(&shard_dir, block, &games)?;
            for game in &games {
                unique.add_game(game, self.config.book_plies);
            }
            progress.games += games.len() as u64;
            progress.positions = unique.len();
            on_block(&progress);
        }
        Ok(DatagenOutcome {
            progress,
            store,
            stopped: progress.games < planned,
        })
    }

    /// Starts the shard's store, or reads how far it went: the games of its whole blocks (each
    /// counted into `unique`) and the last block's number; a block a kill cut short is cut
    /// off, to be played again as the first time.
    fn continue_store(
        &self,
        store: &Path,
        identity: StoreIdentity,
        unique: &mut UniquePositions,
    ) -> Result<(u64, u32)> {
        let dir = checkers_engine::atomic_file::parent_dir(store);
        if !store.exists() {
            start_store(&dir, identity)?;
            return Ok((0, 0));
        }
        let mut reader = StoreReader::open(store)?;
        reader.expect(identity).map_err(|_| {
            Error::input(format!(
                "{}: the store of another data set (another config, weights or shard count); \
                 continue it with its own, or choose another folder with --out",
                store.display()
            ))
        })?;
        // A block's games count once its checksum is read: those of the block before are
        // whole when the next one begins, the last block's when the reader says so.
        let (mut block, mut pending) = (0, Vec::new());
        let mut games = 0;
        let mut count = |pending: &mut Vec<RecordedGame>| {
            for game in pending.drain(..) {
                unique.add_game(&game, self.config.book_plies);
                games += 1;
            }
        };
        while let Some(stored) = reader.next_game()? {
            if stored.round != block {
                count(&mut pending);
                block = stored.round;
            }
            pending.push(stored.game);
        }
        let whole = reader.last_whole_round().unwrap_or(0);
        if block == whole {
            count(&mut pending);
        }
        if reader.cut_short() {
            let length = length_through_round(store, identity, whole)?;
            cut_store_to(store, length)?;
        }
        Ok((games, whole))
    }

    /// Writes the data set's config and weights into `folder`, or checks that it holds these
    /// (any shard may come first); returns the config's text.
    fn open_folder(&self, folder: &Path) -> Result<String> {
        if std::fs::metadata(folder).is_ok_and(|m| !m.is_dir()) {
            return Err(Error::input(format!(
                "{}: not a folder; a data set goes into a folder of its own (give --out a new \
                 or empty folder, or this data set's)",
                folder.display()
            )));
        }
        std::fs::create_dir_all(folder).map_err(|e| Error::io("create", folder, &e))?;
        let config_text = self.config.to_toml()?;
        let mut files = vec![
            (DATAGEN_WEIGHTS_FILE.to_string(), self.weights.to_json()),
            (DATAGEN_CONFIG_FILE.to_string(), config_text.clone()),
        ];
        for (i, file) in self.opponents.iter().enumerate() {
            files.insert(i + 1, (opponent_file(i), file.to_json()));
        }
        let config_path = folder.join(DATAGEN_CONFIG_FILE);
        if !config_path.exists() {
            if holds_other_files(folder) {
                return Err(Error::input(format!(
                    "{}: a folder with other files and no {DATAGEN_CONFIG_FILE}; a data set \
                     needs an empty folder or its own (choose one with --out)",
                    folder.display()
                )));
            }
            // The config last: a folder with its config is a started data set. Shards started
            // at once write the same bytes.
            for (name, text) in &files {
                checkers_engine::atomic_file::write_atomically(
                    &folder.join(name),
                    text.as_bytes(),
                )?;
            }
            return Ok(config_text);
        }
        for (name, text) in &files {
            let path = folder.join(name);
            let held =
                input_file::read_text(&path, Links::Refuse, None).map_err(|e| e.at(&path))?;
            if held != *text {
                let what = if name == DATAGEN_CONFIG_FILE {
                    "config"
                } else {
                    "weights"
                };
                return Err(Error::input(format!(
                    "{}: holds a data set with other {what} ({name} differs); continue it with \
                     its own config, or choose another folder with --out",
                    folder.display()
                )));
            }
        }
        Ok(config_text)
    }
}

/// Refuses to add shard `shard` to a data set cut into another number of shards: `fit` could
/// not read the two cuts as one data set.
fn refuse_other_shard_counts(folder: &Path, shard: Shard) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some((_, count)) = parse_shard_dir_name(&name.to_string_lossy()) else {
            continue;
        };
        if count != shard.count {
            return Err(Error::input(format!(
                "--shard {shard}: {} is cut into {count} shards ({} is there); play its shards \
                 with --shard K/{count}, or choose another folder with --out",
                folder.display(),
                name.to_string_lossy()
            )));
        }
    }
    Ok(())
}

/// The file of opponent `i` (0-based) in the data set's folder.
fn opponent_file(i: usize) -> String {
    format!("opponent-{}.json", i + 1)
}

/// Whether `folder` holds anything but hidden files.
fn holds_other_files(folder: &Path) -> bool {
    std::fs::read_dir(folder).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| !e.file_name().to_string_lossy().starts_with('.'))
    })
}
