"""ES module files as functions the isolate can run: V8 under mini-racer evaluates scripts only, with no module API.

The body of a module becomes the body of a function of the loader's hooks, with its text kept line for line:

- each ``import`` declaration is blanked, and the module it names is loaded by the prologue, in source order,
  before the body runs (``const __i$0 = __i$("./x.js")``), as ES modules load their dependencies first;
- every reference to an imported binding becomes a read of the dependency's namespace (``__i$0.format``, called as
  ``(0, __i$0.format)(...)`` so that ``this`` stays undefined), which keeps bindings live as ES modules do,
  cycles included; a local declaration of the same name shadows the import as it should (the scopes are followed);
- ``export`` in front of a declaration is blanked, and the prologue hands the loader a getter per exported name
  (``__m$.e({format: () => format})``), so that the namespace reads the binding when asked;
- ``export default EXPR`` becomes ``const __d$ = {default: (EXPR)}.default``, which gives an anonymous function
  the name ``default``, as the specification does; ``export ... from`` and ``export *`` forward to the dependency;
- ``import.meta`` becomes ``__meta$`` and ``import(x)`` becomes ``__di$(x)``, the loader's dynamic import.

The prologue goes on the first line, so line numbers in stack traces are those of the file. A module with
top-level ``await`` is not turned into a function: loading it fails with an error that says so.
"""

from __future__ import annotations

import dataclasses
import json

import tree_sitter
import tree_sitter_javascript

__all__ = ["Converted", "convert", "dynamic_specifiers"]

_LANGUAGE = tree_sitter.Language(tree_sitter_javascript.language())
_PARSER = tree_sitter.Parser(_LANGUAGE)

_FUNCTIONS = frozenset(
    {
        "function_declaration",
        "function_expression",
        "generator_function_declaration",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)
_BLOCKS = frozenset({"statement_block", "program", "for_statement", "for_in_statement", "switch_body", "class_body"})
_PATTERNS = {
    "object_pattern": None,
    "array_pattern": None,
    "rest_pattern": None,
    "pair_pattern": "value",
    "assignment_pattern": "left",
    "object_assignment_pattern": "left",
}
_DYNAMIC_IMPORT = tree_sitter.Query(_LANGUAGE, "(call_expression function: (import) @import)")
_META = tree_sitter.Query(_LANGUAGE, "(meta_property) @meta")
_AWAIT = tree_sitter.Query(_LANGUAGE, "(await_expression) @await")


@dataclasses.dataclass(frozen=True, slots=True)
class Converted:
    """A module as a function body.

    Attributes:
        body: The text the loader wraps as ``function (__m$, __i$, __di$, __meta$, process) { ... }``.
        imports: The specifiers the module loads statically, in order (``import`` and ``export ... from``).
        dynamic: The string-literal specifiers of its ``import()`` calls.
        error: Why it cannot run (top-level await, a syntax error), or None.
    """

    body: str
    imports: list[str]
    dynamic: list[str]
    error: str | None = None


def _text(node: tree_sitter.Node, data: bytes) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "surrogatepass")


def _string_value(node: tree_sitter.Node, data: bytes) -> str | None:
    if node.type != "string":
        return None
    try:
        value = json.loads(_text(node, data)) if _text(node, data).startswith('"') else None
    except ValueError:
        value = None
    if value is None:
        fragments = [_text(child, data) for child in node.named_children if child.type == "string_fragment"]
        value = "".join(fragments)
    return value if isinstance(value, str) else None


def _specifier_names(node: tree_sitter.Node, data: bytes) -> tuple[str, str]:
    """``(name, alias)`` of an import or export specifier (``a as b``, ``default as c``, ``x as "str"``)."""
    parts = [child for child in node.children if child.type not in ("as", ",")]
    names = [(_string_value(part, data) or "") if part.type == "string" else _text(part, data) for part in parts]
    return (names[0], names[-1]) if names else ("", "")


def _blank(start: int, end: int, data: bytes) -> tuple[int, int, bytes]:
    return start, end, bytes(b if b in b"\r\n" else 32 for b in data[start:end])


def _pattern_names(node: tree_sitter.Node, data: bytes) -> list[str]:
    """The names a declaration pattern binds."""
    if node.type in ("identifier", "shorthand_property_identifier_pattern"):
        return [_text(node, data)]
    field = _PATTERNS.get(node.type, "") if node.type in _PATTERNS else ""
    if node.type not in _PATTERNS:
        return []
    if field:
        child = node.child_by_field_name(field)
        return [] if child is None else _pattern_names(child, data)
    return [name for child in node.named_children for name in _pattern_names(child, data)]


def _declared_names(declaration: tree_sitter.Node, data: bytes) -> list[str]:
    if declaration.type in ("lexical_declaration", "variable_declaration"):
        names: list[str] = []
        for declarator in declaration.named_children:
            if declarator.type == "variable_declarator" and (name := declarator.child_by_field_name("name")):
                names.extend(_pattern_names(name, data))
        return names
    name = declaration.child_by_field_name("name")
    return [] if name is None else [_text(name, data)]


