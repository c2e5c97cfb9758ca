// Tells a RangeError that V8 threw because memory outside the heap ran out (the worker's
// RLIMIT_DATA reached: the execution is then out of memory) from one the code threw itself
// with the same words. A message proves nothing: the code can write
// `throw new RangeError('Array buffer allocation failed')`. What happened can:
// - ArrayBuffer, SharedArrayBuffer, typed arrays and their resizing throw from a frame of the
//   built-in itself, which has no line number; formatStack (stack.js) sees V8's genuine call
//   sites and notes such errors here. Only the allocating built-ins make these errors, and
//   none lets the code choose the message of an error it makes.
// - WebAssembly.Memory and its grow() run as API functions without a frame of their own: they
//   are wrapped so that a failure of the original call counts only when no code of the
//   model's ran during it (its arguments are read and checked to be plain values first).
// An error the code formats with its own Error.prepareStackTrace, or one thrown by a
// WebAssembly path not wrapped here (instantiating a module), stays a runtime error.

const ALLOCATION_FAILURES = asList(['Array buffer allocation failed', 'could not allocate memory',
  'Unable to grow instance memory', ': Out of memory']);
// The built-ins that allocate such memory, by the function name their frame carries.
const ALLOCATING_BUILT_INS = asList(['ArrayBuffer', 'SharedArrayBuffer', 'resize', 'grow', 'slice', 'transfer',
  'transferToFixedLength', 'DataView', 'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array',
  'Uint16Array', 'Int32Array', 'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array',
  'BigUint64Array']);
// The keys of a WebAssembly.Memory descriptor.
const MEMORY_DESCRIPTOR_KEYS = asList(['initial', 'minimum', 'maximum', 'shared', 'index', 'address']);

const allocationFailures = new WeakMapCtor();

function isOutOfMemoryRangeError(error) {
  try {
    if (!chainIncludes(prototypeChain(error), RangeErrorPrototype)) return false;
    const message = errorNameAndMessage(error)[1];
    for (let i = 0; i < ALLOCATION_FAILURES.length; i++) {
      if (StringPrototypeIncludes(message, ALLOCATION_FAILURES[i])) return true;
    }
  } catch {
    // Not an error the runtime can read: not one of V8's.
  }
  return false;
}

// Called by formatStack with the first call site V8 gave for `error`.
function noteAllocationFailure(error, topSite) {
  try {
    if (CallSitePrototypeGetLineNumber(topSite) !== null) return;
    if (!ArrayPrototypeIncludes(ALLOCATING_BUILT_INS, CallSitePrototypeGetFunctionName(topSite))) return;
  } catch {
    return;
  }
  if (isOutOfMemoryRangeError(error)) WeakMapPrototypeSet(allocationFailures, error, true);
}

// Whether V8 threw `error` because memory outside the heap ran out. Reads the stack first,
// which is when V8 formats it (and formatStack sees the call sites).
function isAllocationFailure(error) {
  if (!isErrorValue(error)) return false;
  rawStack(error);
  return WeakMapPrototypeHas(allocationFailures, error);
}

// group: eager
function isPlain(value) {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}

// The descriptor's values on an object of its own, or undefined when one is not a plain value
// (converting it would run the model's code inside the original call).
function plainMemoryDescriptor(descriptor) {
  if (isPlain(descriptor)) return undefined;
  const copy = ObjectCreate(null);
  for (let i = 0; i < MEMORY_DESCRIPTOR_KEYS.length; i++) {
    const key = MEMORY_DESCRIPTOR_KEYS[i];
    const value = descriptor[key];
    if (!isPlain(value)) return undefined;
    if (value !== undefined) copy[key] = value;
  }
  return copy;
}

// group: eager
function watchWebAssemblyMemory() {
  const wasm = describe(globalObject, 'WebAssembly');
  if (wasm === undefined || isPlain(wasm.value)) return;
  const memory = describe(wasm.value, 'Memory');
  if (memory === undefined || typeof memory.value !== 'function') return;
  const Memory = memory.value;
  const grow = describe(Memory.prototype, 'grow');
  ReflectDefineProperty(wasm.value, 'Memory', {
    __proto__: null,
    value: new ProxyCtor(Memory, {
      __proto__: null,
      construct(target, args, newTarget) {
        const descriptor = args.length > 0 ? plainMemoryDescriptor(args[0]) : undefined;
        if (descriptor === undefined) return ReflectConstruct(target, args, newTarget);
        try {
          return ReflectConstruct(target, asList([descriptor]), newTarget);
        } catch (error) {
          if (isOutOfMemoryRangeError(error)) WeakMapPrototypeSet(allocationFailures, error, true);
          throw error;
        }
      },
    }),
    writable: memory.writable,
    enumerable: memory.enumerable,
    configurable: memory.configurable,
  });
  if (grow === undefined || typeof grow.value !== 'function') return;
  ReflectDefineProperty(Memory.prototype, 'grow', {
    __proto__: null,
    value: new ProxyCtor(grow.value, {
      __proto__: null,
      apply(target, self, args) {
        if (args.length === 0 || !isPlain(args[0])) return ReflectApply(target, self, args);
        try {
          return ReflectApply(target, self, asList([args[0]]));
        } catch (error) {
          if (isOutOfMemoryRangeError(error)) WeakMapPrototypeSet(allocationFailures, error, true);
          throw error;
        }
      },
    }),
    writable: grow.writable,
    enumerable: grow.enumerable,
    configurable: grow.configurable,
  });
}
