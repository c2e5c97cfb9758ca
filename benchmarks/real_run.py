"""The servers and sessions of the study ``real_tokens`` (:mod:`benchmarks.real_tokens`): four fresh worlds of the
same data, one for the direct client, one for the sandbox-servers configured with each task's servers, and one for
each sandbox-server configured with all seven (listing signatures, listing names); every transcript is made of the
texts the servers really answered.

``python -m benchmarks --only real_tokens`` runs it (it installs the servers on first use: see
:mod:`benchmarks.real_servers`).
"""

from __future__ import annotations

import json
import secrets
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp import Client, StdioServerParameters

from benchmarks.code_mode import TOOL, text_of
from benchmarks.real_data import write_world
from benchmarks.real_servers import SERVERS, Installed, World, everything_over_http, install
from benchmarks.real_tasks import TASKS, Task
from benchmarks.real_tokens import (
    LISTINGS,
    Tally,
    check_answers,
    describe_code,
    lists_signatures,
    markdown,
    tally,
)
from benchmarks.stdio_server import CallFailed, RunningServer, running_server, server_env
from benchmarks.tokens import Transcript, call_text, encoding, visible
from sandbox_server.upstream.directory import SIGNATURES_BUDGET_CHARS

__all__ = ["BUDGETED", "run"]

BUDGETED = (
    "import sandbox_server.upstream.directory as d; d.SIGNATURES_BUDGET_CHARS = {budget}; "
    "from sandbox_server.cli import main; main()"
)
"""sandbox-server as ``python -m sandbox_server`` runs it, with another signatures budget: 0 makes its description
list names, as for any catalogue past ``SIGNATURES_BUDGET_CHARS``; a huge one makes it list every signature."""
EVERY_SIGNATURE = 10**9


