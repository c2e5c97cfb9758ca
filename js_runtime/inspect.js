// Renders any value as text the way Node's util.inspect (and so console.log) shows it, so
// the model reads familiar output: `{ a: 1 }`, `Map(1) { 'a' => 1 }`, `[class A]`,
// `<ref *1> { self: [Circular *1] }`. It reads properties through descriptors and never
// invokes getters, and it cannot throw: a value whose inspection fails (a Proxy trap that
// throws, a revoked Proxy) renders as a placeholder.

const kObjectType = 0;
const kArrayType = 1;
const kArrayExtrasType = 2;
const INSPECT_DEPTH = 6;
const BREAK_LENGTH = 80;
const MAX_ARRAY_LENGTH = 100;
// Longer arrays and typed arrays are shown without their extra non-index properties:
// finding those would list every index key.
const EXTRA_KEYS_MAX_LENGTH = 100000;
const MAX_PROTOTYPE_CHAIN = 1000;

// Characters kept at each end of a string too large to render whole. run() sets it from
// the output cap, so that what the cap later keeps never needs the middle.
let stringKeepChars = 65536;

// Bytes of the middle of huge strings left out by inspect() since the last
// takeInspectOmitted(); whoever stores the text adds them to its stream.
let inspectOmitted = 0;

function takeInspectOmitted() {
  const omitted = inspectOmitted;
  inspectOmitted = 0;
  return omitted;
}

function newInspectContext(options) {
  let depth = INSPECT_DEPTH;
  let showHidden = false;
  if (options !== undefined) {
    if (options.depth === null || options.depth === Infinity) depth = Infinity;
    else if (typeof options.depth === 'number' && !NumberIsNaN(options.depth)) depth = options.depth;
    if (options.showHidden === true) showHidden = true;
  }
  return {
    seen: [],
    circular: [],
    indentationLvl: 0,
    currentDepth: 0,
    depth,
    showHidden,
    breakLength: options !== undefined && typeof options.breakLength === 'number' ? options.breakLength : BREAK_LENGTH,
    maxArrayLength: options !== undefined && typeof options.maxArrayLength === 'number'
      ? options.maxArrayLength : MAX_ARRAY_LENGTH,
    // A bound on the work of one rendering (a wide, deep structure could otherwise take
    // forever); past it, remaining entries are summarised.
    used: 0,
    budget: MathMax(4 * stringKeepChars, 262144),
    omitted: 0,
  };
}

function inspect(value, options) {
  const ctx = newInspectContext(options);
  let text;
  try {
    text = formatValue(ctx, value, 0);
  } catch (error) {
    text = '<Inspection threw (' + describeThrown(error) + ')>';
  }
  inspectOmitted += ctx.omitted;
  return text;
}

// A short text for something thrown, without running user code.
function describeThrown(error) {
  try {
    if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
      const name = inheritedDataValue(error, 'name');
      const message = inheritedDataValue(error, 'message');
      if (typeof name === 'string' && typeof message === 'string') return message === '' ? name : name + ': ' + message;
      return '[object]';
    }
    return primitiveToString(error);
  } catch {
    return 'unknown error';
  }
}

// An own property descriptor with a null prototype, so that reading `.value` or `.get`
// never reaches a property the model's code added to Object.prototype.
function describe(object, key) {
  const descriptor = ReflectGetOwnPropertyDescriptor(object, key);
  if (descriptor === undefined) return undefined;
  ReflectSetPrototypeOf(descriptor, null);
  return descriptor;
}

function isDataDescriptor(descriptor) {
  return descriptor.get === undefined && descriptor.set === undefined;
}

// The value of a data property found on the object or its prototypes (getters are not
// called: an accessor gives undefined).
function inheritedDataValue(object, key) {
  let current = object;
  for (let i = 0; i < MAX_PROTOTYPE_CHAIN && current !== null; i++) {
    const descriptor = describe(current, key);
    if (descriptor !== undefined) return isDataDescriptor(descriptor) ? descriptor.value : undefined;
    current = ReflectGetPrototypeOf(current);
  }
  return undefined;
}

function functionName(fn) {
  const descriptor = describe(fn, 'name');
  if (descriptor !== undefined && typeof descriptor.value === 'string') return descriptor.value;
  return '';
}

