//! `plot_run` on a small synthetic run folder: the picture it writes and the errors it gives;
//! and `plot` of a tournament's rating list and of a chain's data night.

use std::fs;
use std::path::Path;

use checkers_engine::error::Error;
use checkers_engine::eval::{extra_names, FEATURE_NAMES};
use checkers_harness::plot::{plot_run, PlotSource};

const ROUNDS_HEADER: &str = "round,population,levels,games,black_wins,white_wins,\
draw_then_black_win,draw_then_white_win,double_draws,byes,survivors,newcomers,mean_plies,diversity";

/// Rounds 1..=3 of a 10-specimen run, 9 pairs a round, `games = bw + ww + 2 × (dtb + dtw + dd)`.
/// A trailing extra column must be ignored.
fn rounds_csv() -> String {
    format!(
        "{ROUNDS_HEADER}\n\
         1,10,3,13,3,2,2,1,1,0,2,8,61.5,40.1\n\
         2,10,3,15,2,1,2,2,2,0,2,8,70.25,35.0\n\
         3,10,4,15,1,2,1,1,4,1,2,8,82,30.2\n"
    )
}

fn specimens_header() -> String {
    let mut cols: Vec<String> = [
        "round",
        "id",
        "parent_a",
        "parent_b",
        "born_round",
        "rounds_survived",
        "wins",
        "draws",
        "losses",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    cols.extend(FEATURE_NAMES.iter().map(|f| format!("open_{f}")));
    cols.extend(FEATURE_NAMES.iter().map(|f| format!("end_{f}")));
    cols.join(",")
}

fn specimen_row(round: u32, id: u32, survived: u32, wins: u32, base: i32) -> String {
    let mut fields = vec![
        round.to_string(),
        id.to_string(),
        String::new(),
        String::new(),
        "0".to_string(),
        survived.to_string(),
        wins.to_string(),
        "1".to_string(),
        "0".to_string(),
    ];
    fields.extend((0..20).map(|i| (base + 5 * i - 40).to_string()));
    fields.join(",")
}

fn specimens_csv() -> String {
    let rows = [
        specimen_row(1, 3, 1, 2, 0),
        specimen_row(1, 7, 1, 3, 10),
        specimen_row(2, 3, 2, 1, 0),
        specimen_row(2, 12, 1, 4, -20),
        specimen_row(3, 3, 3, 2, 5),
        specimen_row(3, 21, 1, 3, 30),
    ];
    format!("{}\n{}\n", specimens_header(), rows.join("\n"))
}

/// Writes a complete three-round run folder into `dir`.
fn write_run(dir: &Path) {
    fs::write(
        dir.join("config.toml"),
        "name = \"tiny-synthetic\"\nseed = 7\n",
    )
    .unwrap();
    fs::write(dir.join("rounds.csv"), rounds_csv()).unwrap();
    fs::write(dir.join("specimens.csv"), specimens_csv()).unwrap();
}

/// The text of every `<text>` element of an SVG, trimmed, with SVG's escapes read back.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..];
            let text = body[..body.find("</text>")?].trim();
            Some(
                text.replace("&apos;", "'")
                    .replace("&quot;", "\"")
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&amp;", "&"),
            )
        })
        .collect()
}

fn input_message<T: std::fmt::Debug>(result: Result<T, Error>) -> String {
    match result {
        Err(Error::Input(msg)) => msg,
        other => panic!("expected an input error, got {other:?}"),
    }
}

#[test]
fn svg_has_title_and_one_legend_entry_per_outcome() {
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path());
    let out = dir.path().join("rounds.svg");
    plot_run(dir.path(), &out).unwrap();
    let svg = fs::read_to_string(&out).unwrap();
    assert!(
        svg.starts_with("<svg"),
        "not an SVG: {}",
        &svg[..40.min(svg.len())]
    );
    let texts = svg_texts(&svg);
    assert!(
        texts[0].contains("tiny-synthetic"),
        "run name missing from the title: {:?}",
        texts[0]
    );
    for label in [
        "black wins",
        "white wins",
        "draw, then black wins",
        "draw, then white wins",
        "double draw",
    ] {
        assert_eq!(
            texts.iter().filter(|t| *t == label).count(),
            1,
            "legend label `{label}` should appear exactly once"
        );
    }
    for feature in FEATURE_NAMES {
        assert!(
            texts.iter().any(|t| t == feature),
            "no legend entry for {feature}"
        );
    }
    assert!(texts.iter().any(|t| t == "draw rate (left)"));
    assert!(texts.iter().any(|t| t == "mean plies (right)"));
    // No temporary file is left beside the output.
    let leftovers: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

