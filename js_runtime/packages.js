// npm packages, as Node 20 loads them: the CommonJS and ES modules the worker read from the
// packages folder (checked against their lock) for the names the code writes, passed with the
// run's options as `packages` (sandbox_server/packages/loading.py). The worker resolved every
// name already: each module comes with its source, its format and, for each name it uses,
// the module that name stands for (or Node's error for it), so nothing here resolves a path.
//
// The worker hands the payload over in a request of its own just before the run (`packages`,
// a string sliced here, never escaped), and the run's options say it is theirs.
//
// A CommonJS module runs in Node's wrapper (exports, require, module, __filename, __dirname)
// with `this` its exports; an ES module was turned into a function of the loader's hooks when
// it was added (sandbox_server/packages/esm.py), and its namespace reads its bindings live.
// Package code sees `process.env` as an empty frozen object (many packages read NODE_ENV), and
// the rest of `process` as the code does, compiled only when it touches it; the code's own
// `process.env` keeps its error. Modules are kept by path for the isolate's life, so a
// session's later calls get the same instances. The tables below have no prototype, and
// nothing in them is read through a property the code could have put on Object.prototype.

const pkgObjectFreeze = Object.freeze;
const pkgObjectPreventExtensions = Object.preventExtensions;
const pkgProxyCtor = Proxy;
const pkgReflectGet = Reflect.get;
const pkgReflectSet = Reflect.set;
const pkgReflectHas = Reflect.has;
const pkgReflectOwnKeys = Reflect.ownKeys;
const pkgJSONParse = JSON.parse;

const packageState = {
  __proto__: null,
  // This run's module records (a list) and the code's names: 'r:x' (require) or 'i:x' (import)
  // to a record's index, and the names that failed to resolve, to [code, message, package].
  records: undefined,
  entries: undefined,
  failures: undefined,
  available: undefined,
  // Loaded modules by path, across the runs of a session's isolate.
  instances: { __proto__: null },
  // What the worker handed over for the next run ('packages' request): a line of JSON, then the
  // sources the records' ranges point into.
  offered: undefined,
  processView: undefined,
  globalView: undefined,
  env: undefined,
};

// group: eager
function offerPackages(text) {
  packageState.offered = text;
  return '';
}

// Called for every run with the options' `packages` descriptor (true when the worker handed the
// run's packages over just before): a run without packages leaves no table of an earlier one.
// group: eager
function takePackages(descriptor) {
  const offered = packageState.offered;
  packageState.offered = undefined;
  packageState.records = undefined;
  packageState.entries = undefined;
  packageState.failures = undefined;
  packageState.available = undefined;
  if (descriptor !== undefined && descriptor.value === true && typeof offered === 'string') {
    providePackages(offered);
  }
}

// Whether the worker sent a module (or a failure) for the code's name `key` ('r:x', 'i:x').
// group: eager
function packageNamed(key) {
  const entries = packageState.entries;
  if (entries === undefined) return false;
  return describe(entries, key) !== undefined || describe(packageState.failures, key) !== undefined;
}

function ownTable(value, kind) {
  const table = ObjectCreate(null);
  if (value === null || typeof value !== 'object') return table;
  const keys = ObjectKeys(value);
  for (let i = 0; i < keys.length; i++) {
    const descriptor = describe(value, keys[i]);
    if (descriptor === undefined) continue;
    const item = descriptor.value;
    if (kind === 'number' ? typeof item === 'number' : ArrayIsArray(item)) table[keys[i]] = item;
  }
  return table;
}

function field(object, key) {
  const descriptor = describe(object, key);
  return descriptor === undefined ? undefined : descriptor.value;
}

function providePackages(offered) {
  const newline = StringPrototypeIndexOf(offered, '\n');
  const value = pkgJSONParse(StringPrototypeSlice(offered, 0, newline));
  const base = newline + 1;
  const records = list();
  const given = field(value, 'modules');
  const count = ArrayIsArray(given) ? given.length : 0;
  for (let i = 0; i < count; i++) {
    const item = field(given, i);
    const id = field(item, 'id');
    const start = field(item, 'start');
    const end = field(item, 'end');
    const source = typeof start === 'number' && typeof end === 'number' ?
      StringPrototypeSlice(offered, base + start, base + end) : '';
    const error = field(item, 'error');
    ArrayPrototypePush(records, {
      __proto__: null,
      id: typeof id === 'string' ? id : '/node_modules/<unknown>',
      format: field(item, 'format'),
      source,
      error: typeof error === 'string' ? error : undefined,
      deps: ownTable(field(item, 'deps'), 'number'),
      failures: ownTable(field(item, 'failures'), 'list'),
    });
  }
  packageState.records = records;
  packageState.entries = ownTable(field(value, 'entries'), 'number');
  packageState.failures = ownTable(field(value, 'failures'), 'list');
  const available = field(value, 'available');
  packageState.available = ArrayIsArray(available) ? available : list();
}

