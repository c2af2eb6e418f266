//! Export formats, their readers, the C header and choosing a specimen from a run folder.

use std::io::Write;
use std::path::Path;
use std::process::Command;

use crate::support::bin;
use checkers_engine::board::{Color, Position};
use checkers_engine::error::Error;
use checkers_engine::eval::{
    classic_counts, evaluate, evaluate_extended, evaluate_patterns, features, terms, ExtraPair,
    ExtraWeights, KingLayout, PatternTables, PatternWeights, RankLayout, RegionLayout, WeightPair,
    Weights, CLASSIC_COUNT, FEATURE_NAMES,
};
use checkers_engine::game::Player;
use checkers_engine::weights_file::{WeightsFile, WeightsSource};
use checkers_harness::export::{export_to_file, ExportFormat};
use checkers_harness::run_folder::{resolve_export_source, weights_from_run};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A file with every feature different, negative numbers and the i32 extremes.
fn sample() -> WeightsFile {
    WeightsFile {
        weights: WeightPair {
            opening: Weights([100, 150, -3, 7, -42, 0, -1, 12, 5, -10_000]),
            endgame: Weights([90, 170, 0, -8, 4, -100, -15, 33, -2, 10_000]),
        },
        extra: None,
        patterns: None,
        endgame_pieces: 10,
        source: Some(WeightsSource::Specimen {
            run: "overnight \"quoted\" */ run".into(),
            id: 4711,
            round: 19,
        }),
        database_pieces: Some(4),
        search: None,
    }
}

fn input_message(r: Result<WeightsFile, Error>) -> String {
    match r {
        Err(Error::Input(m)) => m,
        other => panic!("expected Error::Input, got {other:?}"),
    }
}

#[test]
fn every_readable_format_round_trips_the_weights() {
    let file = sample();
    let json = ExportFormat::Json.render(&file);
    assert_eq!(WeightsFile::from_json(&json, "x.json").unwrap(), file);
    let toml = ExportFormat::Toml.render(&file);
    assert_eq!(WeightsFile::from_toml(&toml, "x.toml").unwrap(), file);
    let csv = ExportFormat::Csv.render(&file);
    let back = WeightsFile::from_csv(&csv, "x.csv").unwrap();
    // CSV carries the weights only.
    assert_eq!(back.weights, file.weights);
    assert_eq!(back.source, None);

    let mat = WeightsFile::material();
    let toml = ExportFormat::Toml.render(&mat);
    assert!(!toml.contains("[source]"));
    assert_eq!(WeightsFile::from_toml(&toml, "m.toml").unwrap(), mat);
}

#[test]
fn json_exporter_is_to_json_and_csv_has_twenty_rows() {
    let file = sample();
    assert_eq!(ExportFormat::Json.render(&file), file.to_json());
    let csv = ExportFormat::Csv.render(&WeightsFile::material());
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 21);
    assert_eq!(lines[0], "set,feature,weight");
    assert_eq!(lines[1], "opening,pawns,100");
    assert_eq!(lines[2], "opening,kings,150");
    assert_eq!(lines[11], "endgame,pawns,100");
    assert_eq!(lines[20], "endgame,jumps,0");
}

#[test]
fn toml_is_readable_tables() {
    let toml = ExportFormat::Toml.render(&sample());
    assert!(toml.contains("endgame_pieces = 10\n"));
    assert!(toml.contains("perspective = \"side to move: own count minus opponent count\""));
    assert!(toml.contains("\n[opening]\npawns = 100\nkings = 150\nsafe_pawns = -3\n"));
    assert!(toml.contains("\n[endgame]\n"));
    assert!(toml.contains("\n[source]\n"));
    assert!(toml.contains("id = 4711\n"));
}

