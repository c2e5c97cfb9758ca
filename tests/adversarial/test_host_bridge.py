"""The host-call bridge, attacked: the one way running code reaches the host (``js_runtime/host.js``, the worker's
``HostBridge``, the pool, the server's ``HostDispatcher``). Floods, oversized and malformed requests, tampering with
the built-ins the bridge uses, calls left pending when the run ends, and two callers at once."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import anyio
import anyio.lowlevel
import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.data.folder import DataFolder
from sandbox_server.data.nodefs import FsBudget, FsService
from sandbox_server.sandbox.protocol import HostCallFailed
from sandbox_server.sandbox.worker.bridge import HostBridge, HostLimits
from sandbox_server.server import App
from sandbox_server.tools.host_calls import HostDispatcher

from ..conftest import make_settings
from ..datafolders import SALES_CSV, hostile_folder
from .conftest import Sandbox

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    with hostile_folder(tmp_path_factory.mktemp("bridge")) as data:
        yield data


@pytest.fixture(scope="module")
async def bridged(folder: Path) -> AsyncIterator[Sandbox]:
    app = App.create(make_settings(data_dir=folder))
    async with Client(build_server(app=app), mode="legacy") as client:
        yield Sandbox(client, app)


async def test_a_flood_of_calls_gets_the_executions_share_and_a_clear_refusal_for_the_rest(bridged: Sandbox) -> None:
    code = """
    const fs = require('fs');
    const all = await Promise.allSettled(Array.from({ length: 5000 }, () => fs.promises.readFile('sales.csv', 'utf8')));
    const refusals = new Set(all.filter((r) => r.status === 'rejected').map((r) => r.reason.message));
    [all.filter((r) => r.status === 'fulfilled').length, [...refusals]]
    """
    call = await bridged.run(code)
    assert call.structured["ok"], call.text
    fulfilled, refusals = call.structured["result"]
    limit = bridged.app.settings.max_tool_calls
    assert fulfilled == limit
    assert len(refusals) == 1 and "max_tool_calls" in refusals[0]
    await bridged.assert_still_serving()


@pytest.mark.parametrize(
    "path",
    [
        "'a'.repeat(2_000_000)",
        "'\\u0000'",
        "{ toString() { return 'sales.csv'; } }",
        "Symbol('x')",
        "12",
        "new Proxy({}, { get() { throw new Error('trap'); } })",
        "'\\ud800.csv'",
    ],
)
async def test_malformed_or_oversized_requests_fail_inside_the_call(bridged: Sandbox, path: str) -> None:
    code = (
        "const fs = require('fs');\nlet r;\n"
        f"try {{ await fs.promises.readFile({path}); r = 'read'; }} catch (e) {{ r = String(e && e.message); }}\nr"
    )
    call = await bridged.run(code)
    assert call.structured["ok"], call.text
    assert call.structured["result"] != "read"
    await bridged.assert_still_serving()


async def test_tampering_with_what_the_bridge_uses_changes_neither_the_request_nor_the_answer(bridged: Sandbox) -> None:
    code = """
    JSON.stringify = () => '{"id":1,"kind":"fs.readFile","payload":{"path":"../outside/secret.txt"}}';
    JSON.parse = () => ({ id: 1, ok: true, value: { base64: 'ZXZpbA==' } });
    for (const key of ['id', 'ok', 'value', 'error', 'kind', 'payload', 'path', 'base64', 'then']) {
      const evil = { __proto__: null, get() { return 'evil'; }, set() {}, configurable: true };
      Object.defineProperty(Object.prototype, key, evil);
    }
    const steal = { __proto__: null, set(v) { globalThis.stolen = v; }, configurable: true };
    Object.defineProperty(Array.prototype, '0', steal);
    Promise.prototype.then = function () { return 'hijacked'; };
    Function.prototype.call = function () { globalThis.called = true; };
    Function.prototype.apply = function () { globalThis.applied = true; };
    String.prototype.slice = () => 'sliced';
    const fs = require('fs');
    const text = await fs.promises.readFile('sales.csv', 'utf8');
    const listed = await fs.promises.readdir('reports');
    delete Object.prototype.then;
    [text, listed, typeof globalThis.stolen]
    """
    call = await bridged.run(code)
    assert call.structured["ok"], call.text
    assert json.dumps(call.structured["result"]) == json.dumps([SALES_CSV, ["2025.json", "deep"], "undefined"])
    assert "outside the folder" not in call.text
    await bridged.assert_still_serving()


@pytest.mark.parametrize(
    ("ending", "kind"),
    [
        ("while (true) {}", "timeout"),
        ("process.exit(0)", None),
        ("process.exit(3)", "runtime"),
        ("throw new Error('gone')", "runtime"),
        ("const a = []; while (true) a.push(new Array(1e5).fill(1));", "memory"),
    ],
)
async def test_calls_pending_when_the_run_ends_end_with_it(bridged: Sandbox, ending: str, kind: str | None) -> None:
    code = f"""
    const fs = require('fs');
    for (let i = 0; i < 40; i++) fs.promises.readFile('sales.csv').catch(() => {{}});
    console.log('started');
    {ending}
    """
    call = await bridged.run(code, timeout_ms=1000)
    assert call.kind == kind, call.text
    if kind in (None, "runtime"):
        assert "started" in call.text
    await bridged.assert_still_serving()


async def test_a_call_made_while_the_result_is_read_after_the_run_cannot_keep_it_going(bridged: Sandbox) -> None:
    code = """
    const fs = require('fs');
    ({ get late() { fs.promises.readFile('sales.csv').then(() => console.log('late answer')); return 1; } })
    """
    call = await bridged.run(code)
    assert call.structured["ok"], call.text
    assert call.structured["result"] == {"late": 1}
    assert "late answer" not in call.text
    await bridged.assert_still_serving()


async def test_two_callers_at_once_each_get_only_their_own_answers(bridged: Sandbox, folder: Path) -> None:
    names = ["sales.csv", "people.tsv", "notes.txt", "reports/2025.json"]
    expected = {name: (folder / name).read_text() for name in names}
    answers: dict[tuple[int, str], object] = {}

    async def ask(round_: int, name: str) -> None:
        code = (
            "const fs = require('fs');\n"
            "const all = await Promise.all(Array.from({ length: 8 }, () =>\n"
            f"  fs.promises.readFile({name!r}, 'utf8')));\n"
            "[...new Set(all)]"
        )
        answers[(round_, name)] = (await bridged.run(code)).structured.get("result")

    for round_ in range(5):
        async with anyio.create_task_group() as group:
            for name in names:
                group.start_soon(ask, round_, name)
    assert answers == {(round_, name): [expected[name]] for round_ in range(5) for name in names}


async def test_kinds_no_service_takes_are_refused_by_the_server_whatever_the_isolate_sends(folder: Path) -> None:
    # Even code that got hold of the runtime's own host-call function reaches only what the server offers.
    data = DataFolder(folder)
    dispatcher = HostDispatcher({"fs": FsService(data, FsBudget(files=10, bytes=1_000_000))})
    for kind in ("tools.call", "fs.writeFile", "fs.unlink", "process.exec", "fs"):
        with pytest.raises(HostCallFailed):
            await dispatcher(kind, {"path": "sales.csv"})
    for path in ("../outside/secret.txt", "/etc/hostname", "link-out", ".env", 7, None):
        with pytest.raises(HostCallFailed):
            await dispatcher("fs.readFile", {"path": path})
    assert await dispatcher("fs.stat", {"path": "sales.csv"}) == {"kind": "file", "size": len(SALES_CSV), "mtimeMs": 0}
    nothing = HostDispatcher({})
    with pytest.raises(HostCallFailed, match="no data folder"):
        await nothing("fs.readFile", {"path": "sales.csv"})


class _Isolate:
    on_host_call = None

    def __init__(self) -> None:
        self.settled: list[dict[str, object]] = []

    async def request(self, name: str, body: str) -> None:
        assert name == "settle"
        self.settled.append(json.loads(body))


async def test_the_worker_passes_on_only_well_formed_requests_within_the_limits() -> None:
    isolate = _Isolate()
    sent: list[dict[str, object]] = []
    limits = HostLimits(calls=2, calls_setting="max_tool_calls", in_flight=1, request_bytes=100)
    bridge = HostBridge(isolate, 7, limits, sent.append)  # type: ignore[arg-type]
    forged = [
        "not json",
        "[1, 2]",
        '{"kind": "fs.readFile"}',
        '{"id": "1", "kind": "fs.readFile"}',
        '{"id": 1, "kind": "fs read; rm -rf"}',
        '{"id": 2, "kind": ""}',
        '{"id": 3, "kind": "fs.readFile", "payload": {"path": "' + "a" * 5000 + '"}}',
    ]
    for text in forged:
        bridge._received(text)
    bridge._received('{"id": 4, "kind": "fs.readFile", "payload": {"path": "a"}}')
    bridge._received('{"id": 5, "kind": "fs.readFile", "payload": {"path": "b"}}')
    bridge._received('{"id": 6, "kind": "fs.readFile", "payload": {"path": "c"}}')
    with anyio.fail_after(5):
        while len(isolate.settled) < 4 or not sent:  # noqa: ASYNC110
            await anyio.sleep(0.01)  # the bridge works in tasks of its own
    refusals = {answer["id"]: answer["error"]["name"] for answer in isolate.settled}  # type: ignore[index]
    assert refusals == {1: "TypeError", 2: "TypeError", 3: "HostCallTooLarge", 6: "HostCallLimit"}
    assert sent == [{"op": "host", "id": 7, "call": 4, "kind": "fs.readFile", "payload": {"path": "a"}}]
    bridge.answered({"call": 4, "ok": True, "value": {"base64": ""}})
    with anyio.fail_after(5):
        while len(sent) < 2:  # noqa: ASYNC110
            await anyio.sleep(0.01)
    assert sent[1]["call"] == 5
    await bridge.close()
    bridge._received('{"id": 8, "kind": "fs.readFile", "payload": {"path": "d"}}')
    await anyio.lowlevel.checkpoint()
    assert len(sent) == 2


async def test_no_module_hands_out_the_object_that_reaches_the_host(bridged: Sandbox) -> None:
    # The modules get the runtime's host object (its `call` is the bridge); with every module loaded, a walk of
    # everything reachable from the global object finds neither that object nor the bridge's own functions.
    code = """
    const ids = ['assert', 'buffer', 'crypto', 'events', 'fs', 'fs/promises', 'path', 'process', 'querystring',
      'string_decoder', 'timers', 'url', 'util'];
    for (const id of ids) require(id);
    const seen = new Set();
    const queue = [globalThis, ...ids.map((id) => require(id))];
    const found = [];
    for (let i = 0; i < queue.length; i++) {
      const value = queue[i];
      if (seen.has(value)) continue;
      seen.add(value);
      const keys = Reflect.ownKeys(value).map(String);
      if (['call', 'seed', 'exit', 'write'].every((k) => keys.includes(k))) found.push(keys.join());
      const native = typeof value === 'function' &&
        /\\{\\s*\\[native code\\]\\s*\\}$/.test(Function.prototype.toString.call(value));
      if (typeof value === 'function' && /^(hostCall|settleHostCall|notify|nodeHost)$/.test(value.name) && !native) {
        found.push(value.name);
      }
      for (const key of Reflect.ownKeys(value)) {
        const { value: held, get, set } = Reflect.getOwnPropertyDescriptor(value, key);
        for (const item of [held, get, set]) {
          if (item !== null && (typeof item === 'object' || typeof item === 'function')) queue.push(item);
        }
      }
      const prototype = Reflect.getPrototypeOf(value);
      if (prototype !== null) queue.push(prototype);
    }
    [seen.size, found]
    """
    call = await bridged.run(code)
    assert call.structured["ok"], call.text
    reached, found = call.structured["result"]
    assert reached > 1500  # the walk did cover the modules (the global object alone reaches about 1,000)
    assert found == []


async def test_a_run_the_worker_gives_no_bridge_is_refused_at_once_and_sends_nothing_out() -> None:
    # Every isolate holds the host notification from its start (handed over with connect). A run whose worker gives
    # it no bridge (a plain execute_js) is refused by the runtime before anything is sent, however the code asks
    # and whatever it changed first, and the run goes on.
    from sandbox_server.sandbox.limits import SandboxLimits
    from sandbox_server.sandbox.worker import job
    from sandbox_server.sandbox.worker.isolate import Isolate

    code = """
    const fs = require('fs');
    const errors = new Map();
    Object.defineProperty(Array.prototype, '0', { set(v) { globalThis.stolen = v; }, configurable: true });
    JSON.stringify = () => '{"id":1,"kind":"tools.call","payload":{}}';
    for (const name of ['a.csv', 'b/c.json']) {
      try { await fs.promises.readFile(name, 'utf8'); } catch (e) { errors.set(name, e.message); }
    }
    delete Array.prototype[0];
    [Array.from(errors.values()), typeof globalThis.stolen, typeof tools]
    """
    limits = SandboxLimits()
    isolate = await Isolate.prepare(limits)
    arrived: list[str] = []
    isolate.on_host_call = arrived.append
    try:
        with anyio.fail_after(10):
            request = {"id": 1, "code": code, "input": "", "timeoutMs": 5000, "dataFolder": True}
            outcome = await job.execute(isolate, request, limits)
    finally:
        isolate.close()
    assert outcome["ok"] is True, outcome
    errors, stolen, tools = outcome["result"]  # type: ignore[misc]
    assert len(errors) == 2 and all("cannot reach the host" in message for message in errors)
    assert (stolen, tools) == ("undefined", "undefined")
    assert arrived == []
