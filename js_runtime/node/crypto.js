// module: crypto
// globals:
// requires: buffer internal/errors
(function (host) {
  'use strict';
  // Node's crypto module, for what is pure computation: hashes (MD5 and the SHA-1 and SHA-2
  // family), HMAC, PBKDF2, HKDF, random bytes, integers and UUIDs, timingSafeEqual and
  // webcrypto, with Node 20's errors. It computes with the web crypto module's engine (its
  // SHA code, HMAC and ChaCha20 stream; see the end of js_runtime/web/crypto.js), adding MD5
  // and SHA-512/t. Ciphers, signatures and key pairs are refused, saying what exists.
  // Results are Buffers when the buffer module is there, Uint8Arrays otherwise.
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const isView = ArrayBuffer.isView;
  const isSafeInteger = Number.isSafeInteger;
  const isInteger = Number.isInteger;
  const floor = Math.floor;
  const abs = Math.abs;
  const sin = Math.sin;
  const fromCharCode = String.fromCharCode;
  const call = Function.prototype.call;
  const bind = Function.prototype.bind;
  const uncurry = (fn) => apply(bind, call, [fn]);
  const codeAt = uncurry(String.prototype.charCodeAt);
  const lower = uncurry(String.prototype.toLowerCase);
  const indexOf = uncurry(String.prototype.indexOf);
  const split = uncurry(String.prototype.split);
  const sliceText = uncurry(String.prototype.slice);
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const RangeErrorCtor = RangeError;
  const Uint8ArrayCtor = Uint8Array;
  const Int32ArrayCtor = Int32Array;
  const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
  const describe = Object.getOwnPropertyDescriptor;
  const typedArrayCount = uncurry(describe(TypedArrayPrototype, 'length').get);
  const typedArrayBuffer = uncurry(describe(TypedArrayPrototype, 'buffer').get);
  const typedArrayOffset = uncurry(describe(TypedArrayPrototype, 'byteOffset').get);
  const typedArrayTag = uncurry(describe(TypedArrayPrototype, Symbol.toStringTag).get);
  const arrayBufferLength = uncurry(describe(ArrayBuffer.prototype, 'byteLength').get);
  const webcrypto = host.global('crypto');
  const engine = host.global('Crypto')[Symbol.for('sandbox.crypto.engine')];
  const subtle = webcrypto.subtle;
  const webGetRandomValues = webcrypto.getRandomValues;
  const webRandomUUID = webcrypto.randomUUID;
  const setTimeoutFn = host.global('setTimeout');
  const inspect = host.inspect;
  const MAX_LENGTH = 2147483647;

  let BufferCtor;
  try {
    BufferCtor = host.require('buffer').Buffer;
  } catch (error) {
    // Without a buffer module results stay Uint8Arrays; any other failure is a real one.
    if (error === null || typeof error !== 'object' || error.code !== 'MODULE_NOT_FOUND') throw error;
  }
  const bufferFrom = BufferCtor === undefined ? undefined : BufferCtor.from;
  const bufferToString = BufferCtor === undefined ? undefined : BufferCtor.prototype.toString;

  function toBuffer(bytes) {
    if (BufferCtor === undefined) return bytes;
    return apply(bufferFrom, BufferCtor, [typedArrayBuffer(bytes), 0, typedArrayCount(bytes)]);
  }

  const { codedError, nativeError, invalidArgType, invalidArgValue, outOfRange } = host.require('internal/errors');

  function checkNumber(value, name, min, max) {
    if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
    if (!(value >= min && value <= max)) throw outOfRange(name, '>= ' + min + ' && <= ' + max, value);
  }

  function checkInt32(value, name, min) {
    if (typeof value !== 'number') throw invalidArgType(name, 'of type number', value);
    if (!isInteger(value)) throw outOfRange(name, 'an integer', value);
    if (value < min || value > MAX_LENGTH) throw outOfRange(name, '>= ' + min + ' && <= ' + MAX_LENGTH, value);
  }

  function checkString(value, name) {
    if (typeof value !== 'string') throw invalidArgType(name, 'of type string', value);
  }

  function checkCallback(callback) {
    if (typeof callback !== 'function') throw invalidArgType('callback', 'of type function', callback);
  }

  // Calls back after the current code, as Node's thread pool does.
  function later(callback, value) {
    setTimeoutFn(() => callback(null, value), 0);
  }

  // MD5 (RFC 1321), for the engine: sines table, shift amounts, little-endian words.
  const MD5_SINES = new Int32ArrayCtor(64);
  for (let i = 0; i < 64; i++) MD5_SINES[i] = floor(abs(sin(i + 1)) * 4294967296);
  const MD5_SHIFTS = new Uint8ArrayCtor(16);
  const shifts = split('7 12 17 22 5 9 14 20 4 11 16 23 6 10 15 21', ' ');
  for (let i = 0; i < 16; i++) MD5_SHIFTS[i] = +shifts[i];
  const X = new Int32ArrayCtor(16);

  function md5Block(h, b, o) {
    for (let i = 0; i < 16; i++, o += 4) X[i] = b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24);
    let a = h[0], bb = h[1], c = h[2], d = h[3];
    for (let i = 0; i < 64; i++) {
      let f, g;
      if (i < 16) {
        f = (bb & c) | (~bb & d); g = i;
      } else if (i < 32) {
        f = (d & bb) | (~d & c); g = (5 * i + 1) & 15;
      } else if (i < 48) {
        f = bb ^ c ^ d; g = (3 * i + 5) & 15;
      } else {
        f = c ^ (bb | ~d); g = (7 * i) & 15;
      }
      const x = (a + f + MD5_SINES[i] + X[g]) | 0;
      const s = MD5_SHIFTS[((i >> 4) << 2) | (i & 3)];
      a = d; d = c; c = bb;
      bb = (bb + ((x << s) | (x >>> (32 - s)))) | 0;
    }
    h[0] += a; h[1] += bb; h[2] += c; h[3] += d;
  }

  function md5Init() {
    const h = new Int32ArrayCtor(4);
    h[0] = 0x67452301; h[1] = 0xefcdab89; h[2] = 0x98badcfe; h[3] = 0x10325476;
    return h;
  }

  // SHA-512/t (FIPS 180-4, 5.3.6): SHA-512 from initial values that are the SHA-512 digest,
  // under the SHA-512 initial values xor a5a5..., of the text "SHA-512/t".
  function sha512t(bits) {
    const sha512 = engine.hashes['SHA-512'];
    const seed = sha512.init();
    for (let i = 0; i < 16; i++) seed[i] ^= 0xa5a5a5a5;
    const state = engine.start(engine.hashKind(128, 64, () => seed, sha512.compress, false));
    engine.update(state, latin1Bytes('SHA-512/' + bits));
    const digest = engine.finish(state);
    const iv = new Int32ArrayCtor(16);
    for (let i = 0; i < 64; i++) iv[i >> 2] |= digest[i] << (24 - 8 * (i & 3));
    return engine.hashKind(128, bits / 8, () => new Int32ArrayCtor(iv), sha512.compress, false);
  }

  // Each hash, with the names Node (OpenSSL) accepts for it, in lower case.
  const NAMES = 'md5: md5 rsa-md5 md5withrsaencryption ssl3-md5 1.2.840.113549.2.5|' +
    'sha1: sha1 sha-1 rsa-sha1 rsa-sha1-2 sha1withrsaencryption ssl3-sha1 1.3.14.3.2.26|' +
    'sha224: sha224 sha-224 sha2-224 rsa-sha224 sha224withrsaencryption 2.16.840.1.101.3.4.2.4|' +
    'sha256: sha256 sha-256 sha2-256 rsa-sha256 sha256withrsaencryption 2.16.840.1.101.3.4.2.1|' +
    'sha384: sha384 sha-384 sha2-384 rsa-sha384 sha384withrsaencryption 2.16.840.1.101.3.4.2.2|' +
    'sha512: sha512 sha-512 sha2-512 rsa-sha512 sha512withrsaencryption 2.16.840.1.101.3.4.2.3|' +
    'sha512-224: sha512-224 sha-512/224 sha2-512/224 rsa-sha512/224 sha512-224withrsaencryption ' +
    '2.16.840.1.101.3.4.2.5|' +
    'sha512-256: sha512-256 sha-512/256 sha2-512/256 rsa-sha512/256 sha512-256withrsaencryption 2.16.840.1.101.3.4.2.6';
  const HASH_LIST = 'md5, sha1, sha224, sha256, sha384, sha512, sha512-224, sha512-256';
  const MAKERS = {
    __proto__: null,
    md5: () => engine.hashKind(64, 16, md5Init, md5Block, true),
    sha1: () => engine.hashes['SHA-1'],
    sha224: () => engine.hashes['SHA-224'],
    sha256: () => engine.hashes['SHA-256'],
    sha384: () => engine.hashes['SHA-384'],
    sha512: () => engine.hashes['SHA-512'],
    'sha512-224': () => sha512t(224),
    'sha512-256': () => sha512t(256),
  };
  const ALIASES = { __proto__: null };
  const kinds = { __proto__: null };
  const groups = split(NAMES, '|');
  for (let i = 0; i < groups.length; i++) {
    const colon = indexOf(groups[i], ':');
    const names = split(sliceText(groups[i], colon + 2), ' ');
    for (let j = 0; j < names.length; j++) ALIASES[names[j]] = sliceText(groups[i], 0, colon);
  }
  // Digests Node has through OpenSSL and this sandbox has not: their errors say what exists.
  const ELSEWHERE = ['sha3', 'shake', 'blake2', 'ripemd', 'rmd160', 'sm3', 'md5-sha1', 'md4', 'whirlpool'];

  // The hash kind for a Node algorithm name, or undefined.
  function kindOf(algorithm) {
    const name = ALIASES[lower(algorithm)];
    if (name === undefined) return undefined;
    if (kinds[name] === undefined) kinds[name] = MAKERS[name]();
    return kinds[name];
  }

  function elsewhere(algorithm) {
    const name = lower(algorithm);
    for (let i = 0; i < ELSEWHERE.length; i++) {
      if (indexOf(name, ELSEWHERE[i]) !== -1) return ': ' + algorithm + ' is not in this sandbox, which has ' + HASH_LIST;
    }
    return '';
  }

  function digestKind(algorithm) {
    const kind = kindOf(algorithm);
    if (kind === undefined) throw new ErrorCtor('Digest method not supported' + elsewhere(algorithm));
    return kind;
  }

  function hmacKind(algorithm) {
    const kind = kindOf(algorithm);
    if (kind === undefined) {
      throw nativeError(TypeErrorCtor, 'ERR_CRYPTO_INVALID_DIGEST', 'Invalid digest: ' + algorithm + elsewhere(algorithm));
    }
    return kind;
  }

  // Node's encoding names, in lower case, to the ones handled below.
  const ENCODINGS = {
    __proto__: null, utf8: 'utf8', 'utf-8': 'utf8', hex: 'hex', base64: 'base64', base64url: 'base64url',
    latin1: 'latin1', binary: 'latin1', ascii: 'ascii', ucs2: 'utf16le', 'ucs-2': 'utf16le', utf16le: 'utf16le',
    'utf-16le': 'utf16le',
  };

  function encodingOf(encoding) {
    return typeof encoding === 'string' ? ENCODINGS[lower(encoding)] : undefined;
  }

  function latin1Bytes(text) {
    const out = new Uint8ArrayCtor(text.length);
    for (let i = 0; i < text.length; i++) out[i] = codeAt(text, i);
    return out;
  }

  // UTF-8, a lone surrogate as U+FFFD.
  function utf8Bytes(text) {
    const length = text.length;
    let out = new Uint8ArrayCtor(length * 3);
    let j = 0;
    for (let i = 0; i < length; i++) {
      let c = codeAt(text, i);
      if (c < 0x80) {
        out[j++] = c;
        continue;
      }
      if (c < 0x800) {
        out[j++] = 0xc0 | (c >> 6); out[j++] = 0x80 | (c & 63);
        continue;
      }
      if (c >= 0xd800 && c < 0xe000) {
        const next = i + 1 < length ? codeAt(text, i + 1) : 0;
        if (c < 0xdc00 && next >= 0xdc00 && next < 0xe000) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i++;
          out[j++] = 0xf0 | (c >> 18); out[j++] = 0x80 | ((c >> 12) & 63);
          out[j++] = 0x80 | ((c >> 6) & 63); out[j++] = 0x80 | (c & 63);
          continue;
        }
        c = 0xfffd;
      }
      out[j++] = 0xe0 | (c >> 12); out[j++] = 0x80 | ((c >> 6) & 63); out[j++] = 0x80 | (c & 63);
    }
    if (j < length * 3) out = new Uint8ArrayCtor(typedArrayBuffer(out), 0, j);
    return out;
  }

  function hexValue(c) {
    return c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
  }

  // Pairs of hex digits up to the first pair that is not one, as Node decodes them.
  function hexBytes(text) {
    const length = text.length >> 1;
    const out = new Uint8ArrayCtor(length);
    let n = 0;
    for (; n < length; n++) {
      const high = hexValue(codeAt(text, 2 * n)), low = hexValue(codeAt(text, 2 * n + 1));
      if (high < 0 || low < 0) break;
      out[n] = (high << 4) | low;
    }
    return new Uint8ArrayCtor(typedArrayBuffer(out), 0, n);
  }

  const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const SEXTETS = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) SEXTETS[codeAt(BASE64, i)] = i;
  SEXTETS[45] = 62;
  SEXTETS[95] = 63;

  // Node's lenient base64: both alphabets, other characters skipped, '=' ends the data.
  function base64Bytes(text) {
    const out = new Uint8ArrayCtor((text.length * 3) >> 2);
    let bits = 0, count = 0, n = 0;
    for (let i = 0; i < text.length; i++) {
      const c = codeAt(text, i);
      if (c === 61) break;
      const v = c < 128 ? SEXTETS[c] : -1;
      if (v < 0) continue;
      bits = (bits << 6) | v;
      if (++count === 4) {
        out[n++] = bits >> 16; out[n++] = bits >> 8; out[n++] = bits;
        bits = count = 0;
      }
    }
    if (count > 1) out[n++] = bits >> (6 * count - 8);
    if (count > 2) out[n++] = bits >> (6 * count - 16);
    return new Uint8ArrayCtor(typedArrayBuffer(out), 0, n);
  }

  function utf16Bytes(text) {
    const out = new Uint8ArrayCtor(text.length * 2);
    for (let i = 0; i < text.length; i++) {
      const c = codeAt(text, i);
      out[2 * i] = c; out[2 * i + 1] = c >> 8;
    }
    return out;
  }

  function stringBytes(text, encoding) {
    switch (encodingOf(encoding)) {
      case 'hex': return hexBytes(text);
      case 'base64': case 'base64url': return base64Bytes(text);
      case 'latin1': case 'ascii': return latin1Bytes(text);
      case 'utf16le': return utf16Bytes(text);
      default: return utf8Bytes(text);
    }
  }

  // The bytes of a typed array or DataView (not copied), or undefined.
  function viewBytes(value) {
    return isView(value) ? engine.viewOf(value) : undefined;
  }

  // Data to hash: a string in `encoding` (an odd-length hex string is refused, as Node does),
  // a typed array or a DataView.
  function dataBytes(data, encoding, name) {
    if (typeof data === 'string') {
      if (encodingOf(encoding) === 'hex' && (data.length & 1) === 1) {
        throw invalidArgValue('encoding', encoding, 'is invalid for data of length ' + data.length);
      }
      return stringBytes(data, encoding);
    }
    const bytes = viewBytes(data);
    if (bytes === undefined) throw invalidArgType(name, 'of type string or an instance of Buffer, TypedArray, or DataView', data);
    return bytes;
  }

  // Keys, passwords and salts: a UTF-8 string, an ArrayBuffer, a typed array or a DataView.
  function keyBytes(value, name, expected) {
    if (typeof value === 'string') return utf8Bytes(value);
    const bytes = engine.viewOf(value);
    if (bytes === undefined) {
      throw invalidArgType(name, 'of type string or an instance of ' + (expected || 'ArrayBuffer, Buffer, TypedArray, or ' +
        'DataView'), value);
    }
    return bytes;
  }

  const HEX = [];
  for (let i = 0; i < 256; i++) defineProperty(HEX, i, { value: (i < 16 ? '0' : '') + i.toString(16) });

  function base64Text(bytes, url) {
    const alphabet = url ? 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_' : BASE64;
    const length = typedArrayCount(bytes);
    let text = '';
    for (let i = 0; i < length; i += 3) {
      const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      const count = length - i;
      for (let j = 0; j < 4; j++) text += j <= count ? alphabet[(n >> (18 - 6 * j)) & 63] : url ? '' : '=';
    }
    return text;
  }

  // A digest in an output encoding; an unknown one (or none) gives the bytes, as in Node.
  function encoded(bytes, encoding) {
    const name = encodingOf(encoding);
    const length = typedArrayCount(bytes);
    let text = '';
    if (name === 'hex') {
      for (let i = 0; i < length; i++) text += HEX[bytes[i]];
    } else if (name === 'base64' || name === 'base64url') {
      text = base64Text(bytes, name === 'base64url');
    } else if (name === 'latin1' || name === 'ascii') {
      for (let i = 0; i < length; i++) text += fromCharCode(name === 'ascii' ? bytes[i] & 0x7f : bytes[i]);
    } else if (name === 'utf16le') {
      for (let i = 0; i + 1 < length; i += 2) text += fromCharCode(bytes[i] | (bytes[i + 1] << 8));
    } else if (name === 'utf8') {
      if (BufferCtor === undefined) throw new ErrorCtor("digest('utf8') needs the buffer module");
      text = apply(bufferToString, toBuffer(bytes), ['utf8']);
    } else {
      return toBuffer(bytes);
    }
    return text;
  }

  function finalized() {
    return codedError(ErrorCtor, 'ERR_CRYPTO_HASH_FINALIZED', 'Digest already called');
  }

  const token = {};

  class Hash {
    #state;
    #done = false;

    constructor(algorithm, options) {
      // Node's Hash keeps its options in an own property, which Object.keys and JSON show.
      this._options = algorithm === token ? undefined : options;
      if (algorithm === token) {
        this.#state = options;
        return;
      }
      checkString(algorithm, 'algorithm');
      this.#state = engine.start(digestKind(algorithm));
    }

    update(data, inputEncoding) {
      if (this.#done) throw finalized();
      engine.update(this.#state, dataBytes(data, inputEncoding, 'data'));
      return this;
    }

    digest(outputEncoding) {
      if (this.#done) throw finalized();
      this.#done = true;
      return encoded(engine.finish(this.#state), outputEncoding);
    }

    copy() {
      if (this.#done) throw finalized();
      return new Hash(token, engine.copy(this.#state));
    }
  }

  class Hmac {
    #mac;
    #state;
    #done = false;

    constructor(algorithm, key, options) {
      this._options = options;
      checkString(algorithm, 'hmac');
      let bytes = engine.keyBytes(key);
      if (bytes === undefined) {
        bytes = keyBytes(key, 'key', 'ArrayBuffer, Buffer, TypedArray, DataView, KeyObject, or CryptoKey');
      }
      this.#mac = engine.macKey(hmacKind(algorithm), bytes);
      this.#state = engine.macStart(this.#mac);
    }

    update(data, inputEncoding) {
      if (this.#done) throw finalized();
      engine.update(this.#state, dataBytes(data, inputEncoding, 'data'));
      return this;
    }

    // A second digest gives no bytes, as Node's does.
    digest(outputEncoding) {
      const bytes = this.#done ? new Uint8ArrayCtor(0) : engine.macFinish(this.#mac, this.#state);
      this.#done = true;
      return encoded(bytes, outputEncoding);
    }
  }

  function createHash(algorithm, options) {
    return new Hash(algorithm, options);
  }

  function createHmac(hmac, key, options) {
    return new Hmac(hmac, key, options);
  }

  function hash(algorithm, data, outputEncoding = 'hex') {
    checkString(algorithm, 'algorithm');
    const bytes = dataBytes(data, 'utf8', 'input');
    checkString(outputEncoding, 'outputEncoding');
    const name = lower(outputEncoding);
    if (name !== 'buffer' && encodingOf(name) === undefined) {
      throw invalidArgValue('outputEncoding', outputEncoding);
    }
    const kind = kindOf(algorithm);
    if (kind === undefined) {
      throw new ErrorCtor('Digest method ' + algorithm + ' is not supported' + elsewhere(algorithm));
    }
    const state = engine.start(kind);
    engine.update(state, bytes);
    return encoded(engine.finish(state), name);
  }

  function getHashes() {
    const names = split('RSA-MD5 RSA-SHA1 RSA-SHA1-2 RSA-SHA224 RSA-SHA256 RSA-SHA384 RSA-SHA512 RSA-SHA512/224 ' +
      'RSA-SHA512/256 md5 md5WithRSAEncryption sha1 sha1WithRSAEncryption sha224 sha224WithRSAEncryption sha256 ' +
      'sha256WithRSAEncryption sha384 sha384WithRSAEncryption sha512 sha512-224 sha512-224WithRSAEncryption ' +
      'sha512-256 sha512-256WithRSAEncryption sha512WithRSAEncryption ssl3-md5 ssl3-sha1', ' ');
    return names;
  }

  function randomBytes(size, callback) {
    checkNumber(size, 'size', 0, MAX_LENGTH);
    if (callback !== undefined) checkCallback(callback);
    const bytes = toBuffer(engine.fillRandom(new Uint8ArrayCtor(floor(size))));
    if (callback === undefined) return bytes;
    later(callback, bytes);
  }

  // The bytes of `buffer` that randomFill fills: Node counts offset and size in elements.
  function fillRange(buffer, offset, size) {
    const bytes = engine.viewOf(buffer);
    if (bytes === undefined) throw invalidArgType('buf', 'an instance of ArrayBuffer or ArrayBufferView', buffer);
    const length = typedArrayCount(bytes);
    const element = isView(buffer) && typedArrayTag(buffer) !== undefined ? buffer.BYTES_PER_ELEMENT : 1;
    if (typeof offset !== 'number') throw invalidArgType('offset', 'of type number', offset);
    offset *= element;
    checkNumber(offset, 'offset', 0, length);
    if (size === undefined) size = length - offset;
    else {
      checkNumber(size, 'size', 0, MAX_LENGTH);
      size *= element;
    }
    if (size + offset > length) throw outOfRange('size + offset', '<= ' + length, size + offset);
    return new Uint8ArrayCtor(typedArrayBuffer(bytes), typedArrayOffset(bytes) + offset, size);
  }

  function randomFillSync(buf, offset = 0, size = undefined) {
    engine.fillRandom(fillRange(buf, offset, size));
    return buf;
  }

  function randomFill(buf, offset, size, callback) {
    if (typeof offset === 'function') {
      callback = offset;
      offset = 0;
      size = undefined;
    } else if (typeof size === 'function') {
      callback = size;
      size = undefined;
    }
    checkCallback(callback);
    engine.fillRandom(fillRange(buf, offset === undefined ? 0 : offset, size));
    later(callback, buf);
  }

  function randomUUID(options) {
    if (options !== undefined) {
      if (options === null || typeof options !== 'object') throw invalidArgType('options', 'of type object', options);
      const entropy = options.disableEntropyCache;
      if (entropy !== undefined && typeof entropy !== 'boolean') {
        throw invalidArgType('options.disableEntropyCache', 'of type boolean', entropy);
      }
    }
    return apply(webRandomUUID, webcrypto, []);
  }

  const RANDOM_INT_RANGE = 281474976710655;
  const six = new Uint8ArrayCtor(6);

  function randomInt(min, max, callback) {
    const minOmitted = max === undefined || typeof max === 'function';
    if (minOmitted) {
      callback = max;
      max = min;
      min = 0;
    }
    if (callback !== undefined) checkCallback(callback);
    if (!isSafeInteger(min)) throw invalidArgType('min', 'a safe integer', min);
    if (!isSafeInteger(max)) throw invalidArgType('max', 'a safe integer', max);
    if (!(max > min)) throw outOfRange('max', 'greater than the value of "min" (' + min + ')', max);
    const range = max - min;
    if (!(range <= RANDOM_INT_RANGE)) throw outOfRange(minOmitted ? 'max' : 'max - min', '<= ' + RANDOM_INT_RANGE, range);
    // Uniform: 48-bit values at or above the largest multiple of range are drawn again.
    const limit = RANDOM_INT_RANGE + 1 - ((RANDOM_INT_RANGE + 1) % range);
    let x;
    do {
      engine.fillRandom(six);
      x = ((six[0] << 16) | (six[1] << 8) | six[2]) * 16777216 + ((six[3] << 16) | (six[4] << 8) | six[5]);
    } while (x >= limit);
    const value = min + (x % range);
    if (callback === undefined) return value;
    later(callback, value);
  }

  function timingSafeEqual(buf1, buf2) {
    const a = engine.viewOf(buf1);
    if (a === undefined) throw nativeError(TypeErrorCtor, 'ERR_INVALID_ARG_TYPE', 'The "buf1" argument must be an ' +
      'instance of ArrayBuffer, Buffer, TypedArray, or DataView.');
    const b = engine.viewOf(buf2);
    if (b === undefined) throw nativeError(TypeErrorCtor, 'ERR_INVALID_ARG_TYPE', 'The "buf2" argument must be an ' +
      'instance of ArrayBuffer, Buffer, TypedArray, or DataView.');
    if (typedArrayCount(a) !== typedArrayCount(b)) {
      throw nativeError(RangeErrorCtor, 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH',
        'Input buffers must have the same byte length');
    }
    return engine.sameBytes(a, b);
  }

  function pbkdf2Arguments(password, salt, iterations, keylen, digest) {
    checkString(digest, 'digest');
    const passwordBytes = keyBytes(password, 'password');
    const saltBytes = keyBytes(salt, 'salt');
    checkInt32(iterations, 'iterations', 1);
    checkInt32(keylen, 'keylen', 0);
    return [digest, passwordBytes, saltBytes, iterations, keylen];
  }

  function pbkdf2Bytes(a) {
    return toBuffer(engine.pbkdf2(hmacKind(a[0]), a[1], a[2], a[3], a[4]));
  }

  function pbkdf2Sync(password, salt, iterations, keylen, digest) {
    return pbkdf2Bytes(pbkdf2Arguments(password, salt, iterations, keylen, digest));
  }

  function pbkdf2(password, salt, iterations, keylen, digest, callback) {
    if (typeof digest === 'function') {
      callback = digest;
      digest = undefined;
    }
    const a = pbkdf2Arguments(password, salt, iterations, keylen, digest);
    checkCallback(callback);
    later(callback, pbkdf2Bytes(a));
  }

  const HKDF_BYTES = 'ArrayBuffer, TypedArray, DataView, or Buffer';

  function hkdfArguments(digest, ikm, salt, info, keylen) {
    checkString(digest, 'digest');
    const ikmBytes = keyBytes(ikm, 'ikm', 'SecretKeyObject, ' + HKDF_BYTES);
    const saltBytes = keyBytes(salt, 'salt', HKDF_BYTES);
    const infoBytes = keyBytes(info, 'info', HKDF_BYTES);
    if (typeof keylen !== 'number') throw invalidArgType('length', 'of type number', keylen);
    if (!isInteger(keylen)) throw outOfRange('length', 'an integer', keylen);
    if (keylen < 0 || keylen > 4294967296) throw outOfRange('length', '>= 0 && <= 4294967296', keylen);
    if (typedArrayCount(infoBytes) > 1024) {
      throw outOfRange('info', 'must not contain more than 1024 bytes', typedArrayCount(infoBytes));
    }
    return [digest, ikmBytes, saltBytes, infoBytes, keylen];
  }

  function hkdfBits(a) {
    const kind = hmacKind(a[0]);
    if (a[4] > 255 * kind.size) throw nativeError(RangeErrorCtor, 'ERR_CRYPTO_INVALID_KEYLEN', 'Invalid key length');
    return typedArrayBuffer(engine.hkdf(kind, a[1], a[2], a[3], a[4]));
  }

  function hkdfSync(digest, ikm, salt, info, keylen) {
    return hkdfBits(hkdfArguments(digest, ikm, salt, info, keylen));
  }

  function hkdf(digest, ikm, salt, info, keylen, callback) {
    const a = hkdfArguments(digest, ikm, salt, info, keylen);
    checkCallback(callback);
    later(callback, hkdfBits(a));
  }

  function getRandomValues(typedArray) {
    return apply(webGetRandomValues, webcrypto, [typedArray]);
  }

  const OFFER = 'it has no ciphers, signatures or key pairs. It has hashes (createHash, hash: ' + HASH_LIST +
    '), createHmac, pbkdf2, hkdf, randomBytes, randomInt, randomUUID, timingSafeEqual and webcrypto ' +
    '(crypto.subtle: digest, HMAC sign and verify, PBKDF2 and HKDF)';

  // A function (and constructor, for the classes) that throws saying what exists instead.
  function refused(name) {
    return {
      [name]: function () {
        throw codedError(ErrorCtor, 'ERR_SANDBOX_UNAVAILABLE', 'crypto.' + name + ' is not available in this sandbox: ' +
          OFFER);
      },
    }[name];
  }

  const provided = {
    __proto__: null, createHash, createHmac, getHashes, hash, hkdf, hkdfSync, pbkdf2, pbkdf2Sync, randomBytes,
    randomFill, randomFillSync, randomInt, randomUUID, timingSafeEqual, getCiphers: () => [], getCurves: () => [],
    getCipherInfo: () => undefined, getFips: () => 0, Hash, Hmac, constants: {}, webcrypto, subtle, getRandomValues,
  };
  // Node's exports in Node's order; those not provided are refused.
  const names = split('checkPrime checkPrimeSync createCipheriv createDecipheriv createDiffieHellman ' +
    'createDiffieHellmanGroup createECDH createHash createHmac createPrivateKey createPublicKey createSecretKey ' +
    'createSign createVerify diffieHellman generatePrime generatePrimeSync getCiphers getCipherInfo getCurves ' +
    'getDiffieHellman getHashes hkdf hkdfSync pbkdf2 pbkdf2Sync generateKeyPair generateKeyPairSync generateKey ' +
    'generateKeySync privateDecrypt privateEncrypt publicDecrypt publicEncrypt randomBytes randomFill randomFillSync ' +
    'randomInt randomUUID scrypt scryptSync sign setEngine timingSafeEqual getFips setFips verify hash Certificate ' +
    'Cipher Cipheriv Decipher Decipheriv DiffieHellman DiffieHellmanGroup ECDH Hash Hmac KeyObject Sign Verify ' +
    'X509Certificate secureHeapUsed constants webcrypto subtle getRandomValues', ' ');
  const exports = {};
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    defineProperty(exports, name, { value: name in provided ? provided[name] : refused(name), writable: true,
      enumerable: true, configurable: true });
  }
  return exports;
})
