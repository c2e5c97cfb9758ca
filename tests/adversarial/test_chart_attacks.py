"""Charts that try to load from outside, read local files, or exhaust the renderer are refused or stopped.

Every loading attack runs against a web server on 127.0.0.1 that records each request, and must leave it without
one. The server's check refuses most of them before the render process sees them; the render process's own checks
(the SVG that Vega draws, vl-convert's ``allowed_base_urls=[]``) are tested too, by sending it charts directly.
"""

from __future__ import annotations

import base64
import os
import signal
import struct
import subprocess
import sys
import zlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import psutil
import pytest

from sandbox_server import platform
from sandbox_server.charts import Renderer, RenderError
from sandbox_server.charts.sanitize import check_item

from ..charts.support import BAR, decoded, pixels, recording_server, requires_charts, running_renderer

pytestmark = [pytest.mark.anyio, requires_charts]

SVG_OPEN = (
    '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="200" height="100">'
)
MARKER_COLOUR = (255, 0, 0)
UNSIZED = {key: value for key, value in BAR.items() if key not in ("width", "height")}


def png_bytes(width: int, height: int, rgb: tuple[int, int, int] = MARKER_COLOUR) -> bytes:
    """A valid PNG of one colour, made by hand (only its header matters for a size attack)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(min(height, 64)))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


@pytest.fixture(scope="module")
async def renderer() -> AsyncIterator[Renderer]:
    async with running_renderer() as started:
        yield started


@pytest.fixture
def web() -> Iterator[tuple[str, list[str]]]:
    with recording_server() as served:
        yield served


@pytest.fixture(scope="module")
def secret(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A local file the charts must never read: rows with a marker, and a red PNG beside it."""
    folder = tmp_path_factory.mktemp("secret")
    (folder / "rows.json").write_text('[{"a": "SECRET-MARKER", "b": 99}]')
    (folder / "red.png").write_bytes(png_bytes(50, 50))
    return folder


def image_mark(url: str) -> dict[str, Any]:
    return {"data": {"values": [{"u": url}]}, "mark": {"type": "image", "width": 50, "height": 50},
            "encoding": {"url": {"field": "u", "type": "nominal"}}}  # fmt: skip


def data_at(url: str) -> dict[str, Any]:
    return {"data": {"url": url}, "mark": "bar", "encoding": {"x": {"field": "a", "type": "nominal"}}}


def spec_attacks(base: str) -> list[Any]:
    """``(kind, spec, what the message says)`` of each loading attack through a specification."""
    return [
        pytest.param("vega-lite", image_mark(f"{base}/image-mark.png"), "images loaded from a URL", id="image-mark"),
        pytest.param("vega-lite", {"data": {"values": [{}]}, "mark": {"type": "image", "url": f"{base}/mark-url.png"}},
                     "images loaded from a URL", id="image-mark-property"),
        pytest.param("vega-lite", data_at(f"{base}/data.json"), "external data", id="data-url"),
        pytest.param("vega-lite", {"layer": [data_at(f"{base}/layer.json")]}, "external data", id="layer-data-url"),
        pytest.param("vega-lite", {"hconcat": [BAR, {"vconcat": [data_at(f"{base}/concat.json")]}]}, "external data",
                     id="concat-data-url"),
        pytest.param("vega-lite", {"facet": {"row": {"field": "a"}}, "spec": data_at(f"{base}/facet.json")},
                     "external data", id="facet-data-url"),
        pytest.param("vega-lite", {"repeat": ["a"], "spec": data_at(f"{base}/repeat.json")}, "external data",
                     id="repeat-data-url"),
        pytest.param("vega-lite", {**BAR, "transform": [{"lookup": "fruit", "from": {
            "data": {"url": f"{base}/lookup.json"}, "key": "fruit", "fields": ["x"]}}]}, "external data",
                     id="lookup-from-data-url"),
        pytest.param("vega-lite", {**BAR, "encoding": {**BAR["encoding"], "href": {"value": f"{base}/href"}}},
                     "links (href)", id="href-channel"),
        pytest.param("vega-lite", {**BAR, "usermeta": {"embedOptions": {"loader": {"baseURL": base}}}},
                     "load from outside", id="usermeta-embed-options"),
        pytest.param("vega-lite", {**BAR, "background": f"url({base}/background.png)"}, "url(...)",
                     id="background-css-url"),
        pytest.param("vega-lite", {**BAR, "transform": [{"calculate": f"'{base}/expr'", "as": "u"}]},
                     "names a location", id="expression-with-url"),
        pytest.param("vega-lite", {**BAR, "data": {"URL": f"{base}/upper.json"}}, "external data", id="upper-case-key"),
        pytest.param("vega", {"data": [{"name": "t", "url": f"{base}/vega-data.json"}], "marks": []},
                     "external data", id="vega-data-url"),
        pytest.param("vega", {"marks": [{"type": "image", "encode": {"enter": {"url": {"value": f"{base}/v.png"}}}}]},
                     "images loaded from a URL", id="vega-image-mark"),
        pytest.param("vega", {"marks": [{"type": "image", "encode": {"enter": {"url": {"signal": "'x'"}}}}]},
                     "images loaded from a URL", id="vega-image-mark-signal"),
    ]  # fmt: skip


