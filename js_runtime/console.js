// The `console` the model's code prints with. Output goes into the run's capped stdout
// and stderr streams (log/info/debug/dir/table/count/time to stdout; warn/error/trace/
// assert to stderr), formatted like Node's console, with group indentation.

const output = {
  __proto__: null,
  stdout: newStream(65536),
  stderr: newStream(65536),
  groupIndent: '',
  counts: ObjectCreate(null),
  timers: ObjectCreate(null),
};

// group: eager
function resetOutput(limit) {
  output.stdout = newStream(limit);
  output.stderr = newStream(limit);
  output.groupIndent = '';
  output.counts = ObjectCreate(null);
  output.timers = ObjectCreate(null);
  deferred.lines = list();
  deferred.head = 0;
  takeInspectOmitted();
}

// Lines wait here, in order, while an earlier line waits for the state of a promise it shows.
const deferred = { __proto__: null, lines: list(), head: 0 };

function emitLine(stream, text, omitted, raw) {
  streamWrite(stream, raw === true ? text : text + '\n');
  if (omitted > 0) stream.innerOmitted += omitted;
}

// Text written as it is, without a line break or the group's indentation (process.stdout.write),
// in order with the console's lines.
function writeRaw(stream, text) {
  if (text === '') return;
  if (deferred.head < deferred.lines.length) {
    ArrayPrototypePush(deferred.lines, { __proto__: null, stream, text, omitted: 0, ready: true, raw: true });
  } else {
    emitLine(stream, text, 0, true);
  }
}

function writeLine(stream, text) {
  if (output.groupIndent !== '') text = output.groupIndent + indentLines(text, output.groupIndent);
  const omitted = takeInspectOmitted();
  if (deferred.head < deferred.lines.length) {
    ArrayPrototypePush(deferred.lines, { __proto__: null, stream, text, omitted, ready: true });
  } else {
    emitLine(stream, text, omitted);
  }
}

// group: outcome
function flushReadyLines() {
  const lines = deferred.lines;
  while (deferred.head < lines.length && lines[deferred.head].ready) {
    const line = lines[deferred.head];
    lines[deferred.head] = undefined;
    deferred.head++;
    emitLine(line.stream, line.text, line.omitted, line.raw);
  }
  if (deferred.head === lines.length) {
    deferred.lines = list();
    deferred.head = 0;
  }
}

// Writes every waiting line as it stands (the run is ending); called before the outcome is built.
// group: outcome
function flushDeferredOutput() {
  const lines = deferred.lines;
  for (let i = deferred.head; i < lines.length; i++) {
    const line = lines[i];
    if (line.ready) continue;
    line.ready = true;
    // Its check never ran (the run was stopped): the promises it would have settled are unknown.
    promiseWatch.unknown = line.pending;
    promiseWatch.confirmed = line.confirmed;
    try {
      const text = formatForConsole(line.render, line.first, line.second);
      if (text !== undefined) setLineText(line, text);
    } catch {
      // The line keeps the text it has.
    } finally {
      promiseWatch.unknown = undefined;
      promiseWatch.confirmed = undefined;
    }
  }
  flushReadyLines();
}

// group: eager
function outputDeferred() {
  return deferred.head < deferred.lines.length;
}

// Renders one console line. When it shows a promise as pending, the line waits for a check
// queued behind the promises' reactions: a promise that had in fact settled before the call is
// then rendered again with its value (the rest of the line as it is then), and later lines
// wait behind it so that the order of the output stays as the code wrote it.
function writeRendered(stream, render, first, second) {
  const previous = promiseWatch.pending;
  const pending = list();
  promiseWatch.pending = pending;
  let text;
  try {
    text = formatForConsole(render, first, second);
  } finally {
    promiseWatch.pending = previous;
  }
  if (text === undefined) return undefined;
  if (pending.length === 0) {
    writeLine(stream, text);
    return text;
  }
  const indent = output.groupIndent;
  const line = {
    __proto__: null, stream, text: '', omitted: 0, ready: false, render, first, second, indent,
    pending, confirmed: list(), rounds: 0,
  };
  setLineText(line, text);
  ArrayPrototypePush(deferred.lines, line);
  queueCheck(() => checkLine(line));
  return text;
}

function setLineText(line, text) {
  line.text = line.indent === '' ? text : line.indent + indentLines(text, line.indent);
  line.omitted = takeInspectOmitted();
}

function checkLine(line) {
  try {
    let settled = false;
    for (let i = 0; i < line.pending.length; i++) {
      const record = WeakMapPrototypeGet(promiseStates, line.pending[i]);
      if (record !== undefined && record.state !== 'pending') settled = true;
      else ArrayPrototypePush(line.confirmed, line.pending[i]);
    }
    if (settled) {
      const previousPending = promiseWatch.pending;
      const previousConfirmed = promiseWatch.confirmed;
      const pending = list();
      promiseWatch.pending = pending;
      promiseWatch.confirmed = line.confirmed;
      let text;
      try {
        // Outside the console call, an exception of a custom inspect method has no caller to reach:
        // the line then keeps the text rendered at the call.
        text = formatForConsole(line.render, line.first, line.second);
      } finally {
        promiseWatch.pending = previousPending;
        promiseWatch.confirmed = previousConfirmed;
      }
      if (text !== undefined) setLineText(line, text);
      line.rounds++;
      if (pending.length > 0 && line.rounds < PROBE_ROUNDS) {
        line.pending = pending;
        queueCheck(() => checkLine(line));
        return;
      }
    }
  } catch {
    // The line keeps the text it has.
  }
  line.ready = true;
  flushReadyLines();
}

