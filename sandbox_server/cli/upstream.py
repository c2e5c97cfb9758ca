"""``sandbox-server --upstream FILE upstream list``: connects to every configured upstream server, as the server
would, and prints what each offers and what code may do with each tool. A way to check a configuration before a
client uses it."""

from __future__ import annotations

import json
import sys

from sandbox_server.settings import Settings
from sandbox_server.upstream.config import ServerConfig, load_upstream_config
from sandbox_server.upstream.directory import Directory
from sandbox_server.upstream.group import Upstreams
from sandbox_server.upstream.policy import decide, effects

__all__ = ["upstream_command"]


def _side_effects(config: ServerConfig) -> str | dict[str, str]:
    if not config.per_tool:
        return config.side_effects
    return {**dict(config.per_tool), "*": config.side_effects}


async def upstream_command(settings: Settings, as_json: bool) -> int:
    """Print each upstream server's state and tools; 1 when no upstream file is configured or none connects."""
    if settings.upstream is None:
        sys.stderr.write("sandbox-server: no upstream servers are configured: pass --upstream FILE\n")
        return 1
    upstreams = Upstreams(
        load_upstream_config(settings.upstream), connect_timeout_s=settings.upstream_connect_timeout_s
    )
    async with upstreams:
        directory = Directory(upstreams)
        report = []
        for upstream in upstreams:
            exposed = directory.exposed(upstream)
            entry: dict[str, object] = {
                "server": upstream.name,
                "state": upstream.state,
                "reason": upstream.reason,
                "transport": upstream.config.transport,
                "sideEffects": _side_effects(upstream.config),
                "ignoredKeys": list(upstream.config.ignored),
                "tools": [
                    {
                        "name": tool.name,
                        "access": decide(upstream.config, tool).access,
                        "effects": effects(tool),
                    }
                    for tool in exposed or ()
                ],
                "hidden": sorted(tool.name for tool in upstream.tools if not upstream.config.exposes(tool.name)),
            }
            report.append(entry)
        annotations = directory.annotations()
    if as_json:
        sys.stdout.write(json.dumps({"servers": report, "annotations": annotations.model_dump(by_alias=True)}) + "\n")
    else:
        for entry in report:
            state = entry["state"] if entry["reason"] is None else f"{entry['state']}: {entry['reason']}"
            policy = json.dumps(entry["sideEffects"])
            sys.stdout.write(f"{entry['server']} ({state}; sideEffects {policy})\n")
            for tool in entry["tools"]:  # type: ignore[attr-defined]
                sys.stdout.write(f"    {tool['name']}: {tool['access']} ({tool['effects']})\n")
            hidden = entry["hidden"]
            if hidden:
                sys.stdout.write(f"    hidden by its tools patterns: {', '.join(hidden)}\n")  # type: ignore[arg-type]
        hints = annotations.model_dump(by_alias=True, exclude_none=True)
        sys.stdout.write("execute_js_with_tools annotations: " + json.dumps(hints) + "\n")
    return 0 if any(entry["state"] == "ready" for entry in report) else 1