def svg_attacks(base: str) -> list[Any]:
    """``(svg, what the message says)`` of each loading attack through SVG."""
    nested = base64.b64encode(f'<svg xmlns="http://www.w3.org/2000/svg"><image href="{base}/nested"/></svg>'.encode())
    return [
        pytest.param(f'{SVG_OPEN}<image href="{base}/image.png" width="50" height="50"/></svg>', "may only refer",
                     id="image-href"),
        pytest.param(f'{SVG_OPEN}<image xlink:href="{base}/xlink.png" width="50" height="50"/></svg>',
                     "may only refer", id="image-xlink-href"),
        pytest.param(f'{SVG_OPEN}<filter id="f"><feImage href="{base}/feimage.png"/></filter>'
                     '<rect width="50" height="50" filter="url(#f)"/></svg>', "may only refer", id="feImage"),
        pytest.param(f'{SVG_OPEN}<use href="{base}/use.svg#a"/></svg>', "may only refer", id="use-external"),
        pytest.param(f'{SVG_OPEN}<rect width="50" height="50" style="fill: url({base}/css.svg#p)"/></svg>',
                     "url(...)", id="css-url-in-style"),
        pytest.param(f'{SVG_OPEN}<rect width="50" height="50" fill="url({base}/paint.svg#p)"/></svg>',
                     "url(...)", id="css-url-in-attribute"),
        pytest.param(f'{SVG_OPEN}<style>rect {{ fill: url("{base}/style.svg#p") }}</style><rect width="5" '
                     'height="5"/></svg>', "url(...)", id="css-url-in-stylesheet"),
        pytest.param(f'{SVG_OPEN}<style>@import url({base}/import.css);</style></svg>', "@import", id="import-url"),
        pytest.param(f'{SVG_OPEN}<style>@import "{base}/import2.css";</style></svg>', "@import", id="import-string"),
        pytest.param(f'{SVG_OPEN}<style>rect {{ fill: u\\72l({base}/escaped.svg) }}</style></svg>', "escapes",
                     id="css-escape"),
        pytest.param(f'<?xml-stylesheet href="{base}/sheet.css"?>{SVG_OPEN}</svg>', "stylesheet", id="xml-stylesheet"),
        pytest.param(f'<!DOCTYPE svg [<!ENTITY x SYSTEM "{base}/entity">]>{SVG_OPEN}<text>&x;</text></svg>',
                     "DOCTYPE", id="external-entity"),
        pytest.param(f'{SVG_OPEN}<foreignObject><iframe xmlns="http://www.w3.org/1999/xhtml" src="{base}/fo"/>'
                     '</foreignObject></svg>', "<foreignObject>", id="foreign-object"),
        pytest.param(f'{SVG_OPEN}<script>fetch("{base}/script")</script></svg>', "<script>", id="script"),
        pytest.param(f'<svg xmlns="http://www.w3.org/2000/svg" xml:base="{base}/"><image href="a.png"/></svg>',
                     "xml:base", id="xml-base"),
        pytest.param(f'{SVG_OPEN}<a href="{base}/link"><rect width="5" height="5"/></a></svg>', "may only refer",
                     id="link"),
        pytest.param(f'{SVG_OPEN}<image href="data:image/svg+xml;base64,{nested}"/></svg>', "may only refer",
                     id="nested-svg-data-uri"),
        pytest.param(f'{SVG_OPEN}<rect width="5" height="5" onload="fetch(\'{base}/onload\')"/></svg>',
                     "event attributes", id="event-attribute"),
    ]  # fmt: skip


