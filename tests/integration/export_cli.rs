//! The `export` command: every format to stdout and to `-o FILE`, `--rank` on a run folder,
//! and its bad-input errors.

use std::path::Path;

use crate::support::bin_without_databases as bin;
use checkers_engine::eval::{WeightPair, Weights, FEATURE_NAMES};
use checkers_engine::game::{SearchMode, SearchParams};
use checkers_engine::weights_file::{WeightsFile, WeightsSource};
use checkers_harness::export::ExportFormat;

/// Runs `export` with `args`, expecting success; returns stdout.
fn export(args: &[&str]) -> String {
    let out = bin().arg("export").args(args).assert().success();
    assert!(out.get_output().stderr.is_empty());
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

/// Runs `export` with `args`, expecting exit status 2; returns stderr.
fn export_fails(args: &[&str]) -> String {
    let out = bin().arg("export").args(args).assert().code(2);
    assert!(out.get_output().stdout.is_empty());
    String::from_utf8(out.get_output().stderr.clone()).unwrap()
}

fn hand_made() -> WeightsFile {
    let mut f = WeightsFile::new(WeightPair {
        opening: Weights([100, 150, -3, 7, -42, 0, -1, 12, 5, -10_000]),
        endgame: Weights([90, 170, 0, -8, 4, -100, -15, 33, -2, 10_000]),
    });
    f.endgame_pieces = 9;
    f
}

fn reread(format: ExportFormat, text: &str) -> WeightsFile {
    match format {
        ExportFormat::Json => WeightsFile::from_json(text, "stdout").unwrap(),
        ExportFormat::Toml => WeightsFile::from_toml(text, "stdout").unwrap(),
        ExportFormat::Csv => WeightsFile::from_csv(text, "stdout").unwrap(),
        ExportFormat::C | ExportFormat::OpenBench => panic!("{format} is not read back"),
    }
}

#[test]
fn every_format_to_stdout_and_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("w.json");
    std::fs::write(&src, hand_made().to_json()).unwrap();
    let src = src.to_str().unwrap();

    for format in ExportFormat::ALL {
        let printed = export(&[src, "--format", format.name()]);
        assert_eq!(printed, format.render(&hand_made()), "{format}");
        let file = dir
            .path()
            .join(format!("out-{}.{}", format.name(), format.extension()));
        let none = export(&[src, "--format", format.name(), "-o", file.to_str().unwrap()]);
        assert!(none.is_empty());
        let written = std::fs::read_to_string(&file).unwrap();
        assert_eq!(written, printed, "{format}");
        match format {
            ExportFormat::C => {
                assert!(written.contains("static const int CHECKERS_OPENING_WEIGHTS[10] = {"));
                assert!(written.contains("    -10000 /* jumps */"));
                assert!(written.contains("#define CHECKERS_ENDGAME_PIECES 9"));
            }
            ExportFormat::OpenBench => {
                assert!(written.starts_with("opening_pawns, 100\nopening_kings, 150\n"));
                assert!(written.ends_with("endgame_jumps, 10000\n"));
            }
            ExportFormat::Csv => {
                // CSV carries the weights only.
                assert_eq!(reread(format, &written).weights, hand_made().weights);
                assert_eq!(
                    WeightsFile::load_any(&file).unwrap().weights,
                    hand_made().weights
                );
            }
            _ => {
                assert_eq!(reread(format, &written), hand_made(), "{format}");
                assert_eq!(WeightsFile::load_any(&file).unwrap(), hand_made());
            }
        }
    }
    // Without --format the output defaults to JSON, or to the -o file's extension.
    assert_eq!(export(&[src]), hand_made().to_json());
    let toml = dir.path().join("guess.toml");
    export(&[src, "-o", toml.to_str().unwrap()]);
    assert_eq!(
        std::fs::read_to_string(&toml).unwrap(),
        ExportFormat::Toml.render(&hand_made())
    );
    let header = dir.path().join("guess.h");
    export(&[src, "--out", header.to_str().unwrap()]);
    assert!(std::fs::read_to_string(&header)
        .unwrap()
        .contains("static const int CHECKERS_ENDGAME_WEIGHTS"));
    // `material` needs no file.
    assert_eq!(
        reread(ExportFormat::Csv, &export(&["material", "--format", "csv"])).weights,
        WeightPair::material()
    );
}

