//! The island model through the binary: all islands in one process against one process per
//! island (as `srun` or a Kubernetes Indexed Job starts them), kills and restarts, a neighbour
//! that never comes, and a one-island config giving the files of a run without islands.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as StdCommand, Output, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;
use assert_cmd::Command;
use predicates::str::contains;

/// Three islands of 8, migrating 2 specimens every 2 rounds over 4 rounds; depth 1/2 so that
/// games are decisive and quick, and no endgame database (nothing to build, no cache touched).
const THREE: &str = r#"
name = "three"
seed = 5
[population]
size = 8
[tournament]
rounds = 4
openings = "random:4"
max_plies = 60
playoff_openings = 1
[search]
min_depth = 1
max_depth = 2
database_pieces = 0
[validation]
every = 2
openings = 2
[islands]
count = 3
migration_interval = 2
migrants = 2
"#;

fn bin() -> Command {
    Command::cargo_bin("checkers-tuner").unwrap()
}

fn write_config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("run.toml");
    fs::write(&path, text).unwrap();
    path
}

/// Every file of the run folder `dir` and below (relative path, bytes), the islands' folders
/// and exchanged files included, except what differs between identical runs: timings and the
/// locks.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            let name = path.strip_prefix(dir).unwrap().display().to_string();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let base = path.file_name().unwrap().to_string_lossy();
            if base == "timings.csv" || base == ".lock" {
                continue;
            }
            files.push((name, fs::read(&path).unwrap()));
        }
    }
    files.sort();
    files
}

fn assert_same_run(a: &Path, b: &Path) {
    let (left, right) = (snapshot(a), snapshot(b));
    let names = |s: &[(String, Vec<u8>)]| s.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(
        names(&left),
        names(&right),
        "{a:?} and {b:?} hold other files"
    );
    for ((name, x), (_, y)) in left.iter().zip(&right) {
        assert!(x == y, "{name} differs between {a:?} and {b:?}");
    }
}

