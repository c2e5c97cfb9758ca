"""What one execution produced: the outcome dict, and builders for the outcomes the engine cannot report.

Most outcomes come from the JavaScript runtime (``js_runtime``) as JSON; the worker adds ``durationMs`` and
fills in what only it knows. When an execution was stopped from outside (a timeout, the memory limit, a
crashed worker process) the error says what happened in plain words and names the limit involved.
"""

from __future__ import annotations

import json
from typing import Any, Literal, NotRequired, TypedDict, cast

__all__ = [
    "MAX_RESULT_DEPTH",
    "ErrorInfo",
    "ErrorKind",
    "Outcome",
    "busy_error",
    "checked_outcome",
    "crash_error",
    "failure_outcome",
    "internal_error",
    "memory_error",
    "paused_error",
    "shown_bytes",
    "timeout_error",
]

ErrorKind = Literal["syntax", "runtime", "timeout", "memory", "crashed", "busy", "paused"]


class ErrorInfo(TypedDict):
    """Why an execution failed.

    ``line`` and ``column`` are 1-based positions in the submitted code. A timeout carries ``limitMs`` and a
    memory error ``limitMb``: the limit that was exceeded.
    """

    kind: ErrorKind
    name: str | None
    message: str | None
    line: int | None
    column: int | None
    stack: str | None
    limitMs: NotRequired[int]
    limitMb: NotRequired[int]
    limitS: NotRequired[float]


# Functional form: ``async`` is a keyword and cannot be a class attribute name.
Outcome = TypedDict(
    "Outcome",
    {
        "ok": bool,
        "resultText": str | None,
        "result": NotRequired[Any],
        "resultType": str | None,
        "stdout": str,
        "stderr": str,
        "truncated": bool,
        "omittedBytes": int,
        "error": ErrorInfo | None,
        "resultShortened": NotRequired[bool],
        "syntaxMode": Literal["script", "async"] | None,
        "async": bool,
        "durationMs": float,
        "isolateRuns": NotRequired[int],
        "displays": NotRequired[Any],
        "heapBytes": NotRequired[int],
        "journal": NotRequired[Any],
    },
)
Outcome.__doc__ = """The outcome of one execution, as sent by the worker (JSON-compatible).

``result`` is present only when the result has a JSON form; ``resultText`` is the result rendered the way
Node's console would (``resultShortened`` when it leaves something out: items, depth, part of a string);
``durationMs`` is the execution time measured in the worker, or by the pool when the
worker could not answer. A job that asked to keep its isolate (a session's) adds how many runs the isolate has had
(``isolateRuns``) and the used bytes of its heap when the job began (``heapBytes``). ``displays`` is, from the
runtime, how many images ``display()`` collected; the worker replaces it with their JSON text
(``[{"kind", "data"}]``) before it leaves.
``journal`` is a journaled run's record of its clock readings and order of events (``js_runtime/journal.js``).
"""


def _error(kind: ErrorKind, name: str, message: str) -> ErrorInfo:
    return {"kind": kind, "name": name, "message": message, "line": None, "column": None, "stack": None}


def timeout_error(limit_ms: int) -> ErrorInfo:
    """The error of an execution stopped at its time limit."""
    error = _error("timeout", "TimeoutError", f"execution did not finish within {limit_ms} ms")
    error["limitMs"] = limit_ms
    return error


def memory_error(limit_mb: int) -> ErrorInfo:
    """The error of an execution stopped for using more memory than allowed."""
    error = _error("memory", "MemoryError", f"execution exceeded the memory limit of {limit_mb} MiB")
    error["limitMb"] = limit_mb
    return error


def paused_error() -> ErrorInfo:
    """The error of an execution stopped to wait for the user's consent; it is run again once they answer."""
    return _error("paused", "Paused", "execution paused until the user answers a request for consent")


def busy_error(waited_s: float, ahead: int) -> ErrorInfo:
    """The error of a call that waited too long for a free worker; ``ahead`` calls were queued before it."""
    error = _error(
        "busy",
        "ServerBusy",
        f"no JavaScript worker became free within {waited_s:g} s ({ahead} calls were waiting ahead of this one)",
    )
    error["limitS"] = waited_s
    return error


def crash_error(detail: str) -> ErrorInfo:
    """The error of an execution whose worker process died or misbehaved; ``detail`` says how."""
    return _error("crashed", "WorkerCrashed", detail)


def internal_error(detail: str) -> ErrorInfo:
    """The error of an execution the sandbox itself failed to run or report, although no process died."""
    return _error("crashed", "InternalError", detail)


def failure_outcome(error: ErrorInfo, duration_ms: float, *, stdout: str = "", stderr: str = "") -> Outcome:
    """An outcome with no result, for an execution the runtime could not finish."""
    return {
        "ok": False,
        "resultText": None,
        "resultType": None,
        "stdout": stdout,
        "stderr": stderr,
        "truncated": False,
        "omittedBytes": 0,
        "error": error,
        "resultShortened": False,
        "syntaxMode": None,
        "async": False,
        "durationMs": round(duration_ms, 3),
    }


