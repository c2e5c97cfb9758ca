"""Argument validation against a tool's JSON Schema 2020-12, with messages a model can act on."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

__all__ = ["ArgumentValidator", "non_json_numbers"]

_JSON_TYPE_NAMES = {
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
    type(None): "null",
}


_MAX_SHOWN_PATTERN = 24
"""Longer patterns say less to a model than the property's description does."""


def _describe(value: Any) -> str:
    """A short quotation of a JSON value with its type, for error messages."""
    kind = _JSON_TYPE_NAMES.get(type(value), type(value).__name__)
    text = json.dumps(value, ensure_ascii=False, default=str)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{kind} {text}"


def _field(error: ValidationError) -> str:
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in error.absolute_path)
    return path.lstrip(".") or "(arguments)"


def _expected(schema: Any) -> str:
    """What a (sub)schema accepts, in words."""
    if not isinstance(schema, Mapping):
        return "a valid value"
    for combinator in ("anyOf", "oneOf"):
        if combinator in schema:
            return " or ".join(_expected(option) for option in schema[combinator])
    if "description" in schema and "type" not in schema:
        return str(schema["description"])
    kind = schema.get("type")
    words = {
        "integer": "an integer",
        "number": "a number",
        "string": "a string",
        "boolean": "a boolean",
        "object": "an object",
        "array": "an array",
        "null": "null",
    }
    if isinstance(kind, list):
        text = " or ".join(words.get(str(k), str(k)) for k in kind)
    else:
        text = words.get(str(kind), "a value") if kind else "a value"
    details = []
    if "pattern" in schema and len(str(schema["pattern"])) <= _MAX_SHOWN_PATTERN:
        details.append(f"matching {schema['pattern']}")
    if "minimum" in schema:
        details.append(f">= {schema['minimum']}")
    if "maximum" in schema:
        details.append(f"<= {schema['maximum']}")
    if "minLength" in schema:
        details.append(f"at least {schema['minLength']} characters")
    if "maxLength" in schema:
        details.append(f"at most {schema['maxLength']} characters")
    if "enum" in schema:
        details.append("one of " + ", ".join(json.dumps(v) for v in schema["enum"]))
    return text + (f" ({', '.join(details)})" if details else "")


Check = Callable[[Any], bool]
"""Whether a value is valid against one property's schema, for the properties :func:`_quick_check` can judge."""

_ANNOTATIONS = frozenset({"description", "default", "title", "examples", "$comment"})
_QUICK_OBJECT_KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties"}) | _ANNOTATIONS
_QUICK_KEYWORDS: dict[str, frozenset[str]] = {
    "string": frozenset({"type", "minLength", "maxLength", "pattern"}) | _ANNOTATIONS,
    "integer": frozenset({"type", "minimum", "maximum"}) | _ANNOTATIONS,
    "number": frozenset({"type", "minimum", "maximum"}) | _ANNOTATIONS,
    "boolean": frozenset({"type"}) | _ANNOTATIONS,
}


def _quick_check(schema: Any) -> Check | None:
    """A check that says exactly what the schema says of a value, for a schema of plain types (a string with
    lengths and a pattern, an integer or a number with bounds, a boolean; one type or a list of them, each bound
    applying to its own type as in JSON Schema) or of annotations only; None for any other."""
    if not isinstance(schema, Mapping):
        return None
    kind = schema.get("type")
    if kind is None:
        return (lambda value: True) if set(schema) <= _ANNOTATIONS else None
    kinds = [kind] if isinstance(kind, str) else kind
    if not isinstance(kinds, list) or not kinds or not all(isinstance(k, str) and k in _QUICK_KEYWORDS for k in kinds):
        return None
    if len(set(kinds)) != len(kinds) or not set(schema) <= frozenset().union(*(_QUICK_KEYWORDS[k] for k in kinds)):
        return None
    bounds = [schema.get(name) for name in ("minLength", "maxLength", "minimum", "maximum")]
    if not all(bound is None or (isinstance(bound, int | float) and not isinstance(bound, bool)) for bound in bounds):
        return None
    checks = [_type_check(k, schema) for k in kinds]
    if len(checks) == 1:
        return checks[0]
    return lambda value: any(check(value) for check in checks)


def _type_check(kind: str, schema: Mapping[str, Any]) -> Check:
    """The check of one plain type with the bounds of ``schema`` that apply to it."""
    if kind == "boolean":
        return lambda value: type(value) is bool
    if kind in ("integer", "number"):
        low, high = schema.get("minimum", -math.inf), schema.get("maximum", math.inf)
        # A float that is whole is an integer to JSON Schema; the glance leaves it to the schema (no verdict).
        types = (int,) if kind == "integer" else (int, float)
        return lambda value: type(value) in types and low <= value <= high
    shortest, longest = schema.get("minLength", 0), schema.get("maxLength", math.inf)
    pattern = schema.get("pattern")
    search = None if pattern is None else re.compile(pattern).search
    return lambda value: (
        type(value) is str and shortest <= len(value) <= longest and (search is None or search(value) is not None)
    )


