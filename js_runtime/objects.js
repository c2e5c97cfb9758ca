// Finds out what a value is and reads its properties without running the model's code:
// brand checks instead of instanceof, property descriptors instead of property reads (a
// getter is never called), the constructor name and Symbol.toStringTag as Node shows
// them. Shared by rendering, the structured result, console.table and structuredClone.

const MAX_PROTOTYPE_CHAIN = 1000;

// A short text for something thrown, without running user code.
// group: errors
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
// group: eager
function describe(object, key) {
  const descriptor = ReflectGetOwnPropertyDescriptor(object, key);
  if (descriptor === undefined) return undefined;
  ReflectSetPrototypeOf(descriptor, null);
  return descriptor;
}

// group: eager
function isDataDescriptor(descriptor) {
  return descriptor.get === undefined && descriptor.set === undefined;
}

// The value of a data property found on the object or its prototypes (getters are not
// called: an accessor gives undefined).
// group: errors
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

// group: eager
function prototypeChain(value) {
  const chain = list();
  let current = ReflectGetPrototypeOf(value);
  while (current !== null && chain.length < MAX_PROTOTYPE_CHAIN) {
    ArrayPrototypePush(chain, current);
    current = ReflectGetPrototypeOf(current);
  }
  return chain;
}

// group: eager
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
  const iteratorRecord = WeakMapPrototypeGet(iteratorRecords, value);
  if (iteratorRecord !== undefined) return iteratorRecord.isMap ? 'mapiterator' : 'setiterator';
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

function ownKeysForDisplay(value, showHidden) {
  const names = showHidden ? ObjectGetOwnPropertyNames(value) : ObjectKeys(value);
  const keys = list();
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
  const result = list();
  for (let i = 0; i < keys.length; i++) {
    if (arrayIndexOf(keys[i]) === -1) ArrayPrototypePush(result, keys[i]);
  }
  return result;
}

function symbolKeysOnly(value, showHidden) {
  const keys = list();
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

// Map and Set iterators. JavaScript cannot look into an iterator without advancing it, so
// the built-in methods that make them (keys, values, entries, [Symbol.iterator]) are wrapped,
// once, before any model code runs: every iterator they make is recorded with the collection
// and the kind it iterates. To show one, the rendering reads what is left through the original
// `next` and then puts a fresh iterator of the collection at the same place in its place: from
// then on `next` (wrapped from that moment) advances that one. The wrappers are Proxies of the originals, so they keep their names, lengths,
// identities (`Map.prototype[Symbol.iterator] === Map.prototype.entries`) and native-code
// source text, and cannot be constructed.
const ProxyCtor = Proxy;
const SymbolIterator = Symbol.iterator;
const MapIteratorPrototype = ReflectGetPrototypeOf(new Map().entries());
const SetIteratorPrototype = ReflectGetPrototypeOf(new Set().values());
const MapPrototypeKeys = uncurryThis(Map.prototype.keys);
const MapPrototypeValues = uncurryThis(Map.prototype.values);
const SetPrototypeEntries = uncurryThis(Set.prototype.entries);
const iteratorRecords = new WeakMapCtor();
const MapIteratorPrototypeNextOriginal = MapIteratorPrototype.next;
const SetIteratorPrototypeNextOriginal = SetIteratorPrototype.next;

// group: eager
function trackedIteratorMaker(original, isMap, kind) {
  return new ProxyCtor(original, {
    __proto__: null,
    apply(target, receiver, args) {
      const iterator = ReflectApply(target, receiver, args);
      WeakMapPrototypeSet(iteratorRecords, iterator, {
        __proto__: null, source: receiver, isMap, kind, done: false, delegate: undefined,
      });
      return iterator;
    },
  });
}

// group: iterators
function trackedNext(original) {
  return new ProxyCtor(original, {
    __proto__: null,
    apply(target, receiver, args) {
      const record = WeakMapPrototypeGet(iteratorRecords, receiver);
      if (record === undefined) return ReflectApply(target, receiver, args);
      const step = ReflectApply(target, record.delegate !== undefined ? record.delegate : receiver, args);
      if (step.done === true) record.done = true;
      return step;
    },
  });
}

// group: eager
function replaceMethod(object, key, value) {
  const descriptor = describe(object, key);
  descriptor.value = value;
  ReflectDefineProperty(object, key, descriptor);
}

(() => {
  const mapEntries = trackedIteratorMaker(MapPrototype.entries, true, 'entries');
  replaceMethod(MapPrototype, 'entries', mapEntries);
  replaceMethod(MapPrototype, SymbolIterator, mapEntries);
  replaceMethod(MapPrototype, 'keys', trackedIteratorMaker(MapPrototype.keys, true, 'keys'));
  replaceMethod(MapPrototype, 'values', trackedIteratorMaker(MapPrototype.values, true, 'values'));
  const setValues = trackedIteratorMaker(SetPrototype.values, false, 'values');
  replaceMethod(SetPrototype, 'values', setValues);
  replaceMethod(SetPrototype, 'keys', setValues);
  replaceMethod(SetPrototype, SymbolIterator, setValues);
  replaceMethod(SetPrototype, 'entries', trackedIteratorMaker(SetPrototype.entries, false, 'entries'));
})();

// The `next` methods are wrapped once an iterator has been shown, or from the start when the
// worker sees code that may print an iterator while iterating (it uses console and makes
// iterators): a for-of loop holds on to the `next` it started with, which must then already be
// the wrapper. Until then every Map or Set iteration keeps V8's fast paths (wrapped, a spread of
// a million values takes about thirty times as long).
let nextWrapped = false;

// group: iterators
function wrapIteratorNext() {
  if (nextWrapped) return;
  nextWrapped = true;
  replaceMethod(MapIteratorPrototype, 'next', trackedNext(MapIteratorPrototypeNextOriginal));
  replaceMethod(SetIteratorPrototype, 'next', trackedNext(SetIteratorPrototypeNextOriginal));
}

// What a recorded iterator has left, without using it up: a list of the values it will give
// (for `entries`, [key, value] pairs), or undefined for an object that is no such iterator.
// group: iterators
function iteratorRemaining(iterator) {
  const record = WeakMapPrototypeGet(iteratorRecords, iterator);
  if (record === undefined) return undefined;
  wrapIteratorNext();
  const items = list();
  if (record.done) return items;
  const next = record.isMap ? MapIteratorPrototypeNext : SetIteratorPrototypeNext;
  const current = record.delegate !== undefined ? record.delegate : iterator;
  for (;;) {
    const step = next(current);
    if (step.done) break;
    ArrayPrototypePush(items, step.value);
  }
  // A fresh iterator past the entries that come before the old one's place (the live entries it
  // had not given yet are exactly the ones just read), unless the old one had finished.
  const source = record.source;
  let fresh;
  if (record.isMap) {
    if (record.kind === 'entries') fresh = MapPrototypeEntries(source);
    else if (record.kind === 'keys') fresh = MapPrototypeKeys(source);
    else fresh = MapPrototypeValues(source);
  } else {
    fresh = record.kind === 'entries' ? SetPrototypeEntries(source) : SetPrototypeValues(source);
  }
  const size = record.isMap ? MapPrototypeGetSize(source) : SetPrototypeGetSize(source);
  const skip = size - items.length;
  for (let i = 0; i < skip; i++) {
    if (next(fresh).done) break;
  }
  record.delegate = fresh;
  return items;
}
