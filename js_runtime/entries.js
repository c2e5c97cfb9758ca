// The parts of a rendering that depend on the kind of object: the entries of arrays,
// typed arrays, maps, sets and buffers, and the one-line bases of functions, boxed
// primitives and errors (an error shows its cleaned stack, as in Node).

function formatArrayEntries(ctx, value, recurseTimes) {
  const length = lengthOf(value);
  const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), length);
  const output = list();
  for (let i = 0; i < maxLength; i++) {
    const descriptor = describe(value, i);
    if (descriptor === undefined) return formatSparseEntries(ctx, value, recurseTimes, output, i, length, maxLength);
    if (ctx.used > ctx.budget) {
      ArrayPrototypePush(output, moreItems(ctx, length - i));
      return output;
    }
    ArrayPrototypePush(output, formatPropertyValue(ctx, descriptor, recurseTimes));
  }
  const remaining = length - maxLength;
  if (remaining > 0) ArrayPrototypePush(output, moreItems(ctx, remaining));
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
    ArrayPrototypePush(output, moreItems(ctx, remaining));
  }
  return output;
}

function formatTypedArrayEntries(ctx, value, recurseTimes) {
  const length = TypedArrayPrototypeGetLength(value);
  const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), length);
  const output = list();
  for (let i = 0; i < maxLength; i++) {
    const element = value[i];
    ArrayPrototypePush(output, typeof element === 'bigint' ? element + 'n' : formatNumber(element));
  }
  if (length > maxLength) ArrayPrototypePush(output, moreItems(ctx, length - maxLength));
  return output;
}

function formatSetEntries(ctx, value, recurseTimes) {
  const size = SetPrototypeGetSize(value);
  const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), size);
  const output = list();
  const iterator = SetPrototypeValues(value);
  ctx.indentationLvl += 2;
  for (let i = 0; i < maxLength; i++) {
    const step = SetIteratorPrototypeNext(iterator);
    if (step.done) break;
    if (ctx.used > ctx.budget) {
      ArrayPrototypePush(output, moreItems(ctx, size - i));
      break;
    }
    ArrayPrototypePush(output, formatValue(ctx, step.value, recurseTimes));
  }
  ctx.indentationLvl -= 2;
  if (size > maxLength && output.length === maxLength) {
    ArrayPrototypePush(output, moreItems(ctx, size - maxLength));
  }
  return output;
}

function formatMapEntries(ctx, value, recurseTimes) {
  const size = MapPrototypeGetSize(value);
  const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), size);
  const output = list();
  const iterator = MapPrototypeEntries(value);
  ctx.indentationLvl += 2;
  for (let i = 0; i < maxLength; i++) {
    const step = MapIteratorPrototypeNext(iterator);
    if (step.done) break;
    if (ctx.used > ctx.budget) {
      ArrayPrototypePush(output, moreItems(ctx, size - i));
      break;
    }
    const entry = step.value;
    const keyText = formatValue(ctx, entry[0], recurseTimes);
    ArrayPrototypePush(output, keyText + ' => ' + formatValue(ctx, entry[1], recurseTimes));
  }
  ctx.indentationLvl -= 2;
  if (size > maxLength && output.length === maxLength) {
    ArrayPrototypePush(output, moreItems(ctx, size - maxLength));
  }
  return output;
}

function formatArrayBufferContents(ctx, value) {
  let bytes;
  try {
    bytes = new Uint8ArrayCtor(value);
  } catch {
    return asList(['(detached)']);
  }
  const length = TypedArrayPrototypeGetLength(bytes);
  const shown = MathMin(MathMax(0, ctx.maxArrayLength), length);
  const parts = list();
  for (let i = 0; i < shown; i++) ArrayPrototypePush(parts, byteHex(bytes[i]));
  let text = ArrayPrototypeJoin(parts, ' ');
  if (length > shown) {
    ctx.shortened = true;
    text += ' ... ' + plural(length - shown, 'more byte');
  }
  return asList(['[Uint8Contents]: <' + text + '>']);
}

function byteHex(byte) {
  const text = NumberPrototypeToString(byte, 16);
  return text.length === 1 ? '0' + text : text;
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
  const parts = list();
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

function iteratorKind(iterator) {
  return WeakMapPrototypeGet(iteratorRecords, iterator).kind;
}

// What a Map or Set iterator has left: its values, or for entries() its [key, value] pairs,
// as Node shows them (`[Map Entries] { [ 'a', 1 ] }`).
function formatIteratorEntries(ctx, value, recurseTimes) {
  const items = iteratorRemaining(value);
  const pairs = iteratorKind(value) === 'entries';
  const maxLength = MathMin(MathMax(0, ctx.maxArrayLength), items.length);
  const output = list();
  ctx.indentationLvl += 2;
  for (let i = 0; i < maxLength; i++) {
    if (ctx.used > ctx.budget) {
      ArrayPrototypePush(output, moreItems(ctx, items.length - i));
      ctx.indentationLvl -= 2;
      return output;
    }
    const item = items[i];
    if (pairs) {
      const pair = asList([formatValue(ctx, item[0], recurseTimes), formatValue(ctx, item[1], recurseTimes)]);
      ArrayPrototypePush(output, reduceToSingleString(ctx, pair, '', asList(['[', ']']), kArrayExtrasType, recurseTimes));
    } else {
      ArrayPrototypePush(output, formatValue(ctx, item, recurseTimes));
    }
  }
  ctx.indentationLvl -= 2;
  if (items.length > maxLength) ArrayPrototypePush(output, moreItems(ctx, items.length - maxLength));
  return output;
}
