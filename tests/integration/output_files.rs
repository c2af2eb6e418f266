//! Output files given on the command line (`export -o`, `match --out`, `plot -o`): written
//! atomically as regular files; a symbolic link, a device or pipe, or a folder given as the
//! output is refused with exit status 2 and left as it was.

use crate::support::bin_without_databases as bin;
use crate::support::write_file;
use std::fs;
use std::os::unix::fs::{symlink, FileTypeExt};
use std::path::Path;

/// Runs the binary expecting exit status 2 with one `Error: …` line; returns that line.
fn fails(args: &[&str]) -> String {
    let assert = bin().args(args).assert().code(2);
    let stderr = String::from_utf8(assert.get_output().stderr.clone()).unwrap();
    assert!(stderr.starts_with("Error: "), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr
}

fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
}

/// A minimal finished-run folder for `plot`: one round, one survivor.
fn plot_input(dir: &Path) {
    bin()
        .args(["tune", "--quiet", "--threads", "1"])
        .arg(write_file(
            dir,
            "run.toml",
            "name = \"p\"\n[population]\nsize = 4\n[tournament]\nrounds = 1\n\
             openings = \"start\"\nmax_plies = 20\nplayoff_openings = 1\n\
             [search]\nmin_depth = 1\nmax_depth = 2\ndatabase_pieces = 0\n",
        ))
        .arg("--out")
        .arg(dir.join("run"))
        .assert()
        .success();
}

#[test]
fn a_symbolic_link_given_as_output_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let target = write_file(d, "target.txt", "precious\n");
    let link = d.join("link.json");
    symlink(&target, &link).unwrap();
    let link_s = link.to_str().unwrap();

    let msg = fails(&["export", "material", "-o", link_s]);
    assert!(
        msg.contains(link_s) && msg.contains("symbolic link"),
        "{msg}"
    );

    let openings = write_file(d, "one.txt", "9-13 22-18 10-14\n");
    let msg = fails(&[
        "match",
        "material",
        "material",
        "--openings",
        openings.to_str().unwrap(),
        "--min-depth",
        "1",
        "--max-depth",
        "2",
        "--out",
        link_s,
    ]);
    assert!(
        msg.contains("--out") && msg.contains("symbolic link"),
        "{msg}"
    );

    plot_input(d);
    let run = d.join("run");
    let svg_link = d.join("link.svg");
    symlink(&target, &svg_link).unwrap();
    let msg = fails(&[
        "plot",
        run.to_str().unwrap(),
        "-o",
        svg_link.to_str().unwrap(),
    ]);
    assert!(msg.contains("symbolic link"), "{msg}");

    for l in [&link, &svg_link] {
        assert!(fs::symlink_metadata(l).unwrap().file_type().is_symlink());
    }
    assert_eq!(fs::read_to_string(&target).unwrap(), "precious\n");
    // A dangling link is refused as well: it would be replaced, not followed.
    let dangling = d.join("dangling.json");
    symlink(d.join("nowhere.json"), &dangling).unwrap();
    fails(&["export", "material", "-o", dangling.to_str().unwrap()]);
    assert!(!d.join("nowhere.json").exists());
}

#[test]
fn a_pipe_or_device_given_as_output_is_refused_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    mkfifo(&fifo);
    let msg = fails(&["export", "material", "-o", fifo.to_str().unwrap()]);
    assert!(msg.contains("not a regular file"), "{msg}");
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    let leftovers: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "{leftovers:?}");
}

#[test]
fn plot_to_an_existing_folder_or_a_missing_folder_exits_2_like_export() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    plot_input(d);
    let run = d.join("run");
    let run_s = run.to_str().unwrap();
    let folder = d.join("pictures");
    fs::create_dir(&folder).unwrap();
    let msg = fails(&["plot", run_s, "-o", folder.to_str().unwrap()]);
    assert!(msg.contains("is a folder"), "{msg}");
    let msg = fails(&["export", "material", "-o", folder.to_str().unwrap()]);
    assert!(msg.contains("is a folder"), "{msg}");
    let nowhere = d.join("no-such-folder").join("p.svg");
    let msg = fails(&["plot", run_s, "-o", nowhere.to_str().unwrap()]);
    assert!(msg.contains("does not exist"), "{msg}");
    assert_eq!(fs::read_dir(&folder).unwrap().count(), 0);
}
