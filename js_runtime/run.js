// The entry points the worker calls. connect(deliver, setup) hands over, once and before any
// model-written code, the worker's notification function and the source of the deferred
// groups (deferred.js), and runs the warm-up. Later calls go through workerRequest
// (end.js), whose `this` says what to do. run(code, inputJson, optionsJson, filesPayload) evaluates the
// model's code (as a script whose completion value is the result, like a REPL, or as the body
// of an async function when it uses top-level await or return) and returns the outcome as JSON text, or ''
// when the run goes on (a promise result, pending timers): the outcome then goes to `deliver`
// once the result has settled and no timer is left. abort() and abortMemory() return the
// outcome of a run that mini-racer had to terminate.

const DEFAULT_OUTPUT_CAP = 65536;
// Checks for a result promise that can no longer settle back off up to about 250 ms in
// total, in case something the runtime does not count (WebAssembly compilation) settles
// it late.
const MAX_IDLE_CHECKS = 7;
// Words without which the code cannot have queued microtask work that would still print
// after the synchronous part; when one appears, the run waits one task turn before ending.
const MICROTASK_WORDS = ['then', 'await', 'async', 'Promise', 'queueMicrotask', 'catch', 'finally',
  'WebAssembly', 'Atomics', 'import'];

const runState = {
  __proto__: null,
  cap: DEFAULT_OUTPUT_CAP,
  seed: undefined,
  completion: undefined,
  startedAt: 0,
  finished: false,
  hasResult: false,
  result: undefined,
  error: null,
  syntaxMode: null,
  asyncMode: false,
  // Set when run() returned without an outcome: finish() then hands it to `deliver`.
  pending: false,
  // A warm-up's run, whose outcome nobody waits for: finish() keeps it (see warmUpTools).
  silent: false,
  checkGeneration: 0,
  idleChecks: 0,
  outcome: undefined,
  // The isolate's heap (bytes) as the worker read it before the run, for process.memoryUsage().
  memory: undefined,
  // Whether the server shares a data folder (Node's fs reads from it).
  dataFolder: false,
};

// The options the worker sends with every run: the output cap and 32 bytes of fresh entropy
// (hex) for the web crypto API. Unreadable options leave the defaults.
function parseOptions(optionsJson) {
  const options = { __proto__: null, cap: DEFAULT_OUTPUT_CAP, seed: undefined, completion: undefined, journal: undefined,
    nodePreload: undefined, webPreload: undefined, tools: undefined, charts: false, session: false, cellPrelude: undefined,
    host: false };
  try {
    const parsed = JSONParse(optionsJson);
    if (parsed === null || typeof parsed !== 'object') return options;
    const capDescriptor = describe(parsed, 'outputCap');
    const cap = capDescriptor === undefined ? undefined : capDescriptor.value;
    if (typeof cap === 'number' && cap >= 0 && NumberIsFinite(cap)) options.cap = MathFloor(cap);
    const seedDescriptor = describe(parsed, 'seed');
    if (seedDescriptor !== undefined && typeof seedDescriptor.value === 'string') options.seed = seedDescriptor.value;
    options.completion = completionHint(describe(parsed, 'completion'));
    const journal = describe(parsed, 'journal');
    if (journal !== undefined && journal.value !== null && typeof journal.value === 'object') options.journal = journal.value;
    const iterators = describe(parsed, 'trackIterators');
    if (iterators !== undefined && iterators.value === true) wrapIteratorNext();
    const modules = describe(parsed, 'modules');
    if (modules !== undefined) provideModules(modules.value);
    const webPreload = describe(parsed, 'webPreload');
    if (webPreload !== undefined) options.webPreload = webPreload.value;
    const charts = describe(parsed, 'charts');
    options.charts = charts !== undefined && charts.value === true;
    const session = describe(parsed, 'session');
    options.session = session !== undefined && session.value === true;
    const tools = describe(parsed, 'tools');
    if (tools !== undefined) options.tools = tools.value;
    const host = describe(parsed, 'host');
    options.host = host !== undefined && host.value === true;
    options.cellPrelude = cellPrelude(describe(parsed, 'cellNames'));
    const dataFolder = describe(parsed, 'dataFolder');
    runState.dataFolder = dataFolder !== undefined && dataFolder.value === true;
    const memory = describe(parsed, 'memory');
    if (memory !== undefined && memory.value !== null && typeof memory.value === 'object') {
      const used = describe(memory.value, 'used');
      const total = describe(memory.value, 'total');
      if (used !== undefined && total !== undefined && typeof used.value === 'number' &&
        typeof total.value === 'number') {
        runState.memory = { __proto__: null, used: used.value, total: total.value };
      }
    }
    takePackages(describe(parsed, 'packages')); // packages.js: the npm modules the code names
    const nodeModules = describe(parsed, 'nodeModules');
    if (nodeModules !== undefined) {
      provideNodeModules(nodeModules.value);
      installNodeModules();
      const preload = describe(parsed, 'nodePreload');
      if (preload !== undefined) options.nodePreload = preload.value;
    }
  } catch {
    // Unreadable options: use the defaults.
  }
  return options;
}

