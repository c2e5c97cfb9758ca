// Node's built-in modules that are pure computation (buffer, util, path, events, crypto, ...),
// compiled only when the code first asks for one: through require('x') or require('node:x'),
// a static or dynamic import the worker rewrote into require (see sandbox/source), or a global
// such as Buffer or process. NODE_MODULES (written by js_runtime/__init__.py from
// js_runtime/node/*.js) names each module, its globals and the modules it needs; the sources
// come with the run's options, for the modules the code may use (their names are in it), so an
// isolate whose code uses none never holds them. Each source is a function of `host` (see
// nodeHost) returning the module's exports, which require() returns from then on.
// Modules that would reach the host (child_process, net, fs writes, ...) are refused with an
// error that says what to do instead; any other name is an npm package's (packages.js).

const nodeState = {
  __proto__: null,
  host: undefined,
  // process.exit(code) marks the run ended with `code`; the exit sentinel it throws is this object, which
  // nothing outside this closure can make.
  exitSentinel: { __proto__: null },
  exitCode: undefined,
};

// process.exit(code): the run ends here, with the output so far. The sentinel thrown unwinds the code;
// a catch in the code cannot keep it running, since the run has finished by then.
function exitRun(code) {
  if (runState.finished) throw nodeState.exitSentinel;
  nodeState.exitCode = code === undefined ? 0 : code;
  if (+nodeState.exitCode === 0) {
    // The script ended before its last line: its result is undefined, as a script's without one.
    runState.hasResult = true;
    runState.result = undefined;
  }
  runState.pending = true;
  finish();
  throw nodeState.exitSentinel;
}

// group: errors
function isExitSentinel(value) {
  return value === nodeState.exitSentinel;
}

// A run that ends with a non-zero exit code (process.exit(1), or process.exitCode = 1 when the code
// ends) fails as a Node process would, with its output kept; exit code 0 ends it as a success.
// group: eager
function noteExitCode() {
  let code = nodeState.exitCode;
  if (code === undefined) {
    const process = nodeModuleNamed('process');
    const exports = process === undefined ? undefined : process.exports;
    const descriptor = exports === undefined ? undefined : describe(exports, 'exitCode');
    code = descriptor !== undefined && isDataDescriptor(descriptor) ? descriptor.value : undefined;
  }
  if (code === undefined || code === null || runState.error !== null) return;
  const number = +code;
  if (number === 0 || number !== number) return;
  runState.hasResult = false;
  runState.result = undefined;
  runState.error = {
    __proto__: null, kind: 'runtime', name: 'ProcessExit', line: null, column: null, stack: null,
    message: 'the code ended the process with exit code ' + (number | 0) + ' (process.exit or process.exitCode)',
  };
}

// `require('assert/strict')` and the like: a property of another module's exports.
const NODE_SUBPATHS = {
  __proto__: null,
  'assert/strict': ['assert', 'strict'],
  'path/posix': ['path', 'posix'],
  'util/types': ['util', 'types'],
  'fs/promises': ['fs', 'promises'],
  'timers/promises': ['timers', 'promises'],
  'stream/promises': ['stream', 'promises'],
  'dns/promises': ['dns', 'promises'],
  'readline/promises': ['readline', 'promises'],
};

// Built-in modules of Node that reach the host or the network: each name gets its own refusal.
const NODE_REFUSED = {
  __proto__: null,
  child_process: 'runs programs on the host',
  cluster: 'starts processes',
  worker_threads: 'starts threads',
  net: 'opens network connections',
  tls: 'opens network connections',
  dgram: 'opens network sockets',
  dns: 'resolves names over the network',
  http: 'serves and fetches over the network',
  https: 'serves and fetches over the network',
  http2: 'serves and fetches over the network',
  v8: 'controls the engine',
  vm: 'creates contexts the sandbox does not offer',
  inspector: 'debugs the process',
  module: 'loads code from files',
  repl: 'reads a terminal',
  readline: 'reads a terminal',
  tty: 'reads a terminal',
  zlib: 'is not provided yet',
  stream: 'is not provided',
  perf_hooks: 'is not provided: use the global performance.now()',
  async_hooks: 'is not provided',
  diagnostics_channel: 'is not provided',
  sqlite: 'opens database files',
  wasi: 'reaches the host through WASI',
};

