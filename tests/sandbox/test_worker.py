"""The worker's own rules: which engine failures mean what, where syntax errors are, and who imports the engine."""

from __future__ import annotations

import asyncio
import inspect
import subprocess
import sys

import py_mini_racer
import pytest
from py_mini_racer import _exc as engine_exceptions

import js_runtime
from sandbox_server.sandbox import SandboxLimits
from sandbox_server.sandbox.worker import error_kind, syntax_error_position, v8_flags


def _engine_exception_classes() -> set[type[BaseException]]:
    classes: set[type[BaseException]] = set()
    for module in (py_mini_racer, engine_exceptions):
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__.startswith("py_mini_racer"):
                classes.add(value)
    return classes


def test_every_engine_exception_class_is_mapped_to_an_error_kind() -> None:
    from sandbox_server.sandbox.worker.engine import EXCEPTION_KINDS as _EXCEPTION_KINDS

    classes = _engine_exception_classes()
    assert len(classes) >= 10
    assert classes <= set(_EXCEPTION_KINDS)


@pytest.mark.parametrize(
    ("exception", "kind"),
    [
        pytest.param(py_mini_racer.JSTimeoutException(), "timeout", id="engine-timeout"),
        pytest.param(TimeoutError(), "timeout", id="deadline"),
        pytest.param(py_mini_racer.JSOOMException("limit"), "memory", id="oom"),
        pytest.param(py_mini_racer.JSEvalException("null"), "crashed", id="eval"),
        pytest.param(py_mini_racer.JSPromiseError("x"), "crashed", id="promise"),
        pytest.param(RuntimeError("other"), "crashed", id="unknown"),
    ],
)
def test_an_engine_exception_maps_to_its_error_kind(exception: BaseException, kind: str) -> None:
    assert error_kind(exception, memory_limit_reached=False) == kind


def test_any_exception_after_the_memory_limit_was_reached_is_a_memory_error() -> None:
    # mini-racer reports a heap limit termination as a bare JSEvalException('null').
    assert error_kind(py_mini_racer.JSEvalException("null"), memory_limit_reached=True) == "memory"


@pytest.mark.parametrize(
    ("message", "code", "position"),
    [
        pytest.param(
            "<anonymous>:2: SyntaxError: Unexpected token '*'\nx +* 2\n   ^\n\nSyntaxError: x\n",
            "x +* 2",
            (1, 4),
            id="line-1",
        ),
        pytest.param("<anonymous>:3: SyntaxError: x\n  y(\n    ^^^\n", "a\n  y(", (2, 5), id="line-2"),
        pytest.param("<anonymous>:3: SyntaxError: Unexpected token '}'\n})\n^\n", "foo(", (1, 5), id="past-the-end"),
        pytest.param("<anonymous>:4: SyntaxError: x\n})\n^\n", "a\r\nfoo(", (2, 5), id="crlf-lines"),
        pytest.param("no position here", "x", None, id="unreadable"),
    ],
)
def test_a_syntax_error_position_is_read_from_the_probe_message(
    message: str, code: str, position: tuple[int, int] | None
) -> None:
    assert syntax_error_position(message, code) == position


def test_v8_runs_single_threaded_with_a_heap_ceiling_above_the_memory_limit() -> None:
    flags = v8_flags(SandboxLimits(memory_limit_mb=128))
    assert "--single-threaded" in flags
    (ceiling,) = [flag for flag in flags if flag.startswith("--max-old-space-size=")]
    assert int(ceiling.split("=")[1]) > 128


def test_importing_the_sandbox_package_does_not_import_the_engine() -> None:
    code = "import sys, sandbox_server.sandbox; print('py_mini_racer' in sys.modules)"
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert completed.stdout.strip() == "False"


def test_the_engine_versions_are_reported_by_a_worker() -> None:
    from sandbox_server.sandbox import engine_versions

    versions = engine_versions()
    assert versions["miniRacer"].startswith("0.")
    assert versions["v8"].count(".") >= 2