// The last statement of the code as the worker's parser found it: [start, end, kind] in UTF-16
// units, kind 'expression' or 'object' (a block that reads as an object literal, `{ a, b }`).
function completionHint(descriptor) {
  if (descriptor === undefined || !ArrayIsArray(descriptor.value) || descriptor.value.length !== 3) return undefined;
  const start = descriptor.value[0];
  const end = descriptor.value[1];
  const kind = descriptor.value[2];
  if (typeof start !== 'number' || typeof end !== 'number' || !(start >= 0 && end > start)) return undefined;
  if (kind !== 'expression' && kind !== 'object') return undefined;
  return { __proto__: null, start, end, kind };
}

// Session cells (sandbox_server/sandbox/source/cells.py): the worker rewrote the cell's top-level
// declarations into writes to global variables, and sends their names as `cellNames`. Declared here
// with `var`, in a script of their own, they outlive the cell, and a cell that declares them again
// only assigns them again: `var a, b;`, or undefined without names (or with one that is no name).
const CELL_NAME = new RegExpCtor('^[\\p{ID_Start}$_][\\p{ID_Continue}$\\u200c\\u200d]*$', 'u');

function cellPrelude(descriptor) {
  if (descriptor === undefined || !ArrayIsArray(descriptor.value) || descriptor.value.length === 0) return undefined;
  const names = descriptor.value;
  for (let i = 0; i < names.length; i++) {
    if (typeof names[i] !== 'string' || RegExpPrototypeExec(CELL_NAME, names[i]) === null) return undefined;
  }
  return 'var ' + ArrayPrototypeJoin(names, ', ') + ';';
}

function resetRun(options) {
  const cap = options.cap;
  runState.cap = cap;
  runState.seed = options.seed;
  runState.completion = options.completion;
  // A journaled run (journal.js) reads its clock, from its start, through the journal.
  journalState.on = false;
  if (options.journal !== undefined) startJournal(options.journal);
  runState.startedAt = userNow();
  runState.finished = false;
  runState.hasResult = false;
  runState.result = undefined;
  runState.error = null;
  runState.syntaxMode = null;
  runState.asyncMode = false;
  runState.pending = false;
  runState.silent = false;
  runState.checkGeneration++;
  runState.idleChecks = 0;
  runState.outcome = undefined;
  lineOffset = 0;
  columnShift.line = 0;
  columnShift.length = RETURN_PREFIX_LENGTH;
  stringKeepChars = MathMax(cap, 1024);
  resetOutput(cap);
  resetTimers();
  resetHostCalls();
  resetDisplays(options.charts);
  timerState.onUncaught = onUncaught;
  timerState.onIdle = scheduleCheck;
  ErrorCtor.stackTraceLimit = initialStackTraceLimit;
}