/// The in-process run of `config` into `out`.
fn embedded(config: &Path, out: &Path, threads: usize) {
    bin()
        .args(["tune", "--quiet", "--threads", &threads.to_string()])
        .arg(config)
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

/// One island's process, its index given by `env` (the scheduler's variables), waiting at most
/// `timeout` seconds for a neighbour (a neighbour that failed fails this island too, in
/// seconds rather than the default hour).
fn island(
    config: &Path,
    out: &Path,
    threads: usize,
    env: &[(&str, String)],
    timeout: u32,
) -> StdCommand {
    let mut cmd = StdCommand::cargo_bin("checkers-tuner").unwrap();
    cmd.args(["tune", "--quiet", "--island", "auto"])
        .args(["--island-timeout", &timeout.to_string()])
        .args(["--threads", &threads.to_string()])
        .arg(config)
        .arg("--out")
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd
}

fn slurm(index: u32) -> Vec<(&'static str, String)> {
    vec![
        ("SLURM_PROCID", index.to_string()),
        ("SLURM_NTASKS", "3".to_string()),
    ]
}

fn succeeded(child: Child) -> Output {
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "an island failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn three_islands_in_one_process_or_three_give_the_same_files() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_config(tmp.path(), THREE);
    let reference = tmp.path().join("embedded-1");
    embedded(&config, &reference, 1);
    // The merged files carry the island column; the playoff ranks all islands' finalists.
    let rounds = fs::read_to_string(reference.join("rounds.csv")).unwrap();
    assert!(rounds.starts_with("island,round,population,"), "{rounds}");
    assert_eq!(rounds.lines().count(), 1 + 3 * 4);
    assert!(rounds.lines().nth(2).unwrap().starts_with("1,1,8,"));
    // games.pdn holds the islands' games in the order of the merged games.csv.
    let games = fs::read_to_string(reference.join("games.csv")).unwrap();
    let pdn =
        checkers_engine::game::read_pdn(&fs::read_to_string(reference.join("games.pdn")).unwrap())
            .unwrap();
    assert_eq!(pdn.len(), games.lines().count() - 1);
    for (row, game) in games.lines().skip(1).zip(&pdn) {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(
            game.tag("Event"),
            Some(format!("three island {}", fields[0]).as_str())
        );
        assert_eq!(game.tag("Round"), Some(fields[1..5].join(".").as_str()));
    }
    let embedded_2 = tmp.path().join("embedded-2");
    embedded(&config, &embedded_2, 2);
    assert_same_run(&reference, &embedded_2);

    for (name, threads, k8s) in [
        ("slurm-1", 1, false),
        ("slurm-2", 2, false),
        ("k8s", 1, true),
    ] {
        let out = tmp.path().join(name);
        let children: Vec<Child> = (0..3)
            .map(|i| {
                let env = if k8s {
                    vec![("JOB_COMPLETION_INDEX", i.to_string())]
                } else {
                    slurm(i)
                };
                island(&config, &out, threads, &env, 120).spawn().unwrap()
            })
            .collect();
        let outputs: Vec<Output> = children.into_iter().map(succeeded).collect();
        let said = String::from_utf8_lossy(&outputs[0].stdout).into_owned();
        assert!(said.contains("Run finished"), "{said}");
        assert_same_run(&reference, &out);
    }

    // The merged folder works as a run folder: export, plot, and resume says it is finished.
    bin()
        .args(["export", "--rank", "2"])
        .arg(&reference)
        .assert()
        .success();
    bin()
        .arg("plot")
        .arg(&reference)
        .arg("-o")
        .arg(tmp.path().join("three.svg"))
        .assert()
        .success();
    bin()
        .arg("resume")
        .arg(&reference)
        .assert()
        .success()
        .stdout(contains("already finished"));
}

/// Waits until `path` exists (or fails after a minute).
fn wait_for(path: &Path) {
    let started = Instant::now();
    while !path.exists() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{path:?} never came"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Three island processes into `out`, island 1 SIGKILLed at a real moment (once it has saved
/// round 1, it is in round 2, which ends with a migration) and started again with the same
/// command; the others run on `threads` threads meanwhile.
fn kill_and_restart_island_1(config: &Path, out: &Path, threads: usize) {
    let mut one = island(config, out, 1, &slurm(1), 120).spawn().unwrap();
    wait_for(&out.join("island-1").join("checkpoint.json"));
    one.kill().unwrap();
    one.wait().unwrap();
    let others: Vec<Child> = [0, 2]
        .iter()
        .map(|&i| {
            island(config, out, threads, &slurm(i), 120)
                .spawn()
                .unwrap()
        })
        .collect();
    succeeded(island(config, out, 1, &slurm(1), 120).spawn().unwrap());
    others.into_iter().for_each(|c| drop(succeeded(c)));
}

/// All islands of `config` in one process on `threads` threads, aborted before round 3's
/// checkpoint, then continued with `resume`.
fn abort_and_resume(config: &Path, out: &Path, threads: usize) {
    bin()
        .args(["tune", "--quiet", "--threads", &threads.to_string()])
        .arg(config)
        .arg("--out")
        .arg(out)
        .env("CHECKERS_TUNER_CRASH_BEFORE_CHECKPOINT", "3")
        .assert()
        .failure();
    bin()
        .args(["resume", "--quiet"])
        .arg(out)
        .assert()
        .success();
}

#[test]
fn a_killed_island_restarted_with_the_same_command_ends_with_the_same_files() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_config(tmp.path(), THREE);
    let reference = tmp.path().join("embedded");
    embedded(&config, &reference, 1);

    // SIGKILL island 1 at a real moment (see the helper).
    let out = tmp.path().join("killed");
    kill_and_restart_island_1(&config, &out, 1);
    assert_same_run(&reference, &out);

    // An abort after round 2's rows and migrants are written, before its checkpoint: the
    // restart replays the round and finds its migrants file the same.
    let out = tmp.path().join("aborted");
    let others: Vec<Child> = [0, 1]
        .iter()
        .map(|&i| island(&config, &out, 1, &slurm(i), 120).spawn().unwrap())
        .collect();
    let crashed = island(&config, &out, 1, &slurm(2), 120)
        .env("CHECKERS_TUNER_CRASH_BEFORE_CHECKPOINT", "2")
        .output()
        .unwrap();
    assert!(!crashed.status.success());
    assert!(out.join("migrants/epoch-1/island-2.json").is_file());
    succeeded(island(&config, &out, 1, &slurm(2), 120).spawn().unwrap());
    others.into_iter().for_each(|c| drop(succeeded(c)));
    assert_same_run(&reference, &out);

    // The same for all islands in one process, continued with `resume`.
    let out = tmp.path().join("embedded-aborted");
    abort_and_resume(&config, &out, 1);
    assert_same_run(&reference, &out);
}

#[test]
fn a_neighbour_that_never_starts_times_out_naming_it_and_leaves_a_resumable_island() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_config(tmp.path(), THREE);
    let out = tmp.path().join("alone");
    let alone = island(&config, &out, 1, &slurm(1), 1).output().unwrap();
    assert_eq!(alone.status.code(), Some(1));
    let message = String::from_utf8_lossy(&alone.stderr);
    assert!(
        message.contains("waiting for island 0's migrants of round 2"),
        "{message}"
    );
    // Round 1 is saved, nothing was merged, and the island continues once the others come.
    assert!(out.join("island-1/checkpoint.json").is_file());
    assert!(!out.join("rounds.csv").exists());
    let children: Vec<Child> = (0..3)
        .map(|i| island(&config, &out, 1, &slurm(i), 120).spawn().unwrap())
        .collect();
    children.into_iter().for_each(|c| drop(succeeded(c)));
    let reference = tmp.path().join("embedded");
    embedded(&config, &reference, 1);
    assert_same_run(&reference, &out);
}

