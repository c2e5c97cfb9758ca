"""Node's built-ins through the MCP client: what models write for Node runs and answers as Node 20 does."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp import Client

from sandbox_server import build_server
from sandbox_server.server import App

from .conftest import make_settings
from .test_execute_js import run_js

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
async def client() -> AsyncIterator[Client]:
    async with Client(build_server(app=App.create(make_settings(workers=1))), mode="legacy") as connected:
        yield connected


@pytest.fixture(scope="module")
async def folder_client(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Client]:
    folder = tmp_path_factory.mktemp("node-data")
    (folder / "sales.csv").write_text("region,amount\nnorth,12.5\nsouth,7.25\nnorth,3\n")
    (folder / "reports").mkdir()
    (folder / "reports" / "q1.json").write_text('{"total": 22.75}')
    app = App.create(make_settings(workers=1, data_dir=folder))
    async with Client(build_server(app=app), mode="legacy") as connected:
        yield connected


async def ok(client: Client, code: str) -> tuple[object, str]:
    text, structured, is_error = await run_js(client, code)
    assert is_error is False, text
    return structured.get("result"), text


async def test_a_jwt_is_decoded_and_signed_with_buffer_and_crypto(client: Client) -> None:
    code = """
    const crypto = require('crypto');
    const b64url = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const head = b64url({ alg: 'HS256', typ: 'JWT' });
    const body = b64url({ sub: '42', name: 'Ada' });
    const sig = crypto.createHmac('sha256', 'secret').update(`${head}.${body}`).digest('base64url');
    const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    [`${head}.${body}.${sig}`, decoded.name]
    """
    result, _ = await ok(client, code)
    # Node 20 prints this token for the same code.
    assert result == [
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MiIsIm5hbWUiOiJBZGEifQ."
        "qZfTQHBUn6oSABHXUxWoR_tKvc8mh4OsW16d9p99Q8M",
        "Ada",
    ]


async def test_a_webhook_signature_is_checked_with_web_crypto_hmac(client: Client) -> None:
    # RFC 4231, test case 2.
    code = """
    const enc = new TextEncoder();
    const key = await crypto.subtle.importKey('raw', enc.encode('Jefe'), { name: 'HMAC', hash: 'SHA-256' }, false,
      ['sign', 'verify']);
    const sig = await crypto.subtle.sign('HMAC', key, enc.encode('what do ya want for nothing?'));
    const hex = [...new Uint8Array(sig)].map((b) => b.toString(16).padStart(2, '0')).join('');
    [hex, await crypto.subtle.verify('HMAC', key, sig, enc.encode('what do ya want for nothing?')),
     await crypto.subtle.verify('HMAC', key, sig, enc.encode('tampered'))]
    """
    result, _ = await ok(client, code)
    assert result == ["5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", True, False]


async def test_buffers_print_as_node_prints_them(client: Client) -> None:
    result, text = await ok(client, "console.log(Buffer.from('hi')); Buffer.from([1, 2, 255])")
    assert "<Buffer 68 69>" in text
    assert "<Buffer 01 02 ff>" in text
    assert result == {"type": "Buffer", "data": [1, 2, 255]}


async def test_process_writes_into_the_captured_streams_and_exit_keeps_the_output(client: Client) -> None:
    code = """
    process.stdout.write('a');
    process.stdout.write('b\\n');
    process.stderr.write('warn\\n');
    process.exitCode = 0;
    process.exit();
    console.log('never');
    """
    text, structured, is_error = await run_js(client, code)
    assert is_error is False, text
    assert structured["stdout"] == "ab\n"
    assert structured["stderr"] == "warn\n"
    text, structured, is_error = await run_js(client, "console.log('kept'); process.exit(2)")
    assert is_error is True
    assert structured["stdout"] == "kept\n"
    assert "exit code 2" in structured["error"]["message"]


async def test_process_env_is_an_error_that_says_where_values_come_from(client: Client) -> None:
    _text, structured, is_error = await run_js(client, "const key = process.env.API_KEY ?? 'none'; key")
    assert is_error is True
    assert "input" in structured["error"]["message"]


async def test_built_ins_the_code_replaces_before_it_first_uses_a_module_change_no_answer(client: Client) -> None:
    tamper = """
    String.prototype.slice = () => 'sliced';
    String.prototype.split = () => ['split'];
    Function.prototype.call = function () { return 'called'; };
    Function.prototype.apply = function () { return 'applied'; };
    Array.prototype.push = function () { return 0; };
    Array.prototype.join = () => 'joined';
    JSON.stringify = () => 'stringified';
    """
    use = """
    const path = require('path');
    const { createHash } = require('crypto');
    const util = require('util');
    [path.join('a', '..', 'b', 'c.txt'), path.extname('x.tar.gz'), createHash('sha1').update('abc').digest('hex'),
     Buffer.from('héllo').toString('base64'), util.format('%s=%d', 'n', 42), new URLSearchParams('a=1&b=2').get('b')]
    """
    clean, _ = await ok(client, use)
    hostile, _ = await ok(client, tamper + use)
    assert (
        hostile
        == clean
        == [
            "b/c.txt",
            ".gz",
            "a9993e364706816aba3e25717850c26c9cd0d89d",
            "aMOpbGxv",
            "n=42",
            "2",
        ]
    )


async def test_the_data_folder_reads_as_node_reads_files(folder_client: Client) -> None:
    code = """
    import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
    import fs from 'fs';
    const rows = readFileSync('sales.csv', 'utf8').trim().split('\\n').slice(1).map((l) => l.split(','));
    const total = rows.reduce((s, [, amount]) => s + Number(amount), 0);
    const report = JSON.parse(await fs.promises.readFile('reports/q1.json', 'utf8'));
    [total, report.total, existsSync('sales.csv'), existsSync('nope.csv'), readdirSync('.').sort(),
     statSync('reports').isDirectory(), statSync('sales.csv').size]
    """
    result, _ = await ok(folder_client, code)
    assert result == [22.75, 22.75, True, False, ["reports", "sales.csv"], True, 44]


async def test_without_the_files_argument_files_gets_a_hint_naming_it(folder_client: Client) -> None:
    _text, structured, is_error = await run_js(folder_client, "files['sales.csv'].rows.length")
    assert is_error is True
    assert '"files": ["sales.csv"]' in structured["error"]["hint"]
    assert "readFileSync" in structured["error"]["hint"]


async def test_a_dot_slash_name_in_files_is_refused_saying_to_drop_it(folder_client: Client) -> None:
    result = await folder_client.call_tool("execute_js", {"code": "1", "files": ["./sales.csv"]})
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert "'sales.csv'" in text and "./" in text


async def test_fetch_of_a_folder_file_points_to_files_and_fs(folder_client: Client) -> None:
    _text, structured, is_error = await run_js(folder_client, "const r = await fetch('sales.csv'); await r.text()")
    assert is_error is True
    hint = structured["error"]["hint"]
    assert "`files`" in hint and "readFileSync" in hint


def test_the_node_modules_are_files_of_the_runtime() -> None:
    modules = sorted(path.stem for path in (Path(__file__).parents[1] / "js_runtime" / "node").glob("*.js"))
    for expected in ("assert", "buffer", "crypto", "events", "fs", "path", "process", "querystring", "url", "util"):
        assert expected in modules


async def test_process_warnings_print_as_node_prints_them(client: Client) -> None:
    code = (
        "process.emitWarning('careful'); process.emitWarning('old', 'DeprecationWarning', 'DEP0999');"
        " process.emitWarning(new Error('boom')); process.emitWarning('d', { type: 'CustomWarning', code: 'C1',"
        " detail: 'more' }); console.error('sync')"
    )
    _text, structured, _ = await run_js(client, code)
    # Node 20's stderr for the same code, with its process id as 1.
    assert structured["stderr"] == (
        "sync\n(node:1) Warning: careful\n(Use `node --trace-warnings ...` to show where the warning was created)\n"
        "(node:1) [DEP0999] DeprecationWarning: old\n(node:1) Error: boom\n(node:1) [C1] CustomWarning: d\nmore\n"
    )


async def test_os_gives_its_constants_and_refuses_what_describes_the_host(client: Client) -> None:
    result, _ = await ok(client, "const os = require('os'); [os.EOL, os.constants.signals.SIGTERM, os.platform()]")
    assert result == ["\n", 15, "linux"]
    for call in ("cpus()", "hostname()", "totalmem()", "userInfo()", "networkInterfaces()", "homedir()"):
        text, structured, is_error = await run_js(client, f"require('os').{call}")
        assert is_error is True, call
        assert "describes the host machine" in structured["error"]["message"], text