// group: eager
function nodeModuleNamed(id) {
  for (let i = 0; i < NODE_MODULES.length; i++) {
    if (NODE_MODULES[i].id === id) return NODE_MODULES[i];
  }
  return undefined;
}

// Takes the sources the worker sent with this run.
function provideNodeModules(sources) {
  if (sources === null || typeof sources !== 'object') return;
  for (let i = 0; i < NODE_MODULES.length; i++) {
    const descriptor = describe(sources, NODE_MODULES[i].id);
    if (descriptor !== undefined && typeof descriptor.value === 'string') NODE_MODULES[i].source = descriptor.value;
  }
}

function nodeHost() {
  if (nodeState.host === undefined) {
    nodeState.host = {
      __proto__: null,
      require: moduleRequire,
      global: (name) => nodeGlobal(name),
      seed: hexBytes(runState.seed),
      now: () => userNow() - runState.startedAt,
      inspect: (value, options) => inspect(value, options),
      format: (args) => formatArgs(args),
      inspectCustom: customInspectSymbol,
      write: (stream, text) => writeRaw(stream === 'stderr' ? output.stderr : output.stdout, '' + text),
      exit: (code) => exitRun(code),
      memoryUsage: () => memorySnapshot(),
      warn: (name, message, code, detail) => nodeWarning(name, message, code, detail),
      call: (kind, payload) => hostCall(kind, payload),
      // The engine's own Promise.prototype.then, whatever the code has done to it since.
      then: (promise, onFulfilled, onRejected) => ReflectApply(PromisePrototypeThen, promise,
        [onFulfilled, onRejected]),
      fs: {
        __proto__: null,
        folder: runState.dataFolder,
        preloaded: (name) => fsPreloaded(name),
        call: (kind, payload) => hostCall(kind, payload),
      },
    };
  }
  return nodeState.host;
}

// A process warning as Node prints it: on stderr after the code's synchronous part (Node writes it on
// the next tick; a timer here, since the run waits for timers), the first one of the run followed by
// the line about tracing it. Written by the runtime, whatever the code did to console.
const nodeWarnings = { __proto__: null, hinted: false };
function nodeWarning(name, message, code, detail) {
  let text = '(node:1) ' + (code ? '[' + code + '] ' : '') + name + ': ' + message + (detail ? '\n' + detail : '');
  addTimer(() => {
    if (!nodeWarnings.hinted) {
      nodeWarnings.hinted = true;
      text += '\n(Use `node --trace-' + (name === 'DeprecationWarning' ? 'deprecation' : 'warnings') +
        ' ...` to show where the warning was created)';
    }
    writeRaw(output.stderr, text + '\n');
  }, 0, [], false);
}

// A global the modules may use: a web API (compiled on first use), or the code's own global.
function nodeGlobal(name) {
  const web = moduleOf(name);
  if (web !== undefined) return compileModule(web)[name];
  const node = nodeModuleOfGlobal(name);
  if (node !== undefined) return globalOfModule(node, name);
  return globalObject[name];
}

// process.memoryUsage(): the isolate's heap as the worker read it before the run (the runtime cannot
// read it from inside), in Node's shape.
function memorySnapshot() {
  const memory = runState.memory;
  const used = memory === undefined ? 0 : memory.used;
  const total = memory === undefined ? 0 : memory.total;
  return { rss: total, heapTotal: total, heapUsed: used, external: 0, arrayBuffers: 0 };
}

function nodeModuleOfGlobal(name) {
  for (let i = 0; i < NODE_MODULES.length; i++) {
    if (ArrayPrototypeIncludes(NODE_MODULES[i].globals, name)) return NODE_MODULES[i];
  }
  return undefined;
}

