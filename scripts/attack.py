#!/usr/bin/env python3
"""Tries the tool as a hostile user would (issue 24, "Nothing lost, nothing stuck"; class 10 and
classes 30.x: issue 30, "Real collections, real decks, the same answer every time"; classes
35.x: issue 35, "Nothing trusted unchecked").

Usage: scripts/attack.py [--quick] [BINARY]   (default: target/release/checkers-tuner)

`--quick` (what .ci/run uses) runs every attack with smaller floods (a 512 MB sparse PDN file
and 50 MB of NULs instead of 2 GB and 200 MB) and two trials of the island race instead of
five: about half the time (some 30 s on two cores instead of a minute), every class still
tried.

The interrupted writers of class 8 are caught in the middle of a write only by a test build
(`cargo test` builds target/debug/checkers-tuner with the `crash-hooks` feature, which can pause
before the rename); with a release build those attacks only check that nothing is left behind.

Runs attacks of every class in a scratch folder and prints, per class, how many were tried and
how many held: the expected exit status, one `Error:` line at most, no panic (status 101 or a
"panicked" message), no abort (134), no hang (a 60 s timeout), and the inputs unchanged. Exits
1 if any attack did not hold. The endgame database is not needed (every run uses none) except
by the 30.x classes, which build the 2- and 3-piece ones (well under a second) in caches of
their own.
"""

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

QUICK = "--quick" in sys.argv[1:]
ARGS = [a for a in sys.argv[1:] if a != "--quick"]
BIN = os.path.abspath(ARGS[0] if ARGS else "target/release/checkers-tuner")


def is_json(data):
    """Whether `data` is a whole JSON document."""
    try:
        json.loads(data)
        return True
    except ValueError:
        return False


START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
TINY = """name = "tiny"
seed = 5
[population]
size = 8
[tournament]
rounds = 2
openings = "3-move"
max_plies = 60
playoff_openings = 2
[search]
min_depth = 2
max_depth = 4
database_pieces = 0
"""
results = {}  # class -> [(attack, held, detail)]


def limit_memory():
    """At most 4 GiB of address space per command: an older build that reads /dev/zero whole
    fails fast instead of taking the machine's memory."""
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


def run(args, stdin=b"", stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=None):
    try:
        p = subprocess.run([BIN] + args, input=stdin, stdout=stdout, stderr=stderr,
                           timeout=60, env=env, preexec_fn=limit_memory)
        return p.returncode, (p.stderr or b"").decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "hang", ""


def record(cls, attack, code, err, expect, kept=True):
    codes = expect if isinstance(expect, tuple) else (expect,)
    panicked = "panicked" in err or code in (101, 134, -6)
    errors = [l for l in err.splitlines() if l.startswith("Error:")]
    held = code in codes and not panicked and len(errors) <= 1 and kept
    first = errors[0][:110] if errors else ""
    results.setdefault(cls, []).append((attack, held, f"exit {code} {first}"))


def attack(cls, args, expect=2, stdin=b"", inputs=()):
    before = {f: open(f, "rb").read() for f in inputs if os.path.isfile(f)}
    code, err = run(args, stdin)
    kept = all(open(f, "rb").read() == b for f, b in before.items())
    record(cls, " ".join(args), code, err, expect, kept)


