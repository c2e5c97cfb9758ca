"""One execution of ``execute_js`` or ``execute_js_with_tools``: from checked arguments to a Job, through the pool or
a session, to the result. What the code may ask of the host while it runs (the data folder's files, the upstream
tools) is built here, per call, so that one execution's limits and records are its own.

A run that may have to be done again keeps a journal (:mod:`sandbox_server.journal`): a session's cell (to rebuild
the session wherever it is next used) and, on the current revision, a code-mode run whose code may need the user's
consent (to resume it with the answer, :mod:`.resumable`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace
from typing import Any

import anyio

from sandbox_server.charts import Renderer, RenderLimits
from sandbox_server.data.files import FilesLimits, build_payload, check_frame_room, parse_requests, select
from sandbox_server.data.folder import DataFile, DataFolder, Stop, off_the_loop
from sandbox_server.data.nodefs import FsBudget, FsService, preload_entries, preload_names, uses_fs
from sandbox_server.errors import ArgumentError, ToolError
from sandbox_server.journal import JournalingHost, RunJournal, StoreUnavailable
from sandbox_server.packages.catalog import Catalog
from sandbox_server.registry import CallContext, Handler, RequestKey
from sandbox_server.results import InputRequired, ToolResult
from sandbox_server.sandbox import Job, WorkerPool
from sandbox_server.sandbox.protocol import HostCallFailed, HostHandler, HostService, RunControl
from sandbox_server.sessions import (
    Cell,
    CellRecord,
    Point,
    SessionLost,
    SessionManager,
    SessionRefused,
    SessionRun,
    StateNotKept,
    is_handle,
)
from sandbox_server.settings import Settings
from sandbox_server.tools.early import EarlyRuns, outcome_of
from sandbox_server.tools.host_calls import HostDispatcher
from sandbox_server.tools.images import show
from sandbox_server.tools.rendering import render_outcome
from sandbox_server.tools.resumable import (
    PausedRuns,
    ResumableConsent,
    consent_requests,
    files_digest,
    pausable_run,
)
from sandbox_server.upstream.directory import Directory
from sandbox_server.upstream.service import CallLimits, CallRecord, ToolsService

__all__ = ["PROGRESS_INTERVAL_S", "js_handler"]

PROGRESS_INTERVAL_S = 0.5
"""How often a running execution reports progress when the caller asked for it."""
MAX_IMAGE_PIXELS = RenderLimits().max_pixels
"""Largest image ``display()`` may show, rendered or passed through."""


def js_handler(
    settings: Settings,
    pool: WorkerPool,
    folder: DataFolder | None = None,
    directory: Directory | None = None,
    sessions: SessionManager | None = None,
    renderer: Renderer | None = None,
    paused: PausedRuns | None = None,
    packages: Catalog | None = None,
) -> Handler:
    """The handler of a JavaScript tool: with a ``directory``, its code also has the global ``tools``; with
    ``sessions``, a call that names a ``session`` runs in that session; with a ``renderer``, ``display()`` takes
    charts and SVG too; with ``paused``, a run whose code needs the user's consent on the current revision pauses
    and resumes (``tools/resumable.py``); with ``packages``, the code may import the npm packages added."""
    return JsRuns(settings, pool, folder, directory, sessions, renderer, paused, packages)


@dataclass(slots=True)
class _Call:
    """One call's checked arguments."""

    code: str
    timeout_ms: int
    input_json: str | None
    session: str | None
    reset: bool