_ERROR_KINDS = frozenset({"syntax", "runtime", "timeout", "memory", "crashed", "paused"})
_OUTCOME_FIELDS: dict[str, tuple[type, ...]] = {
    "ok": (bool,),
    "resultText": (str, type(None)),
    "resultType": (str, type(None)),
    "stdout": (str,),
    "stderr": (str,),
    "truncated": (bool,),
    "omittedBytes": (int,),
    "error": (dict, type(None)),
    "resultShortened": (bool,),
    "syntaxMode": (str, type(None)),
    "async": (bool,),
}
_ERROR_FIELDS: dict[str, tuple[type, ...]] = {
    "kind": (str,),
    "name": (str, type(None)),
    "message": (str, type(None)),
    "line": (int, type(None)),
    "column": (int, type(None)),
    "stack": (str, type(None)),
}
MAX_RESULT_DEPTH = 80
"""Deepest nesting accepted in a structured result (the runtime writes at most 64 levels)."""


def _utf8_size(text: str | None) -> int:
    return 0 if text is None else len(text.encode("utf-8", "surrogatepass"))


def shown_bytes(outcome: Outcome) -> int:
    """Bytes of the text an outcome shows: the streams, the rendered result and the error's fields."""
    size = sum(_utf8_size(outcome[key]) for key in ("stdout", "stderr", "resultText"))
    error = outcome["error"]
    if error is not None:
        size += sum(_utf8_size(error[key]) for key in ("name", "message", "stack"))
    return size


def _depth_within(value: Any, limit: int) -> bool:
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return True


_OPTIONAL_FIELDS = ("result", "displays", "journal")
JOURNAL_TEXT_ROOM = 640 * 1024
"""Characters a journal may add to an outcome's text (the runtime keeps at most 20,000 pairs and events)."""
_JOURNAL_LISTS = ("clock", "events")
_JOURNAL_FLAGS = ("overflow", "replaying")
MAX_DISPLAYS = 8
"""Most images one run may show (``display()`` in ``js_runtime/display.js`` says the same)."""


def _is_journal(value: Any) -> bool:
    if not isinstance(value, dict) or not set(_JOURNAL_LISTS + _JOURNAL_FLAGS) <= set(value):
        return False
    if not set(value) <= {*_JOURNAL_LISTS, *_JOURNAL_FLAGS, "memory"}:
        return False
    if any(not isinstance(value[flag], bool) for flag in _JOURNAL_FLAGS):
        return False
    if any(
        not isinstance(value[name], list) or not all(type(item) is int for item in value[name])
        for name in _JOURNAL_LISTS
    ):
        return False
    memory = value.get("memory")
    return memory is None or (isinstance(memory, dict) and all(type(memory.get(k)) is int for k in ("used", "total")))


def checked_outcome(text: Any, output_cap: int) -> Outcome | None:
    """The runtime's outcome JSON text as an Outcome, or None unless it is one within the limits.

    Checked before anything leaves the worker: exactly the known fields with their types, an error of a known
    kind, the shown text (streams, rendered result, error fields) within ``output_cap`` bytes, and a structured
    result at most :data:`MAX_RESULT_DEPTH` deep. The text is refused unread when it is longer than any
    outcome within the cap can be.
    """
    # Escaped as JSON, a byte of shown text takes at most 6 characters; the structured copy at most the cap.
    if not isinstance(text, str) or len(text) > 7 * output_cap + 8192 + JOURNAL_TEXT_ROOM:
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not set(_OUTCOME_FIELDS) <= set(data) <= {*_OUTCOME_FIELDS, *_OPTIONAL_FIELDS}:
        return None
    displays = data.get("displays", 0)
    if not isinstance(displays, int) or isinstance(displays, bool) or not 0 <= displays <= MAX_DISPLAYS:
        return None
    if any(not isinstance(data[key], kinds) for key, kinds in _OUTCOME_FIELDS.items()):
        return None
    if data["omittedBytes"] < 0 or data["syntaxMode"] not in (None, "script", "async"):
        return None
    error = data["error"]
    if error is not None:
        if set(error) != set(_ERROR_FIELDS) or error["kind"] not in _ERROR_KINDS:
            return None
        if any(not isinstance(error[key], kinds) for key, kinds in _ERROR_FIELDS.items()):
            return None
    if "result" in data and not _depth_within(data["result"], MAX_RESULT_DEPTH):
        return None
    if "journal" in data and not _is_journal(data["journal"]):
        return None
    outcome = cast("Outcome", data)
    if shown_bytes(outcome) > output_cap:
        return None
    return outcome
