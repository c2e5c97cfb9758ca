// structuredClone for the model's code (V8 alone does not provide it): a deep copy that
// keeps Map, Set, Date, RegExp, errors, ArrayBuffers, typed arrays and cycles, and
// rejects functions and symbols the way the HTML algorithm does.

function cloneError(message) {
  const error = new ErrorCtor(message);
  ReflectDefineProperty(error, 'name', {
    __proto__: null, value: 'DataCloneError', writable: true, configurable: true,
  });
  return error;
}

function cloneValue(value, memory) {
  if (typeof value === 'symbol') throw cloneError(SymbolPrototypeToString(value) + ' could not be cloned.');
  if (typeof value === 'function') throw cloneError(functionLabel(value) + ' could not be cloned.');
  if (value === null || typeof value !== 'object') return value;
  const known = MapPrototypeGet(memory, value);
  if (known !== undefined) return known;
  const kind = kindOf(value, prototypeChain(value));
  let copy;
  switch (kind) {
    case 'array': {
      const length = lengthOf(value);
      copy = new ArrayCtor(length);
      MapPrototypeSet(memory, value, copy);
      copyProperties(value, copy, memory);
      return copy;
    }
    case 'map': {
      copy = new MapCtor();
      MapPrototypeSet(memory, value, copy);
      const iterator = MapPrototypeEntries(value);
      for (;;) {
        const step = MapIteratorPrototypeNext(iterator);
        if (step.done) break;
        MapPrototypeSet(copy, cloneValue(step.value[0], memory), cloneValue(step.value[1], memory));
      }
      return copy;
    }
    case 'set': {
      copy = new SetCtor();
      MapPrototypeSet(memory, value, copy);
      const iterator = SetPrototypeValues(value);
      for (;;) {
        const step = SetIteratorPrototypeNext(iterator);
        if (step.done) break;
        SetPrototypeAdd(copy, cloneValue(step.value, memory));
      }
      return copy;
    }
    case 'date':
      copy = new DateCtor(DatePrototypeGetTime(value));
      break;
    case 'regexp': {
      const text = regExpText(value);
      const slash = StringPrototypeLastIndexOf(text, '/');
      copy = new RegExpCtor(StringPrototypeSlice(text, 1, slash), StringPrototypeSlice(text, slash + 1));
      break;
    }
    case 'arraybuffer':
      copy = ArrayBufferPrototypeSlice(value, 0);
      break;
    case 'typedarray': {
      const typeName = TypedArrayPrototypeGetSymbolToStringTag(value);
      const buffer = cloneValue(TypedArrayPrototypeGetBuffer(value), memory);
      copy = new typedArrayConstructors[typeName](buffer, TypedArrayPrototypeGetByteOffset(value),
        TypedArrayPrototypeGetLength(value));
      break;
    }
    case 'dataview': {
      const buffer = cloneValue(DataViewPrototypeGetBuffer(value), memory);
      copy = new DataViewCtor(buffer, DataViewPrototypeGetByteOffset(value), DataViewPrototypeGetByteLength(value));
      break;
    }
    case 'error': {
      const parts = errorNameAndMessage(value);
      copy = new ErrorCtor(parts[1]);
      defineHidden(copy, 'name', parts[0]);
      const stack = rawStack(value);
      if (stack !== undefined) defineHidden(copy, 'stack', stack);
      break;
    }
    case 'Number':
    case 'String':
    case 'Boolean':
    case 'BigInt':
      copy = ObjectCtor(kind === 'Number' ? NumberPrototypeValueOf(value)
        : kind === 'String' ? StringPrototypeValueOf(value)
          : kind === 'Boolean' ? BooleanPrototypeValueOf(value) : BigIntPrototypeValueOf(value));
      break;
    case 'object':
      copy = {};
      MapPrototypeSet(memory, value, copy);
      copyProperties(value, copy, memory);
      return copy;
    default:
      throw cloneError(inspect(value, { depth: 0 }) + ' could not be cloned.');
  }
  MapPrototypeSet(memory, value, copy);
  return copy;
}

function defineCopy(target, key, value) {
  ReflectDefineProperty(target, key, { __proto__: null, value, writable: true, enumerable: true, configurable: true });
}

function defineHidden(target, key, value) {
  ReflectDefineProperty(target, key, { __proto__: null, value, writable: true, enumerable: false, configurable: true });
}

// Getters run, and what they throw propagates, as in the HTML algorithm.
function readForClone(source, key) {
  const descriptor = describe(source, key);
  if (descriptor === undefined) return undefined;
  if (isDataDescriptor(descriptor)) return descriptor.value;
  return descriptor.get === undefined ? undefined : ReflectApply(descriptor.get, source, []);
}

function copyProperties(source, target, memory) {
  const keys = ObjectKeys(source);
  for (let i = 0; i < keys.length; i++) defineCopy(target, keys[i], cloneValue(readForClone(source, keys[i]), memory));
}

// group: eager
function structuredClone(value) {
  if (arguments.length === 0) throw new TypeErrorCtor("Failed to execute 'structuredClone': 1 argument required.");
  return cloneValue(value, new MapCtor());
}
