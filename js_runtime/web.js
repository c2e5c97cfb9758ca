// Web-platform APIs (URL, TextEncoder, atob, crypto, ...) compiled only when the code first
// touches them. WEB_MODULES (written by js_runtime/__init__.py from js_runtime/web/*.js) names
// each module's globals; the sources the code may need come with the run's options (the
// worker sends those whose names the code mentions), so an isolate whose code uses none
// never holds them. Each global starts as an accessor whose getter compiles the module,
// calls it with the `host` object and replaces every name of the module with a plain data
// property. Assigning to the name first replaces it, as for any global.

const webState = {
  __proto__: null,
  // Per module: the object of its globals once compiled.
  compiled: ObjectCreate(null),
  host: undefined,
};

function webHost() {
  if (webState.host === undefined) {
    webState.host = {
      __proto__: null,
      seed: hexBytes(runState.seed),
      now: () => userNow() - runState.startedAt,
      global: (name) => webGlobal(name),
      // The modules the built-ins share (node.js): a web module's header names those it loads.
      require: (id) => internalModule(id),
    };
  }
  return webState.host;
}

// 32 bytes from the hex text the worker sends per run (fresh operating-system entropy); a run
// without one (the warm-up) gets zeros, and no module is compiled in it.
function hexBytes(hex) {
  const bytes = new Uint8ArrayCtor(32);
  if (typeof hex !== 'string' || hex.length !== 64) return bytes;
  for (let i = 0; i < 32; i++) bytes[i] = NumberParseInt(StringPrototypeSlice(hex, 2 * i, 2 * i + 2), 16);
  return bytes;
}

function moduleOf(name) {
  for (let i = 0; i < WEB_MODULES.length; i++) {
    const names = WEB_MODULES[i].names;
    for (let j = 0; j < names.length; j++) {
      if (names[j] === name) return WEB_MODULES[i];
    }
  }
  return undefined;
}

// Takes the sources the worker sent with this run: the web modules', and those of the shared Node modules
// (internal/...) that they load, which come with them.
function provideModules(sources) {
  if (sources === null || typeof sources !== 'object') return;
  for (let i = 0; i < WEB_MODULES.length; i++) {
    const descriptor = describe(sources, WEB_MODULES[i].id);
    if (descriptor !== undefined && typeof descriptor.value === 'string') WEB_MODULES[i].source = descriptor.value;
  }
  for (let i = 0; i < NODE_MODULES.length; i++) {
    if (!StringPrototypeStartsWith(NODE_MODULES[i].id, 'internal/')) continue;
    const descriptor = describe(sources, NODE_MODULES[i].id);
    if (descriptor !== undefined && typeof descriptor.value === 'string') NODE_MODULES[i].source = descriptor.value;
  }
}

function compileModule(module) {
  let exports = webState.compiled[module.id];
  if (exports !== undefined) return exports;
  if (module.source === undefined) {
    throw new ReferenceErrorCtor(module.names[0] + ' was not loaded for this call: the sandbox loads a web API ' +
      'when the code names it, so write its name (for example `' + module.names[0] + '`) in the code');
  }
  const factory = indirectEval(module.source + '\n//# sourceURL=' + RUNTIME_SCRIPT_NAME);
  exports = factory(webHost());
  webState.compiled[module.id] = exports;
  for (let i = 0; i < module.names.length; i++) {
    const name = module.names[i];
    const descriptor = describe(globalObject, name);
    // Only names still held by the lazy accessor: one the code assigned keeps the code's value.
    if (descriptor !== undefined && descriptor.get === module.getters[name]) {
      defineGlobalValue(name, exports[name]);
    }
  }
  return exports;
}

// Compiles the modules the code names before any of it runs, so that each captures the built-ins it
// uses as the engine made them. A module that fails here is compiled again, and fails with its error,
// when the code first touches it.
// group: eager
function preloadWebModules(ids) {
  if (!ArrayIsArray(ids)) return;
  for (let i = 0; i < WEB_MODULES.length; i++) {
    const module = WEB_MODULES[i];
    if (module.source === undefined || !ArrayPrototypeIncludes(ids, module.id)) continue;
    try {
      compileModule(module);
    } catch {
      // reported when the code uses it
    }
  }
}

function webGlobal(name) {
  const module = moduleOf(name);
  return module === undefined ? undefined : compileModule(module)[name];
}

// group: eager
function installWebModules() {
  for (let i = 0; i < WEB_MODULES.length; i++) {
    const module = WEB_MODULES[i];
    module.getters = ObjectCreate(null);
    for (let j = 0; j < module.names.length; j++) {
      const name = module.names[j];
      const get = () => compileModule(module)[name];
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
