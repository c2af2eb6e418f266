#!/usr/bin/env python3
"""Reads a PDN file of `checkers-tuner match --pdn` with pydraughts' PDNReader and checks it.

Not part of CI: it needs the third-party package pydraughts (imported as `draughts`), as
scripts/hub_game.py does (`bash scripts/setup_hub.sh`, or `pip install pydraughts`).

    python3 scripts/check_pdn.py games.pdn            # the PDN alone
    python3 scripts/check_pdn.py games.pdn games.csv  # and against the match's CSV

For every game it replays the moves as pydraughts reads them, variant english, from the FEN tag
or the standard position, and checks that each move is legal for pydraughts; that the result
after the moves equals the `Result` tag; for a game that ended because the side to move had no
move (`Termination "no_moves"`), that pydraughts sees the same winner. With the CSV, it also
checks the games against its rows, in order: result, and the moves after the opening. Games
drawn by our rules (repetition, 80 quiet plies, the ply cap) are counted by whether pydraughts'
own draw rules already call them over; they need not, and that is not an error.

Prints one line per disagreement and a summary; exits 0 if every game loaded and agreed.
"""

import csv
import sys

try:
    from draughts import BLACK, WHITE, Board, Move
    from draughts.PDN import PDNReader
except ImportError:
    sys.stderr.write(
        "check_pdn.py needs pydraughts: run `bash scripts/setup_hub.sh` "
        "(or `pip install pydraughts`) and try again.\n"
    )
    sys.exit(2)

CSV_RESULTS = {"black_win": "1-0", "white_win": "0-1", "draw": "1/2-1/2"}


def main(argv):
    if len(argv) not in (2, 3):
        sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
        return 2
    pdn_path = argv[1]
    rows = None
    if len(argv) == 3:
        with open(argv[2], newline="", encoding="utf8") as f:
            rows = list(csv.DictReader(f))
    games = PDNReader(filename=pdn_path).games
    print(f"{pdn_path}: pydraughts' PDNReader loaded {len(games)} games")
    problems = 0

    def problem(index, message):
        nonlocal problems
        problems += 1
        print(f"game {index + 1} (Round {games[index].tags.get('Round', '?')}): {message}")

    replayed = decisive_agree = draws_over = draws = 0
    for index, game in enumerate(games):
        if game.variant != "english":
            problem(index, f"variant {game.variant!r}, not english")
            continue
        board = Board(variant="english", fen=game.tags.get("FEN", "startpos"))
        try:
            for text in game.moves:
                board.push(Move(board, pdn_move=text))
        except Exception as error:  # pydraughts raises plain exceptions on illegal moves
            problem(index, f"move {len(board.move_stack) + 1} ({text}) refused: {error!r}")
            continue
        replayed += 1
        result = game.tags.get("Result")
        if game.game_ending != result:
            problem(index, f"move text ends {game.game_ending}, Result tag {result}")
        winner = board.winner()
        if result in ("1-0", "0-1"):
            expected = BLACK if result == "1-0" else WHITE
            if game.tags.get("Termination") == "no_moves":
                if winner == expected:
                    decisive_agree += 1
                else:
                    problem(index, f"{result} with no moves left, pydraughts' winner {winner}")
        elif result == "1/2-1/2":
            draws += 1
            draws_over += winner == 0
        if rows is not None and index < len(rows):
            row = rows[index]
            if CSV_RESULTS.get(row["result"]) != result:
                problem(index, f"CSV row {index + 2} says {row['result']}, PDN {result}")
            opening = [] if row["opening"] == "start" else row["opening"].split()
            after = game.moves[len(opening):]
            if game.moves[: len(opening)] != opening or " ".join(after) != row["moves"]:
                problem(index, f"moves differ from CSV row {index + 2}")
    if rows is not None and len(rows) != len(games):
        problems += 1
        print(f"the CSV has {len(rows)} games, the PDN {len(games)}")
    print(
        f"replayed {replayed} of {len(games)} games move by move; "
        f"{decisive_agree} wins by no moves left, the same winner for pydraughts; "
        f"{draws_over} of {draws} draws also over by pydraughts' own draw rules"
        + ("" if rows is None else f"; compared with {len(rows)} CSV rows")
    )
    print("all agree" if problems == 0 else f"{problems} disagreements")
    return 0 if problems == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
