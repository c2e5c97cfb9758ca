// The functions a plain run never calls are kept out of the script every isolate parses
// (js_runtime/deferral.py). Their groups' source arrives as one string with connect(), and
// DEFERRED_SPANS, declared just above this file, says where each group is in it. Each one
// called from outside its group is a binding here that starts as a stand-in: its first call
// compiles the group, which assigns the real functions to their bindings, and is passed on.
//
// A group is compiled by a direct eval, so that it sees this closure's names (the captured
// built-ins and the runtime's state) and never the global object the model's code may have
// changed. `eval` here is not the global name, which the code could replace or delete: it is
// the parameter of the non-strict function begin.js opens, which holds the engine's own eval
// from before any model code ran. A direct eval in strict code declares its names in a scope
// of its own; the group's source evaluates to an object of the functions called from outside.

let deferredSource;
const deferredExports = list();
for (let i = 0; i < DEFERRED_GROUPS.length; i++) deferredExports[i] = undefined;

function deferredStandIn(group, name) {
  return function () {
    return ReflectApply(deferredGroup(group)[name], this, arguments);
  };
}

function deferredGroup(group) {
  let exports = deferredExports[group];
  if (exports === undefined) {
    if (deferredSource === undefined) throw new TypeErrorCtor('the runtime was not connected to its deferred code');
    const start = DEFERRED_SPANS[2 * group];
    exports = eval(StringPrototypeSlice(deferredSource, start, DEFERRED_SPANS[2 * group + 1]));
    deferredExports[group] = exports;
  }
  return exports;
}

// The names of the groups compiled in this isolate so far, comma-separated (for tests and
// benchmarks).
function deferredLoaded() {
  let names = '';
  for (let i = 0; i < DEFERRED_GROUPS.length; i++) {
    if (deferredExports[i] !== undefined) names += (names === '' ? '' : ',') + DEFERRED_GROUPS[i];
  }
  return names;
}

// A group compiled ahead of its first use by a worker whose fresh isolate waits for its next job
// with nothing else to do (workerRequest 'compileGroupAhead', the group's name, a line break and
// its source to compile ahead, whose functions V8 compiles with it: js_runtime/deferral.py), so
// that a job that needs it compiles nothing of it. Returns whether the group is compiled now.
function compileGroupAhead(request) {
  const newline = StringPrototypeIndexOf(request, '\n');
  const name = StringPrototypeSlice(request, 0, newline);
  for (let i = 0; i < DEFERRED_GROUPS.length; i++) {
    if (DEFERRED_GROUPS[i] !== name) continue;
    if (deferredExports[i] === undefined) deferredExports[i] = eval(StringPrototypeSlice(request, newline + 1));
    return true;
  }
  return false;
}