function prototypeChain(value) {
  const chain = [];
  let current = ReflectGetPrototypeOf(value);
  while (current !== null && chain.length < MAX_PROTOTYPE_CHAIN) {
    ArrayPrototypePush(chain, current);
    current = ReflectGetPrototypeOf(current);
  }
  return chain;
}

function chainIncludes(chain, prototype) {
  for (let i = 0; i < chain.length; i++) {
    if (chain[i] === prototype) return true;
  }
  return false;
}

// Name of the nearest constructor whose prototype the value inherits from, or null for
// an object without prototype (Node's rule: `A.prototype` itself is not an `A`).
function constructorNameOf(value, chain) {
  let holder = value;
  for (let i = -1; i < chain.length; i++) {
    if (i >= 0) holder = chain[i];
    const descriptor = describe(holder, 'constructor');
    if (descriptor !== undefined && typeof descriptor.value === 'function') {
      const name = functionName(descriptor.value);
      const prototype = describe(descriptor.value, 'prototype');
      if (name !== '' && prototype !== undefined && chainIncludes(chain, prototype.value)) return name;
    }
  }
  return chain.length === 0 ? null : 'Object';
}

// Symbol.toStringTag as a data property, unless it is an own enumerable one (then it is
// printed as a key already).
function toStringTagOf(value, chain) {
  let holder = value;
  for (let i = -1; i < chain.length; i++) {
    if (i >= 0) holder = chain[i];
    const descriptor = describe(holder, SymbolToStringTag);
    if (descriptor !== undefined) {
      if (!isDataDescriptor(descriptor) || typeof descriptor.value !== 'string') return '';
      if (i === -1 && descriptor.enumerable) return '';
      return descriptor.value;
    }
  }
  return '';
}

function succeeds(check, value) {
  try {
    check(value);
    return true;
  } catch {
    return false;
  }
}

function isErrorObject(value, chain) {
  if (ErrorIsError !== undefined) return ErrorIsError(value);
  return chainIncludes(chain, ErrorPrototype);
}

function weakMapCheck(value) {
  WeakMapPrototypeHas(value, ObjectPrototype);
}

function weakSetCheck(value) {
  WeakSetPrototypeHas(value, ObjectPrototype);
}

