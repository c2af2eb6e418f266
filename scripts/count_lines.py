#!/usr/bin/env python3
"""Counts the lines of Rust code at a git revision: the sources (src/, crates/*/src, checkerboard/src),
their unit tests, tests/.

A line counts when it is not blank and does not start with `//` (comments and doc comments
are left out). In a src file, everything from the line `#[cfg(test)]` followed by `mod tests`
on is unit-test code.

    python3 scripts/count_lines.py [REV]     (default HEAD)
"""
import subprocess
import sys


def files(rev, folder):
    out = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, folder],
                         capture_output=True, text=True, check=True).stdout
    return [f for f in out.split() if f.endswith(".rs")]


def text(rev, path):
    return subprocess.run(["git", "show", f"{rev}:{path}"],
                          capture_output=True, text=True, check=True).stdout


def counted(lines):
    return sum(1 for line in lines.split("\n")
               if line.strip() and not line.strip().startswith("//"))


def main():
    rev = sys.argv[1] if len(sys.argv) > 1 else "HEAD"
    code = unit = 0
    sources = [p for folder in ("src", "crates", "checkerboard") for p in files(rev, folder)]
    for path in sources:
        body = text(rev, path)
        cut = body.find("#[cfg(test)]\nmod tests")
        if path.endswith("/tests.rs") or "/tests/" in path:
            cut = 0
        code += counted(body if cut < 0 else body[:cut])
        unit += 0 if cut < 0 else counted(body[cut:])
    tests = sum(counted(text(rev, path)) for path in files(rev, "tests"))
    print(f"{rev}: src code {code}, src unit tests {unit}, tests/ {tests}")


if __name__ == "__main__":
    main()
