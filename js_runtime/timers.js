// setTimeout, setInterval, their clear functions and queueMicrotask. mini-racer's own
// setTimeout fails for a delay of 0 and never fires without a delay, and it looks up
// globals and prototype methods on every call; these are built directly on
// Atomics.waitAsync (the mechanism it uses), captured at load time. The runtime counts
// pending timers because a run, like a Node process, ends only when none is left; an
// exception escaping a callback ends the run as an uncaught error, as it ends Node.

const TIMEOUT_MAX = 2147483647;

const timerState = {
  __proto__: null,
  nextId: 1,
  pending: 0,
  active: ObjectCreate(null),
  // Called with the thrown value when a callback throws; set by run().
  onUncaught: undefined,
  // Called when the number of pending timers drops to zero; set by run().
  onIdle: undefined,
  stopped: false,
};

// group: eager
function resetTimers() {
  stopAllTimers();
  timerState.pending = 0;
  timerState.active = ObjectCreate(null);
  timerState.stopped = false;
}

// The longest single wait. A wait with a time-out that is still pending when the isolate is
// disposed keeps a task of V8's platform, and its memory, until its time comes (so a run that
// ended with a day-long timer would leave memory behind for every later run in the process);
// longer delays are waited for in slices of at most this length.
const WAIT_SLICE_MS = 1000;

// Calls `callback` after `ms` milliseconds as a separate task (after all pending
// microtasks), or earlier once the returned shared cell is released (a cleared timer).
function afterDelay(ms, callback) {
  const cell = new Int32ArrayCtor(new SharedArrayBufferCtor(4));
  waitThenCall(cell, ms, callback);
  return cell;
}

async function waitThenCall(cell, ms, callback) {
  let left = ms;
  for (;;) {
    const slice = left > WAIT_SLICE_MS ? WAIT_SLICE_MS : left;
    left -= slice;
    const promise = AtomicsWaitAsync(cell, 0, 0, slice).value;
    // An own `constructor` lets `await` take the promise as it is, without consulting
    // Promise.prototype, which the model's code may have changed.
    if (typeof promise !== 'string') {
      ReflectDefineProperty(promise, 'constructor', { __proto__: null, value: PromiseCtor });
      if ((await promise) === 'ok') break;
    } else {
      if (promise === 'not-equal') break;
      await undefined;
    }
    if (left <= 0) break;
  }
  callback();
}

// Calls `callback` as a separate task as soon as every pending microtask has run: a wait that
// is released as soon as it starts, which V8 settles from a task of its own. The shortest
// timer, 1 ms, costs a run that awaits something that much at least, at every turn that waits
// for such a task (the end of an asynchronous run, a journaled answer's turn).
function nextTask(callback) {
  releaseCell(afterDelay(1, callback));
}

// Ends the wait on `cell` now, and any wait it would start later.
function releaseCell(cell) {
  AtomicsStore(cell, 0, 1);
  AtomicsNotify(cell, 0);
}

function coerceDelay(delay) {
  let ms;
  try {
    ms = NumberCtor(delay);
  } catch {
    ms = 1;
  }
  // Browsers and Node run a timer with a missing, negative or NaN delay as soon as
  // possible; Atomics.waitAsync needs at least 1 ms to wait asynchronously.
  if (!(ms >= 1 && ms <= TIMEOUT_MAX)) ms = 1;
  return ms;
}

function addTimer(callback, delay, args, repeat) {
  if (typeof callback !== 'function') {
    throw new TypeErrorCtor('The "callback" argument must be of type function. Received ' + inspect(callback));
  }
  const id = timerState.nextId++;
  const timer = { __proto__: null, id, callback, args, repeat, delay: coerceDelay(delay), cell: undefined, due: 0 };
  timerState.active[id] = timer;
  timerState.pending++;
  armTimer(timer);
  return id;
}

// In a journaled run (journal.js) a timer knows when it is due by the run's clock, and while the
// journal's prefix lasts it fires as soon as it may, its turn decided by the prefix.
function armTimer(timer) {
  let delay = timer.delay;
  if (journalState.on) {
    timer.due = userNow() + delay;
    if (journalReplaying()) delay = 1;
  }
  timer.cell = afterDelay(delay, () => fireTimer(timer));
}

function fireTimer(timer) {
  if (timerState.stopped || timerState.active[timer.id] !== timer) return;
  if (journalState.on) {
    journalTimer(timer);
    return;
  }
  fireTimerNow(timer);
}

function fireTimerNow(timer) {
  if (timerState.stopped || timerState.active[timer.id] !== timer) return;
  if (!timer.repeat) removeTimer(timer, false);
  try {
    ReflectApply(timer.callback, undefined, timer.args);
  } catch (error) {
    reportUncaught(error);
    return;
  }
  if (timer.repeat && timerState.active[timer.id] === timer && !timerState.stopped) armTimer(timer);
  else if (!timer.repeat) notifyIfIdle();
}

function removeTimer(timer, wake) {
  delete timerState.active[timer.id];
  timerState.pending--;
  // Wake the waiter now so that nothing lingers in the isolate.
  if (wake && timer.cell !== undefined) releaseCell(timer.cell);
}

function clearTimer(id) {
  if (typeof id !== 'number' && typeof id !== 'string') return;
  const timer = timerState.active[id];
  if (timer === undefined) return;
  removeTimer(timer, true);
  notifyIfIdle();
}

function notifyIfIdle() {
  if (timerState.pending === 0 && timerState.onIdle !== undefined) timerState.onIdle();
}

// group: eager
function stopAllTimers() {
  timerState.stopped = true;
  const ids = ObjectKeys(timerState.active);
  for (let i = 0; i < ids.length; i++) {
    const timer = timerState.active[ids[i]];
    if (timer !== undefined && timer.cell !== undefined) releaseCell(timer.cell);
  }
  timerState.active = ObjectCreate(null);
  timerState.pending = 0;
}

function reportUncaught(error) {
  if (timerState.onUncaught !== undefined) timerState.onUncaught(error);
}

async function runMicrotask(callback) {
  await undefined;
  if (timerState.stopped) return;
  try {
    callback();
  } catch (error) {
    reportUncaught(error);
  }
}

const timerFunctions = {
  setTimeout(callback, delay, ...args) {
    return addTimer(callback, delay, args, false);
  },
  setInterval(callback, delay, ...args) {
    return addTimer(callback, delay, args, true);
  },
  clearTimeout(id) {
    clearTimer(id);
  },
  clearInterval(id) {
    clearTimer(id);
  },
  queueMicrotask(callback) {
    if (typeof callback !== 'function') {
      throw new TypeErrorCtor('The "callback" argument must be of type function. Received ' + inspect(callback));
    }
    runMicrotask(callback);
  },
};
