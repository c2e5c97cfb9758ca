// globals: atob btoa
// requires: internal/errors
(function (host) {
  'use strict';
  // atob/btoa as Node 20 has them: the HTML standard's forgiving-base64 decode (ASCII
  // whitespace ignored, at most two trailing '='), Latin-1 strings on both sides, and
  // Node's error message for each rejection (which of the two depends on Node's order of checks).
  const TypeErrorCtor = TypeError;
  const fromCharCode = String.fromCharCode;
  const apply = Reflect.apply;
  // String.prototype.charCodeAt as the engine made it, whatever the code does to it later.
  const charCodeAt = Function.prototype.call.bind(String.prototype.charCodeAt);
  const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  // CODES: the character code of each sextet; SEXTET: the sextet of each ASCII code, or
  // -1: not base64, -2: ASCII whitespace, 64: '='.
  const CODES = new Uint8Array(64);
  const SEXTET = new Int8Array(128);
  for (let i = 0; i < 128; i++) SEXTET[i] = -1;
  for (let i = 0; i < 64; i++) SEXTET[CODES[i] = charCodeAt(ALPHABET, i)] = i;
  SEXTET[9] = SEXTET[10] = SEXTET[12] = SEXTET[13] = SEXTET[32] = -2;
  SEXTET[61] = 64;

  // DOMException is compiled only when an error needs it.
  function domException(message, name) {
    const DOMException = host.global('DOMException');
    return new DOMException(message, name);
  }

  const { codedError } = host.require('internal/errors');
  function missingInput() {
    return codedError(TypeErrorCtor, 'ERR_MISSING_ARGS', 'The "input" argument must be specified');
  }

  function invalid(message) {
    return domException(message, 'InvalidCharacterError');
  }

  function latin1(bytes, length) {
    let text = '';
    for (let i = 0; i < length; i += 8192) {
      text += apply(fromCharCode, null, bytes.subarray(i, i + 8192 < length ? i + 8192 : length));
    }
    return text;
  }

  function atob(input) {
    if (arguments.length === 0) throw missingInput();
    input = `${input}`;
    // Up to two '=' may end the text, with whitespace around them; any other '=' is invalid.
    let end = input.length;
    let equals = 0;
    while (equals < 2) {
      while (end > 0 && SEXTET[charCodeAt(input, end - 1)] === -2) end--;
      if (end === 0 || charCodeAt(input, end - 1) !== 61) break;
      end--;
      equals++;
    }
    let count = 0;
    for (let i = 0; i < end; i++) {
      const code = charCodeAt(input, i);
      const sextet = code < 128 ? SEXTET[code] : -1;
      if (sextet === -1 || sextet === 64) throw invalid('Invalid character');
      if (sextet !== -2) count++;
    }
    const rest = count % 4;
    if (rest === 1) throw invalid('The string to be decoded is not correctly encoded.');
    if (equals !== 0 && (count === 0 || (rest + equals) % 4 !== 0)) throw invalid('Invalid character');
    const bytes = new Uint8Array((count * 3) >> 2);
    let buffer = 0;
    let bits = 0;
    let out = 0;
    for (let i = 0; i < end; i++) {
      const sextet = SEXTET[charCodeAt(input, i)];
      if (sextet < 0) continue;
      buffer = ((buffer << 6) | sextet) & 0xffffff;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        bytes[out++] = buffer >> bits;
      }
    }
    return latin1(bytes, out);
  }

  function btoa(input) {
    if (arguments.length === 0) throw missingInput();
    input = `${input}`;
    const length = input.length;
    for (let i = 0; i < length; i++) if (charCodeAt(input, i) > 0xff) throw invalid('Invalid character');
    const codes = new Uint8Array(((length + 2) / 3 | 0) * 4);
    let out = 0;
    for (let i = 0; i < length; i += 3) {
      const a = charCodeAt(input, i);
      const b = i + 1 < length ? charCodeAt(input, i + 1) : 0;
      const c = i + 2 < length ? charCodeAt(input, i + 2) : 0;
      codes[out++] = CODES[a >> 2];
      codes[out++] = CODES[((a & 3) << 4) | (b >> 4)];
      codes[out++] = i + 1 < length ? CODES[((b & 15) << 2) | (c >> 6)] : 61;
      codes[out++] = i + 2 < length ? CODES[c & 63] : 61;
    }
    return latin1(codes, out);
  }

  return { atob, btoa };
})