#[test]
fn islands_that_disagree_with_the_config_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_config(tmp.path(), THREE);
    let out = tmp.path().join("run");
    let refused = |env: &[(&str, &str)], args: &[&str], wanted: &str| {
        let mut cmd = bin();
        cmd.arg("tune")
            .arg(&config)
            .arg("--out")
            .arg(&out)
            .args(args);
        cmd.env_remove("SLURM_PROCID")
            .env_remove("SLURM_NTASKS")
            .env_remove("JOB_COMPLETION_INDEX");
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.assert().code(2).stderr(contains(wanted));
    };
    let slurm4 = [("SLURM_PROCID", "0"), ("SLURM_NTASKS", "4")];
    refused(&slurm4, &["--island", "auto"], "SLURM_NTASKS is 4");
    refused(&[], &["--island", "auto"], "JOB_COMPLETION_INDEX");
    refused(
        &[("JOB_COMPLETION_INDEX", "3")],
        &["--island", "auto"],
        "islands are 0 to 2",
    );
    refused(&[], &["--island", "3"], "islands are 0 to 2");
    refused(&[], &["--island", "1", "--force"], "--force");
    // Nothing was written for the refused commands.
    assert!(!out.exists());

    // A second island process for the same island is refused by its folder's lock, and an
    // island of another config by the run folder's config.
    let other = tmp.path().join("other.toml");
    fs::write(&other, THREE.replace("seed = 5", "seed = 6")).unwrap();
    let mut first = island(&config, &out, 1, &slurm(0), 120).spawn().unwrap();
    wait_for(&out.join("island-0").join("checkpoint.json"));
    bin()
        .arg("tune")
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .args(["--island", "0"])
        .assert()
        .code(2)
        .stderr(contains("is in use by process"));
    bin()
        .arg("tune")
        .arg(&other)
        .arg("--out")
        .arg(&out)
        .args(["--island", "1"])
        .assert()
        .code(2)
        .stderr(contains("holds another run"));
    first.kill().unwrap();
    first.wait().unwrap();

    // The config: migrants must leave room in the population.
    let bad = write_config(tmp.path(), &THREE.replace("migrants = 2", "migrants = 8"));
    bin()
        .arg("tune")
        .arg(&bad)
        .arg("--out")
        .arg(tmp.path().join("bad"))
        .assert()
        .code(2)
        .stderr(contains("`islands.migrants`: 8 must be less than"));
}

