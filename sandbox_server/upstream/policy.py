"""What code may do with each upstream tool, and what ``execute_js_with_tools`` may honestly claim as a result.

A tool's annotations are its server's hints, read as the MCP specification defines their defaults: a tool is
read-only only when it says ``readOnlyHint: true``; a tool that is not read-only may be destructive unless it says
``destructiveHint: false``, and is idempotent only when it says ``idempotentHint: true``. An unannotated tool is
therefore a possibly destructive one. The server's ``sideEffects`` policy decides what happens to a tool that is
not read-only: ``refuse`` (the default), ``confirm`` (the user's consent per call, through elicitation) or
``allow``. ``sideEffects`` may also name tools (``{"read_query": "allow", "write_query": "confirm", "*": "refuse"}``):
a tool it names, by its name or a pattern, gets exactly that, read-only or not, so that a server that annotates
nothing can be opened for its reads and guarded for its writes; ``"*"`` is the policy of the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import mcp_types as types

from sandbox_server.upstream.config import ServerConfig

__all__ = [
    "Access",
    "Decision",
    "ServerTools",
    "combined_annotations",
    "decide",
    "effects",
    "is_read_only",
    "strictest",
]

Access = Literal["call", "confirm", "refuse"]


@dataclass(frozen=True, slots=True)
class Decision:
    """What a call of one exposed tool may do: ``access``, and for a refusal, why (a sentence for the model)."""

    access: Access
    reason: str | None = None


def is_read_only(tool: types.Tool) -> bool:
    """Whether the tool's server says it changes nothing."""
    return tool.annotations is not None and tool.annotations.read_only_hint is True


def _destructive(tool: types.Tool) -> bool:
    if is_read_only(tool):
        return False
    return tool.annotations is None or tool.annotations.destructive_hint is not False


def _idempotent(tool: types.Tool) -> bool:
    if is_read_only(tool):
        return True
    return tool.annotations is not None and tool.annotations.idempotent_hint is True


def _claims(tool: types.Tool) -> tuple[bool, bool, bool, bool]:
    """How much a tool may do, as a key that sorts the tool that may do more higher."""
    annotations = tool.annotations
    open_world = annotations is None or annotations.open_world_hint is not False
    return (not is_read_only(tool), _destructive(tool), not _idempotent(tool), open_world)


def strictest(tools: Iterable[types.Tool]) -> list[types.Tool]:
    """One entry per name, in the order the names first appear.

    A server that lists a name more than once contradicts itself; the entry kept is the one that says the tool may
    do the most (not read-only over read-only, destructive over not, and so on; the first of equals), so that the
    policy decides on the stricter claim and a permissive duplicate can never make a call possible.
    """
    kept: dict[str, types.Tool] = {}
    for tool in tools:
        if tool.name not in kept or _claims(tool) > _claims(kept[tool.name]):
            kept[tool.name] = tool
    return list(kept.values())


def effects(tool: types.Tool) -> str:
    """The tool's annotations in words, for the user asked to consent and for the model."""
    if is_read_only(tool):
        return "read-only"
    if tool.annotations is None:
        return "unannotated: it may change or delete data"
    parts = ["may delete or overwrite data" if _destructive(tool) else "changes data without deleting any"]
    parts.append("idempotent" if _idempotent(tool) else "not idempotent")
    if tool.annotations.open_world_hint is not False:
        parts.append("reaches outside its server")
    return ", ".join(parts)


def decide(config: ServerConfig, tool: types.Tool) -> Decision:
    """What a call of ``tool`` (exposed by ``config``) may do under the server's ``sideEffects`` policy."""
    named = config.named_policy(tool.name)
    if named is not None:
        if named == "refuse":
            return Decision(
                "refuse",
                f'{config.name}.{tool.name} is refused by the upstream configuration (its "sideEffects" names it '
                '"refuse"); only the user can change that',
            )
        return Decision("call" if named == "allow" else "confirm")
    if is_read_only(tool) or config.side_effects == "allow":
        return Decision("call")
    if config.side_effects == "confirm":
        return Decision("confirm")
    where = 'its "sideEffects" is "refuse"' if not config.per_tool else 'its "sideEffects" has "*": "refuse"'
    return Decision(
        "refuse",
        f"{config.name}.{tool.name} is not annotated read-only (readOnlyHint) and server {config.name!r} refuses "
        f"tools with side effects ({where}); the user can allow it or ask for consent in the upstream "
        'configuration ("sideEffects": "confirm", "allow", or by tool name)',
    )


@dataclass(frozen=True, slots=True)
class ServerTools:
    """One server's policy and the tools it exposes, or None when they are not known (the server is not reachable)."""

    config: ServerConfig
    tools: Sequence[types.Tool] | None


def combined_annotations(servers: Iterable[ServerTools]) -> types.ToolAnnotations:
    """The annotations of a tool whose code can call every tool these servers let it call.

    Read-only only if every callable tool is; destructive if any may be; idempotent only if all are; always open
    world. A server whose tools are unknown counts, unless it refuses side effects, as one that may be destructive:
    whatever it lists once it answers becomes callable.
    """
    read_only = True
    destructive = False
    idempotent = True
    for server in servers:
        if server.tools is None:
            if server.config.problem is not None:
                continue  # never started: it has no tools to call
            if server.config.side_effects != "refuse" or any(
                access != "refuse" for _, access in server.config.per_tool
            ):
                read_only, destructive, idempotent = False, True, False
            continue
        for tool in server.tools:
            if decide(server.config, tool).access == "refuse":
                continue
            read_only = read_only and is_read_only(tool)
            destructive = destructive or _destructive(tool)
            idempotent = idempotent and _idempotent(tool)
    return types.ToolAnnotations(
        read_only_hint=read_only,
        destructive_hint=destructive,
        idempotent_hint=idempotent,
        open_world_hint=True,
    )