// The worker passes every argument here before any model-written code runs; the notification a
// run's host calls go through came with connect() (host.js), and the option `host` lets it use it.
function run(code, inputJson, optionsJson, filesPayload) {
  try {
    return startRun('' + code, inputJson, '' + optionsJson, filesPayload);
  } catch (error) {
    return internalFailureOutcome(error);
  }
}

function startRun(code, inputJson, optionsJson, filesPayload) {
  const options = parseOptions(optionsJson);
  resetRun(options);
  hostState.allowed = options.host;
  let input;
  if (typeof inputJson === 'string' && inputJson !== '') {
    try {
      input = JSONParse(inputJson);
    } catch (error) {
      runState.error = { __proto__: null, kind: 'runtime', name: 'SyntaxError', message: 'input is not valid JSON: ' +
        thrownMessage(error), line: null, column: null, stack: null };
      return finish();
    }
  }
  defineGlobalValue('input', input);
  // files.js: the global `files`, only when the call named files; a session's call that names none keeps the
  // files an earlier call loaded.
  if (!options.session || (typeof filesPayload === 'string' && filesPayload !== '')) defineFiles(filesPayload);
  defineTools(options.tools); // tools.js: the global `tools`, only in execute_js_with_tools
  preloadWebModules(options.webPreload); // web.js and node.js: the modules the code names, before it runs
  preloadNodeModules(options.nodePreload);
  if (options.cellPrelude !== undefined) {
    // A session cell's names (cellPrelude), declared before the cell runs.
    try {
      indirectEval(options.cellPrelude);
    } catch (error) {
      return failSynchronously(error);
    }
  }

  // Code that mentions `await` runs as an async function body whenever it parses as one: as a
  // script, `await (x)` would parse as a call of a function named await and fail at run time.
  if (RegExpPrototypeExec(AWAIT_WORD, code) !== null) {
    const body = compileAsyncBody(code);
    if (body !== undefined) return runAsyncBody(code, body);
  }
  const script = scriptSource(code);
  let value;
  try {
    value = indirectEval(script + '\n//# sourceURL=' + SCRIPT_NAME);
  } catch (error) {
    // A SyntaxError is a parse error of the script only if the script does not parse: one the
    // code threw while running (JSON.parse) must not make it run a second time as an async body.
    if (!isSyntaxErrorValue(error) || parsesAsScript(withoutHashbang(script), hasStrictDirective(script))) {
      return failSynchronously(error);
    }
    if (!StringPrototypeIncludes(code, 'await') && !StringPrototypeIncludes(code, 'return')) {
      return reportSyntaxError(error, 'script');
    }
    let body;
    try {
      body = compileAsyncBody(code, true);
    } catch (asyncError) {
      // V8's word for a body that would close the function early says less than the script's error.
      const closesEarly = isSyntaxErrorValue(asyncError) &&
        errorNameAndMessage(asyncError)[1] === 'Single function literal required';
      if (closesEarly || !isSyntaxErrorValue(asyncError)) return reportSyntaxError(error, 'script');
      return reportSyntaxError(asyncError, 'async');
    }
    return runAsyncBody(code, body);
  }
  return afterEvaluation(code, value);
}

const AWAIT_WORD = new RegExpCtor('\\bawait\\b');

// The code as a script: a last statement that is a block reading as an object literal
// (`{ mean, median }`) is wrapped in parentheses, so that, as in Node's REPL, the object is the
// result rather than the block's last value.
function scriptSource(code) {
  const hint = runState.completion;
  if (hint === undefined || hint.kind !== 'object' || hint.end > code.length) return code;
  if (StringPrototypeCharCodeAt(code, hint.start) !== 123 || StringPrototypeCharCodeAt(code, hint.end - 1) !== 125) {
    return code;
  }
  const position = positionOf(code, hint.start);
  columnShift.line = position.line;
  columnShift.column = position.column;
  columnShift.length = 1;
  return StringPrototypeSlice(code, 0, hint.start) + '(' + StringPrototypeSlice(code, hint.start, hint.end) + ')' +
    StringPrototypeSlice(code, hint.end);
}

