// Renders any value as text the way Node's util.inspect (and so console.log) shows it, so
// the model reads familiar output: `{ a: 1 }`, `Map(1) { 'a' => 1 }`, `[class A]`,
// `<ref *1> { self: [Circular *1] }`. It reads properties through descriptors and never
// invokes getters, and it cannot throw: a value whose inspection fails (a Proxy trap that
// throws, a revoked Proxy) renders as a placeholder.

const SymbolForCustom = Symbol.for;
const SymbolSpecies = Symbol.species;
const kObjectType = 0;
const kArrayType = 1;
const kArrayExtrasType = 2;
const INSPECT_DEPTH = 6;
const BREAK_LENGTH = 80;
const MAX_ARRAY_LENGTH = 100;
// Node cuts longer strings inside a rendering, adding `... N more characters`.
const MAX_STRING_LENGTH = 10000;

// Longer arrays and typed arrays are shown without their extra non-index properties:
// finding those would list every index key.
const EXTRA_KEYS_MAX_LENGTH = 100000;

// A string that is the run's result is shown whole (up to the output cap), not cut like the
// strings inside a rendering.
const WHOLE_STRING_OPTIONS = { __proto__: null, maxStringLength: null };

// The options Node's inspect knows; other own keys of a caller's options are passed on to
// custom inspect methods as they were given.
const INSPECT_OPTION_NAMES = ['showHidden', 'depth', 'colors', 'customInspect', 'showProxy', 'maxArrayLength',
  'maxStringLength', 'breakLength', 'compact', 'sorted', 'getters', 'numericSeparator', 'stylize'];

// An own data property of a caller's options object (Node reads only own keys); getters are
// not called.
function ownOption(options, key) {
  if (options === undefined || options === null || typeof options !== 'object') return undefined;
  const descriptor = describe(options, key);
  return descriptor === undefined || !isDataDescriptor(descriptor) ? undefined : descriptor.value;
}

function hasOtherOptions(options) {
  if (options === undefined || options === null || typeof options !== 'object') return false;
  const keys = ObjectKeys(options);
  for (let i = 0; i < keys.length; i++) {
    if (indexOfKey(INSPECT_OPTION_NAMES, keys[i]) === -1) return true;
  }
  return false;
}

function newInspectContext(options) {
  let depth = INSPECT_DEPTH;
  const depthOption = ownOption(options, 'depth');
  if (depthOption === null || depthOption === Infinity) depth = Infinity;
  else if (typeof depthOption === 'number' && !NumberIsNaN(depthOption)) depth = depthOption;
  const maxArrayLength = ownOption(options, 'maxArrayLength');
  const maxStringLength = ownOption(options, 'maxStringLength');
  const breakLength = ownOption(options, 'breakLength');
  return {
    __proto__: null,
    seen: list(),
    circular: list(),
    indentationLvl: 0,
    currentDepth: 0,
    depth,
    // Custom inspect methods are told `null` for an unlimited depth asked as `depth: null`.
    depthNull: depthOption === null,
    showHidden: ownOption(options, 'showHidden') === true,
    showProxy: ownOption(options, 'showProxy') === true,
    customInspect: ownOption(options, 'customInspect') !== false,
    breakLength: typeof breakLength === 'number' ? breakLength : BREAK_LENGTH,
    maxArrayLength: typeof maxArrayLength === 'number' ? maxArrayLength : MAX_ARRAY_LENGTH,
    maxStringLength: maxStringLength === null ? Infinity
      : typeof maxStringLength === 'number' && !NumberIsNaN(maxStringLength) ? MathMax(0, maxStringLength)
        : MAX_STRING_LENGTH,
    // The caller's own options, when they hold keys of their own, for custom inspect methods.
    userOptions: hasOtherOptions(options) ? options : undefined,
    // A bound on the work of one rendering (a wide, deep structure could otherwise take
    // forever); past it, remaining entries are summarised.
    used: 0,
    budget: MathMax(4 * stringKeepChars, 262144),
    omitted: 0,
    // Whether anything was left out of the text (items past maxArrayLength, depth, budget).
    shortened: false,
  };
}

