// Measures and cuts strings in UTF-8 bytes, and quotes strings the way Node's inspect and
// JSON do. Output caps are budgets of UTF-8 bytes; a string of many megabytes must be
// measured in one pass and cut without building a second huge string, and a cut must
// never split a surrogate pair.

const NON_ASCII = /[^\x00-\x7f]/g;
// Characters Node's inspect escapes in a quoted string (plus every surrogate, which is
// then checked for a partner).
const INSPECT_SPECIAL = /[\x00-\x1f\x27\x5c\x7f-\x9f\ud800-\udfff]/g;
const JSON_SPECIAL = /[\x00-\x1f\x22\x5c\ud800-\udfff]/g;

// Index of the first match of a global regexp at or after `from`, or -1. Uses the captured
// exec, so nothing the model's code installed on RegExp.prototype is consulted.
// group: eager
function searchFrom(regexp, text, from) {
  regexp.lastIndex = from;
  const match = RegExpPrototypeExec(regexp, text);
  return match === null ? -1 : match.index;
}

// The plain `s.charCodeAt(i)` is about four times faster than the uncurried call; it is
// used in long loops only after checking that String.prototype still holds the original.
function charCodeAtIsOriginal() {
  const descriptor = ReflectGetOwnPropertyDescriptor(StringPrototype, 'charCodeAt');
  return descriptor !== undefined && descriptor.value === originalCharCodeAt;
}

function isHighSurrogate(code) {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code) {
  return code >= 0xdc00 && code <= 0xdfff;
}

