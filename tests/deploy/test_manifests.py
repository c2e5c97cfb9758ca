"""The Kubernetes manifests in ``deploy/kubernetes``: applied with ``kubectl apply --dry-run=client`` against a
stand-in API server on loopback (no cluster is reachable here), validated strictly against the API's schemas, and
holding what the server needs: probes on /healthz, a non-root read-only container, the secrets, the Redis store,
the metrics annotations."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

from sandbox_server.settings import DEFAULT_MAX_TIMEOUT_MS

from .apiserver import StandInApiServer

ROOT = Path(__file__).resolve().parents[2]
MANIFESTS = sorted((ROOT / "deploy" / "kubernetes").glob("*.yaml"))
KUBERNETES_VERSIONS = ["1.30.0", kubernetes_validate.latest_version()]
"""The oldest release still widely run that serves every API the manifests use, and the newest the schemas know."""


def kubectl() -> str:
    found = shutil.which("kubectl")
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("kubectl is not on PATH: .ci/run installs Debian's kubernetes-client when it is missing")
        pytest.skip("kubectl is not on PATH (apt-get install kubernetes-client)")
    return found


@pytest.fixture
def api_server() -> Iterator[StandInApiServer]:
    server = StandInApiServer()
    yield server
    server.close()


def dry_run(server: StandInApiServer, tmp_path: Path, *files: Path) -> subprocess.CompletedProcess[str]:
    """``kubectl apply --dry-run=client`` of ``files`` against ``server``, with an empty kubeconfig of its own.

    Validation is off: kubectl validates against the OpenAPI documents of the cluster it talks to, which a stand-in
    does not have; the schemas are checked by the test below instead.
    """
    config = tmp_path / "kubeconfig"
    config.write_text("", encoding="utf-8")
    command = [
        kubectl(),
        "apply",
        "--dry-run=client",
        "--validate=false",
        "--server",
        server.url,
        "--namespace",
        "sandbox",
    ]
    for file in files:
        command += ["-f", str(file)]
    env = {"PATH": os.environ.get("PATH", ""), "KUBECONFIG": str(config), "HOME": str(tmp_path)}
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=False)


def documents() -> list[dict[str, Any]]:
    return [doc for path in MANIFESTS for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]


def named(kind: str, name: str) -> dict[str, Any]:
    (found,) = [doc for doc in documents() if doc["kind"] == kind and doc["metadata"]["name"] == name]
    return found


def test_every_manifest_applies_with_kubectl_dry_run_against_the_stand_in(
    api_server: StandInApiServer, tmp_path: Path
) -> None:
    result = dry_run(api_server, tmp_path, *MANIFESTS)
    assert result.returncode == 0, result.stderr
    expected = {f"{doc['kind'].lower()}/{doc['metadata']['name']}" for doc in documents()}
    # Each line names kind.group/name, as "deployment.apps/sandbox-server created (dry run)".
    created = [line.split(" ")[0] for line in result.stdout.splitlines() if line.endswith(" created (dry run)")]
    assert {f"{kind.split('.')[0]}/{name}" for kind, name in (item.split("/") for item in created)} == expected
    # kubectl found each kind through discovery and asked for each object in the namespace before "creating" it.
    reads = [path for path in api_server.object_reads() if not path.endswith("/namespaces/sandbox")]
    assert len(reads) == len(expected) == len(created)
    assert all("/namespaces/sandbox/" in path for path in reads)
    assert not [request for request in api_server.requests if request[0] != "GET"]


def test_a_manifest_naming_an_api_a_current_cluster_no_longer_serves_fails_the_dry_run(
    api_server: StandInApiServer, tmp_path: Path
) -> None:
    hpa = dict(named("HorizontalPodAutoscaler", "sandbox-server"), apiVersion="autoscaling/v2beta2")
    old = tmp_path / "old.yaml"
    old.write_text(yaml.safe_dump(hpa), encoding="utf-8")
    result = dry_run(api_server, tmp_path, old)
    assert result.returncode != 0
    assert "autoscaling/v2beta2" in result.stderr


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_every_manifest_matches_the_kubernetes_schemas_strictly(version: str) -> None:
    for doc in documents():
        kubernetes_validate.validate(doc, version, strict=True)


def test_the_schema_check_refuses_a_misspelled_field() -> None:
    deployment = named("Deployment", "sandbox-server")
    broken = yaml.safe_load(yaml.safe_dump(deployment))
    broken["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = broken["spec"]["template"]["spec"][
        "containers"
    ][0].pop("readinessProbe")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSIONS[-1], strict=True)


def test_the_deployment_probes_health_runs_unprivileged_and_takes_its_secrets_from_a_secret() -> None:
    deployment = named("Deployment", "sandbox-server")
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert container[probe]["httpGet"] == {"path": "/healthz", "port": "http"}, probe
    assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] != 0
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    assert container["securityContext"]["capabilities"]["drop"] == ["ALL"]
    assert {mount["mountPath"] for mount in container["volumeMounts"]} == {"/tmp"}
    env = {item["name"]: item for item in container["env"]}
    for variable, key in (
        ("SANDBOX_AUTH_TOKEN", "token"),
        ("SANDBOX_METRICS_TOKEN", "metrics-token"),
        ("SANDBOX_STATE_KEYS", "state-keys"),
    ):
        assert env[variable]["valueFrom"]["secretKeyRef"] == {"name": "sandbox-server", "key": key}, variable
        assert "value" not in env[variable]
    (port,) = container["ports"]
    assert port["name"] == "http" and str(port["containerPort"]) == env["SANDBOX_PORT"]["value"]
    annotations = deployment["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/path"] == "/metrics"
    assert annotations["prometheus.io/port"] == env["SANDBOX_PORT"]["value"]
    # The pod is given time to drain: the longest call, then the server's margin.
    assert pod["terminationGracePeriodSeconds"] > DEFAULT_MAX_TIMEOUT_MS / 1000 + 5
    cpu = container["resources"]["limits"]["cpu"]
    assert env["SANDBOX_WORKERS"]["value"] == cpu


def test_the_service_autoscaler_and_store_reach_what_they_name() -> None:
    deployment = named("Deployment", "sandbox-server")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    service = named("Service", "sandbox-server")
    assert service["spec"]["selector"].items() <= labels.items()
    assert service["spec"]["ports"][0]["targetPort"] == "http"
    hpa = named("HorizontalPodAutoscaler", "sandbox-server")
    assert hpa["spec"]["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "sandbox-server"}
    assert hpa["spec"]["minReplicas"] >= 2
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    store = next(item["value"] for item in container["env"] if item["name"] == "SANDBOX_STATE_STORE")
    redis_service = named("Service", "sandbox-redis")
    assert store == f"redis://{redis_service['metadata']['name']}:{redis_service['spec']['ports'][0]['port']}/0"
    redis = named("Deployment", "sandbox-redis")
    assert redis_service["spec"]["selector"].items() <= redis["spec"]["template"]["metadata"]["labels"].items()
    policy = named("NetworkPolicy", "sandbox-redis")
    assert (
        policy["spec"]["podSelector"]["matchLabels"].items() <= redis["spec"]["template"]["metadata"]["labels"].items()
    )
    (allowed,) = policy["spec"]["ingress"][0]["from"]
    assert allowed["podSelector"]["matchLabels"].items() <= labels.items()
