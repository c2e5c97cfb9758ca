"""Supervised worker processes that run model-written JavaScript, each job in a fresh V8 isolate.

Untrusted code never runs in the process that speaks MCP: :class:`WorkerPool` starts worker processes
(:mod:`sandbox_server.sandbox.worker`, the only module that imports the engine), sends them jobs, enforces
the wall-clock deadline from outside and replaces workers that die or hang.
"""

from __future__ import annotations

from sandbox_server.sandbox.limits import SandboxLimits
from sandbox_server.sandbox.outcome import ErrorInfo, ErrorKind, Outcome
from sandbox_server.sandbox.pool import GRACE_MS, WorkerPool
from sandbox_server.sandbox.process import engine_versions
from sandbox_server.sandbox.protocol import Job

__all__ = ["GRACE_MS", "ErrorInfo", "ErrorKind", "Job", "Outcome", "SandboxLimits", "WorkerPool", "engine_versions"]
