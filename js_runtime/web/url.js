// globals: URL URLSearchParams
// requires: internal/errors
// Why: models parse and build URLs (query strings above all) and must get the answers browsers and Node give.
// The WHATWG URL Standard (parser, serializers, URL and URLSearchParams) as Node 20 implements it; where Node
// departs from the standard (see the tests) the standard wins, except the port setter, which follows Node.
// IDNA without a UTS #46 table: mapping is NFKC plus per-code-point case folding, with the exceptions UTS #46
// makes for common scripts; a few disallowed code points are listed, newer Unicode versions than Node's
// table are accepted, joiners (U+200C/D) are always rejected and the bidi rule uses approximate classes.
(function (host) {
  'use strict';
  const un = (f) => f.call.bind(f);
  const SP = String.prototype;
  const CC = un(SP.charCodeAt), CP = un(SP.codePointAt), SL = un(SP.slice), LC = un(SP.toLowerCase);
  const UC = un(SP.toUpperCase);
  const NORM = un(SP.normalize), IDX = un(SP.indexOf), WF = un(SP.toWellFormed);
  const AP = Array.prototype, JOIN = un(AP.join), SORT = un(AP.sort), PUSH = un(AP.push), MAP = un(AP.map), SLA = un(AP.slice);
  const EXEC = un(RegExp.prototype.exec);
  const fcc = String.fromCharCode, fcp = String.fromCodePoint, floor = Math.floor;
  const defProp = Object.defineProperty, ownKeys = Reflect.ownKeys, gopd = Object.getOwnPropertyDescriptor;
  const INSPECT = Symbol.for('nodejs.util.inspect.custom'), ITER = Symbol.iterator, TAG = Symbol.toStringTag;
  const HEX = '0123456789ABCDEF';

  // A TypeError as Node's coded errors are (internal/errors): `code` (and `input`, `base`) own properties, and
  // unless `plain` (the URL constructor's error, which Node's C++ throws) the code in the stack's first line and in
  // String(error).
  const TE = TypeError;
  const { codedError, nativeError, received } = host.require('internal/errors');
  function fail(code, msg, extra, plain) {
    const e = (plain ? nativeError : codedError)(TE, code, msg);
    for (const k in extra) e[k] = extra[k];
    return e;
  }
  const missing = (names) =>
    fail('ERR_MISSING_ARGS', 'The ' + JOIN(MAP(names, (n) => '"' + n + '"'), ' and ') + ' argument' +
      (names.length > 1 ? 's' : '') + ' must be specified');
  const usv = (v) => WF('' + v);
  // Replace each code point of s by f(codePointText, codePoint) (regular-expression replace would go through
  // RegExp.prototype.exec, which the caller may have replaced).
  const mapCp = (s, f) => {
    let out = '';
    for (let i = 0; i < s.length; i++) {
      const c = CP(s, i);
      if (c > 0xffff) i++;
      out += f(fcp(c), c);
    }
    return out;
  };
  const strip = (s) => {
    if (IDX(s, '\t') < 0 && IDX(s, '\n') < 0 && IDX(s, '\r') < 0) return s;
    let out = '', start = 0;
    for (let i = 0; i < s.length; i++) {
      const c = CC(s, i);
      if (c === 9 || c === 10 || c === 13) { out += SL(s, start, i); start = i + 1; }
    }
    return start ? out + SL(s, start) : s;
  };
  const split = (s, ch) => {
    const out = [];
    let at = 0, j;
    while ((j = IDX(s, ch, at)) >= 0) { out[out.length] = SL(s, at, j); at = j + 1; }
    out[out.length] = SL(s, at);
    return out;
  };

  // Percent-encode sets as bits: C0 control, fragment, query, special-query, path, userinfo, component, form.
  const FRAG = 2, QUERY = 4, SQUERY = 8, PATH = 16, USER = 32, COMP = 64, FORM = 128;
  const SET = new Uint8Array(128);
  for (let c = 0; c < 32; c++) SET[c] = 255;
  SET[127] = 255;
  for (const [bits, chars] of [[FRAG, ' "<>`'], [QUERY | SQUERY | PATH | USER | COMP | FORM, ' "#<>'],
    [SQUERY | FORM, "'"], [PATH | USER | COMP | FORM, '?`{}'], [USER | COMP | FORM, '/:;=@[\\]^|'],
    [COMP | FORM, '$%&+,'], [FORM, "!'()~"]]) {
    for (let i = 0; i < chars.length; i++) SET[CC(chars, i)] |= bits;
  }

  // UTF-8 bytes of the code point at s[i] appended to out (an array); returns the index of its last unit.
  function utf8(s, i, out) {
    let c = CP(s, i);
    if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
    if (c < 0x80) out[out.length] = c;
    else if (c < 0x800) PUSH(out, 0xc0 | c >> 6, 0x80 | c & 63);
    else if (c < 0x10000) PUSH(out, 0xe0 | c >> 12, 0x80 | c >> 6 & 63, 0x80 | c & 63);
    else { PUSH(out, 0xf0 | c >> 18, 0x80 | c >> 12 & 63, 0x80 | c >> 6 & 63, 0x80 | c & 63); i++; }
    return i;
  }

  function pe(s, set, plus) {
    let out = '', start = 0;
    const n = s.length;
    for (let i = 0; i < n; i++) {
      const c = CC(s, i);
      if (c < 128 && !(SET[c] & set)) continue;
      out += SL(s, start, i);
      if (c === 32 && plus) out += '+';
      else {
        const b = [];
        i = utf8(s, i, b);
        for (let k = 0; k < b.length; k++) out += '%' + HEX[b[k] >> 4] + HEX[b[k] & 15];
      }
      start = i + 1;
    }
    return start ? out + SL(s, start) : s;
  }

  const hexVal = (c) => c >= 48 && c <= 57 ? c - 48 : (c |= 32) >= 97 && c <= 102 ? c - 87 : -1;

  // Percent-decode the UTF-8 encoding of s, then UTF-8 decode with replacement (WHATWG decoder).
  function pd(s) {
    if (IDX(s, '%') < 0) return s;
    const b = [], n = s.length;
    for (let i = 0; i < n; i++) {
      const c = CC(s, i);
      let h, l;
      if (c === 37 && i + 2 < n && (h = hexVal(CC(s, i + 1))) >= 0 && (l = hexVal(CC(s, i + 2))) >= 0) {
        b[b.length] = h * 16 + l;
        i += 2;
      } else if (c < 128) b[b.length] = c;
      else i = utf8(s, i, b);
    }
    let out = '', i = 0;
    while (i < b.length) {
      const c = b[i++];
      if (c < 128) { out += fcc(c); continue; }
      let need = 0, lo = 0x80, hi = 0xbf, cp = 0;
      if (c >= 0xc2 && c <= 0xdf) { need = 1; cp = c & 31; }
      else if (c >= 0xe0 && c <= 0xef) { need = 2; cp = c & 15; if (c === 0xe0) lo = 0xa0; if (c === 0xed) hi = 0x9f; }
      else if (c >= 0xf0 && c <= 0xf4) { need = 3; cp = c & 7; if (c === 0xf0) lo = 0x90; if (c === 0xf4) hi = 0x8f; }
      else cp = -1;
      for (; need; need--) {
        const d = b[i];
        if (i >= b.length || d < lo || d > hi) { cp = -1; break; }
        lo = 0x80; hi = 0xbf; cp = cp << 6 | d & 63; i++;
      }
      out += cp < 0 ? '\ufffd' : fcp(cp);
    }
    return out;
  }

  // Punycode (RFC 3492) on arrays of code points.
  function adapt(d, n, first) {
    d = first ? floor(d / 700) : d >> 1;
    d += floor(d / n);
    let k = 0;
    for (; d > 455; k += 36) d = floor(d / 35);
    return k + floor(36 * d / (d + 38));
  }
  const tOf = (k, bias) => k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
  function punyEncode(cps) {
    let out = '', n = 128, delta = 0, bias = 72, h = 0;
    for (const c of cps) if (c < 128) { out += fcc(c); h++; }
    const b = h;
    if (b) out += '-';
    while (h < cps.length) {
      let m = 0x7fffffff;
      for (const c of cps) if (c >= n && c < m) m = c;
      delta += (m - n) * (h + 1);
      n = m;
      for (const c of cps) {
        if (c < n) delta++;
        if (c !== n) continue;
        let q = delta;
        for (let k = 36; ; k += 36) {
          const t = tOf(k, bias);
          if (q < t) break;
          const d = t + (q - t) % (36 - t);
          out += fcc(d < 26 ? d + 97 : d + 22);
          q = floor((q - t) / (36 - t));
        }
        out += fcc(q < 26 ? q + 97 : q + 22);
        bias = adapt(delta, h + 1, h === b);
        delta = 0;
        h++;
      }
      delta++;
      n++;
    }
    return out;
  }
  function punyDecode(s) {
    const out = [];
    let b = s.lastIndexOf('-'), n = 128, i = 0, bias = 72;
    if (b < 0) b = 0;
    for (let j = 0; j < b; j++) { const c = CC(s, j); if (c > 127) return null; out[out.length] = c; }
    for (let p = b > 0 ? b + 1 : 0; p < s.length;) {
      const old = i;
      for (let w = 1, k = 36; ; k += 36) {
        if (p >= s.length) return null;
        const c = CC(s, p++);
        const d = c >= 48 && c <= 57 ? c - 22 : (c | 32) >= 97 && (c | 32) <= 122 ? (c | 32) - 97 : 99;
        if (d > 35 || d * w > 0x7fffffff - i) return null;
        i += d * w;
        const t = tOf(k, bias);
        if (d < t) break;
        w *= 36 - t;
      }
      bias = adapt(i - old, out.length + 1, old === 0);
      n += floor(i / (out.length + 1));
      if (n > 0x10ffff) return null;
      i %= out.length + 1;
      out.splice(i++, 0, n);
    }
    return fcp(...out);
  }

  // The Unicode regular expressions below are written inside the functions that use them: created at module
  // start they would cost about half a millisecond on every first use, even for ASCII-only URLs.
  const DOTS = /[.\u3002\uff0e\uff61]/;
  // Case folding as upper-then-lower case of each code point, except where UTS #46 keeps or maps otherwise.
  const FOLD = { __proto__: null, '\u00df': '\u00df', '\u03c2': '\u03c2', '\u0131': '\u0131', '\u1e9e': 'ss' };
  const fold = (ch, c) => c < 128 ? LC(ch) : FOLD[ch] || (EXEC(/[\u13a0-\u13fd\uab70-\uabbf]/, ch) ? UC(ch) : LC(UC(ch)));
  // Returns null when a code point maps to something holding a full stop (U+2488 DIGIT ONE FULL STOP...).
  function idnaMap(s) {
    const ignored = /[\u00ad\u034f\u180b-\u180d\u180f\u200b\u2060\u2064\ufe00-\ufe0f\ufeff\u{1bca0}-\u{1bca3}\u{e0100}-\u{e01ef}]/u;
    const sigma = /[\u03f2\u{1d6d3}\u{1d70d}\u{1d747}\u{1d781}\u{1d7bb}]/u;
    s = mapCp(s, (ch) => EXEC(ignored, ch) ? '' : EXEC(DOTS, ch) ? '.' : EXEC(sigma, ch) ? '\u03c3' : ch);
    const m = mapCp(NORM(mapCp(NORM(s, 'NFKC'), fold), 'NFKC'), (ch) => EXEC(DOTS, ch) ? '.' : ch);
    return EXEC(/[\u04c0\u10a0-\u10c5\u2132\u2183]/, s) === null && split(m, '.').length === split(s, '.').length ? m : null;
  }
  // Bidi rule as Node 20 applies it, to each label holding a right-to-left letter or Arabic digit: after the
  // first code point no left-to-right letter, the last one that is not a mark is right-to-left or a digit,
  // and not both kinds of digits. Bidi classes are approximated from blocks and general categories.
  function bidiOk(l) {
    if (EXEC(/[\u0590-\u08ff\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u, l) === null) return true;
    const bidi = /(\p{Mn}|\p{Me})|([\u0600-\u0605\u0660-\u0669\u066b\u066c\u06dd\u08e2])|([0-9\u06f0-\u06f9])|([\u0606\u0607\u0609\u060a\u060c\u060e\u060f\u066a\u06de\u06e9\u07f6-\u07f9])|([\u0590-\u08ff\u{10800}-\u{10fff}\u{1e800}-\u{1efff}])|([\p{L}\p{Mc}\p{Nd}\p{Nl}])/u;
    let k = '';
    for (const ch of l) { const m = EXEC(bidi, ch); k += m === null ? 'O' : 'MAEORL'[m.indexOf(ch, 1) - 1]; }
    if (EXEC(/[RA]/, k) === null) return true;
    return EXEC(/^(?:[RA]|.[^L]*[RAE])M*$/, k) !== null && !(IDX(k, 'A') >= 0 && IDX(k, 'E') >= 0);
  }
  const validLabel = (l) => l !== null && l !== '' && bidiOk(l) &&
    EXEC(/^\p{M}|[\p{Cc}\p{Cf}\p{Cn}\p{Co}\p{Cs}\p{Zs}\p{Zl}\p{Zp}\ufffc\ufffd\u115f\u1160\u17b4\u17b5\u1806\u3164\uffa0\ufbb2-\ufbc1]/u, l) === null;
  const isAscii = (s) => EXEC(/[^\0-\x7f]/, s) === null;

  // UTS #46 ToASCII as the URL Standard calls it: Transitional, CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength off.
  function domainToAscii(d) {
    const ascii = isAscii(d);
    d = ascii ? LC(d) : idnaMap(d);
    if (d === null) return null;
    if (ascii && IDX(d, 'xn--') < 0) return d;
    const labels = split(d, '.');
    for (let i = 0; i < labels.length; i++) {
      const l = labels[i];
      if (SL(l, 0, 4) === 'xn--') {
        const u = isAscii(l) ? punyDecode(SL(l, 4)) : null;
        if (!validLabel(u && idnaMap(u))) return null;
      } else if (!isAscii(l)) {
        if (!validLabel(l)) return null;
        const cps = [];
        for (const ch of l) cps[cps.length] = CP(ch, 0);
        labels[i] = 'xn--' + punyEncode(cps);
      }
    }
    return JOIN(labels, '.');
  }

  function ipv4Number(s) {
    if (s === '') return NaN;
    let r = 10;
    if (s.length > 1 && CC(s, 0) === 48) {
      if ((CC(s, 1) | 32) === 120) { s = SL(s, 2); r = 16; } else { s = SL(s, 1); r = 8; }
    }
    let v = 0;
    for (let i = 0; i < s.length; i++) {
      const d = hexVal(CC(s, i));
      if (d < 0 || d >= r) return NaN;
      v = v * r + d;
    }
    return v;
  }
  function endsInNumber(s) {
    const parts = split(s, '.');
    if (parts[parts.length - 1] === '') { if (parts.length === 1) return false; parts.pop(); }
    const last = parts[parts.length - 1];
    return last !== '' && (EXEC(/^\d+$/, last) !== null || ipv4Number(last) === ipv4Number(last));
  }
  function ipv4(s) {
    const parts = split(s, '.');
    if (parts[parts.length - 1] === '' && parts.length > 1) parts.pop();
    const n = parts.length;
    if (n > 4) return null;
    let v = 0;
    for (let i = 0; i < n; i++) {
      const x = ipv4Number(parts[i]);
      if (!(x === x)) return null;
      if (i < n - 1) { if (x > 255) return null; v += x * 256 ** (3 - i); }
      else { if (x >= 256 ** (5 - n)) return null; v += x; }
    }
    return (v >>> 24) + '.' + (v >> 16 & 255) + '.' + (v >> 8 & 255) + '.' + (v & 255);
  }

  function ipv6(s) {
    const a = [0, 0, 0, 0, 0, 0, 0, 0], n = s.length;
    let p = 0, comp = -1, i = 0;
    const at = (j) => j < n ? CC(s, j) : -1;
    if (at(0) === 58) {
      if (at(1) !== 58) return null;
      i = 2;
      comp = ++p;
    }
    while (i < n) {
      if (p === 8) return null;
      if (at(i) === 58) {
        if (comp >= 0) return null;
        i++;
        comp = ++p;
        continue;
      }
      let v = 0, len = 0, d;
      while (len < 4 && (d = hexVal(at(i))) >= 0) { v = v * 16 + d; i++; len++; }
      if (at(i) === 46) {
        if (len === 0 || p > 6) return null;
        i -= len;
        let seen = 0;
        while (i < n) {
          let piece = -1;
          if (seen > 0) { if (at(i) === 46 && seen < 4) i++; else return null; }
          if (!(at(i) >= 48 && at(i) <= 57)) return null;
          while (at(i) >= 48 && at(i) <= 57) {
            if (piece === 0) return null;
            piece = (piece < 0 ? 0 : piece * 10) + at(i) - 48;
            if (piece > 255) return null;
            i++;
          }
          a[p] = a[p] * 256 + piece;
          seen++;
          if (seen === 2 || seen === 4) p++;
        }
        if (seen !== 4) return null;
        break;
      } else if (at(i) === 58) {
        if (++i === n) return null;
      } else if (i < n) return null;
      a[p++] = v;
    }
    if (comp >= 0) {
      for (let swaps = p - comp, q = 7; q !== 0 && swaps > 0; q--, swaps--) {
        const t = a[q];
        a[q] = a[comp + swaps - 1];
        a[comp + swaps - 1] = t;
      }
    } else if (p !== 8) return null;
    // Serialize, compressing the first longest run of two or more zero pieces.
    let best = -1, bestLen = 1;
    for (let j = 0; j < 8;) {
      let k = j;
      while (k < 8 && a[k] === 0) k++;
      if (k - j > bestLen) { best = j; bestLen = k - j; }
      j = k > j ? k : j + 1;
    }
    let out = '';
    for (let j = 0; j < 8; j++) {
      if (j === best) { out += j ? ':' : '::'; j += bestLen - 1; continue; }
      out += a[j].toString(16) + (j < 7 ? ':' : '');
    }
    return '[' + out + ']';
  }

  const FORBIDDEN_HOST = /[\0\t\n\r #/:<>?@[\\\]^|]/;
  const FORBIDDEN_DOMAIN = /[\0-\x20#%/:<>?@[\\\]^|\x7f]/;
  function parseHost(s, opaque) {
    if (CC(s, 0) === 91) return CC(s, s.length - 1) === 93 ? ipv6(SL(s, 1, -1)) : null;
    if (opaque) return EXEC(FORBIDDEN_HOST, s) === null ? pe(s, 1) : null;
    const d = domainToAscii(pd(s));
    if (!d || EXEC(FORBIDDEN_DOMAIN, d) !== null) return null;
    return endsInNumber(d) ? ipv4(d) : d;
  }

  const SPECIAL = { __proto__: null, ftp: 21, file: -1, http: 80, https: 443, ws: 80, wss: 443 };
  const isAlpha = (c) => (c | 32) >= 97 && (c | 32) <= 122;
  const isDrive = (s) => s.length === 2 && isAlpha(CC(s, 0)) && (CC(s, 1) === 58 || CC(s, 1) === 124);
  const startsWithDrive = (s, i) => {
    const c = i + 2 < s.length ? CC(s, i + 2) : -1;
    return isDrive(SL(s, i, i + 2)) && (c < 0 || c === 47 || c === 92 || c === 63 || c === 35);
  };
  const isNormDrive = (s) => isDrive(s) && CC(s, 1) === 58;
  const isSingleDot = (s) => s === '.' || (s.length === 3 && LC(s) === '%2e');
  const isDoubleDot = (s) => s === '..' || (s.length > 3 && s.length < 7 && ((s = LC(s)) === '.%2e' || s === '%2e.' || s === '%2e%2e'));
  const shorten = (r) => {
    if (!(r.s === 'file' && r.pa.length === 1 && isNormDrive(r.pa[0]))) r.pa.pop();
  };
  const hasCreds = (r) => r.u !== '' || r.pw !== '';
  const newRecord = () => ({ s: '', u: '', pw: '', h: null, p: null, pa: [], q: null, f: null });

  const S_START = 1, S_SCHEME = 2, S_NO_SCHEME = 3, S_SPEC_REL_AUTH = 4, S_PATH_AUTH = 5, S_REL = 6,
    S_REL_SLASH = 7, S_SPEC_AUTH_SLASHES = 8, S_SPEC_AUTH_IGNORE = 9, S_AUTH = 10, S_HOST = 11, S_HOSTNAME = 12,
    S_PORT = 13, S_FILE = 14, S_FILE_SLASH = 15, S_FILE_HOST = 16, S_PATH_START = 17, S_PATH = 18, S_OPAQUE = 19,
    S_QUERY = 20, S_FRAGMENT = 21;

  // The basic URL parser. Returns the record, or null on failure. With `override` it edits `url` in place.
  function parse(input, base, url, override) {
    if (!url) {
      url = newRecord();
      let a = 0, b = input.length;
      while (a < b && CC(input, a) <= 32) a++;
      while (b > a && CC(input, b - 1) <= 32) b--;
      input = SL(input, a, b);
    }
    input = strip(input);
    let state = override || S_START, buf = '', atSeen = false, inBrackets = false, pwSeen = false;
    const n = input.length;
    let special = url.s in SPECIAL;
    for (let i = 0; i <= n; i++) {
      const c = i < n ? CC(input, i) : -1;
      switch (state) {
        case S_START:
          if (isAlpha(c)) { buf += fcc(c | 32); state = S_SCHEME; }
          else if (!override) { state = S_NO_SCHEME; i--; }
          else return null;
          break;
        case S_SCHEME:
          if (isAlpha(c) || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) buf += fcc(c >= 65 && c <= 90 ? c | 32 : c);
          else if (c === 58) {
            if (override) {
              if (special !== (buf in SPECIAL) || (buf === 'file' && (hasCreds(url) || url.p !== null)) ||
                (url.s === 'file' && url.h === '')) return url;
            }
            url.s = buf;
            special = buf in SPECIAL;
            if (override) { if (url.p === SPECIAL[buf]) url.p = null; return url; }
            buf = '';
            if (url.s === 'file') state = S_FILE;
            else if (special && base && base.s === url.s) state = S_SPEC_REL_AUTH;
            else if (special) state = S_SPEC_AUTH_SLASHES;
            else if (i + 1 < n && CC(input, i + 1) === 47) { state = S_PATH_AUTH; i++; }
            else { url.pa = ''; state = S_OPAQUE; }
          } else if (!override) { buf = ''; state = S_NO_SCHEME; i = -1; }
          else return null;
          break;
        case S_NO_SCHEME:
          if (!base || (typeof base.pa === 'string' && c !== 35)) return null;
          if (typeof base.pa === 'string') {
            url.s = base.s; url.pa = base.pa; url.q = base.q; url.f = ''; state = S_FRAGMENT;
          } else { state = base.s === 'file' ? S_FILE : S_REL; i--; }
          break;
        case S_SPEC_REL_AUTH:
          if (c === 47 && i + 1 < n && CC(input, i + 1) === 47) { state = S_SPEC_AUTH_IGNORE; i++; }
          else { state = S_REL; i--; }
          break;
        case S_PATH_AUTH:
          if (c === 47) state = S_AUTH; else { state = S_PATH; i--; }
          break;
        case S_REL:
          url.s = base.s;
          special = url.s in SPECIAL;
          if (c === 47 || (special && c === 92)) state = S_REL_SLASH;
          else {
            url.u = base.u; url.pw = base.pw; url.h = base.h; url.p = base.p; url.pa = SLA(base.pa); url.q = base.q;
            if (c === 63) { url.q = ''; state = S_QUERY; }
            else if (c === 35) { url.f = ''; state = S_FRAGMENT; }
            else if (c >= 0) { url.q = null; shorten(url); state = S_PATH; i--; }
          }
          break;
        case S_REL_SLASH:
          if (special && (c === 47 || c === 92)) state = S_SPEC_AUTH_IGNORE;
          else if (c === 47) state = S_AUTH;
          else { url.u = base.u; url.pw = base.pw; url.h = base.h; url.p = base.p; state = S_PATH; i--; }
          break;
        case S_SPEC_AUTH_SLASHES:
          state = S_SPEC_AUTH_IGNORE;
          if (c === 47 && i + 1 < n && CC(input, i + 1) === 47) i++; else i--;
          break;
        case S_SPEC_AUTH_IGNORE:
          if (c !== 47 && c !== 92) { state = S_AUTH; i--; }
          break;
        case S_AUTH:
          if (c === 64) {
            if (atSeen) buf = '%40' + buf;
            atSeen = true;
            const colon = pwSeen ? -1 : IDX(buf, ':');
            if (pwSeen) url.pw += pe(buf, USER);
            else if (colon < 0) url.u += pe(buf, USER);
            else { url.u += pe(SL(buf, 0, colon), USER); url.pw += pe(SL(buf, colon + 1), USER); pwSeen = true; }
            buf = '';
          } else if (c < 0 || c === 47 || c === 63 || c === 35 || (special && c === 92)) {
            if (atSeen && buf === '') return null;
            i -= buf.length + 1;
            buf = '';
            state = S_HOST;
          } else buf += input[i];
          break;
        case S_HOST:
        case S_HOSTNAME:
          if (override && url.s === 'file') { i--; state = S_FILE_HOST; }
          else if (c === 58 && !inBrackets) {
            if (buf === '' || override === S_HOSTNAME) return null;
            const h = parseHost(buf, !special);
            if (h === null) return null;
            url.h = h; buf = ''; state = S_PORT;
          } else if (c < 0 || c === 47 || c === 63 || c === 35 || (special && c === 92)) {
            i--;
            if (special && buf === '') return null;
            if (override && buf === '' && (hasCreds(url) || url.p !== null)) return null;
            const h = parseHost(buf, !special);
            if (h === null) return null;
            url.h = h; buf = ''; state = S_PATH_START;
            if (override) return url;
          } else {
            if (c === 91) inBrackets = true;
            if (c === 93) inBrackets = false;
            buf += input[i];
          }
          break;
        case S_PORT:
          if (c >= 48 && c <= 57) buf += input[i];
          else if (c < 0 || c === 47 || c === 63 || c === 35 || (special && c === 92) || override) {
            if (buf !== '') {
              const port = +buf;
              if (port > 65535) return null;
              url.p = port === SPECIAL[url.s] ? null : port;
              buf = '';
            }
            if (override) return url;
            state = S_PATH_START; i--;
          } else return null;
          break;
        case S_FILE:
          url.s = 'file'; url.h = ''; special = true;
          if (c === 47 || c === 92) state = S_FILE_SLASH;
          else if (base && base.s === 'file') {
            url.h = base.h; url.pa = SLA(base.pa); url.q = base.q;
            if (c === 63) { url.q = ''; state = S_QUERY; }
            else if (c === 35) { url.f = ''; state = S_FRAGMENT; }
            else if (c >= 0) {
              url.q = null;
              if (!startsWithDrive(input, i)) shorten(url); else url.pa = [];
              state = S_PATH; i--;
            }
          } else { state = S_PATH; i--; }
          break;
        case S_FILE_SLASH:
          if (c === 47 || c === 92) state = S_FILE_HOST;
          else {
            if (base && base.s === 'file') {
              url.h = base.h;
              if (!startsWithDrive(input, i) && isNormDrive(base.pa[0] || '')) PUSH(url.pa, base.pa[0]);
            }
            state = S_PATH; i--;
          }
          break;
        case S_FILE_HOST:
          if (c < 0 || c === 47 || c === 92 || c === 63 || c === 35) {
            i--;
            if (!override && isDrive(buf)) state = S_PATH;
            else if (buf === '') {
              url.h = '';
              if (override) return url;
              state = S_PATH_START;
            } else {
              let h = parseHost(buf, false);
              if (h === null) return null;
              if (h === 'localhost') h = '';
              url.h = h;
              if (override) return url;
              buf = ''; state = S_PATH_START;
            }
          } else buf += input[i];
          break;
        case S_PATH_START:
          if (special) { state = S_PATH; if (c !== 47 && c !== 92) i--; }
          else if (!override && c === 63) { url.q = ''; state = S_QUERY; }
          else if (!override && c === 35) { url.f = ''; state = S_FRAGMENT; }
          else if (c >= 0) { state = S_PATH; if (c !== 47) i--; }
          else if (override && url.h === null) PUSH(url.pa, '');
          break;
        case S_PATH:
          if (c < 0 || c === 47 || (special && c === 92) || (!override && (c === 63 || c === 35))) {
            const slash = c === 47 || (special && c === 92);
            if (isDoubleDot(buf)) { shorten(url); if (!slash) PUSH(url.pa, ''); }
            else if (isSingleDot(buf)) { if (!slash) PUSH(url.pa, ''); }
            else {
              if (url.s === 'file' && url.pa.length === 0 && isDrive(buf)) buf = buf[0] + ':';
              PUSH(url.pa, pe(buf, PATH));
            }
            buf = '';
            if (c === 63) { url.q = ''; state = S_QUERY; }
            if (c === 35) { url.f = ''; state = S_FRAGMENT; }
          } else {
            // Take the whole segment at once: appending code unit by code unit is slow on long paths.
            let j = i + 1, d;
            while (j < n && (d = CC(input, j)) !== 47 && !(special && d === 92) && (override || (d !== 63 && d !== 35))) j++;
            buf += SL(input, i, j);
            i = j - 1;
          }
          break;
        case S_OPAQUE: {
          let j = i, d;
          while (j < n && (d = CC(input, j)) !== 63 && d !== 35) j++;
          url.pa += pe(SL(input, i, j), 1);
          i = j;
          if (j < n) { if (CC(input, j) === 63) { url.q = ''; state = S_QUERY; } else { url.f = ''; state = S_FRAGMENT; } }
          break;
        }
        case S_QUERY: {
          let j = override ? n : IDX(input, '#', i);
          if (j < 0) j = n;
          url.q += pe(SL(input, i, j), special ? SQUERY : QUERY);
          i = j;
          if (j < n) { url.f = ''; state = S_FRAGMENT; }
          break;
        }
        case S_FRAGMENT:
          url.f += pe(SL(input, i), FRAG);
          i = n;
      }
    }
    return url;
  }

  const pathOf = (r) => typeof r.pa === 'string' ? r.pa : r.pa.length ? '/' + JOIN(r.pa, '/') : '';
  function serialize(r) {
    let out = r.s + ':';
    if (r.h !== null) {
      out += '//';
      if (hasCreds(r)) out += r.u + (r.pw !== '' ? ':' + r.pw : '') + '@';
      out += r.h + (r.p !== null ? ':' + r.p : '');
    } else if (typeof r.pa !== 'string' && r.pa.length > 1 && r.pa[0] === '') out += '/.';
    return out + pathOf(r) + (r.q !== null ? '?' + r.q : '') + (r.f !== null ? '#' + r.f : '');
  }
  const noCreds = (r) => r.h === null || r.h === '' || r.s === 'file';
  const stripOpaque = (r) => {
    if (typeof r.pa === 'string' && r.f === null && r.q === null) {
      let n = r.pa.length;
      while (n && CC(r.pa, n - 1) === 32) n--;
      r.pa = SL(r.pa, 0, n);
    }
  };

  const plusToSpace = (s) => IDX(s, '+') < 0 ? s : JOIN(split(s, '+'), ' ');
  function parseForm(s) {
    const list = [];
    for (const part of split(s, '&')) {
      if (part === '') continue;
      const eq = IDX(part, '=');
      PUSH(list, pd(plusToSpace(eq < 0 ? part : SL(part, 0, eq))), pd(eq < 0 ? '' : plusToSpace(SL(part, eq + 1))));
    }
    return list;
  }
  function serializeForm(list) {
    let out = '';
    for (let i = 0; i < list.length; i += 2) {
      out += (i ? '&' : '') + pe(list[i], FORM, true) + '=' + pe(list[i + 1], FORM, true);
    }
    return out;
  }

  const ctorName = (o, dflt) => (o.constructor && o.constructor.name) || dflt;
  const stylize = (opts, s) => opts && typeof opts.stylize === 'function' ? opts.stylize(s, 'special') : s;
  const innerOpts = (depth, opts) => {
    const o = { ...opts };
    if (depth !== null) o.depth = depth - 1;
    return o;
  };

  let paramsList, paramsLink, setQuery;

  class URL {
    #r;
    #sp = null;
    static {
      // Node 20 first removes the old query (which can strip an opaque path's trailing spaces), then sets it.
      setQuery = (url, q) => {
        const r = url.#r;
        if (r.q !== null) { r.q = null; stripOpaque(r); }
        r.q = q;
        if (q === null) stripOpaque(r);
      };
    }
    constructor(input, base = undefined) {
      if (arguments.length === 0) throw missing(['url']);
      input = usv(input);
      let b = null;
      if (base !== undefined) base = usv(base);
      const r = (base === undefined || (b = parse(base, null))) && parse(input, b);
      if (!r) throw fail('ERR_INVALID_URL', 'Invalid URL', base === undefined ? { input } : { input, base }, true);
      this.#r = r;
    }
    static parse(input, base = undefined) {
      if (arguments.length === 0) throw missing(['url']);
      try { return new URL(input, base); } catch (e) { if (e.code === 'ERR_INVALID_URL') return null; throw e; }
    }
    static canParse(input, base = undefined) {
      if (arguments.length === 0) throw missing(['url']);
      input = usv(input);
      let b = null;
      return (base === undefined || !!(b = parse(usv(base), null))) && !!parse(input, b);
    }
    #rec() { return this.#r; }
    #reparams() { if (this.#sp) paramsLink(this.#sp, this.#r.q === null ? [] : parseForm(this.#r.q)); }
    toString() { return serialize(this.#rec()); }
    get href() { return serialize(this.#rec()); }
    set href(v) {
      this.#rec();
      v = usv(v);
      const r = parse(v, null);
      if (!r) throw fail('ERR_INVALID_URL', 'Invalid URL', { input: v });
      this.#r = r;
      this.#reparams();
    }
    get origin() {
      const r = this.#rec();
      if (r.s === 'blob') {
        const inner = typeof r.pa === 'string' ? parse(r.pa, null) : null;
        return inner && (inner.s === 'http' || inner.s === 'https') ? inner.s + '://' + hostOf(inner) : 'null';
      }
      return r.s in SPECIAL && r.s !== 'file' ? r.s + '://' + hostOf(r) : 'null';
    }
    get protocol() { return this.#rec().s + ':'; }
    set protocol(v) { parse(usv(v) + ':', null, this.#rec(), S_START); }
    get username() { return this.#rec().u; }
    set username(v) { const r = this.#rec(); v = usv(v); if (!noCreds(r)) r.u = pe(v, USER); }
    get password() { return this.#rec().pw; }
    set password(v) { const r = this.#rec(); v = usv(v); if (!noCreds(r)) r.pw = pe(v, USER); }
    get host() { return hostOf(this.#rec()); }
    set host(v) { const r = this.#rec(); v = usv(v); if (typeof r.pa !== 'string') parse(v, null, r, S_HOST); }
    get hostname() { const h = this.#rec().h; return h === null ? '' : h; }
    set hostname(v) { const r = this.#rec(); v = usv(v); if (typeof r.pa !== 'string') parse(v, null, r, S_HOSTNAME); }
    get port() { const p = this.#rec().p; return p === null ? '' : '' + p; }
    // Node 20 differs from the spec here: a value starting with a character other than a digit, '-' or a
    // control/space, and holding a digit somewhere, removes the port instead of leaving it unchanged.
    set port(v) {
      const r = this.#rec();
      v = strip(usv(v));
      if (noCreds(r)) return;
      const c = CC(v, 0);
      if (v === '') r.p = null;
      else if (c > 32 && c !== 45 && EXEC(/\d/, v) !== null) {
        if (c >= 48 && c <= 57) parse(v, null, r, S_PORT); else r.p = null;
      }
    }
    get pathname() { return pathOf(this.#rec()); }
    set pathname(v) {
      const r = this.#rec();
      v = usv(v);
      if (typeof r.pa === 'string') return;
      r.pa = [];
      parse(v, null, r, S_PATH_START);
    }
    get search() { const q = this.#rec().q; return q ? '?' + q : ''; }
    set search(v) {
      const r = this.#rec();
      v = usv(v);
      if (v === '') { r.q = null; stripOpaque(r); }
      else { r.q = ''; parse(CC(v, 0) === 63 ? SL(v, 1) : v, null, r, S_QUERY); }
      this.#reparams();
    }
    get searchParams() {
      const r = this.#rec();
      if (!this.#sp) {
        this.#sp = new URLSearchParams();
        paramsLink(this.#sp, r.q === null ? [] : parseForm(r.q), this);
      }
      return this.#sp;
    }
    get hash() { const f = this.#rec().f; return f ? '#' + f : ''; }
    set hash(v) {
      const r = this.#rec();
      v = usv(v);
      if (v === '') { r.f = null; stripOpaque(r); return; }
      r.f = '';
      parse(CC(v, 0) === 35 ? SL(v, 1) : v, null, r, S_FRAGMENT);
    }
    toJSON() { return serialize(this.#rec()); }
    [INSPECT](depth, opts, inspect) {
      if (typeof depth === 'number' && depth < 0) return this;
      const o = {};
      for (const k of ['href', 'origin', 'protocol', 'username', 'password', 'host', 'hostname', 'port',
        'pathname', 'search', 'searchParams', 'hash']) o[k] = this[k];
      return ctorName(this, 'URL') + ' ' + inspect(o, opts);
    }
  }
  const hostOf = (r) => r.h === null ? '' : r.p === null ? r.h : r.h + ':' + r.p;

  const badThis = () => fail('ERR_INVALID_THIS', 'Value of "this" must be of type URLSearchParams');
  const str2 = (a, b) => [usv(a), usv(b)];

  class URLSearchParams {
    #l = [];
    #url = null;
    static {
      paramsList = (p) => { if (!(#l in p)) throw badThis(); return p.#l; };
      paramsLink = (p, list, url) => { p.#l = list; if (url) p.#url = url; };
    }
    constructor(init = undefined) {
      if (init == null) return;
      if (typeof init !== 'object' && typeof init !== 'function') {
        init = usv(init);
        this.#l = parseForm(CC(init, 0) === 63 ? SL(init, 1) : init);
        return;
      }
      const l = this.#l, method = init[ITER];
      if (method != null) {
        if (typeof method !== 'function') throw fail('ERR_ARG_NOT_ITERABLE', 'Query pairs must be iterable');
        for (const pair of init) {
          if ((typeof pair !== 'object' && typeof pair !== 'function') || pair === null ||
            typeof pair[ITER] !== 'function') throw tupleError();
          let k = 0;
          for (const x of pair) { PUSH(l, usv(x)); k++; }
          if (k !== 2) throw tupleError();
        }
      } else {
        const seen = new Map();
        for (const key of ownKeys(init)) {
          const d = gopd(init, key);
          if (d !== undefined && d.enumerable) seen.set(WF('' + key), usv(init[key]));
        }
        for (const [k, v] of seen) PUSH(l, k, v);
      }
    }
    #update() {
      if (!this.#url) return;
      const q = serializeForm(this.#l);
      setQuery(this.#url, q === '' ? null : q);
    }
    get size() { return paramsList(this).length / 2; }
    append(name, value) {
      paramsList(this);
      if (arguments.length < 2) throw missing(['name', 'value']);
      PUSH(this.#l, ...str2(name, value));
      this.#update();
    }
    delete(name, value = undefined) {
      paramsList(this);
      if (arguments.length < 1) throw missing(['name']);
      const l = this.#l, out = [];
      name = usv(name);
      if (value !== undefined) value = usv(value);
      for (let i = 0; i < l.length; i += 2) {
        if (l[i] !== name || (value !== undefined && l[i + 1] !== value)) PUSH(out, l[i], l[i + 1]);
      }
      this.#l = out;
      this.#update();
    }
    get(name) {
      paramsList(this);
      if (arguments.length < 1) throw missing(['name']);
      const l = this.#l;
      name = usv(name);
      for (let i = 0; i < l.length; i += 2) if (l[i] === name) return l[i + 1];
      return null;
    }
    getAll(name) {
      paramsList(this);
      if (arguments.length < 1) throw missing(['name']);
      const l = this.#l, out = [];
      name = usv(name);
      for (let i = 0; i < l.length; i += 2) if (l[i] === name) PUSH(out, l[i + 1]);
      return out;
    }
    has(name, value = undefined) {
      paramsList(this);
      if (arguments.length < 1) throw missing(['name']);
      const l = this.#l;
      name = usv(name);
      if (value !== undefined) value = usv(value);
      for (let i = 0; i < l.length; i += 2) {
        if (l[i] === name && (value === undefined || l[i + 1] === value)) return true;
      }
      return false;
    }
    set(name, value) {
      paramsList(this);
      if (arguments.length < 2) throw missing(['name', 'value']);
      [name, value] = str2(name, value);
      const l = this.#l, out = [];
      let found = false;
      for (let i = 0; i < l.length; i += 2) {
        if (l[i] !== name) PUSH(out, l[i], l[i + 1]);
        else if (!found) { found = true; PUSH(out, name, value); }
      }
      if (!found) PUSH(out, name, value);
      this.#l = out;
      this.#update();
    }
    sort() {
      paramsList(this);
      const l = this.#l, pairs = [];
      for (let i = 0; i < l.length; i += 2) PUSH(pairs, [l[i], l[i + 1]]);
      SORT(pairs, (a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
      this.#l = [];
      for (const [k, v] of pairs) PUSH(this.#l, k, v);
      this.#update();
    }
    entries() { paramsList(this); return new Iter(this, 2); }
    forEach(callback, thisArg = undefined) {
      paramsList(this);
      if (typeof callback !== 'function') {
        throw fail('ERR_INVALID_ARG_TYPE', 'The "callback" argument must be of type function. ' + received(callback));
      }
      for (let i = 0; i < this.#l.length; i += 2) callback.call(thisArg, this.#l[i + 1], this.#l[i], this);
    }
    keys() { paramsList(this); return new Iter(this, 0); }
    values() { paramsList(this); return new Iter(this, 1); }
    toString() { return serializeForm(paramsList(this)); }
    [INSPECT](depth, opts, inspect) {
      paramsList(this);
      if (typeof depth === 'number' && depth < 0) return stylize(opts, '[Object]');
      const io = innerOpts(depth, opts), l = this.#l, out = [];
      let len = -2;
      for (let i = 0; i < l.length; i += 2) {
        const s = inspect(l[i], io) + ' => ' + inspect(l[i + 1], io);
        PUSH(out, s);
        len += s.replace(/\u001b\[\d\d?m/g, '').length + 2;
      }
      const name = ctorName(this, 'URLSearchParams');
      if (len > ((opts && opts.breakLength) || 80)) return name + ' {\n  ' + JOIN(out, ',\n  ') + ' }';
      return out.length ? name + ' { ' + JOIN(out, ', ') + ' }' : name + ' {}';
    }
  }
  const tupleError = () => fail('ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple');

  class Iter {
    #t;
    #k;
    #i = 0;
    constructor(t, k) { this.#t = t; this.#k = k; }
    next() {
      if (!(#t in this)) throw fail('ERR_INVALID_THIS', 'Value of "this" must be of type URLSearchParamsIterator');
      const l = paramsList(this.#t), i = this.#i;
      if (i >= l.length) return { value: undefined, done: true };
      this.#i = i + 2;
      return { value: this.#k === 0 ? l[i] : this.#k === 1 ? l[i + 1] : [l[i], l[i + 1]], done: false };
    }
    [INSPECT](depth, opts, inspect) {
      if (!(#t in this)) throw fail('ERR_INVALID_THIS', 'Value of "this" must be of type URLSearchParamsIterator');
      if (typeof depth === 'number' && depth < 0) return stylize(opts, '[Object]');
      const io = innerOpts(depth, opts), l = paramsList(this.#t), items = [];
      for (let i = this.#i; i < l.length; i += 2) {
        PUSH(items, this.#k === 0 ? l[i] : this.#k === 1 ? l[i + 1] : [l[i], l[i + 1]]);
      }
      const strs = MAP(items, (x) => inspect(x, io));
      const br = IDX(inspect(items, io), '\n') >= 0;
      return 'URLSearchParams Iterator {' + (br ? '\n  ' + JOIN(strs, ',\n  ') : ' ' + JOIN(strs, ', ')) + ' }';
    }
  }

  // Web IDL shape: methods and accessors enumerable, @@toStringTag a read-only data property.
  const webIdl = (proto, tag) => {
    for (const k of ownKeys(proto)) {
      if (k !== 'constructor' && typeof k === 'string') defProp(proto, k, { enumerable: true });
    }
    defProp(proto, TAG, { value: tag, configurable: true });
  };
  webIdl(URL.prototype, 'URL');
  webIdl(URLSearchParams.prototype, 'URLSearchParams');
  for (const k of ['parse', 'canParse']) defProp(URL, k, { enumerable: true });
  defProp(URLSearchParams.prototype, ITER, { value: URLSearchParams.prototype.entries, writable: true, configurable: true });
  Object.setPrototypeOf(Iter.prototype, Object.getPrototypeOf(Object.getPrototypeOf([][ITER]())));
  defProp(Iter.prototype, TAG, { value: 'URLSearchParams Iterator', configurable: true });
  defProp(Iter.prototype, 'next', { enumerable: true });
  delete Iter.prototype.constructor;
  return { URL, URLSearchParams };
})
