"""A stand-in worker that speaks the protocol but misbehaves on purpose, to test the pool's supervision.

Run as ``python -m tests.sandbox.fake_worker <behaviour>`` in place of the real worker. It imports nothing
from the project so that it starts fast. Behaviours:

- ``stuck-after-outcome``: answers a job, then never announces ``ready`` again.
- ``garbage``: announces ``ready``, then answers a job with bytes that are not a frame.
- ``never-ready``: starts and says nothing.
- ``exit``: exits with status 3 at once, having written a line to stderr.
"""

from __future__ import annotations

import json
import os
import struct
import sys
import time
from typing import Any

HEADER = struct.Struct(">I")


def send(message: dict[str, Any]) -> None:
    body = json.dumps(message).encode()
    os.write(1, HEADER.pack(len(body)) + body)


def read_frame() -> bytes | None:
    header = b""
    while len(header) < HEADER.size:
        chunk = os.read(0, HEADER.size - len(header))
        if not chunk:
            return None
        header += chunk
    (length,) = HEADER.unpack(header)
    body = b""
    while len(body) < length:
        body += os.read(0, length - len(body))
    return body


def receive() -> dict[str, Any] | None:
    body = read_frame()
    if body is None:
        return None
    message = dict(json.loads(body))
    for name in message.pop("attached", []):
        message[name] = (read_frame() or b"").decode("utf-8", "surrogatepass")
    return message


def outcome(job_id: int) -> dict[str, Any]:
    return {
        "op": "outcome",
        "id": job_id,
        "ok": True,
        "resultText": "'fake'",
        "result": "fake",
        "resultType": "string",
        "stdout": "",
        "stderr": "",
        "truncated": False,
        "omittedBytes": 0,
        "error": None,
        "syntaxMode": None,
        "async": False,
        "durationMs": 0.1,
    }


def main(behaviour: str) -> int:
    if behaviour == "exit":
        sys.stderr.write("fake worker refuses to start\n")
        return 3
    if behaviour == "never-ready":
        time.sleep(3600)
        return 0
    send({"op": "ready", "v8": "fake", "miniRacer": "fake"})
    while (request := receive()) is not None:
        if behaviour == "garbage":
            os.write(1, b"\xff\xff\xff\xffnot a frame")
        else:
            send(outcome(request["id"]))
        time.sleep(3600)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