#[test]
fn csv_and_toml_readers_report_problems_with_file_and_line() {
    let good = ExportFormat::Csv.render(&WeightsFile::material());
    let cases: Vec<(String, &str)> = vec![
        (good.replace("set,feature", "sets,feature"), "header"),
        (
            good.replace("opening,kings", "opening,king"),
            "unknown feature name `king`",
        ),
        (
            good.replace("endgame,kings,150", "endgame,kings,1.5"),
            "line 13: weight `1.5`",
        ),
        (
            good.replace("endgame,kings", "middle,kings"),
            "unknown set `middle`",
        ),
        (
            good.replace("endgame,kings", "opening,kings"),
            "appears twice (first on line 3)",
        ),
        (
            good.replace("endgame,jumps,0\n", ""),
            "no row for `endgame`/`jumps`",
        ),
        (
            good.replace("opening,pawns,100", "opening,pawns"),
            "not valid CSV (line 2",
        ),
        (String::new(), "empty file"),
    ];
    for (text, needle) in cases {
        let msg = input_message(WeightsFile::from_csv(&text, "w.csv"));
        assert!(msg.starts_with("weights file w.csv: "), "{msg}");
        assert!(msg.contains(needle), "{msg:?} should mention {needle:?}");
    }

    let good = ExportFormat::Toml.render(&sample());
    let cases: Vec<(String, &str)> = vec![
        (
            good.replace("kings = 150", "kings = 1.5"),
            "`opening.kings` is not an integer",
        ),
        (
            good.replace("safe_pawns = -3", "safe_pawn = -3"),
            "unknown feature name `safe_pawn`",
        ),
        (
            good.replace("jumps = 10000", ""),
            "`endgame` has no weight for `jumps`",
        ),
        (
            good.replace("[endgame]", "[endgam]"),
            "unknown key `endgam`",
        ),
        (
            good.replace("kings = 150", "kings = = 150"),
            "not TOML (line ",
        ),
        (
            good.replace("endgame_pieces = 10", "endgame_pieces = 30"),
            "`endgame_pieces`",
        ),
        (good.replace("id = 4711", "id = -1"), "`source.id`"),
    ];
    for (text, needle) in cases {
        let msg = input_message(WeightsFile::from_toml(&text, "w.toml"));
        assert!(msg.starts_with("weights file w.toml: "), "{msg}");
        assert!(msg.contains(needle), "{msg:?} should mention {needle:?}");
    }
}

#[test]
fn export_format_names() {
    for f in ExportFormat::ALL {
        assert_eq!(f.name().parse::<ExportFormat>().unwrap(), f);
    }
    assert_eq!("JSON".parse::<ExportFormat>().unwrap(), ExportFormat::Json);
    match "yaml".parse::<ExportFormat>() {
        Err(Error::Input(m)) => {
            assert!(
                m.contains("`yaml`") && m.contains("json, csv, toml, c"),
                "{m}"
            )
        }
        other => panic!("{other:?}"),
    }
}

/// Compiles the C program `main` (C99, every warning an error) beside it; returns the program.
fn compile_c(main: &Path) -> std::path::PathBuf {
    let exe = main.with_extension("");
    let out = Command::new("cc")
        .args([
            "-std=c99",
            "-Wall",
            "-Wextra",
            "-pedantic",
            "-Werror",
            "-O1",
            "-o",
        ])
        .arg(&exe)
        .arg(main)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

fn has_cc() -> bool {
    Command::new("cc")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

#[test]
fn c_header_compiles_and_holds_the_weights() {
    let file = sample();
    let header = ExportFormat::C.render(&file);
    assert!(header.contains("#define CHECKERS_ENDGAME_PIECES 10\n"));
    assert!(header.contains("#define CHECKERS_FEATURE_COUNT 10\n"));
    assert!(header.contains("static const int CHECKERS_OPENING_WEIGHTS[10]"));
    assert!(header.contains("static const int CHECKERS_ENDGAME_WEIGHTS[10]"));
    assert!(header.contains("    -42, /* defenders */\n"));
    assert!(header.contains("eval = sum_i w_i * (f_i(us) - f_i(them))"));
    for name in FEATURE_NAMES {
        assert!(header.contains(&format!("/* {name} */")), "{name}");
    }
    if !has_cc() {
        println!("note: no C compiler `cc` on PATH, skipping the compile check of the C header");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path().join("weights.h");
    export_to_file(&file, ExportFormat::C, &h).unwrap();
    let out = Command::new("cc")
        .args([
            "-fsyntax-only",
            "-x",
            "c",
            "-std=c99",
            "-Wall",
            "-pedantic",
            "-Werror",
        ])
        .arg(&h)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Compile and run a program that prints the arrays back: the values C sees are the weights.
    let main = dir.path().join("main.c");
    std::fs::write(
        &main,
        "#include <stdio.h>\n#include \"weights.h\"\n#include \"weights.h\"\n\
         int main(void) { int i;\n\
         for (i = 0; i < CHECKERS_FEATURE_COUNT; i++) printf(\"%d \", CHECKERS_OPENING_WEIGHTS[i]);\n\
         for (i = 0; i < CHECKERS_FEATURE_COUNT; i++) printf(\"%d \", CHECKERS_ENDGAME_WEIGHTS[i]);\n\
         printf(\"%d %d\\n\", CHECKERS_ENDGAME_PIECES, CHECKERS_JUMPS); return 0; }\n",
    )
    .unwrap();
    let exe = compile_c(&main);
    let run = Command::new(&exe).output().unwrap();
    let mut want: Vec<String> = file
        .weights
        .opening
        .0
        .iter()
        .map(|v| v.to_string())
        .collect();
    want.extend(file.weights.endgame.0.iter().map(|v| v.to_string()));
    want.push("10".into());
    want.push("9".into());
    assert_eq!(
        String::from_utf8_lossy(&run.stdout)
            .split_whitespace()
            .collect::<Vec<_>>(),
        want
    );
}

#[test]
fn export_to_file_writes_whole_files_and_leaves_no_temporaries() {
    let dir = tempfile::tempdir().unwrap();
    let file = sample();
    for f in ExportFormat::ALL {
        let out = dir.path().join(format!("w.{}", f.extension()));
        std::fs::write(&out, "old contents").unwrap();
        export_to_file(&file, f, &out).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), f.render(&file));
    }
    let json = dir.path().join("w.json");
    assert_eq!(WeightsFile::load_any(&json).unwrap(), file);
    assert_eq!(
        WeightsFile::load_any(&dir.path().join("w.toml")).unwrap(),
        file
    );
    assert_eq!(
        WeightsFile::load_any(&dir.path().join("w.csv"))
            .unwrap()
            .weights,
        file.weights
    );
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), ExportFormat::ALL.len(), "{names:?}");

    let missing = dir.path().join("no-such-folder").join("w.json");
    assert!(matches!(
        export_to_file(&file, ExportFormat::Json, &missing),
        Err(Error::Input(_))
    ));
    assert!(!missing.exists());
}

