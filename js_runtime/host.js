// Calls from the running code to the host, for what the isolate does not hold: a data-folder
// file read at run time (fs.promises), a tool of another MCP server. This is the only way out
// of the isolate while code runs, and it is narrow: one mini-racer notification (a native
// function) that connect() receives before any model-written code runs and that lives only in
// this closure, taking one string, the request as JSON the runtime itself wrote. The worker
// checks every request, the server checks it again and decides, and the answer comes back
// through settleHostCall, which the worker calls with the answer text as `this` (a string
// mini-racer makes in C++) and the empty argument list it owns. A call that is pending keeps
// the run going, as a timer does.

const hostState = {
  __proto__: null,
  notify: undefined,
  // Whether the current run may call the host (its options say `host`: the worker answers its calls).
  allowed: false,
  nextId: 1,
  // Pending calls by id: their promise's resolve and reject.
  pending: ObjectCreate(null),
  count: 0,
};

// group: eager
function resetHostCalls() {
  hostState.pending = ObjectCreate(null);
  hostState.count = 0;
  hostState.allowed = false;
  // Ids count from 1 in every run, so that a run done again asks under the same ids.
  hostState.nextId = 1;
}

// A promise of the host's answer to `kind` with `payload` (plain JSON values the runtime built).
function hostCall(kind, payload) {
  if (hostState.notify === undefined || !hostState.allowed || runState.finished) {
    return PromiseReject(new ErrorCtor('this call cannot reach the host: the server offers it no data folder or other servers to ask'));
  }
  const id = hostState.nextId++;
  const text = JSONStringify({ __proto__: null, id, kind, payload });
  return new PromiseCtor((resolve, reject) => {
    hostState.pending[id] = { __proto__: null, resolve, reject };
    hostState.count++;
    try {
      hostState.notify(text);
    } catch (error) {
      delete hostState.pending[id];
      hostState.count--;
      reject(error);
    }
  });
}

// The worker's answer, as JSON text: {"id": n, "ok": true, "value": ...} or {"id": n, "ok":
// false, "error": {"name", "message", "code", ...}}. Unknown ids (a call the run no longer waits
// for) change nothing.
function settleHostCall(text) {
  let answer;
  try {
    answer = JSONParse('' + text);
  } catch {
    return false;
  }
  if (answer === null || typeof answer !== 'object') return false;
  const id = answer.id;
  const entry = typeof id === 'number' ? hostState.pending[id] : undefined;
  if (entry === undefined) return false;
  // In a journaled run the answer waits for its turn (journal.js).
  if (journalState.on) journalAnswer(id, () => deliverHostAnswer(id, entry, answer));
  else deliverHostAnswer(id, entry, answer);
  return true;
}

function deliverHostAnswer(id, entry, answer) {
  if (hostState.pending[id] !== entry) return;
  delete hostState.pending[id];
  hostState.count--;
  if (answer.ok === true) entry.resolve(answer.value);
  else entry.reject(hostError(answer.error));
  if (hostState.count === 0) scheduleCheck();
}

// An error object for a refused or failed host call, with the fields the host gave.
function hostError(description) {
  const fields = description !== null && typeof description === 'object' ? description : ObjectCreate(null);
  const message = typeof fields.message === 'string' ? fields.message : 'the host call failed';
  const name = typeof fields.name === 'string' ? fields.name : 'Error';
  const error = new ErrorCtor(message);
  const keys = ObjectKeys(fields);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === 'message') continue;
    ReflectDefineProperty(error, key, {
      __proto__: null, value: fields[key], writable: true, configurable: true, enumerable: key !== 'name',
    });
  }
  if (name !== 'Error') {
    ReflectDefineProperty(error, 'name', { __proto__: null, value: name, writable: true, configurable: true,
      enumerable: false });
  }
  return error;
}
