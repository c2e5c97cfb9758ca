"""The JavaScript each measurement runs. Real-work snippets generate their own data, so that moving input
into the engine does not dominate, and end in a small result, so that moving output out does not either."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ONE_PLUS_ONE", "PRINTS", "WORK", "Snippet", "memory_snippet"]

ONE_PLUS_ONE = "1+1"

PRINTS = """\
for (let i = 1; i <= 5; i++) console.log('line', i, { i, square: i * i });
'done'"""


@dataclass(frozen=True, slots=True)
class Snippet:
    """A named piece of real work."""

    key: str
    label: str
    code: str


WORK = (
    Snippet(
        "sum",
        "sum 1e6 numbers",
        """\
const xs = new Array(1e6);
for (let i = 0; i < xs.length; i++) xs[i] = (i * 7919) % 1000;
let total = 0;
for (const x of xs) total += x;
total""",
    ),
    Snippet(
        "json",
        "JSON parse + stringify, ~1 MB",
        """\
const items = [];
for (let i = 0; i < 12000; i++) {
  items.push({ id: i, name: 'item ' + i, tags: ['red', 'green'], price: i * 1.25, stock: i % 7 === 0 });
}
const text = JSON.stringify({ items });
const copy = JSON.parse(text);
copy.items.length + ':' + JSON.stringify(copy).length""",
    ),
    Snippet(
        "sort",
        "sort 1e5 numbers with a comparator",
        """\
const xs = new Array(1e5);
let seed = 1;
for (let i = 0; i < xs.length; i++) { seed = (seed * 16807) % 2147483647; xs[i] = seed; }
xs.sort((a, b) => a - b);
xs[0] + ':' + xs[xs.length - 1]""",
    ),
    Snippet(
        "regex",
        "regex over 1 MB of text",
        """\
const lines = [];
for (let i = 0; i < 17500; i++) {
  lines.push('order ' + i + ' shipped on 2024-0' + (1 + i % 9) + '-1' + (i % 10) + ' to user' + i + '@example.com');
}
const text = lines.join('\\n');
let count = 0;
for (const m of text.matchAll(/(\\w+)@(\\w+)\\.com/g)) if (m[1].endsWith('7')) count++;
text.length + ':' + count""",
    ),
)


def memory_snippet(i: int) -> str:
    """A different small program for each call, as a model would send: objects, output and a result."""
    return (
        f"const row = {{ id: {i}, values: Array.from({{ length: 50 }}, (_, k) => k * {i}) }};\n"
        "console.log(row.id, row.values.slice(0, 3));\n"
        "row.values.reduce((a, b) => a + b, 0)"
    )