function inspect(value, options) {
  const ctx = newInspectContext(options);
  let text;
  try {
    text = formatValue(ctx, value, 0);
  } catch (error) {
    if (error === customThrew && customState.rethrow) throw error;
    text = '<Inspection threw (' + describeThrown(error === customThrew ? takeCustomError() : error) + ')>';
  }
  inspectOmitted += ctx.omitted;
  inspectShortened = ctx.shortened || ctx.omitted > 0;
  return text;
}

// Custom inspect methods (`[Symbol.for('nodejs.util.inspect.custom')](depth, options, inspect)`)
// are the model's code: what one throws leaves console.log (or the inspect it was handed) as
// it leaves Node's, while the runtime's own renderings (the result, an uncaught error) show a
// placeholder instead. `customThrew` carries the thrown value through the rendering's own
// error handling.
const customInspectSymbol = SymbolForCustom('nodejs.util.inspect.custom');
const customThrew = { __proto__: null };
const customState = { __proto__: null, rethrow: false, error: undefined };

function takeCustomError() {
  const error = customState.error;
  customState.error = undefined;
  return error;
}

// inspect(), letting an exception of a custom inspect method through as itself.
function inspectRethrowing(value, options) {
  const previous = customState.rethrow;
  customState.rethrow = true;
  try {
    return inspect(value, options);
  } catch (error) {
    if (error === customThrew) throw takeCustomError();
    throw error;
  } finally {
    customState.rethrow = previous;
  }
}

// The `inspect` handed to custom inspect methods, Node's util.inspect(value, options) (or the
// older (value, showHidden, depth) form).
// What it leaves out is not counted in the run's output: the text is the code's own value.
// Made on first use (this file's functions are compiled only then; see deferred.js).
let userInspectFunction;

function userInspect() {
  if (userInspectFunction !== undefined) return userInspectFunction;
  const handed = function inspect(value, options, depth) {
    if (typeof options === 'boolean' || (arguments.length > 2 && (options === undefined || options === null))) {
      options = { __proto__: null, showHidden: options === true, depth };
    }
    const omitted = inspectOmitted;
    const shortened = inspectShortened;
    try {
      return inspectRethrowing(value, options !== null && typeof options === 'object' ? options : undefined);
    } finally {
      inspectOmitted = omitted;
      inspectShortened = shortened;
    }
  };
  ReflectDefineProperty(handed, 'custom', {
    __proto__: null, value: customInspectSymbol, writable: false, enumerable: false, configurable: false,
  });
  userInspectFunction = handed;
  return handed;
}

function stylizeNoColor(text) {
  return text;
}

// The options object a custom inspect method receives: an ordinary object, as in Node.
function userOptionsOf(ctx) {
  const options = {
    stylize: stylizeNoColor,
    showHidden: ctx.showHidden,
    depth: ctx.depthNull ? null : ctx.depth,
    colors: false,
    customInspect: ctx.customInspect,
    showProxy: ctx.showProxy,
    maxArrayLength: ctx.maxArrayLength,
    maxStringLength: ctx.maxStringLength,
    breakLength: ctx.breakLength,
    compact: 3,
    sorted: false,
    getters: false,
    numericSeparator: false,
  };
  if (ctx.userOptions === undefined) return options;
  return { ...options, ...ctx.userOptions };
}

// A property read as `object[key]` reads it (a getter runs), for the lookups Node makes with
// ordinary property access before calling a custom inspect method.
function userPropertyValue(object, key) {
  let current = object;
  for (let i = 0; i < MAX_PROTOTYPE_CHAIN && current !== null; i++) {
    const descriptor = describe(current, key);
    if (descriptor !== undefined) {
      if (isDataDescriptor(descriptor)) return descriptor.value;
      return descriptor.get === undefined ? undefined : ReflectApply(descriptor.get, object, []);
    }
    current = ReflectGetPrototypeOf(current);
  }
  return undefined;
}

