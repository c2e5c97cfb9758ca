const EventEmitter = require('events');
const emitter = new EventEmitter();
let message;
try {
  emitter.emit('error', new Error('disk full'));
} catch (err) {
  message = err.message;
}
console.log('caught:', message);
emitter.on('error', (err) => console.log('handled:', err.message));
emitter.emit('error', new Error('disk full again'));
message;
