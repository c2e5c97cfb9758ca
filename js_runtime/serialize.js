// The structured form of a result: JSON text a program can use, next to the rendered
// text the model reads. Written by hand rather than with JSON.stringify so that it can
// map values JSON cannot hold (BigInt, Map, NaN, cycles, getters that throw), stop
// writing once the text outgrows the output cap while still counting its size, and never
// look up toJSON or anything else on the built-in prototypes the model's code may have
// changed.

const SERIALIZE_MAX_DEPTH = 64;
// Nodes visited before giving up counting (a DAG of shared arrays can be exponentially
// large); past it, the reported size is a lower bound.
const SERIALIZE_MAX_NODES = 200000;

// Prototypes whose toJSON is never honoured (a method found there was put there by the
// model's code or is a built-in the runtime replaces with its own mapping).
const intrinsicPrototypes = [
  ObjectPrototype, ArrayPrototype, FunctionPrototype, StringPrototype, NumberPrototype, BooleanPrototype,
  SymbolPrototype, BigIntPrototype, DatePrototype, RegExpPrototype, ErrorPrototype, MapPrototype, SetPrototype,
  PromisePrototype, TypedArrayPrototype,
];

// group: outcome
function newSerializer(limit) {
  return { __proto__: null, limit, parts: list(), bytes: 0, writing: true, nodes: 0, ancestors: list() };
}

// group: outcome
function emit(state, text, bytes) {
  state.bytes += bytes;
  if (!state.writing) return;
  if (state.bytes > state.limit) {
    state.writing = false;
    state.parts = list();
    return;
  }
  ArrayPrototypePush(state.parts, text);
}

// group: outcome
function emitAscii(state, text) {
  emit(state, text, text.length);
}

// group: text
function emitString(state, text) {
  if (state.writing && text.length <= state.limit) {
    const json = jsonString(text);
    emit(state, json, utf8Length(json));
  } else {
    emit(state, '', jsonStringBytes(text));
  }
}

function functionLabel(fn) {
  const name = functionName(fn);
  if (isClassFunction(fn)) return '[class ' + (name === '' ? '(anonymous)' : name) + ']';
  return name === '' ? '[Function (anonymous)]' : '[Function: ' + name + ']';
}

// Serializes `value`; returns {text, bytes}: text is null when it exceeded the limit.
// group: outcome
function serialize(value, limit) {
  const state = newSerializer(limit);
  writeValue(state, value, 0, '');
  return { __proto__: null, text: state.writing ? ArrayPrototypeJoin(state.parts, '') : null, bytes: state.bytes };
}

function isIntrinsicPrototype(object) {
  for (let i = 0; i < intrinsicPrototypes.length; i++) {
    if (intrinsicPrototypes[i] === object) return true;
  }
  return false;
}

// A user-defined toJSON method (a data property of the value or of a prototype that is
// not a built-in one), or undefined.
function userToJSON(value, chain) {
  for (let i = -1; i < chain.length; i++) {
    const holder = i === -1 ? value : chain[i];
    if (i !== -1 && isIntrinsicPrototype(holder)) continue;
    const descriptor = describe(holder, 'toJSON');
    if (descriptor !== undefined) {
      if (!isDataDescriptor(descriptor) || typeof descriptor.value !== 'function') return undefined;
      return descriptor.value;
    }
  }
  return undefined;
}

// The JSON of a number, boolean, bigint, null or undefined as the structured result writes it (a
// number JSON cannot hold and a bigint as strings, undefined as null); undefined for other values.
// group: eager
function primitiveJson(value) {
  switch (typeof value) {
    case 'number':
      if (NumberIsFinite(value)) return value === 0 ? '0' : '' + value;
      return NumberIsNaN(value) ? '"NaN"' : value > 0 ? '"Infinity"' : '"-Infinity"';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return '"' + value + '"';
    case 'undefined':
      return 'null';
    default:
      return value === null ? 'null' : undefined;
  }
}

