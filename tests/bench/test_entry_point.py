"""``python -m benchmarks`` is the one entry point: ``--only`` picks sections and studies by name, in the run's order,
and refuses a name it does not know with the names it takes."""

from __future__ import annotations

import io
from pathlib import Path

import anyio
import pytest

from benchmarks import cli, sections
from benchmarks.model import Row, Section
from benchmarks.plan import QUICK
from benchmarks.progress import Progress

BENCHMARKS = Path(__file__).resolve().parent.parent.parent / "benchmarks"


def test_only_runs_the_named_parts_in_the_order_of_the_run_and_the_named_studies_after() -> None:
    parser = cli.build_parser()
    args = parser.parse_args(["--only", "charts", "soak", "isolates"])
    assert cli._names(parser, args.only) == (["isolates", "charts"], ["soak"])


def test_without_only_every_part_runs_and_no_study() -> None:
    parts, studies = cli._names(cli.build_parser(), None)
    assert parts == [part.name for part in sections.PARTS]
    assert studies == []


def test_a_name_only_does_not_know_is_refused_with_the_names_it_takes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        cli.run(["--only", "latency", "sesions"])
    assert caught.value.code == 2
    error = capsys.readouterr().err
    assert "--only does not know 'sesions'" in error
    assert "sessions" in error and "soak" in error


def test_list_names_every_part_and_study(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.run(["--list"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == list(cli.NAMES)


async def _section(key: str) -> Section:
    section = Section(key, key)
    section.rows.append(Row("x", "x", "ms", [1.0]))
    return section


@pytest.mark.anyio
async def test_a_run_limited_to_some_parts_measures_those_and_no_other(monkeypatch: pytest.MonkeyPatch) -> None:
    measured: list[str] = []

    def fake(key: str):  # type: ignore[no-untyped-def]
        async def measure(*args: object) -> Section:
            measured.append(key)
            return await _section(key)

        return measure

    for module in (sections.charts, sections.consent, sections.packages, sections.balancer, sections.coldstart):
        monkeypatch.setattr(module, "measure", fake(module.__name__.rsplit(".", 1)[1]))
    run = sections.Run(QUICK, Progress(2, stream=io.StringIO()), only={"packages", "coldstart"})
    with anyio.fail_after(10):
        await run.measure_all()
    assert measured == ["coldstart", "packages"]
    assert [section.key for section in run.sections] == ["coldstart", "packages"]
    assert not run.failed


def test_no_benchmark_module_is_an_entry_point_of_its_own() -> None:
    own = sorted(
        path.name
        for path in BENCHMARKS.glob("*.py")
        if path.name != "__main__.py" and '__name__ == "__main__"' in path.read_text(encoding="utf-8")
    )
    assert own == []


def test_the_benchmarks_readme_names_every_part_and_study_it_can_run() -> None:
    readme = (BENCHMARKS / "README.md").read_text(encoding="utf-8")
    missing = [name for name in cli.NAMES if f"`{name}`" not in readme]
    assert missing == []