#[test]
fn png_when_the_output_ends_in_png() {
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path());
    let out = dir.path().join("rounds.PNG");
    plot_run(dir.path(), &out).unwrap();
    let bytes = fs::read(&out).unwrap();
    assert!(
        bytes.len() > 10_000,
        "PNG suspiciously small: {} bytes",
        bytes.len()
    );
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
}

#[test]
fn folder_name_is_the_title_without_a_config_name() {
    let parent = tempfile::tempdir().unwrap();
    let dir = parent.path().join("folder-named-run");
    fs::create_dir(&dir).unwrap();
    write_run(&dir);
    fs::write(dir.join("config.toml"), "seed = 7\n").unwrap();
    let out = parent.path().join("p.svg");
    plot_run(&dir, &out).unwrap();
    assert!(fs::read_to_string(&out)
        .unwrap()
        .contains("folder-named-run"));
}

#[test]
fn missing_column_names_the_file_and_the_column() {
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path());
    let without = rounds_csv().replace("double_draws", "double_drawz");
    fs::write(dir.path().join("rounds.csv"), without).unwrap();
    let out = dir.path().join("p.svg");
    let msg = input_message(plot_run(dir.path(), &out));
    assert!(msg.contains("rounds.csv"), "{msg}");
    assert!(msg.contains("`double_draws`"), "{msg}");
    assert!(!out.exists(), "no picture should be written on bad input");

    write_run(dir.path());
    let without = specimens_csv().replace("end_mobility", "end_mobilty");
    fs::write(dir.path().join("specimens.csv"), without).unwrap();
    let msg = input_message(plot_run(dir.path(), &out));
    assert!(
        msg.contains("specimens.csv") && msg.contains("`end_mobility`"),
        "{msg}"
    );
}

#[test]
fn unparsable_number_names_the_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path());
    let bad = rounds_csv().replace("\n2,10,3,15,2,1,", "\n2,10,3,15,2,x1,");
    fs::write(dir.path().join("rounds.csv"), bad).unwrap();
    let msg = input_message(plot_run(dir.path(), &dir.path().join("p.svg")));
    assert!(msg.contains("rounds.csv line 3"), "{msg}");
    assert!(
        msg.contains("`white_wins`") && msg.contains("`x1`"),
        "{msg}"
    );

    write_run(dir.path());
    let bad = specimens_csv().replace("\n3,21,", "\n3,twenty-one,");
    fs::write(dir.path().join("specimens.csv"), bad).unwrap();
    let msg = input_message(plot_run(dir.path(), &dir.path().join("p.svg")));
    assert!(
        msg.contains("specimens.csv line 7") && msg.contains("`id`"),
        "{msg}"
    );
}

#[test]
fn missing_folder_or_file_is_an_input_error() {
    let dir = tempfile::tempdir().unwrap();
    let msg = input_message(plot_run(
        &dir.path().join("nope"),
        &dir.path().join("p.svg"),
    ));
    assert!(msg.contains("nope"), "{msg}");

    write_run(dir.path());
    fs::remove_file(dir.path().join("specimens.csv")).unwrap();
    let msg = input_message(plot_run(dir.path(), &dir.path().join("p.svg")));
    assert!(msg.contains("specimens.csv"), "{msg}");
}

#[test]
fn output_in_a_missing_folder_is_bad_input_like_export() {
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path());
    for name in ["p.svg", "p.png"] {
        let out = dir.path().join("no-such-folder").join(name);
        let msg = input_message(plot_run(dir.path(), &out));
        assert!(msg.contains("no-such-folder"), "{msg}");
    }
}

