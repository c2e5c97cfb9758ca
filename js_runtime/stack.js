// Turns V8 stack traces into what the model should see: the frames of its own code
// (main.js) with line numbers that match what it wrote, without the runtime's frames or
// the eval plumbing, and the line/column of the top-most frame of its code.

const SCRIPT_NAME = 'main.js';
const RUNTIME_SCRIPT_NAME = 'sandbox-runtime.js';
const FRAME_START = '\n    at ';

// Lines to subtract in main.js locations: 1 when the code runs as the body of an async
// function, whose first line is the wrapper's. Set by run(); used only by adjustFrame.
let lineOffset = 0;
// Where the runtime inserted text into the model's line (`return (` for async mode's completion
// value, `(` around a final object literal): columns after it on that line are reported as the
// model wrote them.
const RETURN_PREFIX_LENGTH = 'return ('.length;
const columnShift = { __proto__: null, line: 0, column: 0, length: RETURN_PREFIX_LENGTH };

function isErrorValue(value) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  if (ErrorIsError !== undefined) return ErrorIsError(value);
  return chainIncludes(prototypeChain(value), ErrorPrototype);
}

// The stack string of an error, read through V8's own accessor only. (V8 formats it on
// first read, which runs Error.prepareStackTrace if the code installed one.)
function rawStack(error) {
  try {
    const descriptor = describe(error, 'stack');
    if (descriptor === undefined) return undefined;
    let stack;
    if (isDataDescriptor(descriptor)) stack = descriptor.value;
    else if (ErrorStackGetter !== undefined && descriptor.get === ErrorStackGetter) {
      stack = ReflectApply(ErrorStackGetter, error, []);
    }
    return typeof stack === 'string' ? stack : undefined;
  } catch {
    return undefined;
  }
}

function isUserFrame(frame) {
  return StringPrototypeIncludes(frame, '(' + SCRIPT_NAME + ':') ||
    StringPrototypeIncludes(frame, ' ' + SCRIPT_NAME + ':');
}

function isRuntimeFrame(frame) {
  return StringPrototypeIncludes(frame, RUNTIME_SCRIPT_NAME) || frame === '    at eval (<anonymous>)';
}

// Top-level code runs inside eval, which V8 names `eval`; show it as a plain location.
// In async mode, shift every main.js line number up by one.
function adjustFrame(frame) {
  const evalPrefix = '    at eval (' + SCRIPT_NAME + ':';
  if (StringPrototypeStartsWith(frame, evalPrefix) && StringPrototypeEndsWith(frame, ')')) {
    frame = '    at ' + StringPrototypeSlice(frame, evalPrefix.length - SCRIPT_NAME.length - 1, -1);
  }
  if (lineOffset === 0 && columnShift.line === 0) return frame;
  let result = '';
  let position = 0;
  const needle = SCRIPT_NAME + ':';
  let found = StringPrototypeIndexOf(frame, needle);
  while (found !== -1) {
    const digitsStart = found + needle.length;
    let digitsEnd = digitsStart;
    while (digitsEnd < frame.length) {
      const code = StringPrototypeCharCodeAt(frame, digitsEnd);
      if (code < 48 || code > 57) break;
      digitsEnd++;
    }
    if (digitsEnd > digitsStart) {
      const line = MathMax(1, NumberParseInt(StringPrototypeSlice(frame, digitsStart, digitsEnd), 10) - lineOffset);
      result += StringPrototypeSlice(frame, position, digitsStart) + line;
      position = digitsEnd;
      if (line === columnShift.line && StringPrototypeCharCodeAt(frame, digitsEnd) === 58) {
        let columnEnd = digitsEnd + 1;
        while (columnEnd < frame.length) {
          const code = StringPrototypeCharCodeAt(frame, columnEnd);
          if (code < 48 || code > 57) break;
          columnEnd++;
        }
        let column = NumberParseInt(StringPrototypeSlice(frame, digitsEnd + 1, columnEnd), 10);
        if (column >= columnShift.column + columnShift.length) column -= columnShift.length;
        result += ':' + column;
        position = columnEnd;
      }
    }
    found = StringPrototypeIndexOf(frame, needle, digitsEnd);
  }
  return result + StringPrototypeSlice(frame, position);
}

function splitFrames(stack) {
  const frames = list();
  const first = StringPrototypeIndexOf(stack, FRAME_START);
  if (first === -1) return frames;
  let position = first + 1;
  while (position < stack.length) {
    let newline = StringPrototypeIndexOf(stack, '\n', position);
    if (newline === -1) newline = stack.length;
    ArrayPrototypePush(frames, StringPrototypeSlice(stack, position, newline));
    position = newline + 1;
  }
  return frames;
}

