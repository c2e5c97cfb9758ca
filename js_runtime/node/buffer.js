// module: buffer
// globals: Buffer
// requires: internal/errors
(function (host) {
  'use strict';
  // Node's Buffer: a Uint8Array subclass with Node's string encodings and their decoding
  // quirks, the integer and float accessors with Node's range errors, and Node's memory
  // layout (small buffers are views of a shared 8 KiB pool, so `buf.buffer` is what Node
  // gives). Printing a buffer shows `<Buffer 68 69>` through its custom inspect method.
  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const getter = (object, key) => uncurry(Object.getOwnPropertyDescriptor(object, key).get);
  const apply = Reflect.apply;
  const ownKeys = Reflect.ownKeys;
  const defineProperty = Object.defineProperty;
  const setPrototypeOf = Object.setPrototypeOf;
  const create = Object.create;
  const isEnumerable = uncurry(Object.prototype.propertyIsEnumerable);
  const fromCharCode = String.fromCharCode;
  const charCodeAt = uncurry(String.prototype.charCodeAt);
  const toLowerCase = uncurry(String.prototype.toLowerCase);
  const stringSlice = uncurry(String.prototype.slice);
  const includes = uncurry(String.prototype.includes);
  const indexOfText = uncurry(String.prototype.indexOf);
  const isArray = Array.isArray;
  const isView = ArrayBuffer.isView;
  const isInteger = Number.isInteger;
  const isNaN = Number.isNaN;
  const MathFloor = Math.floor;
  const MathTrunc = Math.trunc;
  const MathMin = Math.min;
  const BigIntCtor = BigInt;
  const asIntN = BigInt.asIntN;
  const NumberCtor = Number;
  const StringCtor = String;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const RangeErrorCtor = RangeError;
  const Uint8ArrayCtor = Uint8Array;
  const TypedArray = Object.getPrototypeOf(Uint8Array);
  const typedArrayTag = getter(TypedArray.prototype, Symbol.toStringTag);
  const lengthOf = getter(TypedArray.prototype, 'length');
  const bufferOf = getter(TypedArray.prototype, 'buffer');
  const offsetOf = getter(TypedArray.prototype, 'byteOffset');
  const byteLengthOfView = getter(TypedArray.prototype, 'byteLength');
  const arrayBufferLength = getter(ArrayBuffer.prototype, 'byteLength');
  const sharedLength = typeof SharedArrayBuffer === 'function' ?
    getter(SharedArrayBuffer.prototype, 'byteLength') : undefined;
  const dataViewLength = getter(DataView.prototype, 'byteLength');
  const dataViewBuffer = getter(DataView.prototype, 'buffer');
  const dataViewOffset = getter(DataView.prototype, 'byteOffset');
  const setBytes = uncurry(TypedArray.prototype.set);
  const fillBytes = uncurry(TypedArray.prototype.fill);
  const sliceTyped = uncurry(TypedArray.prototype.slice);
  const subarrayOf = uncurry(TypedArray.prototype.subarray);
  const kMaxLength = 2 ** 32;
  const kStringMaxLength = 536870888;
  const CHUNK = 8192;

  // ---- Node's errors (internal/errors), and the one only Buffer throws.

  const { codedError, nativeError, invalidArgType, invalidArgValue, outOfRange, unknownEncoding } =
    host.require('internal/errors');

  function outOfBounds(name) {
    return codedError(RangeErrorCtor, 'ERR_BUFFER_OUT_OF_BOUNDS',
      name ? '"' + name + '" is outside of buffer bounds' : 'Attempt to access memory outside buffer bounds');
  }

  function checkNumber(value, name, min, max) {
    if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
    if ((min !== undefined && value < min) || (max !== undefined && value > max) ||
        ((min !== undefined || max !== undefined) && isNaN(value))) {
      throw outOfRange(name, (min !== undefined ? '>= ' + min : '') + (min !== undefined && max !== undefined ?
        ' && ' : '') + (max !== undefined ? '<= ' + max : ''), value);
    }
  }

  function checkOffset(value, name, min = 0, max = kMaxLength) {
    if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
    if (!isInteger(value)) throw outOfRange(name, 'an integer', value);
    if (value < min || value > max) throw outOfRange(name, '>= ' + min + ' && <= ' + max, value);
  }

  function checkInteger(value, name, min) {
    if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
    if (!isInteger(value)) throw outOfRange(name, 'an integer', value);
    if (value < min || value > Number.MAX_SAFE_INTEGER) {
      throw outOfRange(name, '>= ' + min + ' && <= ' + Number.MAX_SAFE_INTEGER, value);
    }
  }

  function isUint8Array(value) {
    return isView(value) && typedArrayTag(value) === 'Uint8Array';
  }

  function isTypedArray(value) {
    return isView(value) && typedArrayTag(value) !== undefined;
  }

  function isAnyArrayBuffer(value) {
    if (value === null || typeof value !== 'object') return false;
    try {
      arrayBufferLength(value);
      return true;
    } catch {
      // not an ArrayBuffer
    }
    if (sharedLength === undefined) return false;
    try {
      sharedLength(value);
      return true;
    } catch {
      return false;
    }
  }

  function viewByteLength(view) {
    return typedArrayTag(view) === undefined ? dataViewLength(view) : byteLengthOfView(view);
  }

  // The bytes of any ArrayBuffer view (or ArrayBuffer) as a Uint8Array over the same memory.
  function bytesOf(value) {
    if (!isView(value)) return new Uint8ArrayCtor(value);
    if (typedArrayTag(value) === undefined) {
      return new Uint8ArrayCtor(dataViewBuffer(value), dataViewOffset(value), dataViewLength(value));
    }
    return new Uint8ArrayCtor(bufferOf(value), offsetOf(value), byteLengthOfView(value));
  }

  function anyBufferLength(value) {
    try {
      return arrayBufferLength(value);
    } catch {
      return sharedLength(value);
    }
  }

  // ---- Encodings.

  const ENCODINGS = {
    __proto__: null,
    'utf8': 'utf8', 'utf-8': 'utf8', 'ucs2': 'utf16le', 'ucs-2': 'utf16le', 'utf16le': 'utf16le',
    'utf-16le': 'utf16le', 'latin1': 'latin1', 'binary': 'latin1', 'base64': 'base64', 'base64url': 'base64url',
    'hex': 'hex', 'ascii': 'ascii',
  };

  // The encoding a name means, or undefined for a name Node does not know.
  function encodingOf(name) {
    const text = '' + name;
    const exact = ENCODINGS[text];
    return exact !== undefined ? exact : ENCODINGS[toLowerCase(text)];
  }

  // Where Node takes a missing encoding (undefined, null) as utf8.
  function encodingOrUtf8(name) {
    return name == null ? 'utf8' : encodingOf(name);
  }

  function utf8Length(string) {
    let bytes = 0;
    const length = string.length;
    for (let i = 0; i < length; i++) {
      const code = charCodeAt(string, i);
      if (code < 0x80) bytes += 1;
      else if (code < 0x800) bytes += 2;
      else if (code >= 0xd800 && code <= 0xdbff && i + 1 < length &&
          (charCodeAt(string, i + 1) & 0xfc00) === 0xdc00) {
        bytes += 4;
        i++;
      } else bytes += 3;
    }
    return bytes;
  }

  function base64Length(string) {
    let length = string.length;
    if (length > 0 && charCodeAt(string, length - 1) === 61) length--;
    if (length > 1 && charCodeAt(string, length - 1) === 61) length--;
    return (length * 3) >>> 2;
  }

  function byteLengthIn(string, encoding) {
    switch (encoding) {
      case 'utf16le': return string.length * 2;
      case 'latin1': case 'ascii': return string.length;
      case 'hex': return string.length >>> 1;
      case 'base64': case 'base64url': return base64Length(string);
      default: return utf8Length(string);
    }
  }

  // The sextet of each character code of either base64 alphabet; -1 for anything else, which
  // Node skips, and 64 for '=', where Node stops.
  const SEXTET = fillBytes(new Int8Array(256), -1);
  const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  for (let i = 0; i < 64; i++) {
    SEXTET[charCodeAt(BASE64, i)] = i;
    SEXTET[charCodeAt(BASE64URL, i)] = i;
  }
  SEXTET[61] = 64;
  const HEX_DIGITS = '0123456789abcdef';
  const HEX_PAIRS = setPrototypeOf([], null);
  for (let i = 0; i < 256; i++) HEX_PAIRS[i] = HEX_DIGITS[i >>> 4] + HEX_DIGITS[i & 15];

  function nibble(code) {
    if (code >= 48 && code <= 57) return code - 48;
    if (code >= 97 && code <= 102) return code - 87;
    if (code >= 65 && code <= 70) return code - 55;
    return -1;
  }

  // Writes `string` into bytes[offset, offset + max) and returns how many bytes it wrote;
  // never a part of a character (utf8, utf16le) or of a hex pair.
  function writeString(bytes, string, offset, max, encoding) {
    const length = string.length;
    let at = offset;
    const end = offset + max;
    switch (encoding) {
      case 'latin1': case 'ascii': {
        const count = MathMin(length, max);
        for (let i = 0; i < count; i++) bytes[at++] = charCodeAt(string, i);
        return count;
      }
      case 'utf16le': {
        const count = MathMin(length, max >>> 1);
        for (let i = 0; i < count; i++) {
          const code = charCodeAt(string, i);
          bytes[at++] = code;
          bytes[at++] = code >>> 8;
        }
        return count * 2;
      }
      case 'hex': {
        const count = MathMin(length >>> 1, max);
        for (let i = 0; i < count; i++) {
          const high = nibble(charCodeAt(string, 2 * i));
          const low = nibble(charCodeAt(string, 2 * i + 1));
          if (high < 0 || low < 0) return i;
          bytes[at++] = high * 16 + low;
        }
        return count;
      }
      case 'base64': case 'base64url': {
        let group = 0;
        let count = 0;
        for (let i = 0; i < length && at < end; i++) {
          const code = charCodeAt(string, i);
          const sextet = code < 256 ? SEXTET[code] : -1;
          if (sextet === 64) break;
          if (sextet < 0) continue;
          group = group * 64 + sextet;
          if (++count === 4) {
            bytes[at++] = group >>> 16;
            if (at < end) bytes[at++] = group >>> 8;
            if (at < end) bytes[at++] = group;
            group = 0;
            count = 0;
          }
        }
        if (count === 2 && at < end) bytes[at++] = group >>> 4;
        else if (count === 3) {
          bytes[at++] = group >>> 10;
          if (at < end) bytes[at++] = group >>> 2;
        }
        return at - offset;
      }
      default: {
        for (let i = 0; i < length; i++) {
          let code = charCodeAt(string, i);
          if (code < 0x80) {
            if (at >= end) break;
            bytes[at++] = code;
            continue;
          }
          if (code < 0x800) {
            if (at + 2 > end) break;
            bytes[at++] = 0xc0 | (code >>> 6);
            bytes[at++] = 0x80 | (code & 0x3f);
            continue;
          }
          if (code >= 0xd800 && code <= 0xdbff && i + 1 < length &&
              (charCodeAt(string, i + 1) & 0xfc00) === 0xdc00) {
            if (at + 4 > end) break;
            code = 0x10000 + ((code - 0xd800) << 10) + (charCodeAt(string, ++i) - 0xdc00);
            bytes[at++] = 0xf0 | (code >>> 18);
            bytes[at++] = 0x80 | ((code >>> 12) & 0x3f);
            bytes[at++] = 0x80 | ((code >>> 6) & 0x3f);
            bytes[at++] = 0x80 | (code & 0x3f);
            continue;
          }
          if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
          if (at + 3 > end) break;
          bytes[at++] = 0xe0 | (code >>> 12);
          bytes[at++] = 0x80 | ((code >>> 6) & 0x3f);
          bytes[at++] = 0x80 | (code & 0x3f);
        }
        return at - offset;
      }
    }
  }

  // Text made of UTF-16 code units collected in `units` (flushed every CHUNK).
  function textBuilder() {
    const units = new Uint16Array(CHUNK);
    let count = 0;
    let text = '';
    return {
      push(unit) {
        units[count++] = unit;
        if (count === CHUNK) {
          text += apply(fromCharCode, null, units);
          count = 0;
        }
      },
      done() {
        return count === 0 ? text : text + apply(fromCharCode, null, subarrayOf(units, 0, count));
      },
    };
  }

  function latin1Text(bytes, start, end, mask) {
    let text = '';
    if (mask === 0xff) {
      for (let i = start; i < end; i += CHUNK) {
        text += apply(fromCharCode, null, subarrayOf(bytes, i, MathMin(i + CHUNK, end)));
      }
      return text;
    }
    const builder = textBuilder();
    for (let i = start; i < end; i++) builder.push(bytes[i] & mask);
    return builder.done();
  }

  // UTF-8 as the Encoding Standard decodes it: each maximal invalid sequence becomes U+FFFD.
  function utf8Text(bytes, start, end) {
    let ascii = start;
    while (ascii < end && bytes[ascii] < 0x80) ascii++;
    if (ascii === end) return latin1Text(bytes, start, end, 0xff);
    const builder = textBuilder();
    let i = start;
    while (i < end) {
      const lead = bytes[i++];
      if (lead < 0x80) {
        builder.push(lead);
        continue;
      }
      let needed;
      let code;
      let lower = 0x80;
      let upper = 0xbf;
      if (lead >= 0xc2 && lead <= 0xdf) {
        needed = 1;
        code = lead & 0x1f;
      } else if (lead >= 0xe0 && lead <= 0xef) {
        needed = 2;
        code = lead & 0xf;
        if (lead === 0xe0) lower = 0xa0;
        if (lead === 0xed) upper = 0x9f;
      } else if (lead >= 0xf0 && lead <= 0xf4) {
        needed = 3;
        code = lead & 0x7;
        if (lead === 0xf0) lower = 0x90;
        if (lead === 0xf4) upper = 0x8f;
      } else {
        builder.push(0xfffd);
        continue;
      }
      let valid = true;
      for (let k = 0; k < needed; k++) {
        const next = i < end ? bytes[i] : -1;
        if (next < lower || next > upper) {
          valid = false;
          break;
        }
        code = code * 64 + (next & 0x3f);
        lower = 0x80;
        upper = 0xbf;
        i++;
      }
      if (!valid) builder.push(0xfffd);
      else if (code < 0x10000) builder.push(code);
      else {
        code -= 0x10000;
        builder.push(0xd800 + (code >>> 10));
        builder.push(0xdc00 + (code & 0x3ff));
      }
    }
    return builder.done();
  }

  function base64Text(bytes, start, end, url) {
    const alphabet = url ? BASE64URL : BASE64;
    let text = '';
    let piece = '';
    let i = start;
    for (; i + 2 < end; i += 3) {
      const group = bytes[i] * 65536 + bytes[i + 1] * 256 + bytes[i + 2];
      piece += alphabet[group >>> 18] + alphabet[(group >>> 12) & 63] + alphabet[(group >>> 6) & 63] +
        alphabet[group & 63];
      if (piece.length >= CHUNK) {
        text += piece;
        piece = '';
      }
    }
    text += piece;
    if (end - i === 1) {
      const group = bytes[i];
      text += alphabet[group >>> 2] + alphabet[(group & 3) << 4] + (url ? '' : '==');
    } else if (end - i === 2) {
      const group = bytes[i] * 256 + bytes[i + 1];
      text += alphabet[group >>> 10] + alphabet[(group >>> 4) & 63] + alphabet[(group & 15) << 2] + (url ? '' : '=');
    }
    return text;
  }

  function textOf(bytes, start, end, encoding) {
    switch (encoding) {
      case 'latin1': return latin1Text(bytes, start, end, 0xff);
      case 'ascii': return latin1Text(bytes, start, end, 0x7f);
      case 'hex': {
        let text = '';
        let piece = '';
        for (let i = start; i < end; i++) {
          piece += HEX_PAIRS[bytes[i]];
          if (piece.length >= CHUNK) {
            text += piece;
            piece = '';
          }
        }
        return text + piece;
      }
      case 'base64': return base64Text(bytes, start, end, false);
      case 'base64url': return base64Text(bytes, start, end, true);
      case 'utf16le': {
        const builder = textBuilder();
        for (let i = start; i + 1 < end; i += 2) builder.push(bytes[i] + bytes[i + 1] * 256);
        return builder.done();
      }
      default: return utf8Text(bytes, start, end);
    }
  }

  // ---- Creating buffers.

  class FastBuffer extends Uint8ArrayCtor {}
  const proto = FastBuffer.prototype;

  let poolSize = 8192;
  let pool;
  let poolOffset = 0;

  function createPool() {
    poolSize = Buffer.poolSize;
    pool = new ArrayBuffer(poolSize);
    poolOffset = 0;
  }

  function alignPool() {
    if (poolOffset & 7) {
      poolOffset |= 7;
      poolOffset++;
    }
  }

  // A buffer of `size` bytes, from the pool when it is small, as Node's allocUnsafe does.
  function allocate(size) {
    if (size <= 0) return new FastBuffer();
    if (size < (Buffer.poolSize >>> 1)) {
      if (pool === undefined || size > poolSize - poolOffset) createPool();
      const buffer = new FastBuffer(pool, poolOffset, size);
      poolOffset += size;
      alignPool();
      return buffer;
    }
    return new FastBuffer(size);
  }

  function fromString(string, encodingName) {
    let encoding = 'utf8';
    if (typeof encodingName === 'string' && encodingName.length !== 0) {
      encoding = encodingOf(encodingName);
      if (encoding === undefined) throw unknownEncoding(encodingName);
    }
    if (string.length === 0) return new FastBuffer();
    const length = byteLengthIn(string, encoding);
    if (length >= (Buffer.poolSize >>> 1)) {
      const buffer = new FastBuffer(length);
      const written = writeString(buffer, string, 0, length, encoding);
      if (written === length) return buffer;
      const exact = new FastBuffer(written);
      setBytes(exact, subarrayOf(buffer, 0, written), 0);
      return exact;
    }
    if (pool === undefined || length > poolSize - poolOffset) createPool();
    let buffer = new FastBuffer(pool, poolOffset, length);
    const written = writeString(buffer, string, 0, length, encoding);
    if (written !== length) buffer = new FastBuffer(pool, poolOffset, written);
    poolOffset += written;
    alignPool();
    return buffer;
  }

  function fromArrayLike(source) {
    const length = source.length;
    if (length <= 0) return new FastBuffer();
    const buffer = allocate(length);
    setBytes(buffer, source, 0);
    return buffer;
  }

  function fromArrayBuffer(arrayBuffer, byteOffset, length) {
    if (byteOffset === undefined) byteOffset = 0;
    else {
      byteOffset = +byteOffset;
      if (isNaN(byteOffset)) byteOffset = 0;
    }
    const maxLength = anyBufferLength(arrayBuffer) - byteOffset;
    if (maxLength < 0) throw outOfBounds('offset');
    if (length === undefined) length = maxLength;
    else {
      length = +length;
      if (length > 0) {
        if (length > maxLength) throw outOfBounds('length');
      } else length = 0;
    }
    return new FastBuffer(arrayBuffer, byteOffset, length);
  }

  function fromObject(object) {
    if (object.length !== undefined || isAnyArrayBuffer(object.buffer)) {
      if (typeof object.length !== 'number') return new FastBuffer();
      return fromArrayLike(object);
    }
    if (object.type === 'Buffer' && isArray(object.data)) return fromArrayLike(object.data);
    return undefined;
  }

  function from(value, encodingOrOffset, length) {
    if (typeof value === 'string') return fromString(value, encodingOrOffset);
    if (typeof value === 'object' && value !== null) {
      if (isAnyArrayBuffer(value)) return fromArrayBuffer(value, encodingOrOffset, length);
      const valueOf = value.valueOf && value.valueOf();
      if (valueOf != null && valueOf !== value && (typeof valueOf === 'string' || typeof valueOf === 'object')) {
        return from(valueOf, encodingOrOffset, length);
      }
      const made = fromObject(value);
      if (made !== undefined) return made;
      if (typeof value[Symbol.toPrimitive] === 'function') {
        const primitive = value[Symbol.toPrimitive]('string');
        if (typeof primitive === 'string') return fromString(primitive, encodingOrOffset);
      }
    }
    throw invalidArgType('first argument', 'of type string or an instance of Buffer, ArrayBuffer, or Array or an ' +
      'Array-like Object', value);
  }

  let warnedConstructor = false;
  // The old way to make a buffer, deprecated in Node with a warning the first time.
  function Buffer(arg, encodingOrOffset, length) {
    if (!warnedConstructor) {
      warnedConstructor = true;
      emitWarning('DeprecationWarning', 'Buffer() is deprecated due to security and usability issues. Please use ' +
        'the Buffer.alloc(), Buffer.allocUnsafe(), or Buffer.from() methods instead.', 'DEP0005');
    }
    if (typeof arg === 'number') {
      if (typeof encodingOrOffset === 'string') throw invalidArgType('string', 'of type string', arg);
      return Buffer.alloc(arg);
    }
    return Buffer.from(arg, encodingOrOffset, length);
  }
  Buffer.prototype = proto;
  defineProperty(proto, 'constructor', { value: Buffer, writable: true, enumerable: false, configurable: true });
  setPrototypeOf(Buffer, Uint8ArrayCtor);

  // A process warning, printed as Node prints it (by the runtime, after the code's synchronous part).
  function emitWarning(type, message, code) {
    host.warn(type, message, code);
  }

  const statics = {
    poolSize: 8192,
    from,
    copyBytesFrom(view, offset, length) {
      if (!isTypedArray(view)) throw invalidArgType('view', 'an instance of TypedArray', view);
      const viewLength = lengthOf(view);
      if (viewLength === 0) return Buffer.alloc(0);
      if (offset !== undefined || length !== undefined) {
        if (offset !== undefined) {
          checkInteger(offset, 'offset', 0);
          if (offset >= viewLength) return Buffer.alloc(0);
        } else offset = 0;
        let end = viewLength;
        if (length !== undefined) {
          checkInteger(length, 'length', 0);
          end = offset + length;
        }
        view = sliceTyped(view, offset, end);
      }
      return fromArrayLike(new Uint8ArrayCtor(bufferOf(view), offsetOf(view), byteLengthOfView(view)));
    },
    of(...items) {
      const buffer = allocate(items.length);
      for (let i = 0; i < items.length; i++) buffer[i] = items[i];
      return buffer;
    },
    alloc(size, fill, encoding) {
      checkNumber(size, 'size', 0, kMaxLength);
      if (fill !== undefined && fill !== 0 && size > 0) {
        return fillBuffer(new FastBuffer(size), fill, 0, size, encoding);
      }
      return new FastBuffer(size);
    },
    allocUnsafe(size) {
      checkNumber(size, 'size', 0, kMaxLength);
      return allocate(size);
    },
    allocUnsafeSlow(size) {
      checkNumber(size, 'size', 0, kMaxLength);
      return new FastBuffer(size);
    },
    isBuffer(value) {
      return value instanceof Buffer;
    },
    compare(buf1, buf2) {
      if (!isUint8Array(buf1)) throw invalidArgType('buf1', 'an instance of Buffer or Uint8Array', buf1);
      if (!isUint8Array(buf2)) throw invalidArgType('buf2', 'an instance of Buffer or Uint8Array', buf2);
      if (buf1 === buf2) return 0;
      return compareRanges(buf1, 0, lengthOf(buf1), buf2, 0, lengthOf(buf2));
    },
    isEncoding(encoding) {
      return typeof encoding === 'string' && encoding.length !== 0 && encodingOf(encoding) !== undefined;
    },
    concat(list, length) {
      if (!isArray(list)) throw invalidArgType('list', 'an instance of Array', list);
      if (list.length === 0) return new FastBuffer();
      if (length === undefined) {
        length = 0;
        for (let i = 0; i < list.length; i++) {
          if (list[i].length) length += list[i].length;
        }
      } else {
        checkOffset(length, 'length');
      }
      const buffer = allocate(length);
      let position = 0;
      for (let i = 0; i < list.length; i++) {
        const item = list[i];
        if (!isUint8Array(item)) throw invalidArgType('list[' + i + ']', 'an instance of Buffer or Uint8Array', item);
        position += copyBytes(item, buffer, position, 0, lengthOf(item));
      }
      if (position < length) fillBytes(buffer, 0, position, length);
      return buffer;
    },
    byteLength(string, encoding) {
      if (typeof string !== 'string') {
        if (isView(string)) return viewByteLength(string);
        if (isAnyArrayBuffer(string)) return anyBufferLength(string);
        throw invalidArgType('string', 'of type string or an instance of Buffer or ArrayBuffer', string);
      }
      if (string.length === 0) return 0;
      if (!encoding) return utf8Length(string);
      const known = encodingOf(encoding);
      return byteLengthIn(string, known === undefined ? 'utf8' : known);
    },
  };
  const staticKeys = ownKeys(statics);
  for (let i = 0; i < staticKeys.length; i++) {
    const key = staticKeys[i];
    defineProperty(Buffer, key, { value: statics[key], writable: true, enumerable: key === 'poolSize',
      configurable: true });
  }
  defineProperty(Buffer, Symbol.species, { get: () => FastBuffer, configurable: true });
  defineProperty(Buffer, Symbol('kIsEncodingSymbol'), { value: statics.isEncoding, writable: true,
    configurable: true });

  // ---- Comparing, copying, filling.

  function compareRanges(a, aStart, aEnd, b, bStart, bEnd) {
    const aLength = aEnd - aStart;
    const bLength = bEnd - bStart;
    const count = MathMin(aLength, bLength);
    for (let i = 0; i < count; i++) {
      const x = a[aStart + i];
      const y = b[bStart + i];
      if (x !== y) return x < y ? -1 : 1;
    }
    return aLength < bLength ? -1 : aLength > bLength ? 1 : 0;
  }

  // Copies source[sourceStart, sourceEnd) to target at targetStart, as much as fits.
  function copyBytes(source, target, targetStart, sourceStart, sourceEnd) {
    const targetLength = byteLengthOfView(target);
    const sourceLength = byteLengthOfView(source);
    if (sourceEnd - sourceStart > targetLength - targetStart) sourceEnd = sourceStart + targetLength - targetStart;
    let count = sourceEnd - sourceStart;
    if (count > sourceLength - sourceStart) count = sourceLength - sourceStart;
    if (count <= 0) return 0;
    if (sourceStart !== 0 || count < sourceLength) {
      source = new Uint8ArrayCtor(bufferOf(source), offsetOf(source) + sourceStart, count);
    }
    setBytes(target, source, targetStart);
    return count;
  }

  function toInteger(value) {
    value = +value;
    if (!isNaN(value) && value >= Number.MIN_SAFE_INTEGER && value <= Number.MAX_SAFE_INTEGER) {
      return value % 1 === 0 ? value : MathFloor(value);
    }
    return 0;
  }

  // The bytes a fill value repeats, or a number when it is one byte.
  function fillBuffer(buffer, value, offset, end, encoding) {
    let encodingName;
    if (typeof value === 'string') {
      if (offset === undefined || typeof offset === 'string') {
        encoding = offset;
        offset = 0;
        end = lengthOf(buffer);
      } else if (typeof end === 'string') {
        encoding = end;
        end = lengthOf(buffer);
      }
      encodingName = encodingOrUtf8(encoding);
      if (encodingName === undefined) {
        if (typeof encoding !== 'string') throw invalidArgType('encoding', 'of type string', encoding);
        throw unknownEncoding(encoding);
      }
      if (value.length === 0) value = 0;
      else if (value.length === 1) {
        const code = charCodeAt(value, 0);
        if (encodingName === 'utf8' && code < 128) value = code;
        else if (encodingName === 'latin1') value = code;
      }
    }
    if (offset === undefined) {
      offset = 0;
      end = lengthOf(buffer);
    } else {
      checkOffset(offset, 'offset');
      if (end === undefined) end = lengthOf(buffer);
      else checkOffset(end, 'end', 0, lengthOf(buffer));
      if (offset >= end) return buffer;
    }
    if (typeof value === 'number') {
      fillBytes(buffer, value, offset, end);
      return buffer;
    }
    let pattern;
    if (typeof value === 'string') {
      pattern = new Uint8ArrayCtor(byteLengthIn(value, encodingName));
      pattern = subarrayOf(pattern, 0, writeString(pattern, value, 0, pattern.length, encodingName));
    } else if (isView(value)) {
      pattern = bytesOf(value);
    } else {
      fillBytes(buffer, (+value >>> 0) & 255, offset, end);
      return buffer;
    }
    const count = pattern.length;
    if (count === 0) throw invalidArgValue('value', value);
    for (let i = offset, j = 0; i < end; i++) {
      buffer[i] = pattern[j];
      if (++j === count) j = 0;
    }
    return buffer;
  }

  // ---- Searching.

  // Where a search starts, as Node works it out from the offset the code gave; -1: nowhere.
  function searchStart(length, offset, needleLength, forward) {
    if (offset < 0) {
      if (offset + length >= 0) return length + offset;
      return forward || needleLength === 0 ? 0 : -1;
    }
    if (offset + needleLength <= length) return offset;
    if (needleLength === 0) return length;
    return forward ? -1 : length - 1;
  }

  function searchBytes(haystack, needle, offset, forward, step) {
    const length = lengthOf(haystack);
    const needleLength = needle.length;
    let start = searchStart(length, MathTrunc(offset), needleLength, forward);
    if (needleLength === 0) return start;
    if (length === 0 || start < 0) return -1;
    if (step === 2) {
      if (length < 2 || needleLength < 2) return -1;
      start -= start % 2;
    }
    const last = length - needleLength;
    if (forward) {
      for (let i = start; i <= last; i += step) {
        if (matchesAt(haystack, needle, i)) return i;
      }
    } else {
      for (let i = MathMin(start, last - (step === 2 ? last % 2 : 0)); i >= 0; i -= step) {
        if (matchesAt(haystack, needle, i)) return i;
      }
    }
    return -1;
  }

  function matchesAt(haystack, needle, at) {
    for (let j = 0; j < needle.length; j++) {
      if (haystack[at + j] !== needle[j]) return false;
    }
    return true;
  }

  function indexOf(buffer, value, byteOffset, encoding, forward) {
    if (typeof byteOffset === 'string') {
      encoding = byteOffset;
      byteOffset = undefined;
    } else if (byteOffset > 0x7fffffff) byteOffset = 0x7fffffff;
    else if (byteOffset < -0x80000000) byteOffset = -0x80000000;
    byteOffset = +byteOffset;
    if (isNaN(byteOffset)) byteOffset = forward ? 0 : lengthOf(buffer);
    if (typeof value === 'number') {
      const needle = new Uint8ArrayCtor(1);
      needle[0] = value >>> 0;
      return searchBytes(buffer, needle, byteOffset, forward, 1);
    }
    const encodingName = encoding === undefined ? 'utf8' : encodingOf(encoding);
    if (typeof value === 'string') {
      if (encodingName === undefined) throw unknownEncoding(encoding);
      const needle = new Uint8ArrayCtor(byteLengthIn(value, encodingName));
      const bytes = subarrayOf(needle, 0, writeString(needle, value, 0, needle.length, encodingName));
      return searchBytes(buffer, bytes, byteOffset, forward, encodingName === 'utf16le' ? 2 : 1);
    }
    if (isUint8Array(value)) return searchBytes(buffer, value, byteOffset, forward, encodingName === 'utf16le' ? 2 : 1);
    throw invalidArgType('value', 'one of type number or string or an instance of Buffer or Uint8Array', value);
  }

  // ---- Slicing.

  function adjustOffset(offset, length) {
    offset = MathTrunc(offset);
    if (offset === 0 || isNaN(offset)) return 0;
    if (offset < 0) {
      offset += length;
      return offset > 0 ? offset : 0;
    }
    return offset < length ? offset : length;
  }

  function sliceOf(buffer, start, end) {
    const length = lengthOf(buffer);
    start = adjustOffset(start, length);
    end = end !== undefined ? adjustOffset(end, length) : length;
    return new FastBuffer(bufferOf(buffer), offsetOf(buffer) + start, end > start ? end - start : 0);
  }

  // ---- Numbers: Node's checks, then the bytes.

  function boundsError(value, last, name) {
    if (MathFloor(value) !== value) {
      checkNumber(value, name || 'offset');
      throw outOfRange(name || 'offset', 'an integer', value);
    }
    if (last < 0) throw outOfBounds();
    throw outOfRange(name || 'offset', '>= ' + (name ? 1 : 0) + ' and <= ' + last, value);
  }

  function checkBounds(buffer, offset, size) {
    checkNumber(offset, 'offset');
    if (buffer[offset] === undefined || buffer[offset + size - 1] === undefined) {
      boundsError(offset, lengthOf(buffer) - size);
    }
  }

  function readInteger(buffer, offset, size, little, signed) {
    checkBounds(buffer, offset, size);
    let value = 0;
    for (let i = 0; i < size; i++) value += buffer[offset + (little ? i : size - 1 - i)] * 2 ** (8 * i);
    if (signed && value >= 2 ** (8 * size - 1)) value -= 2 ** (8 * size);
    return value;
  }

  function writeInteger(buffer, value, offset, size, little, signed) {
    value = +value;
    const min = signed ? -(2 ** (8 * size - 1)) : 0;
    const max = signed ? 2 ** (8 * size - 1) - 1 : 2 ** (8 * size) - 1;
    if (size === 1) checkNumber(offset, 'offset');
    if (value > max || value < min) {
      let range;
      if (size > 4) {
        range = signed ? '>= -(2 ** ' + (8 * size - 1) + ') and < 2 ** ' + (8 * size - 1) :
          '>= 0 and < 2 ** ' + 8 * size;
      } else {
        range = '>= ' + min + ' and <= ' + max;
      }
      throw outOfRange('value', range, value);
    }
    checkBounds(buffer, offset, size);
    const high = MathFloor(value * 2 ** -32);
    for (let i = 0; i < size; i++) {
      buffer[offset + (little ? i : size - 1 - i)] = i < 4 ? value >>> (8 * i) : high >>> (8 * (i - 4));
    }
    return offset + size;
  }

  // Variable-width access: readUIntLE(offset, byteLength) and the like.
  function checkWidth(offset, byteLength) {
    if (offset === undefined) throw invalidArgType('offset', 'of type number', offset);
    if (byteLength >= 1 && byteLength <= 6 && isInteger(byteLength)) return;
    boundsError(byteLength, 6, 'byteLength');
  }

  const floatScratch = new Float64Array(1);
  const floatBytes = new Uint8ArrayCtor(floatScratch.buffer);
  const singleScratch = new Float32Array(1);
  const singleBytes = new Uint8ArrayCtor(singleScratch.buffer);

  function readFloat(buffer, offset, size, little) {
    checkBounds(buffer, offset, size);
    const bytes = size === 4 ? singleBytes : floatBytes;
    for (let i = 0; i < size; i++) bytes[i] = buffer[offset + (little ? i : size - 1 - i)];
    return size === 4 ? singleScratch[0] : floatScratch[0];
  }

  function writeFloat(buffer, value, offset, size, little) {
    value = +value;
    checkBounds(buffer, offset, size);
    let bytes;
    if (size === 4) {
      singleScratch[0] = value;
      bytes = singleBytes;
    } else {
      floatScratch[0] = value;
      bytes = floatBytes;
    }
    for (let i = 0; i < size; i++) buffer[offset + (little ? i : size - 1 - i)] = bytes[i];
    return offset + size;
  }

  function readBig(buffer, offset, little, signed) {
    checkNumber(offset, 'offset');
    if (buffer[offset] === undefined || buffer[offset + 7] === undefined) boundsError(offset, lengthOf(buffer) - 8);
    let low = 0;
    let high = 0;
    for (let i = 0; i < 4; i++) {
      low += buffer[offset + (little ? i : 7 - i)] * 2 ** (8 * i);
      high += buffer[offset + (little ? 4 + i : 3 - i)] * 2 ** (8 * i);
    }
    const value = (BigIntCtor(high) << 32n) + BigIntCtor(low);
    return signed ? asIntN(64, value) : value;
  }

  function writeBig(buffer, value, offset, little, signed) {
    const min = signed ? -(2n ** 63n) : 0n;
    const max = signed ? 2n ** 63n - 1n : 2n ** 64n - 1n;
    if (value > max || value < min) {
      throw outOfRange('value', signed ? '>= -(2n ** 63n) and < 2n ** 63n' : '>= 0n and < 2n ** 64n', value);
    }
    checkBounds(buffer, offset, 8);
    const low = NumberCtor(value & 0xffffffffn);
    const high = NumberCtor((value >> 32n) & 0xffffffffn);
    for (let i = 0; i < 4; i++) {
      buffer[offset + (little ? i : 7 - i)] = low >>> (8 * i);
      buffer[offset + (little ? 4 + i : 3 - i)] = high >>> (8 * i);
    }
    return offset + 8;
  }

  // ---- The prototype, its methods in Node's order.

  function method(name, fn, shownName = name) {
    defineProperty(fn, 'name', { value: shownName, configurable: true });
    defineProperty(proto, name, { value: fn, writable: true, enumerable: true, configurable: true });
    return fn;
  }

  function alias(name, of) {
    defineProperty(proto, name, { value: proto[of], writable: true, enumerable: true, configurable: true });
  }

  // The space-separated words of `text` (String.prototype.split would consult Symbol.split).
  function words(text) {
    const found = setPrototypeOf([], null);
    let start = 0;
    for (let i = 0; i <= text.length; i++) {
      if (i === text.length || charCodeAt(text, i) === 32) {
        if (i > start) found[found.length] = stringSlice(text, start, i);
        start = i + 1;
      }
    }
    return found;
  }

  function numericMethod(name) {
    const read = includes(name, 'read');
    const little = !includes(name, 'BE');
    const signed = !includes(name, 'UInt');
    if (includes(name, 'Big')) {
      return read ? function (offset = 0) {
        return readBig(this, offset, little, signed);
      } : function (value, offset = 0) {
        return writeBig(this, value, offset, little, signed);
      };
    }
    if (includes(name, 'Float') || includes(name, 'Double')) {
      const size = includes(name, 'Float') ? 4 : 8;
      return read ? function (offset = 0) {
        return readFloat(this, offset, size, little);
      } : function (value, offset = 0) {
        return writeFloat(this, value, offset, size, little);
      };
    }
    const size = includes(name, '32') ? 4 : includes(name, '16') ? 2 : includes(name, '8') ? 1 : 0;
    if (size === 0) {
      return read ? function (offset, byteLength) {
        checkWidth(offset, byteLength);
        return readInteger(this, offset, byteLength, little, signed);
      } : function (value, offset, byteLength) {
        checkWidth(0, byteLength);
        return writeInteger(this, value, offset, byteLength, little, signed);
      };
    }
    return read ? function (offset = 0) {
      return readInteger(this, offset, size, little, signed);
    } : function (value, offset = 0) {
      return writeInteger(this, value, offset, size, little, signed);
    };
  }

  const NUMERIC_METHODS = words('readBigUInt64LE readBigUInt64BE readBigUint64LE readBigUint64BE readBigInt64LE ' +
    'readBigInt64BE writeBigUInt64LE writeBigUInt64BE writeBigUint64LE writeBigUint64BE writeBigInt64LE ' +
    'writeBigInt64BE readUIntLE readUInt32LE readUInt16LE readUInt8 readUIntBE readUInt32BE readUInt16BE ' +
    'readUintLE readUint32LE readUint16LE readUint8 readUintBE readUint32BE readUint16BE readIntLE readInt32LE ' +
    'readInt16LE readInt8 readIntBE readInt32BE readInt16BE writeUIntLE writeUInt32LE writeUInt16LE writeUInt8 ' +
    'writeUIntBE writeUInt32BE writeUInt16BE writeUintLE writeUint32LE writeUint16LE writeUint8 writeUintBE ' +
    'writeUint32BE writeUint16BE writeIntLE writeInt32LE writeInt16LE writeInt8 writeIntBE writeInt32BE ' +
    'writeInt16BE readFloatLE readFloatBE readDoubleLE readDoubleBE writeFloatLE writeFloatBE writeDoubleLE ' +
    'writeDoubleBE');
  for (let i = 0; i < NUMERIC_METHODS.length; i++) {
    const name = NUMERIC_METHODS[i];
    const at = indexOfText(name, 'Uint');
    if (at !== -1) {
      // readUint8 and the like are the same functions as readUInt8.
      alias(name, stringSlice(name, 0, at) + 'UInt' + stringSlice(name, at + 4));
    } else if (includes(name, 'Float') || includes(name, 'Double')) {
      // Node's names for these functions.
      method(name, numericMethod(name), stringSlice(name, 0, name.length - 2) + (includes(name, 'LE') ? 'Forwards' :
        'Backwards'));
    } else {
      method(name, numericMethod(name));
    }
  }

  // buf.hexSlice(start, end), buf.utf8Write(string, offset, length) and the like.
  const RAW_ENCODINGS = words('ascii base64 base64url latin1 hex ucs2 utf8');
  for (let i = 0; i < RAW_ENCODINGS.length; i++) {
    const encoding = RAW_ENCODINGS[i];
    const name = encodingOf(encoding);
    method(encoding + 'Slice', function (start = 0, end = lengthOf(this)) {
      return textOf(this, start, end, name);
    });
  }
  for (let i = 0; i < RAW_ENCODINGS.length; i++) {
    const encoding = RAW_ENCODINGS[i];
    const name = encodingOf(encoding);
    method(encoding + 'Write', function (string, offset = 0, length = lengthOf(this) - offset) {
      return writeString(this, string, offset, MathMin(length, lengthOf(this) - offset), name);
    });
  }

  defineProperty(proto, 'parent', {
    get() {
      return this instanceof Buffer ? bufferOf(this) : undefined;
    },
    enumerable: true, configurable: true,
  });
  defineProperty(proto, 'offset', {
    get() {
      return this instanceof Buffer ? offsetOf(this) : undefined;
    },
    enumerable: true, configurable: true,
  });

  method('copy', function (target, targetStart, sourceStart, sourceEnd) {
    if (!isUint8Array(target)) throw invalidArgType('target', 'an instance of Buffer or Uint8Array', target);
    const sourceLength = byteLengthOfView(this);
    if (targetStart === undefined) targetStart = 0;
    else {
      targetStart = isInteger(targetStart) ? targetStart : toInteger(targetStart);
      if (targetStart < 0) throw outOfRange('targetStart', '>= 0', targetStart);
    }
    if (sourceStart === undefined) sourceStart = 0;
    else {
      sourceStart = isInteger(sourceStart) ? sourceStart : toInteger(sourceStart);
      if (sourceStart < 0 || sourceStart > sourceLength) {
        throw outOfRange('sourceStart', '>= 0 && <= ' + sourceLength, sourceStart);
      }
    }
    if (sourceEnd === undefined) sourceEnd = sourceLength;
    else {
      sourceEnd = isInteger(sourceEnd) ? sourceEnd : toInteger(sourceEnd);
      if (sourceEnd < 0) throw outOfRange('sourceEnd', '>= 0', sourceEnd);
    }
    if (targetStart >= byteLengthOfView(target) || sourceStart >= sourceEnd) return 0;
    return copyBytes(this, target, targetStart, sourceStart, sourceEnd);
  });

  method('toString', function (encoding, start, end) {
    const length = lengthOf(this);
    if (arguments.length === 0) return utf8Text(this, 0, length);
    if (start <= 0) start = 0;
    else if (start >= length) return '';
    else start = MathTrunc(start) || 0;
    if (end === undefined || end > length) end = length;
    else end = MathTrunc(end) || 0;
    if (end <= start) return '';
    if (encoding === undefined) return utf8Text(this, start, end);
    const name = encodingOf(encoding);
    if (name === undefined) throw unknownEncoding(encoding);
    return textOf(this, start, end, name);
  });

  method('equals', function (otherBuffer) {
    if (!isUint8Array(otherBuffer)) {
      throw invalidArgType('otherBuffer', 'an instance of Buffer or Uint8Array', otherBuffer);
    }
    if (this === otherBuffer) return true;
    const length = byteLengthOfView(this);
    if (length !== byteLengthOfView(otherBuffer)) return false;
    return compareRanges(this, 0, length, otherBuffer, 0, length) === 0;
  });

  let INSPECT_MAX_BYTES = 50;
  const inspectBuffer = method('inspect', function (depth, options, inspect) {
    const length = lengthOf(this);
    const shown = MathMin(INSPECT_MAX_BYTES, length);
    let text = '';
    for (let i = 0; i < shown; i++) text += (i === 0 ? '' : ' ') + HEX_PAIRS[this[i]];
    const remaining = length - INSPECT_MAX_BYTES;
    if (remaining > 0) text += ' ... ' + remaining + ' more byte' + (remaining > 1 ? 's' : '');
    if (options) {
      // Properties of the buffer's own beyond its bytes; a huge buffer is not searched for them.
      const keys = length <= 100000 ? ownKeys(this) : [];
      const extras = create(null);
      let found = false;
      for (let i = length; i < keys.length; i++) {
        if (isEnumerable(this, keys[i])) {
          extras[keys[i]] = this[keys[i]];
          found = true;
        }
      }
      if (found) {
        const render = typeof inspect === 'function' ? inspect : host.inspect;
        if (length !== 0) text += ', ';
        text += stringSlice(render(extras, { ...options, breakLength: Infinity, compact: true }), 27, -2);
      }
    }
    return '<' + this.constructor.name + ' ' + text + '>';
  });
  defineProperty(proto, host.inspectCustom, { value: inspectBuffer, writable: true, enumerable: true,
    configurable: true });

  method('compare', function (target, targetStart, targetEnd, sourceStart, sourceEnd) {
    if (!isUint8Array(target)) throw invalidArgType('target', 'an instance of Buffer or Uint8Array', target);
    if (arguments.length === 1) return compareRanges(this, 0, lengthOf(this), target, 0, lengthOf(target));
    if (targetStart === undefined) targetStart = 0;
    else checkOffset(targetStart, 'targetStart');
    if (targetEnd === undefined) targetEnd = lengthOf(target);
    else checkOffset(targetEnd, 'targetEnd', 0, lengthOf(target));
    if (sourceStart === undefined) sourceStart = 0;
    else checkOffset(sourceStart, 'sourceStart');
    if (sourceEnd === undefined) sourceEnd = lengthOf(this);
    else checkOffset(sourceEnd, 'sourceEnd', 0, lengthOf(this));
    if (sourceStart >= sourceEnd) return targetStart >= targetEnd ? 0 : -1;
    if (targetStart >= targetEnd) return 1;
    return compareRanges(this, sourceStart, sourceEnd, target, targetStart, targetEnd);
  });

  method('indexOf', function (value, byteOffset, encoding) {
    return indexOf(this, value, byteOffset, encoding, true);
  });
  method('lastIndexOf', function (value, byteOffset, encoding) {
    return indexOf(this, value, byteOffset, encoding, false);
  });
  method('includes', function (value, byteOffset, encoding) {
    return this.indexOf(value, byteOffset, encoding) !== -1;
  });
  method('fill', function (value, offset, end, encoding) {
    return fillBuffer(this, value, offset, end, encoding);
  });

  method('write', function (string, offset, length, encoding) {
    if (typeof string !== 'string') {
      // Node's native code throws this one: a plain TypeError with a code.
      throw nativeError(TypeErrorCtor, 'ERR_INVALID_ARG_TYPE', 'argument must be a string');
    }
    const size = lengthOf(this);
    if (offset === undefined) return writeString(this, string, 0, size, 'utf8');
    if (length === undefined && typeof offset === 'string') {
      encoding = offset;
      length = size;
      offset = 0;
    } else {
      checkOffset(offset, 'offset', 0, size);
      const remaining = size - offset;
      if (length === undefined) length = remaining;
      else if (typeof length === 'string') {
        encoding = length;
        length = remaining;
      } else {
        checkOffset(length, 'length', 0, size);
        if (length > remaining) length = remaining;
      }
    }
    if (!encoding) return writeString(this, string, offset, length, 'utf8');
    const name = encodingOf(encoding);
    if (name === undefined) throw unknownEncoding(encoding);
    return writeString(this, string, offset, length, name);
  });

  method('toJSON', function () {
    const length = lengthOf(this);
    const data = [];
    for (let i = 0; i < length; i++) {
      defineProperty(data, i, { value: this[i], writable: true, enumerable: true, configurable: true });
    }
    return { type: 'Buffer', data };
  });

  method('subarray', function subarray(start, end) {
    return sliceOf(this, start, end);
  });
  method('slice', function slice(start, end) {
    return sliceOf(this, start, end);
  });

  function swapper(size) {
    return function () {
      const length = lengthOf(this);
      if (length % size !== 0) {
        throw codedError(RangeErrorCtor, 'ERR_INVALID_BUFFER_SIZE',
          'Buffer size must be a multiple of ' + 8 * size + '-bits');
      }
      for (let i = 0; i < length; i += size) {
        for (let j = 0; j < size >>> 1; j++) {
          const byte = this[i + j];
          this[i + j] = this[i + size - 1 - j];
          this[i + size - 1 - j] = byte;
        }
      }
      return this;
    };
  }
  method('swap16', swapper(2));
  method('swap32', swapper(4));
  method('swap64', swapper(8));
  alias('toLocaleString', 'toString');

  // ---- The rest of the module.

  const CONVERTIBLE = { __proto__: null, utf8: true, utf16le: true, latin1: true, ascii: true };

  function transcode(source, fromEncoding, toEncoding) {
    if (!isUint8Array(source)) throw invalidArgType('source', 'an instance of Buffer or Uint8Array', source);
    if (lengthOf(source) === 0) return Buffer.alloc(0);
    const from = encodingOf(fromEncoding);
    const to = encodingOf(toEncoding);
    if (!CONVERTIBLE[from] || !CONVERTIBLE[to]) {
      const error = nativeError(ErrorCtor, 'U_ILLEGAL_ARGUMENT_ERROR',
        'Unable to transcode Buffer [U_ILLEGAL_ARGUMENT_ERROR]');
      error.errno = 1;
      throw error;
    }
    let text;
    if (from === 'ascii') {
      const builder = textBuilder();
      for (let i = 0; i < lengthOf(source); i++) builder.push(source[i] < 0x80 ? source[i] : 0xfffd);
      text = builder.done();
    } else {
      text = textOf(source, 0, lengthOf(source), from);
    }
    if (to === 'latin1' || to === 'ascii') {
      // Characters the target cannot hold become '?', as ICU writes them.
      const limit = to === 'latin1' ? 0x100 : 0x80;
      const builder = textBuilder();
      for (let i = 0; i < text.length; i++) {
        const code = charCodeAt(text, i);
        if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length &&
            (charCodeAt(text, i + 1) & 0xfc00) === 0xdc00) i++;
        builder.push(code < limit ? code : 63);
      }
      text = builder.done();
    }
    return fromString(text, to);
  }

  function checkInput(input) {
    if (isTypedArray(input) || isAnyArrayBuffer(input)) return bytesOf(input);
    throw invalidArgType('input', 'an instance of ArrayBuffer, Buffer, or TypedArray', input);
  }

  function isUtf8(input) {
    const bytes = checkInput(input);
    const text = utf8Text(bytes, 0, bytes.length);
    for (let i = 0; i < text.length; i++) {
      if (charCodeAt(text, i) === 0xfffd) {
        // U+FFFD may be in the bytes themselves (EF BF BD).
        const reencoded = new Uint8ArrayCtor(utf8Length(text));
        writeString(reencoded, text, 0, reencoded.length, 'utf8');
        return compareRanges(reencoded, 0, reencoded.length, bytes, 0, bytes.length) === 0;
      }
    }
    return true;
  }

  function isAscii(input) {
    const bytes = checkInput(input);
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] >= 0x80) return false;
    }
    return true;
  }

  function SlowBuffer(size) {
    checkNumber(size, 'size', 0, kMaxLength);
    return new FastBuffer(size);
  }
  setPrototypeOf(SlowBuffer.prototype, proto);
  setPrototypeOf(SlowBuffer, Uint8ArrayCtor);

  // atob and btoa are the web globals (compiled only when the code names them).
  function webFunction(name) {
    try {
      const found = host.global(name);
      if (typeof found === 'function') return found;
    } catch {
      // not sent with this run
    }
    return function () {
      return apply(host.global(name), undefined, arguments);
    };
  }

  const exports = {
    Buffer,
    SlowBuffer,
    transcode,
    isUtf8,
    isAscii,
    kMaxLength,
    kStringMaxLength,
    btoa: webFunction('btoa'),
    atob: webFunction('atob'),
  };
  defineProperty(exports, 'constants', { value: { MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: kStringMaxLength },
    enumerable: true, writable: false, configurable: false });
  defineProperty(exports, 'INSPECT_MAX_BYTES', {
    get: () => INSPECT_MAX_BYTES,
    set: (value) => {
      checkNumber(value, 'INSPECT_MAX_BYTES', 0);
      INSPECT_MAX_BYTES = value;
    },
    enumerable: true, configurable: true,
  });
  return exports;
})