// group: outcome
function writeValue(state, value, depth, key) {
  state.nodes++;
  if (state.nodes > SERIALIZE_MAX_NODES) return;
  const plain = primitiveJson(value);
  if (plain !== undefined) {
    emitAscii(state, plain);
    return;
  }
  switch (typeof value) {
    case 'string':
      emitString(state, value);
      return;
    case 'symbol':
      emitString(state, SymbolPrototypeToString(value));
      return;
    case 'function':
      emitString(state, functionLabel(value));
      return;
  }
  const ancestors = state.ancestors;
  for (let i = 0; i < ancestors.length; i++) {
    if (ancestors[i] === value) {
      emitAscii(state, '"[Circular]"');
      return;
    }
  }
  if (depth >= SERIALIZE_MAX_DEPTH) {
    emitAscii(state, '"[Object]"');
    return;
  }
  ArrayPrototypePush(ancestors, value);
  const partsMark = state.parts.length;
  const bytesMark = state.bytes;
  try {
    writeObject(state, value, depth, key);
  } catch (error) {
    // Take back what the object wrote before it failed (an opening brace, some members), so that
    // the text stays JSON.
    if (state.writing) {
      state.parts.length = partsMark;
      state.bytes = bytesMark;
    }
    emitString(state, '[Unserializable: ' + describeThrown(error) + ']');
  }
  ArrayPrototypePop(ancestors);
}

function writeObject(state, value, depth, key) {
  const chain = prototypeChain(value);
  const toJSON = userToJSON(value, chain);
  if (toJSON !== undefined) {
    let replacement;
    try {
      replacement = ReflectApply(toJSON, value, [key]);
    } catch (error) {
      emitString(state, '[toJSON threw: ' + thrownMessage(error) + ']');
      return;
    }
    if (replacement !== value) {
      writeValue(state, replacement, depth + 1, key);
      return;
    }
  }
  const kind = kindOf(value, chain);
  switch (kind) {
    case 'array':
      writeArrayLike(state, value, lengthOf(value), depth, false);
      return;
    case 'typedarray':
      writeArrayLike(state, value, TypedArrayPrototypeGetLength(value), depth, true);
      return;
    case 'arraybuffer':
    case 'sharedarraybuffer':
      writeArrayLike(state, new Uint8ArrayCtor(value), kind === 'arraybuffer'
        ? ArrayBufferPrototypeGetByteLength(value) : SharedArrayBufferPrototypeGetByteLength(value), depth, true);
      return;
    case 'map':
      writeMap(state, value, depth);
      return;
    case 'set': {
      emitAscii(state, '[');
      const iterator = SetPrototypeValues(value);
      let first = true;
      for (;;) {
        const step = SetIteratorPrototypeNext(iterator);
        if (step.done || state.nodes > SERIALIZE_MAX_NODES) break;
        if (!first) emitAscii(state, ',');
        first = false;
        writeValue(state, step.value, depth + 1, '');
      }
      emitAscii(state, ']');
      return;
    }
    case 'date': {
      const time = DatePrototypeGetTime(value);
      if (NumberIsNaN(time)) emitAscii(state, 'null');
      else emitString(state, DatePrototypeToISOString(value));
      return;
    }
    case 'regexp':
      emitString(state, regExpText(value));
      return;
    case 'Number':
      writeValue(state, NumberPrototypeValueOf(value), depth, key);
      return;
    case 'String':
      writeValue(state, StringPrototypeValueOf(value), depth, key);
      return;
    case 'Boolean':
      writeValue(state, BooleanPrototypeValueOf(value), depth, key);
      return;
    case 'BigInt':
      writeValue(state, BigIntPrototypeValueOf(value), depth, key);
      return;
    case 'Symbol':
      writeValue(state, SymbolPrototypeValueOf(value), depth, key);
      return;
    case 'error':
      writeError(state, value, depth);
      return;
    default:
      writeProperties(state, value, depth, false);
  }
}

function writeArrayLike(state, value, length, depth, typed) {
  emitAscii(state, '[');
  for (let i = 0; i < length; i++) {
    if (state.nodes > SERIALIZE_MAX_NODES) break;
    if (i !== 0) emitAscii(state, ',');
    if (typed) {
      state.nodes++;
      const element = value[i];
      if (typeof element === 'bigint') emitAscii(state, '"' + element + '"');
      else writeValue(state, element, depth + 1, '');
      continue;
    }
    // Holes read as undefined and become null, like undefined elements.
    writeValue(state, readProperty(value, i), depth + 1, '' + i);
  }
  emitAscii(state, ']');
}

