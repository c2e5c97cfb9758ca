// Replayable runs. A run that may have to be run again from its start (one paused for the
// user's consent and resumed, possibly on another server; a session's cell replayed to rebuild
// the session elsewhere) records what it saw that the code alone does not decide: the clock
// readings it made, the order in which its timers and host answers came, and it draws
// Math.random from a generator seeded by the server. Run again with that journal as a prefix,
// the code sees the same readings and the same order of events until the prefix is used up, so
// it computes the same values and makes the same host calls with the same arguments; from then
// on it runs live and goes on recording. crypto's random bytes already come from the run's seed.
//
// The clock is one source: Date.now(), new Date(), Date(), performance.now(), process.hrtime(),
// Temporal.Now and Intl.DateTimeFormat's format() of no date all read it. Readings are kept as
// [difference from the previous reading, how many times in a row] pairs, so that a loop reading
// the clock costs a counter. Events are timer ids (a timer's callback ran) and negated host call
// ids (a host call's answer was delivered). While the prefix lasts, a timer fires as soon as it
// may and an event that comes before its turn waits (held) until the events before it have run.

const JOURNAL_MAX_ENTRIES = 20000;

const journalState = {
  __proto__: null,
  on: false,
  // Clock readings as [difference, count] pairs (flat), the pair being read and how many of its
  // readings are still to serve; the prefix ends at `clockPrefixEnd`.
  clock: undefined,
  clockPair: 0,
  clockServed: 0,
  clockPrefixEnd: 0,
  last: 0,
  // Events in order; `eventPos` is the next one the prefix expects.
  events: undefined,
  eventPos: 0,
  eventPrefixEnd: 0,
  held: undefined,
  releasing: false,
  overflow: false,
  // xoshiro128** state for Math.random.
  s0: 0, s1: 0, s2: 0, s3: 0,
  installed: false,
};

// group: journal
function startJournal(spec) {
  const clock = list();
  const events = list();
  const prefixClock = spec !== null && typeof spec === 'object' ? describe(spec, 'clock') : undefined;
  const prefixEvents = spec !== null && typeof spec === 'object' ? describe(spec, 'events') : undefined;
  copyNumbers(prefixClock, clock, true);
  copyNumbers(prefixEvents, events, false);
  journalState.clock = clock;
  journalState.clockPair = 0;
  journalState.clockServed = 0;
  journalState.clockPrefixEnd = clock.length;
  journalState.last = 0;
  journalState.events = events;
  journalState.eventPos = 0;
  journalState.eventPrefixEnd = events.length;
  journalState.held = ObjectCreate(null);
  journalState.releasing = false;
  journalState.overflow = false;
  const random = spec !== null && typeof spec === 'object' ? describe(spec, 'random') : undefined;
  seedRandom(random !== undefined ? random.value : undefined);
  journalState.on = true;
  if (!journalState.installed) {
    journalState.installed = true;
    installJournalClock();
  }
}

// Copies the finite numbers of a JSON array (pairs: an even count of non-negative counts).
// group: journal
function copyNumbers(descriptor, into, pairs) {
  if (descriptor === undefined || !ArrayIsArray(descriptor.value)) return;
  const values = descriptor.value;
  const length = pairs ? values.length - (values.length % 2) : values.length;
  for (let i = 0; i < length; i++) {
    const value = values[i];
    if (typeof value !== 'number' || !NumberIsFinite(value)) return;
    if (pairs && i % 2 === 1 && !(value >= 1)) return;
    ArrayPrototypePush(into, value);
  }
}

// The clock as the running code sees it.
// group: eager
function userNow() {
  return journalState.on ? journalNow() : DateNow();
}

// group: journal
function journalNow() {
  const state = journalState;
  const clock = state.clock;
  if (state.clockPair < state.clockPrefixEnd) {
    state.last += clock[state.clockPair];
    state.clockServed++;
    if (state.clockServed >= clock[state.clockPair + 1]) {
      state.clockPair += 2;
      state.clockServed = 0;
    }
    return state.last;
  }
  let now = DateNow();
  if (now < state.last) now = state.last;
  const difference = now - state.last;
  state.last = now;
  const length = clock.length;
  if (length > state.clockPrefixEnd && clock[length - 2] === difference) {
    clock[length - 1]++;
  } else if (length < 2 * JOURNAL_MAX_ENTRIES) {
    ArrayPrototypePush(clock, difference);
    ArrayPrototypePush(clock, 1);
  } else {
    state.overflow = true;
  }
  state.clockPair = clock.length;
  return now;
}

// Whether the prefix still decides the order of events.
// group: eager
function journalReplaying() {
  return journalState.on && journalState.eventPos < journalState.eventPrefixEnd;
}