function loadNodeModule(module) {
  if (StringPrototypeStartsWith(module.id, 'internal/')) return internalModule(module.id);
  if (module.exports !== undefined) return module.exports;
  if (module.source === undefined) {
    throw new ErrorCtor("the Node module '" + module.id + "' was not loaded for this call: the sandbox loads one " +
      "when the code names it, so write require('" + module.id + "') (or its global) in the code");
  }
  if (module.loading) return module.partial;
  module.loading = true;
  module.partial = ObjectCreate(null);
  try {
    const factory = indirectEval(module.source + '\n//# sourceURL=' + RUNTIME_SCRIPT_NAME);
    module.exports = factory(nodeHost());
  } finally {
    module.loading = false;
  }
  for (let i = 0; i < module.globals.length; i++) {
    const name = module.globals[i];
    const descriptor = describe(globalObject, name);
    if (descriptor !== undefined && descriptor.get === module.getters[name]) {
      defineGlobalValue(name, globalOfModule(module, name));
    }
  }
  return module.exports;
}

// The modules the built-ins share (internal/...: Node's coded errors, deep equality), for the Node modules through
// their require and for the web modules through their host's (TextDecoder's errors are Node's too): each is a
// function of a host that offers only `inspect`, and loads nothing itself. In a group of its own, so that a web
// module that needs one does not compile the Node loader.
// group: internal
function internalModule(id) {
  const module = nodeModuleNamed(id);
  if (module === undefined || !StringPrototypeStartsWith(id, 'internal/')) {
    throw new ErrorCtor("no internal module '" + id + "'");
  }
  if (module.exports !== undefined) return module.exports;
  if (module.source === undefined) {
    throw new ErrorCtor("the internal module '" + id + "' was not sent with the module that loads it");
  }
  const factory = indirectEval(module.source + '\n//# sourceURL=' + RUNTIME_SCRIPT_NAME);
  module.exports = factory({ __proto__: null, inspect: (value, options) => inspect(value, options) });
  return module.exports;
}

// A module's global is its export of that name, or the exports themselves for a module that is its own
// global (`process`).
function globalOfModule(module, name) {
  const exports = loadNodeModule(module);
  return name === module.id && describe(exports, name) === undefined ? exports : exports[name];
}

function nodeError(Ctor, code, message) {
  const error = new Ctor(message);
  ReflectDefineProperty(error, 'code', { __proto__: null, value: code, writable: true, configurable: true,
    enumerable: true });
  return error;
}

// The modules the code may require, for messages: 'assert, buffer, ...'.
function availableModules() {
  let text = '';
  for (let i = 0; i < NODE_MODULES.length; i++) {
    const id = NODE_MODULES[i].id;
    if (StringPrototypeStartsWith(id, 'internal/')) continue;
    text += (text === '' ? '' : ', ') + id;
  }
  return text;
}

// The require of the modules themselves: their shared internal modules too.
function moduleRequire(specifier) {
  const module = typeof specifier === 'string' && StringPrototypeStartsWith(specifier, 'internal/')
    ? nodeModuleNamed(specifier) : undefined;
  return module === undefined ? nodeRequire(specifier) : loadNodeModule(module);
}

function nodeRequire(specifier) {
  if (typeof specifier === 'string' && packageNamed('r:' + specifier)) return packageRequire(specifier);
  if (typeof specifier !== 'string') {
    throw nodeError(TypeErrorCtor, 'ERR_INVALID_ARG_TYPE', 'The "id" argument must be of type string. Received ' +
      describeReceived(specifier));
  }
  const prefixed = StringPrototypeStartsWith(specifier, 'node:');
  const id = prefixed ? StringPrototypeSlice(specifier, 5) : specifier;
  const subpath = NODE_SUBPATHS[id];
  // Modules the others share (internal/...) are theirs: the code cannot load them, as in Node.
  const module = StringPrototypeStartsWith(id, 'internal/') ? undefined
    : nodeModuleNamed(subpath === undefined ? id : subpath[0]);
  if (module !== undefined) {
    const exports = loadNodeModule(module);
    return subpath === undefined ? exports : exports[subpath[1]];
  }
  const slash = StringPrototypeIndexOf(id, '/');
  const base = slash === -1 ? id : StringPrototypeSlice(id, 0, slash);
  const refusal = NODE_REFUSED[base];
  if (refusal !== undefined) {
    throw nodeError(ErrorCtor, 'ERR_SANDBOX_REFUSED_MODULE', "The Node module '" + specifier + "' " + refusal +
      ', which this sandbox does not allow: compute with the modules it has (' + availableModules() + ') and ' +
      (runState.dataFolder ? 'read data from the data folder (`files`, or fs) or from `input`'
        : 'pass data in `input`'));
  }
  if (prefixed) {
    throw nodeError(ErrorCtor, 'ERR_UNKNOWN_BUILTIN_MODULE', 'No such built-in module: ' + specifier);
  }
  if (packageState.available !== undefined) throw missingModule(specifier, 'require');
  throw nodeError(ErrorCtor, 'MODULE_NOT_FOUND', "Cannot find module '" + specifier + "': this sandbox has no " +
    'packages added (whoever runs the server can add one with `sandbox-server packages add ' +
    packageRoot(specifier) + '`) and no files to load modules from; write the code inline (Node built-ins such ' +
    'as crypto, buffer, util and path work)');
}