def main():
    scratch = tempfile.mkdtemp(prefix="attack-")
    os.chdir(scratch)
    os.environ["CHECKERS_TUNER_CACHE"] = os.path.join(scratch, "cache")
    open("tiny.toml", "w").write(TINY)
    assert run(["tune", "tiny.toml", "--out", "run", "-q"])[0] == 0
    assert run(["export", "run", "-o", "w.json"])[0] == 0
    open("deck.txt", "w").write("9-13 22-18\n11-15 23-19\n")
    os.mkfifo("fifo")
    os.mkdir("folder")

    # 1 and 9: every config value bounded, ranges exactly two numbers, names short.
    bad_keys = [
        ("tournament", "playoff_openings", "4294967295"), ("tournament", "rounds", "4294967295"),
        ("tournament", "max_plies", "4294967295"), ("tournament", "no_progress_plies", "99999999"),
        ("tournament", "stall_levels", "4294967295"), ("validation", "every", "4294967295"),
        ("islands", "migration_interval", "4294967295"), ("population", "size", "1000000"),
        ("evolution", "mutation_sigma", "1e300"), ("search", "max_depth", "1000"),
        ("weights.opening", "kings", '[100, 300, "x", {a = 1}]'),
        ("weights.opening", "kings", "[100]"), ("weights.opening", "kings", "[1.5, 3]"),
        ("weights.endgame", "jumps", "[-99999999, 5]"), ("population", "size", "5000"),
    ]
    for section, key, value in bad_keys:
        text = f'name = "bad"\n[{section}]\n{key} = {value}\n'
        open("bad.toml", "w").write(text)
        attack("1, 9: config bounds", ["tune", "bad.toml", "-q"], 2)
    for name in ["n" * 300, "a/b", "..", "x" * 101, "\\u0007"]:
        open("bad.toml", "w").write(f'name = "{name}"\n')
        attack("1, 9: config bounds", ["tune", "bad.toml", "-q"], 2)

    # 2: no command writes over one of its inputs.
    for args in (["match", "w.json", "material", "--pdn", "w.json"],
                 ["match", "w.json", "material", "--out", "./w.json"],
                 ["match", "material", "material", "--openings", "deck.txt", "--pdn", "deck.txt"],
                 ["export", "w.json", "--format", "json", "-o", "folder/../w.json"],
                 ["play", "--weights", "w.json", "--pdn", "w.json"],
                 ["fit", "run", "-o", "run/games.csv"],
                 ["fit", "run", "-o", "w.json", "--weights", "w.json"]):
        attack("2: inputs kept", args, 2, inputs=("w.json", "deck.txt", "run/games.csv"))

    # 3: bounded reads.
    for src in ["/dev/zero", "/dev/urandom", "fifo", "folder"]:
        for args in (["export", src], ["match", src, "material"],
                     ["analyse", "--weights", src, "--fen", START], ["bench", "--weights", src],
                     ["tune", src], ["fit", src, "-o", "f.json"],
                     ["match", "material", "material", "--openings", src],
                     ["play", "--weights", src]):
            attack("3: bounded reads", args, 2)
    open("big.json", "w").write(" " * (5 << 20) + open("w.json").read())
    open("big.toml", "w").write("#\n" * (600_000) + TINY)
    for args in (["export", "big.json"], ["match", "big.json", "material"], ["tune", "big.toml"]):
        attack("3: bounded reads", args, 2)

    # 4: output errors are errors.
    for args, ok in ((["moves", "--fen", START], 1), (["config", "--defaults"], 1),
                     (["perft", "--depth", "3"], 1), (["completions", "bash"], 1),
                     (["analyse", "--fen", START, "--min-depth", "2", "--max-depth", "4"], 1),
                     (["export", "w.json"], 1), (["plot", "run", "-o", "/dev/full"], 2),
                     (["match", "material", "material", "--openings", "start",
                       "--database-pieces", "0"], 1)):
        with open("/dev/full", "wb") as full:
            code, err = run(args, stdout=full)
        record("4: output errors", " ".join(args) + " >/dev/full", code, err, ok)
    for args, ok in ((["export", "missing.json"], 2), (["tune", "missing.toml"], 2),
                     (["moves", "--fen", "B:W99:B1"], 2), (["tune", "tiny.toml", "--out",
                                                           "full-run", "-q"], 0)):
        with open("/dev/full", "wb") as full:
            code, err = run(args, stderr=full)
        record("4: output errors", " ".join(args) + " 2>/dev/full", code, err, ok)
    for args in (["config", "--defaults"], ["completions", "zsh"], ["perft", "--depth", "9"]):
        p = subprocess.Popen([BIN] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=limit_memory)
        p.stdout.close()
        err = p.stderr.read().decode()
        code = p.wait()
        record("4: output errors", " ".join(args) + " | (closed)", code, err,
               (0, -signal.SIGPIPE))

    # 5: play never loses a game.
    for stdin, why in ((b"1\n1\n\xff\n", "end of input"), (b"1\nquit\n", "quit"),
                       (b"\xff\n1\nexit\n", "quit"), (b"1\nundo\n1\n", "end of input"),
                       (b"99\nfoo\n1\n", "end of input")):
        if os.path.exists("g.pdn"):
            os.remove("g.pdn")
        code, err = run(["play", "--pdn", "g.pdn", "--min-depth", "2", "--max-depth", "4"],
                        stdin)
        game = open("g.pdn").read() if os.path.exists("g.pdn") else ""
        kept = f"unfinished ({why})" in game and "9-13" in game
        record("5: play keeps its game", repr(stdin), code, err, 0, kept)
    for sig, status in ((signal.SIGINT, 130), (signal.SIGTERM, 143), (signal.SIGHUP, 129)):
        if os.path.exists("g.pdn"):
            os.remove("g.pdn")
        p = subprocess.Popen([BIN, "play", "--pdn", "g.pdn", "--min-depth", "2",
                              "--max-depth", "4"], stdin=subprocess.PIPE,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        p.stdin.write(b"1\n")
        p.stdin.flush()
        for _ in range(500):
            if os.path.exists("g.pdn") and "9-13 " in open("g.pdn").read().split("1. ")[-1]:
                break
            time.sleep(0.01)
        p.send_signal(sig)
        code = p.wait()
        game = open("g.pdn").read() if os.path.exists("g.pdn") else ""
        record("5: play keeps its game", f"signal {sig.name}", code, p.stderr.read().decode(),
               status, "1. 9-13" in game and '[Result "*"]' in game)

    # 6: run files that are links or not files.
    assert run(["tune", "tiny.toml", "--out", "stopped", "-q"])[0] == 0
    names = ["games.csv", "rounds.csv", "specimens.csv", "learning.csv", "timings.csv",
             "checkpoint.json", "config.toml", ".lock", "games.pdn"]
    for name in names:
        for make in ("link", "fifo"):
            shutil.rmtree("victim", ignore_errors=True)
            shutil.copytree("stopped", "victim", symlinks=True)
            target = os.path.abspath(f"outside-{name}")
            if os.path.exists(f"victim/{name}"):
                shutil.move(f"victim/{name}", target)
            else:
                open(target, "w").write("")
            if make == "link":
                os.symlink(target, f"victim/{name}")
            else:
                os.mkfifo(f"victim/{name}")
            attack("6: run files", ["resume", "victim"], 2, inputs=(target,))

    # 7: plot on any finite values.
    for column, value in (("elo_low", "-9e307"), ("elo_high", "9e307"), ("elo", "1e308"),
                          ("elo", "-1e-300"), ("elo_low elo_high", "-9e307 9e307")):
        shutil.rmtree("p", ignore_errors=True)
        shutil.copytree("run", "p")
        lines = open("p/learning.csv").read().splitlines()
        if len(lines) > 1:
            head = lines[0].split(",")
            row = lines[1].split(",")
            for col, val in zip(column.split(), value.split()):
                row[head.index(col)] = val
            lines[1] = ",".join(row)
            open("p/learning.csv", "w").write("\n".join(lines) + "\n")
        attack("7: plot", ["plot", "p"], 0)
    for column, value in (("mean_plies", "1e308"), ("games", "1e12"), ("round", "-5")):
        shutil.rmtree("p", ignore_errors=True)
        shutil.copytree("run", "p")
        lines = open("p/rounds.csv").read().splitlines()
        head = lines[0].split(",")
        row = lines[1].split(",")
        if column in head:
            row[head.index(column)] = value
        lines[1] = ",".join(row)
        open("p/rounds.csv", "w").write("\n".join(lines) + "\n")
        attack("7: plot", ["plot", "p"], (0, 2))

    # 8: temporary files of interrupted writers.
    env = dict(os.environ, CHECKERS_TUNER_PAUSE_BEFORE_RENAME="20000")
    for args, name in ((["export", "w.json", "-o", "o.json"], "o.json"),
                       (["plot", "run", "-o", "o.png"], "o.png"),
                       (["plot", "run", "-o", "o.svg"], "o.svg"),
                       (["fit", "run", "-o", "o2.json", "-q"], "o2.json")):
        for sig in (signal.SIGINT, signal.SIGTERM):
            open(name, "w").write("old\n")
            p = subprocess.Popen([BIN] + args, env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE)
            tmp = lambda: [f for f in os.listdir(".") if f.startswith(f".{name}.tmp-")]
            for _ in range(3000):
                if tmp() or p.poll() is not None:
                    break
                time.sleep(0.01)
            # Paused by the test hook: the temporary file is still there a moment later. A
            # release build has no hook, so a signal may come just after its rename: the new file
            # then stands, whole (docs: "either as it was or whole").
            time.sleep(0.05)
            paused = bool(tmp())
            p.send_signal(sig)
            code = p.wait()
            content = open(name, "rb").read()
            kept = content == b"old\n" and not tmp()
            whole = not tmp() and (content == b"old\n" or (
                len(content) > 4 and (not name.endswith(".json") or is_json(content))))
            record("8: temporaries", " ".join(args) + f" + {sig.name}", code,
                   p.stderr.read().decode(), 128 + sig if paused else (0, 128 + sig),
                   kept if paused else whole)

    # 10: PDN as other programs write it, damaged games, decks of positions (issue 30).
    game = "1. 10x14 24-20 2. 6-10 22-17 1-0\n"  # 10x14: `x` written for a plain move
    pdns = {
        "x-for-plain": (game, 0),
        "crlf-bom-latin1": ((b"\xef\xbb\xbf[White \"Jos\xe9\"]\r\n\r\n"
                             + game.replace("\n", "\r\n").encode()), 0),
        "comments": ("1. 10-14 {a { in it} 24-20 ; 1. 99-99\n(2. 11-15 {)} (2... 1-1)) "
                     "2. 6-10 $1 22-17!? 1-0\n", 0),
        "tag-only-fen-not-merged": ('[Event "a"]\n[FEN "W:W21:B1"]\n\n[Event "b"]\n' + game, 0),
        "damaged-then-good": ("1. 10-14 14-18 1-0\n" + game, 0),
        "only-damaged": ("1. 9-13 {never closed\n" + game, 2),
        "long-line": ("{" + "x" * (8 << 20) + "}\n" + game, 0),
        "no-moves-only": ('[FEN "B:W18:B14"] *\n' * 1000, 2),
    }
    for name, (text, code) in pdns.items():
        open(f"{name}.pdn", "wb").write(text if isinstance(text, bytes) else text.encode())
        attack("10: PDN and decks", ["fit", f"{name}.pdn", "-o", f"{name}.json", "-q",
                                     "--first-ply", "0", "--validation", "0"], code,
               inputs=(f"{name}.pdn",))
    attack("10: PDN and decks", ["fit", "damaged-then-good.pdn", "--strict", "-o", "s.json"], 2)
    shutil.rmtree("cut", ignore_errors=True)
    shutil.copytree("run", "cut")
    games_csv = open("cut/games.csv", "rb").read()
    open("cut/games.csv", "wb").write(games_csv[:-7])  # the last row cut mid-move
    attack("10: PDN and decks", ["fit", "cut", "-o", "cut.json", "-q"], 0)
    open("eleven.pdn", "w").write('[FEN "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,'
                                  '12,11,10,9"] *\n[FEN "W:W32-29,27-21,19:B12-9,7-1"] *\n')
    quick = ["--min-depth", "2", "--max-depth", "4", "--max-plies", "20",
             "--database-pieces", "0", "-q"]
    for deck, code in (("eleven.pdn", 0), ("tough", 0), ("random:4", 0), ("start", 0),
                       ("random:99", 2), ("no-such-deck", 2)):
        attack("10: PDN and decks", ["match", "material", "material", "--openings", deck,
                                     "--pairs", "1"] + quick, code)
    code, err = run(["match", "material", "material", "--openings", "toughh"] + quick)
    record("10: PDN and decks", "match --openings toughh (lists the deck names)", code, err, 2,
           "tough" in err and "random:N" in err)
    open("eleven.toml", "w").write(TINY.replace('openings = "3-move"',
                                                'openings = "eleven.pdn"'))
    shutil.rmtree("eleven-run", ignore_errors=True)
    code, err = run(["tune", "eleven.toml", "--out", "eleven-run", "-q"])
    played = open("eleven-run/games.pdn").read() if os.path.exists("eleven-run/games.pdn") else ""
    record("10: PDN and decks", "tune with openings = \"eleven.pdn\"", code, err, 0,
           '[FEN "B:W19,21,22,23,25,26,27,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12"]' in played)
    issue_30()
    issue_35()
    issue_61()

    held_all = True
    for cls in sorted(results):
        rows = results[cls]
        held = sum(1 for _, h, _ in rows if h)
        print(f"{cls}: {held}/{len(rows)} held")
        for attack_text, h, detail in rows:
            if not h:
                held_all = False
                print(f"    FAILED {attack_text[:80]}: {detail}")
    shutil.rmtree(scratch, ignore_errors=True)
    sys.exit(0 if held_all else 1)


HERE = os.path.dirname(os.path.abspath(__file__))
HUB_FIXTURE = os.path.join(HERE, "..", "tests", "hub-fixture", "hub-fixture.sh")


def built_library(stem):
    """A library `cargo build`/`cargo test` left beside the binary (or in its deps/), or None."""
    name = f"lib{stem}.so"
    for folder in (os.path.dirname(BIN), os.path.join(os.path.dirname(BIN), "deps")):
        path = os.path.join(folder, name)
        if os.path.isfile(path):
            return path
    return None


def leftovers(mark):
    """The processes still running (not zombies) whose environment holds RING_MARK=mark, after
    waiting up to 5 s for killed ones to go."""
    needle = f"RING_MARK={mark}".encode()
    deadline = time.monotonic() + 5
    while True:
        found = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                environ = open(f"/proc/{pid}/environ", "rb").read()
                state = open(f"/proc/{pid}/stat").read().rsplit(") ", 1)[1][0]
            except (OSError, IndexError):
                continue
            if state != "Z" and needle in environ.split(b"\0"):
                found.append(pid)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def ring_run(args, env=(), signals=(), cwd=None, address_space=4 << 30):
    """Runs `args` with `env` added and a mark of its own; sends `signals` (each 0.3 s apart,
    the first 1.5 s in). Its exit status, stdout, stderr, peak memory in MB, seconds, and the
    marked processes left running."""
    mark = f"{os.getpid()}-{time.monotonic()}"
    full = dict(os.environ, RING_MARK=mark, **dict(env))

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    started = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([BIN] + args, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                             env=full, cwd=cwd, preexec_fn=limit)
        pending = list(signals)
        next_signal = started + 1.5
        status = None
        while status is None:
            pid, wait_status, usage = os.wait4(p.pid, os.WNOHANG)
            now = time.monotonic()
            if pid:
                status = os.waitstatus_to_exitcode(wait_status)
                break
            if now - started > 90:
                p.kill()
                _, _, usage = os.wait4(p.pid, 0)
                status = "hang"
                break
            if pending and now >= next_signal:
                p.send_signal(pending.pop(0))
                next_signal = now + 0.3
            time.sleep(0.02)
        p.returncode = 0
        took = time.monotonic() - started
        out.seek(0)
        err.seek(0)
        text = out.read(200_000).decode(errors="replace")
        errs = err.read(200_000).decode(errors="replace")
    return status, text, errs, usage.ru_maxrss / 1024, took, leftovers(mark)


def ring_attack(cls, label, args, expect=0, check=lambda out, err: True, **how):
    """An attack of issue 61: the exit status `expect`, memory under 1 GB, nothing left
    running, and `check` of stdout and stderr."""
    code, out, err, peak, took, left = ring_run(args, **how)
    held = peak < 1024 and not left and check(out, err)
    record(cls, f"{label} ({peak:.0f} MB, {took:.1f} s{', left running' if left else ''})",
           code, err, expect, held)


def forfeits(csv):
    """The forfeit reasons of a match's --out, in order (the games that were not forfeits
    left out)."""
    try:
        rows = open(csv).read().splitlines()[1:]
    except OSError:
        return None
    reasons = ("crash", "hang", "time", "illegal_move", "bad_reply")
    return [r for row in rows for r in reasons if f",{r}," in row]


def issue_61():
    """Issue 61, "A ring that hostile engines cannot break": programs that die between moves,
    leave stray lines, flood, spin, fork, give names that are not text; our library's table;
    fit_with's duplicates and damaged games; a finished chain's files."""
    fixture = built_library("cb_fixture")
    ours = built_library("checkers_tuner_cb")
    hub = f"hub:sh {os.path.abspath(HUB_FIXTURE)} {BIN}"
    match = ["--movetime", "0.01", "--pairs", "1", "--threads", "1", "--database-pieces", "0"]
    cb = [f"cb:{fixture}"] if fixture else []
    if not fixture:
        print("issue 61: no libcb_fixture.so beside the binary (build it with `cargo test`): "
              "its CheckerBoard attacks are left out")

    def lost(reason, games=2, at_most=None):
        def check(out, err):
            got = forfeits("r.csv")
            if got is None:
                return False
            if at_most is not None:
                return len(got) <= at_most and all(r == reason for r in got)
            return got == [reason] * games
        return check

    # 61.1: a program that dies between moves loses by crash; the match ends with its results.
    for program, env in [(hub, {"HUB_FIXTURE": "exit-after-move"}),
                         (hub, {"HUB_FIXTURE": "close-input"})] + \
            [(c, {"CB_FIXTURE": "exit-after:3"}) for c in cb]:
        ring_attack("61.1: dies between moves", f"match {program[:14]}… {env}",
                    ["match", program, "material", "--out", "r.csv"] + match, 0,
                    lost("crash"), env=env.items())
    # 61.2: a stray line costs at most its game.
    once = os.path.abspath("done-once")
    for program, env, most in [(hub, {"HUB_FIXTURE": "done-twice", "HUB_FIXTURE_ONCE": once}, 1),
                               (hub, {"HUB_FIXTURE": "error-new-game"}, 0)] + \
            [(c, {"CB_FIXTURE": m}, 0) for c in cb for m in ("print", "close-stdio")]:
        ring_attack("61.2: stray lines", f"match {program[:14]}… {env.get('HUB_FIXTURE') or env.get('CB_FIXTURE')}",
                    ["match", program, "material", "--out", "r.csv"] + match[:2] +
                    ["--pairs", "2"] + match[4:], 0,
                    lost("illegal_move", at_most=most), env=env.items())
    # 61.3: a flood is stopped: bad_reply in little memory; at the handshake, refused.
    ring_attack("61.3: floods", "match hub flood-move",
                ["match", hub, "material", "--out", "r.csv"] + match, 0, lost("bad_reply"),
                env={"HUB_FIXTURE": "flood-move"}.items())
    ring_attack("61.3: floods", "match hub flood-start",
                ["match", hub, "material"] + match, 2,
                lambda out, err: "without an answer" in err, env={"HUB_FIXTURE": "flood-start"}.items())
    # 61.4: nothing left running, whatever ends the match.
    for c in cb:
        for signals, status in (((signal.SIGTERM,), 143), ((signal.SIGHUP,), 129),
                                ((signal.SIGINT, signal.SIGINT), 130)):
            ring_attack("61.4: left running", f"match cb spin + {signals}",
                        ["match", c, "material", "--movetime", "1", "--pairs", "1",
                         "--threads", "1", "--database-pieces", "0"], status,
                        env={"CB_FIXTURE": "spin"}.items(), signals=signals)
        ring_attack("61.4: left running", "match cb fork",
                    ["match", c, "material", "--out", "r.csv"] + match, 0, lost("", games=0),
                    env={"CB_FIXTURE": "fork"}.items())
    ring_attack("61.4: left running", "match hub fork-exit (crash, not hang)",
                ["match", hub, "material", "--out", "r.csv"] + match, 0, lost("crash"),
                env={"HUB_FIXTURE": "fork-exit"}.items())
    # 61.5: a bare library name is the file in the current folder.
    if fixture:
        os.makedirs("bare", exist_ok=True)
        shutil.copy(fixture, "bare/libm.so.6")
        ring_attack("61.5: bare library names", "match cb:libm.so.6 beside a file of that name",
                    ["match", "cb:libm.so.6", "material"] + match, 0,
                    lambda out, err: "(fixture, CheckerBoard engine)" in out, cwd="bare")
    # 61.6: an engine's text is one line of plain text in the summary, the PDN and the CSV.
    def plain(out, err):
        text = out + open("n.pdn", errors="replace").read()
        return "evil" in out and not any(ord(c) < 32 and c != "\n" for c in text)
    for program, env in [(hub, {"HUB_FIXTURE": "name"})] + [(c, {"CB_FIXTURE": "name"}) for c in cb]:
        ring_attack("61.6: engine text", f"match {program[:14]}… name",
                    ["match", program, "material", "--pdn", "n.pdn"] + match, 0, plain,
                    env=env.items())
        code, err = run(["fit", "n.pdn", "--strict", "-o", "n.json", "-q", "--first-ply", "0",
                         "--validation", "0"])
        record("61.6: engine text", f"fit --strict of the PDN of {program[:14]}…", code, err, 0)
    # 61.7: our library's table under a 2 GiB address space: made outside the clock, smaller.
    if ours:
        ring_attack("61.7: hashsize", "match cb:ours --option-a 'set hashsize 4096' (2 GiB)",
                    ["match", f"cb:{ours}", "material", "--option-a", "set hashsize 4096",
                     "--movetime", "0.05", "--pairs", "1", "--threads", "1",
                     "--database-pieces", "0", "--max-plies", "20", "--out", "r.csv"], 0,
                    lost("", games=0), address_space=2 << 30)
    # 61.8 and 61.9: fit_with's PDN files, named twice or damaged.
    game = '[Event "good"]\n[Result "1-0"]\n\n1. 11-15 23-19 2. 8-11 22-17 1-0\n\n'
    bad = '[Event "bad"]\n[Result "0-1"]\n\n1. 9-18 22-17 0-1\n\n'
    open("spar.pdn", "w").write(game)
    os.makedirs("links", exist_ok=True)
    if not os.path.lexists("links/spar.pdn"):
        os.symlink("../spar.pdn", "links/spar.pdn")
    os.makedirs("copies", exist_ok=True)
    open("copies/again.pdn", "w").write(game)
    open("damaged.pdn", "w").write(bad + game + bad)
    fitting = TINY.replace("rounds = 2", "rounds = 1") + "[evolution]\nfit_every = 1\n"
    for sources in ('["spar.pdn", "links"]', '["copies", "spar.pdn"]'):
        open("twice.toml", "w").write(fitting + f"fit_with = {sources}\n")
        shutil.rmtree("twice", ignore_errors=True)
        code, err = run(["tune", "twice.toml", "--out", "twice", "-q"])
        record("61.8: fit_with twice", f"fit_with = {sources}", code, err, 2,
               "evolution.fit_with" in err and "same PDN games twice" in err
               and not os.path.exists("twice"))
    open("damaged.toml", "w").write(fitting + 'fit_with = ["damaged.pdn"]\n')
    shutil.rmtree("damaged-run", ignore_errors=True)
    code, err = run(["tune", "damaged.toml", "--out", "damaged-run"])
    told = [l for l in err.splitlines() if "evolution.fit_with" in l and "game skipped" in l]
    record("61.9: fit_with skipped games", "fit_with = [\"damaged.pdn\"] (2 of 3 damaged)",
           code, err, 0, len(told) == 2)
    # 61.10: a finished chain's files checked on resume.
    chain = TINY.replace("[search]", "[weights]\nevaluator = \"patterns\"\n[search]") + \
        "[evolution]\nfit_every = 1\n[chain]\nlinks = 2\ngate_openings = 0\n"
    open("chain.toml", "w").write(chain)
    shutil.rmtree("night", ignore_errors=True)
    if run(["tune", "chain.toml", "--out", "night", "-q"])[0] != 0:
        record("61.10: finished chains", "tune chain.toml", "failed", "", 0)
        return

    def unfinish_link(d):
        path = os.path.join(d, "link-2", "checkpoint.json")
        checkpoint = json.load(open(path))
        checkpoint["playoff"] = None
        json.dump(checkpoint, open(path, "w"))

    damages = [
        ("best.json", lambda d: os.remove(f"{d}/best.json")),
        ("morning.json", lambda d: os.remove(f"{d}/morning.json")),
        ("morning.json", lambda d: open(f"{d}/morning.json", "w").write("garbage")),
        ("morning.csv", lambda d: open(f"{d}/morning.csv", "w").write("")),
        ("morning.csv", lambda d: open(f"{d}/morning.csv", "w").write("x,y\n1,2\n")),
        ("chain.csv", lambda d: os.remove(f"{d}/chain.csv")),
        ("chain.csv", lambda d: open(f"{d}/chain.csv", "w").write("garbage\n")),
        ("morning.csv", lambda d: shutil.rmtree(f"{d}/link-2")),
        ("morning.csv", unfinish_link),
    ]
    for k, (name, damage) in enumerate(damages):
        copy = f"night-{k}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree("night", copy)
        damage(copy)
        code, err = run(["resume", copy])
        record("61.10: finished chains", f"resume with {name} damaged ({k})", code, err, 2,
               f"{copy}/{name}" in err)


def measured(args):
    """Runs `args`: exit status, stderr, its length in bytes and the peak memory in MB."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen([BIN] + args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=err, preexec_fn=limit_memory)
        try:
            _, status, usage = os.wait4(p.pid, 0)
        except ChildProcessError:
            return "lost", "", 0, 0
        p.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0, 2)
        size = err.tell()
        err.seek(0)
        text = err.read(20_000).decode(errors="replace")
        return p.returncode, text, size, usage.ru_maxrss / 1024


def unfinish(run_dir):
    """The run of `run_dir` as if stopped before its playoff: `resume` reads its store again."""
    path = os.path.join(run_dir, "checkpoint.json")
    checkpoint = json.load(open(path))
    checkpoint["playoff"] = None
    json.dump(checkpoint, open(path, "w"))


def store_blocks(data):
    """The header and round blocks of a positions store (CTPOS002)."""
    at, blocks = 20, []
    while at < len(data):
        start = at
        games = int.from_bytes(data[at + 5:at + 9], "little")
        at += 21
        for _ in range(games):
            at += 17 + 3 * int.from_bytes(data[at + 15:at + 17], "little")
        at += 8
        blocks.append(data[start:at])
    return data[:20], blocks


def issue_35():
    """Issue 35, "Nothing trusted unchecked": bounded PDN reading, stores that prove they are
    whole and their own, one output guard, one validation of weights and options, islands that
    claim their folder."""
    # 35.1: PDN floods: stderr <= 20 kB, memory <= 300 MB, nothing raw on the terminal.
    open("token.pdn", "w").write("1. 9-13 " + "z" * (50 << 20) + " *\n")
    with open("nuls.pdn", "wb") as f:
        f.write(b"\0" * ((50 if QUICK else 200) << 20))
    with open("sparse.pdn", "wb") as f:
        f.truncate((512 << 20) if QUICK else (2 << 30))
    open("esc.pdn", "wb").write(b"1. 9-13 \x1b]0;pwned\x07\x1b[2J 22-18 *\n" * 50)
    many = "".join(f'[Event "{i}"]\n1. 9-13 \x1b[31m{"q" * 5000} *\n\n' for i in range(500))
    open("many.pdn", "w").write(many)
    for name in ("token", "nuls", "sparse", "esc", "many"):
        code, err, size, peak = measured(["fit", f"{name}.pdn", "-o", f"{name}.json"])
        record("35.1: PDN floods", f"fit {name}.pdn (stderr {size} B, {peak:.0f} MB)", code, err,
               2, size <= 20_000 and peak <= 300 and "\x1b" not in err and f"{name}.pdn" in err)
    open("cr.pdn", "wb").write(b'[Event "a"]\r1. 9-13 ; note\r22-18 1-0\r\r[Event "b"]\r'
                               b'1. 11-15 23-19 0-1\r\r[Event "c"]\r1. 12-16 16-19 1-0\r')
    # The damaged game is told on stderr, the count of what the file held is the report's, on
    # stdout (docs/commands.md#reading-pdn).
    p = subprocess.run([BIN, "fit", "cr.pdn", "-o", "cr.json", "--first-ply", "0",
                        "--validation", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=60, preexec_fn=limit_memory)
    err, out = p.stderr.decode(errors="replace"), p.stdout.decode(errors="replace")
    record("35.1: PDN floods",
           "fit cr.pdn (CR line ends: 2 games read, the bad move's line 9 named)", p.returncode,
           err, 0, "cr.pdn: line 9: game 3" in err and "cr.pdn: 3 games, 2 read" in out)
    open("nomove.pdn", "w").write('[FEN "B:W18:B14"] *\n\n[FEN "B:W32:B28"] *\n')
    code, err = run(["match", "material", "material", "--openings", "nomove.pdn", "--pairs",
                     "1", "--database-pieces", "0", "-q"])
    record("35.1: PDN floods", "match --openings deck with a position without a move", code,
           err, 2, "nomove.pdn: line 3: game 2" in err)

    # 35.2: the positions store proves itself.
    shutil.rmtree("run7", ignore_errors=True)
    open("tiny7.toml", "w").write(TINY.replace("seed = 5", "seed = 7"))
    assert run(["tune", "tiny7.toml", "--out", "run7", "-q"])[0] == 0
    head, blocks = store_blocks(open("run/positions.bin", "rb").read())
    changed = bytearray(head + b"".join(blocks))
    changed[len(head) + 40] ^= 1
    stores = {
        "foreign": open("run7/positions.bin", "rb").read(),
        "doubled": head + b"".join(blocks) + blocks[-1],
        "swapped": head + b"".join(reversed(blocks)),
        "changed": bytes(changed),
    }
    for name, data in stores.items():
        shutil.rmtree("s", ignore_errors=True)
        shutil.copytree("run", "s")
        unfinish("s")
        open("s/positions.bin", "wb").write(data)
        code, err = run(["resume", "s", "-q"])
        record("35.2: stores", f"resume with a {name} store", code, err, 2,
               "damaged at byte" in err)
        code, err = run(["fit", "s", "-o", "s.json", "-q"])
        record("35.2: stores", f"fit RUN with a {name} store", code, err, 2,
               "damaged at byte" in err and not os.path.exists("s.json"))
    for victim in ("run7", "run"):
        shutil.rmtree("s", ignore_errors=True)
        shutil.copytree("run", "s")
        unfinish("s")
        os.remove("s/positions.bin")
        os.link(f"{victim}/positions.bin", "s/positions.bin")
        before = open(f"{victim}/positions.bin", "rb").read()
        code, err = run(["resume", "s", "-q"])
        kept = open(f"{victim}/positions.bin", "rb").read() == before
        record("35.2: stores", f"resume with a hard link to {victim}'s store", code, err,
               2 if victim == "run7" else 0, kept)
    code, err, _, _ = measured(["fit", "run", "-o", "src.json"])
    record("35.2: stores", "fit RUN says its source", code, err, 0,
           "learning from the run's positions store" in err)

    # 35.3: one output guard.
    os.makedirs("sub", exist_ok=True)
    for link, target in (("sub/link-to-RUN-best.json", "../run/best.json"),
                         ("link.pdn", "run/games.pdn")):
        if not os.path.lexists(link):
            os.symlink(target, link)
    guarded = ("run/checkpoint.json", "run/rounds.csv", "run/games.pdn", "run7/checkpoint.json",
               "run7/positions.bin")
    for args in (["export", "material", "-o", "run7/checkpoint.json"],
                 ["fit", "run", "-o", "run7/positions.bin", "-q"],
                 ["play", "--pdn", "run7/positions.bin"],
                 ["export", "sub/link-to-RUN-best.json", "-o", "run/rounds.csv"],
                 ["match", "material", "material", "--pdn", "run/games.pdn", "--pairs", "1",
                  "--database-pieces", "0", "-q"],
                 ["fit", "link.pdn", "-o", "run/rounds.csv", "-q"]):
        attack("35.3: output guard", args, 2, inputs=guarded)

    # 35.4: one validation of weights and options.
    weights = json.load(open("w.json"))
    weights["opening"][1] = 100_000_000
    json.dump(weights, open("huge.json", "w"))
    for fmt in ("c", "json", "toml", "csv", "openbench"):
        attack("35.4: validation", ["export", "huge.json", "--format", fmt, "-o", f"h.{fmt}"],
               2)
    for option, value in (("--learning-rate", "NaN"), ("--learning-rate", "inf"),
                          ("--learning-rate", "-1"), ("--score-weight", "1.5"),
                          ("--score-weight", "NaN"), ("--score-weight", "1e9")):
        if os.path.exists("p.json"):
            os.remove("p.json")
        code, err = run(["fit", "run", "--evaluator", "patterns", f"{option}={value}", "-o",
                         "p.json", "-q"])
        record("35.4: validation", f"fit --evaluator patterns {option} {value}", code, err, 2,
               not os.path.exists("p.json"))
    for ranges in ("tables = [5, -5]", "classic = [0, 99999]", "tables = [-99999, 0]"):
        open("pat.toml", "w").write(TINY + f'[weights]\nevaluator = "patterns"\n'
                                    f'[weights.patterns]\n{ranges}\n')
        shutil.rmtree("pat-run", ignore_errors=True)
        code, err = run(["tune", "pat.toml", "--out", "pat-run", "-q"])
        record("35.4: validation", f"tune with [weights.patterns] {ranges}", code, err, 2,
               not os.path.exists("pat-run"))

    # 35.5: islands started together with different configs: never both.
    island = TINY + "[islands]\ncount = 2\nmigration_interval = 1\n"
    open("isl5.toml", "w").write(island)
    open("isl9.toml", "w").write(island.replace("seed = 5", "seed = 9"))
    for trial in range(2 if QUICK else 5):
        shutil.rmtree("isl", ignore_errors=True)
        procs = [subprocess.Popen([BIN, "tune", cfg, "--out", "isl", "--island", str(i), "-q",
                                   "--island-timeout", "5"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for i, cfg in enumerate(("isl5.toml", "isl9.toml"))]
        codes = [p.wait() for p in procs]
        errs = [p.stderr.read().decode() for p in procs]
        loser = [err for code, err in zip(codes, errs) if code == 2]
        held = len(loser) >= 1 and "holds another run" in loser[0]
        record("35.5: islands", f"two islands, seeds 5 and 9, trial {trial + 1}",
               2 if held else codes, loser[0] if loser else "".join(errs), 2)


def timed_attack(cls, label, args, env, limit=1.0):
    """An attack that must also end within `limit` seconds (a refusal reads nothing)."""
    started = time.monotonic()
    try:
        p = subprocess.run([BIN] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=60, env=env, preexec_fn=limit_memory)
        code, err = p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        code, err = "hang", ""
    took = time.monotonic() - started
    record(cls, f"{label}: {' '.join(args)} ({took:.2f} s)", code, err, 2, took < limit)


def issue_30():
    """Issue 30: results independent of the cache, run files never written, the cache hardened,
    win scores readable."""
    scratch = os.getcwd()
    caches = {name: os.path.join(scratch, f"cache-{name}") for name in ("empty", "built")}
    built = dict(os.environ, CHECKERS_TUNER_CACHE=caches["built"])
    subprocess.run([BIN, "egdb", "build", "--pieces", "3", "-q"], env=built, check=True,
                   stdout=subprocess.DEVNULL)

    # 30.3: the same match with an empty cache and with a database built: the same games.
    weights = json.load(open("w.json"))
    weights["database_pieces"] = 2
    json.dump(weights, open("w3.json", "w"))
    for a, b in (("material", "material"), ("w3.json", "material"), ("run/best.json", "material")):
        games = []
        for name, cache in caches.items():
            env = dict(os.environ, CHECKERS_TUNER_CACHE=cache)
            out = f"m-{name}.csv"
            p = subprocess.run([BIN, "match", a, b, "--pairs", "20", "--min-depth", "2",
                                "--max-depth", "4", "-q", "--out", out], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
            games.append(open(out, "rb").read() if p.returncode == 0 else None)
        same = games[0] is not None and games[0] == games[1]
        results.setdefault("30.3: same games whatever the cache", []).append(
            (f"match {a} {b}", same, "identical" if same else "the games differ"))

    # 30.4: no file of a run folder is written by export or fit, however spelled.
    run_files = ("best.json", "checkpoint.json", "config.toml", "rounds.csv", "specimens.csv",
                 "games.csv", "games.pdn", "playoff.csv", "timings.csv", ".lock")
    kept = tuple(f"run/{f}" for f in run_files if os.path.isfile(f"run/{f}"))
    for f in run_files:
        for out in (f"run/{f}", f"folder/../run/./{f}"):
            attack("30.4: run files kept", ["export", "run", "--format", "csv", "-o", out], 2,
                   inputs=kept)
            attack("30.4: run files kept", ["fit", "run", "-o", out, "-q"], 2, inputs=kept)
            attack("30.4: run files kept", ["plot", "run", "-o", out], 2, inputs=kept)

    # 30.5: the endgame database's cache: anything but a regular file refused at once.
    cache = os.path.join(scratch, "cache-hostile")
    env = dict(os.environ, CHECKERS_TUNER_CACHE=cache)
    egdb = os.path.join(cache, "egdb")
    db, stamp = os.path.join(egdb, "egdb-2.bin"), os.path.join(egdb, "egdb-2.bin.stamp")
    args = ["analyse", "--fen", "W:WK1,K5:BK32", "--database-pieces", "2"]
    for target in (db, stamp):
        for make in ("fifo", "zero", "folder", "dangling", "huge"):
            shutil.rmtree(cache, ignore_errors=True)
            subprocess.run([BIN, "egdb", "build", "--pieces", "2", "-q"], env=env, check=True,
                           stdout=subprocess.DEVNULL)
            old = time.time() - 3600
            os.utime(db, (old, old))
            subprocess.run([BIN] + args, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)  # stamps it
            if make == "huge" and target == db:
                continue  # a grown database is damaged and rebuilt, not refused
            if make == "dangling" and target == stamp:
                continue  # a stamp that is not there is no stamp: the file is checked whole
            if os.path.exists(target):
                os.remove(target)
            if make == "fifo":
                os.mkfifo(target)
            elif make == "zero":
                os.symlink("/dev/zero", target)
            elif make == "folder":
                os.mkdir(target)
            elif make == "dangling":
                os.symlink(os.path.join(egdb, "gone"), target)
            else:
                open(target, "wb").write(b"x" * (8 << 20))
            timed_attack(f"30.5: cache {os.path.basename(target)}", make, args, env)
    # A cache that cannot be written: refused before the build, not after.
    open("not-a-folder", "w").write("x")
    timed_attack("30.5: cache not writable", "a file in the folder's place", args,
                 dict(os.environ, CHECKERS_TUNER_CACHE=os.path.abspath("not-a-folder")))

    # 30.5: the database cut, then written over, under a running engine.
    p = subprocess.Popen([BIN, "hub", "--database-pieces", "3"], env=built,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def say(line, until):
        """Sends `line`; the lines read up to one starting with `until` or the end of the
        output (an engine that died: an older build ends with SIGBUS here)."""
        try:
            p.stdin.write(line.encode() + b"\n")
            p.stdin.flush()
        except BrokenPipeError:
            return []
        seen = []
        while True:
            got = p.stdout.readline().decode()
            seen.append(got)
            if not got or got.startswith(until):
                return seen

    # Two black kings against a white one (B:WK32:BK1,K5), Black to move: a database win.
    p.stdin.write(b"pos pos=WB" + b"e" * 26 + b"WeeeW\nlevel depth=4\n")
    answers = say("go think", "done")
    path = os.path.join(caches["built"], "egdb", "egdb-3.bin")
    size = os.path.getsize(path)
    os.truncate(path, 0)
    answers += say("go think", "done")
    open(path, "wb").write(b"\0" * (size // 2))
    answers += say("go think", "done")
    try:
        p.stdin.write(b"quit\n")
        p.stdin.flush()
    except BrokenPipeError:
        pass
    try:
        _, err = p.communicate(timeout=60)
        code = p.returncode
    except subprocess.TimeoutExpired:
        p.kill()
        err, code = b"", "hang"
    answered = sum(1 for line in answers if line.startswith("done")) == 3
    record("30.5: database changed under hub", "hub --database-pieces 3 + truncate + cp",
           code, err.decode(errors="replace"), 0, answered)

    # 30.6: a forced win is written as one, with its distance in plies.
    p = subprocess.run([BIN, "analyse", "--fen", "W:WK1,K5:BK32", "--database-pieces", "3"],
                       env=built, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    first = p.stdout.decode().split("\n")[0]
    readable = " score win " in first or " score loss " in first
    results.setdefault("30.6: readable win scores", []).append(
        ("analyse a won ending", p.returncode == 0 and readable, first))


if __name__ == "__main__":
    main()