class JsRuns:
    """The calls of one JavaScript tool (see :func:`js_handler`)."""

    def __init__(
        self,
        settings: Settings,
        pool: WorkerPool,
        folder: DataFolder | None,
        directory: Directory | None,
        sessions: SessionManager | None,
        renderer: Renderer | None,
        paused: PausedRuns | None,
        packages: Catalog | None = None,
    ) -> None:
        self._settings = settings
        self._pool = pool
        self._folder = folder
        self._directory = directory
        self._sessions = sessions
        self._renderer = renderer
        self._paused = paused
        self._packages = packages
        self._tool = "execute_js_with_tools" if directory is not None else "execute_js"
        self.early = EarlyRuns(pool)
        self._files_limits = FilesLimits(max_files=settings.max_files, max_bytes=settings.max_files_bytes)
        self._call_limits = CallLimits(
            timeout_s=settings.tool_call_timeout_s,
            result_bytes=settings.max_tool_result_bytes,
            consent_chars=settings.max_consent_argument_chars,
        )

    async def __call__(self, arguments: dict[str, Any], context: CallContext) -> ToolResult | InputRequired:
        call = self._checked(arguments)
        journal, kept = await self._journal(context, call)
        started = time.monotonic()
        budget = self._budget()
        service = self._tools_service(context, started, call.timeout_ms, journal) if self._directory else None
        payload = await self._files_payload(arguments, budget)
        if context.resume is not None and kept.get("files") != files_digest(payload):
            raise ToolError(
                "the data-folder files this code reads changed while it waited for the user's consent, so it cannot "
                "resume as it was; call the tool again to run it on the files as they are now"
            )
        services = self._services(budget, service)
        dispatcher: HostHandler = HostDispatcher(services)
        # A journaled run's host calls are journaled; only a run that may pause for consent needs the means to stop it.
        journaling = JournalingHost(dispatcher, journal) if journal is not None and services else None
        pausing = journal is not None and self._paused is not None and (context.pausable or context.resume is not None)
        control = RunControl() if pausing and journaling is not None else None
        job = self._job(call, payload, journaling or dispatcher if services else None, journal, control)
        cell = None
        if call.session is not None and journal is not None:
            cell = Cell(
                job,
                journal,
                self._tool,
                call.code,
                call.input_json,
                call.timeout_ms,
                arguments.get("files"),
                files_digest(payload),
            )
        at = _point(kept.get("session"))

        async def run() -> tuple[dict[str, Any], SessionRun | None]:
            if journaling is None or control is None:
                return await self._run(job, call, context, cell, at)
            return await pausable_run(lambda: self._run(job, call, context, cell, at), journaling, control)

        try:
            outcome, ran = await self._with_progress(run, context, started, call.timeout_ms)
        finally:
            # However the run ended (the client's cancellation or disconnect included), the upstream calls it left
            # in flight are cancelled upstream now, and their records say so before the result lists them.
            if service is not None:
                await service.stop()
        if journaling is not None and _kind(outcome) == "paused":
            if self._paused is None or journal is None:
                raise ToolError("the run paused, but this tool cannot resume it")
            journal.take_runtime_record(outcome.get("journal"))
            extra: dict[str, Any] = {"files": files_digest(payload)}
            if ran is not None:
                extra["session"] = {"session": ran.point.session, "state": ran.point.state}
            state = await self._paused.pause(journal, extra)
            return InputRequired(consent_requests(journaling.questions), state)
        if journaling is not None and journaling.diverged is not None:
            outcome = _diverged(outcome, journaling.diverged)
        calls = None
        if service is not None:
            replayed = journaling.replayed if journaling is not None else []
            calls = [*replayed, *(record.to_json() for record in service.calls)]
        displays = outcome.pop("displays", None)
        shown = None
        if displays:  # the charts get what the code left of timeout_ms
            left_s = max(0.0, call.timeout_ms - float(outcome.get("durationMs") or 0)) / 1000
            shown = await show(displays, self._renderer, MAX_IMAGE_PIXELS, anyio.current_time() + left_s)
        return render_outcome(
            outcome, self._settings, call.timeout_ms, call.code, calls, ran.structured() if ran else None, shown
        )

    def start_early(self, key: RequestKey, arguments: dict[str, Any]) -> bool:
        """Start the call of request ``key`` with ``arguments`` (already checked against the tool's schema) before its
        handler comes, if its job reaches nothing outside its isolate (:mod:`.early`); whether it started."""
        if self._directory is not None or self._folder is not None or arguments.keys() & {"session", "files", "reset"}:
            return False
        try:
            call = self._checked(arguments)
        except ArgumentError:
            return False
        return self.early.start(key, self._job(call, None, None, None, None))

    def _checked(self, arguments: dict[str, Any]) -> _Call:
        settings = self._settings
        code: str = arguments["code"]
        code_bytes = len(code.encode("utf-8", "surrogatepass"))
        if code_bytes > settings.max_code_bytes:
            message = f"code is {code_bytes} bytes long; at most {settings.max_code_bytes} bytes are accepted."
            raise ArgumentError(message, problems=[message])
        timeout_ms = min(int(arguments.get("timeout_ms", settings.default_timeout_ms)), settings.max_timeout_ms)
        input_json: str | None = None
        if "input" in arguments:
            input_json = json.dumps(arguments["input"], ensure_ascii=False, separators=(",", ":"), allow_nan=False)
            input_bytes = len(input_json.encode("utf-8", "surrogatepass"))
            if input_bytes > settings.max_input_bytes:
                message = (
                    f"input is {input_bytes} bytes as JSON; at most {settings.max_input_bytes} bytes are accepted."
                )
                raise ArgumentError(message, problems=[message])
        session = arguments.get("session")
        reset = arguments.get("reset") is True
        if session is None and reset:
            message = "reset applies to a session: name it in `session` too."
            raise ArgumentError(message, problems=[message])
        if session is not None and self._sessions is None:
            reason = "this server keeps no sessions"
            raise ArgumentError(f"session cannot be used here: {reason}", problems=[reason])
        if session is not None and len(session) > 64 and not is_handle(session):
            message = (
                f"session is {len(session)} characters long: a session name has at most 64 (letters, digits, "
                "`_`, `.`, `-`), and a handle is one this server gave in a `session.handle`."
            )
            raise ArgumentError(message, problems=[message])
        return _Call(code, timeout_ms, input_json, session, reset)

    async def _journal(self, context: CallContext, call: _Call) -> tuple[RunJournal | None, dict[str, Any]]:
        """The run's journal, if it keeps one (a new one, or the paused run's it resumes), and what was kept with a
        paused run."""
        if context.resume is not None:
            if self._paused is None:
                raise ToolError("this call carries a request state, but this tool never pauses; call it without one")
            return await self._paused.resume(context.resume)
        if call.session is not None or (self._directory is not None and self._paused is not None and context.pausable):
            return RunJournal(), {}
        return None, {}

    def _budget(self) -> FsBudget | None:
        return FsBudget(self._settings.max_files, self._settings.max_files_bytes) if self._folder is not None else None

    def _services(self, budget: FsBudget | None, tools: HostHandler | None) -> dict[str, HostHandler]:
        services: dict[str, HostHandler] = {}
        if self._folder is not None and budget is not None:
            services["fs"] = FsService(self._folder, budget)
        if tools is not None:
            services["tools"] = tools
        return services

    def _tools_service(
        self, context: CallContext, started: float, timeout_ms: int, journal: RunJournal | None
    ) -> ToolsService:
        assert self._directory is not None

        async def reported(record: CallRecord) -> None:
            elapsed = (time.monotonic() - started) * 1000
            await context.report_progress(
                elapsed,
                float(timeout_ms),
                f"called {record.server}.{record.tool}: {record.outcome} in {record.duration_ms:.0f} ms",
            )

        # On the current revision the user is asked by pausing the run (tools/resumable.py), else within the call.
        resumable = journal is not None and (context.pausable or context.resume is not None)
        return ToolsService(
            self._directory,
            self._call_limits,
            consent=ResumableConsent(journal.consent) if resumable and journal is not None else context.consent,
            no_consent_reason=context.no_consent_reason,
            on_call=reported if context.progress_requested else None,
        )

    async def _files_payload(self, arguments: dict[str, Any], budget: FsBudget | None) -> str | None:
        """The files the call names and, for code that may use Node's fs, what its string literals name."""
        folder = self._folder
        code: str = arguments["code"]
        preloads = preload_names(code) if budget is not None and uses_fs(code) else []
        if folder is None or ("files" not in arguments and not preloads):
            return None
        requests = parse_requests(arguments["files"]) if "files" in arguments else []
        limits = self._files_limits

        def prepare(stop: Stop) -> str:  # file-system work and parsing, off the event loop, ended with the call
            selected = select(folder, requests, limits, stop) if requests else []
            fs_files: list[DataFile] = []
            fs_entries: list[dict[str, Any]] = []
            if budget is not None and preloads:
                fs_files, fs_entries = preload_entries(folder, preloads, budget, stop)
            payload = build_payload(folder, selected, limits.max_bytes, stop, fs_files, fs_entries)
            check_frame_room(payload)
            return payload

        return await off_the_loop(prepare)

    def _job(
        self,
        call: _Call,
        payload: str | None,
        host: HostHandler | None,
        journal: RunJournal | None,
        control: RunControl | None,
    ) -> Job:
        settings = self._settings
        return Job(
            code=call.code,
            input_json=call.input_json,
            timeout_ms=call.timeout_ms,
            files_payload=payload,
            host=None if host is None else _host_service(settings, host),
            data_folder=self._folder is not None,
            tools=self._directory.manifest() if self._directory is not None else None,
            charts=self._renderer is not None,
            packages=None if self._packages is None else self._packages.request(),
            journal=journal.worker_spec() if journal is not None else None,
            control=control,
        )

    async def _run(
        self, job: Job, call: _Call, context: CallContext, cell: Cell | None, at: Point | None
    ) -> tuple[dict[str, Any], SessionRun | None]:
        if call.session is None or cell is None:
            early = self.early.take(context.request, job)
            return dict(await (self._pool.run(job) if early is None else outcome_of(early))), None
        assert self._sessions is not None
        try:
            outcome, ran = await self._sessions.run(
                context.owner, call.session, cell, self._replayed, reset=call.reset, at=at
            )
        except SessionRefused as exc:
            return _refused(str(exc)), None
        except SessionLost as exc:
            return _refused(str(exc), "SessionLost"), None
        except StateNotKept as exc:
            return _refused(str(exc), "StateNotKept", "store"), None
        except StoreUnavailable as exc:
            why = f"{exc}. The code did not run; call again once the store answers (a handle still names its state)"
            return _refused(why, "StoreUnavailable", "store"), None
        return dict(outcome), ran

    async def _replayed(self, record: CellRecord) -> Job:
        """The job that runs a session's recorded cell again, to rebuild the session (``Replayer``)."""
        arguments: dict[str, Any] = {"code": record.code}
        if record.files is not None:
            arguments["files"] = record.files
        budget = self._budget()
        payload = await self._files_payload(arguments, budget)
        if files_digest(payload) != record.files_digest:
            raise SessionLost(
                "the session cannot be rebuilt faithfully: the data-folder files one of its calls read have changed "
                "since. Start a new session"
            )
        services = self._services(budget, _NotJournaled() if record.tools is not None else None)
        journaling = JournalingHost(HostDispatcher(services), record.journal)
        call = _Call(record.code, record.timeout_ms, record.input_json, None, False)
        job = self._job(call, payload, journaling if services else None, record.journal, None)
        # As the cell saw them when it ran (its calls are answered from its journal).
        return replace(job, tools=record.tools)

    async def _with_progress(
        self, run: Any, context: CallContext, started: float, timeout_ms: int
    ) -> tuple[dict[str, Any], SessionRun | None]:
        if not context.progress_requested:
            return await run()  # type: ignore[no-any-return]

        async def report() -> None:
            while True:
                await anyio.sleep(PROGRESS_INTERVAL_S)
                elapsed = (time.monotonic() - started) * 1000
                await context.report_progress(elapsed, float(timeout_ms), f"running for {elapsed:.0f} ms")

        async with anyio.create_task_group() as group:
            group.start_soon(report)
            value = await run()
            group.cancel_scope.cancel()
        return value  # type: ignore[no-any-return]


