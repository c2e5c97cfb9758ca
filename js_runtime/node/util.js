// module: util
// globals:
// requires: internal/util/comparisons buffer internal/errors
(function (host) {
  'use strict';
  // Node's util module. format and inspect are the runtime's own (what console.log uses),
  // with util.inspect's defaults (depth 2) and options; isDeepStrictEqual is shared with
  // assert; types uses the brand checks the language offers (see `types` for the few that
  // can only be approximated).
  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const getter = (object, key) => uncurry(Object.getOwnPropertyDescriptor(object, key).get);
  const apply = Reflect.apply;
  const construct = Reflect.construct;
  const defineProperty = Object.defineProperty;
  const defineProperties = Object.defineProperties;
  const getDescriptors = Object.getOwnPropertyDescriptors;
  const getPrototypeOf = Object.getPrototypeOf;
  const setPrototypeOf = Object.setPrototypeOf;
  const create = Object.create;
  const objectKeys = Object.keys;
  const hasOwn = uncurry(Object.prototype.hasOwnProperty);
  const objectToString = uncurry(Object.prototype.toString);
  const isArray = Array.isArray;
  const isView = ArrayBuffer.isView;
  const push = uncurry(Array.prototype.push);
  const pop = uncurry(Array.prototype.pop);
  const join = uncurry(Array.prototype.join);
  const bind = uncurry(Function.prototype.bind);
  const charCodeAt = uncurry(String.prototype.charCodeAt);
  const indexOfText = uncurry(String.prototype.indexOf);
  const stringSlice = uncurry(String.prototype.slice);
  const toWellFormed = typeof String.prototype.toWellFormed === 'function' ?
    uncurry(String.prototype.toWellFormed) : undefined;
  const regExpExec = uncurry(RegExp.prototype.exec);
  const then = uncurry(Promise.prototype.then);
  const PromiseCtor = Promise;
  const JSONStringify = JSON.stringify;
  const ErrorCtor = Error;
  const ErrorPrototype = Error.prototype;
  const errorIsError = typeof Error.isError === 'function' ? Error.isError : undefined;
  const TypeErrorCtor = TypeError;
  const StringCtor = String;
  const TypedArray = getPrototypeOf(Uint8Array);
  const typedArrayTag = getter(TypedArray.prototype, Symbol.toStringTag);
  const AsyncFunctionPrototype = getPrototypeOf(async function () {});
  const GeneratorFunctionPrototype = getPrototypeOf(function* () {});
  const AsyncGeneratorFunctionPrototype = getPrototypeOf(async function* () {});
  const GeneratorPrototype = getPrototypeOf(function* () {}.prototype);
  const AsyncGeneratorPrototype = getPrototypeOf(async function* () {}.prototype);
  const MapIteratorPrototype = getPrototypeOf(new Map().entries());
  const SetIteratorPrototype = getPrototypeOf(new Set().values());
  const PromisePrototype = Promise.prototype;
  const comparisons = host.require('internal/util/comparisons');

  const { codedError, invalidArgType, invalidArgValue } = host.require('internal/errors');

  function checkFunction(value, name) {
    if (typeof value !== 'function') throw invalidArgType(name, 'of type function', value);
  }

  function checkObject(value, name) {
    if (value === null || typeof value !== 'object') throw invalidArgType(name, 'of type object', value);
  }

  // ---- inspect and format.

  // The runtime hands custom inspect methods its inspect (util.inspect's behaviour: errors of
  // nested custom methods pass through); one probe call takes it.
  let runtimeInspect;
  host.inspect({ [host.inspectCustom]: (depth, options, inspect) => {
    runtimeInspect = inspect;
    return '';
  } });

  const defaultOptions = {
    showHidden: false,
    depth: 2,
    colors: false,
    customInspect: true,
    showProxy: false,
    maxArrayLength: 100,
    maxStringLength: 10000,
    breakLength: 80,
    compact: 3,
    sorted: false,
    getters: false,
    numericSeparator: false,
  };

  function inspect(value, options) {
    const settings = { __proto__: null };
    const names = objectKeys(defaultOptions);
    for (let i = 0; i < names.length; i++) settings[names[i]] = defaultOptions[names[i]];
    if (arguments.length > 2) {
      if (arguments[2] !== undefined) settings.depth = arguments[2];
      if (arguments.length > 3 && arguments[3] !== undefined) settings.colors = arguments[3];
    }
    if (typeof options === 'boolean') {
      settings.showHidden = options;
    } else if (options) {
      const keys = objectKeys(options);
      for (let i = 0; i < keys.length; i++) settings[keys[i]] = options[keys[i]];
    }
    return runtimeInspect(value, settings);
  }
  defineProperty(inspect, 'custom', { value: host.inspectCustom, writable: false, enumerable: false,
    configurable: false });
  defineProperty(inspect, 'defaultOptions', {
    get: () => defaultOptions,
    set: (options) => {
      checkObject(options, 'options');
      const keys = objectKeys(options);
      for (let i = 0; i < keys.length; i++) defaultOptions[keys[i]] = options[keys[i]];
    },
    enumerable: false, configurable: true,
  });

  // The ANSI codes of util.inspect.colors (no colors are ever written: output is not a terminal).
  const COLOR_NAMES = 'reset bold dim italic underline blink inverse hidden strikethrough doubleunderline ' +
    'black red green yellow blue magenta cyan white bgBlack bgRed bgGreen bgYellow bgBlue bgMagenta bgCyan bgWhite ' +
    'framed overlined gray redBright greenBright yellowBright blueBright magentaBright cyanBright whiteBright ' +
    'bgGray bgRedBright bgGreenBright bgYellowBright bgBlueBright bgMagentaBright bgCyanBright bgWhiteBright';
  const COLOR_CODES = [[0, 0], [1, 22], [2, 22], [3, 23], [4, 24], [5, 25], [7, 27], [8, 28], [9, 29], [21, 24]];
  const colors = create(null);
  const colorNames = words(COLOR_NAMES);
  for (let i = 0; i < colorNames.length; i++) {
    let code;
    if (i < 10) code = COLOR_CODES[i];
    else if (i < 18) code = [20 + i, 39];
    else if (i < 26) code = [22 + i, 49];
    else if (i === 26) code = [51, 54];
    else if (i === 27) code = [53, 55];
    else if (i < 36) code = [62 + i, 39];
    else code = [64 + i, 49];
    colors[colorNames[i]] = code;
  }
  const styles = {
    __proto__: null, special: 'cyan', number: 'yellow', bigint: 'yellow', boolean: 'yellow', undefined: 'grey',
    null: 'bold', string: 'green', symbol: 'green', date: 'magenta', regexp: 'red', module: 'underline',
  };
  defineProperty(inspect, 'colors', { value: colors, writable: true, enumerable: true, configurable: true });
  defineProperty(inspect, 'styles', { value: styles, writable: true, enumerable: true, configurable: true });

  function words(text) {
    const found = setPrototypeOf([], null);
    let start = 0;
    for (let i = 0; i <= text.length; i++) {
      if (i === text.length || charCodeAt(text, i) === 32) {
        if (i > start) found[found.length] = stringSlice(text, start, i);
        start = i + 1;
      }
    }
    return found;
  }

  function format(...args) {
    return host.format(args);
  }

  // format() whose %o, %O and plain objects are inspected with `inspectOptions`.
  function formatWithOptions(inspectOptions, ...args) {
    checkObject(inspectOptions, 'inspectOptions');
    if (objectKeys(inspectOptions).length === 0) return host.format(args);
    const show = (value) => (typeof value === 'string' ? value : inspect(value, inspectOptions));
    const first = args[0];
    let text = '';
    let used = 0;
    if (typeof first === 'string' && args.length > 1) {
      let last = 0;
      used = 1;
      for (let i = 0; i < first.length - 1; i++) {
        if (charCodeAt(first, i) !== 37) continue;
        const code = charCodeAt(first, i + 1);
        if (code === 37) {
          text += stringSlice(first, last, i) + '%';
          last = i + 2;
          i++;
          continue;
        }
        if (used >= args.length) continue;
        let piece;
        if (code === 79) piece = inspect(args[used], inspectOptions);
        else if (code === 111) piece = inspect(args[used], { ...inspectOptions, showHidden: true, depth: 4 });
        else if (code === 115 || code === 100 || code === 105 || code === 102 || code === 106 || code === 99) {
          piece = host.format(['%' + StringCtor.fromCharCode(code), args[used]]);
        } else continue;
        used++;
        text += stringSlice(first, last, i) + piece;
        last = i + 2;
        i++;
      }
      text += stringSlice(first, last);
    } else if (args.length > 0) {
      text = show(first);
      used = 1;
    }
    for (; used < args.length; used++) text += ' ' + show(args[used]);
    return text;
  }

  // ---- types: brand checks where the language has them.

  function succeeds(check, value) {
    try {
      check(value);
      return true;
    } catch {
      return false;
    }
  }

  function chainHas(value, prototype) {
    for (let current = getPrototypeOf(value); current !== null; current = getPrototypeOf(current)) {
      if (current === prototype) return true;
    }
    return false;
  }

  const isObjectLike = (value) => value !== null && typeof value === 'object';
  const brand = (check) => (value) => isObjectLike(value) && succeeds(check, value);
  const tagged = (tag) => (value) => isView(value) && typedArrayTag(value) === tag;
  const isNumberObject = brand(uncurry(Number.prototype.valueOf));
  const isStringObject = brand(uncurry(String.prototype.valueOf));
  const isBooleanObject = brand(uncurry(Boolean.prototype.valueOf));
  const isBigIntObject = brand(uncurry(BigInt.prototype.valueOf));
  const isSymbolObject = brand(uncurry(Symbol.prototype.valueOf));
  const isArrayBuffer = brand(getter(ArrayBuffer.prototype, 'byteLength'));
  const isSharedArrayBuffer = typeof SharedArrayBuffer === 'function' ?
    brand(getter(SharedArrayBuffer.prototype, 'byteLength')) : () => false;
  const regExpGlobal = getter(RegExp.prototype, 'global');

  function isNativeError(value) {
    if (!isObjectLike(value)) return false;
    if (errorIsError !== undefined) return errorIsError(value);
    // Errors V8 makes have their own `stack`; an object made from Error.prototype has not.
    return hasOwn(value, 'stack') && chainHas(value, ErrorPrototype);
  }

  function isCryptoKey(value) {
    try {
      const CryptoKey = host.global('CryptoKey');
      return typeof CryptoKey === 'function' && value instanceof CryptoKey;
    } catch {
      return false;
    }
  }

  const types = {
    isExternal: () => false,
    isDate: brand(uncurry(Date.prototype.getTime)),
    isArgumentsObject: (value) => isObjectLike(value) && objectToString(value) === '[object Arguments]',
    isBigIntObject,
    isBooleanObject,
    isNumberObject,
    isStringObject,
    isSymbolObject,
    isNativeError,
    isRegExp: (value) => {
      if (!isObjectLike(value)) return false;
      try {
        return typeof regExpGlobal(value) === 'boolean';
      } catch {
        return false;
      }
    },
    isAsyncFunction: (value) => typeof value === 'function' && (getPrototypeOf(value) === AsyncFunctionPrototype ||
      getPrototypeOf(value) === AsyncGeneratorFunctionPrototype),
    isGeneratorFunction: (value) => typeof value === 'function' &&
      (getPrototypeOf(value) === GeneratorFunctionPrototype || getPrototypeOf(value) === AsyncGeneratorFunctionPrototype),
    isGeneratorObject: (value) => isObjectLike(value) && (chainHas(value, GeneratorPrototype) ||
      chainHas(value, AsyncGeneratorPrototype)),
    isPromise: (value) => isObjectLike(value) && chainHas(value, PromisePrototype),
    isMap: brand(getter(Map.prototype, 'size')),
    isSet: brand(getter(Set.prototype, 'size')),
    isMapIterator: (value) => isObjectLike(value) && getPrototypeOf(value) === MapIteratorPrototype,
    isSetIterator: (value) => isObjectLike(value) && getPrototypeOf(value) === SetIteratorPrototype,
    isWeakMap: brand((value) => uncurry(WeakMap.prototype.has)(value, Object.prototype)),
    isWeakSet: brand((value) => uncurry(WeakSet.prototype.has)(value, Object.prototype)),
    isArrayBuffer,
    isDataView: brand(getter(DataView.prototype, 'buffer')),
    isSharedArrayBuffer,
    // A Proxy cannot be told from its target by code in the language.
    isProxy: () => false,
    isModuleNamespaceObject: (value) => isObjectLike(value) && getPrototypeOf(value) === null &&
      objectToString(value) === '[object Module]',
    isAnyArrayBuffer: (value) => isArrayBuffer(value) || isSharedArrayBuffer(value),
    isBoxedPrimitive: (value) => isNumberObject(value) || isStringObject(value) || isBooleanObject(value) ||
      isBigIntObject(value) || isSymbolObject(value),
    isArrayBufferView: isView,
    isTypedArray: (value) => isView(value) && typedArrayTag(value) !== undefined,
    isUint8Array: tagged('Uint8Array'),
    isUint8ClampedArray: tagged('Uint8ClampedArray'),
    isUint16Array: tagged('Uint16Array'),
    isUint32Array: tagged('Uint32Array'),
    isInt8Array: tagged('Int8Array'),
    isInt16Array: tagged('Int16Array'),
    isInt32Array: tagged('Int32Array'),
    isFloat32Array: tagged('Float32Array'),
    isFloat64Array: tagged('Float64Array'),
    isBigInt64Array: tagged('BigInt64Array'),
    isBigUint64Array: tagged('BigUint64Array'),
    isKeyObject: () => false,
    isCryptoKey,
  };

  // ---- Functions.

  const customPromisify = Symbol.for('nodejs.util.promisify.custom');

  function sleep(delay, value) {
    return new PromiseCtor((resolve) => host.global('setTimeout')(() => resolve(value), delay));
  }

  function promisify(original) {
    checkFunction(original, 'original');
    if (original === host.global('setTimeout')) return sleep;
    const custom = original[customPromisify];
    if (custom !== undefined) {
      checkFunction(custom, 'util.promisify.custom');
      defineProperty(custom, customPromisify, { value: custom, enumerable: false, writable: false,
        configurable: true });
      return custom;
    }
    function fn(...args) {
      return new PromiseCtor((resolve, reject) => {
        push(args, (error, ...values) => {
          if (error) reject(error);
          else resolve(values[0]);
        });
        apply(original, this, args);
      });
    }
    setPrototypeOf(fn, getPrototypeOf(original));
    defineProperty(fn, customPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
    return defineProperties(fn, getDescriptors(original));
  }
  defineProperty(promisify, 'custom', { value: customPromisify, enumerable: false, writable: false,
    configurable: false });

  function callbackify(original) {
    checkFunction(original, 'original');
    function callbackified(...args) {
      const last = pop(args);
      checkFunction(last, 'last argument');
      const callback = bind(last, this);
      const later = (...values) => host.global('queueMicrotask')(() => apply(callback, undefined, values));
      then(apply(original, this, args), (value) => later(null, value), (reason) => {
        if (!reason) {
          const error = codedError(ErrorCtor, 'ERR_FALSY_VALUE_REJECTION', 'Promise was rejected with falsy value');
          error.reason = reason;
          reason = error;
        }
        later(reason);
      });
    }
    const descriptors = getDescriptors(original);
    if (descriptors.length !== undefined && typeof descriptors.length.value === 'number') descriptors.length.value++;
    if (descriptors.name !== undefined && typeof descriptors.name.value === 'string') {
      descriptors.name.value += 'Callbackified';
    }
    defineProperties(callbackified, descriptors);
    return callbackified;
  }

  function inherits(ctor, superCtor) {
    if (ctor === undefined || ctor === null) throw invalidArgType('ctor', 'of type function', ctor);
    if (superCtor === undefined || superCtor === null) throw invalidArgType('superCtor', 'of type function', superCtor);
    if (superCtor.prototype === undefined) {
      throw invalidArgType('superCtor.prototype', 'of type object', superCtor.prototype);
    }
    defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
    setPrototypeOf(ctor.prototype, superCtor.prototype);
  }

  // Deprecation warnings, printed as Node prints them (by the runtime, after the code's synchronous part).
  const codesWarned = create(null);
  function emitWarning(message, code) {
    host.warn('DeprecationWarning', message, code);
  }

  function deprecate(fn, msg, code) {
    if (code !== undefined && typeof code !== 'string') throw invalidArgType('code', 'of type string', code);
    let warned = false;
    function deprecated(...args) {
      if (!warned) {
        warned = true;
        if (code === undefined) emitWarning(msg, code);
        else if (!codesWarned[code]) {
          codesWarned[code] = true;
          emitWarning(msg, code);
        }
      }
      if (new.target) return construct(fn, args, new.target);
      return apply(fn, this, args);
    }
    setPrototypeOf(deprecated, fn);
    if (fn.prototype) deprecated.prototype = fn.prototype;
    return deprecated;
  }

  function debuglog(section, callback) {
    const logger = () => {};
    defineProperty(logger, 'enabled', { get: () => false, configurable: true, enumerable: true });
    return logger;
  }

  const MONTHS = words('Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec');
  const pad = (n) => (n < 10 ? '0' + n : '' + n);
  function log(...args) {
    const date = new Date();
    const stamp = date.getDate() + ' ' + MONTHS[date.getMonth()] + ' ' + pad(date.getHours()) + ':' +
      pad(date.getMinutes()) + ':' + pad(date.getSeconds());
    host.global('console').log('%s - %s', stamp, host.format(args));
  }

  function toUSVString(input) {
    const text = '' + input;
    if (toWellFormed !== undefined) return toWellFormed(text);
    let out = '';
    for (let i = 0; i < text.length; i++) {
      const code = charCodeAt(text, i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (charCodeAt(text, i + 1) & 0xfc00) === 0xdc00) {
        out += text[i] + text[++i];
      } else out += code >= 0xd800 && code <= 0xdfff ? '\ufffd' : text[i];
    }
    return out;
  }

  // ANSI escape sequences: CSI (ESC [ or 0x9B, parameters, one final byte) and OSC (ESC ],
  // ended by BEL or ESC \).
  const ANSI = /\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[\u001b\u009b][[\]()#;?]*(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]/g;
  function stripVTControlCharacters(str) {
    if (typeof str !== 'string') throw invalidArgType('str', 'of type string', str);
    // RegExp.prototype[Symbol.replace] would look up `exec` on the expression: match by hand.
    let out = '';
    let last = 0;
    ANSI.lastIndex = 0;
    for (let match = regExpExec(ANSI, str); match !== null; match = regExpExec(ANSI, str)) {
      out += stringSlice(str, last, match.index);
      last = match.index + match[0].length;
      if (match[0].length === 0) ANSI.lastIndex++;
    }
    return out + stringSlice(str, last);
  }

  function styleText(format, text) {
    if (typeof text !== 'string') throw invalidArgType('text', 'of type string', text);
    const formats = isArray(format) ? format : [format];
    for (let i = 0; i < formats.length; i++) {
      if (colors[formats[i]] === undefined) {
        throw invalidArgValue('format', formats[i], "must be one of: '" + join(colorNames, "', '") + "'");
      }
    }
    // The sandbox's output is not a terminal: Node 20 writes no codes for one format there,
    // and does for a list of them.
    if (!isArray(format)) return text;
    let open = '';
    let close = '';
    for (let i = 0; i < formats.length; i++) {
      const code = colors[formats[i]];
      open += '\u001b[' + code[0] + 'm';
      close = '\u001b[' + code[1] + 'm' + close;
    }
    return open + text + close;
  }

  // ---- parseArgs: command-line style arguments from an array (the sandbox has no argv).

  function parseArgsError(code, message) {
    return codedError(TypeErrorCtor, code, message);
  }

  function checkBoolean(value, name) {
    if (typeof value !== 'boolean') throw invalidArgType(name, 'of type boolean', value);
  }

  function checkOptions(options) {
    checkObject(options, 'options');
    const names = objectKeys(options);
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      const config = options[name];
      checkObject(config, 'options.' + name);
      const type = config.type;
      if (type !== 'string' && type !== 'boolean') {
        throw invalidArgType('options.' + name + '.type', "('string|boolean')", type);
      }
      if (hasOwn(config, 'short')) {
        const short = config.short;
        if (typeof short !== 'string') throw invalidArgType('options.' + name + '.short', 'of type string', short);
        if (short.length !== 1) {
          throw invalidArgValue('options.' + name + '.short', short, 'must be a single character');
        }
      }
      if (hasOwn(config, 'multiple')) checkBoolean(config.multiple, 'options.' + name + '.multiple');
      if (config.default !== undefined) {
        const value = config.default;
        const where = 'options.' + name + '.default';
        if (config.multiple) {
          if (!isArray(value)) {
            throw invalidArgType(where, 'an instance of Array', value);
          }
          for (let j = 0; j < value.length; j++) {
            if (typeof value[j] !== type) throw invalidArgType(where + '[' + j + ']', 'of type ' + type, value[j]);
          }
        } else if (typeof value !== type) {
          throw invalidArgType(where, 'of type ' + type, value);
        }
      }
    }
  }

  function optionOf(options, name, key) {
    return hasOwn(options, name) ? options[name][key] : undefined;
  }

  function longNameOf(short, options) {
    const names = objectKeys(options);
    for (let i = 0; i < names.length; i++) {
      if (options[names[i]].short === short) return names[i];
    }
    return short;
  }

  function argumentTokens(args, options, allowNegative, negated) {
    const tokens = [];
    const queue = setPrototypeOf([], null);
    for (let i = 0; i < args.length; i++) queue[i] = args[i];
    let at = 0;
    let index = -1;
    let groupCount = 0;
    const option = (name, rawName, position, value, inlineValue) => {
      tokens[tokens.length] = { kind: 'option', name, rawName, index: position, value, inlineValue };
    };
    while (at < queue.length) {
      const arg = queue[at++];
      const next = queue[at];
      // Pieces of an expanded short group keep the index of the argument they came from.
      if (groupCount > 0) groupCount--;
      else index++;
      const position = index;
      if (arg === '--') {
        tokens[tokens.length] = { kind: 'option-terminator', index: position };
        while (at < queue.length) tokens[tokens.length] = { kind: 'positional', index: ++index, value: queue[at++] };
        break;
      }
      const dashed = arg.length > 1 && arg[0] === '-';
      if (dashed && arg[1] !== '-' && arg.length === 2) {
        const name = longNameOf(arg[1], options);
        let value;
        let inlineValue;
        if (optionOf(options, name, 'type') === 'string' && next != null) {
          value = queue[at++];
          index++;
          inlineValue = false;
        }
        option(name, arg, position, value, inlineValue);
        continue;
      }
      if (dashed && arg[1] !== '-') {
        const first = longNameOf(arg[1], options);
        if (optionOf(options, first, 'type') !== 'string') {
          // -abc: one option per character; a string option takes the rest as its value.
          const expanded = setPrototypeOf([], null);
          for (let i = 1; i < arg.length; i++) {
            const name = longNameOf(arg[i], options);
            if (optionOf(options, name, 'type') !== 'string' || i === arg.length - 1) {
              expanded[expanded.length] = '-' + arg[i];
            } else {
              expanded[expanded.length] = '-' + stringSlice(arg, i);
              break;
            }
          }
          for (let i = queue.length - 1; i >= at; i--) queue[i + expanded.length] = queue[i];
          for (let i = 0; i < expanded.length; i++) queue[at + i] = expanded[i];
          groupCount = expanded.length;
          continue;
        }
        option(first, '-' + arg[1], position, stringSlice(arg, 2), true);
        continue;
      }
      if (dashed && arg.length > 2 && arg[1] === '-') {
        if (indexOfText(arg, '=', 3) !== -1) {
          const equals = indexOfText(arg, '=');
          option(stringSlice(arg, 2, equals), stringSlice(arg, 0, equals), position, stringSlice(arg, equals + 1), true);
          continue;
        }
        const name = stringSlice(arg, 2);
        if (allowNegative && stringSlice(name, 0, 3) === 'no-' &&
            optionOf(options, stringSlice(name, 3), 'type') !== 'string') {
          option(stringSlice(name, 3), arg, position, undefined, undefined);
          negated[negated.length] = tokens[tokens.length - 1];
          continue;
        }
        let value;
        let inlineValue;
        if (optionOf(options, name, 'type') === 'string' && next != null) {
          value = queue[at++];
          index++;
          inlineValue = false;
        }
        option(name, arg, position, value, inlineValue);
        continue;
      }
      tokens[tokens.length] = { kind: 'positional', index: position, value: arg };
    }
    return tokens;
  }

  function parseArgs(config = {}) {
    const args = config.args === undefined ? [] : config.args;
    const strict = config.strict === undefined ? true : config.strict;
    const allowPositionals = config.allowPositionals === undefined ? !strict : config.allowPositionals;
    const allowNegative = config.allowNegative === undefined ? false : config.allowNegative;
    const returnTokens = config.tokens === undefined ? false : config.tokens;
    const options = config.options === undefined ? {} : config.options;
    if (!isArray(args)) {
      throw invalidArgType('args', 'an instance of Array', args);
    }
    checkBoolean(strict, 'strict');
    checkBoolean(allowPositionals, 'allowPositionals');
    checkBoolean(allowNegative, 'allowNegative');
    checkBoolean(returnTokens, 'tokens');
    checkOptions(options);
    // Tokens of `--no-name` options, which store false.
    const negated = setPrototypeOf([], null);
    const tokens = argumentTokens(args, options, allowNegative, negated);
    const result = { values: create(null), positionals: [] };
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i];
      if (token.kind === 'option') {
        let negative = false;
        for (let j = 0; j < negated.length; j++) {
          if (negated[j] === token) negative = true;
        }
        if (strict) checkUsage(token, options, allowPositionals, negative);
        if (token.name === '__proto__') continue;
        const value = negative ? false : token.value === undefined ? true : token.value;
        if (optionOf(options, token.name, 'multiple')) {
          const existing = result.values[token.name];
          if (existing) existing[existing.length] = value;
          else result.values[token.name] = [value];
        } else {
          result.values[token.name] = value;
        }
      } else if (token.kind === 'positional') {
        if (!allowPositionals) {
          throw parseArgsError('ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', "Unexpected argument '" + token.value +
            "'. This command does not take positional arguments");
        }
        result.positionals[result.positionals.length] = token.value;
      }
    }
    const names = objectKeys(options);
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (result.values[name] === undefined && options[name].default !== undefined) {
        result.values[name] = options[name].default;
      }
    }
    if (returnTokens) result.tokens = tokens;
    return result;
  }

  function checkUsage(token, options, allowPositionals, negative) {
    if (!hasOwn(options, token.name)) {
      throw parseArgsError('ERR_PARSE_ARGS_UNKNOWN_OPTION', "Unknown option '" + token.rawName + "'" +
        (allowPositionals ? ". To specify a positional argument starting with a '-', place it at the end of the " +
          "command after '--', as in '-- " + JSONStringify(token.rawName) : ''));
    }
    const short = options[token.name].short;
    const both = (short ? '-' + short + ', ' : '') + '--' + token.name;
    const type = options[token.name].type;
    if (type === 'string' && typeof token.value !== 'string') {
      throw parseArgsError('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', "Option '" + both + " <value>' argument missing");
    }
    if (type === 'boolean' && token.value != null && !negative) {
      throw parseArgsError('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', "Option '" + both + "' does not take an argument");
    }
    if (token.inlineValue === false && typeof token.value === 'string' && token.value.length > 1 &&
        token.value[0] === '-') {
      const example = stringSlice(token.rawName, 0, 2) === '--' ? "'" + token.rawName + "=-XYZ'" :
        "'--" + token.name + "=-XYZ' or '" + token.rawName + "-XYZ'";
      throw parseArgsError('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', "Option '" + token.rawName + "' argument is " +
        "ambiguous.\nDid you forget to specify the option argument for '" + token.rawName + "'?\nTo specify an " +
        'option argument starting with a dash use ' + example + '.');
    }
  }

  function extend(target, source) {
    if (source === null || typeof source !== 'object') return target;
    const keys = objectKeys(source);
    for (let i = keys.length - 1; i >= 0; i--) target[keys[i]] = source[keys[i]];
    return target;
  }

  function webClass(name) {
    try {
      return host.global(name);
    } catch {
      return undefined;
    }
  }

  const util = {
    _extend: extend,
    callbackify,
    debug: debuglog,
    debuglog,
    deprecate,
    format,
    styleText,
    formatWithOptions,
    inherits,
    inspect,
    isArray,
    isBoolean: (value) => typeof value === 'boolean',
    isBuffer: (value) => host.global('Buffer').isBuffer(value),
    isDeepStrictEqual: comparisons.isDeepStrictEqual,
    isNull: (value) => value === null,
    isNullOrUndefined: (value) => value === undefined || value === null,
    isNumber: (value) => typeof value === 'number',
    isString: (value) => typeof value === 'string',
    isSymbol: (value) => typeof value === 'symbol',
    isUndefined: (value) => value === undefined,
    isRegExp: types.isRegExp,
    isObject: (value) => value !== null && typeof value === 'object',
    isDate: types.isDate,
    isError: (value) => objectToString(value) === '[object Error]' || value instanceof ErrorCtor,
    isFunction: (value) => typeof value === 'function',
    isPrimitive: (value) => value === null || (typeof value !== 'object' && typeof value !== 'function'),
    log,
    promisify,
    stripVTControlCharacters,
    toUSVString,
    types,
    parseArgs,
    TextDecoder: webClass('TextDecoder'),
    TextEncoder: webClass('TextEncoder'),
  };
  // The web globals load only with code that names them; read them again when first used.
  const lazy = ['TextDecoder', 'TextEncoder'];
  for (let i = 0; i < lazy.length; i++) {
    const name = lazy[i];
    if (util[name] !== undefined) continue;
    defineProperty(util, name, { get: () => host.global(name), set: (value) => {
      defineProperty(util, name, { value, writable: true, enumerable: true, configurable: true });
    }, enumerable: true, configurable: true });
  }
  return util;
})
