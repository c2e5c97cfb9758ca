// Formats console arguments the way Node's console does: a first string argument may hold
// %s %d %i %f %j %o %O %c %% placeholders; strings print raw, other values through
// inspect(); arguments are joined by spaces.

const builtInToStrings = [
  ObjectPrototype.toString, ArrayPrototype.toString, ErrorPrototype.toString, DatePrototype.toString,
  RegExpPrototype.toString, FunctionPrototype.toString, NumberPrototype.toString, BooleanPrototype.toString,
  StringPrototype.toString, SymbolPrototype.toString, BigIntPrototype.toString, TypedArrayPrototype.toString,
];

// The toString a `%s` would call when the model's own code defined it, else undefined.
function userToString(value) {
  let holder = value;
  for (let i = 0; i < MAX_PROTOTYPE_CHAIN && holder !== null; i++) {
    const descriptor = describe(holder, 'toString');
    if (descriptor !== undefined) {
      if (!isDataDescriptor(descriptor) || typeof descriptor.value !== 'function') return undefined;
      for (let j = 0; j < builtInToStrings.length; j++) {
        if (builtInToStrings[j] === descriptor.value) return undefined;
      }
      return descriptor.value;
    }
    holder = ReflectGetPrototypeOf(holder);
  }
  return undefined;
}

function formatAsString(value) {
  const plain = plainPrimitiveText(value);
  if (plain !== undefined) return plain;
  if (typeof value === 'symbol') return SymbolPrototypeToString(value);
  if (typeof value === 'function') {
    try {
      return FunctionPrototypeToString(value);
    } catch {
      return inspect(value);
    }
  }
  if (typeof value === 'string') return value;
  try {
    const toString = userToString(value);
    if (toString !== undefined) {
      const text = ReflectApply(toString, value, []);
      if (typeof text === 'string') return text;
    }
  } catch {
    // Fall back to the rendering below.
  }
  return inspect(value, { depth: 0 });
}

// Number(value) for %d; running the value's own valueOf is what Node does too.
function formatAsNumber(value, parse) {
  if (typeof value === 'bigint') return value + 'n';
  if (typeof value === 'symbol') return 'NaN';
  try {
    if (parse === 'int') return formatNumber(NumberParseInt(value));
    if (parse === 'float') return formatNumber(NumberParseFloat(value));
    return formatNumber(NumberCtor(value));
  } catch {
    return 'NaN';
  }
}

function formatAsJson(value) {
  try {
    const text = JSONStringify(value);
    return text === undefined ? 'undefined' : text;
  } catch (error) {
    const message = thrownMessage(error);
    if (StringPrototypeIncludes(message, 'circular')) return '[Circular]';
    return '[Unserializable: ' + message + ']';
  }
}

// An argument as inspect() shows it; numbers, booleans and the like without the rendering code,
// so that the most common console calls never compile it (deferred.js).
function inspectArgument(value) {
  const plain = plainPrimitiveText(value);
  return plain === undefined ? inspect(value) : plain;
}

function formatArgs(args) {
  const count = args.length;
  if (count === 0) return '';
  const first = args[0];
  let text = '';
  let join = '';
  let used = 0;
  if (typeof first === 'string') {
    if (count === 1) return first;
    let lastPosition = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (StringPrototypeCharCodeAt(first, i) !== 37) continue;
      const code = StringPrototypeCharCodeAt(first, ++i);
      if (used + 1 !== count) {
        let piece;
        switch (code) {
          case 115: // s
            piece = formatAsString(args[++used]);
            break;
          case 106: // j
            piece = formatAsJson(args[++used]);
            break;
          case 100: // d
            piece = formatAsNumber(args[++used], 'number');
            break;
          case 79: // O
            piece = inspect(args[++used]);
            break;
          case 111: // o
            piece = inspect(args[++used], { showHidden: true, depth: 4 });
            break;
          case 105: // i
            piece = formatAsNumber(args[++used], 'int');
            break;
          case 102: // f
            piece = formatAsNumber(args[++used], 'float');
            break;
          case 99: // c: CSS has no meaning here
            ++used;
            piece = '';
            break;
          case 37: // %
            text += StringPrototypeSlice(first, lastPosition, i);
            lastPosition = i + 1;
            continue;
          default:
            continue;
        }
        if (lastPosition !== i - 1) text += StringPrototypeSlice(first, lastPosition, i - 1);
        text += piece;
        lastPosition = i + 1;
      } else if (code === 37) {
        text += StringPrototypeSlice(first, lastPosition, i);
        lastPosition = i + 1;
      }
    }
    if (lastPosition !== 0) {
      used++;
      join = ' ';
      if (lastPosition < first.length) text += StringPrototypeSlice(first, lastPosition);
    }
  }
  while (used < count) {
    const value = args[used];
    text += join;
    text += typeof value === 'string' ? value : inspectArgument(value);
    join = ' ';
    used++;
  }
  return text;
}