/// A finished run's files: specimen 7 (rank 1) survives rounds 1–2 with changing weights,
/// specimen 4 (rank 2) only round 2.
fn synthetic_run(dir: &Path) {
    let mut header =
        String::from("round,id,parent_a,parent_b,born_round,rounds_survived,wins,draws,losses");
    for prefix in ["open", "end"] {
        for name in FEATURE_NAMES {
            header.push_str(&format!(",{prefix}_{name}"));
        }
    }
    let row = |round: u32, id: u64, base: i32| {
        let weights: Vec<String> = (0..20).map(|i| (base + 3 * i).to_string()).collect();
        format!("{round},{id},,,0,{round},2,1,0,{}", weights.join(","))
    };
    let rows = [header, row(1, 7, 10), row(2, 4, -50), row(2, 7, 11)];
    std::fs::write(dir.join("specimens.csv"), rows.join("\n") + "\n").unwrap();
    std::fs::write(
        dir.join("playoff.csv"),
        "rank,id,points,wins,draws,losses\n1,7,3,1,1,0\n2,4,1,0,1,1\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("config.toml"),
        "name = \"synthetic\"\nseed = 3\n\n[search]\nendgame_pieces = 6\n",
    )
    .unwrap();
}

#[test]
fn rank_picks_a_specimen_of_a_run_folder() {
    let dir = tempfile::tempdir().unwrap();
    synthetic_run(dir.path());
    let run = dir.path().to_str().unwrap();
    let weights = |base: i32| {
        let mut w = [Weights::default(); 2];
        for (i, v) in w.iter_mut().flat_map(|s| s.0.iter_mut()).enumerate() {
            *v = base + 3 * i as i32;
        }
        WeightPair {
            opening: w[0],
            endgame: w[1],
        }
    };

    let best = reread(ExportFormat::Json, &export(&[run]));
    assert_eq!(best.weights, weights(11));
    assert_eq!(best.endgame_pieces, 6);
    assert_eq!(
        best.source,
        Some(WeightsSource::Specimen {
            run: "synthetic".into(),
            id: 7,
            round: 2
        })
    );
    assert_eq!(
        reread(ExportFormat::Json, &export(&[run, "--rank", "1"])),
        best
    );

    let second = reread(
        ExportFormat::Toml,
        &export(&[run, "--rank", "2", "--format", "toml"]),
    );
    assert_eq!(second.weights, weights(-50));
    assert!(matches!(
        second.source,
        Some(WeightsSource::Specimen {
            id: 4,
            round: 2,
            ..
        })
    ));

    let msg = export_fails(&[run, "--rank", "3"]);
    assert!(
        msg.contains("--rank 3") && msg.contains("has 2 ranks"),
        "{msg}"
    );
    let msg = export_fails(&[run, "--rank", "0"]);
    assert!(msg.contains("--rank 0"), "{msg}");
}

#[test]
fn bad_arguments_exit_2_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.json");
    let out = out.to_str().unwrap();

    let msg = export_fails(&["material", "--format", "yaml", "-o", out]);
    assert!(
        msg.contains("--format") && msg.contains("unknown export format `yaml`"),
        "{msg}"
    );
    assert!(msg.contains("json, csv, toml, c"), "{msg}");

    let missing = dir.path().join("no-run");
    let msg = export_fails(&[missing.to_str().unwrap(), "-o", out]);
    assert!(
        msg.contains("no-run") && msg.contains("no such run folder"),
        "{msg}"
    );

    let msg = export_fails(&["material", "--rank", "2", "-o", out]);
    assert!(msg.contains("--rank 2"), "{msg}");

    let nowhere = dir.path().join("missing-folder").join("w.json");
    let msg = export_fails(&["material", "-o", nowhere.to_str().unwrap()]);
    assert!(msg.contains("does not exist"), "{msg}");

    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\"opening\": [1, 2]}").unwrap();
    let msg = export_fails(&[broken.to_str().unwrap(), "-o", out]);
    assert!(
        msg.contains("broken.json") && msg.contains("`opening` has 2 numbers"),
        "{msg}"
    );

    assert!(export_fails(&[]).contains("RUN_DIR_OR_WEIGHTS"));

    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["broken.json"]);
}

