// Installs the globals the model's code uses and hands the worker its entry point; closes the
// function opened in begin.js. The returned function is the completion value of the whole
// script: `api = mr.eval(source())`.

function installGlobal(name, value) {
  const existing = describe(globalObject, name);
  // mini-racer declares its timer functions with `var`, which makes them non-configurable:
  // those can only be assigned.
  if (existing !== undefined && !existing.configurable) {
    globalObject[name] = value;
    return;
  }
  defineGlobalValue(name, value);
}

installGlobal('console', consoleObject);
installGlobal('setTimeout', timerFunctions.setTimeout);
installGlobal('clearTimeout', timerFunctions.clearTimeout);
installGlobal('setInterval', timerFunctions.setInterval);
installGlobal('clearInterval', timerFunctions.clearInterval);
installGlobal('queueMicrotask', timerFunctions.queueMicrotask);
installGlobal('structuredClone', structuredClone);
installGlobal('display', display);
installWebModules();
watchWebAssemblyMemory();
ReflectDefineProperty(ErrorCtor, 'prepareStackTrace', {
  __proto__: null, value: formatStack, writable: true, configurable: true, enumerable: false,
});
// mini-racer's timer manager is a `var` too: it cannot be deleted, only emptied.
if (!ReflectDeleteProperty(globalObject, '__timer_manager')) globalObject.__timer_manager = undefined;

// The worker's one entry point after connect(): `this` is the request, a string mini-racer makes
// in C++ (so nothing the model's code changed, Array.prototype or JSON, is involved in passing
// it): a name, or a name, a line break and the request's text. Every call is on the path the
// worker can cancel, and needs no handle but this function's.
function workerRequest() {
  const request = '' + this;
  const newline = StringPrototypeIndexOf(request, '\n');
  const name = newline === -1 ? request : StringPrototypeSlice(request, 0, newline);
  const body = newline === -1 ? '' : StringPrototypeSlice(request, newline + 1);
  switch (name) {
    case 'job': return runJobText(body);
    case 'settle': return settleHostCall(body);
    case 'takeDisplays': return takeDisplays();
    case 'abort': return abort();
    case 'abortMemory': return abortMemory();
    case 'pause': return pauseRun();
    case 'warmUp': return warmUp();
    case 'warmUpTools': return warmUpTools();
    case 'deferredLoaded': return deferredLoaded();
    case 'compileGroupAhead': return compileGroupAhead(body);
    case 'packages': return offerPackages(body);
    case 'connect': return connect(arguments[0], body, arguments[1]);
    default: return false;
  }
}

// The completion value of the script: workerRequest, with the entry points tests call directly.
const entryPoints = { run, connect, warmUp, abort, abortMemory, deferredLoaded };
const entryNames = ObjectKeys(entryPoints);
for (let i = 0; i < entryNames.length; i++) {
  ReflectDefineProperty(workerRequest, entryNames[i], {
    __proto__: null, value: entryPoints[entryNames[i]], writable: false, configurable: false, enumerable: true,
  });
}
return workerRequest;
})();
})(eval);
//# sourceURL=sandbox-runtime.js
