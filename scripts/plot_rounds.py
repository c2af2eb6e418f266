#!/usr/bin/env python3
"""Draw the round statistics of a checkers-tuner run folder (the same three panels as
`checkers-tuner plot`).

Requirements: Python 3.8+ and matplotlib (the CSV files are read with the standard library):

    pip install matplotlib

Usage:

    python3 scripts/plot_rounds.py RUN_DIR [-o out.png]

The output format follows the file extension (png, svg, pdf, ...); the default is
RUN_DIR/rounds.png. Columns are read by name, so extra columns in the CSV files are ignored.

Panels, all with the round on the x axis:
  (a) the pairs of each round stacked by outcome: black wins, white wins, draw then black wins,
      draw then white wins, double draw;
  (b) draw rate = pairs whose first game was drawn / all pairs
      = (draw_then_black_win + draw_then_white_win + double_draws) / pairs,
      double-draw rate = double_draws / pairs (left axis, percent), and mean plies per game
      (right axis);
  (c), (d) the opening and endgame weights of each round's best survivor: the specimens.csv row
      of that round with the most rounds_survived, then the most wins, then the lowest id.

Exit status 2 with one message on stderr when the folder, a file or a column is missing or a
value does not parse; 1 when the picture cannot be written.
"""

import argparse
import csv
import os
import sys
import tempfile

FEATURES = [
    "pawns",
    "kings",
    "safe_pawns",
    "safe_kings",
    "defenders",
    "attackers",
    "promotion_distance",
    "open_promotion",
    "mobility",
    "jumps",
]

# (column, legend label, colour), stacked bottom first; same colours as the Rust picture.
OUTCOMES = [
    ("black_wins", "black wins", "#333333"),
    ("white_wins", "white wins", "#bdbdbd"),
    ("draw_then_black_win", "draw, then black wins", "#1f5fa8"),
    ("draw_then_white_win", "draw, then white wins", "#9ecae1"),
    ("double_draws", "double draw", "#ff7f0e"),
]


class InputError(Exception):
    """Bad input: exit status 2."""


class MissingTool(Exception):
    """A library the script needs is not installed: exit status 1."""


def read_csv(path, columns, integer_columns):
    """Reads `path` and returns one dict per row holding `columns` as numbers (int for
    `integer_columns`, float otherwise; an empty `mean_plies` is None)."""
    if not os.path.isfile(path):
        raise InputError(f"{path} is missing")
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            rows = list(csv.reader(f, skipinitialspace=True))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise InputError(f"{path}: cannot read as CSV: {e}") from e
    if not rows:
        raise InputError(f"{path}: empty file, expected a header line")
    header = [c.strip() for c in rows[0]]
    for col in columns:
        if col not in header:
            raise InputError(f"{path}: missing column `{col}` in the header line")
    where = {col: header.index(col) for col in columns}
    out = []
    for line, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        record = {}
        for col in columns:
            raw = row[where[col]].strip() if where[col] < len(row) else ""
            # An empty mean_plies means a round without games: no point, not an error.
            if raw == "" and col == "mean_plies":
                record[col] = None
                continue
            try:
                value = float(raw)
            except ValueError:
                value = None
            is_int = col in integer_columns
            if value is None or (is_int and value != int(value)):
                kind = "an integer" if is_int else "a number"
                raise InputError(f"{path} line {line}, column `{col}`: `{raw}` is not {kind}")
            record[col] = int(value) if is_int else value
        out.append(record)
    return out


def best_survivors(specimens):
    """One row per round: most rounds_survived, then most wins, then lowest id."""
    best = {}
    for row in specimens:
        rank = (-row["rounds_survived"], -row["wins"], row["id"])
        current = best.get(row["round"])
        if current is None or rank < current[0]:
            best[row["round"]] = (rank, row)
    return {r: row for r, (_, row) in best.items()}


def run_name(run_dir):
    path = os.path.join(run_dir, "config.toml")
    folder = os.path.basename(os.path.abspath(run_dir))
    if not os.path.isfile(path):
        return folder
    try:
        import tomllib  # Python 3.11+
    except ImportError:
        tomllib = None
    with open(path, "rb") as f:
        data = f.read()
    if tomllib is not None:
        try:
            name = tomllib.loads(data.decode("utf-8")).get("name")
        except Exception as e:
            raise InputError(f"{path}: not a valid TOML file: {e}") from e
        return name if isinstance(name, str) else folder
    # Older Pythons: the top-level `name = "..."` line is all we need.
    for line in data.decode("utf-8", "replace").splitlines():
        line = line.strip()
        if line.startswith("["):
            break
        key, sep, value = line.partition("=")
        if sep and key.strip() == "name":
            return value.split("#")[0].strip().strip('"').strip("'")
    return folder


