// globals: performance Performance PerformanceEntry PerformanceMark PerformanceMeasure
// requires: internal/errors
(function (host) {
  'use strict';
  // High-resolution time as the sandbox can give it: performance.now() counts milliseconds
  // since the call started (the host's clock, Date.now resolution), with marks and measures.
  const defineProperty = Object.defineProperty;
  const now = host.now;
  const timeOrigin = Date.now() - now();
  const INSPECT = Symbol.for('nodejs.util.inspect.custom');
  const token = {};
  let entries = [];
  let performance;

  // DOMException is compiled only when an error needs it.
  function domException(message, name) {
    const DOMException = host.global('DOMException');
    return new DOMException(message, name);
  }

  const TypeErrorCtor = TypeError;
  const { codedError, invalidArgType } = host.require('internal/errors');

  function illegal() {
    return codedError(TypeErrorCtor, 'ERR_ILLEGAL_CONSTRUCTOR', 'Illegal constructor');
  }

  function checkThis(value) {
    if (value !== performance) {
      throw invalidArgType('this', 'an instance of Performance', value);
    }
  }

  // Inspection options one level deeper, as Node passes them on for these objects.
  function nested(options) {
    return { ...options, depth: options.depth == null ? null : options.depth - 1 };
  }

  function missingName() {
    return codedError(TypeErrorCtor, 'ERR_MISSING_ARGS', 'The "name" argument must be specified');
  }

  let detailOf;

  class PerformanceEntry {
    #name;
    #type;
    #start;
    #duration;
    #detail;
    constructor() {
      const args = arguments;
      if (args[0] !== token) throw illegal();
      this.#name = args[1];
      this.#type = args[2];
      this.#start = args[3];
      this.#duration = args[4];
      this.#detail = args[5] === undefined ? null : args[5];
    }

    static {
      detailOf = (entry) => entry.#detail;
    }

    get name() { return this.#name; }
    get entryType() { return this.#type; }
    get startTime() { return this.#start; }
    get duration() { return this.#duration; }

    toJSON() {
      return { name: this.#name, entryType: this.#type, startTime: this.#start, duration: this.#duration };
    }

    [INSPECT](depth, options, inspect) {
      if (depth < 0) return this; // Node then prints [Name]
      return this[Symbol.toStringTag] + ' ' + inspect(this.toJSON(), nested(options));
    }
  }

  class PerformanceMark extends PerformanceEntry {
    constructor(name, options = undefined) {
      if (arguments.length === 0) throw missingName();
      const start = options == null || options.startTime === undefined ? now() : +options.startTime;
      super(token, `${name}`, 'mark', start, 0, options == null ? null : options.detail);
    }

    get detail() { return detailOf(this); }

    toJSON() {
      const json = super.toJSON();
      json.detail = detailOf(this);
      return json;
    }
  }

  // Measures are made only by performance.measure(); they share the mark's detail and toJSON.
  class PerformanceMeasure extends PerformanceEntry {}
  defineProperty(PerformanceMeasure.prototype, 'detail', Object.getOwnPropertyDescriptor(PerformanceMark.prototype,
    'detail'));
  defineProperty(PerformanceMeasure.prototype, 'toJSON', Object.getOwnPropertyDescriptor(PerformanceMark.prototype,
    'toJSON'));

  // A time given to measure(): a number, or the name of the latest mark so named.
  function timeOf(value) {
    if (typeof value === 'number') return value;
    const name = `${value}`;
    for (let i = entries.length - 1; i >= 0; i--) {
      if (entries[i].entryType === 'mark' && entries[i].name === name) return entries[i].startTime;
    }
    throw domException('The "' + name + '" performance mark has not been set', 'SyntaxError');
  }

  function add(entry) {
    let i = entries.length;
    for (; i > 0 && entries[i - 1].startTime > entry.startTime; i--) entries[i] = entries[i - 1];
    entries[i] = entry;
    return entry;
  }

  function select(name, type) {
    const found = [];
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if ((name === undefined || entry.name === name) && (type === undefined || entry.entryType === type)) {
        found[found.length] = entry;
      }
    }
    return found;
  }

  function clear(type, name) {
    const kept = [];
    for (let i = 0; i < entries.length; i++) {
      const entry = entries[i];
      if (entry.entryType !== type || (name !== undefined && entry.name !== `${name}`)) kept[kept.length] = entry;
    }
    entries = kept;
  }

  class Performance {
    constructor() {
      if (arguments[0] !== token) throw illegal();
    }

    clearMarks(name = undefined) {
      checkThis(this);
      clear('mark', name);
    }

    clearMeasures(name = undefined) {
      checkThis(this);
      clear('measure', name);
    }

    getEntries() {
      checkThis(this);
      return select();
    }

    getEntriesByName(name, type = undefined) {
      checkThis(this);
      return select(`${name}`, type === undefined ? undefined : `${type}`);
    }

    getEntriesByType(type) {
      checkThis(this);
      return select(undefined, `${type}`);
    }

    mark(name, options = undefined) {
      checkThis(this);
      if (arguments.length === 0) throw missingName();
      return add(new PerformanceMark(name, options));
    }

    measure(name, startOrOptions = undefined, endMark = undefined) {
      checkThis(this);
      if (arguments.length === 0) throw missingName();
      let start;
      let end;
      let detail = null;
      if (startOrOptions !== null && typeof startOrOptions === 'object') {
        const options = startOrOptions;
        const duration = options.duration;
        if (options.detail !== undefined) detail = options.detail;
        end = options.end !== undefined ? timeOf(options.end) :
          options.start !== undefined && duration !== undefined ? timeOf(options.start) + +duration : now();
        start = options.start !== undefined ? timeOf(options.start) :
          duration !== undefined && options.end !== undefined ? end - duration : 0;
      } else {
        end = endMark !== undefined ? timeOf(endMark) : now();
        start = startOrOptions !== undefined ? timeOf(startOrOptions) : 0;
      }
      return add(new PerformanceMeasure(token, `${name}`, 'measure', start, end - start, detail));
    }

    now() {
      checkThis(this);
      return now();
    }

    get timeOrigin() {
      checkThis(this);
      return timeOrigin;
    }

    toJSON() {
      checkThis(this);
      return { timeOrigin };
    }

    [INSPECT](depth, options, inspect) {
      if (depth < 0) return this; // Node then prints [Name]
      return 'Performance ' + inspect({ timeOrigin }, nested(options));
    }
  }

  const classes = [Performance, PerformanceEntry, PerformanceMark, PerformanceMeasure];
  for (let i = 0; i < classes.length; i++) {
    const prototype = classes[i].prototype;
    const keys = Object.getOwnPropertyNames(prototype);
    for (let k = 1; k < keys.length; k++) defineProperty(prototype, keys[k], { enumerable: true });
    defineProperty(prototype, Symbol.toStringTag, { value: classes[i].name, configurable: true });
  }
  performance = new Performance(token);
  return { performance, Performance, PerformanceEntry, PerformanceMark, PerformanceMeasure };
})