#[test]
fn one_island_gives_the_files_of_a_run_without_islands() {
    let tmp = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/one-island");
    let input = fs::read_to_string(fixture.join("config-input.toml")).unwrap();
    let mut stores = Vec::new();
    for text in [
        input.clone(),
        format!("{input}[islands]\ncount = 1\nmigrants = 3\n"),
    ] {
        let out = tmp.path().join("run");
        let config = write_config(tmp.path(), &text);
        bin()
            .args(["tune", "--quiet", "--force", "--threads", "2"])
            .arg(&config)
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        for name in [
            "config.toml",
            "rounds.csv",
            "specimens.csv",
            "games.csv",
            "games.pdn",
            "learning.csv",
            "playoff.csv",
            "best.json",
            "checkpoint.json",
        ] {
            let want = fs::read(fixture.join(name)).unwrap();
            let have = fs::read(out.join(name)).unwrap();
            assert!(want == have, "{name} differs from the fixture of main");
        }
        let left = snapshot(&out);
        let names: Vec<&String> = left.iter().map(|f| &f.0).collect();
        // The nine of the fixture and the positions store.
        assert_eq!(left.len(), 10, "only a run's files: {names:?}");
        stores.push(fs::read(out.join("positions.bin")).unwrap());
    }
    assert!(stores[0] == stores[1], "positions.bin differs");
}

/// [`THREE`] with the pattern evaluator and a fit after every round: each island's fits pool
/// every island's games.
fn pooled_config(pool: bool) -> String {
    THREE.replace(
        "[islands]",
        &format!(
            "[weights]\nevaluator = \"patterns\"\n[evolution]\nfit_every = 1\n\
             [islands]\npool_games = {pool}"
        ),
    )
}