@pytest.mark.parametrize(("kind", "spec", "message"), spec_attacks("http://127.0.0.1:{port}"))
async def test_a_specification_that_would_load_something_is_refused_and_loads_nothing(
    renderer: Renderer, web: tuple[str, list[str]], kind: str, spec: dict[str, Any], message: str
) -> None:
    base, seen = web
    port = base.rsplit(":", 1)[1]
    item = {"kind": kind, "spec": _format(spec, port)}
    with pytest.raises(RenderError) as caught:
        await renderer.render(item)
    assert message in caught.value.message
    assert seen == []


@pytest.mark.parametrize(("svg", "message"), svg_attacks("http://127.0.0.1:{port}"))
async def test_an_svg_that_would_load_something_is_refused_and_loads_nothing(
    renderer: Renderer, web: tuple[str, list[str]], svg: str, message: str
) -> None:
    base, seen = web
    port = base.rsplit(":", 1)[1]
    with pytest.raises(RenderError) as caught:
        await renderer.render({"kind": "svg", "svg": svg.replace("{port}", port)})
    assert message in caught.value.message
    assert seen == []


def _format(value: Any, port: str) -> Any:
    if isinstance(value, str):
        return value.replace("{port}", port)
    if isinstance(value, list):
        return [_format(item, port) for item in value]
    if isinstance(value, dict):
        return {key: _format(item, port) for key, item in value.items()}
    return value


async def direct(renderer: Renderer, kind: str, source: Any) -> dict[str, Any]:
    """Send a chart to the render process without the server's check: what the process's own defences do."""
    field = "svg" if kind == "svg" else "spec"
    async with renderer._lock:  # the one caller that skips the check, for this test only
        return await renderer._exchange({"op": "render", "kind": kind, field: source, "scale": 1.0})


async def test_the_render_process_refuses_an_image_mark_url_the_server_check_did_not_see(
    renderer: Renderer, web: tuple[str, list[str]]
) -> None:
    base, seen = web
    answer = await direct(renderer, "vega-lite", image_mark(f"{base}/direct-image-mark.png"))
    assert answer["op"] == "refused"
    assert "may only refer" in answer["message"]
    assert seen == []


async def test_the_render_process_loads_no_external_data_when_the_server_check_is_skipped(
    renderer: Renderer, web: tuple[str, list[str]]
) -> None:
    base, seen = web
    answer = await direct(renderer, "vega-lite", data_at(f"{base}/direct-data.json"))
    assert answer["op"] in ("failed", "refused")
    assert seen == []


async def test_the_render_process_refuses_an_svg_image_href_the_server_check_did_not_see(
    renderer: Renderer, web: tuple[str, list[str]]
) -> None:
    base, seen = web
    answer = await direct(renderer, "svg", f'{SVG_OPEN}<image href="{base}/direct.png" width="5" height="5"/></svg>')
    assert answer["op"] == "refused"
    assert seen == []


