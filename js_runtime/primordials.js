// Captures, before any model-written code runs, every built-in the runtime calls later.
// The model's code may delete or replace globals and prototype methods (`JSON.stringify =
// () => 1`, `Array.prototype.join = null`); the runtime only calls these originals, so
// rendering and the outcome keep working. Rules for the rest of the runtime: no method
// calls on values that user code can reach, no spread / for-of / destructuring of arrays
// (they go through Array.prototype[Symbol.iterator]), no String.prototype.replace/split
// (they look up Symbol.replace/Symbol.split), and only primitives in template literals.

const globalObject = globalThis;

const ReflectApply = Reflect.apply;
const ReflectGetPrototypeOf = Reflect.getPrototypeOf;
const ReflectSetPrototypeOf = Reflect.setPrototypeOf;
const ReflectGetOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
const ReflectDefineProperty = Reflect.defineProperty;
const ReflectDeleteProperty = Reflect.deleteProperty;
const ReflectConstruct = Reflect.construct;

// A global the runtime gives the code: a plain data property, writable and configurable and not
// enumerable, like the built-ins.
function defineGlobalValue(name, value) {
  ReflectDefineProperty(globalObject, name, {
    __proto__: null, value, writable: true, configurable: true, enumerable: false,
  });
}

// uncurryThis(fn)(self, ...args) calls fn with `this` = self, through a bound
// Function.prototype.call, so no property is looked up at call time.
const uncurryThis = ReflectApply(Function.prototype.bind, Function.prototype.bind, [Function.prototype.call]);

// The runtime's own lists have no prototype. A write past the end of an ordinary array, or a
// read of a missing index, consults Array.prototype and Object.prototype, where the model's
// code may have put indexed accessors (or a Proxy in their chain) that would see or replace
// the runtime's values. Every list the runtime grows is made by one of these.
function list() {
  const items = [];
  ReflectSetPrototypeOf(items, null);
  return items;
}

function asList(items) {
  ReflectSetPrototypeOf(items, null);
  return items;
}

function getterOf(object, key) {
  return uncurryThis(ReflectGetOwnPropertyDescriptor(object, key).get);
}

const ObjectCtor = Object;
const ObjectCreate = Object.create;
const ObjectKeys = Object.keys;
const ObjectGetOwnPropertyNames = Object.getOwnPropertyNames;
const ObjectGetOwnPropertySymbols = Object.getOwnPropertySymbols;
const ObjectPrototype = Object.prototype;
const ObjectPrototypePropertyIsEnumerable = uncurryThis(Object.prototype.propertyIsEnumerable);

const ArrayCtor = Array;
const ArrayIsArray = Array.isArray;
const ArrayPrototype = Array.prototype;
const ArrayPrototypePush = uncurryThis(Array.prototype.push);
const ArrayPrototypeIncludes = uncurryThis(Array.prototype.includes);
const ArrayPrototypePop = uncurryThis(Array.prototype.pop);
const ArrayPrototypeJoin = uncurryThis(Array.prototype.join);

const StringPrototype = String.prototype;
const StringPrototypeSlice = uncurryThis(String.prototype.slice);
const StringPrototypeIndexOf = uncurryThis(String.prototype.indexOf);
const StringPrototypeLastIndexOf = uncurryThis(String.prototype.lastIndexOf);
const StringPrototypeIncludes = uncurryThis(String.prototype.includes);
const StringPrototypeStartsWith = uncurryThis(String.prototype.startsWith);
const StringPrototypeEndsWith = uncurryThis(String.prototype.endsWith);
const StringPrototypeCharCodeAt = uncurryThis(String.prototype.charCodeAt);
const StringPrototypeRepeat = uncurryThis(String.prototype.repeat);
const StringPrototypePadStart = uncurryThis(String.prototype.padStart);
const StringPrototypePadEnd = uncurryThis(String.prototype.padEnd);
const StringPrototypeValueOf = uncurryThis(String.prototype.valueOf);
const originalCharCodeAt = String.prototype.charCodeAt;

