#!/usr/bin/env python3
"""Pastes `checkers-tuner config --defaults` into docs/config.md's ```toml block (a unit test
keeps the two equal). Usage: scripts/update_config_doc.py [BINARY]"""
import pathlib, subprocess, sys

binary = sys.argv[1] if len(sys.argv) > 1 else "target/debug/checkers-tuner"
doc = pathlib.Path(__file__).resolve().parent.parent / "docs" / "config.md"
text = doc.read_text()
start = text.index("```toml\n") + len("```toml\n")
end = text.index("```", start)
defaults = subprocess.run([binary, "config", "--defaults"], check=True, capture_output=True, text=True).stdout
doc.write_text(text[:start] + defaults + text[end:])