@pytest.mark.parametrize("form", ["file-url", "absolute", "relative"])
async def test_a_local_file_is_never_read(renderer: Renderer, secret: Path, form: str) -> None:
    rows, red = secret / "rows.json", secret / "red.png"
    as_location = {"file-url": Path.as_uri, "absolute": str, "relative": lambda path: os.path.relpath(path, "/")}
    # Were the rows read, their marker would be drawn as a label: the chart would differ from one without data.
    empty = await direct(renderer, "vega-lite", {**data_at(""), "data": {"values": []}})
    for kind, source in [
        ("vega-lite", data_at(as_location[form](rows))),
        ("vega-lite", image_mark(as_location[form](red))),
        ("svg", f'{SVG_OPEN}<image href="{as_location[form](red)}" width="200" height="100"/></svg>'),
        ("svg", f'{SVG_OPEN}<filter id="f"><feImage href="{as_location[form](red)}"/></filter>'
                '<rect width="200" height="100" filter="url(#f)"/></svg>'),
    ]:  # fmt: skip
        field = "svg" if kind == "svg" else "spec"
        with pytest.raises(RenderError) as caught:
            await renderer.render({"kind": kind, field: source})
        assert "SECRET-MARKER" not in caught.value.message
        # The render process's own defences, without the server's check: refused, failed, or drawn without it.
        answer = await direct(renderer, kind, source)
        assert "SECRET-MARKER" not in str(answer)
        if answer["op"] == "rendered":
            assert kind == "vega-lite" and "url" in source["data"]  # vl-convert ignores a data file it may not read
            assert answer["png"] == empty["png"]


def unchecked(script: str, base: str) -> None:
    """Run vl-convert on ``script`` in a process of its own, without any of this package's checks."""
    subprocess.run([sys.executable, "-c", "import sys, vl_convert\n" + script, base], timeout=60, check=False,
                   capture_output=True)  # fmt: skip


@pytest.mark.parametrize(
    ("script", "path"),
    [
        pytest.param("vl_convert.vegalite_to_png({'data': {'values': [{'u': sys.argv[1] + '/mark.png'}]}, "
                     "'mark': 'image', 'encoding': {'url': {'field': 'u'}}}, allowed_base_urls=[])", "/mark.png",
                     id="image-mark-despite-allowed-base-urls"),
        pytest.param("vl_convert.svg_to_png('<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"9\" height=\"9\">"
                     "<image href=\"' + sys.argv[1] + '/svg.png\" width=\"9\" height=\"9\"/></svg>')", "/svg.png",
                     id="svg-image-href"),
    ],
)  # fmt: skip
def test_without_the_checks_the_recording_server_does_see_the_attack(
    web: tuple[str, list[str]], script: str, path: str
) -> None:
    """The control: the traps are real, and the recording server would notice a defence that failed."""
    base, seen = web
    unchecked(script, base)
    assert path in seen