// The text a custom inspect method gives for `value`, or undefined when it has none (or it
// returned the value itself, which is then rendered as usual).
function formatCustom(ctx, value, recurseTimes) {
  let custom;
  try {
    custom = userPropertyValue(value, customInspectSymbol);
    if (typeof custom !== 'function' || custom === userInspect()) return undefined;
    // A prototype object (`A.prototype`) is not rendered through its own class's method.
    const constructor = userPropertyValue(value, 'constructor');
    if (constructor !== null && (typeof constructor === 'object' || typeof constructor === 'function') &&
        userPropertyValue(constructor, 'prototype') === value) {
      return undefined;
    }
  } catch {
    // An object that cannot be looked into (a revoked Proxy) is rendered without a method.
    return undefined;
  }
  const depth = ctx.depthNull ? null : ctx.depth - recurseTimes;
  let result;
  try {
    result = ReflectApply(custom, value, asList([depth, userOptionsOf(ctx), userInspect()]));
  } catch (error) {
    customState.error = error;
    throw customThrew;
  }
  if (result === value) return undefined;
  if (typeof result !== 'string') return formatValue(ctx, result, recurseTimes);
  ctx.used += result.length;
  return ctx.indentationLvl === 0 ? result : indentLines(result, StringPrototypeRepeat(' ', ctx.indentationLvl));
}

function getPrefix(constructor, tag, fallback, size) {
  if (size === undefined) size = '';
  if (constructor === null) {
    if (tag !== '' && fallback !== tag) return '[' + fallback + size + ': null prototype] [' + tag + '] ';
    return '[' + fallback + size + ': null prototype] ';
  }
  if (tag !== '' && constructor !== tag) return constructor + size + ' [' + tag + '] ';
  return constructor + size + ' ';
}

function formatPrimitive(ctx, value) {
  let text;
  if (typeof value === 'string') text = formatString(ctx, value);
  else if (typeof value === 'symbol') text = SymbolPrototypeToString(value);
  else text = plainPrimitiveText(value);
  ctx.used += text.length;
  return text;
}

function formatString(ctx, value) {
  let trailer = '';
  if (value.length > ctx.maxStringLength) {
    const remaining = value.length - ctx.maxStringLength;
    value = StringPrototypeSlice(value, 0, ctx.maxStringLength);
    trailer = '... ' + plural(remaining, 'more character');
    ctx.shortened = true;
  }
  return formatStringPieces(ctx, value) + trailer;
}

function formatStringPieces(ctx, value) {
  const length = value.length;
  if (length > 2 * stringKeepChars + 1024) return formatHugeString(ctx, value);
  if (showsAsLines(value, ctx.breakLength - ctx.indentationLvl)) {
    // Node shows a long multi-line string as one quoted piece per line, joined by ` +`.
    const pieces = list();
    let start = 0;
    let newline = StringPrototypeIndexOf(value, '\n');
    while (newline !== -1 && newline !== length - 1) {
      ArrayPrototypePush(pieces, quoteForInspect(StringPrototypeSlice(value, start, newline + 1)));
      start = newline + 1;
      newline = StringPrototypeIndexOf(value, '\n', start);
    }
    ArrayPrototypePush(pieces, quoteForInspect(StringPrototypeSlice(value, start)));
    return ArrayPrototypeJoin(pieces, ' +\n' + StringPrototypeRepeat(' ', ctx.indentationLvl + 2));
  }
  return quoteForInspect(value);
}

// A string of many megabytes: quote its two ends and count the escaped middle as left out.
function formatHugeString(ctx, value) {
  const length = value.length;
  let headEndIndex = stringKeepChars;
  if (isHighSurrogate(StringPrototypeCharCodeAt(value, headEndIndex - 1))) headEndIndex--;
  let tailStartIndex = length - stringKeepChars;
  if (isLowSurrogate(StringPrototypeCharCodeAt(value, tailStartIndex))) tailStartIndex++;
  const quote = chooseQuote(value);
  const middle = utf8Length(value, headEndIndex, tailStartIndex) +
    inspectEscapeGrowth(value, quote, headEndIndex, tailStartIndex);
  ctx.omitted += middle;
  return quote + escapeForInspect(value, quote, 0, headEndIndex) + '... [' + middle + ' bytes omitted] ...' +
    escapeForInspect(value, quote, tailStartIndex, length) + quote;
}

