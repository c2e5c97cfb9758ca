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
        assert "tools.everything:\n" in description and "  echo({message: string}): string | object" in description
        assert "\n  get_sum({a: number, b: number}): string | object\n" in description  # get-sum, as code may call it
        value = await connected.value(
            """
            const echoed = await tools.everything.echo({ message: 'hello from the sandbox' });
            const sum = await tools.everything['get-sum']({ a: 17, b: 25 });
            const signature = await tools.$describe('everything.get-sum');
            const declared = await tools.$describe('everything.get_sum');
            const alias = await tools.everything.get_sum({ a: 1, b: 2 });
            [echoed, echoed.content[0].text === echoed, sum,
             signature.includes('a: number') && signature.includes('b: number'),
             declared === signature, alias]
            """
        )
    echoed, same_text, total, typed, same_declaration, alias = value
    assert "hello from the sandbox" in echoed and same_text is True
    assert "42" in str(total) and "3" in str(alias)
    assert typed is True and same_declaration is True