// require('x') in the code: the module's exports (an ES module's namespace, as Node 20's
// require of an ES module gives it).
function packageRequire(specifier) {
  const instance = packageEntry('r:', specifier, 'require');
  return instance.format === 'esm' ? instance.namespace : instance.module.exports;
}

// An import statement of the code (`__importStatic`): the namespace.
function packageNamespace(specifier) {
  return namespaceOf(packageEntry('i:', specifier, 'import'));
}

// import('x') in the code: a promise of the namespace.
function packageImport(specifier) {
  try {
    return PromiseResolve(packageNamespace(specifier));
  } catch (error) {
    return PromiseReject(error);
  }
}

function packageEntry(prefix, specifier, kind) {
  const key = prefix + specifier;
  const failure = describe(packageState.failures, key);
  if (failure !== undefined) throw resolutionError(failure.value, specifier);
  const entry = describe(packageState.entries, key);
  if (entry === undefined) throw missingModule(specifier, kind);
  return instantiate(entry.value);
}

function resolutionError(failure, specifier) {
  const name = failure[2];
  if (typeof name === 'string') return notAdded(specifier, name);
  return nodeError(ErrorCtor, '' + failure[0], '' + failure[1]);
}

function addedList() {
  const available = packageState.available;
  if (available === undefined || available.length === 0) return 'no packages are added yet';
  return 'the packages added are ' + ArrayPrototypeJoin(available, ', ');
}

function notAdded(specifier, name) {
  return nodeError(ErrorCtor, 'MODULE_NOT_FOUND', "Cannot find package '" + name + "' (from '" + specifier +
    "'): it is not added to this sandbox; whoever runs the server can add it with `sandbox-server packages add " +
    name + '` (then restart it). Meanwhile ' + addedList() + ', and Node built-ins such as crypto, util and path ' +
    'work; or write the code inline');
}

// A name the worker sent nothing for: no package matched it before the run (a computed name,
// or a run whose code names no package), or it is a path the sandbox has no file for.
// group: eager
function missingModule(specifier, kind) {
  const bare = specifier !== '' && !StringPrototypeStartsWith(specifier, '.') &&
    !StringPrototypeStartsWith(specifier, '/');
  if (!bare) {
    return nodeError(ErrorCtor, kind === 'import' ? 'ERR_MODULE_NOT_FOUND' : 'MODULE_NOT_FOUND',
      "Cannot find module '" + specifier + "': the sandbox has no files to load modules from; write the code " +
      'inline, or import an added package by its name');
  }
  const available = packageState.available;
  if (available !== undefined && ArrayPrototypeIncludes(available, packageRoot(specifier))) {
    return nodeError(ErrorCtor, 'MODULE_NOT_FOUND', "Cannot find module '" + specifier + "': the package is " +
      'added, but the sandbox loads a package only when the code names it with a string literal ' +
      "(require('" + specifier + "') or import ... from '" + specifier + "'), not a computed name");
  }
  return notAdded(specifier, packageRoot(specifier));
}

// group: eager
function packageRoot(specifier) {
  const slash = StringPrototypeIndexOf(specifier, '/');
  if (slash === -1) return specifier;
  if (!StringPrototypeStartsWith(specifier, '@')) return StringPrototypeSlice(specifier, 0, slash);
  const second = StringPrototypeIndexOf(specifier, '/', slash + 1);
  return second === -1 ? specifier : StringPrototypeSlice(specifier, 0, second);
}

// The loaded module of record `index` (loading it first), as Node keeps one per file.
function instantiate(index) {
  const record = packageState.records[index];
  return instanceOf(record, packageState.records);
}

function instanceOf(record, records) {
  const existing = packageState.instances[record.id];
  if (existing !== undefined) return existing;
  if (record.error !== undefined) {
    throw nodeError(ErrorCtor, 'ERR_SANDBOX_PACKAGE', 'Cannot load ' + record.id + ': ' + record.error);
  }
  const instance = {
    __proto__: null, id: record.id, format: record.format, module: undefined, namespace: undefined,
    cjsNamespace: undefined,
  };
  packageState.instances[record.id] = instance;
  try {
    if (record.format === 'esm') runEsm(instance, record, records);
    else if (record.format === 'json') runJson(instance, record);
    else runCommonJs(instance, record, records);
  } catch (error) {
    // As Node: a module whose evaluation threw is not kept, so a later require tries again.
    ReflectDeleteProperty(packageState.instances, record.id);
    throw error;
  }
  return instance;
}