// The model's code compiled (not run) as the body of an async function whose last expression
// statement is returned when there is one. Undefined when it does not parse, unless `rethrow`.
// group: async
function compileAsyncBody(code, rethrow) {
  columnShift.line = 0;
  let body;
  try {
    body = AsyncFunctionCtor(code + '\n//# sourceURL=' + SCRIPT_NAME);
  } catch (error) {
    // A last statement that reads as an object literal (`{ total, count }`) is a syntax error
    // as the block JavaScript takes it for; returned as an expression, it is what was meant.
    const hint = runState.completion;
    const returned = hint !== undefined && hint.kind === 'object' ? compileHinted(code, hint) : undefined;
    if (returned !== undefined) return returningBody(returned);
    if (rethrow === true) throw error;
    return undefined;
  }
  const completion = compileWithCompletion(code, runState.completion);
  return completion === undefined ? body : returningBody(completion);
}

// The body of a compiled completion; stack positions on its line shift back past `return (`.
// group: async
function returningBody(completion) {
  columnShift.line = completion.line;
  columnShift.column = completion.column;
  columnShift.length = RETURN_PREFIX_LENGTH;
  return completion.body;
}

// Lines V8 puts before the body of a function made by the AsyncFunction constructor
// (`(async function anonymous(` and `) {`).
const ASYNC_BODY_LINE_OFFSET = 2;

// group: async
function runAsyncBody(code, body) {
  runState.asyncMode = true;
  lineOffset = ASYNC_BODY_LINE_OFFSET;
  let value;
  try {
    value = ReflectApply(body, globalObject, []);
  } catch (callError) {
    return failSynchronously(callError);
  }
  return afterEvaluation(code, value);
}

// group: errors
function isSyntaxErrorValue(error) {
  return isErrorValue(error) && chainIncludes(prototypeChain(error), SyntaxErrorPrototype);
}

// A script may start with a hashbang line, which the parse check's `throw` in front would
// turn into an error: it is a comment.
// group: errors
function withoutHashbang(script) {
  return StringPrototypeStartsWith(script, '#!') ? '//' + StringPrototypeSlice(script, 2) : script;
}

// Whether the script's directive prologue (the string literal statements it starts with)
// holds 'use strict', which makes the whole script strict.
// group: errors
function hasStrictDirective(script) {
  let i = skipInsignificant(script, StringPrototypeStartsWith(script, '#!') ? StringPrototypeIndexOf(script, '\n') : 0);
  if (i < 0) return false;
  const length = script.length;
  while (i < length) {
    const quote = script[i];
    if (quote !== '"' && quote !== "'") return false;
    let end = i + 1;
    while (end < length && script[end] !== quote) {
      if (script[end] === '\n' || script[end] === '\r') return false;
      end += script[end] === '\\' ? 2 : 1;
    }
    if (end >= length) return false;
    const raw = StringPrototypeSlice(script, i + 1, end);
    const next = skipInsignificant(script, end + 1);
    // The literal is a statement of its own when a `;`, the end, or a line break that does not
    // continue the expression follows it.
    const ends = next >= length || script[next] === ';' ||
      (hasLineBreak(script, end + 1, next) && !StringPrototypeIncludes(CONTINUATION_STARTS, script[next]) &&
        !startsWithWord(script, next, 'in') && !startsWithWord(script, next, 'instanceof'));
    if (!ends) return false;
    if (raw === 'use strict') return true;
    i = script[next] === ';' ? skipInsignificant(script, next + 1) : next;
  }
  return false;
}