// Internal kind of an object, by brand checks where the language offers them. Checks that
// throw on a mismatch are only tried when the prototype chain suggests the kind (or the
// object has no prototype), since throwing is slow.
function kindOf(value, chain) {
  if (ArrayIsArray(value)) return 'array';
  if (typeof value === 'function') return 'function';
  if (TypedArrayPrototypeGetSymbolToStringTag(value) !== undefined) return 'typedarray';
  if (isErrorObject(value, chain)) return 'error';
  const tryAll = chain.length === 0;
  for (let i = 0; i < chain.length || (tryAll && i === 0); i++) {
    const prototype = tryAll ? null : chain[i];
    if ((tryAll || prototype === MapPrototype) && succeeds(MapPrototypeGetSize, value)) return 'map';
    if ((tryAll || prototype === SetPrototype) && succeeds(SetPrototypeGetSize, value)) return 'set';
    if ((tryAll || prototype === DatePrototype) && succeeds(DatePrototypeGetTime, value)) return 'date';
    if ((tryAll || prototype === RegExpPrototype) && succeeds(RegExpPrototypeGetSource, value)) return 'regexp';
    if ((tryAll || prototype === ArrayBufferPrototype) && succeeds(ArrayBufferPrototypeGetByteLength, value)) {
      return 'arraybuffer';
    }
    if ((tryAll || prototype === SharedArrayBufferPrototype) &&
        succeeds(SharedArrayBufferPrototypeGetByteLength, value)) {
      return 'sharedarraybuffer';
    }
    if ((tryAll || prototype === DataViewPrototype) && succeeds(DataViewPrototypeGetBuffer, value)) return 'dataview';
    if (!tryAll && prototype === PromisePrototype) return 'promise';
    if ((tryAll || prototype === WeakMapPrototype) && succeeds(weakMapCheck, value)) return 'weakmap';
    if ((tryAll || prototype === WeakSetPrototype) && succeeds(weakSetCheck, value)) return 'weakset';
    if ((tryAll || prototype === NumberPrototype) && succeeds(NumberPrototypeValueOf, value)) return 'Number';
    if ((tryAll || prototype === StringPrototype) && succeeds(StringPrototypeValueOf, value)) return 'String';
    if ((tryAll || prototype === BooleanPrototype) && succeeds(BooleanPrototypeValueOf, value)) return 'Boolean';
    if ((tryAll || prototype === SymbolPrototype) && succeeds(SymbolPrototypeValueOf, value)) return 'Symbol';
    if ((tryAll || prototype === BigIntPrototype) && succeeds(BigIntPrototypeValueOf, value)) return 'BigInt';
  }
  return 'object';
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

function formatNumber(number) {
  if (number === 0 && 1 / number < 0) return '-0';
  return '' + number;
}

function formatPrimitive(ctx, value) {
  let text;
  switch (typeof value) {
    case 'string':
      text = formatString(ctx, value);
      break;
    case 'number':
      text = formatNumber(value);
      break;
    case 'bigint':
      text = value + 'n';
      break;
    case 'symbol':
      text = SymbolPrototypeToString(value);
      break;
    default:
      text = '' + value;
  }
  ctx.used += text.length;
  return text;
}

function formatString(ctx, value) {
  const length = value.length;
  if (length > 2 * stringKeepChars + 1024) return formatHugeString(ctx, value);
  if (length > 16 && length > ctx.breakLength - ctx.indentationLvl - 4) {
    // Node shows a long multi-line string as one quoted piece per line, joined by ` +`.
    let newline = StringPrototypeIndexOf(value, '\n');
    if (newline !== -1 && newline !== length - 1) {
      const pieces = [];
      let start = 0;
      while (newline !== -1 && newline !== length - 1) {
        ArrayPrototypePush(pieces, quoteForInspect(StringPrototypeSlice(value, start, newline + 1)));
        start = newline + 1;
        newline = StringPrototypeIndexOf(value, '\n', start);
      }
      ArrayPrototypePush(pieces, quoteForInspect(StringPrototypeSlice(value, start)));
      return ArrayPrototypeJoin(pieces, ' +\n' + StringPrototypeRepeat(' ', ctx.indentationLvl + 2));
    }
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

function ownKeysForDisplay(value, showHidden) {
  const names = showHidden ? ObjectGetOwnPropertyNames(value) : ObjectKeys(value);
  const keys = [];
  for (let i = 0; i < names.length; i++) ArrayPrototypePush(keys, names[i]);
  const symbols = ObjectGetOwnPropertySymbols(value);
  for (let i = 0; i < symbols.length; i++) {
    if (showHidden || ObjectPrototypePropertyIsEnumerable(value, symbols[i])) ArrayPrototypePush(keys, symbols[i]);
  }
  return keys;
}

// Canonical array index ("0", "17"; not "01" or "-1") as a number, or -1.
function arrayIndexOf(key) {
  if (typeof key !== 'string' || key.length === 0 || key.length > 10) return -1;
  const first = StringPrototypeCharCodeAt(key, 0);
  if (first < 48 || first > 57 || (first === 48 && key.length > 1)) return -1;
  let number = 0;
  for (let i = 0; i < key.length; i++) {
    const code = StringPrototypeCharCodeAt(key, i);
    if (code < 48 || code > 57) return -1;
    number = number * 10 + (code - 48);
  }
  return number < 4294967295 ? number : -1;
}

function withoutIndexKeys(keys) {
  const result = [];
  for (let i = 0; i < keys.length; i++) {
    if (arrayIndexOf(keys[i]) === -1) ArrayPrototypePush(result, keys[i]);
  }
  return result;
}

function symbolKeysOnly(value, showHidden) {
  const keys = [];
  const symbols = ObjectGetOwnPropertySymbols(value);
  for (let i = 0; i < symbols.length; i++) {
    if (showHidden || ObjectPrototypePropertyIsEnumerable(value, symbols[i])) ArrayPrototypePush(keys, symbols[i]);
  }
  return keys;
}

function lengthOf(value) {
  const descriptor = describe(value, 'length');
  if (descriptor === undefined || typeof descriptor.value !== 'number') return 0;
  return descriptor.value;
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
      const prefix = constructor !== 'Array' || tag !== '' ? getPrefix(constructor, tag, 'Array', '(' + length + ')') : '';
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
        leadingEntries = [['byteLength', byteLength]];
      } else if (kind === 'dataview') {
        braces[0] = getPrefix(constructor, tag, 'DataView') + '{';
        leadingEntries = [
          ['byteLength', DataViewPrototypeGetByteLength(value)],
          ['byteOffset', DataViewPrototypeGetByteOffset(value)],
          ['buffer', DataViewPrototypeGetBuffer(value)],
        ];
      } else if (kind === 'promise') {
        // The state of a promise cannot be read from JavaScript.
        braces[0] = getPrefix(constructor, tag, 'Promise') + '{';
        if (keys.length === 0) return braces[0] + '}';
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
  return [];
}

function formatWeakEntries() {
  return ['<items unknown>'];
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

function formatArrayEntries(ctx, value, recurseTimes) {
  const length = lengthOf(value);
  const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), length);
  const output = [];
  for (let i = 0; i < maxLength; i++) {
    const descriptor = describe(value, i);
    if (descriptor === undefined) return formatSparseEntries(ctx, value, recurseTimes, output, i, length, maxLength);
    if (ctx.used > ctx.budget) {
      ArrayPrototypePush(output, '... ' + plural(length - i, 'more item'));
      return output;
    }
    ArrayPrototypePush(output, formatPropertyValue(ctx, descriptor, recurseTimes));
  }
  const remaining = length - maxLength;
  if (remaining > 0) ArrayPrototypePush(output, '... ' + plural(remaining, 'more item'));
  return output;
}

// Arrays with holes: runs of missing indexes show as `<3 empty items>`. Index keys come
// first and in order from Object.keys, so the walk starts where the dense part ended.
function formatSparseEntries(ctx, value, recurseTimes, output, start, length, maxLength) {
  const keys = ObjectKeys(value);
  let index = start;
  for (let k = start; k < keys.length && output.length < maxLength; k++) {
    const key = keys[k];
    const number = arrayIndexOf(key);
    if (number === -1) break;
    if (number !== index) {
      ArrayPrototypePush(output, '<' + plural(number - index, 'empty item') + '>');
      index = number;
      if (output.length === maxLength) break;
    }
    ArrayPrototypePush(output, formatPropertyValue(ctx, describe(value, key), recurseTimes));
    index++;
  }
  const remaining = length - index;
  if (output.length !== maxLength) {
    if (remaining > 0) ArrayPrototypePush(output, '<' + plural(remaining, 'empty item') + '>');
  } else if (remaining > 0) {
    ArrayPrototypePush(output, '... ' + plural(remaining, 'more item'));
  }
  return output;
}

function formatTypedArrayEntries(ctx, value, recurseTimes) {
  const length = TypedArrayPrototypeGetLength(value);
  const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), length);
  const output = [];
  for (let i = 0; i < maxLength; i++) {
    const element = value[i];
    ArrayPrototypePush(output, typeof element === 'bigint' ? element + 'n' : formatNumber(element));
  }
  if (length > maxLength) ArrayPrototypePush(output, '... ' + plural(length - maxLength, 'more item'));
  return output;
}