class _Module:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.edits: list[tuple[int, int, bytes]] = []
        self.imports: list[str] = []
        self.slots: dict[str, int] = {}
        self.bindings: dict[str, str] = {}  # local name -> expression reading it from a namespace
        self.getters: dict[str, str] = {}  # exported name -> expression of its value
        self.stars: list[int] = []
        self.default_counter = 0

    def slot(self, specifier: str) -> str:
        if specifier not in self.slots:
            self.slots[specifier] = len(self.slots)
            self.imports.append(specifier)
        return f"__i${self.slots[specifier]}"

    def on_import(self, statement: tree_sitter.Node) -> None:
        source = statement.child_by_field_name("source")
        specifier = None if source is None else _string_value(source, self.data)
        self.edits.append(_blank(statement.start_byte, statement.end_byte, self.data))
        if specifier is None:
            return
        namespace = self.slot(specifier)
        clause = next((child for child in statement.children if child.type == "import_clause"), None)
        if clause is None:
            return
        for part in clause.named_children:
            if part.type == "identifier":
                self.bindings[_text(part, self.data)] = f"{namespace}.default"
            elif part.type == "namespace_import":
                name = next((c for c in part.named_children if c.type == "identifier"), None)
                if name is not None:
                    self.bindings[_text(name, self.data)] = namespace
            elif part.type == "named_imports":
                for specifier_node in part.named_children:
                    if specifier_node.type == "import_specifier":
                        imported, local = _specifier_names(specifier_node, self.data)
                        self.bindings[local] = (
                            f"{namespace}[{json.dumps(imported)}]"
                            if not imported.isidentifier()
                            else f"{namespace}.{imported}"
                        )

    def on_export(self, statement: tree_sitter.Node) -> None:
        data = self.data
        source = statement.child_by_field_name("source")
        declaration = statement.child_by_field_name("declaration")
        value = statement.child_by_field_name("value")
        if source is not None:
            specifier = _string_value(source, data)
            self.edits.append(_blank(statement.start_byte, statement.end_byte, data))
            if specifier is None:
                return
            namespace = self.slot(specifier)
            star = next((c for c in statement.named_children if c.type == "namespace_export"), None)
            clause = next((c for c in statement.named_children if c.type == "export_clause"), None)
            if star is not None:
                name = star.named_children[-1] if star.named_children else None
                exported = "" if name is None else (_string_value(name, data) or _text(name, data))
                self.getters[exported] = namespace
            elif clause is not None:
                for specifier_node in clause.named_children:
                    imported, exported = _specifier_names(specifier_node, data)
                    self.getters[exported] = f"{namespace}[{json.dumps(imported)}]"
            else:
                self.stars.append(self.slots[specifier])
            return
        if declaration is not None:
            is_default = any(child.type == "default" for child in statement.children)
            self.edits.append(_blank(statement.start_byte, declaration.start_byte, data))
            names = _declared_names(declaration, data)
            if is_default:
                self.getters["default"] = names[0] if names else "undefined"
            else:
                for exported in names:
                    self.getters[exported] = exported
            return
        if value is not None:
            local = "__d$" if self.default_counter == 0 else f"__d${self.default_counter}"
            self.default_counter += 1
            self.edits.append((statement.start_byte, value.start_byte, f"const {local} = {{default: (".encode()))
            self.edits.append((value.end_byte, statement.end_byte, b")}.default;"))
            self.getters["default"] = local
            return
        clause = next((c for c in statement.named_children if c.type == "export_clause"), None)
        self.edits.append(_blank(statement.start_byte, statement.end_byte, data))
        if clause is not None:
            for specifier_node in clause.named_children:
                local, exported = _specifier_names(specifier_node, data)
                self.getters[exported] = local  # an imported name is rewritten when the prologue is made


def _binding_scope(node: tree_sitter.Node) -> tree_sitter.Node | None:
    """The scope where the identifier ``node`` is declared, or None when it is a reference."""
    child, parent = node, node.parent
    while parent is not None and parent.type in _PATTERNS:
        field = _PATTERNS[parent.type]
        if field is not None and parent.child_by_field_name(field) != child:
            return None  # a default value or a key: a reference
        child, parent = parent, parent.parent
    if parent is None:
        return None
    kind = parent.type
    if kind == "variable_declarator" and parent.child_by_field_name("name") == child:
        declaration = parent.parent
        if declaration is not None and declaration.type == "variable_declaration":
            return _enclosing(declaration, _FUNCTIONS | {"program"})
        return _enclosing(declaration or parent, _BLOCKS)
    if kind == "formal_parameters" or (kind == "arrow_function" and parent.child_by_field_name("parameter") == child):
        return parent.parent if kind == "formal_parameters" else parent
    if kind == "catch_clause" and parent.child_by_field_name("parameter") == child:
        return parent
    if kind == "for_in_statement" and parent.child_by_field_name("left") == child:
        is_var = any(c.type == "var" for c in parent.children)
        return _enclosing(parent, _FUNCTIONS | {"program"}) if is_var else parent
    if parent.child_by_field_name("name") == child:
        if kind in ("function_expression", "generator_function", "class"):
            return parent
        if kind in ("function_declaration", "generator_function_declaration", "class_declaration"):
            return _enclosing(parent, _BLOCKS | _FUNCTIONS)
    return None