#[test]
fn a_learning_curve_gets_its_own_panel_and_the_weight_panels_their_own_letters() {
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path());
    let out = dir.path().join("without.svg");
    plot_run(dir.path(), &out).unwrap();
    let texts = svg_texts(&fs::read_to_string(&out).unwrap());
    assert!(!texts.iter().any(|t| t.contains("learning curve")));
    assert!(texts.iter().any(|t| t.starts_with("(c) ")));
    assert!(texts.iter().any(|t| t.starts_with("(d) ")));

    fs::write(
        dir.path().join("learning.csv"),
        "round,id,opponent,games,wins,draws,losses,score,elo,elo_low,elo_high\n\
         2,3,material,64,20,40,4,0.6250,88.7,40.2,140.0\n\
         3,21,material,64,64,0,0,1.0000,inf,inf,inf\n",
    )
    .unwrap();
    let out = dir.path().join("with.svg");
    plot_run(dir.path(), &out).unwrap();
    let svg = fs::read_to_string(&out).unwrap();
    let texts = svg_texts(&svg);
    assert!(texts.iter().any(|t| t.starts_with("(e) learning curve")));
    assert!(texts.iter().any(|t| t == "Elo (bar: 95% interval)"));

    fs::write(
        dir.path().join("learning.csv"),
        "round,id,opponent,games,wins,draws,losses,score,elo,elo_low,elo_high\n\
         2,3,material,64,20,40,4,0.6250,high,40.2,140.0\n",
    )
    .unwrap();
    let message = input_message(plot_run(dir.path(), &dir.path().join("bad.svg")));
    assert!(
        message.contains("learning.csv") && message.contains("elo"),
        "{message}"
    );
}

#[test]
fn only_svg_and_png_names_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path());
    for name in ["p.pdf", "p.jpg", "p"] {
        let out = dir.path().join(name);
        let msg = input_message(plot_run(dir.path(), &out));
        assert!(msg.contains(name) && msg.contains(".svg or .png"), "{msg}");
        assert!(!out.exists(), "{name}");
    }
    plot_run(dir.path(), &dir.path().join("p.Svg")).unwrap();
    assert!(fs::read_to_string(dir.path().join("p.Svg"))
        .unwrap()
        .starts_with("<svg"));
}

#[test]
fn an_extended_run_gets_heat_maps_of_its_tables() {
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path());
    // The synthetic run's specimens with the extended evaluator's columns: round 3's best
    // survivor (specimen 3, most rounds survived) has men's entries 1, 2, … in the opening.
    let names = extra_names();
    let text = specimens_csv();
    let mut lines = text.lines();
    let mut header = lines.next().unwrap().to_string();
    for set in ["open", "end"] {
        for name in &names {
            header += &format!(",{set}_{name}");
        }
    }
    let mut out = header + "\n";
    for line in lines {
        let values: Vec<String> = (0..2 * names.len())
            .map(|i| (i as i32 - 2).to_string())
            .collect();
        out += &format!("{line},{}\n", values.join(","));
    }
    fs::write(dir.path().join("specimens.csv"), out).unwrap();
    let svg_path = dir.path().join("tables.svg");
    plot_run(dir.path(), &svg_path).unwrap();
    let texts = svg_texts(&fs::read_to_string(&svg_path).unwrap());
    assert!(
        texts
            .iter()
            // Panels are lettered in turn: with no learning curve, the tables follow (d).
            .any(|t| t.starts_with("(e) piece-square tables of round 3")
                && t.contains("best survivor (specimen 3)")),
        "{texts:?}"
    );
    for title in [
        "opening men",
        "endgame men",
        "opening kings",
        "endgame kings",
    ] {
        assert!(texts.iter().any(|t| t == title), "{title}");
    }
    // The men's opening entries (after the two terms) are 0, 1, …, 27: each on its square.
    for value in ["0", "13", "27"] {
        assert!(texts.iter().any(|t| t == value), "{value}");
    }
}

/// The binary's `plot DIR -o OUT`.
fn plot_cmd(dir: &Path, out: &Path) -> assert_cmd::assert::Assert {
    assert_cmd::Command::cargo_bin("checkers-tuner")
        .unwrap()
        .arg("plot")
        .arg(dir)
        .arg("-o")
        .arg(out)
        // Not a speed check: a hang must fail the test rather than stall the suite.
        .timeout(std::time::Duration::from_secs(600))
        .assert()
}

const LEARNING_HEADER: &str =
    "round,id,opponent,games,wins,draws,losses,score,elo,elo_low,elo_high";