// group: errors
function hasLineBreak(text, from, to) {
  for (let k = from; k < to; k++) {
    const ch = text[k];
    if (ch === '\n' || ch === '\r' || ch === '\u2028' || ch === '\u2029') return true;
  }
  return false;
}

// group: errors
function startsWithWord(text, at, word) {
  if (!StringPrototypeStartsWith(StringPrototypeSlice(text, at, at + word.length + 1), word)) return false;
  const after = StringPrototypeCharCodeAt(text, at + word.length);
  return NumberIsNaN(after) || !isIdentifierCharCode(after);
}

// group: errors
function reportSyntaxError(error, mode) {
  const parts = errorNameAndMessage(error);
  runState.syntaxMode = mode;
  runState.asyncMode = mode === 'async';
  runState.error = { __proto__: null, kind: 'syntax', name: parts[0], message: parts[1], line: null, column: null, stack: null };
  return finish();
}

// group: errors
function failSynchronously(error) {
  if (isExitSentinel(error)) return finish();
  runState.error = describeThrownValue(error, 'runtime');
  return finish();
}

// The worker's only way back in: a native function (a mini-racer notification) that connect()
// receives while the isolate holds nothing but the runtime, kept only in this closure. An
// outcome that is not ready when run() returns is handed to it; mini-racer copies the
// arguments of a notification into a fresh array in C++, which no prototype can intercept.
// After the model's code has run, the worker calls functions only without arguments (their
// argument lists would go through the isolate's Array.prototype).
let deliver;

// The argument list of every call after connect(), which the worker passes empty (mini-racer's
// own calls build a new list, with the isolate's Array.prototype, which the code may have
// changed). connect() returns it. Only the worker holds it.
const workerArguments = [];

// `setup` is 'warm' or 'cold' (whether to run the warm-up), a line break and the deferred source;
// `hostCallback`, when given, the notification of host calls (host.js), which a run may use only
// when its options say `host`. Returns the argument list once connected, the warm-up's failure
// if it failed, or false.
function connect(callback, setup, hostCallback) {
  if (deliver !== undefined || typeof callback !== 'function' || typeof setup !== 'string') return false;
  deliver = callback;
  if (typeof hostCallback === 'function') hostState.notify = hostCallback;
  const newline = StringPrototypeIndexOf(setup, '\n');
  deferredSource = StringPrototypeSlice(setup, newline + 1);
  if (StringPrototypeSlice(setup, 0, newline) === 'warm') {
    const failure = warmUp();
    if (failure !== '') return failure;
  }
  return workerArguments;
}

// A job as the worker sends one for `0`, with the options it sends with every job (their values
// do not matter, only the paths through the runtime they take).
const WARM_UP_OPTIONS = '{"outputCap":65536,"seed":"' + StringPrototypeRepeat('0', 64) +
  '","completion":[0,1,"expression"],"charts":true}';
const WARM_UP_JOB = JSONStringify({ code: '0', input: '', options: WARM_UP_OPTIONS, files: '' });

// Runs a trivial job before the real one arrives, so that V8 has compiled the runtime's own
// code for it (it compiles a function on its first call). Returns '' when the run went as it
// should, otherwise its outcome text (or a description) for the log.
function warmUp() {
  let text;
  try {
    text = runJobText(WARM_UP_JOB);
    const outcome = JSONParse(text);
    if (outcome.ok === true && outcome.resultText === '0') text = '';
  } catch (error) {
    text = 'the warm-up run failed: ' + describeThrown(error);
  }
  return text;
}

// A job as JSON text ({code, input, options, files}), from workerRequest.
function runJobText(text) {
  let job;
  try {
    job = JSONParse(text);
  } catch (error) {
    return internalFailureOutcome(error);
  }
  try {
    return run('' + job.code, '' + job.input, '' + job.options, '' + job.files);
  } catch (error) {
    return internalFailureOutcome(error);
  }
}

