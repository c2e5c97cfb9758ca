"""The data the real-server tasks start from (:mod:`benchmarks.real_tasks`): the same, generated from fixed seeds, in
every world, so that direct calls and code mode see identical servers.

- a data folder for server-filesystem: sales CSV files in year/quarter folders, an orders file, and other files that
  a search must skip;
- a knowledge graph for server-memory (its JSON-lines file): people with their roles, projects, who works on what,
  who mentors whom.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

__all__ = ["MENTORS", "PEOPLE", "PROJECTS", "REGIONS", "write_world"]

REGIONS = ("north", "south", "east", "west")
PROJECTS = {
    "Compiler": "an optimising compiler for a systems language",
    "Kernel": "an operating system kernel",
    "Apollo": "guidance software for a lunar mission",
    "Search": "a web search engine",
}
PEOPLE = {
    "Ada": ("compiler engineer", "Compiler"),
    "Grace": ("language designer", "Compiler"),
    "Barbara": ("abstraction researcher", "Compiler"),
    "Frances": ("optimisation specialist", "Compiler"),
    "Linus": ("kernel maintainer", "Kernel"),
    "Ken": ("systems programmer", "Kernel"),
    "Dennis": ("language and systems designer", "Kernel"),
    "Radia": ("network protocol designer", "Kernel"),
    "Margaret": ("flight software lead", "Apollo"),
    "Katherine": ("trajectory analyst", "Apollo"),
    "Dorothy": ("numerical methods lead", "Apollo"),
    "Mary": ("aerospace engineer", "Apollo"),
    "Larry": ("ranking researcher", "Search"),
    "Sergey": ("data miner", "Search"),
    "Karen": ("information retrieval scientist", "Search"),
    "Jeff": ("distributed systems engineer", "Search"),
}
MENTORS = (("Grace", "Ada"), ("Ken", "Linus"), ("Dennis", "Radia"), ("Margaret", "Katherine"), ("Karen", "Larry"))
SALES_FILES = (("2025", "q3", 2), ("2025", "q4", 3), ("2026", "q1", 3))
"""(year, quarter, files): eight sales files in all."""
SALES_ROWS = 18
ORDERS = 36
CUSTOMERS = ("Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark", "Wayne")


def _sales(folder: Path) -> None:
    rng = random.Random(20260101)
    for year, quarter, count in SALES_FILES:
        place = folder / "sales" / year / quarter
        place.mkdir(parents=True, exist_ok=True)
        for number in range(1, count + 1):
            lines = ["date,region,amount"]
            for _ in range(SALES_ROWS):
                month = {"q1": 1, "q3": 7, "q4": 10}[quarter] + rng.randrange(3)
                day = 1 + rng.randrange(28)
                amount = rng.randrange(1_000, 90_000) / 100
                lines.append(f"{year}-{month:02d}-{day:02d},{rng.choice(REGIONS)},{amount:.2f}")
            (place / f"store-{number}.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
        (place / "summary.txt").write_text(f"Sales of {year} {quarter}: see the CSV files.\n", encoding="utf-8")
    (folder / "sales" / "README.md").write_text("One CSV file per store and quarter.\n", encoding="utf-8")


def _orders(folder: Path) -> None:
    rng = random.Random(20260202)
    lines = ["order_id,customer,amount"]
    lines += [
        f"{1000 + number},{rng.choice(CUSTOMERS)},{rng.randrange(500, 50_000) / 100:.2f}"
        for number in range(1, ORDERS + 1)
    ]
    (folder / "orders.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _graph(path: Path) -> None:
    lines = [
        {"type": "entity", "name": name, "entityType": "project", "observations": [about]}
        for name, about in PROJECTS.items()
    ]
    lines += [
        {"type": "entity", "name": name, "entityType": "person", "observations": [f"role: {role}"]}
        for name, (role, _project) in PEOPLE.items()
    ]
    lines += [
        {"type": "relation", "from": name, "to": project, "relationType": "works_on"}
        for name, (_role, project) in PEOPLE.items()
    ]
    lines += [{"type": "relation", "from": a, "to": b, "relationType": "mentors"} for a, b in MENTORS]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")


def write_world(folder: Path) -> None:
    """The data folder (``folder/files``) and the knowledge graph (``folder/memory.jsonl``); no database yet."""
    files = folder / "files"
    files.mkdir(parents=True, exist_ok=True)
    _sales(files)
    _orders(files)
    _graph(folder / "memory.jsonl")