const NumberCtor = Number;
const NumberIsNaN = Number.isNaN;
const NumberIsFinite = Number.isFinite;
const NumberParseInt = Number.parseInt;
const NumberParseFloat = Number.parseFloat;
const NumberPrototype = Number.prototype;
const BooleanPrototype = Boolean.prototype;
const SymbolPrototype = Symbol.prototype;
const BigIntPrototype = BigInt.prototype;
const NumberPrototypeToString = uncurryThis(Number.prototype.toString);
const NumberPrototypeToFixed = uncurryThis(Number.prototype.toFixed);
const NumberPrototypeValueOf = uncurryThis(Number.prototype.valueOf);
const BigIntPrototypeValueOf = uncurryThis(BigInt.prototype.valueOf);
const BooleanPrototypeValueOf = uncurryThis(Boolean.prototype.valueOf);
const SymbolPrototypeValueOf = uncurryThis(Symbol.prototype.valueOf);
const SymbolPrototypeToString = uncurryThis(Symbol.prototype.toString);
const SymbolToStringTag = Symbol.toStringTag;

const MathMin = Math.min;
const MathMax = Math.max;
const MathFloor = Math.floor;
const MathRound = Math.round;
const MathSqrt = Math.sqrt;
const MathImul = Math.imul;

const DateNow = Date.now;
const DatePrototype = Date.prototype;
const DatePrototypeGetTime = uncurryThis(Date.prototype.getTime);
const DatePrototypeToISOString = uncurryThis(Date.prototype.toISOString);
const DatePrototypeToString = uncurryThis(Date.prototype.toString);
const DateCtor = Date;

const JSONParse = JSON.parse;
const JSONStringify = JSON.stringify;

const RegExpCtor = RegExp;
const RegExpPrototype = RegExp.prototype;
const RegExpPrototypeExec = uncurryThis(RegExp.prototype.exec);
const RegExpPrototypeGetSource = getterOf(RegExp.prototype, 'source');
// The flag getters in the order RegExp.prototype.flags reports them.
const regExpFlagGetters = [
  ['d', getterOf(RegExp.prototype, 'hasIndices')],
  ['g', getterOf(RegExp.prototype, 'global')],
  ['i', getterOf(RegExp.prototype, 'ignoreCase')],
  ['m', getterOf(RegExp.prototype, 'multiline')],
  ['s', getterOf(RegExp.prototype, 'dotAll')],
  ['u', getterOf(RegExp.prototype, 'unicode')],
  ['v', getterOf(RegExp.prototype, 'unicodeSets')],
  ['y', getterOf(RegExp.prototype, 'sticky')],
];

const MapCtor = Map;
const MapPrototype = Map.prototype;
const MapPrototypeGetSize = getterOf(Map.prototype, 'size');
const MapPrototypeEntries = uncurryThis(Map.prototype.entries);
const MapPrototypeGet = uncurryThis(Map.prototype.get);
const MapPrototypeSet = uncurryThis(Map.prototype.set);
const MapIteratorPrototypeNext = uncurryThis(ReflectGetPrototypeOf(new Map().entries()).next);
const SetCtor = Set;
const SetPrototype = Set.prototype;
const SetPrototypeGetSize = getterOf(Set.prototype, 'size');
const SetPrototypeValues = uncurryThis(Set.prototype.values);
const SetPrototypeAdd = uncurryThis(Set.prototype.add);
const SetIteratorPrototypeNext = uncurryThis(ReflectGetPrototypeOf(new Set().values()).next);
const WeakMapPrototype = WeakMap.prototype;
const WeakSetPrototype = WeakSet.prototype;
const WeakMapPrototypeHas = uncurryThis(WeakMap.prototype.has);
const WeakMapPrototypeSet = uncurryThis(WeakMap.prototype.set);
const WeakMapPrototypeGet = uncurryThis(WeakMap.prototype.get);
const WeakMapCtor = WeakMap;
const WeakSetPrototypeHas = uncurryThis(WeakSet.prototype.has);

