#!/usr/bin/env bash
# Installs what scripts/hub_game.py needs: the Python package pydraughts (imported as `draughts`).
# Not needed by the build or the tests. Uses the active Python (a virtualenv if one is active).
set -euo pipefail
python3 -m pip install --upgrade 'pydraughts>=0.6'
python3 -c 'import draughts; print("pydraughts", draughts.__version__, "is installed")'