function formatValue(ctx, value, recurseTimes) {
  if (typeof value !== 'object' && typeof value !== 'function') return formatPrimitive(ctx, value);
  if (value === null) return 'null';
  // Every object visited counts against the work budget, even one shown as `[Array]`.
  ctx.used += 8;
  if (ctx.customInspect) {
    const custom = formatCustom(ctx, value, recurseTimes);
    if (custom !== undefined) return custom;
  }
  const seen = ctx.seen;
  for (let i = 0; i < seen.length; i++) {
    if (seen[i] === value) {
      let index = circularIndex(ctx, value);
      if (index === 0) {
        ArrayPrototypePush(ctx.circular, value);
        index = ctx.circular.length;
      }
      return '[Circular *' + index + ']';
    }
  }
  const indentation = ctx.indentationLvl;
  const seenLength = seen.length;
  try {
    return formatRaw(ctx, value, recurseTimes);
  } catch (error) {
    ctx.indentationLvl = indentation;
    seen.length = seenLength;
    if (error === customThrew) throw error;
    return '<Inspection threw (' + describeThrown(error) + ')>';
  }
}

function circularIndex(ctx, value) {
  const circular = ctx.circular;
  for (let i = 0; i < circular.length; i++) {
    if (circular[i] === value) return i + 1;
  }
  return 0;
}

// The `... N more items` entry of a list cut short; the rendering then says it was shortened.
function moreItems(ctx, count) {
  ctx.shortened = true;
  return '... ' + plural(count, 'more item');
}

function plural(count, noun) {
  return count + ' ' + noun + (count > 1 ? 's' : '');
}