#[test]
fn huge_finite_values_are_drawn_at_the_edge_with_a_note() {
    let specimen_with = |value: &str| {
        let row = specimen_row(2, 12, 1, 4, -20);
        let mut fields: Vec<&str> = row.split(',').collect();
        fields[12] = value;
        specimens_csv().replace(&row, &fields.join(","))
    };
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "learning.csv",
            format!("{LEARNING_HEADER}\n2,3,material,64,20,40,4,0.6,88.7,-9e307,9e307\n"),
            "of Elo beyond ±10000",
        ),
        (
            "learning.csv",
            format!(
                "{LEARNING_HEADER}\n2,3,material,64,20,40,4,0.6,1.7976931348623157e308,\
                 -1.7976931348623157e308,1e-300\n3,21,material,64,0,0,64,0,NaN,NaN,-inf\n"
            ),
            "of Elo beyond ±10000",
        ),
        (
            "rounds.csv",
            rounds_csv().replace(",70.25,", ",1e308,"),
            "of `mean_plies` outside 0..=10000",
        ),
        (
            "rounds.csv",
            rounds_csv().replace(",82,", ",-5,"),
            "of `mean_plies` outside 0..=10000",
        ),
        (
            "specimens.csv",
            specimen_with("1e300"),
            "of weights beyond ±10000",
        ),
        (
            "specimens.csv",
            specimen_with("-9e307"),
            "of weights beyond ±10000",
        ),
    ];
    for (k, (file, text, note)) in cases.into_iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        write_run(dir.path());
        fs::write(dir.path().join(file), text).unwrap();
        let out = dir.path().join("p.svg");
        plot_cmd(dir.path(), &out).success();
        let svg = fs::read_to_string(&out).unwrap();
        assert!(svg.len() < 1_000_000, "case {k}: {} bytes", svg.len());
        let texts = svg_texts(&svg);
        let noted = texts
            .iter()
            .find(|t| t.contains(note))
            .unwrap_or_else(|| panic!("case {k}: no note {note:?} in {texts:?}"));
        assert!(
            noted.contains(&format!("{file} line ")),
            "case {k}: {noted}"
        );
    }
}

#[test]
fn values_no_run_writes_are_refused_naming_file_line_and_column() {
    let island_rounds = rounds_csv()
        .replace("round,population", "island,round,population")
        .replace("\n1,10,", "\n0,1,10,")
        .replace("\n2,10,", "\n0,2,10,")
        .replace("\n3,10,", "\n0,3,10,");
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "rounds.csv",
            rounds_csv().replace("\n2,10,", "\n9223372036854775807,10,"),
            "rounds.csv line 3, column `round`: `9223372036854775807` is not a round from 0 to \
             1000000",
        ),
        (
            "rounds.csv",
            rounds_csv().replace("\n2,10,", "\n-5,10,"),
            "column `round`: `-5` is not a round from 0 to 1000000",
        ),
        (
            "rounds.csv",
            rounds_csv().replace("\n3,10,4,15,1,", "\n3,10,4,15,18446744073709551615,"),
            "rounds.csv line 4, column `black_wins`: `18446744073709551615` is not a count",
        ),
        (
            "rounds.csv",
            island_rounds.replace("\n0,2,10,3,15,", "\n0,2,10,3,99999999999999,"),
            "column `games`: `99999999999999` is not a count from 0 to 1000000000",
        ),
        (
            "rounds.csv",
            island_rounds.replace("\n0,2,", "\n18446744073709551615,2,"),
            "rounds.csv line 3, column `island`: `18446744073709551615` is not an island from \
             0 to 1023",
        ),
        (
            "specimens.csv",
            specimens_csv().replace("\n3,21,", "\n4294967296,21,"),
            "specimens.csv line 7, column `round`",
        ),
        (
            "learning.csv",
            format!("island,{LEARNING_HEADER}\n1024,2,3,material,64,20,40,4,0.6,88.7,40.2,140\n"),
            "learning.csv line 2, column `island`: `1024` is not an island from 0 to 1023",
        ),
        (
            "learning.csv",
            format!("{LEARNING_HEADER}\n1000001,3,material,64,20,40,4,0.6,88.7,40.2,140\n"),
            "learning.csv line 2, column `round`",
        ),
        (
            "rounds.csv",
            rounds_csv().replace(",70.25,", &format!(",{}x,", "7".repeat(1 << 20))),
            "column `mean_plies`: `7777777777",
        ),
    ];
    for (k, (file, text, wanted)) in cases.into_iter().enumerate() {
        let dir = tempfile::tempdir().unwrap();
        write_run(dir.path());
        fs::write(dir.path().join(file), text).unwrap();
        let out = dir.path().join("p.svg");
        let assert = plot_cmd(dir.path(), &out).code(2);
        let stderr = String::from_utf8_lossy(&assert.get_output().stderr).into_owned();
        assert!(stderr.contains(wanted), "case {k}: {stderr:.500}");
        assert!(
            stderr.len() < 1000,
            "case {k}: {} bytes of message",
            stderr.len()
        );
        assert!(!out.exists(), "case {k}: a picture of refused input");
    }
}

