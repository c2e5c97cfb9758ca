"""A server that fails before it is usable: ``--mode exit`` exits at once, ``hang`` never answers ``initialize``,
``garbage`` writes lines that are not JSON-RPC to stdout and never answers, ``badlist`` answers ``initialize`` but
lists a tool that breaks the protocol's schema (its ``inputSchema`` is a string), and stays running. ``--count-file
PATH`` gets one line each time the process starts, so a test can count restart attempts.

Run: ``python -m tests.upstream.servers.broken --mode exit|hang|garbage|badlist [--count-file PATH]``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["exit", "hang", "garbage", "badlist"], required=True)
    parser.add_argument("--count-file", type=Path)
    args = parser.parse_args()
    if args.count_file is not None:
        with args.count_file.open("a", encoding="utf-8") as counts:
            counts.write("started\n")
    if args.mode == "exit":
        sys.stderr.write("broken: exiting at start\n")
        sys.exit(1)
    if args.mode == "badlist":
        answer_with_a_broken_listing()
    while True:
        if args.mode == "garbage":
            sys.stdout.write("this is not JSON-RPC\n")
            sys.stdout.flush()
        time.sleep(0.05)


def answer_with_a_broken_listing() -> None:
    """Speak just enough JSON-RPC for the handshake, then list a tool no client can accept; never exit."""
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue
        if message.get("method") == "initialize":
            result = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "badlist", "version": "1.0.0"},
            }
        elif message.get("method") == "tools/list":
            result = {"tools": [{"name": "broken", "inputSchema": "not a schema"}]}
        else:
            result = {}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
        sys.stdout.flush()
    while True:  # input closed: still do not exit, like a server that ignores the end of its input
        time.sleep(0.05)


if __name__ == "__main__":
    main()