def _enclosing(node: tree_sitter.Node, kinds: frozenset[str]) -> tree_sitter.Node | None:
    current = node.parent
    while current is not None and current.type not in kinds:
        current = current.parent
    return current


def _references(root: tree_sitter.Node, names: set[str], data: bytes) -> list[tree_sitter.Node]:
    """The identifiers that read one of ``names`` as the module's own binding (not shadowed)."""
    found: list[tree_sitter.Node] = []
    shadows: dict[str, set[int]] = {}
    candidates: list[tree_sitter.Node] = []
    stack = [root]
    kinds = ("identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern")
    while stack:
        node = stack.pop()
        if node.type in kinds:
            if _text(node, data) in names:
                candidates.append(node)
            continue
        if node.type in ("import_statement", "export_statement") and node.parent == root:
            declaration = node.child_by_field_name("declaration") or node.child_by_field_name("value")
            if declaration is not None:
                stack.append(declaration)
            continue
        stack.extend(node.children)
    for node in candidates:
        scope = _binding_scope(node) if node.type != "shorthand_property_identifier" else None
        if scope is not None:
            shadows.setdefault(_text(node, data), set()).add(scope.id)
    for node in candidates:
        if node.type == "shorthand_property_identifier_pattern" or _binding_scope(node) is not None:
            continue
        scopes = shadows.get(_text(node, data), set())
        ancestor = node.parent
        shadowed = False
        while ancestor is not None:
            if ancestor.id in scopes and ancestor.type != "program":
                shadowed = True
                break
            ancestor = ancestor.parent
        if not shadowed:
            found.append(node)
    return found


def convert(text: str) -> Converted:
    """The module ``text`` as a function body (see the module's docstring)."""
    data = text.encode("utf-8", "surrogatepass")
    root = _PARSER.parse(data).root_node
    module = _Module(data)
    for statement in root.children:
        if statement.type == "import_statement":
            module.on_import(statement)
        elif statement.type == "export_statement":
            module.on_export(statement)
    dynamic = dynamic_specifiers(root, data)
    if root.has_error:
        return Converted("", module.imports, dynamic, "the file does not parse as JavaScript")
    if any(_enclosing(node, _FUNCTIONS) is None for node in _captures(_AWAIT, root, "await")):
        return Converted("", module.imports, dynamic, "the module uses top-level await, which the sandbox cannot load")
    for node in _references(root, set(module.bindings), data):
        reading = module.bindings[_text(node, data)]
        parent = node.parent
        if node.type == "shorthand_property_identifier":
            replacement = f"{_text(node, data)}: {reading}"
        elif parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == node:
            replacement = f"(0, {reading})" if "." in reading or "[" in reading else reading
        else:
            replacement = reading
        module.edits.append((node.start_byte, node.end_byte, replacement.encode()))
    for node in _captures(_META, root, "meta"):
        if _text(node, data) == "import.meta":
            module.edits.append((node.start_byte, node.end_byte, b"__meta$"))
    for node in _captures(_DYNAMIC_IMPORT, root, "import"):
        module.edits.append((node.start_byte, node.end_byte, b"__di$"))
    getters = {name: module.bindings.get(value, value) for name, value in module.getters.items()}
    prologue = "'use strict';"
    if getters:
        entries = ", ".join(f"{json.dumps(name)}: () => {value}" for name, value in sorted(getters.items()))
        prologue += f" __m$.e({{{entries}}});"
    if module.imports:
        loads = ", ".join(f"__i${index} = __i$({json.dumps(spec)})" for index, spec in enumerate(module.imports))
        prologue += f" const {loads};"
    prologue += "".join(f" __m$.s(__i${index});" for index in module.stars) + " __m$.d();"
    return Converted(prologue + _apply(data, module.edits), module.imports, dynamic)


def _captures(query: tree_sitter.Query, root: tree_sitter.Node, name: str) -> list[tree_sitter.Node]:
    return tree_sitter.QueryCursor(query).captures(root).get(name, [])


def dynamic_specifiers(root: tree_sitter.Node, data: bytes) -> list[str]:
    """The string-literal specifiers of the ``import(...)`` calls under ``root``."""
    found: list[str] = []
    for node in _captures(_DYNAMIC_IMPORT, root, "import"):
        call = node.parent
        arguments = None if call is None else call.child_by_field_name("arguments")
        first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
        value = None if first is None else _string_value(first, data)
        if value is not None:
            found.append(value)
    return found


def _apply(data: bytes, edits: list[tuple[int, int, bytes]]) -> str:
    pieces: list[bytes] = []
    done = 0
    for start, end, replacement in sorted(edits, key=lambda edit: (edit[0], edit[1])):
        if start < done:
            continue
        pieces += [data[done:start], replacement]
        done = end
    pieces.append(data[done:])
    return b"".join(pieces).decode("utf-8", "surrogatepass")
