// module: timers
// globals:
// requires:
(function (host) {
  'use strict';
  // Node's timers module: the same timer functions as the globals, and timers/promises, whose
  // functions resolve after the delay instead of calling back.
  const global = host.global;
  const PromiseCtor = Promise;

  function promiseTimeout(delay, value) {
    return new PromiseCtor((resolve) => global('setTimeout')(() => resolve(value), delay));
  }

  function promiseImmediate(value) {
    return new PromiseCtor((resolve) => global('setTimeout')(() => resolve(value), 0));
  }

  return {
    setTimeout: (...args) => global('setTimeout')(...args),
    clearTimeout: (...args) => global('clearTimeout')(...args),
    setInterval: (...args) => global('setInterval')(...args),
    clearInterval: (...args) => global('clearInterval')(...args),
    setImmediate: (callback, ...args) => global('setTimeout')(callback, 0, ...args),
    clearImmediate: (...args) => global('clearTimeout')(...args),
    promises: { setTimeout: promiseTimeout, setImmediate: promiseImmediate },
  };
})
