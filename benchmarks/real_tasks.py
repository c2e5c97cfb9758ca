"""Five multi-step tasks against real MCP servers, each written two ways, for :mod:`benchmarks.real_tokens`.

Each way is what a model would write, having read what it is shown: one tool call at a time, reading each result
before the next (:attr:`Task.direct`, which reads the real results the way the model would, to choose its next
call), or one ``execute_js_with_tools`` program (:attr:`Task.code`). Both end in the same :attr:`Task.answer`, the
model's final words, made from the value each way reached; the run fails when the values differ.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from benchmarks.real_data import REGIONS

__all__ = ["TASKS", "Calls", "Task", "comparable"]


class Calls(Protocol):
    """The direct side's way of calling tools: each call is written, then its result's text is read."""

    async def call(self, server: str, tool: str, arguments: dict[str, Any]) -> str: ...

    async def together(self, server: str, calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
        """Several calls written in one turn (a model's parallel tool calls), then their results read."""
        ...


@dataclass(frozen=True, slots=True)
class Task:
    """One task: what the user asks, which servers it needs, and both ways of doing it."""

    key: str
    question: str
    servers: tuple[str, ...]
    tools: tuple[str, ...]
    """The ``server.tool`` names the code calls, for a ``$describe`` turn when the description lists names only."""
    code: Callable[[str], str]
    """The program, given the data folder's path."""
    direct: Callable[[Calls, str], Awaitable[Any]]
    """The calls one at a time, given the data folder's path; the value the model reads off the last results."""
    answer: Callable[[Any], str]
    """The final answer, from the value."""
    value: Callable[[Any], Any] = lambda value: value
    """What code mode's result means as a value (by default, itself)."""


def comparable(value: Any) -> str:
    """A value's canonical JSON: keys sorted, numbers as floats rounded to cents (JSON has one number type)."""

    def fix(item: Any) -> Any:
        if isinstance(item, int | float) and not isinstance(item, bool):
            return round(float(item), 2)
        if isinstance(item, dict):
            return {str(key): fix(inner) for key, inner in item.items()}
        if isinstance(item, list | tuple):
            return [fix(inner) for inner in item]
        return item

    return json.dumps(fix(value), sort_keys=True)


# 1. server-memory: record a newcomer, then read the team back from the graph.

_NEWCOMER = {"name": "Hedy", "entityType": "person", "observations": ["role: frequency-hopping inventor"]}
_NEW_RELATIONS = [
    {"from": "Hedy", "to": "Kernel", "relationType": "works_on"},
    {"from": "Radia", "to": "Hedy", "relationType": "mentors"},
]


async def _memory_direct(calls: Calls, folder: str) -> Any:
    await calls.call("memory", "create_entities", {"entities": [_NEWCOMER]})
    await calls.call("memory", "create_relations", {"relations": _NEW_RELATIONS})
    project = json.loads(await calls.call("memory", "open_nodes", {"names": ["Kernel"]}))
    names = [r["from"] for r in project["relations"] if r["to"] == "Kernel" and r["relationType"] == "works_on"]
    team = json.loads(await calls.call("memory", "open_nodes", {"names": names}))
    return {
        "team": sorted(([e["name"], "; ".join(e["observations"])] for e in team["entities"]), key=",".join),
        "mentors": sorted(
            ([r["from"], r["to"]] for r in team["relations"] if r["relationType"] == "mentors"
             and r["from"] in names and r["to"] in names),
            key=",".join,
        ),
    }  # fmt: skip


def _memory_code(folder: str) -> str:
    return """\
const m = tools.memory;
await m.create_entities({
  entities: [{ name: 'Hedy', entityType: 'person', observations: ['role: frequency-hopping inventor'] }],
});
await m.create_relations({
  relations: [
    { from: 'Hedy', to: 'Kernel', relationType: 'works_on' },
    { from: 'Radia', to: 'Hedy', relationType: 'mentors' },
  ],
});
const { relations } = await m.open_nodes({ names: ['Kernel'] });
const names = relations.filter((r) => r.to === 'Kernel' && r.relationType === 'works_on').map((r) => r.from);
const team = await m.open_nodes({ names });
({
  team: team.entities.map((e) => [e.name, e.observations.join('; ')]).sort(),
  mentors: team.relations
    .filter((r) => r.relationType === 'mentors' && names.includes(r.from) && names.includes(r.to))
    .map((r) => [r.from, r.to]).sort(),
})"""


def _memory_answer(value: Any) -> str:
    team = "; ".join(f"{name} ({role.removeprefix('role: ')})" for name, role in value["team"])
    pairs = ", ".join(f"{a} mentors {b}" for a, b in value["mentors"])
    return f"Hedy is recorded on Kernel. The Kernel team: {team}. Mentoring within the team: {pairs}."


# 2. server-filesystem: find the sales files, read them all, total by region and by file.


def _sales_totals(paths: list[str], contents: list[str]) -> Any:
    totals: dict[str, float] = {}
    by_file: dict[str, float] = {}
    for path, content in zip(paths, contents, strict=True):
        for line in content.strip().split("\n")[1:]:
            _date, region, amount = line.split(",")
            totals[region] = totals.get(region, 0.0) + float(amount)
            by_file[path] = by_file.get(path, 0.0) + float(amount)
    file, total = max(by_file.items(), key=lambda item: item[1])
    return {"totals": {region: round(totals[region], 2) for region in sorted(totals)}, "file": file, "total": total}


def _under_sales(value: Any) -> Any:
    """The largest file named from the sales folder on, as the answer names it (each world has its own folder)."""
    return {**value, "file": value["file"].split("/sales/", 1)[-1]}


_HEADER = re.compile(r"^(/[^\n]*\.csv):\n", re.MULTILINE)


async def _files_direct(calls: Calls, folder: str) -> Any:
    found = await calls.call("filesystem", "search_files", {"path": f"{folder}/sales", "pattern": "**/*.csv"})
    paths = [line for line in found.split("\n") if line.strip()]
    text = await calls.call("filesystem", "read_multiple_files", {"paths": paths})
    # Each file comes as "PATH:\nCONTENT", files separated by "---" lines.
    parts = _HEADER.split(text)[1:]
    read = dict(zip(parts[0::2], (part.split("\n---\n")[0] for part in parts[1::2]), strict=True))
    return _under_sales(_sales_totals(paths, [read[path] for path in paths]))


def _files_code(folder: str) -> str:
    return f"""\
const fs = tools.filesystem;
const found = await fs.search_files({{ path: '{folder}/sales', pattern: '**/*.csv' }});
const paths = found.content.split('\\n').filter(Boolean);
const files = await Promise.all(paths.map((path) => fs.read_text_file({{ path }})));
const totals = {{}}, byFile = {{}};
files.forEach(({{ content }}, i) => {{
  for (const line of content.trim().split('\\n').slice(1)) {{
    const [, region, amount] = line.split(',');
    totals[region] = (totals[region] ?? 0) + +amount;
    byFile[paths[i]] = (byFile[paths[i]] ?? 0) + +amount;
  }}
}});
const [file, total] = Object.entries(byFile).sort((a, b) => b[1] - a[1])[0];
const r = (x) => Math.round(x * 100) / 100;
({{ totals: Object.fromEntries(Object.entries(totals).sort().map(([k, v]) => [k, r(v)])), file, total: r(total) }})"""


def _files_answer(value: Any) -> str:
    totals = ", ".join(f"{region} {value['totals'][region]:.2f}" for region in REGIONS if region in value["totals"])
    return f"Totals by region: {totals}. The largest file is {value['file']} with {value['total']:.2f}."


# 3. server-filesystem and mcp-server-sqlite: load a CSV file into a table, aggregate with SQL.

_CREATE = "CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer TEXT, amount REAL)"
_TOP = (
    "SELECT customer, ROUND(SUM(amount), 2) AS total, COUNT(*) AS orders FROM orders "
    "GROUP BY customer ORDER BY total DESC LIMIT 5"
)


def _rows(text: str) -> Any:
    """mcp-server-sqlite's answer to a query: Python's repr of a list of rows, read as the model reads it."""
    return [[row["customer"], row["total"], row["orders"]] for row in ast.literal_eval(text)]


async def _orders_direct(calls: Calls, folder: str) -> Any:
    content = await calls.call("filesystem", "read_text_file", {"path": f"{folder}/orders.csv"})
    rows = [line.split(",") for line in content.strip().split("\n")[1:]]
    await calls.call("sqlite", "create_table", {"query": _CREATE})
    values = ", ".join(f"({order}, '{customer}', {amount})" for order, customer, amount in rows)
    await calls.call("sqlite", "write_query", {"query": f"INSERT INTO orders VALUES {values}"})
    return _rows(await calls.call("sqlite", "read_query", {"query": _TOP}))


def _orders_code(folder: str) -> str:
    return f"""\
const {{ content }} = await tools.filesystem.read_text_file({{ path: '{folder}/orders.csv' }});
const rows = content.trim().split('\\n').slice(1).map((line) => line.split(','));
const db = tools.sqlite;
await db.create_table({{ query: '{_CREATE}' }});
const values = rows.map(([id, c, a]) => `(${{id}}, '${{c}}', ${{a}})`).join(', ');
await db.write_query({{ query: `INSERT INTO orders VALUES ${{values}}` }});
await db.read_query({{ query: '{_TOP}' }})"""


def _orders_answer(value: Any) -> str:
    lines = "; ".join(f"{customer} {total:.2f} over {orders} orders" for customer, total, orders in value)
    return f"Loaded orders.csv into the table orders. The five largest customers: {lines}."


# 4. mcp-server-time: three meeting times in New York, in three other cities.

_TIMES = ("09:00", "12:30", "17:00")
_ZONES = ("Europe/London", "Asia/Tokyo", "Australia/Sydney")


async def _time_direct(calls: Calls, folder: str) -> Any:
    asked = [(time, zone) for time in _TIMES for zone in _ZONES]
    texts = await calls.together(
        "time",
        [("convert_time", {"source_timezone": "America/New_York", "time": t, "target_timezone": z}) for t, z in asked],
    )
    out: dict[str, dict[str, list[str]]] = {}
    for (time, zone), text in zip(asked, texts, strict=True):
        result = json.loads(text)
        out.setdefault(time, {})[zone] = [result["target"]["datetime"][11:16], result["time_difference"]]
    return out


def _time_code(folder: str) -> str:
    return """\
const times = ['09:00', '12:30', '17:00'], zones = ['Europe/London', 'Asia/Tokyo', 'Australia/Sydney'];
const out = {};
await Promise.all(times.flatMap((time) => zones.map(async (zone) => {
  const r = await tools.time.convert_time({ source_timezone: 'America/New_York', time, target_timezone: zone });
  (out[time] ??= {})[zone] = [r.target.datetime.slice(11, 16), r.time_difference];
})));
out"""


def _time_answer(value: Any) -> str:
    lines = []
    for time in _TIMES:
        cities = ", ".join(f"{zone.split('/')[1]} {value[time][zone][0]} ({value[time][zone][1]})" for zone in _ZONES)
        lines.append(f"{time} in New York is {cities}")
    return "; ".join(lines) + "."


# 5. server-everything over Streamable HTTP: a chain of get-sum calls, and structured weather.

_NUMBERS = (3, 9, 14, 27, 41, 58, 60, 72)
_CITIES = ("New York", "Chicago", "Los Angeles")
_SUM = re.compile(r"is (-?[\d.]+)")


async def _everything_direct(calls: Calls, folder: str) -> Any:
    total: float = _NUMBERS[0]
    for number in _NUMBERS[1:]:
        text = await calls.call("everything_http", "get-sum", {"a": total, "b": number})
        found = _SUM.search(text)
        if found is None:
            raise RuntimeError(f"get-sum answered {text!r}")
        total = float(found.group(1))
    texts = await calls.together("everything_http", [("get-structured-content", {"location": c}) for c in _CITIES])
    temperatures = [json.loads(text)["temperature"] for text in texts]
    return {"sum": total, "average": round(sum(temperatures) / len(temperatures), 1)}


def _everything_code(folder: str) -> str:
    numbers = ", ".join(str(n) for n in _NUMBERS[1:])
    return f"""\
const e = tools.everything_http;
let sum = {_NUMBERS[0]};
for (const b of [{numbers}]) sum = Number((await e.get_sum({{ a: sum, b }})).match(/is (-?[\\d.]+)/)[1]);
const cities = await Promise.all(
  ['New York', 'Chicago', 'Los Angeles'].map((location) => e.get_structured_content({{ location }})),
);
({{ sum, average: Math.round(cities.reduce((s, c) => s + c.temperature, 0) / 3 * 10) / 10 }})"""


def _everything_answer(value: Any) -> str:
    return f"The numbers add up to {value['sum']:g}; the average temperature of the three cities is {value['average']}."


TASKS = (
    Task(
        "memory",
        "Record that Hedy (frequency-hopping inventor) joined the Kernel project, mentored by Radia; then list the "
        "Kernel team with roles and the mentoring pairs within it.",
        ("memory",),
        ("memory.create_entities", "memory.create_relations", "memory.open_nodes"),
        _memory_code, _memory_direct, _memory_answer,
    ),
    Task(
        "files",
        "Across the sales CSV files under the data folder's sales/ (any depth): the total amount per region, and "
        "the file with the largest total.",
        ("filesystem",),
        ("filesystem.search_files", "filesystem.read_text_file"),
        _files_code, _files_direct, _files_answer, value=_under_sales,
    ),
    Task(
        "orders",
        "Load orders.csv into a SQLite table `orders`, then with SQL find the five customers with the largest total "
        "amount, with their totals and order counts.",
        ("filesystem", "sqlite"),
        ("filesystem.read_text_file", "sqlite.create_table", "sqlite.write_query", "sqlite.read_query"),
        _orders_code, _orders_direct, _orders_answer, value=_rows,
    ),
    Task(
        "time",
        "Meetings at 09:00, 12:30 and 17:00 New York time: the time in London, Tokyo and Sydney, and the difference.",
        ("time",),
        ("time.convert_time",),
        _time_code, _time_direct, _time_answer,
    ),
    Task(
        "everything",
        "Add 3, 9, 14, 27, 41, 58, 60 and 72 with get-sum, one addition at a time, and give the average temperature "
        "of New York, Chicago and Los Angeles from get-structured-content.",
        ("everything_http",),
        ("everything_http.get-sum", "everything_http.get-structured-content"),
        _everything_code, _everything_direct, _everything_answer,
    ),
)  # fmt: skip
