"""One execution of ``execute_js`` or ``execute_js_with_tools``: from checked arguments to a Job, through the pool,
to the result. What the code may ask of the host while it runs (the data folder's files, the upstream tools) is
built here, per call, so that one execution's limits and records are its own."""

from __future__ import annotations

import json
import time
from typing import Any

import anyio

from sandbox_server.charts import Renderer, RenderLimits
from sandbox_server.data.files import FilesLimits, build_payload, check_frame_room, parse_requests, select
from sandbox_server.data.folder import DataFile, DataFolder, Stop, off_the_loop
from sandbox_server.data.nodefs import FsBudget, FsService, preload_entries, preload_names, uses_fs
from sandbox_server.errors import ArgumentError
from sandbox_server.registry import CallContext, Handler
from sandbox_server.results import ToolResult
from sandbox_server.sandbox import Job, WorkerPool
from sandbox_server.sandbox.protocol import HostHandler, HostService
from sandbox_server.sessions import SessionManager, SessionRefused, SessionRun
from sandbox_server.settings import MAX_HOST_REQUEST_BYTES, Settings
from sandbox_server.tools.host_calls import HostDispatcher
from sandbox_server.tools.images import show
from sandbox_server.tools.rendering import render_outcome
from sandbox_server.upstream.directory import Directory
from sandbox_server.upstream.service import CallLimits, CallRecord, ToolsService

__all__ = ["PROGRESS_INTERVAL_S", "js_handler"]

PROGRESS_INTERVAL_S = 0.5
"""How often a running execution reports progress when the caller asked for it."""
MAX_IMAGE_PIXELS = RenderLimits().max_pixels
"""Largest image ``display()`` may show, rendered or passed through."""


def _host_service(settings: Settings, services: dict[str, HostHandler]) -> HostService:
    return HostService(
        handler=HostDispatcher(services),
        calls=settings.max_tool_calls,
        calls_setting="max_tool_calls",
        in_flight=settings.max_calls_in_flight,
        request_bytes=MAX_HOST_REQUEST_BYTES,
    )


def js_handler(
    settings: Settings,
    pool: WorkerPool,
    folder: DataFolder | None = None,
    directory: Directory | None = None,
    sessions: SessionManager | None = None,
    renderer: Renderer | None = None,
) -> Handler:
    """The handler of a JavaScript tool: with a ``directory``, its code also has the global ``tools``; with
    ``sessions``, a call that names a ``session`` runs in that session's isolate; with a ``renderer``, ``display()``
    takes charts and SVG too."""
    files_limits = FilesLimits(max_files=settings.max_files, max_bytes=settings.max_files_bytes)
    call_limits = CallLimits(timeout_s=settings.tool_call_timeout_s, result_bytes=settings.max_tool_result_bytes)

    async def files_payload(arguments: dict[str, Any], budget: FsBudget | None) -> str | None:
        """The files the call names and, for code that may use Node's fs, what its string literals name."""
        code: str = arguments["code"]
        preloads = preload_names(code) if budget is not None and uses_fs(code) else []
        if folder is None or ("files" not in arguments and not preloads):
            return None
        requests = parse_requests(arguments["files"]) if "files" in arguments else []

        def prepare(stop: Stop) -> str:  # file-system work and parsing, off the event loop, ended with the call
            selected = select(folder, requests, files_limits, stop) if requests else []
            fs_files: list[DataFile] = []
            fs_entries: list[dict[str, Any]] = []
            if budget is not None and preloads:
                fs_files, fs_entries = preload_entries(folder, preloads, budget, stop)
            payload = build_payload(folder, selected, files_limits.max_bytes, stop, fs_files, fs_entries)
            check_frame_room(payload)
            return payload

        return await off_the_loop(prepare)

    def tools_service(context: CallContext, started: float, timeout_ms: int) -> ToolsService:
        assert directory is not None

        async def reported(record: CallRecord) -> None:
            elapsed = (time.monotonic() - started) * 1000
            await context.report_progress(
                elapsed,
                float(timeout_ms),
                f"called {record.server}.{record.tool}: {record.outcome} in {record.duration_ms:.0f} ms",
            )

        return ToolsService(
            directory,
            call_limits,
            consent=context.consent,
            no_consent_reason=context.no_consent_reason,
            on_call=reported if context.progress_requested else None,
        )

    async def handler(arguments: dict[str, Any], context: CallContext) -> ToolResult:
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
        started = time.monotonic()
        budget = FsBudget(settings.max_files, settings.max_files_bytes) if folder is not None else None
        services: dict[str, HostHandler] = {}
        if folder is not None and budget is not None:
            services["fs"] = FsService(folder, budget)
        service = tools_service(context, started, timeout_ms) if directory is not None else None
        if service is not None:
            services["tools"] = service
        job = Job(
            code=code,
            input_json=input_json,
            timeout_ms=timeout_ms,
            files_payload=await files_payload(arguments, budget),
            host=_host_service(settings, services) if services else None,
            data_folder=folder is not None,
            tools=directory.manifest() if directory is not None else None,
            charts=renderer is not None,
        )

        async def run_job() -> tuple[dict[str, Any], SessionRun | None]:
            name = arguments.get("session")
            if name is None:
                if arguments.get("reset") is True:
                    message = "reset applies to a session: name it in `session` too."
                    raise ArgumentError(message, problems=[message])
                return dict(await pool.run(job)), None
            if sessions is None or context.owner is None:
                reason = context.no_session_reason if sessions is not None else "this server keeps no sessions"
                raise ArgumentError(f"session cannot be used here: {reason}", problems=[reason])
            try:
                outcome, ran = await sessions.run(context.owner, name, job, reset=arguments.get("reset") is True)
            except SessionRefused as exc:
                return _refused(str(exc)), None
            return dict(outcome), ran

        async def report_progress() -> None:
            while True:
                await anyio.sleep(PROGRESS_INTERVAL_S)
                elapsed = (time.monotonic() - started) * 1000
                await context.report_progress(elapsed, float(timeout_ms), f"running for {elapsed:.0f} ms")

        if not context.progress_requested:
            outcome, ran = await run_job()
        else:
            async with anyio.create_task_group() as group:
                group.start_soon(report_progress)
                outcome, ran = await run_job()
                group.cancel_scope.cancel()
        calls = None if service is None else [record.to_json() for record in service.calls]
        displays = outcome.pop("displays", None)
        shown = None
        if displays:  # the charts get what the code left of timeout_ms
            left_s = max(0.0, timeout_ms - float(outcome.get("durationMs") or 0)) / 1000
            shown = await show(displays, renderer, MAX_IMAGE_PIXELS, anyio.current_time() + left_s)
        return render_outcome(outcome, settings, timeout_ms, code, calls, ran.structured() if ran else None, shown)

    return handler


def _refused(message: str) -> dict[str, Any]:
    """The outcome of a call that did not run because no session could be had."""
    return {
        "ok": False,
        "stdout": "",
        "stderr": "",
        "truncated": False,
        "durationMs": 0,
        "error": {"kind": "session", "name": "SessionRefused", "message": message, "line": None, "column": None},
    }
