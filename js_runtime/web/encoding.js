// globals: TextEncoder TextDecoder
// requires: internal/errors
(function (host) {
  'use strict';
  // TextEncoder and TextDecoder of the Encoding Standard for UTF-8, UTF-16LE/BE and
  // windows-1252 (the labels latin1 and ascii name it), with Node 20's errors and printed form.
  const defineProperty = Object.defineProperty;
  const getPrototypeOf = Object.getPrototypeOf;
  const apply = Reflect.apply;
  // String.prototype.charCodeAt as the engine made it, whatever the code does to it later.
  const charCodeAt = Function.prototype.call.bind(String.prototype.charCodeAt);
  const fromCharCode = String.fromCharCode;
  const isView = ArrayBuffer.isView;
  const Uint8ArrayCtor = Uint8Array;
  const TypedArray = getPrototypeOf(Uint8Array);
  const setBytes = TypedArray.prototype.set;
  const typedArrayTag = Object.getOwnPropertyDescriptor(TypedArray.prototype, Symbol.toStringTag).get;
  const viewBuffer = Object.getOwnPropertyDescriptor(DataView.prototype, 'buffer').get;
  const viewOffset = Object.getOwnPropertyDescriptor(DataView.prototype, 'byteOffset').get;
  const viewLength = Object.getOwnPropertyDescriptor(DataView.prototype, 'byteLength').get;
  const arrayBufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
  const sharedLength = typeof SharedArrayBuffer === 'function' ?
    Object.getOwnPropertyDescriptor(SharedArrayBuffer.prototype, 'byteLength').get : undefined;
  const INSPECT = Symbol.for('nodejs.util.inspect.custom');

  const TypeErrorCtor = TypeError;
  const RangeErrorCtor = RangeError;
  const { codedError, nativeError, invalidArgType, invalidThis } = host.require('internal/errors');

  // Labels of the Encoding Standard for the encodings supported here, by encoding name.
  const LABELS = {
    __proto__: null,
    'utf-8': 'unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8',
    'utf-16le': 'csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le',
    'utf-16be': 'unicodefffe utf-16be',
    'windows-1252': 'ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 iso8859-1 ' +
      'iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252',
  };
  const encodings = { __proto__: null };
  for (const name in LABELS) {
    const labels = LABELS[name].split(' ');
    for (let i = 0; i < labels.length; i++) encodings[labels[i]] = name;
  }
  // windows-1252 bytes 0x80-0x9F; the other bytes are their own code points.
  const CP1252 = '\u20ac\x81\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\x8d\u017d\x8f' +
    '\x90\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\x9d\u017e\u0178';

  // UTF-8 of `text` into `bytes` from 0, stopping before a character that does not fit;
  // lone surrogates become U+FFFD. Returns [code units read, bytes written].
  function encodeUtf8(text, bytes) {
    const length = text.length;
    const room = bytes.length;
    let read = 0;
    let written = 0;
    while (read < length) {
      let code = charCodeAt(text, read);
      let units = 1;
      if (code >= 0xd800 && code < 0xe000) {
        const next = read + 1 < length ? charCodeAt(text, read + 1) : 0;
        if (code < 0xdc00 && next >= 0xdc00 && next < 0xe000) {
          code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
          units = 2;
        } else {
          code = 0xfffd;
        }
      }
      const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
      if (written + size > room) break;
      if (size === 1) {
        bytes[written++] = code;
      } else {
        if (size === 2) {
          bytes[written++] = 0xc0 | (code >> 6);
        } else {
          if (size === 3) {
            bytes[written++] = 0xe0 | (code >> 12);
          } else {
            bytes[written++] = 0xf0 | (code >> 18);
            bytes[written++] = 0x80 | ((code >> 12) & 63);
          }
          bytes[written++] = 0x80 | ((code >> 6) & 63);
        }
        bytes[written++] = 0x80 | (code & 63);
      }
      read += units;
    }
    return [read, written];
  }

  function utf8Length(text) {
    const length = text.length;
    let size = length;
    for (let i = 0; i < length; i++) {
      const code = charCodeAt(text, i);
      if (code < 0x80) continue;
      if (code < 0x800) size += 1;
      else if (code >= 0xd800 && code < 0xdc00 && i + 1 < length &&
        (charCodeAt(text, i + 1) & 0xfc00) === 0xdc00) size += 2, i++;
      else size += 2;
    }
    return size;
  }

  class TextEncoder {
    get encoding() {
      if (!(this instanceof TextEncoder)) throw invalidThis('TextEncoder');
      return 'utf-8';
    }

    encode(input = '') {
      if (!(this instanceof TextEncoder)) throw invalidThis('TextEncoder');
      input = `${input}`;
      const bytes = new Uint8ArrayCtor(utf8Length(input));
      encodeUtf8(input, bytes);
      return bytes;
    }

    encodeInto(src, dest) {
      if (!(this instanceof TextEncoder)) throw invalidThis('TextEncoder');
      src = `${src}`;
      if (!isView(dest) || typedArrayTag.call(dest) !== 'Uint8Array') {
        throw invalidArgType('dest', 'an instance of Uint8Array', dest);
      }
      const counts = encodeUtf8(src, dest);
      return { read: counts[0], written: counts[1] };
    }

    [INSPECT](depth, options, inspect) {
      if (depth < 0) return this; // Node then prints [Name]
      return { encoding: this.encoding };
    }
  }

  // The bytes of an ArrayBuffer, SharedArrayBuffer or view, without copying.
  function bytesOf(input) {
    if (isView(input)) {
      if (typedArrayTag.call(input) === undefined) {
        return new Uint8ArrayCtor(viewBuffer.call(input), viewOffset.call(input), viewLength.call(input));
      }
      return new Uint8ArrayCtor(input.buffer, input.byteOffset, input.byteLength);
    }
    try {
      arrayBufferLength.call(input);
      return new Uint8ArrayCtor(input);
    } catch {}
    if (sharedLength !== undefined) {
      try {
        sharedLength.call(input);
        return new Uint8ArrayCtor(input);
      } catch {}
    }
    throw nativeError(TypeErrorCtor, 'ERR_INVALID_ARG_TYPE',
      'The "list" argument must be an instance of SharedArrayBuffer, ArrayBuffer or ArrayBufferView.');
  }

  // Decoder state lives in a closed-over record per instance.
  const states = new WeakMap();
  const EMPTY = new Uint8ArrayCtor(0);

  function stateOf(decoder) {
    const state = states.get(decoder);
    if (state === undefined) throw invalidThis('TextDecoder');
    return state;
  }

  function invalidData(state) {
    state.pending = EMPTY;
    state.bomSeen = false;
    return nativeError(TypeErrorCtor, 'ERR_ENCODING_INVALID_ENCODED_DATA',
      'The encoded data was not valid for encoding ' + state.encoding);
  }

  // Appends UTF-16 code units to a chunked string builder for at most `size` units.
  function builder(size) {
    const units = new Uint16Array(size < 8192 ? size : 8192);
    let used = 0;
    let text = '';
    return {
      push(unit) {
        if (used === units.length) {
          text += apply(fromCharCode, null, units);
          used = 0;
        }
        units[used++] = unit;
      },
      done() {
        return text + apply(fromCharCode, null, units.subarray(0, used));
      },
    };
  }

  // The decoders return where the undecoded tail of `input` starts (an incomplete sequence
  // that the next chunk may finish when streaming).
  function decodeUtf8(state, input, stream, out) {
    const total = input.length;
    let i = 0;
    while (i < total) {
      const first = input[i];
      if (first < 0x80) {
        out.push(first);
        i++;
        continue;
      }
      let needed = 0;
      let code = 0;
      let lower = 0x80;
      let upper = 0xbf;
      if (first >= 0xc2 && first <= 0xdf) needed = 1, code = first & 0x1f;
      else if (first >= 0xe0 && first <= 0xef) {
        needed = 2, code = first & 0xf;
        if (first === 0xe0) lower = 0xa0;
        if (first === 0xed) upper = 0x9f;
      } else if (first >= 0xf0 && first <= 0xf4) {
        needed = 3, code = first & 0x7;
        if (first === 0xf0) lower = 0x90;
        if (first === 0xf4) upper = 0x8f;
      }
      let seen = 0;
      if (needed !== 0) {
        while (seen < needed && i + 1 + seen < total) {
          const byte = input[i + 1 + seen];
          if (byte < lower || byte > upper) break;
          code = (code << 6) | (byte & 63);
          lower = 0x80;
          upper = 0xbf;
          seen++;
        }
        if (seen === needed) {
          if (code < 0x10000) out.push(code);
          else out.push(0xd800 + ((code - 0x10000) >> 10)), out.push(0xdc00 + (code & 0x3ff));
          i += 1 + needed;
          continue;
        }
        if (i + 1 + seen === total && stream) break; // the sequence may continue in the next chunk
      }
      if (state.fatal) throw invalidData(state);
      out.push(0xfffd);
      i += 1 + seen;
    }
    return i;
  }

  function decodeUtf16(state, input, stream, out) {
    const total = input.length;
    const big = state.encoding === 'utf-16be';
    let i = 0;
    while (i + 1 < total) {
      const unit = big ? (input[i] << 8) | input[i + 1] : input[i] | (input[i + 1] << 8);
      if (unit < 0xd800 || unit >= 0xe000) {
        out.push(unit);
        i += 2;
        continue;
      }
      if (unit < 0xdc00) {
        if (i + 3 >= total) break; // the pair may end in the next chunk, or the input ends here
        const next = big ? (input[i + 2] << 8) | input[i + 3] : input[i + 2] | (input[i + 3] << 8);
        if (next >= 0xdc00 && next < 0xe000) {
          out.push(unit), out.push(next);
          i += 4;
          continue;
        }
      }
      if (state.fatal) throw invalidData(state);
      out.push(0xfffd);
      i += 2;
    }
    if (!stream && i < total) {
      if (state.fatal) throw invalidData(state);
      out.push(0xfffd);
    }
    return i;
  }

  class TextDecoder {
    constructor(encoding = 'utf-8', options = {}) {
      encoding = `${encoding}`;
      if (options !== null && typeof options !== 'object' && typeof options !== 'function') {
        throw invalidArgType('options', 'of type object', options);
      }
      const name = encodings[encoding.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '').toLowerCase()];
      if (name === undefined) {
        throw codedError(RangeErrorCtor, 'ERR_ENCODING_NOT_SUPPORTED', 'The "' + encoding + '" encoding is not supported');
      }
      const fatal = options !== null && !!options.fatal;
      const ignoreBOM = options !== null && !!options.ignoreBOM;
      states.set(this, { encoding: name, fatal, ignoreBOM, pending: EMPTY, bomSeen: false });
    }

    decode(input = undefined, options = undefined) {
      const state = stateOf(this);
      let bytes = input === undefined ? new Uint8ArrayCtor(0) : bytesOf(input);
      const pending = state.pending;
      if (pending.length !== 0) {
        const joined = new Uint8ArrayCtor(pending.length + bytes.length);
        for (let i = 0; i < pending.length; i++) joined[i] = pending[i];
        apply(setBytes, joined, [bytes, pending.length]);
        bytes = joined;
      }
      const stream = options !== null && options !== undefined && !!options.stream;
      const out = builder(bytes.length + 1);
      const name = state.encoding;
      let end = bytes.length;
      if (name === 'windows-1252') {
        for (let i = 0; i < end; i++) {
          const byte = bytes[i];
          out.push(byte >= 0x80 && byte < 0xa0 ? charCodeAt(CP1252, byte - 0x80) : byte);
        }
      } else {
        end = (name === 'utf-8' ? decodeUtf8 : decodeUtf16)(state, bytes, stream, out);
      }
      const rest = new Uint8ArrayCtor(bytes.length - end);
      for (let i = 0; i < rest.length; i++) rest[i] = bytes[end + i];
      state.pending = rest;
      let text = out.done();
      if (!state.bomSeen && text.length !== 0) {
        state.bomSeen = true;
        if (!state.ignoreBOM && name !== 'windows-1252' && charCodeAt(text, 0) === 0xfeff) text = text.slice(1);
      }
      if (!stream) {
        state.bomSeen = false;
        state.pending = EMPTY;
      }
      return text;
    }

    get encoding() {
      return stateOf(this).encoding;
    }

    get fatal() {
      return stateOf(this).fatal;
    }

    get ignoreBOM() {
      return stateOf(this).ignoreBOM;
    }

    [INSPECT](depth, options, inspect) {
      if (depth < 0) return this; // Node then prints [Name]
      const state = stateOf(this);
      return 'TextDecoder ' + inspect({ encoding: state.encoding, fatal: state.fatal, ignoreBOM: state.ignoreBOM });
    }
  }

  const accessors = [TextEncoder, 'encoding encode encodeInto', TextDecoder, 'decode encoding fatal ignoreBOM'];
  for (let i = 0; i < accessors.length; i += 2) {
    const prototype = accessors[i].prototype;
    const keys = accessors[i + 1].split(' ');
    for (let k = 0; k < keys.length; k++) defineProperty(prototype, keys[k], { enumerable: true });
    defineProperty(prototype, Symbol.toStringTag, { value: accessors[i].name, configurable: true });
  }
  return { TextEncoder, TextDecoder };
})
