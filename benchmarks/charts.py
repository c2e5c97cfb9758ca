"""Section 18: what showing a chart costs. A sandbox-server of its own (with the ``charts`` extra installed) answers
``execute_js`` calls that ``display()`` a Vega-Lite bar chart, an SVG, or nothing; the first chart after the
server started, warm charts, and the bytes each adds to the result. Then what the per-chart limits cost: a call
whose eight charts are refused by their estimated work, a small chart right after a late chart had its render
process killed (the restart it waits for), and a small chart of one call while another call's chart runs into
the per-chart time cap (the fairness bound, as measured).

``python -m benchmarks --only charts [--quick]`` runs the section alone.
"""

from __future__ import annotations

import base64
import time

import anyio
import mcp_types as types

from benchmarks.model import Row, Section
from benchmarks.plan import Plan
from benchmarks.progress import Progress
from benchmarks.stdio_server import running_server
from sandbox_server.charts import charts_available

__all__ = ["BAR_CHART", "HEAVY_CHARTS", "SLOW_SVG", "SVG", "measure"]

BAR_CHART = """
display({ $schema: 'https://vega.github.io/schema/vega-lite/v5.json', width: 300, height: 200,
  data: { values: Array.from({ length: 12 }, (_, i) => ({ month: i + 1, sales: (i * 37) % 50 + 10 })) },
  mark: 'bar', encoding: { x: { field: 'month', type: 'ordinal' }, y: { field: 'sales', type: 'quantitative' } } });
12
"""
SVG = """
display('<svg xmlns="http://www.w3.org/2000/svg" width="240" height="100"><rect width="240" height="100" ' +
  'fill="#f2f2f2"/><text x="20" y="60" font-size="32" fill="#333">total: 42</text></svg>');
1
"""
PLAIN = "12"
HEAVY_CHARTS = """
for (let i = 0; i < 8; i++) display({ data: { sequence: { start: 0, stop: 3000000, as: 'x' } }, mark: 'point',
  encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'x', type: 'quantitative' } } });
8
"""
SLOW_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><defs><filter id="b">'
    '<feGaussianBlur stdDeviation="200"/><feMorphology radius="60"/></filter></defs>'
    '<rect width="2000" height="2000" fill="#3366cc" filter="url(#b)"/></svg>'
)
"""An SVG within every size limit that takes the rasteriser minutes: only the time limits stop it."""


async def _timed(server: object, code: str) -> tuple[float, int]:
    client = server.client  # type: ignore[attr-defined]
    started = time.perf_counter()
    result: types.CallToolResult = await client.call_tool("execute_js", {"code": code})
    elapsed = (time.perf_counter() - started) * 1000
    if result.is_error:
        raise RuntimeError("a chart call failed: " + " ".join(getattr(b, "text", "") for b in result.content)[:300])
    size = sum(len(base64.b64decode(b.data)) for b in result.content if isinstance(b, types.ImageContent))
    return elapsed, size


async def _failing(server: object, arguments: dict[str, object]) -> float:
    """Milliseconds of a call whose images are expected to fail (its error result is the point)."""
    client = server.client  # type: ignore[attr-defined]
    started = time.perf_counter()
    result: types.CallToolResult = await client.call_tool("execute_js", arguments)
    if not result.is_error:
        raise RuntimeError("a chart expected to be refused or stopped was drawn")
    return (time.perf_counter() - started) * 1000


async def _limits(server: object, count: int) -> list[Row]:
    """The rows of what the per-chart limits cost."""
    refused = [await _failing(server, {"code": HEAVY_CHARTS, "timeout_ms": 5000}) for _ in range(count)]
    after_kill: list[float] = []
    behind: list[float] = []
    for _ in range(max(1, count // 3)):
        await _failing(server, {"code": "display(input); 1", "input": SLOW_SVG, "timeout_ms": 1000})
        after_kill.append((await _timed(server, BAR_CHART))[0])
        async with anyio.create_task_group() as group:
            group.start_soon(_failing, server, {"code": "display(input); 1", "input": SLOW_SVG, "timeout_ms": 30000})
            await anyio.sleep(0.3)  # the late chart has been handed to the renderer
            behind.append((await _timed(server, BAR_CHART))[0])
    return [
        Row("charts_refused", "8 charts of a 3,000,000-row sequence, refused by their estimated work, whole call", "ms",
            refused, note="timeout_ms 5000; once 52-84 s"),
        Row("charts_after_kill", "bar chart right after a late chart's render process was killed, whole call", "ms",
            after_kill, note="the spare started beside the late chart takes over"),
        Row("charts_behind_cap", "bar chart while another call's chart runs into the per-chart cap, whole call",
            "ms", behind, note="started 0.3 s into that chart; the fairness bound, measured"),
    ]  # fmt: skip


async def measure(plan: Plan, progress: Progress) -> Section:
    """Section 18; skipped with a note when the charts extra is not installed."""
    section = Section("charts", "18. Charts: display() of a Vega-Lite chart and of an SVG, first and warm")
    if not charts_available():
        section.notes.append("skipped: the charts extra (vl-convert-python, defusedxml) is not installed")
        return section
    count = max(plan.latency_iterations // 3, 5)
    progress.section(section.title)
    async with running_server() as server:
        first_ms, first_bytes = await _timed(server, BAR_CHART)  # the renderer may still be warming up
        plain: list[float] = []
        bars: list[float] = []
        svgs: list[float] = []
        bar_bytes = svg_bytes = 0
        bar = progress.bar("charts", count)
        for _ in range(count):
            plain.append((await _timed(server, PLAIN))[0])
            elapsed, bar_bytes = await _timed(server, BAR_CHART)
            bars.append(elapsed)
            elapsed, svg_bytes = await _timed(server, SVG)
            svgs.append(elapsed)
            bar.advance()
        bar.close()
        limit_rows = await _limits(server, max(plan.latency_iterations // 10, 3))
    section.rows += [
        Row("charts_plain", "execute_js with no display() (the same data)", "ms", plain),
        Row("charts_first", "first Vega-Lite bar chart after the server started, whole call", "ms", [first_ms],
            note=f"{first_bytes} bytes of PNG"),
        Row("charts_bar", "Vega-Lite bar chart (300x200), warm, whole call", "ms", bars,
            note=f"{bar_bytes} bytes of PNG"),
        Row("charts_svg", "SVG with text (240x100), warm, whole call", "ms", svgs, note=f"{svg_bytes} bytes of PNG"),
        *limit_rows,
    ]  # fmt: skip
    for key in ("charts_first", "charts_bar", "charts_svg"):
        section.compare(key, "charts_plain", short="no display()")
    for key in ("charts_after_kill", "charts_behind_cap"):
        section.compare(key, "charts_bar", short="a warm bar chart")
    section.notes.append(
        "The renderer is a supervised process of its own, started with the server; its first chart is drawn in the "
        "background at start-up, so the first call pays it only when it comes within about a second of the start."
    )
    return section