/// A small finished run: specimen 7 appears in rounds 1–3 (weights change each round), 12 in
/// rounds 2–3, 3 only in round 1. The playoff lists its rows out of rank order.
fn synthetic_run(dir: &Path, config: &str) {
    let mut header =
        String::from("round,id,parent_a,parent_b,born_round,rounds_survived,wins,draws,losses");
    for prefix in ["open", "end"] {
        for name in FEATURE_NAMES {
            header.push_str(&format!(",{prefix}_{name}"));
        }
    }
    let row = |round: u32, id: u64, base: i32| {
        let mut r = format!("{round},{id},,,0,{round},1,0,0");
        for i in 0..20 {
            r.push_str(&format!(",{}", base - i));
        }
        r
    };
    let specimens = [
        header,
        row(1, 3, 30),
        row(1, 7, 70),
        row(2, 7, 71),
        row(2, 12, -120),
        row(3, 12, -121),
        row(3, 7, 72),
    ]
    .join("\n");
    std::fs::write(dir.join("specimens.csv"), specimens + "\n").unwrap();
    std::fs::write(
        dir.join("playoff.csv"),
        "rank,id,points,wins,draws,losses\n2,12,3,1,1,0\n1,7,4,2,0,0\n",
    )
    .unwrap();
    std::fs::write(dir.join("config.toml"), config).unwrap();
}

#[test]
fn weights_from_run_takes_the_last_row_of_the_ranked_specimen() {
    let dir = tempfile::tempdir().unwrap();
    synthetic_run(
        dir.path(),
        "name = \"tiny\"\nseed = 1\n\n[search]\nmin_depth = 2\nendgame_pieces = 8\n",
    );
    let best = weights_from_run(dir.path(), 1).unwrap();
    assert_eq!(
        best.source,
        Some(WeightsSource::Specimen {
            run: "tiny".into(),
            id: 7,
            round: 3
        })
    );
    assert_eq!(best.endgame_pieces, 8);
    let want: Vec<i32> = (0..10).map(|i| 72 - i).collect();
    assert_eq!(best.weights.opening.0.to_vec(), want);
    let want: Vec<i32> = (10..20).map(|i| 72 - i).collect();
    assert_eq!(best.weights.endgame.0.to_vec(), want);

    let second = resolve_export_source(dir.path(), 2).unwrap();
    assert!(matches!(
        second.source,
        Some(WeightsSource::Specimen {
            id: 12,
            round: 3,
            ..
        })
    ));
    assert_eq!(second.weights.opening.0[0], -121);
    assert_eq!(second.weights.endgame.0[9], -140);

    for bad in [0, 3] {
        match weights_from_run(dir.path(), bad) {
            Err(Error::Input(m)) => {
                assert!(m.contains(&format!("--rank {bad}")), "{m}");
                assert!(
                    m.contains("playoff.csv") && m.contains("has 2 ranks"),
                    "{m}"
                );
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn weights_from_run_defaults_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    synthetic_run(dir.path(), "name = \"no-search\"\n");
    assert_eq!(weights_from_run(dir.path(), 1).unwrap().endgame_pieces, 12);

    std::fs::write(
        dir.path().join("playoff.csv"),
        "rank,id,points,wins,draws,losses\n1,99,4,2,0,0\n",
    )
    .unwrap();
    let msg = format!("{:?}", weights_from_run(dir.path(), 1));
    assert!(
        msg.contains("specimens.csv") && msg.contains("no row for specimen 99"),
        "{msg}"
    );

    std::fs::remove_file(dir.path().join("playoff.csv")).unwrap();
    match weights_from_run(dir.path(), 1) {
        Err(Error::Input(m)) => assert!(m.contains("playoff.csv") && m.contains("not found")),
        other => panic!("{other:?}"),
    }
}

#[test]
fn resolve_export_source_material_files_and_missing() {
    assert_eq!(
        resolve_export_source(Path::new("material"), 1).unwrap(),
        WeightsFile::material()
    );
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("w.toml");
    export_to_file(&sample(), ExportFormat::Toml, &p).unwrap();
    assert_eq!(resolve_export_source(&p, 1).unwrap(), sample());
    assert!(matches!(resolve_export_source(&p, 2), Err(Error::Input(_))));
    let missing = dir.path().join("nothing.json");
    assert!(matches!(
        resolve_export_source(&missing, 1),
        Err(Error::Input(_))
    ));
}

#[test]
fn openbench_lines_name_every_weight_once() {
    let text = ExportFormat::OpenBench.render(&sample());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 20);
    assert_eq!(lines[0], "opening_pawns, 100");
    assert_eq!(lines[4], "opening_defenders, -42");
    assert_eq!(lines[10], "endgame_pawns, 90");
    assert_eq!(lines[19], "endgame_jumps, 10000");
    assert_eq!(
        "openbench".parse::<ExportFormat>().unwrap(),
        ExportFormat::OpenBench
    );
}

/// The output of the C program `exe` fed one line per position: Black's, White's and the kings'
/// masks and whether White is to move.
fn run_on_positions(exe: &Path, positions: &[Position]) -> String {
    let input: String = positions
        .iter()
        .map(|p| {
            format!(
                "{} {} {} {}\n",
                p.pieces(Color::Black),
                p.pieces(Color::White),
                p.kings(),
                u8::from(p.side_to_move() == Color::White)
            )
        })
        .collect();
    let mut child = Command::new(exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    String::from_utf8(output.stdout).unwrap()
}

/// Positions from random games (both sides to move, men and kings, captures pending or not).
fn random_positions(count: usize) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::start();
        for _ in 0..rng.gen_range(0..120) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.gen_range(0..moves.len())]);
            out.push(pos);
        }
    }
    out.truncate(count);
    out
}

