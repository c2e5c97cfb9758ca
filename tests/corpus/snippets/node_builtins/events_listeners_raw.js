const EventEmitter = require('events');
const e = new EventEmitter();
function onData() {}
e.once('data', onData);
e.on('data', () => {});
const listeners = e.listeners('data');
const raw = e.rawListeners('data');
console.log(listeners[0] === onData, raw[0] === onData, raw[0].listener === onData);
console.log(e.getMaxListeners(), EventEmitter.defaultMaxListeners);
listeners.length;
