"""A stand-in Kubernetes API server on loopback, enough for ``kubectl apply --dry-run=client``.

kubectl needs the API's discovery documents (which groups, versions and kinds exist, and whether each is
namespaced) to turn a manifest's ``apiVersion``/``kind`` into a resource path, and, to compute what it would apply,
a GET of each object, which this server answers 404 (nothing exists yet). It serves only the group-versions a
current Kubernetes release (1.30 and later) serves, so that a manifest naming a removed API (``autoscaling/v2beta2``,
``policy/v1beta1``) fails as it would against a real cluster. It keeps a log of the requests it was sent.
"""

from __future__ import annotations

import http.server
import json
import re
import threading
from typing import Any

__all__ = ["RESOURCES", "StandInApiServer"]

RESOURCES: dict[str, list[tuple[str, str, bool]]] = {
    "v1": [
        ("services", "Service", True),
        ("secrets", "Secret", True),
        ("configmaps", "ConfigMap", True),
        ("serviceaccounts", "ServiceAccount", True),
        ("namespaces", "Namespace", False),
        ("pods", "Pod", True),
    ],
    "apps/v1": [("deployments", "Deployment", True), ("statefulsets", "StatefulSet", True)],
    "autoscaling/v2": [("horizontalpodautoscalers", "HorizontalPodAutoscaler", True)],
    "autoscaling/v1": [("horizontalpodautoscalers", "HorizontalPodAutoscaler", True)],
    "policy/v1": [("poddisruptionbudgets", "PodDisruptionBudget", True)],
    "networking.k8s.io/v1": [("networkpolicies", "NetworkPolicy", True)],
}
"""Group-version -> (resource, kind, namespaced), as a Kubernetes 1.30+ API server lists them."""


def _resource_list(group_version: str) -> dict[str, Any]:
    return {
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": group_version,
        "resources": [
            {
                "name": name,
                "singularName": kind.lower(),
                "namespaced": namespaced,
                "kind": kind,
                "verbs": ["create", "delete", "get", "list", "patch", "update", "watch"],
            }
            for name, kind, namespaced in RESOURCES[group_version]
        ],
    }


def _groups() -> dict[str, Any]:
    groups: dict[str, list[str]] = {}
    for group_version in RESOURCES:
        if "/" in group_version:
            group, version = group_version.split("/")
            groups.setdefault(group, []).append(version)
    return {
        "kind": "APIGroupList",
        "apiVersion": "v1",
        "groups": [
            {
                "name": group,
                "versions": [{"groupVersion": f"{group}/{v}", "version": v} for v in versions],
                "preferredVersion": {"groupVersion": f"{group}/{versions[0]}", "version": versions[0]},
            }
            for group, versions in groups.items()
        ],
    }


def _not_found(path: str) -> dict[str, Any]:
    return {
        "kind": "Status",
        "apiVersion": "v1",
        "status": "Failure",
        "message": f"{path} not found",
        "reason": "NotFound",
        "code": 404,
    }


_OBJECT = re.compile(r"^/(?:api/v1|apis/[^/]+/[^/]+)(?:/namespaces/[^/]+)?/[^/]+/[^/]+$")


class StandInApiServer:
    """The stand-in, on a free loopback port until :meth:`close`; ``url`` is its address, ``requests`` its log."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str]] = []
        log = self.requests

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                log.append(("GET", path))
                if path == "/version":
                    self._send(200, {"major": "1", "minor": "30", "gitVersion": "v1.30.0"})
                elif path == "/api":
                    self._send(200, {"kind": "APIVersions", "versions": ["v1"], "serverAddressByClientCIDRs": []})
                elif path == "/apis":
                    self._send(200, _groups())
                elif path == "/api/v1":
                    self._send(200, _resource_list("v1"))
                elif path.startswith("/apis/") and path.count("/") == 3 and path[len("/apis/") :] in RESOURCES:
                    self._send(200, _resource_list(path[len("/apis/") :]))
                else:
                    self._send(404, _not_found(path))

            def do_POST(self) -> None:
                log.append(("POST", self.path))
                self._send(405, _not_found(self.path))  # a dry run on the client never writes

            do_PUT = do_PATCH = do_DELETE = do_POST

            def _send(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def object_reads(self) -> list[str]:
        """The paths of single objects kubectl read (to compare what it would apply with what exists)."""
        return [path for method, path in self.requests if method == "GET" and _OBJECT.match(path)]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
