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

function resetOutput(limit) {
  output.stdout = newStream(limit);
  output.stderr = newStream(limit);
  output.groupIndent = '';
  output.counts = ObjectCreate(null);
  output.timers = ObjectCreate(null);
  takeInspectOmitted();
}

function writeLine(stream, text) {
  if (output.groupIndent !== '') text = output.groupIndent + indentLines(text, output.groupIndent);
  streamWrite(stream, text + '\n');
  const omitted = takeInspectOmitted();
  if (omitted > 0) stream.innerOmitted += omitted;
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
  writeLine(stream, formatForConsole(formatArgs, args));
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
    writeLine(output.stdout, formatForConsole(inspect, value, dirOptions(options)));
  },
  dirxml(...args) {
    printTo(output.stdout, args);
  },
  table(data, properties) {
    const text = formatForConsole(renderTable, data, properties);
    if (text === undefined) printTo(output.stdout, asList([data]));
    else writeLine(output.stdout, text);
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
    output.timers[name] = DateNow();
  },
  timeEnd(label) {
    const name = labelText(label);
    const start = output.timers[name];
    if (start === undefined) {
      writeLine(output.stderr, "Warning: No such label '" + name + "' for console.timeEnd()");
      return;
    }
    delete output.timers[name];
    writeLine(output.stdout, name + ': ' + formatDuration(DateNow() - start));
  },
  timeLog(label, ...data) {
    const name = labelText(label);
    const start = output.timers[name];
    if (start === undefined) {
      writeLine(output.stderr, "Warning: No such label '" + name + "' for console.timeLog()");
      return;
    }
    let text = name + ': ' + formatDuration(DateNow() - start);
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
