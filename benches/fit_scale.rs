//! The pattern fit at scale: how many positions a second it learns from and how much memory
//! it holds for them (`cargo bench --bench fit_scale`; `FIT_POSITIONS=100000000` for the
//! goal of a hundred million, `FIT_EPOCHS=N` for other than `fit`'s 10 passes). The samples are positions of seeded random games, labelled at
//! random: what is measured is the fit's own cost (its samples, their table entries and the
//! optimiser's passes), which does not depend on what the positions are.
//!
//! It prints the positions, the seconds and positions a second of building the samples and of
//! the fit, and the process's peak resident memory (`VmHWM`) with the bytes a position.

use std::time::Instant;

use rand::Rng;
use rayon::prelude::*;

use checkers_engine::board::Position;
use checkers_engine::eval::{
    EvaluatorKind, KingLayout, PatternTables, RankLayout, RegionLayout, WeightPair,
};
use checkers_engine::rng::stream;
use checkers_harness::fit::{fit_pattern_data, FitSettings, PatternData};

/// Random games of this many plies at most give the samples.
const GAME_PLIES: usize = 120;
/// Samples built by one task.
const CHUNK: usize = 100_000;

fn main() {
    let positions: usize = std::env::var("FIT_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000_000);
    let mut settings = FitSettings {
        evaluator: EvaluatorKind::Patterns,
        first_ply: 8,
        l2_tables: 10.0,
        validation: 0.0,
        epochs: std::env::var("FIT_EPOCHS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(FitSettings::default().epochs),
        ..FitSettings::default()
    };
    settings.patterns.regions =
        RegionLayout::from_name("bands+strips+offsets+quadrants").expect("a layout");
    settings.patterns.kings = KingLayout::from_name("quadrants").expect("a king layout");
    settings.patterns.ranks = RankLayout::from_name("home").expect("a rank layout");
    let tables = settings.table_shape(None);

    let started = Instant::now();
    // Chunks are built a group at a time and appended, so that what is measured is the fit's
    // own memory, not a second copy of its samples.
    let mut data = PatternData::new(&tables);
    let chunks: Vec<usize> = (0..positions.div_ceil(CHUNK)).collect();
    for group in chunks.chunks(4 * rayon::current_num_threads()) {
        let parts: Vec<PatternData> = group
            .par_iter()
            .map(|&chunk| random_samples(chunk, CHUNK.min(positions - chunk * CHUNK), &tables))
            .collect();
        for part in parts {
            data.append(part);
        }
    }
    let built = started.elapsed().as_secs_f64();

    let started = Instant::now();
    let report = fit_pattern_data(
        data.as_slice(),
        None,
        &WeightPair::material(),
        None,
        None,
        &settings,
        |_, _| {},
    )
    .expect("samples to learn from");
    let fitted = started.elapsed().as_secs_f64();
    let peak = peak_resident_bytes();
    println!(
        "fit_scale: {} positions, {} regions, {} epochs on {} threads",
        report.training_positions,
        tables.regions().len(),
        report.iterations,
        rayon::current_num_threads()
    );
    println!(
        "samples built in {built:.1} s ({:.0} positions/s); fitted in {fitted:.1} s ({:.0} positions/s, {:.0} position-epochs/s)",
        positions as f64 / built,
        positions as f64 / fitted,
        positions as f64 * f64::from(report.iterations) / fitted
    );
    match peak {
        Some(bytes) => println!(
            "peak resident memory {:.2} GB ({:.1} bytes a position)",
            bytes as f64 / 1e9,
            bytes as f64 / positions as f64
        ),
        None => println!("peak resident memory: not known on this system (no /proc)"),
    }
}

/// `wanted` samples of seeded random games (stream `chunk` of seed 1), each labelled with a
/// random result and a random score.
fn random_samples(chunk: usize, wanted: usize, tables: &PatternTables) -> PatternData {
    let mut rng = stream(1, &[chunk as u64]);
    let mut data = PatternData::new(tables);
    let mut game = 0u32;
    while data.len() < wanted {
        let mut pos = Position::default();
        let result = [0.0, 0.5, 1.0][rng.gen_range(0..3)];
        for _ in 0..GAME_PLIES {
            let moves = pos.legal_moves();
            if moves.is_empty() || data.len() == wanted {
                break;
            }
            pos = pos.play(&moves[rng.gen_range(0..moves.len())]);
            let score = rng.gen_range(-300..=300);
            data.push(&pos, result, score, game);
        }
        game += 1;
    }
    data
}

/// The process's peak resident set (`VmHWM` of /proc/self/status), in bytes.
fn peak_resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
