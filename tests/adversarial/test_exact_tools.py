"""The exact tools under hostile arguments: zone names that are directories or host files, extreme spans."""

from __future__ import annotations

import anyio
import mcp_types as types
import pytest

from .conftest import CALL_WAIT_S, Sandbox

pytestmark = pytest.mark.anyio


async def date_diff(sandbox: Sandbox, **arguments: object) -> tuple[str, dict[str, object] | None, bool]:
    with anyio.fail_after(CALL_WAIT_S):
        result = await sandbox.client.call_tool("date_diff", arguments)
    assert len(result.content) == 1 and isinstance(result.content[0], types.TextContent)
    return result.content[0].text, result.structured_content, bool(result.is_error)


@pytest.mark.parametrize(
    "zone",
    [
        pytest.param("America", id="zone-directory"),
        pytest.param("Etc", id="another-zone-directory"),
        pytest.param("__pycache__", id="python-cache-directory-of-the-tzdata-package"),
        pytest.param("localtime", id="the-hosts-own-zone"),
        pytest.param("posixrules", id="host-file-outside-the-zone-list"),
        pytest.param("/etc/localtime", id="absolute-path"),
        pytest.param("../../../etc/localtime", id="relative-path"),
        pytest.param("America/../Europe/Paris", id="dot-dot-inside-a-name"),
        pytest.param("zone.tab", id="a-data-file-that-is-not-a-zone"),
        pytest.param("America/New_York/", id="trailing-slash"),
        pytest.param("", id="empty"),
    ],
)
async def test_a_zone_name_that_is_not_a_listed_zone_is_an_argument_error_that_reads_no_host_file(
    sandbox: Sandbox, zone: str
) -> None:
    text, _, is_error = await date_diff(sandbox, start="2024-01-01T00:00", end="2024-01-02T00:00", timezone=zone)
    assert is_error
    assert text == (
        f"Error: timezone = {zone!r} is not a known IANA time zone; use a name such as 'UTC', 'Europe/Paris' or "
        "'America/New_York'."
    )
    await sandbox.assert_still_serving()


async def test_elapsed_seconds_over_the_whole_calendar_are_exact_to_the_microsecond(sandbox: Sandbox) -> None:
    text, facts, is_error = await date_diff(sandbox, start="0001-01-01T00:00:00", end="9999-12-31T23:59:59.999998")
    assert not is_error and facts is not None
    # As a binary float this is 315537897600.0: two microseconds short of the next second are lost.
    assert facts["total_seconds"] == "315537897599.999998"
    assert "= 315537897599.999998 seconds" in text
    backward_text, backward, _ = await date_diff(sandbox, start="9999-12-31T23:59:59.999998", end="0001-01-01T00:00:00")
    assert backward is not None
    assert backward["total_seconds"] == "-315537897599.999998"
    assert "= -315537897599.999998 seconds" in backward_text


async def test_a_single_microsecond_is_reported_as_such(sandbox: Sandbox) -> None:
    text, facts, _ = await date_diff(sandbox, start="2024-01-01T00:00:00", end="2024-01-01T00:00:00.000001")
    assert facts is not None
    assert (facts["total_seconds"], facts["seconds"]) == ("0.000001", 1e-06)
    assert "= 0.000001 seconds" in text