// Errors whose stack formatStack wrote (their frames are already cleaned and adjusted), with
// the number of frames V8 gave it, the runtime's included.
const formattedStacks = new WeakMapCtor();

// Error.prepareStackTrace as the code finds it: V8's format, without the runtime's frames and
// with main.js positions as the model wrote them, so that a stack the code reads or prints
// matches the one an uncaught error reports. The code may replace it with its own.
// group: eager
function formatStack(error, callSites) {
  let text;
  try {
    const parts = errorNameAndMessage(error);
    text = parts[1] === '' ? parts[0] : parts[0] + ': ' + parts[1];
  } catch {
    text = 'Error';
  }
  for (let i = 0; i < callSites.length; i++) {
    const frame = '    at ' + CallSitePrototypeToString(callSites[i]);
    if (!isRuntimeFrame(frame)) text += '\n' + adjustFrame(frame);
  }
  if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
    WeakMapPrototypeSet(formattedStacks, error, callSites.length);
    if (callSites.length > 0) noteAllocationFailure(error, callSites[0]);
  }
  return text;
}

// The frames of `error`'s stack text worth showing.
function framesOf(error, stack) {
  return userFrames(stack, WeakMapPrototypeHas(formattedStacks, error));
}

// Frames worth showing: up to the last frame of main.js (what lies below is the runtime
// calling the code), leaving out runtime and eval frames; `formatted` when formatStack
// already adjusted them.
function userFrames(stack, formatted) {
  const frames = splitFrames(stack);
  let last = -1;
  for (let i = 0; i < frames.length; i++) {
    if (isUserFrame(frames[i])) last = i;
  }
  const kept = list();
  for (let i = 0; i < frames.length; i++) {
    if (last !== -1 && i > last) break;
    if (!isRuntimeFrame(frames[i])) ArrayPrototypePush(kept, formatted === true ? frames[i] : adjustFrame(frames[i]));
  }
  return kept;
}

function stackHeader(stack) {
  const first = StringPrototypeIndexOf(stack, FRAME_START);
  return first === -1 ? stack : StringPrototypeSlice(stack, 0, first);
}

function joinStack(header, frames) {
  return frames.length === 0 ? header : header + '\n' + ArrayPrototypeJoin(frames, '\n');
}

function errorNameAndMessage(error) {
  const nameValue = inheritedDataValue(error, 'name');
  const messageValue = inheritedDataValue(error, 'message');
  const name = typeof nameValue === 'string' ? nameValue : 'Error';
  const message = typeof messageValue === 'string' ? messageValue : '';
  return [name, message];
}

// The stack inspect() shows for an error: V8's header, then the cleaned frames.
function errorStackText(error) {
  const stack = rawStack(error);
  if (stack === undefined) {
    const parts = errorNameAndMessage(error);
    return parts[1] === '' ? parts[0] : parts[0] + ': ' + parts[1];
  }
  return joinStack(stackHeader(stack), framesOf(error, stack));
}

// [line, column] of the first main.js location in the frames, or null.
function firstUserLocation(frames) {
  for (let i = 0; i < frames.length; i++) {
    const frame = frames[i];
    if (!isUserFrame(frame)) continue;
    let found = StringPrototypeIndexOf(frame, '(' + SCRIPT_NAME + ':');
    if (found === -1) found = StringPrototypeIndexOf(frame, ' ' + SCRIPT_NAME + ':');
    const match = RegExpPrototypeExec(/^(\d+):(\d+)/, StringPrototypeSlice(frame, found + SCRIPT_NAME.length + 2));
    if (match !== null) return [NumberParseInt(match[1], 10), NumberParseInt(match[2], 10)];
  }
  return null;
}

// The `error` object of an outcome for a value thrown by the model's code.
function describeThrownValue(thrown, kind) {
  try {
    if (isErrorValue(thrown)) {
      const parts = errorNameAndMessage(thrown);
      const header = parts[1] === '' ? parts[0] : parts[0] + ': ' + parts[1];
      const stack = rawStack(thrown);
      const frames = stack === undefined ? list() : framesOf(thrown, stack);
      const location = firstUserLocation(frames);
      return {
        __proto__: null,
        kind: kind === 'runtime' && isAllocationFailure(thrown) ? 'memory' : kind,
        name: parts[0],
        message: parts[1],
        line: location === null ? null : location[0],
        column: location === null ? null : location[1],
        stack: joinStack(header, frames),
      };
    }
    return { __proto__: null, kind, name: 'Uncaught', message: inspect(thrown), line: null, column: null, stack: null };
  } catch (error) {
    return { __proto__: null, kind, name: 'Uncaught', message: '<unreadable thrown value: ' + describeThrown(error) + '>',
      line: null, column: null, stack: null };
  }
}
