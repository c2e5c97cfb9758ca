// module: process
// globals: process
// requires: events buffer internal/errors
(function (host) {
  'use strict';
  // Node's `process`, for the parts that are pure computation or that the sandbox can answer honestly:
  // argv as `node /main.js` gives it, stdout/stderr writes into the call's captured output, nextTick,
  // hrtime, exit and exitCode (ending the call with its output kept), platform and versions. The
  // environment is not one of them: `process.env` throws, since an empty object would turn a missing
  // setting into a silent wrong answer, and the host's own environment must never reach the code.
  const EventEmitter = host.require('events');
  const defineProperty = Object.defineProperty;
  const freeze = Object.freeze;
  const BigIntCtor = BigInt;
  const TypeErrorCtor = TypeError;
  const ErrorCtor = Error;
  const MathFloor = Math.floor;
  const ArrayIsArray = Array.isArray;
  const queueMicrotask = host.global('queueMicrotask');
  const NODE_VERSION = '20.0.0';

  const { nativeError, invalidArgType } = host.require('internal/errors');

  // The sandbox's own refusals: an Error with a `code`, as Node's C++ errors are.
  function sandboxError(code, message) {
    return nativeError(ErrorCtor, code, message);
  }

  function stream(name, fd) {
    const target = new EventEmitter();
    target.fd = fd;
    target.isTTY = false;
    target.writable = true;
    target.write = function write(chunk, encoding, callback) {
      if (typeof encoding === 'function') callback = encoding;
      let text;
      if (typeof chunk === 'string') text = chunk;
      else if (chunk instanceof Uint8Array) text = host.require('buffer').Buffer.from(chunk).toString('utf8');
      else {
        throw new TypeErrorCtor('The "chunk" argument must be of type string or an instance of Buffer or ' +
          'Uint8Array. Received ' + (chunk === null ? 'null' : typeof chunk));
      }
      host.write(name, text);
      if (typeof callback === 'function') queueMicrotask(() => callback(null));
      return true;
    };
    target.end = function end(chunk, encoding, callback) {
      if (typeof chunk === 'function') return chunk();
      if (chunk !== undefined && chunk !== null) target.write(chunk, encoding);
      if (typeof callback === 'function') queueMicrotask(() => callback());
      return target;
    };
    target.cork = () => undefined;
    target.uncork = () => undefined;
    target.getWindowSize = () => [80, 24];
    target.hasColors = () => false;
    target.getColorDepth = () => 1;
    return target;
  }

  function startNs() {
    return BigIntCtor(MathFloor(host.now() * 1e6));
  }

  function hrtime(previous) {
    const ns = startNs();
    let seconds = Number(ns / 1000000000n);
    let nanos = Number(ns % 1000000000n);
    if (previous !== undefined) {
      if (!ArrayIsArray(previous) || previous.length !== 2) {
        throw new TypeErrorCtor('The "time" argument must be an instance of Array. Received ' + typeof previous);
      }
      seconds -= previous[0];
      nanos -= previous[1];
      if (nanos < 0) {
        seconds -= 1;
        nanos += 1e9;
      }
    }
    return [seconds, nanos];
  }
  hrtime.bigint = startNs;

  const process = new EventEmitter();
  const properties = {
    title: 'node',
    argv: ['node', '/main.js'],
    argv0: 'node',
    execArgv: [],
    execPath: '/usr/local/bin/node',
    pid: 1,
    ppid: 0,
    platform: 'linux',
    arch: 'x64',
    version: 'v' + NODE_VERSION,
    versions: freeze({ node: NODE_VERSION }),
    release: freeze({ name: 'node', lts: 'Iron' }),
    exitCode: undefined,
    stdout: stream('stdout', 1),
    stderr: stream('stderr', 2),
    config: freeze({}),
    features: freeze({}),
  };
  for (const key of Object.keys(properties)) {
    defineProperty(process, key, { value: properties[key], writable: true, configurable: true, enumerable: true });
  }
  defineProperty(process, 'env', {
    configurable: true,
    enumerable: true,
    get() {
      throw sandboxError('ERR_SANDBOX_NO_ENV', 'process.env is not available in this sandbox: the host\'s ' +
        'environment (its settings and secrets) never reaches the code. Pass the values the code needs in ' +
        '`input` and read them from there, or write them in the code');
    },
    set() {
      throw sandboxError('ERR_SANDBOX_NO_ENV', 'process.env is not available in this sandbox: pass values in ' +
        '`input`');
    },
  });
  defineProperty(process, 'stdin', {
    configurable: true,
    enumerable: true,
    get() {
      throw sandboxError('ERR_SANDBOX_NO_STDIN', 'process.stdin is not available in this sandbox: there is no ' +
        'terminal or pipe to read; pass the data in `input` and read it from there');
    },
  });
  process.cwd = () => '/';
  process.chdir = () => {
    throw sandboxError('ERR_SANDBOX_NO_FS', 'process.chdir is not available: the sandbox has no working directory');
  };
  process.uptime = () => host.now() / 1000;
  process.hrtime = hrtime;
  process.nextTick = function nextTick(callback, ...args) {
    if (typeof callback !== 'function') {
      throw new TypeErrorCtor('The "callback" argument must be of type function. Received ' + typeof callback);
    }
    queueMicrotask(() => callback(...args));
  };
  process.exit = function exit(code) {
    host.exit(code === undefined ? (process.exitCode === undefined ? 0 : process.exitCode) : code);
  };
  process.abort = () => host.exit(134);
  process.kill = () => {
    throw sandboxError('ERR_SANDBOX_NO_PROCESS', 'process.kill is not available: the sandbox runs no other process');
  };
  process.memoryUsage = function memoryUsage() {
    return host.memoryUsage();
  };
  process.memoryUsage.rss = () => host.memoryUsage().rss;
  process.cpuUsage = () => {
    const micros = MathFloor(host.now() * 1000);
    return { user: micros, system: 0 };
  };
  process.emitWarning = function emitWarning(warning, type, code) {
    let options = type;
    if (options === null || typeof options !== 'object') options = { type, code };
    const isError = warning instanceof Error;
    if (!isError && typeof warning !== 'string') {
      throw invalidArgType('warning', 'of type string or an instance of Error', warning);
    }
    const name = isError ? warning.name : (typeof options.type === 'string' ? options.type : 'Warning');
    const message = isError ? warning.message : warning;
    const warningCode = isError ? warning.code : options.code;
    host.warn(name, message, typeof warningCode === 'string' ? warningCode : undefined,
      typeof options.detail === 'string' ? options.detail : undefined);
  };

  process.umask = () => 18;
  process.getuid = () => 1000;
  process.getgid = () => 1000;
  process.geteuid = () => 1000;
  process.getegid = () => 1000;
  process[Symbol.toStringTag] = 'process';
  return process;
})
