// Uses every Node module once (`operations`), then breaks the built-ins the modules could
// reach for (array, string, typed-array, Map, RegExp and Function methods, Object and Reflect
// functions, an indexed accessor on Array.prototype) and uses them again: the modules hold
// their own copies, taken when they were compiled, so the answers must not change.
// The value is JSON: { same, first } where `first` is what the first round gave.
const path = require('path');
const util = require('util');
const qs = require('querystring');
const url = require('url');
const EventEmitter = require('events');
const assert = require('assert');
const { StringDecoder } = require('string_decoder');
const B = Buffer;
const stringify = JSON.stringify;
const setProto = Object.setPrototypeOf;
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array).prototype;
const list = () => setProto([], null);
const left = new Map();
left.set(1, 2);
const right = new Map();
right.set(1, 2);

function operations() {
  const out = list();
  const add = (...values) => {
    for (let i = 0; i < values.length; i++) out[out.length] = values[i];
  };
  add(path.join('/a', 'b', '../c'), path.parse('/x/y.tar.gz').ext, path.relative('/a/b', '/a/c/d'));
  add(B.from('héllo').toString('base64'), B.from('aGk=', 'base64').toString(),
    B.concat([B.from('a'), B.from('b')]).toString('hex'));
  const bytes = B.alloc(8);
  bytes.writeUInt32BE(0xdeadbeef, 0);
  bytes.writeInt16LE(-2, 4);
  add(bytes.toString('hex'), bytes.readUInt16BE(1), bytes.indexOf(0xad), util.inspect(bytes));
  add(util.format('%s:%d %j', 'a', 1, { x: [1] }), util.inspect({ a: [1, { b: 2 }] }),
    util.isDeepStrictEqual({ a: [1, left] }, { a: [1, right] }), util.stripVTControlCharacters('\u001b[1mb\u001b[22m'));
  add(stringify(qs.parse('a=1&a=2&b=x%20y')), qs.stringify({ a: [1, 2], b: 'c d' }));
  const parsed = url.parse('http://user@Host.com:81/p/a?x=1#h', true);
  add(parsed.href, parsed.host, stringify(parsed.query), url.resolve('http://a/b/c', '../d'),
    url.format({ protocol: 'https', hostname: 'x', pathname: '/y' }));
  const emitter = new EventEmitter();
  const seen = list();
  emitter.on('x', (v) => { seen[seen.length] = v; });
  emitter.once('x', (v) => { seen[seen.length] = 'once' + v; });
  emitter.emit('x', 1);
  emitter.emit('x', 2);
  add(seen.length + ':' + seen[0] + seen[1] + seen[2], emitter.listenerCount('x'), emitter.eventNames().length);
  try {
    assert.deepStrictEqual({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] });
  } catch (error) {
    add(error.message);
  }
  try {
    assert.strictEqual(1, 2);
  } catch (error) {
    add(error.message);
  }
  const decoder = new StringDecoder('utf8');
  add(decoder.write(B.from([0xe2, 0x82])) + decoder.write(B.from([0xac])) + decoder.end());
  return out;
}

const first = operations();
const broken = () => { throw new Error('a built-in the code replaced was called'); };
const breakAll = (object, names) => {
  for (let i = 0; i < names.length; i++) object[names[i]] = broken;
};
breakAll(Array.prototype, ['push', 'pop', 'shift', 'unshift', 'splice', 'join', 'sort', 'map', 'slice', 'indexOf',
  'includes', 'forEach', 'filter', 'concat', 'fill', 'reverse']);
breakAll(String.prototype, ['slice', 'charCodeAt', 'indexOf', 'lastIndexOf', 'toLowerCase', 'split', 'replace',
  'includes', 'startsWith', 'endsWith', 'repeat', 'padStart', 'trim', 'normalize', 'toString']);
breakAll(TypedArrayPrototype, ['set', 'subarray', 'fill', 'slice']);
breakAll(Map.prototype, ['get', 'set', 'has']);
breakAll(Set.prototype, ['has', 'add']);
breakAll(RegExp.prototype, ['exec', 'test']);
RegExp.prototype[Symbol.replace] = broken;
Array.prototype[Symbol.iterator] = broken;
Object.defineProperty(Array.prototype, '0', { set: broken, get: broken, configurable: true });
breakAll(Object, ['keys', 'defineProperty', 'getPrototypeOf', 'create', 'assign', 'entries']);
breakAll(Reflect, ['apply', 'ownKeys', 'construct']);
breakAll(Function.prototype, ['call', 'apply', 'bind']);
breakAll(Math, ['min', 'max', 'floor', 'trunc']);
String.fromCharCode = broken;
Number.prototype.toString = broken;
Promise.prototype.then = broken;

let second;
try {
  second = operations();
} catch (error) {
  second = [String(error.stack)];
}
let same = second.length === first.length;
for (let i = 0; i < first.length; i++) {
  if (second[i] !== first[i]) same = false;
}
stringify({ same, first });
