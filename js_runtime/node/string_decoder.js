// module: string_decoder
// globals:
// requires: buffer internal/errors
(function (host) {
  'use strict';
  // Node's StringDecoder: text from bytes that arrive in pieces, holding back the bytes of a
  // character (UTF-8, UTF-16LE) or base64 group that a piece ends in the middle of, until the
  // next piece or end() completes it. What it holds back follows Node's rules, so the text of
  // each write() is Node's.
  const { Buffer } = host.require('buffer');
  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const getter = (object, key) => uncurry(Object.getOwnPropertyDescriptor(object, key).get);
  const setPrototypeOf = Object.setPrototypeOf;
  const create = Object.create;
  const stringSlice = uncurry(String.prototype.slice);
  const toLowerCase = uncurry(String.prototype.toLowerCase);
  const isView = ArrayBuffer.isView;
  const Uint8ArrayCtor = Uint8Array;
  const TypedArray = Object.getPrototypeOf(Uint8Array);
  const typedArrayTag = getter(TypedArray.prototype, Symbol.toStringTag);
  const viewBuffer = getter(TypedArray.prototype, 'buffer');
  const viewOffset = getter(TypedArray.prototype, 'byteOffset');
  const viewLength = getter(TypedArray.prototype, 'byteLength');
  const dataViewBuffer = getter(DataView.prototype, 'buffer');
  const dataViewOffset = getter(DataView.prototype, 'byteOffset');
  const dataViewLength = getter(DataView.prototype, 'byteLength');
  const bufferToString = uncurry(Buffer.prototype.toString);
  const bufferFrom = Buffer.from;
  const TypeErrorCtor = TypeError;
  const kState = Symbol('kNativeDecoder');

  const { invalidArgType, unknownEncoding } = host.require('internal/errors');

  const ENCODINGS = {
    __proto__: null,
    'utf8': 'utf8', 'utf-8': 'utf8', 'ucs2': 'utf16le', 'ucs-2': 'utf16le', 'utf16le': 'utf16le',
    'utf-16le': 'utf16le', 'latin1': 'latin1', 'binary': 'latin1', 'base64': 'base64', 'base64url': 'base64url',
    'hex': 'hex', 'ascii': 'ascii',
  };

  function encodingOf(name) {
    if (name == null) return 'utf8';
    const text = '' + name;
    return ENCODINGS[text] !== undefined ? ENCODINGS[text] : ENCODINGS[toLowerCase(text)];
  }

  function bytesOf(value) {
    if (typedArrayTag(value) === undefined) {
      return new Uint8ArrayCtor(dataViewBuffer(value), dataViewOffset(value), dataViewLength(value));
    }
    return new Uint8ArrayCtor(viewBuffer(value), viewOffset(value), viewLength(value));
  }

  function text(bytes, start, end, encoding) {
    if (end <= start) return '';
    return bufferToString(bufferFrom(viewBuffer(bytes), viewOffset(bytes) + start, end - start), encoding);
  }

  // How many bytes at the end of bytes[start, end) begin a UTF-8 character that is not
  // complete yet, and how many that character still needs.
  function utf8Tail(bytes, start, end) {
    let trailing = 0;
    for (let i = end - 1; i >= start; i--) {
      const byte = bytes[i];
      if ((byte & 0xc0) === 0x80) {
        if (++trailing >= 4 || i === start) return [0, 0];
        continue;
      }
      const length = (byte & 0xe0) === 0xc0 ? 2 : (byte & 0xf0) === 0xe0 ? 3 : (byte & 0xf8) === 0xf0 ? 4 : 0;
      const have = trailing + 1;
      if (length === 0 || have >= length) return [0, 0];
      return [have, length - have];
    }
    return [0, 0];
  }

  function StringDecoder(encoding) {
    const name = encodingOf(encoding);
    if (name === undefined) {
      throw unknownEncoding(encoding);
    }
    this.encoding = name;
    // The bytes held back (up to 4), how many of them there are and how many are missing.
    this[kState] = { __proto__: null, held: new Uint8ArrayCtor(4), count: 0, missing: 0 };
  }

  function hold(state, bytes, start, end, missing) {
    for (let i = start; i < end; i++) state.held[state.count++] = bytes[i];
    state.missing = missing;
  }

  function decode(decoder, input) {
    const state = decoder[kState];
    const encoding = decoder.encoding;
    const bytes = bytesOf(input);
    const length = bytes.length;
    let start = 0;
    let prefix = '';
    if (state.missing > 0) {
      // Complete the character (or group) held back from the last piece.
      while (state.missing > 0 && start < length) {
        if (encoding === 'utf8' && (bytes[start] & 0xc0) !== 0x80) break;
        state.held[state.count++] = bytes[start++];
        state.missing--;
      }
      if (state.missing > 0 && start === length) return '';
      prefix = text(state.held, 0, state.count, encoding);
      state.count = 0;
      state.missing = 0;
    }
    let end = length;
    if (encoding === 'utf8') {
      const tail = utf8Tail(bytes, start, end);
      if (tail[0] > 0) {
        end -= tail[0];
        hold(state, bytes, end, length, tail[1]);
      }
    } else if (encoding === 'utf16le') {
      if ((end - start) % 2 === 1) {
        end--;
        hold(state, bytes, end, length, 1);
      } else if (end - start >= 2 && (bytes[end - 1] & 0xfc) === 0xd8) {
        end -= 2;
        hold(state, bytes, end, length, 2);
      }
    } else if (encoding === 'base64' || encoding === 'base64url') {
      const rest = (end - start) % 3;
      if (rest > 0) {
        end -= rest;
        hold(state, bytes, end, length, 3 - rest);
      }
    }
    return prefix + text(bytes, start, end, encoding);
  }

  const proto = StringDecoder.prototype;

  proto.write = function write(buf) {
    if (typeof buf === 'string') return buf;
    if (!isView(buf)) {
      throw invalidArgType('buf', 'an instance of Buffer, TypedArray, or DataView', buf);
    }
    return decode(this, buf);
  };

  proto.end = function end(buf) {
    let result = buf === undefined ? '' : this.write(buf);
    const state = this[kState];
    if (state.count > 0) {
      // What is held back is written as it is: U+FFFD for a cut UTF-8 character, padding for base64.
      result += state.missing > 0 && this.encoding === 'utf16le' && state.count === 1 ? '' :
        text(state.held, 0, state.count, this.encoding);
    }
    state.count = 0;
    state.missing = 0;
    return result;
  };

  proto.text = function text(buf, offset) {
    this[kState].count = 0;
    this[kState].missing = 0;
    return this.write(buf.slice(offset));
  };

  Object.defineProperties(proto, {
    lastChar: {
      get() {
        return bufferFrom(this[kState].held);
      },
      configurable: true, enumerable: true,
    },
    lastNeed: {
      get() {
        return this[kState].missing;
      },
      configurable: true, enumerable: true,
    },
    lastTotal: {
      get() {
        return this[kState].count + this[kState].missing;
      },
      configurable: true, enumerable: true,
    },
  });

  return { StringDecoder };
})