class DirectCalls:
    """The direct side of one task: tool calls written as name and arguments, each real result read."""

    def __init__(self, clients: dict[str, Client], transcript: Transcript) -> None:
        self.clients = clients
        self.transcript = transcript
        self.made = 0

    async def _call(self, server: str, tool: str, arguments: dict[str, Any]) -> str:
        result = await self.clients[server].call_tool(tool, arguments)
        self.made += 1
        if result.is_error:
            raise CallFailed(f"{server}.{tool} failed: {text_of(result)[:500]}")
        return text_of(result)

    async def call(self, server: str, tool: str, arguments: dict[str, Any]) -> str:
        self.transcript.add("tool calls written", "write", call_text(tool, arguments))
        text = await self._call(server, tool, arguments)
        self.transcript.add("tool results read", "read", text)
        return text

    async def together(self, server: str, calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
        for tool, arguments in calls:
            self.transcript.add("tool calls written", "write", call_text(tool, arguments))
        texts = [await self._call(server, tool, arguments) for tool, arguments in calls]
        for text in texts:
            self.transcript.add("tool results read", "read", text)
        return texts


def _parameters(entry: dict[str, Any]) -> StdioServerParameters | str:
    if "url" in entry:
        return str(entry["url"])
    return StdioServerParameters(command=entry["command"], args=entry["args"], env=entry.get("env"))


async def _listed(client: Client) -> list[types.Tool]:
    tools: list[types.Tool] = []
    cursor: str | None = None
    while True:
        page = await client.list_tools(cursor=cursor)
        tools.extend(page.tools)
        if not page.next_cursor:
            return tools
        cursor = page.next_cursor


def _config(world: World, installed: Installed, url: str, servers: tuple[str, ...], folder: Path) -> Path:
    """An ``mcpServers`` file with ``servers``, each allowed its side effects (the tasks write a graph and a table)."""
    entries = world.commands(installed, url)
    path = folder / f"upstream-{len(list(folder.iterdir()))}.json"
    config = {"mcpServers": {name: {**entries[name], "sideEffects": "allow"} for name in servers}}
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def _listing_chars(description: str) -> int:
    """The characters of the upstream listing, the part of the description that ``SIGNATURES_BUDGET_CHARS`` bounds."""
    return len(description) - description.index("\ntools") - 1


def _without_listing(tool: types.Tool) -> types.Tool:
    """``tool`` with its description cut before the upstream listing: what every code-mode listing costs."""
    description = tool.description or ""
    return tool.model_copy(update={"description": description[: description.index("\ntools")]})


async def _code_tool(sandbox: RunningServer) -> types.Tool:
    return next(tool for tool in (await sandbox.client.list_tools()).tools if tool.name == TOOL)


async def _code_mode(sandbox: RunningServer, task: Task, folder: str, describe: bool) -> tuple[Transcript, Any, int]:
    transcript = Transcript([])
    transcript.add(f"{TOOL} listing read", "read", visible(await _code_tool(sandbox)))
    steps = [("`$describe` turn", describe_code(task))] if describe else []
    calls = 0
    for part, code in [*steps, ("the task's code", task.code(folder))]:
        transcript.add(f"{part}: call written", "write", call_text(TOOL, {"code": code}))
        result = await sandbox.client.call_tool(TOOL, {"code": code})
        outcome = result.structured_content or {}
        made = outcome.get("toolCalls", [])
        if result.is_error or not outcome.get("ok") or any(call.get("outcome") != "ok" for call in made):
            raise CallFailed(f"{TOOL} failed on {task.key}, {part}: {text_of(result)[:800]}")
        transcript.add(f"{part}: result read", "read", text_of(result))
        calls += len(made)
    value = outcome["result"]
    transcript.add("final answer written", "write", task.answer(task.value(value)))
    return transcript, value, calls


@asynccontextmanager
async def _budgeted(config: Path, budget: int) -> AsyncIterator[RunningServer]:
    env = {**server_env(), "SANDBOX_UPSTREAM": str(config)}
    script = BUDGETED.format(budget=budget)
    parameters = StdioServerParameters(command=sys.executable, args=["-c", script], env=env)
    async with Client(parameters, mode="legacy") as client:
        yield RunningServer(client, None)


async def _measure(installed: Installed, root: Path, count: Any) -> tuple[list[Tally], list[str]]:
    # Names of one length, so that the paths in programs and results cost the same tokens in every world.
    worlds = {name: World(root / f"w-{name}".ljust(10, "-")) for name in ("direct", "code", "signature", "names")}
    for world in worlds.values():
        write_world(world.folder)
    notes: list[str] = []
    async with everything_over_http(installed) as url, AsyncExitStack() as stack:
        entries = worlds["direct"].commands(installed, url)
        clients = {
            name: await stack.enter_async_context(Client(_parameters(entries[name]), mode="legacy")) for name in SERVERS
        }
        listed = {name: await _listed(client) for name, client in clients.items()}
        desktop = sum(count(visible(tool)) for tools in listed.values() for tool in tools)
        directs: dict[str, tuple[Transcript, Any, int]] = {}
        for task in TASKS:
            transcript = Transcript([])
            for server in task.servers:
                for tool in listed[server]:
                    transcript.add(LISTINGS, "read", visible(tool))
            calls = DirectCalls(clients, transcript)
            value = await task.direct(calls, str(worlds["direct"].files))
            transcript.add("final answer written", "write", task.answer(value))
            directs[task.key] = (transcript, value, calls.made)
        codes: dict[str, tuple[Transcript, Any, int]] = {}
        sizes: dict[str, int] = {}
        fixed = 0
        for task in TASKS:
            config = _config(worlds["code"], installed, url, task.servers, root)
            async with running_server(SANDBOX_UPSTREAM=str(config)) as sandbox:
                code_tool = await _code_tool(sandbox)
                sizes[task.key] = _listing_chars(code_tool.description or "")
                fixed = count(visible(_without_listing(code_tool)))
                codes[task.key] = await _code_mode(sandbox, task, str(worlds["code"].files), describe=False)
        alls: dict[str, dict[str, tuple[Transcript, Any, int]]] = {"signatures": {}, "names": {}}
        listing = 0
        for style, budget, world in (("signatures", EVERY_SIGNATURE, "signature"), ("names", 0, "names")):
            async with _budgeted(_config(worlds[world], installed, url, SERVERS, root), budget) as sandbox:
                description = (await _code_tool(sandbox)).description or ""
                if lists_signatures(description) != (style == "signatures"):
                    raise CallFailed(f"with a signatures budget of {budget} the description does not list {style}")
                if style == "signatures":
                    listing = _listing_chars(description)
                for task in TASKS:
                    folder = str(worlds[world].files)
                    alls[style][task.key] = await _code_mode(sandbox, task, folder, describe=style == "names")
    tallies = []
    for task in TASKS:
        (direct, value, made), (code, code_value, code_calls) = directs[task.key], codes[task.key]
        check_answers(task, value, code_value)
        signatures, names = alls["signatures"][task.key], alls["names"][task.key]
        check_answers(task, value, signatures[1])
        check_answers(task, value, names[1])
        counted = tally(task.key, direct, desktop, code, signatures[0], names[0], count)
        counted.default_names = listing > SIGNATURES_BUDGET_CHARS
        counted.calls = {"direct": made, "code": code_calls, "signatures": signatures[2], "names": names[2]}
        tallies.append(counted)
    rendered = sum(t.parts["code"].get("the task's code: result read", 0) for t in tallies)
    compact = sum(count(json.dumps(codes[task.key][1], separators=(",", ":"))) for task in TASKS)
    tool_count = sum(len(tools) for tools in listed.values())
    notes += [
        "Answers agree: yes, for every task, each way (the run fails otherwise).",
        "The listing of each task's servers in code mode: "
        + ", ".join(f"{key} {chars:,}" for key, chars in sizes.items())
        + " characters of signatures.",
        f"Code mode's results as read: {rendered:,} tokens over the five tasks (the values alone, as compact JSON: "
        f"{compact:,}).",
        f"The fixed part of `{TOOL}`'s listing (its description without the upstream tools, and its input schema), "
        f"in every code-mode count: {fixed:,} tokens.",
        f"The desktop listing: every tool of the seven servers ({tool_count} tools, {desktop:,} tokens as "
        "name, title, description and input schema JSON). The per-task listing: every tool of the servers the task "
        "uses.",
        f"All seven servers: their compact signatures take {listing:,} characters, "
        + ("within" if listing <= SIGNATURES_BUDGET_CHARS else "past")
        + f" `SIGNATURES_BUDGET_CHARS` ({SIGNATURES_BUDGET_CHARS:,}), so `{TOOL}`'s description lists "
        + ("their signatures." if listing <= SIGNATURES_BUDGET_CHARS else "tool names only.")
        + " Both styles are measured, each on a sandbox-server whose budget is set in its process (to 0 for names, "
        "to 10^9 for signatures); with names, each task first makes a call with `$describe` of the tools it uses, "
        "and that turn is counted. The target against the desktop listing is judged on the style the budget picks.",
        "Measured: every text the model reads (listings; results as their text content, what a client shows). "
        "Modelled: what it writes (each call as its name and arguments JSON; the program; the final answer in the "
        f"same words each way). Not counted: the system prompt, the user's request, and the listings of "
        f"sandbox-server's other tools (only `{TOOL}`'s is counted).",
    ]
    return tallies, notes


@contextmanager
def _folder() -> Iterator[Path]:
    """A new folder for the run's worlds, removed after it. Its paths are in the calls and results of both ways, so its
    name is nine random digits, which the tokenizers cut in threes: every run counts the same tokens (letters, as
    ``tempfile`` picks them, moved the totals by dozens of tokens from one run to the next)."""
    while True:
        path = Path(tempfile.gettempdir()) / f"real-tokens-{secrets.randbelow(10**9):09d}"
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            continue
        break
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


async def run() -> tuple[str, dict[str, Any], bool]:
    """The study's Markdown, its figures, and whether it failed (a server could not be had, or answers differ)."""
    found = encoding()
    if found is None:
        return "real_tokens: skipped, no tokenizer (install bpe-openai).\n", {}, True
    name, encode = found
    installed, reason = install()
    if installed is None:
        return f"real_tokens: could not install the servers: {reason}\n", {}, True
    with _folder() as directory:
        tallies, notes = await _measure(installed, directory, lambda text: len(encode(text)))
    figures = {
        "encoding": name,
        "tasks": {
            t.key: {"direct": t.direct, "desktop": t.desktop, "code": t.code, "signatures": t.signatures,
                    "names": t.names, "code_all": t.code_all, "parts": t.parts, "turns": t.turns, "calls": t.calls}
            for t in tallies
        },
    }  # fmt: skip
    return markdown(tallies, {task.key: task for task in TASKS}, name, notes), figures, False
