// module: internal/errors
// globals:
// requires:
(function (host) {
  'use strict';
  // Node's coded errors, once for every built-in that throws them (the Node modules through
  // their require, TextEncoder and TextDecoder through their host's), with Node 20's words.
  // Node has two main kinds: the errors its JavaScript throws (NodeError: the code shows in the
  // stack's first line and in String(error), `TypeError [ERR_X]: ...`), and those its C++
  // throws (a plain error with a `code` property). codedError and nativeError make each;
  // perContextError, systemError and AbortError make the three rarer shapes.
  // Loaded before the code runs, with the modules that need it, so that it captures the
  // built-ins it uses as the engine made them; its host gives it only `inspect`.
  const apply = Reflect.apply;
  const call = Function.prototype.call;
  const bind = Function.prototype.bind;
  const uncurry = (fn) => apply(bind, call, [fn]);
  const setPrototypeOf = Object.setPrototypeOf;
  const create = Object.create;
  const defineProperty = Object.defineProperty;
  const isInteger = Number.isInteger;
  const abs = Math.abs;
  const stringSlice = uncurry(String.prototype.slice);
  const charCodeAt = uncurry(String.prototype.charCodeAt);
  const endsWith = uncurry(String.prototype.endsWith);
  const indexOf = uncurry(String.prototype.indexOf);
  const StringCtor = String;
  const JSONStringify = JSON.stringify;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const RangeErrorCtor = RangeError;
  const inspect = host.inspect;

  function codeProperty(code) {
    return { __proto__: null, value: code, writable: true, enumerable: true, configurable: true };
  }

  // One prototype per error constructor for the JavaScript kind: the constructor's own, with
  // Node's toString, which names the code.
  const prototypes = { __proto__: null };
  function codedPrototype(Base) {
    let prototype = prototypes[Base.name];
    if (prototype === undefined) {
      prototype = create(Base.prototype, {
        constructor: { value: Base, writable: true, configurable: true },
        toString: {
          value: function toString() { return this.name + ' [' + this.code + ']: ' + this.message; },
          writable: true, configurable: true,
        },
      });
      prototypes[Base.name] = prototype;
    }
    return prototype;
  }

  // An error as Node's JavaScript throws it: `code` in the stack's first line and in String(error).
  function codedError(Base, code, message) {
    const error = new Base(message);
    error.name = Base.name + ' [' + code + ']';
    void error.stack; // the first stack line shows the code, as Node's does
    delete error.name;
    setPrototypeOf(error, codedPrototype(Base));
    defineProperty(error, 'code', codeProperty(code));
    return error;
  }

  // An error as Node's C++ throws it: only the `code` property says which.
  function nativeError(Base, code, message) {
    const error = new Base(message);
    defineProperty(error, 'code', codeProperty(code));
    return error;
  }

  // An error as Node's per-context modules (DOMException's) throw it: String(error) names the code, the
  // stack's first line does not.
  function perContextError(Base, code, message) {
    const error = new Base(message);
    defineProperty(error, 'toString', {
      __proto__: null,
      value: function toString() { return this.name + ' [' + code + ']: ' + this.message; },
      writable: true, enumerable: false, configurable: true,
    });
    error.code = code;
    return error;
  }

  // An error as a failed system call gives it (Node's uvException): errno, code, syscall and path, in that order.
  function systemError(code, errno, syscall, path, message) {
    const error = new ErrorCtor(message);
    const properties = [['errno', errno], ['code', code], ['syscall', syscall], ['path', path]];
    for (let i = 0; i < properties.length; i++) {
      defineProperty(error, properties[i][0], {
        __proto__: null, value: properties[i][1], writable: true, enumerable: true, configurable: true,
      });
    }
    return error;
  }

  // Node's AbortError (what an aborted signal makes a promise-returning API reject with): a class of its own.
  class AbortError extends ErrorCtor {
    constructor(message = 'The operation was aborted', options = undefined) {
      super(message, options);
      this.code = 'ABORT_ERR';
      this.name = 'AbortError';
    }
  }

  // How Node describes a wrong value at the end of its messages (its determineSpecificType):
  // 'Received type number (5)', 'Received an instance of Map', 'Received function f'. A string
  // longer than 28 characters is cut to 25 and '...' before it is quoted.
  function received(value) {
    if (value === null || value === undefined) return 'Received ' + value;
    switch (typeof value) {
      case 'function':
        return 'Received function ' + value.name;
      case 'object': {
        const ctor = value.constructor;
        if (ctor !== null && (typeof ctor === 'object' || typeof ctor === 'function') && 'name' in ctor) {
          return 'Received an instance of ' + ctor.name;
        }
        return 'Received ' + inspect(value, { depth: -1 });
      }
      case 'string': {
        const text = value.length > 28 ? stringSlice(value, 0, 25) + '...' : value;
        return 'Received type string (' + (indexOf(text, "'") === -1 ? "'" + text + "'" : JSONStringify(text)) + ')';
      }
      case 'number':
        return 'Received type number (' + (value === 0 && 1 / value < 0 ? '-0' : StringCtor(value)) + ')';
      case 'bigint':
        return 'Received type bigint (' + StringCtor(value) + 'n)';
      default:
        return 'Received type ' + typeof value + ' (' + StringCtor(value) + ')';
    }
  }

  // ERR_INVALID_ARG_TYPE. `expected` as Node words it: 'of type number', 'an instance of Buffer
  // or Uint8Array'. A name ending in ' argument' is used as it is ('first argument'); a dotted
  // one is a property ('options.signal').
  function invalidArgType(name, expected, value) {
    const subject = endsWith(name, ' argument') ? name :
      '"' + name + '" ' + (indexOf(name, '.') === -1 ? 'argument' : 'property');
    return codedError(TypeErrorCtor, 'ERR_INVALID_ARG_TYPE', 'The ' + subject + ' must be ' + expected + '. ' +
      received(value));
  }

  // ERR_INVALID_ARG_VALUE: `reason` completes "The argument 'name' ..." (default: 'is invalid').
  function invalidArgValue(name, value, reason) {
    let shown = inspect(value);
    if (shown.length > 128) shown = stringSlice(shown, 0, 128) + '...';
    return codedError(TypeErrorCtor, 'ERR_INVALID_ARG_VALUE', 'The ' +
      (indexOf(name, '.') === -1 ? 'argument' : 'property') + " '" + name + "' " +
      (reason === undefined ? 'is invalid' : reason) + '. Received ' + shown);
  }

  // 12345678901 as 12_345_678_901, as Node writes large numbers in range errors.
  function grouped(text) {
    const start = charCodeAt(text, 0) === 45 ? 1 : 0;
    let end = text.length;
    let out = '';
    for (; end >= start + 4; end -= 3) out = '_' + stringSlice(text, end - 3, end) + out;
    return stringSlice(text, 0, end) + out;
  }

  // ERR_OUT_OF_RANGE: 'The value of "name" is out of range. It must be <range>. Received <value>'.
  function outOfRange(name, range, value) {
    let shown;
    if (isInteger(value) && abs(value) > 2 ** 32) shown = grouped(StringCtor(value));
    else if (typeof value === 'bigint') {
      shown = StringCtor(value);
      if (value > 2n ** 32n || value < -(2n ** 32n)) shown = grouped(shown);
      shown += 'n';
    } else shown = inspect(value);
    return codedError(RangeErrorCtor, 'ERR_OUT_OF_RANGE', 'The value of "' + name + '" is out of range. It must be ' +
      range + '. Received ' + shown);
  }

  function unknownEncoding(encoding) {
    return codedError(TypeErrorCtor, 'ERR_UNKNOWN_ENCODING', 'Unknown encoding: ' + encoding);
  }

  function invalidThis(type) {
    return codedError(TypeErrorCtor, 'ERR_INVALID_THIS', 'Value of "this" must be of type ' + type);
  }

  return setPrototypeOf({
    codedError, nativeError, perContextError, systemError, AbortError, received, invalidArgType, invalidArgValue,
    outOfRange, unknownEncoding, invalidThis,
  }, null);
})