// Runs the event `key` now if its turn has come, else holds it until the events before it have
// run. `run` is what the event does; `dispatch` is how it comes in again once the prefix is used
// up (a timer that fired early to keep up with the prefix waits then for its due time).
// group: journal
function journalEvent(key, run, dispatch) {
  const state = journalState;
  if (state.eventPos >= state.eventPrefixEnd) {
    recordEvent(key);
    run();
    return;
  }
  if (state.events[state.eventPos] !== key) {
    const entry = { __proto__: null, run, dispatch };
    const waiting = state.held[key];
    if (waiting === undefined) state.held[key] = asList([entry]);
    else ArrayPrototypePush(waiting, entry);
    return;
  }
  state.eventPos++;
  run();
  releaseHeld();
}

// group: journal
function recordEvent(key) {
  const events = journalState.events;
  if (events.length < JOURNAL_MAX_ENTRIES) ArrayPrototypePush(events, key);
  else journalState.overflow = true;
}

// The held event whose turn has come runs as a task of its own, as it did when it was recorded.
// When the prefix is used up, what is still held comes in again, in the order it came.
// group: journal
function releaseHeld() {
  const state = journalState;
  if (state.releasing) return;
  const replaying = state.eventPos < state.eventPrefixEnd;
  const ready = replaying ? state.held[state.events[state.eventPos]] !== undefined : ObjectKeys(state.held).length > 0;
  if (!ready) return;
  state.releasing = true;
  nextTask(releaseNextHeld);
}

// group: journal
function releaseNextHeld() {
  const state = journalState;
  state.releasing = false;
  if (!state.on || runState.finished) return;
  if (state.eventPos < state.eventPrefixEnd) {
    const key = state.events[state.eventPos];
    const waiting = state.held[key];
    if (waiting === undefined) return;
    state.eventPos++;
    takeHeld(key, waiting).run();
  } else {
    const keys = ObjectKeys(state.held);
    if (keys.length === 0) return;
    takeHeld(keys[0], state.held[keys[0]]).dispatch();
  }
  releaseHeld();
}

// group: journal
function takeHeld(key, waiting) {
  const entry = waiting[0];
  if (waiting.length === 1) {
    delete journalState.held[key];
  } else {
    const rest = list();
    for (let i = 1; i < waiting.length; i++) ArrayPrototypePush(rest, waiting[i]);
    journalState.held[key] = rest;
  }
  return entry;
}

// A timer of a journaled run fired. While the prefix lasts timers fire as soon as they may (the
// prefix says when each one's turn is); afterwards one that is not due yet waits for its time,
// read from the host's clock without a reading the journal would have to keep.
// group: journal
function journalTimer(timer) {
  if (!journalReplaying() && DateNow() < timer.due) {
    timer.cell = afterDelay(MathMax(1, timer.due - DateNow()), () => fireTimer(timer));
    return;
  }
  journalEvent(timer.id, () => fireTimerNow(timer), () => fireTimer(timer));
}

// A host call's answer reached a journaled run.
// group: journal
function journalAnswer(id, deliver) {
  journalEvent(-id, deliver, deliver);
}

// The journal as the outcome of a journaled run carries it: ',"journal":{...}'.
function journalJson() {
  const state = journalState;
  let json = ',"journal":{"clock":' + numberListJson(state.clock) + ',"events":' + numberListJson(state.events) +
    ',"overflow":' + (state.overflow ? 'true' : 'false') +
    ',"replaying":' + (state.eventPos < state.eventPrefixEnd || state.clockPair < state.clockPrefixEnd ? 'true' : 'false');
  if (runState.memory !== undefined) {
    json += ',"memory":{"used":' + runState.memory.used + ',"total":' + runState.memory.total + '}';
  }
  return json + '}';
}

function numberListJson(values) {
  let json = '[';
  for (let i = 0; i < values.length; i++) json += (i === 0 ? '' : ',') + values[i];
  return json + ']';
}

// xoshiro128** (Blackman and Vigna), seeded with 16 bytes from the server; two outputs make the
// 53 bits of a double, as V8's own Math.random has.
// group: journal
function seedRandom(hex) {
  const words = [0x9e3779b9, 0x243f6a88, 0xb7e15162, 0x85a308d3];
  if (typeof hex === 'string' && hex.length === 32) {
    for (let i = 0; i < 4; i++) {
      const word = NumberParseInt(StringPrototypeSlice(hex, 8 * i, 8 * i + 8), 16);
      if (NumberIsFinite(word)) words[i] = word | 0;
    }
  }
  if ((words[0] | words[1] | words[2] | words[3]) === 0) words[0] = 1;
  journalState.s0 = words[0];
  journalState.s1 = words[1];
  journalState.s2 = words[2];
  journalState.s3 = words[3];
}

