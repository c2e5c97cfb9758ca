"""A server that fails before it is usable: ``--mode exit`` exits at once, ``hang`` never answers ``initialize``,
``garbage`` writes lines that are not JSON-RPC to stdout and never answers. ``--count-file PATH`` gets one line
each time the process starts, so a test can count restart attempts.

Run: ``python -m tests.upstream.servers.broken --mode exit|hang|garbage [--count-file PATH]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["exit", "hang", "garbage"], required=True)
    parser.add_argument("--count-file", type=Path)
    args = parser.parse_args()
    if args.count_file is not None:
        with args.count_file.open("a", encoding="utf-8") as counts:
            counts.write("started\n")
    if args.mode == "exit":
        sys.stderr.write("broken: exiting at start\n")
        sys.exit(1)
    while True:
        if args.mode == "garbage":
            sys.stdout.write("this is not JSON-RPC\n")
            sys.stdout.flush()
        time.sleep(0.05)


if __name__ == "__main__":
    main()