/// A weights file's `search` table goes through `export`: JSON and TOML read back with the
/// same search parameters (and weights), the C header holds them as `#define`s, CSV and
/// openbench carry the weights only; a file without the table is written without it.
#[test]
fn the_search_table_round_trips_through_export() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("tuned.json");
    // Hand-written: the table names only the keys that differ from their defaults.
    let text = hand_made().to_json().replacen(
        "  \"perspective\"",
        "  \"search\": {\"mode\": \"selective\", \"lmr_reduction\": 1, \"futility_margin\": 75, \
         \"history\": false, \"min_depth\": 8, \"max_depth\": 16},\n  \"perspective\"",
        1,
    );
    std::fs::write(&src, &text).unwrap();
    let src = src.to_str().unwrap();
    let read = WeightsFile::load_any(Path::new(src)).unwrap();
    let params = read.search.expect("the table is read");
    assert_eq!(params.mode, SearchMode::Selective);
    assert_eq!(
        (params.lmr_reduction, params.futility_margin, params.history),
        (1, 75, false)
    );
    assert_eq!((params.min_depth, params.max_depth), (8, 16));
    // Keys left out keep their defaults.
    let defaults = SearchParams::default();
    assert_eq!(params.lmr_moves, defaults.lmr_moves);
    assert_eq!(params.aspiration, defaults.aspiration);
    assert_eq!(
        read,
        WeightsFile {
            search: Some(params),
            ..hand_made()
        }
    );

    for format in [ExportFormat::Json, ExportFormat::Toml] {
        let written = export(&[src, "--format", format.name()]);
        assert!(written.contains("selective"), "{format}: {written}");
        let back = reread(format, &written);
        assert_eq!(back.search, Some(params), "{format}");
        assert_eq!(back, read, "{format}");
        // And once more: the written form is a fixed point.
        assert_eq!(format.render(&back), written, "{format}");
    }
    // The JSON writes the keys in the section's order, only those off their defaults.
    assert!(export(&[src]).contains(
        "  \"search\": {\"mode\": \"selective\", \"min_depth\": 8, \"max_depth\": 16, \
         \"lmr_reduction\": 1, \"futility_margin\": 75, \"history\": false},\n"
    ));
    assert!(export(&[src, "--format", "toml"]).contains(
        "\n[search]\nmode = \"selective\"\nmin_depth = 8\nmax_depth = 16\nlmr_reduction = 1\n\
         futility_margin = 75\nhistory = false\n"
    ));

    // The C header: every key, defaults included, switches as 0/1.
    let header = export(&[src, "--format", "c"]);
    for line in [
        "#define CHECKERS_SEARCH_MODE \"selective\"\n",
        "#define CHECKERS_SEARCH_MIN_DEPTH 8\n",
        "#define CHECKERS_SEARCH_MAX_DEPTH 16\n",
        "#define CHECKERS_SEARCH_TIE_BREAK \"first\"\n",
        "#define CHECKERS_SEARCH_LMR_REDUCTION 1\n",
        "#define CHECKERS_SEARCH_FUTILITY_MARGIN 75\n",
        "#define CHECKERS_SEARCH_HISTORY 0\n",
        "#define CHECKERS_SEARCH_PV_EXTENSION 1\n",
        &format!("#define CHECKERS_SEARCH_LMR_MOVES {}\n", defaults.lmr_moves),
        &format!(
            "#define CHECKERS_SEARCH_ASPIRATION {}\n",
            defaults.aspiration
        ),
    ] {
        assert!(header.contains(line), "{line:?} missing from the header");
    }
    assert_eq!(header.matches("#define CHECKERS_SEARCH_").count(), 15);

    // CSV and openbench carry the weights only.
    for format in [ExportFormat::Csv, ExportFormat::OpenBench] {
        assert!(!export(&[src, "--format", format.name()]).contains("search"));
    }

    // A table at its defaults is kept (empty), not dropped; no table writes nothing.
    let empty = dir.path().join("empty.json");
    std::fs::write(
        &empty,
        hand_made().to_json().replacen(
            "  \"perspective\"",
            "  \"search\": {},\n  \"perspective\"",
            1,
        ),
    )
    .unwrap();
    let empty = empty.to_str().unwrap();
    let json = export(&[empty]);
    assert!(json.contains("  \"search\": {},\n"), "{json}");
    assert_eq!(reread(ExportFormat::Json, &json).search, Some(defaults));
    let toml = export(&[empty, "--format", "toml"]);
    assert_eq!(reread(ExportFormat::Toml, &toml).search, Some(defaults));
    let plain = dir.path().join("plain.json");
    std::fs::write(&plain, hand_made().to_json()).unwrap();
    for format in [ExportFormat::Json, ExportFormat::Toml, ExportFormat::C] {
        let written = export(&[plain.to_str().unwrap(), "--format", format.name()]);
        assert!(
            !written.contains("\"search\"")
                && !written.contains("[search]")
                && !written.contains("CHECKERS_SEARCH"),
            "{format}"
        );
    }

    // A bad key in the table is one error naming the file and the key, exit 2.
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        text.replace("\"lmr_reduction\": 1", "\"lmr_reduction\": 9"),
    )
    .unwrap();
    let msg = export_fails(&[bad.to_str().unwrap()]);
    assert!(
        msg.contains("bad.json") && msg.contains("`search.lmr_reduction`"),
        "{msg}"
    );
}
