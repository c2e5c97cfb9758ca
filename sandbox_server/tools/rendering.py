"""How an execution's outcome reads as a tool result: the text a model reads first (result, output, error with its
hint, the tool calls made) and the structured object beside it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sandbox_server.results import ToolResult, error, ok
from sandbox_server.settings import Settings
from sandbox_server.tools.hints import hint_for
from sandbox_server.tools.images import Shown
from sandbox_server.tools.plain_data import compact_json

__all__ = ["fenced", "render_outcome"]


def _position(error: dict[str, Any]) -> str:
    line, column = error.get("line"), error.get("column")
    if line is None:
        return ""
    return f" at line {line}" + (f", column {column}" if column is not None else "")


_LINE_BREAK = re.compile("[\r\n\u2028\u2029\x0b\x0c\x85]")
_BACKTICKS = re.compile("`+")


def fenced(text: str) -> str:
    """``text`` in a Markdown code fence longer than any run of backticks inside it, so it cannot close it.

    Everything the code controls (its output, its result, its error messages, function names) reaches the
    text either on one line after a label or inside such a fence: no value can imitate a section of the text.
    """
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text.rstrip(chr(10))}\n{fence}"


def _labelled(label: str, text: str) -> str:
    """``label: text`` on one line when ``text`` is one line, else the label and ``text`` fenced below it."""
    if _LINE_BREAK.search(text) is None and "`" not in text[:1] + text[-1:]:
        return f"{label}: {text}"
    return f"{label}:\n{fenced(text)}"


def _error_message(error: dict[str, Any], settings: Settings, timeout_ms: int) -> str:
    kind = error.get("kind")
    if kind == "session":
        return f"No session for this call: {error.get('message')}. The code did not run."
    if kind == "store":
        return f"The state store failed this call: {error.get('message')}."
    if kind == "timeout":
        return (
            f"Execution timed out: it did not finish within timeout_ms={timeout_ms}. If the code is correct but "
            f"slow, call again with a larger timeout_ms (at most {settings.max_timeout_ms}); otherwise look for an "
            "infinite loop or a promise or timer that never settles."
        )
    if kind == "memory":
        return (
            f"Execution ran out of memory: the limit is {settings.memory_limit_mb} MiB per execution. "
            "Work on smaller pieces of data, avoid keeping everything in memory, or use typed arrays."
        )
    if kind == "busy":
        return (
            f"The server is busy: {error.get('message') or 'no JavaScript worker became free in time'}. The code did "
            "not run; call again in a moment."
        )
    if kind == "crashed":
        detail = error.get("message") or "the worker process died"
        if error.get("name") == "InternalError":
            return f"The sandbox failed to run the code ({detail}); the call may be retried."
        return (
            f"The JavaScript engine process crashed ({detail}). The server has replaced it; "
            "the call may be retried, preferably with simpler code."
        )
    name = error.get("name") or "Error"
    message = error.get("message") or ""
    label = "Syntax error" if kind == "syntax" else "Uncaught exception"
    summary = f"{name}: {message}"
    # The position comes before the message, never glued onto its last sentence (an upstream's own words).
    if _LINE_BREAK.search(summary) is None:
        text = f"{label}{_position(error)}: {summary}"
    else:
        text = f"{label}{_position(error)}:\n{fenced(summary)}"
    stack = error.get("stack")
    if stack and kind == "runtime":
        frames = [line for line in str(stack).splitlines() if line.strip().startswith("at ")]
        if frames:
            text += "\n" + fenced("\n".join(frames))
    return text


def _result_text(structured: dict[str, Any], shortened: bool, compact: bool) -> str:
    """The result as the text shows it: a string result as the string itself; with ``compact``, an object or array
    that JSON holds exactly as one line of JSON; anything else as Node prints it."""
    if structured.get("resultType") == "string" and isinstance(structured.get("result"), str):
        return str(structured["result"])
    text = structured.get("resultText")
    if text is None:
        return "undefined"
    if compact and not shortened and "result" in structured:
        return compact_json(str(text), structured["result"]) or str(text)
    return str(text)


def render_outcome(
    outcome: dict[str, Any],
    settings: Settings,
    timeout_ms: int,
    code: str = "",
    tool_calls: Sequence[dict[str, Any]] | None = None,
    session: dict[str, Any] | None = None,
    pictures: Shown | None = None,
) -> ToolResult:
    """Turn a worker outcome into the tool result: readable text plus the structured object.

    ``tool_calls`` (for ``execute_js_with_tools``) are the upstream calls the code made, as ``toolCalls``; in the
    text they are listed only when one did not succeed or the run failed, and a result JSON holds exactly is shown
    as one line of JSON (code mode's results are read by a model that pays for every token);
    ``session`` describes the session the call ran in (see ``sandbox_server.sessions``); ``pictures`` holds the
    images ``display()`` showed, which follow the text (an image that could not be shown fails the call).
    """
    structured: dict[str, Any] = {
        key: outcome[key]
        for key in (
            "ok",
            "result",
            "resultText",
            "resultType",
            "stdout",
            "stderr",
            "truncated",
            "omittedBytes",
            "durationMs",
            "async",
            "error",
        )
        if key in outcome
    }
    structured.setdefault("stdout", "")
    structured.setdefault("stderr", "")
    structured.setdefault("truncated", False)
    structured.setdefault("durationMs", 0)
    structured.setdefault("error", None)
    if pictures is not None and pictures.failure is not None and structured["error"] is None:
        structured["error"] = {"kind": "runtime", "name": "DisplayError", "message": pictures.failure, "line": None,
                               "column": None}  # fmt: skip
    structured["ok"] = bool(outcome.get("ok")) and structured["error"] is None
    structured["timeoutMs"] = timeout_ms
    if pictures is not None:
        structured["images"] = pictures.entries

    parts: list[str] = []
    failure = structured["error"]
    if failure is not None:
        parts.append("Error: " + _error_message(failure, settings, timeout_ms))
        hint = hint_for(
            failure, code, data_folder=settings.data_dir is not None, upstream=settings.upstream is not None
        )
        if hint is not None:
            failure["hint"] = hint
            parts.append("Hint: " + hint)
    else:
        shortened = bool(outcome.get("resultShortened"))
        shown = _result_text(structured, shortened, compact=tool_calls is not None)
        result = _labelled("Result", shown)
        whole_string = structured.get("resultType") == "string" and shown == structured.get("result")
        if shortened and "result" in structured and not whole_string:
            result += "\n(the text above is shortened; the full value is in the structured result)"
        parts.append(result)
    if structured["stdout"]:
        parts.append("stdout:\n" + fenced(structured["stdout"]))
    if structured["stderr"]:
        parts.append("stderr:\n" + fenced(structured["stderr"]))
    if structured["truncated"]:
        parts.append(
            f"(output truncated to {settings.output_cap_bytes} bytes; {structured.get('omittedBytes', 0)} bytes "
            "left out: print less, or summarise before printing)"
        )
    if pictures is not None and pictures.lines:
        parts.append("\n".join(pictures.lines))
    if session is not None:
        structured["session"] = session
        parts.append(_session_line(session))
    if tool_calls is not None:
        structured["toolCalls"] = list(tool_calls)
        # After a run that succeeded with every call answered, the result says what the calls gave and toolCalls
        # lists them; the line is kept whenever the model must know: a call that failed, was refused, declined or
        # cancelled (even one the code caught), or a run that failed after calls that may have changed something.
        if any(call.get("outcome") != "ok" for call in tool_calls) or (tool_calls and failure is not None):
            parts.append(_calls_line(tool_calls))
    text = "\n\n".join(parts)
    answer = error(text, structured) if failure is not None else ok(text, structured)
    if pictures is not None and pictures.images:
        answer = replace(answer, images=tuple(pictures.images))
    return answer


def _calls_line(calls: Sequence[dict[str, Any]]) -> str:
    """``Tool calls (3): github.search_issues ok x2, slack.post declined``: each server.tool and outcome, counted."""
    counts: dict[tuple[str, str], int] = {}
    for call in calls:
        key = (f"{call['server']}.{call['tool']}", str(call["outcome"]))
        counts[key] = counts.get(key, 0) + 1
    shown = [f"{name} {outcome}" + (f" x{count}" if count > 1 else "") for (name, outcome), count in counts.items()]
    if len(shown) > 12:
        shown = [*shown[:12], f"and {len(shown) - 12} more"]
    return f"Tool calls ({len(calls)}): " + ", ".join(shown)


def _session_line(session: dict[str, Any]) -> str:
    """``Session "sales": call 3, 42 s old, heap 4.2 MiB at its start; continue it with session "h.v1...".`` (or
    that it is new, rebuilt, or that this call was not applied)."""
    name, handle = session["name"], session["handle"]
    follow = f'continue it with session: "{handle}"'
    heap = session["heapBytes"] / 2**20
    if "reset" in session and not session["created"]:
        return f'Session "{name}": {session["reset"]} (call {session["calls"]}); {follow}.'
    if session["created"]:
        started = f" ({session['reset']})" if "reset" in session else ""
        return (
            f'Session "{name}": new{started}; its top-level declarations and globals stay for the next calls: {follow}.'
        )
    rebuilt = ", rebuilt from its journal" if session.get("rebuilt") else ""
    age = f"{session['ageS']:.0f} s old"
    return f'Session "{name}": call {session["calls"]}, {age}, heap {heap:.1f} MiB at its start{rebuilt}; {follow}.'
