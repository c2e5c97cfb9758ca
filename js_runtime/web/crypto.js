// globals: crypto Crypto SubtleCrypto CryptoKey
// requires: internal/errors
(function (host) {
  'use strict';
  // The Web Crypto API's pure parts: getRandomValues and randomUUID from a ChaCha20 stream
  // keyed by the host's 32 bytes of operating-system entropy (new for every call);
  // subtle.digest with SHA-1/256/384/512; HMAC keys (importKey, exportKey, generateKey, sign,
  // verify); PBKDF2 and HKDF keys (importKey, deriveBits, deriveKey). Ciphers and public-key
  // algorithms reject, saying what exists. Errors are those of Node 20's webcrypto. The hash
  // engine is also what the Node crypto module computes with (see ENGINE at the end).
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const apply = Reflect.apply;
  const isView = ArrayBuffer.isView;
  const parseIntFn = parseInt;
  const isFiniteFn = Number.isFinite;
  const trunc = Math.trunc;
  const fromCharCode = String.fromCharCode;
  const toUpper = String.prototype.toUpperCase;
  const indexOf = String.prototype.indexOf;
  const charCodeAt = String.prototype.charCodeAt;
  const slice = String.prototype.slice;
  const split = String.prototype.split;
  const Uint8ArrayCtor = Uint8Array;
  const Int32ArrayCtor = Int32Array;
  const ObjectCtor = Object;
  const getter = (object, key) => Object.getOwnPropertyDescriptor(object, key).get;
  const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array).prototype;
  const typedArrayTag = getter(TypedArrayPrototype, Symbol.toStringTag);
  const typedArrayBuffer = getter(TypedArrayPrototype, 'buffer');
  const typedArrayOffset = getter(TypedArrayPrototype, 'byteOffset');
  const typedArrayLength = getter(TypedArrayPrototype, 'byteLength');
  const typedArrayCount = getter(TypedArrayPrototype, 'length');
  const viewBuffer = getter(DataView.prototype, 'buffer');
  const viewOffset = getter(DataView.prototype, 'byteOffset');
  const viewLength = getter(DataView.prototype, 'byteLength');
  const arrayBufferLength = getter(ArrayBuffer.prototype, 'byteLength');
  const ITERATOR = Symbol.iterator;
  const INSPECT = Symbol.for('nodejs.util.inspect.custom');
  const TWO32 = 4294967296;
  const INTEGER_ARRAYS = ' Int8Array Uint8Array Uint8ClampedArray Int16Array Uint16Array Int32Array Uint32Array ' +
    'BigInt64Array BigUint64Array ';
  const DIGEST_NAMES = 'SHA-1, SHA-256, SHA-384, SHA-512';
  const OFFER = 'its SubtleCrypto has digest (' + DIGEST_NAMES + '), HMAC keys (sign, verify, generateKey, ' +
    'importKey, exportKey) and PBKDF2 and HKDF keys (deriveBits, deriveKey)';

  // DOMException is compiled only when an error needs it.
  function domException(message, name) {
    const DOMException = host.global('DOMException');
    return new DOMException(message, name);
  }

  // Node's coded errors: Node's WebIDL layer throws the native kind (the code only a property), its crypto code
  // the JavaScript kind (the code in the stack and in String(error)).
  const TypeErrorCtor = TypeError;
  const { codedError, nativeError, invalidArgValue, invalidThis } = host.require('internal/errors');

  function missingArgs(method, owner, needed, given) {
    return nativeError(TypeErrorCtor, 'ERR_MISSING_ARGS', "Failed to execute '" + method + "' on '" + owner + "': " +
      needed + ' argument' + (needed === 1 ? '' : 's') + ' required, but only ' + given + ' present.');
  }

  const ORDINALS = ['1st', '2nd', '3rd', '4th', '5th'];

  function argumentError(code, method, index, text) {
    return nativeError(TypeErrorCtor, code, "Failed to execute '" + method + "' on 'SubtleCrypto': " + ORDINALS[index] +
      ' argument' + (text[0] === ',' ? '' : ' ') + text);
  }

  function notBytes(method, index) {
    return argumentError('ERR_INVALID_ARG_TYPE', method, index,
      'is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.');
  }

  function hasSlot(value, slotGetter) {
    try {
      apply(slotGetter, value, []);
      return true;
    } catch {
      return false;
    }
  }

  // The bytes of an ArrayBuffer, typed array or DataView (not copied), or undefined for anything
  // else (a SharedArrayBuffer too, as in Node).
  function viewOf(data) {
    if (isView(data)) {
      if (apply(typedArrayTag, data, []) === undefined) {
        return new Uint8ArrayCtor(apply(viewBuffer, data, []), apply(viewOffset, data, []),
          apply(viewLength, data, []));
      }
      return new Uint8ArrayCtor(apply(typedArrayBuffer, data, []), apply(typedArrayOffset, data, []),
        apply(typedArrayLength, data, []));
    }
    return hasSlot(data, arrayBufferLength) ? new Uint8ArrayCtor(data) : undefined;
  }

  // The length and buffer of the module's own Uint8Arrays and Int32Arrays, read through the
  // getters captured at compile time: the code may redefine them on the prototype.
  function sizeOf(array) {
    return apply(typedArrayCount, array, []);
  }

  function bufferOf(bytes) {
    return apply(typedArrayBuffer, bytes, []);
  }

  function copyOf(data) {
    const view = viewOf(data);
    return view === undefined ? undefined : new Uint8ArrayCtor(view);
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
    const length = sizeOf(bytes);
    for (let i = 0; i < length; i++) {
      if (used === 64) refill();
      bytes[i] = block[used++];
    }
    return bytes;
  }

  // SHA constants: the 80 round constants, then the SHA-512 and SHA-384 initial values,
  // 64 bits each. SHA-256 uses the upper halves of the first 64 constants and of the SHA-512
  // initial values, SHA-224 the lower halves of the SHA-384 ones (FIPS 180-4).
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
  // Parsed on the first digest: getRandomValues and randomUUID do not need it.
  let K;

  // `count` constants from index `start`, `step` apart, as a hash's initial state.
  function words(start, step, count) {
    if (K === undefined) {
      K = new Int32ArrayCtor(192);
      for (let i = 0; i < 192; i++) K[i] = parseIntFn(apply(slice, CONSTANTS, [8 * i, 8 * i + 8]), 16);
    }
    const out = new Int32ArrayCtor(count);
    for (let i = 0; i < count; i++) out[i] = K[start + step * i];
    return out;
  }

  // Each compression function takes the state `h` and the block of `b` that starts at `o`.
  const W1 = new Int32ArrayCtor(80);

  function sha1Block(h, b, o) {
    const W = W1;
    for (let t = 0; t < 16; t++, o += 4) W[t] = (b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3];
    for (let t = 16; t < 80; t++) {
      const v = W[t - 3] ^ W[t - 8] ^ W[t - 14] ^ W[t - 16];
      W[t] = (v << 1) | (v >>> 31);
    }
    let a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4];
    for (let t = 0; t < 80; t++) {
      const f = t < 20 ? ((bb & c) | (~bb & d)) + 0x5a827999 : t < 40 ? (bb ^ c ^ d) + 0x6ed9eba1 :
        t < 60 ? ((bb & c) | (bb & d) | (c & d)) - 0x70e44324 : (bb ^ c ^ d) - 0x359d3e2a;
      const next = (((a << 5) | (a >>> 27)) + f + e + W[t]) | 0;
      e = d; d = c; c = (bb << 30) | (bb >>> 2); bb = a; a = next;
    }
    h[0] += a; h[1] += bb; h[2] += c; h[3] += d; h[4] += e;
  }

  const W256 = new Int32ArrayCtor(64);

  function sha256Block(h, b, o) {
    const W = W256;
    for (let t = 0; t < 16; t++, o += 4) W[t] = (b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3];
    for (let t = 16; t < 64; t++) {
      const u = W[t - 15], v = W[t - 2];
      const s0 = ((u >>> 7) | (u << 25)) ^ ((u >>> 18) | (u << 14)) ^ (u >>> 3);
      const s1 = ((v >>> 17) | (v << 15)) ^ ((v >>> 19) | (v << 13)) ^ (v >>> 10);
      W[t] = W[t - 16] + s0 + W[t - 7] + s1;
    }
    let a = h[0], bb = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (let t = 0; t < 64; t++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (hh + s1 + ((e & f) ^ (~e & g)) + K[2 * t] + W[t]) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & bb) ^ (a & c) ^ (bb & c))) | 0;
      hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = bb; bb = a; a = (t1 + t2) | 0;
    }
    h[0] += a; h[1] += bb; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }

  // SHA-512 on 32-bit halves: h[2i] is the upper, h[2i + 1] the lower half of word i.
  const W512 = new Int32ArrayCtor(160);

  function sha512Block(h, b, o) {
    const W = W512;
    for (let i = 0; i < 32; i++, o += 4) W[i] = (b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3];
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
    add64(h, 0, ah, al); add64(h, 2, bh, bl); add64(h, 4, ch, cl); add64(h, 6, dh, dl);
    add64(h, 8, eh, el); add64(h, 10, fh, fl); add64(h, 12, gh, gl); add64(h, 14, hh, hl);
  }

  function add64(h, i, high, low) {
    const l = (h[i + 1] >>> 0) + (low >>> 0);
    h[i] = h[i] + high + ((l / TWO32) | 0);
    h[i + 1] = l;
  }

  // A hash function: its block and digest sizes in bytes, initial state, compression
  // function, and whether it is little-endian (MD5, which the Node module adds).
  function hashKind(blockSize, size, init, compress, little) {
    return freeze({ __proto__: null, block: blockSize, size, init, compress, little });
  }

  const HASHES = {
    __proto__: null,
    'SHA-1': hashKind(64, 20, () => {
      const h = new Int32ArrayCtor(5);
      h[0] = 0x67452301; h[1] = 0xefcdab89; h[2] = 0x98badcfe; h[3] = 0x10325476; h[4] = 0xc3d2e1f0;
      return h;
    }, sha1Block, false),
    'SHA-224': hashKind(64, 28, () => words(177, 2, 8), sha256Block, false),
    'SHA-256': hashKind(64, 32, () => words(160, 2, 8), sha256Block, false),
    'SHA-384': hashKind(128, 48, () => words(176, 1, 16), sha512Block, false),
    'SHA-512': hashKind(128, 64, () => words(160, 1, 16), sha512Block, false),
  };

  // Incremental hashing: start, update any number of times, finish once.
  function start(kind) {
    return { __proto__: null, kind, h: kind.init(), buf: new Uint8ArrayCtor(kind.block), n: 0, total: 0 };
  }

  function copyState(state) {
    return { __proto__: null, kind: state.kind, h: new Int32ArrayCtor(state.h), buf: new Uint8ArrayCtor(state.buf),
      n: state.n, total: state.total };
  }

  function update(state, bytes) {
    const size = state.kind.block, compress = state.kind.compress, h = state.h, buf = state.buf;
    const length = sizeOf(bytes);
    let i = 0, n = state.n;
    state.total += length;
    if (n > 0) {
      while (n < size && i < length) buf[n++] = bytes[i++];
      if (n < size) {
        state.n = n;
        return;
      }
      compress(h, buf, 0);
      n = 0;
    }
    for (; i + size <= length; i += size) compress(h, bytes, i);
    while (i < length) buf[n++] = bytes[i++];
    state.n = n;
  }

  // Padding of FIPS 180-4 (and RFC 1321): 0x80, zeros, the length in bits at the end.
  function finish(state) {
    const kind = state.kind, size = kind.block, buf = state.buf;
    let n = state.n;
    buf[n++] = 0x80;
    if (n > size - (size >> 3)) {
      while (n < size) buf[n++] = 0;
      kind.compress(state.h, buf, 0);
      n = 0;
    }
    while (n < size) buf[n++] = 0;
    writeLength(buf, size, state.total * 8, kind.little);
    kind.compress(state.h, buf, 0);
    return wordBytes(state.h, new Uint8ArrayCtor(kind.size), kind.size, kind.little);
  }

  function writeLength(buf, end, bits, little) {
    const low = bits >>> 0, high = (bits / TWO32) >>> 0;
    for (let i = 0; i < 4; i++) {
      if (little) {
        buf[end - 8 + i] = low >>> (8 * i); buf[end - 4 + i] = high >>> (8 * i);
      } else {
        buf[end - 1 - i] = low >>> (8 * i); buf[end - 5 - i] = high >>> (8 * i);
      }
    }
  }

  function wordBytes(h, out, size, little) {
    for (let i = 0; i < size; i++) out[i] = h[i >> 2] >> (little ? 8 * (i & 3) : 24 - 8 * (i & 3));
    return out;
  }

  function digest1(kind, bytes) {
    const state = start(kind);
    update(state, bytes);
    return finish(state);
  }

  // HMAC (RFC 2104): the hash states after the inner and outer padded keys, reused per message.
  function macKey(kind, keyBytes) {
    const size = kind.block;
    const k = sizeOf(keyBytes) > size ? digest1(kind, keyBytes) : keyBytes;
    const length = sizeOf(k);
    const pad = new Uint8ArrayCtor(size);
    for (let i = 0; i < size; i++) pad[i] = (i < length ? k[i] : 0) ^ 0x36;
    const inner = start(kind);
    update(inner, pad);
    for (let i = 0; i < size; i++) pad[i] ^= 0x36 ^ 0x5c;
    const outer = start(kind);
    update(outer, pad);
    return { __proto__: null, kind, inner, outer };
  }

  function macStart(mac) {
    return copyState(mac.inner);
  }

  function macFinish(mac, state) {
    const outer = copyState(mac.outer);
    update(outer, finish(state));
    return finish(outer);
  }

  function hmac(kind, keyBytes, data) {
    const mac = macKey(kind, keyBytes);
    const state = macStart(mac);
    update(state, data);
    return macFinish(mac, state);
  }

  // A block holding a digest-sized message then its padding, for a MAC of a digest: each
  // PBKDF2 iteration is then one compression for the inner hash and one for the outer.
  function digestBlock(kind) {
    const buf = new Uint8ArrayCtor(kind.block);
    buf[kind.size] = 0x80;
    writeLength(buf, kind.block, (kind.block + kind.size) * 8, kind.little);
    return buf;
  }

  // PBKDF2 (RFC 8018, section 5.2) with HMAC.
  function pbkdf2(kind, password, salt, iterations, length) {
    const mac = macKey(kind, password);
    const size = kind.size, compress = kind.compress, little = kind.little;
    const inner = digestBlock(kind), outer = digestBlock(kind);
    const stateWords = sizeOf(mac.inner.h);
    const h = new Int32ArrayCtor(stateWords);
    const index = new Uint8ArrayCtor(4);
    const out = new Uint8ArrayCtor(length);
    for (let count = 1, at = 0; at < length; count++, at += size) {
      index[0] = count >>> 24; index[1] = count >>> 16; index[2] = count >>> 8; index[3] = count;
      const state = macStart(mac);
      update(state, salt);
      update(state, index);
      const u = macFinish(mac, state);
      const t = new Uint8ArrayCtor(u);
      for (let j = 1; j < iterations; j++) {
        for (let i = 0; i < size; i++) inner[i] = u[i];
        for (let i = 0; i < stateWords; i++) h[i] = mac.inner.h[i];
        compress(h, inner, 0);
        wordBytes(h, outer, size, little);
        for (let i = 0; i < stateWords; i++) h[i] = mac.outer.h[i];
        compress(h, outer, 0);
        wordBytes(h, u, size, little);
        for (let i = 0; i < size; i++) t[i] ^= u[i];
      }
      for (let i = 0; i < size && at + i < length; i++) out[at + i] = t[i];
    }
    return out;
  }

  // HKDF (RFC 5869). An empty salt is the same HMAC key as HashLen zero bytes.
  function hkdf(kind, ikm, salt, info, length) {
    const mac = macKey(kind, hmac(kind, salt, ikm));
    const out = new Uint8ArrayCtor(length);
    const index = new Uint8ArrayCtor(1);
    let t = new Uint8ArrayCtor(0);
    for (let at = 0; at < length; at += kind.size) {
      index[0]++;
      const state = macStart(mac);
      update(state, t);
      update(state, info);
      update(state, index);
      t = macFinish(mac, state);
      for (let i = 0; i < kind.size && at + i < length; i++) out[at + i] = t[i];
    }
    return out;
  }

  // Constant-time comparison of two byte strings of the same length.
  function sameBytes(a, b) {
    const length = sizeOf(a);
    let difference = 0;
    for (let i = 0; i < length; i++) difference |= a[i] ^ b[i];
    return difference === 0;
  }

  const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

  function base64url(bytes) {
    const length = sizeOf(bytes);
    let text = '';
    for (let i = 0; i < length; i += 3) {
      const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      const count = length - i;
      for (let j = 0; j < 4 && j <= count; j++) text += BASE64URL[(n >> (18 - 6 * j)) & 63];
    }
    return text;
  }

  // Node's lenient decoding: both alphabets, other characters skipped, stops at '='.
  function fromBase64(text) {
    const out = new Uint8ArrayCtor((text.length * 3) >> 2);
    let bits = 0, count = 0, length = 0;
    for (let i = 0; i < text.length; i++) {
      const c = apply(charCodeAt, text, [i]);
      if (c === 61) break;
      const v = c === 43 || c === 45 ? 62 : c === 47 || c === 95 ? 63 : apply(indexOf, BASE64URL, [fromCharCode(c)]);
      if (v < 0) continue;
      bits = (bits << 6) | v;
      if (++count === 4) {
        out[length++] = bits >> 16; out[length++] = bits >> 8; out[length++] = bits;
        bits = count = 0;
      }
    }
    if (count > 1) out[length++] = bits >> (6 * count - 8);
    if (count > 2) out[length++] = bits >> (6 * count - 16);
    return new Uint8ArrayCtor(bufferOf(out), 0, length);
  }

  // Algorithm names each operation recognizes (Node 20's registry); the others get "Unrecognized
  // algorithm name". Of these, only HMAC, PBKDF2, HKDF and the SHA digests are implemented.
  const SIGNERS = 'RSASSA-PKCS1-v1_5 RSA-PSS ECDSA Ed25519 Ed448 HMAC';
  const KEY_TYPES = SIGNERS + ' RSA-OAEP ECDH X25519 X448 AES-CTR AES-CBC AES-GCM AES-KW';
  const REGISTRY = {
    __proto__: null,
    digest: 'SHA-1 SHA-256 SHA-384 SHA-512',
    sign: SIGNERS,
    generateKey: KEY_TYPES,
    importKey: KEY_TYPES + ' PBKDF2 HKDF',
    deriveBits: 'ECDH X25519 X448 HKDF PBKDF2',
    keyLength: 'AES-CTR AES-CBC AES-GCM AES-KW HMAC HKDF PBKDF2',
  };
  for (const operation in REGISTRY) REGISTRY[operation] = apply(split, REGISTRY[operation], [' ']);

  function unsupported(name) {
    return domException(name + ' is not supported in this sandbox: ' + OFFER, 'NotSupportedError');
  }

  function missingOption(dictionary, member) {
    return nativeError(TypeErrorCtor, 'ERR_MISSING_OPTION', "Failed to normalize algorithm: passed algorithm can not be " +
      "converted to '" + dictionary + "' because '" + member + "' is required in '" + dictionary + "'.");
  }

  // The algorithm's registered name (its case as registered) and the object holding its
  // parameters (undefined for a name given as a string).
  function normalize(operation, algorithm) {
    let name = algorithm;
    let params;
    if (algorithm !== null && (typeof algorithm === 'object' || typeof algorithm === 'function')) {
      params = algorithm;
      name = algorithm.name;
      if (name === undefined) throw missingOption('Algorithm', 'name');
    }
    const upper = apply(toUpper, `${name}`, []);
    const names = REGISTRY[operation];
    for (let i = 0; i < names.length; i++) {
      if (apply(toUpper, names[i], []) === upper) return { __proto__: null, name: names[i], params };
    }
    throw domException('Unrecognized algorithm name', 'NotSupportedError');
  }

  function member(algorithm, dictionary, key, required) {
    const value = algorithm.params === undefined ? undefined : algorithm.params[key];
    if (value === undefined && required) throw missingOption(dictionary, key);
    return value;
  }

  function memberPrefix(dictionary, key) {
    return "Failed to normalize algorithm: '" + key + "' of '" + dictionary + "' (passed algorithm) ";
  }

  // Web IDL's [EnforceRange] unsigned long.
  function enforceRange(value, dictionary, key) {
    if (value === undefined) return undefined;
    const number = +value;
    if (!isFiniteFn(number)) {
      throw nativeError(TypeErrorCtor, 'ERR_INVALID_ARG_TYPE', memberPrefix(dictionary, key) + 'is not a finite number.');
    }
    const integer = trunc(number) + 0;
    if (integer < 0 || integer > 4294967295) {
      throw nativeError(TypeErrorCtor, 'ERR_OUT_OF_RANGE', memberPrefix(dictionary, key) +
        'is outside the expected range of 0 to 4294967295.');
    }
    return integer;
  }

  function bytesMember(algorithm, dictionary, key) {
    const bytes = copyOf(member(algorithm, dictionary, key, true));
    if (bytes === undefined) {
      throw nativeError(TypeErrorCtor, 'ERR_INVALID_ARG_TYPE', memberPrefix(dictionary, key) +
        'is not instance of ArrayBuffer, Buffer, TypedArray, or DataView.');
    }
    return bytes;
  }

  // The `hash` member, as an object or a string, normalized once the dictionary is read.
  function hashMember(algorithm, dictionary) {
    const hash = member(algorithm, dictionary, 'hash', true);
    return hash !== null && (typeof hash === 'object' || typeof hash === 'function') ? hash : `${hash}`;
  }

  function hashName(hash) {
    return normalize('digest', hash).name;
  }

  function sequence(value, method, index, what) {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function') ||
        typeof value[ITERATOR] !== 'function') {
      const text = 'can not be converted to sequence.';
      throw what === undefined ? argumentError('ERR_INVALID_ARG_TYPE', method, index, text) :
        nativeError(TypeErrorCtor, 'ERR_INVALID_ARG_TYPE', "Failed to execute '" + method + "' on 'SubtleCrypto': " + what +
          ' ' + text);
    }
    const items = [];
    for (const item of value) append(items, `${item}`);
    return items;
  }

  // items.push(value) without Array.prototype (the code may have replaced push or put setters there).
  function append(items, value) {
    defineProperty(items, items.length, { value, writable: true, enumerable: true, configurable: true });
  }

  const USAGES = ' encrypt decrypt sign verify deriveKey deriveBits wrapKey unwrapKey ';

  function usagesArgument(value, method, index) {
    const usages = sequence(value, method, index);
    for (let i = 0; i < usages.length; i++) {
      if (apply(indexOf, USAGES, [' ' + usages[i] + ' ']) === -1 || usages[i] === '') {
        throw argumentError('ERR_INVALID_ARG_VALUE', method, index, ', index ' + i + " value '" + usages[i] +
          "' is not a valid enum value of type KeyUsage.");
      }
    }
    return usages;
  }

  function formatArgument(value, method) {
    const format = `${value}`;
    if (format !== 'raw' && format !== 'pkcs8' && format !== 'spki' && format !== 'jwk') {
      throw argumentError('ERR_INVALID_ARG_VALUE', method, 0, "value '" + format +
        "' is not a valid enum value of type KeyFormat.");
    }
    return format;
  }

  function onlyUsages(usages, allowed, article) {
    for (let i = 0; i < usages.length; i++) {
      if (apply(indexOf, allowed, [' ' + usages[i] + ' ']) === -1) {
        throw domException('Unsupported key usage for ' + article + ' key', 'SyntaxError');
      }
    }
  }

  function includes(list, item) {
    for (let i = 0; i < list.length; i++) if (list[i] === item) return true;
    return false;
  }

  const token = {};
  // The internal slots of a CryptoKey (see newKey), or undefined for any other value.
  let slotOf;

  class CryptoKey {
    #slot;

    constructor() {
      if (arguments[0] !== token) throw codedError(TypeErrorCtor, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
      this.#slot = arguments[1];
    }

    static {
      slotOf = (value) => (value !== null && typeof value === 'object' && #slot in value ? value.#slot : undefined);
    }

    get type() {
      return CryptoKey.#own(this).type;
    }

    get extractable() {
      return CryptoKey.#own(this).extractable;
    }

    get algorithm() {
      return CryptoKey.#own(this).algorithm;
    }

    get usages() {
      return CryptoKey.#own(this).usages;
    }

    static #own(value) {
      const slot = slotOf(value);
      if (slot === undefined) throw invalidThis('CryptoKey');
      return slot;
    }

    [INSPECT](depth, options, inspect) {
      if (depth < 0) return this;
      const slot = CryptoKey.#own(this);
      const shown = { type: slot.type, extractable: slot.extractable, algorithm: slot.algorithm, usages: slot.usages };
      return 'CryptoKey ' + inspect(shown, { ...options, depth: options.depth == null ? null : options.depth - 1 });
    }
  }

  // `name` is the key's algorithm, `bytes` its secret, `hash` the hash of an HMAC key. Like
  // Node's, the key checks its usages in the array it shows, which the code may change.
  function newKey(name, algorithm, bytes, hash, extractable, usages) {
    return new CryptoKey(token, { __proto__: null, name, type: 'secret', extractable, algorithm, usages,
      bytes, hash, kind: HASHES[hash] });
  }

  function keyArgument(value, method, index) {
    const slot = slotOf(value);
    if (slot === undefined) throw argumentError('ERR_INVALID_ARG_TYPE', method, index, 'is not of type CryptoKey.');
    return slot;
  }

  function bytesArgument(value, method, index) {
    const bytes = copyOf(value);
    if (bytes === undefined) throw notBytes(method, index);
    return bytes;
  }

  // `length` (bits) of HMAC parameters, or the hash's block size when there is none.
  function hmacParams(algorithm, dictionary) {
    const hash = hashMember(algorithm, dictionary);
    const length = enforceRange(member(algorithm, dictionary, 'length', false), dictionary, 'length');
    const name = hashName(hash);
    return { __proto__: null, hash: name, kind: HASHES[name], length };
  }

  const JWK_ALGORITHMS = {
    __proto__: null, 'SHA-1': 'HS1', 'SHA-256': 'HS256', 'SHA-384': 'HS384', 'SHA-512': 'HS512',
  };

  function readJwk(value, method) {
    if (value !== undefined && value !== null && typeof value !== 'object' && typeof value !== 'function') {
      throw argumentError('ERR_INVALID_ARG_TYPE', method, 1, 'can not be converted to a dictionary');
    }
    const jwk = value === undefined || value === null ? {} : value;
    const text = (v) => (v === undefined ? undefined : `${v}`);
    const alg = text(jwk.alg);
    const ext = jwk.ext === undefined ? undefined : !!jwk.ext;
    const k = text(jwk.k);
    const ops = jwk.key_ops === undefined ? undefined :
      sequence(jwk.key_ops, method, 1, "'key_ops' of 'JsonWebKey' (2nd argument)");
    return { __proto__: null, alg, ext, k, ops, kty: text(jwk.kty), use: text(jwk.use) };
  }

  function importHmac(format, keyData, algorithm, extractable, usages) {
    const params = hmacParams(algorithm, 'HmacImportParams');
    onlyUsages(usages, ' sign verify ', 'an HMAC');
    let bytes;
    if (format === 'raw') {
      bytes = keyData;
      if (sizeOf(bytes) === 0 || params.length === 0) {
        throw domException('Zero-length key is not supported', 'DataError');
      }
      if (params.length !== undefined && params.length !== sizeOf(bytes) * 8) {
        throw domException('Invalid key length', 'DataError');
      }
    } else if (format === 'jwk') {
      const jwk = keyData;
      if (!jwk.kty) throw domException('Invalid keyData', 'DataError');
      if (jwk.kty !== 'oct') throw domException('Invalid JWK "kty" Parameter', 'DataError');
      if (usages.length > 0 && jwk.use !== undefined && jwk.use !== 'sig') {
        throw domException('Invalid JWK "use" Parameter', 'DataError');
      }
      if (jwk.ops !== undefined) {
        for (let i = 0; i < jwk.ops.length; i++) {
          for (let j = 0; j < i; j++) {
            if (jwk.ops[i] === jwk.ops[j]) throw domException('Duplicate key operation', 'DataError');
          }
        }
        for (let i = 0; i < usages.length; i++) {
          if (!includes(jwk.ops, usages[i])) throw domException('Key operations and usage mismatch', 'DataError');
        }
      }
      if (jwk.ext !== undefined && jwk.ext === false && extractable) {
        throw domException('JWK "ext" Parameter and extractable mismatch', 'DataError');
      }
      if (jwk.alg !== undefined && jwk.alg !== JWK_ALGORITHMS[params.hash]) {
        throw domException('JWK "alg" does not match the requested algorithm', 'DataError');
      }
      if (jwk.k === undefined) throw domException('Invalid keyData', 'DataError');
      bytes = fromBase64(jwk.k);
    } else {
      throw domException('Unable to import HMAC key with format ' + format, 'Error');
    }
    const shown = { name: 'HMAC', hash: { name: params.hash }, length: sizeOf(bytes) * 8 };
    return newKey('HMAC', shown, bytes, params.hash, extractable, usages);
  }

  function importDerivation(name, format, keyData, extractable, usages) {
    const article = name === 'PBKDF2' ? 'a PBKDF2' : 'a HKDF';
    if (extractable) throw domException(name + ' keys are not extractable', 'SyntaxError');
    onlyUsages(usages, ' deriveKey deriveBits ', article);
    if (format !== 'raw') {
      throw domException('Unable to import ' + name + ' key with format ' + format, 'NotSupportedError');
    }
    return newKey(name, { name }, keyData, undefined, false, usages);
  }

  function importAs(format, keyData, algorithm, extractable, usages) {
    let created;
    if (algorithm.name === 'HMAC') created = importHmac(format, keyData, algorithm, extractable, usages);
    else if (algorithm.name === 'PBKDF2' || algorithm.name === 'HKDF') {
      created = importDerivation(algorithm.name, format, keyData, extractable, usages);
    } else throw unsupported(algorithm.name);
    if (usages.length === 0) throw domException('Usages cannot be empty when importing a secret key.', 'SyntaxError');
    return created;
  }

  // The bits of a derivation; `length` is Web IDL's unsigned long (converted modulo 2^32), or null.
  function deriveBitsOf(algorithm, slot, length, usage) {
    if (!includes(slot.usages, usage)) {
      throw domException('baseKey does not have ' + usage + ' usage', 'InvalidAccessError');
    }
    if (algorithm.name !== slot.name) throw domException('Key algorithm mismatch', 'InvalidAccessError');
    const derived = algorithm.derived;
    if (algorithm.name === 'PBKDF2' && derived.iterations === 0) {
      throw domException('iterations cannot be zero', 'OperationError');
    }
    if (length === null) throw domException('length cannot be null', 'OperationError');
    if (length % 8 !== 0) throw domException('length must be a multiple of 8', 'OperationError');
    const kind = HASHES[derived.hash];
    if (algorithm.name === 'PBKDF2') return pbkdf2(kind, slot.bytes, derived.salt, derived.iterations, length / 8);
    if (length > 255 * kind.size * 8) {
      throw domException('The operation failed for an operation-specific reason', 'OperationError');
    }
    return hkdf(kind, slot.bytes, derived.salt, derived.info, length / 8);
  }

  // The PBKDF2 or HKDF parameters, read in Web IDL's order (members sorted by name).
  function derivationParams(operation, value) {
    const algorithm = normalize(operation, value);
    if (algorithm.name !== 'PBKDF2' && algorithm.name !== 'HKDF') throw unsupported(algorithm.name);
    const derived = { __proto__: null };
    if (algorithm.name === 'PBKDF2') {
      const hash = hashMember(algorithm, 'Pbkdf2Params');
      derived.iterations = enforceRange(member(algorithm, 'Pbkdf2Params', 'iterations', true), 'Pbkdf2Params',
        'iterations');
      derived.salt = bytesMember(algorithm, 'Pbkdf2Params', 'salt');
      derived.hash = hashName(hash);
    } else {
      const hash = hashMember(algorithm, 'HkdfParams');
      derived.info = bytesMember(algorithm, 'HkdfParams', 'info');
      derived.salt = bytesMember(algorithm, 'HkdfParams', 'salt');
      derived.hash = hashName(hash);
    }
    algorithm.derived = derived;
    return algorithm;
  }

  let crypto;
  let subtle;

  class SubtleCrypto {
    constructor() {
      if (arguments[0] !== token) throw codedError(TypeErrorCtor, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
    }
  }

  function checkCall(self, method, needed, given) {
    if (self !== subtle) throw invalidThis('SubtleCrypto');
    if (given < needed) throw missingArgs(method, 'SubtleCrypto', needed, given);
  }

  async function digest(algorithm, data) {
    checkCall(this, 'digest', 2, arguments.length);
    if (typeof algorithm === 'symbol') {
      throw argumentError('ERR_INVALID_ARG_TYPE', 'digest', 0, 'is a Symbol and cannot be converted to a string.');
    }
    const bytes = bytesArgument(data, 'digest', 1);
    return bufferOf(digest1(HASHES[normalize('digest', algorithm).name], bytes));
  }

  async function sign(algorithm, key, data) {
    checkCall(this, 'sign', 3, arguments.length);
    const slot = keyArgument(key, 'sign', 1);
    const bytes = bytesArgument(data, 'sign', 2);
    const name = normalize('sign', algorithm).name;
    if (name !== slot.name || !includes(slot.usages, 'sign')) {
      throw domException('Unable to use this key to sign', 'InvalidAccessError');
    }
    return bufferOf(hmac(slot.kind, slot.bytes, bytes));
  }

  async function verify(algorithm, key, signature, data) {
    checkCall(this, 'verify', 4, arguments.length);
    const slot = keyArgument(key, 'verify', 1);
    const expected = bytesArgument(signature, 'verify', 2);
    const bytes = bytesArgument(data, 'verify', 3);
    const name = normalize('sign', algorithm).name;
    if (name !== slot.name || !includes(slot.usages, 'verify')) {
      throw domException('Unable to use this key to verify', 'InvalidAccessError');
    }
    const actual = hmac(slot.kind, slot.bytes, bytes);
    return sizeOf(actual) === sizeOf(expected) && sameBytes(actual, expected);
  }

  async function generateKey(algorithm, extractable, keyUsages) {
    checkCall(this, 'generateKey', 3, arguments.length);
    const usages = usagesArgument(keyUsages, 'generateKey', 2);
    const normalized = normalize('generateKey', algorithm);
    if (normalized.name !== 'HMAC') throw unsupported(normalized.name);
    const params = hmacParams(normalized, 'HmacKeyGenParams');
    const length = params.length === undefined ? params.kind.block * 8 : params.length;
    if (length % 8 !== 0) {
      throw invalidArgValue('algorithm.length', length, 'must be a multiple of 8');
    }
    onlyUsages(usages, ' sign verify ', 'an HMAC');
    if (length === 0) throw domException('The operation failed for an operation-specific reason', 'OperationError');
    if (usages.length === 0) throw domException('Usages cannot be empty when creating a key.', 'SyntaxError');
    const shown = { name: 'HMAC', length, hash: { name: params.hash } };
    return newKey('HMAC', shown, fillRandom(new Uint8ArrayCtor(length / 8)), params.hash, !!extractable, usages);
  }

  async function importKey(format, keyData, algorithm, extractable, keyUsages) {
    checkCall(this, 'importKey', 4, arguments.length);
    const keyFormat = formatArgument(format, 'importKey');
    const data = keyFormat === 'jwk' ? readJwk(keyData, 'importKey') : bytesArgument(keyData, 'importKey', 1);
    const usages = usagesArgument(keyUsages, 'importKey', 4);
    return importAs(keyFormat, data, normalize('importKey', algorithm), !!extractable, usages);
  }

  async function exportKey(format, key) {
    checkCall(this, 'exportKey', 2, arguments.length);
    const keyFormat = formatArgument(format, 'exportKey');
    const slot = keyArgument(key, 'exportKey', 1);
    if (!slot.extractable) throw domException('key is not extractable', 'InvalidAccessException');
    if (keyFormat === 'raw') return bufferOf(new Uint8ArrayCtor(slot.bytes));
    if (keyFormat === 'jwk') {
      return { key_ops: slot.usages, ext: true, kty: 'oct', k: base64url(slot.bytes), alg: JWK_ALGORITHMS[slot.hash] };
    }
    throw domException('Unable to export a ' + (keyFormat === 'spki' ? 'raw' : keyFormat) + ' HMAC secret key',
      'InvalidAccessError');
  }

  async function deriveBits(algorithm, baseKey, length = undefined) {
    checkCall(this, 'deriveBits', 2, arguments.length);
    const slot = keyArgument(baseKey, 'deriveBits', 1);
    const bits = length === undefined || length === null ? null : (+length >>> 0);
    const normalized = derivationParams('deriveBits', algorithm);
    return bufferOf(deriveBitsOf(normalized, slot, bits, 'deriveBits'));
  }

  async function deriveKey(algorithm, baseKey, derivedKeyAlgorithm, extractable, keyUsages) {
    checkCall(this, 'deriveKey', 5, arguments.length);
    const slot = keyArgument(baseKey, 'deriveKey', 1);
    const usages = usagesArgument(keyUsages, 'deriveKey', 4);
    const normalized = derivationParams('deriveBits', algorithm);
    const target = normalize('importKey', derivedKeyAlgorithm);
    normalize('keyLength', derivedKeyAlgorithm);
    let length = null;
    if (target.name === 'HMAC') {
      const params = hmacParams(target, 'HmacImportParams');
      if (params.length === 0) throw domException('Invalid key length', 'OperationError');
      length = params.length === undefined ? params.kind.block * 8 : params.length;
    } else if (target.name !== 'PBKDF2' && target.name !== 'HKDF') {
      throw unsupported(target.name);
    }
    const bits = deriveBitsOf(normalized, slot, length, 'deriveKey');
    return importAs('raw', bits, target, !!extractable, usages);
  }

  function rejected(method, length) {
    const fn = {
      async [method]() {
        checkCall(this, method, length, arguments.length);
        throw domException('crypto.subtle.' + method + ' is not supported in this sandbox: ' + OFFER,
          'NotSupportedError');
      },
    }[method];
    defineProperty(fn, 'length', { value: length });
    return fn;
  }

  const methods = [
    'encrypt', rejected('encrypt', 3), 'decrypt', rejected('decrypt', 3), 'sign', sign, 'verify', verify,
    'digest', digest, 'generateKey', generateKey, 'deriveKey', deriveKey, 'deriveBits', deriveBits,
    'importKey', importKey, 'exportKey', exportKey, 'wrapKey', rejected('wrapKey', 4),
    'unwrapKey', rejected('unwrapKey', 7),
  ];
  for (let i = 0; i < methods.length; i += 2) {
    defineProperty(SubtleCrypto.prototype, methods[i], { value: methods[i + 1], writable: true, enumerable: true,
      configurable: true });
  }

  class Crypto {
    constructor() {
      if (arguments[0] !== token) throw codedError(TypeErrorCtor, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
    }

    get subtle() {
      if (this !== crypto) throw invalidThis('Crypto');
      return subtle;
    }

    getRandomValues(array) {
      if (this !== crypto) throw invalidThis('Crypto');
      if (arguments.length < 1) throw missingArgs('getRandomValues', 'Crypto', 1, 0);
      const tag = isView(array) ? apply(typedArrayTag, array, []) : undefined;
      if (tag === undefined || apply(indexOf, INTEGER_ARRAYS, [' ' + tag + ' ']) === -1) {
        throw domException('The data argument must be an integer-type TypedArray', 'TypeMismatchError');
      }
      const bytes = viewOf(array);
      if (sizeOf(bytes) > 65536) {
        throw domException('The requested length exceeds 65,536 bytes', 'QuotaExceededError');
      }
      fillRandom(bytes);
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
        text += HEX[bytes[i] >> 4] + HEX[bytes[i] & 15];
      }
      return text;
    }
  }

  const HEX = '0123456789abcdef';
  const accessors = [Crypto, 'subtle getRandomValues randomUUID', CryptoKey, 'type extractable algorithm usages'];
  for (let i = 0; i < accessors.length; i += 2) {
    const names = apply(split, accessors[i + 1], [' ']);
    for (let j = 0; j < names.length; j++) defineProperty(accessors[i].prototype, names[j], { enumerable: true });
  }
  const classes = [Crypto, SubtleCrypto, CryptoKey];
  for (let i = 0; i < classes.length; i++) {
    defineProperty(classes[i].prototype, Symbol.toStringTag, { value: classes[i].name, configurable: true });
  }
  crypto = new Crypto(token);
  subtle = new SubtleCrypto(token);

  // What the Node crypto module computes with (createHash, createHmac, pbkdf2, hkdf, random
  // bytes), so that the hash code and the random stream exist once per run. Reached through
  // a registered symbol on Crypto: the two modules share nothing else. Every function takes
  // and returns Uint8Arrays; none of them calls into the model's code.
  const ENGINE = freeze({
    __proto__: null,
    hashes: HASHES, hashKind, start, update, finish, copy: copyState, macKey, macStart, macFinish, hmac,
    pbkdf2, hkdf, sameBytes, viewOf, fillRandom,
    keyBytes: (value) => {
      const slot = slotOf(value);
      return slot === undefined ? undefined : new Uint8ArrayCtor(slot.bytes);
    },
  });
  defineProperty(Crypto, Symbol.for('sandbox.crypto.engine'), { value: ENGINE });
  return { crypto, Crypto, SubtleCrypto, CryptoKey };
})