function formatSetEntries(ctx, value, recurseTimes) {
  const size = SetPrototypeGetSize(value);
  const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), size);
  const output = [];
  const iterator = SetPrototypeValues(value);
  ctx.indentationLvl += 2;
  for (let i = 0; i < maxLength; i++) {
    const step = SetIteratorPrototypeNext(iterator);
    if (step.done) break;
    if (ctx.used > ctx.budget) {
      ArrayPrototypePush(output, '... ' + plural(size - i, 'more item'));
      break;
    }
    ArrayPrototypePush(output, formatValue(ctx, step.value, recurseTimes));
  }
  ctx.indentationLvl -= 2;
  if (size > maxLength && output.length === maxLength) {
    ArrayPrototypePush(output, '... ' + plural(size - maxLength, 'more item'));
  }
  return output;
}

function formatMapEntries(ctx, value, recurseTimes) {
  const size = MapPrototypeGetSize(value);
  const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), size);
  const output = [];
  const iterator = MapPrototypeEntries(value);
  ctx.indentationLvl += 2;
  for (let i = 0; i < maxLength; i++) {
    const step = MapIteratorPrototypeNext(iterator);
    if (step.done) break;
    if (ctx.used > ctx.budget) {
      ArrayPrototypePush(output, '... ' + plural(size - i, 'more item'));
      break;
    }
    const entry = step.value;
    const keyText = formatValue(ctx, entry[0], recurseTimes);
    ArrayPrototypePush(output, keyText + ' => ' + formatValue(ctx, entry[1], recurseTimes));
  }
  ctx.indentationLvl -= 2;
  if (size > maxLength && output.length === maxLength) {
    ArrayPrototypePush(output, '... ' + plural(size - maxLength, 'more item'));
  }
  return output;
}