// UTF-8 size of text[from, to). A lone surrogate counts 3 bytes (it would be encoded as
// U+FFFD).
// group: outcome
function utf8Length(text, from, to) {
  if (from === undefined) from = 0;
  if (to === undefined) to = text.length;
  let i = searchFrom(NON_ASCII, text, from);
  if (i === -1 || i >= to) return to - from;
  let bytes = i - from;
  const direct = charCodeAtIsOriginal();
  for (; i < to; i++) {
    const code = direct ? text.charCodeAt(i) : StringPrototypeCharCodeAt(text, i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (isHighSurrogate(code) && i + 1 < to &&
             isLowSurrogate(direct ? text.charCodeAt(i + 1) : StringPrototypeCharCodeAt(text, i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

// Byte count of the last cut; set by headEnd and tailStart to avoid allocating a result.
let cutBytes = 0;

// Largest end such that text[0, end) fits in maxBytes; sets cutBytes.
function headEnd(text, maxBytes) {
  const length = text.length;
  if (maxBytes <= 0) {
    cutBytes = 0;
    return 0;
  }
  const firstWide = searchFrom(NON_ASCII, text, 0);
  if (firstWide === -1 || firstWide >= maxBytes) {
    const end = MathMin(length, maxBytes);
    cutBytes = end;
    return end;
  }
  let bytes = firstWide;
  let i = firstWide;
  while (i < length) {
    const code = StringPrototypeCharCodeAt(text, i);
    let size = 1;
    let width = 1;
    if (code >= 0x80 && code < 0x800) size = 2;
    else if (code >= 0x800) {
      size = 3;
      if (isHighSurrogate(code) && i + 1 < length && isLowSurrogate(StringPrototypeCharCodeAt(text, i + 1))) {
        size = 4;
        width = 2;
      }
    }
    if (bytes + size > maxBytes) break;
    bytes += size;
    i += width;
  }
  cutBytes = bytes;
  return i;
}

// Smallest start such that text[start, length) fits in maxBytes; sets cutBytes.
function tailStart(text, maxBytes) {
  const length = text.length;
  if (maxBytes <= 0) {
    cutBytes = 0;
    return length;
  }
  const from = MathMax(0, length - maxBytes);
  if (searchFrom(NON_ASCII, text, from) === -1) {
    cutBytes = length - from;
    return from;
  }
  let bytes = 0;
  let i = length;
  while (i > 0) {
    const code = StringPrototypeCharCodeAt(text, i - 1);
    let size = 1;
    let width = 1;
    if (code >= 0x80 && code < 0x800) size = 2;
    else if (code >= 0x800) {
      size = 3;
      if (isLowSurrogate(code) && i - 2 >= 0 && isHighSurrogate(StringPrototypeCharCodeAt(text, i - 2))) {
        size = 4;
        width = 2;
      }
    }
    if (bytes + size > maxBytes) break;
    bytes += size;
    i -= width;
  }
  cutBytes = bytes;
  return i;
}

// A copy of a slice, so that keeping a small piece does not keep a huge parent string alive
// (V8 represents slices as views into their parent).
function detachedSlice(text, start, end) {
  const piece = StringPrototypeSlice(text, start, end);
  if (text.length - piece.length < 1024) return piece;
  return StringPrototypeSlice(' ' + piece, 1);
}

const HEX = '0123456789ABCDEF';

function hex2(code) {
  return HEX[(code >> 4) & 15] + HEX[code & 15];
}

function hex4Lower(code) {
  return NumberPrototypeToString(code, 16);
}

// The escape Node's inspect writes for one UTF-16 unit, or '' if it stays as it is.
function inspectEscape(code, quote) {
  if (code < 0x20) {
    if (code === 8) return '\\b';
    if (code === 9) return '\\t';
    if (code === 10) return '\\n';
    if (code === 12) return '\\f';
    if (code === 13) return '\\r';
    return '\\x' + hex2(code);
  }
  if (code === 0x27) return quote === "'" ? "\\'" : '';
  if (code === 0x5c) return '\\\\';
  if (code >= 0x7f && code <= 0x9f) return '\\x' + hex2(code);
  return '';
}

// Node prefers single quotes, then double quotes, then backticks, to avoid escaping.
function chooseQuote(text) {
  if (!StringPrototypeIncludes(text, "'")) return "'";
  if (!StringPrototypeIncludes(text, '"')) return '"';
  if (!StringPrototypeIncludes(text, '`') && !StringPrototypeIncludes(text, '${')) return '`';
  return "'";
}

// Escapes text[from, to) for a string quoted with `quote`.
function escapeForInspect(text, quote, from, to) {
  if (from === undefined) from = 0;
  if (to === undefined) to = text.length;
  let i = searchFrom(INSPECT_SPECIAL, text, from);
  if (i === -1 || i >= to) return from === 0 && to === text.length ? text : StringPrototypeSlice(text, from, to);
  const parts = list();
  let last = from;
  while (i !== -1 && i < to) {
    const code = StringPrototypeCharCodeAt(text, i);
    let escaped = '';
    let width = 1;
    if (code >= 0xd800 && code <= 0xdfff) {
      if (isHighSurrogate(code) && i + 1 < to && isLowSurrogate(StringPrototypeCharCodeAt(text, i + 1))) width = 2;
      else escaped = '\\u' + hex4Lower(code);
    } else {
      escaped = inspectEscape(code, quote);
    }
    if (escaped !== '') {
      ArrayPrototypePush(parts, StringPrototypeSlice(text, last, i), escaped);
      last = i + 1;
    }
    i = searchFrom(INSPECT_SPECIAL, text, i + width);
  }
  ArrayPrototypePush(parts, StringPrototypeSlice(text, last, to));
  return ArrayPrototypeJoin(parts, '');
}

// Bytes Node's inspect escape of a character (not a surrogate) adds to its UTF-8 size (see
// inspectEscape): 0 or more for a character INSPECT_SPECIAL matches, -1 for any other.
function inspectGrowth(code, quote) {
  if (code < 0x20) return code === 8 || code === 9 || code === 10 || code === 12 || code === 13 ? 1 : 3;
  if (code === 0x27) return quote === "'" ? 1 : 0;
  if (code === 0x5c) return 1;
  if (code >= 0x7f && code <= 0x9f) return code === 0x7f ? 3 : 2;
  return -1;
}

// The same for JSON.stringify and the characters JSON_SPECIAL matches.
function jsonGrowth(code) {
  if (code === 0x22 || code === 0x5c || code === 8 || code === 9 || code === 10 || code === 12 || code === 13) {
    return 1;
  }
  return code < 0x20 ? 5 : -1;
}

// Ordinary characters in a row after which a direct scan hands over to the regular expression again.
const DIRECT_SCAN_RUN = 8;

// Extra bytes that escaping text[from, to) adds on top of its UTF-8 size: growthOf(code, quote) for each
// character `special` matches, 3 for each lone surrogate (its 6-byte \uXXXX escape replaces 3 bytes).
// A search skips to the next special character; from there the characters are read one by one until a run
// of ordinary ones, so that megabytes of control characters or emoji do not cost one search each.
function escapeGrowth(text, special, growthOf, quote, from, to) {
  let growth = 0;
  const direct = charCodeAtIsOriginal();
  let i = searchFrom(special, text, from);
  while (i !== -1 && i < to) {
    let ordinary = 0;
    while (i < to && ordinary < DIRECT_SCAN_RUN) {
      const code = direct ? text.charCodeAt(i) : StringPrototypeCharCodeAt(text, i);
      if (code >= 0xd800 && code <= 0xdfff) {
        ordinary = 0;
        if (isHighSurrogate(code) && i + 1 < to &&
            isLowSurrogate(direct ? text.charCodeAt(i + 1) : StringPrototypeCharCodeAt(text, i + 1))) {
          i += 2;
        } else {
          growth += 3;
          i++;
        }
        continue;
      }
      const extra = growthOf(code, quote);
      if (extra < 0) {
        ordinary++;
      } else {
        ordinary = 0;
        growth += extra;
      }
      i++;
    }
    if (i < to) i = searchFrom(special, text, i);
  }
  return growth;
}

// Extra bytes that escaping text[from, to) for inspect adds on top of its UTF-8 size.
function inspectEscapeGrowth(text, quote, from, to) {
  return escapeGrowth(text, INSPECT_SPECIAL, inspectGrowth, quote, from, to);
}

function quoteForInspect(text) {
  const quote = chooseQuote(text);
  return quote + escapeForInspect(text, quote) + quote;
}

// Size in UTF-8 bytes of JSON.stringify(text), computed without building it.
function jsonStringBytes(text) {
  return 2 + utf8Length(text) + escapeGrowth(text, JSON_SPECIAL, jsonGrowth, '', 0, text.length);
}

// JSON text of a string primitive. JSON.stringify looks up nothing for a primitive.
// group: eager
function jsonString(text) {
  return JSONStringify(text);
}

// ToString for values the runtime prints but must not run user code for.
function primitiveToString(value) {
  if (typeof value === 'symbol') return SymbolPrototypeToString(value);
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return '' + value;
  return '[object]';
}

// group: eager
function formatNumber(number) {
  if (number === 0 && 1 / number < 0) return '-0';
  return '' + number;
}

// inspect()'s text for a number, bigint, boolean, undefined or null, and undefined for any
// other value: calls that show only such values (and strings) never need the rendering code,
// which is compiled on first use (deferred.js).
// group: eager
function plainPrimitiveText(value) {
  switch (typeof value) {
    case 'number':
      return formatNumber(value);
    case 'bigint':
      return value + 'n';
    case 'boolean':
    case 'undefined':
      return '' + value;
    default:
      return value === null ? 'null' : undefined;
  }
}

// Whether inspect() shows `text` as one quoted piece per line: it is longer than the room left
// on the line (`width`, less the quotes and a margin) and holds a line break before its end.
function showsAsLines(text, width) {
  if (text.length <= 16 || text.length <= width - 4) return false;
  const newline = StringPrototypeIndexOf(text, '\n');
  return newline !== -1 && newline !== text.length - 1;
}

// inspect()'s text for a string shown whole (no maxStringLength) at the top level: quoted and
// escaped, or undefined when it shows as one quoted piece per line (left to inspect()).
function wholeStringText(text) {
  return showsAsLines(text, BREAK_LENGTH) ? undefined : quoteForInspect(text);
}