def plot(run_dir, out):
    try:
        import matplotlib
    except ImportError as e:
        raise MissingTool(
            "matplotlib is not installed; install it with `pip install matplotlib` "
            "(or use `checkers-tuner plot`, which needs nothing)"
        ) from e

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if not os.path.isdir(run_dir):
        raise InputError(f"run folder {run_dir} does not exist or is not a folder")
    name = run_name(run_dir)
    outcome_cols = [c for c, _, _ in OUTCOMES]
    rows = read_csv(
        os.path.join(run_dir, "rounds.csv"),
        ["round"] + outcome_cols + ["mean_plies"],
        set(["round"] + outcome_cols),
    )
    if not rows:
        path = os.path.join(run_dir, "rounds.csv")
        raise InputError(f"{path}: no rounds recorded yet, nothing to plot")
    rows.sort(key=lambda r: r["round"])
    xs = [r["round"] for r in rows]
    weight_cols = [f"open_{f}" for f in FEATURES] + [f"end_{f}" for f in FEATURES]
    specimens = read_csv(
        os.path.join(run_dir, "specimens.csv"),
        ["round", "id", "rounds_survived", "wins"] + weight_cols,
        {"round", "id", "rounds_survived", "wins"},
    )
    best = best_survivors(specimens)

    fig = plt.figure(figsize=(16, 15), dpi=100)
    grid = fig.add_gridspec(3, 2, height_ratios=[1.25, 1.0, 1.3], hspace=0.35, wspace=0.18)
    fig.suptitle(f'checkers-tuner run "{name}": {len(rows)} rounds', fontsize=20, y=0.93)

    # (a) stacked outcomes
    ax = fig.add_subplot(grid[0, :])
    bottom = [0] * len(rows)
    for col, label, colour in OUTCOMES:
        heights = [r[col] for r in rows]
        ax.bar(xs, heights, bottom=bottom, width=0.8, color=colour, label=label)
        bottom = [b + h for b, h in zip(bottom, heights)]
    handles, labels = ax.get_legend_handles_labels()
    ax.legend(
        handles[::-1],
        labels[::-1],
        title="pair outcome",
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
    )
    ax.set_title("(a) outcome of every pair, per round")
    ax.set_xlabel("round")
    ax.set_ylabel("pairs")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.yaxis.get_major_locator().set_params(integer=True)

    # (b) draw rates and mean plies
    ax = fig.add_subplot(grid[1, :])

    def share(numerator):
        pairs = [sum(r[c] for c in outcome_cols) for r in rows]
        return [100 * n / p if p > 0 else float("nan") for n, p in zip(numerator, pairs)]

    first_drawn = [
        r["draw_then_black_win"] + r["draw_then_white_win"] + r["double_draws"] for r in rows
    ]
    ax.plot(xs, share(first_drawn), "o-", color="#1f5fa8", label="draw rate (left)")
    ax.plot(
        xs,
        share([r["double_draws"] for r in rows]),
        "o-",
        color="#ff7f0e",
        label="double-draw rate (left)",
    )
    ax.set_ylim(0, 100)
    ax.set_ylabel("share of pairs (%)")
    ax.set_xlabel("round")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.grid(alpha=0.3)
    right = ax.twinx()
    plies = [r["mean_plies"] if r["mean_plies"] is not None else float("nan") for r in rows]
    right.plot(xs, plies, "o-", color="#2ca02c", label="mean plies (right)")
    known = [p for p in plies if p == p]
    right.set_ylim(0, max(1.0, max(known) * 1.1) if known else 1.0)
    right.set_ylabel("mean plies per game")
    lines = ax.get_lines() + right.get_lines()
    ax.legend(
        lines,
        [l.get_label() for l in lines],
        loc="upper left",
        bbox_to_anchor=(1.06, 1.0),
        title="draw rate = first game drawn / pairs\ndouble-draw rate = double draws / pairs",
    )
    ax.set_title("(b) draw rates and game length per round")

    # (c), (d) best survivor's weights
    colours = plt.get_cmap("tab10").colors
    values = [row[c] for row in best.values() for c in weight_cols]
    lo = min([0.0] + values)
    hi = max([0.0] + values) if values else 1.0
    pad = max(1.0, (hi - lo) * 0.05)
    all_rounds = list(range(xs[0], xs[-1] + 1))
    panels = [("open", "(c)", "opening"), ("end", "(d)", "endgame")]
    for k, (prefix, letter, label) in enumerate(panels):
        ax = fig.add_subplot(grid[2, k])
        for i, feature in enumerate(FEATURES):
            col = f"{prefix}_{feature}"
            ys = [best[r][col] if r in best else float("nan") for r in all_rounds]
            ax.plot(all_rounds, ys, "o-", ms=3, color=colours[i], label=feature)
        ax.axhline(0, color="black", alpha=0.5, lw=0.8)
        ax.set_ylim(lo - pad, hi + pad)
        ax.set_title(f"{letter} best survivor's {label} weights")
        ax.set_xlabel("round")
        ax.set_ylabel("weight")
        ax.xaxis.get_major_locator().set_params(integer=True)
        ax.grid(alpha=0.3)
    ax.legend(
        title="feature\n(best survivor: most rounds\nsurvived, then most wins,\nthen lowest id)",
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
    )

    # Write beside the target, then rename: never a half-written picture under the real name.
    folder = os.path.dirname(os.path.abspath(out))
    ext = os.path.splitext(out)[1] or ".png"
    fd, tmp = tempfile.mkstemp(prefix=".plot-", suffix=ext, dir=folder)
    os.close(fd)
    try:
        fig.savefig(tmp, bbox_inches="tight", format=ext.lstrip(".").lower())
        os.replace(tmp, out)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    finally:
        plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir", metavar="RUN_DIR", help="the run folder")
    parser.add_argument("-o", "--out", help="output picture (default RUN_DIR/rounds.png)")
    args = parser.parse_args(argv)
    out = args.out or os.path.join(args.run_dir, "rounds.png")
    try:
        plot(args.run_dir, out)
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except MissingTool as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: cannot write {out}: {e}", file=sys.stderr)
        return 1
    print(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
