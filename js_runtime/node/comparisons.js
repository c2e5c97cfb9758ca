// module: internal/util/comparisons
// globals:
// requires:
(function (host) {
  'use strict';
  // Deep equality as Node's util.isDeepStrictEqual (strict) and assert.deepEqual (loose)
  // decide it, shared by util and assert. Strict compares prototypes, own enumerable
  // symbol keys and uses Object.is for primitives; loose uses == for primitives and ignores
  // prototypes. Both look into Maps and Sets (in any order, with deep keys), typed arrays,
  // boxed primitives, Dates, RegExps (flags and lastIndex), Errors (name, message, cause,
  // errors) and handle cycles.
  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const getter = (object, key) => uncurry(Object.getOwnPropertyDescriptor(object, key).get);
  const getPrototypeOf = Object.getPrototypeOf;
  const setPrototypeOf = Object.setPrototypeOf;
  const objectKeys = Object.keys;
  const ownSymbols = Object.getOwnPropertySymbols;
  const hasOwn = uncurry(Object.prototype.hasOwnProperty);
  const isEnumerable = uncurry(Object.prototype.propertyIsEnumerable);
  const objectToString = uncurry(Object.prototype.toString);
  const is = Object.is;
  const isArray = Array.isArray;
  const isView = ArrayBuffer.isView;
  const isNaN = Number.isNaN;
  const ErrorCtor = Error;
  const errorIsError = typeof Error.isError === 'function' ? Error.isError : undefined;
  const ErrorPrototype = Error.prototype;
  const Uint8ArrayCtor = Uint8Array;
  const TypedArray = getPrototypeOf(Uint8Array);
  const typedArrayTag = getter(TypedArray.prototype, Symbol.toStringTag);
  const viewBuffer = getter(TypedArray.prototype, 'buffer');
  const viewOffset = getter(TypedArray.prototype, 'byteOffset');
  const viewLength = getter(TypedArray.prototype, 'byteLength');
  const dataViewBuffer = getter(DataView.prototype, 'buffer');
  const dataViewOffset = getter(DataView.prototype, 'byteOffset');
  const dataViewLength = getter(DataView.prototype, 'byteLength');
  const arrayBufferLength = getter(ArrayBuffer.prototype, 'byteLength');
  const sharedLength = typeof SharedArrayBuffer === 'function' ?
    getter(SharedArrayBuffer.prototype, 'byteLength') : undefined;
  const dateTime = uncurry(Date.prototype.getTime);
  const regExpSource = getter(RegExp.prototype, 'source');
  const regExpFlags = getter(RegExp.prototype, 'flags');
  const regExpGlobal = getter(RegExp.prototype, 'global');
  const MapCtor = Map;
  const mapSize = getter(Map.prototype, 'size');
  const mapGet = uncurry(Map.prototype.get);
  const mapSet = uncurry(Map.prototype.set);
  const mapHas = uncurry(Map.prototype.has);
  const mapEntries = uncurry(Map.prototype.entries);
  const mapNext = uncurry(getPrototypeOf(new Map().entries()).next);
  const setSize = getter(Set.prototype, 'size');
  const setHas = uncurry(Set.prototype.has);
  const setValues = uncurry(Set.prototype.values);
  const setNext = uncurry(getPrototypeOf(new Set().values()).next);
  const numberValue = uncurry(Number.prototype.valueOf);
  const stringValue = uncurry(String.prototype.valueOf);
  const booleanValue = uncurry(Boolean.prototype.valueOf);
  const bigintValue = uncurry(BigInt.prototype.valueOf);
  const symbolValue = uncurry(Symbol.prototype.valueOf);

  function list() {
    return setPrototypeOf([], null);
  }

  function succeeds(check, value) {
    try {
      check(value);
      return true;
    } catch {
      return false;
    }
  }

  const isDate = (value) => succeeds(dateTime, value);
  const isRegExp = (value) => {
    try {
      return typeof regExpGlobal(value) === 'boolean';
    } catch {
      return false;
    }
  };
  const isMap = (value) => succeeds(mapSize, value);
  const isSet = (value) => succeeds(setSize, value);
  const isAnyArrayBuffer = (value) => succeeds(arrayBufferLength, value) ||
    (sharedLength !== undefined && succeeds(sharedLength, value));

  function isError(value) {
    if (errorIsError !== undefined) return errorIsError(value);
    for (let proto = getPrototypeOf(value); proto !== null; proto = getPrototypeOf(proto)) {
      if (proto === ErrorPrototype) return true;
    }
    return false;
  }

  // 'Number', 'String', ... for a boxed primitive, else undefined.
  function boxedKind(value) {
    if (succeeds(numberValue, value)) return 'Number';
    if (succeeds(stringValue, value)) return 'String';
    if (succeeds(booleanValue, value)) return 'Boolean';
    if (succeeds(bigintValue, value)) return 'BigInt';
    if (succeeds(symbolValue, value)) return 'Symbol';
    return undefined;
  }

  function boxedEqual(a, b) {
    const kind = boxedKind(a);
    if (kind !== boxedKind(b)) return false;
    switch (kind) {
      case 'Number': return is(numberValue(a), numberValue(b));
      case 'String': return stringValue(a) === stringValue(b);
      case 'Boolean': return booleanValue(a) === booleanValue(b);
      case 'BigInt': return bigintValue(a) === bigintValue(b);
      default: return symbolValue(a) === symbolValue(b);
    }
  }

  function bytesOf(view) {
    if (typedArrayTag(view) === undefined) {
      return new Uint8ArrayCtor(dataViewBuffer(view), dataViewOffset(view), dataViewLength(view));
    }
    return new Uint8ArrayCtor(viewBuffer(view), viewOffset(view), viewLength(view));
  }

  function sameBytes(a, b) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) {
      if (a[i] !== b[i]) return false;
    }
    return true;
  }

  // Own enumerable keys that are not array indices (and symbols, in strict mode).
  function extraKeys(value, strict, length) {
    const keys = objectKeys(value);
    const found = list();
    for (let i = length; i < keys.length; i++) found[found.length] = keys[i];
    if (strict) {
      const symbols = ownSymbols(value);
      for (let i = 0; i < symbols.length; i++) {
        if (isEnumerable(value, symbols[i])) found[found.length] = symbols[i];
      }
    }
    return found;
  }

  function ownKeysToCompare(a, b, strict, extras) {
    let keys;
    if (extras !== undefined) {
      keys = extras;
    } else {
      const aKeys = objectKeys(a);
      if (aKeys.length !== objectKeys(b).length) return undefined;
      keys = list();
      for (let i = 0; i < aKeys.length; i++) keys[i] = aKeys[i];
      if (strict) {
        // Own enumerable symbols must be the same on both sides.
        let count = 0;
        const symbols = ownSymbols(a);
        for (let i = 0; i < symbols.length; i++) {
          const key = symbols[i];
          if (isEnumerable(a, key)) {
            if (!isEnumerable(b, key)) return undefined;
            keys[keys.length] = key;
            count++;
          } else if (isEnumerable(b, key)) {
            return undefined;
          }
        }
        const other = ownSymbols(b);
        let otherCount = 0;
        for (let i = 0; i < other.length; i++) {
          if (isEnumerable(b, other[i])) otherCount++;
        }
        if (otherCount !== count) return undefined;
      }
    }
    for (let i = 0; i < keys.length; i++) {
      if (typeof keys[i] === 'string' && !hasOwn(b, keys[i])) return undefined;
    }
    return keys;
  }

  const PLAIN = 0;
  const ARRAY = 1;
  const SET = 2;
  const MAP = 3;

  function deepEqual(a, b, strict, memos) {
    if (a === b) return a !== 0 || !strict || is(a, b);
    if (strict) {
      if (typeof a !== 'object') return typeof a === 'number' && isNaN(a) && isNaN(b);
      if (typeof b !== 'object' || a === null || b === null) return false;
      if (getPrototypeOf(a) !== getPrototypeOf(b)) return false;
    } else {
      if (a === null || typeof a !== 'object') {
        if (b === null || typeof b !== 'object') {
          // eslint-disable-next-line eqeqeq
          return a == b || (isNaN(a) && isNaN(b));
        }
        return false;
      }
      if (b === null || typeof b !== 'object') return false;
    }
    if (objectToString(a) !== objectToString(b)) return false;
    if (isArray(a)) {
      if (!isArray(b) || a.length !== b.length) return false;
      const aExtra = extraKeys(a, strict, a.length);
      const bExtra = extraKeys(b, strict, b.length);
      if (aExtra.length !== bExtra.length) return false;
      return compareKeys(a, b, strict, memos, ARRAY, aExtra);
    }
    if (objectToString(a) === '[object Object]') return compareKeys(a, b, strict, memos, PLAIN);
    if (isDate(a)) {
      if (!isDate(b) || dateTime(a) !== dateTime(b)) return false;
    } else if (isRegExp(a)) {
      if (!isRegExp(b) || regExpSource(a) !== regExpSource(b) || regExpFlags(a) !== regExpFlags(b) ||
          a.lastIndex !== b.lastIndex) {
        return false;
      }
    } else if (isError(a) || a instanceof ErrorCtor) {
      if ((!isError(b) && !(b instanceof ErrorCtor)) || a.message !== b.message || a.name !== b.name) return false;
      if (!sameOwn(a, b, 'cause', strict, memos) || !sameOwn(a, b, 'errors', strict, memos)) return false;
    } else if (isView(a)) {
      if (!isView(b)) return false;
      const tag = typedArrayTag(a);
      if (!strict && (tag === 'Float32Array' || tag === 'Float64Array' || tag === 'Float16Array')) {
        if (viewLength(a) !== viewLength(b)) return false;
        for (let i = 0; i < a.length; i++) {
          if (a[i] !== b[i]) return false;
        }
      } else if (!sameBytes(bytesOf(a), bytesOf(b))) {
        return false;
      }
      const length = tag === undefined ? 0 : a.length;
      const aExtra = extraKeys(a, strict, length);
      const bExtra = extraKeys(b, strict, tag === undefined ? 0 : b.length);
      if (aExtra.length !== bExtra.length) return false;
      return compareKeys(a, b, strict, memos, PLAIN, aExtra);
    } else if (isSet(a)) {
      if (!isSet(b) || setSize(a) !== setSize(b)) return false;
      return compareKeys(a, b, strict, memos, SET);
    } else if (isMap(a)) {
      if (!isMap(b) || mapSize(a) !== mapSize(b)) return false;
      return compareKeys(a, b, strict, memos, MAP);
    } else if (isAnyArrayBuffer(a)) {
      if (!isAnyArrayBuffer(b) || !sameBytes(new Uint8ArrayCtor(a), new Uint8ArrayCtor(b))) return false;
    } else if (boxedKind(a) !== undefined) {
      if (!boxedEqual(a, b)) return false;
    } else if (isArray(b) || isView(b) || isSet(b) || isMap(b) || isDate(b) || isRegExp(b) || isAnyArrayBuffer(b) ||
        boxedKind(b) !== undefined || isError(b) || b instanceof ErrorCtor) {
      return false;
    }
    return compareKeys(a, b, strict, memos, PLAIN);
  }

  // Both have no own `key`, or both have one and its values are equal.
  function sameOwn(a, b, key, strict, memos) {
    const aHas = hasOwn(a, key);
    if (aHas !== hasOwn(b, key)) return false;
    return !aHas || deepEqual(a[key], b[key], strict, memos);
  }

  function compareKeys(a, b, strict, memos, kind, extras) {
    const keys = ownKeysToCompare(a, b, strict, extras);
    if (keys === undefined) return false;
    if (keys.length === 0 && (kind === PLAIN || (kind === ARRAY && a.length === 0) ||
        (kind === SET && setSize(a) === 0) || (kind === MAP && mapSize(a) === 0))) {
      return true;
    }
    // A pair already being compared further up counts as equal: what differs shows elsewhere.
    if (memos === undefined) memos = new MapCtor();
    let partners = mapGet(memos, a);
    if (partners === undefined) {
      partners = list();
      mapSet(memos, a, partners);
    } else {
      for (let i = 0; i < partners.length; i++) {
        if (partners[i] === b) return true;
      }
    }
    const depth = partners.length;
    partners[depth] = b;
    const equal = compareContents(a, b, strict, keys, memos, kind);
    partners.length = depth;
    return equal;
  }

  function compareContents(a, b, strict, keys, memos, kind) {
    if (kind === SET) {
      if (!setsEqual(a, b, strict, memos)) return false;
    } else if (kind === MAP) {
      if (!mapsEqual(a, b, strict, memos)) return false;
    } else if (kind === ARRAY) {
      for (let i = 0; i < a.length; i++) {
        const aHas = hasOwn(a, i);
        if (aHas !== hasOwn(b, i)) return false;
        if (aHas && !deepEqual(a[i], b[i], strict, memos)) return false;
      }
    }
    for (let i = 0; i < keys.length; i++) {
      if (!deepEqual(a[keys[i]], b[keys[i]], strict, memos)) return false;
    }
    return true;
  }

  function valuesOf(set) {
    const found = list();
    const iterator = setValues(set);
    for (let step = setNext(iterator); !step.done; step = setNext(iterator)) found[found.length] = step.value;
    return found;
  }

  function entriesOf(map) {
    const found = list();
    const iterator = mapEntries(map);
    for (let step = mapNext(iterator); !step.done; step = mapNext(iterator)) found[found.length] = step.value;
    return found;
  }

  const isObject = (value) => value !== null && typeof value === 'object';

  // Each item of `left` must pair with a different item of `right`, by `equal`.
  function pairUp(left, right, equal) {
    const used = list();
    for (let i = 0; i < left.length; i++) {
      let matched = false;
      for (let j = 0; j < right.length; j++) {
        if (used[j] !== true && equal(left[i], right[j])) {
          used[j] = true;
          matched = true;
          break;
        }
      }
      if (!matched) return false;
    }
    return true;
  }

  function setsEqual(a, b, strict, memos) {
    // Values the other set holds itself need no search; the rest pair up by deep equality.
    const aRest = list();
    const bRest = list();
    const aValues = valuesOf(a);
    for (let i = 0; i < aValues.length; i++) {
      const value = aValues[i];
      if (isObject(value) || !setHas(b, value)) {
        if (strict && !isObject(value)) return false;
        aRest[aRest.length] = value;
      }
    }
    if (aRest.length === 0) return true;
    const bValues = valuesOf(b);
    for (let i = 0; i < bValues.length; i++) {
      const value = bValues[i];
      if (isObject(value) || !setHas(a, value)) bRest[bRest.length] = value;
    }
    return pairUp(aRest, bRest, (x, y) => deepEqual(x, y, strict, memos));
  }

  function mapsEqual(a, b, strict, memos) {
    const aRest = list();
    const bRest = list();
    const aEntries = entriesOf(a);
    for (let i = 0; i < aEntries.length; i++) {
      const key = aEntries[i][0];
      if (!isObject(key) && mapHas(b, key)) {
        if (!deepEqual(aEntries[i][1], mapGet(b, key), strict, memos)) {
          if (strict) return false;
          aRest[aRest.length] = aEntries[i];
        }
      } else {
        if (strict && !isObject(key)) return false;
        aRest[aRest.length] = aEntries[i];
      }
    }
    if (aRest.length === 0) return true;
    const bEntries = entriesOf(b);
    for (let i = 0; i < bEntries.length; i++) {
      const key = bEntries[i][0];
      if (isObject(key) || !mapHas(a, key) || !deepEqual(mapGet(a, key), bEntries[i][1], strict, memos)) {
        bRest[bRest.length] = bEntries[i];
      }
    }
    return pairUp(aRest, bRest, (x, y) => deepEqual(x[0], y[0], strict, memos) &&
      deepEqual(x[1], y[1], strict, memos));
  }

  return {
    isDeepStrictEqual: (a, b) => deepEqual(a, b, true, undefined),
    isDeepEqual: (a, b) => deepEqual(a, b, false, undefined),
  };
})
