//! The config's unit tests, by topic: defaults and the written form, the messages of a
//! mistake, the bounds of every key, the files a config names, and the chain's keys. The
//! helpers every topic uses are here.

use super::messages::Layout;
use super::sections::PopulationConfig;
use super::*;
use crate::tournament::{EvolutionParams, TournamentParams, WeightSpace};
use checkers_engine::error::Error;
use checkers_engine::eval::WeightRange;
use checkers_engine::game::{OpeningsSource, TieBreak};
use checkers_engine::text::excerpt;
use serde::Serialize;

mod bounds;
mod chain;
mod defaults;
mod files;
mod messages;

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