#[test]
fn a_run_of_200000_rounds_gives_a_picture_of_a_few_megabytes() {
    const ROUNDS: u32 = 200_000;
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path());
    let mut rounds = format!("{ROUNDS_HEADER}\n");
    let mut specimens = format!("{}\n", specimens_header());
    let mut learning = format!("{LEARNING_HEADER}\n");
    for r in 1..=ROUNDS {
        // A spike now and then, which grouping must keep.
        let plies = if r % 50_000 == 0 { 900 } else { 60 + r % 40 };
        rounds += &format!("{r},10,3,13,{},2,2,1,1,0,2,8,{plies},40.1\n", 3 + r % 3);
        specimens += &specimen_row(r, r, 1 + r % 5, 2, (r % 100) as i32);
        specimens.push('\n');
        if r % 2 == 0 {
            let elo = f64::from(r % 300) - 150.0;
            learning += &format!(
                "{r},{r},material,64,20,40,4,0.6,{elo},{},{}\n",
                elo - 40.0,
                elo + 40.0
            );
        }
    }
    fs::write(dir.path().join("rounds.csv"), rounds).unwrap();
    fs::write(dir.path().join("specimens.csv"), specimens).unwrap();
    fs::write(dir.path().join("learning.csv"), learning).unwrap();
    let out = dir.path().join("long.svg");
    plot_cmd(dir.path(), &out).success();
    let size = fs::metadata(&out).unwrap().len();
    assert!(size < 5_000_000, "{size} bytes");
    let texts = svg_texts(&fs::read_to_string(&out).unwrap());
    assert!(
        texts
            .iter()
            .any(|t| t.contains("200000 rounds, drawn in groups of 134")),
        "{texts:?}"
    );
    let png = dir.path().join("long.png");
    plot_cmd(dir.path(), &png).success();
    assert!(fs::metadata(&png).unwrap().len() > 10_000);
}

#[test]
fn a_thousand_islands_share_the_learning_panel_and_its_legend() {
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path());
    let mut learning = format!("island,{LEARNING_HEADER}\n");
    for island in 0..1024 {
        for round in 1..=3 {
            learning += &format!("{island},{round},7,material,64,20,40,4,0.6,{island},-30,40\n");
        }
    }
    fs::write(dir.path().join("learning.csv"), learning).unwrap();
    let out = dir.path().join("islands.svg");
    plot_cmd(dir.path(), &out).success();
    let svg = fs::read_to_string(&out).unwrap();
    assert!(svg.len() < 5_000_000, "{} bytes", svg.len());
    let texts = svg_texts(&svg);
    assert!(texts.iter().any(|t| t == "island 11"));
    assert!(!texts.iter().any(|t| t == "island 12"));
    assert!(texts.iter().any(|t| t == "1012 more islands"), "{texts:?}");
}

/// A gated run's champions as `champions/round-N.json` holds them: every weight `base`.
fn write_champion(dir: &Path, round: u32, id: u64, base: i32) {
    let mut file = checkers_engine::weights_file::WeightsFile::material();
    file.weights.opening.0 = [base; 10];
    file.weights.endgame.0 = [base + 1; 10];
    file.source = Some(checkers_engine::weights_file::WeightsSource::Specimen {
        run: "tiny-synthetic".to_string(),
        id,
        round,
    });
    fs::create_dir_all(dir.join("champions")).unwrap();
    fs::write(
        dir.join("champions").join(format!("round-{round}.json")),
        file.to_json(),
    )
    .unwrap();
}

