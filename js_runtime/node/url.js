// module: url
// globals:
// requires: querystring path internal/errors
(function (host) {
  'use strict';
  // Node's url module: URL and URLSearchParams are the runtime's web globals; fileURLToPath and
  // pathToFileURL work with POSIX paths; and the legacy API (url.parse, url.format,
  // url.resolve), which code written for Node still uses, gives the Url objects Node gives,
  // field by field, with its leniencies (backslashes, spaces escaped into the path, an
  // invalid port moved into the path with Node's deprecation warning).
  const querystring = host.require('querystring');
  const path = host.require('path');
  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const apply = Reflect.apply;
  const setPrototypeOf = Object.setPrototypeOf;
  const create = Object.create;
  const objectKeys = Object.keys;
  const charCodeAt = uncurry(String.prototype.charCodeAt);
  const stringSlice = uncurry(String.prototype.slice);
  const indexOf = uncurry(String.prototype.indexOf);
  const lastIndexOf = uncurry(String.prototype.lastIndexOf);
  const toLowerCase = uncurry(String.prototype.toLowerCase);
  const normalize = uncurry(String.prototype.normalize);
  const includes = uncurry(String.prototype.includes);
  const regExpExec = uncurry(RegExp.prototype.exec);
  // RegExp.prototype.test looks up `exec` on the expression; the original exec does not.
  const regExpTest = (re, text) => regExpExec(re, text) !== null;
  const encodeComponent = encodeURIComponent;
  const decodeComponent = decodeURIComponent;
  const fromCharCode = String.fromCharCode;
  const TypeErrorCtor = TypeError;
  const MathFloor = Math.floor;
  const NumberCtor = Number;

  const { codedError, invalidArgType } = host.require('internal/errors');

  function invalidUrl(input) {
    const error = codedError(TypeErrorCtor, 'ERR_INVALID_URL', 'Invalid URL');
    error.input = input;
    return error;
  }

  // The web globals, compiled when first read (their sources come with code that names them).
  function web(name) {
    return host.global(name);
  }

  let warnedPort = false;
  function warnInvalid(input) {
    if (warnedPort) return;
    warnedPort = true;
    host.warn('DeprecationWarning', 'The URL ' + input + ' is invalid. Future versions of Node.js will throw an error.',
      'DEP0170');
  }

  // ---- Punycode (RFC 3492), for host names outside ASCII.

  const BASE = 36;
  const digitOf = (d) => fromCharCode(d < 26 ? 97 + d : 22 + d);

  function adapt(delta, count, first) {
    delta = first ? MathFloor(delta / 700) : delta >> 1;
    delta += MathFloor(delta / count);
    let k = 0;
    while (delta > 455) {
      delta = MathFloor(delta / 35);
      k += BASE;
    }
    return k + MathFloor(36 * delta / (delta + 38));
  }

  function codePoints(text) {
    const points = setPrototypeOf([], null);
    for (let i = 0; i < text.length; i++) {
      const code = charCodeAt(text, i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
        const low = charCodeAt(text, i + 1);
        if ((low & 0xfc00) === 0xdc00) {
          points[points.length] = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i++;
          continue;
        }
      }
      points[points.length] = code;
    }
    return points;
  }

  function punycodeEncode(label) {
    const points = codePoints(label);
    let output = '';
    for (let i = 0; i < points.length; i++) {
      if (points[i] < 0x80) output += fromCharCode(points[i]);
    }
    const basic = output.length;
    let handled = basic;
    if (basic > 0) output += '-';
    let n = 128;
    let delta = 0;
    let bias = 72;
    while (handled < points.length) {
      let next = 0x7fffffff;
      for (let i = 0; i < points.length; i++) {
        if (points[i] >= n && points[i] < next) next = points[i];
      }
      delta += (next - n) * (handled + 1);
      n = next;
      for (let i = 0; i < points.length; i++) {
        if (points[i] < n) delta++;
        if (points[i] !== n) continue;
        let q = delta;
        for (let k = BASE; ; k += BASE) {
          const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
          if (q < t) break;
          output += digitOf(t + (q - t) % (BASE - t));
          q = MathFloor((q - t) / (BASE - t));
        }
        output += digitOf(q);
        bias = adapt(delta, handled + 1, handled === basic);
        delta = 0;
        handled++;
      }
      delta++;
      n++;
    }
    return output;
  }

  function punycodeDecode(text) {
    const points = setPrototypeOf([], null);
    let at = lastIndexOf(text, '-');
    if (at < 0) at = 0;
    for (let i = 0; i < at; i++) points[points.length] = charCodeAt(text, i);
    let n = 128;
    let bias = 72;
    let i = 0;
    for (let index = at > 0 ? at + 1 : 0; index < text.length;) {
      const old = i;
      let w = 1;
      for (let k = BASE; ; k += BASE) {
        if (index >= text.length) return undefined;
        const code = charCodeAt(text, index++);
        const digit = code - 48 < 10 ? code - 22 : code - 65 < 26 ? code - 65 : code - 97 < 26 ? code - 97 : BASE;
        if (digit >= BASE) return undefined;
        i += digit * w;
        const t = k <= bias ? 1 : k >= bias + 26 ? 26 : k - bias;
        if (digit < t) break;
        w *= BASE - t;
      }
      const count = points.length + 1;
      bias = adapt(i - old, count, old === 0);
      n += MathFloor(i / count);
      i %= count;
      for (let j = points.length; j > i; j--) points[j] = points[j - 1];
      points[i++] = n;
    }
    let out = '';
    for (let j = 0; j < points.length; j++) {
      const point = points[j];
      if (point > 0xffff) {
        out += fromCharCode(0xd800 + ((point - 0x10000) >> 10), 0xdc00 + ((point - 0x10000) & 0x3ff));
      } else out += fromCharCode(point);
    }
    return out;
  }

  function isAscii(text) {
    for (let i = 0; i < text.length; i++) {
      if (charCodeAt(text, i) > 0x7f) return false;
    }
    return true;
  }

  // A host name in ASCII, as url.parse writes it: the web URL parser's mapping when it is
  // loaded, else NFC and punycode for each label outside ASCII.
  function hostToAscii(name) {
    const cut = indexOf(name, '\u0000');
    if (cut !== -1) name = stringSlice(name, 0, cut);
    name = removeTabs(name);
    if (isAscii(name)) return name;
    try {
      return new (web('URL'))('ws://' + name + '/').hostname;
    } catch {
      // the web URL is not loaded for this run, or rejects the name
    }
    const labels = splitOn(normalize(name, 'NFC'), '.');
    let out = '';
    for (let i = 0; i < labels.length; i++) {
      const label = labels[i];
      out += (i === 0 ? '' : '.') + (isAscii(label) ? label : 'xn--' + punycodeEncode(label));
    }
    return out;
  }

  function removeTabs(text) {
    let out = '';
    for (let i = 0; i < text.length; i++) {
      const code = charCodeAt(text, i);
      if (code !== 9 && code !== 10 && code !== 13) out += text[i];
    }
    return out;
  }

  function splitOn(text, separator) {
    const parts = setPrototypeOf([], null);
    let start = 0;
    for (;;) {
      const at = indexOf(text, separator, start);
      if (at === -1) break;
      parts[parts.length] = stringSlice(text, start, at);
      start = at + separator.length;
    }
    parts[parts.length] = stringSlice(text, start);
    return parts;
  }

  function domainToASCII(domain) {
    const text = '' + domain;
    if (regExpTest(/[/?#@\\\s]/, text)) return '';
    try {
      return new (web('URL'))('ws://' + text + '/').hostname;
    } catch {
      return '';
    }
  }

  function domainToUnicode(domain) {
    const ascii = domainToASCII(domain);
    if (ascii === '' && ('' + domain) !== '') return '';
    const labels = splitOn(ascii, '.');
    let out = '';
    for (let i = 0; i < labels.length; i++) {
      const label = labels[i];
      const decoded = stringSlice(label, 0, 4) === 'xn--' ? punycodeDecode(stringSlice(label, 4)) : label;
      if (decoded === undefined) return '';
      out += (i === 0 ? '' : '.') + decoded;
    }
    return out;
  }

  // ---- The legacy Url object.

  function Url() {
    this.protocol = null;
    this.slashes = null;
    this.auth = null;
    this.host = null;
    this.port = null;
    this.hostname = null;
    this.hash = null;
    this.search = null;
    this.query = null;
    this.pathname = null;
    this.path = null;
    this.href = null;
  }

  const HOSTLESS = { __proto__: null, 'javascript': true, 'javascript:': true };
  const SLASHED = {
    __proto__: null, 'http': true, 'http:': true, 'https': true, 'https:': true, 'ftp': true, 'ftp:': true,
    'gopher': true, 'gopher:': true, 'file': true, 'file:': true, 'ws': true, 'ws:': true, 'wss': true, 'wss:': true,
  };
  const PATH_ONLY = /^(\/(?!\/\/)[^?\s]*)(\?\S*)?$/;
  const PROTOCOL = /^[a-z0-9.+-]+:/i;
  const USER_AT_HOST = /^\/\/[^@/]+@[^@/]+/;
  const PORT = /:[0-9]*$/;
  const FORBIDDEN_HOST = /[\0\t\n\r #%/:<>?@[\\\]^|]/;
  const FORBIDDEN_IPV6 = /[\0\t\n\r #%/<>?@\\^|]/;
  const MAX_HOST_LENGTH = 255;
  // Characters url.parse escapes wherever they are after the host.
  const ESCAPED = { __proto__: null, 9: '%09', 10: '%0A', 13: '%0D', 32: '%20', 34: '%22', 39: '%27', 60: '%3C',
    62: '%3E', 92: '%5C', 94: '%5E', 96: '%60', 123: '%7B', 124: '%7C', 125: '%7D' };
  // Characters that end a host name without ending the host part (which an '@' may still extend).
  const NOT_HOST = { __proto__: null, 32: true, 34: true, 37: true, 39: true, 59: true, 60: true, 62: true,
    92: true, 94: true, 96: true, 123: true, 124: true, 125: true };

  function isSpace(code) {
    return code < 33 || code === 0xa0 || code === 0xfeff;
  }

  function escapeAfterHost(text) {
    let out = '';
    let last = 0;
    for (let i = 0; i < text.length; i++) {
      const escaped = ESCAPED[charCodeAt(text, i)];
      if (escaped === undefined) continue;
      out += stringSlice(text, last, i) + escaped;
      last = i + 1;
    }
    return last === 0 ? text : out + stringSlice(text, last);
  }

  function urlParse(input, parseQueryString, slashesDenoteHost) {
    if (input instanceof Url) return input;
    const result = new Url();
    result.parse(input, parseQueryString, slashesDenoteHost);
    return result;
  }

  Url.prototype.parse = function parse(input, parseQueryString, slashesDenoteHost) {
    if (typeof input !== 'string') throw invalidArgType('url', 'of type string', input);
    // Trim, and turn backslashes before the query or fragment into slashes, as browsers do.
    let start = 0;
    let end = input.length;
    while (start < end && isSpace(charCodeAt(input, start))) start++;
    while (end > start && isSpace(charCodeAt(input, end - 1))) end--;
    let rest = '';
    let last = start;
    let split = false;
    let hasHash = false;
    let hasAt = false;
    for (let i = start; i < end; i++) {
      const code = charCodeAt(input, i);
      if (split) {
        if (code === 35) hasHash = true;
      } else if (code === 64) {
        hasAt = true;
      } else if (code === 35 || code === 63) {
        hasHash = code === 35;
        split = true;
      } else if (code === 92) {
        rest += stringSlice(input, last, i) + '/';
        last = i + 1;
      }
    }
    rest += stringSlice(input, last, end);

    if (!slashesDenoteHost && !hasHash && !hasAt) {
      const simple = regExpExec(PATH_ONLY, rest);
      if (simple !== null) {
        this.path = rest;
        this.href = rest;
        this.pathname = simple[1];
        if (simple[2]) {
          this.search = simple[2];
          this.query = parseQueryString ? querystring.parse(stringSlice(simple[2], 1)) : stringSlice(simple[2], 1);
        } else if (parseQueryString) {
          this.search = null;
          this.query = create(null);
        }
        return this;
      }
    }

    const protocolMatch = regExpExec(PROTOCOL, rest);
    let protocol;
    let lowerProtocol;
    if (protocolMatch !== null) {
      protocol = protocolMatch[0];
      lowerProtocol = toLowerCase(protocol);
      this.protocol = lowerProtocol;
      rest = stringSlice(rest, protocol.length);
    }

    let slashes = false;
    if (slashesDenoteHost || protocol || regExpTest(USER_AT_HOST, rest)) {
      slashes = charCodeAt(rest, 0) === 47 && charCodeAt(rest, 1) === 47;
      if (slashes && !(protocol && HOSTLESS[lowerProtocol])) {
        rest = stringSlice(rest, 2);
        this.slashes = true;
      }
    }

    if (!HOSTLESS[lowerProtocol] && (slashes || (protocol && !SLASHED[protocol]))) {
      rest = this._parseHostPart(rest, input);
    }

    if (!HOSTLESS[lowerProtocol]) rest = escapeAfterHost(rest);

    let question = -1;
    let hash = -1;
    for (let i = 0; i < rest.length; i++) {
      const code = charCodeAt(rest, i);
      if (code === 35) {
        this.hash = stringSlice(rest, i);
        hash = i;
        break;
      }
      if (code === 63 && question === -1) question = i;
    }
    if (question !== -1) {
      this.search = stringSlice(rest, question, hash === -1 ? rest.length : hash);
      this.query = stringSlice(this.search, 1);
      if (parseQueryString) this.query = querystring.parse(this.query);
    } else if (parseQueryString) {
      this.search = null;
      this.query = create(null);
    }
    const first = question !== -1 && (hash === -1 || question < hash) ? question : hash;
    if (first === -1) {
      if (rest.length > 0) this.pathname = rest;
    } else if (first > 0) {
      this.pathname = stringSlice(rest, 0, first);
    }
    if (SLASHED[lowerProtocol] && this.hostname && !this.pathname) this.pathname = '/';
    if (this.pathname || this.search) this.path = (this.pathname || '') + (this.search || '');
    this.href = this.format();
    return this;
  };

  // Takes the auth, host name and port off the front of `rest` and returns what follows.
  defineHidden(Url.prototype, '_parseHostPart', function (rest, input) {
    // The host ends at the first '/', '?' or '#'; an '@' before that starts it again.
    let hostEnd = -1;
    let at = -1;
    let stop = -1;
    for (let i = 0; i < rest.length && hostEnd === -1; i++) {
      const code = charCodeAt(rest, i);
      if (code === 35 || code === 47 || code === 63) {
        if (stop === -1) stop = i;
        hostEnd = i;
      } else if (code === 64) {
        at = i;
        stop = -1;
      } else if (NOT_HOST[code] && stop === -1) {
        stop = i;
      }
    }
    let from = 0;
    if (at !== -1) {
      this.auth = removeTabs(decodeComponent(stringSlice(rest, 0, at)));
      from = at + 1;
    }
    if (stop === -1) {
      this.host = stringSlice(rest, from);
      rest = '';
    } else {
      this.host = stringSlice(rest, from, stop);
      rest = stringSlice(rest, stop);
    }
    this.parseHost();
    if (typeof this.hostname !== 'string') this.hostname = '';
    const hostname = this.hostname;
    const ipv6 = isBracketed(hostname);
    if (!ipv6) {
      // A character that cannot be in a host name starts the path instead (Node warns when
      // it is the ':' of a port that is not a number).
      for (let i = 0; i < hostname.length; i++) {
        const code = charCodeAt(hostname, i);
        if (code === 47 || code === 92 || code === 35 || code === 63 || code === 58) {
          if (code === 58) warnInvalid(input);
          this.hostname = stringSlice(hostname, 0, i);
          rest = '/' + stringSlice(hostname, i) + rest;
          break;
        }
      }
    }
    this.hostname = this.hostname.length > MAX_HOST_LENGTH ? '' : toLowerCase(this.hostname);
    if (this.hostname !== '') {
      if (!ipv6) this.hostname = hostToAscii(this.hostname);
      if ((ipv6 && regExpTest(FORBIDDEN_IPV6, this.hostname)) ||
          (!ipv6 && (this.hostname === '' || regExpTest(FORBIDDEN_HOST, this.hostname)))) {
        throw invalidUrl(input);
      }
    }
    this.host = (this.hostname || '') + (this.port ? ':' + this.port : '');
    if (ipv6) {
      this.hostname = stringSlice(this.hostname, 1, -1);
      if (rest[0] !== '/') rest = '/' + rest;
    }
    return rest;
  });

  function defineHidden(object, key, value) {
    Object.defineProperty(object, key, { value, writable: true, configurable: true, enumerable: false });
  }

  function isBracketed(name) {
    return charCodeAt(name, 0) === 91 && charCodeAt(name, name.length - 1) === 93;
  }

  Url.prototype.format = function format() {
    let auth = this.auth || '';
    if (auth) auth = escapeAuth(auth) + '@';
    let protocol = this.protocol || '';
    let pathname = this.pathname || '';
    let hash = this.hash || '';
    let hostText = '';
    let query = '';
    if (this.host) {
      hostText = auth + this.host;
    } else if (this.hostname) {
      hostText = auth + (includes(this.hostname, ':') && !isBracketed(this.hostname) ? '[' + this.hostname + ']' :
        this.hostname);
      if (this.port) hostText += ':' + this.port;
    }
    if (this.query !== null && typeof this.query === 'object') query = querystring.stringify(this.query);
    let search = this.search || (query && '?' + query) || '';
    if (protocol && charCodeAt(protocol, protocol.length - 1) !== 58) protocol += ':';
    pathname = escapeChars(pathname, true);
    if (this.slashes || SLASHED[protocol]) {
      if (this.slashes || hostText) {
        if (pathname && charCodeAt(pathname, 0) !== 47) pathname = '/' + pathname;
        hostText = '//' + hostText;
      } else if (stringSlice(protocol, 0, 4) === 'file') {
        hostText = '//';
      }
    }
    search = escapeChars(search, false);
    if (hash && charCodeAt(hash, 0) !== 35) hash = '#' + hash;
    if (search && charCodeAt(search, 0) !== 63) search = '?' + search;
    return protocol + hostText + pathname + search + hash;
  };

  // '#' (and '?', in a path) written as escapes.
  function escapeChars(text, question) {
    let out = '';
    let last = 0;
    for (let i = 0; i < text.length; i++) {
      const code = charCodeAt(text, i);
      if (code !== 35 && !(question && code === 63)) continue;
      out += stringSlice(text, last, i) + (code === 35 ? '%23' : '%3F');
      last = i + 1;
    }
    return last === 0 ? text : out + stringSlice(text, last);
  }

  function escapeAuth(auth) {
    const encoded = encodeComponent(auth);
    let out = '';
    let last = 0;
    for (let at = indexOf(encoded, '%3A'); at !== -1; at = indexOf(encoded, '%3A', last)) {
      out += stringSlice(encoded, last, at) + ':';
      last = at + 3;
    }
    return out + stringSlice(encoded, last);
  }

  Url.prototype.resolve = function resolve(relative) {
    return this.resolveObject(urlParse(relative, false, true)).format();
  };

  Url.prototype.resolveObject = function resolveObject(relative) {
    if (typeof relative === 'string') relative = urlParse(relative, false, true);
    const result = new Url();
    copyFields(result, this, undefined);
    result.hash = relative.hash;
    if (relative.href === '') {
      result.href = result.format();
      return result;
    }
    if (relative.slashes && !relative.protocol) {
      // '//host/path' keeps only the protocol.
      copyFields(result, relative, 'protocol');
      if (SLASHED[result.protocol] && result.hostname && !result.pathname) result.path = result.pathname = '/';
      result.href = result.format();
      return result;
    }
    if (relative.protocol && relative.protocol !== result.protocol) {
      return resolveOtherProtocol(result, relative);
    }
    return resolvePath(result, relative);
  };

  function copyFields(target, source, skipped) {
    const keys = objectKeys(source);
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] !== skipped) target[keys[i]] = source[keys[i]];
    }
  }

  function finish(result) {
    if (result.pathname || result.search) result.path = (result.pathname || '') + (result.search || '');
    result.href = result.format();
    return result;
  }

  function resolveOtherProtocol(result, relative) {
    if (!SLASHED[relative.protocol]) {
      copyFields(result, relative, undefined);
      result.href = result.format();
      return result;
    }
    result.protocol = relative.protocol;
    if (!relative.host && !regExpTest(/^file:?$/, relative.protocol) && !HOSTLESS[relative.protocol]) {
      // 'https:g' takes the first segment of its path that is not empty as the host.
      const segments = splitOn(relative.pathname || '', '/');
      let index = 0;
      while (index < segments.length) {
        relative.host = segments[index++];
        if (relative.host) break;
      }
      if (!relative.host) relative.host = '';
      if (!relative.hostname) relative.hostname = '';
      const kept = setPrototypeOf([], null);
      for (let i = index; i < segments.length; i++) kept[kept.length] = segments[i];
      if (kept[0] !== '') unshiftList(kept, '');
      if (kept.length < 2) unshiftList(kept, '');
      result.pathname = joinFrom(kept, 0);
    } else {
      result.pathname = relative.pathname;
    }
    result.search = relative.search;
    result.query = relative.query;
    result.host = relative.host || '';
    result.auth = relative.auth;
    result.hostname = relative.hostname || relative.host;
    result.port = relative.port;
    result.slashes = result.slashes || relative.slashes;
    return finish(result);
  }

  function joinFrom(segments, start) {
    let text = '';
    for (let i = start; i < segments.length; i++) text += (i === start ? '' : '/') + segments[i];
    return text;
  }

  function segmentsOf(pathname) {
    return pathname ? splitOn(pathname, '/') : setPrototypeOf([], null);
  }

  // The host of a URL without slashes (mailto:, news:) lives in its first path segment while
  // paths are resolved, and the auth can end up in it.
  function takeHost(result, segments) {
    const first = segments.length > 0 ? segments[0] : undefined;
    result.hostname = result.host = first;
    if (first !== undefined) shiftList(segments);
    if (result.host && indexOf(result.host, '@') > 0) {
      const parts = splitOn(result.host, '@');
      result.auth = parts[0];
      result.host = result.hostname = parts[1];
    }
  }

  function shiftList(items) {
    for (let i = 1; i < items.length; i++) items[i - 1] = items[i];
    items.length--;
  }

  function unshiftList(items, value) {
    for (let i = items.length; i > 0; i--) items[i] = items[i - 1];
    items[0] = value;
  }

  function resolvePath(result, relative) {
    const sourceAbsolute = result.pathname && result.pathname[0] === '/';
    const relativeAbsolute = relative.host || (relative.pathname && relative.pathname[0] === '/');
    let mustEndAbsolute = relativeAbsolute || sourceAbsolute || (result.host && relative.pathname);
    const removeAllDots = mustEndAbsolute;
    let source = segmentsOf(result.pathname);
    const target = segmentsOf(relative.pathname);
    const noSlashes = result.protocol && !SLASHED[result.protocol];
    if (noSlashes) {
      result.hostname = '';
      result.port = null;
      if (result.host) {
        if (source[0] === '') source[0] = result.host;
        else unshiftList(source, result.host);
      }
      result.host = '';
      if (relative.protocol) {
        relative.hostname = null;
        relative.port = null;
        if (relative.host) {
          if (target[0] === '') target[0] = relative.host;
          else unshiftList(target, relative.host);
        }
        relative.host = null;
      }
      mustEndAbsolute = mustEndAbsolute && (target[0] === '' || source[0] === '');
    }
    if (relativeAbsolute) {
      if (relative.host || relative.host === '') {
        if (result.host !== relative.host) result.auth = null;
        result.host = relative.host;
        result.port = relative.port;
      }
      if (relative.hostname || relative.hostname === '') {
        if (result.hostname !== relative.hostname) result.auth = null;
        result.hostname = relative.hostname;
      }
      result.search = relative.search;
      result.query = relative.query;
      source = target;
    } else if (target.length > 0) {
      // The last segment of the base is replaced by the relative path.
      if (source.length > 0) source.length--;
      for (let i = 0; i < target.length; i++) source[source.length] = target[i];
      result.search = relative.search;
      result.query = relative.query;
    } else if (relative.search !== null && relative.search !== undefined) {
      if (noSlashes) takeHost(result, source);
      result.search = relative.search;
      result.query = relative.query;
      if (result.pathname !== null || result.search !== null) {
        result.path = (result.pathname ? result.pathname : '') + (result.search ? result.search : '');
      }
      result.href = result.format();
      return result;
    }
    if (source.length === 0) {
      result.pathname = null;
      result.path = result.search ? '/' + result.search : null;
      result.href = result.format();
      return result;
    }
    // A path ending in '.' or '..' keeps a trailing slash; one ending in a name does not.
    let last = source[source.length - 1];
    const trailingSlash = ((result.host || relative.host || source.length > 1) && (last === '.' || last === '..')) ||
      last === '';
    let up = 0;
    for (let i = source.length - 1; i >= 0; i--) {
      last = source[i];
      if (last === '.') {
        removeAt(source, i);
      } else if (last === '..') {
        removeAt(source, i);
        up++;
      } else if (up) {
        removeAt(source, i);
        up--;
      }
    }
    if (!mustEndAbsolute && !removeAllDots) {
      while (up--) unshiftList(source, '..');
    }
    if (mustEndAbsolute && source[0] !== '' && (!source[0] || source[0][0] !== '/')) unshiftList(source, '');
    if (trailingSlash && stringSlice(joinFrom(source, 0), -1) !== '/') source[source.length] = '';
    const absolute = source[0] === '' || (source[0] && source[0][0] === '/');
    if (noSlashes) {
      if (absolute) {
        result.hostname = result.host = '';
      } else {
        takeHost(result, source);
        if (result.host === undefined) result.hostname = result.host = '';
      }
    }
    mustEndAbsolute = mustEndAbsolute || (result.host && source.length);
    if (mustEndAbsolute && !absolute) unshiftList(source, '');
    if (source.length > 0) {
      result.pathname = joinFrom(source, 0);
    } else {
      result.pathname = null;
      result.path = null;
    }
    if (result.pathname !== null || result.search !== null) {
      result.path = (result.pathname ? result.pathname : '') + (result.search ? result.search : '');
    }
    result.auth = relative.auth || result.auth;
    result.slashes = result.slashes || relative.slashes;
    result.href = result.format();
    return result;
  }

  function removeAt(items, index) {
    for (let i = index + 1; i < items.length; i++) items[i - 1] = items[i];
    items.length--;
  }

  Url.prototype.parseHost = function parseHost() {
    let text = this.host;
    const port = regExpExec(PORT, text);
    if (port !== null) {
      const digits = port[0];
      if (digits !== ':') this.port = stringSlice(digits, 1);
      text = stringSlice(text, 0, text.length - digits.length);
    }
    if (text) this.hostname = text;
  };

  // ---- The module's functions.

  // What Node takes for a URL object: an object with an href and a protocol but none of a
  // legacy Url's fields.
  function isURL(value) {
    return value !== null && typeof value === 'object' && typeof value.href === 'string' &&
      typeof value.protocol === 'string' && value.auth === undefined && value.path === undefined;
  }

  function isWebURL(value) {
    try {
      return value instanceof web('URL');
    } catch {
      return false;
    }
  }

  function urlFormat(urlObject, options) {
    if (typeof urlObject === 'string') {
      urlObject = urlParse(urlObject);
    } else if (typeof urlObject !== 'object' || urlObject === null) {
      throw invalidArgType('urlObject', 'one of type object or string', urlObject);
    } else if (isWebURL(urlObject)) {
      let fragment = true;
      let unicode = false;
      let search = true;
      let auth = true;
      if (options !== undefined) {
        if (options === null || typeof options !== 'object') throw invalidArgType('options', 'of type object', options);
        if (options.fragment != null) fragment = Boolean(options.fragment);
        if (options.unicode != null) unicode = Boolean(options.unicode);
        if (options.search != null) search = Boolean(options.search);
        if (options.auth != null) auth = Boolean(options.auth);
      }
      const copy = new (web('URL'))(urlObject.href);
      if (!fragment) copy.hash = '';
      if (!search) copy.search = '';
      if (!auth) {
        copy.username = '';
        copy.password = '';
      }
      let href = copy.href;
      if (unicode && copy.hostname) {
        const at = indexOf(href, copy.hostname, copy.protocol.length);
        href = stringSlice(href, 0, at) + domainToUnicode(copy.hostname) + stringSlice(href, at + copy.hostname.length);
      }
      return href;
    }
    return apply(Url.prototype.format, urlObject, []);
  }

  function fileURLToPath(input) {
    const URLClass = web('URL');
    let target = input;
    if (typeof input === 'string') target = new URLClass(input);
    else if (!isURL(input)) {
      throw invalidArgType('path', 'of type string or an instance of URL', input);
    }
    if (target.protocol !== 'file:') {
      throw codedError(TypeErrorCtor, 'ERR_INVALID_URL_SCHEME', 'The URL must be of scheme file');
    }
    if (target.hostname !== '') {
      throw codedError(TypeErrorCtor, 'ERR_INVALID_FILE_URL_HOST',
        'File URL host must be "localhost" or empty on linux');
    }
    const pathname = target.pathname;
    for (let i = 0; i + 2 < pathname.length; i++) {
      if (pathname[i] === '%' && pathname[i + 1] === '2' && (pathname[i + 2] === 'f' || pathname[i + 2] === 'F')) {
        throw codedError(TypeErrorCtor, 'ERR_INVALID_FILE_URL_PATH',
          'File URL path must not include encoded / characters');
      }
    }
    return decodeComponent(pathname);
  }

  const FILE_PATH_ESCAPES = { __proto__: null, 37: '%25', 92: '%5C', 10: '%0A', 13: '%0D', 9: '%09', 35: '%23',
    63: '%3F' };

  function pathToFileURL(filepath) {
    if (typeof filepath !== 'string') throw invalidArgType('path', 'of type string', filepath);
    let resolved = path.resolve(filepath);
    // resolve() drops a trailing slash, which a directory's URL keeps.
    if (charCodeAt(filepath, filepath.length - 1) === 47 && resolved[resolved.length - 1] !== '/') resolved += '/';
    let escaped = '';
    let last = 0;
    for (let i = 0; i < resolved.length; i++) {
      const replacement = FILE_PATH_ESCAPES[charCodeAt(resolved, i)];
      if (replacement === undefined) continue;
      escaped += stringSlice(resolved, last, i) + replacement;
      last = i + 1;
    }
    escaped += stringSlice(resolved, last);
    return new (web('URL'))('file://' + escaped);
  }

  function urlToHttpOptions(target) {
    const hostname = target.hostname;
    const options = {
      __proto__: null,
      ...target,
      protocol: target.protocol,
      hostname: hostname && hostname[0] === '[' ? stringSlice(hostname, 1, -1) : hostname,
      hash: target.hash,
      search: target.search,
      pathname: target.pathname,
      path: (target.pathname || '') + (target.search || ''),
      href: target.href,
    };
    if (target.port !== '') options.port = NumberCtor(target.port);
    if (target.username || target.password) {
      options.auth = decodeComponent(target.username) + ':' + decodeComponent(target.password);
    }
    return options;
  }

  const exports = {
    Url,
    parse: urlParse,
    resolve: (source, relative) => urlParse(source, false, true).resolve(relative),
    resolveObject: (source, relative) => (source ? urlParse(source, false, true).resolveObject(relative) : relative),
    format: urlFormat,
    URL: undefined,
    URLSearchParams: undefined,
    domainToASCII,
    domainToUnicode,
    pathToFileURL,
    fileURLToPath,
    urlToHttpOptions,
  };
  setName(exports.resolve, 'urlResolve');
  setName(exports.resolveObject, 'urlResolveObject');

  function setName(fn, name) {
    Object.defineProperty(fn, 'name', { value: name, configurable: true });
  }

  // URL and URLSearchParams are the web globals: the same classes when they are loaded, else
  // read when first used.
  const lazy = ['URL', 'URLSearchParams'];
  for (let i = 0; i < lazy.length; i++) {
    const name = lazy[i];
    let value;
    try {
      value = web(name);
    } catch {
      value = undefined;
    }
    if (value !== undefined) {
      exports[name] = value;
      continue;
    }
    Object.defineProperty(exports, name, { get: () => web(name), set: (next) => {
      Object.defineProperty(exports, name, { value: next, writable: true, enumerable: true, configurable: true });
    }, enumerable: true, configurable: true });
  }
  return exports;
})