#[test]
fn the_c_reference_evaluation_matches_the_engine() {
    if !has_cc() {
        eprintln!("skipped: no C compiler `cc`");
        return;
    }
    let file = WeightsFile {
        weights: WeightPair {
            opening: Weights([100, 150, -3, 7, -42, 11, -1, 12, 5, 9]),
            endgame: Weights([90, 170, 2, -8, 4, -10, -15, 33, -2, 6]),
        },
        extra: None,
        patterns: None,
        endgame_pieces: 10,
        source: None,
        database_pieces: None,
        search: None,
    };
    let dir = tempfile::tempdir().unwrap();
    export_to_file(&file, ExportFormat::C, &dir.path().join("weights.h")).unwrap();
    let main = dir.path().join("main.c");
    std::fs::write(
        &main,
        "#include <stdio.h>\n#include \"weights.h\"\n\
         int main(void) { unsigned long b, w, k; int wtm, f[CHECKERS_FEATURE_COUNT], i;\n\
         while (scanf(\"%lu %lu %lu %d\", &b, &w, &k, &wtm) == 4) {\n\
           checkers_features((uint32_t)b, (uint32_t)w, (uint32_t)k, 1, f);\n\
           for (i = 0; i < CHECKERS_FEATURE_COUNT; i++) printf(\"%d \", f[i]);\n\
           checkers_features((uint32_t)b, (uint32_t)w, (uint32_t)k, 0, f);\n\
           for (i = 0; i < CHECKERS_FEATURE_COUNT; i++) printf(\"%d \", f[i]);\n\
           printf(\"%d\\n\", checkers_evaluate((uint32_t)b, (uint32_t)w, (uint32_t)k, wtm,\n\
             checkers_phase_weights((uint32_t)b, (uint32_t)w))); }\n\
         return 0; }\n",
    )
    .unwrap();
    let exe = compile_c(&main);

    let positions = random_positions(3000);
    let text = run_on_positions(&exe, &positions);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), positions.len());
    let player = Player {
        weights: &file.weights,
        extra: None,
        patterns: None,
        endgame_pieces: file.endgame_pieces,
        limits: None,
        search: None,
    };
    let mut phases = [0, 0];
    for (pos, line) in positions.iter().zip(lines) {
        let mut want: Vec<i32> = features(pos, Color::Black).to_vec();
        want.extend(features(pos, Color::White));
        let weights = player.phase_weights(pos);
        phases[usize::from(weights == &file.weights.endgame)] += 1;
        want.push(evaluate(pos, weights));
        let got: Vec<i32> = line
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(got, want, "{pos}");
    }
    // Both weight sets were put to the test.
    assert!(phases[0] > 100 && phases[1] > 100, "{phases:?}");
}