// group: journal
function nextRandomWord() {
  const state = journalState;
  const s1 = state.s1;
  const t = s1 << 9;
  let r = MathImul(s1, 5);
  r = MathImul((r << 7) | (r >>> 25), 9);
  state.s2 ^= state.s0;
  state.s3 ^= s1;
  state.s1 ^= state.s2;
  state.s0 ^= state.s3;
  state.s2 ^= t;
  state.s3 = (state.s3 << 11) | (state.s3 >>> 21);
  return r >>> 0;
}

// group: journal
function journalRandom() {
  const high = nextRandomWord() >>> 5;
  const low = nextRandomWord() >>> 6;
  return (high * 67108864 + low) / 9007199254740992;
}

// Replaces, once per isolate and before the first journaled run's code, everything that reads
// the clock or Math.random's generator with versions that go through the journal. Each keeps
// the name, length and property attributes of what it replaces.
// group: journal
function installJournalClock() {
  const NativeDate = DateCtor;
  // A function expression, not a method: it must be a constructor. Seven parameters, as Date.length.
  const JournalDate = function Date(year, month, date, hours, minutes, seconds, ms) {
    if (new.target === undefined) return DatePrototypeToString(ReflectConstruct(NativeDate, [userNow()]));
    return ReflectConstruct(NativeDate, arguments.length === 0 ? [userNow()] : arguments, new.target);
  };
  ReflectDefineProperty(JournalDate, 'prototype', {
    __proto__: null, value: DatePrototype, writable: false, enumerable: false, configurable: false,
  });
  ReflectDefineProperty(DatePrototype, 'constructor', {
    __proto__: null, value: JournalDate, writable: true, enumerable: false, configurable: true,
  });
  const statics = { now() { return userNow(); } };
  defineMethod(JournalDate, 'now', statics.now);
  defineMethod(JournalDate, 'parse', NativeDate.parse);
  defineMethod(JournalDate, 'UTC', NativeDate.UTC);
  defineGlobalValue('Date', JournalDate);
  const math = globalObject.Math;
  if (math !== null && typeof math === 'object') {
    defineMethod(math, 'random', { random() { return journalRandom(); } }.random);
  }
  installTemporalClock();
  installIntlClock();
}

// group: journal
function defineMethod(object, name, value) {
  ReflectDefineProperty(object, name, {
    __proto__: null, value, writable: true, enumerable: false, configurable: true,
  });
}

// group: journal
function installTemporalClock() {
  const temporal = describe(globalObject, 'Temporal');
  if (temporal === undefined || temporal.value === null || typeof temporal.value !== 'object') return;
  const now = describe(temporal.value, 'Now');
  const instantClass = describe(temporal.value, 'Instant');
  if (now === undefined || instantClass === undefined || typeof instantClass.value !== 'function') return;
  const Now = now.value;
  const fromEpochMilliseconds = instantClass.value.fromEpochMilliseconds;
  const toZoned = instantClass.value.prototype.toZonedDateTimeISO;
  const timeZoneId = Now.timeZoneId;
  const instant = () => ReflectApply(fromEpochMilliseconds, instantClass.value, [userNow()]);
  const zoned = (zone) => ReflectApply(toZoned, instant(), [zone === undefined ? ReflectApply(timeZoneId, Now, []) : zone]);
  const methods = {
    instant() { return instant(); },
    zonedDateTimeISO(timeZone) { return zoned(timeZone); },
    plainDateTimeISO(timeZone) { return zoned(timeZone).toPlainDateTime(); },
    plainDateISO(timeZone) { return zoned(timeZone).toPlainDate(); },
    plainTimeISO(timeZone) { return zoned(timeZone).toPlainTime(); },
  };
  const names = ObjectKeys(methods);
  for (let i = 0; i < names.length; i++) defineMethod(Now, names[i], methods[names[i]]);
}

// group: journal
function installIntlClock() {
  const intl = describe(globalObject, 'Intl');
  if (intl === undefined || intl.value === null || typeof intl.value !== 'object') return;
  const formatClass = describe(intl.value, 'DateTimeFormat');
  if (formatClass === undefined || typeof formatClass.value !== 'function') return;
  const prototype = formatClass.value.prototype;
  const formatGetter = describe(prototype, 'format');
  if (formatGetter !== undefined && typeof formatGetter.get === 'function') {
    const nativeGet = formatGetter.get;
    ReflectDefineProperty(prototype, 'format', {
      __proto__: null,
      get: describe({ get format() {
        const bound = ReflectApply(nativeGet, this, []);
        return { format(date) { return bound(date === undefined ? userNow() : date); } }.format;
      } }, 'format').get,
      enumerable: formatGetter.enumerable,
      configurable: true,
    });
  }
  const toParts = describe(prototype, 'formatToParts');
  if (toParts !== undefined && typeof toParts.value === 'function') {
    const nativeParts = toParts.value;
    defineMethod(prototype, 'formatToParts', {
      formatToParts(date) { return ReflectApply(nativeParts, this, [date === undefined ? userNow() : date]); },
    }.formatToParts);
  }
}
