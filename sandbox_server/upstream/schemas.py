"""Checks of values against an upstream tool's schemas: arguments before a call leaves, results after it comes.

A :class:`SchemaCheck` is compiled once per schema and kept by the tool layer. The schema comes from an
upstream server and is not trusted:

- It is never a reason to fetch anything: ``$ref`` to anything but the schema itself (``https:``, ``file:``,
  a relative file name) is looked up in a registry holding only the JSON Schema metaschemas, whose retrieval
  hook fetches nothing and answers with an empty schema: such a reference accepts any value.
- An invalid schema does not fail the call: the check accepts everything and says why in
  :attr:`SchemaCheck.unusable_reason` (logged once as a warning on ``sandbox_server.upstream``). The upstream
  server still checks its own arguments.
- Formats are asserted only where Python's standard library decides them exactly and cheaply (:data:`FORMATS`),
  so that which values pass does not depend on optional packages being installed; other formats are
  annotations, as JSON Schema 2020-12 makes them by default. ``regex`` is left out: Python's syntax is not
  JavaScript's.
- Bounded work: errors are collected up to :data:`MAX_ERRORS`; values in messages are cut short. (A pattern
  that backtracks catastrophically is not bounded: Python's ``re`` has no timeout.)
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Mapping
from typing import Any, cast

import referencing
import referencing.exceptions
import referencing.jsonschema
from jsonschema import Draft202012Validator, FormatChecker, validators
from jsonschema.exceptions import SchemaError, ValidationError, best_match
from jsonschema.protocols import Validator
from jsonschema_specifications import REGISTRY as METASCHEMAS  # type: ignore[import-untyped]

from sandbox_server.upstream import patterns
from sandbox_server.upstream.catalog import is_identifier, json_preview, quote
from sandbox_server.upstream.escapes import visible

__all__ = ["FORMATS", "MAX_ERRORS", "SchemaCheck"]

logger = logging.getLogger("sandbox_server.upstream")

FORMATS = ("date", "email", "idn-email", "ipv4", "ipv6", "uuid")
MAX_ERRORS = 100
"""Errors looked at for one value; past them a message says there are more."""
MAX_MESSAGE = 300
_FORMAT_CHECKER = FormatChecker(FORMATS)
_KINDS = {
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "a boolean",
    "null": "null",
    "array": "an array",
    "object": "an object",
}
_warned: set[str] = set()


def _nothing_fetched(uri: str) -> referencing.Resource[Any]:
    """The registry's retrieval hook: fetches nothing, and makes every outside reference accept any value."""
    return referencing.Resource.from_contents({}, default_specification=referencing.jsonschema.DRAFT202012)


# `retrieve` is an attrs field the stubs do not show (jsonschema itself passes it the same way).
_REGISTRY: referencing.Registry[Any] = referencing.Registry(retrieve=_nothing_fetched).combine(  # type: ignore[call-arg]
    METASCHEMAS
)


CHECK_BUDGET_S = 1.0
"""Most time the patterns of one check may take in all."""

patterns.install()


