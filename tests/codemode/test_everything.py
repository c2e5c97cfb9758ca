"""Code mode against the reference server ``@modelcontextprotocol/server-everything`` (from npm), over stdio: its
tools are listed, described, called from JavaScript and refused as its annotations and the policy say."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.upstream.everything import everything_command

from .conftest import code_mode, write_config

pytestmark = pytest.mark.anyio


async def test_the_reference_server_is_called_from_javascript(upstream_dir: Path) -> None:
    command, reason = everything_command()
    if command is None:
        pytest.skip(reason)
    config = write_config(upstream_dir, {"everything": {"command": command[0], "args": command[1:]}}, "everything.json")
    async with code_mode(config, upstream_connect_timeout_s=30.0) as connected:
        description = (await connected.tool()).description or ""
        assert "tools.everything: " in description and "echo" in description
        value = await connected.value(
            """
            const echoed = await tools.everything.echo({ message: 'hello from the sandbox' });
            const sum = await tools.everything['get-sum']({ a: 17, b: 25 });
            const signature = await tools.$describe('everything.get-sum');
            [echoed, sum, signature.includes('a: number') && signature.includes('b: number')]
            """
        )
    echoed, total, typed = value
    assert "hello from the sandbox" in str(echoed)
    assert "42" in str(total)
    assert typed is True
