// globals: crypto Crypto SubtleCrypto
(function (host) {
  'use strict';
  // The Web Crypto API's pure parts: getRandomValues and randomUUID from a ChaCha20 stream
  // keyed by the host's 32 bytes of operating-system entropy (new for every call), and
  // subtle.digest with SHA-1/256/384/512. Other SubtleCrypto methods reject, saying so.
  const defineProperty = Object.defineProperty;
  const isView = ArrayBuffer.isView;
  const parseIntFn = parseInt;
  const Uint8ArrayCtor = Uint8Array;
  const Int32ArrayCtor = Int32Array;
  const typedArrayTag = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Uint8Array).prototype,
    Symbol.toStringTag).get;
  const arrayBufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
  const TWO32 = 4294967296;
  const INTEGER_ARRAYS = ' Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array ' +
    'BigInt64Array BigUint64Array ';
  const METHODS = 'encrypt decrypt sign verify digest generateKey deriveKey deriveBits importKey exportKey ' +
    'wrapKey unwrapKey';
  const ALGORITHMS = 'SHA-1, SHA-256, SHA-384, SHA-512';

  // DOMException is compiled only when an error needs it.
  function domException(message, name) {
    const DOMException = host.global('DOMException');
    return new DOMException(message, name);
  }

  function nodeError(Ctor, code, message) {
    const error = new Ctor(message);
    error.name = Ctor.name + ' [' + code + ']';
    void error.stack; // V8 formats the header now, with the code in it as Node shows it
    delete error.name;
    error.code = code;
    return error;
  }

  function invalidThis(type) {
    return nodeError(TypeError, 'ERR_INVALID_THIS', 'Value of "this" must be of type ' + type);
  }

  function missingArgs(method, owner, needed, given) {
    return nodeError(TypeError, 'ERR_MISSING_ARGS', "Failed to execute '" + method + "' on '" + owner + "': " +
      needed + ' argument' + (needed === 1 ? '' : 's') + ' required, but only ' + given + ' present.');
  }

  // ChaCha20 (RFC 8439) keystream: key = the seed, nonce 0, block counter from 0.
  const seed = host.seed;
  const key = new Int32ArrayCtor(8);
  for (let i = 0; i < 32; i++) key[i >> 2] |= seed[i] << (8 * (i & 3));
  const input = new Int32ArrayCtor(16);
  const x = new Int32ArrayCtor(16);
  const block = new Uint8ArrayCtor(64);
  let used = 64;
  let counter = 0;

  function quarter(a, b, c, d) {
    let t;
    x[a] = (x[a] + x[b]) | 0; t = x[d] ^ x[a]; x[d] = (t << 16) | (t >>> 16);
    x[c] = (x[c] + x[d]) | 0; t = x[b] ^ x[c]; x[b] = (t << 12) | (t >>> 20);
    x[a] = (x[a] + x[b]) | 0; t = x[d] ^ x[a]; x[d] = (t << 8) | (t >>> 24);
    x[c] = (x[c] + x[d]) | 0; t = x[b] ^ x[c]; x[b] = (t << 7) | (t >>> 25);
  }

  function refill() {
    input[0] = 0x61707865; input[1] = 0x3320646e; input[2] = 0x79622d32; input[3] = 0x6b206574;
    for (let i = 0; i < 8; i++) input[4 + i] = key[i];
    input[12] = counter++;
    for (let i = 0; i < 16; i++) x[i] = input[i];
    for (let round = 0; round < 10; round++) {
      quarter(0, 4, 8, 12); quarter(1, 5, 9, 13); quarter(2, 6, 10, 14); quarter(3, 7, 11, 15);
      quarter(0, 5, 10, 15); quarter(1, 6, 11, 12); quarter(2, 7, 8, 13); quarter(3, 4, 9, 14);
    }
    for (let i = 0; i < 16; i++) {
      const word = (x[i] + input[i]) | 0;
      block[4 * i] = word; block[4 * i + 1] = word >> 8; block[4 * i + 2] = word >> 16; block[4 * i + 3] = word >> 24;
    }
    used = 0;
  }

  function fillRandom(bytes) {
    for (let i = 0; i < bytes.length; i++) {
      if (used === 64) refill();
      bytes[i] = block[used++];
    }
    return bytes;
  }

  // SHA constants: the 80 round constants, then the SHA-512 and SHA-384 initial values,
  // 64 bits each (SHA-256 uses their upper halves, per FIPS 180-4).
  const CONSTANTS = '428a2f98d728ae227137449123ef65cdb5c0fbcfec4d3b2fe9b5dba58189dbbc3956c25bf348b53859f111f1b605d019' +
    '923f82a4af194f9bab1c5ed5da6d8118d807aa98a303024212835b0145706fbe243185be4ee4b28c550c7dc3d5ffb4e2' +
    '72be5d74f27b896f80deb1fe3b1696b19bdc06a725c71235c19bf174cf692694e49b69c19ef14ad2efbe4786384f25e3' +
    '0fc19dc68b8cd5b5240ca1cc77ac9c652de92c6f592b02754a7484aa6ea6e4835cb0a9dcbd41fbd476f988da831153b5' +
    '983e5152ee66dfaba831c66d2db43210b00327c898fb213fbf597fc7beef0ee4c6e00bf33da88fc2d5a79147930aa725' +
    '06ca6351e003826f142929670a0e6e7027b70a8546d22ffc2e1b21385c26c9264d2c6dfc5ac42aed53380d139d95b3df' +
    '650a73548baf63de766a0abb3c77b2a881c2c92e47edaee692722c851482353ba2bfe8a14cf10364a81a664bbc423001' +
    'c24b8b70d0f89791c76c51a30654be30d192e819d6ef5218d69906245565a910f40e35855771202a106aa07032bbd1b8' +
    '19a4c116b8d2d0c81e376c085141ab532748774cdf8eeb9934b0bcb5e19b48a8391c0cb3c5c95a634ed8aa4ae3418acb' +
    '5b9cca4f7763e373682e6ff3d6b2b8a3748f82ee5defb2fc78a5636f43172f6084c87814a1f0ab728cc702081a6439ec' +
    '90befffa23631e28a4506cebde82bde9bef9a3f7b2c67915c67178f2e372532bca273eceea26619cd186b8c721c0c207' +
    'eada7dd6cde0eb1ef57d4f7fee6ed17806f067aa72176fba0a637dc5a2c898a6113f9804bef90dae1b710b35131c471b' +
    '28db77f523047d8432caab7b40c724933c9ebe0a15c9bebc431d67c49c100d4c4cc5d4becb3e42b6597f299cfc657e2a' +
    '5fcb6fab3ad6faec6c44198c4a4758176a09e667f3bcc908bb67ae8584caa73b3c6ef372fe94f82ba54ff53a5f1d36f1' +
    '510e527fade682d19b05688c2b3e6c1f1f83d9abfb41bd6b5be0cd19137e2179cbbb9d5dc1059ed8629a292a367cd507' +
    '9159015a3070dd17152fecd8f70e593967332667ffc00b318eb44a8768581511db0c2e0d64f98fa747b5481dbefa4fa4';
  let K512;

  function constants() {
    if (K512 === undefined) {
      K512 = new Int32ArrayCtor(192);
      for (let i = 0; i < 192; i++) K512[i] = parseIntFn(CONSTANTS.slice(8 * i, 8 * i + 8), 16);
    }
    return K512;
  }

  // Big-endian words of the message with the padding of FIPS 180-4 for `block`-byte blocks.
  function padded(bytes, block) {
    const length = bytes.length;
    const total = (((length + block / 8) / block | 0) + 1) * block;
    const w = new Int32ArrayCtor(total >> 2);
    const whole = length >> 2;
    for (let i = 0, j = 0; i < whole; i++, j += 4) {
      w[i] = (bytes[j] << 24) | (bytes[j + 1] << 16) | (bytes[j + 2] << 8) | bytes[j + 3];
    }
    for (let i = whole * 4; i < length; i++) w[i >> 2] |= bytes[i] << (24 - 8 * (i & 3));
    w[length >> 2] |= 0x80 << (24 - 8 * (length & 3));
    w[w.length - 1] = length * 8;
    w[w.length - 2] = length / (TWO32 / 8);
    return w;
  }

  function sha1(bytes) {
    const w = padded(bytes, 64);
    const h = new Int32ArrayCtor(5);
    h[0] = 0x67452301; h[1] = 0xefcdab89; h[2] = 0x98badcfe; h[3] = 0x10325476; h[4] = 0xc3d2e1f0;
    const W = new Int32ArrayCtor(80);
    for (let o = 0; o < w.length; o += 16) {
      for (let t = 0; t < 16; t++) W[t] = w[o + t];
      for (let t = 16; t < 80; t++) {
        const v = W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16];
        W[t] = (v << 1) | (v >>> 31);
      }
      let a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
      for (let t = 0; t < 80; t++) {
        const f = t < 20 ? ((b & c) | (~b & d)) + 0x5a827999 : t < 40 ? (b ^ c ^ d) + 0x6ed9eba1 :
          t < 60 ? ((b & c) | (b & d) | (c & d)) - 0x70e44324 : (b ^ c ^ d) - 0x359d3e2a;
        const next = (((a << 5) | (a >>> 27)) + f + e + W[t]) | 0;
        e = d; d = c; c = (b << 30) | (b >>> 2); b = a; a = next;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
    }
    return h;
  }

  function sha256(bytes) {
    const K = constants();
    const w = padded(bytes, 64);
    const h = new Int32ArrayCtor(8);
    for (let i = 0; i < 8; i++) h[i] = K[160 + 2 * i];
    const W = new Int32ArrayCtor(64);
    for (let o = 0; o < w.length; o += 16) {
      for (let t = 0; t < 16; t++) W[t] = w[o + t];
      for (let t = 16; t < 64; t++) {
        const u = W[t - 15], v = W[t - 2];
        const s0 = ((u >>> 7) | (u << 25)) ^ ((u >>> 18) | (u << 14)) ^ (u >>> 3);
        const s1 = ((v >>> 17) | (v << 15)) ^ ((v >>> 19) | (v << 13)) ^ (v >>> 10);
        W[t] = W[t - 16] + s0 + W[t - 7] + s1;
      }
      let a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
      for (let t = 0; t < 64; t++) {
        const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        const t1 = (hh + s1 + ((e & f) ^ (~e & g)) + K[2 * t] + W[t]) | 0;
        const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
        hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
    }
    return h;
  }

  // SHA-512 on 32-bit halves: h[2i] is the upper, h[2i + 1] the lower half of word i.
  function sha512(bytes, initial) {
    const K = constants();
    const w = padded(bytes, 128);
    const h = new Int32ArrayCtor(16);
    for (let i = 0; i < 16; i++) h[i] = K[initial + i];
    const W = new Int32ArrayCtor(160);
    for (let o = 0; o < w.length; o += 32) {
      for (let i = 0; i < 32; i++) W[i] = w[o + i];
      for (let i = 32; i < 160; i += 2) {
        let xh = W[i - 30], xl = W[i - 29];
        const s0h = ((xh >>> 1) | (xl << 31)) ^ ((xh >>> 8) | (xl << 24)) ^ (xh >>> 7);
        const s0l = ((xl >>> 1) | (xh << 31)) ^ ((xl >>> 8) | (xh << 24)) ^ ((xl >>> 7) | (xh << 25));
        xh = W[i - 4]; xl = W[i - 3];
        const s1h = ((xh >>> 19) | (xl << 13)) ^ ((xl >>> 29) | (xh << 3)) ^ (xh >>> 6);
        const s1l = ((xl >>> 19) | (xh << 13)) ^ ((xh >>> 29) | (xl << 3)) ^ ((xl >>> 6) | (xh << 26));
        const l = (s1l >>> 0) + (W[i - 13] >>> 0) + (s0l >>> 0) + (W[i - 31] >>> 0);
        W[i] = s1h + W[i - 14] + s0h + W[i - 32] + ((l / TWO32) | 0);
        W[i + 1] = l;
      }
      let ah = h[0], al = h[1], bh = h[2], bl = h[3], ch = h[4], cl = h[5], dh = h[6], dl = h[7];
      let eh = h[8], el = h[9], fh = h[10], fl = h[11], gh = h[12], gl = h[13], hh = h[14], hl = h[15];
      for (let i = 0; i < 160; i += 2) {
        const S1h = ((eh >>> 14) | (el << 18)) ^ ((eh >>> 18) | (el << 14)) ^ ((el >>> 9) | (eh << 23));
        const S1l = ((el >>> 14) | (eh << 18)) ^ ((el >>> 18) | (eh << 14)) ^ ((eh >>> 9) | (el << 23));
        let l = (hl >>> 0) + (S1l >>> 0) + (((el & fl) ^ (~el & gl)) >>> 0) + (K[i + 1] >>> 0) + (W[i + 1] >>> 0);
        const t1h = (hh + S1h + ((eh & fh) ^ (~eh & gh)) + K[i] + W[i] + ((l / TWO32) | 0)) | 0;
        const t1l = l | 0;
        const S0h = ((ah >>> 28) | (al << 4)) ^ ((al >>> 2) | (ah << 30)) ^ ((al >>> 7) | (ah << 25));
        const S0l = ((al >>> 28) | (ah << 4)) ^ ((ah >>> 2) | (al << 30)) ^ ((ah >>> 7) | (al << 25));
        l = (S0l >>> 0) + ((((al & bl) ^ (al & cl) ^ (bl & cl))) >>> 0);
        const t2h = (S0h + ((ah & bh) ^ (ah & ch) ^ (bh & ch)) + ((l / TWO32) | 0)) | 0;
        const t2l = l | 0;
        hh = gh; hl = gl; gh = fh; gl = fl; fh = eh; fl = el;
        l = (dl >>> 0) + (t1l >>> 0);
        eh = (dh + t1h + ((l / TWO32) | 0)) | 0; el = l | 0;
        dh = ch; dl = cl; ch = bh; cl = bl; bh = ah; bl = al;
        l = (t1l >>> 0) + (t2l >>> 0);
        ah = (t1h + t2h + ((l / TWO32) | 0)) | 0; al = l | 0;
      }
      const v = [ah, al, bh, bl, ch, cl, dh, dl, eh, el, fh, fl, gh, gl, hh, hl];
      for (let i = 0; i < 16; i += 2) {
        const l = (h[i + 1] >>> 0) + (v[i + 1] >>> 0);
        h[i] = h[i] + v[i] + ((l / TWO32) | 0);
        h[i + 1] = l;
      }
    }
    return h;
  }

  // Digest functions by upper-case algorithm name, with the digest length in bytes.
  const DIGESTS = {
    __proto__: null,
    'SHA-1': [sha1, 20],
    'SHA-256': [sha256, 32],
    'SHA-384': [(bytes) => sha512(bytes, 176), 48],
    'SHA-512': [(bytes) => sha512(bytes, 160), 64],
  };

  function digestOf(name, bytes) {
    const entry = DIGESTS[name];
    const words = entry[0](bytes);
    const out = new Uint8ArrayCtor(entry[1]);
    for (let i = 0; i < out.length; i++) out[i] = words[i >> 2] >> (24 - 8 * (i & 3));
    return out.buffer;
  }

  // A copy of the bytes of an ArrayBuffer or view, or undefined for anything else.
  function copyBytes(data) {
    if (isView(data)) return new Uint8ArrayCtor(data.buffer, data.byteOffset, data.byteLength).slice();
    try {
      arrayBufferLength.call(data);
    } catch {
      return undefined;
    }
    return new Uint8ArrayCtor(data).slice();
  }

  let crypto;
  let subtle;
  const token = {};

  class SubtleCrypto {
    constructor() {
      if (arguments[0] !== token) throw nodeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
    }
  }

  async function digest(algorithm, data) {
    if (this !== subtle) throw invalidThis('SubtleCrypto');
    const prefix = "Failed to execute 'digest' on 'SubtleCrypto': ";
    if (arguments.length < 2) throw missingArgs('digest', 'SubtleCrypto', 2, arguments.length);
    if (typeof algorithm === 'symbol') {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE',
        prefix + '1st argument is a Symbol and cannot be converted to a string.');
    }
    const bytes = copyBytes(data);
    if (bytes === undefined) {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE',
        prefix + '2nd argument is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.');
    }
    let name = algorithm;
    if (algorithm !== null && (typeof algorithm === 'object' || typeof algorithm === 'function')) {
      name = algorithm.name;
      if (name === undefined) {
        throw nodeError(TypeError, 'ERR_MISSING_OPTION', "Failed to normalize algorithm: passed algorithm can not " +
          "be converted to 'Algorithm' because 'name' is required in 'Algorithm'.");
      }
    }
    name = `${name}`.toUpperCase();
    if (DIGESTS[name] === undefined) throw domException('Unrecognized algorithm name', 'NotSupportedError');
    return digestOf(name, bytes);
  }

  const methods = METHODS.split(' ');
  for (let i = 0; i < methods.length; i++) {
    const method = methods[i];
    const value = method === 'digest' ? digest : {
      async [method]() {
        throw domException('crypto.subtle.' + method + ' is not supported in this sandbox: its SubtleCrypto has ' +
          'only digest (' + ALGORITHMS + ')', 'NotSupportedError');
      },
    }[method];
    defineProperty(SubtleCrypto.prototype, method, { value, writable: true, enumerable: true, configurable: true });
  }

  class Crypto {
    constructor() {
      if (arguments[0] !== token) throw nodeError(TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
    }

    get subtle() {
      if (this !== crypto) throw invalidThis('Crypto');
      return subtle;
    }

    getRandomValues(array) {
      if (this !== crypto) throw invalidThis('Crypto');
      if (arguments.length < 1) throw missingArgs('getRandomValues', 'Crypto', 1, 0);
      const tag = isView(array) ? typedArrayTag.call(array) : undefined;
      if (tag === undefined || INTEGER_ARRAYS.indexOf(' ' + tag + ' ') === -1) {
        throw domException('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
      }
      if (array.byteLength > 65536) {
        throw domException('The requested length exceeds 65,536 bytes', 'QuotaExceededError');
      }
      fillRandom(new Uint8ArrayCtor(array.buffer, array.byteOffset, array.byteLength));
      return array;
    }

    randomUUID() {
      if (this !== crypto) throw invalidThis('Crypto');
      const bytes = fillRandom(new Uint8ArrayCtor(16));
      bytes[6] = (bytes[6] & 0x0f) | 0x40;
      bytes[8] = (bytes[8] & 0x3f) | 0x80;
      let text = '';
      for (let i = 0; i < 16; i++) {
        if (i === 4 || i === 6 || i === 8 || i === 10) text += '-';
        text += (bytes[i] < 16 ? '0' : '') + bytes[i].toString(16);
      }
      return text;
    }
  }

  defineProperty(Crypto.prototype, 'subtle', { enumerable: true });
  defineProperty(Crypto.prototype, 'getRandomValues', { enumerable: true });
  defineProperty(Crypto.prototype, 'randomUUID', { enumerable: true });
  defineProperty(Crypto.prototype, Symbol.toStringTag, { value: 'Crypto', configurable: true });
  defineProperty(SubtleCrypto.prototype, Symbol.toStringTag, { value: 'SubtleCrypto', configurable: true });
  crypto = new Crypto(token);
  subtle = new SubtleCrypto(token);
  return { crypto, Crypto, SubtleCrypto };
})