const TypedArrayPrototype = ReflectGetPrototypeOf(Uint8Array.prototype);
const TypedArrayPrototypeGetSymbolToStringTag = getterOf(TypedArrayPrototype, SymbolToStringTag);
const TypedArrayPrototypeGetLength = getterOf(TypedArrayPrototype, 'length');
const TypedArrayPrototypeGetBuffer = getterOf(TypedArrayPrototype, 'buffer');
const TypedArrayPrototypeGetByteOffset = getterOf(TypedArrayPrototype, 'byteOffset');
const typedArrayConstructors = {
  __proto__: null,
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array,
};
if (typeof Float16Array === 'function') typedArrayConstructors.Float16Array = Float16Array;
const ArrayBufferPrototype = ArrayBuffer.prototype;
const SharedArrayBufferPrototype = SharedArrayBuffer.prototype;
const DataViewPrototype = DataView.prototype;
const ArrayBufferPrototypeGetByteLength = getterOf(ArrayBuffer.prototype, 'byteLength');
const ArrayBufferPrototypeSlice = uncurryThis(ArrayBuffer.prototype.slice);
const SharedArrayBufferCtor = SharedArrayBuffer;
const SharedArrayBufferPrototypeGetByteLength = getterOf(SharedArrayBuffer.prototype, 'byteLength');
const DataViewCtor = DataView;
const DataViewPrototypeGetByteLength = getterOf(DataView.prototype, 'byteLength');
const DataViewPrototypeGetByteOffset = getterOf(DataView.prototype, 'byteOffset');
const DataViewPrototypeGetBuffer = getterOf(DataView.prototype, 'buffer');
const Uint8ArrayCtor = Uint8Array;
const Int32ArrayCtor = Int32Array;
const AtomicsWaitAsync = Atomics.waitAsync;
const AtomicsNotify = Atomics.notify;
const AtomicsStore = Atomics.store;

const PromiseCtor = Promise;
const PromisePrototype = Promise.prototype;
const PromisePrototypeThen = Promise.prototype.then;
const PromiseResolveFunction = Promise.resolve;
const PromiseRejectFunction = Promise.reject;
const PromiseResolve = (value) => ReflectApply(PromiseResolveFunction, PromiseCtor, [value]);
const PromiseReject = (reason) => ReflectApply(PromiseRejectFunction, PromiseCtor, [reason]);

const ErrorCtor = Error;
const ErrorPrototype = Error.prototype;
const ErrorIsError = typeof Error.isError === 'function' ? Error.isError : undefined;
const initialStackTraceLimit = Error.stackTraceLimit;
const TypeErrorCtor = TypeError;
const ReferenceErrorCtor = ReferenceError;
const SyntaxErrorPrototype = SyntaxError.prototype;
const RangeErrorPrototype = RangeError.prototype;
// V8 keeps `stack` as an own accessor of each error; calling this original getter is safe,
// a getter the model's code installed is not.
const errorStackDescriptor = ReflectGetOwnPropertyDescriptor(new Error('probe'), 'stack');
const ErrorStackGetter = errorStackDescriptor === undefined ? undefined : errorStackDescriptor.get;
// V8's own formatting of one stack frame, and the name of its function, taken from a call site
// while nothing has changed them.
const CallSitePrototype = (() => {
  ErrorCtor.prepareStackTrace = (error, sites) => sites;
  const sites = new ErrorCtor('probe').stack;
  ReflectDeleteProperty(ErrorCtor, 'prepareStackTrace');
  return ReflectGetPrototypeOf(sites[0]);
})();
const CallSitePrototypeToString = uncurryThis(CallSitePrototype.toString);
const CallSitePrototypeGetFunctionName = uncurryThis(CallSitePrototype.getFunctionName);
const CallSitePrototypeGetLineNumber = uncurryThis(CallSitePrototype.getLineNumber);

const FunctionPrototype = Function.prototype;
const FunctionPrototypeToString = uncurryThis(Function.prototype.toString);
const AsyncFunctionPrototype = ReflectGetPrototypeOf(async function () {});
// The AsyncFunction constructor parses its argument as a function body alone, so no text in it can
// close the function and go on as code outside it (as it could in '(async function () {' + code + '})').
const AsyncFunctionCtor = AsyncFunctionPrototype.constructor;
const GeneratorFunctionPrototype = ReflectGetPrototypeOf(function* () {});
const AsyncGeneratorFunctionPrototype = ReflectGetPrototypeOf(async function* () {});

const indirectEval = globalThis.eval;