// A property's value for the structured form: getters are called, and one that throws
// gives a description of what it threw.
function readProperty(object, key) {
  try {
    return object[key];
  } catch (error) {
    return '[Getter threw: ' + thrownMessage(error) + ']';
  }
}

function propertyValue(object, descriptor) {
  if (isDataDescriptor(descriptor)) return descriptor.value;
  if (descriptor.get === undefined) return undefined;
  try {
    return ReflectApply(descriptor.get, object, []);
  } catch (error) {
    return '[Getter threw: ' + thrownMessage(error) + ']';
  }
}

function thrownMessage(error) {
  if (isErrorValue(error)) {
    const message = inheritedDataValue(error, 'message');
    if (typeof message === 'string') return message;
  }
  return describeThrown(error);
}

function writeMember(state, name, value, depth, first) {
  if (!first) emitAscii(state, ',');
  emitString(state, name);
  emitAscii(state, ':');
  writeValue(state, value, depth + 1, name);
}

// Own enumerable string keys; undefined values are left out, as JSON does.
function writeProperties(state, value, depth, opened) {
  if (!opened) emitAscii(state, '{');
  const keys = ObjectKeys(value);
  let first = !opened;
  for (let i = 0; i < keys.length; i++) {
    if (state.nodes > SERIALIZE_MAX_NODES) break;
    const member = readProperty(value, keys[i]);
    if (member === undefined) continue;
    writeMember(state, keys[i], member, depth, first);
    first = false;
  }
  emitAscii(state, '}');
}

function writeError(state, error, depth) {
  const parts = errorNameAndMessage(error);
  emitAscii(state, '{');
  writeMember(state, 'name', parts[0], depth, true);
  writeMember(state, 'message', parts[1], depth, false);
  writeMember(state, 'stack', errorStackText(error), depth, false);
  const keys = ObjectKeys(error);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key === 'name' || key === 'message' || key === 'stack') continue;
    const descriptor = describe(error, key);
    if (descriptor === undefined) continue;
    const member = propertyValue(error, descriptor);
    if (member !== undefined) writeMember(state, key, member, depth, false);
  }
  emitAscii(state, '}');
}

// Maps with only string keys become objects; others a list of [key, value] pairs.
function writeMap(state, map, depth) {
  let allStrings = true;
  let iterator = MapPrototypeEntries(map);
  for (;;) {
    const step = MapIteratorPrototypeNext(iterator);
    if (step.done) break;
    if (typeof step.value[0] !== 'string') {
      allStrings = false;
      break;
    }
  }
  iterator = MapPrototypeEntries(map);
  emitAscii(state, allStrings ? '{' : '[');
  let first = true;
  for (;;) {
    const step = MapIteratorPrototypeNext(iterator);
    if (step.done || state.nodes > SERIALIZE_MAX_NODES) break;
    const entry = step.value;
    if (allStrings) {
      writeMember(state, entry[0], entry[1], depth, first);
    } else {
      if (!first) emitAscii(state, ',');
      emitAscii(state, '[');
      writeValue(state, entry[0], depth + 2, '');
      emitAscii(state, ',');
      writeValue(state, entry[1], depth + 2, '');
      emitAscii(state, ']');
    }
    first = false;
  }
  emitAscii(state, allStrings ? '}' : ']');
}

// The resultType of an outcome.
// group: outcome
function resultTypeOf(value) {
  if (value === null) return 'null';
  const type = typeof value;
  if (type !== 'object') return type;
  try {
    const kind = kindOf(value, prototypeChain(value));
    switch (kind) {
      case 'array': case 'map': case 'set': case 'date': case 'error': case 'regexp': case 'promise':
      case 'typedarray': case 'arraybuffer':
        return kind;
      case 'sharedarraybuffer':
        return 'arraybuffer';
      case 'weakmap': case 'weakset': case 'dataview':
        return kind;
      case 'Number': case 'String': case 'Boolean': case 'BigInt': case 'Symbol':
        return 'object';
      default:
        return 'object';
    }
  } catch {
    return 'object';
  }
}
