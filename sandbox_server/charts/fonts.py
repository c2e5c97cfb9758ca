"""Text in an SVG that names no font, or only fonts the render process lacks, still shows: in a fallback font.

The rasteriser (resvg, inside vl-convert) draws nothing at all for text whose font it cannot find: text without a
``font-family`` asks for its default, "Times New Roman", and ``font-family="Arial"`` asks for Arial, neither of which
a typical Linux host has. It does resolve the generic families ``serif``, ``sans-serif`` and ``monospace`` to the
fonts the system has, and it tries a list of families in order. So, before an SVG becomes pixels:

- text with no ``font-family`` anywhere up its ancestry gets ``font-family="sans-serif"`` from the root ``<svg>``;
- every ``font-family`` (attribute, ``style`` declaration, ``<style>`` rule) and ``font`` shorthand whose list has no
  generic family gets ``, sans-serif`` appended, so that the font it names is still used where it exists.

The document is written out again only when something changed, so a chart that Vega drew with its default fonts
(all ``sans-serif``) is passed on as it came.
"""

from __future__ import annotations

import re
from xml.etree import ElementTree

__all__ = ["FALLBACK_FAMILY", "RESOLVED_GENERICS", "with_fallback_font"]

FALLBACK_FAMILY = "sans-serif"
"""The family added where text would otherwise have no font."""
RESOLVED_GENERICS = frozenset({"serif", "sans-serif", "monospace"})
"""Generic families the rasteriser maps to installed fonts (``cursive``, ``fantasy`` and ``system-ui`` it does not)."""
_KEYWORDS = frozenset({"inherit", "initial", "unset", "revert", "revert-layer"})
_DECLARATION = re.compile(r"((?:^|[{;])\s*)(font-family|font)(\s*:\s*)([^;{}]*)", re.IGNORECASE)
"""A font declaration: at the start of a ``style`` attribute, or after ``{`` or ``;`` (never in a selector)."""
_IMPORTANT = re.compile(r"\s*!\s*important\s*$", re.IGNORECASE)


def with_fallback_font(root: ElementTree.Element, text: str) -> str:
    """``text`` (the SVG ``root`` was parsed from) with the fallbacks above; ``text`` itself when none is needed."""
    changed = False
    stack: list[tuple[ElementTree.Element, bool]] = [(root, False)]
    unfonted_text = False
    while stack:
        element, inherited = stack.pop()
        has_family = inherited
        family = element.get("font-family")
        if family is not None and family.strip().lower() not in _KEYWORDS:
            has_family = True
            fixed = _with_fallback(family, shorthand=False)
            if fixed != family:
                element.set("font-family", fixed)
                changed = True
        style = element.get("style")
        if style is not None:
            fixed, declares = _fixed_css(style)
            has_family = has_family or declares
            if fixed != style:
                element.set("style", fixed)
                changed = True
        local = str(element.tag).rpartition("}")[2]
        if local == "style" and element.text:
            fixed, _ = _fixed_css(element.text)
            if fixed != element.text:
                element.text = fixed
                changed = True
        if local == "text" and not has_family:
            unfonted_text = True
        stack.extend((child, has_family) for child in element)
    if unfonted_text:
        root.set("font-family", FALLBACK_FAMILY)
        changed = True
    return ElementTree.tostring(root, encoding="unicode") if changed else text


def _fixed_css(css: str) -> tuple[str, bool]:
    """``css`` with a fallback in every font declaration, and whether it declares a font at all."""
    declares = False

    def fix(match: re.Match[str]) -> str:
        nonlocal declares
        value = match.group(4)
        if value.strip().lower() in _KEYWORDS or not value.strip():
            return match.group(0)
        declares = True
        important = _IMPORTANT.search(value)
        core = value[: important.start()] if important else value.rstrip()
        tail = value[len(core) :]
        shorthand = match.group(2).lower() == "font"
        return match.group(1) + match.group(2) + match.group(3) + _with_fallback(core, shorthand=shorthand) + tail

    return _DECLARATION.sub(fix, css), declares


def _with_fallback(families: str, *, shorthand: bool) -> str:
    """A family list (or a ``font`` shorthand, whose last words are the list) with the fallback appended unless it
    names a generic family the rasteriser resolves."""
    names = [name.strip().strip("'\"").strip().lower() for name in families.split(",")]
    if shorthand and names:
        words = names[0].split()
        names[0] = words[-1] if words else ""
    if any(name in RESOLVED_GENERICS for name in names):
        return families
    if not families.strip():
        return FALLBACK_FAMILY
    return f"{families.rstrip()}, {FALLBACK_FAMILY}"