function formatArrayBufferContents(ctx, value) {
  let bytes;
  try {
    bytes = new Uint8ArrayCtor(value);
  } catch {
    return ['(detached)'];
  }
  const length = TypedArrayPrototypeGetLength(bytes);
  const shown = MathMin(MathMax(0, ctx.maxArrayLength), length);
  const parts = [];
  for (let i = 0; i < shown; i++) ArrayPrototypePush(parts, StringPrototypeToLowerCaseHex(bytes[i]));
  let text = ArrayPrototypeJoin(parts, ' ');
  if (length > shown) text += ' ... ' + plural(length - shown, 'more byte');
  return ['[Uint8Contents]: <' + text + '>'];
}

function StringPrototypeToLowerCaseHex(byte) {
  const text = NumberPrototypeToString(byte, 16);
  return text.length === 1 ? '0' + text : text;
}

function regExpText(value) {
  let flags = '';
  for (let i = 0; i < regExpFlagGetters.length; i++) {
    const entry = regExpFlagGetters[i];
    if (entry[1](value)) flags += entry[0];
  }
  return '/' + RegExpPrototypeGetSource(value) + '/' + flags;
}

function dateText(value) {
  const time = DatePrototypeGetTime(value);
  return NumberIsNaN(time) ? 'Invalid Date' : DatePrototypeToISOString(value);
}

function isClassFunction(fn) {
  let source;
  try {
    source = FunctionPrototypeToString(fn);
  } catch {
    return false;
  }
  if (!StringPrototypeStartsWith(source, 'class') || !StringPrototypeEndsWith(source, '}')) return false;
  const next = StringPrototypeCharCodeAt(source, 5);
  // `class{`, `class A`, `class\n`: anything but an identifier character after `class`.
  return next === 123 || next === 32 || next === 9 || next === 10 || next === 13;
}

function functionBase(fn, constructor, tag) {
  const name = functionName(fn);
  if (isClassFunction(fn)) {
    let base = 'class ' + (name !== '' && describe(fn, 'name') !== undefined ? name : '(anonymous)');
    if (constructor !== 'Function' && constructor !== null) base += ' [' + constructor + ']';
    if (tag !== '' && constructor !== tag) base += ' [' + tag + ']';
    if (constructor !== null) {
      const parent = ReflectGetPrototypeOf(fn);
      const parentName = parent === null ? '' : typeof parent === 'function' ? functionName(parent) : '';
      if (parentName !== '') base += ' extends ' + parentName;
    } else {
      base += ' extends [null prototype]';
    }
    return '[' + base + ']';
  }
  const prototype = ReflectGetPrototypeOf(fn);
  let type = 'Function';
  if (prototype === AsyncFunctionPrototype) type = 'AsyncFunction';
  else if (prototype === GeneratorFunctionPrototype) type = 'GeneratorFunction';
  else if (prototype === AsyncGeneratorFunctionPrototype) type = 'AsyncGeneratorFunction';
  let base = '[' + type;
  if (constructor === null) base += ' (null prototype)';
  base += name === '' ? ' (anonymous)' : ': ' + name;
  base += ']';
  if (constructor !== type && constructor !== null) base += ' ' + constructor;
  if (tag !== '' && constructor !== tag) base += ' [' + tag + ']';
  return base;
}

