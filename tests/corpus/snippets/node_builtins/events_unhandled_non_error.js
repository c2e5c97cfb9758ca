const EventEmitter = require('events');
const e = new EventEmitter();
try {
  e.emit('error', { code: 42 });
} catch (err) {
  console.log(err.code);
  console.log(err.message);
  console.log(err.context);
}
'done';
