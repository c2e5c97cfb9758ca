const EventEmitter = require('events');
const e = new EventEmitter();
e.name = 'emitter-1';
const results = [];
e.on('who', function () { results.push(this.name); });
e.on('who', () => results.push(typeof this));
e.emit('who');
console.log(results);
results;