// group: async
function deliverOutcome(text) {
  if (deliver !== undefined) deliver(text);
}

function afterEvaluation(code, value) {
  let thenable = false;
  if (isObjectLike(value)) {
    try {
      thenable = chainIncludes(prototypeChain(value), PromisePrototype) || typeof value.then === 'function';
    } catch (error) {
      return failSynchronously(error);
    }
  }
  if (thenable) {
    awaitResult(value);
  } else {
    runState.hasResult = true;
    runState.result = value;
    if (timerState.pending === 0 && hostState.count === 0 && !runState.asyncMode && !mayQueueMicrotasks(code) &&
      !outputDeferred()) {
      return finish();
    }
    if (isObjectLike(value)) probeResult(value);
  }
  runState.pending = true;
  scheduleCheck();
  return '';
}

// An object or a function: what can be a thenable or hold promises (probeResult).
function isObjectLike(value) {
  return value !== null && (typeof value === 'object' || typeof value === 'function');
}

function mayQueueMicrotasks(code) {
  for (let i = 0; i < MICROTASK_WORDS.length; i++) {
    if (StringPrototypeIncludes(code, MICROTASK_WORDS[i])) return true;
  }
  return false;
}

// group: async
async function awaitResult(value) {
  let settled;
  try {
    settled = await value;
  } catch (error) {
    if (runState.finished || isExitSentinel(error)) return;
    runState.error = describeThrownValue(error, 'runtime');
    finish();
    return;
  }
  if (runState.finished) return;
  runState.hasResult = true;
  runState.result = settled;
  if (isObjectLike(settled)) probeResult(settled);
  scheduleCheck();
}

// A callback or microtask threw: Node would print it and exit, so the run ends here.
// group: async
function onUncaught(error) {
  if (runState.finished || isExitSentinel(error)) return;
  let text;
  try {
    text = 'Uncaught ' + inspect(error);
  } catch {
    text = 'Uncaught exception';
  }
  writeLine(output.stderr, text);
  runState.error = describeThrownValue(error, 'runtime');
  finish();
}

// Looks again after every pending microtask has run (the check is a separate task).
// group: async
function scheduleCheck() {
  if (runState.finished) return;
  runState.idleChecks = 0;
  const generation = ++runState.checkGeneration;
  nextTask(() => checkDone(generation));
}

// group: async
function checkDone(generation) {
  if (runState.finished || generation !== runState.checkGeneration) return;
  if (timerState.pending > 0 || hostState.count > 0) return;
  if (runState.hasResult) {
    finish();
    return;
  }
  // Nothing is left that could settle the result; look a few more times, then give up.
  runState.idleChecks++;
  if (runState.idleChecks > MAX_IDLE_CHECKS) {
    runState.error = {
      __proto__: null,
      kind: 'runtime',
      name: 'Error',
      message: 'The result promise never settled: it was still pending when no timers or other work were left ' +
        '(is a resolve() call missing?)',
      line: null,
      column: null,
      stack: null,
    };
    finish();
    return;
  }
  const next = ++runState.checkGeneration;
  afterDelay(1 << runState.idleChecks, () => checkDone(next));
}

function finish() {
  if (runState.finished && runState.outcome !== undefined) return runState.outcome;
  runState.finished = true;
  stopAllTimers();
  let text;
  try {
    noteExitCode();
    text = buildOutcome();
  } catch (error) {
    text = internalFailureOutcome(error);
  }
  runState.outcome = text;
  if (runState.pending) {
    runState.pending = false;
    if (!runState.silent) deliverOutcome(text);
  }
  return text;
}