function formatRaw(ctx, value, recurseTimes) {
  const chain = prototypeChain(value);
  const constructor = constructorNameOf(value, chain);
  const tag = toStringTagOf(value, chain);
  const kind = kindOf(value, chain);
  const showHidden = ctx.showHidden;
  let keys;
  let base = '';
  let braces = ['{', '}'];
  let extrasType = kObjectType;
  let formatter = formatNoEntries;
  let leadingEntries;

  switch (kind) {
    case 'array': {
      const length = lengthOf(value);
      keys = length <= EXTRA_KEYS_MAX_LENGTH
        ? withoutIndexKeys(ownKeysForDisplay(value, showHidden)) : symbolKeysOnly(value, showHidden);
      const prefix = constructor !== 'Array' || tag !== ''
        ? getPrefix(constructor, tag, 'Array', '(' + length + ')') : '';
      braces = [prefix + '[', ']'];
      if (length === 0 && keys.length === 0) return braces[0] + ']';
      extrasType = kArrayExtrasType;
      formatter = formatArrayEntries;
      break;
    }
    case 'set': {
      const size = SetPrototypeGetSize(value);
      const prefix = getPrefix(constructor, tag, 'Set', '(' + size + ')');
      keys = ownKeysForDisplay(value, showHidden);
      if (size === 0 && keys.length === 0) return prefix + '{}';
      braces = [prefix + '{', '}'];
      formatter = formatSetEntries;
      break;
    }
    case 'map': {
      const size = MapPrototypeGetSize(value);
      const prefix = getPrefix(constructor, tag, 'Map', '(' + size + ')');
      keys = ownKeysForDisplay(value, showHidden);
      if (size === 0 && keys.length === 0) return prefix + '{}';
      braces = [prefix + '{', '}'];
      formatter = formatMapEntries;
      break;
    }
    case 'mapiterator':
    case 'setiterator': {
      keys = ownKeysForDisplay(value, showHidden);
      const type = kind === 'mapiterator' ? 'Map' : 'Set';
      let label = tag;
      if (label !== type + ' Iterator') {
        if (label !== '') label += '] [';
        label += type + ' Iterator';
      }
      // An entries() iterator is marked as such, as Node marks it.
      if (iteratorKind(value) === 'entries') label = StringPrototypeSlice(label, 0, -9) + ' Entries';
      braces = ['[' + label + '] {', '}'];
      formatter = formatIteratorEntries;
      break;
    }
    case 'typedarray': {
      const length = TypedArrayPrototypeGetLength(value);
      const typeName = TypedArrayPrototypeGetSymbolToStringTag(value);
      keys = length <= EXTRA_KEYS_MAX_LENGTH
        ? withoutIndexKeys(ownKeysForDisplay(value, showHidden)) : symbolKeysOnly(value, showHidden);
      const prefix = getPrefix(constructor, tag === typeName ? '' : tag, typeName, '(' + length + ')');
      braces = [prefix + '[', ']'];
      if (length === 0 && keys.length === 0) return braces[0] + ']';
      extrasType = kArrayExtrasType;
      formatter = formatTypedArrayEntries;
      break;
    }
    default: {
      keys = ownKeysForDisplay(value, showHidden);
      if (kind === 'object') {
        if (constructor === 'Object') {
          if (tag !== '') braces[0] = getPrefix(constructor, tag, 'Object') + '{';
          if (keys.length === 0) return braces[0] + '}';
        } else {
          if (keys.length === 0) return getPrefix(constructor, tag, 'Object') + '{}';
          braces[0] = getPrefix(constructor, tag, 'Object') + '{';
        }
      } else if (kind === 'function') {
        base = functionBase(value, constructor, tag);
        if (keys.length === 0) return base;
      } else if (kind === 'regexp') {
        base = regExpText(value);
        const prefix = getPrefix(constructor, tag, 'RegExp');
        if (prefix !== 'RegExp ') base = prefix + base;
        if (keys.length === 0 || recurseTimes > ctx.depth) return base;
      } else if (kind === 'date') {
        base = dateText(value);
        const prefix = getPrefix(constructor, tag, 'Date');
        if (prefix !== 'Date ') base = prefix + base;
        if (keys.length === 0) return base;
      } else if (kind === 'error') {
        base = formatError(ctx, value, constructor, tag, keys);
        if (keys.length === 0) return base;
      } else if (kind === 'arraybuffer' || kind === 'sharedarraybuffer') {
        const typeName = kind === 'arraybuffer' ? 'ArrayBuffer' : 'SharedArrayBuffer';
        braces[0] = getPrefix(constructor, tag, typeName) + '{';
        const byteLength = kind === 'arraybuffer'
          ? ArrayBufferPrototypeGetByteLength(value) : SharedArrayBufferPrototypeGetByteLength(value);
        formatter = formatArrayBufferContents;
        leadingEntries = asList([['byteLength', byteLength]]);
      } else if (kind === 'dataview') {
        braces[0] = getPrefix(constructor, tag, 'DataView') + '{';
        leadingEntries = [
          ['byteLength', DataViewPrototypeGetByteLength(value)],
          ['byteOffset', DataViewPrototypeGetByteOffset(value)],
          ['buffer', DataViewPrototypeGetBuffer(value)],
        ];
      } else if (kind === 'promise') {
        braces[0] = getPrefix(constructor, tag, 'Promise') + '{';
        if (promiseRecord(value) !== undefined) formatter = formatPromiseState;
        else if (keys.length === 0) return braces[0] + '}';
      } else if (kind === 'weakmap' || kind === 'weakset') {
        braces[0] = getPrefix(constructor, tag, kind === 'weakmap' ? 'WeakMap' : 'WeakSet') + '{';
        formatter = formatWeakEntries;
      } else {
        // Boxed primitive: Number, String, Boolean, Symbol or BigInt.
        if (kind === 'String') keys = withoutIndexKeys(keys);
        base = boxedBase(ctx, value, kind, constructor, tag);
        if (keys.length === 0) return base;
      }
    }
  }

  if (recurseTimes > ctx.depth) {
    ctx.shortened = true;
    let name = StringPrototypeSlice(getPrefix(constructor, tag, 'Object'), 0, -1);
    if (constructor !== null) name = '[' + name + ']';
    return name;
  }
  recurseTimes += 1;
  ArrayPrototypePush(ctx.seen, value);
  ctx.currentDepth = recurseTimes;
  const output = formatter(ctx, value, recurseTimes);
  if (leadingEntries !== undefined) {
    for (let i = 0; i < leadingEntries.length; i++) {
      const entry = leadingEntries[i];
      ctx.indentationLvl += 2;
      const text = formatValue(ctx, entry[1], recurseTimes);
      ctx.indentationLvl -= 2;
      ArrayPrototypePush(output, entry[0] + ': ' + text);
    }
  }
  for (let i = 0; i < keys.length; i++) {
    if (ctx.used > ctx.budget) {
      ctx.shortened = true;
      const remaining = keys.length - i;
      ArrayPrototypePush(output, '... ' + remaining + ' more ' + (remaining > 1 ? 'properties' : 'property'));
      break;
    }
    ArrayPrototypePush(output, formatProperty(ctx, value, recurseTimes, keys[i], extrasType));
  }
  const reference = circularIndex(ctx, value);
  if (reference !== 0) {
    const marker = '<ref *' + reference + '>';
    base = base === '' ? marker : marker + ' ' + base;
  }
  ArrayPrototypePop(ctx.seen);
  return reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
}