def test_iterators_are_followed_from_the_start_only_when_code_may_print_one_while_iterating() -> None:
    from sandbox_server.sandbox.worker.options import tracks_iterators as _tracks_iterators

    assert _tracks_iterators("const it = s.values(); for (const v of it) console.log(v, it)")
    assert not _tracks_iterators("[...m.values()].reduce((a, b) => a + b, 0)")
    assert not _tracks_iterators("console.log([...m].length)")


def test_an_isolate_whose_warm_up_fails_gives_way_to_one_without_warm_up_that_runs_the_job(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from sandbox_server.sandbox.worker import isolate as isolate_module
    from sandbox_server.sandbox.worker import job

    # The runtime's warm-up, as every isolate evaluates it, made to report a failure.
    warm_up_run = "text = runJobText(WARM_UP_JOB);"
    runtime = js_runtime.source()
    assert runtime.count(warm_up_run) == 1
    failing = runtime.replace(warm_up_run, "throw new TypeErrorCtor('forced for the test');")
    monkeypatch.setattr(isolate_module.js_runtime, "source", lambda: failing)

    async def scenario() -> dict[str, object]:
        limits = SandboxLimits()
        request = {"id": 1, "code": "6 * 7", "input": "", "timeoutMs": 5000}
        isolate = await isolate_module.Isolate.prepare(limits)
        try:
            return dict(await job.execute(isolate, request, limits))
        finally:
            isolate.close()

    outcome = asyncio.run(scenario())
    assert outcome["ok"] is True and outcome["resultText"] == "42"
    assert "forced for the test" in caplog.text


def test_a_code_mode_warm_up_that_fails_is_logged_and_the_isolate_still_runs_jobs(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from sandbox_server.sandbox.worker import isolate as isolate_module
    from sandbox_server.sandbox.worker import job

    warm_up_run = "text = runJobText(WARM_UP_TOOLS_JOB);"
    deferred = js_runtime.deferred_source()
    assert deferred.count(warm_up_run) == 1
    failing = deferred.replace(warm_up_run, "throw new TypeErrorCtor('forced for the test');")
    monkeypatch.setattr(isolate_module.js_runtime, "deferred_source", lambda: failing)

    async def scenario() -> dict[str, object]:
        limits = SandboxLimits()
        isolate = await isolate_module.Isolate.prepare(limits)
        try:
            await isolate.warm_up_tools()
            request = {"id": 1, "code": "[typeof tools, 6 * 7]", "input": "", "timeoutMs": 5000}
            return dict(await job.execute(isolate, request, limits))
        finally:
            isolate.close()

    outcome = asyncio.run(scenario())
    assert outcome["ok"] is True and outcome["result"] == ["undefined", 42]
    assert "forced for the test" in caplog.text


def test_an_isolate_warmed_up_for_code_mode_has_its_paths_compiled_and_leaves_a_plain_job_nothing_of_it() -> None:
    from sandbox_server.sandbox.worker import isolate as isolate_module
    from sandbox_server.sandbox.worker import job

    code = (
        "[typeof tools, typeof ToolError, 'x'.content,"
        " Object.getOwnPropertyNames(String.prototype).includes('content'), typeof input]"
    )

    async def scenario() -> tuple[object, dict[str, object]]:
        limits = SandboxLimits()
        isolate = await isolate_module.Isolate.prepare(limits)
        try:
            await isolate.warm_up_tools()
            groups = await isolate.request("deferredLoaded")
            request = {"id": 1, "code": code, "input": "", "timeoutMs": 5000}
            return groups, dict(await job.execute(isolate, request, limits))
        finally:
            isolate.close()

    groups, outcome = asyncio.run(scenario())
    assert isinstance(groups, str) and {"tools", "host", "async"} <= set(groups.split(","))
    assert outcome["ok"] is True, outcome
    assert outcome["result"] == ["undefined", "undefined", None, False, "undefined"]


class _LateRequests:
    """A request that arrives 20 ms after the worker starts waiting for it (twenty times its idle threshold here)."""

    def __init__(self) -> None:
        self.arrival: float | None = None

    async def next_run(self) -> dict[str, object]:
        loop = asyncio.get_running_loop()
        if self.arrival is None:
            self.arrival = loop.time() + 0.02
        await asyncio.sleep(max(0.0, self.arrival - loop.time()))
        return {"op": "run", "id": 1}

    def waiting(self) -> bool:
        return False


@pytest.mark.parametrize("fresh", [True, False])
def test_a_worker_left_waiting_compiles_the_common_groups_of_a_fresh_isolate_only(
    monkeypatch: pytest.MonkeyPatch, fresh: bool
) -> None:
    from sandbox_server.sandbox.worker import isolate as isolate_module
    from sandbox_server.sandbox.worker import job, serve

    monkeypatch.setattr(serve, "IDLE_BEFORE_COMPILING_S", 0.001)

    async def scenario() -> tuple[object, object, object, dict[str, object]]:
        limits = SandboxLimits()
        isolate = await isolate_module.Isolate.prepare(limits)
        try:
            before = await isolate.request("deferredLoaded")
            requests = _LateRequests()
            message = await serve._next_run(requests, isolate, compile_when_idle=fresh)  # type: ignore[arg-type]
            after = await isolate.request("deferredLoaded")
            request = {"id": 1, "code": "({ a: [1, 2] })", "input": "", "timeoutMs": 5000}
            return message, before, after, dict(await job.execute(isolate, request, limits))
        finally:
            isolate.close()

    message, before, after, outcome = asyncio.run(scenario())
    assert message == {"op": "run", "id": 1}
    assert before == ""
    expected = set(isolate_module.COMMON_GROUPS) if fresh else set()
    assert isinstance(after, str) and set(after.split(",")) - {""} == expected
    assert outcome["ok"] is True and outcome["resultText"] == "{ a: [ 1, 2 ] }"


class _Waiting:
    """A request that is there already (``waiting``) or that comes at once when asked for."""

    def __init__(self, *, waiting: bool) -> None:
        self._waiting = waiting

    def waiting(self) -> bool:
        return self._waiting

    async def next_run(self) -> dict[str, object]:
        return {"op": "run", "id": 1}


@pytest.mark.parametrize("waiting", [False, True])
def test_a_worker_that_ran_code_mode_jobs_warms_its_fresh_isolate_for_them_unless_a_job_waits(waiting: bool) -> None:
    from sandbox_server.sandbox.worker import isolate as isolate_module
    from sandbox_server.sandbox.worker import serve

    async def scenario() -> tuple[object, object]:
        isolate = await isolate_module.Isolate.prepare(SandboxLimits())
        try:
            requests = _Waiting(waiting=waiting)
            message = await serve._next_run(requests, isolate, compile_when_idle=True, warm_tools=True)  # type: ignore[arg-type]
            return message, await isolate.request("deferredLoaded")
        finally:
            isolate.close()

    message, groups = asyncio.run(scenario())
    assert message == {"op": "run", "id": 1}
    assert isinstance(groups, str)
    assert ("tools" in groups.split(",")) is not waiting


class _ArrivingDuringTheCompile(_LateRequests):
    """A request that arrives while the worker compiles its first group ahead."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = 0

    def waiting(self) -> bool:
        self.asked += 1
        return self.asked > 1


def test_a_request_that_arrives_while_groups_compile_ahead_stops_the_compiling_at_the_next_group(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sandbox_server.sandbox.worker import isolate as isolate_module
    from sandbox_server.sandbox.worker import serve

    monkeypatch.setattr(serve, "IDLE_BEFORE_COMPILING_S", 0.001)

    async def scenario() -> tuple[object, object]:
        isolate = await isolate_module.Isolate.prepare(SandboxLimits())
        try:
            message = await serve._next_run(_ArrivingDuringTheCompile(), isolate, compile_when_idle=True)  # type: ignore[arg-type]
            return message, await isolate.request("deferredLoaded")
        finally:
            isolate.close()

    message, loaded = asyncio.run(scenario())
    assert message == {"op": "run", "id": 1}
    assert loaded == isolate_module.COMMON_GROUPS[0]