function boxedBase(ctx, value, kind, constructor, tag) {
  let primitive;
  if (kind === 'Number') primitive = formatNumber(NumberPrototypeValueOf(value));
  else if (kind === 'String') primitive = formatString(ctx, StringPrototypeValueOf(value));
  else if (kind === 'Boolean') primitive = '' + BooleanPrototypeValueOf(value);
  else if (kind === 'Symbol') primitive = SymbolPrototypeToString(SymbolPrototypeValueOf(value));
  else primitive = BigIntPrototypeValueOf(value) + 'n';
  let base = '[' + kind;
  if (kind !== constructor) base += constructor === null ? ' (null prototype)' : ' (' + constructor + ')';
  base += ': ' + primitive + ']';
  if (tag !== '' && tag !== constructor) base += ' [' + tag + ']';
  return base;
}

function indexOfKey(keys, key) {
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] === key) return i;
  }
  return -1;
}

function removeKey(keys, key) {
  const index = indexOfKey(keys, key);
  if (index === -1) return;
  for (let i = index; i < keys.length - 1; i++) keys[i] = keys[i + 1];
  keys.length = keys.length - 1;
}

function formatError(ctx, error, constructor, tag, keys) {
  const nameValue = inheritedDataValue(error, 'name');
  const name = nameValue === undefined || nameValue === null ? 'Error' : primitiveToString(nameValue);
  let stack = errorStackText(error);
  // Own name/message/stack keys already visible in the stack are not repeated.
  const duplicates = ['name', 'message', 'stack'];
  for (let i = 0; i < duplicates.length; i++) {
    const key = duplicates[i];
    const descriptor = describe(error, key);
    if (indexOfKey(keys, key) !== -1 && descriptor !== undefined && typeof descriptor.value === 'string' &&
        StringPrototypeIncludes(stack, descriptor.value)) {
      removeKey(keys, key);
    }
  }
  if (describe(error, 'cause') !== undefined && indexOfKey(keys, 'cause') === -1) ArrayPrototypePush(keys, 'cause');
  const errors = describe(error, 'errors');
  if (errors !== undefined && ArrayIsArray(errors.value) && indexOfKey(keys, 'errors') === -1) {
    ArrayPrototypePush(keys, 'errors');
  }
  stack = improveStackHeader(stack, constructor, name, tag);
  const message = inheritedDataValue(error, 'message');
  let position = -1;
  if (typeof message === 'string' && message !== '') {
    position = StringPrototypeIndexOf(stack, message);
    if (position !== -1) position += message.length;
  }
  if (StringPrototypeIndexOf(stack, '\n    at', position) === -1) stack = '[' + stack + ']';
  if (ctx.indentationLvl !== 0) stack = indentLines(stack, StringPrototypeRepeat(' ', ctx.indentationLvl));
  ctx.used += stack.length;
  return stack;
}

// Node names the class in the header of a subclassed error: `class ValidationError extends
// Error` prints `ValidationError: ...` even though `name` is still 'Error'.
function improveStackHeader(stack, constructor, name, tag) {
  const length = name.length;
  if (constructor === null || !StringPrototypeEndsWith(name, 'Error') || !StringPrototypeStartsWith(stack, name)) {
    return stack;
  }
  if (!(stack.length === length || stack[length] === ':' || stack[length] === '\n')) return stack;
  const prototypeName = StringPrototypeSlice(getPrefix(constructor, tag, 'Error'), 0, -1);
  if (name === prototypeName) return stack;
  if (StringPrototypeIncludes(prototypeName, name)) {
    return length === 0 ? prototypeName + ': ' + stack : prototypeName + StringPrototypeSlice(stack, length);
  }
  return prototypeName + ' [' + name + ']' + StringPrototypeSlice(stack, length);
}

function indentLines(text, indentation) {
  const parts = [];
  let start = 0;
  let newline = StringPrototypeIndexOf(text, '\n');
  while (newline !== -1) {
    ArrayPrototypePush(parts, StringPrototypeSlice(text, start, newline + 1));
    start = newline + 1;
    newline = StringPrototypeIndexOf(text, '\n', start);
  }
  ArrayPrototypePush(parts, StringPrototypeSlice(text, start));
  return ArrayPrototypeJoin(parts, indentation);
}