// The worker calls these without arguments; `reason` defaults to "timeout". A run paused for
// the user's consent ends with kind 'paused' and its journal, to be run again from the start.
function abort(reason) {
  try {
    runState.finished = true;
    runState.pending = false;
    stopAllTimers();
    runState.hasResult = false;
    runState.result = undefined;
    const kind = reason === 'memory' || reason === 'paused' ? reason : 'timeout';
    runState.error = { __proto__: null, kind, name: null, message: null, line: null,
      column: null, stack: null };
    const text = buildOutcome();
    runState.outcome = text;
    return text;
  } catch (error) {
    return internalFailureOutcome(error);
  }
}

function abortMemory() {
  return abort('memory');
}

function pauseRun() {
  return abort('paused');
}

// The rendered result goes through a stream like the console output, sharing its budget.
// Returns whether the rendering left something out (items, depth, the end of a string).
// group: outcome
function renderResult(stream, value) {
  if (typeof value === 'string' && value.length > MAX_STRING_LENGTH) {
    // As Node's REPL echoes it: quoted, cut at maxStringLength with '... N more characters'.
    streamWrite(stream, inspect(value));
    stream.innerOmitted += takeInspectOmitted();
    return true;
  }
  const plain = typeof value === 'string' ? wholeStringText(value) : plainPrimitiveText(value);
  if (plain !== undefined) {
    streamWrite(stream, plain);
    return false;
  }
  streamWrite(stream, inspect(value, typeof value === 'string' ? WHOLE_STRING_OPTIONS : undefined));
  stream.innerOmitted += takeInspectOmitted();
  return inspectShortened;
}

function nullableJson(value) {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return '' + value;
  return jsonString(value);
}

const ERROR_TEXT_FIELDS = ['name', 'message', 'stack'];

// The error object's JSON; its text fields are the fitted texts from `first` on (null where the
// field was not a string).
// group: outcome
function errorJson(error, texts, first) {
  if (error === null) return 'null';
  const fields = ERROR_TEXT_FIELDS;
  let json = '{"kind":' + jsonString(error.kind);
  for (let i = 0; i < fields.length; i++) {
    json += ',"' + fields[i] + '":' + (typeof error[fields[i]] === 'string' ? jsonString(texts[first + i]) : 'null');
    if (i === 1) json += ',"line":' + nullableJson(error.line) + ',"column":' + nullableJson(error.column);
  }
  return json + '}';
}

// stdout, stderr, the rendered result and the error's name, message and stack all share the one
// output cap: each is a stream, and the budget is shared among them.
function buildOutcome() {
  const plain = primitiveOutcome();
  return plain !== undefined ? plain : generalOutcome();
}

// group: outcome
function generalOutcome() {
  flushDeferredOutput();
  const cap = runState.cap;
  let omitted = 0;
  let resultType = null;
  let resultJson = null;
  let resultIndex = -1;
  let shortened = false;
  const streams = asList([output.stdout, output.stderr]);
  if (runState.hasResult) {
    const value = runState.result;
    resultType = resultTypeOf(value);
    const resultStream = newStream(cap);
    try {
      shortened = renderResult(resultStream, value);
    } catch (error) {
      streamWrite(resultStream, '<rendering failed: ' + describeThrown(error) + '>');
    }
    resultIndex = streams.length;
    ArrayPrototypePush(streams, resultStream);
    if (value !== undefined) {
      try {
        const serialized = serialize(value, cap);
        if (serialized.text === null) omitted += serialized.bytes;
        else resultJson = serialized.text;
      } catch {
        // No structured form for this value; the rendered text remains.
      }
    }
  }
  const error = runState.error;
  const errorIndex = streams.length;
  if (error !== null) {
    for (let i = 0; i < ERROR_TEXT_FIELDS.length; i++) {
      const stream = newStream(cap);
      const text = error[ERROR_TEXT_FIELDS[i]];
      if (typeof text === 'string') streamWrite(stream, text);
      ArrayPrototypePush(streams, stream);
    }
  }
  const demands = list();
  for (let i = 0; i < streams.length; i++) ArrayPrototypePush(demands, streamDemand(streams[i]));
  const shares = shareBudget(demands, cap);
  const texts = list();
  for (let i = 0; i < streams.length; i++) {
    ArrayPrototypePush(texts, streamFit(streams[i], shares[i]));
    omitted += fitOmitted;
    if (i === resultIndex && fitOmitted > 0) shortened = true;
  }
  let json = '{"ok":' + (error === null ? 'true' : 'false') +
    ',"resultText":' + (resultIndex >= 0 ? jsonString(texts[resultIndex]) : 'null');
  if (resultJson !== null) json += ',"result":' + resultJson;
  json += ',"resultType":' + nullableJson(resultType) +
    ',"stdout":' + jsonString(texts[0]) +
    ',"stderr":' + jsonString(texts[1]) +
    ',"truncated":' + (omitted > 0 ? 'true' : 'false') +
    ',"omittedBytes":' + omitted +
    ',"error":' + errorJson(error, texts, errorIndex) +
    ',"resultShortened":' + (shortened ? 'true' : 'false') +
    ',"syntaxMode":' + nullableJson(runState.syntaxMode) +
    ',"async":' + (runState.asyncMode ? 'true' : 'false');
  // The images display() collected: only their count here; the worker takes them (takeDisplays).
  if (displayState.items.length > 0) json += ',"displays":' + displayState.items.length;
  return json + (journalState.on ? journalJson() : '') + '}';
}