@pytest.mark.parametrize(
    ("item", "message"),
    [
        pytest.param({"kind": "vega-lite", "spec": {**BAR, "width": 100000, "height": 100000}},
                     "the chart would be 100000x100000 pixels, more than 16 megapixels: lower width/height or scale",
                     id="vega-lite-100000"),
        pytest.param({"kind": "svg", "svg": '<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000">'
                      '<rect width="10" height="10"/></svg>'},
                     "the SVG would be 100000x100000 pixels, more than 16 megapixels", id="svg-100000"),
        pytest.param({"kind": "svg", "svg": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100000 100000"/>'},
                     "more than 16 megapixels", id="svg-viewbox-100000"),
        pytest.param({"kind": "svg", "svg": '<svg xmlns="http://www.w3.org/2000/svg" width="100in" height="1in"/>'},
                     "9600x96 pixels, more than 8192 pixels on a side", id="svg-inches"),
        pytest.param({"kind": "svg", "svg": '<svg xmlns="http://www.w3.org/2000/svg" width="9000" height="10"/>'},
                     "more than 8192 pixels on a side", id="svg-too-wide"),
        pytest.param({"kind": "vega-lite", "spec": {**BAR, "width": 3000, "height": 3000}, "scale": 2},
                     "more than 16 megapixels", id="scale"),
        pytest.param({"kind": "vega-lite", "spec": {"hconcat": [BAR] * 40}}, "pixels on a side", id="hconcat"),
        pytest.param({"kind": "vega-lite", "spec": {**UNSIZED, "config": {"view": {"continuousWidth": 100000}}}},
                     "100000x200 pixels", id="config-view"),
        pytest.param({"kind": "vega", "spec": {"signals": [{"name": "width", "value": 100000}], "height": 1000}},
                     "100000x1000 pixels", id="vega-signal"),
        pytest.param({"kind": "vega-lite", "spec": {"data": {"values": [{"a": 1}]}, "mark": "point",
                      "encoding": {"x": {"value": 50000}}}},
                     "the chart would be 50015x30 pixels, more than 8192 pixels on a side", id="mark-outside-view"),
        pytest.param({"kind": "vega-lite", "spec": {**BAR, "encoding": {
                      "x": {"field": "fruit", "type": "nominal"}}, "width": {"step": 5000}}},
                     "pixels on a side", id="step-width"),
    ],
)  # fmt: skip
async def test_a_chart_over_the_pixel_cap_is_refused_before_it_is_drawn(
    renderer: Renderer, item: dict[str, Any], message: str
) -> None:
    with pytest.raises(RenderError) as caught:
        await renderer.render(item)
    assert message in caught.value.message


@pytest.mark.parametrize(
    ("item", "message"),
    [
        pytest.param({"kind": "vega-lite", "spec": {**BAR, "data": {"values": [{"a": "x" * 1000}] * 3000}}},
                     "bytes of JSON, more than 2000000", id="spec-too-long"),
        pytest.param({"kind": "svg", "svg": SVG_OPEN + "<g>" * 300 + "</g>" * 300 + "</svg>"}, "levels deep",
                     id="svg-too-deep"),
        pytest.param({"kind": "svg", "svg": SVG_OPEN + "<desc>" + "x" * 2_100_000 + "</desc></svg>"},
                     "more than 2000000", id="svg-too-long"),
        pytest.param({"kind": "svg", "svg": SVG_OPEN + '<defs><g id="l0"><rect width="1" height="1"/></g>' + "".join(
                      f'<g id="l{n + 1}"><use href="#l{n}"/><use href="#l{n}"/></g>' for n in range(30))
                      + '</defs><use href="#l30"/></svg>'}, "expands", id="use-bomb"),
        pytest.param({"kind": "svg", "svg": SVG_OPEN + '<g id="a"><use href="#a"/></g></svg>'}, "inside itself",
                     id="use-cycle"),
        pytest.param({"kind": "svg", "svg": '<!DOCTYPE s [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;">]>'
                      + SVG_OPEN + "<text>&b;</text></svg>"}, "DOCTYPE", id="entity-expansion"),
        pytest.param({"kind": "svg", "svg": SVG_OPEN + '<image width="10" height="10" href="data:image/png;base64,'
                      + base64.b64encode(png_bytes(50000, 50000)).decode() + '"/></svg>'},
                     "an image embedded in the SVG would be 50000x50000 pixels", id="embedded-png-bomb"),
    ],
)  # fmt: skip
async def test_a_chart_too_large_to_check_or_draw_is_refused(
    renderer: Renderer, item: dict[str, Any], message: str
) -> None:
    with pytest.raises(RenderError) as caught:
        await renderer.render(item)
    assert message in caught.value.message


def test_a_specification_nested_too_deep_is_refused_naming_where() -> None:
    from sandbox_server.charts import RenderLimits

    spec: dict[str, Any] = {"mark": "bar"}
    for _ in range(100):
        spec = {"layer": [spec]}
    with pytest.raises(RenderError, match=r"nested more than 64 levels deep \(at \$\.layer\[0\]"):
        check_item({"kind": "vega-lite", "spec": spec}, RenderLimits())


async def test_an_embedded_data_image_within_the_cap_is_drawn(renderer: Renderer) -> None:
    encoded = base64.b64encode(png_bytes(4, 4)).decode()
    svg = (
        f'{SVG_OPEN}<image width="200" height="100" preserveAspectRatio="none" '
        f'href="data:image/png;base64,{encoded}"/></svg>'
    )
    rendered = await renderer.render({"kind": "svg", "svg": svg})
    assert MARKER_COLOUR in pixels(decoded(rendered.png))


SLOW_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><defs><filter id="b">'
    '<feGaussianBlur stdDeviation="200"/><feMorphology radius="60"/></filter></defs>'
    '<rect width="2000" height="2000" fill="#3366cc" filter="url(#b)"/></svg>'
)
"""An SVG that takes the rasteriser minutes (a morphology filter over a large area), inside one native call."""


