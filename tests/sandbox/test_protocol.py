"""Framing, messages and outcome builders shared by the pool and the workers."""

from __future__ import annotations

import json

import pytest

from sandbox_server.sandbox import Job, SandboxLimits
from sandbox_server.sandbox.outcome import crash_error, failure_outcome, memory_error, timeout_error
from sandbox_server.sandbox.process import describe_death
from sandbox_server.sandbox.protocol import (
    HEADER,
    MAX_FRAME_BYTES,
    ProtocolError,
    decode_frame,
    encode_frame,
    frame_length,
    outcome_from_message,
    outcome_message,
    run_message,
)


def test_a_frame_is_a_big_endian_length_followed_by_json() -> None:
    frame = encode_frame({"op": "ready", "v8": "1"})
    (length,) = HEADER.unpack(frame[: HEADER.size])
    assert length == len(frame) - HEADER.size
    assert frame[:4] == length.to_bytes(4, "big")
    assert decode_frame(frame[HEADER.size :]) == {"op": "ready", "v8": "1"}


def test_any_javascript_string_survives_a_frame_including_lone_surrogates() -> None:
    text = "caf\u00e9 \U0001f600 \ud800 end"
    frame = encode_frame({"op": "outcome", "stdout": text})
    assert frame[HEADER.size :].isascii()
    assert decode_frame(frame[HEADER.size :])["stdout"] == text


@pytest.mark.parametrize(
    "body",
    [
        pytest.param(b"not json", id="not-json"),
        pytest.param(b"[1, 2]", id="not-an-object"),
        pytest.param(b'{"id": 1}', id="no-op"),
        pytest.param(b"\xff\xfe", id="not-utf8"),
    ],
)
def test_a_frame_that_is_not_a_message_is_a_protocol_error(body: bytes) -> None:
    with pytest.raises(ProtocolError):
        decode_frame(body)


def test_a_frame_announcing_more_than_the_limit_is_a_protocol_error() -> None:
    assert frame_length(HEADER.pack(MAX_FRAME_BYTES)) == MAX_FRAME_BYTES
    with pytest.raises(ProtocolError):
        frame_length(HEADER.pack(MAX_FRAME_BYTES + 1))


def test_a_run_request_carries_the_job_with_empty_input_for_none() -> None:
    assert run_message(3, Job("1 + 1", None, 250)) == {
        "op": "run",
        "id": 3,
        "code": "1 + 1",
        "input": "",
        "timeoutMs": 250,
        "files": "",
        "backlog": 0,
    }
    assert run_message(4, Job("input", "[1]", 250))["input"] == "[1]"
    assert run_message(6, Job("1", None, 250), backlog=3)["backlog"] == 3
    assert run_message(7, Job("1", None, 250), spare=2)["spare"] == 2
    assert run_message(5, Job("files", None, 250, files_payload="[]\n"))["files"] == "[]\n"


def test_a_job_defaults_to_the_server_timeout_and_rejects_non_positive_ones() -> None:
    from sandbox_server.settings import DEFAULT_TIMEOUT_MS

    assert Job("1").timeout_ms == DEFAULT_TIMEOUT_MS
    with pytest.raises(ValueError, match="timeout_ms"):
        Job("1", None, 0)


def test_an_outcome_travels_without_its_envelope() -> None:
    outcome = failure_outcome(timeout_error(100), 101.23456)
    message = json.loads(encode_frame(outcome_message(9, outcome))[HEADER.size :])
    assert message["op"] == "outcome"
    assert message["id"] == 9
    assert outcome_from_message(message) == outcome
    with pytest.raises(ProtocolError):
        outcome_from_message({"op": "outcome", "id": 9})


def test_errors_of_stopped_executions_say_what_happened_and_name_the_limit() -> None:
    assert timeout_error(200) == {
        "kind": "timeout",
        "name": "TimeoutError",
        "message": "execution did not finish within 200 ms",
        "line": None,
        "column": None,
        "stack": None,
        "limitMs": 200,
    }
    memory = memory_error(128)
    assert (memory["kind"], memory["name"], memory.get("limitMb")) == ("memory", "MemoryError", 128)
    assert memory["message"] == "execution exceeded the memory limit of 128 MiB"
    assert crash_error("boom")["kind"] == "crashed"
    outcome = failure_outcome(memory, 1.23456, stdout="partial")
    assert outcome["ok"] is False
    assert outcome["stdout"] == "partial"
    assert outcome["durationMs"] == 1.235
    assert "result" not in outcome


@pytest.mark.parametrize(
    ("returncode", "stderr", "kind", "phrase"),
    [
        pytest.param(
            -5, ["#", "# Fatal JavaScript out of memory: CALL_AND_RETRY_LAST", "#"], "memory", "128 MiB", id="oom"
        ),
        pytest.param(-5, ["# Fatal error in , line 0", "# invalid table size"], "memory", "128 MiB", id="table-size"),
        pytest.param(-6, ["FATAL ERROR: Allocation failed - process out of memory"], "memory", "128 MiB", id="abort"),
        pytest.param(-9, [], "crashed", "SIGKILL", id="killed"),
        pytest.param(-11, ["something else"], "crashed", "SIGSEGV", id="segfault"),
        pytest.param(3, ["Traceback ..."], "crashed", "status 3", id="exit-status"),
        pytest.param(None, [], "crashed", "stopped responding", id="unknown"),
    ],
)
def test_a_worker_death_is_memory_when_v8_reported_running_out_else_crashed(
    returncode: int | None, stderr: list[str], kind: str, phrase: str
) -> None:
    error = describe_death(returncode, stderr, 128)
    assert error["kind"] == kind
    assert phrase in str(error["message"])


def test_limits_survive_the_worker_command_line() -> None:
    limits = SandboxLimits(memory_limit_mb=64, output_cap_bytes=1000, timezone="Europe/Paris")
    assert SandboxLimits.from_args(limits.to_args()) == limits
    assert limits.heap_ceiling_mb > limits.memory_limit_mb


def test_limits_default_to_the_settings_constants() -> None:
    from sandbox_server import settings

    assert SandboxLimits() == SandboxLimits(
        memory_limit_mb=settings.DEFAULT_MEMORY_LIMIT_MB,
        output_cap_bytes=settings.DEFAULT_OUTPUT_CAP_BYTES,
        timezone=settings.DEFAULT_TIMEZONE,
    )


def test_the_sandbox_package_exports_exactly_its_public_names() -> None:
    import sandbox_server.sandbox as sandbox

    assert sorted(sandbox.__all__) == [
        "ErrorInfo",
        "ErrorKind",
        "GRACE_MS",
        "Job",
        "Outcome",
        "SandboxLimits",
        "WorkerPool",
        "engine_versions",
    ]
    assert all(hasattr(sandbox, name) for name in sandbox.__all__)


def test_long_fields_travel_as_frames_of_their_own_and_come_back_the_same() -> None:
    from sandbox_server.sandbox.protocol import attach_fields, encode_frames

    text = '["caf\u00e9 \U0001f600", "\ud800"]' * 2_000
    message = run_message(7, Job("input", text, 250, files_payload="[]\n" + "x" * 5_000))
    frames = encode_frames(message)
    head = decode_frame(frames[0][HEADER.size :])
    assert head["attached"] == ["input", "files"] and "input" not in head and "files" not in head
    assert [len(frames[1]), len(frames[3])] == [HEADER.size, HEADER.size]
    assert attach_fields(head, [frames[2], frames[4]]) == message
    assert encode_frames(run_message(8, Job("1", "[1]", 250))) == [encode_frame(run_message(8, Job("1", "[1]", 250)))]