// The outcome buildOutcome writes for a run that ended with a number, boolean, bigint, null or
// undefined and wrote nothing else (no output, no error, no image), made without the streams
// and the budget such a run cannot fill. Most answers this runtime is asked for are numbers, and
// in a fresh isolate this leaves about a third of the code buildOutcome runs uncompiled.
// Undefined for any other run. tests/sandbox/test_primitive_outcome.py runs the corpus both
// ways.
function primitiveOutcome() {
  if (runState.error !== null || !runState.hasResult || runState.cap < 2 * PRIMITIVE_TEXT_LIMIT ||
    displayState.items.length > 0 || outputDeferred() || !isEmptyStream(output.stdout) ||
    !isEmptyStream(output.stderr)) {
    return undefined;
  }
  const value = runState.result;
  const json = primitiveJson(value);
  if (json === undefined) return undefined;
  const text = plainPrimitiveText(value);
  if (text.length > PRIMITIVE_TEXT_LIMIT) return undefined;
  // As buildOutcome: no structured result for undefined.
  return '{"ok":true,"resultText":' + jsonString(text) + (value === undefined ? '' : ',"result":' + json) +
    ',"resultType":"' + (value === null ? 'null' : typeof value) + '","stdout":"","stderr":"","truncated":false,"omittedBytes":0,"error":null' +
    ',"resultShortened":false,"syntaxMode":' + nullableJson(runState.syntaxMode) +
    ',"async":' + (runState.asyncMode ? 'true' : 'false') + (journalState.on ? journalJson() : '') + '}';
}

// The longest result text primitiveOutcome writes; the output cap must be at least twice this.
const PRIMITIVE_TEXT_LIMIT = 1024;

function isEmptyStream(stream) {
  return stream.head === '' && stream.tail === '' && stream.gap === 0 && stream.innerOmitted === 0;
}

// Last resort when the runtime itself failed: a fixed outcome that needs no rendering.
// group: errors
function internalFailureOutcome(error) {
  let message = 'the sandbox runtime failed';
  try {
    message += ': ' + describeThrown(error);
  } catch {
    // Keep the fixed message.
  }
  return '{"ok":false,"resultText":null,"resultType":null,"stdout":"","stderr":"","truncated":false,' +
    '"omittedBytes":0,"error":{"kind":"runtime","name":"InternalError","message":' + jsonString(message) +
    ',"line":null,"column":null,"stack":null},"resultShortened":false,"syntaxMode":null,"async":false}';
}