function describeReceived(value) {
  if (value === null || value === undefined) return '' + value;
  if (typeof value === 'function' || typeof value === 'object') return 'type ' + typeof value;
  return 'type ' + typeof value + ' (' + plainPrimitiveText(value) + ')';
}

// `require` and the globals of the modules (Buffer, process), as lazy accessors like the web
// APIs'. Installed only for runs whose code names a Node module, its global or `require`.
// import('x'), as the worker rewrites it: a promise of the module's namespace, its exports and `default`.
function nodeImport(specifier) {
  if (typeof specifier === 'string' && packageNamed('i:' + specifier)) return packageImport(specifier);
  try {
    const exports = nodeRequire(specifier);
    const namespace = ObjectCreate(null);
    if (isObjectLike(exports)) {
      const keys = ObjectKeys(exports);
      for (let i = 0; i < keys.length; i++) namespace[keys[i]] = exports[keys[i]];
    }
    namespace.default = exports;
    return PromiseResolve(namespace);
  } catch (error) {
    return PromiseReject(error);
  }
}

// An import statement, as the worker rewrites it (`const { a } = __importStatic('x')`): the
// module's namespace: a package's, or a built-in's exports with `default`.
function nodeImportStatic(specifier) {
  if (typeof specifier === 'string' && packageNamed('i:' + specifier)) return packageNamespace(specifier);
  return builtinNamespace(nodeRequire(specifier));
}

// Loads the modules the code names before any of it runs, so that each captures the built-ins it uses
// (String.prototype.slice, Function.prototype.call) as the engine made them, not as the code may leave them.
// A module that fails to load here is loaded again, and fails with its error, when the code uses it.
// group: eager
function preloadNodeModules(ids) {
  if (!ArrayIsArray(ids)) return;
  for (let i = 0; i < ids.length; i++) {
    const module = typeof ids[i] === 'string' ? nodeModuleNamed(ids[i]) : undefined;
    if (module === undefined || module.source === undefined) continue;
    try {
      loadNodeModule(module);
    } catch {
      module.exports = undefined;
    }
  }
}

function installNodeModules() {
  defineGlobalValue('require', nodeRequire);
  defineGlobalValue('__import', nodeImport);
  defineGlobalValue('__importStatic', nodeImportStatic);
  const module = { exports: {} };
  defineGlobalValue('module', module);
  defineGlobalValue('exports', module.exports);
  // The code runs as the script /main.js (process.argv[1]) in the working directory `/`.
  defineGlobalValue('__filename', '/main.js');
  defineGlobalValue('__dirname', '/');
  for (let i = 0; i < NODE_MODULES.length; i++) {
    const module = NODE_MODULES[i];
    module.getters = ObjectCreate(null);
    for (let j = 0; j < module.globals.length; j++) {
      const name = module.globals[j];
      const get = () => globalOfModule(module, name);
      module.getters[name] = get;
      ReflectDefineProperty(globalObject, name, {
        __proto__: null,
        get,
        set: (value) => defineGlobalValue(name, value),
        configurable: true,
        enumerable: false,
      });
    }
  }
}
