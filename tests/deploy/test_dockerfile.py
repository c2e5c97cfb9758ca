"""``deploy/Dockerfile``. No Docker engine runs here, so the image is never built: its instructions are read with
``dockerfile-parse`` and checked, and its install and start steps are run as the image would run them, in a
throwaway virtual environment built from only the files the Dockerfile copies."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx2
import pytest
from dockerfile_parse import DockerfileParser

from ..servers import free_port

pytestmark = [pytest.mark.anyio]

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "deploy" / "Dockerfile"
TOKEN = "image-test-token"


@pytest.fixture(scope="module")
def parsed() -> DockerfileParser:
    return DockerfileParser(str(DOCKERFILE))


def instructions(parsed: DockerfileParser, name: str) -> list[str]:
    return [item["value"] for item in parsed.structure if item["instruction"] == name]


def test_the_image_is_python_slim_runs_as_a_numeric_non_root_user_and_checks_health(parsed: DockerfileParser) -> None:
    assert parsed.baseimage.startswith("python:3.11-slim")
    (user,) = instructions(parsed, "USER")
    uid = user.split(":")[0]
    assert uid.isdigit() and int(uid) != 0  # numeric, so that runAsNonRoot can verify it
    (healthcheck,) = instructions(parsed, "HEALTHCHECK")
    assert "/healthz" in healthcheck and "CMD" in healthcheck
    (entrypoint,) = instructions(parsed, "ENTRYPOINT")
    assert json.loads(entrypoint) == ["sandbox-server"]
    command = json.loads(parsed.cmd)
    assert command[:3] == ["serve", "--transport", "http"]
    assert command[command.index("--host") + 1] == "0.0.0.0"
    assert not any("TOKEN" in key for key in parsed.envs), "a secret must come from the environment at run time"
    for source in (part for value in instructions(parsed, "COPY") for part in value.split()[:-1]):
        assert (ROOT / source).exists(), source


@pytest.fixture(scope="module")
def image(parsed: DockerfileParser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The image's install step run in a throwaway venv, from a build context holding only what COPY takes;
    yields the environment its start command runs with (the Dockerfile's, with the venv's paths)."""
    root = tmp_path_factory.mktemp("image")
    context, venv = root / "build", root / "venv"
    context.mkdir()
    for value in instructions(parsed, "COPY"):
        *sources, _ = value.split()
        for source in sources:
            copy = shutil.copytree if (ROOT / source).is_dir() else shutil.copy
            copy(ROOT / source, context / Path(source).name)
    (install,) = [step for step in instructions(parsed, "RUN") if "pip" in step]
    env = {
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
        "HOME": str(root),
        **parsed.args,
        **{key: value for key, value in parsed.envs.items() if key not in ("PATH", "HOME")},
        "VENV": str(venv),
    }
    subprocess.run(["bash", "-euo", "pipefail", "-c", install], cwd=context, env=env, check=True, timeout=600)
    env.update(PATH=f"{venv}/bin:{os.environ['PATH']}", HOME=str(root))
    yield env


@pytest.mark.slow
async def test_the_image_steps_install_from_the_copied_files_and_serve_with_the_token_from_the_environment(
    parsed: DockerfileParser, image: dict[str, str]
) -> None:
    command = [*json.loads(instructions(parsed, "ENTRYPOINT")[0]), *json.loads(parsed.cmd)]
    env = {**image, "SANDBOX_PORT": str(free_port()), "SANDBOX_WORKERS": "1"}
    with anyio.fail_after(60):
        refused = await anyio.run_process(command, env=env, check=False)
    assert refused.returncode == 2 and b"SANDBOX_AUTH_TOKEN" in refused.stderr
    healthcheck = instructions(parsed, "HEALTHCHECK")[0]
    probe = json.loads(healthcheck[healthcheck.index("CMD") + 3 :].strip())
    base = f"http://127.0.0.1:{env['SANDBOX_PORT']}"
    async with await anyio.open_process(command, env={**env, "SANDBOX_AUTH_TOKEN": TOKEN}) as server:
        try:
            with anyio.fail_after(60):
                while (await anyio.run_process(probe, env=env, check=False)).returncode != 0:
                    assert server.returncode is None, "the server exited"
                    await anyio.sleep(0.2)  # the health check's own retry, shortened
                async with httpx2.AsyncClient() as http:
                    unauthorized = await http.get(base + "/metrics")
                    metrics = await http.get(base + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        finally:
            server.terminate()
            with anyio.fail_after(30):
                await server.wait()
    assert unauthorized.status_code == 401 and metrics.status_code == 200
    assert "sandbox_workers_configured 1.0" in metrics.text
    assert server.returncode == 0  # SIGTERM drains and exits cleanly, as a container stop expects
    python = image["PATH"].split(":")[0] + "/python"
    installed = await anyio.run_process([python, "-c", "import opentelemetry.sdk, prometheus_client"], check=False)
    assert installed.returncode == 0, installed.stderr  # the otel extra came with it
