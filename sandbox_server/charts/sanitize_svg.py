"""What an SVG may hold before it is rasterised: no reference that leaves the document, nothing too large.

SVG (parsed by defusedxml: no DOCTYPE, no entities):

- ``<script>``, ``<foreignObject>`` and other embedding elements, event attributes, ``xml:base``,
  ``<?xml-stylesheet?>``;
- an ``href`` (plain or ``xlink:``) or ``src`` that is not ``#id`` or a ``data:image/(png|jpeg|gif);base64,`` URI
  (whose image header must be within the pixel cap);
- a ``url(...)`` other than ``url(#id)`` in any attribute or ``<style>``, ``@import``, and CSS escapes (which
  could spell either);
- a canvas (``width``/``height``/``viewBox``) over the caps; references (``<use>``, ``url(#id)``) that expand to
  more than ``max_svg_nodes`` elements or refer to themselves; text over ``max_source_bytes``.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from xml.etree import ElementTree

from sandbox_server.charts.images import embedded_image_size
from sandbox_server.charts.limits import RenderError, RenderLimits

__all__ = ["CSS_URL", "LOCAL_CSS_URL", "check_svg", "checked_svg"]

CSS_URL = re.compile(r"url\s*\(", re.IGNORECASE)
LOCAL_CSS_URL = re.compile(r"""url\s*\(\s*(['"]?)\s*#[^'"()\s]*\s*\1\s*\)""", re.IGNORECASE)

_SVG_NS = "http://www.w3.org/2000/svg"
_XML_NS = "http://www.w3.org/XML/1998/namespace"
_REFUSED_ELEMENTS = frozenset({"script", "foreignobject", "iframe", "object", "embed", "audio", "video", "canvas",
                               "handler", "listener", "link", "meta"})  # fmt: skip
_ANIMATIONS = frozenset({"set", "animate", "animatemotion", "animatetransform", "animatecolor"})
_DATA_IMAGE = re.compile(r"data:image/(png|jpeg|jpg|gif);base64,(.*)", re.IGNORECASE | re.DOTALL)
_STYLESHEET = re.compile(r"<\?xml-stylesheet", re.IGNORECASE)
_LOCAL_REF = re.compile(r"url\s*\(\s*['\"]?\s*#([^'\"()\s]+)", re.IGNORECASE)
_LENGTH = re.compile(r"\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)\s*(px|pt|pc|in|cm|mm|em|ex|%)?\s*", re.I)
_UNITS = {"": 1.0, "px": 1.0, "pt": 4 / 3, "pc": 16.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "em": 16.0,
          "ex": 8.0}  # fmt: skip
_DEFAULT_SVG_SIZE = 100.0


def _local(name: str) -> tuple[str, str]:
    """``(namespace, local name)`` of an ElementTree tag or attribute name."""
    if name.startswith("{"):
        namespace, _, local = name[1:].partition("}")
        return namespace, local
    return "", name


def check_svg(
    text: str, limits: RenderLimits, scale: float = 1.0, *, what: str = "the SVG", max_bytes: int | None = None
) -> tuple[float, float]:
    """Check an SVG document; returns its canvas size in pixels (at ``scale``). See :func:`checked_svg`."""
    _, width, height = checked_svg(text, limits, scale, what=what, max_bytes=max_bytes)
    return width, height


def checked_svg(
    text: str, limits: RenderLimits, scale: float = 1.0, *, what: str = "the SVG", max_bytes: int | None = None
) -> tuple[ElementTree.Element, float, float]:
    """Check an SVG document; returns its parsed root and its canvas size in pixels (at ``scale``).

    Args:
        text: The SVG text.
        limits: The caps.
        scale: The scale it will be rendered at.
        what: How messages name it ("the chart" for an SVG that Vega drew).
        max_bytes: Largest text; by default ``limits.max_source_bytes``.

    Raises:
        RenderError: It would load something, or is too large.
    """
    from defusedxml import DefusedXmlException  # type: ignore[import-untyped]  # the charts extra; no stubs
    from defusedxml.ElementTree import fromstring  # type: ignore[import-untyped]

    size = len(text.encode("utf-8", "surrogatepass"))
    cap = limits.max_source_bytes if max_bytes is None else max_bytes
    if size > cap:
        raise RenderError(f"{what} is {size} bytes, more than {cap}: simplify it")
    if _STYLESHEET.search(text):
        raise RenderError(f"{what} may not load a stylesheet (<?xml-stylesheet?>): put the styles in a <style>")
    try:
        root = fromstring(text, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise RenderError(f"{what} may not have a DOCTYPE or entities: remove them") from exc
    except ElementTree.ParseError as exc:
        raise RenderError(f"{what} is not well-formed XML: {exc}") from exc
    if root.tag != f"{{{_SVG_NS}}}svg":
        raise RenderError(f'{what} is not an SVG document: its root must be <svg xmlns="{_SVG_NS}">')
    _check_tree(root, limits, what)
    width, height = _canvas(root, what)
    width, height = width * scale, height * scale
    limits.check_canvas(width, height, what)
    return root, width, height


def _check_tree(root: ElementTree.Element, limits: RenderLimits, what: str) -> None:
    ids: dict[str, ElementTree.Element] = {}
    refs: dict[int, list[str]] = {}
    embedded = 0
    stack = [(root, 0)]
    while stack:
        element, depth = stack.pop()
        if depth > limits.max_depth * 4:
            raise RenderError(f"{what} nests elements more than {limits.max_depth * 4} levels deep")
        _, name = _local(str(element.tag))
        if name.lower() in _REFUSED_ELEMENTS:
            raise RenderError(f"<{name}> is not allowed in {what}: draw with shapes, text and images")
        found: list[str] = []
        for attribute, value in element.attrib.items():
            namespace, local = _local(attribute)
            if local.lower().startswith("on"):
                raise RenderError(f"event attributes ({local}) are not allowed in {what}")
            if namespace == _XML_NS and local == "base":
                raise RenderError(f"xml:base is not allowed in {what}")
            if local in ("href", "src"):
                embedded += _check_href(value, name, what, limits)
                if value.strip().startswith("#"):
                    found.append(value.strip()[1:])
            elif name.lower() in _ANIMATIONS and local == "attributeName" and "href" in value.lower():
                raise RenderError(f"<{name}> may not change a link in {what}")
            else:
                _check_css(value, what, stylesheet=local == "style")
                found += _LOCAL_REF.findall(value)
        if name == "style":
            _check_css("".join(element.itertext()), what, stylesheet=True)
        if embedded > limits.max_pixels:
            raise RenderError(f"the images embedded in {what} hold more than {limits.max_pixels / 1e6:g} megapixels")
        if (ident := element.get("id")) is not None:
            ids.setdefault(ident, element)
        refs[id(element)] = found
        stack.extend((child, depth + 1) for child in element)
    _check_expansion(root, ids, refs, limits.max_svg_nodes, what)


def _check_href(value: str, element: str, what: str, limits: RenderLimits) -> int:
    """Refuse an href that leaves the document; returns the pixels of an embedded image."""
    stripped = value.strip()
    if stripped.startswith("#"):
        return 0
    match = _DATA_IMAGE.fullmatch(stripped)
    if match is None:
        raise RenderError(
            f"<{element}> in {what} may only refer to '#id' in the same document or embed a "
            f"data:image/png, jpeg or gif base64 URI, not {stripped[:60]!r}"
        )
    try:
        data = base64.b64decode(re.sub(r"\s+", "", match.group(2)), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise RenderError(f"an image embedded in {what} is not valid base64") from exc
    found = embedded_image_size(data)
    if found is None:
        raise RenderError(f"an image embedded in {what} is not a PNG, JPEG or GIF")
    _, width, height = found
    limits.check_canvas(width, height, f"an image embedded in {what}")
    return width * height


def _check_css(value: str, what: str, *, stylesheet: bool) -> None:
    """Refuse ``url(...)`` but ``url(#id)``, and ``@import``; in CSS also escapes (``u\\72l(``) that spell them."""
    if "@import" in value.lower():
        raise RenderError(f"@import is not allowed in {what}: put the styles in a <style>")
    if stylesheet and "\\" in value:
        raise RenderError(f"CSS escapes (backslashes) are not allowed in the styles of {what}")
    if len(CSS_URL.findall(value)) != len(LOCAL_CSS_URL.findall(value)):
        raise RenderError(f"url(...) in {what} may only refer to '#id' in the same document")


def _check_expansion(
    root: ElementTree.Element, ids: dict[str, ElementTree.Element], refs: dict[int, list[str]], cap: int, what: str
) -> None:
    """Refuse references that expand past ``cap`` elements (``<use>`` of ``<use>``s doubles at each step) or loop."""
    done: dict[int, int] = {}
    active: set[int] = set()
    stack: list[tuple[ElementTree.Element, bool]] = [(root, False)]
    while stack:
        element, expanded = stack.pop()
        key = id(element)
        targets = [*element, *(ids[ref] for ref in refs.get(key, []) if ref in ids)]
        if expanded:
            active.discard(key)
            done[key] = min(cap + 1, 1 + sum(done[id(target)] for target in targets))
            continue
        if key in done:
            continue
        active.add(key)
        stack.append((element, True))
        for target in targets:
            if id(target) in active:
                raise RenderError(f"{what} refers to an element from inside itself (id {target.get('id')!r})")
            if id(target) not in done:
                stack.append((target, False))
    if done[id(root)] > cap:
        raise RenderError(f"{what} expands (through <use> and url(#id) references) to more than {cap} elements")


def _svg_length(value: str | None, what: str, name: str) -> float | None:
    if value is None:
        return None
    match = _LENGTH.fullmatch(value)
    if match is None:
        raise RenderError(f"the <svg> {name} of {what} is not a length: {value[:40]!r}")
    number, unit = float(match.group(1)), (match.group(2) or "").lower()
    if unit == "%":
        return None
    if not math.isfinite(number) or number <= 0:
        raise RenderError(f"the <svg> {name} of {what} must be positive, not {value[:40]!r}")
    return number * _UNITS[unit]


def _canvas(root: ElementTree.Element, what: str) -> tuple[float, float]:
    box: tuple[float, float] | None = None
    if (view_box := root.get("viewBox")) is not None:
        numbers = re.split(r"[\s,]+", view_box.strip())
        try:
            box_w, box_h = float(numbers[2]), float(numbers[3])
        except (IndexError, ValueError) as exc:
            raise RenderError(f"the viewBox of {what} is not four numbers: {view_box[:40]!r}") from exc
        if math.isfinite(box_w) and math.isfinite(box_h) and box_w > 0 and box_h > 0:
            box = box_w, box_h
    width, height = _svg_length(root.get("width"), what, "width"), _svg_length(root.get("height"), what, "height")
    if width is None and height is None:
        return box or (_DEFAULT_SVG_SIZE, _DEFAULT_SVG_SIZE)
    if width is None:
        assert height is not None
        return (height * box[0] / box[1] if box else _DEFAULT_SVG_SIZE), height
    if height is None:
        return width, (width * box[1] / box[0] if box else _DEFAULT_SVG_SIZE)
    return width, height