// Runs a console formatting step; an exception of a custom inspect method leaves the console
// call as in Node, while a failure of the formatting itself becomes a placeholder.
function formatForConsole(format, first, second) {
  const previous = customState.rethrow;
  customState.rethrow = true;
  try {
    return format(first, second);
  } catch (error) {
    if (error === customThrew) throw takeCustomError();
    return '<console formatting failed: ' + describeThrown(error) + '>';
  } finally {
    customState.rethrow = previous;
  }
}

function printTo(stream, args) {
  writeRendered(stream, formatArgs, args);
}

function labelText(label) {
  if (label === undefined) return 'default';
  if (typeof label === 'string') return label;
  if (label === null || (typeof label !== 'object' && typeof label !== 'function')) return primitiveToString(label);
  return formatAsString(label);
}

function formatDuration(ms) {
  if (ms < 1000) return ms + 'ms';
  if (ms < 60000) return NumberPrototypeToFixed(ms / 1000, 3) + 's';
  const minutes = MathFloor(ms / 60000);
  const seconds = NumberPrototypeToFixed((ms - minutes * 60000) / 1000, 3);
  return minutes + ':' + (seconds.length < 6 ? '0' + seconds : seconds) + ' (m:ss.mmm)';
}

// console.dir renders without custom inspect methods unless its options ask for them, as Node's does.
function dirOptions(options) {
  const merged = { __proto__: null, customInspect: false };
  if (options !== null && typeof options === 'object') {
    const keys = ObjectKeys(options);
    for (let i = 0; i < keys.length; i++) merged[keys[i]] = ownOption(options, keys[i]);
  }
  return merged;
}

const consoleObject = {
  log(...args) {
    printTo(output.stdout, args);
  },
  info(...args) {
    printTo(output.stdout, args);
  },
  debug(...args) {
    printTo(output.stdout, args);
  },
  warn(...args) {
    printTo(output.stderr, args);
  },
  error(...args) {
    printTo(output.stderr, args);
  },
  trace(...args) {
    const message = formatForConsole(formatArgs, args);
    let frames = list();
    try {
      const probe = new ErrorCtor('trace');
      const stack = rawStack(probe);
      if (stack !== undefined) frames = framesOf(probe, stack);
    } catch {
      // No stack: print the header alone.
    }
    writeLine(output.stderr, joinStack(message === '' ? 'Trace' : 'Trace: ' + message, frames));
  },
  dir(value, options) {
    writeRendered(output.stdout, inspect, value, dirOptions(options));
  },
  dirxml(...args) {
    printTo(output.stdout, args);
  },
  table(data, properties) {
    if (writeRendered(output.stdout, renderTable, data, properties) === undefined) {
      printTo(output.stdout, asList([data]));
    }
  },
  assert(condition, ...args) {
    if (condition) return;
    if (args.length === 0) {
      writeLine(output.stderr, 'Assertion failed');
    } else if (typeof args[0] === 'string') {
      args[0] = 'Assertion failed: ' + args[0];
      printTo(output.stderr, args);
    } else {
      const rest = asList(['Assertion failed:']);
      for (let i = 0; i < args.length; i++) ArrayPrototypePush(rest, args[i]);
      printTo(output.stderr, rest);
    }
  },
  count(label) {
    const name = labelText(label);
    const count = (output.counts[name] === undefined ? 0 : output.counts[name]) + 1;
    output.counts[name] = count;
    writeLine(output.stdout, name + ': ' + count);
  },
  countReset(label) {
    const name = labelText(label);
    if (output.counts[name] === undefined) writeLine(output.stderr, "Count for '" + name + "' does not exist");
    else output.counts[name] = 0;
  },
  time(label) {
    const name = labelText(label);
    if (output.timers[name] !== undefined) {
      writeLine(output.stderr, "Warning: Label '" + name + "' already exists for console.time()");
      return;
    }
    output.timers[name] = userNow();
  },
  timeEnd(label) {
    const name = labelText(label);
    const start = output.timers[name];
    if (start === undefined) {
      writeLine(output.stderr, "Warning: No such label '" + name + "' for console.timeEnd()");
      return;
    }
    delete output.timers[name];
    writeLine(output.stdout, name + ': ' + formatDuration(userNow() - start));
  },
  timeLog(label, ...data) {
    const name = labelText(label);
    const start = output.timers[name];
    if (start === undefined) {
      writeLine(output.stderr, "Warning: No such label '" + name + "' for console.timeLog()");
      return;
    }
    let text = name + ': ' + formatDuration(userNow() - start);
    if (data.length > 0) text += ' ' + formatForConsole(formatArgs, data);
    writeLine(output.stdout, text);
  },
  group(...label) {
    if (label.length > 0) printTo(output.stdout, label);
    output.groupIndent += '  ';
  },
  groupCollapsed(...label) {
    if (label.length > 0) printTo(output.stdout, label);
    output.groupIndent += '  ';
  },
  groupEnd() {
    output.groupIndent = StringPrototypeSlice(output.groupIndent, 0, MathMax(0, output.groupIndent.length - 2));
  },
};