function formatNoEntries() {
  return list();
}

function formatWeakEntries() {
  return asList(['<items unknown>']);
}

function formatPropertyValue(ctx, descriptor, recurseTimes) {
  if (descriptor === undefined) return 'undefined';
  if (isDataDescriptor(descriptor)) {
    ctx.indentationLvl += 2;
    const text = formatValue(ctx, descriptor.value, recurseTimes);
    ctx.indentationLvl -= 2;
    return text;
  }
  if (descriptor.get !== undefined) return descriptor.set !== undefined ? '[Getter/Setter]' : '[Getter]';
  return '[Setter]';
}

function isIdentifierKey(key) {
  const length = key.length;
  if (length === 0) return false;
  for (let i = 0; i < length; i++) {
    const code = StringPrototypeCharCodeAt(key, i);
    const letter = (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
    if (!letter && !(i > 0 && code >= 48 && code <= 57)) return false;
  }
  return true;
}

function formatProperty(ctx, value, recurseTimes, key, type) {
  const descriptor = describe(value, key);
  const text = formatPropertyValue(ctx, descriptor, recurseTimes);
  if (type === kArrayType) return text;
  let name;
  if (typeof key === 'symbol') name = '[' + SymbolPrototypeToString(key) + ']';
  else if (key === '__proto__') name = "['__proto__']";
  else if (descriptor !== undefined && descriptor.enumerable === false) name = '[' + key + ']';
  else if (isIdentifierKey(key)) name = key;
  else name = quoteForInspect(key);
  ctx.used += name.length;
  return name + ': ' + text;
}

// Promise state. JavaScript cannot read it synchronously, so a promise is probed once: the
// original `then` attaches reactions that record its state when it settles. A promise that was
// already settled when it is probed (or when it is looked at again, probed earlier) has its
// reaction queued before anything queued afterwards, so a check queued right after a rendering
// knows which of the promises it showed as pending really were. The console defers a line
// until that check (console.js); the result is probed when it is known and rendered after
// every microtask has run (run.js).
const promiseStates = new WeakMapCtor();
const PromiseSpeciesGetter = ReflectGetOwnPropertyDescriptor(PromiseCtor, SymbolSpecies).get;
// Collects, while a console line renders, the promises it shows as pending; `confirmed` holds
// those already known to have been pending when the line was logged.
const promiseWatch = { __proto__: null, pending: undefined, confirmed: undefined, unknown: undefined };

// The check queued after a rendering: an own `constructor` of undefined makes `then` use the
// built-in Promise whatever the model's code did to Promise.prototype.constructor.
const settledTrigger = new PromiseCtor((resolve) => resolve());
ReflectDefineProperty(settledTrigger, 'constructor', { __proto__: null, value: undefined });

function queueCheck(callback) {
  ReflectApply(PromisePrototypeThen, settledTrigger, asList([callback]));
}

// Whether `then` can be called on the promise without running the model's code (a subclass's
// constructor through Symbol.species): it must reach the built-in Promise.
function builtInSpecies(promise) {
  const constructor = inheritedDataValue(promise, 'constructor');
  if (constructor === undefined) return describe(promise, 'constructor') === undefined;
  if (constructor !== PromiseCtor) return false;
  const species = describe(PromiseCtor, SymbolSpecies);
  return species !== undefined && species.get === PromiseSpeciesGetter;
}

// The state record of a promise, probing it first if needed; undefined for an object that is
// no promise, a record in state 'unknown' when it cannot be probed without running the model's code.
function promiseRecord(promise) {
  const known = WeakMapPrototypeGet(promiseStates, promise);
  if (known !== undefined) return known;
  const record = { __proto__: null, state: 'pending', value: undefined };
  const onFulfilled = (value) => {
    record.state = 'fulfilled';
    record.value = value;
  };
  const onRejected = (reason) => {
    record.state = 'rejected';
    record.value = reason;
  };
  let added = false;
  if (!builtInSpecies(promise)) {
    if (describe(promise, 'constructor') !== undefined) return { __proto__: null, state: 'unknown', value: undefined };
    added = ReflectDefineProperty(promise, 'constructor', {
      __proto__: null, value: undefined, writable: true, configurable: true, enumerable: false,
    });
    if (!added) return { __proto__: null, state: 'unknown', value: undefined };
  }
  try {
    ReflectApply(PromisePrototypeThen, promise, asList([onFulfilled, onRejected]));
  } catch {
    return undefined;
  } finally {
    if (added) ReflectDeleteProperty(promise, 'constructor');
  }
  WeakMapPrototypeSet(promiseStates, promise, record);
  return record;
}

function listIncludes(items, value) {
  if (items === undefined) return false;
  for (let i = 0; i < items.length; i++) {
    if (items[i] === value) return true;
  }
  return false;
}

// Node's `Promise { 1 }`, `Promise { <pending> }`, `Promise { <rejected> Error: ... }`.
function formatPromiseState(ctx, value, recurseTimes) {
  const record = WeakMapPrototypeGet(promiseStates, value);
  if (record === undefined || record.state === 'unknown' || listIncludes(promiseWatch.unknown, value)) {
    return asList(['<unknown>']);
  }
  if (record.state === 'pending' || listIncludes(promiseWatch.confirmed, value)) {
    if (promiseWatch.pending !== undefined && !listIncludes(promiseWatch.confirmed, value)) {
      ArrayPrototypePush(promiseWatch.pending, value);
    }
    return asList(['<pending>']);
  }
  ctx.indentationLvl += 2;
  const text = formatValue(ctx, record.value, recurseTimes);
  ctx.indentationLvl -= 2;
  return asList([record.state === 'rejected' ? '<rejected> ' + text : text]);
}

// Renders `value` only to probe the promises in it, again after each check while settled
// ones reveal more (bounded), so that the result rendered at the end shows their states.
// Returns whether any promise was seen pending. Callers pass only objects and functions (what
// can hold a promise), so that a primitive result never compiles this code (deferred.js).
const PROBE_ROUNDS = 8;
// Custom inspect methods are the model's code: they run when the result is shown, not to probe it.
const PROBE_OPTIONS = { __proto__: null, customInspect: false };

function probeResult(value, round) {
  const previous = promiseWatch.pending;
  const seen = list();
  promiseWatch.pending = seen;
  try {
    inspect(value, PROBE_OPTIONS);
  } finally {
    promiseWatch.pending = previous;
    takeInspectOmitted();
  }
  if (seen.length === 0) return false;
  const next = round === undefined ? 1 : round + 1;
  if (next < PROBE_ROUNDS) {
    queueCheck(() => {
      try {
        probeResult(value, next);
      } catch {
        // The states found so far remain.
      }
    });
  }
  return true;
}
