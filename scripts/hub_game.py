#!/usr/bin/env python3
"""Plays one game of English checkers through pydraughts' HubEngine with `checkers-tuner hub`.

Not part of CI: it needs the third-party package pydraughts (imported as `draughts`).

Set-up, once:
    bash scripts/setup_hub.sh          # pip install pydraughts (in a virtualenv if you like)
    cargo build --release              # the engine: target/release/checkers-tuner

Then, from the repository root:
    python3 scripts/hub_game.py                         # our engine against itself
    python3 scripts/hub_game.py --opponent random       # against a random mover
    python3 scripts/hub_game.py --depth 6               # fixed depth instead of time
    python3 scripts/hub_game.py --black-weights results/quick/best.json

It prints each move as pydraughts understood it (with the engine's depth, score and nodes),
then the result as pydraughts' own rules see it (a win, or a draw by threefold repetition or
40 king moves without a capture on each side), and exits 0 if the game finished legally.
"""

import argparse
import os
import random
import sys

try:
    from draughts import BLACK, WHITE, Board
    from draughts.engine import HubEngine, Limit
except ImportError:
    sys.stderr.write(
        "hub_game.py needs pydraughts: run `bash scripts/setup_hub.sh` "
        "(or `pip install pydraughts`) and try again.\n"
    )
    sys.exit(2)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "checkers-tuner"),
                   help="the checkers-tuner binary (default: target/release/checkers-tuner)")
    p.add_argument("--movetime", type=float, default=0.1, help="seconds per move (default 0.1)")
    p.add_argument("--depth", type=int, help="fixed full-width depth instead of --movetime")
    p.add_argument("--opponent", choices=["self", "random"], default="self",
                   help="White: a second engine process (self) or a random mover")
    p.add_argument("--black-weights", default="material", help="Black engine's --weights")
    p.add_argument("--white-weights", default="material", help="White engine's --weights")
    p.add_argument("--seed", type=int, default=1, help="seed of the random mover")
    p.add_argument("--max-plies", type=int, default=400,
                   help="give up after this many plies (default 400)")
    return p.parse_args()


def start_engine(path, weights):
    engine = HubEngine([path, "hub", "--weights", weights])
    if "english" not in engine.variants:
        raise SystemExit(f"the engine does not offer variant english: {engine.variants}")
    engine.setoption("variant", "english")
    engine.init()
    engine.ping()
    return engine


def main():
    args = parse_args()
    if not os.access(args.engine, os.X_OK):
        sys.stderr.write(f"no engine at {args.engine}: run `cargo build --release` first\n")
        return 2
    limit = Limit(depth=args.depth) if args.depth else Limit(movetime=args.movetime)
    rng = random.Random(args.seed)
    engines = {BLACK: start_engine(args.engine, args.black_weights)}
    engines[WHITE] = start_engine(args.engine, args.white_weights) if args.opponent == "self" else None
    print(f"engine: {engines[BLACK].id}; Black = engine, White = "
          f"{'engine' if engines[WHITE] else 'random mover'}; limit {vars(limit)}")
    board = Board(variant="english")
    moves = []
    try:
        while not board.is_over() and len(board.move_stack) < args.max_plies:
            side = "Black" if board.turn == BLACK else "White"
            engine = engines[board.turn]
            if engine is None:
                move = rng.choice(board.legal_moves())
                note = "random"
            else:
                result = engine.play(board, limit, ponder=False)
                move = result.move
                info = result.info or {}
                note = (f"hub {move.hub_move}; depth {info.get('depth')} score {info.get('score')} "
                        f"nodes {info.get('nodes')}")
            board.push(move)
            moves.append(move.pdn_move)
            print(f"{len(moves):3}. {side:5} {move.pdn_move:<12} ({note})")
    finally:
        for engine in engines.values():
            if engine is not None:
                engine.quit()
                engine.p.communicate(timeout=10)
    winner = board.winner()
    if winner is None:
        outcome = "unfinished (no result by pydraughts' rules)"
    elif winner == 0:
        outcome = "draw (1/2-1/2)"
    else:
        outcome = "Black wins (1-0)" if winner == BLACK else "White wins (0-1)"
    numbered = " ".join(
        (f"{i // 2 + 1}. " if i % 2 == 0 else "") + m for i, m in enumerate(moves))
    print(f"moves: {numbered}")
    print(f"result: {outcome} after {len(moves)} plies; final position {board.fen}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