#[test]
fn a_gated_run_gets_the_champions_climb_on_its_own_panel_and_its_weights() {
    let dir = tempfile::tempdir().unwrap();
    write_run(dir.path());
    fs::write(
        dir.path().join("champions.csv"),
        "round,candidate,kind,champion,games,wins,draws,losses,elo,elo_low,elo_high,llr,\
         accepted,cumulative_elo\n\
         1,3,fit,,,,,,,,,,true,0.0\n\
         2,12,fit,3,300,100,120,80,23.2,-5.0,51.0,1.100,false,0.0\n\
         3,21,fit,3,200,90,60,50,70.4,30.0,112.0,2.990,true,70.4\n",
    )
    .unwrap();
    write_champion(dir.path(), 1, 3, 100);
    write_champion(dir.path(), 3, 21, 120);
    // A saturated learning curve: from round 2 the survivor wins almost everything.
    fs::write(
        dir.path().join("learning.csv"),
        "round,id,opponent,games,wins,draws,losses,score,elo,elo_low,elo_high\n\
         1,3,material,64,30,30,4,0.7031,150.0,100.0,210.0\n\
         2,3,material,64,60,4,0,0.9688,596.5,478.3,1033.3\n\
         2,12,material,64,58,6,0,0.9531,524.0,420.0,800.0\n\
         3,21,material,64,61,3,0,0.9766,647.9,516.4,inf\n\
         3,22,material,64,40,20,4,0.7813,221.0,150.0,300.0\n",
    )
    .unwrap();
    let out = dir.path().join("gated.svg");
    plot_run(dir.path(), &out).unwrap();
    let texts = svg_texts(&fs::read_to_string(&out).unwrap());
    let has = |s: &str| texts.iter().any(|t| t.contains(s));
    // The climb has its own panel, (e), whose caption says what the night came to; the
    // learning curve follows it as (f) and says it has saturated.
    assert!(
        has(
            "(e) the gated champion's climb: +70.4 Elo by its gates, 2 champions, the last step \
             after round 3"
        ),
        "{texts:?}"
    );
    assert!(has("(f) learning curve"), "{texts:?}");
    assert!(has("saturated from round 2"), "{texts:?}");
    assert!(has("gate accepted") && has("gate refused"), "{texts:?}");
    // The weights panels draw the champion, not the best survivor.
    assert!(has("(c) champion's opening weights"), "{texts:?}");
    assert!(!has("best survivor's"), "{texts:?}");

    // Refused gates after the last step: the caption says when the climb stopped.
    fs::write(
        dir.path().join("champions.csv"),
        "round,candidate,kind,champion,games,wins,draws,losses,elo,elo_low,elo_high,llr,\
         accepted,cumulative_elo\n\
         1,3,fit,,,,,,,,,,true,0.0\n\
         2,12,fit,3,300,100,120,80,23.2,-5.0,51.0,1.100,false,0.0\n\
         3,21,fit,3,200,80,60,60,-10.0,-50.0,30.0,-2.990,false,0.0\n",
    )
    .unwrap();
    plot_run(dir.path(), &out).unwrap();
    let texts = svg_texts(&fs::read_to_string(&out).unwrap());
    assert!(
        texts.iter().any(|t| t.contains(
            "+0.0 Elo by its gates, 1 champion, no step since round 1 (2 gates refused since)"
        )),
        "{texts:?}"
    );
}

/// The binary's `plot ARGS…` with the current folder `dir`, and what it wrote to stderr.
fn plot_in(dir: &Path, args: &[&str]) -> (assert_cmd::assert::Assert, String) {
    let assert = assert_cmd::Command::cargo_bin("checkers-tuner")
        .unwrap()
        .current_dir(dir)
        .arg("plot")
        .args(args)
        .timeout(std::time::Duration::from_secs(600))
        .assert();
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    (assert, stderr)
}

/// The names in `dir`, sorted (to see that a refused plot left nothing behind).
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_run_folder_plots_as_before_even_beside_a_data_csv() {
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    fs::create_dir(&run).unwrap();
    write_run(&run);
    let before = dir.path().join("before.svg");
    plot_run(&run, &before).unwrap();
    assert_eq!(PlotSource::of(&run), PlotSource::Run);
    let (assert, _) = plot_in(dir.path(), &["run"]);
    assert.success().stdout("run/rounds.svg\n");
    let picture = fs::read(&before).unwrap();
    assert_eq!(fs::read(run.join("rounds.svg")).unwrap(), picture);
    // A run folder never holds a data night's `data.csv`; one that does is a run all the same.
    fs::write(run.join("data.csv"), "doubling\n1\n").unwrap();
    assert_eq!(PlotSource::of(&run), PlotSource::Run);
    plot_in(dir.path(), &["run", "-o", "again.svg"]).0.success();
    assert_eq!(fs::read(dir.path().join("again.svg")).unwrap(), picture);
}

