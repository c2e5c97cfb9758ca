"""The project's exception tree.

Everything raised on purpose inside ``sandbox_server`` derives from :class:`SandboxServerError`::

    SandboxServerError
    ├── ToolError            a tool's own domain error; the server turns it into an ``isError`` result
    │   └── ArgumentError    the arguments did not validate against the tool's input schema
    │       └── PathRefused  a name does not lead to a readable file inside the data folder
    ├── ConfigurationError   a setting has a value that cannot be used; raised at start-up
    ├── ConsentUnavailable   the user cannot be asked to allow an action
    ├── ConsentPending       the user must be asked, and the run pauses until the client retries with the answer
    ├── PackageError         an npm package could not be added, read or verified (see sandbox_server.packages)
    │   └── TamperedPackage  a stored package file no longer matches what its lock recorded
    └── SandboxError         the JavaScript execution machinery itself failed
        └── PoolClosedError  a job was submitted to a worker pool that is shut down

What a model did wrong is data, not a crash: ``ToolError`` carries a message written for the model, and the
server answers with a tool result whose ``isError`` is true. Only protocol misuse (an unknown tool name) is a
JSON-RPC error.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "ArgumentError",
    "ConfigurationError",
    "ConsentPending",
    "ConsentUnavailable",
    "PackageError",
    "PathRefused",
    "PoolClosedError",
    "SandboxError",
    "SandboxServerError",
    "TamperedPackage",
    "ToolError",
]


class SandboxServerError(Exception):
    """Base class of every error this package raises on purpose."""


class ToolError(SandboxServerError):
    """A tool could not produce an answer for a reason the caller can fix; the message says how.

    ``structured`` optionally holds a JSON object sent as the result's ``structuredContent``; it is only
    set by tools whose output schema also describes failures.
    """

    def __init__(self, message: str, *, structured: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.structured = structured


class ArgumentError(ToolError):
    """The arguments of a tool call did not validate against the tool's input schema."""

    def __init__(self, message: str, *, problems: list[str]) -> None:
        super().__init__(message)
        self.problems = problems


class PathRefused(ArgumentError):
    """A file name or pattern does not lead to a readable file inside the data folder; the message says why."""

    def __init__(self, message: str) -> None:
        super().__init__(message, problems=[message])


class ConfigurationError(SandboxServerError):
    """A setting (flag or environment variable) has a value the server cannot use."""


class PackageError(SandboxServerError):
    """An npm package could not be resolved, downloaded, checked, stored or read; the message says which and why."""


class TamperedPackage(PackageError):
    """A stored package file (or its index) no longer has the digest its lock recorded when it was added."""


class ConsentUnavailable(SandboxServerError):
    """The user cannot be asked to allow an action: the client offers no elicitation, or the transport has no way
    to reach it. The message says which, as the end of a sentence."""


class ConsentPending(SandboxServerError):
    """A call needs the user's consent, and the answer can only come with the client's retry of the whole request
    (MCP 2026-07-28's ``input_required``): the run pauses there. ``question`` is what the user is asked."""

    def __init__(self, question: str) -> None:
        super().__init__(question)
        self.question = question


class SandboxError(SandboxServerError):
    """The JavaScript execution machinery failed in a way no single job explains."""


class PoolClosedError(SandboxError):
    """A job was submitted after the worker pool was shut down."""

    def __init__(self) -> None:
        super().__init__("the JavaScript worker pool is shut down")
