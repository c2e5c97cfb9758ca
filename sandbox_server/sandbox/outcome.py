"""What one execution produced: the outcome dict, and builders for the outcomes the engine cannot report.

Most outcomes come from the JavaScript runtime (``js_runtime``) as JSON; the worker adds ``durationMs`` and
fills in what only it knows. When an execution was stopped from outside (a timeout, the memory limit, a
crashed worker process) the error says what happened in plain words and names the limit involved.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

__all__ = [
    "ErrorInfo",
    "ErrorKind",
    "Outcome",
    "crash_error",
    "failure_outcome",
    "memory_error",
    "timeout_error",
]

ErrorKind = Literal["syntax", "runtime", "timeout", "memory", "crashed"]


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
        "syntaxMode": Literal["script", "async"] | None,
        "async": bool,
        "durationMs": float,
    },
)
Outcome.__doc__ = """The outcome of one execution, as sent by the worker (JSON-compatible).

``result`` is present only when the result has a JSON form; ``resultText`` is the result rendered the way
Node's console would; ``durationMs`` is the execution time measured in the worker, or by the pool when the
worker could not answer.
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


def crash_error(detail: str) -> ErrorInfo:
    """The error of an execution whose worker process died or misbehaved; ``detail`` says how."""
    return _error("crashed", "WorkerCrashed", detail)


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
        "syntaxMode": None,
        "async": False,
        "durationMs": round(duration_ms, 3),
    }