class _NotJournaled:
    """The tools of a cell run again to rebuild its session: every call it made is in its journal, so one that is
    not means the cell did not retrace its steps."""

    async def __call__(self, kind: str, payload: Any) -> Any:
        raise HostCallFailed(
            {
                "name": "ReplayError",
                "code": "diverged",
                "message": "this cell, run again to rebuild its session, made a call it did not make before",
            }
        )


def _point(value: Any) -> Point | None:
    if isinstance(value, dict) and isinstance(value.get("session"), str) and isinstance(value.get("state"), str):
        return Point(value["session"], value["state"])
    return None


def _host_service(settings: Settings, handler: HostHandler) -> HostService:
    return HostService(
        handler=handler,
        calls=settings.max_tool_calls,
        calls_setting="max_tool_calls",
        in_flight=settings.max_calls_in_flight,
        request_bytes=settings.max_tool_argument_bytes,
    )


def _kind(outcome: dict[str, Any]) -> Any:
    error = outcome.get("error")
    return error.get("kind") if isinstance(error, dict) else None


def _diverged(outcome: dict[str, Any], why: str) -> dict[str, Any]:
    """The outcome of a resumed run that did not retrace its steps: whatever it computed after that is not trusted."""
    return {
        **outcome,
        "ok": False,
        "result": None,
        "resultText": None,
        "error": {
            "kind": "runtime",
            "name": "ReplayError",
            "message": f"the run, done again to resume it after the user's answer, did not retrace its steps: {why}. "
            "Only what the journal held was answered; call the tool again to start over",
            "line": None,
            "column": None,
        },
    }


def _refused(message: str, name: str = "SessionRefused", kind: str = "session") -> dict[str, Any]:
    """The outcome of a call that did not run (or was not applied) because no session could be had, or kept."""
    return {
        "ok": False,
        "stdout": "",
        "stderr": "",
        "truncated": False,
        "durationMs": 0,
        "error": {"kind": kind, "name": name, "message": message, "line": None, "column": None},
    }