class ArgumentValidator:
    """Validates tool arguments and explains every problem found."""

    def __init__(self, schema: Mapping[str, Any], *, unavailable: Mapping[str, str] | None = None) -> None:
        """``unavailable``: arguments this schema lacks because of how the server was started, each with what to
        change, said when a call passes one."""
        Draft202012Validator.check_schema(schema)
        self._schema = schema
        self._unavailable = unavailable or {}
        self._validator = Draft202012Validator(schema)
        properties = schema.get("properties", {})
        self._accepted = list(properties) if isinstance(properties, Mapping) else []
        self._quick = self._quick_checks(schema)

    def problems(self, arguments: Any) -> list[str]:
        """Every way ``arguments`` fails the schema, one sentence each; empty when valid.

        Arguments of plain values that the checks of :func:`_quick_check` find valid are valid without a walk of
        the schema; anything else is judged, and explained, by the schema.

        An array argument longer than its schema's ``maxItems`` is refused by its length before its items are
        walked, and only its first ``maxItems`` items are checked one by one: the items of a list of a few hundred
        thousand names would otherwise take seconds to check, on the event loop, only to be refused anyway.
        """
        if self._valid_at_a_glance(arguments):
            return []
        return self._schema_problems(arguments)

    def _quick_checks(self, schema: Mapping[str, Any]) -> dict[str, Check | None] | None:
        """Each property's quick check (None where it has none), when the schema is an object of such properties
        with no properties besides them; None when it is not."""
        properties, required = schema.get("properties", {}), schema.get("required", [])
        if (
            not set(schema) <= _QUICK_OBJECT_KEYWORDS
            or schema.get("type") != "object"
            or schema.get("additionalProperties") is not False
            or not isinstance(properties, Mapping)
            or not isinstance(required, list)
            or not set(required) <= set(properties)
        ):
            return None
        return {name: _quick_check(subschema) for name, subschema in properties.items()}

    def _valid_at_a_glance(self, arguments: Any) -> bool:
        """Whether ``arguments`` are valid by the quick checks alone (False is no verdict: the schema judges)."""
        checks = self._quick
        if checks is None or type(arguments) is not dict:
            return False
        for name, value in arguments.items():
            check = checks.get(name)
            if check is None or not check(value):
                return False
        return all(name in arguments for name in self._schema.get("required", ()))

    def _schema_problems(self, arguments: Any) -> list[str]:
        arguments, oversized = self._within_sizes(arguments)
        errors: Iterable[ValidationError] = self._validator.iter_errors(arguments)
        messages = oversized + [self._explain(error, arguments) for error in errors]
        return sorted(dict.fromkeys(messages))

    def _within_sizes(self, arguments: Any) -> tuple[Any, list[str]]:
        if not isinstance(arguments, dict):
            return arguments, []
        properties = self._schema.get("properties", {})
        problems: list[str] = []
        trimmed: dict[str, Any] | None = None
        for name, value in arguments.items():
            schema = properties.get(name) if isinstance(properties, Mapping) else None
            limit = schema.get("maxItems") if isinstance(schema, Mapping) else None
            if isinstance(value, list) and isinstance(limit, int) and len(value) > limit:
                problems.append(f"argument '{name}': got an array of {len(value)} items, but maxItems is {limit}")
                trimmed = dict(arguments) if trimmed is None else trimmed
                trimmed[name] = value[:limit]
        return (arguments if trimmed is None else trimmed), problems

    def _explain(self, error: ValidationError, arguments: Any) -> str:
        accepted = ", ".join(self._accepted) or "none"
        if error.validator == "additionalProperties" and not error.absolute_path:
            extras = sorted(set(error.instance) - set(self._accepted)) if isinstance(error.instance, dict) else []
            names = ", ".join(repr(name) for name in extras)
            why = "".join(f"; {self._unavailable[name]}" for name in extras if name in self._unavailable)
            return f"unexpected argument {names}; accepted arguments are: {accepted}{why}"
        if error.validator == "required":
            missing = str(error.message).split("'")[1] if "'" in str(error.message) else str(error.message)
            return f"missing required argument '{missing}'"
        if error.validator == "type" and not error.absolute_path:
            return f"arguments must be a JSON object, got {_describe(arguments)}"
        field = _field(error)
        if error.validator in ("anyOf", "oneOf", "type", "pattern"):
            return f"argument '{field}': got {_describe(error.instance)}, expected {_expected(error.schema)}"
        if error.validator in ("maxLength", "minLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            limit = error.validator_value
            shown = (
                _describe(error.instance)
                if not isinstance(error.instance, str)
                else f"a string of {len(error.instance)} characters"
            )
            return f"argument '{field}': got {shown}, but {error.validator} is {limit}"
        return f"argument '{field}': {error.message}"


_NOT_FLOATS = frozenset({str, int, bool, type(None)})


def non_json_numbers(value: Any) -> list[str]:
    """Problems for NaN and infinite numbers anywhere in ``value``: a lenient JSON parser lets them through.

    The encoder finds out whether there is one at C speed; only then is ``value`` walked, in Python, to name where.
    Arguments whose values are all strings, integers, booleans or null hold none and are not encoded.
    """
    if type(value) is dict and all(type(item) in _NOT_FLOATS for item in value.values()):
        return []
    try:
        json.dumps(value, allow_nan=False)
    except ValueError:
        return _non_json_paths(value)
    except (TypeError, RecursionError):
        return []
    return []


def _non_json_paths(value: Any, path: str = "") -> list[str]:
    if isinstance(value, float) and not math.isfinite(value):
        return [f"argument '{path.lstrip('.') or '(arguments)'}': {value!r} is not a JSON number"]
    if isinstance(value, dict):
        return [problem for key, item in value.items() for problem in _non_json_paths(item, f"{path}.{key}")]
    if isinstance(value, list):
        return [problem for index, item in enumerate(value) for problem in _non_json_paths(item, f"{path}[{index}]")]
    return []
