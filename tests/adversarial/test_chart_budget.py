"""Heavy charts cannot hold a call past its timeout_ms, nor hold other calls' charts: the work a specification asks for
is estimated and refused before it is drawn, a call's charts share what its code left of timeout_ms, and charts take
turns at the one renderer.

The attack these reproduce: eight ``display()`` calls of a 3,000,000-row Vega-Lite sequence with ``timeout_ms: 5000``
took 52-84 s, each chart running the renderer to its kill or a memory crash, while another call's tiny chart waited
up to 13.5 s.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import anyio
import mcp_types as types
import pytest
from anyio import wait_all_tasks_blocked
from mcp import Client

from sandbox_server import build_server
from sandbox_server.charts import Renderer, RenderError, RenderLimits
from sandbox_server.charts.sanitize import check_item
from sandbox_server.server import App
from sandbox_server.tools.images import show

from ..charts.support import BAR, requires_charts, running_renderer
from ..conftest import make_settings
from .test_chart_attacks import SLOW_SVG

pytestmark = [pytest.mark.anyio, requires_charts]

MODES = [pytest.param("auto", id="2026-07-28"), pytest.param("legacy", id="2025-11-25")]
CALL_WAIT_S = 60
"""Upper bound of one call here, far above what each needs once fixed (a chart's cap is 3 s)."""

SEQUENCE_POINTS = """
for (let i = 0; i < 8; i++) display({ data: { sequence: { start: 0, stop: 3000000, as: 'x' } }, mark: 'point',
  encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'x', type: 'quantitative' } } });
'drawn'
"""


def sequence(stop: float, step: float | None = None) -> dict[str, Any]:
    generator: dict[str, Any] = {"start": 0, "stop": stop, "as": "x"}
    if step is not None:
        generator["step"] = step
    return {"data": {"sequence": generator}}


SMALL_CHART = f"display({json.dumps(BAR)}); 1"
POINTS = {"mark": "point", "encoding": {"x": {"field": "x", "type": "quantitative"}}}
HISTOGRAM = {"mark": "bar", "encoding": {"x": {"field": "x", "bin": True}, "y": {"aggregate": "count"}}}


@pytest.fixture(scope="module")
async def renderer() -> AsyncIterator[Renderer]:
    async with running_renderer() as started:
        yield started


@pytest.mark.parametrize(
    ("kind", "spec", "message"),
    [
        pytest.param("vega-lite", {**sequence(3_000_000), **POINTS},
                     "3,000,000 rows (made by data.sequence), more than the 1,000,000", id="sequence-3e6"),
        pytest.param("vega-lite", {**sequence(1, 1e-7), **HISTOGRAM}, "10,000,000 rows", id="sequence-tiny-step"),
        pytest.param("vega-lite", {**sequence(30_000), **POINTS},
                     "about 30,000 marks (counted as points; a point mark counts 1), more than the 20,000",
                     id="points-3e4"),
        pytest.param("vega-lite", {**sequence(6_000), "mark": "text", "encoding": {"text": {"field": "x"}}},
                     "about 24,000 marks (counted as points; a text mark counts 4)", id="text-marks"),
        pytest.param("vega-lite", {**sequence(300_000), "mark": "line"}, "a line mark counts 0.1", id="line-3e5"),
        pytest.param("vega-lite", {**sequence(5_000), "repeat": ["a", "b", "c", "d", "e"], "spec": POINTS},
                     "about 25,000 marks", id="repeat-multiplies"),
        pytest.param("vega-lite", {**sequence(5_000), "repeat": {"row": ["a", "b"]}, "spec": {
                      "repeat": {"column": ["c", "d"]}, "spec": {"layer": [POINTS, POINTS]}}},
                     "about 40,000 marks", id="nested-repeats-and-layers"),
        pytest.param("vega-lite", {**sequence(400_000), "transform": [{"fold": ["x", "y", "z"]}], **HISTOGRAM},
                     "1,200,000 rows (made by the fold transform)", id="fold"),
        pytest.param("vega-lite", {"data": {"values": [{"k": 1}]}, "transform": [{"impute": "v", "key": "k",
                      "keyvals": {"start": 0, "stop": 5e6}}], **HISTOGRAM},
                     "5,000,001 rows (made by the impute transform)", id="impute-keyvals"),
        pytest.param("vega-lite", {"datasets": {"t": [{"x": 1}] * 30_000}, "data": {"name": "t"}, **POINTS},
                     "about 30,000 marks", id="named-dataset"),
        pytest.param("vega-lite", {**sequence(10, 0), **POINTS}, "may not have a step of 0", id="step-zero"),
        pytest.param("vega", {"data": [{"name": "t", "transform": [{"type": "sequence", "start": 0, "stop": 5e6}]}]},
                     "5,000,000 rows (made by the sequence transform of dataset 't')", id="vega-sequence"),
        pytest.param("vega", {"signals": [{"name": "n", "value": 5e6}], "data": [{"name": "t", "transform": [
                      {"type": "sequence", "start": 0, "stop": {"signal": "n"}}]}]}, "5,000,000 rows",
                     id="vega-sequence-signal"),
        pytest.param("vega", {"signals": [{"name": "n", "update": "5e6"}], "data": [{"name": "t", "transform": [
                      {"type": "sequence", "start": 0, "stop": {"signal": "n"}}]}]},
                     "must have plain numbers for start, stop and step", id="vega-sequence-expression"),
        pytest.param("vega", {"data": [{"name": "t", "values": list(range(2_000)), "transform": [{"type": "cross"}]}]},
                     "4,000,000 rows (made by the cross transform", id="vega-cross"),
        pytest.param("vega", {"data": [{"name": "t", "values": list(range(30_000))}],
                      "marks": [{"type": "symbol", "from": {"data": "t"}}]}, "about 30,000 marks", id="vega-symbols"),
        pytest.param("vega", {"data": [{"name": "t", "values": list(range(10))}], "marks": [{"type": "group",
                      "marks": [{"type": "group", "data": [{"name": "u", "transform": [
                       {"type": "sequence", "start": 0, "stop": 30_000}]}],
                       "marks": [{"type": "symbol", "from": {"data": "u"}}]}]}]},
                     "about 30,002 marks (counted as points; a symbol mark counts 1)", id="vega-nested-group"),
        pytest.param("vega", {"data": [{"name": "t", "values": [[0, 1]], "transform": [
                      {"type": "kde2d", "size": [2000, 2000], "x": "0", "y": "1"}]}]},
                     "4,000,001 rows (the grid of the kde2d transform",
                     id="vega-kde2d-grid"),
    ],
)  # fmt: skip
def test_a_chart_that_asks_for_too_much_work_is_refused_before_it_is_drawn_naming_the_limit(
    kind: str, spec: dict[str, Any], message: str
) -> None:
    with pytest.raises(RenderError) as caught:
        check_item({"kind": kind, "spec": spec}, RenderLimits())
    assert message in caught.value.message


@pytest.mark.parametrize(
    "spec",
    [
        pytest.param({**sequence(1_000_000), **HISTOGRAM}, id="histogram-of-1e6-rows"),
        pytest.param({**sequence(15_000), **POINTS}, id="scatter-of-15000-points"),
        pytest.param({**sequence(150_000), "mark": "line"}, id="line-of-150000-vertices"),
        pytest.param({**sequence(100_000), "mark": "point", "encoding": {"x": {"field": "x", "type": "nominal"},
                      "y": {"aggregate": "mean", "field": "x"}}}, id="aggregated-view-uncounted"),
    ],
)  # fmt: skip
def test_charts_within_the_work_limits_pass_the_check(spec: dict[str, Any]) -> None:
    check_item({"kind": "vega-lite", "spec": spec}, RenderLimits())


async def test_a_histogram_of_a_million_generated_rows_is_drawn() -> None:
    # About 0.6 s on an idle machine; a renderer of its own with a roomy time cap keeps a loaded one from failing it.
    async with running_renderer(timeout_s=30.0) as patient:
        with anyio.fail_after(CALL_WAIT_S):
            rendered = await patient.render({"kind": "vega-lite", "spec": {**sequence(1_000_000), **HISTOGRAM}})
    assert rendered.width > 0 and "bar chart" in rendered.description


@dataclass(frozen=True, slots=True)
class Served:
    client: Client
    renderer: Renderer


@pytest.fixture(scope="module", params=MODES)
async def served(request: pytest.FixtureRequest) -> AsyncIterator[Served]:
    """A server with charts, and a client of one revision (both revisions, in turn)."""
    app = App.create(make_settings())
    async with Client(build_server(app=app), mode=request.param) as client:
        assert app.renderer is not None
        yield Served(client, app.renderer)


async def test_eight_charts_of_three_million_rows_are_refused_at_once_and_the_renderer_keeps_serving(
    served: Served,
) -> None:
    await served.renderer.wait_ready()
    pid = served.renderer.pid
    with anyio.fail_after(CALL_WAIT_S):
        result = await served.client.call_tool("execute_js", {"code": SEQUENCE_POINTS, "timeout_ms": 5000})
    assert result.is_error is True and result.structured_content is not None
    entries = result.structured_content["images"]
    assert len(entries) == 8
    assert all("more than the 1,000,000 one chart may hold or generate" in entry["error"] for entry in entries)
    assert served.renderer.pid == pid  # refused in the server: the render process never saw them
    with anyio.fail_after(CALL_WAIT_S):
        small = await served.client.call_tool("execute_js", {"code": SMALL_CHART})
    assert small.is_error is not True
    assert [type(block) for block in small.content] == [types.TextContent, types.ImageContent]


async def test_timeout_ms_bounds_the_charts_too_the_first_is_stopped_and_the_rest_are_not_started(
    served: Served,
) -> None:
    code = "for (let i = 0; i < 8; i++) display(input); 'shown'"
    await served.renderer.wait_ready()
    pid = served.renderer.pid
    # Unfixed, each of the eight ran to the renderer's own limit: 8 x 10 s, past this bound.
    with anyio.fail_after(CALL_WAIT_S / 2):
        result = await served.client.call_tool("execute_js", {"code": code, "input": SLOW_SVG, "timeout_ms": 2000})
    assert result.is_error is True and result.structured_content is not None
    first, *rest = (entry["error"] for entry in result.structured_content["images"])
    assert "the call's time limit (timeout_ms" in first and "while this chart was being drawn" in first
    assert len(rest) == 7 and all("before this chart could be drawn" in message for message in rest)
    assert served.renderer.pid not in (None, pid)  # the late render was killed, and a new process started at once
    with anyio.fail_after(CALL_WAIT_S):
        after = await served.client.call_tool("execute_js", {"code": SMALL_CHART})
    assert after.is_error is not True


async def test_a_call_whose_charts_take_their_full_time_lets_another_calls_chart_go_between_them() -> None:
    """Charts take turns: the other call's chart is drawn after at most one of the heavy call's three."""
    finished: list[str] = []
    async with running_renderer(timeout_s=1.0) as impatient:

        async def heavy() -> None:
            displays = json.dumps([{"kind": "svg", "data": SLOW_SVG}] * 3)
            shown = await show(displays, impatient, RenderLimits().max_pixels, anyio.current_time() + CALL_WAIT_S)
            assert shown.failure is not None and len(shown.entries) == 3
            assert all("took longer than 1 s to render" in entry["error"] for entry in shown.entries)
            finished.append("heavy")

        async def light() -> None:
            displays = json.dumps([{"kind": "vega-lite", "data": json.dumps(BAR)}])
            shown = await show(displays, impatient, RenderLimits().max_pixels, anyio.current_time() + CALL_WAIT_S)
            assert shown.failure is None and len(shown.images) == 1
            finished.append("light")

        with anyio.fail_after(CALL_WAIT_S):
            async with anyio.create_task_group() as group:
                group.start_soon(heavy)
                await wait_all_tasks_blocked()  # the heavy call's first chart is being drawn
                group.start_soon(light)
    assert finished == ["light", "heavy"]


async def test_a_chart_stopped_after_rendering_for_long_hands_over_to_a_spare_started_beside_it() -> None:
    async with running_renderer(timeout_s=2.0) as impatient:
        first = impatient.pid
        with anyio.fail_after(CALL_WAIT_S), pytest.raises(RenderError, match="took longer than 2 s"):
            await impatient.render({"kind": "svg", "svg": SLOW_SVG})
        stopped_at = anyio.current_time()
        successor = impatient._process
        assert successor is not None and successor.pid != first
        # Started a second into the chart, not after it was stopped: the next chart need not wait for a fresh start.
        assert successor.started_at < stopped_at - 0.5
        with anyio.fail_after(CALL_WAIT_S):
            rendered = await impatient.render({"kind": "vega-lite", "spec": BAR})
        assert rendered.width > 0 and impatient.pid == successor.pid


async def test_a_caller_out_of_time_while_the_renderer_starts_leaves_it_starting_for_the_next_chart() -> None:
    renderer = Renderer(RenderLimits())
    try:
        await renderer.start()
        pid = renderer.pid
        with anyio.fail_after(CALL_WAIT_S), pytest.raises(RenderError) as caught:
            await renderer.render({"kind": "vega-lite", "spec": BAR}, deadline=anyio.current_time() + 0.05)
        assert "while the chart renderer was starting" in caught.value.message
        with anyio.fail_after(CALL_WAIT_S):
            rendered = await renderer.render({"kind": "vega-lite", "spec": BAR})
        assert rendered.width > 0 and renderer.pid == pid  # the same process: not killed for the caller's hurry
    finally:
        await renderer.aclose()


async def test_a_chart_asked_for_after_its_calls_time_ran_out_is_refused_without_reaching_the_renderer(
    renderer: Renderer,
) -> None:
    await renderer.wait_ready()
    pid = renderer.pid
    with pytest.raises(RenderError, match="ran out before this chart could be drawn"):
        await renderer.render({"kind": "vega-lite", "spec": BAR}, deadline=anyio.current_time() - 1)
    assert renderer.pid == pid
