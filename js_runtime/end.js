// Installs the globals the model's code uses and hands the worker its two entry points;
// closes the function opened in begin.js. The returned object is the completion value of
// the whole script: `api = mr.eval(source())`.

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

return { run, runNext, takeDisplays, connect, warmUp, abort, abortMemory, settleHostCall, deferredLoaded, workerArguments };
})();
})(eval);
//# sourceURL=sandbox-runtime.js