#[test]
fn the_c_reference_of_the_extended_evaluator_matches_the_engine() {
    if !has_cc() {
        eprintln!("skipped: no C compiler `cc`");
        return;
    }
    let phase = |seed: i32| ExtraWeights {
        terms: [seed + 13, -seed - 21],
        men: std::array::from_fn(|i| (i as i32 * 37 + seed) % 61 - 30),
        kings: std::array::from_fn(|i| (i as i32 * 53 + seed) % 91 - 45),
    };
    let file = WeightsFile {
        weights: WeightPair {
            opening: Weights([100, 150, -3, 7, -42, 11, -1, 12, 5, 9]),
            endgame: Weights([100, 170, 2, -8, 4, -10, -15, 33, -2, 6]),
        },
        extra: Some(ExtraPair {
            opening: phase(5),
            endgame: phase(17),
        }),
        patterns: None,
        endgame_pieces: 12,
        source: None,
        database_pieces: None,
        search: None,
    };
    let dir = tempfile::tempdir().unwrap();
    export_to_file(&file, ExportFormat::C, &dir.path().join("weights.h")).unwrap();
    let main = dir.path().join("main.c");
    std::fs::write(
        &main,
        "#include <stdio.h>\n#include \"weights.h\"\n\
         int main(void) { unsigned long b, w, k; int wtm, t[CHECKERS_TERM_COUNT];\n\
         while (scanf(\"%lu %lu %lu %d\", &b, &w, &k, &wtm) == 4) {\n\
           checkers_terms((uint32_t)b, (uint32_t)w, (uint32_t)k, 1, t);\n\
           printf(\"%d %d \", t[0], t[1]);\n\
           checkers_terms((uint32_t)b, (uint32_t)w, (uint32_t)k, 0, t);\n\
           printf(\"%d %d \", t[0], t[1]);\n\
           printf(\"%d\\n\", checkers_evaluate_extended((uint32_t)b, (uint32_t)w, (uint32_t)k,\n\
             wtm)); }\n\
         return 0; }\n",
    )
    .unwrap();
    let exe = compile_c(&main);
    let positions = random_positions(3000);
    let text = run_on_positions(&exe, &positions);
    let extra = file.extra.unwrap();
    let mut seen = [0; 2];
    for (pos, line) in positions.iter().zip(text.lines()) {
        let mut want: Vec<i32> = terms(pos, Color::Black).to_vec();
        want.extend(terms(pos, Color::White));
        want.push(evaluate_extended(pos, &file.weights, &extra));
        let got: Vec<i32> = line
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(got, want, "{pos}");
        seen[0] += usize::from(want[0] + want[2] > 0);
        seen[1] += usize::from(want[1] + want[3] > 0);
    }
    assert_eq!(text.lines().count(), positions.len());
    // Both terms occurred.
    assert!(seen[0] > 100 && seen[1] > 100, "{seen:?}");
}

/// Pattern weights with every entry different: the classic terms and the tables of bands and
/// strips, both phases.
fn patterns_file() -> WeightsFile {
    patterns_file_with(KingLayout::None)
}

/// [`patterns_file`] with the king regions of `kings` too.
fn patterns_file_with(kings: KingLayout) -> WeightsFile {
    patterns_file_with_ranks(kings, RankLayout::None)
}

/// [`patterns_file`] with the king regions of `kings` and the rank regions of `ranks` too.
fn patterns_file_with_ranks(kings: KingLayout, ranks: RankLayout) -> WeightsFile {
    patterns_file_of(RegionLayout::BandsAndStrips, kings, ranks)
}

/// [`patterns_file`] with the men regions of `layout`, the king regions of `kings` and the rank
/// regions of `ranks`.
fn patterns_file_of(layout: RegionLayout, kings: KingLayout, ranks: RankLayout) -> WeightsFile {
    let phase = |seed: i32| ExtraWeights {
        terms: [seed + 13, -seed - 21],
        men: std::array::from_fn(|i| (i as i32 * 37 + seed) % 61 - 30),
        kings: std::array::from_fn(|i| (i as i32 * 53 + seed) % 91 - 45),
    };
    let mut regions = layout.regions();
    regions.extend(kings.regions());
    regions.extend(ranks.regions());
    let mut tables = PatternTables::zero(regions);
    let values = (0..tables.len() as i64)
        .map(|e| {
            [
                ((e * 7919) % 97 - 48) as i32,
                ((e * 104_729) % 89 - 44) as i32,
            ]
        })
        .collect();
    tables.set_values(values).unwrap();
    WeightsFile {
        weights: WeightPair {
            opening: Weights([100, 150, -3, 7, -42, 11, -1, 12, 5, 9]),
            endgame: Weights([100, 170, 2, -8, 4, -10, -15, 33, -2, 6]),
        },
        extra: Some(ExtraPair {
            opening: phase(5),
            endgame: phase(17),
        }),
        patterns: Some(std::sync::Arc::new(PatternWeights {
            classic_opening: [25, -9],
            classic_endgame: [44, 7],
            exchange: [0; 2],
            tables,
        })),
        endgame_pieces: 12,
        source: None,
        database_pieces: Some(5),
        search: None,
    }
}

