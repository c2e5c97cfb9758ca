// module: fs
// globals:
// requires: buffer path internal/errors
(function (host) {
  'use strict';
  // Node's fs, read-only, over the data folder the operator shared (and nothing else): paths are
  // relative to that folder, with the same containment as the `files` argument. Synchronous reads
  // (readFileSync, existsSync, readdirSync, statSync) answer from what the host read before the run:
  // the files and folders whose names appear as string literals in the code. Everything else goes
  // through fs.promises (or a callback), which asks the host while the code runs. Writes fail: the
  // folder is read-only. Without a data folder every call fails saying how data reaches the code.
  const { Buffer } = host.require('buffer');
  const path = host.require('path');
  const { nativeError, systemError } = host.require('internal/errors');
  const fsHost = host.fs;
  const PromiseCtor = Promise;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const defineProperty = Object.defineProperty;
  const queueMicrotask = host.global('queueMicrotask');
  const DateCtor = Date;
  const fromBase64 = (text) => Uint8Array.fromBase64(text);

  const ERRNO = { ENOENT: -2, EACCES: -13, EROFS: -30, ENOTDIR: -20, EISDIR: -21, ENOSYS: -38 };
  const DESCRIPTIONS = {
    ENOENT: 'no such file or directory',
    EACCES: 'permission denied',
    EROFS: 'read-only file system',
    ENOTDIR: 'not a directory',
    EISDIR: 'illegal operation on a directory',
    ENOSYS: 'function not implemented',
  };

  function fsError(code, syscall, name, advice) {
    return systemError(code, ERRNO[code], syscall, name, code + ': ' + DESCRIPTIONS[code] + ', ' + syscall + " '" +
      name + "'" + (advice ? ' (' + advice + ')' : ''));
  }

  function sandboxError(code, message) {
    return nativeError(ErrorCtor, code, message);
  }

  function noFolder(syscall, name) {
    return fsError('ENOENT', syscall, name, 'this sandbox has no file system and no data folder was shared: ' +
      'pass the data in the `input` argument and read it from `input`');
  }

  // The name in the data folder a path stands for, or an error saying why there is none.
  function nameOf(given, syscall) {
    let text = given;
    if (text instanceof Uint8Array) text = Buffer.from(text).toString('utf8');
    else if (text !== null && typeof text === 'object' && typeof text.href === 'string' && text.protocol === 'file:') {
      text = decodeURIComponent(text.pathname);
    }
    if (typeof text !== 'string') {
      throw new TypeErrorCtor('The "path" argument must be of type string or an instance of Buffer or URL. ' +
        'Received ' + (text === null ? 'null' : typeof text));
    }
    if (!fsHost.folder) throw noFolder(syscall, text);
    // The working directory is `/` (process.cwd(), __dirname) and the data folder is what it holds, so
    // '/sales.csv', path.join(__dirname, 'sales.csv') and 'sales.csv' are one file.
    let normal = path.posix.normalize(text);
    if (normal === '..' || normal.startsWith('../')) {
      throw fsError('EACCES', syscall, text, 'it is not inside the data folder');
    }
    while (normal.startsWith('/')) normal = normal.slice(1);
    return normal === '.' || normal === '' ? '' : normal.replace(/\/$/, '');
  }

  function encodingOf(options) {
    if (typeof options === 'string') return options;
    if (options !== null && typeof options === 'object' && typeof options.encoding === 'string') {
      return options.encoding;
    }
    return null;
  }

  function decoded(bytes, encoding) {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return encoding === null ? buffer : buffer.toString(encoding);
  }

  class Stats {
    constructor(kind, size, mtimeMs) {
      this.dev = 0;
      this.mode = kind === 'dir' ? 0o40555 : 0o100444;
      this.nlink = 1;
      this.uid = 0;
      this.gid = 0;
      this.rdev = 0;
      this.blksize = 4096;
      this.ino = 0;
      this.size = size;
      this.blocks = Math.ceil(size / 512);
      this.atimeMs = mtimeMs;
      this.mtimeMs = mtimeMs;
      this.ctimeMs = mtimeMs;
      this.birthtimeMs = mtimeMs;
      this.atime = new DateCtor(mtimeMs);
      this.mtime = new DateCtor(mtimeMs);
      this.ctime = new DateCtor(mtimeMs);
      this.birthtime = new DateCtor(mtimeMs);
      defineProperty(this, 'kind', { value: kind, enumerable: false });
    }
    isFile() { return this.kind === 'file'; }
    isDirectory() { return this.kind === 'dir'; }
    isSymbolicLink() { return false; }
    isFIFO() { return false; }
    isSocket() { return false; }
    isBlockDevice() { return false; }
    isCharacterDevice() { return false; }
  }

  class Dirent {
    constructor(name, parent, dir) {
      this.name = name;
      this.parentPath = parent;
      this.path = parent;
      defineProperty(this, 'dir', { value: dir, enumerable: false });
    }
    isFile() { return !this.dir; }
    isDirectory() { return this.dir; }
    isSymbolicLink() { return false; }
    isFIFO() { return false; }
    isSocket() { return false; }
    isBlockDevice() { return false; }
    isCharacterDevice() { return false; }
  }

  function listing(name, entries, options) {
    const withTypes = options !== null && typeof options === 'object' && options.withFileTypes === true;
    const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return sorted.map((entry) => (withTypes ? new Dirent(entry.name, name || '.', entry.dir) : entry.name));
  }

  // --- what was read before the run -----------------------------------------------------------------

  function preloaded(name, given, method) {
    const known = fsHost.preloaded(name);
    if (known === undefined) {
      const promised = method === 'exists' ? 'access' : method;
      throw sandboxError('ERR_SANDBOX_FS_SYNC', 'fs.' + method + 'Sync can only use names written as string ' +
        "literals in the code (the host reads those before the code runs), and '" + given + "' is not one. " +
        "Write the name in the code, use the asynchronous form (`await fs.promises." + promised + "('" + given +
        "')`), or pass the file in the `files` argument and read the global `files`");
    }
    return known;
  }

  function readFileSync(given, options) {
    const name = nameOf(given, 'open');
    const known = preloaded(name, given, 'readFile');
    if (known.kind === 'missing') throw fsError('ENOENT', 'open', given);
    if (known.kind === 'dir') throw fsError('EISDIR', 'read', given);
    return decoded(known.entry.bytes, encodingOf(options));
  }

  function existsSync(given) {
    let name;
    try {
      name = nameOf(given, 'access');
    } catch {
      return false;
    }
    return preloaded(name, given, 'exists').kind !== 'missing';
  }

  function statSync(given, options) {
    const name = nameOf(given, 'stat');
    const known = preloaded(name, given, 'stat');
    if (known.kind === 'missing') {
      if (options !== null && typeof options === 'object' && options.throwIfNoEntry === false) return undefined;
      throw fsError('ENOENT', 'stat', given);
    }
    if (known.kind === 'dir') return new Stats('dir', 4096, 0);
    return new Stats('file', known.entry.size, known.entry.mtimeMs || 0);
  }

  function readdirSync(given, options) {
    const name = nameOf(given, 'scandir');
    const known = preloaded(name, given, 'readdir');
    if (known.kind === 'missing') throw fsError('ENOENT', 'scandir', given);
    if (known.kind !== 'dir') throw fsError('ENOTDIR', 'scandir', given);
    return listing(name, known.entries, options);
  }

  function accessSync(given) {
    if (!existsSync(given)) throw fsError('ENOENT', 'access', given);
  }

  // --- asking the host while the code runs ------------------------------------------------------------

  function ask(kind, given, syscall) {
    let name;
    try {
      name = nameOf(given, syscall);
    } catch (error) {
      return PromiseCtor.reject(error);
    }
    return host.then(fsHost.call(kind, { path: name }), undefined, (error) => {
      throw typeof error.code === 'string' && error.code in DESCRIPTIONS ? fsError(error.code, syscall, given,
        error.advice) : error;
    });
  }

  const promises = {
    readFile(given, options) {
      return host.then(ask('fs.readFile', given, 'open'), (answer) => decoded(fromBase64(answer.base64),
        encodingOf(options)));
    },
    stat(given) {
      return host.then(ask('fs.stat', given, 'stat'), (answer) => new Stats(answer.kind, answer.size,
        answer.mtimeMs));
    },
    lstat(given) {
      return promises.stat(given);
    },
    readdir(given, options) {
      return host.then(ask('fs.readdir', given, 'scandir'), (answer) => listing(nameOf(given, 'scandir'),
        answer.entries, options));
    },
    access(given) {
      return host.then(ask('fs.stat', given, 'access'), () => undefined);
    },
  };

  function callbackForm(promised) {
    return function (given, options, callback) {
      if (typeof options === 'function') {
        callback = options;
        options = undefined;
      }
      if (typeof callback !== 'function') {
        throw new TypeErrorCtor('The "cb" argument must be of type function. Received ' + typeof callback);
      }
      host.then(promised(given, options), (value) => queueMicrotask(() => callback(null, value)),
        (error) => queueMicrotask(() => callback(error)));
    };
  }

  function readOnly(syscall) {
    return function (given) {
      const shown = typeof given === 'string' ? given : String(given);
      throw fsError('EROFS', syscall, shown, fsHost.folder ? 'the data folder is read-only; return what you ' +
        'computed as the result, or print it' : 'this sandbox has no file system; return the data as the result');
    };
  }

  function readOnlyPromise(syscall) {
    const fail = readOnly(syscall);
    return (given) => new PromiseCtor(() => fail(given));
  }

  const writers = ['writeFile', 'appendFile', 'mkdir', 'rm', 'rmdir', 'unlink', 'rename', 'copyFile', 'symlink',
    'link', 'chmod', 'chown', 'truncate', 'utimes', 'mkdtemp', 'open', 'cp'];
  const fs = {
    readFileSync,
    existsSync,
    statSync,
    lstatSync: statSync,
    readdirSync,
    accessSync,
    readFile: callbackForm(promises.readFile),
    stat: callbackForm(promises.stat),
    lstat: callbackForm(promises.stat),
    readdir: callbackForm(promises.readdir),
    access: callbackForm(promises.access),
    exists(given, callback) {
      host.then(promises.access(given), () => callback(true), () => callback(false));
    },
    createReadStream(given) {
      throw sandboxError('ERR_SANDBOX_FS_STREAM', "fs.createReadStream is not available: read '" + given +
        "' whole with `await fs.promises.readFile('" + given + "', 'utf8')`");
    },
    createWriteStream: readOnly('open'),
    promises,
    constants: { F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, O_RDONLY: 0 },
  };
  for (const writer of writers) {
    fs[writer + 'Sync'] = readOnly(writer);
    fs[writer] = readOnly(writer);
    promises[writer] = readOnlyPromise(writer);
  }
  fs.openSync = readOnly('open');
  return fs;
})