/// The fit notes of a run's output: (island, round, games).
fn fit_notes(stdout: &str) -> Vec<(u32, u32, usize)> {
    let mut notes = Vec::new();
    let mut island = 0;
    for line in stdout.lines() {
        if let Some(rest) = line.split("island ").nth(1) {
            if let Some(index) = rest.split(|c: char| !c.is_ascii_digit()).next() {
                island = index.parse().unwrap_or(island);
            }
        }
        let Some(rest) = line.split("fit after round ").nth(1) else {
            continue;
        };
        let round: u32 = rest.split(':').next().unwrap().parse().unwrap();
        let games: usize = rest
            .split(" on ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .unwrap()
            .parse()
            .unwrap();
        notes.push((island, round, games));
    }
    notes
}

#[test]
fn pooled_fits_learn_from_every_island_and_give_the_same_files_in_one_process_or_three() {
    let tmp = tempfile::tempdir().unwrap();
    let config = write_config(tmp.path(), &pooled_config(true));
    let reference = tmp.path().join("embedded-1");
    let said = bin()
        .args(["tune", "--threads", "1"])
        .arg(&config)
        .arg("--out")
        .arg(&reference)
        .assert()
        .success();
    let said = String::from_utf8_lossy(&said.get_output().stderr).into_owned();

    // Island 1's fit after round 2 learnt from every island's round 1 and its own round 2,
    // as games.csv (island, round, ...) counts them.
    let games = fs::read_to_string(reference.join("games.csv")).unwrap();
    let count = |island: &str, round: &str| {
        games
            .lines()
            .skip(1)
            .filter(|row| {
                let f: Vec<&str> = row.split(',').collect();
                f[0] == island && f[1] == round
            })
            .count()
    };
    let notes = fit_notes(&said);
    let (_, _, fitted_on) = notes
        .iter()
        .find(|&&(island, round, _)| island == 1 && round == 2)
        .unwrap_or_else(|| panic!("no fit of island 1 after round 2 in {notes:?}"));
    let pooled = count("0", "1") + count("1", "1") + count("2", "1") + count("1", "2");
    assert_eq!(*fitted_on, pooled, "{notes:?}");

    // Three processes, as srun starts them: the same files.
    let out = tmp.path().join("slurm");
    let children: Vec<Child> = (0..3)
        .map(|i| island(&config, &out, 1, &slurm(i), 120).spawn().unwrap())
        .collect();
    children.into_iter().for_each(|c| drop(succeeded(c)));
    assert_same_run(&reference, &out);
    let specimens = fs::read_to_string(reference.join("specimens.csv")).unwrap();
    assert!(specimens.contains(",fit,"), "{specimens}");

    // Fitting alone gives other fits (and other files).
    let alone_config = tmp.path().join("alone.toml");
    fs::write(&alone_config, pooled_config(false)).unwrap();
    let alone = tmp.path().join("alone");
    embedded(&alone_config, &alone, 1);
    assert!(
        fs::read(alone.join("specimens.csv")).unwrap() != specimens.as_bytes(),
        "pooling changed nothing"
    );

    // Island 1 killed once it saved round 1 (the others wait for its rounds before their
    // fits), then started again: the same files.
    let out = tmp.path().join("killed");
    kill_and_restart_island_1(&config, &out, 2);
    assert_same_run(&reference, &out);

    // All islands in one process on two threads, aborted before round 3's checkpoint and
    // resumed (the resumed fits read the earlier rounds back from the stores).
    let out = tmp.path().join("embedded-aborted");
    abort_and_resume(&config, &out, 2);
    assert_same_run(&reference, &out);
}

#[test]
fn islands_with_search_genes_give_the_same_files_in_one_process_or_three_and_migrants_keep_theirs()
{
    let tmp = tempfile::tempdir().unwrap();
    let text = THREE.replace(
        "database_pieces = 0\n",
        "database_pieces = 0\nnodes = 300\nmode = \"selective\"\n\
         [search.genes]\nlmr_moves = [1, 8]\naspiration = [0, 90]\n",
    );
    let config = write_config(tmp.path(), &text);
    let reference = tmp.path().join("embedded-1");
    embedded(&config, &reference, 1);
    let embedded_2 = tmp.path().join("embedded-2");
    embedded(&config, &embedded_2, 2);
    assert_same_run(&reference, &embedded_2);
    let out = tmp.path().join("slurm");
    let children: Vec<Child> = (0..3)
        .map(|i| island(&config, &out, 1, &slurm(i), 120).spawn().unwrap())
        .collect();
    for output in children.into_iter().map(succeeded) {
        assert!(output.status.success());
    }
    assert_same_run(&reference, &out);

    // A specimen's genes never change, on its own island or another's: every row of an id
    // (its rounds, its migrations) has the same values, and some id has rows on two islands.
    let specimens = fs::read_to_string(reference.join("specimens.csv")).unwrap();
    let mut lines = specimens.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (island_col, id_col) = (column("island"), column("id"));
    let genes = [column("search_lmr_moves"), column("search_aspiration")];
    let mut seen: std::collections::BTreeMap<String, (String, Vec<String>)> = Default::default();
    let mut migrated = false;
    for line in lines {
        let fields: Vec<&str> = line.split(',').collect();
        let values: Vec<String> = genes.iter().map(|&g| fields[g].to_string()).collect();
        let island = fields[island_col].to_string();
        let (first_island, first_values) = seen
            .entry(fields[id_col].to_string())
            .or_insert((island.clone(), values.clone()));
        assert_eq!(*first_values, values, "specimen {}", fields[id_col]);
        migrated |= *first_island != island;
    }
    assert!(migrated, "some specimen has rows on two islands");
}