#[test]
fn the_c_reference_of_the_pattern_evaluator_matches_the_engine() {
    c_reference_of_patterns_matches_the_engine(KingLayout::None);
}

#[test]
fn the_c_reference_of_the_exchange_term_matches_the_engine() {
    let mut file = patterns_file_with_ranks(KingLayout::Quadrants, RankLayout::Home);
    let mut patterns = (**file.patterns.as_ref().unwrap()).clone();
    patterns.exchange = [-13, 29];
    file.patterns = Some(std::sync::Arc::new(patterns));
    c_reference_of_file_matches_the_engine(file);
}

#[test]
fn the_c_reference_of_king_regions_matches_the_engine() {
    c_reference_of_patterns_matches_the_engine(KingLayout::Quadrants);
}

/// Rank regions after king regions: the C header reads both kinds where the engine does.
#[test]
fn the_c_reference_of_the_home_ranks_matches_the_engine() {
    c_reference_of_layouts_matches_the_engine(KingLayout::Quadrants, RankLayout::Home);
}

/// And after the men regions alone.
#[test]
fn the_c_reference_of_the_home_ranks_without_king_regions_matches_the_engine() {
    c_reference_of_layouts_matches_the_engine(KingLayout::None, RankLayout::Home);
}

/// The wide layout's offset bands and quadrants, which the engine reads by shape.
#[test]
fn the_c_reference_of_the_wide_layout_matches_the_engine() {
    c_reference_of_file_matches_the_engine(patterns_file_of(
        RegionLayout::Wide,
        KingLayout::None,
        RankLayout::Home,
    ));
}

fn c_reference_of_patterns_matches_the_engine(kings: KingLayout) {
    c_reference_of_layouts_matches_the_engine(kings, RankLayout::None);
}

fn c_reference_of_layouts_matches_the_engine(kings: KingLayout, ranks: RankLayout) {
    c_reference_of_file_matches_the_engine(patterns_file_with_ranks(kings, ranks));
}