function isBelowBreakLength(ctx, output, start, base) {
  let totalLength = output.length + start;
  if (totalLength + output.length > ctx.breakLength) return false;
  for (let i = 0; i < output.length; i++) {
    totalLength += output[i].length;
    if (totalLength > ctx.breakLength) return false;
  }
  return base === '' || !StringPrototypeIncludes(base, '\n');
}

// Node's layout: up to three nested levels that fit in breakLength share one line;
// otherwise one entry per line, indented two spaces.
function reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value) {
  const entries = output.length;
  if (extrasType === kArrayExtrasType && entries > 6) output = groupArrayElements(ctx, output, value);
  const prefix = base === '' ? '' : base + ' ';
  if (ctx.currentDepth - recurseTimes < 3 && entries === output.length) {
    const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
    if (isBelowBreakLength(ctx, output, start, base)) {
      const joined = ArrayPrototypeJoin(output, ', ');
      if (!StringPrototypeIncludes(joined, '\n')) return prefix + braces[0] + ' ' + joined + ' ' + braces[1];
    }
  }
  const indentation = '\n' + StringPrototypeRepeat(' ', ctx.indentationLvl);
  return prefix + braces[0] + indentation + '  ' + ArrayPrototypeJoin(output, ',' + indentation + '  ') +
    indentation + braces[1];
}

function elementIsNumeric(value, index) {
  if (TypedArrayPrototypeGetSymbolToStringTag(value) !== undefined) {
    return index < TypedArrayPrototypeGetLength(value);
  }
  const descriptor = describe(value, index);
  if (descriptor === undefined || !isDataDescriptor(descriptor)) return false;
  return typeof descriptor.value === 'number' || typeof descriptor.value === 'bigint';
}

// Many short array entries are laid out as aligned columns (numbers right-aligned).
function groupArrayElements(ctx, output, value) {
  let totalLength = 0;
  let maxLength = 0;
  let outputLength = output.length;
  if (ctx.maxArrayLength < output.length) outputLength--;
  const separatorSpace = 2;
  const dataLength = [];
  for (let i = 0; i < outputLength; i++) {
    const length = output[i].length;
    ArrayPrototypePush(dataLength, length);
    totalLength += length + separatorSpace;
    if (maxLength < length) maxLength = length;
  }
  const actualMax = maxLength + separatorSpace;
  if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength &&
      (totalLength / actualMax > 5 || maxLength <= 6)) {
    const averageBias = MathSqrt(actualMax - totalLength / output.length);
    const biasedMax = MathMax(actualMax - 3 - averageBias, 1);
    const columns = MathMin(
      MathRound(MathSqrt(2.5 * biasedMax * outputLength) / biasedMax),
      MathFloor((ctx.breakLength - ctx.indentationLvl) / actualMax),
      3 * 4,
      15,
    );
    if (columns <= 1) return output;
    const grouped = [];
    const maxLineLength = [];
    for (let i = 0; i < columns; i++) {
      let lineLength = 0;
      for (let j = i; j < output.length; j += columns) {
        if (dataLength[j] > lineLength) lineLength = dataLength[j];
      }
      ArrayPrototypePush(maxLineLength, lineLength + separatorSpace);
    }
    let padStart = true;
    for (let i = 0; i < output.length; i++) {
      if (!elementIsNumeric(value, i)) {
        padStart = false;
        break;
      }
    }
    for (let i = 0; i < outputLength; i += columns) {
      const max = MathMin(i + columns, outputLength);
      let line = '';
      let j = i;
      for (; j < max - 1; j++) {
        const cell = output[j] + ', ';
        line += padStart ? StringPrototypePadStart(cell, maxLineLength[j - i], ' ')
          : StringPrototypePadEnd(cell, maxLineLength[j - i], ' ');
      }
      if (padStart) {
        line += StringPrototypePadStart(output[j], maxLineLength[j - i] - separatorSpace, ' ');
      } else {
        line += output[j];
      }
      ArrayPrototypePush(grouped, line);
    }
    if (ctx.maxArrayLength < output.length) ArrayPrototypePush(grouped, output[outputLength]);
    return grouped;
  }
  return output;
}
