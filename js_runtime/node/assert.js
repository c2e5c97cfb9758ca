// module: assert
// globals:
// requires: internal/util/comparisons internal/errors
(function (host) {
  'use strict';
  // Node's assert and assert/strict, with AssertionError and the messages Node 20 writes:
  // `1 !== 2` for short values, and for larger ones a line diff (`+ actual - expected`) of
  // both values rendered as Node's assert renders them (every entry on its own line, keys
  // sorted). Deep equality is the one util.isDeepStrictEqual uses.
  const { isDeepStrictEqual, isDeepEqual } = host.require('internal/util/comparisons');
  const { codedError, invalidArgType, received } = host.require('internal/errors');
  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const getter = (object, key) => uncurry(Object.getOwnPropertyDescriptor(object, key).get);
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const getPrototypeOf = Object.getPrototypeOf;
  const setPrototypeOf = Object.setPrototypeOf;
  const create = Object.create;
  const objectKeys = Object.keys;
  const ownSymbols = Object.getOwnPropertySymbols;
  const describe = Object.getOwnPropertyDescriptor;
  const isEnumerable = uncurry(Object.prototype.propertyIsEnumerable);
  const hasOwn = uncurry(Object.prototype.hasOwnProperty);
  const objectToString = uncurry(Object.prototype.toString);
  const isPrototypeOf = uncurry(Object.prototype.isPrototypeOf);
  const is = Object.is;
  const isArray = Array.isArray;
  const isView = ArrayBuffer.isView;
  const isNaN = Number.isNaN;
  const sort = uncurry(Array.prototype.sort);
  const join = uncurry(Array.prototype.join);
  const charCodeAt = uncurry(String.prototype.charCodeAt);
  const stringSlice = uncurry(String.prototype.slice);
  const repeat = uncurry(String.prototype.repeat);
  const endsWith = uncurry(String.prototype.endsWith);
  const indexOf = uncurry(String.prototype.indexOf);
  const regExpExec = uncurry(RegExp.prototype.exec);
  const regExpGlobal = getter(RegExp.prototype, 'global');
  const symbolToString = uncurry(Symbol.prototype.toString);
  const typedArrayTag = getter(Object.getPrototypeOf(Uint8Array).prototype, Symbol.toStringTag);
  const mapSize = getter(Map.prototype, 'size');
  const mapEntries = uncurry(Map.prototype.entries);
  const mapNext = uncurry(getPrototypeOf(new Map().entries()).next);
  const setSize = getter(Set.prototype, 'size');
  const setValues = uncurry(Set.prototype.values);
  const setNext = uncurry(getPrototypeOf(new Set().values()).next);
  const captureStackTrace = Error.captureStackTrace;
  // Objects of these kinds are shown by the runtime's inspect rather than entry by entry.
  const BUILT_IN = [Date.prototype, Number.prototype, String.prototype, Boolean.prototype, Symbol.prototype,
    BigInt.prototype, Promise.prototype, WeakMap.prototype, WeakSet.prototype, ArrayBuffer.prototype,
    DataView.prototype];
  if (typeof SharedArrayBuffer === 'function') BUILT_IN[BUILT_IN.length] = SharedArrayBuffer.prototype;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const StringCtor = String;
  const errorIsError = typeof Error.isError === 'function' ? Error.isError : undefined;

  function list() {
    return setPrototypeOf([], null);
  }

  function isRegExp(value) {
    if (value === null || typeof value !== 'object') return false;
    try {
      return typeof regExpGlobal(value) === 'boolean';
    } catch {
      return false;
    }
  }

  function isError(value) {
    if (value === null || typeof value !== 'object') return false;
    if (errorIsError !== undefined) return errorIsError(value);
    return value instanceof ErrorCtor;
  }

  // The runtime's inspect as custom inspect methods receive it (util.inspect's behaviour).
  let runtimeInspect;
  host.inspect({ [host.inspectCustom]: (depth, options, inspect) => {
    runtimeInspect = inspect;
    return '';
  } });
  const inspect = (value, options) => runtimeInspect(value, options);

  // ---- Values as assert shows them: each entry on its own line, keys sorted.

  const FLAT = { customInspect: false, depth: 1000, maxArrayLength: Infinity, breakLength: 0, showHidden: false };
  const IDENTIFIER = /^[a-zA-Z_][a-zA-Z_0-9]*$/;

  function render(value) {
    const state = { __proto__: null, stack: list(), refs: list(), text: '' };
    const text = renderAt(value, 0, state);
    return state.refs.length > 0 && state.refs[0] === value ? '<ref *1> ' + text : text;
  }

  function indentLines(text, indent) {
    if (indent === 0 || indexOf(text, '\n') === -1) return text;
    let out = '';
    let last = 0;
    for (let i = 0; i < text.length; i++) {
      if (charCodeAt(text, i) !== 10) continue;
      out += stringSlice(text, last, i + 1) + repeat(' ', indent);
      last = i + 1;
    }
    return out + stringSlice(text, last);
  }

  function renderString(value, indent) {
    // A long string of several lines is shown one quoted line at a time.
    if (value.length > 16 && value.length > 80 - indent - 4 && indexOf(value, '\n') !== -1 &&
        indexOf(value, '\n') !== value.length - 1) {
      const pieces = list();
      let last = 0;
      for (let i = 0; i < value.length; i++) {
        if (charCodeAt(value, i) === 10 && i < value.length - 1) {
          pieces[pieces.length] = inspect(stringSlice(value, last, i + 1));
          last = i + 1;
        }
      }
      pieces[pieces.length] = inspect(stringSlice(value, last));
      return join(pieces, ' +\n' + repeat(' ', indent + 2));
    }
    return inspect(value);
  }

  function constructorName(value) {
    for (let proto = getPrototypeOf(value); proto !== null; proto = getPrototypeOf(proto)) {
      const descriptor = describe(proto, 'constructor');
      if (descriptor !== undefined && typeof descriptor.value === 'function') {
        const name = describe(descriptor.value, 'name');
        if (name !== undefined && typeof name.value === 'string' && name.value !== '') return name.value;
      }
    }
    return undefined;
  }

  function keyText(key) {
    if (typeof key === 'symbol') return '[' + symbolToString(key) + ']';
    return regExpExec(IDENTIFIER, key) !== null ? key : inspect(key);
  }

  function propertyText(object, key, indent, state) {
    const descriptor = describe(object, key);
    let shown;
    if (descriptor.get !== undefined) {
      // Node's assert calls getters and shows what they return.
      const label = descriptor.set !== undefined ? 'Getter/Setter' : 'Getter';
      try {
        const got = apply(descriptor.get, object, []);
        if (got !== null && typeof got === 'object') shown = '[' + label + '] ' + renderAt(got, indent, state);
        else shown = '[' + label + ': ' + (typeof got === 'string' ? renderString(got, indent) : inspect(got)) + ']';
      } catch (error) {
        shown = '[' + label + ': <Inspection threw (' + (error && error.message) + ')>]';
      }
    } else if (descriptor.set !== undefined) {
      shown = '[Setter]';
    } else {
      shown = renderAt(descriptor.value, indent, state);
    }
    return keyText(key) + ': ' + shown;
  }

  function ownEnumerableKeys(value, skipIndices) {
    const keys = list();
    const names = objectKeys(value);
    for (let i = skipIndices; i < names.length; i++) keys[keys.length] = names[i];
    const symbols = ownSymbols(value);
    for (let i = 0; i < symbols.length; i++) {
      if (isEnumerable(value, symbols[i])) keys[keys.length] = symbols[i];
    }
    return keys;
  }

  function block(prefix, open, close, entries, indent) {
    if (entries.length === 0) return prefix + open + close;
    const pad = '\n' + repeat(' ', indent + 2);
    return prefix + open + pad + join(entries, ',' + pad) + '\n' + repeat(' ', indent) + close;
  }

  function sorted(entries) {
    return sort(entries);
  }

  function renderAt(value, indent, state) {
    if (typeof value === 'string') return renderString(value, indent);
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return inspect(value);
    const stack = state.stack;
    for (let i = 0; i < stack.length; i++) {
      if (stack[i] === value) {
        let index = -1;
        for (let j = 0; j < state.refs.length; j++) {
          if (state.refs[j] === value) index = j;
        }
        if (index === -1) {
          index = state.refs.length;
          state.refs[index] = value;
        }
        return '[Circular *' + (index + 1) + ']';
      }
    }
    stack[stack.length] = value;
    try {
      return renderObject(value, indent, state);
    } finally {
      stack.length--;
    }
  }

  function renderObject(value, indent, state) {
    const inner = indent + 2;
    const proto = getPrototypeOf(value);
    const name = constructorName(value);
    if (typeof value === 'function' || isRegExp(value)) return indentLines(inspect(value, FLAT), indent);
    if (isError(value) || value instanceof ErrorCtor) {
      // An error with its stack shows it; the copies assert compares show `[Name: message]`.
      if (hasOwn(value, 'stack')) return indentLines(inspect(value, FLAT), indent);
      const keys = ownEnumerableKeys(value, 0);
      const entries = list();
      for (let i = 0; i < keys.length; i++) {
        if (keys[i] !== 'name' && keys[i] !== 'message' && keys[i] !== 'stack') {
          entries[entries.length] = propertyText(value, keys[i], inner, state);
        }
      }
      const head = '[' + errorText(value) + ']';
      return entries.length === 0 ? head : block(head + ' ', '{', '}', sorted(entries), indent);
    }
    if (isArray(value)) {
      const entries = list();
      const length = value.length;
      for (let i = 0; i < length; i++) {
        if (!hasOwn(value, i)) {
          let holes = 1;
          while (i + holes < length && !hasOwn(value, i + holes)) holes++;
          entries[entries.length] = '<' + holes + ' empty item' + (holes > 1 ? 's' : '') + '>';
          i += holes - 1;
          continue;
        }
        entries[entries.length] = renderAt(value[i], inner, state);
      }
      const keys = ownEnumerableKeys(value, objectKeys(value).length - extraCount(value));
      const extras = list();
      for (let i = 0; i < keys.length; i++) extras[extras.length] = propertyText(value, keys[i], inner, state);
      const sortedExtras = sorted(extras);
      for (let i = 0; i < sortedExtras.length; i++) entries[entries.length] = sortedExtras[i];
      const prefix = name === 'Array' ? '' : (name || '[Array: null prototype]') + '(' + length + ') ';
      return block(prefix, '[', ']', entries, indent);
    }
    if (isView(value) && typedArrayTag(value) !== undefined) {
      const tag = typedArrayTag(value);
      const entries = list();
      for (let i = 0; i < value.length; i++) entries[entries.length] = inspect(value[i]);
      const prefix = (name || tag) + '(' + value.length + ') ' + (name !== tag ? '[' + tag + '] ' : '');
      return block(prefix, '[', ']', entries, indent);
    }
    let size = -1;
    let kind = '';
    try {
      size = mapSize(value);
      kind = 'Map';
    } catch {
      try {
        size = setSize(value);
        kind = 'Set';
      } catch {
        // neither
      }
    }
    if (kind !== '') {
      const entries = list();
      if (kind === 'Map') {
        const iterator = mapEntries(value);
        for (let step = mapNext(iterator); !step.done; step = mapNext(iterator)) {
          entries[entries.length] = renderAt(step.value[0], inner, state) + ' => ' +
            renderAt(step.value[1], inner, state);
        }
      } else {
        const iterator = setValues(value);
        for (let step = setNext(iterator); !step.done; step = setNext(iterator)) {
          entries[entries.length] = renderAt(step.value, inner, state);
        }
      }
      const keys = ownEnumerableKeys(value, 0);
      for (let i = 0; i < keys.length; i++) entries[entries.length] = propertyText(value, keys[i], inner, state);
      return block((name || kind) + '(' + size + ') ', '{', '}', sorted(entries), indent);
    }
    const plain = proto === null || !isBuiltIn(value);
    if (!plain) return indentLines(inspect(value, FLAT), indent);
    const keys = ownEnumerableKeys(value, 0);
    const entries = list();
    for (let i = 0; i < keys.length; i++) entries[entries.length] = propertyText(value, keys[i], inner, state);
    const prefix = objectToString(value) === '[object Arguments]' ? '[Arguments] ' : proto === null ?
      '[Object: null prototype] ' : proto === Object.prototype ? '' :
        (name === undefined ? '[Object: null prototype] ' : name + ' ');
    return block(prefix, '{', '}', sorted(entries), indent);
  }

  // What Error.prototype.toString gives, without calling code the error may carry.
  function errorText(error) {
    const name = error.name === undefined ? 'Error' : StringCtor(error.name);
    const message = error.message === undefined ? '' : StringCtor(error.message);
    if (name === '') return message;
    return message === '' ? name : name + ': ' + message;
  }

  // Own enumerable keys of an array beyond its indices.
  function extraCount(array) {
    const names = objectKeys(array);
    let count = 0;
    for (let i = names.length - 1; i >= 0; i--) {
      const key = names[i];
      if (StringCtor(key >>> 0) === key && (key >>> 0) !== 4294967295) break;
      count++;
    }
    return count;
  }

  // Dates, boxed primitives, promises and the like: shown by the runtime's inspect.
  function isBuiltIn(value) {
    for (let proto = getPrototypeOf(value); proto !== null; proto = getPrototypeOf(proto)) {
      for (let i = 0; i < BUILT_IN.length; i++) {
        if (BUILT_IN[i] === proto) return true;
      }
    }
    return false;
  }

  // ---- The diff of two values, as Node 20 writes it.

  const READABLE = {
    __proto__: null,
    deepStrictEqual: 'Expected values to be strictly deep-equal:',
    strictEqual: 'Expected values to be strictly equal:',
    strictEqualObject: 'Expected "actual" to be reference-equal to "expected":',
    deepEqual: 'Expected values to be loosely deep-equal:',
    notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
    notStrictEqual: 'Expected "actual" to be strictly unequal to:',
    notStrictEqualObject: 'Expected "actual" not to be reference-equal to "expected":',
    notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
    notIdentical: 'Values have same structure but are not reference-equal:',
    notDeepEqualUnequal: 'Expected values not to be loosely deep-equal:',
  };
  const SHORT = 12;
  const isObjectValue = (value) => typeof value === 'object' && value !== null;

  function linesOf(text) {
    const lines = list();
    let last = 0;
    for (let i = 0; i <= text.length; i++) {
      if (i === text.length || charCodeAt(text, i) === 10) {
        lines[lines.length] = stringSlice(text, last, i);
        last = i + 1;
      }
    }
    return lines;
  }

  function errorDiff(actual, expected, operator, header) {
    let other = '';
    let res = '';
    let end = '';
    let skipped = false;
    const actualText = render(actual);
    const actualLines = linesOf(actualText);
    const expectedLines = linesOf(render(expected));
    let i = 0;
    let indicator = '';
    if (operator === 'strictEqual' && ((isObjectValue(actual) && isObjectValue(expected)) ||
        (typeof actual === 'function' && typeof expected === 'function'))) {
      operator = 'strictEqualObject';
    }
    if (header === undefined) header = READABLE[operator];
    if (actualLines.length === 1 && expectedLines.length === 1 && actualLines[0] !== expectedLines[0]) {
      const a = actualLines[0];
      const b = expectedLines[0];
      const inputLength = a.length + b.length;
      if (inputLength <= SHORT) {
        if (!isObjectValue(actual) && !isObjectValue(expected) && (actual !== 0 || expected !== 0)) {
          return header + '\n\n' + a + ' !== ' + b + '\n';
        }
      } else if (operator !== 'strictEqualObject' && inputLength < 80) {
        // A caret under the first character that differs.
        while (a[i] === b[i]) i++;
        if (i > 2) {
          indicator = '\n  ' + repeat(' ', i) + '^';
          i = 0;
        }
      }
    }
    // Identical lines at the end are left out, but for up to three.
    let a = actualLines[actualLines.length - 1];
    let b = expectedLines[expectedLines.length - 1];
    while (a === b) {
      if (i++ < 3) end = '\n  ' + a + end;
      else other = a;
      actualLines.length--;
      expectedLines.length--;
      if (actualLines.length === 0 || expectedLines.length === 0) break;
      a = actualLines[actualLines.length - 1];
      b = expectedLines[expectedLines.length - 1];
    }
    const maxLines = actualLines.length > expectedLines.length ? actualLines.length : expectedLines.length;
    if (maxLines === 0) {
      const lines = linesOf(actualText);
      if (lines.length > 50) {
        lines[46] = '...';
        lines.length = 47;
      }
      return READABLE.notIdentical + '\n\n' + join(lines, '\n') + '\n';
    }
    if (i >= 5) {
      end = '\n...' + end;
      skipped = true;
    }
    if (other !== '') {
      end = '\n  ' + other + end;
      other = '';
    }
    let printedLines = 0;
    let identical = 0;
    const msg = header + '\n+ actual - expected';
    const skippedMsg = ' ... Lines skipped';
    let lines = actualLines;
    let plusMinus = '+';
    let maxLength = expectedLines.length;
    if (actualLines.length < maxLines) {
      lines = expectedLines;
      plusMinus = '-';
      maxLength = actualLines.length;
    }
    // Up to two identical lines before a difference are shown; a longer run is cut down.
    const flushIdentical = (from, at) => {
      if (identical > 2) {
        if (identical > 3) {
          if (identical > 4) {
            if (identical === 5) {
              res += '\n  ' + from[at - 3];
              printedLines++;
            } else {
              res += '\n...';
              skipped = true;
            }
          }
          res += '\n  ' + from[at - 2];
          printedLines++;
        }
        res += '\n  ' + from[at - 1];
        printedLines++;
      }
      identical = 0;
    };
    for (i = 0; i < maxLines; i++) {
      if (maxLength < i + 1) {
        flushIdentical(lines, i);
        if (lines === actualLines) res += '\n' + plusMinus + ' ' + lines[i];
        else other += '\n' + plusMinus + ' ' + lines[i];
        printedLines++;
      } else {
        const expectedLine = expectedLines[i];
        let actualLine = actualLines[i];
        let diverging = actualLine !== expectedLine &&
          (!endsWith(actualLine, ',') || stringSlice(actualLine, 0, -1) !== expectedLine);
        if (diverging && endsWith(expectedLine, ',') && stringSlice(expectedLine, 0, -1) === actualLine) {
          diverging = false;
          actualLine += ',';
        }
        if (diverging) {
          flushIdentical(actualLines, i);
          res += '\n+ ' + actualLine;
          other += '\n- ' + expectedLine;
          printedLines += 2;
        } else {
          res += other;
          other = '';
          identical++;
          if (identical <= 2) {
            res += '\n  ' + actualLine;
            printedLines++;
          }
        }
      }
      if (printedLines > 50 && i < maxLines - 2) {
        return msg + skippedMsg + '\n' + res + '\n...' + other + '\n...';
      }
    }
    return msg + (skipped ? skippedMsg : '') + '\n' + res + other + end + indicator;
  }

  // ---- AssertionError.

  // An error's fields without its stack, so that a diff of two errors shows what differs.
  function copyError(source) {
    const target = { __proto__: getPrototypeOf(source) };
    const keys = objectKeys(source);
    for (let i = 0; i < keys.length; i++) target[keys[i]] = source[keys[i]];
    defineProperty(target, 'message', { value: source.message });
    if (source.cause !== undefined) {
      defineProperty(target, 'cause', { value: source.cause instanceof ErrorCtor ? copyError(source.cause) :
        source.cause });
    }
    return target;
  }

  function describedMessage(actual, expected, operator) {
    if (operator === 'notDeepStrictEqual' || operator === 'notStrictEqual') {
      let base = READABLE[operator];
      const lines = linesOf(render(actual));
      if (operator === 'notStrictEqual' && (isObjectValue(actual) || typeof actual === 'function')) {
        base = READABLE.notStrictEqualObject;
      }
      if (lines.length > 50) {
        lines[46] = '...';
        lines.length = 47;
      }
      if (lines.length === 1) return base + (lines[0].length > 5 ? '\n\n' : ' ') + lines[0];
      return base + '\n\n' + join(lines, '\n') + '\n';
    }
    let res = render(actual);
    let other = render(expected);
    const known = READABLE[operator];
    if (operator === 'notDeepEqual' && res === other) {
      res = known + '\n\n' + res;
      return res.length > 1024 ? stringSlice(res, 0, 1021) + '...' : res;
    }
    if (res.length > 512) res = stringSlice(res, 0, 509) + '...';
    if (other.length > 512) other = stringSlice(other, 0, 509) + '...';
    if (operator === 'deepEqual') {
      res = known + '\n\n' + res + '\n\nshould loosely deep-equal\n\n';
    } else {
      const negated = READABLE[operator + 'Unequal'];
      if (negated) res = negated + '\n\n' + res + '\n\nshould not loosely deep-equal\n\n';
      else other = ' ' + operator + ' ' + other;
    }
    return res + other;
  }

  class AssertionError extends ErrorCtor {
    constructor(options) {
      if (options === null || typeof options !== 'object') throw invalidArgType('options', 'of type object', options);
      const { message, operator, stackStartFn, stackStartFunction } = options;
      let { actual, expected } = options;
      let text;
      if (isError(actual) && 'stack' in actual && isError(expected) && 'stack' in expected) {
        actual = copyError(actual);
        expected = copyError(expected);
      }
      if (operator === 'deepStrictEqual' || operator === 'strictEqual') {
        text = errorDiff(actual, expected, operator, message ? StringCtor(message) : undefined);
      } else if (message != null) {
        text = StringCtor(message);
      } else {
        text = describedMessage(actual, expected, operator);
      }
      super(text);
      this.generatedMessage = !message;
      defineProperty(this, 'name', { value: 'AssertionError [ERR_ASSERTION]', enumerable: false, writable: true,
        configurable: true });
      this.code = 'ERR_ASSERTION';
      this.actual = actual;
      this.expected = expected;
      this.operator = operator;
      if (typeof captureStackTrace === 'function') captureStackTrace(this, stackStartFn || stackStartFunction);
      void this.stack; // the first stack line shows the code, as Node's does
      this.name = 'AssertionError';
    }

    toString() {
      return this.name + ' [' + this.code + ']: ' + this.message;
    }

    [host.inspectCustom](depth, options, inspectFn) {
      const render = typeof inspectFn === 'function' ? inspectFn : runtimeInspect;
      const actual = this.actual;
      const expected = this.expected;
      // Long strings are cut: the message shows them already.
      if (typeof actual === 'string' && actual.length > 128) this.actual = stringSlice(actual, 0, 125) + '...';
      if (typeof expected === 'string' && expected.length > 128) this.expected = stringSlice(expected, 0, 125) + '...';
      try {
        return render(this, { ...options, customInspect: false, depth: 0 });
      } finally {
        this.actual = actual;
        this.expected = expected;
      }
    }
  }

  function innerFail(details) {
    if (details.message instanceof ErrorCtor) throw details.message;
    throw new AssertionError(details);
  }

  // ---- The assertions.

  function innerOk(fn, argumentCount, value, message) {
    if (value) return;
    let generated = false;
    if (argumentCount === 0) {
      generated = true;
      message = 'No value argument passed to `assert.ok()`';
    } else if (message == null) {
      // Node shows the source of the call when it can read the file; the sandbox cannot.
      generated = true;
      message = inspect(value) + ' == true';
    } else if (message instanceof ErrorCtor) {
      throw message;
    }
    const error = new AssertionError({ actual: value, expected: true, message, operator: '==', stackStartFn: fn });
    error.generatedMessage = generated;
    throw error;
  }

  function ok(...args) {
    innerOk(ok, args.length, args[0], args[1]);
  }

  function checkTwo(count) {
    if (count < 2) {
      throw codedError(TypeErrorCtor, 'ERR_MISSING_ARGS', 'The "actual" and "expected" arguments must be specified');
    }
  }

  const assert = ok;
  let warnedFail = false;

  assert.fail = function fail(actual, expected, message, operator, stackStartFn) {
    const count = arguments.length;
    let internal = false;
    if (actual == null && count <= 1) {
      internal = true;
      message = 'Failed';
    } else if (count === 1) {
      message = actual;
      actual = undefined;
    } else {
      if (!warnedFail) {
        warnedFail = true;
        warn('assert.fail() with more than one argument is deprecated. Please use assert.strictEqual() instead or ' +
          'only pass a message.', 'DEP0094');
      }
      if (count === 2) operator = '!=';
    }
    if (message instanceof ErrorCtor) throw message;
    const error = new AssertionError({ actual, expected, operator: operator === undefined ? 'fail' : operator,
      stackStartFn: stackStartFn || fail, message });
    if (internal) error.generatedMessage = true;
    throw error;
  };

  function warn(message, code) {
    host.warn('DeprecationWarning', message, code);
  }

  assert.AssertionError = AssertionError;
  assert.ok = ok;

  assert.equal = function equal(actual, expected, message) {
    checkTwo(arguments.length);
    // eslint-disable-next-line eqeqeq
    if (actual != expected && (!isNaN(actual) || !isNaN(expected))) {
      innerFail({ actual, expected, message, operator: '==', stackStartFn: equal });
    }
  };

  assert.notEqual = function notEqual(actual, expected, message) {
    checkTwo(arguments.length);
    // eslint-disable-next-line eqeqeq
    if (actual == expected || (isNaN(actual) && isNaN(expected))) {
      innerFail({ actual, expected, message, operator: '!=', stackStartFn: notEqual });
    }
  };

  assert.deepEqual = function deepEqual(actual, expected, message) {
    checkTwo(arguments.length);
    if (!isDeepEqual(actual, expected)) innerFail({ actual, expected, message, operator: 'deepEqual', stackStartFn: deepEqual });
  };

  assert.notDeepEqual = function notDeepEqual(actual, expected, message) {
    checkTwo(arguments.length);
    if (isDeepEqual(actual, expected)) {
      innerFail({ actual, expected, message, operator: 'notDeepEqual', stackStartFn: notDeepEqual });
    }
  };

  assert.deepStrictEqual = function deepStrictEqual(actual, expected, message) {
    checkTwo(arguments.length);
    if (!isDeepStrictEqual(actual, expected)) {
      innerFail({ actual, expected, message, operator: 'deepStrictEqual', stackStartFn: deepStrictEqual });
    }
  };

  assert.notDeepStrictEqual = function notDeepStrictEqual(actual, expected, message) {
    checkTwo(arguments.length);
    if (isDeepStrictEqual(actual, expected)) {
      innerFail({ actual, expected, message, operator: 'notDeepStrictEqual', stackStartFn: notDeepStrictEqual });
    }
  };

  assert.strictEqual = function strictEqual(actual, expected, message) {
    checkTwo(arguments.length);
    if (!is(actual, expected)) innerFail({ actual, expected, message, operator: 'strictEqual', stackStartFn: strictEqual });
  };

  assert.notStrictEqual = function notStrictEqual(actual, expected, message) {
    checkTwo(arguments.length);
    if (is(actual, expected)) {
      innerFail({ actual, expected, message, operator: 'notStrictEqual', stackStartFn: notStrictEqual });
    }
  };

  // Placeholders whose diff shows the keys of a validation object the error did not match.
  class Comparison {
    constructor(object, keys, actual) {
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i];
        if (!(key in object)) continue;
        if (actual !== undefined && typeof actual[key] === 'string' && isRegExp(object[key]) &&
            regExpExec(object[key], actual[key]) !== null) {
          this[key] = actual[key];
        } else {
          this[key] = object[key];
        }
      }
    }
  }

  function compareKey(actual, expected, key, message, keys, fn) {
    if (key in actual && isDeepStrictEqual(actual[key], expected[key])) return;
    if (!message) {
      const error = new AssertionError({ actual: new Comparison(actual, keys), expected: new Comparison(expected,
        keys, actual), operator: 'deepStrictEqual', stackStartFn: fn });
      error.actual = actual;
      error.expected = expected;
      error.operator = fn.name;
      throw error;
    }
    innerFail({ actual, expected, message, operator: fn.name, stackStartFn: fn });
  }

  function expectedException(actual, expected, message, fn) {
    let generated = false;
    let fail = false;
    if (typeof expected !== 'function') {
      if (isRegExp(expected)) {
        const text = StringCtor(actual);
        if (regExpExec(expected, text) !== null) return;
        if (!message) {
          generated = true;
          message = 'The input did not match the regular expression ' + inspect(expected) + '. Input:\n\n' +
            inspect(text) + '\n';
        }
        fail = true;
      } else if (typeof actual !== 'object' || actual === null) {
        const error = new AssertionError({ actual, expected, message, operator: 'deepStrictEqual', stackStartFn: fn });
        error.operator = fn.name;
        throw error;
      } else {
        const keys = list();
        const names = objectKeys(expected);
        for (let i = 0; i < names.length; i++) keys[i] = names[i];
        if (expected instanceof ErrorCtor) {
          keys[keys.length] = 'name';
          keys[keys.length] = 'message';
        } else if (keys.length === 0) {
          throw codedError(TypeErrorCtor, 'ERR_INVALID_ARG_VALUE', "The argument 'error' may not be an empty object. " +
            'Received ' + inspect(expected));
        }
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i];
          if (typeof actual[key] === 'string' && isRegExp(expected[key]) && regExpExec(expected[key], actual[key]) !== null) {
            continue;
          }
          compareKey(actual, expected, key, message, keys, fn);
        }
        return;
      }
    } else if (expected.prototype !== undefined && actual instanceof expected) {
      return;
    } else if (isPrototypeOf(ErrorCtor, expected)) {
      if (!message) {
        generated = true;
        message = 'The error is expected to be an instance of "' + expected.name + '". Received ';
        if (isError(actual)) {
          const name = (actual.constructor && actual.constructor.name) || actual.name;
          if (expected.name === name) message += 'an error with identical name but a different prototype.';
          else message += '"' + name + '"';
          if (actual.message) message += '\n\nError message:\n\n' + actual.message;
        } else {
          message += '"' + inspect(actual, { depth: -1 }) + '"';
        }
      }
      fail = true;
    } else {
      const result = apply(expected, {}, [actual]);
      if (result !== true) {
        if (!message) {
          generated = true;
          const name = expected.name ? '"' + expected.name + '" ' : '';
          message = 'The ' + name + 'validation function is expected to return "true". Received ' + inspect(result);
          if (isError(actual)) message += '\n\nCaught error:\n\n' + StringCtor(actual);
        }
        fail = true;
      }
    }
    if (fail) {
      const error = new AssertionError({ actual, expected, message, operator: fn.name, stackStartFn: fn });
      error.generatedMessage = generated;
      throw error;
    }
  }

  const NO_EXCEPTION = { __proto__: null };

  function thrownBy(fn) {
    if (typeof fn !== 'function') throw invalidArgType('fn', 'of type function', fn);
    try {
      fn();
    } catch (error) {
      return error;
    }
    return NO_EXCEPTION;
  }

  function isPromiseLike(value) {
    return value !== null && typeof value === 'object' && typeof value.then === 'function' &&
      typeof value.catch === 'function';
  }

  async function rejectionOf(promiseFn) {
    let promise;
    if (typeof promiseFn === 'function') {
      promise = promiseFn();
      if (!isPromiseLike(promise)) {
        throw codedError(TypeErrorCtor, 'ERR_INVALID_RETURN_VALUE', 'Expected instance of Promise to be returned ' +
          'from the "promiseFn" function but got ' + typeText(promise) + '.');
      }
    } else if (isPromiseLike(promiseFn)) {
      promise = promiseFn;
    } else {
      throw invalidArgType('promiseFn', 'of type function or an instance of Promise', promiseFn);
    }
    try {
      await promise;
    } catch (error) {
      return error;
    }
    return NO_EXCEPTION;
  }

  function typeText(value) {
    const text = received(value);
    return stringSlice(text, 'Received '.length);
  }

  function expectsError(fn, actual, error, message, count) {
    if (typeof error === 'string') {
      if (count === 4) {
        throw invalidArgType('error', 'of type function or an instance of Error, RegExp, or Object', error);
      }
      if (typeof actual === 'object' && actual !== null) {
        if (actual.message === error) {
          throw codedError(TypeErrorCtor, 'ERR_AMBIGUOUS_ARGUMENT', 'The "error/message" argument is ambiguous. ' +
            'The error message "' + actual.message + '" is identical to the message.');
        }
      } else if (actual === error) {
        throw codedError(TypeErrorCtor, 'ERR_AMBIGUOUS_ARGUMENT', 'The "error/message" argument is ambiguous. ' +
          'The error "' + actual + '" is identical to the message.');
      }
      message = error;
      error = undefined;
    } else if (error != null && typeof error !== 'object' && typeof error !== 'function') {
      throw invalidArgType('error', 'of type function or an instance of Error, RegExp, or Object', error);
    }
    if (actual === NO_EXCEPTION) {
      let details = '';
      if (error && error.name) details += ' (' + error.name + ')';
      details += message ? ': ' + message : '.';
      const what = fn === assert.rejects ? 'rejection' : 'exception';
      innerFail({ actual: undefined, expected: error, operator: fn.name, message: 'Missing expected ' + what + details,
        stackStartFn: fn });
    }
    if (!error) return;
    expectedException(actual, error, message, fn);
  }

  function matchesError(actual, expected) {
    if (typeof expected !== 'function') {
      if (isRegExp(expected)) return regExpExec(expected, StringCtor(actual)) !== null;
      throw invalidArgType('expected', 'of type function or an instance of RegExp', expected);
    }
    if (expected.prototype !== undefined && actual instanceof expected) return true;
    if (isPrototypeOf(ErrorCtor, expected)) return false;
    return apply(expected, {}, [actual]) === true;
  }

  function expectsNoError(fn, actual, error, message) {
    if (actual === NO_EXCEPTION) return;
    if (typeof error === 'string') {
      message = error;
      error = undefined;
    }
    if (!error || matchesError(actual, error)) {
      const details = message ? ': ' + message : '.';
      const what = fn === assert.doesNotReject ? 'rejection' : 'exception';
      innerFail({ actual, expected: error, operator: fn.name, message: 'Got unwanted ' + what + details +
        '\nActual message: "' + (actual === null || actual === undefined ? undefined : actual.message) + '"',
        stackStartFn: fn });
    }
    throw actual;
  }

  assert.throws = function throws(fn, ...args) {
    expectsError(throws, thrownBy(fn), args[0], args[1], args.length + 2);
  };

  assert.rejects = async function rejects(promiseFn, ...args) {
    expectsError(rejects, await rejectionOf(promiseFn), args[0], args[1], args.length + 2);
  };

  assert.doesNotThrow = function doesNotThrow(fn, ...args) {
    expectsNoError(doesNotThrow, thrownBy(fn), args[0], args[1]);
  };

  assert.doesNotReject = async function doesNotReject(fn, ...args) {
    expectsNoError(doesNotReject, await rejectionOf(fn), args[0], args[1]);
  };

  assert.ifError = function ifError(error) {
    if (error === null || error === undefined) return;
    let message = 'ifError got unwanted exception: ';
    if (typeof error === 'object' && typeof error.message === 'string') {
      message += error.message.length === 0 && error.constructor ? error.constructor.name : error.message;
    } else {
      message += inspect(error);
    }
    throw new AssertionError({ actual: error, expected: null, operator: 'ifError', message, stackStartFn: ifError });
  };

  function internalMatch(string, regexp, message, fn) {
    if (!isRegExp(regexp)) throw invalidArgType('regexp', 'an instance of RegExp', regexp);
    const match = fn === assert.match;
    if (typeof string !== 'string' || (regExpExec(regexp, string) !== null) !== match) {
      if (message instanceof ErrorCtor) throw message;
      const generated = !message;
      message = message || (typeof string !== 'string' ? 'The "string" argument must be of type string. Received ' +
        'type ' + typeof string + ' (' + inspect(string) + ')' : (match ? 'The input did not match the regular ' +
        'expression ' : 'The input was expected to not match the regular expression ') + inspect(regexp) +
        '. Input:\n\n' + inspect(string) + '\n');
      const error = new AssertionError({ actual: string, expected: regexp, message, operator: fn.name, stackStartFn: fn });
      error.generatedMessage = generated;
      throw error;
    }
  }

  assert.match = function match(string, regexp, message) {
    internalMatch(string, regexp, message, match);
  };

  assert.doesNotMatch = function doesNotMatch(string, regexp, message) {
    internalMatch(string, regexp, message, doesNotMatch);
  };

  // Deprecated in Node 20, and not provided here.
  assert.CallTracker = class CallTracker {
    constructor() {
      throw new ErrorCtor('assert.CallTracker is deprecated and not provided in this sandbox: count calls in the code ' +
        'instead');
    }
  };

  function strict(...args) {
    innerOk(strict, args.length, args[0], args[1]);
  }
  const keys = objectKeys(assert);
  for (let i = 0; i < keys.length; i++) strict[keys[i]] = assert[keys[i]];
  strict.equal = assert.strictEqual;
  strict.deepEqual = assert.deepStrictEqual;
  strict.notEqual = assert.notStrictEqual;
  strict.notDeepEqual = assert.notDeepStrictEqual;
  assert.strict = strict;
  assert.strict.strict = assert.strict;
  return assert;
})
