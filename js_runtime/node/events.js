// module: events
// globals:
// requires: internal/errors
(function (host) {
  'use strict';
  // Node's EventEmitter, which code written for Node builds on (`class Job extends
  // EventEmitter`, `EventEmitter.call(this)` with util.inherits). Listeners live where Node
  // keeps them (`_events`: one function, or an array once there are more), so that printing
  // an emitter shows what Node shows, and the 'error', 'newListener' and 'removeListener'
  // events and the max-listeners warning behave as in Node 20.
  const uncurry = (fn) => Function.prototype.call.bind(fn);
  const apply = Reflect.apply;
  const ownKeys = Reflect.ownKeys;
  const setPrototypeOf = Object.setPrototypeOf;
  const create = Object.create;
  const defineProperty = Object.defineProperty;
  const getPrototypeOf = Object.getPrototypeOf;
  const isNaN = Number.isNaN;
  const push = uncurry(Array.prototype.push);
  const unshift = uncurry(Array.prototype.unshift);
  const shift = uncurry(Array.prototype.shift);
  const splice = uncurry(Array.prototype.splice);
  const bind = uncurry(Function.prototype.bind);
  const slice = uncurry(String.prototype.slice);
  const then = uncurry(Promise.prototype.then);
  const PromiseCtor = Promise;
  const resolved = Promise.resolve();
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const RangeErrorCtor = RangeError;
  const StringCtor = String;
  const kCapture = Symbol('kCapture');
  const kShapeMode = Symbol('shapeMode');
  const errorMonitor = Symbol('events.errorMonitor');
  const captureRejectionSymbol = Symbol.for('nodejs.rejection');
  let defaultMaxListeners = 10;
  let captureRejections = false;

  const { codedError, invalidArgType, outOfRange, AbortError } = host.require('internal/errors');

  function checkListener(listener) {
    if (typeof listener !== 'function') throw invalidArgType('listener', 'of type function', listener);
  }

  function checkCount(n, name) {
    if (typeof n !== 'number') throw invalidArgType(name, 'of type number', n);
    if (n < 0 || isNaN(n)) {
      throw outOfRange(name, '>= 0', n);
    }
  }

  // A process warning, printed as Node prints it (by the runtime, after the code's synchronous part).
  function emitWarning(warning) {
    host.warn(warning.name, warning.message);
  }

  function EventEmitter(options) {
    apply(EventEmitter.init, this, [options]);
  }

  // [first, ...rest], without the array iterator the code may have replaced.
  function withFirst(first, rest) {
    const all = [first];
    for (let i = 0; i < rest.length; i++) defineProperty(all, i + 1, { value: rest[i], writable: true,
      enumerable: true, configurable: true });
    return all;
  }

  function init(options) {
    if (this._events === undefined || this._events === getPrototypeOf(this)._events) {
      this._events = create(null);
      this._eventsCount = 0;
      this[kShapeMode] = false;
    } else {
      this[kShapeMode] = true;
    }
    this._maxListeners = this._maxListeners || undefined;
    if (options != null && options.captureRejections) {
      if (typeof options.captureRejections !== 'boolean') {
        throw invalidArgType('options.captureRejections', 'of type boolean', options.captureRejections);
      }
      this[kCapture] = true;
    } else {
      this[kCapture] = EventEmitter.prototype[kCapture];
    }
  }

  const proto = EventEmitter.prototype;
  proto._events = undefined;
  proto._eventsCount = 0;
  proto._maxListeners = undefined;
  defineProperty(proto, kCapture, { value: false, writable: true });

  proto.setMaxListeners = function setMaxListeners(n) {
    checkCount(n, 'setMaxListeners');
    this._maxListeners = n;
    return this;
  };

  function maxListenersOf(emitter) {
    return emitter._maxListeners === undefined ? defaultMaxListeners : emitter._maxListeners;
  }

  proto.getMaxListeners = function getMaxListeners() {
    return maxListenersOf(this);
  };

  // An 'error' emitted with no listener for it: the error itself is thrown, anything else is
  // wrapped, as Node does.
  function unhandled(args) {
    const thrown = args.length > 0 ? args[0] : undefined;
    if (thrown instanceof ErrorCtor) throw thrown;
    let shown;
    try {
      shown = host.inspect(thrown);
    } catch {
      shown = thrown;
    }
    const error = codedError(ErrorCtor, 'ERR_UNHANDLED_ERROR', 'Unhandled error. (' + shown + ')');
    error.context = thrown;
    throw error;
  }

  // With captureRejections, a listener's rejected promise becomes an 'error' event.
  function watchResult(emitter, type, args, result) {
    if (result === undefined || result === null || typeof result.then !== 'function') return;
    result.then(undefined, (error) => {
      then(resolved, () => {
        const handler = emitter[captureRejectionSymbol];
        if (typeof handler === 'function') {
          apply(handler, emitter, withFirst(error, withFirst(type, args)));
          return;
        }
        const previous = emitter[kCapture];
        try {
          emitter[kCapture] = false;
          emitter.emit('error', error);
        } finally {
          emitter[kCapture] = previous;
        }
      });
    });
  }

  proto.emit = function emit(type, ...args) {
    let unhandledError = type === 'error';
    const events = this._events;
    if (events !== undefined) {
      if (unhandledError && events[errorMonitor] !== undefined) apply(proto.emit, this, withFirst(errorMonitor, args));
      unhandledError = unhandledError && events.error === undefined;
    } else if (!unhandledError) {
      return false;
    }
    if (unhandledError) unhandled(args);
    const handler = events[type];
    if (handler === undefined) return false;
    if (typeof handler === 'function') {
      const result = apply(handler, this, args);
      if (this[kCapture] === true) watchResult(this, type, args, result);
    } else {
      const listeners = copyList(handler);
      for (let i = 0; i < listeners.length; i++) {
        const result = apply(listeners[i], this, args);
        if (this[kCapture] === true) watchResult(this, type, args, result);
      }
    }
    return true;
  };

  function copyList(items) {
    const copy = setPrototypeOf([], null);
    for (let i = 0; i < items.length; i++) copy[i] = items[i];
    return copy;
  }

  function addTo(target, type, listener, prepend) {
    checkListener(listener);
    let events = target._events;
    let existing;
    if (events === undefined) {
      events = target._events = create(null);
      target._eventsCount = 0;
    } else {
      if (events.newListener !== undefined) {
        target.emit('newListener', type, listener.listener ? listener.listener : listener);
        events = target._events;
      }
      existing = events[type];
    }
    if (existing === undefined) {
      events[type] = listener;
      ++target._eventsCount;
      return target;
    }
    if (typeof existing === 'function') {
      existing = events[type] = prepend ? [listener, existing] : [existing, listener];
    } else if (prepend) {
      unshift(existing, listener);
    } else {
      push(existing, listener);
    }
    const max = maxListenersOf(target);
    if (max > 0 && existing.length > max && !existing.warned) {
      existing.warned = true;
      const warning = new ErrorCtor('Possible EventEmitter memory leak detected. ' + existing.length + ' ' +
        StringCtor(type) + ' listeners added to ' + host.inspect(target, { depth: -1 }) + '. MaxListeners is ' +
        max + '. Use emitter.setMaxListeners() to increase limit');
      warning.name = 'MaxListenersExceededWarning';
      warning.emitter = target;
      warning.type = type;
      warning.count = existing.length;
      emitWarning(warning);
    }
    return target;
  }

  proto.addListener = function addListener(type, listener) {
    return addTo(this, type, listener, false);
  };
  proto.on = proto.addListener;

  proto.prependListener = function prependListener(type, listener) {
    return addTo(this, type, listener, true);
  };

  function onceWrapper() {
    if (this.fired) return undefined;
    this.target.removeListener(this.type, this.wrapFn);
    this.fired = true;
    return apply(this.listener, this.target, arguments);
  }

  function onceWrap(target, type, listener) {
    const state = { fired: false, wrapFn: undefined, target, type, listener };
    const wrapped = bind(onceWrapper, state);
    wrapped.listener = listener;
    state.wrapFn = wrapped;
    return wrapped;
  }

  proto.once = function once(type, listener) {
    checkListener(listener);
    this.on(type, onceWrap(this, type, listener));
    return this;
  };

  proto.prependOnceListener = function prependOnceListener(type, listener) {
    checkListener(listener);
    this.prependListener(type, onceWrap(this, type, listener));
    return this;
  };

  proto.removeListener = function removeListener(type, listener) {
    checkListener(listener);
    const events = this._events;
    if (events === undefined) return this;
    const list = events[type];
    if (list === undefined) return this;
    if (list === listener || list.listener === listener) {
      this._eventsCount -= 1;
      if (this[kShapeMode]) {
        events[type] = undefined;
      } else if (this._eventsCount === 0) {
        this._events = create(null);
      } else {
        delete events[type];
        if (events.removeListener) this.emit('removeListener', type, list.listener || listener);
      }
    } else if (typeof list !== 'function') {
      let position = -1;
      for (let i = list.length - 1; i >= 0; i--) {
        if (list[i] === listener || list[i].listener === listener) {
          position = i;
          break;
        }
      }
      if (position < 0) return this;
      if (position === 0) shift(list);
      else splice(list, position, 1);
      if (list.length === 1) events[type] = list[0];
      if (events.removeListener !== undefined) this.emit('removeListener', type, listener);
    }
    return this;
  };
  proto.off = proto.removeListener;

  proto.removeAllListeners = function removeAllListeners(type) {
    const events = this._events;
    if (events === undefined) return this;
    if (events.removeListener === undefined) {
      if (arguments.length === 0) {
        this._events = create(null);
        this._eventsCount = 0;
      } else if (events[type] !== undefined) {
        if (--this._eventsCount === 0) this._events = create(null);
        else delete events[type];
      }
      this[kShapeMode] = false;
      return this;
    }
    if (arguments.length === 0) {
      // Every other event first, so that 'removeListener' listeners hear about each one.
      const keys = ownKeys(events);
      for (let i = 0; i < keys.length; i++) {
        if (keys[i] !== 'removeListener') this.removeAllListeners(keys[i]);
      }
      this.removeAllListeners('removeListener');
      this._events = create(null);
      this._eventsCount = 0;
      this[kShapeMode] = false;
      return this;
    }
    const listeners = events[type];
    if (typeof listeners === 'function') {
      this.removeListener(type, listeners);
    } else if (listeners !== undefined) {
      for (let i = listeners.length - 1; i >= 0; i--) this.removeListener(type, listeners[i]);
    }
    return this;
  };

  function listenersOf(target, type, unwrap) {
    const events = target._events;
    if (events === undefined) return [];
    const found = events[type];
    if (found === undefined) return [];
    if (typeof found === 'function') return unwrap ? [found.listener || found] : [found];
    const copy = [];
    for (let i = 0; i < found.length; i++) {
      defineProperty(copy, i, {
        value: unwrap ? found[i].listener || found[i] : found[i], writable: true, enumerable: true, configurable: true,
      });
    }
    return copy;
  }

  proto.listeners = function listeners(type) {
    return listenersOf(this, type, true);
  };

  proto.rawListeners = function rawListeners(type) {
    return listenersOf(this, type, false);
  };

  function listenerCount(type, listener) {
    const events = this._events;
    if (events === undefined) return 0;
    const found = events[type];
    if (typeof found === 'function') {
      if (listener != null) return listener === found || listener === found.listener ? 1 : 0;
      return 1;
    }
    if (found === undefined) return 0;
    if (listener == null) return found.length;
    let count = 0;
    for (let i = 0; i < found.length; i++) {
      if (found[i] === listener || found[i].listener === listener) count++;
    }
    return count;
  }
  proto.listenerCount = listenerCount;

  proto.eventNames = function eventNames() {
    return this._eventsCount > 0 ? ownKeys(this._events) : [];
  };

  function checkOptions(options) {
    const signal = options == null ? undefined : options.signal;
    if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
      throw invalidArgType('options.signal', 'an instance of AbortSignal', signal);
    }
    return signal;
  }

  function abortError(signal) {
    return new AbortError(undefined, { cause: signal.reason });
  }

  // Listens on an EventEmitter or an EventTarget.
  function listen(emitter, name, listener, once) {
    if (typeof emitter.on === 'function') {
      if (once) emitter.once(name, listener);
      else emitter.on(name, listener);
    } else if (typeof emitter.addEventListener === 'function') {
      emitter.addEventListener(name, listener, { once });
    } else {
      throw invalidArgType('emitter', 'an instance of EventEmitter or EventTarget', emitter);
    }
  }

  function unlisten(emitter, name, listener) {
    if (typeof emitter.removeListener === 'function') emitter.removeListener(name, listener);
    else if (typeof emitter.removeEventListener === 'function') emitter.removeEventListener(name, listener);
  }

  async function once(emitter, name, options = {}) {
    const signal = checkOptions(options);
    if (signal !== undefined && signal.aborted) throw abortError(signal);
    return new PromiseCtor((resolve, reject) => {
      const onError = (error) => {
        unlisten(emitter, name, resolver);
        if (signal !== undefined) signal.removeEventListener('abort', onAbort);
        reject(error);
      };
      const resolver = (...args) => {
        if (typeof emitter.removeListener === 'function') emitter.removeListener('error', onError);
        if (signal !== undefined) signal.removeEventListener('abort', onAbort);
        resolve(args);
      };
      const onAbort = () => {
        unlisten(emitter, name, resolver);
        unlisten(emitter, 'error', onError);
        reject(abortError(signal));
      };
      listen(emitter, name, resolver, true);
      if (name !== 'error' && typeof emitter.once === 'function') emitter.once('error', onError);
      if (signal !== undefined) signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  // events.on(emitter, name): an async iterator of the arguments of each event, which
  // throws the first 'error' event and stops listening when the loop ends.
  function on(emitter, name, options = {}) {
    const signal = checkOptions(options);
    if (signal !== undefined && signal.aborted) throw abortError(signal);
    const queued = setPrototypeOf([], null);
    const waiting = setPrototypeOf([], null);
    let failure;
    let finished = false;
    const onEvent = (...args) => {
      if (waiting.length > 0) shift(waiting).resolve({ value: args, done: false });
      else push(queued, args);
    };
    const onError = (error) => {
      if (waiting.length > 0) shift(waiting).reject(error);
      else failure = error;
      iterator.return();
    };
    const close = () => {
      unlisten(emitter, name, onEvent);
      unlisten(emitter, 'error', onError);
      finished = true;
      while (waiting.length > 0) shift(waiting).resolve({ value: undefined, done: true });
    };
    const iterator = setPrototypeOf({
      next() {
        if (queued.length > 0) return PromiseCtor.resolve({ value: shift(queued), done: false });
        if (failure !== undefined) {
          const error = failure;
          failure = undefined;
          return PromiseCtor.reject(error);
        }
        if (finished) return PromiseCtor.resolve({ value: undefined, done: true });
        return new PromiseCtor((resolve, reject) => push(waiting, { resolve, reject }));
      },
      return() {
        close();
        return PromiseCtor.resolve({ value: undefined, done: true });
      },
      throw(error) {
        failure = error;
        close();
        return PromiseCtor.reject(error);
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    }, getPrototypeOf(getPrototypeOf(async function* () {}).prototype));
    listen(emitter, name, onEvent, false);
    if (name !== 'error' && typeof emitter.on === 'function') emitter.on('error', onError);
    if (signal !== undefined) {
      signal.addEventListener('abort', () => {
        onError(abortError(signal));
      }, { once: true });
    }
    return iterator;
  }

  function getEventListeners(emitter, name) {
    if (typeof emitter.listeners === 'function') return emitter.listeners(name);
    throw invalidArgType('emitter', 'an instance of EventEmitter or EventTarget', emitter);
  }

  function getMaxListeners(emitter) {
    if (typeof emitter.getMaxListeners === 'function') return maxListenersOf(emitter);
    throw invalidArgType('emitter', 'an instance of EventEmitter or EventTarget', emitter);
  }

  function setMaxListeners(n = defaultMaxListeners, ...targets) {
    checkCount(n, 'n');
    if (targets.length === 0) {
      defaultMaxListeners = n;
      return;
    }
    for (let i = 0; i < targets.length; i++) {
      const target = targets[i];
      if (target !== null && typeof target === 'object' && typeof target.setMaxListeners === 'function') {
        target.setMaxListeners(n);
      } else {
        throw invalidArgType('eventTargets', 'an instance of EventEmitter or EventTarget', target);
      }
    }
  }

  function addAbortListener(signal, listener) {
    if (signal === undefined) throw invalidArgType('signal', 'an instance of AbortSignal', signal);
    checkListener(listener);
    let removed = false;
    const remove = () => {
      if (!removed) signal.removeEventListener('abort', listener);
      removed = true;
    };
    if (signal.aborted) then(resolved, () => listener());
    else signal.addEventListener('abort', listener, { once: true });
    const disposable = { __proto__: null };
    if (typeof Symbol.dispose === 'symbol') disposable[Symbol.dispose] = remove;
    return disposable;
  }

  const statics = {
    addAbortListener,
    once,
    on,
    getEventListeners,
    getMaxListeners,
    EventEmitter,
    usingDomains: false,
    captureRejectionSymbol,
  };
  const keys = ownKeys(statics);
  for (let i = 0; i < keys.length; i++) {
    defineProperty(EventEmitter, keys[i], { value: statics[keys[i]], writable: true, enumerable: true,
      configurable: true });
  }
  defineProperty(EventEmitter, 'captureRejections', {
    get: () => captureRejections,
    set: (value) => {
      if (typeof value !== 'boolean') throw invalidArgType('EventEmitter.captureRejections', 'of type boolean', value);
      captureRejections = value;
      defineProperty(proto, kCapture, { value, writable: true });
    },
    enumerable: true, configurable: true,
  });
  // Needs async_hooks, which the sandbox does not have.
  defineProperty(EventEmitter, 'EventEmitterAsyncResource', { get: () => undefined, enumerable: true,
    configurable: true });
  defineProperty(EventEmitter, 'errorMonitor', { value: errorMonitor, writable: false, enumerable: true });
  defineProperty(EventEmitter, 'defaultMaxListeners', {
    get: () => defaultMaxListeners,
    set: (value) => {
      checkCount(value, 'defaultMaxListeners');
      defaultMaxListeners = value;
    },
    enumerable: true, configurable: true,
  });
  const tail = {
    setMaxListeners,
    init,
    listenerCount: (emitter, type) => {
      if (typeof emitter.listenerCount === 'function') return emitter.listenerCount(type);
      return apply(listenerCount, emitter, [type]);
    },
  };
  const tailKeys = ownKeys(tail);
  for (let i = 0; i < tailKeys.length; i++) {
    defineProperty(EventEmitter, tailKeys[i], { value: tail[tailKeys[i]], writable: true, enumerable: true,
      configurable: true });
  }
  return EventEmitter;
})
