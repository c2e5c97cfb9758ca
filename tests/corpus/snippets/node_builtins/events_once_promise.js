const { EventEmitter, once } = require('events');
const server = new EventEmitter();
setTimeout(() => server.emit('listening', 8080, 'localhost'), 10);
const [port, host] = await once(server, 'listening');
console.log(`listening on ${host}:${port}`);
({ port, host });
