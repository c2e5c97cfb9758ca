// module: querystring
// globals:
// requires: buffer internal/errors
(function (host) {
  'use strict';
  // Node's querystring: `a=1&a=2&b` into { a: ['1', '2'], b: '' } (an object without a
  // prototype) and back, with Node's handling of '+', malformed escapes, maxKeys (which
  // counts every piece between separators) and custom separators and codecs.
  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const setPrototypeOf = Object.setPrototypeOf;
  const create = Object.create;
  const objectKeys = Object.keys;
  const isArray = Array.isArray;
  const isFinite = Number.isFinite;
  const charCodeAt = uncurry(String.prototype.charCodeAt);
  const indexOf = uncurry(String.prototype.indexOf);
  const stringSlice = uncurry(String.prototype.slice);
  const encodeComponent = encodeURIComponent;
  const decodeComponent = decodeURIComponent;
  const StringCtor = String;
  const URIErrorCtor = URIError;
  const { codedError } = host.require('internal/errors');
  const MathAbs = Math.abs;

  function escape(str) {
    if (typeof str !== 'string') str = typeof str === 'object' ? StringCtor(str) : str + '';
    try {
      return encodeComponent(str);
    } catch {
      throw codedError(URIErrorCtor, 'ERR_INVALID_URI', 'URI malformed');
    }
  }

  function hexValue(code) {
    if (code >= 48 && code <= 57) return code - 48;
    if (code >= 65 && code <= 70) return code - 55;
    if (code >= 97 && code <= 102) return code - 87;
    return -1;
  }

  // The bytes of `s` with each valid %XX decoded; anything else is kept as it is (each
  // character as one byte, as Node writes it).
  function unescapeBuffer(s, decodeSpaces) {
    const { Buffer } = host.require('buffer');
    const text = '' + s;
    const out = Buffer.alloc(text.length);
    let count = 0;
    for (let i = 0; i < text.length; i++) {
      const code = charCodeAt(text, i);
      if (code === 43 && decodeSpaces) {
        out[count++] = 32;
        continue;
      }
      if (code === 37 && i < text.length - 2) {
        const high = hexValue(charCodeAt(text, i + 1));
        const low = hexValue(charCodeAt(text, i + 2));
        if (high >= 0 && low >= 0) {
          out[count++] = high * 16 + low;
          i += 2;
          continue;
        }
      }
      out[count++] = code;
    }
    return count === text.length ? out : out.subarray(0, count);
  }

  function unescape(s, decodeSpaces) {
    try {
      return decodeComponent(s);
    } catch {
      return exports.unescapeBuffer(s, decodeSpaces).toString();
    }
  }

  function decodeWith(decoder, s) {
    try {
      return decoder(s);
    } catch {
      return exports.unescape(s, true);
    }
  }

  function parse(qs, sep, eq, options) {
    const result = create(null);
    if (typeof qs !== 'string' || qs.length === 0) return result;
    const separator = sep ? StringCtor(sep) : '&';
    const equals = eq ? StringCtor(eq) : '=';
    let maxKeys = 1000;
    if (options && typeof options.maxKeys === 'number') maxKeys = options.maxKeys;
    let pieces = maxKeys > 0 ? maxKeys : Infinity;
    let decoder = exports.unescape;
    if (options && typeof options.decodeURIComponent === 'function') decoder = options.decodeURIComponent;
    const custom = decoder !== unescape;
    // A '+' is a space; a custom decoder is handed it as %20.
    const plus = custom ? '%20' : ' ';
    let start = 0;
    while (start <= qs.length && pieces > 0) {
      let end = indexOf(qs, separator, start);
      if (end === -1) end = qs.length;
      pieces--;
      if (end > start) {
        const piece = stringSlice(qs, start, end);
        const at = indexOf(piece, equals);
        let key = at === -1 ? piece : stringSlice(piece, 0, at);
        let value = at === -1 ? '' : stringSlice(piece, at + equals.length);
        key = replacePlus(key, plus);
        value = replacePlus(value, plus);
        if (custom || indexOf(key, '%') !== -1) key = decodeWith(decoder, key);
        if (custom || indexOf(value, '%') !== -1) value = decodeWith(decoder, value);
        const existing = result[key];
        if (existing === undefined) result[key] = value;
        else if (isArray(existing)) existing[existing.length] = value;
        else result[key] = [existing, value];
      }
      start = end + separator.length;
    }
    return result;
  }

  function replacePlus(text, plus) {
    if (indexOf(text, '+') === -1) return text;
    let out = '';
    let last = 0;
    for (let i = 0; i < text.length; i++) {
      if (charCodeAt(text, i) === 43) {
        out += stringSlice(text, last, i) + plus;
        last = i + 1;
      }
    }
    return out + stringSlice(text, last);
  }

  function primitiveText(value) {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' && isFinite(value)) return '' + value;
    if (typeof value === 'bigint') return '' + value;
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    return '';
  }

  function stringify(obj, sep, eq, options) {
    sep = sep || '&';
    eq = eq || '=';
    let encoder = exports.escape;
    if (options && typeof options.encodeURIComponent === 'function') encoder = options.encodeURIComponent;
    const standard = encoder === escape;
    const convert = (value) => {
      if (!standard) return encoder(primitiveText(value));
      if (typeof value === 'string') return value.length ? encoder(value) : '';
      // Numbers up to 1e21 have no characters to escape.
      if (typeof value === 'number' && isFinite(value)) return MathAbs(value) < 1e21 ? '' + value : encoder('' + value);
      return primitiveText(value);
    };
    if (obj === null || typeof obj !== 'object') return '';
    const keys = objectKeys(obj);
    let fields = '';
    for (let i = 0; i < keys.length; i++) {
      const value = obj[keys[i]];
      const prefix = convert(keys[i]) + eq;
      if (isArray(value)) {
        if (value.length === 0) continue;
        if (fields) fields += sep;
        for (let j = 0; j < value.length; j++) {
          if (j) fields += sep;
          fields += prefix + convert(value[j]);
        }
      } else {
        if (fields) fields += sep;
        fields += prefix + convert(value);
      }
    }
    return fields;
  }

  const exports = {
    unescapeBuffer,
    unescape,
    escape,
    stringify,
    encode: stringify,
    parse,
    decode: parse,
  };
  return exports;
})