fn c_reference_of_file_matches_the_engine(file: WeightsFile) {
    if !has_cc() {
        eprintln!("skipped: no C compiler `cc`");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    export_to_file(&file, ExportFormat::C, &dir.path().join("weights.h")).unwrap();
    let main = dir.path().join("main.c");
    std::fs::write(
        &main,
        "#include <stdio.h>\n#include \"weights.h\"\n\
         int main(void) { unsigned long b, w, k; int wtm, i, c[CHECKERS_CLASSIC_COUNT];\n\
         while (scanf(\"%lu %lu %lu %d\", &b, &w, &k, &wtm) == 4) {\n\
           checkers_classic((uint32_t)b, (uint32_t)w, (uint32_t)k, wtm, c);\n\
           for (i = 0; i < CHECKERS_CLASSIC_COUNT; i++) printf(\"%d \", c[i]);\n\
           printf(\"%d\\n\", checkers_evaluate_patterns((uint32_t)b, (uint32_t)w, (uint32_t)k,\n\
             wtm)); }\n\
         return 0; }\n",
    )
    .unwrap();
    let exe = compile_c(&main);
    let positions = random_positions(3000);
    let text = run_on_positions(&exe, &positions);
    let (extra, patterns) = (file.extra.unwrap(), file.patterns.unwrap());
    let mut seen = [0; CLASSIC_COUNT];
    for (pos, line) in positions.iter().zip(text.lines()) {
        let mut want: Vec<i32> = classic_counts(pos).to_vec();
        want.push(evaluate_patterns(pos, &file.weights, &extra, &patterns));
        let got: Vec<i32> = line
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(got, want, "{pos}");
        for (count, &v) in seen.iter_mut().zip(&want) {
            *count += usize::from(v != 0);
        }
    }
    assert_eq!(text.lines().count(), positions.len());
    // Every classic term occurred.
    assert!(seen.iter().all(|&n| n > 20), "{seen:?}");
}

#[test]
fn pattern_weights_come_back_from_json() {
    let file = patterns_file();
    let text = ExportFormat::Json.render(&file);
    assert!(text.contains("\"evaluator\": \"patterns\""));
    assert!(text.contains("\"classic\": [\"corner_kings\", \"the_move\"]"));
    assert!(text.contains("\"regions\": [[1, 2, 3, 4, 5, 6, 7, 8], "));
    let back = WeightsFile::from_json(&text, "p.json").unwrap();
    assert_eq!(back, file);
    assert_eq!(
        back.evaluator(),
        checkers_engine::eval::EvaluatorKind::Patterns
    );
}

#[test]
fn king_regions_come_back_from_json_and_are_written_only_when_there() {
    let without = ExportFormat::Json.render(&patterns_file());
    assert!(!without.contains("king_regions"), "{without}");
    assert!(!ExportFormat::Toml
        .render(&patterns_file())
        .contains("king_regions"));
    let file = patterns_file_with(KingLayout::Quadrants);
    let text = ExportFormat::Json.render(&file);
    assert!(
        text.contains("\"king_regions\": [[1, 2, 5, 6, 9, 10, 13, 14], "),
        "{text}"
    );
    let back = WeightsFile::from_json(&text, "k.json").unwrap();
    assert_eq!(back, file);
    assert!(back.patterns.unwrap().tables.has_king_regions());
    let toml = ExportFormat::Toml.render(&file);
    assert!(
        toml.contains("king_regions = [[1, 2, 5, 6, 9, 10, 13, 14], "),
        "{toml}"
    );
    // One table too few for the men and king regions together: refused, naming the key.
    let cut = text.replacen(
        "\"king_regions\": [[1, 2, 5, 6, 9, 10, 13, 14], ",
        "\"king_regions\": [",
        1,
    );
    let err = WeightsFile::from_json(&cut, "k.json")
        .unwrap_err()
        .to_string();
    assert!(err.contains("opening_tables"), "{err}");
    let bad = text.replacen(
        "[[1, 2, 5, 6, 9, 10, 13, 14], ",
        "[[1, 2, 5, 6, 9, 10, 13, 33], ",
        2,
    );
    let err = WeightsFile::from_json(&bad, "k.json")
        .unwrap_err()
        .to_string();
    assert!(err.contains("king_regions") && err.contains("33"), "{err}");
}

#[test]
fn rank_regions_come_back_from_json_and_toml_and_are_written_only_when_there() {
    for format in [ExportFormat::Json, ExportFormat::Toml, ExportFormat::C] {
        let text = format.render(&patterns_file_with(KingLayout::Quadrants));
        assert!(!text.contains("rank_regions"), "{format}");
        assert!(!text.contains("RANK"), "{format}");
    }
    let file = patterns_file_with_ranks(KingLayout::Quadrants, RankLayout::Home);
    let home = "[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]]";
    let text = ExportFormat::Json.render(&file);
    assert!(
        text.contains(&format!("\"rank_regions\": {home},\n")),
        "{}",
        &text[..2000]
    );
    let back = WeightsFile::from_json(&text, "r.json").unwrap();
    assert_eq!(back, file);
    let tables = &back.patterns.as_ref().unwrap().tables;
    assert!(tables.has_rank_regions() && tables.has_king_regions());
    assert_eq!(tables.regions().len(), 13);
    assert_eq!(tables.len(), 12 * 6561 + 65_536);
    // TOML and back, through a file as a user would.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("r.toml");
    export_to_file(&file, ExportFormat::Toml, &path).unwrap();
    let toml = std::fs::read_to_string(&path).unwrap();
    assert!(toml.contains(&format!("rank_regions = {home}\n")));
    assert_eq!(WeightsFile::load_any(&path).unwrap(), file);
    let json = dir.path().join("r.json");
    export_to_file(&file, ExportFormat::Json, &json).unwrap();
    assert_eq!(WeightsFile::load(&json).unwrap(), file);
    // A rank region of 17 squares, or a rank table one entry short: refused, naming the key.
    let bad = text.replacen(
        home,
        "[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]]",
        1,
    );
    let err = WeightsFile::from_json(&bad, "r.json")
        .unwrap_err()
        .to_string();
    assert!(err.contains("rank_regions") && err.contains("17"), "{err}");
    let short = text.replacen(
        home,
        "[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]]",
        1,
    );
    let err = WeightsFile::from_json(&short, "r.json")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("opening_tables") && err.contains("table 13"),
        "{err}"
    );
}

#[test]
fn every_command_takes_a_pattern_weights_file() {
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("patterns.json");
    let mut file = patterns_file();
    file.database_pieces = None;
    std::fs::write(&weights, ExportFormat::Json.render(&file)).unwrap();
    let weights = weights.to_str().unwrap();
    let stdout = |assert: assert_cmd::assert::Assert| {
        String::from_utf8(assert.get_output().stdout.clone()).unwrap()
    };
    let analysed = stdout(
        bin()
            .args([
                "analyse",
                "--fen",
                "B:W25,27,31:B3,9,14,17",
                "--weights",
                weights,
            ])
            .args(["--min-depth", "4", "--max-depth", "8"])
            .assert()
            .success(),
    );
    assert!(analysed.starts_with("bestmove "), "{analysed}");
    let bench = stdout(
        bin()
            .args(["bench", "--depth", "4", "--weights", weights])
            .assert()
            .success(),
    );
    assert_eq!(bench.lines().count(), 4, "{bench}");
    bin()
        .args([
            "match",
            weights,
            "material",
            "--openings",
            "3-move",
            "--pairs",
            "2",
        ])
        .args(["--min-depth", "2", "--max-depth", "4", "-q"])
        .assert()
        .success()
        .stdout(predicates::str::contains(
            "pattern evaluator, opening and endgame weights tapered",
        ));
    for format in ["json", "toml", "c"] {
        let out = dir.path().join(format!("out.{format}"));
        bin()
            .args(["export", weights, "--format", format, "-o"])
            .arg(&out)
            .assert()
            .success();
    }
    let back = WeightsFile::load_any(&dir.path().join("out.toml")).unwrap();
    assert_eq!(back.patterns, file.patterns);
    for format in ["csv", "openbench"] {
        let out = dir.path().join(format!("out.{format}"));
        bin()
            .args(["export", weights, "--format", format, "-o"])
            .arg(&out)
            .assert()
            .code(2)
            .stderr(predicates::str::contains("written as json, toml or c"));
        assert!(!out.exists());
    }
}