function dirnameOf(id) {
  const slash = StringPrototypeLastIndexOf(id, '/');
  return slash <= 0 ? '/' : StringPrototypeSlice(id, 0, slash);
}

function compilePackage(prefix, record) {
  let source = record.source;
  // A hashbang line is a comment only at the very start of a script.
  if (StringPrototypeStartsWith(source, '#!')) source = '//' + StringPrototypeSlice(source, 2);
  return indirectEval(prefix + source + '\n})\n//# sourceURL=' + record.id);
}

function runJson(instance, record) {
  instance.module = { exports: undefined, id: record.id, filename: record.id, loaded: true };
  try {
    instance.module.exports = pkgJSONParse(record.source);
  } catch (error) {
    error.message = record.id + ': ' + error.message;
    throw error;
  }
}

function runCommonJs(instance, record, records) {
  const filename = record.id;
  const module = {
    id: filename, path: dirnameOf(filename), exports: {}, filename, loaded: false, children: [], paths: [],
  };
  instance.module = module;
  const require = requireFor(record, records);
  module.require = require;
  const wrapper = compilePackage('(function (exports, require, module, __filename, __dirname, process, global) {',
    record);
  ReflectApply(wrapper, module.exports, [module.exports, require, module, filename, module.path, processView(),
    globalView()]);
  module.loaded = true;
}

function requireFor(record, records) {
  function require(specifier) {
    if (typeof specifier !== 'string') return nodeRequire(specifier);
    const instance = linked(record, records, 'r:', specifier, 'require');
    if (instance === undefined) return nodeRequire(specifier);
    return instance.format === 'esm' ? instance.namespace : instance.module.exports;
  }
  require.resolve = function resolve(specifier) {
    const index = describe(record.deps, 'r:' + specifier);
    if (index !== undefined) return records[index.value].id;
    const failure = describe(record.failures, 'r:' + specifier);
    if (failure !== undefined) throw resolutionError(failure.value, specifier);
    return specifier;
  };
  require.cache = ObjectCreate(null);
  require.main = undefined;
  return require;
}

// The module a package's name resolves to, loaded; undefined for a Node built-in.
function linked(record, records, prefix, specifier, kind) {
  const key = prefix + specifier;
  const index = describe(record.deps, key);
  if (index !== undefined) return instanceOf(records[index.value], records);
  const failure = describe(record.failures, key);
  if (failure !== undefined) throw resolutionError(failure.value, specifier);
  if (isBuiltinName(specifier)) return undefined;
  throw nodeError(ErrorCtor, kind === 'import' ? 'ERR_MODULE_NOT_FOUND' : 'MODULE_NOT_FOUND',
    "Cannot find module '" + specifier + "' from " + record.id + ': the sandbox loads only what a package ' +
    'names with a string literal, and this name is computed');
}

function isBuiltinName(specifier) {
  return StringPrototypeStartsWith(specifier, 'node:') || nodeModuleNamed(packageRoot(specifier)) !== undefined ||
    NODE_REFUSED[packageRoot(specifier)] !== undefined || NODE_SUBPATHS[specifier] !== undefined;
}

function runEsm(instance, record, records) {
  const namespace = ObjectCreate(null);
  instance.namespace = namespace;
  const getters = ObjectCreate(null);
  const stars = list();
  const hooks = {
    __proto__: null,
    e(given) {
      const names = ObjectKeys(given);
      for (let i = 0; i < names.length; i++) getters[names[i]] = field(given, names[i]);
    },
    s(dependency) {
      ArrayPrototypePush(stars, dependency);
    },
    d() {
      finishNamespace(namespace, getters, stars);
    },
  };
  const importOne = (specifier) => {
    const dependency = linked(record, records, 'i:', specifier, 'import');
    return dependency === undefined ? builtinNamespace(nodeRequire(specifier)) : namespaceOf(dependency);
  };
  const importLater = (specifier) => {
    try {
      return PromiseResolve(importOne('' + specifier));
    } catch (error) {
      return PromiseReject(error);
    }
  };
  const meta = { url: 'file://' + record.id, filename: record.id, dirname: dirnameOf(record.id) };
  const body = compilePackage('(function (__m$, __i$, __di$, __meta$, process) {', record);
  ReflectApply(body, undefined, [hooks, importOne, importLater, meta, processView()]);
}