/// A rating list as `match … --tournament round-robin --out t.csv` writes `t.ratings.csv`,
/// with a player that lost every game.
const RATINGS: &str = "rank,player,name,elo,margin,los_next,games,points\n\
                       1,2,hour.json,+35.2,20.1,0.9731,8,5.5\n\
                       2,1,material,0.0,0.0,0.9999,8,4.5\n\
                       3,3,random mover,-inf,inf,,8,0\n";

#[test]
fn plot_draws_a_rating_list_beside_it_and_refuses_a_bad_one_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    fs::write(d.join("t.ratings.csv"), RATINGS).unwrap();
    let (assert, stderr) = plot_in(d, &["t.ratings.csv"]);
    assert.success().stdout("t.ratings.svg\n");
    assert!(stderr.contains("note: 1 player unbounded"), "{stderr}");
    let texts = svg_texts(&fs::read_to_string(d.join("t.ratings.svg")).unwrap());
    for name in ["hour.json", "material", "random mover"] {
        let label = format!("{name} (8 games)");
        assert!(texts.contains(&label), "no `{label}` in {texts:?}");
    }
    plot_in(d, &["t.ratings.csv", "-o", "t.png"]).0.success();
    assert_eq!(&fs::read(d.join("t.png")).unwrap()[..4], b"\x89PNG");

    let bad = tempfile::tempdir().unwrap();
    let b = bad.path();
    for (text, says) in [
        (
            RATINGS.replace(",games,", ",gams,"),
            "missing column `games`",
        ),
        (
            RATINGS.replace(",8,0\n", ",eight,0\n"),
            "bad.ratings.csv line 4, column `games`: `eight`",
        ),
        (
            RATINGS[..RATINGS.find('\n').unwrap() + 1].to_string(),
            "bad.ratings.csv line 2: no players",
        ),
    ] {
        fs::write(b.join("bad.ratings.csv"), &text).unwrap();
        let (assert, stderr) = plot_in(b, &["bad.ratings.csv"]);
        assert.code(2).stdout("");
        assert!(
            stderr.starts_with("Error: ") && stderr.contains(says),
            "{stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert_eq!(names_in(b), ["bad.ratings.csv"], "{says}");
    }
    // The rating list is not its own picture, whatever the name.
    fs::write(b.join("list.svg"), RATINGS).unwrap();
    let (assert, stderr) = plot_in(b, &["list.svg", "-o", "./list.svg"]);
    assert.code(2);
    assert!(stderr.contains("the rating list"), "{stderr}");
    assert_eq!(fs::read_to_string(b.join("list.svg")).unwrap(), RATINGS);
}

#[test]
fn plot_draws_a_chains_data_night_and_refuses_a_bad_data_csv_with_status_2() {
    let dir = tempfile::tempdir().unwrap();
    let top = dir.path().join("night");
    fs::create_dir(&top).unwrap();
    fs::write(top.join("config.toml"), "name = \"a-night\"\n").unwrap();
    let header =
        "doubling,games,data_games,positions,gate_games,wins,draws,losses,elo,elo_95,accepted";
    let data = format!(
        "{header}\n\
         1,10000,10000,812345,128,40,70,18,+60.1,35.2,true\n\
         2,10000,20000,1634990,256,50,140,66,-22.0,24.9,false\n"
    );
    fs::write(top.join("data.csv"), &data).unwrap();
    assert_eq!(PlotSource::of(&top), PlotSource::DataNight);
    let (assert, _) = plot_in(dir.path(), &["night"]);
    assert.success().stdout("night/data.svg\n");
    let texts = svg_texts(&fs::read_to_string(top.join("data.svg")).unwrap());
    assert!(
        texts[0].contains("\"a-night\": data night, 2 doublings"),
        "{:?}",
        texts[0]
    );
    for label in [
        "doubling 1: 10000 games,",
        "doubling 2: 20000 games,",
        "1",
        "2",
    ] {
        assert!(
            texts.iter().any(|t| t == label),
            "no `{label}` in {texts:?}"
        );
    }

    fs::remove_file(top.join("data.svg")).unwrap();
    fs::write(top.join("data.csv"), data.replace(",-22.0,", ",minus,")).unwrap();
    let (assert, stderr) = plot_in(dir.path(), &["night"]);
    assert.code(2).stdout("");
    assert!(
        stderr.contains("data.csv line 3, column `elo`: `minus`"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert_eq!(names_in(&top), ["config.toml", "data.csv"]);
}
