"""What one server instance owns (settings, the worker pool, the tools, the sessions, the keys and stores), built
from its settings, and how one tool call is checked and run, every failure becoming a result."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import Any

from sandbox_server.backlog import Backlog
from sandbox_server.charts import Renderer, charts_available
from sandbox_server.data.folder import DataFolder
from sandbox_server.errors import ArgumentError, ToolError
from sandbox_server.identity import package_version
from sandbox_server.journal import StateKeys, StateStore, open_store, state_keys_from
from sandbox_server.listeners import ToolListListeners
from sandbox_server.observability import Telemetry
from sandbox_server.packages.catalog import server_catalog
from sandbox_server.registry import CallContext, Registry, RequestKey, ToolSpec, request_key
from sandbox_server.results import InputRequired, ToolResult, error
from sandbox_server.sandbox import SandboxLimits, WorkerPool
from sandbox_server.sessions import SessionLimits, SessionManager
from sandbox_server.settings import Settings
from sandbox_server.tools import deterministic_tools
from sandbox_server.tools.early import announces_a_cancel, cancelled_request, read_call
from sandbox_server.tools.execute_js import execute_js_tool
from sandbox_server.tools.execute_js_with_tools import execute_js_with_tools_tool
from sandbox_server.tools.resumable import PausedRuns
from sandbox_server.tools.runs import JsRuns
from sandbox_server.tools.unavailable import unavailable_arguments
from sandbox_server.upstream import redaction
from sandbox_server.upstream.config import load_upstream_config
from sandbox_server.upstream.directory import Directory
from sandbox_server.upstream.group import Upstreams
from sandbox_server.validation import ArgumentValidator, non_json_numbers

__all__ = ["App"]

logger = logging.getLogger("sandbox_server")


@dataclass(slots=True)
class App:
    """What one server instance owns: settings, the worker pool and the published tools."""

    settings: Settings
    pool: WorkerPool
    registry: Registry
    validators: dict[str, ArgumentValidator]
    backlog: Backlog
    """The memory requests in progress hold, as the transports admit them."""
    folder: DataFolder | None = None
    """The data folder, when one is configured: its files are published as resources and readable by code."""
    upstreams: Upstreams | None = None
    """The other MCP servers whose tools ``execute_js_with_tools`` calls, when an upstream file is configured."""
    directory: Directory | None = None
    """The live view of ``upstreams`` the tool works from."""
    listeners: ToolListListeners | None = None
    """The client sessions to tell when the upstream tools, and so execute_js_with_tools, change."""
    sessions: SessionManager | None = None
    """The JavaScript sessions of every client (``session`` on the JavaScript tools)."""
    renderer: Renderer | None = None
    """The chart renderer's supervised process, when the ``charts`` extra is installed (``display()``)."""
    keys: StateKeys | None = None
    """What seals the request states of paused runs and the session handles this server gives out."""
    store: StateStore | None = None
    """Where journals wait between calls (paused runs, sessions)."""
    caller: object = field(default_factory=object)
    """Who a stdio server's one client is, on the current revision, where no connection outlives a request."""
    telemetry: Telemetry = field(default_factory=Telemetry)
    """What counts the calls for ``/metrics`` and marks their trace spans."""

    @classmethod
    def create(cls, settings: Settings) -> App:
        """Build the tools and an (unstarted) worker pool for ``settings``."""
        limits = SandboxLimits(
            memory_limit_mb=settings.memory_limit_mb,
            output_cap_bytes=settings.output_cap_bytes,
            timezone=settings.timezone,
        )
        pool = WorkerPool(settings.workers, limits, max_queue_wait_s=settings.max_queue_wait_s)
        folder = None if settings.data_dir is None else DataFolder(settings.data_dir)
        keys = StateKeys(state_keys_from(os.environ), settings.state_ttl_s)
        telemetry = Telemetry(package_version())
        store = open_store(settings.state_store, keys)
        observed = telemetry.observed_store(store)  # the stores' failures are counted for /metrics
        sessions = SessionManager(
            limits,
            SessionLimits(
                per_client=settings.max_sessions_per_client,
                per_server=settings.max_sessions,
                idle_s=settings.session_idle_timeout_s,
                max_age_s=settings.session_max_age_s,
                journal_bytes=settings.max_journal_bytes,
                rebuild_s=settings.session_rebuild_timeout_s,
            ),
            observed,
            keys,
        )
        sessions.on_rebuilt = telemetry.session_rebuilt
        renderer = Renderer() if charts_available() else None
        packages = server_catalog(settings.packages_path)
        registry = Registry(
            [*deterministic_tools(), execute_js_tool(settings, pool, folder, sessions, renderer, packages)]
        )
        upstreams = directory = listeners = None
        if settings.upstream is not None:
            listeners = ToolListListeners()
            configs = load_upstream_config(settings.upstream)
            redaction.install(configs)
            upstreams = Upstreams(
                configs,
                connect_timeout_s=settings.upstream_connect_timeout_s,
                on_tools_changed=listeners.changed,
            )
            directory = Directory(upstreams)
            paused = PausedRuns(observed, settings.state_ttl_s, settings.max_journal_bytes)
            registry.add(
                execute_js_with_tools_tool(settings, pool, directory, folder, sessions, renderer, paused, packages)
            )
        validators = {
            spec.name: ArgumentValidator(spec.input_schema, unavailable=unavailable_arguments(spec.name))
            for spec in registry
        }
        backlog = Backlog(settings.max_request_memory_mb * 2**20)
        telemetry.metrics.watch(pool=pool.stats, live_sessions=sessions.count, backlog=backlog.stats)
        return cls(
            settings=settings,
            pool=pool,
            registry=registry,
            validators=validators,
            backlog=backlog,
            folder=folder,
            upstreams=upstreams,
            directory=directory,
            listeners=listeners,
            sessions=sessions,
            renderer=renderer,
            keys=keys,
            store=store,
            telemetry=telemetry,
        )

    def early_word(self, data: bytes, *, start: bool) -> None:
        """A transport's early word (:mod:`sandbox_server.transport.hints`): a request's text that announces a run or a
        cancellation, before the SDK has read it. With ``start`` (stdio, whose one client's ids name its calls), a call
        of a JavaScript tool whose arguments pass the checks :meth:`call` makes starts at once if it can
        (:meth:`JsRuns.start_early`), and a cancellation stops a call started so; otherwise a worker is woken."""
        if announces_a_cancel(data):
            if start:
                self._stop_early(cancelled_request(data))
            return
        early = read_call(data) if start else None
        spec = self.registry.get(early.name) if early is not None else None
        if early is not None and spec is not None and isinstance(spec.handler, JsRuns):
            arguments = early.arguments
            problems = self.validators[spec.name].problems(arguments) + non_json_numbers(arguments)
            if not problems and spec.handler.start_early(early.key, arguments):
                return
        self.pool.prime()

    def answered(self, request_id: object) -> None:
        """Stdio answered the request ``request_id``: a call started early for it that its handler did not take (the
        SDK refused the request, or it never reached a handler) is stopped."""
        self._stop_early(request_key(request_id))

    def _stop_early(self, key: RequestKey | None) -> None:
        """Stop the call started early for the request ``key``, if one was and its handler has not taken it."""
        if key is None:
            return
        for spec in self.registry:
            if isinstance(spec.handler, JsRuns):
                spec.handler.early.stop(key)

    async def call(
        self, spec: ToolSpec, arguments: dict[str, Any] | None, context: CallContext
    ) -> ToolResult | InputRequired:
        """Validate and run one tool call; every failure becomes a result, never an exception."""
        arguments = {} if arguments is None else arguments
        problems = self.validators[spec.name].problems(arguments) + non_json_numbers(arguments)
        if problems and spec.check is not None and isinstance(arguments, dict):
            # The tool's messages are sentences; in the list they are clauses like the schema's.
            problems += [problem.removesuffix(".") for problem in spec.check(arguments)]
        try:
            if problems:
                raise ArgumentError(
                    f"Invalid arguments for {spec.name}: " + "; ".join(problems) + ".", problems=problems
                )
            return await spec.handler(arguments, context)
        except ArgumentError as exc:
            shape = spec.structure_argument_error
            return error(exc.message, shape(exc.message, exc.problems) if shape else None)
        except ToolError as exc:
            return error(exc.message, exc.structured)
        except Exception:
            logger.exception("tool %s failed unexpectedly", spec.name)
            return error(
                f"{spec.name} failed because of an internal error in the server; the call can be retried.",
                kind="internal",
            )