class SchemaCheck:
    """A compiled schema and the problems of a value against it, in sentences a model can act on."""

    def __init__(self, schema: object, root: str, validator: Validator | None, unusable_reason: str | None) -> None:
        self.schema = schema
        self.root = root
        self._validator = validator
        self.unusable_reason = unusable_reason
        """Why this check accepts everything (an invalid schema), or None when it checks."""

    @classmethod
    def build(cls, schema: object, *, root: str = "args") -> SchemaCheck | None:
        """The check of ``schema``, None when there is no schema. ``root`` names the value in messages."""
        if schema is None:
            return None
        if not isinstance(schema, Mapping | bool):
            return cls._unusable(schema, root, f"the schema is a JSON {type(schema).__name__}, not an object")
        declared = schema.get("$schema") if isinstance(schema, Mapping) else None
        kind = validators.validator_for(schema if isinstance(declared, str) else {}, default=Draft202012Validator)
        try:
            kind.check_schema(cast(Any, schema))
            validator = kind(schema, registry=_REGISTRY, format_checker=_FORMAT_CHECKER)
            probes: tuple[object, ...] = (None, {}, [], "", 0)
            for probe in probes:  # a $ref loop without end shows on any value
                next(validator.iter_errors(cast(Any, probe)), None)
        except SchemaError as error:
            path = "".join(f"[{quote(str(part))}]" for part in error.absolute_path)
            return cls._unusable(schema, root, f"invalid schema at {path or 'its root'}: {_cut(error.message)}")
        except RecursionError:
            return cls._unusable(schema, root, "the schema refers to itself without end or is nested too deep")
        except referencing.exceptions.Unresolvable as error:
            return cls._unusable(schema, root, _unresolvable(error))
        return cls(schema, root, validator, None)

    @classmethod
    def _unusable(cls, schema: object, root: str, reason: str) -> SchemaCheck:
        # Once per schema and reason, however often the tool layer rebuilds its checks (on tools/list_changed).
        key = f"{reason} {json_preview(schema, 200)}"
        if key not in _warned and len(_warned) < 1_000:
            _warned.add(key)
            logger.warning("an upstream tool's schema is not used for checks (%s): %s", visible(root), visible(reason))
        return cls(schema, root, None, reason)

    def problems(self, value: object, *, limit: int = 5) -> list[str]:
        """What is wrong with ``value``, at most ``limit`` sentences ordered by where they are, plus one saying
        how many more there are; empty when the value conforms (or the check is unusable)."""
        if self._validator is None:
            return []
        try:
            with patterns.budget(CHECK_BUDGET_S):
                errors = list(itertools.islice(self._validator.iter_errors(cast(Any, value)), MAX_ERRORS + 1))
        except patterns.CheckTooSlow:
            return [
                f"{self.root}: could not be checked against the tool's schema within {CHECK_BUDGET_S:g} s (one of its "
                "patterns takes too long on this value)"
            ]
        except RecursionError:
            return [f"{self.root}: nested too deeply to check"]
        except referencing.exceptions.Unresolvable as error:
            self._validator = None
            self.unusable_reason = _unresolvable(error)
            reason = visible(self.unusable_reason)
            logger.warning("an upstream tool's schema is no longer used for checks: %s", reason)
            return []
        # By where they are (the value's own problems first, array positions in order), then by wording.
        ordered = sorted(
            ([(0, part, "") if isinstance(part, int) else (1, 0, str(part)) for part in error.absolute_path], message)
            for error in errors[:MAX_ERRORS]
            for message in [self._explain(error)]
        )
        messages = list(dict.fromkeys(message for _, message in ordered))
        shown = messages[: max(limit, 0)]
        if len(errors) > MAX_ERRORS:
            shown.append("… and more problems")
        elif len(messages) > len(shown):
            shown.append(
                f"… and {len(messages) - len(shown)} more problem{'s' if len(messages) - len(shown) > 1 else ''}"
            )
        return shown

    def _explain(self, error: ValidationError) -> str:
        if error.validator in ("anyOf", "oneOf") and error.context:
            # The forms whose type the value has say most about what to change; when it has none's, say the types.
            wrong_type = {sub.relative_schema_path[0] for sub in error.context if _is_type_error(sub)}
            closer = [sub for sub in error.context if sub.relative_schema_path[0] not in wrong_type]
            if closer and (deepest := best_match(closer)) is not None:
                return self._explain(deepest)
            kinds = [sub.validator_value for sub in error.context if _is_type_error(sub)]
            expected = " or ".join(_accepted(kind) for kind in kinds) or "one of the accepted forms"
            return _cut(f"{self._path(error)}: expected {expected}, got {_shown(error.instance)}")
        return _cut(f"{self._path(error)}: {self._sentence(error)}")

    def _path(self, error: ValidationError) -> str:
        return self.root + "".join(
            f"[{part}]" if isinstance(part, int) else f".{part}" if is_identifier(part) else f"[{quote(str(part))}]"
            for part in error.absolute_path
        )

    def _sentence(self, error: ValidationError) -> str:
        keyword, limit, instance = error.validator, error.validator_value, error.instance
        shown = _shown(instance)
        if keyword == "type":
            return f"expected {_accepted(limit)}, got {shown}"
        if keyword == "required":
            missing = [
                name for name in cast(list[object], limit) if isinstance(instance, Mapping) and name not in instance
            ]
            return f"missing required property {', '.join(quote(str(name)) for name in missing[:5])}"
        if keyword in ("additionalProperties", "unevaluatedProperties") and isinstance(instance, Mapping):
            known = error.schema.get("properties", {}) if isinstance(error.schema, Mapping) else {}
            extra = [name for name in instance if name not in known][:5]
            accepted = ", ".join(list(known)[:20]) if isinstance(known, Mapping) and known else "none"
            return f"unexpected property {', '.join(quote(str(n)) for n in extra)}; the accepted ones are: {accepted}"
        if keyword == "enum" and isinstance(limit, list):
            options = ", ".join(json_preview(option, 40) for option in limit[:10]) + (", …" if len(limit) > 10 else "")
            return f"{shown} is not one of {options}"
        if keyword == "const":
            return f"expected {json_preview(limit, 60)}, got {shown}"
        words = {
            "minimum": "is less than the minimum of",
            "maximum": "is greater than the maximum of",
            "exclusiveMinimum": "must be greater than",
            "exclusiveMaximum": "must be less than",
            "multipleOf": "is not a multiple of",
        }
        if keyword in words:
            return f"{shown} {words[keyword]} {json_preview(limit, 40)}"
        sizes = {
            "minLength": ("characters", "at least"),
            "maxLength": ("characters", "at most"),
            "minItems": ("items", "at least"),
            "maxItems": ("items", "at most"),
            "minProperties": ("properties", "at least"),
            "maxProperties": ("properties", "at most"),
        }
        if keyword in sizes and isinstance(instance, str | list | Mapping):
            unit, bound = sizes[keyword]
            return f"has {len(instance)} {unit}, {bound} {limit} expected"
        if keyword == "pattern":
            return f"{shown} does not match the pattern {json_preview(limit, 80)}"
        if keyword == "format":
            return f"{shown} is not a valid {limit}"
        if keyword == "uniqueItems":
            return "items must be unique"
        if keyword == "not":
            return f"{shown} is not allowed here"
        if keyword is None or error.schema is False:
            return f"no value is allowed here, got {shown}"
        if keyword == "oneOf":
            return f"{shown} matches more than one of the accepted forms"
        return error.message


def _is_type_error(error: ValidationError) -> bool:
    return error.validator == "type" and not error.relative_path and len(error.relative_schema_path) == 2


def _unresolvable(error: referencing.exceptions.Unresolvable) -> str:
    return f"a $ref does not resolve ({json_preview(error.ref, 120)})"


def _accepted(kind: object) -> str:
    kinds = kind if isinstance(kind, list) else [kind]
    return " or ".join(_KINDS.get(str(name), str(name)) for name in kinds)


def _shown(value: object) -> str:
    """A value in a message: its JSON, cut short, with its kind where the JSON alone is ambiguous."""
    if isinstance(value, Mapping):
        return f"an object {json_preview(value, 60)}"
    if isinstance(value, list):
        return f"an array of {len(value)} item{'' if len(value) == 1 else 's'} {json_preview(value, 60)}"
    if isinstance(value, str):
        return f"the string {json_preview(value, 60)}"
    return json_preview(value, 60)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"
