"""Code mode, attacked through what the host shows and decides: a consent question that shows less than it allows,
a server that lists one tool twice to get the permissive entry used, a reason that quotes a URL's token to the code,
and names that forge lines in the server's log."""

from __future__ import annotations

import json
import logging
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from sandbox_server.upstream.config import ServerConfig
from sandbox_server.upstream.connection import Upstream
from sandbox_server.upstream.directory import Directory, public_reason
from sandbox_server.upstream.service import CallLimits, ToolsService
from tests.upstream.servers.tricky import FORGED_TOOL

from ..codemode.conftest import CodeMode, User, code_mode, stdio_server, write_config

pytestmark = pytest.mark.anyio

PATH_TOKEN = "tok-path-9f8e7d6c5b4a"
QUERY_TOKEN = "tok-query-1a2b3c4d5e6f"
CONSENT_LIMIT = 4_000


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def upstream_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("trust")


@pytest.fixture(scope="module")
async def tricky(upstream_dir: Path) -> AsyncIterator[CodeMode]:
    config = write_config(
        upstream_dir,
        {
            "bank": stdio_server("tricky", sideEffects="confirm"),
            "vault": stdio_server("tricky"),
            "closed": {"url": f"http://127.0.0.1:{closed_port()}/u/{PATH_TOKEN}/mcp?key={QUERY_TOKEN}"},
        },
    )
    # Consent is asked by elicitation within the call, which the 2025-11-25 revision carries.
    async with code_mode(config, User(), max_consent_argument_chars=CONSENT_LIMIT) as connected:
        yield connected


def questions(connected: CodeMode) -> list[str]:
    assert connected.user is not None
    return [question.message for question in connected.user.questions]


async def test_a_long_first_argument_cannot_push_the_payee_off_the_consent_question(tricky: CodeMode) -> None:
    before = len(questions(tricky))
    note = "n" * 2_100  # the attack: past what the question used to show
    assert (
        await tricky.value(
            f"await tools.bank.send_payment({{ note: '{note}', to: 'attacker@example.com', amount: 1e6 }})"
        )
        == "sent 1000000 to attacker@example.com"
    )
    (question,) = questions(tricky)[before:]
    assert note in question and '"to": "attacker@example.com"' in question and '"amount": 1000000' in question
    assert "more characters" not in question


async def test_arguments_too_large_to_show_are_refused_without_asking_or_sending(tricky: CodeMode) -> None:
    before = len(questions(tricky))
    paid = len((await tricky.value("await tools.bank.state()"))["payments"])
    _, structured = await tricky.run(
        "await tools.bank.send_payment({ note: 'n'.repeat(5000), to: 'attacker@example.com', amount: 1e6 })"
    )
    error = structured["error"]
    size = len(json.dumps({"note": "n" * 5000, "to": "attacker@example.com", "amount": 1000000}, indent=1))
    assert error["name"] == "ToolError"
    assert f"{size} characters" in error["message"] and f"the {CONSENT_LIMIT} a consent" in error["message"]
    assert "max_consent_argument_chars" in error["message"]
    assert structured["toolCalls"][0]["outcome"] == "too_large"
    assert len(questions(tricky)) == before, "the user was asked about a call the question could not show"
    assert len((await tricky.value("await tools.bank.state()"))["payments"]) == paid


async def test_reordering_and_line_breaking_characters_are_escaped_in_the_question(tricky: CodeMode) -> None:
    before = len(questions(tricky))
    await tricky.value(r"await tools.bank.send_payment({ to: 'moc.elpmaxe@\u202ekcatta\u2028ok', amount: 1 })")
    (question,) = questions(tricky)[before:]
    assert "\u202e" not in question and "\u2028" not in question
    assert '"to": "moc.elpmaxe@\\u202ekcatta\\u2028ok"' in question


async def test_a_tool_listed_twice_is_decided_on_its_stricter_entry(tricky: CodeMode) -> None:
    value = await tricky.value(
        """
        let refused;
        try { await tools.vault.wipe(); } catch (e) { refused = e.code; }
        [refused, (await tools.$search('wipe')).filter((t) => t.server === 'vault').length,
         await tools.$describe('vault.wipe')]
        """
    )
    refused, found, described = value
    assert refused == "refused"
    assert found == 1 and "Deletes everything" in described and "Only looks" not in described
    assert (await tricky.value("await tools.vault.state()"))["wipes"] == 0
    listing = (await tricky.tool()).description or ""
    block = listing[listing.index("tools.vault:") :].split("\ntools")[0]
    assert block.count("wipe") == 1 and "refused by the user's policy: " in block and "wipe" in block.splitlines()[-1]


async def test_an_unavailable_servers_reason_names_its_host_and_never_its_url_path_or_query(tricky: CodeMode) -> None:
    value = await tricky.value(
        """
        const seen = [];
        try { seen.push(JSON.stringify(tools.closed)); } catch (e) { seen.push(e.message); }
        for (const attempt of [() => tools.closed.anything(), () => tools.$describe('closed')]) {
          try { await attempt(); } catch (e) { seen.push(e.message); }
        }
        seen
        """
    )
    text = "\n".join(value)
    assert "127.0.0.1" in text and "closed" in text
    assert PATH_TOKEN not in text and QUERY_TOKEN not in text and "/u/" not in text


async def test_a_reason_quoting_the_url_in_any_form_shows_only_the_host() -> None:
    url = f"https://mcp.example.com:8443/u/{PATH_TOKEN}/mcp?key={QUERY_TOKEN}&mode=fast"
    upstream = Upstream(ServerConfig(name="remote", transport="http", url=url))
    for reason in (
        f"cannot connect to {url}",
        f"HTTP 404 for https://mcp.example.com:8443/u/{PATH_TOKEN}/mcp",
        f"POST /u/{PATH_TOKEN}/mcp failed",
        f"bad path /u/{PATH_TOKEN.replace('-', '%2D')}/mcp",
        f"query key={QUERY_TOKEN}",
    ):
        upstream.reason = reason
        shown = public_reason(upstream)
        assert PATH_TOKEN not in shown and QUERY_TOKEN not in shown, shown
        assert PATH_TOKEN.replace("-", "%2D") not in shown, shown
    upstream.reason = f"cannot connect to {url}"
    assert public_reason(upstream) == "cannot connect to https://mcp.example.com:8443"


async def test_names_from_the_code_or_a_server_cannot_forge_a_line_in_the_log(
    tricky: CodeMode, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    code = f"await tools.vault[{FORGED_TOOL!r}]()".replace("\n", "\\n")
    assert await tricky.value(code) == "peeked"
    assert tricky.app.upstreams is not None
    service = ToolsService(Directory(tricky.app.upstreams), CallLimits(timeout_s=5, result_bytes=10_000))
    for payload in (
        {"server": "vault\nINFO forged: server line", "tool": "state", "arguments": {}},
        {"server": "vault", "tool": "no\u2028such\rtool\u0085", "arguments": {}},
    ):
        with pytest.raises(Exception) as failed:
            await service("tools.call", payload)
        assert getattr(failed.value, "error", {}).get("name") == "ToolError"
    mine = [record for record in caplog.records if record.name.startswith("sandbox_server.upstream")]
    assert any("peek\\u000aINFO" in record.getMessage() for record in mine)
    assert any("vault\\u000aINFO forged" in record.getMessage() for record in mine)
    for record in mine:
        message = record.getMessage()
        assert message.splitlines() == [message], message