/// Every `[search]` key off its default: the weights file's JSON and TOML forms name each one
/// and read back to the same parameters, and the C header defines each one.
#[test]
fn a_weights_file_plays_values_not_gene_ranges() {
    let json = WeightsFile::material().to_json().replacen(
        '{',
        "{\"search\": {\"mode\": \"selective\", \"genes\": {\"lmr_reduction\": [0, 2]}},",
        1,
    );
    let err = WeightsFile::from_json(&json, "w.json").unwrap_err();
    assert_eq!(err.exit_code(), 2);
    assert!(err.to_string().contains("`search.genes`"), "{err}");
}

#[test]
fn every_search_key_round_trips() {
    use checkers_engine::game::{SearchMode, SearchParams, TieBreak};
    let d = SearchParams::default();
    let params = SearchParams {
        mode: SearchMode::Selective,
        min_depth: d.min_depth + 1,
        max_depth: d.max_depth + 1,
        endgame_pieces: d.endgame_pieces - 1,
        tie_break: TieBreak::Random,
        database_pieces: d.database_pieces - 1,
        lmr_depth: d.lmr_depth + 1,
        lmr_moves: d.lmr_moves + 1,
        lmr_reduction: d.lmr_reduction + 1,
        futility_depth: d.futility_depth + 1,
        futility_margin: d.futility_margin + 1,
        pv_extension: !d.pv_extension,
        recapture_extension: !d.recapture_extension,
        history: !d.history,
        aspiration: d.aspiration + 1,
        // A node budget breaks ties by move order (a file with both is refused, as a config
        // is): `nodes` round-trips on its own below.
        nodes: None,
        // A run's genes are never part of a weights file's table.
        genes: Default::default(),
    };
    assert_eq!(params.changed_entries().len(), params.entries().len());
    let file = WeightsFile {
        search: Some(params),
        ..sample()
    };
    let json = ExportFormat::Json.render(&file);
    let toml = ExportFormat::Toml.render(&file);
    for (key, _) in params.entries() {
        assert!(json.contains(&format!("\"{key}\": ")), "{key} in {json}");
        assert!(toml.contains(&format!("\n{key} = ")), "{key} in {toml}");
    }
    assert_eq!(WeightsFile::from_json(&json, "j").unwrap(), file);
    assert_eq!(WeightsFile::from_toml(&toml, "t").unwrap(), file);
    let budget = WeightsFile {
        search: Some(SearchParams {
            nodes: Some(250_000),
            tie_break: TieBreak::First,
            ..params
        }),
        ..sample()
    };
    for format in [ExportFormat::Json, ExportFormat::Toml] {
        let text = format.render(&budget);
        assert!(text.contains("nodes"), "{text}");
        let read = match format {
            ExportFormat::Json => WeightsFile::from_json(&text, "j"),
            _ => WeightsFile::from_toml(&text, "t"),
        };
        assert_eq!(read.unwrap(), budget);
    }
    let header = ExportFormat::C.render(&file);
    assert!(header.contains("#define CHECKERS_SEARCH_TIE_BREAK \"random\"\n"));
    assert!(header.contains(&format!(
        "#define CHECKERS_SEARCH_ASPIRATION {}\n",
        d.aspiration + 1
    )));
    assert_eq!(header.matches("#define CHECKERS_SEARCH_").count(), 15);
    let header = ExportFormat::C.render(&budget);
    assert!(header.contains("#define CHECKERS_SEARCH_NODES 250000\n"));
    assert_eq!(header.matches("#define CHECKERS_SEARCH_").count(), 16);
    // Without the table every form is the one it always was.
    let plain = sample();
    assert_eq!(
        ExportFormat::Json.render(&plain),
        ExportFormat::Json.render(&WeightsFile {
            search: None,
            ..file.clone()
        })
    );
    assert!(!ExportFormat::C.render(&plain).contains("CHECKERS_SEARCH"));
}