async def test_a_render_that_runs_past_the_time_limit_is_killed_and_the_next_render_works() -> None:
    async with running_renderer(timeout_s=1.0) as impatient:
        first = impatient.pid
        with anyio.fail_after(30), pytest.raises(RenderError) as caught:
            await impatient.render({"kind": "svg", "svg": SLOW_SVG})
        assert "took longer than 1 s to render and was stopped" in caught.value.message
        assert first is not None and not psutil.pid_exists(first)  # killed and reaped
        assert impatient.pid not in (None, first)  # and the next process started at once, to warm up meanwhile
        with anyio.fail_after(60):
            rendered = await impatient.render({"kind": "vega-lite", "spec": BAR})
        assert rendered.width > 0 and impatient.pid not in (None, first)


MEMORY_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000"><defs><filter id="b">'
    '<feGaussianBlur stdDeviation="3"/></filter></defs>'
    + '<rect width="4000" height="4000" fill="#3366cc" opacity="0.5" filter="url(#b)"/>' * 3
    + "</svg>"
)
"""Within the pixel cap, but its filters need some hundred megabytes at once."""


@pytest.mark.skipif(platform.NAME == "portable", reason="no operating-system data limit on the portable platform")
async def test_a_render_that_runs_out_of_memory_is_a_render_error_and_the_next_render_works() -> None:
    # The render process starts at about 580 MB of data (vl-convert's V8 and its reservations): 650 leaves little.
    async with running_renderer(memory_mb=650, timeout_s=30) as starved:
        with anyio.fail_after(60), pytest.raises(RenderError) as caught:
            await starved.render({"kind": "svg", "svg": MEMORY_SVG})
        assert "needed more memory than the renderer may use (650 MB)" in caught.value.message
        with anyio.fail_after(60):
            rendered = await starved.render({"kind": "vega-lite", "spec": BAR})
        assert rendered.width > 0


async def test_a_crash_of_the_render_process_is_a_render_error_and_the_next_render_works(renderer: Renderer) -> None:
    await renderer.wait_ready()
    pid = renderer.pid
    assert pid is not None
    busy_from = sum(psutil.Process(pid).cpu_times()[:2])
    caught: list[RenderError] = []

    async def slow() -> None:
        try:
            await renderer.render({"kind": "svg", "svg": SLOW_SVG})
        except RenderError as exc:
            caught.append(exc)

    with anyio.fail_after(60):
        async with anyio.create_task_group() as group:
            group.start_soon(slow)
            # Another process's CPU time: no event tells when it rises, so it is polled (within fail_after).
            while sum(psutil.Process(pid).cpu_times()[:2]) < busy_from + 0.3:  # noqa: ASYNC110
                await anyio.sleep(0.02)
            os.kill(pid, signal.SIGKILL)
    assert len(caught) == 1
    assert "the chart renderer crashed while drawing this chart" in caught[0].message
    with anyio.fail_after(60):
        rendered = await renderer.render({"kind": "vega-lite", "spec": BAR})
    assert rendered.width > 0 and renderer.pid != pid


async def test_a_render_process_that_died_while_idle_is_replaced_without_failing_the_next_chart(
    renderer: Renderer,
) -> None:
    await renderer.wait_ready()
    pid = renderer.pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    with anyio.fail_after(60):
        rendered = await renderer.render({"kind": "vega-lite", "spec": BAR})
    assert rendered.width > 0 and renderer.pid != pid


async def test_a_cancelled_render_does_not_leave_its_answer_for_the_next_chart(renderer: Renderer) -> None:
    await renderer.wait_ready()
    with anyio.move_on_after(0.5):
        await renderer.render({"kind": "svg", "svg": SLOW_SVG})
    with anyio.fail_after(60):
        rendered = await renderer.render({"kind": "vega-lite", "spec": BAR})
    assert "bar chart" in rendered.description


async def test_a_closed_renderer_refuses_charts() -> None:
    async with running_renderer() as closing:
        pid = closing.pid
        await closing.aclose()
        with pytest.raises(RenderError, match="shut down"):
            await closing.render({"kind": "vega-lite", "spec": BAR})
    assert pid is not None and not psutil.pid_exists(pid)