// Names in code-unit order, as a module namespace lists them; local exports first, then each
// `export *` for the names not exported yet (`default` never comes from a star).
function finishNamespace(namespace, getters, stars) {
  const table = ObjectCreate(null);
  const names = ObjectKeys(getters);
  for (let i = 0; i < names.length; i++) table[names[i]] = getters[names[i]];
  for (let i = 0; i < stars.length; i++) {
    const dependency = stars[i];
    const keys = ObjectKeys(dependency);
    for (let j = 0; j < keys.length; j++) {
      const key = keys[j];
      if (key === 'default' || describe(table, key) !== undefined) continue;
      const descriptor = describe(dependency, key);
      table[key] = descriptor.get !== undefined ? descriptor.get : () => dependency[key];
    }
  }
  const sorted = sortedKeys(table);
  for (let i = 0; i < sorted.length; i++) {
    ReflectDefineProperty(namespace, sorted[i], { __proto__: null, get: table[sorted[i]], enumerable: true,
      configurable: false });
  }
  ReflectDefineProperty(namespace, SymbolToStringTag, { __proto__: null, value: 'Module' });
  pkgObjectPreventExtensions(namespace);
}

function sortedKeys(table) {
  const keys = ObjectKeys(table);
  const sorted = list();
  for (let i = 0; i < keys.length; i++) {
    let j = sorted.length;
    while (j > 0 && sorted[j - 1] > keys[i]) {
      sorted[j] = sorted[j - 1];
      j--;
    }
    sorted[j] = keys[i];
  }
  return sorted;
}

// What an import of a CommonJS module gives: its exports as `default`, and their own
// enumerable names beside it (Node finds such names by reading the source; this takes the
// names the exports have).
function namespaceOf(instance) {
  if (instance.format === 'esm') return instance.namespace;
  if (instance.cjsNamespace === undefined) instance.cjsNamespace = builtinNamespace(instance.module.exports);
  return instance.cjsNamespace;
}

// A getter of the exports stays a getter (`process.env` must throw only when read).
// group: eager
function builtinNamespace(exports) {
  const namespace = ObjectCreate(null);
  if (exports !== null && (typeof exports === 'object' || typeof exports === 'function')) {
    const keys = ObjectKeys(exports);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      if (key === 'default') continue;
      const descriptor = describe(exports, key);
      if (descriptor === undefined) continue;
      if (isDataDescriptor(descriptor)) namespace[key] = descriptor.value;
      else ReflectDefineProperty(namespace, key, { __proto__: null, get: () => exports[key], enumerable: true });
    }
  }
  namespace.default = exports;
  return namespace;
}

// Node's `global` for package code: the global object, whose `process` is the one package code
// sees (many packages take `global.process`, and none of them should load it to find `env`).
function globalView() {
  if (packageState.globalView !== undefined) return packageState.globalView;
  const handler = {
    __proto__: null,
    get(target, key) {
      return key === 'process' ? processView() : pkgReflectGet(globalObject, key);
    },
    set(target, key, value) {
      return pkgReflectSet(globalObject, key, value);
    },
    has(target, key) {
      return pkgReflectHas(globalObject, key);
    },
    getOwnPropertyDescriptor(target, key) {
      const descriptor = describe(globalObject, key);
      if (descriptor !== undefined) descriptor.configurable = true;
      return descriptor;
    },
    ownKeys() {
      return pkgReflectOwnKeys(globalObject);
    },
    getPrototypeOf() {
      return ReflectGetPrototypeOf(globalObject);
    },
    defineProperty(target, key, descriptor) {
      return ReflectDefineProperty(globalObject, key, descriptor);
    },
    deleteProperty(target, key) {
      return ReflectDeleteProperty(globalObject, key);
    },
  };
  packageState.globalView = new pkgProxyCtor(ObjectCreate(null), handler);
  return packageState.globalView;
}

// `process` as package code sees it: the run's process (compiled on first touch), except for
// `env`, an empty frozen object that costs nothing to read.
function processView() {
  if (packageState.processView !== undefined) return packageState.processView;
  const env = pkgObjectFreeze({});
  const real = () => nodeGlobal('process');
  const handler = {
    __proto__: null,
    get(target, key) {
      return key === 'env' ? env : pkgReflectGet(real(), key);
    },
    set(target, key, value) {
      return key === 'env' ? false : pkgReflectSet(real(), key, value);
    },
    has(target, key) {
      return key === 'env' || pkgReflectHas(real(), key);
    },
    getOwnPropertyDescriptor(target, key) {
      if (key === 'env') return { __proto__: null, value: env, writable: false, enumerable: true, configurable: true };
      const descriptor = describe(real(), key);
      if (descriptor !== undefined) descriptor.configurable = true;
      return descriptor;
    },
    ownKeys() {
      return pkgReflectOwnKeys(real());
    },
    getPrototypeOf() {
      return ReflectGetPrototypeOf(real());
    },
    defineProperty(target, key, descriptor) {
      return key !== 'env' && ReflectDefineProperty(real(), key, descriptor);
    },
    deleteProperty(target, key) {
      return key !== 'env' && ReflectDeleteProperty(real(), key);
    },
  };
  packageState.processView = new pkgProxyCtor(ObjectCreate(null), handler);
  return packageState.processView;
}
