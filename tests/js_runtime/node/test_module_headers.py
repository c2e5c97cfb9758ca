"""Each Node module's header lists every module its source loads, so the worker sends them together."""

from __future__ import annotations

import re

import pytest

import js_runtime

_MODULES = js_runtime.node_modules()
_LOADS = re.compile(r"""\bhost\.require\(\s*['"]([\w/]+)['"]\s*\)""")


@pytest.mark.parametrize("module_id", sorted(_MODULES))
def test_a_module_declares_every_module_it_loads(module_id: str) -> None:
    module = _MODULES[module_id]
    loaded = set(_LOADS.findall(module.source)) - {module_id}
    assert loaded <= set(module.requires), f"{module_id} loads {sorted(loaded - set(module.requires))} undeclared"


def test_the_pattern_finds_the_loads_it_is_meant_to_find() -> None:
    assert _LOADS.findall("const B = host.require('buffer').Buffer; host.require(\"internal/util/comparisons\")") == [
        "buffer",
        "internal/util/comparisons",
    ]
