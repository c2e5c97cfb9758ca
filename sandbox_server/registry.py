"""The tool registry: what a tool is, as the server publishes and calls it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import mcp_types as types

from sandbox_server.icons import tool_icons
from sandbox_server.results import InputRequired, ToolResult

__all__ = [
    "PURE_COMPUTATION",
    "CallContext",
    "Consent",
    "Handler",
    "ProgressReporter",
    "Registry",
    "RequestKey",
    "Resume",
    "ToolSpec",
    "pure",
    "request_key",
]

# Annotations for tools that only compute: they read nothing, change nothing, give the same answer for the same
# arguments and reach nothing outside the server. The spec's defaults are the opposite, so they must be explicit.
PURE_COMPUTATION = types.ToolAnnotations(
    read_only_hint=True,
    destructive_hint=False,
    idempotent_hint=True,
    open_world_hint=False,
)


class ProgressReporter(Protocol):
    """Sends ``notifications/progress`` for the current request; does nothing when the caller asked for none."""

    async def __call__(self, progress: float, total: float | None = None, message: str | None = None) -> None: ...


async def _no_progress(progress: float, total: float | None = None, message: str | None = None) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Resume:
    """A call that resumes a run paused for the user's consent (MCP 2026-07-28): its request state as this server
    sealed it (the SDK has unsealed and checked it), and the answers the client brought (``inputResponses``)."""

    state: str
    responses: dict[str, Any] = field(default_factory=dict)


RequestKey = tuple[str, int | str]
"""A JSON-RPC request id with its type (``1`` and ``"1"`` are different requests)."""


def request_key(request_id: object) -> RequestKey | None:
    """The key of a JSON-RPC request id, or None for what is not one (MCP ids are strings or integers)."""
    if type(request_id) is int or type(request_id) is str:
        return (type(request_id).__name__, request_id)
    return None


@dataclass(frozen=True, slots=True)
class CallContext:
    """Per-call facilities a tool handler may use."""

    report_progress: ProgressReporter = _no_progress
    progress_requested: bool = False
    """Whether the caller asked for progress notifications (sent a progress token)."""
    consent: Consent | None = None
    """Asks the caller's user to allow one action (MCP elicitation); None when the user cannot be asked."""
    no_consent_reason: str = "this client cannot be asked for consent"
    """Why ``consent`` is None, as the end of a sentence."""
    pausable: bool = False
    """Whether the user is asked by pausing the run and answering ``input_required`` (MCP 2026-07-28): the client
    calls again with the answer, and the run resumes from its journal."""
    resume: Resume | None = None
    """The paused run this call resumes, if it resumes one."""
    owner: object | None = None
    """Who may name sessions for this call (its client); None where the caller is not known (stateless HTTP): a
    session name then starts a session, and only its handle continues it."""
    request: RequestKey | None = None
    """The call's request, where its id names it among the calls that may have started early (stdio's one client)."""


class Consent(Protocol):
    """Asks the user a yes-or-no question through the client: ``accept``, ``decline`` or ``cancel``.

    Raises ``ConsentUnavailable`` (from ``sandbox_server.errors``) when the question cannot reach the user.
    """

    async def __call__(self, message: str) -> Literal["accept", "decline", "cancel"]: ...


Handler = Callable[[dict[str, Any], CallContext], Awaitable[ToolResult | InputRequired]]
"""A tool implementation: validated arguments in, a result out (or the questions to ask first). Raise ``ToolError``
for domain errors."""


def pure(function: Callable[[dict[str, Any]], ToolResult]) -> Handler:
    """Adapt a synchronous, fast, side-effect-free function into a tool handler."""

    async def handler(arguments: dict[str, Any], context: CallContext) -> ToolResult:
        return function(arguments)

    handler.__name__ = getattr(function, "__name__", "handler")
    handler.__doc__ = function.__doc__
    return handler


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """Everything the server needs to publish and run one tool.

    Attributes:
        name: Protocol name (``A-Za-z0-9_-.``).
        title: Human-readable display name.
        description: Written for a model: when and why to use the tool, with one example.
        input_schema: JSON Schema 2020-12 object schema; arguments are validated against it before ``handler``.
        output_schema: JSON Schema of ``structuredContent`` for successful results.
        handler: The implementation.
        icon: File stem of the tool's icon in ``sandbox_server/icons``.
        annotations: Behaviour hints for clients.
        structure_argument_error: For tools whose output schema also describes failures: builds the
            ``structuredContent`` of an argument-validation failure from its message and problems.
        check: The tool's own checks of single arguments, run beside the schema's when the schema finds problems,
            so that one answer names them all; returns one message per problem.
        refresh: For a tool whose description and annotations follow the state of other servers: gives them as
            they are now, each time the tool is listed.
        instruction: The tool's line in the server's instructions (``- name: instruction``): when a model should
            use it, in one sentence or two; empty for a tool the instructions do not name.
    """

    name: str
    title: str
    description: str
    input_schema: Mapping[str, Any]
    output_schema: Mapping[str, Any]
    handler: Handler
    icon: str
    annotations: types.ToolAnnotations = field(default_factory=lambda: PURE_COMPUTATION)
    structure_argument_error: Callable[[str, list[str]], dict[str, Any]] | None = None
    check: Callable[[dict[str, Any]], list[str]] | None = None
    refresh: Callable[[], tuple[str, types.ToolAnnotations]] | None = None
    instruction: str = ""

    def to_mcp(self) -> types.Tool:
        """The protocol's description of this tool, as ``tools/list`` publishes it."""
        description, annotations = self.refresh() if self.refresh is not None else (self.description, self.annotations)
        return types.Tool(
            name=self.name,
            title=self.title,
            description=description,
            input_schema=dict(self.input_schema),
            output_schema=dict(self.output_schema),
            annotations=annotations.model_copy(update={"title": self.title}),
            icons=tool_icons(self.icon),
        )


class Registry:
    """An ordered, name-unique collection of tools."""

    def __init__(self, specs: Iterable[ToolSpec] = ()) -> None:
        self._specs: dict[str, ToolSpec] = {}
        for spec in specs:
            self.add(spec)

    def add(self, spec: ToolSpec) -> None:
        """Register a tool; names must be unique."""
        if spec.name in self._specs:
            raise ValueError(f"a tool named {spec.name!r} is already registered")
        self._specs[spec.name] = spec

    def get(self, name: str) -> ToolSpec | None:
        """The tool with this name, or None."""
        return self._specs.get(name)

    def __iter__(self) -> Any:
        return iter(self._specs.values())

    def __len__(self) -> int:
        return len(self._specs)

    def names(self) -> list[str]:
        """Tool names in registration order."""
        return list(self._specs)
