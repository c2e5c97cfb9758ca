"""The logic of the ``real_tokens`` study that needs no server: how each way's tokens are counted, the desktop total,
the savings, the check that both ways reached the same answer, and how the direct side reads the servers' texts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from benchmarks import real_run
from benchmarks.real_data import PEOPLE, REGIONS, write_world
from benchmarks.real_tasks import TASKS, comparable
from benchmarks.real_tokens import (
    AnswersDiffer,
    Tally,
    check_answers,
    describe_code,
    lists_signatures,
    markdown,
    saving,
    tally,
)
from benchmarks.tokens import Transcript, encoding

TASK = {task.key: task for task in TASKS}


def words(text: str) -> int:
    return len(text.split())


def transcript(*parts: tuple[str, str, str]) -> Transcript:
    return Transcript(list(parts))


def test_the_desktop_total_swaps_the_per_task_listing_for_every_servers_listing() -> None:
    direct = transcript(
        ("tool listings read", "read", "one two three"),
        ("tool calls written", "write", "call"),
        ("tool results read", "read", "a b"),
        ("final answer written", "write", "done"),
    )
    code = transcript(("listing", "read", "x y"), ("code", "write", "z"), ("final answer written", "write", "done"))
    counted = tally("t", direct, 10, code, code, code, words)
    assert (counted.direct, counted.desktop, counted.code) == (7, 7 - 3 + 10, 4)
    assert counted.parts["direct"] == {
        "tool listings read": 3,
        "tool calls written": 1,
        "tool results read": 2,
        "final answer written": 1,
    }
    assert counted.turns == {"direct": 2, "code": 1, "signatures": 1, "names": 1}
    assert counted.saved == pytest.approx((1 - 4 / 7) * 100)


def test_the_style_the_budget_picks_is_the_one_judged_against_the_desktop_listing() -> None:
    counted = Tally("t", direct=100, desktop=1000, code=20, signatures=300, names=200)
    assert counted.code_all == 300 and counted.saved_desktop == pytest.approx(70.0)
    counted.default_names = True
    assert counted.code_all == 200 and counted.saved_desktop == pytest.approx(80.0)
    assert saving(5, 0) == 0.0


def test_answers_that_differ_fail_and_the_same_numbers_written_as_int_or_float_agree() -> None:
    task = TASK["everything"]
    check_answers(task, {"sum": 284.0, "average": 47.3}, {"average": 47.3, "sum": 284})
    with pytest.raises(AnswersDiffer, match="task everything"):
        check_answers(task, {"sum": 284.0, "average": 47.3}, {"sum": 283, "average": 47.3})
    assert comparable({"b": [1.004, 2], "a": "x"}) == '{"a": "x", "b": [1.0, 2.0]}'


def test_code_modes_sqlite_answer_is_read_as_the_direct_side_reads_it() -> None:
    text = "[{'customer': 'Acme', 'total': 1234.5, 'orders': 7}, {'customer': 'Hooli', 'total': 99.0, 'orders': 1}]"
    task = TASK["orders"]
    assert task.value(text) == [["Acme", 1234.5, 7], ["Hooli", 99.0, 1]]
    check_answers(task, [["Acme", 1234.5, 7], ["Hooli", 99, 1]], text)


def test_the_largest_file_is_compared_from_the_sales_folder_on() -> None:
    task = TASK["files"]
    direct = {"totals": {"north": 1.0}, "file": "2025/q3/store-1.csv", "total": 5.0}
    check_answers(task, direct, {**direct, "file": "/tmp/w-code----/files/sales/2025/q3/store-1.csv"})


def test_the_listing_style_is_told_from_the_description() -> None:
    assert lists_signatures("Run code.\ntools.time:\n  convert_time({time: string}): {target: T}")
    assert not lists_signatures("Run code.\ntools.time: get_current_time, convert_time\ntools.x: 3 tools")


def test_the_describe_turn_asks_for_every_tool_the_task_calls() -> None:
    code = describe_code(TASK["orders"])
    for name in TASK["orders"].tools:
        assert f"'{name}'" in code
    assert code.startswith("(await Promise.all([") and "tools.$describe(name)" in code


def test_the_report_has_a_row_per_task_and_the_totals() -> None:
    rows = [Tally(key, 100, 1000, 25, 300, 150, default_names=True) for key in ("memory", "time")]
    text = markdown(rows, TASK, "o200k_base", ["a note"])
    assert "| memory | 100 | 1,000 | 25 | 75.0% | 300 | 150 (picked) | 85.0% |" in text
    assert "| **all five** | 200 | 2,000 | 50 | 75.0% | 600 | 300 (picked) | 85.0% |" in text
    assert text.rstrip().endswith("- a note")


class FakeFilesystem:
    """Answers as server-filesystem 2026.8.31 does: search results one path a line, and several files as
    ``PATH:\\nCONTENT`` blocks separated by ``---`` lines."""

    def __init__(self, root: Path) -> None:
        self.files = {str(path): path.read_text() for path in sorted((root / "sales").rglob("*.csv"))}

    async def call(self, server: str, tool: str, arguments: dict[str, Any]) -> str:
        if tool == "search_files":
            return "\n".join(self.files)
        assert tool == "read_multiple_files"
        return "\n---\n".join(f"{path}:\n{self.files[path]}\n" for path in arguments["paths"])

    async def together(self, server: str, calls: list[tuple[str, dict[str, Any]]]) -> list[str]:
        return [await self.call(server, tool, arguments) for tool, arguments in calls]


def test_the_direct_side_totals_the_sales_files_it_read(tmp_path: Path) -> None:
    write_world(tmp_path)
    files = tmp_path / "files"
    value = anyio.run(TASK["files"].direct, FakeFilesystem(files), str(files))
    expected: dict[str, float] = {}
    by_file: dict[str, float] = {}
    for path in (files / "sales").rglob("*.csv"):
        name = str(path.relative_to(files / "sales"))
        for line in path.read_text().split("\n")[1:-1]:
            _date, region, amount = line.split(",")
            expected[region] = expected.get(region, 0.0) + float(amount)
            by_file[name] = by_file.get(name, 0.0) + float(amount)
    assert set(value["totals"]) <= set(REGIONS)
    assert value["totals"] == {region: round(total, 2) for region, total in sorted(expected.items())}
    assert value["file"] == max(by_file, key=lambda name: by_file[name])


def test_the_knowledge_graph_is_written_as_server_memory_reads_it(tmp_path: Path) -> None:
    write_world(tmp_path)
    lines = [json.loads(line) for line in (tmp_path / "memory.jsonl").read_text().splitlines()]
    people = [line for line in lines if line["type"] == "entity" and line["entityType"] == "person"]
    assert len(people) == len(PEOPLE)
    assert {"type": "relation", "from": "Linus", "to": "Kernel", "relationType": "works_on"} in lines


@pytest.mark.parametrize("drawn", [[0, 1], [123_456_789, 999_999_999], [7, 7, 42]])
def test_the_runs_folder_is_new_and_its_name_costs_the_same_tokens_whatever_its_digits(
    drawn: list[int], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    found = encoding()
    if found is None:
        pytest.skip("needs bpe-openai")
    encode = found[1]
    draws = iter(drawn)
    monkeypatch.setattr(real_run.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.setattr(real_run.secrets, "randbelow", lambda _limit: next(draws))
    (tmp_path / f"real-tokens-{drawn[0]:09d}").mkdir()  # taken: names are drawn until one is free
    with real_run._folder() as folder:
        assert folder.is_dir() and not any(folder.iterdir())
        assert folder.name == f"real-tokens-{drawn[-1]:09d}"
        path = f'{{"path": "{folder}/w-code----/files/sales"}}'
        assert len(encode(path)) == len(encode(path.replace(folder.name, "real-tokens-000000000")))
    assert not folder.exists()
