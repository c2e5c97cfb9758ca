const EventEmitter = require('events');
const e = new EventEmitter();
e.on('ready', function onReady() {});
console.log(e);
e.listenerCount('ready');
