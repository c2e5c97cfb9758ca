const util = require('util');
const EventEmitter = require('events');
function Logger(name) {
  EventEmitter.call(this);
  this.name = name;
}
util.inherits(Logger, EventEmitter);
Logger.prototype.log = function (msg) { this.emit('line', `[${this.name}] ${msg}`); };
const logger = new Logger('app');
const lines = [];
logger.on('line', (l) => lines.push(l));
logger.log('started');
logger.log('ready');
console.log(lines, logger instanceof EventEmitter, Logger.super_ === EventEmitter);
lines;
