// Runs a generated boundary case (boundary_cases.py) and records what it does, so that two programs can be
// compared by running them: the blanked code and what the TypeScript compiler makes of the same case. Every
// name the code does not declare stands for a recorder: reading it, its properties, calling it, using it
// as a number or a key, and assigning to it are all written to a log, so `y = x` then `[0]` (an array)
// and `y = x[0]` (a read of x's property 0) leave different logs. The log, the completion value and any
// exception, as JSON, are the program's record. Each case runs in a function of its own, so that its
// declarations do not meet the next case's. The global object's prototype becomes the recorder of free
// names: this engine is for these runs only.
var recorderLog = [];

var recorderNames = new WeakMap();

function recorderShow(value, depth) {
  if (recorderNames.has(value)) return '<' + recorderNames.get(value) + '>';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return value + 'n';
    case 'undefined':
    case 'boolean':
    case 'symbol':
      return String(value);
    case 'function': {
      const source = Function.prototype.toString.call(value);
      return (/^class\b/.test(source) ? 'class ' : 'function ') + value.name;
    }
  }
  if (value === null) return 'null';
  if (depth > 3) return '...';
  if (Array.isArray(value)) return '[' + value.map((item) => recorderShow(item, depth + 1)).join(', ') + ']';
  if (value instanceof Error) return value.name + ': ' + value.message;
  const kind = value.constructor && value.constructor !== Object ? value.constructor.name + ' ' : '';
  const entries = Object.keys(value).map((key) => key + ': ' + recorderShow(value[key], depth + 1));
  return kind + '{' + entries.join(', ') + '}';
}

function recorderStandIn(name) {
  const target = function () {};
  const standIn = new Proxy(target, {
    get(_target, key) {
      if (key === Symbol.toPrimitive) {
        return () => {
          recorderLog.push('use ' + name);
          return name;
        };
      }
      if (typeof key === 'symbol' || key === 'then') return undefined;
      recorderLog.push('get ' + name + '.' + key);
      return recorderStandIn(name + '.' + key);
    },
    set(_target, key, value) {
      recorderLog.push('set ' + name + '.' + String(key) + ' = ' + recorderShow(value, 0));
      return true;
    },
    apply(_target, _self, args) {
      recorderLog.push('call ' + name + '(' + args.map((arg) => recorderShow(arg, 0)).join(', ') + ')');
      return recorderStandIn(name + '()');
    },
    construct(_target, args) {
      recorderLog.push('new ' + name + '(' + args.map((arg) => recorderShow(arg, 0)).join(', ') + ')');
      return recorderStandIn('new ' + name);
    },
    has(_target, key) {
      recorderLog.push('has ' + name + ' ' + String(key));
      return false;
    },
    deleteProperty(_target, key) {
      recorderLog.push('delete ' + name + '.' + String(key));
      return true;
    },
  });
  recorderNames.set(standIn, name);
  return standIn;
}

Object.setPrototypeOf(
  globalThis,
  new Proxy(Object.create(null), {
    has(_target, key) {
      return typeof key === 'string';
    },
    get(_target, key) {
      if (typeof key === 'symbol') return undefined;
      recorderLog.push('read ' + key);
      return recorderStandIn(key);
    },
    set(_target, key, value) {
      recorderLog.push('assign ' + String(key) + ' = ' + recorderShow(value, 0));
      return true;
    },
  }),
);

var RecorderAsyncFunction = async function () {}.constructor;

function recorderEvaluate(code) {
  return eval(code);
}

function recorderRecord(run) {
  recorderLog = [];
  let outcome;
  try {
    outcome = { value: recorderShow(run(), 0) };
  } catch (error) {
    outcome = { error: error instanceof Error ? error.name + ': ' + error.message : recorderShow(error, 0) };
  }
  return JSON.stringify({ log: recorderLog, ...outcome });
}

// form: 'script' (the completion value is the result), 'function' (a function body, its return value is
// the result) or 'async' (an async function body; the result is its promise's, given as a promise).
function recorderRun(code, form) {
  if (form === 'script') return recorderRecord(() => recorderEvaluate(code));
  if (form === 'function') return recorderRecord(() => new Function(code)());
  recorderLog = [];
  let promise;
  try {
    promise = new RecorderAsyncFunction(code)();
  } catch (error) {
    return JSON.stringify({ log: recorderLog, error: error.name + ': ' + error.message });
  }
  return promise.then(
    (value) => JSON.stringify({ log: recorderLog, value: recorderShow(value, 0) }),
    (error) => JSON.stringify({ log: recorderLog, error: error instanceof Error ? error.name + ': ' + error.message : 'thrown' }),
  );
}

// Whether V8 takes `code` as JavaScript: as a script or, for top-level await and return, a function body.
function recorderIsJavaScript(code) {
  try {
    new Function(code);
    return true;
  } catch {}
  try {
    new RecorderAsyncFunction(code);
    return true;
  } catch {
    return false;
  }
}
