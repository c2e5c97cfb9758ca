// module: path
// globals:
// requires: internal/errors
(function (host) {
  'use strict';
  // Node's path module for POSIX paths, with the sandbox's working directory `/` (what
  // resolve() starts from). path.posix is the module itself; path.win32 is not provided:
  // the sandbox has no Windows paths to work with.
  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const slice = uncurry(String.prototype.slice);
  const charCodeAt = uncurry(String.prototype.charCodeAt);
  const lastIndexOf = uncurry(String.prototype.lastIndexOf);
  const setPrototypeOf = Object.setPrototypeOf;
  const create = Object.create;
  const TypeErrorCtor = TypeError;
  const SLASH = 47;
  const DOT = 46;

  const { invalidArgType } = host.require('internal/errors');

  // Arrays the module fills have no prototype, so that indexed accessors the code may have put on
  // Array.prototype never see their writes.
  function list() {
    return setPrototypeOf([], null);
  }

  function checkString(value, name) {
    if (typeof value !== 'string') {
      throw invalidArgType(name, 'of type string', value);
    }
  }

  // `path` without '.' segments, empty segments and the '..' that cancel a segment before them;
  // '..' that would climb above the start are kept only when the path is relative. No leading
  // or trailing slash.
  function normalizeSegments(path, relative) {
    const kept = list();
    let count = 0;
    let start = 0;
    for (let i = 0; i <= path.length; i++) {
      if (i < path.length && charCodeAt(path, i) !== SLASH) continue;
      const length = i - start;
      if (length === 1 && charCodeAt(path, start) === DOT) {
        // a '.' segment
      } else if (length === 2 && charCodeAt(path, start) === DOT && charCodeAt(path, start + 1) === DOT) {
        if (count > 0 && kept[count - 1] !== '..') count--;
        else if (relative) kept[count++] = '..';
      } else if (length > 0) {
        kept[count++] = slice(path, start, i);
      }
      start = i + 1;
    }
    let text = '';
    for (let i = 0; i < count; i++) text += (i === 0 ? '' : '/') + kept[i];
    return text;
  }

  function resolve(...paths) {
    let resolved = '';
    let absolute = false;
    for (let i = paths.length - 1; i >= -1 && !absolute; i--) {
      const path = i >= 0 ? paths[i] : '/';
      checkString(path, 'paths[' + i + ']');
      if (path.length === 0) continue;
      resolved = path + '/' + resolved;
      absolute = charCodeAt(path, 0) === SLASH;
    }
    return '/' + normalizeSegments(resolved, false);
  }

  function normalize(path) {
    checkString(path, 'path');
    if (path.length === 0) return '.';
    const absolute = charCodeAt(path, 0) === SLASH;
    const trailing = charCodeAt(path, path.length - 1) === SLASH;
    let text = normalizeSegments(path, !absolute);
    if (text.length === 0) {
      if (absolute) return '/';
      return trailing ? './' : '.';
    }
    if (trailing) text += '/';
    return absolute ? '/' + text : text;
  }

  function isAbsolute(path) {
    checkString(path, 'path');
    return path.length > 0 && charCodeAt(path, 0) === SLASH;
  }

  function join(...paths) {
    let joined;
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i];
      checkString(path, 'path');
      if (path.length > 0) joined = joined === undefined ? path : joined + '/' + path;
    }
    return joined === undefined ? '.' : normalize(joined);
  }

  function segmentsOf(path) {
    const segments = list();
    let count = 0;
    let start = 1;
    for (let i = 1; i <= path.length; i++) {
      if (i === path.length || charCodeAt(path, i) === SLASH) {
        if (i > start) segments[count++] = slice(path, start, i);
        start = i + 1;
      }
    }
    segments.count = count;
    return segments;
  }

  function relative(from, to) {
    checkString(from, 'from');
    checkString(to, 'to');
    if (from === to) return '';
    const fromParts = segmentsOf(resolve(from));
    const toParts = segmentsOf(resolve(to));
    let common = 0;
    while (common < fromParts.count && common < toParts.count && fromParts[common] === toParts[common]) common++;
    let text = '';
    for (let i = common; i < fromParts.count; i++) text += (text === '' ? '' : '/') + '..';
    for (let i = common; i < toParts.count; i++) text += (text === '' ? '' : '/') + toParts[i];
    return text;
  }

  function dirname(path) {
    checkString(path, 'path');
    if (path.length === 0) return '.';
    const rooted = charCodeAt(path, 0) === SLASH;
    // The slash that ends the directory is the first one met, walking back, after the last
    // segment's characters; slashes that end the path do not count.
    let inSegment = false;
    for (let i = path.length - 1; i >= 1; i--) {
      if (charCodeAt(path, i) === SLASH) {
        if (inSegment) return rooted && i === 1 ? '//' : slice(path, 0, i);
      } else {
        inSegment = true;
      }
    }
    return rooted ? '/' : '.';
  }

  // The end of the last segment, without the slashes that end the path; -1 when the path is
  // only slashes (or empty).
  function segmentEnd(path) {
    let end = path.length;
    while (end > 0 && charCodeAt(path, end - 1) === SLASH) end--;
    return end === 0 ? -1 : end;
  }

  function segmentStart(path, end) {
    let start = end;
    while (start > 0 && charCodeAt(path, start - 1) !== SLASH) start--;
    return start;
  }

  function basename(path, suffix) {
    if (suffix !== undefined) checkString(suffix, 'suffix');
    checkString(path, 'path');
    const end = segmentEnd(path);
    const start = segmentStart(path, end);
    if (suffix !== undefined && suffix.length > 0 && suffix.length <= path.length) {
      if (suffix === path) return '';
      // A path of slashes keeps them all when a suffix is asked for: Node's quirk.
      if (end === -1) return path;
      const base = slice(path, start, end);
      if (base.length > suffix.length && slice(base, base.length - suffix.length) === suffix) {
        return slice(base, 0, base.length - suffix.length);
      }
      return base;
    }
    return end === -1 ? '' : slice(path, start, end);
  }

  // The extension of a segment: from its last dot, unless that dot starts it or it is '..'.
  function extensionOf(base) {
    const dot = lastIndexOf(base, '.');
    if (dot <= 0 || base === '..') return '';
    return slice(base, dot);
  }

  function extname(path) {
    checkString(path, 'path');
    const end = segmentEnd(path);
    return end === -1 ? '' : extensionOf(slice(path, segmentStart(path, end), end));
  }

  function parse(path) {
    checkString(path, 'path');
    const parsed = { root: '', dir: '', base: '', ext: '', name: '' };
    if (path.length === 0) return parsed;
    const rooted = charCodeAt(path, 0) === SLASH;
    if (rooted) parsed.root = '/';
    const end = segmentEnd(path);
    const start = segmentStart(path, end);
    if (end === -1) {
      if (rooted) parsed.dir = '/';
      return parsed;
    }
    const base = slice(path, start, end);
    parsed.base = base;
    parsed.ext = extensionOf(base);
    parsed.name = slice(base, 0, base.length - parsed.ext.length);
    if (start > 1) parsed.dir = slice(path, 0, start - 1);
    else if (rooted) parsed.dir = '/';
    return parsed;
  }

  function format(pathObject) {
    if (pathObject === null || typeof pathObject !== 'object') {
      throw invalidArgType('pathObject', 'of type object', pathObject);
    }
    const dir = pathObject.dir || pathObject.root;
    const ext = pathObject.ext;
    const base = pathObject.base ||
      (pathObject.name || '') + (ext ? (charCodeAt(ext, 0) === DOT ? '' : '.') + ext : '');
    if (!dir) return base;
    return dir === pathObject.root ? dir + base : dir + '/' + base;
  }

  function toNamespacedPath(path) {
    return path;
  }

  const path = {
    resolve, normalize, isAbsolute, join, relative, toNamespacedPath, dirname, basename, extname, format, parse,
    sep: '/', delimiter: ':', posix: undefined, _makeLong: toNamespacedPath,
  };
  path.posix = path;
  return path;
})
