"""What code running in ``execute_js`` may ask of the host while it runs, by the kind of each call.

Each kind has a prefix that names its service (``fs.readFile`` goes to the data folder's Node fs); a call of a kind
no service takes fails, saying so. The services of one execution share its limits (see ``HostService``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sandbox_server.sandbox.protocol import HostCallFailed, HostHandler

__all__ = ["HostDispatcher"]


class HostDispatcher:
    """Routes each host call to the service of its kind's prefix."""

    def __init__(self, services: Mapping[str, HostHandler]) -> None:
        self._services = dict(services)

    async def __call__(self, kind: str, payload: Any) -> Any:
        prefix = kind.split(".", 1)[0]
        service = self._services.get(prefix)
        if service is None:
            if prefix == "fs":
                message = "this server shares no data folder, so there are no files to read: pass data in `input`"
            else:
                message = f"this call cannot ask the host for {kind!r}"
            raise HostCallFailed({"name": "Error", "code": "ERR_SANDBOX_HOST_REFUSED", "message": message})
        return await service(kind, payload)
