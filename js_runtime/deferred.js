// Function declarations of the files listed in DEFERRED_FILES (js_runtime/__init__.py) are
// kept out of the script V8 parses when the runtime loads: they are the rendering of objects
// (inspect, console.table), over a quarter of the runtime's text, which a call that shows no
// object never runs. js_runtime/__init__.py writes their source as the string
// DEFERRED_SOURCE just above this file, and for each one the rest of the runtime calls, a
// stand-in of the same name that passes the call on to deferredFunctions().
//
// The source is compiled by a direct eval, so that it sees this closure's names (the captured
// built-ins and the runtime's state) and never the global object the model's code may have
// changed. `eval` here is not the global name, which the code could replace or delete: it is
// the parameter of the non-strict function begin.js opens, which holds the engine's own eval
// from before any model code ran. A direct eval in strict code declares its functions in a
// scope of its own; the source ends with an object of those the stand-ins call.

let deferredExports;

function deferredFunctions() {
  if (deferredExports === undefined) deferredExports = eval(DEFERRED_SOURCE);
  return deferredExports;
}

// Whether the deferred functions have been compiled in this isolate (for tests and benchmarks).
function deferredLoaded() {
  return deferredExports !== undefined;
}
